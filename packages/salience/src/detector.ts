/**
 * The salience detector (SPEC 2.2): gradient x input attributions from a local ONNX language model,
 * turned into word-level contributions of argument words and attributions of response words.
 */
import { availableParallelism } from "node:os";
import {
  buildSplitVjp,
  type EmbeddingGraph,
  embeddingGraph,
  encodeForContext,
  feedsFor,
  GradientSession,
  int64Tensor,
  loadPretrained,
  type ModelContext,
  type ModelDtype,
  ModelKindError,
  ModelRunError,
  maxPositions,
  modelContext,
  type PretrainedFiles,
  releaseModelBuffers,
  requireRepresentable,
  type SplitVjp,
  SplitVjpError,
  SplitVjpSession,
  storedBytesAt,
  useWeightFile,
  WeightFile,
  withModelContext,
} from "@npov/autograd";
import {
  type CheckInput,
  ContextTooLongError,
  type ErrorScores,
  flagEvidence,
  generatorPromptLayout,
  InvalidScoreError,
  InvalidValueError,
  minOf,
  type NpovInput,
  rankUncoveredArguments,
  repoPath,
  requireNpovInput,
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
  /**
   * Output tokens per batched backward pass (k). Default `"auto"`: with the split schedule, the largest k
   * (at most 16) whose backward re-reads at most `backwardMemory` bytes of activations (k x the bytes one
   * forward pass stores), so long inputs get small k and bounded memory -- raised, within twice that
   * budget, until the shortest sequence gives each product 128 rows (k x its length); with recompute, 8.
   */
  chunkSize?: number | "auto";
  /**
   * How the l backward passes get their forward activations (see @npov/autograd `buildSplitVjp`).
   * `"split"`: one forward pass per example; its activations, copied out once, are read by every batched
   * backward pass (about one backward pass of work per output token). `"recompute"`: every batched VJP
   * runs the forward at batch k (the schedule before issue 21; works on any graph).
   * Default `"auto"`: split when the model's graph allows it, else recompute, with the reason in
   * `TokenMap.schedule.fallback`.
   */
  schedule?: "auto" | "split" | "recompute";
  /** Byte budget of one batched backward pass's tiled activations for `chunkSize: "auto"` (default 16 MiB). */
  backwardMemory?: number;
  /**
   * Byte budget of the activations the split schedule's forward pass stores (default 256 MiB). An input
   * whose stored activations would exceed it (estimated from the model and the input's length before
   * running, see @npov/autograd `storedBytesAt`) uses a second split whose backward recomputes, layer by
   * layer, every activation that grows faster than the sequence (attention scores and probabilities)
   * instead of storing it: memory then grows linearly with the input instead of quadratically, for more
   * time per backward pass. `TokenMap.schedule.recompute` says which was used.
   */
  activationMemory?: number;
  /**
   * onnxruntime intra-op threads. Default `"auto"`: 1 for inputs shorter than 512 tokens (thread
   * hand-offs cost more than they save on small products, and on a loaded 2-core machine the default pool
   * was slower than one thread), else `os.availableParallelism()` capped at 4. `sessionOptions.intraOpNumThreads`
   * wins over this.
   */
  threads?: number | "auto";
  /** Compute in float64 (slower; for checks) or float32 (default). */
  precision?: "float32" | "float64";
  /** Epsilon of the geometric means (default 1e-6). */
  epsilon?: number;
  /**
   * onnxruntime session options (e.g. `{ intraOpNumThreads: 1 }`: on small models one thread was faster
   * than the default pool in bench/salience-zoo on a loaded 2-core machine).
   */
  sessionOptions?: ort.InferenceSession.SessionOptions;
  /**
   * Words the model's tokenizer cannot represent (letters or digits it maps to its unknown token, no byte
   * fallback; e.g. CJK words with the shipped models' ASCII-only vocabulary). `"error"` (default): `score`
   * and `detect` throw a typed `UNREPRESENTABLE_TEXT` error listing them, since the model would give each
   * attribution 0 even when copied verbatim. `"score"`: score anyway (such words then read as unsupported).
   * See @npov/autograd's vocabulary module.
   */
  unrepresentableText?: "error" | "score";
}

/** Token attributions before post-processing. */
export interface TokenMap {
  /** Input tokens: the prompt's, with spans into the prompt. */
  inputTokens: TokenSpan[];
  /** Response tokens, with spans into the response. */
  responseTokens: TokenSpan[];
  /** Raw attributions, rows = input tokens then response tokens (m + l), columns = response tokens (l). */
  attributions: Matrix;
  /** How the map was computed (absent on maps built by hand). */
  schedule?: SalienceSchedule;
}

/** The schedule a token map was computed with. */
export interface SalienceSchedule {
  /**
   * `split`: one forward pass, batched backward passes reading its stored activations; `recompute`: the
   * forward at batch k in every batched pass.
   */
  mode: "split" | "recompute";
  /** Output tokens per batched backward pass. */
  chunkSize: number;
  /**
   * onnxruntime intra-op threads: `sessionOptions.intraOpNumThreads` when set, else the `threads` option
   * (see `SalienceOptions.threads`). `"default"` would mean onnxruntime's own choice; it is not produced now.
   */
  threads: number | "default";
  /** Forward + backward runs. */
  runs: number;
  /** Why the split schedule was not used (schedule "auto" on a graph it cannot handle). */
  fallback?: string;
  /**
   * With `split`: what the backward recomputes instead of storing -- `"elementwise"` chains only, or also
   * the `"superlinear"` activations (an input over `activationMemory`).
   */
  recompute?: "elementwise" | "superlinear";
  /** With `split`: bytes of activations the forward pass stored for the backward passes. */
  storedBytes?: number;
  /** Why an input over `activationMemory` ran on the plain split (the superlinear one failed to build or load). */
  superlinearFallback?: string;
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
  /** The model's weights, moved out of the graphs (see {@link SalienceDetector.build}); deleted by dispose. */
  weights: WeightFile;
  graph: EmbeddingGraph;
  float: "float32" | "float64";
  /** The split graphs, or why there are none. */
  split: SplitVjp | undefined;
  /** The split that recomputes superlinear activations (built on the first input over `activationMemory`). */
  longSplit: Promise<SplitVjp> | undefined;
  /** Why inputs over `activationMemory` run on the plain split (the superlinear one could not be built or loaded). */
  superlinearFallback: string | undefined;
  fallback: string | undefined;
  /** Sessions per split and intra-op thread count (created on first use). */
  splitSessions: Map<string, Promise<SplitVjpSession>>;
  recomputeSessions: Map<number | "default", Promise<GradientSession>>;
}

/** Sequences at least this long get more than one intra-op thread by default. */
const MULTI_THREAD_TOKENS = 512;
const MAX_AUTO_THREADS = 4;
const MAX_AUTO_CHUNK = 16;
/** `chunkSize: "auto"` batches at least this many rows of the shortest sequence per backward pass. */
const MIN_BATCHED_ROWS = 128;
/**
 * Default byte budget of the activations one batched backward pass tiles (k seeds: k x the stored
 * activations that depend on the batch). Small on purpose: a batched backward's peak grows faster than k
 * and per-seed time did not drop with k in bench/salience (256 tokens: k = 1 35 ms/seed, k = 4 64 ms/seed).
 */
const DEFAULT_BACKWARD_MEMORY = 16 * 1024 * 1024;
/**
 * Default budget of the split forward pass's stored activations. The bench models store 73-105 MB at 1,024
 * tokens (under it: the faster plain split); a 12-layer, 12-head model stores ~600 MB of attention
 * probabilities alone at 1,024 tokens, and quadratically more beyond.
 */
const DEFAULT_ACTIVATION_MEMORY = 256 * 1024 * 1024;

/** Gradient x input salience from a local ONNX model (encoder-decoder or causal LM). */
export class SalienceDetector {
  readonly name = "salience";
  private built: Promise<Built> | undefined;

  private constructor(
    private loaded: PretrainedFiles,
    private readonly source: { idOrPath: string; load: Parameters<typeof loadPretrained>[1] },
    readonly options: Required<
      Omit<
        SalienceOptions,
        "dtype" | "revision" | "modelFileName" | "sessionOptions" | "chunkSize" | "unrepresentableText"
      >
    > & {
      unrepresentableText: "error" | "score";
      chunkSize: number | "auto";
      sessionOptions: ort.InferenceSession.SessionOptions;
    },
  ) {}

  /**
   * The loaded model files. Their ONNX graphs (`model`, `encoder`, `decoder`) are released on first use:
   * the weights then live once, in a temporary external-data file the detector's sessions map (and
   * `dispose` deletes), instead of a second time in JavaScript memory. Load the folder with
   * `loadPretrained` to work with the graphs themselves.
   */
  get files(): PretrainedFiles {
    return this.loaded;
  }

  /**
   * Load a model by folder or id (the transformers.js way; see `loadPretrained`); default: the shipped
   * models/npov-gen. The gradient graphs are built on first use and cached.
   */
  static async fromPretrained(
    idOrPath: string = repoPath("models", "npov-gen"),
    options: SalienceOptions = {},
  ): Promise<SalienceDetector> {
    const load = {
      dtype: options.dtype ?? "auto",
      revision: options.revision ?? "main",
      ...(options.modelFileName !== undefined ? { modelFileName: options.modelFileName } : {}),
    } as const;
    const files = await loadPretrained(idOrPath, load);
    if (files.kind === "sequence-classifier")
      throw new ModelKindError(
        files.dir,
        files.kind,
        ["causal", "seq2seq"],
        "salience over a response's tokens (the gradient of their next-token losses)",
        "Use EncoderSalience for a sequence classifier (npov salience picks it by itself).",
      );
    const chunkSize = options.chunkSize ?? "auto";
    if (chunkSize !== "auto" && (!Number.isInteger(chunkSize) || chunkSize < 1))
      throw new InvalidValueError("chunkSize", 'must be a positive integer or "auto".');
    const threads = options.threads ?? "auto";
    if (threads !== "auto" && (!Number.isInteger(threads) || threads < 1))
      throw new InvalidValueError("threads", 'must be a positive integer or "auto".');
    const schedule = options.schedule ?? "auto";
    if (schedule !== "auto" && schedule !== "split" && schedule !== "recompute")
      throw new InvalidValueError("schedule", 'must be "auto", "split" or "recompute".');
    const backwardMemory = options.backwardMemory ?? DEFAULT_BACKWARD_MEMORY;
    if (!(Number.isFinite(backwardMemory) && backwardMemory > 0))
      throw new InvalidValueError("backwardMemory", "must be a positive number of bytes.");
    const activationMemory = options.activationMemory ?? DEFAULT_ACTIVATION_MEMORY;
    if (!(Number.isFinite(activationMemory) && activationMemory > 0))
      throw new InvalidValueError("activationMemory", "must be a positive number of bytes.");
    const variant = options.variant ?? "grad-x-input";
    if (variant !== "grad-x-input" && variant !== "grad-norm")
      throw new InvalidValueError("variant", 'must be "grad-x-input" or "grad-norm".');
    const unrepresentableText = options.unrepresentableText ?? "error";
    if (unrepresentableText !== "error" && unrepresentableText !== "score")
      throw new InvalidValueError("unrepresentableText", 'must be "error" or "score".');
    return new SalienceDetector(
      files,
      { idOrPath, load },
      {
        unrepresentableText,
        variant,
        chunkSize,
        threads,
        schedule,
        backwardMemory,
        activationMemory,
        precision: options.precision ?? "float32",
        epsilon: options.epsilon ?? GMEAN_EPSILON,
        sessionOptions: options.sessionOptions ?? {},
      },
    );
  }

  /**
   * The gradient graphs. Once the embedding graph exists, its large weights move to a temporary
   * external-data file and the loaded graphs are released: the build's probe sessions and the detector's
   * sessions map that one file, and JavaScript no longer holds a copy of the weights (bench/salience: 34-46
   * MB less peak RSS for the 22-47 MB test models). After {@link dispose}, the next use loads the files again.
   */
  private build(): Promise<Built> {
    this.built ??= (async () => {
      if (this.loaded.model === undefined && this.loaded.encoder === undefined)
        this.loaded = await loadPretrained(this.source.idOrPath, this.source.load);
      const files = this.loaded;
      const graph = await embeddingGraph(files, { decoderEmbeds: true, precision: this.options.precision });
      const weights = await withModelContext(files, async () => WeightFile.create());
      try {
        await withModelContext(files, async () => {
          weights.moveWeights(graph.model);
          // The graph holds its own bytes now: the files' buffers are freed at once, not at the next full GC.
          releaseModelBuffers(
            [files.model, files.encoder, files.decoder],
            [graph.model, graph.table.data.buffer, graph.decoderTable.data.buffer],
          );
        });
        this.loaded = { ...files, model: undefined, encoder: undefined, decoder: undefined };
        let split: SplitVjp | undefined;
        let fallback: string | undefined;
        if (this.options.schedule !== "recompute") {
          try {
            split = await withModelContext(files, () =>
              useWeightFile(weights, () => buildSplitVjp(graph.model, { wrt: this.wrt() })),
            );
          } catch (error) {
            if (this.options.schedule !== "auto") throw error;
            fallback = splitFailure(error);
          }
        }
        return {
          weights,
          graph,
          float: this.options.precision,
          split,
          longSplit: undefined,
          superlinearFallback: undefined,
          fallback,
          splitSessions: new Map(),
          recomputeSessions: new Map(),
        };
      } catch (error) {
        weights.dispose();
        throw error;
      }
    })();
    return this.built;
  }

  private wrt(): string[] {
    return this.files.encoderDecoder ? ["inputs_embeds", "decoder_inputs_embeds"] : ["inputs_embeds"];
  }

  /** Intra-op threads for an input of `tokens` tokens (see `SalienceOptions.threads`). */
  private threadsFor(tokens: number): number | "default" {
    if (this.options.sessionOptions.intraOpNumThreads !== undefined)
      return this.options.sessionOptions.intraOpNumThreads;
    if (this.options.threads !== "auto") return this.options.threads;
    if (tokens < MULTI_THREAD_TOKENS) return 1;
    return Math.max(1, Math.min(MAX_AUTO_THREADS, availableParallelism()));
  }

  private sessionOptions(threads: number | "default"): ort.InferenceSession.SessionOptions {
    // onnxruntime logs kernel failures to stderr itself; npov rethrows them as typed errors instead.
    // Without the CPU arena, memory freed after a run goes back to the allocator instead of staying
    // reserved per session (bench/salience: peak RSS at 1,024 tokens 1,063 -> 806 MB, no slower).
    return {
      logSeverityLevel: 4,
      enableCpuMemArena: false,
      ...(this.options.precision === "float64" ? { graphOptimizationLevel: "basic" } : {}),
      ...(threads === "default" ? {} : { intraOpNumThreads: threads, interOpNumThreads: 1 }),
      ...this.options.sessionOptions,
    };
  }

  private splitSession(built: Built, split: SplitVjp, threads: number | "default"): Promise<SplitVjpSession> {
    const key = `${split.recompute}|${threads}`;
    let s = built.splitSessions.get(key);
    if (s === undefined) {
      s = withModelContext(this.files, () =>
        useWeightFile(built.weights, () => SplitVjpSession.create(split, this.sessionOptions(threads))),
      );
      built.splitSessions.set(key, s);
    }
    return s;
  }

  /**
   * The split recomputing superlinear activations, for inputs whose stored activations would exceed
   * `activationMemory`: built on first need, else the plain `split`.
   */
  private longSplitFor(built: Built, split: SplitVjp): Promise<SplitVjp> {
    // A graph the superlinear plan cannot build keeps the plain split (over the budget rather than failing);
    // `schedule.recompute` says which one ran and `schedule.superlinearFallback` why.
    built.longSplit ??= withModelContext(this.files, () =>
      useWeightFile(built.weights, () =>
        buildSplitVjp(built.graph.model, { wrt: this.wrt(), recompute: "superlinear" }),
      ),
    ).catch((error: unknown) => {
      built.superlinearFallback = splitFailure(error);
      return split;
    });
    return built.longSplit;
  }

  private recomputeSession(built: Built, threads: number | "default"): Promise<GradientSession> {
    let s = built.recomputeSessions.get(threads);
    if (s === undefined) {
      s = withModelContext(this.files, () =>
        useWeightFile(built.weights, () =>
          GradientSession.create(built.graph.model, {
            of: "token_loss",
            wrt: this.wrt(),
            seed: "input",
            sessionOptions: this.sessionOptions(threads),
          }),
        ),
      );
      built.recomputeSessions.set(threads, s);
    }
    return s;
  }

  /** Run onnxruntime; its failures become a typed {@link ModelRunError} naming the input size. */
  private async guard<T>(m: number, decoder: number | undefined, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      const tokens = `${m} input${decoder !== undefined ? ` + ${decoder} decoder` : ""} tokens`;
      throw new ModelRunError(this.files.dir, tokens, maxPositions(this.files.config), error);
    }
  }

  /**
   * The most tokens the model reads (see @npov/autograd `modelContext`): the prompt and the response each
   * for an encoder-decoder (encoder and decoder), the two together for a causal LM.
   */
  get context(): ModelContext {
    this.contextCache ??= modelContext(this.files.config, this.files.tokenizer);
    return this.contextCache;
  }
  private contextCache: ModelContext | undefined;

  /**
   * Prompt and response token ids, refusing (before any long tokenization) what exceeds the context.
   * @throws ContextTooLongError
   */
  private encodePair(prompt: string, response: string): { promptIds: number[]; responseIds: number[] } {
    const { tokens: limit, source } = this.context;
    const model = this.files.dir;
    const tokenizer = this.files.tokenizer;
    const ed = this.files.encoderDecoder;
    // An encoder-decoder reads the prompt (encoder) and the response (decoder) as two sequences; a causal
    // LM reads them as one, with at least one response token.
    const promptIds = encodeForContext(tokenizer, prompt, {
      limit,
      reserved: ed ? 0 : 1,
      addSpecialTokens: true,
      model,
      what: "the prompt (query, topic and arguments)",
      source,
    });
    const responseIds = encodeForContext(tokenizer, response, {
      limit,
      reserved: ed ? 0 : promptIds.length,
      addSpecialTokens: false,
      model: ed ? `${model} (decoder)` : model,
      what: "the response",
      source,
    });
    return { promptIds, responseIds };
  }

  /**
   * Token attributions of `response` given `prompt`: rows (m + l) x columns (l).
   * @throws ContextTooLongError when the texts exceed the model's context (see {@link SalienceDetector.context});
   * InvalidScoreError when the model computes non-finite attributions (e.g. a NaN weight).
   */
  async tokenMap(prompt: string, response: string): Promise<TokenMap> {
    const { promptIds, responseIds } = this.encodePair(prompt, response);
    return this.tokenMapOfEncoded(prompt, response, promptIds, responseIds);
  }

  private async tokenMapOfEncoded(
    prompt: string,
    response: string,
    promptIds: number[],
    responseIds: number[],
  ): Promise<TokenMap> {
    if (responseIds.length === 0) throw new InvalidValueError("response", "has no tokens.");
    const { attributions, schedule } = await this.tokenMapOfIds(promptIds, responseIds);
    return {
      inputTokens: alignTokens(this.files.tokenizer, promptIds, prompt),
      responseTokens: alignTokens(this.files.tokenizer, responseIds, response),
      attributions,
      schedule,
    };
  }

  /**
   * The raw token map of token ids (no tokenizer): `promptIds` as the model reads them (special tokens
   * included), `responseIds` the response's. Rows: the m prompt tokens, then the l response tokens;
   * columns: the l response tokens.
   */
  async tokenMapOfIds(
    promptIds: readonly number[],
    responseIds: readonly number[],
  ): Promise<{ attributions: Matrix; schedule: SalienceSchedule }> {
    const run = this.tokenMapOfIdsNow(promptIds, responseIds);
    this.running.add(run);
    try {
      return await run;
    } finally {
      this.running.delete(run);
    }
  }

  /** Maps in progress: {@link dispose} waits for them before it releases what they use. */
  private readonly running = new Set<Promise<unknown>>();

  private async tokenMapOfIdsNow(
    promptIds: readonly number[],
    responseIds: readonly number[],
  ): Promise<{ attributions: Matrix; schedule: SalienceSchedule }> {
    if (responseIds.length === 0) throw new InvalidValueError("response", "has no tokens.");
    if (promptIds.length === 0 && !this.files.encoderDecoder)
      throw new InvalidValueError("prompt", "has no tokens: a causal model needs at least one before the response.");
    const { tokens: limit, source } = this.context;
    const fix = `the limit comes from ${source}; shorten the input (npov does not truncate)`;
    if (this.files.encoderDecoder) {
      if (promptIds.length > limit) throw new ContextTooLongError(this.files.dir, promptIds.length, limit, fix);
      if (responseIds.length > limit)
        throw new ContextTooLongError(`${this.files.dir} (decoder)`, responseIds.length, limit, fix);
    } else if (promptIds.length + responseIds.length > limit)
      throw new ContextTooLongError(this.files.dir, promptIds.length + responseIds.length, limit, fix);
    const built = await this.build();
    const checkIds = (ids: readonly number[], table: { data: ArrayLike<number>; dim: number }, what: string) => {
      const rows = table.data.length / table.dim;
      const bad = ids.findIndex((id) => !Number.isInteger(id) || id < 0 || id >= rows);
      if (bad >= 0)
        throw new InvalidValueError(
          `${what}[${bad}]`,
          `token id ${ids[bad]} is not in the model's vocabulary (0..${rows - 1}).`,
        );
    };
    checkIds(promptIds, built.graph.table, "promptIds");
    checkIds(responseIds, this.files.encoderDecoder ? built.graph.decoderTable : built.graph.table, "responseIds");
    const m = promptIds.length;
    const l = responseIds.length;
    const attributions = matrix(m + l, l);
    const f64 = built.float === "float64";
    const floats = (n: number) => (f64 ? new Float64Array(n) : new Float32Array(n));
    const tensorF = (data: Float32Array | Float64Array, dims: number[]) =>
      new ort.Tensor(f64 ? "float64" : "float32", data, dims);
    const i64 = int64Tensor;
    const embed = (table: { data: Float32Array | Float64Array; dim: number }, ids: readonly number[]) => {
      const out = floats(ids.length * table.dim);
      ids.forEach((id, k) => {
        out.set(table.data.subarray(id * table.dim, (id + 1) * table.dim), k * table.dim);
      });
      return out;
    };
    const tile = (data: readonly number[] | Float32Array | Float64Array, times: number) => {
      if (!(data instanceof Float32Array || data instanceof Float64Array))
        return Array.from({ length: times }, () => data).flat();
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

    // The example as the graph reads it, and where its gradients land in the token map.
    const ed = this.files.encoderDecoder;
    const enc = built.graph.table;
    const dec = built.graph.decoderTable;
    const decoderIds = ed
      ? [Number(this.files.config.decoder_start_token_id ?? 0), ...responseIds.slice(0, -1)]
      : undefined;
    const ids = ed ? [...promptIds] : [...promptIds, ...responseIds];
    const s = ids.length;
    const emb = embed(enc, ids);
    const decEmb = decoderIds === undefined ? undefined : embed(dec, decoderIds);
    const labels = ed ? [...responseIds] : [...ids.slice(1), 0];
    const lossLength = labels.length;
    const feeds = (batch: number) =>
      feedsFor(built.graph, {
        input_ids: i64(tile(ids, batch) as number[], [batch, s]),
        attention_mask: i64(new Array(batch * s).fill(1), [batch, s]),
        position_ids: ed
          ? undefined
          : i64(
              Array.from({ length: batch * s }, (_, k) => k % s),
              [batch, s],
            ),
        inputs_embeds: tensorF(batch === 1 ? emb : (tile(emb, batch) as Float32Array), [batch, s, enc.dim]),
        ...(decoderIds !== undefined && decEmb !== undefined
          ? {
              decoder_input_ids: i64(tile(decoderIds, batch) as number[], [batch, l]),
              decoder_inputs_embeds: tensorF(batch === 1 ? decEmb : (tile(decEmb, batch) as Float32Array), [
                batch,
                l,
                dec.dim,
              ]),
            }
          : {}),
        labels: i64(tile(labels, batch) as number[], [batch, lossLength]),
        label_mask: tensorF(floats(batch * lossLength).fill(1), [batch, lossLength]),
      });
    // Response token t is predicted at loss position t (encoder-decoder) or m + t - 1 (causal).
    const lossPosition = (t: number) => (ed ? t : m + t - 1);
    const fill = (grads: Record<string, ort.Tensor>, t0: number, batch: number) => {
      const gEnc = grads.inputs_embeds?.data as Float32Array | Float64Array;
      for (let b = 0; b < batch; b++) {
        const t = t0 + b;
        for (let p = 0; p < s; p++)
          attributions.data[p * l + t] = score(gEnc, (b * s + p) * enc.dim, emb, p * enc.dim, enc.dim);
        if (ed && decEmb !== undefined) {
          const gDec = grads.decoder_inputs_embeds?.data as Float32Array | Float64Array;
          // Response token r is the decoder input at position r + 1 (position 0 holds the start token).
          for (let r = 0; r + 1 < l; r++)
            attributions.data[(m + r) * l + t] = score(
              gDec,
              (b * l + r + 1) * dec.dim,
              decEmb,
              (r + 1) * dec.dim,
              dec.dim,
            );
        }
      }
    };
    const threads = this.threadsFor(ed ? m + l : s);
    const guard = <T>(run: () => Promise<T>) => this.guard(m, ed ? l : undefined, run);
    let runs = 0;

    const seeds = Array.from({ length: l }, (_, t) => lossPosition(t));
    const onSplitFailure = (error: unknown): undefined => {
      if (this.options.schedule !== "auto") throw error;
      // onnxruntime rejected a split graph: remember why and recompute from now on.
      built.split = undefined;
      built.fallback = splitFailure(error);
      return undefined;
    };
    // Activations grow with the longer sequence (the encoder's or the decoder's) or the whole causal input.
    const length = ed ? Math.max(m, l) : s;
    const overBudget = built.split !== undefined && storedBytesAt(built.split, length) > this.options.activationMemory;
    let split =
      built.split === undefined ? undefined : overBudget ? await this.longSplitFor(built, built.split) : built.split;
    let splitSession: SplitVjpSession | undefined;
    if (split !== undefined && split !== built.split) {
      // The superlinear split's sessions failing must not cost the plain split: it runs this input instead.
      splitSession = await this.splitSession(built, split, threads).catch((error: unknown) => {
        built.superlinearFallback = splitFailure(error);
        built.longSplit = Promise.resolve(built.split as SplitVjp);
        return undefined;
      });
      if (splitSession === undefined) split = built.split;
    }
    if (split !== undefined && splitSession === undefined)
      splitSession = await this.splitSession(built, split, threads).catch(onSplitFailure);
    if (splitSession !== undefined) {
      const session = splitSession;
      const forward = await guard(() => session.forward(feeds(1), seeds));
      runs++;
      // "auto": as many seeds as the memory budget allows; and, within twice the budget, enough that the
      // shortest sequence's products get MIN_BATCHED_ROWS rows (a T5's 64-token decoder at k = 1 ran small
      // products: k = 2 was 9% faster for 3 MB more at 256 tokens in bench/salience).
      const perSeed = Math.max(1, forward.tiledBytes);
      const byBudget = Math.floor(this.options.backwardMemory / perSeed);
      const byRows = Math.min(
        Math.ceil(MIN_BATCHED_ROWS / Math.max(1, ed ? Math.min(m, l) : s)),
        Math.floor((2 * this.options.backwardMemory) / perSeed),
      );
      const chunk =
        this.options.chunkSize === "auto"
          ? Math.min(MAX_AUTO_CHUNK, Math.max(1, byBudget, byRows))
          : this.options.chunkSize;
      for (let t0 = 0; t0 < l; t0 += chunk) {
        const batch = Math.min(chunk, l - t0);
        const grads = await guard(() => session.backward(forward, seeds.slice(t0, t0 + batch)));
        runs++;
        fill(grads, t0, batch);
      }
      requireFinite(attributions);
      return {
        attributions,
        schedule: {
          mode: "split",
          chunkSize: Math.min(chunk, l),
          threads,
          runs,
          recompute: (split as SplitVjp).recompute,
          storedBytes: forward.bytes,
          ...(overBudget && split === built.split && built.superlinearFallback !== undefined
            ? { superlinearFallback: built.superlinearFallback }
            : {}),
        },
      };
    }

    const session = await this.recomputeSession(built, threads);
    const chunk = this.options.chunkSize === "auto" ? 8 : this.options.chunkSize;
    for (let t0 = 0; t0 < l; t0 += chunk) {
      const batch = Math.min(chunk, l - t0);
      const upstream = floats(batch * lossLength);
      for (let b = 0; b < batch; b++) upstream[b * lossLength + lossPosition(t0 + b)] = 1;
      const r = await guard(() =>
        session.run(feeds(batch), { upstream: { token_loss: tensorF(upstream, [batch, lossLength]) }, outputs: [] }),
      );
      runs++;
      fill(r.gradients, t0, batch);
    }
    requireFinite(attributions);
    return {
      attributions,
      schedule: {
        mode: "recompute",
        chunkSize: Math.min(chunk, l),
        threads,
        runs,
        ...(built.fallback !== undefined ? { fallback: built.fallback } : {}),
      },
    };
  }

  /**
   * Score a response (SPEC 2.2): word maps, contributions, attributions and example-level scores.
   * @throws ContextTooLongError (prompt or response over the model's context), UnrepresentableTextError
   * (argument or response words the tokenizer maps to its unknown token; see
   * {@link SalienceOptions.unrepresentableText}), InvalidScoreError (the model computes non-finite values).
   */
  async score(input: NpovInput, response: string): Promise<SalienceResult> {
    const clean = validateInput(input);
    const text = validateResponse(response);
    const layout = generatorPromptLayout(clean);
    const { promptIds, responseIds } = this.encodePair(layout.prompt, text);
    if (this.options.unrepresentableText === "error")
      requireRepresentable(this.files.dir, this.files.tokenizer, [
        ...clean.perspectives.flatMap((p, k) =>
          p.arguments.map((a, j) => ({ path: `perspectives[${k}].arguments[${j}]`, text: a.text })),
        ),
        { path: "response", text },
      ]);
    const map = await this.tokenMapOfEncoded(layout.prompt, text, promptIds, responseIds);
    const result = postprocessSalience(clean, text, layout, map, this.options.variant, this.options.epsilon);
    for (const [field, value] of [
      ["hallucination", result.hallucination],
      ["coverage", result.coverage],
      ...result.words.response.map((w, j) => [`words.response[${j}].attribution`, w.attribution] as const),
      ...result.words.arguments.map((w, i) => [`words.arguments[${i}].contribution`, w.contribution] as const),
    ] as const)
      if (!Number.isFinite(value)) throw new InvalidScoreError("salience", field, value);
    return result;
  }

  /** As an ErrorDetector: scores, evidence (least-contributing arguments, least-attributed words), features. */
  async detect(input: CheckInput, response: string): Promise<ErrorScores> {
    const r = await this.score(requireNpovInput(input, "salience"), response);
    const alphas = r.words.arguments.map((w) => w.contribution);
    const betas = r.words.response.map((w) => w.attribution);
    const stat = (xs: number[], f: (a: number[]) => number) => (xs.length === 0 ? 0 : f(xs));
    return flagEvidence({
      hallucination: r.hallucination,
      coverage: r.coverage,
      uncoveredArguments: rankUncoveredArguments(r.perspectives, (a) => 1 - a.contribution),
      unsupportedSpans: r.words.response
        .map((w) => ({ text: w.text, start: w.start, end: w.end, score: w.hallucination }))
        .sort((a, b) => b.score - a.score),
      features: {
        "salience.hallucination": r.hallucination,
        "salience.coverage": r.coverage,
        "salience.minAlpha": stat(alphas, (a) => minOf(a)),
        "salience.meanAlpha": stat(alphas, (a) => a.reduce((x, y) => x + y, 0) / a.length),
        "salience.minBeta": stat(betas, (a) => minOf(a)),
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
    });
  }

  /**
   * Release the onnxruntime sessions and delete the temporary weight file, after the maps in progress
   * finish (the detector loads the model files and builds new ones if used again).
   */
  async dispose(): Promise<void> {
    if (this.built === undefined) return;
    const pending = this.built;
    // Maps started from now on build afresh; those in progress finish with what they use first.
    this.built = undefined;
    await Promise.allSettled([...this.running]);
    const built = await pending.catch(() => undefined);
    if (built === undefined) return;
    for (const s of [...built.splitSessions.values(), ...built.recomputeSessions.values()])
      await (await s.catch(() => undefined))?.release();
    built.weights.dispose();
  }
}

/** Non-finite attributions mean a broken model (a NaN or infinite weight): refuse them, never score them. */
function requireFinite(attributions: Matrix): void {
  const bad = attributions.data.findIndex((x) => !Number.isFinite(x));
  if (bad >= 0)
    throw new InvalidScoreError(
      "salience",
      `attributions[${Math.floor(bad / attributions.cols)}][${bad % attributions.cols}]`,
      attributions.data[bad],
    );
}

/** Why the split schedule could not be built, in one line (the typed reason when there is one). */
function splitFailure(error: unknown): string {
  let e: unknown = error;
  while (e instanceof Error && !(e instanceof SplitVjpError) && e.cause !== undefined) e = e.cause;
  if (e instanceof SplitVjpError) return e.reason;
  return (error instanceof Error ? error.message : String(error)).split("\n")[0] ?? "";
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
    coverage: 1 - minOf(perspectives.map((p) => p.contribution)),
    perspectives,
    words: { arguments: argWords, response: respWords },
    wordMatrix: words,
    tokens: { ...map, normalized },
    prompt: layout.prompt,
    epsilon,
  };
}
