/**
 * Source format of the hand-written chatbot-dev examples (part a). Each example names its knowledge-base
 * topic and given argument ids, the response as written, and the substrings of the response that state
 * each argument or error; `a-build.ts` turns substrings into character offsets (never counted by hand).
 */

/** The kinds of example in this set (SPEC section 1 errors plus the clean case). */
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
export interface HandExample {
  /** Perspectrum topic id, e.g. "perspectrum-107". */
  topic: string;
  kind: HandKind;
  /** Given argument ids per perspective, in the order they are given. */
  pro: string[];
  con: string[];
  response: string;
  /**
   * Where each given argument is verbalized: [argument id, exact substring of the response]. An argument
   * split over two sentences has two entries. Dropped arguments have none.
   */
  spans: Array<[string, string]>;
  /** Substrings that state the extra, shifted, repeated or confused content. */
  errorSpans?: string[];
  /** Knowledge-base id of the extra argument when it comes from the topic (hallucination, both). */
  extra?: string;
  /**
   * Given ids dropped completely (coverage, both; written to `meta.droppedArgumentIds`), or the one id
   * dropped in part (partial-coverage) or presented as the other side's (perspective-confusion; both
   * written to `meta.partialArgumentId`).
   */
  dropped?: string[];
  /** The given id stated twice (repetition): its error span is also recorded as a span of that argument. */
  repeated?: string;
  /** One line: what the error is. */
  note?: string;
}
