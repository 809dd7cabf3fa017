/**
 * OpenAICompatibleGenerator: the chat-completions protocol that OpenAI, vLLM, llama.cpp's server, Ollama and
 * most hosted APIs speak, through @npov/llm's LlmClient (the openai SDK: timeouts, retries on 429/5xx
 * honouring Retry-After, typed errors, optional response cache, usage and cost). The system message carries
 * the NPOV instructions, the user message the query and the perspectives.
 */
import { GeneratorOutputError, NotTextError, type NpovInput, parseGeneratorOutput, validateInput } from "@npov/core";
import { EndpointError, LlmClient, type LlmClientOptions, type UsageReport } from "@npov/llm";
import type { GeneratedResponse, GenerateOptions, Generator } from "./generator.js";

/**
 * A request the API refused or that failed after all retries: @npov/llm's EndpointError (codes
 * `HTTP_ERROR`, `RETRIES_EXHAUSTED`, `TIMEOUT`, `NETWORK`, `ABORTED`, `BAD_RESPONSE`, `INVALID_BASE_URL`).
 */
export { EndpointError as ChatApiError };

/** Endpoint options (see {@link LlmClientOptions}), or a ready client. */
export type OpenAICompatibleOptions = LlmClientOptions | { client: LlmClient };

export const NPOV_SYSTEM_PROMPT =
  "You answer questions on controversial topics from a neutral point of view. You are given the question and arguments for each perspective. " +
  "Write one opening sentence that bridges from the question, then state every given argument exactly once, under its perspective. " +
  "Add no argument, fact or opinion that was not given, and do not take sides. " +
  "Reply in exactly this format: <opening sentence>} Neutral response core: {<the arguments, as prose>}";

/** The user message: query, topic and the arguments per perspective (plus an optional instruction). */
export function npovUserMessage(input: NpovInput, instruction?: string): string {
  const clean = validateInput(input);
  const lines = [`Question: ${clean.query}`, `Topic: ${clean.topic}`];
  for (const p of clean.perspectives) {
    lines.push(`Arguments of the "${p.label}" perspective:`);
    for (const a of p.arguments) lines.push(`- ${a.text}`);
  }
  if (instruction) lines.push("", instruction);
  return lines.join("\n");
}

/** Parse a chat reply: the Figure 3 format when present, else first sentence = opening, rest = core. */
export function parseChatReply(text: string): { opening: string; core: string; response: string } {
  if (typeof text !== "string") throw new NotTextError("text", text);
  try {
    return parseGeneratorOutput(text);
  } catch (e) {
    if (!(e instanceof GeneratorOutputError)) throw e;
  }
  const trimmed = text.trim();
  const m = /^(.+?[.!?])\s+([\s\S]+)$/u.exec(trimmed);
  if (m === null) throw new GeneratorOutputError("the reply has no opening sentence followed by a core.");
  const opening = (m[1] as string).trim();
  const core = (m[2] as string).trim();
  return { opening, core, response: `${opening} ${core}` };
}

export class OpenAICompatibleGenerator implements Generator {
  readonly model: string;
  /** The endpoint client (its `usage()` reports tokens and cost of this generator's requests). */
  readonly client: LlmClient;

  constructor(options: OpenAICompatibleOptions) {
    this.client = "client" in options ? options.client : new LlmClient(options);
    this.model = this.client.model;
  }

  private request(input: NpovInput, options: GenerateOptions) {
    return {
      messages: [
        { role: "system" as const, content: NPOV_SYSTEM_PROMPT },
        { role: "user" as const, content: npovUserMessage(input, options.instruction) },
      ],
      temperature: options.temperature ?? 0,
      top_p: options.topP ?? 1,
      seed: options.seed ?? 0,
      max_tokens: options.maxNewTokens ?? 256,
    };
  }

  async generate(input: NpovInput, options: GenerateOptions = {}): Promise<GeneratedResponse> {
    const data = await this.client.chat(this.request(input, options), options.signal);
    const choice = data.choices[0];
    const raw = choice?.message?.content;
    if (typeof raw !== "string")
      throw new EndpointError("BAD_RESPONSE", "the reply has no choices[0].message.content.");
    return {
      ...parseChatReply(raw),
      raw,
      model: this.model,
      finishReason: choice?.finish_reason === "length" ? "length" : "stop",
    };
  }

  stream(input: NpovInput, options: GenerateOptions = {}): AsyncIterable<string> {
    return this.client.chatStream(this.request(input, options), options.signal);
  }

  /** Tokens, requests, cache hits and estimated cost so far. */
  usage(): UsageReport {
    return this.client.usage();
  }
}
