/** Clipped n-gram overlap: the counting at the heart of ROUGE (pure functions). */
import { describe, InvalidValueError, NotTextError, requireArray, requireNumber } from "@npov/core";

function requireStrings(value: unknown, path: string): readonly string[] {
  const list = requireArray(value, path, "an array of strings");
  list.forEach((t, i) => {
    if (typeof t !== "string") throw new NotTextError(`${path}[${i}]`, t);
  });
  return list as string[];
}

function requireCounts(value: unknown, path: string): ReadonlyMap<string, number> {
  if (!(value instanceof Map)) throw new InvalidValueError(path, "must be a Map of term counts (countTerms).");
  for (const [key, count] of value)
    requireNumber(count, `${path}.get(${typeof key === "string" ? JSON.stringify(key) : describe(key)})`, { min: 0 });
  return value;
}

/** {@link countTerms} without the checks (the detectors pass their own term lists). @internal */
export function countTermsUnchecked(terms: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const t of terms) counts.set(t, (counts.get(t) ?? 0) + 1);
  return counts;
}

/** Count occurrences of each key. @throws InvalidValueError / NotTextError unless an array of strings */
export function countTerms(terms: readonly string[]): Map<string, number> {
  return countTermsUnchecked(requireStrings(terms, "terms"));
}

/** {@link ngrams} without the checks. @internal */
export function ngramsUnchecked(terms: readonly string[], n: number): string[] {
  if (n === 1) return terms.slice();
  const out: string[] = [];
  for (let i = 0; i + n <= terms.length; i++) out.push(terms.slice(i, i + n).join("\u0000"));
  return out;
}

/**
 * The n-grams of a term sequence, joined with a separator that cannot occur inside a term.
 * @throws InvalidValueError unless an array of strings and a positive integer n
 */
export function ngrams(terms: readonly string[], n: number): string[] {
  requireStrings(terms, "terms");
  requireNumber(n, "n", { min: 1, integer: true });
  return ngramsUnchecked(terms, n);
}

/** {@link clippedOverlap} without the checks. @internal */
export function clippedOverlapUnchecked(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): number {
  let overlap = 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const [key, count] of small) {
    const other = large.get(key);
    if (other !== undefined) overlap += Math.min(count, other);
  }
  return overlap;
}

/** Clipped overlap: each key counts min(count in a, count in b) times. @throws InvalidValueError unless two count Maps */
export function clippedOverlap(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): number {
  return clippedOverlapUnchecked(requireCounts(a, "a"), requireCounts(b, "b"));
}

/** Precision, recall and F1 as rouge-score defines them (0 for empty sides, never NaN). */
export interface PrecisionRecallF {
  precision: number;
  recall: number;
  fmeasure: number;
}

/** {@link scoreCounts} without the checks. @internal */
export function scoreCountsUnchecked(overlap: number, predictionCount: number, targetCount: number): PrecisionRecallF {
  const precision = overlap / Math.max(predictionCount, 1);
  const recall = overlap / Math.max(targetCount, 1);
  const fmeasure = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
  return { precision, recall, fmeasure };
}

/**
 * rouge-score's `_score_ngrams`: overlap / max(count, 1); F1 = 0 when precision + recall = 0.
 * @throws InvalidValueError unless counts are finite, >= 0 and the overlap is at most either count
 */
export function scoreCounts(overlap: number, predictionCount: number, targetCount: number): PrecisionRecallF {
  requireNumber(predictionCount, "predictionCount", { min: 0 });
  requireNumber(targetCount, "targetCount", { min: 0 });
  requireNumber(overlap, "overlap", { min: 0, max: Math.max(0, Math.min(predictionCount, targetCount)) });
  return scoreCountsUnchecked(overlap, predictionCount, targetCount);
}
