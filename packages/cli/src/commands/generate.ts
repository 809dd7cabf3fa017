import { loadGuardConfig } from "@npov/classifier";
import { createServer, defaultGeneratorPath, LocalGenerator } from "@npov/generate";
import type { Command } from "commander";
import { guardFromConfig } from "../detectors.js";
import { out, outJson, parseInteger, readInput, UsageError } from "../util.js";

export function registerGenerate(program: Command): void {
  program
    .command("generate")
    .description(
      "write an NPOV response for an input with the shipped generator (or any transformers.js-loadable model)",
    )
    .requiredOption("--input <file>", "JSON file with an NPOV input (or an example holding one)")
    .option("--model <path>", "model folder or id", defaultGeneratorPath())
    .option("--temperature <t>", "0 = greedy", "0")
    .option("--top-p <p>", "nucleus mass when sampling", "1")
    .option("--seed <n>", "sampling seed", "0")
    .option("--max-new-tokens <n>", "token budget", "256")
    .option("--json", "print {opening, core, response, raw}")
    .action(
      async (opts: {
        input: string;
        model: string;
        temperature: string;
        topP: string;
        seed: string;
        maxNewTokens: string;
        json?: boolean;
      }) => {
        const temperature = Number(opts.temperature);
        if (!(temperature >= 0)) throw new UsageError(`--temperature must be >= 0, got "${opts.temperature}".`);
        const generator = await LocalGenerator.fromPretrained(opts.model);
        const r = await generator.generate(readInput(opts.input), {
          temperature,
          topP: Number(opts.topP),
          seed: parseInteger(opts.seed, "--seed"),
          maxNewTokens: parseInteger(opts.maxNewTokens, "--max-new-tokens"),
        });
        if (opts.json)
          return outJson({ opening: r.opening, core: r.core, response: r.response, raw: r.raw, model: r.model });
        out(`opening: ${r.opening}\ncore: ${r.core}`);
      },
    );

  program
    .command("serve")
    .description("HTTP server: OpenAI-compatible /v1/chat/completions (local generator) and /v1/check (guard)")
    .option("--model <path>", "generator model folder or id", defaultGeneratorPath())
    .option("--guard-config <file>", "guard config for /v1/check (from npov calibrate-guard)")
    .option("--host <host>", "address to listen on", "127.0.0.1")
    .option("--port <n>", "port (0 = any free port)", "8080")
    .option("--body-limit <bytes>", "largest request body", String(256 * 1024))
    .action(async (opts: { model: string; guardConfig?: string; host: string; port: string; bodyLimit: string }) => {
      const generator = await LocalGenerator.fromPretrained(opts.model);
      const guard =
        opts.guardConfig === undefined ? undefined : await guardFromConfig(loadGuardConfig(opts.guardConfig));
      const app = createServer({
        generator,
        ...(guard ? { guard } : {}),
        bodyLimit: parseInteger(opts.bodyLimit, "--body-limit"),
      });
      const address = await app.listen({ host: opts.host, port: parseInteger(opts.port, "--port") });
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
    });
}
