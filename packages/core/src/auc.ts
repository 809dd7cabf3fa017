/**
 * Exact ROC AUC (the Mann-Whitney statistic) and the argument checks metrics share. Lives in core because
 * detectors need it too (e.g. early stopping on dev AUC); @npov/eval re-exports it with the other metrics.
 */
import { describe, InvalidValueError } from "./errors.js";

/** Check scores and binary labels have equal length and finite scores; return the class counts. */
export function checkBinary(
  scores: ArrayLike<number>,
  labels: ArrayLike<boolean | number>,
): { positives: number; negatives: number } {
  requireArrayLike(scores, "scores");
  requireArrayLike(labels, "labels");
  for (let i = 0; i < labels.length; i++) {
    const l = labels[i];
    if (typeof l !== "boolean" && l !== 0 && l !== 1)
      throw new InvalidValueError(`labels[${i}]`, `must be true/false or 1/0, got ${describe(l)}.`);
  }
  if (scores.length !== labels.length)
    throw new InvalidValueError(
      "labels",
      `has ${labels.length} entries but scores has ${scores.length}; give one label per score.`,
    );
  let positives = 0;
  for (let i = 0; i < scores.length; i++) {
    const s = scores[i] as number;
    if (typeof s !== "number" || !Number.isFinite(s))
      throw new InvalidValueError(`scores[${i}]`, `must be a finite number, got ${describe(s)}.`);
    if (labels[i]) positives++;
  }
  return { positives, negatives: scores.length - positives };
}

function requireArrayLike(value: unknown, path: string): void {
  if (!Array.isArray(value) && !(ArrayBuffer.isView(value) && !(value instanceof DataView)))
    throw new InvalidValueError(path, `must be an array, got ${describe(value)}.`);
}

/** Check both classes are present (AUC and curves are undefined otherwise). @throws InvalidValueError */
export function requireBothClasses(positives: number, negatives: number, metric: string): void {
  for (const [name, n] of [
    ["positives", positives],
    ["negatives", negatives],
  ] as const)
    if (typeof n !== "number" || !Number.isInteger(n) || n < 0)
      throw new InvalidValueError(name, `must be a count >= 0, got ${describe(n)}.`);
  if (typeof metric !== "string") throw new InvalidValueError("metric", `must be a name, got ${describe(metric)}.`);
  if (positives === 0 || negatives === 0)
    throw new InvalidValueError(
      "labels",
      `${metric} needs at least one positive and one negative example (got ${positives} positive, ${negatives} negative).`,
    );
}

/**
 * Exact ROC AUC: the Mann-Whitney U statistic divided by (positives x negatives), ties between a positive
 * and a negative counted as half. Equals the probability that a random positive outscores a random negative.
 * @throws InvalidValueError when lengths differ, a score is not finite, or a class is missing
 */
export function rocAuc(scores: ArrayLike<number>, labels: ArrayLike<boolean | number>): number {
  const { positives, negatives } = checkBinary(scores, labels);
  requireBothClasses(positives, negatives, "ROC AUC");
  // Midranks over ascending scores; AUC = (rank sum of positives - P(P+1)/2) / (P N).
  const order = Array.from({ length: scores.length }, (_, i) => i).sort(
    (a, b) => (scores[a] as number) - (scores[b] as number),
  );
  let rankSum = 0;
  for (let i = 0; i < order.length; ) {
    let j = i;
    while (j + 1 < order.length && scores[order[j + 1] as number] === scores[order[i] as number]) j++;
    const midrank = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) if (labels[order[k] as number]) rankSum += midrank;
    i = j + 1;
  }
  return (rankSum - (positives * (positives + 1)) / 2) / (positives * negatives);
}
