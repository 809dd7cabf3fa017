/**
 * Salience through encoders: gradient x input of one label's logit (by default entailment) of a sequence
 * classifier -- an NLI cross-encoder such as a BERT, DistilBERT or DeBERTa-v2 MNLI model -- with respect
 * to the word embeddings of a premise/hypothesis pair, per token and per word, so a user sees which words
 * the model relied on.
 *
 * Framing: the classifier reads `[CLS] premise [SEP] hypothesis [SEP]` (the tokenizer's own pair template);
 * for an NPOV input the premise is the arguments (in perspective order, joined by spaces) -- for a sources
 * input, the sources' sentences -- and the hypothesis is the whole response: "does the evidence entail the
 * response?", the direction the `nli` detector uses for hallucination, attributed in one pass over the
 * whole pair. The query and topic are not part of the premise: they are questions, not evidence.
 *
 * Computation: the same normalised graph as every npov gradient (`loadPretrained` -> `normalizeModel`,
 * quantized weights dequantized, fp16 widened), cut at the word-embedding lookup
 * (`classifierEmbeddingGraph`); one forward and one backward pass per pair, seeded with the one-hot
 * upstream gradient of the label's logit. A token's attribution is dot(gradient, embedding) (`grad-x-input`,
 * signed: positive pushes the label up) or the gradient's L2 norm (`grad-norm`); a word's is the sum of its
 * tokens' (for `grad-norm`, the norm over its tokens' gradients). `share` is a word's |attribution| over the
 * sum of all words' (premise and hypothesis), so shares compare words within one pair. Special tokens
 * ([CLS], [SEP]) belong to no word; their total is reported as `special`.
 *
 * Nothing here says a model is any good: on the random-weight test models the maps are noise. See
 * {@link EncoderSalience.checkModel}.
 */
import { join } from "node:path";
import {
  type ClassifierEmbeddingGraph,
  classifierEmbeddingGraph,
  classifierLabels,
  configArchitectures,
  encodeForContext,
  feedsFor,
  GradientSession,
  int64Tensor,
  LabelNotFoundError,
  loadPretrained,
  type ModelContext,
  type ModelDtype,
  ModelKindError,
  ModelRunError,
  maxPositions,
  modelContext,
  type PretrainedFiles,
  requireRepresentable,
  UnsupportedModelError,
} from "@npov/autograd";
import {
  type CheckInput,
  ContextTooLongError,
  groundingOf,
  InvalidScoreError,
  InvalidValueError,
  requireScorableText,
  segmentWords,
  validateResponse,
} from "@npov/core";
import * as ort from "onnxruntime-node";
import { alignTokens, type TokenSpan, tokensIn } from "./align.js";
import type { SalienceVariant } from "./detector.js";

/** Options of {@link EncoderSalience.fromPretrained}. */
export interface EncoderSalienceOptions {
  /** Weights variant (transformers.js naming); default "auto" (see `loadPretrained`). */
  dtype?: ModelDtype | "auto";
  revision?: string;
  /** Graph file base name (default `model`). */
  modelFileName?: string;
  /** `grad-x-input` (default): dot(gradient, embedding); `grad-norm`: the gradient's L2 norm. */
  variant?: SalienceVariant;
  /** The label whose logit is attributed (matched case-insensitively to config.json's id2label); default entailment. */
  label?: string;
  /** Compute in float64 (slower; for checks) or float32 (default). */
  precision?: "float32" | "float64";
  /** onnxruntime session options (default: one intra-op thread, logging off). */
  sessionOptions?: ort.InferenceSession.SessionOptions;
  /**
   * Words the tokenizer maps to its unknown token: `"error"` (default) refuses them with a typed
   * UNREPRESENTABLE_TEXT error, `"score"` scores anyway (such words get the unknown token's attribution).
   */
  unrepresentableText?: "error" | "score";
}

/** One token of the pair: where it comes from and its attribution. */
export interface EncoderToken {
  id: number;
  /** `premise`, `hypothesis`, or `special` (the template's [CLS], [SEP], ...). */
  segment: "premise" | "hypothesis" | "special";
  /** Character span in its segment's text (empty for special tokens). */
  start: number;
  end: number;
  attribution: number;
}

/** One word of the premise or the hypothesis. */
export interface EncoderWord {
  text: string;
  /** Offsets in its text (the premise, the hypothesis, or -- for argument words -- the argument). */
  start: number;
  end: number;
  /** Sum of its tokens' attributions (signed for grad-x-input). */
  attribution: number;
  /** |attribution| / the sum of |attribution| over every word of the pair (0 when that sum is 0). */
  share: number;
}

/** The salience maps of one premise/hypothesis pair. */
export interface EncoderSalienceMap {
  method: "encoder-salience";
  variant: SalienceVariant;
  /** The attributed label and its index in the logits. */
  label: string;
  labelIndex: number;
  /** All labels (config.json id2label order), the pair's logits and softmax probabilities. */
  labels: string[];
  logits: number[];
  probabilities: number[];
  premise: { text: string; words: EncoderWord[] };
  hypothesis: { text: string; words: EncoderWord[] };
  /** Every token of the pair in model order. */
  tokens: EncoderToken[];
  /** Sum of the special tokens' attributions (they belong to no word). */
  special: number;
  /**
   * max over tokens of |dot(gradient, embedding)| / max over tokens of |gradient| |embedding|: how much the
   * label's logit changes when a word embedding is scaled, against how much it could. Near 0 when the model
   * normalizes the word embeddings' scale away before anything else is added (a LayerNorm straight after
   * the lookup, no absolute positions: DeBERTa-v2/v3): gradient x input is then ~0 for every token by
   * construction, whatever the model learned -- use the `grad-norm` variant (see {@link scaleInvariant}).
   */
  scaleSensitivity: number;
  /** scaleSensitivity below 1e-3: grad-x-input says nothing for this model (see {@link EncoderSalienceMap.scaleSensitivity}). */
  scaleInvariant: boolean;
}

/** Premises whose tokens and alignment an EncoderSalience keeps (oldest dropped first). */
const PREMISE_CACHE = 32;

/** Below this scale sensitivity, gradient x input is an artefact of normalisation, not the model's reliance. */
const SCALE_INVARIANT = 1e-3;

/** An argument word of an NPOV input (or a word of a source's sentence), with where it is. */
export interface EncoderArgumentWord extends EncoderWord {
  /** The perspective (sources input: the source) and argument (sources input: the sentence) it is in. */
  perspective: number;
  argument: number;
  /** Sources input only: the source and the word's offsets in that source's text. */
  origin?: { source: number; start: number; end: number };
}

/** The NPOV framing of {@link EncoderSalience.scoreInput}: argument words (premise) and response words (hypothesis). */
export interface EncoderInputSalience extends EncoderSalienceMap {
  words: { arguments: EncoderArgumentWord[]; response: EncoderWord[] };
  /** Per perspective and argument: the summed share of its words. */
  perspectives: Array<{ label: string; share: number; arguments: Array<{ text: string; share: number }> }>;
}

/** Result of {@link EncoderSalience.checkModel}. */
export interface EncoderModelCheck {
  /** Mean probability of the entailment label for a sentence paired with itself (three fixed sentences). */
  selfEntailment: number;
  /** Mean probability of the entailment label for a sentence paired with an unrelated one (the same three, rotated). */
  unrelatedEntailment: number;
  /**
   * Whether the model entails a sentence from itself (above 0.5) and clearly less from an unrelated
   * sentence (by more than 0.3): the least an NLI model must do before its maps mean anything. A trained
   * MNLI model passes by far (nearly 1 against nearly 0); random weights give every pair about the same
   * probability, whatever their bias towards one label.
   */
  passed: boolean;
}

/** Sentences of {@link EncoderSalience.checkModel}: plain, short, unrelated to each other, in any English vocabulary. */
const CHECK_SENTENCES = [
  "A man is playing a guitar on the stage.",
  "The children are reading books in the library.",
  "It rained all day in the city.",
];

interface Built {
  graph: ClassifierEmbeddingGraph;
  session: GradientSession;
}

/** Gradient x input salience of a sequence classifier's label logit (see the module comment). */
export class EncoderSalience {
  readonly name = "encoder-salience";
  private built: Promise<Built> | undefined;
  private contextCache: ModelContext | undefined;
  /** Token ids and spans of recent premises (see {@link PREMISE_CACHE}). */
  private readonly premises = new Map<string, { ids: number[]; spans: TokenSpan[] }>();

  private constructor(
    readonly files: PretrainedFiles,
    readonly labels: string[],
    readonly labelIndex: number,
    /** Index of the entailment label, when the model has one. */
    readonly entailmentIndex: number | undefined,
    readonly options: {
      variant: SalienceVariant;
      precision: "float32" | "float64";
      sessionOptions: ort.InferenceSession.SessionOptions;
      unrepresentableText: "error" | "score";
    },
  ) {}

  /**
   * Load a sequence classifier by folder or hub id (the transformers.js way, see `loadPretrained`).
   * @throws ModelKindError (WRONG_MODEL_KIND) for a language model; LabelNotFoundError when the model has no
   * entailment label (or not the one `label` names); ModelFileError for a config.json without id2label;
   * InvalidValueError on bad options; and what `loadPretrained` throws.
   */
  static async fromPretrained(idOrPath: string, options: EncoderSalienceOptions = {}): Promise<EncoderSalience> {
    const variant = options.variant ?? "grad-x-input";
    if (variant !== "grad-x-input" && variant !== "grad-norm")
      throw new InvalidValueError("variant", 'must be "grad-x-input" or "grad-norm".');
    const precision = options.precision ?? "float32";
    if (precision !== "float32" && precision !== "float64")
      throw new InvalidValueError("precision", 'must be "float32" or "float64".');
    const unrepresentableText = options.unrepresentableText ?? "error";
    if (unrepresentableText !== "error" && unrepresentableText !== "score")
      throw new InvalidValueError("unrepresentableText", 'must be "error" or "score".');
    const files = await loadPretrained(idOrPath, {
      dtype: options.dtype ?? "auto",
      revision: options.revision ?? "main",
      ...(options.modelFileName !== undefined ? { modelFileName: options.modelFileName } : {}),
    });
    if (files.kind !== "sequence-classifier")
      throw new ModelKindError(
        files.dir,
        files.kind ?? "causal",
        ["sequence-classifier"],
        "encoder salience (the gradient of a label's logit)",
        "Use SalienceDetector (npov salience picks it for language models).",
      );
    const { labels, entailment } = classifierLabels(files.config, join(files.dir, "config.json"));
    let labelIndex = entailment;
    if (options.label !== undefined) {
      const wanted = options.label.trim().toLowerCase();
      labelIndex = labels.findIndex((l) => l.trim().toLowerCase() === wanted);
      if (labelIndex < 0)
        throw new LabelNotFoundError(files.dir, JSON.stringify(options.label), labels, "Name one of its labels.");
    }
    if (labelIndex === undefined)
      throw new LabelNotFoundError(
        files.dir,
        "entailment",
        labels,
        "Encoder salience attributes the entailment logit of an NLI model; name another label with the label option.",
      );
    return new EncoderSalience(files, labels, labelIndex, entailment, {
      variant,
      precision,
      sessionOptions: options.sessionOptions ?? {},
      unrepresentableText,
    });
  }

  /** The most tokens the classifier reads for one pair, specials included (see @npov/autograd `modelContext`). */
  get context(): ModelContext {
    this.contextCache ??= modelContext(this.files.config, this.files.tokenizer);
    return this.contextCache;
  }

  /** config.json's architectures (e.g. `BertForSequenceClassification`). */
  get architectures(): string[] {
    return configArchitectures(this.files.config);
  }

  private build(): Promise<Built> {
    this.built ??= (async () => {
      const graph = await classifierEmbeddingGraph(this.files, { precision: this.options.precision });
      if (graph.labels !== this.labels.length)
        throw new UnsupportedModelError(
          this.files.dir,
          this.files.onnxFiles,
          new Error(
            `its logits have ${graph.labels} columns but config.json's id2label names ${this.labels.length} labels`,
          ),
        );
      const session = await GradientSession.create(graph.model, {
        of: "logits",
        wrt: ["inputs_embeds"],
        seed: "input",
        sessionOptions: {
          logSeverityLevel: 4,
          intraOpNumThreads: 1,
          interOpNumThreads: 1,
          ...(this.options.precision === "float64" ? { graphOptimizationLevel: "basic" } : {}),
          ...this.options.sessionOptions,
        },
      }).catch((error: unknown) => {
        throw new UnsupportedModelError(this.files.dir, this.files.onnxFiles, error);
      });
      return { graph, session };
    })();
    this.built.catch(() => {
      this.built = undefined;
    });
    return this.built;
  }

  /**
   * Token ids of the pair in the tokenizer's template, with where the premise's and the hypothesis's own
   * tokens sit in it. Refuses (typed) a pair over the model's context: npov never truncates.
   */
  private encodePair(premise: string, hypothesis: string) {
    const tokenizer = this.files.tokenizer;
    const { tokens: limit, source } = this.context;
    const model = this.files.dir;
    const cached = this.premises.get(premise);
    const premiseIds =
      cached?.ids ??
      encodeForContext(tokenizer, premise, {
        limit,
        addSpecialTokens: false,
        model,
        what: "the premise",
        source,
      });
    const hypothesisIds = encodeForContext(tokenizer, hypothesis, {
      limit,
      reserved: premiseIds.length,
      addSpecialTokens: false,
      model,
      what: "the hypothesis",
      source,
    });
    const encoded = (
      tokenizer as unknown as (
        text: string,
        options: Record<string, unknown>,
      ) => { input_ids: { data: ArrayLike<bigint | number> }; token_type_ids?: { data: ArrayLike<bigint | number> } }
    )(premise, { text_pair: hypothesis, add_special_tokens: true, return_token_type_ids: true });
    const ids = Array.from(encoded.input_ids.data, Number);
    const types = encoded.token_type_ids ? Array.from(encoded.token_type_ids.data, Number) : undefined;
    if (ids.length > limit)
      throw new ContextTooLongError(
        model,
        ids.length,
        limit,
        `the premise and hypothesis take ${ids.length} tokens with the classifier's special tokens (the limit comes from ${source}); shorten them -- npov does not truncate`,
      );
    const find = (part: number[], from: number) => {
      for (let s = from; s + part.length <= ids.length; s++) if (part.every((id, k) => ids[s + k] === id)) return s;
      return -1;
    };
    const premiseAt = find(premiseIds, 0);
    const hypothesisAt = premiseAt < 0 ? -1 : find(hypothesisIds, premiseAt + premiseIds.length);
    if (premiseAt < 0 || hypothesisAt < 0)
      throw new UnsupportedModelError(
        model,
        this.files.onnxFiles,
        new Error(
          "its tokenizer encodes the pair differently from the premise and hypothesis alone, so tokens cannot be traced back to words",
        ),
      );
    return { ids, types, premiseIds, hypothesisIds, premiseAt, hypothesisAt };
  }

  /** Run onnxruntime; its failures become a typed ModelRunError naming the input size. */
  private async run(built: Built, ids: number[], types: number[] | undefined, seed: boolean) {
    const { graph, session } = built;
    const n = ids.length;
    const { data: table, dim } = graph.table;
    const rows = table.length / dim;
    const f64 = graph.precision === "float64";
    const embeds = f64 ? new Float64Array(n * dim) : new Float32Array(n * dim);
    ids.forEach((id, k) => {
      if (!Number.isInteger(id) || id < 0 || id >= rows)
        throw new InvalidValueError(`ids[${k}]`, `token id ${id} is not in the model's vocabulary (0..${rows - 1}).`);
      embeds.set(table.subarray(id * dim, (id + 1) * dim), k * dim);
    });
    const upstream = f64 ? new Float64Array(this.labels.length) : new Float32Array(this.labels.length);
    if (seed) upstream[this.labelIndex] = 1;
    const float = f64 ? "float64" : "float32";
    try {
      const r = await session.run(
        feedsFor(graph, {
          input_ids: int64Tensor(ids, [1, n]),
          attention_mask: int64Tensor(new Array(n).fill(1), [1, n]),
          token_type_ids: int64Tensor(types ?? new Array(n).fill(0), [1, n]),
          // Exports that take positions as an input (most compute them inside the graph).
          position_ids: int64Tensor([...ids.keys()], [1, n]),
          inputs_embeds: new ort.Tensor(float, embeds, [1, n, dim]),
        }),
        { upstream: { logits: new ort.Tensor(float, upstream, [1, this.labels.length]) }, outputs: ["logits"] },
      );
      return {
        logits: Array.from(r.outputs.logits?.data as Float32Array | Float64Array),
        gradient: r.gradients.inputs_embeds?.data as Float32Array | Float64Array,
        embeds,
        dim,
      };
    } catch (error) {
      throw new ModelRunError(this.files.dir, `${n} tokens`, maxPositions(this.files.config), error);
    }
  }

  /**
   * The raw gradient of the label's logit with respect to the word embeddings of token ids as the model
   * reads them (special tokens included; `types`: token type ids, default 0): row k of `gradient` (width
   * `dim`) belongs to `ids[k]`; `embeddings` holds the rows fed. No tokenizer, no context check beyond the
   * vocabulary.
   */
  async tokenGradients(
    ids: readonly number[],
    types?: readonly number[],
  ): Promise<{
    logits: number[];
    gradient: Float32Array | Float64Array;
    embeddings: Float32Array | Float64Array;
    dim: number;
  }> {
    if (ids.length === 0) throw new InvalidValueError("ids", "is empty.");
    if (types !== undefined && types.length !== ids.length)
      throw new InvalidValueError("types", `has ${types.length} entries for ${ids.length} ids.`);
    const r = await this.run(await this.build(), [...ids], types === undefined ? undefined : [...types], true);
    return { logits: r.logits, gradient: r.gradient, embeddings: r.embeds, dim: r.dim };
  }

  /**
   * The pair as the model reads it: token ids in the tokenizer's template and their token types.
   * @throws as {@link EncoderSalience.score} for the texts.
   */
  encode(premise: string, hypothesis: string): { ids: number[]; types: number[] | undefined } {
    const pair = this.encodePair(
      requireScorableText(premise, "premise"),
      requireScorableText(hypothesis, "hypothesis"),
    );
    return { ids: pair.ids, types: pair.types };
  }

  /**
   * Salience of the label's logit for a premise/hypothesis pair: per token and per word of each side.
   * @throws NotTextError / EmptyTextError / NothingToScoreError (a side without words), ContextTooLongError
   * (the pair over the model's context), UnrepresentableTextError (see the unrepresentableText option),
   * InvalidScoreError (non-finite values: a broken model), ModelRunError.
   */
  async score(premise: string, hypothesis: string): Promise<EncoderSalienceMap> {
    const p = requireScorableText(premise, "premise");
    const h = requireScorableText(hypothesis, "hypothesis");
    if (this.options.unrepresentableText === "error")
      requireRepresentable(this.files.dir, this.files.tokenizer, [
        { path: "premise", text: p },
        { path: "hypothesis", text: h },
      ]);
    return this.scoreChecked(p, h);
  }

  private async scoreChecked(premise: string, hypothesis: string): Promise<EncoderSalienceMap> {
    const pair = this.encodePair(premise, hypothesis);
    const built = await this.build();
    const { logits, gradient, embeds, dim } = await this.run(built, pair.ids, pair.types, true);
    const attribution = (k: number) => {
      let s = 0;
      if (this.options.variant === "grad-norm") {
        for (let j = 0; j < dim; j++) s += (gradient[k * dim + j] as number) ** 2;
        return Math.sqrt(s);
      }
      for (let j = 0; j < dim; j++) s += (gradient[k * dim + j] as number) * (embeds[k * dim + j] as number);
      return s;
    };
    // One premise is usually scored against many hypotheses (every response to the same arguments):
    // its tokens and their alignment to the text are kept for the next pairs.
    let premiseSpans = this.premises.get(premise)?.spans;
    if (premiseSpans === undefined) {
      premiseSpans = alignTokens(this.files.tokenizer, pair.premiseIds, premise);
      if (this.premises.size >= PREMISE_CACHE) this.premises.delete(this.premises.keys().next().value as string);
      this.premises.set(premise, { ids: pair.premiseIds, spans: premiseSpans });
    }
    const hypothesisSpans = alignTokens(this.files.tokenizer, pair.hypothesisIds, hypothesis);
    const tokens: EncoderToken[] = pair.ids.map((id, k) => {
      const inPremise = k >= pair.premiseAt && k < pair.premiseAt + pair.premiseIds.length;
      const inHypothesis = k >= pair.hypothesisAt && k < pair.hypothesisAt + pair.hypothesisIds.length;
      const span = inPremise
        ? premiseSpans[k - pair.premiseAt]
        : inHypothesis
          ? hypothesisSpans[k - pair.hypothesisAt]
          : undefined;
      return {
        id,
        segment: inPremise ? "premise" : inHypothesis ? "hypothesis" : "special",
        start: span?.start ?? 0,
        end: span?.end ?? 0,
        attribution: attribution(k),
      };
    });
    const wordsOf = (text: string, spans: typeof premiseSpans, offset: number) =>
      segmentWords(text).map((w) => {
        const own = tokensIn(spans, w.start, w.end).map((j) => tokens[offset + j] as EncoderToken);
        const value =
          this.options.variant === "grad-norm"
            ? Math.sqrt(own.reduce((a, t) => a + t.attribution ** 2, 0))
            : own.reduce((a, t) => a + t.attribution, 0);
        return { text: w.text, start: w.start, end: w.end, attribution: value, share: 0 };
      });
    const premiseWords = wordsOf(premise, premiseSpans, pair.premiseAt);
    const hypothesisWords = wordsOf(hypothesis, hypothesisSpans, pair.hypothesisAt);
    const total = [...premiseWords, ...hypothesisWords].reduce((a, w) => a + Math.abs(w.attribution), 0);
    for (const w of [...premiseWords, ...hypothesisWords]) w.share = total > 0 ? Math.abs(w.attribution) / total : 0;
    const special = tokens.filter((t) => t.segment === "special").reduce((a, t) => a + t.attribution, 0);
    let along = 0;
    let possible = 0;
    for (let k = 0; k < pair.ids.length; k++) {
      let dot = 0;
      let gg = 0;
      let ee = 0;
      for (let j = 0; j < dim; j++) {
        const g = gradient[k * dim + j] as number;
        const e = embeds[k * dim + j] as number;
        dot += g * e;
        gg += g * g;
        ee += e * e;
      }
      along = Math.max(along, Math.abs(dot));
      possible = Math.max(possible, Math.sqrt(gg * ee));
    }
    const scaleSensitivity = possible > 0 ? along / possible : 0;
    const max = Math.max(...logits);
    const exps = logits.map((l) => Math.exp(l - max));
    const sum = exps.reduce((a, b) => a + b, 0);
    const result: EncoderSalienceMap = {
      method: "encoder-salience",
      variant: this.options.variant,
      label: this.labels[this.labelIndex] as string,
      labelIndex: this.labelIndex,
      labels: this.labels,
      logits,
      probabilities: exps.map((e) => e / sum),
      premise: { text: premise, words: premiseWords },
      hypothesis: { text: hypothesis, words: hypothesisWords },
      tokens,
      special,
      scaleSensitivity,
      scaleInvariant: scaleSensitivity < SCALE_INVARIANT,
    };
    requireFinite(result);
    return result;
  }

  /**
   * The NPOV framing (see the module comment): the arguments are the premise, the response the
   * hypothesis. Argument words keep their perspective and argument and offsets into the argument's text. A
   * sources input ({query?, sources}) works the same with each source's sentences as its arguments (see
   * @npov/core `groundingOf`); its words also say where they are in the source.
   * @throws as {@link EncoderSalience.score}, and typed errors for an invalid input or response.
   */
  async scoreInput(input: CheckInput, response: string): Promise<EncoderInputSalience> {
    const grounding = groundingOf(input);
    const text = validateResponse(response);
    if (this.options.unrepresentableText === "error")
      requireRepresentable(this.files.dir, this.files.tokenizer, [
        ...grounding.perspectives.flatMap((p, k) =>
          p.arguments.map((a, j) => ({ path: `perspectives[${k}].arguments[${j}]`, text: a.text })),
        ),
        { path: "response", text },
      ]);
    const pieces: Array<{ perspective: number; argument: number; start: number; end: number }> = [];
    let premise = "";
    grounding.perspectives.forEach((p, k) => {
      p.arguments.forEach((a, j) => {
        if (premise.length > 0) premise += " ";
        pieces.push({ perspective: k, argument: j, start: premise.length, end: premise.length + a.text.length });
        premise += a.text;
      });
    });
    const map = await this.scoreChecked(premise, text);
    const argumentWords: EncoderArgumentWord[] = map.premise.words.flatMap((w) => {
      const piece = pieces.find((x) => w.start >= x.start && w.end <= x.end);
      if (piece === undefined) return [];
      const start = w.start - piece.start;
      const end = w.end - piece.start;
      const unit = grounding.units?.[piece.perspective]?.[piece.argument];
      return [
        {
          ...w,
          start,
          end,
          perspective: piece.perspective,
          argument: piece.argument,
          ...(unit !== undefined
            ? { origin: { source: unit.source, start: unit.start + start, end: unit.start + end } }
            : {}),
        },
      ];
    });
    const perspectives = grounding.perspectives.map((p, k) => {
      const args = p.arguments.map((a, j) => ({
        text: a.text,
        share: argumentWords.filter((w) => w.perspective === k && w.argument === j).reduce((s, w) => s + w.share, 0),
      }));
      return { label: p.label, share: args.reduce((s, a) => s + a.share, 0), arguments: args };
    });
    return { ...map, words: { arguments: argumentWords, response: map.hypothesis.words }, perspectives };
  }

  /**
   * The least an NLI model must do before its maps mean anything (see {@link EncoderModelCheck}): three
   * fixed sentences against themselves and against each other. Random weights fail it.
   * @throws LabelNotFoundError when the model has no entailment label.
   */
  async checkModel(): Promise<EncoderModelCheck> {
    const entailment = this.entailmentIndex;
    if (entailment === undefined)
      throw new LabelNotFoundError(this.files.dir, "entailment", this.labels, "The model check needs one.");
    const built = await this.build();
    const probability = async (premise: string, hypothesis: string) => {
      const pair = this.encodePair(premise, hypothesis);
      const { logits } = await this.run(built, pair.ids, pair.types, false);
      const max = Math.max(...logits);
      const exps = logits.map((l) => Math.exp(l - max));
      return (exps[entailment] as number) / exps.reduce((a, b) => a + b, 0);
    };
    let self = 0;
    let unrelated = 0;
    for (const [k, s] of CHECK_SENTENCES.entries()) {
      self += await probability(s, s);
      unrelated += await probability(s, CHECK_SENTENCES[(k + 1) % CHECK_SENTENCES.length] as string);
    }
    const selfEntailment = self / CHECK_SENTENCES.length;
    const unrelatedEntailment = unrelated / CHECK_SENTENCES.length;
    return {
      selfEntailment,
      unrelatedEntailment,
      passed: selfEntailment > 0.5 && selfEntailment - unrelatedEntailment > 0.3,
    };
  }

  /** Release the onnxruntime session (it is built again on the next use). */
  async dispose(): Promise<void> {
    const built = this.built;
    this.built = undefined;
    const b = await built?.catch(() => undefined);
    await b?.session.release();
  }
}

/** Non-finite logits or attributions mean a broken model (a NaN weight): refuse them, never show them. */
function requireFinite(r: EncoderSalienceMap): void {
  r.logits.forEach((v, k) => {
    if (!Number.isFinite(v)) throw new InvalidScoreError("encoder-salience", `logits[${k}]`, v);
  });
  r.tokens.forEach((t, k) => {
    if (!Number.isFinite(t.attribution))
      throw new InvalidScoreError("encoder-salience", `tokens[${k}].attribution`, t.attribution);
  });
}
