/**
 * The interface every detector implements (ROUGE, salience, classifiers), so guards, stacked classifiers
 * and evaluation can combine detectors without the detector packages depending on each other.
 */
import type { CheckInput } from "./types.js";
import { requireArray, requireFunction, requireNumber, requireRecord } from "./values.js";

/** A given argument the detector considers (partly) uncovered. */
export interface UncoveredArgument {
  perspective: number;
  argument: number;
  text: string;
  /** Coverage-error score of this argument in [0, 1] (higher = less covered). */
  score: number;
  /** For a sources input: the source and the unit's offsets in its text (`perspective`/`argument` index them). */
  origin?: { source: number; sourceId?: string; start: number; end: number };
  /** Whether this argument is flagged as uncovered: `score` >= the detector's evidence threshold ({@link flagEvidence}). */
  flagged?: boolean;
}

/** A response span (word or sentence) the detector considers unsupported by the arguments. */
export interface UnsupportedSpan {
  text: string;
  start: number;
  end: number;
  /** Hallucination score of this span in [0, 1]. */
  score: number;
  /** Whether this span is flagged as unsupported: `score` >= the detector's evidence threshold ({@link flagEvidence}). */
  flagged?: boolean;
}

/**
 * Every given argument of a per-perspective result as {@link UncoveredArgument} evidence, worst first
 * (the order {@link ErrorScores.uncoveredArguments} promises); `score` is the argument's coverage-error score.
 */
export function rankUncoveredArguments<A extends { text: string }>(
  perspectives: ReadonlyArray<{ arguments: ReadonlyArray<A> }>,
  score: (argument: A) => number,
): UncoveredArgument[] {
  requireArray(perspectives, "perspectives", "an array of perspectives {arguments}").forEach((p, k) => {
    requireArray(requireRecord(p, `perspectives[${k}]`).arguments, `perspectives[${k}].arguments`);
  });
  requireFunction(score, "score", "a function (argument) => number");
  return perspectives
    .flatMap((p, k) => p.arguments.map((a, j) => ({ perspective: k, argument: j, text: a.text, score: score(a) })))
    .sort((a, b) => b.score - a.score);
}

/** A scored response word (hallucination score in [0, 1]) with offsets into the response. */
export interface ResponseWordScore {
  start: number;
  end: number;
  score: number;
}

/** A scored argument word (coverage-error score in [0, 1]) with offsets into its argument's text. */
export interface ArgumentWordScore {
  perspective: number;
  argument: number;
  start: number;
  end: number;
  score: number;
}

/**
 * Word-level scores, the unit of word-level ROC AUC (SPEC section 4): every scored response word and every
 * scored argument word (a detector without argument-word scores gives an empty `arguments`).
 */
export interface WordScores {
  response: ResponseWordScore[];
  arguments: ArgumentWordScore[];
}

/** What a detector found for one (input, response) pair: example-level scores and their evidence. */
export interface ErrorScores {
  /** Example-level hallucination score in [0, 1] (higher = more likely an error). */
  hallucination: number;
  /** Example-level coverage-error score in [0, 1]. */
  coverage: number;
  /** Arguments ranked by coverage-error score, worst first. */
  uncoveredArguments?: UncoveredArgument[];
  /** Response spans ranked by hallucination score, worst first. */
  unsupportedSpans?: UnsupportedSpan[];
  /** Numeric features for stacked classifiers, e.g. `{ "rouge.precision": 0.8 }`. */
  features?: Record<string, number>;
  /** Word-level scores of every response and argument word, for word-level evaluation. */
  words?: WordScores;
}

/**
 * A detector of hallucination and coverage errors: the one contract evaluation, guards and stacked
 * classifiers consume. Scores are in [0, 1], higher = more likely an error.
 */
export interface ErrorDetector {
  readonly name: string;
  /**
   * Score a response against curated NPOV arguments or plain sources ({@link CheckInput}). A detector that
   * cannot read sources (an NPOV-prompt classifier) throws UnsupportedInputError for them.
   */
  detect(input: CheckInput, response: string): ErrorScores | Promise<ErrorScores>;
  /** Release native resources (model sessions); detectors without any omit it. */
  dispose?(): Promise<void>;
}

/**
 * The evidence threshold of npov's detectors: an argument whose coverage-error score is at least 0.5 (less than
 * half of it stated) and a span whose hallucination score is at least 0.5 (more likely unsupported than not) are
 * flagged. Scores read one way everywhere: higher = more likely an error.
 */
export const EVIDENCE_FLAG_THRESHOLD = 0.5;

/**
 * `scores` with every evidence item marked `flagged` when its score reaches `threshold` (default
 * {@link EVIDENCE_FLAG_THRESHOLD}); the lists keep every item, worst first, so a reader sees both what is flagged
 * and what came closest. @throws InvalidValueError for a threshold outside [0, 1]
 */
export function flagEvidence(scores: ErrorScores, threshold = EVIDENCE_FLAG_THRESHOLD): ErrorScores {
  requireNumber(threshold, "threshold", { min: 0, max: 1 });
  return {
    ...scores,
    ...(scores.uncoveredArguments === undefined
      ? {}
      : { uncoveredArguments: scores.uncoveredArguments.map((a) => ({ ...a, flagged: a.score >= threshold })) }),
    ...(scores.unsupportedSpans === undefined
      ? {}
      : { unsupportedSpans: scores.unsupportedSpans.map((s) => ({ ...s, flagged: s.score >= threshold })) }),
  };
}
