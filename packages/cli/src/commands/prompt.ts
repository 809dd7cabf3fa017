import { classifierPrompt, generatorPrompt, requireNpovInput } from "@npov/core";
import type { Command } from "commander";
import { out, outJson, readExample, readInput, UsageError } from "../util.js";

export function registerPrompt(program: Command): void {
  program
    .command("prompt")
    .description("print the generator prompt (paper Figure 3) or a classifier prompt (Figure 4)")
    .requiredOption("--input <file>", "JSON file: an NPOV input, or an example {input, response}")
    .option("--kind <kind>", "generator | coverage | hallucination", "generator")
    .option("--json", "print {prompt} as JSON")
    .action((opts: { input: string; kind: string; json?: boolean }) => {
      let prompt: string;
      if (opts.kind === "generator") prompt = generatorPrompt(readInput(opts.input));
      else if (opts.kind === "coverage" || opts.kind === "hallucination") {
        const example = readExample(opts.input);
        prompt = classifierPrompt(requireNpovInput(example.input, "prompt"), example.response, opts.kind);
      } else throw new UsageError(`--kind must be generator, coverage or hallucination, got "${opts.kind}".`);
      if (opts.json) outJson({ kind: opts.kind, prompt });
      else out(prompt);
    });
}
