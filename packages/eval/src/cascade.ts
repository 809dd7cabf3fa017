/**
 * Calibrating a two-stage cascade guard: a cheap stage-1 detector decides an error type on its own when its
 * score lies outside an uncertainty band `[low, high)` (below: no error, at or above `high`: error), and
 * escalates the example to a costlier stage 2 otherwise. One stage-2 call answers both error types, so an
 * example costs stage 2 once when either type's score is in its band.
 *
 * Calibration picks, per error type, the band that reaches a target recall within a largest false-positive
 * rate at the lowest expected cost -- the fewest examples escalated -- given stage 2's own threshold (chosen
 * by the false-positive-rate rule). The two types' bands are chosen by coordinate descent on the share of
 * examples escalated by either (each step picks one type's cheapest feasible band given the other's
 * escalations), which stops at a local optimum of the joint cost.
 */
import {
  type CheckInput,
  type ErrorDetector,
  InvalidValueError,
  maxOf,
  type NpovExample,
  requireNumber,
  requireRecord,
} from "@npov/core";
import { checkDataset, checkDetectors, checkScores } from "./checks.js";
import { chooseThreshold, metricsAt, type ThresholdMetrics } from "./thresholds.js";

/** The two error types a guard decides. */
export type CascadeErrorType = "hallucination" | "coverage";
const TYPES: readonly CascadeErrorType[] = ["hallucination", "coverage"];

/** One error type's scores of every calibration example, by both stages, and its labels. */
export interface CascadeTypeScores {
  /** Stage-1 score of each example, in [0, 1]. */
  stage1: readonly number[];
  /** Stage-2 score of each example, in [0, 1]. */
  stage2: readonly number[];
  /** Each example's label (`true`: the error is present); `undefined` when the example has none for this type. */
  labels: ReadonlyArray<boolean | undefined>;
}

/** Both error types' scores, over the same examples in the same order. */
export type CascadeScores = Record<CascadeErrorType, CascadeTypeScores>;

/**
 * Stage 1's uncertainty band for one error type: a score below `low` passes, a score at or above `high` is
 * flagged, anything between is escalated. `low == high` is no band (stage 1 decides alone at that threshold);
 * `low = 0` never passes, `high > 1` never flags.
 */
export interface CascadeBand {
  low: number;
  high: number;
}

/** What a cascade guard config stores: stage 1's band and stage 2's threshold per error type. */
export interface CascadePlan {
  bands: Record<CascadeErrorType, CascadeBand>;
  /** Stage 2 flags an escalated example when its score is at or above this. */
  thresholds: Record<CascadeErrorType, number>;
}

/** Stated prices of the two stages: USD per check, and (measured) milliseconds per check. */
export interface CascadePrices {
  costUsd: readonly [number, number];
  latencyMs?: readonly [number, number];
}

/** How a plan does on labelled scores. */
export interface CascadeOutcome {
  plan: CascadePlan;
  /** Share of examples sent to stage 2 (either type's stage-1 score in its band). */
  escalated: number;
  /** Confusion counts and rates per error type (the `threshold` field is stage 2's threshold). */
  metrics: Record<CascadeErrorType, ThresholdMetrics>;
  /** Expected USD per 1,000 checks: 1000 x (stage-1 cost + share escalated x stage-2 cost). */
  costPer1000: number;
  /** Expected milliseconds per check: stage-1 latency + share escalated x stage-2 latency (0 when unknown). */
  latencyMs: number;
}

/** A row of the trade-off table. */
export interface CascadeTradeoff extends CascadeOutcome {
  /** e.g. "stage 1 only", "stage 2 only", "cascade, recall >= 0.8". */
  label: string;
  /** The recall the row's bands were chosen to reach (cascade rows). */
  targetRecall?: number;
  /** Whether every error type reached `targetRecall` within the largest false-positive rate (cascade rows). */
  met?: boolean;
}

/** Options of {@link calibrateCascade}. */
export interface CascadeCalibrationOptions {
  /** Recall each error type must reach, in (0, 1]. */
  targetRecall: number;
  /** Largest false-positive rate per error type, in [0, 1]; also the rule of stage 2's threshold. */
  maxFpr: number;
  prices: CascadePrices;
  /** Target recalls of the cascade rows of the trade-off table (default 0.5, 0.6, 0.7, 0.8, 0.9, 0.95). */
  recallLevels?: readonly number[];
  /** Most cut points per stage-1 score scale (quantiles beyond it); default 400. */
  maxCuts?: number;
}

/** The result of {@link calibrateCascade}. */
export interface CascadeCalibration {
  /** The cheapest plan reaching `targetRecall` within `maxFpr` (or the best effort: see `met`). */
  chosen: CascadeTradeoff & { targetRecall: number; met: boolean };
  /** Stage 1 alone, stage 2 alone, and the cheapest cascade at each recall level (and the target). */
  table: CascadeTradeoff[];
  /** Number of examples. */
  n: number;
}

/** Check one type's scores: equal lengths, scores finite in [0, 1]. @throws InvalidValueError */
function checkTypeScores(value: unknown, path: string, n: number | undefined): CascadeTypeScores {
  const x = requireRecord(value, path, "{stage1, stage2, labels}");
  for (const key of ["stage1", "stage2", "labels"] as const)
    if (!Array.isArray(x[key])) throw new InvalidValueError(`${path}.${key}`, "must be an array.");
  const s = x as unknown as CascadeTypeScores;
  const len = n ?? s.stage1.length;
  for (const key of ["stage1", "stage2", "labels"] as const)
    if (s[key].length !== len)
      throw new InvalidValueError(`${path}.${key}`, `has ${s[key].length} entries; every array needs ${len}.`);
  for (const key of ["stage1", "stage2"] as const)
    s[key].forEach((v, i) => {
      if (typeof v !== "number" || !Number.isFinite(v) || v < 0 || v > 1)
        throw new InvalidValueError(`${path}.${key}[${i}]`, `must be a score in [0, 1], got ${String(v)}.`);
    });
  s.labels.forEach((l, i) => {
    if (l !== undefined && typeof l !== "boolean")
      throw new InvalidValueError(`${path}.labels[${i}]`, `must be true, false or undefined, got ${String(l)}.`);
  });
  return s;
}

function checkScoresArg(value: unknown): { scores: CascadeScores; n: number } {
  const x = requireRecord(value, "scores", "{hallucination, coverage}");
  const h = checkTypeScores(x.hallucination, "scores.hallucination", undefined);
  const c = checkTypeScores(x.coverage, "scores.coverage", h.stage1.length);
  if (h.stage1.length === 0) throw new InvalidValueError("scores", "has no examples.");
  return { scores: { hallucination: h, coverage: c }, n: h.stage1.length };
}

function checkPrices(value: unknown): CascadePrices {
  const p = requireRecord(value, "prices", "{costUsd: [stage 1, stage 2], latencyMs?}");
  for (const key of ["costUsd", "latencyMs"] as const) {
    const v = p[key];
    if (v === undefined && key === "latencyMs") continue;
    if (!Array.isArray(v) || v.length !== 2)
      throw new InvalidValueError(`prices.${key}`, "must be two numbers: [stage 1, stage 2].");
    for (const [i, x] of v.entries()) requireNumber(x, `prices.${key}[${i}]`, { min: 0 });
  }
  return value as CascadePrices;
}

/** Labelled stage-2 scores and labels of one type. */
function labelled(t: CascadeTypeScores): { stage1: number[]; stage2: number[]; labels: boolean[] } {
  const out = { stage1: [] as number[], stage2: [] as number[], labels: [] as boolean[] };
  t.labels.forEach((l, i) => {
    if (l === undefined) return;
    out.stage1.push(t.stage1[i] as number);
    out.stage2.push(t.stage2[i] as number);
    out.labels.push(l);
  });
  return out;
}

/**
 * How `plan` does on labelled scores: per example and type, stage 1 passes (score < low), flags
 * (score >= high) or escalates to stage 2 (flag when its score >= the stage-2 threshold).
 * @throws InvalidValueError for malformed scores or prices
 */
export function evaluateCascade(scores: CascadeScores, plan: CascadePlan, prices: CascadePrices): CascadeOutcome {
  const { scores: s, n } = checkScoresArg(scores);
  checkPrices(prices);
  const escalated = new Array<boolean>(n).fill(false);
  const metrics = {} as Record<CascadeErrorType, ThresholdMetrics>;
  for (const t of TYPES) {
    const { low, high } = plan.bands[t];
    const threshold = plan.thresholds[t];
    const decided: number[] = [];
    const labels: boolean[] = [];
    for (let i = 0; i < n; i++) {
      const s1 = s[t].stage1[i] as number;
      let flag: boolean;
      if (s1 < low) flag = false;
      else if (s1 >= high) flag = true;
      else {
        escalated[i] = true;
        flag = (s[t].stage2[i] as number) >= threshold;
      }
      const l = s[t].labels[i];
      if (l === undefined) continue;
      decided.push(flag ? 1 : 0);
      labels.push(l);
    }
    metrics[t] = labels.length === 0 ? metricsAt([0], [false], 1) : metricsAt(decided, labels, 0.5);
    metrics[t].threshold = threshold;
  }
  const share = escalated.filter(Boolean).length / n;
  return outcome(plan, share, metrics, prices);
}

function outcome(
  plan: CascadePlan,
  share: number,
  metrics: Record<CascadeErrorType, ThresholdMetrics>,
  prices: CascadePrices,
): CascadeOutcome {
  const [c1, c2] = prices.costUsd;
  const [l1, l2] = prices.latencyMs ?? [0, 0];
  return { plan, escalated: share, metrics, costPer1000: 1000 * (c1 + share * c2), latencyMs: l1 + share * l2 };
}

/** One type's stage-1 scores grouped by cut, with prefix sums for O(1) band metrics. */
interface TypeTable {
  /** Cut values: a band (a, b) is low = cuts[a], high = cuts[b]; cuts[0] = 0, the last is above every score. */
  cuts: number[];
  /** Group of each example: the number of cuts (after the first) at or below its stage-1 score. */
  group: number[];
  /** Prefix sums over groups: positives, negatives, and those stage 2 flags. */
  pos: number[];
  neg: number[];
  pos2: number[];
  neg2: number[];
  P: number;
  N: number;
}

/** `[0, x0, x0 + x1, ...]`. */
function prefixSums(xs: readonly number[]): number[] {
  const out = [0];
  for (const x of xs) out.push((out.at(-1) as number) + x);
  return out;
}

function typeTable(t: CascadeTypeScores, threshold2: number, maxCuts: number): TypeTable {
  const distinct = [...new Set(t.stage1)].sort((a, b) => a - b);
  // Cut k splits the scores below distinct[k] from the rest; beyond maxCuts, evenly spaced quantiles.
  const picks =
    distinct.length <= maxCuts
      ? distinct.map((_, k) => k)
      : [...new Set(Array.from({ length: maxCuts }, (_, j) => Math.round((j * distinct.length) / maxCuts)))];
  const inner = picks.filter((k) => k > 0).map((k) => distinct[k] as number);
  const cuts = [0, ...inner, Math.max(1, maxOf(distinct)) + 1];
  const groups = cuts.length - 1;
  const group = t.stage1.map((v) => {
    // The number of inner cuts <= v (binary search).
    let lo = 0;
    let hi = inner.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((inner[mid] as number) <= v) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  });
  const counts = { pos: new Array(groups).fill(0), neg: new Array(groups).fill(0) };
  const counts2 = { pos: new Array(groups).fill(0), neg: new Array(groups).fill(0) };
  t.labels.forEach((l, i) => {
    if (l === undefined) return;
    const g = group[i] as number;
    const side = l ? "pos" : "neg";
    counts[side][g]++;
    if ((t.stage2[i] as number) >= threshold2) counts2[side][g]++;
  });
  const pos = prefixSums(counts.pos);
  const neg = prefixSums(counts.neg);
  return {
    cuts,
    group,
    pos,
    neg,
    pos2: prefixSums(counts2.pos),
    neg2: prefixSums(counts2.neg),
    P: pos.at(-1) as number,
    N: neg.at(-1) as number,
  };
}

/** A candidate band of one type, as group indices, with its counts. */
interface Candidate {
  a: number;
  b: number;
  tp: number;
  fp: number;
  /** Examples escalated by this type or by the other type (the joint cost). */
  union: number;
}

/**
 * The cheapest band of one type given the examples the other type already escalates: among bands reaching
 * the recall within the false-positive budget, the fewest examples escalated by either type, then the fewest
 * false positives, the most true positives, the narrowest band. When none reaches the recall, the band with
 * the most recall within the budget (a band flagging nothing fits any budget).
 */
function cheapestBand(
  table: TypeTable,
  others: readonly boolean[],
  targetRecall: number,
  maxFpr: number,
): { candidate: Candidate; met: boolean } {
  const groups = table.cuts.length - 1;
  // Prefix counts of examples the other type does not escalate, per group.
  const fresh = new Array(groups).fill(0);
  let otherCount = 0;
  table.group.forEach((g, i) => {
    if (others[i]) otherCount++;
    else fresh[g]++;
  });
  const freshPrefix = prefixSums(fresh);
  const { pos, neg, pos2, neg2, P, N } = table;
  const rate = (x: number, d: number) => (d === 0 ? 0 : x / d);
  let best: Candidate | undefined;
  let bestMet = false;
  const better = (c: Candidate, met: boolean): boolean => {
    if (best === undefined) return true;
    if (met !== bestMet) return met;
    if (!met && c.tp !== best.tp) return c.tp > best.tp; // best effort: most recall first
    if (c.union !== best.union) return c.union < best.union;
    if (c.fp !== best.fp) return c.fp < best.fp;
    if (c.tp !== best.tp) return c.tp > best.tp;
    return c.b - c.a < best.b - best.a;
  };
  for (let a = 0; a <= groups; a++)
    for (let b = a; b <= groups; b++) {
      // Groups >= b are flagged by stage 1; groups in [a, b) go to stage 2.
      const at = (xs: number[], k: number) => xs[k] as number;
      const tp = at(pos, groups) - at(pos, b) + (at(pos2, b) - at(pos2, a));
      const fp = at(neg, groups) - at(neg, b) + (at(neg2, b) - at(neg2, a));
      if (rate(fp, N) > maxFpr) continue;
      const met = P === 0 || rate(tp, P) >= targetRecall;
      const c = { a, b, tp, fp, union: otherCount + (freshPrefix[b] as number) - (freshPrefix[a] as number) };
      if (better(c, met)) {
        best = c;
        bestMet = met;
      }
    }
  // A band flagging nothing (a = b = groups) always fits the budget, so `best` is set.
  return { candidate: best as Candidate, met: bestMet };
}

function checkUnit(value: unknown, path: string, open: boolean): number {
  const v = requireNumber(value, path, { min: 0, max: 1 });
  if (open && v === 0) throw new InvalidValueError(path, "must be above 0.");
  return v;
}

/**
 * Choose the cascade's bands and stage-2 thresholds on labelled scores (see the module comment), and the
 * trade-off table: stage 1 alone (its threshold by the false-positive-rate rule), stage 2 alone, and the
 * cheapest cascade per recall level.
 * @throws InvalidValueError for malformed scores or options, or labels of one class only for an error type
 */
export function calibrateCascade(scores: CascadeScores, options: CascadeCalibrationOptions): CascadeCalibration {
  const { scores: s, n } = checkScoresArg(scores);
  requireRecord(options, "options", "{targetRecall, maxFpr, prices}");
  const targetRecall = checkUnit(options.targetRecall, "options.targetRecall", true);
  const maxFpr = checkUnit(options.maxFpr, "options.maxFpr", false);
  const prices = checkPrices(options.prices);
  const maxCuts = requireNumber(options.maxCuts ?? 400, "options.maxCuts", { min: 2, max: 100_000, integer: true });
  const levels = [...(options.recallLevels ?? [0.5, 0.6, 0.7, 0.8, 0.9, 0.95])].map((r, i) =>
    checkUnit(r, `options.recallLevels[${i}]`, true),
  );
  // Stage 2's threshold and stage 1's stand-alone threshold: the false-positive-rate rule of calibrate-guard.
  const stage2 = {} as Record<CascadeErrorType, number>;
  const stage1 = {} as Record<CascadeErrorType, number>;
  const tables = {} as Record<CascadeErrorType, TypeTable>;
  for (const t of TYPES) {
    const l = labelled(s[t]);
    if (!l.labels.some(Boolean) || l.labels.every(Boolean))
      throw new InvalidValueError(`scores.${t}.labels`, `need error-free and errorful examples for ${t}.`);
    stage2[t] = chooseThreshold(l.stage2, l.labels, { rule: "fpr", target: maxFpr }).threshold;
    stage1[t] = chooseThreshold(l.stage1, l.labels, { rule: "fpr", target: maxFpr }).threshold;
    tables[t] = typeTable(s[t], stage2[t], maxCuts);
  }

  const cascadeAt = (recall: number): { plan: CascadePlan; met: boolean } => {
    const chosen = {} as Record<CascadeErrorType, { candidate: Candidate; met: boolean }>;
    const escalatedBy = (t: CascadeErrorType): boolean[] => {
      const c = chosen[t]?.candidate;
      return tables[t].group.map((g) => c !== undefined && g >= c.a && g < c.b);
    };
    const none = new Array<boolean>(n).fill(false);
    for (const t of TYPES) chosen[t] = cheapestBand(tables[t], none, recall, maxFpr);
    // Coordinate descent on the joint share escalated; each step never raises it, so it settles.
    for (let round = 0; round < 50; round++) {
      let changed = false;
      for (const [t, other] of [
        ["hallucination", "coverage"],
        ["coverage", "hallucination"],
      ] as const) {
        const next = cheapestBand(tables[t], escalatedBy(other), recall, maxFpr);
        const cur = chosen[t].candidate;
        if (next.candidate.a !== cur.a || next.candidate.b !== cur.b) {
          chosen[t] = next;
          changed = true;
        }
      }
      if (!changed) break;
    }
    const bands = {} as Record<CascadeErrorType, CascadeBand>;
    for (const t of TYPES) {
      const { a, b } = chosen[t].candidate;
      bands[t] = { low: tables[t].cuts[a] as number, high: tables[t].cuts[b] as number };
    }
    return { plan: { bands, thresholds: { ...stage2 } }, met: TYPES.every((t) => chosen[t].met) };
  };

  const never = (t: CascadeErrorType) => tables[t].cuts.at(-1) as number;
  const stage1Only: CascadePlan = {
    bands: {
      hallucination: { low: stage1.hallucination, high: stage1.hallucination },
      coverage: { low: stage1.coverage, high: stage1.coverage },
    },
    thresholds: { ...stage2 },
  };
  const stage2Only: CascadePlan = {
    bands: { hallucination: { low: 0, high: never("hallucination") }, coverage: { low: 0, high: never("coverage") } },
    thresholds: { ...stage2 },
  };
  const table: CascadeTradeoff[] = [
    { label: "stage 1 only", ...evaluateCascade(s, stage1Only, prices) },
    { label: "stage 2 only", ...evaluateCascade(s, stage2Only, prices) },
  ];
  let chosen: (CascadeTradeoff & { targetRecall: number; met: boolean }) | undefined;
  for (const recall of [...new Set([...levels, targetRecall])].sort((a, b) => a - b)) {
    const { plan, met } = cascadeAt(recall);
    const row = {
      label: `cascade, recall >= ${recall}`,
      targetRecall: recall,
      met,
      ...evaluateCascade(s, plan, prices),
    };
    table.push(row);
    if (recall === targetRecall) chosen = row;
  }
  return { chosen: chosen as CascadeTradeoff & { targetRecall: number; met: boolean }, table, n };
}

/** Fixed-width text of a trade-off table (what `npov calibrate-guard --cascade` prints). */
export function formatCascadeTable(rows: readonly CascadeTradeoff[], prices: CascadePrices): string {
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
  const header = [
    "plan",
    "escalated",
    "halluc. recall",
    "halluc. FPR",
    "coverage recall",
    "coverage FPR",
    "USD / 1,000 checks",
    "ms / check",
  ];
  const lines = rows.map((r) => [
    `${r.label}${r.met === false ? " (not met)" : ""}`,
    pct(r.escalated),
    r.metrics.hallucination.recall.toFixed(3),
    r.metrics.hallucination.fpr.toFixed(3),
    r.metrics.coverage.recall.toFixed(3),
    r.metrics.coverage.fpr.toFixed(3),
    r.costPer1000.toFixed(4),
    prices.latencyMs === undefined ? "-" : r.latencyMs.toFixed(1),
  ]);
  const widths = header.map((h, k) => Math.max(h.length, ...lines.map((l) => (l[k] as string).length)));
  const row = (cells: string[]) =>
    `| ${cells.map((c, k) => (k === 0 ? c.padEnd(widths[k] as number) : c.padStart(widths[k] as number))).join(" | ")} |`;
  const rule = `|${widths.map((w, k) => (k === 0 ? `${"-".repeat(w + 1)}-` : `${"-".repeat(w + 1)}:`)).join("|")}|`;
  return [row(header), rule, ...lines.map(row)].join("\n");
}

/** What {@link scoreForCascade} measured. */
export interface CascadeScoring {
  scores: CascadeScores;
  /** Mean wall-clock milliseconds per check of each stage's detector. */
  latencyMs: [number, number];
}

/**
 * Score every example of a labelled dataset with both stages' detectors, timing each check: the input of
 * {@link calibrateCascade} and {@link evaluateCascade}. Stage 1 runs one check at a time, after one untimed
 * warm-up check (its first check loads data); stage 2 runs `concurrency` checks at once (default 1: latencies
 * without queueing at the endpoint).
 * @throws InvalidValueError for a bad dataset or detectors; InvalidScoreError for a score outside [0, 1];
 *   whatever a detector throws
 */
export async function scoreForCascade(
  dataset: readonly NpovExample<CheckInput>[],
  detectors: readonly [ErrorDetector, ErrorDetector],
  options: { concurrency?: number; onProgress?: (done: number, total: number) => void } = {},
): Promise<CascadeScoring> {
  checkDataset(dataset);
  checkDetectors([...detectors], "detectors");
  if (detectors.length !== 2) throw new InvalidValueError("detectors", "give two detectors: [stage 1, stage 2].");
  requireRecord(options, "options", "{concurrency?, onProgress?}");
  const concurrency = requireNumber(options.concurrency ?? 1, "options.concurrency", {
    min: 1,
    max: 1000,
    integer: true,
  });
  const n = dataset.length;
  const perType = () => ({
    stage1: new Array<number>(n).fill(0),
    stage2: new Array<number>(n).fill(0),
    labels: new Array<boolean | undefined>(n).fill(undefined),
  });
  const scores: CascadeScores = { hallucination: perType(), coverage: perType() };
  const ms = [0, 0];
  let done = 0;
  const run = async (stage: 0 | 1, i: number) => {
    const e = dataset[i] as NpovExample<CheckInput>;
    const detector = detectors[stage];
    const started = performance.now();
    const r = checkScores(detector.name, await detector.detect(e.input, e.response));
    ms[stage] = (ms[stage] as number) + performance.now() - started;
    for (const t of TYPES) {
      (scores[t][stage === 0 ? "stage1" : "stage2"] as number[])[i] = r[t];
      (scores[t].labels as Array<boolean | undefined>)[i] = e.labels?.[t];
    }
    done++;
    options.onProgress?.(done, 2 * n);
  };
  // Stage 1 is a local detector whose first check loads its data (lexicons, vectors): load it before timing.
  if (n > 0) {
    const first = dataset[0] as NpovExample<CheckInput>;
    await detectors[0].detect(first.input, first.response);
  }
  for (let i = 0; i < n; i++) await run(0, i);
  let next = 0;
  const worker = async () => {
    while (next < n) await run(1, next++);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, n) }, worker));
  return { scores, latencyMs: [(ms[0] as number) / Math.max(1, n), (ms[1] as number) / Math.max(1, n)] };
}
