/**
 * LocalGenerator: any transformers.js-loadable text2text or causal model (the shipped npov-gen by default)
 * reads the Figure 3 prompt and writes `<opening>} Neutral response core: {<core>}`, parsed into opening and
 * core. Greedy or sampled decoding; sampling is seeded through transformers.js's `random.seed`, so calls
 * are serialized per process to keep results reproducible.
 */
import { existsSync, statSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import * as transformers from "@huggingface/transformers";
import { tokenizerFromFiles } from "@npov/autograd";
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

type LoadedModel = { generate(args: Record<string, unknown>): Promise<unknown> };

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
    options: { dtype?: "fp32" | "fp16" | "q8" } = {},
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
        const lm = (await Auto.from_pretrained(id, { dtype: options.dtype ?? "fp32" })) as unknown as LoadedModel;
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
    const temperature = options.temperature ?? 0;
    if (!(temperature >= 0)) throw new InvalidValueError("temperature", "must be >= 0.");
    const prompt = generatorPrompt(validateInput(input));
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

  async *stream(input: NpovInput, options: GenerateOptions = {}): AsyncIterable<string> {
    const chunks: string[] = [];
    let wake: (() => void) | undefined;
    let done = false;
    let failure: unknown;
    const streamer = new transformers.TextStreamer(this.tokenizer, {
      skip_prompt: !this.encoderDecoder,
      skip_special_tokens: true,
      callback_function: (text: string) => {
        chunks.push(text);
        wake?.();
      },
    } as unknown as ConstructorParameters<typeof transformers.TextStreamer>[1]);
    const finished = serialized(async () => {
      transformers.random.seed(options.seed ?? 0);
      await this.lm.generate(this.args(input, options, streamer));
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
