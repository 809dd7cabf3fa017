/**
 * Agreement between raters, as the papers use to compare annotators and LLM judges: Krippendorff's
 * alpha (nominal, ordinal, interval; missing ratings allowed) and Kendall's tau-b.
 */
import { describe, InvalidValueError } from "@npov/core";

/** A rating: a finite number or a string; `null`/`undefined` mark a missing rating. */
export type Rating = number | string | null | undefined;

/** Level of measurement of the ratings. */
export type AlphaLevel = "nominal" | "ordinal" | "interval";

const missing = (v: Rating): v is null | undefined => v === null || v === undefined;

/**
 * Krippendorff's alpha from a raters x units matrix (`data[r][u]` = rater r's value for unit u).
 * Computed with the coincidence matrix (Krippendorff 2011, "Computing Krippendorff's Alpha-Reliability"):
 * alpha = 1 - (n - 1) * sum_ck o_ck d_ck / sum_ck n_c n_k d_ck, over units with at least two ratings.
 * Ordinal and interval levels need numeric values; ordinal ranks the distinct values.
 * @throws InvalidValueError on ragged data, a rating that is NaN, infinite or neither a number nor a string
 * (mark a missing rating with null), non-numeric ordinal/interval values, or fewer than two pairable
 * ratings.
 * @returns alpha, or `undefined` when every pairable rating is the same value: with no variation there is
 * nothing to agree on (expected and observed disagreement are both 0, alpha = 0/0). Perfect agreement over
 * varied values is 1; identical values are not evidence of it (every annotator answering "no" is as
 * consistent with raters who always say "no" as with raters who agree).
 */
export function krippendorffAlpha(
  data: ReadonlyArray<ReadonlyArray<Rating>>,
  level: AlphaLevel = "nominal",
): number | undefined {
  if (!Array.isArray(data))
    throw new InvalidValueError("data", `must be a raters x units array, got ${describe(data)}.`);
  if (level !== "nominal" && level !== "ordinal" && level !== "interval")
    throw new InvalidValueError("level", `must be "nominal", "ordinal" or "interval", got ${describe(level)}.`);
  if (data.length < 2) throw new InvalidValueError("data", "needs ratings from at least two raters (rows).");
  for (const [r, row] of data.entries())
    if (!Array.isArray(row))
      throw new InvalidValueError(`data[${r}]`, `must be an array of ratings, got ${describe(row)}.`);
  const units = (data[0] as ReadonlyArray<Rating>).length;
  for (const [r, row] of data.entries()) {
    if (row.length !== units)
      throw new InvalidValueError(`data[${r}]`, `has ${row.length} units; every rater row needs ${units}.`);
    row.forEach((v: Rating, u: number) => {
      if (missing(v) || typeof v === "string" || (typeof v === "number" && Number.isFinite(v))) return;
      throw new InvalidValueError(
        `data[${r}][${u}]`,
        `must be a finite number or a string (null for a missing rating), got ${describe(v)}.`,
      );
    });
  }
  if (level !== "nominal")
    for (const row of data)
      for (const v of row)
        if (!missing(v) && typeof v !== "number")
          throw new InvalidValueError("data", `${level} alpha needs numeric ratings, got ${JSON.stringify(v)}.`);

  // Distinct values and the coincidence matrix o[c][k].
  const values: Array<number | string> = [];
  const index = new Map<number | string, number>();
  for (const row of data)
    for (const v of row)
      if (!missing(v) && !index.has(v)) {
        index.set(v, values.length);
        values.push(v);
      }
  if (level !== "nominal") {
    values.sort((a, b) => (a as number) - (b as number));
    values.forEach((v, i) => {
      index.set(v, i);
    });
  }
  const V = values.length;
  const o = Array.from({ length: V }, () => new Float64Array(V));
  for (let u = 0; u < units; u++) {
    const present: number[] = [];
    for (const row of data) {
      const v = row[u];
      if (!missing(v)) present.push(index.get(v) as number);
    }
    const m = present.length;
    if (m < 2) continue;
    for (let i = 0; i < m; i++) {
      const row = o[present[i] as number] as Float64Array;
      for (let j = 0; j < m; j++)
        if (i !== j) row[present[j] as number] = (row[present[j] as number] as number) + 1 / (m - 1);
    }
  }
  const nc = o.map((row) => row.reduce((a, b) => a + b, 0));
  const n = nc.reduce((a, b) => a + b, 0);
  if (n < 2)
    throw new InvalidValueError("data", "needs at least two pairable ratings (units rated by two or more raters).");

  const delta = (c: number, k: number): number => {
    if (c === k) return 0;
    if (level === "nominal") return 1;
    if (level === "interval") return ((values[c] as number) - (values[k] as number)) ** 2;
    // Ordinal: (sum of n_g for g between c and k, minus half of n_c and n_k) squared.
    const [lo, hi] = c < k ? [c, k] : [k, c];
    let s = 0;
    for (let g = lo; g <= hi; g++) s += nc[g] as number;
    return (s - ((nc[c] as number) + (nc[k] as number)) / 2) ** 2;
  };
  let observed = 0;
  let expected = 0;
  for (let c = 0; c < V; c++)
    for (let k = 0; k < V; k++) {
      const d = delta(c, k);
      if (d === 0) continue;
      observed += ((o[c] as Float64Array)[k] as number) * d;
      expected += (nc[c] as number) * (nc[k] as number) * d;
    }
  if (expected === 0) return undefined;
  return 1 - ((n - 1) * observed) / expected;
}

/** Pairs among runs of equal values in a sorted sequence: sum of t(t-1)/2 over runs of length t. */
function tiedPairs(length: number, same: (i: number) => boolean): number {
  let pairs = 0;
  let run = 1;
  for (let i = 1; i <= length; i++) {
    if (i < length && same(i)) run++;
    else {
      pairs += (run * (run - 1)) / 2;
      run = 1;
    }
  }
  return pairs;
}

/**
 * Kendall's tau-b between two paired rankings, with tie corrections:
 * (concordant - discordant) / sqrt((n0 - n1)(n0 - n2)). Pairs with a missing value (null or undefined) are
 * dropped. O(n log n) (Knight's algorithm: sort by x, then count discordant pairs as the inversions of y
 * in a bottom-up merge sort), so long rankings stay fast.
 * @throws InvalidValueError for different lengths, a value that is NaN, infinite or not a number, or when one
 * side is constant (tau undefined)
 */
export function kendallTauB(x: ArrayLike<number | null | undefined>, y: ArrayLike<number | null | undefined>): number {
  for (const [name, v] of [
    ["x", x],
    ["y", y],
  ] as const)
    if (!Array.isArray(v) && !(ArrayBuffer.isView(v) && !(v instanceof DataView)))
      throw new InvalidValueError(name, `must be an array of numbers, got ${describe(v)}.`);
  if (x.length !== y.length) throw new InvalidValueError("y", `has ${y.length} values but x has ${x.length}.`);
  const xs: number[] = [];
  const ys: number[] = [];
  for (let i = 0; i < x.length; i++) {
    const a = x[i];
    const b = y[i];
    for (const [name, v] of [
      ["x", a],
      ["y", b],
    ] as const)
      if (v !== null && v !== undefined && (typeof v !== "number" || !Number.isFinite(v)))
        throw new InvalidValueError(
          `${name}[${i}]`,
          `must be a finite number (null when missing), got ${describe(v)}.`,
        );
    if (a !== null && a !== undefined && b !== null && b !== undefined) {
      xs.push(a);
      ys.push(b);
    }
  }
  const n = xs.length;
  // Order by x, ties by y; then pairs tied in x, and in both, are runs of the order.
  const order = Array.from({ length: n }, (_, i) => i).sort(
    (i, j) => (xs[i] as number) - (xs[j] as number) || (ys[i] as number) - (ys[j] as number),
  );
  const sx = order.map((i) => xs[i] as number);
  let sy = order.map((i) => ys[i] as number);
  const tiesX = tiedPairs(n, (i) => sx[i] === sx[i - 1]);
  const tiesBoth = tiedPairs(n, (i) => sx[i] === sx[i - 1] && sy[i] === sy[i - 1]);
  // Discordant pairs = strict inversions of y in that order (y ascends within a run of equal x).
  let discordant = 0;
  let buffer = new Array<number>(n);
  for (let width = 1; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(lo + width, n);
      const hi = Math.min(lo + 2 * width, n);
      let i = lo;
      let j = mid;
      let k = lo;
      while (i < mid && j < hi) {
        if ((sy[j] as number) < (sy[i] as number)) {
          discordant += mid - i;
          buffer[k++] = sy[j++] as number;
        } else buffer[k++] = sy[i++] as number;
      }
      while (i < mid) buffer[k++] = sy[i++] as number;
      while (j < hi) buffer[k++] = sy[j++] as number;
    }
    [sy, buffer] = [buffer, sy];
  }
  const tiesY = tiedPairs(n, (i) => sy[i] === sy[i - 1]);
  const n0 = (n * (n - 1)) / 2;
  const concordant = n0 - tiesX - tiesY + tiesBoth - discordant;
  const denominator = Math.sqrt((n0 - tiesX) * (n0 - tiesY));
  if (denominator === 0)
    throw new InvalidValueError("x", "Kendall's tau is undefined when either variable is constant.");
  return (concordant - discordant) / denominator;
}
