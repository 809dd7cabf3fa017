import { type ErrorScores, EVIDENCE_FLAG_THRESHOLD, NpovError } from "@npov/core";
import type { Command } from "commander";
import {
  addDetectorOptions,
  cliDetectors,
  DEFAULT_METHOD,
  finishDetectors,
  METHOD_NAMES,
  specFromOptions,
} from "../detectors.js";
import { errorLine } from "../error-line.js";
import { EXIT_CODES } from "../unexpected.js";
import { out, outJson, parseList, readExample } from "../util.js";

/** How many evidence items the text output lists per method. */
const SHOWN = 3;

/** The header of the text output: one direction for every number that follows, and what "flagged" means. */
export const SCORES_HEADER = `scores in [0, 1], higher = more likely an error; evidence is flagged at >= ${EVIDENCE_FLAG_THRESHOLD}`;

/**
 * The text lines of one method's result: its scores, then the flagged evidence -- uncovered arguments and
 * unsupported spans, worst first -- or, when nothing is flagged, the closest item, said as such.
 */
export function formatScores(method: string, r: ErrorScores): string[] {
  const lines = [`${method}  hallucination ${r.hallucination.toFixed(3)}  coverage ${r.coverage.toFixed(3)}`];
  const list = <T extends { score: number; flagged?: boolean }>(
    what: string,
    items: readonly T[] | undefined,
    text: (x: T) => string,
  ) => {
    if (items === undefined) return;
    const flagged = items.filter((x) => x.flagged ?? x.score >= EVIDENCE_FLAG_THRESHOLD);
    if (flagged.length > 0)
      for (const x of flagged.slice(0, SHOWN)) lines.push(`  ${what} (flagged, ${x.score.toFixed(2)}): ${text(x)}`);
    else {
      const closest = items[0];
      lines.push(
        `  ${what}: none flagged${closest === undefined ? "" : `; closest ${closest.score.toFixed(2)}: ${text(closest)}`}`,
      );
    }
    if (flagged.length > SHOWN)
      lines.push(`  ... and ${flagged.length - SHOWN} more ${what} flagged (--json lists all)`);
  };
  list("uncovered", r.uncoveredArguments, (a) => a.text);
  list("unsupported", r.unsupportedSpans, (s) => s.text);
  return lines;
}

export function registerCheck(program: Command): void {
  addDetectorOptions(
    program
      .command("check")
      .description("score one example {input, response} for hallucination and coverage errors")
      .requiredOption(
        "--input <file>",
        'JSON file {"input": {...}, "response": "..."}; input is {topic, query, perspectives} or {query?, sources: [{text}]}',
      )
      .option(
        "--methods <list>",
        `comma-separated detectors: ${METHOD_NAMES.join(", ")} (default: ${DEFAULT_METHOD}, npov's recommended detector)`,
        DEFAULT_METHOD,
      ),
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
        else
          out([SCORES_HEADER, ...Object.entries(result).flatMap(([method, r]) => formatScores(method, r))].join("\n"));
      }
      for (const line of failures) process.stderr.write(line);
      if (failures.length > 0) process.exitCode = EXIT_CODES.usage;
    });
}
