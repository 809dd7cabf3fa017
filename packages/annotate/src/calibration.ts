/**
 * Calibration in the spirit of RoFT (roft.txt; SPEC section 5): annotators first label examples whose
 * answers are known (e.g. `npov synth`'s synthetic errors) and get points and feedback at once.
 *
 * The RoFT game asks for the boundary where a text stops being human-written. Its NPOV counterpart is the
 * first response sentence that states something not given (the first hallucinated sentence); a faithful
 * response has its "boundary" after the last sentence. Points follow RoFT's rule (SPEC section 5): 5 for
 * the exact sentence, one fewer per sentence after it (never below 0), none for a guess before it.
 * Marking nothing is a guess after the last sentence, scored by the same rule, as in RoFT, where a reader
 * who never presses "machine" guesses "all human": a late hallucination found by nobody still earns
 * (5 - sentences late) points, and the feedback says it was missed.
 */
import type { NpovExample, Span } from "@npov/core";
import type { Annotation } from "./annotation.js";

/** Most points one calibration example gives (RoFT: 5 for the exact boundary). */
export const MAX_POINTS = 5;

/**
 * RoFT's points for a boundary guess: {@link MAX_POINTS} at the true boundary, linearly fewer for each
 * sentence after it (0 from 5 sentences late on), 0 before it. Sentence indices; `sentences` (one past the
 * last) means "no boundary".
 */
export function boundaryPoints(guess: number, truth: number): number {
  if (guess < truth) return 0;
  return Math.max(0, MAX_POINTS - (guess - truth));
}

/** Index of the first sentence that overlaps one of `spans`, or `sentences.length` when none does. */
export function firstSentenceWith(sentences: readonly Span[], spans: readonly Span[]): number {
  const k = sentences.findIndex((s) => spans.some((x) => x.start < s.end && s.start < x.end));
  return k < 0 ? sentences.length : k;
}

/** What an annotator learns after a calibration example. */
export interface CalibrationFeedback {
  /** RoFT points for the hallucination boundary, 0..5. */
  points: number;
  maxPoints: number;
  /** The true first hallucinated sentence (index; = `sentences` when the response has none), or null when unknown. */
  trueBoundary: number | null;
  /** The annotator's first hallucinated sentence (index; = `sentences` when they marked none). */
  guessedBoundary: number;
  sentences: number;
  hallucination: { truth: boolean; answer: boolean; correct: boolean };
  coverage: { truth: boolean; answer: boolean; correct: boolean };
  /** Known hallucinated spans of the response. */
  trueHallucinatedSpans: Span[];
  /** Known uncovered arguments, `[perspective, argument]`. */
  trueUncoveredArguments: Array<[number, number]>;
  /** Whether the annotator's uncovered arguments are exactly the known ones. */
  uncoveredArgumentsCorrect: boolean;
  /** One line for people, e.g. "Exact: the first unsupported sentence is sentence 2. 5 points." */
  message: string;
}

/**
 * Score an annotation of a calibration example with known labels (`labels.hallucination` and
 * `labels.coverage`, plus `wordLabels` spans when known). When the example is known to hallucinate but
 * its spans are not known, the boundary is unknown and the points are all-or-nothing on the label.
 */
export function scoreCalibration(
  example: NpovExample,
  sentences: readonly Span[],
  annotation: Annotation,
): CalibrationFeedback {
  const n = sentences.length;
  // In text order, so the feedback can show them one after another.
  const trueSpans = [...(example.wordLabels?.hallucinatedSpans ?? [])].sort(
    (a, b) => a.start - b.start || a.end - b.end,
  );
  const truthHallucination = example.labels?.hallucination === true;
  const truthCoverage = example.labels?.coverage === true;
  const answerHallucination = annotation.hallucinatedSpans.length > 0;
  const answerCoverage = annotation.uncoveredArguments.length > 0;
  const guess = firstSentenceWith(sentences, annotation.hallucinatedSpans);
  // The true boundary: after the last sentence for a faithful response, the first sentence a known span
  // overlaps otherwise; unknown (null) for a hallucination whose spans are not known or touch no sentence.
  let truth: number | null = truthHallucination ? firstSentenceWith(sentences, trueSpans) : n;
  if (truthHallucination && truth >= n) truth = null;
  const points = truth === null ? (answerHallucination ? MAX_POINTS : 0) : boundaryPoints(guess, truth);
  const trueUncovered = (example.wordLabels?.uncoveredArguments ?? []).map(([p, a]) => [p, a] as [number, number]);
  const key = (xs: Array<[number, number]>) =>
    xs
      .map(([p, a]) => `${p}/${a}`)
      .sort()
      .join(",");
  const where = (k: number) => (k >= n ? "none (every sentence is supported)" : `sentence ${k + 1}`);
  let message: string;
  if (truth === null)
    message = answerHallucination
      ? "Right: this response states something not given."
      : "Missed: this response states something not given.";
  else if (guess === truth)
    message =
      truth >= n
        ? "Right: every sentence is supported by the given arguments."
        : `Exact: the first unsupported sentence is ${where(truth)}.`;
  else if (guess >= n) message = `Missed: the first unsupported sentence is ${where(truth)}.`;
  else if (guess < truth)
    message = `Too early: you marked ${where(guess)}, but the first unsupported sentence is ${where(truth)}.`;
  else message = `Late: you marked ${where(guess)}; the first unsupported sentence is ${where(truth)}.`;
  return {
    points,
    maxPoints: MAX_POINTS,
    trueBoundary: truth,
    guessedBoundary: guess,
    sentences: n,
    hallucination: {
      truth: truthHallucination,
      answer: answerHallucination,
      correct: truthHallucination === answerHallucination,
    },
    coverage: { truth: truthCoverage, answer: answerCoverage, correct: truthCoverage === answerCoverage },
    trueHallucinatedSpans: trueSpans.map((s) => ({ start: s.start, end: s.end })),
    trueUncoveredArguments: trueUncovered,
    uncoveredArgumentsCorrect: key(trueUncovered) === key(annotation.uncoveredArguments),
    message: `${message} ${points} point${points === 1 ? "" : "s"}.`,
  };
}
