/**
 * The guard API for chatbot pipelines: `createGuard({detector, thresholds})`, then
 * `guard.check(input, response)` -> allow or not, with per-error scores, thresholds and evidence.
 * Evidence is only given for a flagged error and only lists items that push the score up, so a reason
 * never disagrees with the verdict. Deterministic: the same input gives the same verdict.
 * A guard fails closed: a response it cannot score (nothing to score, a detector error, a score that is
 * not a number in [0, 1], a timeout) is blocked with a reason, unless its `onError` policy says "throw".
 * `loadGuard(config)` builds a guard from a stored configuration (guard.json) through a table of detector
 * methods (`BUILTIN_DETECTOR_METHODS`), which applications may extend with their own.
 */

import { modelFileOptions } from "@npov/autograd";
import {
  type CheckInput,
  describe,
  type ErrorDetector,
  type ErrorScores,
  InvalidScoreError,
  InvalidValueError,
  NotTextError,
  NpovError,
  splitSentences,
  type UncoveredArgument,
  type UnsupportedSpan,
  validateCheckInput,
  validateResponse,
} from "@npov/core";
import { NliDetector, type NliModelOptions, type NliScoringOptions } from "@npov/nli";
import {
  alignErrorDetector,
  defaultWordVectors,
  rouge1PrecisionDetector,
  rougeErrorDetector,
  SoftMatcher,
  softErrorDetector,
  supportErrorDetector,
} from "@npov/rouge";
import { SalienceDetector, type SalienceVariant } from "@npov/salience";
import { DetectorFailedError, GuardTimeoutError } from "./errors.js";
import { loadStacked, stackedDetector } from "./stacked.js";
import { YesNoClassifier } from "./yesno.js";

export interface GuardThresholds {
  hallucination: number;
  coverage: number;
}

/**
 * Which detector to build and from what: a method name of a {@link DetectorMethods} table plus the files
 * it loads (a model folder, a soft prompt, a stacked model); the `detector` object of a guard config.
 */
export interface DetectorSpec {
  /** e.g. "rouge", "soft", "align", "support", "salience", "classifier", "nli", "stacked". */
  method: string;
  /** Model folder (or hub id) of model-based methods; default: the model npov ships for the method. */
  model?: string;
  /** Soft-prompt file of the classifier (from `npov train-classifier`). */
  softPrompt?: string;
  /** Stacked model file (from `npov train-stacked`); required by "stacked". */
  stacked?: string;
  /** Salience variant: "grad-x-input" (default) or "grad-norm". */
  variant?: string;
  /** Weights variant of the model (transformers.js naming: fp32, fp16, q8, int8, uint8, q4, q4f16, bnb4). */
  dtype?: string;
  /** Decoder file base name, e.g. "decoder_model_merged" (transformers.js's `model_file_name`). */
  modelFile?: string;
  /** nli: pairs per model run (default 16). */
  nliBatchSize?: number;
  /** nli: most sentence pairs one check may score (default 2,000). */
  nliMaxPairs?: number;
  /** nli: a pair longer than the model's context is cut and reported ("report", default) or refused ("error"). */
  nliTruncation?: string;
  /** Settings of methods added by applications, e.g. `endpoint: "http://localhost:8000/v1"`. */
  [setting: string]: unknown;
}

/** Builds a detector from its spec (may load models, hence async). */
export type DetectorFactory = (spec: DetectorSpec) => ErrorDetector | Promise<ErrorDetector>;

/** Detector methods by name; extend {@link BUILTIN_DETECTOR_METHODS} with `{...BUILTIN_DETECTOR_METHODS, mine}`. */
export type DetectorMethods = Readonly<Record<string, DetectorFactory>>;

let sharedMatcher: SoftMatcher | undefined;
/**
 * The soft matcher with the shipped word vectors (models/npov-vectors; vector threshold 0.7, chosen on
 * Perspectrum dev), created once and shared because loading the vectors takes a while.
 */
export function defaultSoftMatcher(): SoftMatcher {
  if (sharedMatcher === undefined) {
    const vectors = defaultWordVectors();
    sharedMatcher = new SoftMatcher(vectors === undefined ? {} : { vectors, vectorThreshold: 0.7 });
  }
  return sharedMatcher;
}

/** The YES/NO classifier of a spec (default model: the shipped models/npov-cls). */
function classifierOf(spec: DetectorSpec): Promise<YesNoClassifier> {
  return YesNoClassifier.fromPretrained(spec.model, {
    ...modelFileOptions(spec),
    ...(spec.softPrompt === undefined ? {} : { softPrompt: spec.softPrompt }),
  });
}

/**
 * The nli detector of a spec: `model` is required (npov ships no NLI model), `dtype`/`modelFile` choose the
 * weights file, `nliBatchSize`, `nliMaxPairs` and `nliTruncation` the run.
 * @throws InvalidValueError naming the spec field; the errors of NliDetector.fromPretrained
 */
function nliOf(spec: DetectorSpec): Promise<NliDetector> {
  if (spec.model === undefined)
    throw new InvalidValueError(
      "model",
      "the nli method needs an NLI model: give --model (or the guard config's detector.model) a folder or hub id of a sequence classifier with entailment/neutral/contradiction labels, e.g. Xenova/nli-deberta-v3-xsmall.",
    );
  const integer = (key: "nliBatchSize" | "nliMaxPairs"): number | undefined => {
    const v = spec[key];
    if (v !== undefined && (typeof v !== "number" || !Number.isInteger(v) || v < 1))
      throw new InvalidValueError(key, `must be an integer >= 1, got ${describe(v)}.`);
    return v;
  };
  const truncation = spec.nliTruncation;
  if (truncation !== undefined && truncation !== "report" && truncation !== "error")
    throw new InvalidValueError("nliTruncation", `must be "report" or "error", got ${describe(truncation)}.`);
  const [batchSize, maxPairs] = [integer("nliBatchSize"), integer("nliMaxPairs")];
  const options: NliModelOptions & NliScoringOptions = {
    ...modelFileOptions(spec),
    ...(batchSize === undefined ? {} : { batchSize }),
    ...(maxPairs === undefined ? {} : { maxPairs }),
    ...(truncation === undefined ? {} : { truncation }),
  };
  return NliDetector.fromPretrained(spec.model, options);
}

/**
 * The detector methods npov ships: data-free (rouge, soft, align, support -- the best on chatbot-style
 * text, docs/results.md), model-based (salience, classifier; nli with an NLI model), stacked.
 */
export const BUILTIN_DETECTOR_METHODS: DetectorMethods = {
  rouge: () => rougeErrorDetector(),
  soft: () => softErrorDetector(defaultSoftMatcher()),
  align: () => alignErrorDetector(defaultSoftMatcher()),
  support: () => supportErrorDetector(),
  "rouge1-precision": () => rouge1PrecisionDetector(),
  salience: (spec) => {
    const variant = spec.variant ?? "grad-x-input";
    if (variant !== "grad-x-input" && variant !== "grad-norm")
      throw new InvalidValueError("variant", `must be "grad-x-input" or "grad-norm", got "${variant}".`);
    return SalienceDetector.fromPretrained(spec.model, {
      variant: variant as SalienceVariant,
      ...modelFileOptions(spec),
    });
  },
  classifier: classifierOf,
  nli: nliOf,
  stacked: async (spec) => {
    if (spec.stacked === undefined)
      throw new InvalidValueError(
        "stacked",
        "the stacked method needs a stacked model file (from npov train-stacked).",
      );
    // The sources must match those the model was trained on: ROUGE, plus the classifier when the model reads
    // classifier features (the shipped classifier unless a model is given) or a model is given.
    const model = loadStacked(spec.stacked);
    const readsClassifier = [model.hallucination, model.coverage].some((m) =>
      m.features.some((f) => f.startsWith("classifier.")),
    );
    const sources: ErrorDetector[] = [rougeErrorDetector()];
    if (spec.model !== undefined || readsClassifier) sources.push(await classifierOf(spec));
    return stackedDetector(model, sources);
  },
};

/**
 * npov's recommended detector, the default of every command, guard and integration: `support`, the best
 * data-free method on every response shape measured (docs/results.md), and never below the plain ROUGE-1
 * baseline there.
 */
export const DEFAULT_DETECTOR_METHOD = "support";

/**
 * Build the detector a spec names from `methods` (default: the built-in methods).
 * @throws InvalidValueError for an unknown method, or whatever loading the method's files throws.
 */
export async function createDetector(
  spec: DetectorSpec,
  methods: DetectorMethods = BUILTIN_DETECTOR_METHODS,
): Promise<ErrorDetector> {
  const factory = Object.hasOwn(methods, spec.method) ? methods[spec.method] : undefined;
  if (factory === undefined)
    throw new InvalidValueError(
      "method",
      `unknown detector method "${spec.method}"; use one of ${Object.keys(methods).join(", ")}.`,
    );
  return factory(spec);
}

/**
 * What a guard does when it cannot score a response (see {@link Guard.check}): `"block"` (the default)
 * answers `{allow: false, error: true, reason}`; `"throw"` rethrows the typed error instead, for callers
 * that handle failures themselves.
 */
export type GuardErrorPolicy = "block" | "throw";

/** The error policies, for validation and help texts. */
export const GUARD_ERROR_POLICIES: readonly GuardErrorPolicy[] = ["block", "throw"];

/** The stored guard configuration (JSON). */
export interface GuardConfig {
  format: "npov-guard/1";
  /** Which detector: a method name (e.g. "align", "rouge", "classifier" with a model, "stacked" with a file). */
  detector: DetectorSpec;
  thresholds: GuardThresholds;
  /** How the thresholds were chosen, e.g. `{ rule: "fpr<=0.05", data: "dev.jsonl", n: 400 }`. */
  calibration?: Record<string, unknown>;
  /** What to do when a response cannot be scored; default "block" (fail closed). */
  onError?: GuardErrorPolicy;
  /** Longest wait for the detector in milliseconds (a positive integer); default: no limit. */
  timeoutMs?: number;
}

/** Why a guard could not score a response: the typed error's stable code and message (and field, if known). */
export interface GuardFailure {
  /** e.g. `NOTHING_TO_SCORE`, `EMPTY_TEXT`, `INVALID_SCORE`, `GUARD_TIMEOUT`, `DETECTOR_FAILED`, or the detector's own code. */
  code: string;
  message: string;
  /** The field the error is about (e.g. `response`, `hallucination`), when known. */
  path?: string;
}

/** The verdict on a scored response: allowed when neither score reaches its threshold. */
export interface GuardScoredVerdict {
  allow: boolean;
  /** `false`: the detector scored the response. */
  error: false;
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

/** The verdict on a response the guard could not score: always blocked, with the reason. */
export interface GuardErrorVerdict {
  allow: false;
  /** `true`: the response was not scored; `reason` says why. */
  error: true;
  reason: GuardFailure;
  detector: string;
}

/** A guard's answer; narrow on `error` to read scores (`false`) or the failure `reason` (`true`). */
export type GuardVerdict = GuardScoredVerdict | GuardErrorVerdict;

export interface Guard {
  readonly thresholds: GuardThresholds;
  /**
   * Check a response against the curated input.
   *
   * Throws (a developer error, whatever the policy): `input` is not a valid {@link CheckInput}
   * (validateCheckInput's NotTextError, EmptyTextError, NoArgumentsError, TooFewPerspectivesError,
   * InvalidValueError, NothingToScoreError for an argument without a word) or `response` is not a string
   * (NotTextError) -- the curated input and the call are the application's, not the model's.
   *
   * Fails closed on everything about the response and the detector: an empty response (EMPTY_TEXT), one
   * with no word (NOTHING_TO_SCORE, also when the detector throws it, e.g. only stop words), a detector
   * that throws (its NpovError's code, else DETECTOR_FAILED), a score that is not a finite number in
   * [0, 1] (INVALID_SCORE), no answer within `timeoutMs` (GUARD_TIMEOUT). Under the default policy
   * ("block") these give `{allow: false, error: true, reason: {code, message}}`; under "throw" the typed
   * error is thrown.
   */
  check(input: CheckInput, response: string): Promise<GuardVerdict>;
}

function checkThreshold(name: string, v: unknown): number {
  if (typeof v !== "number" || !Number.isFinite(v))
    throw new InvalidValueError(`thresholds.${name}`, `must be a finite number, got ${describe(v)}.`);
  return v;
}

/**
 * Sentences of the response ranked by the share of their unsupported words (only sentences with some): each
 * span inside a sentence counts its score once per word it covers, so word spans (rouge) and whole-sentence
 * spans (support) rank sentences alike -- a sentence span's sentence scores what the span scores.
 * Sentences come in text order without overlapping, so one pass over the words sorted by start finds each
 * sentence's words: n log n in all (scanning every word for each sentence took minutes on a 4 MB response).
 */
function unsupportedSentences(response: string, words: UnsupportedSpan[]): UnsupportedSpan[] {
  // Word positions in `words`, ordered by where the word starts.
  const byStart = words
    .map((_, k) => k)
    .sort((a, b) => (words[a] as UnsupportedSpan).start - (words[b] as UnsupportedSpan).start);
  let next = 0;
  return splitSentences(response)
    .map((s) => {
      // Words starting before this sentence lie in an earlier one (or between two): never inside a later one.
      while (next < byStart.length && (words[byStart[next] as number] as UnsupportedSpan).start < s.start) next++;
      const inside: number[] = [];
      for (let k = next; k < byStart.length; k++) {
        const w = words[byStart[k] as number] as UnsupportedSpan;
        if (w.start > s.end) break;
        if (w.end <= s.end) inside.push(byStart[k] as number);
      }
      // Summed in the given order, so the score is the same number to the last bit.
      inside.sort((a, b) => a - b);
      const wordCount = (text: string) => text.split(/\s+/).filter((t) => /[\p{L}\p{N}]/u.test(t)).length;
      let sum = 0;
      for (const k of inside) {
        const w = words[k] as UnsupportedSpan;
        sum += w.score * Math.max(1, wordCount(response.slice(w.start, w.end)));
      }
      const total = wordCount(s.text) || 1;
      return { text: s.text, start: s.start, end: s.end, score: Math.min(1, sum / total) };
    })
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || a.start - b.start);
}

// Sums of [0, 1] terms can land a rounding error outside the range; such scores are clamped, not refused.
const SCORE_TOLERANCE = 1e-9;

/** The detector's scores, checked: finite numbers in [0, 1]. @throws InvalidScoreError */
function checkScores(r: unknown, detector: string): ErrorScores {
  if (typeof r !== "object" || r === null) throw new InvalidScoreError(detector, "result", r);
  const scores = r as ErrorScores;
  for (const field of ["hallucination", "coverage"] as const) {
    const v: unknown = scores[field];
    if (typeof v !== "number" || !Number.isFinite(v) || v < -SCORE_TOLERANCE || v > 1 + SCORE_TOLERANCE)
      throw new InvalidScoreError(detector, field, v);
  }
  return {
    ...scores,
    hallucination: Math.min(1, Math.max(0, scores.hallucination)),
    coverage: Math.min(1, Math.max(0, scores.coverage)),
  };
}

/**
 * `work`, or a GuardTimeoutError after `ms`. A timer cannot interrupt synchronous work on this thread: it
 * bounds waiting on asynchronous detectors (endpoint calls, a promise that never settles); the server's
 * GuardPool enforces the limit on any detector by ending its worker thread.
 */
function withTimeout<T>(work: Promise<T>, ms: number | undefined, detector: string): Promise<T> {
  if (ms === undefined) return work;
  // A late failure of abandoned work must not surface as an unhandled rejection.
  work.catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new GuardTimeoutError(detector, ms)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** Check an `onError` value. @throws InvalidValueError */
export function checkErrorPolicy(value: unknown, path = "onError"): GuardErrorPolicy {
  if (value === undefined) return "block";
  if (typeof value !== "string" || !(GUARD_ERROR_POLICIES as readonly string[]).includes(value))
    throw new InvalidValueError(path, `must be "block" or "throw", got ${JSON.stringify(value) ?? String(value)}.`);
  return value as GuardErrorPolicy;
}

/** Check a `timeoutMs` value: undefined (no limit) or a positive integer. @throws InvalidValueError */
export function checkTimeoutMs(value: unknown, path = "timeoutMs"): number | undefined {
  if (value === undefined) return undefined;
  // setTimeout holds at most 2^31 - 1 ms (about 24.8 days); beyond that it fires at once.
  if (typeof value !== "number" || !Number.isInteger(value) || value <= 0 || value > 2 ** 31 - 1)
    throw new InvalidValueError(
      path,
      `must be a whole number of milliseconds from 1 to 2147483647, got ${String(value)}.`,
    );
  return value;
}

/**
 * Create a guard: flag hallucination when its score >= threshold, same for coverage. It fails closed (see
 * {@link Guard.check}): `onError` ("block", the default, or "throw") decides what an unscorable response
 * gives, `timeoutMs` bounds the wait for an asynchronous detector.
 * @throws InvalidValueError for non-finite thresholds, an unknown `onError` or a bad `timeoutMs`
 */
export function createGuard(options: {
  detector: ErrorDetector;
  thresholds: GuardThresholds;
  maxEvidence?: number;
  onError?: GuardErrorPolicy;
  timeoutMs?: number;
}): Guard {
  if (typeof options !== "object" || options === null)
    throw new InvalidValueError("options", "give createGuard {detector, thresholds}.");
  if (typeof options.thresholds !== "object" || options.thresholds === null)
    throw new InvalidValueError("thresholds", "give {hallucination, coverage} thresholds (numbers).");
  if (typeof options.detector?.detect !== "function")
    throw new InvalidValueError("detector", "give an ErrorDetector (an object with a detect method).");
  const thresholds = {
    hallucination: checkThreshold("hallucination", options.thresholds.hallucination),
    coverage: checkThreshold("coverage", options.thresholds.coverage),
  };
  const max = options.maxEvidence ?? 5;
  const onError = checkErrorPolicy(options.onError);
  const timeoutMs = checkTimeoutMs(options.timeoutMs);
  const detector = options.detector;
  const score = async (clean: CheckInput, response: string): Promise<{ text: string; r: ErrorScores }> => {
    const text = validateResponse(response);
    // Promise.resolve().then turns a detector that throws synchronously into a rejection like the rest.
    const r = await withTimeout(
      Promise.resolve().then(() => detector.detect(clean, text)),
      timeoutMs,
      detector.name,
    );
    return { text, r: checkScores(r, detector.name) };
  };
  return {
    thresholds,
    async check(input, response): Promise<GuardVerdict> {
      const clean = validateCheckInput(input);
      if (typeof response !== "string") throw new NotTextError("response", response);
      let scored: { text: string; r: ErrorScores };
      try {
        scored = await score(clean, response);
      } catch (e) {
        const error = e instanceof NpovError ? e : new DetectorFailedError(detector.name, e);
        if (onError === "throw") throw error;
        return {
          allow: false,
          error: true,
          reason: {
            code: error.code,
            message: error.message,
            ...(error.path === undefined ? {} : { path: error.path }),
          },
          detector: detector.name,
        };
      }
      const { text, r } = scored;
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
        error: false,
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
        detector: detector.name,
      };
    },
  };
}

/**
 * Check a guard configuration as {@link loadGuardConfig} does: format, a detector method, finite thresholds,
 * and a valid `onError` and `timeoutMs` when given. @throws InvalidValueError naming the bad field
 */
export function checkGuardConfig(value: unknown, path = "config"): GuardConfig {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new InvalidValueError(path, 'must be an object {"format": "npov-guard/1", detector, thresholds, ...}.');
  const c = value as Partial<GuardConfig>;
  if (c.format !== "npov-guard/1")
    throw new InvalidValueError(`${path}.format`, 'must be "npov-guard/1" (or "npov-guard/2" for a cascade).');
  if (typeof c.detector?.method !== "string")
    throw new InvalidValueError(`${path}.detector.method`, 'is missing: name a detector method, e.g. "align".');
  for (const key of ["model", "softPrompt", "stacked", "variant", "dtype", "modelFile"] as const) {
    const v = c.detector[key];
    if (v !== undefined && typeof v !== "string")
      throw new InvalidValueError(`${path}.detector.${key}`, `must be text (a name or path), got ${describe(v)}.`);
  }
  for (const k of ["hallucination", "coverage"] as const)
    if (typeof c.thresholds?.[k] !== "number" || !Number.isFinite(c.thresholds[k]))
      throw new InvalidValueError(`${path}.thresholds.${k}`, "must be a finite number.");
  checkErrorPolicy(c.onError, `${path}.onError`);
  checkTimeoutMs(c.timeoutMs, `${path}.timeoutMs`);
  return c as GuardConfig;
}
