import { InvalidValueError } from "@npov/core";
import {
  checkCorsOrigins,
  checkHost,
  createServer,
  DEFAULT_BODY_LIMIT,
  type Generator,
  LocalGenerator,
  listen,
  MAX_BODY_LIMIT,
  OpenAICompatibleGenerator,
  startGuardPool,
  TemplateGenerator,
} from "@npov/generate";
import type { Command } from "commander";
import type * as Detectors from "../detectors.js";
import {
  checkModelOption,
  integerOption,
  numberOption,
  out,
  outJson,
  readInput,
  SEED_RANGE,
  UsageError,
  warnAboutModel,
} from "../util.js";
import { secondsToMs, TIMEOUT_OPTION } from "./endpoint.js";
import { modelFileOptions } from "./model.js";

/** The generator options shared by `generate`, `serve` and `demo`. */
export interface GeneratorOptions {
  generator: string;
  model?: string;
  dtype?: string;
  modelFile?: string;
  endpoint?: string;
  endpointModel?: string;
  timeout?: number;
}

export const GENERATOR_KINDS = ["template", "local", "endpoint"] as const;

/**
 * The generator the options name: the template writer by default (what writes good NPOV text here),
 * the local model with `--generator local` or `--model`, an OpenAI-compatible endpoint with `--endpoint`.
 * Says once on stderr when the local model's card marks it unusable for generation.
 */
export async function cliGenerator(opts: GeneratorOptions): Promise<Generator> {
  const kind =
    opts.generator !== "template" ? opts.generator : opts.endpoint ? "endpoint" : opts.model ? "local" : "template";
  if (kind === "template") return new TemplateGenerator();
  if (kind === "local") {
    if (opts.model !== undefined) checkModelOption(opts.model, "--model");
    warnAboutModel(opts.model, "npov-gen", "generate");
    return LocalGenerator.fromPretrained(opts.model, modelFileOptions(opts));
  }
  if (kind === "endpoint") {
    if (opts.endpoint === undefined)
      throw new UsageError("--generator endpoint needs --endpoint URL (an OpenAI-compatible /v1 base URL).");
    if (opts.endpointModel === undefined)
      throw new UsageError("--endpoint needs --endpoint-model NAME (the model the endpoint serves).");
    return new OpenAICompatibleGenerator({
      baseURL: opts.endpoint,
      model: opts.endpointModel,
      ...(process.env.OPENAI_API_KEY === undefined ? {} : { apiKey: process.env.OPENAI_API_KEY }),
      ...(opts.timeout === undefined ? {} : { deadlineMs: secondsToMs(opts.timeout) }),
    });
  }
  throw new UsageError(`--generator must be one of ${GENERATOR_KINDS.join(", ")}, got "${opts.generator}".`);
}

/** Add the generator options to a command. */
export function generatorOptions(command: Command): Command {
  return command
    .option(
      "--generator <kind>",
      "template (the template writer, default) | local (a transformers.js model, --model) | endpoint (--endpoint)",
      "template",
    )
    .option("--model <path>", "local model folder or hub id (implies --generator local; default models/npov-gen)")
    .option("--dtype <dtype>", "weights variant of --model: fp32 | fp16 | q8 | int8 | uint8 | q4 | q4f16 | bnb4")
    .option("--model-file <name>", "decoder file base name of --model, e.g. decoder_model_merged")
    .option("--endpoint <url>", "OpenAI-compatible base URL, e.g. http://localhost:8000/v1 (key: $OPENAI_API_KEY)")
    .option("--endpoint-model <name>", "model name to request from --endpoint")
    .option(...TIMEOUT_OPTION);
}

/** A commander parser for a serve option checked by the server library: its message, under the flag's name. */
function serveOption<T>(flag: string, check: (value: string) => T): (value: string) => T {
  return (value) => {
    try {
      return check(value);
    } catch (error) {
      if (error instanceof InvalidValueError)
        throw new UsageError(`${flag} ${error.message.slice(error.message.indexOf(":") + 2)}`);
      throw error;
    }
  };
}

export function registerGenerate(program: Command): void {
  generatorOptions(
    program
      .command("generate")
      .description(
        "write an NPOV response for an input: the template writer by default, a local model or an endpoint on request",
      )
      .requiredOption("--input <file>", "JSON file with an NPOV input (or an example holding one)"),
  )
    .option(...numberOption("--temperature <t>", "0 = greedy", { min: 0, max: 100 }, 0))
    .option(...numberOption("--top-p <p>", "nucleus mass when sampling", { min: 0, minExclusive: true, max: 1 }, 1))
    .option(...integerOption("--seed <n>", "sampling seed", SEED_RANGE, 0))
    .option(...integerOption("--max-new-tokens <n>", "token budget", { min: 1, max: 1_000_000 }, 256))
    .option("--json", "print {opening, core, response, raw}")
    .action(
      async (
        opts: GeneratorOptions & {
          input: string;
          temperature: number;
          topP: number;
          seed: number;
          maxNewTokens: number;
          json?: boolean;
        },
      ) => {
        const input = readInput(opts.input);
        const generator = await cliGenerator(opts);
        const r = await generator.generate(input, {
          temperature: opts.temperature,
          topP: opts.topP,
          seed: opts.seed,
          maxNewTokens: opts.maxNewTokens,
        });
        if (opts.json)
          return outJson({ opening: r.opening, core: r.core, response: r.response, raw: r.raw, model: r.model });
        out(r.response);
      },
    );

  generatorOptions(
    program
      .command("serve")
      .description(
        "HTTP server: OpenAI-compatible /v1/chat/completions (template writer by default) and /v1/check (guard)",
      ),
  )
    .option("--guard-config <file>", "guard config for /v1/check (from npov calibrate-guard)")
    .option(
      ...integerOption("--guard-threads <n>", "worker threads running /v1/check (default: cores - 1, 1 to 4)", {
        min: 1,
        max: 64,
      }),
    )
    .option(
      "--host <host>",
      "address to listen on (0.0.0.0 = every interface)",
      serveOption("--host", checkHost),
      "127.0.0.1",
    )
    .option(...integerOption("--port <n>", "port (0 = any free port)", { min: 0, max: 65535 }, 8080))
    .option(
      ...integerOption(
        "--body-limit <bytes>",
        "largest request body",
        { min: 1, max: MAX_BODY_LIMIT },
        DEFAULT_BODY_LIMIT,
      ),
    )
    .option(
      "--cors <origins>",
      "let browser apps on these origins call the server: comma-separated origins such as https://app.example.com, or * for any (default: off)",
      serveOption("--cors", checkCorsOrigins),
    )
    .action(
      async (
        opts: GeneratorOptions & {
          guardConfig?: string;
          guardThreads?: number;
          host: string;
          port: number;
          bodyLimit: number;
          cors?: string[];
        },
      ) => {
        const generator = await cliGenerator(opts);
        // Checks run on worker threads, each building the guard the way `npov guard` does (cliGuard: the
        // CLI's method table, --model checks), so a long check never stalls /health or other requests.
        const guard =
          opts.guardConfig === undefined
            ? undefined
            : await startGuardPool({
                config: opts.guardConfig,
                ...(opts.guardThreads === undefined ? {} : { threads: opts.guardThreads }),
                loader: {
                  module: new URL("../detectors.js", import.meta.url).href,
                  export: "cliGuard" satisfies keyof typeof Detectors,
                },
              });
        try {
          const app = createServer({
            generator,
            ...(guard ? { guard } : {}),
            bodyLimit: opts.bodyLimit,
            ...(opts.cors === undefined ? {} : { cors: opts.cors }),
          });
          // listen() turns a busy port, a missing host, ... into typed one-line errors (exit 2).
          const address = await listen(app, { host: opts.host, port: opts.port });
          out(
            `npov serving ${generator.model} at ${address} (POST /v1/chat/completions${guard ? `, POST /v1/check on ${guard.threads} worker thread(s)` : ""}, GET /health${opts.cors === undefined ? "" : `; CORS for ${opts.cors.join(", ")}`}); Ctrl-C stops`,
          );
          await new Promise<void>((resolve) => {
            const stop = () => {
              void app.close().then(() => resolve());
            };
            process.once("SIGINT", stop);
            process.once("SIGTERM", stop);
          });
        } finally {
          await guard?.close();
        }
        out("stopped");
      },
    );
}
