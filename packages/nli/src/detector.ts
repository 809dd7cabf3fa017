/**
 * The `nli` detector: hallucination and coverage errors from an NLI cross-encoder's entailment
 * probabilities, for NPOV inputs (arguments per perspective) and sources inputs (sentence units per source).
 *
 * Hallucination. Each response sentence (core's `splitSentences`) is a hypothesis; its support is its best
 * P(entailment) over the premises:
 * - every argument (NPOV) or source unit (sources) on its own;
 * - windows of two adjacent units of the same perspective or source where one of them is **too short** to
 *   be read alone: fewer than `minUnitWords` words (default 6; words as core's `segmentWords` counts them) --
 *   "It was built in 1889." needs the sentence before it to say what "it" is;
 * - NPOV only (`joinArguments`, default true): each perspective's arguments together, and every argument of
 *   the input together -- a response sentence that merges two arguments ("uniforms cut costs and bullying")
 *   is entailed only by both. Sources are not joined whole: a document is longer than an NLI model reads.
 * A sentence is a **claim** when it has at least `minClaimWords` (default 2) content words (core's
 * `contentTerms`: stop words dropped) that are not words of the query or topic; others ("It depends.",
 * "Yes, schools should.") frame the answer and claim nothing. Two is low on purpose: "Uniforms reduce
 * bullying." under the query "Should schools require uniforms?" has two, and a short invented claim must be
 * scored; the price is that an opening such as "Great question." counts as a claim too (raise the option
 * to skip such openings, at the risk of skipping short claims). The example score is 1 - the support of the
 * least supported claim sentence (of any sentence when none is a claim, so that no response goes unscored).
 *
 * Coverage. Each argument (or source unit) is a hypothesis; premises are the response's windows of 1 to
 * `coverageWindow` (default 2) adjacent sentences, so an argument split over two sentences is still seen.
 * Its coverage is its best P(entailment). NPOV: the example score is 1 - the least covered argument (the
 * minimum over perspectives of each perspective's least covered argument, as npov's other detectors take
 * the weakest perspective). Sources: 1 - the mean coverage of all source units -- an answer draws on some
 * sentences of some documents, so no single unit's absence is an error (the counterpart of ROUGE's recall
 * over all source words); every unit is still ranked in the evidence, with its offsets in its source.
 *
 * Work bound: `maxPairs` (default 2,000) pairs per check, counted before anything runs (a typed
 * INPUT_TOO_LARGE beyond it). A 12-sentence response against 8 arguments takes about 320 pairs.
 */
import {
  type ArgumentWordScore,
  type CheckInput,
  contentTerms,
  describe,
  type ErrorDetector,
  type ErrorScores,
  flagEvidence,
  type Grounding,
  groundingOf,
  InputTooLargeError,
  InvalidScoreError,
  InvalidValueError,
  maxOf,
  minOf,
  type ResponseWordScore,
  rankUncoveredArguments,
  segmentWords,
  splitSentences,
  unitOrigin,
  validateResponse,
  withUnitOrigins,
} from "@npov/core";
import { NliModel, type NliModelOptions, type NliPair, type PairScore } from "./model.js";

/** How the detector turns pair scores into example scores (see the module comment). */
export interface NliScoringOptions {
  /** Most pairs one check may score (default 2,000); more is a typed INPUT_TOO_LARGE error. */
  maxPairs?: number;
  /** A unit with fewer words than this is too short to be a premise alone (default 6). */
  minUnitWords?: number;
  /** Content words outside the query and topic a sentence needs to be a claim (default 2). */
  minClaimWords?: number;
  /** Longest window of adjacent response sentences an argument is checked against (default 2). */
  coverageWindow?: number;
  /** NPOV inputs: also use each perspective's arguments together, and all arguments together (default true). */
  joinArguments?: boolean;
  /**
   * Argument or response words the tokenizer cannot represent (characters it maps to its unknown token):
   * "error" (default) refuses them with a typed UNREPRESENTABLE_TEXT error, "score" scores anyway.
   */
  unrepresentableText?: "error" | "score";
}

/** Where a premise comes from: a run of units of one perspective (or source), or the whole input. */
export interface PremiseRef {
  /** "unit": one argument or source unit; "window": two adjacent ones; "perspective": all of one; "input": all. */
  kind: "unit" | "window" | "perspective" | "input";
  /** Perspective (source) index; -1 for the whole input. */
  perspective: number;
  /** First and last unit (argument) index, inclusive; -1 for the whole input. */
  from: number;
  to: number;
  /** Sources: the source and the offsets of the premise in its text. */
  origin?: { source: number; sourceId?: string; start: number; end: number };
}

/** A response sentence and its support. */
export interface NliSentence {
  text: string;
  start: number;
  end: number;
  /** Whether it claims something (see the module comment); only claims set the example score. */
  claim: boolean;
  /** Its best P(entailment) over the premises. */
  entailment: number;
  /** Its hallucination score, 1 - entailment. */
  score: number;
  /** The premise that entails it best. */
  bestPremise: PremiseRef;
  /** Its largest P(contradiction) over the premises (models with a contradiction output). */
  contradiction?: number;
  /** Whether a pair of this sentence was cut to fit the model (its score then read less than the whole). */
  truncated: boolean;
}

/** A given argument (or source unit) and how well the response entails it. */
export interface NliArgument {
  perspective: number;
  argument: number;
  text: string;
  /** Its best P(entailment) over the response windows. */
  entailment: number;
  /** Its coverage-error score, 1 - entailment. */
  score: number;
  /** The response window that entails it best. */
  span: { start: number; end: number };
  truncated: boolean;
  /** Sources: the source and the unit's offsets in it. */
  origin?: { source: number; sourceId?: string; start: number; end: number };
}

/** Everything the nli detector computes for one (input, response) pair. */
export interface NliResult {
  method: "nli";
  kind: "npov" | "sources";
  /** The model's folder or hub id. */
  model: string;
  hallucination: number;
  coverage: number;
  sentences: NliSentence[];
  arguments: NliArgument[];
  /** Per perspective (source): its least covered argument's entailment. */
  perspectives: Array<{ label: string; entailment: number }>;
  /** Pairs asked for, distinct pairs, those answered by the cache, and distinct pairs cut to fit. */
  pairs: { total: number; distinct: number; cached: number; truncated: number };
  features: Record<string, number>;
}

const DEFAULTS = { maxPairs: 2000, minUnitWords: 6, minClaimWords: 2, coverageWindow: 2 } as const;

/** Check scoring options. @throws InvalidValueError */
function checkScoringOptions(options: unknown): Required<NliScoringOptions> {
  if (typeof options !== "object" || options === null || Array.isArray(options))
    throw new InvalidValueError("options", "must be an object of nli options.");
  const o = options as NliScoringOptions;
  const int = (key: keyof typeof DEFAULTS, min: number, max = Number.MAX_SAFE_INTEGER): number => {
    const v = o[key];
    if (v === undefined) return DEFAULTS[key];
    if (typeof v !== "number" || !Number.isInteger(v) || v < min || v > max)
      throw new InvalidValueError(
        key,
        `must be an integer from ${min}${max < Number.MAX_SAFE_INTEGER ? ` to ${max}` : " up"}, got ${describe(v)}.`,
      );
    return v;
  };
  if (o.joinArguments !== undefined && typeof o.joinArguments !== "boolean")
    throw new InvalidValueError("joinArguments", "must be true or false.");
  if (o.unrepresentableText !== undefined && o.unrepresentableText !== "error" && o.unrepresentableText !== "score")
    throw new InvalidValueError(
      "unrepresentableText",
      `must be "error" or "score", got ${describe(o.unrepresentableText)}.`,
    );
  return {
    maxPairs: int("maxPairs", 1),
    minUnitWords: int("minUnitWords", 0),
    minClaimWords: int("minClaimWords", 0),
    coverageWindow: int("coverageWindow", 1, 8),
    joinArguments: o.joinArguments ?? true,
    unrepresentableText: o.unrepresentableText ?? "error",
  };
}

/** An argument as a sentence, for joined premises ("A" + "B" -> "A. B."). */
const asSentence = (text: string) => {
  const t = text.trim();
  return /[.!?]["'”’)\]]*$/.test(t) ? t : `${t}.`;
};

interface Premise extends PremiseRef {
  text: string;
}

/** The premises of the hallucination side (see the module comment). */
function premisesOf(g: Grounding, o: Required<NliScoringOptions>): Premise[] {
  const premises: Premise[] = [];
  const seen = new Set<string>();
  const add = (p: Premise) => {
    if (seen.has(p.text)) return;
    seen.add(p.text);
    premises.push(p);
  };
  const origin = (k: number, from: number, to: number) => {
    const a = unitOrigin(g, k, from);
    const b = unitOrigin(g, k, to);
    return a === undefined || b === undefined ? {} : { origin: { ...a, end: b.end } };
  };
  for (const [k, p] of g.perspectives.entries())
    for (const [j, a] of p.arguments.entries())
      add({ kind: "unit", perspective: k, from: j, to: j, text: a.text, ...origin(k, j, j) });

  g.perspectives.forEach((p, k) => {
    const short = p.arguments.map((a) => segmentWords(a.text).length < o.minUnitWords);
    for (let j = 0; j + 1 < p.arguments.length; j++) {
      if (!short[j] && !short[j + 1]) continue;
      const source = g.sources?.[k];
      const units = g.units?.[k];
      const text =
        source !== undefined && units !== undefined
          ? source.text.slice((units[j] as { start: number }).start, (units[j + 1] as { end: number }).end)
          : `${asSentence((p.arguments[j] as { text: string }).text)} ${asSentence((p.arguments[j + 1] as { text: string }).text)}`;
      add({ kind: "window", perspective: k, from: j, to: j + 1, text, ...origin(k, j, j + 1) });
    }
  });
  if (g.kind === "npov" && o.joinArguments) {
    g.perspectives.forEach((p, k) => {
      if (p.arguments.length > 1)
        add({
          kind: "perspective",
          perspective: k,
          from: 0,
          to: p.arguments.length - 1,
          text: p.arguments.map((a) => asSentence(a.text)).join(" "),
        });
    });
    add({
      kind: "input",
      perspective: -1,
      from: -1,
      to: -1,
      text: g.perspectives.flatMap((p) => p.arguments.map((a) => asSentence(a.text))).join(" "),
    });
  }
  return premises;
}

/** The nli detector (see the module comment); `score` gives the full result, `detect` the ErrorDetector view. */
export class NliDetector implements ErrorDetector {
  readonly name = "nli";
  private readonly options: Required<NliScoringOptions>;

  constructor(
    readonly model: NliModel,
    options: NliScoringOptions = {},
  ) {
    if (!(model instanceof NliModel))
      throw new InvalidValueError("model", "must be an NliModel (NliModel.fromPretrained).");
    this.options = checkScoringOptions(options);
  }

  /**
   * Load an NLI model (see {@link NliModel.fromPretrained}) and build the detector on it.
   * @throws the errors of NliModel.fromPretrained; InvalidValueError for bad options
   */
  static async fromPretrained(
    idOrPath: string,
    options: NliModelOptions & NliScoringOptions = {},
  ): Promise<NliDetector> {
    const { maxPairs, minUnitWords, minClaimWords, coverageWindow, joinArguments, unrepresentableText, ...rest } =
      options;
    const scoring = checkScoringOptions({
      maxPairs,
      minUnitWords,
      minClaimWords,
      coverageWindow,
      joinArguments,
      unrepresentableText,
    });
    return new NliDetector(await NliModel.fromPretrained(idOrPath, rest), scoring);
  }

  /**
   * Score a response against an NPOV input or sources (see the module comment).
   * @throws the validation errors of core's groundingOf and validateResponse; InputTooLargeError beyond
   * `maxPairs`; UnrepresentableTextError; the errors of {@link NliModel.scorePairs}.
   */
  async score(input: CheckInput, response: string): Promise<NliResult> {
    const g = groundingOf(input);
    const text = validateResponse(response);
    const o = this.options;
    if (o.unrepresentableText === "error")
      this.model.requireRepresentable([
        ...g.perspectives.flatMap((p, k) =>
          p.arguments.map((a, j) => ({
            path: g.kind === "sources" ? `sources[${k}] unit ${j + 1}` : `perspectives[${k}].arguments[${j}]`,
            text: a.text,
          })),
        ),
        { path: "response", text },
      ]);
    const sentences = splitSentences(text);
    const premises = premisesOf(g, o);
    const windows: Array<{ start: number; end: number }> = [];
    for (let i = 0; i < sentences.length; i++)
      for (let w = 1; w <= o.coverageWindow && i + w <= sentences.length; w++)
        windows.push({
          start: (sentences[i] as { start: number }).start,
          end: (sentences[i + w - 1] as { end: number }).end,
        });
    const args = g.perspectives.flatMap((p, k) => p.arguments.map((a, j) => ({ k, j, text: a.text })));
    const total = sentences.length * premises.length + args.length * windows.length;
    if (total > o.maxPairs)
      throw new InputTooLargeError(
        "input",
        total,
        o.maxPairs,
        "sentence pairs to score",
        `nli scores each of the response's ${sentences.length} sentences against ${premises.length} premises and each of ${args.length} ${g.kind === "sources" ? "source sentences" : "arguments"} against ${windows.length} response windows: shorten the response or the ${g.kind === "sources" ? "sources" : "input"}, or raise maxPairs (--nli-max-pairs).`,
      );
    const pairs: NliPair[] = [
      ...sentences.flatMap((s) => premises.map((p) => ({ premise: p.text, hypothesis: s.text }))),
      ...args.flatMap((a) => windows.map((w) => ({ premise: text.slice(w.start, w.end), hypothesis: a.text }))),
    ];
    const scores = await this.model.scorePairs(pairs);

    const queryTerms = new Set(contentTerms(`${g.query} ${g.topic}`).map((t) => t.term));
    const sentenceResults: NliSentence[] = sentences.map((s, i) => {
      const row = scores.slice(i * premises.length, (i + 1) * premises.length);
      const best = argBest(row);
      const contradictions = row.flatMap((x) => (x.contradiction === undefined ? [] : [x.contradiction]));
      const { text: _premiseText, ...bestPremise } = premises[best] as Premise;
      const entailment = (row[best] as PairScore).entailment;
      return {
        text: s.text,
        start: s.start,
        end: s.end,
        claim: contentTerms(s.text).filter((t) => !queryTerms.has(t.term)).length >= o.minClaimWords,
        entailment,
        score: 1 - entailment,
        bestPremise,
        ...(contradictions.length === 0 ? {} : { contradiction: maxOf(contradictions) }),
        truncated: row.some((x) => x.truncated !== undefined),
      };
    });
    const offset = sentences.length * premises.length;
    const argumentResults: NliArgument[] = args.map((a, i) => {
      const row = scores.slice(offset + i * windows.length, offset + (i + 1) * windows.length);
      const best = argBest(row);
      const entailment = (row[best] as PairScore).entailment;
      const origin = unitOrigin(g, a.k, a.j);
      return {
        perspective: a.k,
        argument: a.j,
        text: a.text,
        entailment,
        score: 1 - entailment,
        span: { ...(windows[best] as { start: number; end: number }) },
        truncated: row.some((x) => x.truncated !== undefined),
        ...(origin === undefined ? {} : { origin }),
      };
    });

    const claims = sentenceResults.filter((s) => s.claim);
    const scored = claims.length > 0 ? claims : sentenceResults;
    const hallucination = maxOf(scored.map((s) => s.score));
    const perspectives = g.perspectives.map((p, k) => ({
      label: p.label,
      entailment: minOf(argumentResults.filter((a) => a.perspective === k).map((a) => a.entailment)),
    }));
    const coverageEntailments = argumentResults.map((a) => a.entailment);
    const coverage =
      g.kind === "sources" ? 1 - mean(coverageEntailments) : 1 - minOf(perspectives.map((p) => p.entailment));
    const distinct = new Map<string, PairScore>();
    for (const [i, p] of pairs.entries()) distinct.set(`${p.premise}\u0000${p.hypothesis}`, scores[i] as PairScore);
    const distinctScores = [...distinct.values()];
    const contradictions = scored.flatMap((s) => (s.contradiction === undefined ? [] : [s.contradiction]));
    const features: Record<string, number> = {
      "nli.hallucination": hallucination,
      "nli.coverage": coverage,
      "nli.minEntailment": minOf(scored.map((s) => s.entailment)),
      "nli.meanEntailment": mean(scored.map((s) => s.entailment)),
      "nli.minCoverage": minOf(coverageEntailments),
      "nli.meanCoverage": mean(coverageEntailments),
      ...(contradictions.length === 0 ? {} : { "nli.maxContradiction": maxOf(contradictions) }),
      "nli.claimSentences": claims.length,
      "nli.sentences": sentences.length,
      "nli.truncatedPairs": distinctScores.filter((s) => s.truncated !== undefined).length,
    };
    for (const [field, value] of Object.entries(features))
      if (!Number.isFinite(value)) throw new InvalidScoreError("nli", field, value);
    return {
      method: "nli",
      kind: g.kind,
      model: this.model.model,
      hallucination,
      coverage,
      sentences: sentenceResults,
      arguments: argumentResults,
      perspectives,
      pairs: {
        total: pairs.length,
        distinct: distinctScores.length,
        cached: distinctScores.filter((s) => s.cached).length,
        truncated: features["nli.truncatedPairs"] as number,
      },
      features,
    };
  }

  /**
   * As an ErrorDetector: scores; evidence (the claim sentences by hallucination score, every argument or
   * source unit by coverage-error score, with its offsets for sources); features; word maps at sentence
   * granularity (a word scores as its sentence, framing sentences 0; an argument word as its argument).
   */
  async detect(input: CheckInput, response: string): Promise<ErrorScores> {
    const g = groundingOf(input);
    const r = await this.score(g, response);
    const claims = r.sentences.filter((s) => s.claim);
    const scored = claims.length > 0 ? claims : r.sentences;
    const responseWords: ResponseWordScore[] = r.sentences.flatMap((s) =>
      segmentWords(s.text).map((w) => ({
        start: s.start + w.start,
        end: s.start + w.end,
        score: scored.includes(s) ? s.score : 0,
      })),
    );
    const argumentWords: ArgumentWordScore[] = r.arguments.flatMap((a) =>
      segmentWords(a.text).map((w) => ({
        perspective: a.perspective,
        argument: a.argument,
        start: w.start,
        end: w.end,
        score: a.score,
      })),
    );
    const byArgument = new Map(r.arguments.map((a) => [`${a.perspective}/${a.argument}`, a.score]));
    return flagEvidence(
      withUnitOrigins(g, {
        hallucination: r.hallucination,
        coverage: r.coverage,
        uncoveredArguments: rankUncoveredArguments(
          g.perspectives.map((p, k) => ({
            arguments: p.arguments.map((a, j) => ({ text: a.text, key: `${k}/${j}` })),
          })),
          (a) => byArgument.get(a.key) as number,
        ),
        unsupportedSpans: scored
          .map((s) => ({ text: s.text, start: s.start, end: s.end, score: s.score }))
          .sort((a, b) => b.score - a.score || a.start - b.start),
        features: r.features,
        words: { response: responseWords, arguments: argumentWords },
      }),
    );
  }

  /** Release the model's onnxruntime session. */
  async dispose(): Promise<void> {
    await this.model.dispose();
  }
}

/** Index of the highest entailment in a row of pair scores (the first on ties). */
function argBest(row: readonly PairScore[]): number {
  let best = 0;
  for (let i = 1; i < row.length; i++)
    if ((row[i] as PairScore).entailment > (row[best] as PairScore).entailment) best = i;
  return best;
}

const mean = (xs: readonly number[]) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);
