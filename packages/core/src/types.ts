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
  /**
   * Given arguments the response does not cover, as `[perspectiveIndex, argumentIndex]` (for a sources input,
   * `[sourceIndex, unitIndex]` over {@link sourceUnits}).
   */
  uncoveredArguments?: Array<[number, number]>;
}

/**
 * An input, a response and what is known about its errors. `I` is the input's shape: NPOV arguments (the
 * default, what npov's writers produce) or either shape ({@link CheckInput}, what dataset files may hold).
 */
export interface NpovExample<I extends CheckInput = NpovInput> {
  id?: string;
  input: I;
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

/** One source document. */
export interface Source {
  /** Stable identifier, unique within the input (e.g. a retrieval id); evidence names it. */
  id?: string;
  /** Title; its words count like the query's (they name what the text is about, they support nothing new). */
  title?: string;
  text: string;
}

/** A response to check against plain sources: an optional user query and one or more documents. */
export interface SourcesInput {
  /** The user's question, when there is one: its words frame an answer, they do not support new claims. */
  query?: string;
  sources: Source[];
}

/** What a detector checks a response against: curated NPOV arguments, or plain sources. */
export type CheckInput = NpovInput | SourcesInput;

/** A sentence of a source, with offsets into that source's text. */
export interface SourceUnit {
  /** Index of the source in `input.sources`. */
  source: number;
  /** Index of the unit within its source. */
  index: number;
  text: string;
  start: number;
  end: number;
}

/**
 * The NPOV-shaped view detectors work on. For an NPOV input it is the validated input itself. For a sources
 * input each source is a perspective labelled by its id (or `source N`) whose arguments are the source's
 * sentence units; `query` is the query or `""`, `topic` the titles joined or `""`, and `units` keeps where each
 * argument came from.
 */
export interface Grounding extends NpovInput {
  kind: "npov" | "sources";
  /** Sources input only: the validated sources. */
  sources?: Source[];
  /** Sources input only: per source, its units, in the order of that perspective's arguments. */
  units?: SourceUnit[][];
}
