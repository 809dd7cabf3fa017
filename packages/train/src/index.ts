/**
 * @npov/train: the models npov trains itself -- tokenizer training data, generator and classifier pairs,
 * resumable seq2seq training with @npov/autograd, export in the transformers.js layout.
 * @packageDocumentation
 */
export * from "./data.js";
export * from "./seq2seq.js";
export * from "./support.js";
export * from "./support-report.js";
export * from "./vectors.js";
