/** Detectors the CLI can run, with their JSON shapes and adapters to @npov/eval. */
import {
  createGuard,
  type Guard,
  type GuardConfig,
  loadStacked,
  stackedDetector,
  YesNoClassifier,
} from "@npov/classifier";
import type { ErrorDetector, NpovInput } from "@npov/core";
import type { Detector, DetectorOutput } from "@npov/eval";
import {
  alignErrorDetector,
  alignResponse,
  defaultWordVectors,
  rougeErrorDetector,
  SoftMatcher,
  softErrorDetector,
  softRouge,
} from "@npov/rouge";
import { SalienceDetector, type SalienceResult } from "@npov/salience";
import { UsageError } from "./util.js";

/** The `"salience"` object of `npov check --json`. */
export function salienceJson(r: SalienceResult) {
  return {
    hallucination: r.hallucination,
    coverage: r.coverage,
    variant: r.variant,
    perspectives: r.perspectives,
    words: {
      response: r.words.response.map((w) => ({
        text: w.text,
        start: w.start,
        end: w.end,
        attribution: w.attribution,
        hallucination: w.hallucination,
      })),
      arguments: r.words.arguments.map((w) => ({
        perspective: w.perspective,
        argument: w.argument,
        text: w.text,
        start: w.start,
        end: w.end,
        contribution: w.contribution,
        coverage: w.coverage,
      })),
    },
  };
}

/** Load the salience detector named by --model (default: the shipped models/npov-gen). */
export async function loadSalience(model: string | undefined, variant = "grad-x-input"): Promise<SalienceDetector> {
  if (variant !== "grad-x-input" && variant !== "grad-norm")
    throw new UsageError(`--variant must be grad-x-input or grad-norm, got "${variant}".`);
  return SalienceDetector.fromPretrained(model, { variant });
}

/** Salience as an evaluation detector (example- and word-level scores). */
export function salienceEvalDetector(detector: SalienceDetector): Detector {
  return {
    name: "salience",
    async score(input: NpovInput, response: string): Promise<DetectorOutput> {
      const r = await detector.score(input, response);
      return {
        hallucination: r.hallucination,
        coverage: r.coverage,
        words: {
          response: r.words.response.map((w) => ({ start: w.start, end: w.end, score: w.hallucination })),
          arguments: r.words.arguments.map((w) => ({
            perspective: w.perspective,
            argument: w.argument,
            start: w.start,
            end: w.end,
            score: w.coverage,
          })),
        },
      };
    },
  };
}

/** Load the YES/NO classifier named by --model (default: the shipped models/npov-cls), with an optional soft prompt. */
export async function loadClassifier(model: string | undefined, softPrompt?: string): Promise<YesNoClassifier> {
  return YesNoClassifier.fromPretrained(model, softPrompt === undefined ? {} : { softPrompt });
}

/** The classifier as an evaluation detector. */
export function classifierEvalDetector(classifier: YesNoClassifier): Detector {
  return {
    name: "classifier",
    async score(input: NpovInput, response: string): Promise<DetectorOutput> {
      const r = await classifier.detect(input, response);
      return { hallucination: r.hallucination, coverage: r.coverage };
    },
  };
}

/** An ErrorDetector by method name: rouge, salience, classifier, or stacked (over rouge features unless told). */
export async function errorDetector(
  method: string,
  options: { model?: string; softPrompt?: string; stacked?: string },
): Promise<ErrorDetector> {
  if (method === "rouge") return rougeErrorDetector();
  if (method === "soft") return softErrorDetector(defaultMatcher());
  if (method === "align") return alignErrorDetector(defaultMatcher());
  if (method === "salience") return loadSalience(options.model);
  if (method === "classifier") return loadClassifier(options.model, options.softPrompt);
  if (method === "stacked") {
    if (options.stacked === undefined) throw new UsageError("stacked needs --stacked FILE (from npov train-stacked).");
    const sources: ErrorDetector[] = [rougeErrorDetector()];
    if (options.model !== undefined) sources.push(await loadClassifier(options.model, options.softPrompt));
    return stackedDetector(loadStacked(options.stacked), sources);
  }
  throw new UsageError(`unknown method "${method}"; use rouge, soft, align, salience, classifier or stacked.`);
}

/** A guard from a stored configuration. */
export async function guardFromConfig(config: GuardConfig): Promise<Guard> {
  const detector = await errorDetector(config.detector.method, {
    ...(config.detector.model === undefined ? {} : { model: config.detector.model }),
    ...(config.detector.softPrompt === undefined ? {} : { softPrompt: config.detector.softPrompt }),
    ...(config.detector.stacked === undefined ? {} : { stacked: config.detector.stacked }),
  });
  return createGuard({ detector, thresholds: config.thresholds });
}

let sharedMatcher: SoftMatcher | undefined;
/** The soft matcher with the shipped vectors (threshold 0.7, chosen on Perspectrum dev), shared. */
export function defaultMatcher(): SoftMatcher {
  if (sharedMatcher === undefined) {
    const vectors = defaultWordVectors();
    sharedMatcher = new SoftMatcher(vectors === undefined ? {} : { vectors, vectorThreshold: 0.7 });
  }
  return sharedMatcher;
}

/** Soft ROUGE or alignment as evaluation detectors (word level from soft ROUGE). */
export function softEvalDetector(method: "soft" | "align"): Detector {
  return {
    name: method,
    score(input: NpovInput, response: string): DetectorOutput {
      if (method === "align") {
        const r = alignResponse(input, response, defaultMatcher());
        return { hallucination: r.hallucination, coverage: r.coverage };
      }
      const r = softRouge(input, response, defaultMatcher());
      return {
        hallucination: r.hallucination,
        coverage: r.coverage,
        words: {
          response: r.words.map((w) => ({ start: w.start, end: w.end, score: w.hallucination })),
          arguments: [],
        },
      };
    },
  };
}
