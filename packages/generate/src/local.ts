/**
 * LocalGenerator: any transformers.js-loadable text2text or causal model (the shipped npov-gen by default)
 * reads the Figure 3 prompt and writes `<opening>} Neutral response core: {<core>}`, parsed into opening and
 * core. Greedy or sampled decoding; sampling is seeded through transformers.js's `random.seed`, so calls
 * are serialized per process to keep results reproducible.
 */
import { existsSync, statSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import * as transformers from "@huggingface/transformers";
import { type ModelDtype, parseModelDtype, resolveVariant, tokenizerFromFiles } from "@npov/autograd";
import {
  generatorPrompt,
  InvalidValueError,
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

export class LocalGenerator implements Generator {
  private constructor(
    readonly model: string,
    private readonly tokenizer: transformers.PreTrainedTokenizer,
    private readonly lm: LoadedModel,
    private readonly encoderDecoder: boolean,
  ) {}

  /** Load a model folder (default: the shipped npov-gen) or a hub id. */
  static async fromPretrained(
    idOrPath: string = defaultGeneratorPath(),
    options: {
      /** Weights variant (transformers.js naming); default "auto": config.json's choice, else fp32, else the only one. */
      dtype?: ModelDtype | "auto";
      /** Decoder file base name (transformers.js's `model_file_name`), e.g. "decoder_model_merged". */
      modelFileName?: string;
    } = {},
  ): Promise<LocalGenerator> {
    const isFolder = existsSync(idOrPath) && statSync(idOrPath).isDirectory();
    const env = transformers.env as unknown as { localModelPath: string; allowLocalModels: boolean };
    return serialized(async () => {
      // transformers.js resolves ids under env.localModelPath: point it at the folder's parent for the
      // duration of the load (serialized, then restored).
      const saved = { localModelPath: env.localModelPath, allowLocalModels: env.allowLocalModels };
      const id = isFolder ? basename(resolve(idOrPath)) : idOrPath;
      if (isFolder) {
        env.localModelPath = `${dirname(resolve(idOrPath))}/`;
        env.allowLocalModels = true;
      }
      try {
        const config = (await transformers.AutoConfig.from_pretrained(id)) as unknown as {
          is_encoder_decoder?: boolean;
        };
        const encoderDecoder = config.is_encoder_decoder === true;
        const Auto = encoderDecoder ? transformers.AutoModelForSeq2SeqLM : transformers.AutoModelForCausalLM;
        // Local folders: the same dtype rule as every npov loader (resolveVariant), over the files
        // transformers.js generates with -- `model*.onnx` or the If-merged decoder (legacy layout), which
        // has the cache; a hub id: the asked dtype, else fp32.
        const asked =
          options.dtype !== undefined && options.dtype !== "auto" ? parseModelDtype(options.dtype) : undefined;
        const candidates =
          options.modelFileName !== undefined
            ? [options.modelFileName]
            : encoderDecoder
              ? ["decoder_model_merged"]
              : ["model", "decoder_model_merged"];
        const chosen = isFolder
          ? resolveVariant(idOrPath, idOrPath, config as Record<string, unknown>, candidates, asked, encoderDecoder)
          : { base: options.modelFileName ?? "model", dtype: asked ?? "fp32" };
        const dtype = chosen.dtype;
        const modelFileName =
          options.modelFileName ??
          (chosen.base === "decoder_model_merged" && !encoderDecoder ? chosen.base : undefined);
        const lm = (await Auto.from_pretrained(id, {
          dtype,
          ...(modelFileName !== undefined ? { model_file_name: modelFileName } : {}),
        } as Record<string, unknown>)) as unknown as LoadedModel;
        const tokenizer = isFolder
          ? tokenizerFromFiles(idOrPath)
          : await transformers.AutoTokenizer.from_pretrained(id);
        return new LocalGenerator(isFolder ? resolve(idOrPath) : idOrPath, tokenizer, lm, encoderDecoder);
      } finally {
        env.localModelPath = saved.localModelPath;
        env.allowLocalModels = saved.allowLocalModels;
      }
    });
  }

  private args(input: NpovInput, options: GenerateOptions, streamer?: unknown): Record<string, unknown> {
    return this.promptArgs(generatorPrompt(validateInput(input)), options, streamer);
  }

  private promptArgs(prompt: string, options: GenerateOptions, streamer?: unknown): Record<string, unknown> {
    const temperature = options.temperature ?? 0;
    if (!(temperature >= 0)) throw new InvalidValueError("temperature", "must be >= 0.");
    const ids = this.tokenizer.encode(prompt) as number[];
    const inputIds = new transformers.Tensor("int64", BigInt64Array.from(ids.map(BigInt)), [1, ids.length]);
    return {
      input_ids: inputIds,
      attention_mask: new transformers.Tensor("int64", new BigInt64Array(ids.length).fill(1n), [1, ids.length]),
      max_new_tokens: options.maxNewTokens ?? 256,
      do_sample: temperature > 0,
      ...(temperature > 0 ? { temperature, top_p: options.topP ?? 1, top_k: 0 } : {}),
      ...(streamer === undefined ? {} : { streamer }),
    };
  }

  private decode(output: unknown, promptLength: number): { text: string; length: number } {
    const t = output as { data: BigInt64Array; dims: number[] };
    let ids = Array.from(t.data, Number);
    if (!this.encoderDecoder) ids = ids.slice(promptLength);
    return { text: this.tokenizer.decode(ids, { skip_special_tokens: true }), length: ids.length };
  }

  /** The model's raw output text for the Figure 3 prompt of `input` (no parsing). */
  async generateText(input: NpovInput, options: GenerateOptions = {}): Promise<{ text: string; tokens: number }> {
    return serialized(async () => {
      transformers.random.seed(options.seed ?? 0);
      const args = this.args(input, options);
      const promptLength = (args.input_ids as { dims: number[] }).dims[1] as number;
      const { text, length } = this.decode(await this.lm.generate(args), promptLength);
      return { text, tokens: length };
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
      const output = (await this.lm.generate(args)) as { data: BigInt64Array };
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
        generated.length >= (options.maxNewTokens ?? 256) && !eos.has(generated.at(-1) ?? -1) ? "length" : "stop";
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
        await this.lm({
          input_ids: i64(promptIds),
          attention_mask: ones(promptIds.length),
          decoder_input_ids: i64(decoderIds),
        })
      ).logits;
      first = 0;
    } else {
      const ids = [...promptIds, ...generated].slice(0, promptIds.length + generated.length - 1);
      logits = (await this.lm({ input_ids: i64(ids), attention_mask: ones(ids.length) })).logits;
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
    const { text, tokens } = await this.generateText(input, options);
    return {
      ...parseGeneratorOutput(text),
      raw: text,
      model: this.model,
      finishReason: tokens >= (options.maxNewTokens ?? 256) ? "length" : "stop",
    };
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
      await this.lm.generate(this.promptArgs(prompt, options, streamer));
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
