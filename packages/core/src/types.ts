/** Core data types shared by every npov package. */

/** One curated argument: a short phrase stating a reason for a perspective. */
export interface Argument {
  /** The argument text as given to the generator. */
  text: string;
  /** Stable identifier within its topic (e.g. `"abortion/pro/2"`, or Perspectrum's `"p3695"`). */
  id?: string;
  /** Other wordings of the same argument (used for paraphrased inputs). */
  paraphrases?: string[];
}

/** A side of the debate ("pro", "con", or any other label) and its arguments. */
export interface Perspective {
  label: string;
  arguments: Argument[];
}

/** What the generator is given: a query and 1-3 arguments for each of at least two perspectives. */
export interface NpovInput {
  /** Short topic name, e.g. `"abortion"`. */
  topic: string;
  /** The user query, e.g. `"Should abortion be legal?"`. */
  query: string;
  perspectives: Perspective[];
}

/** The three dataset splits; topics never cross splits. */
export type Split = "train" | "dev" | "test";
export const SPLITS: readonly Split[] = ["train", "dev", "test"];

/** Example-level labels: `true` means the error is present. */
export interface ErrorLabels {
  hallucination?: boolean;
  coverage?: boolean;
  /** An ambiguous (partial) error rather than a full one; see {@link AmbiguousKind}. */
  ambiguous?: boolean;
}

/** Kinds of ambiguous errors (paper Section 3). */
export type AmbiguousKind = "partial-hallucination" | "partial-coverage" | "repetition" | "perspective-confusion";

/** A character span `[start, end)` in a text. */
export interface Span {
  start: number;
  end: number;
}

/** Which response span verbalizes which given argument. */
export interface ArgumentSpan extends Span {
  perspective: string;
  argumentId?: string;
  argumentText: string;
}

/** Word/argument-level ground truth, when known. */
export interface WordLabels {
  /** Response spans that state an argument that was not given. */
  hallucinatedSpans?: Span[];
  /** Given arguments the response does not cover, as `[perspectiveIndex, argumentIndex]`. */
  uncoveredArguments?: Array<[number, number]>;
}

/** An input, a response and what is known about its errors. */
export interface NpovExample {
  id?: string;
  input: NpovInput;
  response: string;
  labels?: ErrorLabels;
  /** Evaluation slice, e.g. `"unparaphrased-synthetic"`. */
  slice?: string;
  /** The kind of an ambiguous error. */
  ambiguousKind?: AmbiguousKind;
  /** Spans of the response that verbalize each argument, when the writer recorded them. */
  argumentSpans?: ArgumentSpan[];
  wordLabels?: WordLabels;
  /** Knowledge-base topic id the example came from. */
  topicId?: string;
  split?: Split;
  /** Provenance, e.g. `{ style: "free", variant: "coverage", paraphrased: true }`. */
  meta?: Record<string, unknown>;
}

/** A knowledge-base topic: a leading question and every argument for each perspective. */
export interface Topic {
  id: string;
  /** Topic name used in prompts (`Topic: {...}`). */
  title: string;
  /** Leading question, used as the user query. */
  query: string;
  split: Split;
  perspectives: Perspective[];
  /** Free-form provenance, e.g. `{ source: "perspectrum", claimId: 499 }`. */
  meta?: Record<string, unknown>;
}
