/**
 * @npov/rouge: the ROUGE-1 word-overlap detector of hallucination and coverage errors (SPEC section
 * 2.1), and a plain ROUGE-N that reproduces Google's rouge-score.
 * @packageDocumentation
 */

export * from "./combiner.js";
export * from "./detector.js";
export * from "./error-detector.js";
export { maxWeightMatching, WorkMeter } from "./hungarian.js";
export {
  buildLexSim,
  checkLexSim,
  defaultLexSim,
  evaluateLexSim,
  firstSenseSynonyms,
  type LexSim,
  type LexSimBuild,
  type LexSimBuildOptions,
  type LexSimEvaluation,
  lexCosine,
  loadLexSim,
  saveLexSim,
  symmetricEigen,
} from "./lexsim.js";
export * from "./lexsim-card.js";
export * from "./limits.js";
export { nltkPorterStem } from "./nltk-porter.js";
export * from "./roles.js";
export * from "./rouge-n.js";
export { clippedOverlap, countTerms, ngrams, type PrecisionRecallF, scoreCounts } from "./score.js";
export * from "./soft.js";
export * from "./specificity.js";
export * from "./support.js";
export * from "./tokenize.js";
export {
  checkWordVectors,
  cosine,
  defaultWordVectors,
  loadWordVectors,
  nearest,
  saveWordVectors,
  trainWordVectors,
  type VectorTrainingOptions,
  type WordVectors,
} from "./vectors.js";
export * from "./wordnet.js";
