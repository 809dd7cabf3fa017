/**
 * Maximum-weight bipartite matching (the Hungarian algorithm, O(n^3)) on a rectangular weight matrix:
 * every row is matched to at most one column and vice versa, maximizing the total weight.
 */

/** `weights[r][c]` >= 0; returns for each row its matched column, or -1. */
export function maxWeightMatching(weights: ReadonlyArray<ArrayLike<number>>): number[] {
  const rows = weights.length;
  const cols = rows === 0 ? 0 : (weights[0] as ArrayLike<number>).length;
  const n = Math.max(rows, cols);
  if (n === 0) return [];
  // Minimize cost = max - weight on an n x n matrix padded with zero weights.
  let max = 0;
  for (const row of weights) for (let c = 0; c < cols; c++) max = Math.max(max, row[c] as number);
  const cost = (r: number, c: number) =>
    r < rows && c < cols ? max - ((weights[r] as ArrayLike<number>)[c] as number) : max;
  // Jonker-Volgenant style potentials (1-based arrays as in the classic formulation).
  const u = new Float64Array(n + 1);
  const v = new Float64Array(n + 1);
  const p = new Int32Array(n + 1); // p[col] = row matched to col
  const way = new Int32Array(n + 1);
  for (let i = 1; i <= n; i++) {
    p[0] = i;
    let j0 = 0;
    const minv = new Float64Array(n + 1).fill(Number.POSITIVE_INFINITY);
    const used = new Uint8Array(n + 1);
    do {
      used[j0] = 1;
      const i0 = p[j0] as number;
      let delta = Number.POSITIVE_INFINITY;
      let j1 = 0;
      for (let j = 1; j <= n; j++) {
        if (used[j]) continue;
        const cur = cost(i0 - 1, j - 1) - (u[i0] as number) - (v[j] as number);
        if (cur < (minv[j] as number)) {
          minv[j] = cur;
          way[j] = j0;
        }
        if ((minv[j] as number) < delta) {
          delta = minv[j] as number;
          j1 = j;
        }
      }
      for (let j = 0; j <= n; j++) {
        if (used[j]) {
          u[p[j] as number] = (u[p[j] as number] as number) + delta;
          v[j] = (v[j] as number) - delta;
        } else minv[j] = (minv[j] as number) - delta;
      }
      j0 = j1;
    } while (p[j0] !== 0);
    do {
      const j1 = way[j0] as number;
      p[j0] = p[j1] as number;
      j0 = j1;
    } while (j0 !== 0);
  }
  const match = new Array<number>(rows).fill(-1);
  for (let j = 1; j <= n; j++) {
    const r = (p[j] as number) - 1;
    if (r >= 0 && r < rows && j - 1 < cols && ((weights[r] as ArrayLike<number>)[j - 1] as number) > 0)
      match[r] = j - 1;
  }
  return match;
}
