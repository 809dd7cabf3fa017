/** Threshold selection and the resulting confusion matrix (predict "error" when score >= threshold). */
import { describe, InvalidValueError, maxOf, requireRecord } from "@npov/core";
import { checkBinary, requireBothClasses } from "./checks.js";
import { thresholdSweep } from "./sweep.js";

/** Confusion counts and the rates derived from them (never NaN: 0 when a denominator is 0). */
export interface ThresholdMetrics {
  threshold: number;
  tp: number;
  fp: number;
  tn: number;
  fn: number;
  precision: number;
  recall: number;
  f1: number;
  fpr: number;
}

/** Metrics of predicting "error" for scores >= threshold. @throws InvalidValueError for bad scores, labels or threshold */
export function metricsAt(
  scores: ArrayLike<number>,
  labels: ArrayLike<boolean | number>,
  threshold: number,
): ThresholdMetrics {
  checkBinary(scores, labels);
  if (typeof threshold !== "number" || Number.isNaN(threshold))
    throw new InvalidValueError("threshold", `must be a number, got ${describe(threshold)}.`);
  let tp = 0;
  let fp = 0;
  let tn = 0;
  let fn = 0;
  for (let i = 0; i < scores.length; i++) {
    const predicted = (scores[i] as number) >= threshold;
    if (labels[i]) predicted ? tp++ : fn++;
    else predicted ? fp++ : tn++;
  }
  return countsToMetrics(threshold, tp, fp, tn, fn);
}

function countsToMetrics(threshold: number, tp: number, fp: number, tn: number, fn: number): ThresholdMetrics {
  const ratio = (a: number, b: number) => (b === 0 ? 0 : a / b);
  const precision = ratio(tp, tp + fp);
  const recall = ratio(tp, tp + fn);
  return {
    threshold,
    tp,
    fp,
    tn,
    fn,
    precision,
    recall,
    f1: ratio(2 * precision * recall, precision + recall),
    fpr: ratio(fp, fp + tn),
  };
}

/** How to choose a threshold. */
export type ThresholdRule = { rule: "fpr"; target: number } | { rule: "max-f1" } | { rule: "youden" };

/** Check a {@link ThresholdRule}; return it. @throws InvalidValueError */
export function checkThresholdRule(value: unknown, path = "rule"): ThresholdRule {
  const r = requireRecord(value, path, 'a rule {rule: "fpr", target} | {rule: "max-f1"} | {rule: "youden"}');
  if (r.rule === "max-f1" || r.rule === "youden") return value as ThresholdRule;
  if (r.rule !== "fpr")
    throw new InvalidValueError(`${path}.rule`, `must be "fpr", "max-f1" or "youden", got ${describe(r.rule)}.`);
  if (typeof r.target !== "number" || !(r.target >= 0 && r.target <= 1))
    throw new InvalidValueError(
      `${path}.target`,
      `a false-positive rate must be in [0, 1], got ${describe(r.target)}.`,
    );
  return value as ThresholdRule;
}

/**
 * Choose a threshold among the observed scores:
 * - `fpr`: the lowest threshold whose false-positive rate is <= target (most recall within the budget);
 * - `max-f1`: the threshold with the highest F1;
 * - `youden`: the threshold maximizing TPR - FPR (Youden's J).
 * Ties go to the higher threshold (fewer flags).
 * @throws InvalidValueError for bad scores, labels or rule, or labels of one class only
 */
export function chooseThreshold(
  scores: ArrayLike<number>,
  labels: ArrayLike<boolean | number>,
  rule: ThresholdRule,
): ThresholdMetrics {
  const { positives, negatives } = checkBinary(scores, labels);
  requireBothClasses(positives, negatives, "Threshold selection");
  checkThresholdRule(rule);
  let best: ThresholdMetrics | undefined;
  let bestValue = Number.NEGATIVE_INFINITY;
  for (const { threshold, tp, fp } of thresholdSweep(scores, labels)) {
    const m = countsToMetrics(threshold, tp, fp, negatives - fp, positives - tp);
    let value: number;
    if (rule.rule === "fpr") {
      if (m.fpr > rule.target) continue;
      value = -threshold; // the lowest admissible threshold
    } else if (rule.rule === "max-f1") value = m.f1;
    else value = m.recall - m.fpr;
    if (value > bestValue) {
      bestValue = value;
      best = m;
    }
  }
  // With a target FPR below every achievable one, flag nothing: a threshold above the maximum score.
  return best ?? countsToMetrics(maxOf(Array.from(scores)) + 1, 0, 0, negatives, positives);
}
