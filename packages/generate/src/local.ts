/**
 * LocalGenerator: any transformers.js-loadable text2text or causal model (the shipped npov-gen by default)
 * reads the Figure 3 prompt and writes `<opening>} Neutral response core: {<core>}`, parsed into opening and
 * core. Greedy or sampled decoding; sampling is seeded through transformers.js's `random.seed`, so calls
 * are serialized per process to keep results reproducible.
 */
import { existsSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import * as transformers from "@huggingface/transformers";
import {
  checkedTokenizer,
  checkGraphFiles,
  checkModelType,
  DTYPE_SUFFIX,
  encodeForContext,
  generationBlockers,
  localModelFolder,
  type ModelContext,
  type ModelDtype,
  ModelRunError,
  maxPositions,
  modelContext,
  parseModelDtype,
  readJsonObject,
  readLocalConfig,
  readModelConfig,
  resolveVariant,
  transformersLoadFailure,
  UnsupportedModelError,
} from "@npov/autograd";
import {
  ContextTooLongError,
  generatorPrompt,
  InvalidValueError,
  NpovError,
  type NpovInput,
  parseGeneratorOutput,
  repoPath,
  validateInput,
} from "@npov/core";
import type { GeneratedResponse, GenerateOptions, Generator } from "./generator.js";

/** The shipped generator's folder. */
export function defaultGeneratorPath(): string {
  return repoPath("models", "npov-gen");
}

let queue: Promise<unknown> = Promise.resolve();
/** Run `task` after every earlier one (model loads and seeded generations share global state). */
function serialized<T>(task: () => Promise<T>): Promise<T> {
  const run = queue.then(task, task);
  queue = run.catch(() => undefined);
  return run;
}

type LoadedModel = {
  generate(args: Record<string, unknown>): Promise<unknown>;
  /** The forward pass (transformers.js models are callable). */
  (inputs: Record<string, unknown>): Promise<{ logits: { data: Float32Array; dims: number[] } }>;
  config: { eos_token_id?: number | number[]; decoder_start_token_id?: number; pad_token_id?: number };
};

/** A candidate token at a generated position: its text, log-probability and UTF-8 bytes. */
export interface TokenLogprobInfo {
  token: string;
  logprob: number;
  bytes: number[];
}

/** A generated token with its log-probability and the top alternatives at its position. */
export interface GeneratedTokenLogprob extends TokenLogprobInfo {
  top: TokenLogprobInfo[];
}

/** Options of a raw-prompt completion. */
export interface CompleteOptions extends GenerateOptions {
  /** Return log-probabilities with this many alternatives per position (0 = the chosen token only). */
  logprobs?: number;
  /** Stop strings: the text is cut before the first one and the finish reason is "stop". */
  stop?: readonly string[];
}

/** What a raw-prompt completion produced. */
export interface TextCompletion {
  /** The generated text (special tokens removed), cut before the first stop string. */
  text: string;
  /** Prompt length in tokens (with the tokenizer's special tokens). */
  promptTokens: number;
  /** Generated tokens up to and including the one that completed a stop string (or EOS). */
  completionTokens: number;
  /** "length" when the token budget ran out before EOS or a stop string. */
  finishReason: "stop" | "length";
  /** Per generated token (the first `completionTokens`), when `logprobs` was asked. */
  logprobs?: GeneratedTokenLogprob[];
}

/**
 * Check a local model folder before transformers.js reads it, so a broken file is a typed error naming it:
 * config.json (a JSON object with a `model_type` and well-typed fields), tokenizer.json (buildable, with
 * ids the model's `vocab_size` covers), generation_config.json (a JSON object, when present), and the
 * graph files and their external data (@npov/autograd's local-folder checks).
 * @throws ModelFileError, ModelNotFoundError, VocabularyMismatchError
 */
function checkLocalFolder(
  dir: string,
  graphFiles: readonly string[],
  suffix: string,
): transformers.PreTrainedTokenizer {
  const config = readLocalConfig(dir);
  checkModelType(dir, config, '"t5", "gpt2", "llama"');
  const tokenizer = checkedTokenizer(dir, config);
  if (existsSync(join(dir, "generation_config.json"))) readJsonObject(join(dir, "generation_config.json"));
  checkGraphFiles(dir, config, graphFiles, suffix);
  return tokenizer;
}

/** Runs in flight that silenced transformers.js's logging, and the level to put back after the last. */
const quiet = { runs: 0, saved: 0 };

/**
 * Silence transformers.js's own logging (its `env.logLevel`) until the returned function is called; runs
 * overlap, so the level is saved by the first and put back by the last.
 */
function quietTransformers(): () => void {
  const env = transformers.env as unknown as { logLevel: number };
  if (quiet.runs++ === 0) {
    quiet.saved = env.logLevel;
    env.logLevel = transformers.LogLevel.NONE;
  }
  let done = false;
  return () => {
    if (done) return;
    done = true;
    if (--quiet.runs === 0) env.logLevel = quiet.saved;
  };
}

/**
 * Why transformers.js's `generate` cannot run the loaded sessions: the checks of `npov model inspect`
 * ({@link generationBlockers}), on the sessions' input names and types, the encoder first and the decoder last.
 */
function sessionBlockers(lm: LoadedModel, encoderDecoder: boolean): string[] {
  type Session = { inputNames?: readonly string[]; inputMetadata?: ReadonlyArray<{ name?: string; type?: string }> };
  const sessions = Object.entries((lm as { sessions?: Record<string, Session> }).sessions ?? {});
  // transformers.js names a seq2seq model's encoder session "model".
  if (encoderDecoder) sessions.sort(([a], [b]) => Number(a !== "model") - Number(b !== "model"));
  const graphs = sessions.map(([file, session]) => ({
    file,
    inputs: (session.inputNames ?? []).map((name) => ({
      name,
      type: session.inputMetadata?.find((m) => m.name === name)?.type ?? "",
    })),
  }));
  // Sessions that do not list their inputs cannot be judged here; generation will say what fails.
  return graphs.length === 0 || graphs.some((g) => g.inputs.length === 0) ? [] : generationBlockers(graphs);
}

/**
 * Stops generation at logits that are NaN or +Infinity (a NaN or infinite weight): the run becomes a typed
 * MODEL_RUN error instead of text decoded from garbage. -Infinity is left alone (other processors use it to
 * ban tokens).
 */
class FiniteLogitsCheck extends (transformers.LogitsProcessor as unknown as new () => object) {
  _call(_inputIds: unknown, logits: { data: ArrayLike<number> }): unknown {
    const data = logits.data;
    for (let i = 0; i < data.length; i++) {
      const x = data[i] as number;
      if (Number.isNaN(x) || x === Number.POSITIVE_INFINITY)
        throw new Error(
          `the model computed a logit of ${x} (a NaN or infinite weight?): check the weights, e.g. with \`npov model inspect\``,
        );
    }
    return logits;
  }
}

export class LocalGenerator implements Generator {
  private constructor(
    readonly model: string,
    private readonly tokenizer: transformers.PreTrainedTokenizer,
    private readonly lm: LoadedModel,
    private readonly encoderDecoder: boolean,
    /** The most tokens the model reads (see @npov/autograd `modelContext`). */
    readonly context: ModelContext,
    private readonly config: Record<string, unknown>,
  ) {}

  /**
   * Load a model folder (default: the shipped npov-gen) or a hub id. A value written as a path (see
   * @npov/autograd `looksLikeModelPath`) is a folder or a typed MODEL_NOT_FOUND error with the resolved
   * path, never a hub download.
   * @throws ModelNotFoundError, ModelFileError (a broken config.json, tokenizer.json or graph, named),
   * VocabularyMismatchError, ModelDownloadError (a hub id that could not be downloaded),
   * UnsupportedModelError (anything else transformers.js refuses).
   */
  static async fromPretrained(
    idOrPath: string = defaultGeneratorPath(),
    options: {
      /** Weights variant (transformers.js naming); default "auto": config.json's choice, else fp32, else the only one. */
      dtype?: ModelDtype | "auto";
      /** Decoder file base name (transformers.js's `model_file_name`), e.g. "decoder_model_merged". */
      modelFileName?: string;
    } = {},
  ): Promise<LocalGenerator> {
    const folder = localModelFolder(idOrPath);
    const isFolder = folder !== undefined;
    const asked = options.dtype !== undefined && options.dtype !== "auto" ? parseModelDtype(options.dtype) : undefined;
    const env = transformers.env as unknown as {
      localModelPath: string;
      allowLocalModels: boolean;
      allowRemoteModels: boolean;
    };
    return serialized(async () => {
      // transformers.js resolves ids under env.localModelPath: point it at the folder's parent for the
      // duration of the load (serialized, then restored).
      const saved = {
        localModelPath: env.localModelPath,
        allowLocalModels: env.allowLocalModels,
        allowRemoteModels: env.allowRemoteModels,
      };
      const id = isFolder ? basename(resolve(folder)) : idOrPath;
      if (isFolder) {
        // A file the folder lacks (an optional generation_config.json) must not be fetched from the hub
        // repository that happens to share the folder's name.
        env.allowRemoteModels = false;
        env.localModelPath = `${dirname(resolve(folder))}/`;
        env.allowLocalModels = true;
      }
      let graphFiles: string[] = [];
      try {
        const config = (
          isFolder ? readModelConfig(join(folder, "config.json")) : await transformers.AutoConfig.from_pretrained(id)
        ) as Record<string, unknown>;
        const encoderDecoder = config.is_encoder_decoder === true;
        const Auto = encoderDecoder ? transformers.AutoModelForSeq2SeqLM : transformers.AutoModelForCausalLM;
        // Local folders: the same dtype rule as every npov loader (resolveVariant), over the files
        // transformers.js generates with -- `model*.onnx` or the If-merged decoder (legacy layout), which
        // has the cache; a hub id: the asked dtype, else fp32.
        const candidates =
          options.modelFileName !== undefined
            ? [options.modelFileName]
            : encoderDecoder
              ? ["decoder_model_merged"]
              : ["model", "decoder_model_merged"];
        const chosen = isFolder
          ? resolveVariant(idOrPath, folder, config, candidates, asked, encoderDecoder)
          : { base: options.modelFileName ?? "model", dtype: asked ?? "fp32" };
        const dtype = chosen.dtype;
        const suffix = DTYPE_SUFFIX[dtype];
        graphFiles = [
          ...(encoderDecoder ? [`onnx/encoder_model${suffix}.onnx`] : []),
          `onnx/${chosen.base}${suffix}.onnx`,
        ];
        const localTokenizer = isFolder ? checkLocalFolder(folder, graphFiles, suffix) : undefined;
        const modelFileName =
          options.modelFileName ??
          (chosen.base === "decoder_model_merged" && !encoderDecoder ? chosen.base : undefined);
        const lm = (await Auto.from_pretrained(id, {
          dtype,
          // onnxruntime would print warnings and failures to stderr itself; npov reports them as typed errors.
          session_options: { logSeverityLevel: 4 },
          ...(modelFileName !== undefined ? { model_file_name: modelFileName } : {}),
        } as Record<string, unknown>)) as unknown as LoadedModel;
        const blockers = sessionBlockers(lm, encoderDecoder);
        if (blockers.length > 0) {
          await (lm as { dispose?: () => Promise<unknown> }).dispose?.();
          throw new UnsupportedModelError(
            isFolder ? folder : idOrPath,
            graphFiles,
            new Error(`transformers.js cannot generate with it: ${blockers.join("; ")}`),
          );
        }
        const tokenizer = localTokenizer ?? (await transformers.AutoTokenizer.from_pretrained(id));
        return new LocalGenerator(
          isFolder ? resolve(folder) : idOrPath,
          tokenizer,
          lm,
          encoderDecoder,
          modelContext(config, tokenizer),
          config,
        );
      } catch (error) {
        throw transformersLoadFailure(idOrPath, folder, graphFiles, error);
      } finally {
        env.localModelPath = saved.localModelPath;
        env.allowLocalModels = saved.allowLocalModels;
        env.allowRemoteModels = saved.allowRemoteModels;
      }
    });
  }

  /**
   * Run transformers.js; a failure inside the model becomes a typed {@link ModelRunError}. transformers.js
   * would also print the failure and every input tensor on stderr (35 lines for one broken model): its
   * logging is off while a run is in flight, the typed error says what happened.
   */
  private async run<T>(tokens: number, task: () => Promise<T>): Promise<T> {
    const restore = quietTransformers();
    try {
      return await task();
    } catch (error) {
      if (error instanceof NpovError) throw error;
      throw new ModelRunError(this.model, `${tokens} prompt tokens`, maxPositions(this.config), error);
    } finally {
      restore();
    }
  }

  private args(input: NpovInput, options: GenerateOptions, streamer?: unknown): Record<string, unknown> {
    return this.promptArgs(generatorPrompt(validateInput(input)), options, streamer);
  }

  /**
   * The generation arguments of a prompt. The prompt must fit the model's context (else a typed
   * `CONTEXT_TOO_LONG` error, before any long tokenization); the token budget is capped so the sequence
   * stays within it -- prompt + new tokens for a causal LM, new tokens alone for an encoder-decoder's
   * decoder -- and a capped generation ends with finish reason "length".
   */
  private promptArgs(prompt: string, options: GenerateOptions, streamer?: unknown): Record<string, unknown> {
    const temperature = options.temperature ?? 0;
    if (!(temperature >= 0)) throw new InvalidValueError("temperature", "must be >= 0.");
    const { tokens: limit, source } = this.context;
    const ids = encodeForContext(this.tokenizer, prompt, {
      limit,
      reserved: this.encoderDecoder ? 0 : 1,
      addSpecialTokens: true,
      model: this.model,
      what: "the prompt",
      source,
    });
    const room = this.encoderDecoder ? limit : limit - ids.length;
    if (room < 1) throw new ContextTooLongError(this.model, ids.length + 1, limit, "shorten the prompt");
    const inputIds = new transformers.Tensor("int64", BigInt64Array.from(ids.map(BigInt)), [1, ids.length]);
    return {
      input_ids: inputIds,
      attention_mask: new transformers.Tensor("int64", new BigInt64Array(ids.length).fill(1n), [1, ids.length]),
      max_new_tokens: Math.min(options.maxNewTokens ?? 256, room),
      logits_processor: [new FiniteLogitsCheck()],
      do_sample: temperature > 0,
      ...(temperature > 0 ? { temperature, top_p: options.topP ?? 1, top_k: 0 } : {}),
      ...(streamer === undefined ? {} : { streamer }),
    };
  }

  /** The generated tokens of `output`: after the prompt (causal) or after the decoder start token (seq2seq). */
  private decode(output: unknown, promptLength: number): { text: string; length: number; endedByEos: boolean } {
    const t = output as { data: BigInt64Array; dims: number[] };
    const all = Array.from(t.data, Number);
    const ids = this.encoderDecoder ? all.slice(1) : all.slice(promptLength);
    return {
      text: this.tokenizer.decode(ids, { skip_special_tokens: true }),
      length: ids.length,
      endedByEos: this.eosTokenIds.includes(ids.at(-1) ?? -1),
    };
  }

  /**
   * The model's raw output text for the Figure 3 prompt of `input` (no parsing); `tokens` is the number of
   * generated tokens (the prompt and a decoder start token not counted), `budget` the token budget used
   * (`maxNewTokens`, capped by the context), `finishReason` "length" when the budget ran out before EOS.
   */
  async generateText(
    input: NpovInput,
    options: GenerateOptions = {},
  ): Promise<{ text: string; tokens: number; budget: number; finishReason: "stop" | "length" }> {
    return serialized(async () => {
      transformers.random.seed(options.seed ?? 0);
      const args = this.args(input, options);
      const promptLength = (args.input_ids as { dims: number[] }).dims[1] as number;
      const { text, length, endedByEos } = this.decode(
        await this.run(promptLength, () => this.lm.generate(args)),
        promptLength,
      );
      const budget = args.max_new_tokens as number;
      // "length" only when the budget ran out: a last token that is end-of-text stopped on its own.
      return { text, tokens: length, budget, finishReason: length >= budget && !endedByEos ? "length" : "stop" };
    });
  }

  /** The ids that end generation (the model config's eos_token_id). */
  get eosTokenIds(): number[] {
    return [this.lm.config.eos_token_id ?? []].flat();
  }

  /**
   * Complete a raw prompt (no Figure 3 wrapping), with optional log-probabilities. transformers.js's
   * generate() does not return scores, so log-probabilities come from one teacher-forced forward pass over
   * the prompt and the generated tokens: log-softmax of the logits that predicted each generated token.
   */
  async complete(prompt: string, options: CompleteOptions = {}): Promise<TextCompletion> {
    if (typeof prompt !== "string" || prompt.length === 0)
      throw new InvalidValueError("prompt", "must be a non-empty string.");
    const topK = options.logprobs;
    if (topK !== undefined && !(Number.isInteger(topK) && topK >= 0))
      throw new InvalidValueError("logprobs", "must be an integer >= 0.");
    return serialized(async () => {
      transformers.random.seed(options.seed ?? 0);
      const args = this.promptArgs(prompt, options);
      const promptIds = Array.from((args.input_ids as { data: BigInt64Array }).data, Number);
      const output = (await this.run(promptIds.length, () => this.lm.generate(args))) as { data: BigInt64Array };
      const all = Array.from(output.data, Number);
      // Encoder-decoders return the decoder sequence (starting with the decoder start token); causal LMs
      // return prompt + generated.
      const generated = this.encoderDecoder ? all.slice(1) : all.slice(promptIds.length);
      const eos = new Set([this.lm.config.eos_token_id ?? []].flat());
      const decode = (ids: number[]) => this.tokenizer.decode(ids, { skip_special_tokens: true });
      const full = decode(generated);
      let text = full;
      let count = generated.length;
      let finishReason: "stop" | "length" =
        generated.length >= (args.max_new_tokens as number) && !eos.has(generated.at(-1) ?? -1) ? "length" : "stop";
      const stops = (options.stop ?? []).filter((x) => x.length > 0);
      const cut = firstStop(full, stops);
      if (cut !== undefined) {
        text = full.slice(0, cut.index);
        finishReason = "stop";
        // Count the tokens up to the one that completes the stop string.
        count = 1;
        while (count < generated.length && firstStop(decode(generated.slice(0, count)), stops) === undefined) count++;
      }
      const result: TextCompletion = { text, promptTokens: promptIds.length, completionTokens: count, finishReason };
      if (topK !== undefined)
        result.logprobs = await this.tokenLogprobs(promptIds, all, generated.slice(0, count), topK);
      return result;
    });
  }

  /** Teacher-forced log-probabilities of `generated` (see {@link LocalGenerator.complete}). */
  private async tokenLogprobs(
    promptIds: number[],
    sequence: number[],
    generated: number[],
    topK: number,
  ): Promise<GeneratedTokenLogprob[]> {
    if (generated.length === 0) return [];
    const i64 = (ids: number[]) =>
      new transformers.Tensor("int64", BigInt64Array.from(ids.map(BigInt)), [1, ids.length]);
    const ones = (n: number) => new transformers.Tensor("int64", new BigInt64Array(n).fill(1n), [1, n]);
    let logits: { data: Float32Array; dims: number[] };
    let first: number; // row of the logits that predicts generated[0]
    if (this.encoderDecoder) {
      // Decoder input: the start token and every generated token but the last; row t predicts generated[t].
      const decoderIds = sequence.slice(0, generated.length);
      logits = (
        await this.run(promptIds.length, () =>
          this.lm({
            input_ids: i64(promptIds),
            attention_mask: ones(promptIds.length),
            decoder_input_ids: i64(decoderIds),
          }),
        )
      ).logits;
      first = 0;
    } else {
      const ids = [...promptIds, ...generated].slice(0, promptIds.length + generated.length - 1);
      logits = (await this.run(ids.length, () => this.lm({ input_ids: i64(ids), attention_mask: ones(ids.length) })))
        .logits;
      first = promptIds.length - 1;
    }
    const vocab = logits.dims[2] as number;
    const k = Math.min(topK, vocab);
    const info = (id: number, logprob: number): TokenLogprobInfo => {
      const token = this.tokenizer.decode([id], { skip_special_tokens: false });
      return { token, logprob, bytes: Array.from(Buffer.from(token, "utf8")) };
    };
    return generated.map((id, t) => {
      const row = logits.data.subarray((first + t) * vocab, (first + t + 1) * vocab);
      let max = Number.NEGATIVE_INFINITY;
      for (const x of row) if (x > max) max = x;
      let sum = 0;
      for (const x of row) sum += Math.exp(x - max);
      const logZ = max + Math.log(sum);
      if (!Number.isFinite(logZ))
        throw new ModelRunError(
          this.model,
          `${promptIds.length + generated.length} tokens`,
          maxPositions(this.config),
          new Error(`the model computed non-finite logits at generated position ${t} (a NaN or infinite weight?)`),
        );
      const top =
        k === 0
          ? []
          : Array.from(row.keys())
              .sort((a, b) => (row[b] as number) - (row[a] as number) || a - b)
              .slice(0, k)
              .map((j) => info(j, (row[j] as number) - logZ));
      return { ...info(id, (row[id] as number) - logZ), top };
    });
  }

  /** Generate and parse into opening and core. @throws GeneratorOutputError when the output is malformed */
  async generate(input: NpovInput, options: GenerateOptions = {}): Promise<GeneratedResponse> {
    const { text, finishReason } = await this.generateText(input, options);
    return { ...parseGeneratorOutput(text), raw: text, model: this.model, finishReason };
  }

  stream(input: NpovInput, options: GenerateOptions = {}): AsyncIterable<string> {
    return this.streamPrompt(generatorPrompt(validateInput(input)), options);
  }

  /**
   * Stream the completion of a raw prompt as text deltas; `onToken` sees every generated token id (the
   * server counts them to report `finish_reason: "length"`).
   */
  async *streamPrompt(
    prompt: string,
    options: GenerateOptions = {},
    onToken?: (id: number) => void,
  ): AsyncIterable<string> {
    let decoderStartSeen = !this.encoderDecoder;
    const chunks: string[] = [];
    let wake: (() => void) | undefined;
    let done = false;
    let failure: unknown;
    const streamer = new transformers.TextStreamer(this.tokenizer, {
      skip_prompt: !this.encoderDecoder,
      skip_special_tokens: true,
      token_callback_function: (tokens: bigint[]) => {
        // An encoder-decoder's streamer sees the decoder start token first: not a generated token.
        if (!decoderStartSeen) {
          decoderStartSeen = true;
          return;
        }
        for (const t of tokens) onToken?.(Number(t));
      },
      callback_function: (text: string) => {
        chunks.push(text);
        wake?.();
      },
    } as unknown as ConstructorParameters<typeof transformers.TextStreamer>[1]);
    const finished = serialized(async () => {
      transformers.random.seed(options.seed ?? 0);
      const args = this.promptArgs(prompt, options, streamer);
      const promptLength = (args.input_ids as { dims: number[] }).dims[1] as number;
      await this.run(promptLength, () => this.lm.generate(args));
    })
      .catch((e: unknown) => {
        failure = e;
      })
      .finally(() => {
        done = true;
        wake?.();
      });
    while (true) {
      if (chunks.length > 0) {
        yield chunks.shift() as string;
        continue;
      }
      if (done) break;
      await new Promise<void>((r) => {
        wake = r;
      });
      wake = undefined;
    }
    await finished;
    if (failure !== undefined) throw failure;
  }
}

/** The first occurrence of any stop string in `text`. */
export function firstStop(text: string, stops: readonly string[]): { index: number; stop: string } | undefined {
  let best: { index: number; stop: string } | undefined;
  for (const stop of stops) {
    const index = text.indexOf(stop);
    if (index >= 0 && (best === undefined || index < best.index)) best = { index, stop };
  }
  return best;
}
