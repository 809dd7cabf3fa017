/**
 * The ROUGE-1 detector of SPEC section 2.1: precision against the union of all given argument words
 * (hallucination = 1 - precision) and recall per perspective (coverage = 1 - the minimum), with word
 * maps that say which response words are unsupported and which argument words are uncovered.
 */
import { type CheckInput, groundingOf, type Term, validateResponse } from "@npov/core";
import { requireContent } from "./content.js";
import { clippedOverlapUnchecked as clippedOverlap, countTermsUnchecked as countTerms } from "./score.js";
import { checkTokenizeOptions, type TokenizeOptions, tokenize } from "./tokenize.js";

/** A response word and its hallucination score: 1 when no given argument contains it. */
export interface RougeResponseWord {
  text: string;
  /** Offsets into the response. */
  start: number;
  end: number;
  /** The comparison key (stemmed). */
  term: string;
  /** 1 = unmatched in the arguments (hallucinated), 0 = matched. */
  hallucination: 0 | 1;
}

/** An argument word and its coverage-error score: 1 when the response does not contain it. */
export interface RougeArgumentWord {
  text: string;
  /** Offsets into the argument text. */
  start: number;
  end: number;
  term: string;
  /** 1 = unmatched in the response (uncovered), 0 = matched. */
  coverage: 0 | 1;
}

/** How much of one given argument the response covers. */
export interface ArgumentRecall {
  text: string;
  id?: string;
  /** Fraction of this argument's words found in the response (clipped; 1 for an argument without content words). */
  recall: number;
  /** Matched and total content words of this argument. */
  matched: number;
  total: number;
  words: RougeArgumentWord[];
}

/** Recall of one perspective: its argument words found in the response. */
export interface PerspectiveRecall {
  label: string;
  recall: number;
  matched: number;
  total: number;
  arguments: ArgumentRecall[];
}

/** Everything the ROUGE detector computes for one (input, response) pair. */
export interface RougeResult {
  method: "rouge";
  /** What the response was checked against: NPOV arguments, or plain sources (perspectives = sources). */
  kind?: "npov" | "sources";
  /** Example-level hallucination score, 1 - precision, in [0, 1]. */
  hallucination: number;
  /** Example-level coverage-error score, 1 - recall, in [0, 1]. */
  coverage: number;
  /** Fraction of response words matched in the union of given argument words. */
  precision: number;
  /** Minimum over perspectives of the perspective recall (sources: recall of all source words together). */
  recall: number;
  /** Label of the perspective that gives the minimum recall. */
  weakestPerspective: string;
  perspectives: PerspectiveRecall[];
  /** Response words with their hallucination scores, in text order. */
  words: RougeResponseWord[];
}

/** Options of {@link rougeDetector}: tokenizer, stemming and stop words (defaults = the paper's). */
export type RougeDetectorOptions = TokenizeOptions;

/**
 * Score a response with ROUGE-1 word overlap (SPEC section 2.1).
 *
 * Clipped counts: a word occurring k times in the response and j times in the arguments matches
 * min(k, j) times; the first min(k, j) occurrences in text order are the matched ones, so
 * `precision = 1 - mean(word hallucination scores)` holds exactly. Argument words are clipped per
 * perspective (arguments in their given order), so `perspective.recall = 1 - mean(word coverage scores)`;
 * `argument.recall` is the argument scored on its own against the response.
 *
 * A response or argument without content words (only stop words, or nothing the tokenizer keeps) cannot be
 * scored: it is refused with `NOTHING_TO_SCORE` rather than called clean.
 * @throws NpovError on invalid input or options; NothingToScoreError as above
 */
export function rougeDetector(input: CheckInput, response: string, options: RougeDetectorOptions = {}): RougeResult {
  const clean = groundingOf(input);
  const text = validateResponse(response);
  checkTokenizeOptions(options);
  const what = "no content word (only stop words, or nothing the tokenizer keeps)";
  // A response of stop words only ("No.", "It was.") states nothing word overlap can check: precision 1 (nothing
  // unsupported), recall 0 (nothing covered). A curated argument without content words stays an input error.
  const responseTerms = tokenize(text, options);
  const responseCounts = countTerms(responseTerms.map((t) => t.term));

  // A curated argument without content words is a mistake in the input; a source sentence without any
  // ("Yes, indeed.") simply has nothing to support or cover.
  const argumentTerms = clean.perspectives.map((p, k) =>
    p.arguments.map((a, j) =>
      clean.kind === "sources"
        ? tokenize(a.text, options)
        : requireContent(tokenize(a.text, options), `input.perspectives[${k}].arguments[${j}]`, what),
    ),
  );

  // Precision: response words against the union (multiset sum) of every given argument's words.
  const available = new Map<string, number>();
  for (const side of argumentTerms)
    for (const arg of side) for (const t of arg) available.set(t.term, (available.get(t.term) ?? 0) + 1);
  let matchedResponse = 0;
  const words: RougeResponseWord[] = responseTerms.map((t) => {
    const left = available.get(t.term) ?? 0;
    if (left > 0) {
      available.set(t.term, left - 1);
      matchedResponse++;
    }
    return { text: t.text, start: t.start, end: t.end, term: t.term, hallucination: left > 0 ? 0 : 1 };
  });
  const precision = responseTerms.length === 0 ? 1 : matchedResponse / responseTerms.length;

  const perspectives: PerspectiveRecall[] = clean.perspectives.map((p, k) => {
    const sides = argumentTerms[k] as Term[][];
    // Response occurrences already credited to earlier arguments of this perspective (clipping).
    const used = new Map<string, number>();
    let matched = 0;
    let total = 0;
    const args: ArgumentRecall[] = p.arguments.map((a, j) => {
      const terms = sides[j] as Term[];
      const argWords: RougeArgumentWord[] = new Array(terms.length);
      for (let i = 0; i < terms.length; i++) {
        const t = terms[i] as Term;
        const taken = used.get(t.term) ?? 0;
        const hit = taken < (responseCounts.get(t.term) ?? 0);
        if (hit) {
          used.set(t.term, taken + 1);
          matched++;
        }
        argWords[i] = { text: t.text, start: t.start, end: t.end, term: t.term, coverage: hit ? 0 : 1 };
      }
      total += terms.length;
      // The argument on its own: clipped overlap of its words with the response.
      const ownMatched = clippedOverlap(countTerms(terms.map((t) => t.term)), responseCounts);
      const recall = terms.length === 0 ? 1 : ownMatched / terms.length;
      const result: ArgumentRecall = {
        text: a.text,
        recall,
        matched: ownMatched,
        total: terms.length,
        words: argWords,
      };
      if (a.id !== undefined) result.id = a.id;
      return result;
    });
    return { label: p.label, recall: total === 0 ? 1 : matched / total, matched, total, arguments: args };
  });

  let weakest = perspectives[0] as PerspectiveRecall;
  for (const p of perspectives) if (p.recall < weakest.recall) weakest = p;
  // Sources: recall over every source word together (an answer draws on some documents, not each one).
  const matchedAll = perspectives.reduce((n, p) => n + p.matched, 0);
  const totalAll = perspectives.reduce((n, p) => n + p.total, 0);
  const recall = clean.kind === "sources" ? (totalAll === 0 ? 1 : matchedAll / totalAll) : weakest.recall;
  return {
    method: "rouge",
    kind: clean.kind,
    hallucination: 1 - precision,
    coverage: 1 - recall,
    precision,
    recall,
    weakestPerspective: weakest.label,
    perspectives,
    words,
  };
}
