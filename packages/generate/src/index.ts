/**
 * @npov/generate: NPOV response generation -- the Generator interface, TemplateGenerator (the default:
 * @npov/synth's template writer), LocalGenerator (transformers.js), OpenAICompatibleGenerator, the HTTP
 * server (OpenAI-compatible chat completions and /v1/check), and the guard loop.
 * @packageDocumentation
 */
export type * from "./generator.js";
export * from "./local.js";
export * from "./loop.js";
export * from "./openai.js";
export {
  chatInput,
  cleanGeneratorText,
  createServer,
  listen,
  PortInUseError,
  type PromptCompleter,
  type ServerOptions,
} from "./server.js";
export * from "./template.js";
