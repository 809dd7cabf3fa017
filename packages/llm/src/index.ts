/**
 * @npov/llm: OpenAI-compatible LLM endpoints as npov detectors and judges -- one client (retries with a
 * capped Retry-After, a total deadline per call, concurrency limit, typed errors, content-addressed cache,
 * usage and cost), the endpoint
 * YES/NO classifier (label log-probabilities or a sampling fallback), the Likert judge (LLM evaluation)
 * and the two-stage attribution judge (AIS).
 * @packageDocumentation
 */
export * from "./attribution.js";
export { canonicalJson, ResponseCache, requestKey } from "./cache.js";
export * from "./classifier.js";
export * from "./client.js";
export * from "./errors.js";
export * from "./labels.js";
export * from "./likert.js";
export * from "./methods.js";
export * from "./yesno.js";
