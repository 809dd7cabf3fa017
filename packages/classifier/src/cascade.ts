/**
 * The cascade guard: stages of detectors, cheapest first. A stage decides an error type when its score lies
 * outside the type's uncertainty band `[low, high)` -- below `low` no error, at or above `high` an error --
 * and hands the types it is unsure about to the next stage; the last stage decides what is left with its
 * thresholds. So a millisecond data-free detector answers most checks and an LLM judge only the uncertain
 * ones. Every verdict records, per stage run, its detector, latency, stated cost and what it decided.
 * Stored as `{"format": "npov-guard/2", "stages": [...]}`; bands come from `npov calibrate-guard --cascade`.
 */
import { type CheckInput, describe, type ErrorDetector, InvalidValueError } from "@npov/core";
import {
  checkErrorPolicy,
  checkTimeoutMs,
  createGuard,
  type DetectorSpec,
  type Guard,
  type GuardErrorPolicy,
  type GuardScoredVerdict,
  type GuardThresholds,
  type GuardVerdict,
} from "./guard.js";

/** The error types a guard decides. */
export type GuardErrorType = "hallucination" | "coverage";
const TYPES: readonly GuardErrorType[] = ["hallucination", "coverage"];

/**
 * A stage's uncertainty band for one error type: below `low` the stage passes it, at or above `high` it
 * flags it, in between the next stage decides. `low == high`: no band (this stage decides at that threshold).
 */
export interface CascadeBand {
  low: number;
  high: number;
}

/** One stage of a stored cascade: a detector, and a band per type (every stage but the last) or thresholds (the last). */
export interface CascadeStageConfig {
  detector: DetectorSpec;
  /** Every stage but the last: when it decides on its own. */
  band?: Record<GuardErrorType, CascadeBand>;
  /** The last stage: flag a type when its score is at or above its threshold. */
  thresholds?: GuardThresholds;
  /** Stated USD per check of this stage (e.g. an LLM call's price), recorded in verdicts; default 0. */
  costUsd?: number;
}

/** A stored cascade guard configuration (JSON). */
export interface CascadeGuardConfig {
  format: "npov-guard/2";
  /** At least two stages, cheapest first. */
  stages: CascadeStageConfig[];
  /** How the bands were chosen, e.g. `{ targetRecall: 0.8, maxFpr: 0.2, data: "tune.jsonl", table: [...] }`. */
  calibration?: Record<string, unknown>;
  /** What to do when a stage cannot score the response; default "block" (fail closed). */
  onError?: GuardErrorPolicy;
  /** Longest wait for each stage's detector in milliseconds; default: no limit. */
  timeoutMs?: number;
}

/** What one stage did for a verdict. */
export interface CascadeStageRecord {
  /** 0-based position in the cascade. */
  stage: number;
  detector: string;
  /** Wall-clock milliseconds this stage's check took. */
  ms: number;
  /** The stage's stated cost per check (USD). */
  costUsd: number;
  /** Error types this stage decided. */
  decided: GuardErrorType[];
  /** Error types it handed to the next stage. */
  escalated: GuardErrorType[];
}

/** A cascade guard's verdict: a {@link GuardVerdict} (each type's part from the stage that decided it) plus the stages run. */
export type CascadeVerdict = GuardVerdict & {
  stages: CascadeStageRecord[];
  /** Sum of the stages' stated costs (USD). */
  costUsd: number;
  /** Sum of the stages' milliseconds. */
  ms: number;
};

/** A stage of {@link createCascadeGuard}: a built detector with its band or thresholds. */
export interface CascadeStage {
  detector: ErrorDetector;
  band?: Record<GuardErrorType, CascadeBand>;
  thresholds?: GuardThresholds;
  costUsd?: number;
}

function checkBand(value: unknown, path: string): Record<GuardErrorType, CascadeBand> {
  if (typeof value !== "object" || value === null)
    throw new InvalidValueError(path, 'must be {"hallucination": {low, high}, "coverage": {low, high}}.');
  const b = value as Record<string, { low?: unknown; high?: unknown } | undefined>;
  for (const t of TYPES) {
    const band = b[t];
    for (const k of ["low", "high"] as const)
      if (typeof band?.[k] !== "number" || !Number.isFinite(band[k]))
        throw new InvalidValueError(`${path}.${t}.${k}`, `must be a finite number, got ${describe(band?.[k])}.`);
    if ((band?.low as number) > (band?.high as number))
      throw new InvalidValueError(`${path}.${t}`, `low (${band?.low}) must not be above high (${band?.high}).`);
  }
  return value as Record<GuardErrorType, CascadeBand>;
}

function checkThresholds(value: unknown, path: string): GuardThresholds {
  for (const t of TYPES) {
    const v = (value as Record<string, unknown> | undefined)?.[t];
    if (typeof v !== "number" || !Number.isFinite(v))
      throw new InvalidValueError(`${path}.${t}`, `must be a finite number, got ${describe(v)}.`);
  }
  return value as GuardThresholds;
}

function checkCost(value: unknown, path: string): number {
  if (value === undefined) return 0;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0)
    throw new InvalidValueError(path, `must be a number of USD >= 0, got ${describe(value)}.`);
  return value;
}

/**
 * Check a cascade configuration: format, at least two stages, each with a detector method, a band (every
 * stage but the last) or thresholds (the last), a valid cost, `onError` and `timeoutMs`.
 * @throws InvalidValueError naming the bad field
 */
export function checkCascadeGuardConfig(value: unknown, path = "config"): CascadeGuardConfig {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new InvalidValueError(path, 'must be an object {"format": "npov-guard/2", "stages": [...]}.');
  const c = value as Partial<CascadeGuardConfig>;
  if (c.format !== "npov-guard/2") throw new InvalidValueError(`${path}.format`, 'must be "npov-guard/2".');
  if (!Array.isArray(c.stages) || c.stages.length < 2)
    throw new InvalidValueError(
      `${path}.stages`,
      "must list at least two stages (a single detector is a npov-guard/1 config).",
    );
  c.stages.forEach((s, i) => {
    const at = `${path}.stages[${i}]`;
    if (typeof s !== "object" || s === null) throw new InvalidValueError(at, "must be {detector, band | thresholds}.");
    if (typeof s.detector?.method !== "string")
      throw new InvalidValueError(`${at}.detector.method`, 'is missing: name a detector method, e.g. "support".');
    const last = i === (c.stages as unknown[]).length - 1;
    if (last) {
      if (s.band !== undefined)
        throw new InvalidValueError(
          `${at}.band`,
          "the last stage decides everything left: give it thresholds, no band.",
        );
      checkThresholds(s.thresholds, `${at}.thresholds`);
    } else {
      if (s.thresholds !== undefined)
        throw new InvalidValueError(`${at}.thresholds`, "only the last stage has thresholds; give this stage a band.");
      checkBand(s.band, `${at}.band`);
    }
    checkCost(s.costUsd, `${at}.costUsd`);
  });
  checkErrorPolicy(c.onError, `${path}.onError`);
  checkTimeoutMs(c.timeoutMs, `${path}.timeoutMs`);
  return c as CascadeGuardConfig;
}

/** A guard for the last stage of a cascade and a "band guard" (flags at `high`) for the others. */
function stageGuard(
  stage: CascadeStage,
  last: boolean,
  options: { maxEvidence?: number; onError?: GuardErrorPolicy; timeoutMs?: number },
): Guard {
  const thresholds = last
    ? (stage.thresholds as GuardThresholds)
    : {
        hallucination: (stage.band as Record<GuardErrorType, CascadeBand>).hallucination.high,
        coverage: (stage.band as Record<GuardErrorType, CascadeBand>).coverage.high,
      };
  return createGuard({ detector: stage.detector, thresholds, ...options });
}

/**
 * A cascade guard from built detectors (see the module comment). Checks go through the stages in order; a
 * stage that cannot score the response ends the check like a single guard's failure does (blocked with the
 * reason under "block", the default; thrown under "throw"), recording the stages run so far.
 * `thresholds` of the returned guard are the last stage's.
 * @throws InvalidValueError for fewer than two stages, a missing band or thresholds, or a bad option
 */
export function createCascadeGuard(options: {
  stages: readonly CascadeStage[];
  maxEvidence?: number;
  onError?: GuardErrorPolicy;
  timeoutMs?: number;
}): Guard & { check(input: CheckInput, response: string): Promise<CascadeVerdict> } {
  if (typeof options !== "object" || options === null || !Array.isArray(options.stages) || options.stages.length < 2)
    throw new InvalidValueError("stages", "give createCascadeGuard at least two stages, cheapest first.");
  const onError = checkErrorPolicy(options.onError);
  const timeoutMs = checkTimeoutMs(options.timeoutMs);
  const n = options.stages.length;
  const stages = options.stages.map((s, i) => {
    const last = i === n - 1;
    if (typeof s?.detector?.detect !== "function")
      throw new InvalidValueError(`stages[${i}].detector`, "give an ErrorDetector (an object with a detect method).");
    const band = last ? undefined : checkBand(s.band, `stages[${i}].band`);
    if (last) checkThresholds(s.thresholds, `stages[${i}].thresholds`);
    return {
      band,
      costUsd: checkCost(s.costUsd, `stages[${i}].costUsd`),
      name: s.detector.name,
      guard: stageGuard(s, last, {
        ...(options.maxEvidence === undefined ? {} : { maxEvidence: options.maxEvidence }),
        onError,
        ...(timeoutMs === undefined ? {} : { timeoutMs }),
      }),
    };
  });
  const name = stages.map((s) => s.name).join(">");
  const lastThresholds = (options.stages[n - 1] as CascadeStage).thresholds as GuardThresholds;
  return {
    thresholds: { ...lastThresholds },
    async check(input, response): Promise<CascadeVerdict> {
      const records: CascadeStageRecord[] = [];
      const decidedBy: Partial<Record<GuardErrorType, GuardScoredVerdict>> = {};
      let open: GuardErrorType[] = [...TYPES];
      for (const [i, stage] of stages.entries()) {
        const started = performance.now();
        // Developer errors (an invalid input) are thrown by the first stage, as a single guard throws them.
        const verdict = await stage.guard.check(input, response);
        const ms = performance.now() - started;
        const record: CascadeStageRecord = {
          stage: i,
          detector: stage.name,
          ms,
          costUsd: stage.costUsd,
          decided: [],
          escalated: [],
        };
        records.push(record);
        if (verdict.error) {
          const totals = sum(records);
          return { ...verdict, detector: name, stages: records, ...totals };
        }
        for (const t of open) {
          const score = verdict[t].score;
          const band = stage.band;
          if (band === undefined || score < band[t].low || score >= band[t].high) {
            record.decided.push(t);
            decidedBy[t] = verdict;
          } else record.escalated.push(t);
        }
        open = record.escalated;
        if (open.length === 0) break;
      }
      const h = (decidedBy.hallucination as GuardScoredVerdict).hallucination;
      const c = (decidedBy.coverage as GuardScoredVerdict).coverage;
      return {
        allow: !h.flagged && !c.flagged,
        error: false,
        hallucination: h,
        coverage: c,
        detector: name,
        stages: records,
        ...sum(records),
      };
    },
  };
}

function sum(records: readonly CascadeStageRecord[]): { costUsd: number; ms: number } {
  return {
    costUsd: records.reduce((a, r) => a + r.costUsd, 0),
    ms: records.reduce((a, r) => a + r.ms, 0),
  };
}
