/**
 * The "support" detector, npov's default: data-free checking of a response against curated NPOV arguments or
 * plain sources ({@link groundingOf}), on every response shape -- debate answers, one-sentence replies,
 * dialogue, QA, summaries -- whatever a sentence's position.
 *
 * 1. Word similarity ({@link SemanticMatcher}): exact stem, WordNet lemma/synonym/derivation/hypernym (the
 *    soft matcher's weights) or, for any pair of WordNet lemmas, the lexsim embedding's cosine mapped to
 *    [0, 1] -- so free rewording ("firing weapons" / "shooting guns") still matches.
 * 2. Specificity ({@link Specificity}): every word weighs its IDF over the knowledge base, query and topic
 *    words discounted, so a new claim built from the debate's own words is not "supported". The query
 *    supports nothing: its words are matched in the grounding like any other and left out of a claim.
 * 3. Roles ({@link sentenceRole}): a sentence whose words beyond discourse and query words weigh too little is
 *    framing; every other sentence makes a claim -- first, last or alone. No position is read anywhere.
 * 4. Per sentence (and per clause of a sentence of several): support, unsupported mass, the share one argument
 *    or source unit alone explains, names and numbers no argument has, orphan (inside no argument's best
 *    window). Per argument: coverage globally, within its best one or two adjacent sentences, and within the
 *    sentence a one-to-one assignment gives it.
 * 5. Structure: side blocks (a framing or attributed sentence opening with a side cue, {@link opensSide},
 *    starts the next one) and which perspective each clearly attributed sentence states.
 * 6. Scores: the combiner's sentence models ({@link sentenceFeatures}: what a sentence says, never where it
 *    stands) give each sentence (and clause) a probability of an unsupported claim and of stating a given
 *    argument; its example models turn shares and bounded distributions of all of this ({@link
 *    supportFeatures}, every input in [0, 1], weights >= 0) into probabilities ({@link SupportCombiner},
 *    models/npov-support). Without a combiner: the least supported claim and the least covered argument.
 *    Coverage of a sources input is the share of the sources' content the response leaves out.
 */
import {
  type CheckInput,
  contentTerms,
  describe,
  type ErrorDetector,
  type ErrorScores,
  flagEvidence,
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
  withUnitOrigins,
} from "@npov/core";
import {
  applyCombiner,
  checkSupportCombiner,
  defaultSupportCombiner,
  predictLogistic,
  type SupportCombiner,
  sentenceModelOf,
} from "./combiner.js";
import { PairTable, requireContent, termsBySentence } from "./content.js";
import { rougeDetector } from "./detector.js";
import { maxWeightMatching } from "./hungarian.js";
import { checkLexSim, defaultLexSim, type LexSim, lexCosineUnchecked } from "./lexsim.js";
import { type AlignmentLimits, checkInputSize, checkSentencePairs, checkWordPairs, resolveLimits } from "./limits.js";
import {
  isDebateMetaWord,
  isDiscourseTerm,
  isHedged,
  isQuestion,
  opensSide,
  type SentenceRole,
  sentenceRole,
} from "./roles.js";
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
  /** Best similarity to any argument (or source) word, in [0, 1]; the query supports nothing. */
  support: number;
  discourse: boolean;
  /** A word of the query or topic: part of no sentence's claim (restating the question claims nothing). */
  query: boolean;
}

/** One response sentence with its role and support. */
export interface SupportSentence {
  text: string;
  start: number;
  end: number;
  role: SentenceRole;
  /** Specificity-weighted share of its claim words (neither discourse nor query words) matched in the arguments. */
  support: number;
  /** Specificity mass of its unmatched claim words. */
  unsupportedMass: number;
  /**
   * Specificity-weighted share of all its non-discourse words (query words included, matched in the arguments
   * or sources only) that the single best argument or source unit explains (1 without such words).
   */
  singleSupport: number;
  /**
   * Unsupported share of the claim words of its least supported clause, when it has two clauses or more of
   * some substance (0 otherwise: the sentence's own support says it).
   */
  worstClause: number;
  /** Largest unsupported specificity mass of one of its clauses. */
  worstClauseMass: number;
  /** 1 - the share of its least explained clause that the single best argument or source unit explains. */
  clauseUnexplained: number;
  /**
   * Its clauses of some substance when it has two or more, each measured as a sentence of its own; the sentence
   * model reads each, and the sentence's probability is the largest of its own and its clauses'.
   */
  clauses?: SupportSentence[];
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
  /**
   * What it says, as the sentence model reads it ({@link sentenceFeatures}): support, unsupported mass,
   * discourse and debate-meta words, hedges, questions -- never where it stands.
   */
  features: Record<string, number>;
  /**
   * Probability that it makes a claim nothing given supports (the combiner's sentence model), when one is given:
   * for a sentence, the largest of its own and its clauses' (each clause carries its own).
   */
  probability?: number;
  /** Probability that it states a given argument (the combiner's stating model; NPOV inputs), when one is given. */
  stating?: number;
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
  /** What the response was checked against. */
  kind: "npov" | "sources";
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
  // Stop words only: no claim to check, nothing covered (see rougeDetector).
  const respTerms = contentTerms(text);
  checkWordPairs(respTerms.length, argPool.length, limits);
  const meter = limits.meter;
  const pairs = new PairTable((r, a) => matcher.pairWeight(r, a), respTerms, argPool);
  // Per response word: its weight and best match in the arguments or sources. The query supports nothing: its
  // words are matched in the grounding like any other (and left out of a sentence's claim, see below).
  const wordInfo = respTerms.map((t) => {
    const discourse = isDiscourseTerm(t);
    let best = 0;
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
  /**
   * What a stretch of the response says (a sentence, or one clause of it): its role, support, unsupported mass,
   * best argument and single-unit support, names and numbers -- the fields the sentence model reads.
   */
  const measure = (
    words: typeof wordInfo,
    span: { text: string; start: number; end: number },
    side: number,
  ): { sentence: SupportSentence; shares: number[] } => {
    // A sentence's claim: its words beyond discourse and query words. Restating the question claims nothing;
    // query words next to new content do not make that content supported.
    const claim = words.filter((w) => !w.discourse && !w.inQuery);
    const role = sentenceRole(words, {
      ...(options.roleThreshold === undefined ? {} : { threshold: options.roleThreshold }),
    });
    const total = sum(claim.map((w) => w.weight));
    const support = total === 0 ? 1 : sum(claim.map((w) => w.weight * w.support)) / total;
    const unsupportedMass = sum(claim.map((w) => w.weight * (1 - w.support)));
    let bestArgument: SupportSentence["bestArgument"];
    const shares = role === "argument" ? args.map((a) => weightedMatch(claim, a.terms, pairs.get)) : [];
    shares.forEach((share, i) => {
      const a = args[i] as (typeof args)[number];
      if (bestArgument === undefined || share > bestArgument.support)
        bestArgument = { perspective: a.k, argument: a.j, support: share };
    });
    // How much of everything it says (query words included, supported by the grounding only) one argument or
    // source unit alone explains: a claim stitched from words of different units is suspect.
    const content = words.filter((w) => !w.discourse);
    const single =
      content.length === 0
        ? 1
        : maxOf(
            args.map((a) => weightedMatch(content, a.terms, pairs.get)),
            0,
          );
    const sentence: SupportSentence = {
      singleSupport: single,
      worstClause: 0,
      worstClauseMass: 0,
      clauseUnexplained: 0,
      text: span.text,
      start: span.start,
      end: span.end,
      role,
      orphan: false,
      topical: words.some((w) => !w.discourse && (w.inQuery || w.support >= 0.7)),
      unsupportedNames: words.filter(
        (w) =>
          w.support < 0.7 &&
          (/\p{N}/u.test(w.term.text) || (w.term.start > span.start && /^\p{Lu}/u.test(w.term.text))),
      ).length,
      support,
      unsupportedMass,
      side,
      ...(bestArgument === undefined ? {} : { bestArgument }),
      features: {},
      words: words.map((w) => ({
        text: w.term.text,
        start: w.term.start,
        end: w.term.end,
        weight: w.weight,
        support: w.support,
        discourse: w.discourse,
        query: w.inQuery,
      })),
    };
    return { sentence, shares };
  };
  const sentences: SupportSentence[] = split.map((s, index) => {
    const words = wordsBySentence[index] as typeof wordInfo;
    const { sentence, shares } = measure(words, s, side);
    shareRows.push(shares);
    // Its clauses of some substance, each measured as a sentence of its own: an invented claim is often a clause
    // appended to a stated argument ("..., and that uniforms improve school safety"), which the sentence's
    // overall support dilutes.
    const clauses = clauseSpans(s.text, s.start);
    for (const c of clauses.length > 1 ? clauses : []) {
      const inClause = words.filter((w) => w.term.start >= c.start && w.term.end <= c.end);
      const claimWords = inClause.filter((w) => !w.discourse && !w.inQuery);
      const mass = sum(claimWords.map((w) => w.weight));
      if (mass < CLAUSE_MASS) continue;
      const unsupported = sum(claimWords.map((w) => w.weight * (1 - w.support)));
      sentence.worstClause = Math.max(sentence.worstClause, unsupported / mass);
      sentence.worstClauseMass = Math.max(sentence.worstClauseMass, unsupported);
      const part = measure(inClause, { text: text.slice(c.start, c.end), start: c.start, end: c.end }, side).sentence;
      // A clause that no single argument or source unit explains, even when the rest of its sentence is one.
      sentence.clauseUnexplained = Math.max(sentence.clauseUnexplained, 1 - (part.bestArgument?.support ?? 0));
      if (sentence.clauses === undefined) sentence.clauses = [];
      sentence.clauses.push(part);
    }
    // A side cue opens a new block in a framing sentence ("Critics see it differently.") or one that states a
    // given argument; an unattributed claim ("However, <something new>") does not restructure the response, so
    // adding one never changes the blocks of the others.
    const attributedOrFraming = sentence.role === "framing" || (sentence.bestArgument?.support ?? 0) >= 0.3;
    if (index > 0 && attributedOrFraming && opensSide(s.text)) {
      side++;
      sentence.side = side;
      for (const c of sentence.clauses ?? []) c.side = side;
    }
    return sentence;
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
  const combiner = options.combiner === null ? undefined : (options.combiner ?? defaultSupportCombiner());
  const sentenceModel = combiner === undefined ? undefined : sentenceModelOf(combiner, clean.kind);
  const statingModel = clean.kind === "npov" ? combiner?.stating : undefined;
  for (const s of sentences) {
    s.features = sentenceFeatures(s);
    for (const c of s.clauses ?? []) {
      c.orphan = s.orphan;
      c.features = sentenceFeatures(c);
    }
    if (sentenceModel !== undefined) {
      for (const c of s.clauses ?? []) c.probability = predictLogistic(sentenceModel, c.features);
      s.probability = maxOf(
        [predictLogistic(sentenceModel, s.features), ...(s.clauses ?? []).map((c) => c.probability as number)],
        0,
      );
    }
    if (statingModel !== undefined) s.stating = predictLogistic(statingModel, s.features);
  }
  const exactPrecision = rougeDetector(clean, text).precision;
  const features = featuresOf(sentences, argumentsOut, clean.perspectives.length, {
    kind: clean.kind,
    exactPrecision,
  });
  const scores =
    combiner === undefined
      ? {
          hallucination: features["support.worstSentence"] as number,
          coverage: features["support.uncoveredLocal"] as number,
        }
      : applyCombiner(combiner, features, clean.kind);
  // Sources: coverage is the share of the sources' content the response leaves out (optional for this shape:
  // an answer need not restate every retrieved sentence), not a learned probability.
  if (clean.kind === "sources") scores.coverage = sourcesUncovered(argumentsOut);
  return { method: "support", kind: clean.kind, ...scores, sentences, arguments: argumentsOut, features };
}

/** Specificity-weighted share of the source units' content words the response leaves out. */
function sourcesUncovered(args: readonly SupportArgument[]): number {
  let total = 0;
  let covered = 0;
  for (const a of args)
    for (const w of a.words) {
      total += w.weight;
      covered += w.weight * w.match;
    }
  return total === 0 ? 0 : 1 - covered / total;
}

/**
 * The combiner's inputs (see {@link SupportResult.features}): shares and bounded distributions of sentence
 * support and argument coverage. @throws InvalidValueError for parts not shaped as supportResponse returns them
 */
export function supportFeatures(
  sentences: readonly SupportSentence[],
  args: readonly SupportArgument[],
  perspectives: number,
  context: SupportFeatureContext = {},
): Record<string, number> {
  checkFeatureParts(sentences, args, perspectives);
  requireRecord(context, "context", "an object {kind?, exactPrecision?}");
  if (context.kind !== undefined && context.kind !== "npov" && context.kind !== "sources")
    throw new InvalidValueError("context.kind", 'must be "npov" or "sources".');
  if (context.exactPrecision !== undefined) requireNumber(context.exactPrecision, "context.exactPrecision", unit);
  return featuresOf(sentences, args, perspectives, context);
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
    requireNumber(x.singleSupport, `${at}.singleSupport`, unit);
    requireNumber(x.worstClause, `${at}.worstClause`, unit);
    requireNumber(x.worstClauseMass, `${at}.worstClauseMass`, { min: 0 });
    requireNumber(x.clauseUnexplained, `${at}.clauseUnexplained`, unit);
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

/** Specificity mass a clause needs to be judged on its own (a bare "and so on" is not). */
const CLAUSE_MASS = 0.8;

// Where a sentence's clauses meet: a semicolon, a comma or dash before a conjunction ("and", "but", "adding",
// ...), or "and that" / "and also" (the ways a further claim is attached to a stated one).
const CLAUSE_BREAK_RE =
  /(?:;\s+|[,:\u2013\u2014]\s+(?=(?:and|but|while|whereas|although|though|yet|so|plus|also|adding|noting)(?![\p{L}\p{N}]))|\s+(?=and\s+(?:that|also|even)(?![\p{L}\p{N}])))/giu;

/** The clauses of a sentence as offsets into the response (`offset` = the sentence's start). */
export function clauseSpans(sentence: string, offset = 0): Array<{ start: number; end: number }> {
  if (typeof sentence !== "string") throw new NotTextError("sentence", sentence);
  const spans: Array<{ start: number; end: number }> = [];
  let start = 0;
  for (const m of sentence.matchAll(CLAUSE_BREAK_RE)) {
    const at = (m.index ?? 0) + m[0].length;
    if (at > start) spans.push({ start: offset + start, end: offset + (m.index ?? 0) });
    start = at;
  }
  spans.push({ start: offset + start, end: offset + sentence.length });
  return spans.filter((c) => c.end > c.start);
}

/** Names of the sentence model's inputs ({@link sentenceFeatures}). */
export const SENTENCE_FEATURES: readonly string[] = [
  "sentence.unsupported",
  "sentence.unsupportedAll",
  "sentence.unsupportedMass",
  "sentence.worstWord",
  "sentence.discourseShare",
  "sentence.queryShare",
  "sentence.unsupportedName",
  "sentence.unexplained",
  "sentence.unexplainedAll",
  "sentence.worstClause",
  "sentence.worstClauseMass",
  "sentence.clauseUnexplained",
  "sentence.orphan",
  "sentence.offTopic",
  "sentence.claimMass",
  "sentence.inexact",
  "sentence.meta",
  "sentence.metaShare",
  "sentence.question",
  "sentence.hedged",
];

/**
 * Inputs of the stating model: {@link SENTENCE_FEATURES} but `orphan`, the one input that depends on the other
 * sentences (an added sentence can make a neighbour an orphan), so the expected number of stated arguments
 * never falls when a sentence is added.
 */
export const STATING_FEATURES: readonly string[] = SENTENCE_FEATURES.filter((f) => f !== "sentence.orphan");

/**
 * What one sentence says, for the sentence model: shares and bounded masses in [0, 1] read from its words and
 * its relation to the arguments or sources -- never its position, so a claim is judged the same first, middle
 * or last. @throws InvalidValueError for a sentence not shaped as supportResponse returns it
 */
export function sentenceFeatures(sentence: SupportSentence): Record<string, number> {
  const x = requireRecord(sentence, "sentence", "a support sentence (supportResponse)");
  requireArray(x.words, "sentence.words", "its words");
  if (typeof x.text !== "string") throw new NotTextError("sentence.text", x.text);
  const s = sentence;
  const all = s.words;
  const content = all.filter((w) => !w.discourse);
  const claim = content.filter((w) => !w.query);
  const weight = sum(content.map((w) => w.weight));
  const meta = all.filter((w) => isDebateMetaWord(w.text)).length;
  return {
    "sentence.unsupported": s.role === "argument" ? 1 - s.support : 0,
    "sentence.unsupportedAll": weight === 0 ? 0 : sum(content.map((w) => w.weight * (1 - w.support))) / weight,
    "sentence.unsupportedMass": saturate(s.unsupportedMass),
    "sentence.worstWord": maxOf(
      claim.map((w) => w.weight * (1 - w.support)),
      0,
    ),
    "sentence.discourseShare": share(all.filter((w) => w.discourse).length, all.length),
    "sentence.queryShare": share(all.filter((w) => w.query).length, all.length),
    "sentence.unsupportedName": s.unsupportedNames > 0 ? 1 : 0,
    "sentence.unexplained": 1 - (s.bestArgument?.support ?? 0),
    "sentence.unexplainedAll": 1 - s.singleSupport,
    "sentence.worstClause": s.worstClause,
    "sentence.worstClauseMass": saturate(s.worstClauseMass),
    "sentence.clauseUnexplained": s.clauseUnexplained,
    "sentence.orphan": s.orphan ? 1 : 0,
    "sentence.offTopic": s.topical ? 0 : 1,
    "sentence.claimMass": saturate(sum(claim.map((w) => w.weight))),
    "sentence.inexact": share(claim.filter((w) => w.support < 1).length, claim.length),
    "sentence.meta": meta > 0 ? 1 : 0,
    "sentence.metaShare": share(meta, all.length),
    "sentence.question": isQuestion(s.text) ? 1 : 0,
    "sentence.hedged": isHedged(s.text) ? 1 : 0,
  };
}

/** What the features read beyond sentences and arguments. */
export interface SupportFeatureContext {
  /** What the response was checked against (default "npov"): NPOV-structure features are 0 for sources. */
  kind?: "npov" | "sources";
  /** Exact ROUGE-1 precision of the response against the arguments or sources (default: not used, 1). */
  exactPrecision?: number;
}

const top = (xs: readonly number[], k: number): number => sorted(xs).reverse()[k] ?? 0;
/** Map a mass in [0, inf) to [0, 1): bounded, so no feature grows with the length of a sentence. */
const saturate = (mass: number): number => 1 - Math.exp(-mass);
const share = (part: number, whole: number): number => (whole <= 0 ? 0 : part / whole);

/**
 * The combiner's inputs. Every one is a share or a bounded transform in [0, 1] oriented "higher = more likely
 * an error" -- never a count that grows with the size of the response or of the arguments or sources -- and
 * each moves the right way when an unsupported claim is added (hallucination features rise) or a stated
 * argument removed (coverage features rise), so a combiner with non-negative weights is monotone too.
 */
function featuresOf(
  sentences: readonly SupportSentence[],
  args: readonly SupportArgument[],
  perspectives: number,
  context: SupportFeatureContext = {},
): Record<string, number> {
  const npov = (context.kind ?? "npov") === "npov";
  const claims = sentences.filter((s) => s.role === "argument");
  const unsupport = claims.map((s) => 1 - s.support);
  const words = sentences.flatMap((s) => s.words.filter((w) => !w.discourse));
  const claimWords = claims.flatMap((s) => s.words.filter((w) => !w.discourse && !w.query));
  const imprecision = (ws: readonly SupportWord[]) => {
    const total = sum(ws.map((w) => w.weight));
    return total === 0 ? 0 : sum(ws.map((w) => w.weight * (1 - w.support))) / total;
  };
  const orphans = claims.filter((s) => s.orphan);
  const topical = claims.filter((s) => s.topical);
  const local = args.map((a) => a.localCoverage);
  const perPerspective = Array.from({ length: perspectives }, (_, k) =>
    minOf(args.filter((a) => a.perspective === k).map((a) => a.localCoverage)),
  );
  const minLocal = minOf(local, 1);
  const minAssigned = minOf(
    args.map((a) => a.assignedCoverage),
    1,
  );
  // Structure: the perspective each clearly attributed argument sentence states, in order, and its side block.
  const attributed = claims.filter((s) => s.bestArgument !== undefined && s.bestArgument.support >= 0.3);
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
  const structure = (x: number) => (npov ? x : 0);
  const probabilities = sentences.map((s) => s.probability ?? 0);
  // Expected number of sentences that state a given argument, and of claims of any kind (the stating and
  // sentence models; 0 without them): fewer stated than given marks a dropped argument, more claims than
  // given an added one -- shares of the given arguments, so they do not grow with the response.
  const stated = sum(sentences.map((s) => s.stating ?? 0));
  const claimed = stated + sum(probabilities);
  const worstMass = saturate(
    maxOf(
      claims.map((s) => s.unsupportedMass),
      0,
    ),
  );
  const uncoveredLocal = 1 - minLocal;
  return {
    // Hallucination: how much of the response, and of its least supported claim, nothing given supports.
    "support.exactImprecision": 1 - (context.exactPrecision ?? 1),
    "support.imprecision": imprecision(words),
    "support.claimImprecision": imprecision(claimWords),
    "support.worstSentence": maxOf(unsupport, 0),
    "support.secondWorstSentence": top(unsupport, 1),
    "support.worstMass": worstMass,
    "support.worstMassAll": saturate(
      maxOf(
        sentences.map((s) => s.unsupportedMass),
        0,
      ),
    ),
    "support.worstClause": maxOf(
      claims.map((s) => s.worstClause),
      0,
    ),
    "support.worstClauseMass": saturate(
      maxOf(
        claims.map((s) => s.worstClauseMass),
        0,
      ),
    ),
    "support.worstSingle": maxOf(
      sentences.map((s) => 1 - s.singleSupport),
      0,
    ),
    // The sentence model's view: the likeliest unsupported claim, and the next (0 without a sentence model).
    "support.sentenceMax": maxOf(probabilities, 0),
    "support.sentenceSecond": top(probabilities, 1),
    "support.badShare": share(unsupport.filter((u) => u > 0.5).length, claims.length),
    "support.unsupportedName": claims.some((s) => s.unsupportedNames > 0) ? 1 : 0,
    "support.worstTopical": maxOf(
      topical.map((s) => 1 - s.support),
      0,
    ),
    "support.worstBestArgument": structure(
      maxOf(
        claims.map((s) => 1 - (s.bestArgument?.support ?? 0)),
        0,
      ),
    ),
    "support.orphanShare": structure(share(orphans.length, claims.length)),
    "support.worstOrphan": structure(
      maxOf(
        orphans.map((s) => 1 - s.support),
        0,
      ),
    ),
    "support.excessSentences": structure(share(Math.max(0, claims.length - args.length), claims.length)),
    "support.excessClaims": structure(share(Math.max(0, claimed - args.length), claimed)),
    // Argument-like sentences per given argument, signed and bounded: (stated - given) / given in [-1, 1] -> [0, 1].
    "support.statedExcess": structure(
      (Math.max(-1, Math.min(1, share(stated - args.length, Math.max(1, args.length)))) + 1) / 2,
    ),
    "support.mixedBlockShare": structure(
      share([...perspectivesIn.values()].filter((ks) => ks.size > 1).length, perspectivesIn.size),
    ),
    // Coverage: how little of the least covered argument the response states, and how many such arguments.
    "support.uncovered":
      1 -
      minOf(
        args.map((a) => a.coverage),
        1,
      ),
    "support.uncoveredLocal": uncoveredLocal,
    "support.secondUncoveredLocal": 1 - (sorted(local)[1] ?? sorted(local)[0] ?? 1),
    "support.meanUncoveredLocal": 1 - (local.length === 0 ? 1 : mean(local)),
    "support.uncoveredAssigned": 1 - minAssigned,
    "support.uncoveredShare": share(local.filter((c) => c < 0.5).length, args.length),
    "support.unclaimedShare": structure(share(args.filter((a) => !a.claimed).length, args.length)),
    "support.weakestClaim": structure(
      1 -
        minOf(
          args.map((a) => a.claim),
          1,
        ),
    ),
    "support.weakestPerspective": 1 - (perPerspective.length === 0 ? 1 : maxOf(perPerspective)),
    "support.sentenceDeficit": structure(share(Math.max(0, args.length - claims.length), args.length)),
    "support.statedDeficit": structure(share(Math.max(0, args.length - stated), args.length)),
    "support.extraSwitchShare": structure(
      share(Math.max(0, switches - Math.max(0, new Set(order).size - 1)), Math.max(1, order.length - 1)),
    ),
    "support.scatteredShare": structure(
      share(sum([...blocksOf.values()].map((bs) => bs.size - 1)), Math.max(1, attributed.length)),
    ),
    "support.orphanUncovered": structure(share(orphans.length, claims.length) * (1 - minAssigned)),
    "support.massUncovered": worstMass * uncoveredLocal,
  };
}

/** The support detector as an {@link ErrorDetector} (`"support"`), with sentence and argument evidence. */
export function supportErrorDetector(options: SupportOptions = {}): ErrorDetector {
  return {
    name: "support",
    detect(input: CheckInput, response: string): ErrorScores {
      const g = groundingOf(input);
      const r = supportResponse(g, response, options);
      // A sentence's score: the sentence model's probability that it makes an unsupported claim (wherever it
      // stands), or without a model 1 - its support when it makes a claim at all.
      const sentenceScore = (s: SupportSentence) => s.probability ?? (s.role === "argument" ? 1 - s.support : 0);
      const scores: ErrorScores = {
        hallucination: r.hallucination,
        coverage: r.coverage,
        uncoveredArguments: r.arguments
          .map((a) => ({ perspective: a.perspective, argument: a.argument, text: a.text, score: 1 - a.localCoverage }))
          .sort((a, b) => b.score - a.score),
        // A sentence's evidence is its likeliest unsupported clause when that clause carries its score (README's
        // "..., and that uniforms improve school safety."): the span says what is flagged, not the whole sentence.
        unsupportedSpans: r.sentences
          .map((s) => {
            const score = sentenceScore(s);
            const clause = s.clauses?.find((c) => c.probability !== undefined && c.probability === s.probability);
            const unit = clause ?? s;
            return { text: unit.text, start: unit.start, end: unit.end, score };
          })
          .sort((a, b) => b.score - a.score || a.start - b.start),
        features: r.features,
        words: {
          // A word's hallucination score: 1 - its match, for the claim words of claim sentences; discourse and
          // query words, and the words of framing sentences, score 0.
          response: r.sentences.flatMap((s) =>
            s.words.map((w) => ({
              start: w.start,
              end: w.end,
              score: s.role === "argument" && !w.discourse && !w.query ? 1 - w.support : 0,
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
      return flagEvidence(withUnitOrigins(g, scores));
    },
  };
}
