/** Seeded bootstrap confidence intervals for any metric of (scores, labels). */
import {
  checkBinary,
  createRng,
  describe,
  InputTooLargeError,
  InvalidValueError,
  NpovError,
  requireRecord,
} from "@npov/core";

/** Most resamples {@link bootstrapCi} draws (more only narrows the Monte Carlo error further). */
export const MAX_BOOTSTRAP_RESAMPLES = 100_000;
/** Most resampled scores in all (resamples x examples): about a second of AUCs. */
export const MAX_BOOTSTRAP_DRAWS = 50_000_000;

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

/** The error of a bootstrap whose every resample held one class only: no interval, though the data is valid. */
export class NoResampleValueError extends InvalidValueError {
  constructor() {
    super("scores", "no bootstrap resample produced a value.");
  }
}

/**
 * Check bootstrap options (`path` names them in messages): `resamples` a whole number from 1 to
 * {@link MAX_BOOTSTRAP_RESAMPLES}, `level` in (0, 1), `seed` a number or text. Returns them with defaults.
 * @throws InvalidValueError, InputTooLargeError
 */
export function checkBootstrapOptions(
  options: unknown,
  path = "options",
  defaults: { resamples: number } = { resamples: 1000 },
): { resamples: number; level: number; seed: number | string } {
  const o = requireRecord(options, path, "an object {resamples?, level?, seed?}") as BootstrapOptions;
  const resamples = o.resamples ?? defaults.resamples;
  const level = o.level ?? 0.95;
  const at = (field: string) => (path === "options" ? field : `${path}.${field}`);
  if (typeof resamples !== "number" || !Number.isInteger(resamples) || resamples < 1)
    throw new InvalidValueError(at("resamples"), `must be a positive integer, got ${describe(resamples)}.`);
  if (typeof level !== "number" || !(level > 0 && level < 1))
    throw new InvalidValueError(at("level"), `must be between 0 and 1, got ${describe(level)}.`);
  if (resamples > MAX_BOOTSTRAP_RESAMPLES)
    throw new InputTooLargeError(
      at("resamples"),
      resamples,
      MAX_BOOTSTRAP_RESAMPLES,
      "resamples",
      "Use fewer resamples (1,000 is usual).",
    );
  const seed = o.seed ?? 0;
  if (!(typeof seed === "string" || (typeof seed === "number" && Number.isFinite(seed))))
    throw new InvalidValueError(at("seed"), `must be a number or a string, got ${describe(seed)}.`);
  return { resamples, level, seed };
}

/**
 * Percentile bootstrap: resample examples with replacement, recompute `metric`, take the
 * (1 - level)/2 and (1 + level)/2 quantiles. Deterministic per seed.
 * @throws InvalidValueError for bad scores, labels or options, or a metric that returns something other than
 * a finite number; InputTooLargeError beyond {@link MAX_BOOTSTRAP_RESAMPLES} or {@link MAX_BOOTSTRAP_DRAWS}
 */
export function bootstrapCi(
  metric: (scores: number[], labels: boolean[]) => number,
  scores: ArrayLike<number>,
  labels: ArrayLike<boolean | number>,
  options: BootstrapOptions = {},
): ConfidenceInterval {
  if (typeof metric !== "function")
    throw new InvalidValueError("metric", `must be a function, got ${describe(metric)}.`);
  checkBinary(scores, labels);
  const { resamples, level, seed } = checkBootstrapOptions(options);
  if (resamples * scores.length > MAX_BOOTSTRAP_DRAWS)
    throw new InputTooLargeError(
      "resamples",
      resamples * scores.length,
      MAX_BOOTSTRAP_DRAWS,
      "resampled scores (resamples x examples)",
      "Use fewer resamples, or evaluate a sample of the examples.",
    );
  const finite = (value: unknown): number => {
    if (typeof value !== "number" || !Number.isFinite(value))
      throw new InvalidValueError("metric", `must return a finite number, returned ${describe(value)}.`);
    return value;
  };
  const s = Array.from(scores);
  const l = Array.from(labels, Boolean);
  const estimate = finite(metric(s, l));
  const rng = createRng(seed);
  const values: number[] = [];
  const bs = new Array<number>(s.length);
  const bl = new Array<boolean>(s.length);
  for (let r = 0; r < resamples; r++) {
    for (let i = 0; i < s.length; i++) {
      const k = rng.int(s.length);
      bs[i] = s[k] as number;
      bl[i] = l[k] as boolean;
    }
    let value: unknown;
    try {
      value = metric(bs, bl);
    } catch (e) {
      if (!(e instanceof NpovError)) throw e;
      continue;
    }
    values.push(finite(value));
  }
  if (values.length === 0) throw new NoResampleValueError();
  values.sort((a, b) => a - b);
  return {
    estimate,
    low: quantile(values, (1 - level) / 2),
    high: quantile(values, (1 + level) / 2),
    level,
    resamples: values.length,
  };
}
