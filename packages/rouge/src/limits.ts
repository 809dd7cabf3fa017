/**
 * Size limits of the detectors that compare every response word with every argument word (`soft`, `align`,
 * `support`). Their work grows with (response words) x (argument words) and their one-to-one matchings
 * grow faster still, so beyond these limits they refuse at once with `INPUT_TOO_LARGE` instead of running
 * for minutes. The limits are chosen so the largest allowed input is checked in about a second on one core;
 * `rouge` (exact word overlap, linear time) has none.
 */
import { describe, InputTooLargeError, InvalidValueError, type NpovInput, requireRecord } from "@npov/core";
import { MAX_MATCHING_STEPS, WorkMeter } from "./hungarian.js";

/** Longest response, in characters (UTF-16 code units): about 7,000 words of prose. */
export const MAX_RESPONSE_CHARS = 50_000;
/** Most given arguments, all perspectives together. */
export const MAX_ARGUMENTS = 1_000;
/**
 * Most (response content word) x (argument content word) pairs, stop words not counted: e.g. a 1,600-word
 * response (about 800 content words) against 50 eight-word arguments, or a 200-word response against 500.
 * Each distinct pair of words is weighed once (WordNet relations, and the lexsim embedding for support).
 */
export const MAX_WORD_PAIRS = 400_000;
/** Most steps of the one-to-one matchings in one check (300,000,000; defined beside `WorkMeter`). */
export { MAX_MATCHING_STEPS };
/**
 * Most (response sentence) x (argument) pairs: `align` and `support` weigh every argument against every
 * sentence (and window of two). A chatbot answer has tens of sentences and arguments; sentences of stop
 * words only cost no word pairs, so without this 7,000 of them against 1,000 arguments ran for seconds.
 */
export const MAX_SENTENCE_PAIRS = 100_000;

/** Overrides of the limits above (for callers that accept slower checks, or tests). */
export interface AlignmentLimits {
  maxResponseChars?: number;
  maxArguments?: number;
  maxWordPairs?: number;
  maxMatchingSteps?: number;
  /** Most (response sentence) x (argument) pairs: the alignments build a matrix of them (default 100,000). */
  maxSentencePairs?: number;
  /**
   * A meter that totals the matching steps of every check made with these limits (read `meter.steps`); its
   * limit applies to each check on its own, instead of `maxMatchingSteps`.
   */
  meter?: WorkMeter;
}

/** The limits in force, and the meter that counts this check's matching work. */
export interface ResolvedLimits {
  maxResponseChars: number;
  maxArguments: number;
  maxWordPairs: number;
  maxMatchingSteps: number;
  maxSentencePairs: number;
  meter: WorkMeter;
}

function limitOf(limits: AlignmentLimits, key: Exclude<keyof AlignmentLimits, "meter">, fallback: number): number {
  const value = requireRecord(limits, "limits", "an object of limits")[key];
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !(value >= 1))
    throw new InvalidValueError(`limits.${key}`, `must be a number >= 1, got ${describe(value)}.`);
  return value;
}

/**
 * The limits in force: `limits` over the defaults, with a fresh meter unless one is given.
 * @throws InvalidValueError for a limit below 1 or a meter that is not a WorkMeter
 */
export function resolveLimits(limits: AlignmentLimits = {}): ResolvedLimits {
  const maxMatchingSteps = limitOf(limits, "maxMatchingSteps", MAX_MATCHING_STEPS);
  if (limits.meter !== undefined && !(limits.meter instanceof WorkMeter))
    throw new InvalidValueError("limits.meter", "must be a WorkMeter.");
  return {
    maxResponseChars: limitOf(limits, "maxResponseChars", MAX_RESPONSE_CHARS),
    maxArguments: limitOf(limits, "maxArguments", MAX_ARGUMENTS),
    maxWordPairs: limitOf(limits, "maxWordPairs", MAX_WORD_PAIRS),
    maxMatchingSteps,
    maxSentencePairs: limitOf(limits, "maxSentencePairs", MAX_SENTENCE_PAIRS),
    // Every check gets its own meter (a given one only totals them).
    meter: limits.meter?.forCheck() ?? new WorkMeter(maxMatchingSteps),
  };
}

/** Refuse more sentence x argument pairs than the limit. @throws InputTooLargeError */
export function checkSentencePairs(sentences: number, args: number, limits: ResolvedLimits): void {
  const pairs = sentences * args;
  if (pairs > limits.maxSentencePairs)
    throw new InputTooLargeError(
      "input",
      pairs,
      limits.maxSentencePairs,
      `sentence x argument pairs (${sentences} response sentences x ${args} arguments)`,
      "Check a shorter response or give fewer arguments, or use the rouge method, which has no such limit.",
    );
}

/**
 * Refuse a response or an argument list beyond the limits, before any work. `input` and `response` must be
 * validated already. @throws InputTooLargeError
 */
export function checkInputSize(input: NpovInput, response: string, limits: ResolvedLimits): void {
  if (response.length > limits.maxResponseChars)
    throw new InputTooLargeError(
      "response",
      response.length,
      limits.maxResponseChars,
      "characters",
      "Check a shorter response (split a long text into parts), or use the rouge method, which has no length limit.",
    );
  let count = 0;
  for (const p of input.perspectives) count += p.arguments.length;
  if (count > limits.maxArguments)
    throw new InputTooLargeError(
      "input.perspectives",
      count,
      limits.maxArguments,
      "arguments",
      "Give fewer arguments (sample the ones the response should cover), or use the rouge method.",
    );
}

/** Refuse more word pairs than the limit. @throws InputTooLargeError */
export function checkWordPairs(responseWords: number, argumentWords: number, limits: ResolvedLimits): void {
  const pairs = responseWords * argumentWords;
  if (pairs > limits.maxWordPairs)
    throw new InputTooLargeError(
      "input",
      pairs,
      limits.maxWordPairs,
      `word pairs (${responseWords} response words x ${argumentWords} argument words, stop words not counted)`,
      "Shorten the response or give fewer arguments, or use the rouge method, which has no such limit.",
    );
}
