/**
 * The guard API for chatbot pipelines: `createGuard({detector, thresholds})`, then
 * `guard.check(input, response)` -> allow or not, with per-error scores, thresholds and evidence.
 * Evidence is only given for a flagged error and only lists items that push the score up, so a reason
 * never disagrees with the verdict. Deterministic: the same input gives the same verdict.
 */
import {
  type ErrorDetector,
  FileFormatError,
  InvalidValueError,
  type NpovInput,
  readTextFile,
  splitSentences,
  type UncoveredArgument,
  type UnsupportedSpan,
  validateInput,
  validateResponse,
  writeFileAtomic,
} from "@npov/core";

export interface GuardThresholds {
  hallucination: number;
  coverage: number;
}

/** The stored guard configuration (JSON). */
export interface GuardConfig {
  format: "npov-guard/1";
  /** Which detector: "rouge", "classifier" (with model), or "stacked" (with stacked file). */
  detector: { method: string; model?: string; softPrompt?: string; stacked?: string };
  thresholds: GuardThresholds;
  /** How the thresholds were chosen, e.g. `{ rule: "fpr<=0.05", data: "dev.jsonl", n: 400 }`. */
  calibration?: Record<string, unknown>;
}

export interface GuardVerdict {
  allow: boolean;
  hallucination: {
    score: number;
    threshold: number;
    flagged: boolean;
    evidence: { sentences: UnsupportedSpan[]; words: UnsupportedSpan[] };
  };
  coverage: {
    score: number;
    threshold: number;
    flagged: boolean;
    evidence: { uncoveredArguments: UncoveredArgument[] };
  };
  detector: string;
}

export interface Guard {
  readonly thresholds: GuardThresholds;
  check(input: NpovInput, response: string): Promise<GuardVerdict>;
}

function checkThreshold(name: string, v: unknown): number {
  if (typeof v !== "number" || !Number.isFinite(v))
    throw new InvalidValueError(`thresholds.${name}`, `must be a finite number, got ${String(v)}.`);
  return v;
}

/** Sentences of the response ranked by the share of their unsupported words (only sentences with some). */
function unsupportedSentences(response: string, words: UnsupportedSpan[]): UnsupportedSpan[] {
  return splitSentences(response)
    .map((s) => {
      const inside = words.filter((w) => w.start >= s.start && w.end <= s.end);
      const total = s.text.split(/\s+/).filter((t) => /[\p{L}\p{N}]/u.test(t)).length || 1;
      return {
        text: s.text,
        start: s.start,
        end: s.end,
        score: Math.min(1, inside.reduce((a, w) => a + w.score, 0) / total),
      };
    })
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || a.start - b.start);
}

/** Create a guard: flag hallucination when its score >= threshold, same for coverage. */
export function createGuard(options: {
  detector: ErrorDetector;
  thresholds: GuardThresholds;
  maxEvidence?: number;
}): Guard {
  const thresholds = {
    hallucination: checkThreshold("hallucination", options.thresholds.hallucination),
    coverage: checkThreshold("coverage", options.thresholds.coverage),
  };
  const max = options.maxEvidence ?? 5;
  return {
    thresholds,
    async check(input, response) {
      const clean = validateInput(input);
      const text = validateResponse(response);
      const r = await options.detector.detect(clean, text);
      const hFlag = r.hallucination >= thresholds.hallucination;
      const cFlag = r.coverage >= thresholds.coverage;
      const words = hFlag
        ? (r.unsupportedSpans ?? []).filter((w) => w.score > 0).sort((a, b) => b.score - a.score || a.start - b.start)
        : [];
      const uncovered = cFlag
        ? (r.uncoveredArguments ?? []).filter((a) => a.score > 0).sort((a, b) => b.score - a.score)
        : [];
      return {
        allow: !hFlag && !cFlag,
        hallucination: {
          score: r.hallucination,
          threshold: thresholds.hallucination,
          flagged: hFlag,
          evidence: {
            sentences: hFlag ? unsupportedSentences(text, words).slice(0, max) : [],
            words: words.slice(0, max * 4),
          },
        },
        coverage: {
          score: r.coverage,
          threshold: thresholds.coverage,
          flagged: cFlag,
          evidence: { uncoveredArguments: uncovered.slice(0, max) },
        },
        detector: options.detector.name,
      };
    },
  };
}

export function saveGuardConfig(file: string, config: GuardConfig): void {
  writeFileAtomic(file, `${JSON.stringify(config, null, 2)}\n`);
}

/** Load and validate a guard configuration. @throws FileReadError, FileFormatError */
export function loadGuardConfig(file: string): GuardConfig {
  const fail = (field: string, message: string) => new FileFormatError([{ file, line: undefined, field, message }]);
  let value: GuardConfig;
  try {
    value = JSON.parse(readTextFile(file));
  } catch (e) {
    if (e instanceof SyntaxError) throw fail("", `invalid JSON: ${e.message}`);
    throw e;
  }
  if (value.format !== "npov-guard/1") throw fail("format", 'expected "npov-guard/1"');
  if (typeof value.detector?.method !== "string") throw fail("detector.method", "missing");
  for (const k of ["hallucination", "coverage"] as const)
    if (typeof value.thresholds?.[k] !== "number" || !Number.isFinite(value.thresholds[k]))
      throw fail(`thresholds.${k}`, "must be a finite number");
  return value;
}
