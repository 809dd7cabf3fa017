/**
 * @npov/synth: error-free reference responses (a template writer, not a language model), synthetic
 * errors as in the paper (SPEC section 3), paraphrased inputs, ambiguous errors and evaluation datasets.
 * @packageDocumentation
 */

export * from "./ambiguous.js";
export * from "./chatbot-style.js";
export * from "./dataset.js";
export * from "./errors.js";
export * from "./grounded-sets.js";
export { MEANING_SWAPS, REWORDINGS } from "./wording.js";
export * from "./writer.js";
