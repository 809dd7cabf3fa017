/**
 * From answers to a dataset: majority labels per example, word labels from the annotators' spans, every
 * annotator's own labels kept in `meta.annotation`, and the agreement report (Krippendorff's alpha per
 * error type, each annotator's agreement with the majority of the others, AIS shares, calibration points).
 *
 * Majority means more than half of the annotators who submitted labels for the example (flags and skips
 * do not vote); a tie is no majority, so a 2-2 split is labelled "no error" and counted in `ties`.
 * Word labels: a response word is hallucinated when more than half of the voters' hallucinated spans
 * overlap it; consecutive such words form one exported span (from the first word's start to the last
 * word's end). Argument spans are built the same way per argument; an argument is uncovered when more
 * than half of the voters marked it so.
 */
import type { AmbiguousKind, ArgumentSpan, NpovExample, Span } from "@npov/core";
import { InvalidValueError, readJsonFile } from "@npov/core";
import { krippendorffAlpha, type Rating } from "@npov/eval";
import { AMBIGUOUS_KINDS, type Annotation, type AnnotationLabels, labelsOf } from "./annotation.js";
import { MAX_POINTS } from "./calibration.js";
import { AgreementFormatError } from "./errors.js";
import type { AnnotationStore, StoredAnswer } from "./store.js";

/** One annotator's answer as kept in the exported example's `meta.annotation.annotators`. */
export interface AnnotatorLabels {
  annotator: string;
  labels: AnnotationLabels;
  annotation: Annotation;
}

/** What `meta.annotation` of an exported example holds. */
export interface ExampleAnnotationMeta {
  /** Votes for "error" / annotators who voted, per label. */
  votes: Record<keyof AnnotationLabels, { yes: number; voters: number }>;
  /** Labels where the vote was tied (exported as false). */
  ties: Array<keyof AnnotationLabels>;
  annotators: AnnotatorLabels[];
  flags: Array<{ annotator: string; reason: string }>;
  skips: number;
  /** The labels the example had before annotation (e.g. a synthetic error), if any. */
  previousLabels?: NpovExample["labels"];
}

/** Alpha for one error type (or word-level unit kind). */
export interface AlphaRow {
  errorType: string;
  level: "example" | "word" | "argument" | "sentence";
  /**
   * Krippendorff's alpha (nominal); null when it is undefined: fewer than two pairable ratings, or every
   * rating the same (0/0 -- e.g. every annotator answered "no"), which is not perfect agreement.
   */
  alpha: number | null;
  /** Units rated by at least one annotator, and ratings given. */
  units: number;
  ratings: number;
}

/** One annotator's agreement with the majority of the other annotators (example-level labels). */
export interface AnnotatorAgreement {
  annotator: string;
  /** Share of compared labels equal to the others' majority; null when nothing could be compared. */
  agreement: number | null;
  /** Labels compared (examples x label types where the others had a strict majority). */
  units: number;
  perType: Record<"hallucination" | "coverage", { agreement: number | null; units: number }>;
  submitted: number;
  flagged: number;
  skipped: number;
}

/** The agreement report `npov annotate export --agreement` writes and `npov eval --agreement` reads. */
export interface AgreementReport {
  format: "npov-agreement/1";
  /** Task examples with at least one submitted annotation (the exported ones). */
  examples: number;
  annotators: AnnotatorAgreement[];
  alpha: AlphaRow[];
  /** AIS shares over sentences, by majority (AIS tables: Flag, Int, AIS). */
  ais: { sentences: number; interpretable: number | null; supported: number | null; flaggedExamples: number } | null;
  calibration: Array<{ annotator: string; examples: number; points: number; maxPoints: number }>;
  /** Examples flagged as broken by every annotator who answered them (not exported). */
  flaggedOnly: string[];
}

const LABELS: Array<keyof AnnotationLabels> = ["hallucination", "coverage", "ambiguous"];

/** Words (as spans) that more than half of `voters` span lists overlap, merged into runs of consecutive words. */
export function majorityWordSpans(words: readonly Span[], voters: ReadonlyArray<readonly Span[]>): Span[] {
  const marked = words.map(
    (w) => voters.filter((spans) => spans.some((s) => s.start < w.end && w.start < s.end)).length * 2 > voters.length,
  );
  const runs: Span[] = [];
  marked.forEach((m, k) => {
    if (!m) return;
    const w = words[k] as Span;
    const last = runs[runs.length - 1];
    if (last !== undefined && marked[k - 1] === true) last.end = w.end;
    else runs.push({ start: w.start, end: w.end });
  });
  return runs;
}

const alphaOrNull = (data: Rating[][]): number | null => {
  try {
    return krippendorffAlpha(data, "nominal") ?? null; // every rating the same: alpha undefined (0/0)
  } catch (e) {
    if (e instanceof InvalidValueError) return null; // fewer than two pairable ratings: alpha undefined
    throw e;
  }
};

function alphaRow(errorType: string, level: AlphaRow["level"], data: Rating[][]): AlphaRow {
  const units = data[0]?.length ?? 0;
  let rated = 0;
  let ratings = 0;
  for (let u = 0; u < units; u++) {
    const n = data.filter((row) => row[u] !== undefined).length;
    if (n > 0) rated++;
    ratings += n;
  }
  return { errorType, level, alpha: data.length < 2 ? null : alphaOrNull(data), units: rated, ratings };
}

/** The exported dataset and its agreement report. */
export interface ExportResult {
  examples: NpovExample[];
  agreement: AgreementReport;
}

/**
 * Export the task examples with at least one submitted annotation, and the agreement report. Everything
 * is read in one transaction, so an export taken while the server runs (another process) sees one
 * consistent state: answers, labels and calibration points from the same moment.
 */
export function exportAnnotations(store: AnnotationStore): ExportResult {
  return store.db.transaction(() => exportSnapshot(store))();
}

function exportSnapshot(store: AnnotationStore): ExportResult {
  const answers = store.answers("task");
  const byExample = new Map<number, StoredAnswer[]>();
  for (const a of answers) byExample.set(a.exampleId, [...(byExample.get(a.exampleId) ?? []), a]);
  const annotatorNames = [...new Set(answers.map((a) => a.annotator))];
  const examples: NpovExample[] = [];
  const flaggedOnly: string[] = [];
  // Ratings matrices for alpha: one row per annotator, one column per unit.
  const exampleRatings = new Map<string, Rating[][]>(LABELS.map((l) => [l, annotatorNames.map(() => [])]));
  const wordRatings: Rating[][] = annotatorNames.map(() => []);
  const argumentRatings: Rating[][] = annotatorNames.map(() => []);
  const sentenceInterpretable: Rating[][] = annotatorNames.map(() => []);
  let aisSentences = 0;
  let aisInterpretable = 0;
  let aisSupported = 0;
  let flaggedExamples = 0;
  const majorities: Array<{ voters: StoredAnswer[]; labels: Record<string, boolean | null> }> = [];

  for (const [exampleId, list] of byExample) {
    const stored = store.example(exampleId);
    if (stored === undefined) continue;
    const source = stored.example;
    const voters = list.filter((a) => a.status === "submitted" && a.annotation !== null);
    const flags = list
      .filter((a) => a.status === "flagged")
      .map((a) => ({ annotator: a.annotator, reason: a.flagReason ?? "" }));
    if (flags.length > 0) flaggedExamples++;
    if (voters.length === 0) {
      if (flags.length > 0) flaggedOnly.push(source.id ?? `example ${exampleId}`);
      continue;
    }
    const layout = store.layout(exampleId);
    const annotations = voters.map((v) => v.annotation as Annotation);
    const votes = {} as ExampleAnnotationMeta["votes"];
    const ties: Array<keyof AnnotationLabels> = [];
    const labels = {} as AnnotationLabels;
    for (const label of LABELS) {
      const yes = annotations.filter((a) => labelsOf(a)[label]).length;
      votes[label] = { yes, voters: voters.length };
      if (yes * 2 === voters.length) ties.push(label);
      labels[label] = yes * 2 > voters.length;
    }
    const hallucinatedSpans = majorityWordSpans(
      layout.words,
      annotations.map((a) => a.hallucinatedSpans),
    );
    const uncoveredArguments: Array<[number, number]> = [];
    const argumentSpans: ArgumentSpan[] = [];
    source.input.perspectives.forEach((perspective, p) => {
      perspective.arguments.forEach((argument, k) => {
        const uncovered = annotations.filter((a) => a.uncoveredArguments.some(([x, y]) => x === p && y === k)).length;
        if (uncovered * 2 > voters.length) uncoveredArguments.push([p, k]);
        const spans = majorityWordSpans(
          layout.words,
          annotations.map((a) => a.argumentSpans.filter((m) => m.perspective === p && m.argument === k)),
        );
        for (const s of spans)
          argumentSpans.push({
            start: s.start,
            end: s.end,
            perspective: perspective.label,
            ...(argument.id === undefined ? {} : { argumentId: argument.id }),
            argumentText: argument.text,
          });
        // Argument-level units for alpha: uncovered (yes) or covered (no) per annotator.
        annotatorNames.forEach((name, r) => {
          const mine = voters.find((v) => v.annotator === name)?.annotation;
          (argumentRatings[r] as Rating[]).push(
            mine === undefined || mine === null
              ? undefined
              : mine.uncoveredArguments.some(([x, y]) => x === p && y === k)
                ? "yes"
                : "no",
          );
        });
      });
    });
    argumentSpans.sort((a, b) => a.start - b.start || a.end - b.end);
    const kinds = new Map<AmbiguousKind, number>();
    for (const a of annotations)
      for (const kind of new Set(a.ambiguous.map((m) => m.kind))) kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
    // The most frequent kind; a tie goes to the kind listed first in AMBIGUOUS_KINDS, not to whoever
    // answered first.
    const ambiguousKind = [...kinds.entries()].sort(
      (a, b) => b[1] - a[1] || AMBIGUOUS_KINDS.indexOf(a[0]) - AMBIGUOUS_KINDS.indexOf(b[0]),
    )[0]?.[0];

    // Alpha units.
    for (const label of LABELS) {
      const rows = exampleRatings.get(label) as Rating[][];
      annotatorNames.forEach((name, r) => {
        const mine = voters.find((v) => v.annotator === name)?.annotation;
        (rows[r] as Rating[]).push(
          mine === undefined || mine === null ? undefined : labelsOf(mine)[label] ? "yes" : "no",
        );
      });
    }
    for (const w of layout.words)
      annotatorNames.forEach((name, r) => {
        const mine = voters.find((v) => v.annotator === name)?.annotation;
        (wordRatings[r] as Rating[]).push(
          mine === undefined || mine === null
            ? undefined
            : mine.hallucinatedSpans.some((s) => s.start < w.end && w.start < s.end)
              ? "yes"
              : "no",
        );
      });
    if (annotations.some((a) => a.ais.length > 0))
      layout.sentences.forEach((_, s) => {
        const answers = annotations.map((a) => a.ais.find((x) => x.sentence === s));
        annotatorNames.forEach((name, r) => {
          const mine = voters.find((v) => v.annotator === name)?.annotation?.ais.find((x) => x.sentence === s);
          (sentenceInterpretable[r] as Rating[]).push(
            mine === undefined || mine.interpretable === null ? undefined : mine.interpretable ? "yes" : "no",
          );
        });
        const interpretable = answers.filter((x) => x?.interpretable === true).length * 2 > answers.length;
        aisSentences++;
        if (interpretable) {
          aisInterpretable++;
          const asked = answers.filter((x) => x?.interpretable === true);
          if (asked.filter((x) => x?.supported === true).length * 2 > asked.length) aisSupported++;
        }
      });

    majorities.push({ voters, labels: { hallucination: labels.hallucination, coverage: labels.coverage } });
    const meta: ExampleAnnotationMeta = {
      votes,
      ties,
      annotators: voters.map((v) => ({
        annotator: v.annotator,
        labels: labelsOf(v.annotation as Annotation),
        annotation: v.annotation as Annotation,
      })),
      flags,
      skips: list.filter((a) => a.status === "skipped").length,
      ...(source.labels === undefined ? {} : { previousLabels: source.labels }),
    };
    const { labels: _old, wordLabels: _oldWords, argumentSpans: _oldSpans, ambiguousKind: _oldKind, ...rest } = source;
    examples.push({
      ...rest,
      labels,
      ...(labels.ambiguous && ambiguousKind !== undefined ? { ambiguousKind } : {}),
      argumentSpans,
      wordLabels: { hallucinatedSpans, uncoveredArguments },
      slice: source.slice ?? "organic",
      meta: { ...(source.meta ?? {}), annotation: meta },
    });
  }

  // Each annotator against the strict majority of the others (leave-one-out, so an annotator's own vote
  // never counts towards the majority they are compared with).
  const annotators: AnnotatorAgreement[] = annotatorNames.map((name) => {
    const perType = { hallucination: { agree: 0, n: 0 }, coverage: { agree: 0, n: 0 } };
    for (const { voters } of majorities) {
      const mine = voters.find((v) => v.annotator === name)?.annotation;
      if (mine === undefined || mine === null) continue;
      const others = voters.filter((v) => v.annotator !== name).map((v) => labelsOf(v.annotation as Annotation));
      for (const label of ["hallucination", "coverage"] as const) {
        const yes = others.filter((o) => o[label]).length;
        if (others.length === 0 || yes * 2 === others.length) continue;
        perType[label].n++;
        if (labelsOf(mine)[label] === yes * 2 > others.length) perType[label].agree++;
      }
    }
    const mineAll = answers.filter((a) => a.annotator === name);
    const share = (agree: number, n: number) => (n === 0 ? null : agree / n);
    const n = perType.hallucination.n + perType.coverage.n;
    return {
      annotator: name,
      agreement: share(perType.hallucination.agree + perType.coverage.agree, n),
      units: n,
      perType: {
        hallucination: {
          agreement: share(perType.hallucination.agree, perType.hallucination.n),
          units: perType.hallucination.n,
        },
        coverage: { agreement: share(perType.coverage.agree, perType.coverage.n), units: perType.coverage.n },
      },
      submitted: mineAll.filter((a) => a.status === "submitted").length,
      flagged: mineAll.filter((a) => a.status === "flagged").length,
      skipped: mineAll.filter((a) => a.status === "skipped").length,
    };
  });

  const alpha: AlphaRow[] = [
    ...LABELS.map((l) => alphaRow(l, "example", exampleRatings.get(l) as Rating[][])),
    alphaRow("hallucinated-word", "word", wordRatings),
    alphaRow("uncovered-argument", "argument", argumentRatings),
  ];
  if (aisSentences > 0) alpha.push(alphaRow("interpretable-sentence", "sentence", sentenceInterpretable));

  const calibration = store
    .progress()
    .annotators.filter((a) => a.role === "annotator" && a.calibration.total > 0)
    .map((a) => ({
      annotator: a.name,
      examples: a.calibration.done,
      points: a.calibration.points,
      maxPoints: a.calibration.done * MAX_POINTS,
    }));

  return {
    examples,
    agreement: {
      format: "npov-agreement/1",
      examples: examples.length,
      annotators,
      alpha,
      ais:
        aisSentences === 0
          ? null
          : {
              sentences: aisSentences,
              interpretable: aisInterpretable / aisSentences,
              supported: aisInterpretable === 0 ? null : aisSupported / aisInterpretable,
              flaggedExamples,
            },
      calibration,
      flaggedOnly,
    },
  };
}

/**
 * Read an agreement report written by `npov annotate export --agreement`.
 * @throws FileReadError, FileFormatError (not JSON), AgreementFormatError (not npov-agreement/1)
 */
export function readAgreementReport(file: string): AgreementReport {
  const value = readJsonFile(file) as Partial<AgreementReport> | null;
  if (value === null || typeof value !== "object" || Array.isArray(value))
    throw new AgreementFormatError(file, "not a JSON object");
  if (value.format !== "npov-agreement/1")
    throw new AgreementFormatError(file, `format is ${JSON.stringify(value.format)}, not "npov-agreement/1"`);
  if (!Array.isArray(value.alpha) || !Array.isArray(value.annotators))
    throw new AgreementFormatError(file, "alpha and annotators must be lists");
  // Every field npov eval prints or puts in the HTML report is checked, so a hand-edited file fails
  // here with its place named instead of printing "undefined" or crashing on a string.
  const count = (x: unknown) => typeof x === "number" && Number.isInteger(x) && x >= 0;
  const share = (x: unknown) => x === null || (typeof x === "number" && Number.isFinite(x));
  for (const [k, row] of (value.alpha as unknown[]).entries()) {
    const r = row as Partial<AlphaRow> | null;
    if (
      r === null ||
      typeof r !== "object" ||
      typeof r.errorType !== "string" ||
      !share(r.alpha) ||
      !count(r.units) ||
      !count(r.ratings) ||
      !(r.level === undefined || typeof r.level === "string")
    )
      throw new AgreementFormatError(
        file,
        `alpha[${k}] needs errorType (text), alpha (number or null), units and ratings (whole numbers)`,
      );
  }
  for (const [k, row] of (value.annotators as unknown[]).entries()) {
    const a = row as Partial<AnnotatorAgreement> | null;
    if (
      a === null ||
      typeof a !== "object" ||
      typeof a.annotator !== "string" ||
      !share(a.agreement) ||
      !count(a.units)
    )
      throw new AgreementFormatError(
        file,
        `annotators[${k}] needs annotator (text), agreement (number or null) and units (whole number)`,
      );
  }
  return value as AgreementReport;
}
