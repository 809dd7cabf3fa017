/**
 * Maximum-weight bipartite matching (the Hungarian algorithm with Jonker-Volgenant potentials) on a
 * rectangular weight matrix: every row is matched to at most one column and vice versa, maximizing the total
 * weight.
 *
 * Cost: the classic formulation pads the matrix to n x n (n = the larger side) and costs O(n^3) -- a
 * 1,500-word response against 20 argument words took seconds. Run over the smaller side only (no padding),
 * it costs O(min^2 x max). Among equally good matchings the two formulations may choose differently, so the
 * padded one -- the choice npov has always made -- runs while it is cheap: for the small matrices of
 * ordinary inputs, within a budget per check (see {@link WorkMeter}); larger ones run unpadded. Every run
 * counts its steps on the meter, which refuses beyond its limit.
 */
import { describe, InputTooLargeError, InvalidValueError } from "@npov/core";

/**
 * Most steps of the one-to-one matchings in one check (see `WorkMeter`; about a second). Inputs within
 * the other limits of limits.ts (which re-exports this one beside them) stay far below it unless they repeat
 * a few words thousands of times. Defined here, where the meter counts the steps, so limits.ts depends on
 * this module and not the other way round.
 */
export const MAX_MATCHING_STEPS = 300_000_000;

/**
 * Counts elementary steps of matching work (one step = one column scanned or updated) and throws
 * {@link InputTooLargeError} (`INPUT_TOO_LARGE`) once they pass `limit`, so no input runs unbounded. The count
 * is deterministic: the same input passes or fails the same way on every machine.
 */
export class WorkMeter {
  /** Steps counted so far. */
  steps = 0;
  /** Estimated steps (n^3 each) granted to the padded formulation so far. */
  paddedSteps = 0;
  /** @throws InvalidValueError for a limit below 1 (NaN would turn every limit off) or a negative budget */
  constructor(
    readonly limit: number = MAX_MATCHING_STEPS,
    readonly path = "input",
    /** Estimated steps the padded formulation may take in all (see the module comment). */
    readonly paddedBudget: number = PADDED_BUDGET,
  ) {
    if (typeof limit !== "number" || !(limit >= 1))
      throw new InvalidValueError("limit", `must be a number of steps >= 1, got ${describe(limit)}.`);
    if (typeof paddedBudget !== "number" || !(paddedBudget >= 0))
      throw new InvalidValueError("paddedBudget", `must be a number >= 0, got ${describe(paddedBudget)}.`);
    if (typeof path !== "string") throw new InvalidValueError("path", `must be text, got ${describe(path)}.`);
  }

  /**
   * A meter for one check with this meter's limits, whose steps also count on this one: a meter handed to
   * a detector factory totals the work of every check, while each check is limited on its own.
   */
  forCheck(): WorkMeter {
    const parent = this;
    return new (class extends WorkMeter {
      override add(steps: number): void {
        parent.steps += steps;
        super.add(steps);
      }
    })(this.limit, this.path, this.paddedBudget);
  }

  /** Whether a padded run of estimated `cost` steps fits the remaining budget (and reserve it if so). */
  usePadded(cost: number): boolean {
    if (this.paddedSteps + cost > this.paddedBudget) return false;
    this.paddedSteps += cost;
    return true;
  }

  /** Count `steps` more steps. @throws InputTooLargeError past the limit */
  add(steps: number): void {
    this.steps += steps;
    if (this.steps > this.limit)
      throw new InputTooLargeError(
        this.path,
        this.steps,
        this.limit,
        "word-matching steps",
        "Shorten the response or give fewer or shorter arguments (many repeated words make matching costlier).",
      );
  }
}

// Padded n x n runs cost up to n^3 steps; one check may spend about this much on them (~0.05 s): every
// matching of a chatbot-length response (up to ~120 content words against a few arguments) fits, so their
// results are the ones npov has always given; beyond, the unpadded formulation takes over.
const PADDED_BUDGET = 16_000_000;

function isNumberRow(row: unknown): row is ArrayLike<number> {
  return Array.isArray(row) || (ArrayBuffer.isView(row) && !(row instanceof DataView));
}

/** Check the matrix (rectangular, finite weights >= 0) and return its shape and largest weight. */
function checkWeights(weights: unknown): { rows: number; cols: number; max: number } {
  if (!Array.isArray(weights)) throw new InvalidValueError("weights", "must be an array of rows (arrays of numbers).");
  const rows = weights.length;
  let cols = 0;
  let max = 0;
  for (let r = 0; r < rows; r++) {
    const row: unknown = weights[r];
    if (!isNumberRow(row)) throw new InvalidValueError(`weights[${r}]`, "must be an array of numbers.");
    if (r === 0) cols = row.length;
    else if (row.length !== cols)
      throw new InvalidValueError(
        `weights[${r}]`,
        `has ${row.length} columns but weights[0] has ${cols}: rows must be equally long.`,
      );
    for (let c = 0; c < cols; c++) {
      const w = row[c];
      if (typeof w !== "number" || !Number.isFinite(w) || w < 0)
        throw new InvalidValueError(`weights[${r}][${c}]`, `must be a finite number >= 0, got ${describe(w)}.`);
      max = Math.max(max, w);
    }
  }
  return { rows, cols, max };
}

/**
 * `weights[r][c]`: finite and >= 0, all rows equally long. Returns for each row its matched column, or -1
 * (rows matched only at weight 0 count as unmatched).
 * @throws InvalidValueError on a ragged matrix or a weight that is negative, NaN or infinite;
 * InputTooLargeError when the work passes `meter`'s limit (default {@link MAX_MATCHING_STEPS} steps)
 */
export function maxWeightMatching(weights: ReadonlyArray<ArrayLike<number>>, meter = new WorkMeter()): number[] {
  const { rows, cols, max } = checkWeights(weights);
  if (!(meter instanceof WorkMeter)) throw new InvalidValueError("meter", "must be a WorkMeter.");
  if (rows === 0) return [];
  if (cols === 0) return new Array<number>(rows).fill(-1);
  const n = Math.max(rows, cols);
  if (meter.usePadded(n ** 3)) return matchWithin(weights, rows, cols, max, meter, n, n);
  if (rows <= cols) return matchWithin(weights, rows, cols, max, meter, rows, cols);
  const transposed = Array.from({ length: cols }, (_, c) =>
    Float64Array.from({ length: rows }, (_, r) => (weights[r] as ArrayLike<number>)[c] as number),
  );
  const byColumn = matchWithin(transposed, cols, rows, max, meter, cols, rows);
  const match = new Array<number>(rows).fill(-1);
  byColumn.forEach((r, c) => {
    if (r >= 0) match[r] = c;
  });
  return match;
}

/**
 * The Hungarian algorithm on `weights` (rows x cols) placed in a `height` x `width` cost matrix (height <=
 * width): unpadded (height = rows, width = cols; O(rows^2 cols)) or the classic formulation padded to n x n
 * with zero weights (n = the larger side; O(n^3)). cost = max - weight inside the matrix, max in the padding.
 */
function matchWithin(
  weights: ReadonlyArray<ArrayLike<number>>,
  rows: number,
  cols: number,
  max: number,
  meter: WorkMeter,
  height: number,
  width: number,
): number[] {
  refuseEarly(meter, height, width);
  const cost = new Float64Array(height * width).fill(max);
  for (let r = 0; r < rows; r++) {
    const row = weights[r] as ArrayLike<number>;
    for (let c = 0; c < cols; c++) cost[r * width + c] = max - (row[c] as number);
  }
  return matchedColumns(weights, rows, cols, assign(cost, height, width, meter));
}

/** Every row takes at least one scan of the columns: refuse before building a cost matrix past the limit. */
function refuseEarly(meter: WorkMeter, rows: number, cols: number): void {
  if (meter.steps + rows * (2 * cols + 1) > meter.limit) meter.add(rows * (2 * cols + 1));
}

/**
 * Minimum-cost assignment of every row of a `rows` x `cols` cost matrix (row-major, rows <= cols) to its own
 * column, with Jonker-Volgenant style potentials (1-based arrays as in the classic formulation). Returns
 * p[col] = 1-based row assigned to col, 0 for none.
 */
function assign(cost: Float64Array, rows: number, cols: number, meter: WorkMeter): Int32Array {
  const u = new Float64Array(rows + 1);
  const v = new Float64Array(cols + 1);
  const p = new Int32Array(cols + 1);
  const way = new Int32Array(cols + 1);
  const minv = new Float64Array(cols + 1);
  const used = new Uint8Array(cols + 1);
  for (let i = 1; i <= rows; i++) {
    p[0] = i;
    let j0 = 0;
    minv.fill(Number.POSITIVE_INFINITY);
    used.fill(0);
    let steps = 0;
    do {
      used[j0] = 1;
      const i0 = p[j0] as number;
      const base = (i0 - 1) * cols;
      let delta = Number.POSITIVE_INFINITY;
      let j1 = 0;
      for (let j = 1; j <= cols; j++) {
        if (used[j]) continue;
        const cur = (cost[base + j - 1] as number) - (u[i0] as number) - (v[j] as number);
        if (cur < (minv[j] as number)) {
          minv[j] = cur;
          way[j] = j0;
        }
        if ((minv[j] as number) < delta) {
          delta = minv[j] as number;
          j1 = j;
        }
      }
      for (let j = 0; j <= cols; j++) {
        if (used[j]) {
          u[p[j] as number] = (u[p[j] as number] as number) + delta;
          v[j] = (v[j] as number) - delta;
        } else minv[j] = (minv[j] as number) - delta;
      }
      j0 = j1;
      steps++;
    } while (p[j0] !== 0);
    meter.add(steps * (2 * cols + 1));
    do {
      const j1 = way[j0] as number;
      p[j0] = p[j1] as number;
      j0 = j1;
    } while (j0 !== 0);
  }
  return p;
}

/** Each row's matched column from `p` (padding and zero-weight matches count as unmatched, -1). */
function matchedColumns(
  weights: ReadonlyArray<ArrayLike<number>>,
  rows: number,
  cols: number,
  p: Int32Array,
): number[] {
  const match = new Array<number>(rows).fill(-1);
  for (let j = 1; j < p.length; j++) {
    const r = (p[j] as number) - 1;
    if (r >= 0 && r < rows && j - 1 < cols && ((weights[r] as ArrayLike<number>)[j - 1] as number) > 0)
      match[r] = j - 1;
  }
  return match;
}
