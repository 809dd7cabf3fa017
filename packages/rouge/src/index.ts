/**
 * @npov/rouge: the ROUGE-1 word-overlap detector of hallucination and coverage errors (SPEC section
 * 2.1), and a plain ROUGE-N that reproduces Google's rouge-score.
 * @packageDocumentation
 */

export * from "./combiner.js";
export * from "./detector.js";
export * from "./error-detector.js";
export { maxWeightMatching } from "./hungarian.js";
export * from "./lexsim.js";
export { nltkPorterStem } from "./nltk-porter.js";
export * from "./roles.js";
export * from "./rouge-n.js";
export * from "./score.js";
export * from "./soft.js";
export * from "./specificity.js";
export * from "./support.js";
export * from "./tokenize.js";
export * from "./vectors.js";
export * from "./wordnet.js";
