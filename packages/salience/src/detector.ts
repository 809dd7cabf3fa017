/**
 * The salience detector (SPEC 2.2): gradient x input attributions from a local ONNX language model,
 * turned into word-level contributions of argument words and attributions of response words.
 */
import {
  type EmbeddingGraph,
  embeddingGraph,
  feedsFor,
  GradientSession,
  int64Tensor,
  loadPretrained,
  type ModelDtype,
  ModelRunError,
  maxPositions,
  type PretrainedFiles,
  withModelContext,
} from "@npov/autograd";
import {
  type ErrorScores,
  generatorPromptLayout,
  InvalidValueError,
  type NpovInput,
  rankUncoveredArguments,
  repoPath,
  resolveStopwords,
  segmentWords,
  validateInput,
  validateResponse,
} from "@npov/core";
import * as ort from "onnxruntime-node";
import { alignTokens, type TokenSpan, tokensIn } from "./align.js";
import {
  colMax,
  GMEAN_EPSILON,
  gmean,
  type Matrix,
  matrix,
  mergeToWords,
  rowMax,
  squareNormalizeColumns,
} from "./postprocess.js";

/** `grad-x-input` (default): dot(gradient, embedding); `grad-norm`: L2 norm of the gradient. */
export type SalienceVariant = "grad-x-input" | "grad-norm";

export interface SalienceOptions {
  /** Weights variant (transformers.js naming); default "auto" (see `loadPretrained`). */
  dtype?: ModelDtype | "auto";
  revision?: string;
  /** Decoder file base name, e.g. "decoder_model_merged" (transformers.js's `model_file_name`). */
  modelFileName?: string;
  variant?: SalienceVariant;
  /** Output tokens per batched vector-Jacobian product (bounds memory; default 8). */
  chunkSize?: number;
  /** Compute in float64 (slower; for checks) or float32 (default). */
  precision?: "float32" | "float64";
  /** Epsilon of the geometric means (default 1e-6). */
  epsilon?: number;
  /**
   * onnxruntime session options (e.g. `{ intraOpNumThreads: 1 }`: on small models one thread was faster
   * than the default pool in bench/salience-zoo on a loaded 2-core machine).
   */
  sessionOptions?: ort.InferenceSession.SessionOptions;
}

/** Token attributions before post-processing. */
export interface TokenMap {
  /** Input tokens: the prompt's, with spans into the prompt. */
  inputTokens: TokenSpan[];
  /** Response tokens, with spans into the response. */
  responseTokens: TokenSpan[];
  /** Raw attributions, rows = input tokens then response tokens (m + l), columns = response tokens (l). */
  attributions: Matrix;
}

export interface ArgumentWordSalience {
  perspective: number;
  argument: number;
  text: string;
  /** Offsets into the argument text. */
  start: number;
  end: number;
  /** alpha: the largest attribution from this word to any response word. */
  contribution: number;
  /** 1 - alpha. */
  coverage: number;
}

export interface ResponseWordSalience {
  text: string;
  start: number;
  end: number;
  /** beta: the largest attribution to this word from any argument word. */
  attribution: number;
  /** 1 - beta. */
  hallucination: number;
}

export interface SalienceResult {
  method: "salience";
  variant: SalienceVariant;
  hallucination: number;
  coverage: number;
  perspectives: Array<{
    label: string;
    contribution: number;
    arguments: Array<{ text: string; contribution: number }>;
  }>;
  words: { arguments: ArgumentWordSalience[]; response: ResponseWordSalience[] };
  /** Argument words x response words after squaring, normalization and token-to-word max merging. */
  wordMatrix: Matrix;
  /** The token map behind it (raw and normalized). */
  tokens: TokenMap & { normalized: Matrix };
  /** The prompt the model read. */
  prompt: string;
  epsilon: number;
}

interface Built {
  session: GradientSession;
  graph: EmbeddingGraph;
  float: "float32" | "float64";
}

/** Gradient x input salience from a local ONNX model (encoder-decoder or causal LM). */
export class SalienceDetector {
  readonly name = "salience";
  private built: Promise<Built> | undefined;

  private constructor(
    readonly files: PretrainedFiles,
    readonly options: Required<Omit<SalienceOptions, "dtype" | "revision" | "modelFileName" | "sessionOptions">> & {
      sessionOptions: ort.InferenceSession.SessionOptions;
    },
  ) {}

  /**
   * Load a model by folder or id (the transformers.js way; see `loadPretrained`); default: the shipped
   * models/npov-gen. The gradient graphs are built on first use and cached.
   */
  static async fromPretrained(
    idOrPath: string = repoPath("models", "npov-gen"),
    options: SalienceOptions = {},
  ): Promise<SalienceDetector> {
    const files = await loadPretrained(idOrPath, {
      dtype: options.dtype ?? "auto",
      revision: options.revision ?? "main",
      ...(options.modelFileName !== undefined ? { modelFileName: options.modelFileName } : {}),
    });
    const chunkSize = options.chunkSize ?? 8;
    if (!Number.isInteger(chunkSize) || chunkSize < 1)
      throw new InvalidValueError("chunkSize", "must be a positive integer.");
    const variant = options.variant ?? "grad-x-input";
    if (variant !== "grad-x-input" && variant !== "grad-norm")
      throw new InvalidValueError("variant", 'must be "grad-x-input" or "grad-norm".');
    return new SalienceDetector(files, {
      variant,
      chunkSize,
      precision: options.precision ?? "float32",
      epsilon: options.epsilon ?? GMEAN_EPSILON,
      sessionOptions: options.sessionOptions ?? {},
    });
  }

  private build(): Promise<Built> {
    this.built ??= (async () => {
      const graph = await embeddingGraph(this.files, { decoderEmbeds: true, precision: this.options.precision });
      // onnxruntime logs kernel failures to stderr itself; npov rethrows them as typed errors instead.
      const sessionOptions: ort.InferenceSession.SessionOptions = {
        logSeverityLevel: 4,
        ...(this.options.precision === "float64" ? { graphOptimizationLevel: "basic" } : {}),
        ...this.options.sessionOptions,
      };
      const session = await withModelContext(this.files, () =>
        GradientSession.create(graph.model, {
          of: "token_loss",
          wrt: this.files.encoderDecoder ? ["inputs_embeds", "decoder_inputs_embeds"] : ["inputs_embeds"],
          seed: "input",
          sessionOptions,
        }),
      );
      return { session, graph, float: this.options.precision };
    })();
    return this.built;
  }

  /** One fwd+bwd run; onnxruntime failures become a typed {@link ModelRunError} naming the input size. */
  private async run(
    built: Built,
    feeds: Record<string, ort.Tensor>,
    options: { upstream: Record<string, ort.Tensor>; outputs: string[] },
  ) {
    try {
      return await built.session.run(feeds, options);
    } catch (error) {
      const ids = feeds.input_ids?.dims ?? [];
      const dec = feeds.decoder_input_ids?.dims;
      const tokens = `${ids[1] ?? "?"} input${dec ? ` + ${dec[1]} decoder` : ""} tokens`;
      throw new ModelRunError(this.files.dir, tokens, maxPositions(this.files.config), error);
    }
  }

  private encode(text: string, special: boolean): number[] {
    return this.files.tokenizer.encode(text, { add_special_tokens: special }) as number[];
  }

  /** Token attributions of `response` given `prompt`: rows (m + l) x columns (l). */
  async tokenMap(prompt: string, response: string): Promise<TokenMap> {
    const built = await this.build();
    const promptIds = this.encode(prompt, true);
    const responseIds = this.encode(response, false);
    if (responseIds.length === 0) throw new InvalidValueError("response", "has no tokens.");
    const m = promptIds.length;
    const l = responseIds.length;
    const attributions = matrix(m + l, l);
    const f64 = built.float === "float64";
    const floats = (n: number) => (f64 ? new Float64Array(n) : new Float32Array(n));
    const tensorF = (data: Float32Array | Float64Array, dims: number[]) =>
      new ort.Tensor(f64 ? "float64" : "float32", data, dims);
    const i64 = int64Tensor;
    const embed = (table: { data: Float32Array | Float64Array; dim: number }, ids: number[]) => {
      const out = floats(ids.length * table.dim);
      ids.forEach((id, k) => {
        out.set(table.data.subarray(id * table.dim, (id + 1) * table.dim), k * table.dim);
      });
      return out;
    };
    const tile = <T extends Float32Array | Float64Array | number[]>(
      data: T,
      times: number,
    ): number[] | Float32Array | Float64Array => {
      if (Array.isArray(data)) return Array.from({ length: times }, () => data).flat();
      const out = floats(data.length * times);
      for (let b = 0; b < times; b++) out.set(data, b * data.length);
      return out;
    };
    const score = (
      grad: Float32Array | Float64Array,
      gOffset: number,
      emb: Float32Array | Float64Array,
      eOffset: number,
      dim: number,
    ) => {
      let s = 0;
      if (this.options.variant === "grad-norm") {
        for (let k = 0; k < dim; k++) s += (grad[gOffset + k] as number) ** 2;
        return Math.sqrt(s);
      }
      for (let k = 0; k < dim; k++) s += (grad[gOffset + k] as number) * (emb[eOffset + k] as number);
      return s;
    };

    if (this.files.encoderDecoder) {
      const enc = built.graph.table;
      const dec = built.graph.decoderTable;
      const start = Number(this.files.config.decoder_start_token_id ?? 0);
      const decoderIds = [start, ...responseIds.slice(0, -1)];
      const encEmb = embed(enc, promptIds);
      const decEmb = embed(dec, decoderIds);
      for (let t0 = 0; t0 < l; t0 += this.options.chunkSize) {
        const batch = Math.min(this.options.chunkSize, l - t0);
        const upstream = floats(batch * l);
        for (let b = 0; b < batch; b++) upstream[b * l + t0 + b] = 1;
        const r = await this.run(
          built,
          feedsFor(built.graph, {
            input_ids: i64(tile(promptIds, batch) as number[], [batch, m]),
            attention_mask: i64(new Array(batch * m).fill(1), [batch, m]),
            inputs_embeds: tensorF(tile(encEmb, batch) as Float32Array, [batch, m, enc.dim]),
            decoder_input_ids: i64(tile(decoderIds, batch) as number[], [batch, l]),
            decoder_inputs_embeds: tensorF(tile(decEmb, batch) as Float32Array, [batch, l, dec.dim]),
            labels: i64(tile(responseIds, batch) as number[], [batch, l]),
            label_mask: tensorF(floats(batch * l).fill(1), [batch, l]),
          }),
          { upstream: { token_loss: tensorF(upstream, [batch, l]) }, outputs: [] },
        );
        const gEnc = r.gradients.inputs_embeds?.data as Float32Array;
        const gDec = r.gradients.decoder_inputs_embeds?.data as Float32Array;
        for (let b = 0; b < batch; b++) {
          const t = t0 + b;
          for (let i = 0; i < m; i++)
            attributions.data[i * l + t] = score(gEnc, (b * m + i) * enc.dim, encEmb, i * enc.dim, enc.dim);
          // Response token r is the decoder input at position r + 1 (position 0 holds the start token).
          for (let rTok = 0; rTok + 1 < l; rTok++)
            attributions.data[(m + rTok) * l + t] = score(
              gDec,
              (b * l + rTok + 1) * dec.dim,
              decEmb,
              (rTok + 1) * dec.dim,
              dec.dim,
            );
        }
      }
    } else {
      const table = built.graph.table;
      const ids = [...promptIds, ...responseIds];
      const s = ids.length;
      const emb = embed(table, ids);
      const labels = [...ids.slice(1), 0];
      for (let t0 = 0; t0 < l; t0 += this.options.chunkSize) {
        const batch = Math.min(this.options.chunkSize, l - t0);
        const upstream = floats(batch * s);
        // Response token t is predicted at position m + t - 1.
        for (let b = 0; b < batch; b++) upstream[b * s + m + t0 + b - 1] = 1;
        const r = await this.run(
          built,
          feedsFor(built.graph, {
            input_ids: i64(tile(ids, batch) as number[], [batch, s]),
            attention_mask: i64(new Array(batch * s).fill(1), [batch, s]),
            position_ids: i64(
              Array.from({ length: batch * s }, (_, k) => k % s),
              [batch, s],
            ),
            inputs_embeds: tensorF(tile(emb, batch) as Float32Array, [batch, s, table.dim]),
            labels: i64(tile(labels, batch) as number[], [batch, s]),
            label_mask: tensorF(floats(batch * s).fill(1), [batch, s]),
          }),
          { upstream: { token_loss: tensorF(upstream, [batch, s]) }, outputs: [] },
        );
        const g = r.gradients.inputs_embeds?.data as Float32Array;
        for (let b = 0; b < batch; b++) {
          const t = t0 + b;
          for (let p = 0; p < s; p++)
            attributions.data[p * l + t] = score(g, (b * s + p) * table.dim, emb, p * table.dim, table.dim);
        }
      }
    }
    return {
      inputTokens: alignTokens(this.files.tokenizer, promptIds, prompt),
      responseTokens: alignTokens(this.files.tokenizer, responseIds, response),
      attributions,
    };
  }

  /** Score a response (SPEC 2.2): word maps, contributions, attributions and example-level scores. */
  async score(input: NpovInput, response: string): Promise<SalienceResult> {
    const clean = validateInput(input);
    const text = validateResponse(response);
    const layout = generatorPromptLayout(clean);
    const map = await this.tokenMap(layout.prompt, text);
    return postprocessSalience(clean, text, layout, map, this.options.variant, this.options.epsilon);
  }

  /** As an ErrorDetector: scores, evidence (least-contributing arguments, least-attributed words), features. */
  async detect(input: NpovInput, response: string): Promise<ErrorScores> {
    const r = await this.score(input, response);
    const alphas = r.words.arguments.map((w) => w.contribution);
    const betas = r.words.response.map((w) => w.attribution);
    const stat = (xs: number[], f: (a: number[]) => number) => (xs.length === 0 ? 0 : f(xs));
    return {
      hallucination: r.hallucination,
      coverage: r.coverage,
      uncoveredArguments: rankUncoveredArguments(r.perspectives, (a) => 1 - a.contribution),
      unsupportedSpans: r.words.response
        .map((w) => ({ text: w.text, start: w.start, end: w.end, score: w.hallucination }))
        .sort((a, b) => b.score - a.score),
      features: {
        "salience.hallucination": r.hallucination,
        "salience.coverage": r.coverage,
        "salience.minAlpha": stat(alphas, (a) => Math.min(...a)),
        "salience.meanAlpha": stat(alphas, (a) => a.reduce((x, y) => x + y, 0) / a.length),
        "salience.minBeta": stat(betas, (a) => Math.min(...a)),
        "salience.meanBeta": stat(betas, (a) => a.reduce((x, y) => x + y, 0) / a.length),
      },
      words: {
        response: r.words.response.map((w) => ({ start: w.start, end: w.end, score: w.hallucination })),
        arguments: r.words.arguments.map((w) => ({
          perspective: w.perspective,
          argument: w.argument,
          start: w.start,
          end: w.end,
          score: w.coverage,
        })),
      },
    };
  }

  async dispose(): Promise<void> {
    if (this.built !== undefined) await (await this.built).session.release();
  }
}

/**
 * Steps 3-7 of SPEC 2.2 from a token map: square and normalize columns, merge tokens to words (argument
 * words as rows, response words as columns, stop words dropped), alpha/beta, geometric means.
 */
export function postprocessSalience(
  input: NpovInput,
  response: string,
  layout: ReturnType<typeof generatorPromptLayout>,
  map: TokenMap,
  variant: SalienceVariant,
  epsilon = GMEAN_EPSILON,
): SalienceResult {
  const stop = resolveStopwords("nltk");
  const normalized = squareNormalizeColumns(map.attributions);
  const argumentWords: Array<Omit<ArgumentWordSalience, "contribution" | "coverage">> = [];
  const rowGroups: number[][] = [];
  for (const span of layout.arguments) {
    const argText = layout.prompt.slice(span.start, span.end);
    for (const w of segmentWords(argText)) {
      if (stop.has(w.lower)) continue;
      argumentWords.push({
        perspective: span.perspective,
        argument: span.argument,
        text: w.text,
        start: w.start,
        end: w.end,
      });
      rowGroups.push(tokensIn(map.inputTokens, span.start + w.start, span.start + w.end));
    }
  }
  const m = map.inputTokens.length;
  const responseWords = segmentWords(response).filter((w) => !stop.has(w.lower));
  const colGroups = responseWords.map((w) => tokensIn(map.responseTokens, w.start, w.end));
  // Columns of the token map are response tokens; rows of input words are prompt tokens (0..m-1).
  const words = mergeToWords(
    normalized,
    rowGroups.map((g) => g.filter((r) => r < m)),
    colGroups,
  );
  const alpha = rowMax(words);
  const beta = colMax(words);
  const argWords = argumentWords.map((w, i) => ({
    ...w,
    contribution: alpha[i] as number,
    coverage: 1 - (alpha[i] as number),
  }));
  const respWords = responseWords.map((w, j) => ({
    text: w.text,
    start: w.start,
    end: w.end,
    attribution: beta[j] as number,
    hallucination: 1 - (beta[j] as number),
  }));
  const perspectives = input.perspectives.map((p, k) => ({
    label: p.label,
    contribution: gmean(
      argWords.filter((w) => w.perspective === k).map((w) => w.contribution),
      epsilon,
    ),
    arguments: p.arguments.map((a, j) => ({
      text: a.text,
      contribution: gmean(
        argWords.filter((w) => w.perspective === k && w.argument === j).map((w) => w.contribution),
        epsilon,
      ),
    })),
  }));
  return {
    method: "salience",
    variant,
    hallucination: 1 - gmean(beta, epsilon),
    coverage: 1 - Math.min(...perspectives.map((p) => p.contribution)),
    perspectives,
    words: { arguments: argWords, response: respWords },
    wordMatrix: words,
    tokens: { ...map, normalized },
    prompt: layout.prompt,
    epsilon,
  };
}
