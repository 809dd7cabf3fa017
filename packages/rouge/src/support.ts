/**
 * The "support" detector: data-free alignment that holds on chatbot-style responses.
 *
 * 1. Word similarity ({@link SemanticMatcher}): exact stem, WordNet lemma/synonym/derivation/hypernym (the
 *    soft matcher's weights) or, for any pair of WordNet lemmas, the lexsim embedding's cosine mapped to
 *    [0, 1] -- so free rewording ("firing weapons" / "shooting guns") still matches.
 * 2. Specificity ({@link Specificity}): every word weighs its IDF over the knowledge base, query and topic
 *    words discounted, so a new claim built from the debate's own words is not "supported".
 * 3. Roles ({@link sentenceRole}): framing and discourse sentences (and openings and closings that do not
 *    restate arguments) carry no argument and are not scored for hallucination.
 * 4. Per argument sentence: support = specificity-weighted share of its words matched in the arguments;
 *    unsupported mass = specificity of its unmatched words; orphan = inside no argument's best window;
 *    unmatched names and numbers. Per argument: coverage = specificity-weighted share of its words matched
 *    in the response -- globally, within its best one or two adjacent sentences, and within the sentence a
 *    one-to-one assignment of arguments to sentences gives it.
 * 5. Structure: side blocks (a sentence opening with a side cue, {@link opensSide}, starts the next one) and
 *    which perspective each clearly attributed argument sentence states: an argument stated in the other
 *    side's block, or perspectives switching more often than once each, marks an argument presented as the
 *    other side's.
 * 6. Example scores: a learned logistic combiner over these distributions ({@link SupportCombiner},
 *    models/npov-support) when one is given, else 1 - the least support and 1 - the least coverage.
 */
import {
  type CheckInput,
  contentTerms,
  describe,
  type ErrorDetector,
  type ErrorScores,
  groundingOf,
  InvalidValueError,
  maxOf,
  minOf,
  NotTextError,
  requireArray,
  requireNumber,
  requireRecord,
  splitSentences,
  type Term,
  validateResponse,
} from "@npov/core";
import { applyCombiner, checkSupportCombiner, defaultSupportCombiner, type SupportCombiner } from "./combiner.js";
import { PairTable, requireContent, termsBySentence } from "./content.js";
import { maxWeightMatching } from "./hungarian.js";
import { checkLexSim, defaultLexSim, type LexSim, lexCosineUnchecked } from "./lexsim.js";
import { type AlignmentLimits, checkInputSize, checkSentencePairs, checkWordPairs, resolveLimits } from "./limits.js";
import { isDiscourseTerm, opensSide, type SentenceRole, sentenceRole } from "./roles.js";
import { checkSoftMatchOptions, SoftMatcher, type SoftMatchOptions } from "./soft.js";
import { defaultSpecificityTable, Specificity, type SpecificityTable } from "./specificity.js";
import { loadWordNet, type WordNet } from "./wordnet.js";

/** Options of {@link SemanticMatcher}. */
export interface SemanticMatchOptions {
  /** Lemma embeddings (default: the shipped models/npov-lexsim, if present). `null` disables. */
  lexsim?: LexSim | null;
  /** Cosine at which an embedding match starts counting (default 0.4). */
  low?: number;
  /** Cosine at which an embedding match reaches `cap` (default 0.9). */
  high?: number;
  /** Largest weight of an embedding match (default 0.9). */
  cap?: number;
  /** WordNet relation weights (the soft matcher's options; its vectors are not used). */
  relations?: Omit<SoftMatchOptions, "vectors" | "wordnet">;
  wordnet?: WordNet;
}

/** Word similarity in [0, 1]: WordNet relations, then the lexsim cosine (memoized per pair). */
export class SemanticMatcher {
  private readonly soft: SoftMatcher;
  private readonly lexsim: LexSim | undefined;
  private readonly wn: WordNet;
  private readonly cache = new Map<string, number>();
  private readonly lemmaCache = new Map<string, string[]>();
  /** @throws InvalidValueError for bad options */
  constructor(readonly options: SemanticMatchOptions = {}) {
    requireRecord(options, "options", "an object of semantic-matching options");
    for (const key of ["low", "high", "cap"] as const)
      if (options[key] !== undefined) requireNumber(options[key], `options.${key}`, { min: -1, max: 1 });
    if ((options.high ?? 0.9) <= (options.low ?? 0.4))
      throw new InvalidValueError("options.high", "must be above options.low.");
    if (options.relations !== undefined) checkSoftMatchOptions(options.relations, "options.relations");
    this.wn = options.wordnet ?? loadWordNet();
    this.soft = new SoftMatcher({ ...options.relations, wordnet: this.wn });
    this.lexsim = options.lexsim === null ? undefined : (options.lexsim ?? defaultLexSim());
    if (this.lexsim !== undefined) checkLexSim(this.lexsim, "options.lexsim");
  }

  private lemmas(word: string): string[] {
    let l = this.lemmaCache.get(word);
    if (l === undefined) {
      l = this.wn.lemmas(word);
      if (!l.includes(word)) l = [word, ...l];
      if (this.lemmaCache.size >= 1_000_000) this.lemmaCache.clear();
      this.lemmaCache.set(word, l);
    }
    return l;
  }

  /** Embedding similarity of two words mapped to [0, cap] (0 when either is unknown). */
  embedding(x: string, y: string): number {
    if (typeof x !== "string") throw new NotTextError("x", x);
    if (typeof y !== "string") throw new NotTextError("y", y);
    return this.lemmaEmbedding(x, y);
  }

  private lemmaEmbedding(x: string, y: string): number {
    if (this.lexsim === undefined) return 0;
    let best = -1;
    for (const a of this.lemmas(x))
      for (const b of this.lemmas(y)) best = Math.max(best, lexCosineUnchecked(this.lexsim, a, b) ?? -1);
    // Chosen by topic-grouped cross-validation on the chatbot-dev tune part (0.2-0.5 / 0.6-1.0 tried).
    const low = this.options.low ?? 0.4;
    const high = this.options.high ?? 0.9;
    const cap = this.options.cap ?? 0.9;
    return Math.min(1, Math.max(0, (best - low) / (high - low))) * cap;
  }

  /** Similarity of two terms in [0, 1]. @throws InvalidValueError for a non-term */
  weight(a: Term, b: Term): number {
    this.soft.weight(a, b); // checks both terms
    return this.pairWeight(a, b);
  }

  /** {@link weight} without the argument checks, for the detector's inner loops. @internal */
  pairWeight(a: Term, b: Term): number {
    if (a.term === b.term) return 1;
    const key = a.lower < b.lower ? `${a.lower}\u0000${b.lower}` : `${b.lower}\u0000${a.lower}`;
    let w = this.cache.get(key);
    if (w === undefined) {
      // The soft matcher's own memo is skipped: this one already holds the pair.
      w = Math.max(this.soft.relationWeight(a.lower, b.lower), this.lemmaEmbedding(a.lower, b.lower));
      // Bounded memo: a long-running server sees ever new word pairs.
      if (this.cache.size >= 1_000_000) this.cache.clear();
      this.cache.set(key, w);
    }
    return w;
  }
}

/** Options of {@link supportResponse}. */
export interface SupportOptions {
  matcher?: SemanticMatcher;
  /** Document frequencies for specificity (default: the shipped table; `null`: every word weighs 1). */
  specificity?: SpecificityTable | null;
  /** Factor on query and topic words (default 0.3). */
  queryDiscount?: number;
  /** Role threshold (specificity mass of non-discourse, non-query words; default 1.0, chosen on the tune part). */
  roleThreshold?: number;
  /** Learned combiner (default: the shipped models/npov-support/combiner.json; `null`: the plain rule). */
  combiner?: SupportCombiner | null;
  /** Size limits (defaults in limits.ts: response characters, arguments, word pairs, matching steps). */
  limits?: AlignmentLimits;
}

/** A response word with its specificity and its best match in the arguments. */
export interface SupportWord {
  text: string;
  start: number;
  end: number;
  weight: number;
  /** Best similarity to any argument word (1 for query/topic words), in [0, 1]. */
  support: number;
  discourse: boolean;
}

/** One response sentence with its role and support. */
export interface SupportSentence {
  text: string;
  start: number;
  end: number;
  role: SentenceRole;
  /** Specificity-weighted share of its (non-discourse) words matched in the arguments. */
  support: number;
  /** Specificity mass of its unmatched words. */
  unsupportedMass: number;
  /** The argument that supports it best, with that argument's share alone. */
  bestArgument?: { perspective: number; argument: number; support: number };
  /**
   * An argument sentence inside no argument's best window: nothing given explains it, the mark of an extra
   * argument (a reworded given argument is the best window of its argument).
   */
  orphan: boolean;
  /** Mentions the debate: a query/topic word or a word matched in the arguments at >= 0.7. */
  topical: boolean;
  /**
   * Names and numbers (capitalized words after the first, words with digits) not matched in the input: the
   * organisations, studies, countries and statistics an invented claim is made of.
   */
  unsupportedNames: number;
  /** Index of its side block: a sentence opening with a side cue ("However", "Critics", ...) starts the next. */
  side: number;
  words: SupportWord[];
}

/** One given argument with its coverage. */
export interface SupportArgument {
  perspective: number;
  argument: number;
  text: string;
  /** Specificity-weighted share of its words matched anywhere in the response's argument sentences. */
  coverage: number;
  /** The same within the best window of one or two adjacent argument sentences. */
  localCoverage: number;
  /** Response span of the window that covers it best. */
  span?: { start: number; end: number };
  /** Coverage within the sentence a one-to-one assignment of arguments to sentences gives it. */
  assignedCoverage: number;
  /** Largest share of one argument sentence that this argument explains (0 when none). */
  claim: number;
  /** Whether some argument sentence is explained best by this argument. */
  claimed: boolean;
  /** Its content words, offsets into the argument's text, with their specificity and best match in the response. */
  words: Array<{ text: string; start: number; end: number; weight: number; match: number }>;
}

/** What {@link supportResponse} computes. */
export interface SupportResult {
  method: "support";
  hallucination: number;
  coverage: number;
  sentences: SupportSentence[];
  arguments: SupportArgument[];
  features: Record<string, number>;
}

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
const mean = (xs: readonly number[]) => (xs.length === 0 ? 0 : sum(xs) / xs.length);
const sorted = (xs: readonly number[]) => [...xs].sort((a, b) => a - b);

/** Similarity of a word to a word of the other text. */
type Similarity = (word: Term, other: Term) => number;

/** The best similarity of each word to any word of `pool`. */
function bestMatches(words: ReadonlyArray<{ term: Term }>, pool: readonly Term[], similarity: Similarity): number[] {
  return words.map((w) => {
    let best = 0;
    for (const p of pool) {
      best = Math.max(best, similarity(w.term, p));
      if (best === 1) break;
    }
    return best;
  });
}

/** Weighted share of `words` matched in `pool` (best similarity per word); 1 when there is no weight. */
function weightedMatch(
  words: ReadonlyArray<{ term: Term; weight: number }>,
  pool: readonly Term[],
  similarity: Similarity,
  best: readonly number[] = bestMatches(words, pool, similarity),
): number {
  let total = 0;
  let matched = 0;
  words.forEach((w, i) => {
    total += w.weight;
    matched += w.weight * (best[i] as number);
  });
  return total === 0 ? 1 : matched / total;
}

let sharedMatcher: SemanticMatcher | undefined;
function defaultMatcher(): SemanticMatcher {
  sharedMatcher ??= new SemanticMatcher();
  return sharedMatcher;
}

/** Check the options of {@link supportResponse}. @throws InvalidValueError */
function checkSupportOptions(options: unknown): SupportOptions {
  if (typeof options !== "object" || options === null || Array.isArray(options))
    throw new InvalidValueError("options", "must be an object of support options.");
  const o = options as SupportOptions;
  if (o.matcher !== undefined && !(o.matcher instanceof SemanticMatcher))
    throw new InvalidValueError("options.matcher", "must be a SemanticMatcher.");
  for (const key of ["queryDiscount", "roleThreshold"] as const) {
    const v = o[key];
    if (v !== undefined && (typeof v !== "number" || !Number.isFinite(v) || v < 0))
      throw new InvalidValueError(`options.${key}`, `must be a finite number >= 0, got ${describe(v)}.`);
  }
  const t = o.specificity as unknown;
  if (t !== undefined && t !== null) {
    const table = t as Partial<SpecificityTable>;
    if (
      typeof t !== "object" ||
      !(table.df instanceof Map) ||
      typeof table.documents !== "number" ||
      !Number.isInteger(table.documents) ||
      table.documents < 1
    )
      throw new InvalidValueError(
        "options.specificity",
        "must be a specificity table {documents, df} (buildSpecificityTable), or null.",
      );
  }
  if (o.combiner !== undefined && o.combiner !== null) checkSupportCombiner(o.combiner, "options.combiner");
  return o;
}

/**
 * Align a response with its arguments (see the module comment).
 * @throws NpovError on invalid input or options; NothingToScoreError when the response or an argument has
 * only stop words; InputTooLargeError beyond the limits of limits.ts (`options.limits` overrides them)
 */
export function supportResponse(input: CheckInput, response: string, options: SupportOptions = {}): SupportResult {
  const clean = groundingOf(input);
  const text = validateResponse(response);
  checkSupportOptions(options);
  const limits = resolveLimits(options.limits);
  checkInputSize(clean, text, limits);
  const matcher = options.matcher ?? defaultMatcher();
  const table = options.specificity === null ? undefined : (options.specificity ?? defaultSpecificityTable());
  const spec = new Specificity(table, clean, {
    ...(options.queryDiscount === undefined ? {} : { queryDiscount: options.queryDiscount }),
  });
  const args = clean.perspectives.flatMap((p, k) =>
    p.arguments.map((a, j) => ({
      k,
      j,
      text: a.text,
      terms:
        clean.kind === "sources"
          ? contentTerms(a.text)
          : requireContent(contentTerms(a.text), `input.perspectives[${k}].arguments[${j}]`),
    })),
  );
  const argPool = args.flatMap((a) => a.terms);
  const respTerms = requireContent(contentTerms(text), "response");
  checkWordPairs(respTerms.length, argPool.length, limits);
  const meter = limits.meter;
  const pairs = new PairTable((r, a) => matcher.pairWeight(r, a), respTerms, argPool);
  // Per response word: its weight and best match in the arguments (query/topic words count as matched).
  const wordInfo = respTerms.map((t) => {
    const discourse = isDiscourseTerm(t);
    let best = spec.inQuery(t) ? 1 : 0;
    for (const p of argPool) {
      if (best === 1) break;
      best = Math.max(best, pairs.get(t, p));
    }
    return { term: t, weight: spec.weight(t), support: best, discourse, inQuery: spec.inQuery(t) };
  });
  const split = splitSentences(text);
  checkSentencePairs(split.length, args.length, limits);
  let side = 0;
  const shareRows: number[][] = []; // per sentence, per argument: share of the sentence explained by it
  const wordsBySentence = termsBySentence(wordInfo, split, (w) => w.term);
  const sentences: SupportSentence[] = split.map((s, index) => {
    const words = wordsBySentence[index] as typeof wordInfo;
    const content = words.filter((w) => !w.discourse);
    const role = sentenceRole(words, {
      ...(options.roleThreshold === undefined ? {} : { threshold: options.roleThreshold }),
      edge: split.length >= 3 && (index === 0 || index === split.length - 1),
    });
    const total = sum(content.map((w) => w.weight));
    const support = total === 0 ? 1 : sum(content.map((w) => w.weight * w.support)) / total;
    const unsupportedMass = sum(content.map((w) => w.weight * (1 - w.support)));
    let bestArgument: SupportSentence["bestArgument"];
    const shares = role === "argument" ? args.map((a) => weightedMatch(content, a.terms, pairs.get)) : [];
    shares.forEach((share, i) => {
      const a = args[i] as (typeof args)[number];
      if (bestArgument === undefined || share > bestArgument.support)
        bestArgument = { perspective: a.k, argument: a.j, support: share };
    });
    shareRows.push(shares);
    if (index > 0 && opensSide(s.text)) side++;
    return {
      text: s.text,
      start: s.start,
      end: s.end,
      role,
      orphan: false,
      topical: content.some((w) => w.inQuery || w.support >= 0.7),
      unsupportedNames: words.filter(
        (w) =>
          w.support < 0.7 && (/\p{N}/u.test(w.term.text) || (w.term.start > s.start && /^\p{Lu}/u.test(w.term.text))),
      ).length,
      support,
      unsupportedMass,
      side,
      ...(bestArgument === undefined ? {} : { bestArgument }),
      words: words.map((w) => ({
        text: w.term.text,
        start: w.term.start,
        end: w.term.end,
        weight: w.weight,
        support: w.support,
        discourse: w.discourse,
      })),
    };
  });
  const argumentSentences = sentences.filter((s) => s.role === "argument");
  // Coverage looks at every sentence: an argument stated in an opening still counts as stated.
  const scoredSentences = sentences;
  const sentenceTerms = termsBySentence(respTerms, scoredSentences);
  const responsePool = sentenceTerms.flat();
  const singleCoverage: number[][] = []; // per argument, per sentence
  const argumentsOut: SupportArgument[] = args.map((a, ai) => {
    const claim = maxOf(
      shareRows.map((row) => row[ai] ?? 0),
      0,
    );
    const claimed = sentences.some((s) => s.bestArgument?.perspective === a.k && s.bestArgument.argument === a.j);
    const weighted = a.terms.map((t) => ({ term: t, weight: spec.weight(t) }));
    const matches = bestMatches(weighted, responsePool, pairs.get);
    const coverage = weightedMatch(weighted, responsePool, pairs.get, matches);
    let localCoverage = 0;
    let span: SupportArgument["span"];
    // One sentence first; two adjacent sentences (an argument split in two) only when clearly better, so
    // a neighbouring extra sentence is not swallowed into the window.
    const single: number[] = [];
    for (const width of [1, 2])
      for (let i = 0; i + width <= sentenceTerms.length; i++) {
        const c = weightedMatch(weighted, sentenceTerms.slice(i, i + width).flat(), pairs.get);
        if (width === 1) single.push(c);
        if (c > localCoverage + (width === 2 ? 0.1 : 0)) {
          localCoverage = c;
          span = {
            start: (scoredSentences[i] as SupportSentence).start,
            end: (scoredSentences[i + width - 1] as SupportSentence).end,
          };
        }
      }
    singleCoverage.push(single);
    return {
      perspective: a.k,
      argument: a.j,
      text: a.text,
      coverage,
      localCoverage,
      assignedCoverage: 0,
      claim,
      claimed,
      words: weighted.map((w, i) => ({
        text: w.term.text,
        start: w.term.start,
        end: w.term.end,
        weight: w.weight,
        match: matches[i] as number,
      })),
      ...(span === undefined ? {} : { span }),
    };
  });
  // One-to-one: each argument gets its own sentence (a sentence may state two merged arguments, the second
  // at 0.8), so two arguments cannot both lean on the one sentence that states only one of them.
  const columns = sentences.flatMap((_, i) => [i, i]);
  const assignment = maxWeightMatching(
    singleCoverage.map((row) => Float64Array.from(columns, (i, c) => (row[i] ?? 0) * (c % 2 === 0 ? 1 : 0.8))),
    meter,
  );
  argumentsOut.forEach((a, ai) => {
    const col = assignment[ai] ?? -1;
    a.assignedCoverage = col < 0 ? 0 : ((singleCoverage[ai] as number[])[columns[col] as number] ?? 0);
  });
  for (const s of argumentSentences)
    s.orphan = !argumentsOut.some((a) => a.span !== undefined && a.span.start <= s.start && s.end <= a.span.end);
  const features = featuresOf(sentences, argumentsOut, clean.perspectives.length);
  const combiner = options.combiner === null ? undefined : (options.combiner ?? defaultSupportCombiner());
  const fallback = {
    hallucination: 1 - (features["support.minSupport"] as number),
    coverage: 1 - (features["support.minLocalCoverage"] as number),
  };
  const scores = combiner === undefined ? fallback : applyCombiner(combiner, features);
  return { method: "support", ...scores, sentences, arguments: argumentsOut, features };
}

/** The combiner's inputs: distributions of sentence support and argument coverage, and role counts. */
export function supportFeatures(
  sentences: readonly SupportSentence[],
  args: readonly SupportArgument[],
  perspectives: number,
): Record<string, number> {
  checkFeatureParts(sentences, args, perspectives);
  return featuresOf(sentences, args, perspectives);
}

const unit = { min: 0, max: 1 };
const count = { min: 0, integer: true };

/** Check what {@link supportFeatures} reads (as supportResponse returns it). @throws InvalidValueError */
function checkFeatureParts(sentences: unknown, args: unknown, perspectives: unknown): void {
  const k = requireNumber(perspectives, "perspectives", { min: 1, max: 100_000, integer: true });
  const argList = requireArray(args, "args", "an array of support arguments (supportResponse)");
  const seen = new Set<number>();
  argList.forEach((a, i) => {
    const at = `args[${i}]`;
    const x = requireRecord(a, at, "a support argument");
    seen.add(requireNumber(x.perspective, `${at}.perspective`, { min: 0, max: k - 1, integer: true }));
    for (const key of ["coverage", "localCoverage", "assignedCoverage", "claim"])
      requireNumber(x[key], `${at}.${key}`, unit);
    if (typeof x.claimed !== "boolean") throw new InvalidValueError(`${at}.claimed`, "must be true or false.");
  });
  if (seen.size < k)
    throw new InvalidValueError("args", `must hold at least one argument of each of the ${k} perspectives.`);
  requireArray(sentences, "sentences", "an array of support sentences (supportResponse)").forEach((s, i) => {
    const at = `sentences[${i}]`;
    const x = requireRecord(s, at, "a support sentence");
    if (x.role !== "argument" && x.role !== "framing")
      throw new InvalidValueError(`${at}.role`, 'must be "argument" or "framing".');
    requireNumber(x.support, `${at}.support`, unit);
    requireNumber(x.unsupportedMass, `${at}.unsupportedMass`, { min: 0 });
    requireNumber(x.unsupportedNames, `${at}.unsupportedNames`, count);
    requireNumber(x.side, `${at}.side`, count);
    for (const key of ["orphan", "topical"])
      if (typeof x[key] !== "boolean") throw new InvalidValueError(`${at}.${key}`, "must be true or false.");
    if (x.bestArgument !== undefined) {
      const b = requireRecord(x.bestArgument, `${at}.bestArgument`, "{perspective, argument, support}");
      requireNumber(b.perspective, `${at}.bestArgument.perspective`, { min: 0, max: k - 1, integer: true });
      requireNumber(b.support, `${at}.bestArgument.support`, unit);
    }
    requireArray(x.words, `${at}.words`).forEach((w, j) => {
      const y = requireRecord(w, `${at}.words[${j}]`, "a support word");
      requireNumber(y.weight, `${at}.words[${j}].weight`, { min: 0 });
      requireNumber(y.support, `${at}.words[${j}].support`, unit);
      if (typeof y.discourse !== "boolean")
        throw new InvalidValueError(`${at}.words[${j}].discourse`, "must be true or false.");
    });
  });
}

function featuresOf(
  sentences: readonly SupportSentence[],
  args: readonly SupportArgument[],
  perspectives: number,
): Record<string, number> {
  const argumentSentences = sentences.filter((s) => s.role === "argument");
  const supports = sorted(argumentSentences.map((s) => s.support));
  const masses = sorted(argumentSentences.map((s) => s.unsupportedMass)).reverse();
  const best = sorted(argumentSentences.map((s) => s.bestArgument?.support ?? 0));
  const cov = sorted(args.map((a) => a.coverage));
  const local = sorted(args.map((a) => a.localCoverage));
  const words = argumentSentences.flatMap((s) => s.words.filter((w) => !w.discourse));
  const orphans = argumentSentences.filter((s) => s.orphan);
  const topical = argumentSentences.filter((s) => s.topical);
  const weight = sum(words.map((w) => w.weight));
  const perPerspective = Array.from({ length: perspectives }, (_, k) =>
    minOf(args.filter((a) => a.perspective === k).map((a) => a.localCoverage)),
  );
  const minLocal = local[0] ?? 1;
  const minAssigned = minOf(args.map((a) => a.assignedCoverage));
  // Structure: the perspective each clearly attributed argument sentence states, in order, and its side block.
  const attributed = argumentSentences.filter((s) => s.bestArgument !== undefined && s.bestArgument.support >= 0.3);
  const order = attributed.map((s) => s.bestArgument?.perspective as number);
  let switches = 0;
  for (let i = 1; i < order.length; i++) if (order[i] !== order[i - 1]) switches++;
  const blocksOf = new Map<number, Set<number>>(); // perspective -> side blocks it is stated in
  const perspectivesIn = new Map<number, Set<number>>(); // side block -> perspectives stated in it
  for (const s of attributed) {
    const k = s.bestArgument?.perspective as number;
    blocksOf.set(k, (blocksOf.get(k) ?? new Set()).add(s.side));
    perspectivesIn.set(s.side, (perspectivesIn.get(s.side) ?? new Set()).add(k));
  }
  return {
    "support.minSupport": supports[0] ?? 1,
    "support.secondMinSupport": supports[1] ?? supports[0] ?? 1,
    "support.meanSupport": supports.length === 0 ? 1 : mean(supports),
    "support.maxUnsupportedMass": masses[0] ?? 0,
    "support.secondUnsupportedMass": masses[1] ?? 0,
    "support.totalUnsupportedMass": sum(masses),
    "support.minBestArgument": best[0] ?? 1,
    "support.precision": weight === 0 ? 1 : sum(words.map((w) => w.weight * w.support)) / weight,
    "support.maxTopicalUnsupportedMass": maxOf(
      topical.map((s) => s.unsupportedMass),
      0,
    ),
    "support.minTopicalSupport": minOf(
      topical.map((s) => s.support),
      1,
    ),
    "support.unsupportedNames": sum(argumentSentences.map((s) => s.unsupportedNames)),
    "support.orphans": orphans.length,
    "support.maxOrphanMass": maxOf(
      orphans.map((s) => s.unsupportedMass),
      0,
    ),
    "support.minOrphanSupport": minOf(
      orphans.map((s) => s.support),
      1,
    ),
    "support.argumentSentences": argumentSentences.length,
    "support.framingSentences": sentences.length - argumentSentences.length,
    "support.arguments": args.length,
    "support.extraSentences": argumentSentences.length - args.length,
    "support.minCoverage": cov[0] ?? 1,
    "support.secondMinCoverage": cov[1] ?? cov[0] ?? 1,
    "support.meanCoverage": mean(cov),
    "support.minLocalCoverage": minLocal,
    "support.secondMinLocalCoverage": local[1] ?? local[0] ?? 1,
    "support.meanLocalCoverage": mean(local),
    "support.maxPerspectiveMinCoverage": maxOf(perPerspective),
    "support.minAssignedCoverage": minAssigned,
    "support.unclaimedArguments": args.filter((a) => !a.claimed).length,
    "support.minClaim": minOf(args.map((a) => a.claim)),
    "support.extraSwitches": switches - Math.max(0, new Set(order).size - 1),
    "support.mixedBlocks": [...perspectivesIn.values()].filter((ks) => ks.size > 1).length,
    "support.scatteredPerspectives": sum([...blocksOf.values()].map((bs) => bs.size - 1)),
    "support.orphansTimesUncovered": orphans.length * (1 - minAssigned),
    "support.massTimesUncovered": (masses[0] ?? 0) * (1 - minLocal),
  };
}

/** The support detector as an {@link ErrorDetector} (`"support"`), with sentence and argument evidence. */
export function supportErrorDetector(options: SupportOptions = {}): ErrorDetector {
  return {
    name: "support",
    detect(input: CheckInput, response: string): ErrorScores {
      const r = supportResponse(input, response, options);
      const argumentSentences = r.sentences.filter((s) => s.role === "argument");
      return {
        hallucination: r.hallucination,
        coverage: r.coverage,
        uncoveredArguments: r.arguments
          .map((a) => ({ perspective: a.perspective, argument: a.argument, text: a.text, score: 1 - a.localCoverage }))
          .sort((a, b) => b.score - a.score),
        unsupportedSpans: argumentSentences
          .map((s) => ({ text: s.text, start: s.start, end: s.end, score: 1 - s.support }))
          .sort((a, b) => b.score - a.score),
        features: r.features,
        words: {
          // A word's hallucination score: 1 - its match, inside argument sentences; framing words score 0.
          response: r.sentences.flatMap((s) =>
            s.words.map((w) => ({
              start: w.start,
              end: w.end,
              score: s.role === "argument" && !w.discourse ? 1 - w.support : 0,
            })),
          ),
          // An argument word's coverage-error score: 1 - its best match anywhere in the response.
          arguments: r.arguments.flatMap((a) =>
            a.words.map((w) => ({
              perspective: a.perspective,
              argument: a.argument,
              start: w.start,
              end: w.end,
              score: 1 - w.match,
            })),
          ),
        },
      };
    },
  };
}
