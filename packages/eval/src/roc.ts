/** ROC AUC, ROC curves and average precision over plain arrays (label true/1 = positive = error). */
import { requireArray, requireNumber, requireRecord } from "@npov/core";
import { checkBinary, requireBothClasses } from "./checks.js";
import { thresholdSweep } from "./sweep.js";

export { rocAuc } from "@npov/core";

/**
 * One point of a ROC curve: predicting "error" for scores >= threshold. The first point's threshold is
 * +Infinity (nothing predicted); JSON has no infinity (`JSON.stringify` would write `null`), so
 * {@link rocPointsJson} writes it as the string `"Infinity"` (`Number("Infinity")` reads it back).
 */
export interface RocPoint {
  threshold: number;
  fpr: number;
  tpr: number;
}

/** A ROC point as JSON: a threshold that is not finite is written as the string "Infinity" or "-Infinity". */
export interface RocPointJson {
  threshold: number | "Infinity" | "-Infinity";
  fpr: number;
  tpr: number;
}

/** ROC points for JSON output, the +Infinity threshold written as "Infinity" instead of turning into null. */
export function rocPointsJson(points: readonly RocPoint[]): RocPointJson[] {
  return points.map((p) => ({
    ...p,
    threshold: Number.isFinite(p.threshold) ? p.threshold : p.threshold > 0 ? "Infinity" : "-Infinity",
  }));
}

/**
 * ROC curve points from (0, 0) at threshold +Infinity to (1, 1), one point per distinct score
 * (the trapezoidal area under them equals {@link rocAuc}).
 */
export function rocCurve(scores: ArrayLike<number>, labels: ArrayLike<boolean | number>): RocPoint[] {
  const { positives, negatives } = checkBinary(scores, labels);
  requireBothClasses(positives, negatives, "A ROC curve");
  const points: RocPoint[] = [{ threshold: Number.POSITIVE_INFINITY, fpr: 0, tpr: 0 }];
  for (const { threshold, tp, fp } of thresholdSweep(scores, labels))
    points.push({ threshold, fpr: fp / negatives, tpr: tp / positives });
  return points;
}

/** Trapezoidal area under a curve given as points sorted by x. @throws InvalidValueError for bad points */
export function trapezoidArea(points: ReadonlyArray<{ fpr: number; tpr: number }>): number {
  requireArray(points, "points", "an array of {fpr, tpr} points").forEach((p, i) => {
    const x = requireRecord(p, `points[${i}]`, "a point {fpr, tpr}");
    requireNumber(x.fpr, `points[${i}].fpr`, { min: 0, max: 1 });
    requireNumber(x.tpr, `points[${i}].tpr`, { min: 0, max: 1 });
  });
  let area = 0;
  for (let i = 1; i < points.length; i++) {
    const a = points[i - 1] as RocPoint;
    const b = points[i] as RocPoint;
    area += ((b.fpr - a.fpr) * (a.tpr + b.tpr)) / 2;
  }
  return area;
}

/**
 * Average precision: sum over distinct thresholds of (recall gain) x precision, as scikit-learn's
 * `average_precision_score` (no interpolation).
 */
export function averagePrecision(scores: ArrayLike<number>, labels: ArrayLike<boolean | number>): number {
  const { positives, negatives } = checkBinary(scores, labels);
  requireBothClasses(positives, negatives, "Average precision");
  let lastRecall = 0;
  let ap = 0;
  for (const { tp, fp } of thresholdSweep(scores, labels)) {
    const recall = tp / positives;
    ap += (recall - lastRecall) * (tp / (tp + fp));
    lastRecall = recall;
  }
  return ap;
}
