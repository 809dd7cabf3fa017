// Small timing helpers shared by the benchmarks.

/** Run `fn` repeatedly for at least `minMs` after a warm-up; return operations per second. */
export function opsPerSecond(fn, { minMs = 1500, warmupMs = 300 } = {}) {
  let start = performance.now();
  while (performance.now() - start < warmupMs) fn();
  let ops = 0;
  start = performance.now();
  let elapsed = 0;
  while (elapsed < minMs) {
    ops += fn();
    elapsed = performance.now() - start;
  }
  return (ops / elapsed) * 1000;
}

/** Median of a list of numbers. */
export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Percentile (nearest rank) of a list of numbers. */
export function percentile(xs, p) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
}

export const fmt = (x, digits = 0) =>
  x.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
