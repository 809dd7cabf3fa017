/**
 * @npov/nli: natural-language-inference cross-encoders (entailment / neutral / contradiction sequence
 * classifiers run by transformers.js) as a pair-scoring API ({@link NliModel.entailmentProbabilities}) and as
 * the `nli` detector of hallucination and coverage errors ({@link NliDetector}).
 * @packageDocumentation
 */

export * from "./cache.js";
export * from "./detector.js";
export * from "./labels.js";
export * from "./model.js";
