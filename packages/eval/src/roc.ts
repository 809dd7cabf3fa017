/** ROC AUC, ROC curves and average precision over plain arrays (label true/1 = positive = error). */
import { checkBinary, requireBothClasses } from "@npov/core";

export { rocAuc } from "@npov/core";

/** Indices sorted by score, descending (stable). */
function byScoreDescending(scores: ArrayLike<number>): number[] {
  return Array.from({ length: scores.length }, (_, i) => i).sort(
    (a, b) => (scores[b] as number) - (scores[a] as number) || a - b,
  );
}

/** One point of a ROC curve: predicting "error" for scores >= threshold. */
export interface RocPoint {
  threshold: number;
  fpr: number;
  tpr: number;
}

/**
 * ROC curve points from (0, 0) at threshold +Infinity to (1, 1), one point per distinct score
 * (the trapezoidal area under them equals {@link rocAuc}).
 */
export function rocCurve(scores: ArrayLike<number>, labels: ArrayLike<boolean | number>): RocPoint[] {
  const { positives, negatives } = checkBinary(scores, labels);
  requireBothClasses(positives, negatives, "A ROC curve");
  const order = byScoreDescending(scores);
  const points: RocPoint[] = [{ threshold: Number.POSITIVE_INFINITY, fpr: 0, tpr: 0 }];
  let tp = 0;
  let fp = 0;
  for (let i = 0; i < order.length; ) {
    const score = scores[order[i] as number] as number;
    while (i < order.length && scores[order[i] as number] === score) {
      if (labels[order[i] as number]) tp++;
      else fp++;
      i++;
    }
    points.push({ threshold: score, fpr: fp / negatives, tpr: tp / positives });
  }
  return points;
}

/** Trapezoidal area under a curve given as points sorted by x. */
export function trapezoidArea(points: ReadonlyArray<{ fpr: number; tpr: number }>): number {
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
  const order = byScoreDescending(scores);
  let tp = 0;
  let seen = 0;
  let lastRecall = 0;
  let ap = 0;
  for (let i = 0; i < order.length; ) {
    const score = scores[order[i] as number] as number;
    while (i < order.length && scores[order[i] as number] === score) {
      if (labels[order[i] as number]) tp++;
      seen++;
      i++;
    }
    const recall = tp / positives;
    ap += (recall - lastRecall) * (tp / seen);
    lastRecall = recall;
  }
  return ap;
}
