/**
 * @npov/generate: NPOV response generation -- the Generator interface, LocalGenerator (transformers.js),
 * OpenAICompatibleGenerator, the HTTP server (OpenAI-compatible chat completions and /v1/check), and the
 * guard loop.
 * @packageDocumentation
 */
export type * from "./generator.js";
export * from "./local.js";
export * from "./loop.js";
export * from "./openai.js";
export { chatInput, createServer, type ServerOptions } from "./server.js";
