import { createRng, readExamples, writeFileAtomic } from "@npov/core";
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
import {
  classifierEvalDetector,
  loadClassifier,
  loadSalience,
  salienceEvalDetector,
  softEvalDetector,
} from "../detectors.js";
import { progressBar } from "../progress.js";
import { out, outJson, parseInteger, parseList } from "../util.js";

export const EVAL_METHODS = ["rouge", "soft", "align", "salience", "classifier"] as const;

/** The detectors named by `--methods` (model-based ones load `model`). */
export async function evalDetectors(
  methods: readonly string[],
  model?: string,
  softPrompt?: string,
): Promise<Detector[]> {
  const detectors: Detector[] = [];
  for (const m of methods) {
    if (m === "rouge") detectors.push(rougeEvalDetector());
    else if (m === "soft" || m === "align") detectors.push(softEvalDetector(m));
    else if (m === "salience") detectors.push(salienceEvalDetector(await loadSalience(model)));
    else if (m === "classifier") detectors.push(classifierEvalDetector(await loadClassifier(model, softPrompt)));
  }
  return detectors;
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
    .option("--model <path>", "model folder (or id) for model-based methods (salience, classifier)")
    .option("--soft-prompt <file>", "soft prompt for the classifier")
    .option("--limit <n>", "score only the first n examples (model-based methods are slow)")
    .option("--sample-per-slice <n>", "score a seeded random sample of n examples per slice")
    .option("--seed <n>", "seed of --sample-per-slice", "0")
    .option("--report <file>", "write a self-contained HTML report (tables, ROC curves, thresholds)")
    .option("--bootstrap <n>", "bootstrap resamples for AUC intervals (0 = none)", "200")
    .option("--json", "machine-readable output")
    .action(
      async (opts: {
        data: string;
        methods: string;
        model?: string;
        softPrompt?: string;
        limit?: string;
        samplePerSlice?: string;
        seed: string;
        report?: string;
        bootstrap: string;
        json?: boolean;
      }) => {
        const methods = parseList(opts.methods, EVAL_METHODS, "--methods");
        const all = readExamples(opts.data);
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
        const resamples = Number(opts.bootstrap);
        const bar = progressBar("scoring");
        const result = await evaluate(dataset, await evalDetectors(methods, opts.model, opts.softPrompt), {
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
      },
    );
}
