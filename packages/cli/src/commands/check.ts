import { type ErrorScores, NpovError } from "@npov/core";
import type { Command } from "commander";
import { addDetectorOptions, cliDetectors, finishDetectors, METHOD_NAMES, specFromOptions } from "../detectors.js";
import { errorLine } from "../error-line.js";
import { EXIT_CODES } from "../unexpected.js";
import { out, outJson, parseList, readExample } from "../util.js";

/** How many evidence items the text output lists per method. */
const SHOWN = 3;

/** The text lines of one method's result: scores, the least-covered arguments, the least-supported spans. */
export function formatScores(method: string, r: ErrorScores): string[] {
  const lines = [`${method}  hallucination ${r.hallucination.toFixed(3)}  coverage ${r.coverage.toFixed(3)}`];
  for (const a of (r.uncoveredArguments ?? []).slice(0, SHOWN))
    lines.push(`  uncovered ${a.score.toFixed(2)}  ${a.text}`);
  const spans = (r.unsupportedSpans ?? []).filter((s) => s.score > 0).slice(0, SHOWN * 3);
  if (r.unsupportedSpans !== undefined)
    lines.push(
      `  least supported: ${spans.map((s) => `${s.text} (${s.score.toFixed(2)})`).join(", ") || "(none: every word is supported)"}`,
    );
  return lines;
}

export function registerCheck(program: Command): void {
  addDetectorOptions(
    program
      .command("check")
      .description("score one example {input, response} for hallucination and coverage errors")
      .requiredOption("--input <file>", 'JSON file {"input": {...}, "response": "..."}')
      .option("--methods <list>", `comma-separated detectors: ${METHOD_NAMES.join(", ")}`, "rouge"),
  )
    .option(
      "--json",
      "machine-readable output: {METHOD: {hallucination, coverage, uncoveredArguments, unsupportedSpans, features, words}} -- scores in [0, 1], higher = more likely an error; a method leaves out the fields it does not compute",
    )
    .addHelpText(
      "after",
      "\nEach method runs on its own: when one fails (e.g. an endpoint refuses), the others are still printed, each failure is one line on stderr, and the exit code is 2.",
    )
    .action(async (opts: { input: string; methods: string; json?: boolean } & Record<string, unknown>) => {
      const methods = parseList(opts.methods, METHOD_NAMES, "--methods");
      const example = readExample(opts.input);
      const detectors = await cliDetectors(methods, specFromOptions(opts));
      const result: Record<string, ErrorScores> = {};
      const failures: string[] = [];
      try {
        for (const d of detectors)
          try {
            result[d.name] = await d.detect(example.input, example.response);
          } catch (error) {
            // A typed failure belongs to its method; a bug (any other error) still stops the command.
            if (!(error instanceof NpovError)) throw error;
            failures.push(errorLine(error, detectors.length > 1 ? d.name : undefined));
          }
      } finally {
        await finishDetectors(detectors);
      }
      if (Object.keys(result).length > 0) {
        if (opts.json) outJson(result);
        else for (const [method, r] of Object.entries(result)) out(formatScores(method, r).join("\n"));
      }
      for (const line of failures) process.stderr.write(line);
      if (failures.length > 0) process.exitCode = EXIT_CODES.usage;
    });
}
