/**
 * `evaluate(dataset, detectors)`: ROC AUC per detector x error type x slice at the example level, and at
 * the word level where word labels exist (SPEC section 4), plus pooled ROC curves and chosen thresholds.
 */
import {
  type CheckInput,
  type ErrorDetector,
  type ErrorScores,
  InvalidValueError,
  type NpovExample,
  requireArray,
  requireRecord,
  type Span,
} from "@npov/core";
import { bootstrapCi, type ConfidenceInterval, checkBootstrapOptions, NoResampleValueError } from "./bootstrap.js";
import { checkDataset, checkDetectors, checkScores } from "./checks.js";
import { type RocPoint, rocAuc, rocCurve } from "./roc.js";
import { checkThresholdRule, chooseThreshold, type ThresholdMetrics, type ThresholdRule } from "./thresholds.js";

/** The two error types. */
export type ErrorType = "hallucination" | "coverage";
export const ERROR_TYPES: readonly ErrorType[] = ["hallucination", "coverage"];

/** An AUC with its sample sizes; `auc` is null when a class is missing. */
export interface AucCell {
  auc: number | null;
  n: number;
  positives: number;
  negatives: number;
  ci?: { low: number; high: number; level: number };
}

/** One cell of the results: slice x detector x error type x level. */
export interface EvaluationRow extends AucCell {
  slice: string;
  detector: string;
  errorType: ErrorType;
  level: "example" | "word";
}

/** A ROC curve for one detector and error type, pooled over all slices or of one slice. */
export interface RocCurveResult {
  /** The slice, or "all" for the pooled curve. */
  slice: string;
  detector: string;
  errorType: ErrorType;
  auc: number;
  points: RocPoint[];
}

/** A threshold chosen on the pooled scores. */
export interface ThresholdResult {
  detector: string;
  errorType: ErrorType;
  rule: string;
  metrics: ThresholdMetrics;
}

/** Per-example scores, kept for reports and reproducibility. */
export interface ExampleScores {
  id: string;
  slice: string;
  detector: string;
  hallucination: number;
  coverage: number;
}

/** Everything {@link evaluate} computes. */
export interface EvaluationResult {
  slices: string[];
  detectors: string[];
  rows: EvaluationRow[];
  /** Pooled curves (all slices), one per detector x error type with both classes. */
  curves: RocCurveResult[];
  /** Per-slice curves, one per slice x detector x error type with both classes. */
  sliceCurves: RocCurveResult[];
  thresholds: ThresholdResult[];
  scores: ExampleScores[];
}

/** Options of {@link evaluate}. */
export interface EvaluateOptions {
  /** Called after each example is scored by all detectors. */
  onProgress?: (done: number, total: number) => void;
  /** Bootstrap intervals for example-level AUCs (default 200 resamples, seed 0); false to skip. */
  bootstrap?: { resamples?: number; seed?: number; level?: number } | false;
  /** Threshold rules to report (default: FPR <= 0.1, max F1, Youden's J). */
  thresholdRules?: ThresholdRule[];
  /** Add a pooled "all" slice row (default true when there are several slices). */
  pooled?: boolean;
  /** Order of slice rows; slices not listed follow in order of first appearance. */
  sliceOrder?: readonly string[];
}

const DEFAULT_RULES: ThresholdRule[] = [{ rule: "fpr", target: 0.1 }, { rule: "max-f1" }, { rule: "youden" }];

/** Check {@link EvaluateOptions}. @throws InvalidValueError naming the bad option */
function checkOptions(value: unknown): EvaluateOptions {
  const o = requireRecord(value, "options", "an object of evaluation options") as EvaluateOptions;
  if (o.onProgress !== undefined && typeof o.onProgress !== "function")
    throw new InvalidValueError("options.onProgress", "must be a function (done, total) => void.");
  // Checked here, before any scoring: a bad option is the caller's error, never "no interval".
  if (o.bootstrap !== undefined && o.bootstrap !== false) {
    requireRecord(o.bootstrap, "options.bootstrap", "false or {resamples?, seed?, level?}");
    checkBootstrapOptions(o.bootstrap, "options.bootstrap", { resamples: 200 });
  }
  if (o.thresholdRules !== undefined)
    requireArray(o.thresholdRules, "options.thresholdRules", "an array of threshold rules").forEach((r, i) => {
      checkThresholdRule(r, `options.thresholdRules[${i}]`);
    });
  if (o.pooled !== undefined && typeof o.pooled !== "boolean")
    throw new InvalidValueError("options.pooled", "must be true or false.");
  if (o.sliceOrder !== undefined)
    requireArray(o.sliceOrder, "options.sliceOrder", "an array of slice names").forEach((s, i) => {
      if (typeof s !== "string") throw new InvalidValueError(`options.sliceOrder[${i}]`, "must be a slice name.");
    });
  return o;
}

function ruleName(rule: ThresholdRule): string {
  return rule.rule === "fpr" ? `fpr<=${rule.target}` : rule.rule;
}

function overlaps(a: Span, spans: readonly Span[]): boolean {
  return spans.some((s) => a.start < s.end && s.start < a.end);
}

function cell(scores: number[], labels: boolean[], bootstrap: EvaluateOptions["bootstrap"]): AucCell {
  const positives = labels.filter(Boolean).length;
  const negatives = labels.length - positives;
  const base: AucCell = { auc: null, n: labels.length, positives, negatives };
  if (positives === 0 || negatives === 0) return base;
  base.auc = rocAuc(scores, labels);
  if (bootstrap !== false && bootstrap !== undefined) {
    // A tiny slice can draw only one-class resamples every time: then it has no interval, not no result.
    let ci: ConfidenceInterval | undefined;
    try {
      ci = bootstrapCi(rocAuc, scores, labels, bootstrap);
    } catch (error) {
      if (!(error instanceof NoResampleValueError)) throw error;
    }
    if (ci !== undefined) base.ci = { low: ci.low, high: ci.high, level: ci.level };
  }
  return base;
}

/** The slice of unsliced examples in a dataset that also has named slices ("all" is the pooled rows). */
export const UNSLICED = "(no slice)";

/**
 * Score every example with every detector (`detect`) and compute ROC AUCs. Example-level labels come from
 * `labels.hallucination` / `labels.coverage` (examples without the label are skipped for that type);
 * word-level labels from `wordLabels` and the detectors' `words` maps: a response word is hallucinated
 * when it overlaps a hallucinated span, an argument word is uncovered when its argument is listed as uncovered.
 * @throws InvalidValueError for a malformed dataset, detector list or option; InvalidScoreError when a
 * detector returns a score that is not a number in [0, 1]; whatever a detector throws for an example
 */
export async function evaluate(
  dataset: readonly NpovExample<CheckInput>[],
  detectors: readonly ErrorDetector[],
  options: EvaluateOptions = {},
): Promise<EvaluationResult> {
  checkDataset(dataset);
  checkDetectors(detectors);
  checkOptions(options);
  const bootstrap = options.bootstrap === undefined ? { resamples: 200, seed: 0 } : options.bootstrap;
  const order = options.sliceOrder ?? [];
  const rank = (s: string) => (order.includes(s) ? order.indexOf(s) : order.length);
  // Unsliced examples form the slice "all" when nothing is sliced; among named slices they are
  // UNSLICED, so the pooled row "all" is never confused with them.
  const anySliced = dataset.some((e) => e.slice !== undefined);
  const sliceOf = (e: NpovExample<CheckInput>) => e.slice ?? (anySliced ? UNSLICED : "all");
  const sliceNames = [...new Set(dataset.map(sliceOf))].sort((a, b) => rank(a) - rank(b));
  const pooled = options.pooled ?? sliceNames.length > 1;
  if (pooled) {
    const clash = dataset.findIndex((e) => e.slice === "all");
    if (clash >= 0)
      throw new InvalidValueError(
        `dataset[${clash}].slice`,
        'is "all", the name of the pooled rows over every slice: rename the slice.',
      );
  }
  const outputs: ErrorScores[][] = detectors.map(() => []);
  for (const [i, example] of dataset.entries()) {
    for (const [d, detector] of detectors.entries())
      (outputs[d] as ErrorScores[]).push(
        checkScores(detector.name, await detector.detect(example.input, example.response)),
      );
    options.onProgress?.(i + 1, dataset.length);
  }

  const rows: EvaluationRow[] = [];
  const sliceCurves: RocCurveResult[] = [];
  const groups: Array<[string, number[]]> = sliceNames.map((s) => [
    s,
    dataset.flatMap((e, i) => (sliceOf(e) === s ? [i] : [])),
  ]);
  if (pooled) groups.push(["all", dataset.map((_, i) => i)]);
  for (const [slice, members] of groups)
    for (const [d, detector] of detectors.entries()) {
      const out = outputs[d] as ErrorScores[];
      for (const errorType of ERROR_TYPES) {
        const scores: number[] = [];
        const labels: boolean[] = [];
        const wordScores: number[] = [];
        const wordLabels: boolean[] = [];
        for (const i of members) {
          const example = dataset[i] as NpovExample<CheckInput>;
          const label = example.labels?.[errorType];
          const o = out[i] as ErrorScores;
          if (label !== undefined) {
            scores.push(o[errorType]);
            labels.push(label);
          }
          if (example.wordLabels === undefined || o.words === undefined) continue;
          if (errorType === "hallucination") {
            const spans = example.wordLabels.hallucinatedSpans ?? [];
            for (const w of o.words.response) {
              wordScores.push(w.score);
              wordLabels.push(overlaps(w, spans));
            }
          } else {
            const uncovered = new Set((example.wordLabels.uncoveredArguments ?? []).map(([p, a]) => `${p}/${a}`));
            for (const w of o.words.arguments) {
              wordScores.push(w.score);
              wordLabels.push(uncovered.has(`${w.perspective}/${w.argument}`));
            }
          }
        }
        rows.push({ slice, detector: detector.name, errorType, level: "example", ...cell(scores, labels, bootstrap) });
        const positives = labels.filter(Boolean).length;
        if (slice !== "all" && positives > 0 && positives < labels.length)
          sliceCurves.push({
            slice,
            detector: detector.name,
            errorType,
            auc: rocAuc(scores, labels),
            points: rocCurve(scores, labels),
          });
        if (wordScores.length > 0)
          rows.push({
            slice,
            detector: detector.name,
            errorType,
            level: "word",
            ...cell(wordScores, wordLabels, false),
          });
      }
    }

  const curves: RocCurveResult[] = [];
  const thresholds: ThresholdResult[] = [];
  for (const [d, detector] of detectors.entries())
    for (const errorType of ERROR_TYPES) {
      const scores: number[] = [];
      const labels: boolean[] = [];
      dataset.forEach((e, i) => {
        const label = e.labels?.[errorType];
        if (label === undefined) return;
        scores.push(((outputs[d] as ErrorScores[])[i] as ErrorScores)[errorType]);
        labels.push(label);
      });
      const positives = labels.filter(Boolean).length;
      if (positives === 0 || positives === labels.length) continue;
      curves.push({
        slice: "all",
        detector: detector.name,
        errorType,
        auc: rocAuc(scores, labels),
        points: rocCurve(scores, labels),
      });
      for (const rule of options.thresholdRules ?? DEFAULT_RULES)
        thresholds.push({
          detector: detector.name,
          errorType,
          rule: ruleName(rule),
          metrics: chooseThreshold(scores, labels, rule),
        });
    }

  const scores: ExampleScores[] = [];
  dataset.forEach((e, i) => {
    detectors.forEach((detector, d) => {
      const o = (outputs[d] as ErrorScores[])[i] as ErrorScores;
      scores.push({
        id: e.id === undefined ? String(i) : String(e.id),
        slice: sliceOf(e),
        detector: detector.name,
        hallucination: o.hallucination,
        coverage: o.coverage,
      });
    });
  });
  return {
    slices: groups.map(([s]) => s),
    detectors: detectors.map((d) => d.name),
    rows,
    curves,
    sliceCurves,
    thresholds,
    scores,
  };
}
