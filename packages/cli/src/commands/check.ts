import type { ErrorScores } from "@npov/core";
import type { Command } from "commander";
import { addDetectorOptions, cliDetectors, finishDetectors, METHOD_NAMES, specFromOptions } from "../detectors.js";
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
    .option("--json", "machine-readable output: {method: {hallucination, coverage, evidence, features, words}}")
    .action(async (opts: { input: string; methods: string; json?: boolean } & Record<string, unknown>) => {
      const methods = parseList(opts.methods, METHOD_NAMES, "--methods");
      const example = readExample(opts.input);
      const detectors = await cliDetectors(methods, specFromOptions(opts));
      const result: Record<string, ErrorScores> = {};
      try {
        for (const d of detectors) result[d.name] = await d.detect(example.input, example.response);
      } finally {
        await finishDetectors(detectors);
      }
      if (opts.json) return outJson(result);
      for (const [method, r] of Object.entries(result)) out(formatScores(method, r).join("\n"));
    });
}
