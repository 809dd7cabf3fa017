/**
 * Source format of the hand-written chatbot-dev examples, part b. Each example names its knowledge-base
 * topic, the given argument ids, the response as written and the substrings of the response that state
 * each argument or error; `b-build.ts` turns the substrings into character offsets (never counted by hand)
 * and copies the argument texts from the knowledge base.
 */

/** The kinds of example in this set: the clean case, the full errors and the ambiguous ones (SPEC section 1). */
export type HandKind =
  | "clean"
  | "hallucination"
  | "coverage"
  | "both"
  | "partial-hallucination"
  | "partial-coverage"
  | "repetition"
  | "perspective-confusion";

/** One hand-written example, before offsets are computed. */
export interface HandExampleB {
  /** Perspectrum topic id, e.g. "perspectrum-1004". */
  topic: string;
  kind: HandKind;
  /** Given argument ids per perspective, in the order they are given (1-3 each). */
  pro: string[];
  con: string[];
  response: string;
  /**
   * Where each given argument is verbalized: [argument id, exact substring of the response, occurring once].
   * An argument split over two places has two entries; a completely dropped argument has none. A repeated
   * or side-swapped argument has an entry for every place it is stated.
   */
  spans: Array<[string, string]>;
  /** Substrings stating the extra argument, or the shifted / repeated / side-swapped part. */
  errorSpans?: string[];
  /** Knowledge-base id of the extra argument when it is an unused argument of the topic (else invented). */
  extra?: string;
  /** Given ids dropped completely (coverage, both). */
  dropped?: string[];
  /** The given id that is partly dropped (partial-coverage) or presented as the other side's (perspective-confusion). */
  partial?: string;
  /** One line: what the error is (required unless clean). */
  note?: string;
}
