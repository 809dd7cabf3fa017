/**
 * @npov/classifier: YES/NO label-logit classifiers (SPEC 2.3), soft-prompt tuning, a stacked logistic
 * regression over detector features, and the guard API for chatbot pipelines.
 * @packageDocumentation
 */

export * from "./cascade.js";
export * from "./errors.js";
export * from "./guard.js";
export * from "./guard-config.js";
export * from "./softprompt.js";
export * from "./softprompt-file.js";
export * from "./stacked.js";
export * from "./yesno.js";
