/** Calibrating guard thresholds on a labelled dev set. */
import { type CheckInput, type ErrorDetector, InvalidValueError, type NpovExample, requireRecord } from "@npov/core";
import { checkDataset, checkDetectors, checkScores } from "./checks.js";
import { checkThresholdRule, chooseThreshold, type ThresholdMetrics, type ThresholdRule } from "./thresholds.js";

export interface Calibration {
  thresholds: { hallucination: number; coverage: number };
  metrics: { hallucination: ThresholdMetrics; coverage: ThresholdMetrics };
  rule: string;
  n: number;
  /**
   * Error types the dataset labels on no example (e.g. coverage of RAG answers checked against sources): their
   * threshold is {@link UNCHECKED_THRESHOLD}, which never flags, and their metrics count nothing.
   */
  unchecked?: Array<"hallucination" | "coverage">;
}

/** The threshold of an error type a guard does not check: above every score in [0, 1], so it never flags. */
export const UNCHECKED_THRESHOLD = 2;

/**
 * Score `dataset` with `detector` and choose, per error type, the threshold by `rule` (default: the lowest
 * threshold with a false-positive rate <= 0.05, i.e. most errors caught within that budget).
 * An error type no example labels (coverage of sources answers, typically) is not checked: its threshold is
 * {@link UNCHECKED_THRESHOLD}, listed in `unchecked`.
 * @throws InvalidValueError for a bad dataset, detector or options, or labels of one class only;
 * InvalidScoreError when the detector returns a score that is not a number in [0, 1]
 */
export async function calibrateThresholds(
  dataset: readonly NpovExample<CheckInput>[],
  detector: ErrorDetector,
  options: { rule?: ThresholdRule; onProgress?: (done: number, total: number) => void } = {},
): Promise<Calibration> {
  checkDataset(dataset);
  checkDetectors([detector], "detector");
  requireRecord(options, "options", "an object {rule?, onProgress?}");
  if (options.onProgress !== undefined && typeof options.onProgress !== "function")
    throw new InvalidValueError("options.onProgress", "must be a function (done, total) => void.");
  const rule = checkThresholdRule(options.rule ?? { rule: "fpr", target: 0.05 });
  const scores = { hallucination: [] as number[], coverage: [] as number[] };
  const labels = { hallucination: [] as boolean[], coverage: [] as boolean[] };
  for (const [i, e] of dataset.entries()) {
    const r = checkScores(detector.name, await detector.detect(e.input, e.response));
    for (const t of ["hallucination", "coverage"] as const) {
      const l = e.labels?.[t];
      if (l === undefined) continue;
      scores[t].push(r[t]);
      labels[t].push(l);
    }
    options.onProgress?.(i + 1, dataset.length);
  }
  const unchecked = (["hallucination", "coverage"] as const).filter((t) => labels[t].length === 0);
  if (unchecked.length === 2)
    throw new InvalidValueError("dataset", "labels no example for hallucination or coverage.");
  for (const t of ["hallucination", "coverage"] as const)
    if (labels[t].length > 0 && (!labels[t].some(Boolean) || labels[t].every(Boolean)))
      throw new InvalidValueError("dataset", `needs error-free and errorful examples for ${t}.`);
  const none: ThresholdMetrics = {
    threshold: UNCHECKED_THRESHOLD,
    tp: 0,
    fp: 0,
    tn: 0,
    fn: 0,
    precision: 0,
    recall: 0,
    f1: 0,
    fpr: 0,
  };
  const choose = (t: "hallucination" | "coverage") =>
    labels[t].length === 0 ? none : chooseThreshold(scores[t], labels[t], rule);
  const h = choose("hallucination");
  const c = choose("coverage");
  return {
    thresholds: { hallucination: h.threshold, coverage: c.threshold },
    metrics: { hallucination: h, coverage: c },
    rule: rule.rule === "fpr" ? `fpr<=${rule.target}` : rule.rule,
    n: dataset.length,
    ...(unchecked.length === 0 ? {} : { unchecked }),
  };
}
