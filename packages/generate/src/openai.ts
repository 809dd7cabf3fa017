/**
 * OpenAICompatibleGenerator: the chat-completions protocol that OpenAI, vLLM, llama.cpp's server, Ollama and
 * most hosted APIs speak. The system message carries the NPOV instructions, the user message the query and
 * the perspectives. Timeouts, retries with exponential backoff on 429 and 5xx (honouring Retry-After),
 * typed errors on everything else, and streaming (server-sent events).
 */
import { GeneratorOutputError, NpovError, type NpovInput, parseGeneratorOutput, validateInput } from "@npov/core";
import type { GeneratedResponse, GenerateOptions, Generator } from "./generator.js";

/** A request the API refused or that failed after all retries. */
export class ChatApiError extends NpovError {
  readonly status: number | undefined;
  constructor(code: string, message: string, status?: number) {
    super(code, message);
    this.status = status;
  }
}

export interface OpenAICompatibleOptions {
  baseURL: string;
  apiKey?: string;
  model: string;
  /** Per-request timeout (default 60 s). */
  timeoutMs?: number;
  /** Retries on 429, 5xx and network errors (default 3). */
  maxRetries?: number;
  /** First backoff delay, doubled per retry (default 500 ms). */
  retryDelayMs?: number;
  fetch?: typeof fetch;
}

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

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(t);
      reject(new ChatApiError("ABORTED", "the request was aborted."));
    });
  });

export class OpenAICompatibleGenerator implements Generator {
  readonly model: string;
  private readonly o: Required<Omit<OpenAICompatibleOptions, "apiKey">> & { apiKey?: string };

  constructor(options: OpenAICompatibleOptions) {
    if (!/^https?:\/\//.test(options.baseURL))
      throw new ChatApiError("INVALID_BASE_URL", `baseURL must be an http(s) URL, got "${options.baseURL}".`);
    this.model = options.model;
    this.o = {
      baseURL: options.baseURL.replace(/\/+$/, ""),
      model: options.model,
      timeoutMs: options.timeoutMs ?? 60_000,
      maxRetries: options.maxRetries ?? 3,
      retryDelayMs: options.retryDelayMs ?? 500,
      fetch: options.fetch ?? fetch,
      ...(options.apiKey === undefined ? {} : { apiKey: options.apiKey }),
    };
  }

  private body(input: NpovInput, options: GenerateOptions, stream: boolean): string {
    return JSON.stringify({
      model: this.model,
      messages: [
        { role: "system", content: NPOV_SYSTEM_PROMPT },
        { role: "user", content: npovUserMessage(input, options.instruction) },
      ],
      temperature: options.temperature ?? 0,
      top_p: options.topP ?? 1,
      seed: options.seed ?? 0,
      max_tokens: options.maxNewTokens ?? 256,
      stream,
    });
  }

  /** POST with timeout and retries; returns the successful response. */
  private async post(body: string, signal?: AbortSignal): Promise<Response> {
    let lastError: ChatApiError | undefined;
    for (let attempt = 0; attempt <= this.o.maxRetries; attempt++) {
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), this.o.timeoutMs);
      signal?.addEventListener("abort", () => controller.abort());
      let response: Response;
      try {
        response = await this.o.fetch(`${this.o.baseURL}/chat/completions`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            ...(this.o.apiKey ? { authorization: `Bearer ${this.o.apiKey}` } : {}),
          },
          body,
          signal: controller.signal,
        });
      } catch (e) {
        clearTimeout(timer);
        if (signal?.aborted) throw new ChatApiError("ABORTED", "the request was aborted.");
        lastError = controller.signal.aborted
          ? new ChatApiError("TIMEOUT", `no answer from ${this.o.baseURL} within ${this.o.timeoutMs} ms.`)
          : new ChatApiError("NETWORK", `cannot reach ${this.o.baseURL}: ${(e as Error).message}`);
        if (attempt < this.o.maxRetries) await sleep(this.o.retryDelayMs * 2 ** attempt, signal);
        continue;
      }
      clearTimeout(timer);
      if (response.ok) return response;
      const text = await response.text().catch(() => "");
      let message = text;
      try {
        message = (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? text;
      } catch {
        // not JSON: keep the text
      }
      const retryable = response.status === 429 || response.status >= 500;
      lastError = new ChatApiError(
        retryable ? "RETRIES_EXHAUSTED" : "HTTP_ERROR",
        `${response.status} from ${this.o.baseURL}: ${message.slice(0, 300)}`,
        response.status,
      );
      if (!retryable) throw lastError;
      if (attempt < this.o.maxRetries) {
        const after = Number(response.headers.get("retry-after"));
        await sleep(Number.isFinite(after) && after > 0 ? after * 1000 : this.o.retryDelayMs * 2 ** attempt, signal);
      }
    }
    throw lastError ?? new ChatApiError("RETRIES_EXHAUSTED", "the request failed.");
  }

  async generate(input: NpovInput, options: GenerateOptions = {}): Promise<GeneratedResponse> {
    const response = await this.post(this.body(input, options, false), options.signal);
    const data = (await response.json()) as {
      choices?: Array<{ message?: { content?: string }; finish_reason?: string }>;
    };
    const choice = data.choices?.[0];
    const raw = choice?.message?.content;
    if (typeof raw !== "string") throw new ChatApiError("BAD_RESPONSE", "the reply has no choices[0].message.content.");
    return {
      ...parseChatReply(raw),
      raw,
      model: this.model,
      finishReason: choice?.finish_reason === "length" ? "length" : "stop",
    };
  }

  async *stream(input: NpovInput, options: GenerateOptions = {}): AsyncIterable<string> {
    const response = await this.post(this.body(input, options, true), options.signal);
    if (response.body === null) throw new ChatApiError("BAD_RESPONSE", "the streamed reply has no body.");
    const decoder = new TextDecoder();
    let buffer = "";
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      let end = buffer.indexOf("\n\n");
      while (end >= 0) {
        const event = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        for (const line of event.split("\n")) {
          if (!line.startsWith("data:")) continue;
          const data = line.slice(5).trim();
          if (data === "[DONE]") return;
          const delta = (JSON.parse(data) as { choices?: Array<{ delta?: { content?: string } }> }).choices?.[0]?.delta
            ?.content;
          if (delta) yield delta;
        }
        end = buffer.indexOf("\n\n");
      }
    }
  }
}
