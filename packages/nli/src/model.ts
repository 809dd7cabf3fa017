/**
 * An NLI cross-encoder run by transformers.js: any sequence classifier whose config.json names an entailment
 * output (BERT, DistilBERT, DeBERTa-v2/v3, RoBERTa, ... exported in the transformers.js layout, or a hub id),
 * scoring (premise, hypothesis) pairs as P(entailment) = softmax(logits)[entailment].
 *
 * Pairs are tokenized as the model's tokenizer pairs them (`tokenizer(premise, {text_pair: hypothesis})`).
 * A pair longer than the model's context is cut, never silently: tokens are removed from the end of the
 * premise first (keeping one), then from the end of the hypothesis (the claim being judged), and every score
 * says how many tokens each side lost; with `truncation: "error"` such a pair is a CONTEXT_TOO_LONG error.
 * Pairs run in batches padded to the batch's longest pair, grouped by length in a fixed order, so the same
 * pairs always form the same batches. A dynamically quantized graph (DynamicQuantizeLinear: the q8, int8
 * and uint8 files of transformers.js's quantizer) computes one activation scale over the whole batch, so a
 * pair's probabilities would depend on the pairs batched with it (by ~1e-2 on the encoder zoo): such graphs
 * run pair by pair unless `quantizedBatching` is set. Scores are cached per (model, premise, hypothesis).
 */
import { closeSync, openSync, readSync } from "node:fs";
import { endianness } from "node:os";
import { join, resolve } from "node:path";
import * as transformers from "@huggingface/transformers";
import {
  checkedTokenizer,
  checkGraphFiles,
  checkModelType,
  DTYPE_SUFFIX,
  localModelFolder,
  MAX_TEXT_CHARACTERS,
  type ModelContext,
  type ModelDtype,
  ModelRunError,
  maxPositions,
  modelContext,
  parseModelDtype,
  readLocalConfig,
  requireRepresentable,
  resolveVariant,
  transformersLoadFailure,
  UnsupportedModelError,
} from "@npov/autograd";
import {
  ContextTooLongError,
  describe,
  InputTooLargeError,
  InvalidScoreError,
  InvalidValueError,
  NpovError,
  requireText,
} from "@npov/core";
import { type CachedPairScore, DEFAULT_PAIR_CACHE_SIZE, PairScoreCache } from "./cache.js";
import { type NliLabels, nliLabels } from "./labels.js";

/** A premise and a hypothesis: does the premise entail the hypothesis? */
export interface NliPair {
  premise: string;
  hypothesis: string;
}

/** What the model says about one pair. */
export interface PairScore {
  /** P(entailment): the softmax of the logits at the entailment output. */
  entailment: number;
  /** P(neutral), when the model has a neutral output. */
  neutral?: number;
  /** P(contradiction), when the model has a contradiction output. */
  contradiction?: number;
  /** Softmax over every output, in output order ({@link NliModel.labels}). */
  probabilities: number[];
  /** The raw logits, in output order. */
  logits: number[];
  /** Tokens of the whole pair (special tokens included) before truncation. */
  tokens: number;
  /**
   * Tokens cut from the end of the premise and of the hypothesis to fit the model's context; undefined
   * when the pair fit whole.
   */
  truncated?: { premise: number; hypothesis: number };
  /** Whether the score came from the cache (no model run). */
  cached: boolean;
}

/** What to do with a pair longer than the model's context. */
export type TruncationPolicy = "report" | "error";

/** Options of {@link NliModel.fromPretrained}. */
export interface NliModelOptions {
  /** Weights variant (transformers.js naming); default "auto": config.json's choice, else fp32, else the only one. */
  dtype?: ModelDtype | "auto";
  /** Graph file base name (default "model": `onnx/model<dtype suffix>.onnx`). */
  modelFileName?: string;
  /** Pairs per model run (default 16). */
  batchSize?: number;
  /**
   * Batch pairs through a dynamically quantized graph too: faster, but a pair's probabilities then depend on
   * the other pairs of its batch (see the module comment). Default false: such graphs run pair by pair.
   */
  quantizedBatching?: boolean;
  /** A pair longer than the model's context: "report" (default; cut it, and say so in its score) or "error". */
  truncation?: TruncationPolicy;
  /** Most tokens of a pair; default (and at most) the model's context (see @npov/autograd `modelContext`). */
  maxLength?: number;
  /** Pair scores to keep (default {@link DEFAULT_PAIR_CACHE_SIZE}; 0: none), or a cache shared with other models. */
  cache?: number | PairScoreCache;
  /** onnxruntime session options (e.g. `{ intraOpNumThreads: 1 }`), passed to transformers.js. */
  sessionOptions?: Record<string, unknown>;
}

/** A model used after {@link NliModel.dispose}. */
export class ModelDisposedError extends NpovError {
  constructor(model: string) {
    super(
      "MODEL_DISPOSED",
      `The NLI model ${model} was disposed: load it again (NliModel.fromPretrained) to score more pairs.`,
    );
  }
}

type Encoding = { input_ids: number[]; attention_mask: number[]; token_type_ids?: number[] };
type LoadedClassifier = {
  (inputs: Record<string, unknown>): Promise<{ logits: { data: ArrayLike<number>; dims: number[] } }>;
  sessions?: Record<string, { inputNames?: readonly string[]; outputNames?: readonly string[] }>;
  dispose(): Promise<unknown>;
};
type CallableTokenizer = transformers.PreTrainedTokenizer &
  ((text: string, options: Record<string, unknown>) => Encoding) & {
    pad_token_id?: number | null;
    padding_side?: string;
  };

/** Inputs an NLI cross-encoder's graph may read; npov builds each of them. */
const KNOWN_INPUTS = new Set(["input_ids", "attention_mask", "token_type_ids"]);

/**
 * Check a local folder before transformers.js reads it, so a broken file is a typed error naming it (the local
 * generator's checks, from @npov/autograd): config.json with a model_type and NLI labels, tokenizer.json whose
 * ids the embedding table covers, and the graph file and the external-data files config.json announces.
 * @throws ModelNotFoundError, ModelFileError, VocabularyMismatchError, NliLabelError
 */
function checkLocalFolder(
  dir: string,
  config: Record<string, unknown>,
  graphFile: string,
  suffix: string,
): { labels: NliLabels; tokenizer: transformers.PreTrainedTokenizer } {
  checkModelType(dir, config, '"bert", "deberta-v2", "roberta"');
  const labels = nliLabels(config, dir);
  const tokenizer = checkedTokenizer(dir, config);
  checkGraphFiles(dir, config, [graphFile], suffix);
  return { labels, tokenizer };
}

const DYNAMIC_QUANTIZATION = Buffer.from("DynamicQuantizeLinear");
const LITTLE_ENDIAN = endianness() === "LE";

/** Whether a graph file holds a DynamicQuantizeLinear node (its op type is stored as plain bytes). */
function hasDynamicQuantization(file: string): boolean {
  const chunk = Buffer.alloc(1 << 22);
  const overlap = DYNAMIC_QUANTIZATION.length - 1;
  const fd = openSync(file, "r");
  try {
    let kept = 0;
    for (;;) {
      const read = readSync(fd, chunk, kept, chunk.length - kept, null);
      if (read === 0) return false;
      const filled = kept + read;
      if (chunk.subarray(0, filled).includes(DYNAMIC_QUANTIZATION)) return true;
      kept = Math.min(overlap, filled);
      chunk.copy(chunk, 0, filled - kept, filled);
    }
  } finally {
    closeSync(fd);
  }
}

/** Check a positive-integer option. @throws InvalidValueError */
function positiveInteger(value: unknown, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1)
    throw new InvalidValueError(name, `must be an integer >= 1, got ${describe(value)}.`);
  return value;
}

/** Check the options of {@link NliModel.fromPretrained}. @throws InvalidValueError */
function checkOptions(options: unknown): NliModelOptions {
  if (typeof options !== "object" || options === null || Array.isArray(options))
    throw new InvalidValueError("options", "must be an object of NLI model options.");
  const o = options as NliModelOptions;
  if (o.dtype !== undefined && o.dtype !== "auto") parseModelDtype(o.dtype);
  positiveInteger(o.batchSize, "batchSize");
  positiveInteger(o.maxLength, "maxLength");
  if (o.truncation !== undefined && o.truncation !== "report" && o.truncation !== "error")
    throw new InvalidValueError("truncation", `must be "report" or "error", got ${describe(o.truncation)}.`);
  if (o.quantizedBatching !== undefined && typeof o.quantizedBatching !== "boolean")
    throw new InvalidValueError("quantizedBatching", "must be true or false.");
  if (o.modelFileName !== undefined && (typeof o.modelFileName !== "string" || o.modelFileName === ""))
    throw new InvalidValueError("modelFileName", 'must be a file base name such as "model".');
  if (o.cache !== undefined && !(o.cache instanceof PairScoreCache)) new PairScoreCache(o.cache as number);
  if (
    o.sessionOptions !== undefined &&
    (typeof o.sessionOptions !== "object" || o.sessionOptions === null || Array.isArray(o.sessionOptions))
  )
    throw new InvalidValueError("sessionOptions", "must be an object of onnxruntime session options.");
  return o;
}

/** A pair ready to run: its token rows and how it was cut. */
interface EncodedPair {
  encoding: Encoding;
  tokens: number;
  truncated?: { premise: number; hypothesis: number };
}

const softmax = (logits: ArrayLike<number>): Float64Array => {
  let max = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < logits.length; i++) max = Math.max(max, logits[i] as number);
  const out = new Float64Array(logits.length);
  let sum = 0;
  for (let i = 0; i < logits.length; i++) {
    out[i] = Math.exp((logits[i] as number) - max);
    sum += out[i] as number;
  }
  for (let i = 0; i < out.length; i++) out[i] = (out[i] as number) / sum;
  return out;
};

/** An NLI sequence classifier (see the module comment). */
export class NliModel {
  private disposed = false;
  private readonly cache: PairScoreCache;

  private constructor(
    /** The resolved folder, or the hub id. */
    readonly model: string,
    /** The weights variant loaded. */
    readonly dtype: ModelDtype,
    /** The graph file run, relative to the folder (e.g. `onnx/model_quantized.onnx`). */
    readonly graphFile: string,
    /** The outputs by meaning, from config.json's id2label. */
    readonly labels: NliLabels,
    /** Most tokens of one pair, and where that limit comes from. */
    readonly context: ModelContext,
    /** Whether the graph quantizes activations over the whole batch (DynamicQuantizeLinear). */
    readonly dynamicQuantization: boolean,
    private readonly tokenizer: CallableTokenizer,
    private readonly lm: LoadedClassifier,
    private readonly inputNames: readonly string[],
    private readonly config: Record<string, unknown>,
    private readonly options: Required<Pick<NliModelOptions, "batchSize" | "truncation" | "quantizedBatching">>,
    cache: PairScoreCache,
  ) {
    this.cache = cache;
  }

  /**
   * Load an NLI model: a folder in the transformers.js layout (config.json with id2label, tokenizer.json,
   * `onnx/model<suffix>.onnx`) or a hub id. A value written as a path (see @npov/autograd
   * `looksLikeModelPath`) is a folder or a typed MODEL_NOT_FOUND error, and a folder never fetches a missing
   * file from the hub (`local_files_only`).
   * @throws NliLabelError (NLI_LABELS: no entailment label; the message lists the labels found),
   * ModelNotFoundError, ModelFileError (a broken config.json, tokenizer.json or graph, named),
   * VocabularyMismatchError, ModelDownloadError, UnsupportedModelError (an architecture or graph
   * transformers.js cannot run as a sequence classifier), InvalidValueError (options).
   */
  static async fromPretrained(idOrPath: string, options: NliModelOptions = {}): Promise<NliModel> {
    requireText(idOrPath, "model");
    checkOptions(options);
    const folder = localModelFolder(idOrPath);
    const asked = options.dtype !== undefined && options.dtype !== "auto" ? options.dtype : undefined;
    const base = options.modelFileName ?? "model";
    let files: string[] = [];
    try {
      let config: Record<string, unknown>;
      let labels: NliLabels;
      let tokenizer: transformers.PreTrainedTokenizer;
      let dtype: ModelDtype;
      let dynamicQuantization: boolean;
      let lm: LoadedClassifier;
      // onnxruntime would print warnings and failures to stderr itself; npov reports them as typed errors.
      const sessionOptions = { logSeverityLevel: 4, ...options.sessionOptions };
      if (folder !== undefined) {
        const dir = resolve(folder);
        config = readLocalConfig(dir, idOrPath);
        dtype = resolveVariant(idOrPath, dir, config, [base], asked, false).dtype;
        files = [`onnx/${base}${DTYPE_SUFFIX[dtype]}.onnx`];
        ({ labels, tokenizer } = checkLocalFolder(dir, config, files[0] as string, DTYPE_SUFFIX[dtype]));
        dynamicQuantization = hasDynamicQuantization(join(dir, files[0] as string));
        lm = (await transformers.AutoModelForSequenceClassification.from_pretrained(dir, {
          dtype,
          local_files_only: true,
          session_options: sessionOptions,
          ...(options.modelFileName === undefined ? {} : { model_file_name: options.modelFileName }),
        } as Record<string, unknown>)) as unknown as LoadedClassifier;
      } else {
        dtype = asked ?? "fp32";
        files = [`onnx/${base}${DTYPE_SUFFIX[dtype]}.onnx`];
        const pretrained = await transformers.AutoConfig.from_pretrained(idOrPath);
        config = JSON.parse(JSON.stringify(pretrained)) as Record<string, unknown>;
        labels = nliLabels(config, idOrPath);
        tokenizer = await transformers.AutoTokenizer.from_pretrained(idOrPath);
        // transformers.js's quantizer makes q8, int8 and uint8 dynamically quantized graphs.
        dynamicQuantization = dtype === "q8" || dtype === "int8" || dtype === "uint8";
        lm = (await transformers.AutoModelForSequenceClassification.from_pretrained(idOrPath, {
          dtype,
          session_options: sessionOptions,
          ...(options.modelFileName === undefined ? {} : { model_file_name: options.modelFileName }),
        } as Record<string, unknown>)) as unknown as LoadedClassifier;
      }
      const model = folder !== undefined ? resolve(folder) : idOrPath;
      const session = Object.values(lm.sessions ?? {})[0];
      const inputNames = session?.inputNames ?? ["input_ids", "attention_mask"];
      const unknown = inputNames.filter((n) => !KNOWN_INPUTS.has(n));
      const outputs = session?.outputNames;
      if (unknown.length > 0 || (outputs !== undefined && !outputs.includes("logits"))) {
        await lm.dispose();
        throw new UnsupportedModelError(
          model,
          files,
          new Error(
            unknown.length > 0
              ? `its graph reads ${unknown.join(", ")}, which an NLI cross-encoder does not (npov feeds input_ids, attention_mask and token_type_ids)`
              : `its graph has no "logits" output (outputs: ${outputs?.join(", ")}): it is not a sequence classifier`,
          ),
        );
      }
      const declared = modelContext(config, tokenizer);
      const context =
        options.maxLength !== undefined && options.maxLength < declared.tokens
          ? { tokens: options.maxLength, source: "the maxLength option" }
          : declared;
      const cache =
        options.cache instanceof PairScoreCache
          ? options.cache
          : new PairScoreCache(options.cache ?? DEFAULT_PAIR_CACHE_SIZE);
      return new NliModel(
        model,
        dtype,
        files[0] as string,
        labels,
        context,
        dynamicQuantization,
        tokenizer as CallableTokenizer,
        lm,
        inputNames,
        config,
        {
          batchSize: options.batchSize ?? 16,
          truncation: options.truncation ?? "report",
          quantizedBatching: options.quantizedBatching ?? false,
        },
        cache,
      );
    } catch (error) {
      throw transformersLoadFailure(idOrPath, folder, files, error);
    }
  }

  /** The label names in output order (config.json's id2label). */
  get labelNames(): readonly string[] {
    return this.labels.names;
  }

  /** Pairs per model run: the batchSize option, or 1 for a dynamically quantized graph (see the module comment). */
  get effectiveBatchSize(): number {
    return this.dynamicQuantization && !this.options.quantizedBatching ? 1 : this.options.batchSize;
  }

  /** The cache key prefix of this model: its folder or id and the graph it runs. */
  get cacheKey(): string {
    return `${this.model}\u0000${this.graphFile}\u0000${this.context.tokens}`;
  }

  /**
   * Refuse text the tokenizer cannot represent (characters it maps to its unknown token): the model would
   * judge text it never saw. @throws UnrepresentableTextError listing the words
   */
  requireRepresentable(texts: ReadonlyArray<{ path: string; text: string }>): void {
    requireRepresentable(this.model, this.tokenizer, texts);
  }

  /** Hits and misses of the pair cache since it was made. */
  get cacheStats(): { hits: number; misses: number; size: number; capacity: number } {
    return { ...this.cache.stats, size: this.cache.size, capacity: this.cache.capacity };
  }

  /**
   * The token rows of a pair as the model's tokenizer pairs them, cut to the context when too long (see the
   * module comment). @throws ContextTooLongError under `truncation: "error"`, or when even one premise token
   * and one hypothesis token do not fit with the special tokens.
   */
  encodePair(premise: string, hypothesis: string): EncodedPair {
    const limit = this.context.tokens;
    const full = this.tokenizer(premise, { text_pair: hypothesis, return_tensor: false });
    const encoding: Encoding = {
      input_ids: Array.from(full.input_ids, Number),
      attention_mask: Array.from(full.attention_mask, Number),
      ...(full.token_type_ids === undefined ? {} : { token_type_ids: Array.from(full.token_type_ids, Number) }),
    };
    const tokens = encoding.input_ids.length;
    if (tokens <= limit) return { encoding, tokens };
    const quote = (s: string) => JSON.stringify(s.length > 60 ? `${s.slice(0, 60)}...` : s);
    const what = `the pair (premise ${quote(premise)}, hypothesis ${quote(hypothesis)}) has ${tokens} tokens (the limit comes from ${this.context.source})`;
    if (this.options.truncation === "error")
      throw new ContextTooLongError(
        this.model,
        tokens,
        limit,
        `${what}; shorten it, or let npov cut it and report the cut (truncation: "report", the default)`,
      );
    const cut = cutPair(
      encoding,
      this.tokenizer.encode(premise, { add_special_tokens: false }) as number[],
      this.tokenizer.encode(hypothesis, { add_special_tokens: false }) as number[],
      limit,
    );
    if (cut === undefined)
      throw new ContextTooLongError(
        this.model,
        tokens,
        limit,
        `${what}, and it cannot be cut to fit (the hypothesis alone is too long, or this tokenizer's pair layout is not premise-then-hypothesis); shorten the texts`,
      );
    return { encoding: cut.encoding, tokens, truncated: cut.removed };
  }

  /**
   * Score pairs: P(entailment) and the other outputs, with truncation and cache flags (see {@link PairScore}).
   * Identical pairs are run once.
   * @throws InvalidValueError (not an array of {premise, hypothesis} texts), EmptyTextError, NotTextError,
   * InputTooLargeError (a text over MAX_TEXT_CHARACTERS), ContextTooLongError (see {@link encodePair}),
   * ModelRunError, InvalidScoreError (non-finite logits: broken weights), ModelDisposedError.
   */
  async scorePairs(pairs: readonly NliPair[]): Promise<PairScore[]> {
    if (this.disposed) throw new ModelDisposedError(this.model);
    if (!Array.isArray(pairs))
      throw new InvalidValueError("pairs", `must be an array of {premise, hypothesis}, got ${describe(pairs)}.`);
    const keys = pairs.map((pair, i) => {
      if (typeof pair !== "object" || pair === null)
        throw new InvalidValueError(`pairs[${i}]`, `must be {premise, hypothesis}, got ${describe(pair)}.`);
      for (const side of ["premise", "hypothesis"] as const) {
        const text = requireText(pair[side], `pairs[${i}].${side}`);
        if (text.length > MAX_TEXT_CHARACTERS)
          throw new InputTooLargeError(
            `pairs[${i}].${side}`,
            text.length,
            MAX_TEXT_CHARACTERS,
            "characters",
            "An NLI model reads a few hundred tokens: split the text into sentences or passages.",
          );
      }
      return PairScoreCache.key(this.cacheKey, pair.premise, pair.hypothesis);
    });
    const results = new Map<string, { score: CachedPairScore; cached: boolean }>();
    const todo = new Map<string, { pair: NliPair; encoded: EncodedPair }>();
    keys.forEach((key, i) => {
      if (results.has(key) || todo.has(key)) return;
      const hit = this.cache.get(key);
      if (hit !== undefined) results.set(key, { score: hit, cached: true });
      else {
        const pair = pairs[i] as NliPair;
        todo.set(key, { pair, encoded: this.encodePair(pair.premise, pair.hypothesis) });
      }
    });
    // A fixed order (length, then key) makes the same pairs form the same batches, and similar lengths pad little.
    const order = [...todo.entries()].sort(
      ([ka, a], [kb, b]) =>
        a.encoded.encoding.input_ids.length - b.encoded.encoding.input_ids.length || (ka < kb ? -1 : ka > kb ? 1 : 0),
    );
    const size = this.effectiveBatchSize;
    for (let from = 0; from < order.length; from += size) {
      const batch = order.slice(from, from + size);
      const logits = await this.run(batch.map(([, t]) => t.encoded.encoding));
      batch.forEach(([key, t], b) => {
        const row = logits.subarray(b * this.labels.names.length, (b + 1) * this.labels.names.length);
        const score: CachedPairScore = {
          probabilities: softmax(row),
          logits: Float32Array.from(row),
          tokens: t.encoded.tokens,
          truncated: t.encoded.truncated ?? { premise: 0, hypothesis: 0 },
        };
        this.cache.set(key, score);
        results.set(key, { score, cached: false });
      });
    }
    return keys.map((key) => {
      const { score, cached } = results.get(key) as { score: CachedPairScore; cached: boolean };
      return this.pairScore(score, cached);
    });
  }

  /**
   * P(entailment) of each pair, in order: the pair-scoring API other detectors call (see {@link scorePairs}
   * for the rest of what the model says, and the errors).
   */
  async entailmentProbabilities(pairs: readonly NliPair[]): Promise<number[]> {
    return (await this.scorePairs(pairs)).map((s) => s.entailment);
  }

  private pairScore(s: CachedPairScore, cached: boolean): PairScore {
    const { entailment, neutral, contradiction } = this.labels;
    const truncated = s.truncated.premise + s.truncated.hypothesis > 0 ? { ...s.truncated } : undefined;
    return {
      entailment: s.probabilities[entailment] as number,
      ...(neutral === undefined ? {} : { neutral: s.probabilities[neutral] as number }),
      ...(contradiction === undefined ? {} : { contradiction: s.probabilities[contradiction] as number }),
      probabilities: Array.from(s.probabilities),
      logits: Array.from(s.logits),
      tokens: s.tokens,
      ...(truncated === undefined ? {} : { truncated }),
      cached,
    };
  }

  /** Run one padded batch; the logits, row-major [batch, labels]. */
  private async run(rows: readonly Encoding[]): Promise<Float32Array> {
    const width = Math.max(...rows.map((r) => r.input_ids.length));
    const n = rows.length;
    const pad = this.tokenizer.pad_token_id ?? 0;
    const left = this.tokenizer.padding_side === "left";
    const ids = new BigInt64Array(n * width).fill(BigInt(pad));
    const mask = new BigInt64Array(n * width);
    const types = new BigInt64Array(n * width);
    // Token ids are small non-negative integers: on little-endian machines write each one's low 32 bits
    // through an Int32Array view (a BigInt per token costs more than the tiny models' forward pass).
    const put = LITTLE_ENDIAN
      ? (target: BigInt64Array) => {
          const view = new Int32Array(target.buffer, target.byteOffset, target.length * 2);
          return (at: number, value: number) => {
            view[2 * at] = value;
            view[2 * at + 1] = value < 0 ? -1 : 0;
          };
        }
      : (target: BigInt64Array) => (at: number, value: number) => {
          target[at] = BigInt(value);
        };
    const [putId, putMask, putType] = [put(ids), put(mask), put(types)];
    for (const [b, r] of rows.entries()) {
      const offset = b * width + (left ? width - r.input_ids.length : 0);
      for (let i = 0; i < r.input_ids.length; i++) {
        putId(offset + i, r.input_ids[i] as number);
        putMask(offset + i, r.attention_mask[i] as number);
        putType(offset + i, r.token_type_ids?.[i] ?? 0);
      }
    }
    const tensor = (data: BigInt64Array) => new transformers.Tensor("int64", data, [n, width]);
    const all: Record<string, BigInt64Array> = { input_ids: ids, attention_mask: mask, token_type_ids: types };
    const feeds = Object.fromEntries(this.inputNames.map((name) => [name, tensor(all[name] as BigInt64Array)]));
    let output: { logits: { data: ArrayLike<number>; dims: number[] } };
    try {
      output = await this.lm(feeds);
    } catch (error) {
      throw new ModelRunError(this.model, `${n} pair(s) of up to ${width} tokens`, maxPositions(this.config), error);
    }
    const { data, dims } = output.logits;
    const labels = this.labels.names.length;
    if (dims.length !== 2 || dims[0] !== n || dims[1] !== labels)
      throw new UnsupportedModelError(
        this.model,
        [this.graphFile],
        new Error(
          `its logits have shape [${dims.join(", ")}] for ${n} pair(s), but config.json's id2label names ${labels} outputs (${this.labels.names.join(", ")})`,
        ),
      );
    const logits = Float32Array.from(data as ArrayLike<number>, Number);
    const bad = logits.findIndex((x) => !Number.isFinite(x));
    if (bad >= 0)
      throw new InvalidScoreError("nli", `logits[${Math.floor(bad / labels)}][${bad % labels}]`, logits[bad]);
    return logits;
  }

  /** Release the onnxruntime session; scoring afterwards is a MODEL_DISPOSED error. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    await this.lm.dispose();
  }
}

/**
 * `encoding` cut to `limit` tokens: tokens removed from the end of the premise (keeping one), then from the end
 * of the hypothesis (keeping one), from every row (ids, mask, token types). The premise and hypothesis are
 * found in the pair as their standalone token ids (pair templates only add special tokens around them);
 * undefined when they are not found or cannot be cut enough.
 */
export function cutPair(
  encoding: Encoding,
  premiseIds: readonly number[],
  hypothesisIds: readonly number[],
  limit: number,
): { encoding: Encoding; removed: { premise: number; hypothesis: number } } | undefined {
  const ids = encoding.input_ids;
  const specials = ids.length - premiseIds.length - hypothesisIds.length;
  if (specials < 0) return undefined;
  const find = (seq: readonly number[], from: number, to: number): number => {
    for (let o = from; o <= to; o++) if (seq.every((t, i) => ids[o + i] === t)) return o;
    return -1;
  };
  const p0 = find(premiseIds, 0, specials);
  if (p0 < 0) return undefined;
  const pEnd = p0 + premiseIds.length;
  const h0 = find(hypothesisIds, pEnd, pEnd + specials - p0);
  if (h0 < 0) return undefined;
  const hEnd = h0 + hypothesisIds.length;
  const over = ids.length - limit;
  const premise = Math.max(0, Math.min(over, premiseIds.length - 1));
  const hypothesis = over - premise;
  if (hypothesis > Math.max(0, hypothesisIds.length - 1)) return undefined;
  const keep = (row: readonly number[]) => [
    ...row.slice(0, pEnd - premise),
    ...row.slice(pEnd, hEnd - hypothesis),
    ...row.slice(hEnd),
  ];
  return {
    encoding: {
      input_ids: keep(encoding.input_ids),
      attention_mask: keep(encoding.attention_mask),
      ...(encoding.token_type_ids === undefined ? {} : { token_type_ids: keep(encoding.token_type_ids) }),
    },
    removed: { premise, hypothesis },
  };
}
