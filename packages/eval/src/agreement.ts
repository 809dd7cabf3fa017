/**
 * Agreement between raters, as the papers use to compare annotators and LLM judges: Krippendorff's
 * alpha (nominal, ordinal, interval; missing ratings allowed) and Kendall's tau-b.
 */
import { InvalidValueError } from "@npov/core";

/** A rating; `null`/`undefined`/`NaN` mark a missing rating. */
export type Rating = number | string | null | undefined;

/** Level of measurement of the ratings. */
export type AlphaLevel = "nominal" | "ordinal" | "interval";

const missing = (v: Rating): v is null | undefined =>
  v === null || v === undefined || (typeof v === "number" && Number.isNaN(v));

/**
 * Krippendorff's alpha from a raters x units matrix (`data[r][u]` = rater r's value for unit u).
 * Computed with the coincidence matrix (Krippendorff 2011, "Computing Krippendorff's Alpha-Reliability"):
 * alpha = 1 - (n - 1) * sum_ck o_ck d_ck / sum_ck n_c n_k d_ck, over units with at least two ratings.
 * Ordinal and interval levels need numeric values; ordinal ranks the distinct values.
 * @throws InvalidValueError on ragged data, non-numeric ordinal/interval values, or fewer than two
 * pairable ratings; alpha is undefined (0/0) when all ratings are identical, reported as 1.
 */
export function krippendorffAlpha(data: ReadonlyArray<ReadonlyArray<Rating>>, level: AlphaLevel = "nominal"): number {
  if (data.length < 2) throw new InvalidValueError("data", "needs ratings from at least two raters (rows).");
  const units = (data[0] as ReadonlyArray<Rating>).length;
  for (const [r, row] of data.entries())
    if (row.length !== units)
      throw new InvalidValueError(`data[${r}]`, `has ${row.length} units; every rater row needs ${units}.`);
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
  if (expected === 0) return 1;
  return 1 - ((n - 1) * observed) / expected;
}

/**
 * Kendall's tau-b between two paired rankings, with tie corrections:
 * (concordant - discordant) / sqrt((n0 - n1)(n0 - n2)). Pairs with a missing value are dropped.
 * @throws InvalidValueError for different lengths or when one side is constant (tau undefined)
 */
export function kendallTauB(x: ArrayLike<number>, y: ArrayLike<number>): number {
  if (x.length !== y.length) throw new InvalidValueError("y", `has ${y.length} values but x has ${x.length}.`);
  const xs: number[] = [];
  const ys: number[] = [];
  for (let i = 0; i < x.length; i++) {
    const a = x[i] as number;
    const b = y[i] as number;
    if (Number.isFinite(a) && Number.isFinite(b)) {
      xs.push(a);
      ys.push(b);
    }
  }
  let concordant = 0;
  let discordant = 0;
  let tiesX = 0;
  let tiesY = 0;
  const n = xs.length;
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++) {
      const dx = Math.sign((xs[i] as number) - (xs[j] as number));
      const dy = Math.sign((ys[i] as number) - (ys[j] as number));
      if (dx === 0) tiesX++;
      if (dy === 0) tiesY++;
      if (dx !== 0 && dy !== 0) {
        if (dx === dy) concordant++;
        else discordant++;
      }
    }
  const n0 = (n * (n - 1)) / 2;
  const denominator = Math.sqrt((n0 - tiesX) * (n0 - tiesY));
  if (denominator === 0)
    throw new InvalidValueError("x", "Kendall's tau is undefined when either variable is constant.");
  return (concordant - discordant) / denominator;
}
