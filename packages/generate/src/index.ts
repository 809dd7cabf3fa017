/**
 * @npov/generate: NPOV response generation -- the Generator interface, TemplateGenerator (the default:
 * @npov/synth's template writer), LocalGenerator (transformers.js), OpenAICompatibleGenerator, the HTTP
 * server (OpenAI-compatible chat completions and /v1/check, with checks on worker threads through
 * GuardPool), and the guard loop.
 * @packageDocumentation
 */
export * from "./errors.js";
export type * from "./generator.js";
export { type GuardLoader, GuardPool, type GuardPoolOptions, startGuardPool } from "./guard-pool.js";
export * from "./local.js";
export * from "./loop.js";
export * from "./openai.js";
export {
  type ChatMessage,
  chatInput,
  checkBodyLimit,
  checkCorsOrigins,
  checkHost,
  checkPort,
  cleanGeneratorText,
  createServer,
  DEFAULT_BODY_LIMIT,
  listen,
  MAX_BODY_LIMIT,
  type PromptCompleter,
  type ServerOptions,
  validateMessages,
} from "./server.js";
export * from "./template.js";
