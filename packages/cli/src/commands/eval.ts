import { createRng, writeFileAtomic } from "@npov/core";
import { type EvaluationResult, evaluate, formatResultTable, renderReport } from "@npov/eval";
import { SLICES } from "@npov/synth";
import type { Command } from "commander";
import { addDetectorOptions, cliDetectors, finishDetectors, METHOD_NAMES, specFromOptions } from "../detectors.js";
import { progressBar } from "../progress.js";
import { out, outJson, parseInteger, parseList, readDataset } from "../util.js";

/** JSON form of an evaluation: the tables' numbers, curves and thresholds (per-example scores omitted). */
export function evaluationJson(result: EvaluationResult) {
  return {
    slices: result.slices,
    detectors: result.detectors,
    rows: result.rows,
    thresholds: result.thresholds,
    curves: result.curves,
    sliceCurves: result.sliceCurves,
  };
}

export function registerEval(program: Command): void {
  addDetectorOptions(
    program
      .command("eval")
      .description("ROC AUC of detectors on a dataset, per slice and error type (a table like the paper's Table 1)")
      .requiredOption("--data <file>", "dataset: JSON Lines from npov synth (a JSON array of examples also works)")
      .option("--methods <list>", `comma-separated detectors: ${METHOD_NAMES.join(", ")}`, "rouge"),
  )
    .option("--limit <n>", "score only the first n examples (model-based methods are slow)")
    .option("--sample-per-slice <n>", "score a seeded random sample of n examples per slice")
    .option("--seed <n>", "seed of --sample-per-slice", "0")
    .option("--report <file>", "write a self-contained HTML report (tables, ROC curves, thresholds)")
    .option("--bootstrap <n>", "bootstrap resamples for AUC intervals (0 = none)", "200")
    .option("--json", "machine-readable output")
    .action(
      async (
        opts: {
          data: string;
          methods: string;
          model?: string;
          softPrompt?: string;
          stacked?: string;
          limit?: string;
          samplePerSlice?: string;
          seed: string;
          report?: string;
          bootstrap: string;
          json?: boolean;
        } & Record<string, unknown>,
      ) => {
        const methods = parseList(opts.methods, METHOD_NAMES, "--methods");
        const resamples = parseInteger(opts.bootstrap, "--bootstrap");
        const all = readDataset(opts.data);
        let dataset = opts.limit === undefined ? all : all.slice(0, parseInteger(opts.limit, "--limit"));
        if (opts.samplePerSlice !== undefined) {
          const n = parseInteger(opts.samplePerSlice, "--sample-per-slice");
          const rng = createRng(parseInteger(opts.seed, "--seed"));
          const slices = [...new Set(dataset.map((e) => e.slice ?? "all"))];
          dataset = slices.flatMap((s) =>
            rng.sample(
              dataset.filter((e) => (e.slice ?? "all") === s),
              n,
            ),
          );
        }
        const detectors = await cliDetectors(methods, specFromOptions(opts));
        const bar = progressBar("scoring");
        let result: EvaluationResult;
        try {
          result = await evaluate(dataset, detectors, {
            onProgress: (done, total) => bar.update(done, total),
            bootstrap: resamples > 0 ? { resamples, seed: 0 } : false,
            sliceOrder: SLICES,
          });
        } finally {
          bar.stop();
          await finishDetectors(detectors);
        }
        if (opts.report !== undefined) {
          const sample =
            opts.samplePerSlice !== undefined
              ? `seeded sample of ${opts.samplePerSlice} per slice (seed ${opts.seed})`
              : opts.limit !== undefined
                ? `first ${opts.limit}`
                : "all";
          writeFileAtomic(
            opts.report,
            renderReport(result, {
              title: `npov evaluation of ${opts.data}`,
              metadata: [
                ["command", `npov ${process.argv.slice(2).join(" ")}`],
                ["data", `${opts.data} (${all.length} examples)`],
                ["scored", `${dataset.length} examples: ${sample}`],
                ["methods", methods.join(", ")],
                [
                  "model",
                  opts.model ?? "shipped defaults (models/npov-gen for salience, models/npov-cls for classifier)",
                ],
                ...(opts.softPrompt === undefined ? [] : [["soft prompt", opts.softPrompt] as [string, string]]),
                ...(opts.stacked === undefined ? [] : [["stacked model", opts.stacked] as [string, string]]),
                ["bootstrap", resamples > 0 ? `${resamples} resamples, seed 0, 95% intervals` : "none"],
                ["date", new Date().toISOString()],
              ],
            }),
          );
        }
        if (opts.json) return outJson(evaluationJson(result));
        out("Example-level ROC AUC (rows: slices; columns: method x error type)");
        out(formatResultTable(result, "example"));
        const words = formatResultTable(result, "word");
        if (words) out(`\nWord-level ROC AUC (hallucinated response words / uncovered argument words)\n${words}`);
        out(
          `\n${dataset.length} examples scored${opts.report === undefined ? "" : `; report written to ${opts.report}`}`,
        );
      },
    );
}
