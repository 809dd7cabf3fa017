import { checkOutputPath, createRng, refuseOutputOverInput, writeFileAtomic } from "@npov/core";
import {
  aucTableNotes,
  type EvaluationResult,
  formatAgreement,
  formatResultTable,
  renderReport,
  rocPointsJson,
} from "@npov/eval";
import { evaluateScored, evaluationFields } from "@npov/queue";
import { SLICES } from "@npov/synth";
import type { Command } from "commander";
import { addDetectorOptions, DEFAULT_METHOD, detectorInputPaths, METHOD_NAMES, modelsOfRun } from "../detectors.js";
import { integerOption, MAX_RESAMPLES, out, outJson, parseList, readDataset, SEED_RANGE, UsageError } from "../util.js";
import { addQueueOptions, scoreWithOptions, warnAboutFailures } from "./check-batch.js";

/**
 * JSON form of an evaluation: the tables' numbers, curves and thresholds (per-example scores omitted). Each
 * curve's first point has the threshold +Infinity, written as the string "Infinity" (JSON has no infinity).
 */
export function evaluationJson(result: EvaluationResult) {
  const curves = (list: EvaluationResult["curves"]) => list.map((c) => ({ ...c, points: rocPointsJson(c.points) }));
  return {
    slices: result.slices,
    detectors: result.detectors,
    rows: result.rows,
    thresholds: result.thresholds,
    curves: curves(result.curves),
    sliceCurves: curves(result.sliceCurves),
  };
}

/**
 * The date a report shows: SOURCE_DATE_EPOCH (seconds since 1970, the reproducible-builds convention) when
 * set, else now. @throws UsageError for a SOURCE_DATE_EPOCH that is not a whole number of seconds
 */
export function reportDate(sourceDateEpoch: string | undefined, now = new Date()): string {
  if (sourceDateEpoch === undefined || sourceDateEpoch === "") return now.toISOString();
  const seconds = /^\d{1,12}$/.test(sourceDateEpoch.trim()) ? Number(sourceDateEpoch.trim()) : Number.NaN;
  if (!Number.isSafeInteger(seconds))
    throw new UsageError(
      `SOURCE_DATE_EPOCH must be a whole number of seconds since 1970-01-01, got "${sourceDateEpoch}"; unset it or use --no-date.`,
    );
  return new Date(seconds * 1000).toISOString();
}

export function registerEval(program: Command): void {
  addQueueOptions(
    addDetectorOptions(
      program
        .command("eval")
        .description("ROC AUC of detectors on a dataset, per slice and error type (a table like the paper's Table 1)")
        .requiredOption("--data <file>", "dataset: JSON Lines from npov synth (a JSON array of examples also works)")
        .option(
          "--methods <list>",
          `comma-separated detectors: ${METHOD_NAMES.join(", ")} (default: ${DEFAULT_METHOD})`,
          DEFAULT_METHOD,
        ),
    ),
  )
    .option(
      ...integerOption("--limit <n>", "score only the first n examples (model-based methods are slow)", { min: 1 }),
    )
    .option(
      ...integerOption("--sample-per-slice <n>", "score a seeded random sample of n examples per slice", { min: 1 }),
    )
    .option(...integerOption("--seed <n>", "seed of --sample-per-slice", SEED_RANGE, 0))
    .option("--report <file>", "write a self-contained HTML report (tables, ROC curves, thresholds)")
    .option(
      "--no-date",
      "leave the date out of the report (two runs on the same data give the same bytes; SOURCE_DATE_EPOCH, when set, is the date shown instead of now)",
    )
    .option(
      ...integerOption(
        "--bootstrap <n>",
        "bootstrap resamples for AUC intervals (0 = none)",
        { min: 0, max: MAX_RESAMPLES },
        200,
      ),
    )
    .option("--agreement <file>", "annotator agreement report (npov annotate export --agreement) to show with the AUCs")
    .option("--json", "machine-readable output")
    .action(
      async (
        opts: {
          data: string;
          methods: string;
          model?: string;
          softPrompt?: string;
          stacked?: string;
          limit?: number;
          samplePerSlice?: number;
          seed: number;
          report?: string;
          date: boolean;
          bootstrap: number;
          agreement?: string;
          json?: boolean;
        } & Record<string, unknown>,
      ) => {
        const methods = parseList(opts.methods, METHOD_NAMES, "--methods");
        const resamples = opts.bootstrap;
        const date = opts.date ? reportDate(process.env.SOURCE_DATE_EPOCH) : undefined;
        // Outputs are checked before the (possibly long) scoring, so a bad path fails at once.
        refuseOutputOverInput(
          [{ flag: "--report", path: opts.report }],
          [
            { flag: "--data", path: opts.data },
            { flag: "--agreement", path: opts.agreement },
            ...detectorInputPaths(opts),
          ],
        );
        if (opts.report !== undefined) checkOutputPath(opts.report);
        const all = readDataset(opts.data);
        // Read before scoring, so a bad file fails at once rather than after a long run.
        const agreement =
          opts.agreement === undefined
            ? undefined
            : (await import("@npov/annotate")).readAgreementReport(opts.agreement);
        let dataset = opts.limit === undefined ? all : all.slice(0, opts.limit);
        if (opts.samplePerSlice !== undefined) {
          const n = opts.samplePerSlice;
          const rng = createRng(opts.seed);
          // Unsliced examples are a group of their own (undefined), apart from any slice's name.
          const slices = [...new Set(dataset.map((e) => e.slice))];
          dataset = slices.flatMap((s) =>
            rng.sample(
              dataset.filter((e) => e.slice === s),
              n,
            ),
          );
        }
        // Scored in this process or, with --queue, by workers: the same chunks and scores either way.
        const scored = await scoreWithOptions(dataset, methods, opts, evaluationFields(dataset));
        if (scored === undefined) return; // Ctrl-C: already said so
        const { result, failed } = await evaluateScored(dataset, scored, {
          bootstrap: resamples > 0 ? { resamples, seed: 0 } : false,
          sliceOrder: SLICES,
        });
        warnAboutFailures(failed, (i) => `example ${i + 1} (${dataset[i]?.id ?? "no id"})`);
        if (opts.report !== undefined) {
          const text = (k: string) => (typeof opts[k] === "string" ? (opts[k] as string) : undefined);
          const models = modelsOfRun(methods, {
            model: opts.model,
            endpoint: text("endpoint"),
            endpointModel: text("endpointModel"),
          });
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
                ["models", models.description],
                ...(opts.softPrompt === undefined ? [] : [["soft prompt", opts.softPrompt] as [string, string]]),
                ...(opts.stacked === undefined ? [] : [["stacked model", opts.stacked] as [string, string]]),
                ["bootstrap", resamples > 0 ? `${resamples} resamples, seed 0, 95% intervals` : "none"],
                ...(date === undefined ? [] : [["date", date] as [string, string]]),
              ],
              ...(agreement === undefined ? {} : { agreement }),
              ...(models.warnings.length === 0 ? {} : { warnings: models.warnings }),
            }),
          );
        }
        if (opts.json) return outJson({ ...evaluationJson(result), ...(agreement === undefined ? {} : { agreement }) });
        out("Example-level ROC AUC (rows: slices; columns: method x error type)");
        // Each table with the meaning of its "-" and "n/a" cells, when it has any.
        const withNotes = (table: string, level: "example" | "word") =>
          [table, ...aucTableNotes(result, level)].join("\n");
        out(withNotes(formatResultTable(result, "example"), "example"));
        const words = formatResultTable(result, "word");
        if (words)
          out(
            `\nWord-level ROC AUC (hallucinated response words / uncovered argument words)\n${withNotes(words, "word")}`,
          );
        if (agreement !== undefined)
          out(`\nAnnotator agreement (Krippendorff's alpha; ${opts.agreement})\n${formatAgreement(agreement)}`);
        out(
          `\n${dataset.length - failed.length} examples scored${opts.report === undefined ? "" : `; report written to ${opts.report}`}`,
        );
      },
    );
}
