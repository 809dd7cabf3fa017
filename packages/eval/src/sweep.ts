/** The threshold sweep behind ROC curves, average precision and threshold selection. */

/** Cumulative confusion counts when predicting "error" for scores >= threshold. */
export interface SweepStep {
  threshold: number;
  /** Positives with score >= threshold. */
  tp: number;
  /** Negatives with score >= threshold. */
  fp: number;
}

/**
 * One step per distinct score, from the highest down, with cumulative counts: O(n log n) for all
 * thresholds at once. Tied scores form one step, since no threshold separates them.
 */
export function* thresholdSweep(scores: ArrayLike<number>, labels: ArrayLike<boolean | number>): Generator<SweepStep> {
  const order = Array.from({ length: scores.length }, (_, i) => i).sort(
    (a, b) => (scores[b] as number) - (scores[a] as number) || a - b,
  );
  let tp = 0;
  let fp = 0;
  for (let i = 0; i < order.length; ) {
    const threshold = scores[order[i] as number] as number;
    while (i < order.length && scores[order[i] as number] === threshold) {
      if (labels[order[i] as number]) tp++;
      else fp++;
      i++;
    }
    yield { threshold, tp, fp };
  }
}
