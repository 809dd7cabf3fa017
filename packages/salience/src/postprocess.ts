/**
 * Post-processing of a token attribution map (SPEC 2.2 steps 3-7), as small pure functions over
 * row-major Float64Arrays.
 */

/** A dense row-major matrix. */
export interface Matrix {
  rows: number;
  cols: number;
  data: Float64Array;
}

export function matrix(rows: number, cols: number, data?: ArrayLike<number>): Matrix {
  const m = { rows, cols, data: new Float64Array(rows * cols) };
  if (data !== undefined) {
    if (data.length !== rows * cols) throw new RangeError(`expected ${rows * cols} values, got ${data.length}`);
    m.data.set(data);
  }
  return m;
}

export const at = (m: Matrix, r: number, c: number): number => m.data[r * m.cols + c] as number;

/** Step 3: square every entry, then scale each column to sum to 1 (an all-zero column stays zero). */
export function squareNormalizeColumns(m: Matrix): Matrix {
  const out = matrix(m.rows, m.cols);
  for (let c = 0; c < m.cols; c++) {
    let sum = 0;
    for (let r = 0; r < m.rows; r++) sum += at(m, r, c) ** 2;
    if (sum === 0) continue;
    for (let r = 0; r < m.rows; r++) out.data[r * m.cols + c] = at(m, r, c) ** 2 / sum;
  }
  return out;
}

/**
 * Step 4: word-to-word map. `rowGroups[i]` lists the token rows of input word i, `colGroups[j]` the token
 * columns of response word j; the word attribution is the maximum over their token pairs (0 for a word
 * without tokens).
 */
export function mergeToWords(m: Matrix, rowGroups: readonly number[][], colGroups: readonly number[][]): Matrix {
  const out = matrix(rowGroups.length, colGroups.length);
  rowGroups.forEach((rows, i) => {
    colGroups.forEach((cols, j) => {
      let best = 0;
      for (const r of rows) for (const c of cols) best = Math.max(best, at(m, r, c));
      out.data[i * out.cols + j] = best;
    });
  });
  return out;
}

/** Step 5: contribution of each input word (row maxima). */
export function rowMax(m: Matrix): Float64Array {
  const out = new Float64Array(m.rows);
  for (let r = 0; r < m.rows; r++) for (let c = 0; c < m.cols; c++) out[r] = Math.max(out[r] as number, at(m, r, c));
  return out;
}

/** Step 5: attribution of each response word (column maxima). */
export function colMax(m: Matrix): Float64Array {
  const out = new Float64Array(m.cols);
  for (let r = 0; r < m.rows; r++) for (let c = 0; c < m.cols; c++) out[c] = Math.max(out[c] as number, at(m, r, c));
  return out;
}

/** Default epsilon of {@link gmean}: values are clamped to at least 1e-6 before taking logs. */
export const GMEAN_EPSILON = 1e-6;

/**
 * Geometric mean with log(0) guarded: exp(mean(log(max(x, epsilon)))). Empty input -> 1 (nothing to
 * blame), so example-level scores never become NaN.
 */
export function gmean(values: ArrayLike<number>, epsilon = GMEAN_EPSILON): number {
  if (values.length === 0) return 1;
  let s = 0;
  for (let i = 0; i < values.length; i++) s += Math.log(Math.max(values[i] as number, epsilon));
  return Math.exp(s / values.length);
}
