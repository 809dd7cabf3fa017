/**
 * The guard API for chatbot pipelines: `createGuard({detector, thresholds})`, then
 * `guard.check(input, response)` -> allow or not, with per-error scores, thresholds and evidence.
 * Evidence is only given for a flagged error and only lists items that push the score up, so a reason
 * never disagrees with the verdict. Deterministic: the same input gives the same verdict.
 * `loadGuard(config)` builds a guard from a stored configuration (guard.json) through a table of detector
 * methods (`BUILTIN_DETECTOR_METHODS`), which applications may extend with their own.
 */

import { modelFileOptions } from "@npov/autograd";
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
import {
  alignErrorDetector,
  defaultWordVectors,
  rougeErrorDetector,
  SoftMatcher,
  softErrorDetector,
  supportErrorDetector,
} from "@npov/rouge";
import { SalienceDetector, type SalienceVariant } from "@npov/salience";
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
  /** e.g. "rouge", "soft", "align", "salience", "classifier", "stacked". */
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
 * The detector methods npov ships: data-free (rouge, soft, align, support -- the best on chatbot-style
 * text, docs/results.md), model-based (salience, classifier), stacked.
 */
export const BUILTIN_DETECTOR_METHODS: DetectorMethods = {
  rouge: () => rougeErrorDetector(),
  soft: () => softErrorDetector(defaultSoftMatcher()),
  align: () => alignErrorDetector(defaultSoftMatcher()),
  support: () => supportErrorDetector(),
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
  stacked: async (spec) => {
    if (spec.stacked === undefined)
      throw new InvalidValueError(
        "stacked",
        "the stacked method needs a stacked model file (from npov train-stacked).",
      );
    // The sources must match those the model was trained on: ROUGE, plus the classifier when a model is given.
    const sources: ErrorDetector[] = [rougeErrorDetector()];
    if (spec.model !== undefined) sources.push(await classifierOf(spec));
    return stackedDetector(loadStacked(spec.stacked), sources);
  },
};

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

/** The stored guard configuration (JSON). */
export interface GuardConfig {
  format: "npov-guard/1";
  /** Which detector: a method name (e.g. "align", "rouge", "classifier" with a model, "stacked" with a file). */
  detector: DetectorSpec;
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

/**
 * A guard from a stored configuration: a guard.json path (loaded and validated with
 * {@link loadGuardConfig}) or a config object; its detector is built from `methods` (default: the built-in
 * methods; pass an extended table for methods of your own).
 * @throws FileReadError, FileFormatError, InvalidValueError
 */
export async function loadGuard(
  config: GuardConfig | string,
  options: { methods?: DetectorMethods; maxEvidence?: number } = {},
): Promise<Guard> {
  const value = typeof config === "string" ? loadGuardConfig(config) : config;
  const detector = await createDetector(value.detector, options.methods);
  return createGuard({
    detector,
    thresholds: value.thresholds,
    ...(options.maxEvidence === undefined ? {} : { maxEvidence: options.maxEvidence }),
  });
}
