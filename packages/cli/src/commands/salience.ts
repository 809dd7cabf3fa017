import { checkOutputPath, refuseOutputOverInput, requireNpovInput, writeFileAtomic } from "@npov/core";
import { renderSalienceHtml } from "@npov/salience";
import type { Command } from "commander";
import { loadSalience, salienceJson } from "../detectors.js";
import { out, outJson, readExample } from "../util.js";
import { addModelFileOptions } from "./model.js";

export function registerSalience(program: Command): void {
  const command = program
    .command("salience")
    .description("gradient x input salience of one example (SPEC 2.2), optionally as an HTML heatmap")
    .requiredOption("--input <file>", 'JSON file {"input": {...}, "response": "..."}')
    .option(
      "--model <path>",
      "model folder (or hub id) in the transformers.js layout (default: the shipped models/npov-gen)",
    )
    .option("--variant <name>", "grad-x-input | grad-norm", "grad-x-input")
    .option("--html <file>", "write the heatmap (argument words x response words) as a self-contained page")
    .option("--json", "machine-readable output");
  addModelFileOptions(command).action(
    async (opts: {
      input: string;
      model?: string;
      variant: string;
      html?: string;
      json?: boolean;
      dtype?: string;
      modelFile?: string;
    }) => {
      const example = readExample(opts.input);
      refuseOutputOverInput(
        [{ flag: "--html", path: opts.html }],
        [
          { flag: "--input", path: opts.input },
          { flag: "--model", path: opts.model },
        ],
      );
      if (opts.html !== undefined) checkOutputPath(opts.html);
      const { detector, warning } = await loadSalience(opts.model, opts.variant, opts);
      const result = await detector.score(requireNpovInput(example.input, "salience"), example.response);
      await detector.dispose();
      if (opts.html !== undefined)
        writeFileAtomic(
          opts.html,
          renderSalienceHtml(result, {
            title: `salience: ${example.input.query}`,
            ...(warning === undefined ? {} : { warning }),
            ...(example.wordLabels === undefined ? {} : { gold: example.wordLabels }),
          }),
        );
      if (opts.json) return outJson(salienceJson(result));
      out(
        `hallucination ${result.hallucination.toFixed(3)}  coverage ${result.coverage.toFixed(3)}  (${result.words.arguments.length} argument words x ${result.words.response.length} response words)`,
      );
      const weakest = [...result.words.response].sort((a, b) => a.attribution - b.attribution).slice(0, 5);
      out(
        `least supported response words: ${weakest.map((w) => `${w.text} (${w.attribution.toFixed(3)})`).join(", ")}`,
      );
      if (opts.html !== undefined) out(`heatmap written to ${opts.html}`);
    },
  );
}
