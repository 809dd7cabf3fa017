/** Seeded bootstrap confidence intervals for any metric of (scores, labels). */
import { createRng, InvalidValueError, NpovError } from "@npov/core";

/** A point estimate and its percentile bootstrap interval. */
export interface ConfidenceInterval {
  estimate: number;
  low: number;
  high: number;
  /** Confidence level, e.g. 0.95. */
  level: number;
  /** Resamples that produced a value (a resample missing a class is skipped). */
  resamples: number;
}

/** Options of {@link bootstrapCi}. */
export interface BootstrapOptions {
  /** Number of resamples (default 1000). */
  resamples?: number;
  /** Confidence level (default 0.95). */
  level?: number;
  seed?: number;
}

function quantile(sorted: readonly number[], q: number): number {
  // Linear interpolation between order statistics (numpy's default).
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return (sorted[lo] as number) + ((sorted[hi] as number) - (sorted[lo] as number)) * (pos - lo);
}

/**
 * Percentile bootstrap: resample examples with replacement, recompute `metric`, take the
 * (1 - level)/2 and (1 + level)/2 quantiles. Deterministic per seed.
 */
export function bootstrapCi(
  metric: (scores: number[], labels: boolean[]) => number,
  scores: ArrayLike<number>,
  labels: ArrayLike<boolean | number>,
  options: BootstrapOptions = {},
): ConfidenceInterval {
  const resamples = options.resamples ?? 1000;
  const level = options.level ?? 0.95;
  if (!Number.isInteger(resamples) || resamples < 1)
    throw new InvalidValueError("resamples", "must be a positive integer.");
  if (!(level > 0 && level < 1)) throw new InvalidValueError("level", "must be between 0 and 1.");
  const s = Array.from(scores);
  const l = Array.from(labels, Boolean);
  const estimate = metric(s, l);
  const rng = createRng(options.seed ?? 0);
  const values: number[] = [];
  const bs = new Array<number>(s.length);
  const bl = new Array<boolean>(s.length);
  for (let r = 0; r < resamples; r++) {
    for (let i = 0; i < s.length; i++) {
      const k = rng.int(s.length);
      bs[i] = s[k] as number;
      bl[i] = l[k] as boolean;
    }
    try {
      values.push(metric(bs, bl));
    } catch (e) {
      if (!(e instanceof NpovError)) throw e;
    }
  }
  if (values.length === 0) throw new InvalidValueError("scores", "no bootstrap resample produced a value.");
  values.sort((a, b) => a - b);
  return {
    estimate,
    low: quantile(values, (1 - level) / 2),
    high: quantile(values, (1 + level) / 2),
    level,
    resamples: values.length,
  };
}
