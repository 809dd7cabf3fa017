/** Argument checks shared by the metrics: typed errors, never NaN results. */
import { InvalidValueError } from "@npov/core";

/** Check scores and binary labels have equal length and finite scores; return the class counts. */
export function checkBinary(
  scores: ArrayLike<number>,
  labels: ArrayLike<boolean | number>,
): { positives: number; negatives: number } {
  if (scores.length !== labels.length)
    throw new InvalidValueError(
      "labels",
      `has ${labels.length} entries but scores has ${scores.length}; give one label per score.`,
    );
  let positives = 0;
  for (let i = 0; i < scores.length; i++) {
    const s = scores[i] as number;
    if (!Number.isFinite(s)) throw new InvalidValueError(`scores[${i}]`, `must be a finite number, got ${String(s)}.`);
    if (labels[i]) positives++;
  }
  return { positives, negatives: scores.length - positives };
}

/** Check both classes are present (AUC and curves are undefined otherwise). */
export function requireBothClasses(positives: number, negatives: number, metric: string): void {
  if (positives === 0 || negatives === 0)
    throw new InvalidValueError(
      "labels",
      `${metric} needs at least one positive and one negative example (got ${positives} positive, ${negatives} negative).`,
    );
}
