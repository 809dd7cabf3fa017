import {
  createServer,
  type Generator,
  LocalGenerator,
  listen,
  OpenAICompatibleGenerator,
  TemplateGenerator,
} from "@npov/generate";
import type { Command } from "commander";
import { cliGuard } from "../detectors.js";
import { checkModelOption, out, outJson, parseInteger, readInput, UsageError, warnAboutModel } from "../util.js";
import { modelFileOptions } from "./model.js";

/** The generator options shared by `generate`, `serve` and `demo`. */
export interface GeneratorOptions {
  generator: string;
  model?: string;
  dtype?: string;
  modelFile?: string;
  endpoint?: string;
  endpointModel?: string;
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
    .option("--endpoint-model <name>", "model name to request from --endpoint");
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
    .option("--temperature <t>", "0 = greedy", "0")
    .option("--top-p <p>", "nucleus mass when sampling", "1")
    .option("--seed <n>", "sampling seed", "0")
    .option("--max-new-tokens <n>", "token budget", "256")
    .option("--json", "print {opening, core, response, raw}")
    .action(
      async (
        opts: GeneratorOptions & {
          input: string;
          temperature: string;
          topP: string;
          seed: string;
          maxNewTokens: string;
          json?: boolean;
        },
      ) => {
        const temperature = Number(opts.temperature);
        if (!(temperature >= 0)) throw new UsageError(`--temperature must be >= 0, got "${opts.temperature}".`);
        const input = readInput(opts.input);
        const generator = await cliGenerator(opts);
        const r = await generator.generate(input, {
          temperature,
          topP: Number(opts.topP),
          seed: parseInteger(opts.seed, "--seed"),
          maxNewTokens: parseInteger(opts.maxNewTokens, "--max-new-tokens"),
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
    .option("--host <host>", "address to listen on", "127.0.0.1")
    .option("--port <n>", "port (0 = any free port)", "8080")
    .option("--body-limit <bytes>", "largest request body", String(256 * 1024))
    .action(
      async (opts: GeneratorOptions & { guardConfig?: string; host: string; port: string; bodyLimit: string }) => {
        const generator = await cliGenerator(opts);
        const guard = opts.guardConfig === undefined ? undefined : await cliGuard(opts.guardConfig);
        const app = createServer({
          generator,
          ...(guard ? { guard } : {}),
          bodyLimit: parseInteger(opts.bodyLimit, "--body-limit"),
        });
        // listen() turns a busy port into a typed PORT_IN_USE error (one line, exit 2).
        const address = await listen(app, { host: opts.host, port: parseInteger(opts.port, "--port") });
        out(
          `npov serving ${generator.model} at ${address} (POST /v1/chat/completions${guard ? ", POST /v1/check" : ""}, GET /health); Ctrl-C stops`,
        );
        await new Promise<void>((resolve) => {
          const stop = () => {
            void app.close().then(() => resolve());
          };
          process.once("SIGINT", stop);
          process.once("SIGTERM", stop);
        });
        out("stopped");
      },
    );
}
