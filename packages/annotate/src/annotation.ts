/**
 * What one annotator says about one example (paper Section 4.1, Fig. 6; AIS; SPEC section 1), and its
 * validation against the example: spans must lie inside the response, arguments and sentences must exist,
 * and a submitted annotation must answer every question.
 */
import type { AmbiguousKind, NpovExample, Span } from "@npov/core";
import { segmentWords, splitSentences } from "@npov/core";
import { IncompleteAnnotationError, InvalidAnnotationError, SpanOutOfRangeError } from "./errors.js";

/** The ambiguous error kinds of SPEC section 1, in the order the app lists them. */
export const AMBIGUOUS_KINDS: readonly AmbiguousKind[] = [
  "partial-hallucination",
  "partial-coverage",
  "repetition",
  "perspective-confusion",
];

/** A response span that verbalizes given argument `argument` of perspective `perspective` (indices). */
export interface ArgumentMark extends Span {
  perspective: number;
  argument: number;
}

/** A response span showing an ambiguous error of `kind`. */
export interface AmbiguousMark extends Span {
  kind: AmbiguousKind;
}

/**
 * The two AIS questions for one response sentence: interpretable on its own (asked before the arguments
 * are shown), then, if so, supported by the given arguments ("According to the arguments, ...").
 * `null` = not answered yet (drafts) or not asked (supported, when not interpretable).
 */
export interface SentenceRating {
  sentence: number;
  interpretable: boolean | null;
  supported: boolean | null;
}

/** One annotator's marks on one example. Example-level labels follow from the marks ({@link labelsOf}). */
export interface Annotation {
  /** Spans covering each given argument (an argument may have several). */
  argumentSpans: ArgumentMark[];
  /** Spans stating something no given argument says. */
  hallucinatedSpans: Span[];
  /** Given arguments the response drops, as `[perspectiveIndex, argumentIndex]`. */
  uncoveredArguments: Array<[number, number]>;
  /** Ambiguous errors (SPEC section 1), each on a span. */
  ambiguous: AmbiguousMark[];
  /** AIS answers per response sentence; empty when the project does not ask them. */
  ais: SentenceRating[];
}

/** Example-level labels implied by an annotation. */
export interface AnnotationLabels {
  hallucination: boolean;
  coverage: boolean;
  ambiguous: boolean;
}

/** An empty annotation (the start of every example). */
export function emptyAnnotation(): Annotation {
  return { argumentSpans: [], hallucinatedSpans: [], uncoveredArguments: [], ambiguous: [], ais: [] };
}

/** Labels implied by the marks: a hallucinated span means hallucination, an uncovered argument a coverage error. */
export function labelsOf(annotation: Annotation): AnnotationLabels {
  return {
    hallucination: annotation.hallucinatedSpans.length > 0,
    coverage: annotation.uncoveredArguments.length > 0,
    ambiguous: annotation.ambiguous.length > 0,
  };
}

/** Word and sentence offsets of a response, as the app shows them and the export snaps spans to. */
export interface ResponseLayout {
  words: Span[];
  sentences: Span[];
}

/** Words (core's segmentation) and sentences (core's splitter) of a response, as offsets. */
export function layoutOf(response: string): ResponseLayout {
  return {
    words: segmentWords(response).map((w) => ({ start: w.start, end: w.end })),
    sentences: splitSentences(response).map((s) => ({ start: s.start, end: s.end })),
  };
}

/** What {@link checkAnnotation} checks besides the shape. */
export interface CheckOptions {
  /** A submission must answer every question; a draft may be partial. */
  complete: boolean;
  /** Whether the project asks the AIS questions. */
  ais: boolean;
  /** Number of response sentences (AIS answers refer to them). */
  sentences: number;
}

function checkSpan(span: Span, path: string, length: number): void {
  if (!Number.isInteger(span.start) || !Number.isInteger(span.end) || span.start < 0 || span.end > length)
    throw new SpanOutOfRangeError(path, span.start, span.end, length);
  if (span.start >= span.end) throw new SpanOutOfRangeError(path, span.start, span.end, length);
}

function argumentLabel(example: NpovExample, p: number, a: number): string {
  const perspective = example.input.perspectives[p];
  const text = perspective?.arguments[a]?.text ?? "?";
  return `argument ${a + 1} of ${perspective?.label ?? "?"} ("${text.length > 50 ? `${text.slice(0, 50)}...` : text}")`;
}

/**
 * Check an annotation against its example and return a normalized copy (duplicates removed, marks in
 * text order). The shape (field types) is the server's JSON schema's job; this checks meaning.
 * @throws SpanOutOfRangeError, InvalidAnnotationError, IncompleteAnnotationError
 */
export function checkAnnotation(annotation: Annotation, example: NpovExample, options: CheckOptions): Annotation {
  const length = example.response.length;
  const perspectives = example.input.perspectives;
  const argumentExists = (p: number, a: number) =>
    Number.isInteger(p) && Number.isInteger(a) && a >= 0 && (perspectives[p]?.arguments.length ?? 0) > a;

  annotation.argumentSpans.forEach((m, k) => {
    checkSpan(m, `argumentSpans[${k}]`, length);
    if (!argumentExists(m.perspective, m.argument))
      throw new InvalidAnnotationError(
        `argumentSpans[${k}]`,
        `there is no argument ${m.argument} in perspective ${m.perspective} of this example.`,
      );
  });
  annotation.hallucinatedSpans.forEach((s, k) => {
    checkSpan(s, `hallucinatedSpans[${k}]`, length);
  });
  annotation.ambiguous.forEach((m, k) => {
    checkSpan(m, `ambiguous[${k}]`, length);
    if (!AMBIGUOUS_KINDS.includes(m.kind))
      throw new InvalidAnnotationError(`ambiguous[${k}].kind`, `use one of ${AMBIGUOUS_KINDS.join(", ")}.`);
  });
  annotation.uncoveredArguments.forEach(([p, a], k) => {
    if (!argumentExists(p, a))
      throw new InvalidAnnotationError(
        `uncoveredArguments[${k}]`,
        `there is no argument ${a} in perspective ${p} of this example.`,
      );
  });
  if (!options.ais && annotation.ais.length > 0)
    throw new InvalidAnnotationError("ais", "this project does not ask the AIS questions; send an empty list.");
  const rated = new Set<number>();
  annotation.ais.forEach((r, k) => {
    if (!Number.isInteger(r.sentence) || r.sentence < 0 || r.sentence >= options.sentences)
      throw new InvalidAnnotationError(
        `ais[${k}].sentence`,
        `the response has ${options.sentences} sentence(s); got ${r.sentence}.`,
      );
    if (rated.has(r.sentence))
      throw new InvalidAnnotationError(`ais[${k}].sentence`, `sentence ${r.sentence} is rated twice.`);
    rated.add(r.sentence);
    if (r.interpretable !== true && r.supported !== null)
      throw new InvalidAnnotationError(
        `ais[${k}].supported`,
        "is asked only of an interpretable sentence; leave it null.",
      );
  });

  const covered = new Set(annotation.argumentSpans.map((m) => `${m.perspective}/${m.argument}`));
  const uncovered = new Set(annotation.uncoveredArguments.map(([p, a]) => `${p}/${a}`));
  for (const key of uncovered)
    if (covered.has(key)) {
      const [p, a] = key.split("/").map(Number) as [number, number];
      throw new InvalidAnnotationError(
        "uncoveredArguments",
        `${argumentLabel(example, p, a)} is marked uncovered but also has a covering span; remove one of the two.`,
      );
    }

  if (options.complete) {
    const problems: string[] = [];
    perspectives.forEach((perspective, p) => {
      perspective.arguments.forEach((_, a) => {
        const key = `${p}/${a}`;
        if (!covered.has(key) && !uncovered.has(key))
          problems.push(`${argumentLabel(example, p, a)} has neither a covering span nor an "uncovered" mark`);
      });
    });
    if (options.ais)
      for (let s = 0; s < options.sentences; s++) {
        const r = annotation.ais.find((x) => x.sentence === s);
        if (r === undefined || r.interpretable === null)
          problems.push(`sentence ${s + 1} needs an answer to "interpretable?"`);
        else if (r.interpretable && r.supported === null)
          problems.push(`sentence ${s + 1} needs an answer to "supported by the arguments?"`);
      }
    if (problems.length > 0) throw new IncompleteAnnotationError(problems);
  }

  const bySpan = <T extends Span>(a: T, b: T) => a.start - b.start || a.end - b.end;
  const unique = <T>(items: T[], key: (t: T) => string) => {
    const seen = new Set<string>();
    return items.filter((t) => {
      const k = key(t);
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
  };
  return {
    argumentSpans: unique(
      annotation.argumentSpans.map((m) => ({
        start: m.start,
        end: m.end,
        perspective: m.perspective,
        argument: m.argument,
      })),
      (m) => `${m.start}/${m.end}/${m.perspective}/${m.argument}`,
    ).sort(bySpan),
    hallucinatedSpans: unique(
      annotation.hallucinatedSpans.map((s) => ({ start: s.start, end: s.end })),
      (s) => `${s.start}/${s.end}`,
    ).sort(bySpan),
    uncoveredArguments: [...uncovered]
      .map((k) => k.split("/").map(Number) as [number, number])
      .sort((x, y) => x[0] - y[0] || x[1] - y[1]),
    ambiguous: unique(
      annotation.ambiguous.map((m) => ({ start: m.start, end: m.end, kind: m.kind })),
      (m) => `${m.start}/${m.end}/${m.kind}`,
    ).sort(bySpan),
    ais: annotation.ais
      .map((r) => ({ sentence: r.sentence, interpretable: r.interpretable, supported: r.supported }))
      .sort((x, y) => x.sentence - y.sentence),
  };
}
