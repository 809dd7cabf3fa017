/**
 * @npov/llm: OpenAI-compatible LLM endpoints as npov detectors and judges.
 * @packageDocumentation
 */
export {};
