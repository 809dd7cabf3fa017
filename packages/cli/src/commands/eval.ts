import { readExamples, writeFileAtomic } from "@npov/core";
import {
  type Detector,
  type EvaluationResult,
  evaluate,
  formatResultTable,
  renderReport,
  rougeEvalDetector,
} from "@npov/eval";
import { SLICES } from "@npov/synth";
import type { Command } from "commander";
import { progressBar } from "../progress.js";
import { out, outJson, parseList } from "../util.js";

export const EVAL_METHODS = ["rouge"] as const;

/** The detectors named by `--methods`. */
export function evalDetectors(methods: readonly string[]): Detector[] {
  return methods.map((m) => {
    if (m === "rouge") return rougeEvalDetector();
    throw new Error(`unreachable: ${m}`);
  });
}

/** JSON form of an evaluation: the tables' numbers, curves and thresholds (per-example scores omitted). */
export function evaluationJson(result: EvaluationResult) {
  return {
    slices: result.slices,
    detectors: result.detectors,
    rows: result.rows,
    thresholds: result.thresholds,
    curves: result.curves,
  };
}

export function registerEval(program: Command): void {
  program
    .command("eval")
    .description("ROC AUC of detectors on a dataset, per slice and error type (a table like the paper's Table 1)")
    .requiredOption("--data <file>", "dataset JSONL (from npov synth)")
    .option("--methods <list>", `comma-separated detectors: ${EVAL_METHODS.join(", ")}`, "rouge")
    .option("--report <file>", "write a self-contained HTML report (tables, ROC curves, thresholds)")
    .option("--bootstrap <n>", "bootstrap resamples for AUC intervals (0 = none)", "200")
    .option("--json", "machine-readable output")
    .action(async (opts: { data: string; methods: string; report?: string; bootstrap: string; json?: boolean }) => {
      const methods = parseList(opts.methods, EVAL_METHODS, "--methods");
      const dataset = readExamples(opts.data);
      const resamples = Number(opts.bootstrap);
      const bar = progressBar("scoring");
      const result = await evaluate(dataset, evalDetectors(methods), {
        onProgress: (done, total) => bar.update(done, total),
        bootstrap: resamples > 0 ? { resamples, seed: 0 } : false,
        sliceOrder: SLICES,
      });
      bar.stop();
      if (opts.report !== undefined)
        writeFileAtomic(opts.report, renderReport(result, { title: `npov evaluation of ${opts.data}` }));
      if (opts.json) return outJson(evaluationJson(result));
      out("Example-level ROC AUC (rows: slices; columns: method x error type)");
      out(formatResultTable(result, "example"));
      const words = formatResultTable(result, "word");
      if (words) out(`\nWord-level ROC AUC (hallucinated response words / uncovered argument words)\n${words}`);
      out(
        `\n${dataset.length} examples scored${opts.report === undefined ? "" : `; report written to ${opts.report}`}`,
      );
    });
}
