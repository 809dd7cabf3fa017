/** Clipped n-gram overlap: the counting at the heart of ROUGE (pure functions). */

/** Count occurrences of each key. */
export function countTerms(terms: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const t of terms) counts.set(t, (counts.get(t) ?? 0) + 1);
  return counts;
}

/** The n-grams of a term sequence, joined with a separator that cannot occur inside a term. */
export function ngrams(terms: readonly string[], n: number): string[] {
  if (n === 1) return terms.slice();
  const out: string[] = [];
  for (let i = 0; i + n <= terms.length; i++) out.push(terms.slice(i, i + n).join("\u0000"));
  return out;
}

/** Clipped overlap: each key counts min(count in a, count in b) times. */
export function clippedOverlap(a: ReadonlyMap<string, number>, b: ReadonlyMap<string, number>): number {
  let overlap = 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const [key, count] of small) {
    const other = large.get(key);
    if (other !== undefined) overlap += Math.min(count, other);
  }
  return overlap;
}

/** Precision, recall and F1 as rouge-score defines them (0 for empty sides, never NaN). */
export interface PrecisionRecallF {
  precision: number;
  recall: number;
  fmeasure: number;
}

/** rouge-score's `_score_ngrams`: overlap / max(count, 1); F1 = 0 when precision + recall = 0. */
export function scoreCounts(overlap: number, predictionCount: number, targetCount: number): PrecisionRecallF {
  const precision = overlap / Math.max(predictionCount, 1);
  const recall = overlap / Math.max(targetCount, 1);
  const fmeasure = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
  return { precision, recall, fmeasure };
}
