/**
 * @npov/synth: error-free reference responses (a template writer, not a language model), synthetic
 * errors as in the paper (SPEC section 3), paraphrased inputs, ambiguous errors, evaluation datasets, chatbot-style
 * responses and responses of every shape (one-sentence, QA, dialogue, summaries, long sources).
 * @packageDocumentation
 */

export * from "./ambiguous.js";
export * from "./chatbot-style.js";
export * from "./dataset.js";
export * from "./errors.js";
export * from "./grounded-sets.js";
export * from "./shapes.js";
export { MEANING_SWAPS, REWORDINGS } from "./wording.js";
export * from "./writer.js";
