/**
 * LlmClient: one client for every OpenAI-compatible endpoint (OpenAI, vLLM, llama.cpp's server, Ollama,
 * LM Studio, `npov serve`), on the maintained `openai` SDK. The SDK sends the requests and times the wait
 * for headers; this class retries (429, 5xx, network errors; honouring `Retry-After` and `retry-after-ms` up
 * to a cap), bounds every call by a total deadline (retries, waits and the whole body included: an endpoint
 * that trickles a byte a second is cut at the deadline), times every later wait for the body or stream, and
 * adds an API key from the environment, a concurrency limit (streams hold their slot until they end), typed
 * errors, a content-addressed on-disk cache of valid replies and a usage/cost tally.
 */
import OpenAI, {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  OpenAIError,
} from "openai";
import type {
  ChatCompletion,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionCreateParamsStreaming,
} from "openai/resources/chat/completions";
import type { Completion, CompletionCreateParamsNonStreaming } from "openai/resources/completions";
import { ResponseCache } from "./cache.js";
import { EndpointError } from "./errors.js";

/** USD per million tokens, per model name; used only to estimate cost. */
export type PriceTable = Record<string, { input: number; output: number }>;

export interface LlmClientOptions {
  /** The API root, e.g. `https://api.openai.com/v1` or `http://127.0.0.1:8080/v1`. */
  baseURL: string;
  /** The model name sent with every request. */
  model: string;
  /** An explicit API key (takes precedence over the environment). */
  apiKey?: string;
  /**
   * Environment variable holding the key. Unset: `NPOV_API_KEY`, then `OPENAI_API_KEY`, then no key (local
   * servers need none). Set: that variable must exist.
   */
  apiKeyEnv?: string;
  /** Longest wait for the response headers and for each later chunk of the body (default 60 s). */
  timeoutMs?: number;
  /**
   * Longest time one call may take in all: every attempt, every wait between retries and the whole body or
   * stream (default {@link DEFAULT_DEADLINE_MS}). Past it the call fails with TIMEOUT.
   */
  deadlineMs?: number;
  /** Retries on 408/409/429/5xx and network errors, honouring Retry-After (default 3). */
  maxRetries?: number;
  /**
   * Longest `Retry-After` (or `retry-after-ms`) the client waits (default {@link DEFAULT_MAX_RETRY_AFTER_MS});
   * a server asking for more -- or for more than the call's deadline leaves -- fails the call at once with
   * RATE_LIMITED instead of waiting.
   */
  maxRetryAfterMs?: number;
  /** Requests in flight at once (default 4). */
  concurrency?: number;
  /** Folder of the response cache; unset = no cache. */
  cacheDir?: string;
  /** Prices for the cost estimate (default: none, cost unknown). */
  prices?: PriceTable;
  /** A fetch implementation (default: the global one). */
  fetch?: typeof fetch;
}

/** Token usage and estimated cost of the requests a client made. */
export interface UsageReport {
  model: string;
  /** Requests sent over the network (retries by the SDK not counted). */
  requests: number;
  /** Requests answered from the cache (free). */
  cacheHits: number;
  /** Prompt tokens of the network requests, as the endpoint reported them. */
  promptTokens: number;
  /** Completion tokens of the network requests. */
  completionTokens: number;
  /** Network responses that reported no `usage` (their tokens are missing from the totals). */
  requestsWithoutUsage: number;
  /** Estimated USD cost from the price table; undefined when the model has no price. */
  costUsd: number | undefined;
}

/** Default total deadline of one call, retries included (2 minutes). */
export const DEFAULT_DEADLINE_MS = 120_000;

/** Default longest Retry-After the client obeys (30 s). */
export const DEFAULT_MAX_RETRY_AFTER_MS = 30_000;

/** Default longest wait for the headers and for each chunk of the body (60 s). */
export const DEFAULT_TIMEOUT_MS = 60_000;

/** A chat request without `model` (the client adds it). */
export type ChatRequest = Omit<ChatCompletionCreateParamsNonStreaming, "model">;
/** A completions request without `model`. */
export type CompletionRequest = Omit<CompletionCreateParamsNonStreaming, "model">;

/** The key a client uses: explicit, else the named variable, else NPOV_API_KEY / OPENAI_API_KEY, else none. */
export function resolveApiKey(options: { apiKey?: string; apiKeyEnv?: string }): string | undefined {
  if (options.apiKey !== undefined) return options.apiKey;
  if (options.apiKeyEnv !== undefined) {
    const value = process.env[options.apiKeyEnv];
    if (value === undefined || value === "")
      throw new EndpointError(
        "MISSING_API_KEY",
        `the environment variable ${options.apiKeyEnv} (named by apiKeyEnv / --api-key-env) is not set: export it, or drop the option for a server that needs no key.`,
      );
    return value;
  }
  const fallback = process.env.NPOV_API_KEY || process.env.OPENAI_API_KEY;
  return fallback === "" ? undefined : fallback;
}

/** A counting semaphore: at most `limit` tasks run at once, the rest wait in FIFO order. */
class Limiter {
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  constructor(private readonly limit: number) {}
  /** Wait for a slot; the returned function frees it (once). */
  async acquire(): Promise<() => void> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.active--;
      this.waiting.shift()?.();
    };
  }
  async run<T>(task: () => Promise<T>): Promise<T> {
    const release = await this.acquire();
    try {
      return await task();
    } finally {
      release();
    }
  }
}

/**
 * A fetch whose response body fails with a TIMEOUT {@link EndpointError} when the next chunk does not arrive
 * within `timeoutMs`. The SDK's own timeout ends when the headers arrive; without this, an endpoint that sends
 * headers and then stalls (or stalls mid-stream) would hold the request forever.
 */
function withBodyTimeout(base: typeof fetch, timeoutMs: number, baseURL: string): typeof fetch {
  return async (input, init) => {
    const response = await base(input, init);
    if (response.body === null) return response;
    // The call's deadline (or the caller's abort) ends a body read too, even with a fetch that ignores it.
    const signal = init?.signal ?? undefined;
    const reader = response.body.getReader();
    // The end of the body as text, so a stream's closing `data: [DONE]` can be told from a cut connection.
    const decoder = new TextDecoder();
    const seen = { tail: "" };
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        let timer: ReturnType<typeof setTimeout> | undefined;
        let onAbort: (() => void) | undefined;
        const stalled = new Promise<never>((_, reject) => {
          timer = setTimeout(
            () =>
              reject(
                new EndpointError(
                  "TIMEOUT",
                  `${baseURL} sent no data for ${timeoutMs} ms in the middle of its reply (timeoutMs bounds every wait).`,
                ),
              ),
            timeoutMs,
          );
          onAbort = () => reject(signal?.reason ?? new EndpointError("ABORTED", "the request was aborted."));
          if (signal?.aborted) onAbort();
          else signal?.addEventListener("abort", onAbort, { once: true });
        });
        try {
          const chunk = await Promise.race([reader.read(), stalled]);
          if (chunk.done) controller.close();
          else {
            seen.tail = (seen.tail + decoder.decode(chunk.value, { stream: true })).slice(-64);
            controller.enqueue(chunk.value);
          }
        } catch (error) {
          reader.cancel(error).catch(() => undefined);
          controller.error(error);
        } finally {
          clearTimeout(timer);
          if (onAbort !== undefined) signal?.removeEventListener("abort", onAbort);
        }
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    });
    const wrapped = new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
    bodyEnds.set(wrapped, seen);
    return wrapped;
  };
}

/**
 * Longest server error message kept in an EndpointError: a server's own explanation (a context-length
 * refusal names the model, both token counts and the fix) is kept whole; only a page-sized body (an HTML
 * error page from a proxy) is cut, and the cut says how much was left out.
 */
export const MAX_SERVER_MESSAGE_CHARS = 2_000;

/** The server's error message without the SDK's leading status ("400 ..."), cut only beyond the limit above. */
function serverMessage(message: unknown, status?: number): string {
  let text = String(message);
  if (status !== undefined && text.startsWith(`${status} `)) text = text.slice(String(status).length + 1);
  if (text.length <= MAX_SERVER_MESSAGE_CHARS) return text;
  return `${text.slice(0, MAX_SERVER_MESSAGE_CHARS)}... (${text.length - MAX_SERVER_MESSAGE_CHARS} more characters)`;
}

/** The longest delay a Node timer takes (2^31 - 1 ms); longer ones fire at once. */
const MAX_TIMER_MS = 2_147_483_647;

/** The per-request options this client gives the SDK. */
interface SdkRequestOptions {
  signal: AbortSignal;
  timeout: number;
}

/** One call's deadline: its abort signal (joined with the caller's), the time left, whether it passed. */
interface Deadline {
  signal: AbortSignal;
  left(): number;
  /** The deadline itself passed (not the caller's abort). */
  expired(): boolean;
  dispose(): void;
}

/** `work`, or a rejection as soon as `signal` aborts (a fetch that ignores its signal cannot hold a call). */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    work.catch(() => undefined);
    return Promise.reject(signal.reason);
  }
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
  });
  // The abandoned request may fail later: that failure is not the caller's.
  work.catch(() => undefined);
  return Promise.race([work, aborted]).finally(() => {
    if (onAbort !== undefined) signal.removeEventListener("abort", onAbort);
  });
}

/** Wait `ms`, or reject when `signal` aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/** The wait a server asks for in `retry-after-ms` or `Retry-After` (seconds or an HTTP date), in ms. */
function askedWait(headers: Headers | undefined): number | undefined {
  const ms = Number.parseFloat(headers?.get("retry-after-ms") ?? "");
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers?.get("retry-after")?.trim();
  if (value === undefined || value === "") return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, date - Date.now()) : undefined;
}

/**
 * Whether a failed attempt is worth retrying, and after how long: connection failures and 408/409/429/5xx
 * (unless the server says `x-should-retry: false`), waiting what the server asks (`asked`) or an
 * exponential backoff from 0.5 s (up to 8 s). Undefined: do not retry.
 */
function retryWait(error: unknown, attempt: number): { ms: number; asked: boolean } | undefined {
  const backoff = Math.min(500 * 2 ** attempt, 8000);
  if (error instanceof APIConnectionError) return { ms: backoff, asked: false };
  if (!(error instanceof APIError) || typeof error.status !== "number") return undefined;
  const headers = error.headers as Headers | undefined;
  const should = headers?.get("x-should-retry");
  const status = error.status;
  if (should === "false") return undefined;
  if (should !== "true" && !(status === 408 || status === 409 || status === 429 || status >= 500)) return undefined;
  const asked = askedWait(headers);
  return asked === undefined ? { ms: backoff, asked: false } : { ms: asked, asked: true };
}

/** The last characters of each wrapped response body (see {@link withBodyTimeout}). */
const bodyEnds = new WeakMap<Response, { tail: string }>();

export class LlmClient {
  readonly model: string;
  readonly baseURL: string;
  private readonly sdk: OpenAI;
  private readonly limiter: Limiter;
  private readonly timeoutMs: number;
  private readonly deadlineMs: number;
  private readonly maxRetries: number;
  private readonly maxRetryAfterMs: number;
  private readonly cache: ResponseCache | undefined;
  private readonly prices: PriceTable;
  private readonly tally = { requests: 0, cacheHits: 0, promptTokens: 0, completionTokens: 0, withoutUsage: 0 };

  constructor(options: LlmClientOptions) {
    if (typeof options.baseURL !== "string" || !/^https?:\/\/[^/]/.test(options.baseURL))
      throw new EndpointError(
        "INVALID_BASE_URL",
        `baseURL must be an http(s) URL such as http://127.0.0.1:8080/v1, got ${JSON.stringify(options.baseURL)}.`,
      );
    if (typeof options.model !== "string" || options.model.trim() === "")
      throw new EndpointError("INVALID_MODEL", "model must name the endpoint's model (e.g. gpt-4o-mini).");
    const positive = (name: string, value: number | undefined, min: number) => {
      if (value !== undefined && !(Number.isInteger(value) && value >= min))
        throw new EndpointError("INVALID_OPTION", `${name} must be an integer >= ${min}, got ${String(value)}.`);
    };
    positive("timeoutMs", options.timeoutMs, 1);
    positive("deadlineMs", options.deadlineMs, 1);
    positive("maxRetries", options.maxRetries, 0);
    positive("maxRetryAfterMs", options.maxRetryAfterMs, 0);
    positive("concurrency", options.concurrency, 1);
    // Node's timers fire at once for delays over 2^31 - 1 ms (about 24.8 days).
    for (const name of ["timeoutMs", "deadlineMs", "maxRetryAfterMs"] as const)
      if ((options[name] ?? 0) > MAX_TIMER_MS)
        throw new EndpointError("INVALID_OPTION", `${name} must be at most ${MAX_TIMER_MS} ms, got ${options[name]}.`);
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.deadlineMs = options.deadlineMs ?? DEFAULT_DEADLINE_MS;
    this.maxRetries = options.maxRetries ?? 3;
    this.maxRetryAfterMs = options.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS;
    this.model = options.model;
    this.baseURL = options.baseURL.replace(/\/+$/, "");
    const apiKey = resolveApiKey(options);
    this.sdk = new OpenAI({
      baseURL: this.baseURL,
      // The SDK insists on a key; without one the Authorization header is removed (local servers).
      apiKey: apiKey ?? "none",
      ...(apiKey === undefined ? { defaultHeaders: { Authorization: null } } : {}),
      timeout: this.timeoutMs,
      // Retries are this class's (below): the SDK's own sleep obeys any Retry-After and cannot be cut short.
      maxRetries: 0,
      fetch: withBodyTimeout(options.fetch ?? globalThis.fetch, this.timeoutMs, this.baseURL),
    });
    this.limiter = new Limiter(options.concurrency ?? 4);
    this.cache = options.cacheDir === undefined ? undefined : new ResponseCache(options.cacheDir);
    this.prices = options.prices ?? {};
  }

  /** A chat completion (`POST /chat/completions`), from the cache when stored. */
  async chat(request: ChatRequest, signal?: AbortSignal): Promise<ChatCompletion> {
    const body = { ...request, model: this.model, stream: false as const };
    return (await this.cached(
      "chat.completions",
      body,
      (request) => this.sdk.chat.completions.create(body, request),
      "the chat reply",
      signal,
    )) as ChatCompletion;
  }

  /** A text completion (`POST /completions`), from the cache when stored. */
  async complete(request: CompletionRequest, signal?: AbortSignal): Promise<Completion> {
    const body = { ...request, model: this.model, stream: false as const };
    return (await this.cached(
      "completions",
      body,
      (request) => this.sdk.completions.create(body, request),
      "the completion",
      signal,
    )) as Completion;
  }

  /** Streamed chat content deltas (never cached: streams are for people watching, not for evaluation). */
  async *chatStream(
    request: Omit<ChatCompletionCreateParamsStreaming, "model" | "stream">,
    signal?: AbortSignal,
  ): AsyncIterable<string> {
    const body = { ...request, model: this.model, stream: true as const };
    // The slot is held until the stream ends: `concurrency` counts streams in flight, not just their headers.
    const release = await this.limiter.acquire();
    // The deadline covers the whole stream, not just its start.
    const deadline = this.startDeadline(signal);
    try {
      const { data: stream, response } = await this.call(
        (request) => this.sdk.chat.completions.create(body, request).withResponse(),
        deadline,
      );
      this.tally.requests++;
      this.tally.withoutUsage++;
      let finished = false;
      try {
        for await (const chunk of stream) {
          const choice = chunk.choices?.[0];
          const delta = choice?.delta?.content;
          if (delta) yield delta;
          if (choice?.finish_reason) finished = true;
        }
      } catch (error) {
        throw deadline.expired() ? this.deadlineError() : this.translate(error);
      }
      // The SDK ends a stream quietly when its signal aborts: the deadline or the caller stopped it.
      if (deadline.expired()) throw this.deadlineError();
      if (deadline.signal.aborted) throw new EndpointError("ABORTED", "the request was aborted.");
      // A stream cut short (a proxy closing the connection cleanly) must not pass as a complete reply: a
      // complete one sent a finish_reason or the closing `data: [DONE]`.
      if (!finished && !/data: ?\[DONE\]\s*$/.test(bodyEnds.get(response)?.tail ?? ""))
        throw new EndpointError(
          "BAD_RESPONSE",
          `the stream from ${this.baseURL} ended before its reply finished (no finish_reason, no [DONE]): the text is incomplete.`,
        );
    } finally {
      deadline.dispose();
      release();
    }
  }

  /** Usage so far: requests, cache hits, tokens, and estimated cost. */
  usage(): UsageReport {
    const price = this.prices[this.model];
    return {
      model: this.model,
      requests: this.tally.requests,
      cacheHits: this.tally.cacheHits,
      promptTokens: this.tally.promptTokens,
      completionTokens: this.tally.completionTokens,
      requestsWithoutUsage: this.tally.withoutUsage,
      costUsd:
        price === undefined
          ? undefined
          : (this.tally.promptTokens * price.input + this.tally.completionTokens * price.output) / 1e6,
    };
  }

  /** A response from the cache, else from the network -- stored only when it has a choices array. */
  private async cached(
    api: string,
    body: object,
    send: (request: SdkRequestOptions) => Promise<unknown>,
    what: string,
    signal: AbortSignal | undefined,
  ): Promise<unknown> {
    const key = { api, baseURL: this.baseURL, body };
    const hit = this.cache?.get(key);
    if (hit !== undefined && Array.isArray((hit as { choices?: unknown }).choices)) {
      this.tally.cacheHits++;
      return hit;
    }
    // The deadline starts when the request may go out (a wait for a concurrency slot is not the server's).
    const response = await this.limiter.run(async () => {
      const deadline = this.startDeadline(signal);
      try {
        return await this.call(send, deadline);
      } finally {
        deadline.dispose();
      }
    });
    this.tally.requests++;
    // A 200 without choices (an error object, a captive portal's page) is refused and not cached, so the
    // next run asks again instead of replaying the failure.
    if (!Array.isArray((response as { choices?: unknown } | null)?.choices))
      throw new EndpointError("BAD_RESPONSE", `${what} from ${this.baseURL} has no choices array.`);
    const usage = (response as { usage?: { prompt_tokens?: unknown; completion_tokens?: unknown } | null }).usage;
    if (usage && typeof usage.prompt_tokens === "number" && typeof usage.completion_tokens === "number") {
      this.tally.promptTokens += usage.prompt_tokens;
      this.tally.completionTokens += usage.completion_tokens;
    } else this.tally.withoutUsage++;
    // Round-trip through JSON so a fresh answer and a cached one are the same plain object.
    const plain = JSON.parse(JSON.stringify(response)) as unknown;
    this.cache?.set(key, plain);
    return plain;
  }

  /** A deadline of {@link deadlineMs} from now, joined with the caller's abort signal. */
  private startDeadline(signal: AbortSignal | undefined): Deadline {
    const started = Date.now();
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(this.deadlineError()), this.deadlineMs);
    const combined = signal === undefined ? controller.signal : AbortSignal.any([signal, controller.signal]);
    return {
      signal: combined,
      left: () => this.deadlineMs - (Date.now() - started),
      expired: () => controller.signal.aborted && !(signal?.aborted ?? false),
      dispose: () => clearTimeout(timer),
    };
  }

  private deadlineError(): EndpointError {
    return new EndpointError(
      "TIMEOUT",
      `${this.baseURL} did not complete the call within its ${this.deadlineMs} ms deadline (every attempt, retry wait and the whole reply included): raise deadlineMs (--timeout) or check the server.`,
    );
  }

  /**
   * Send with retries inside `deadline`: each attempt waits at most timeoutMs (or what the deadline leaves)
   * for the headers; a retryable failure waits its Retry-After (capped) or an exponential backoff, as long
   * as the deadline allows. Whatever `send` does, the call ends when the deadline passes.
   */
  private async call<T>(send: (request: SdkRequestOptions) => Promise<T>, deadline: Deadline): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        const sending = send({
          signal: deadline.signal,
          timeout: Math.max(1, Math.min(this.timeoutMs, deadline.left())),
        });
        return await untilAborted(sending, deadline.signal);
      } catch (error) {
        if (deadline.expired()) throw this.deadlineError();
        if (deadline.signal.aborted) throw new EndpointError("ABORTED", "the request was aborted.", { cause: error });
        const wait = retryWait(error, attempt);
        if (wait === undefined || attempt >= this.maxRetries) throw this.translate(error);
        if (wait.asked && (wait.ms > this.maxRetryAfterMs || wait.ms >= deadline.left()))
          throw this.rateLimited(error, wait.ms, deadline.left());
        if (wait.ms >= deadline.left()) throw this.deadlineError();
        try {
          await sleep(wait.ms, deadline.signal);
        } catch {
          if (deadline.expired()) throw this.deadlineError();
          throw new EndpointError("ABORTED", "the request was aborted.", { cause: error });
        }
      }
    }
  }

  /** The server asked to wait longer than this client will (its cap, or what the deadline leaves). */
  private rateLimited(error: unknown, waitMs: number, leftMs: number): EndpointError {
    const status = (error as { status?: unknown }).status;
    const limit =
      waitMs > this.maxRetryAfterMs
        ? `the ${this.maxRetryAfterMs} ms this client waits at most (maxRetryAfterMs, --max-retry-after)`
        : `the ${Math.max(0, Math.round(leftMs))} ms left of the call's ${this.deadlineMs} ms deadline (deadlineMs, --timeout)`;
    return new EndpointError(
      "RATE_LIMITED",
      `${typeof status === "number" ? status : "the server"} from ${this.baseURL} asks to wait ${(waitMs / 1000).toFixed(waitMs < 10_000 ? 1 : 0)} s before retrying (Retry-After), more than ${limit}: try again later, or raise the limit.`,
      { ...(typeof status === "number" ? { status } : {}), cause: error },
    );
  }

  /** SDK errors -> EndpointError with a stable code. */
  private translate(error: unknown): unknown {
    if (error instanceof EndpointError) return error;
    if (error instanceof APIUserAbortError)
      return new EndpointError("ABORTED", "the request was aborted.", { cause: error });
    if (error instanceof APIConnectionTimeoutError)
      return new EndpointError("TIMEOUT", `no answer from ${this.baseURL} in time (after retries).`, { cause: error });
    if (error instanceof APIConnectionError)
      return new EndpointError(
        "NETWORK",
        `cannot reach ${this.baseURL}: ${describeCause(error)}. Is the server running?`,
        { cause: error },
      );
    if (error instanceof APIError && typeof error.status === "number") {
      const retryable = error.status === 408 || error.status === 409 || error.status === 429 || error.status >= 500;
      return new EndpointError(
        retryable ? "RETRIES_EXHAUSTED" : "HTTP_ERROR",
        `${error.status} from ${this.baseURL}${retryable ? " (after all retries)" : ""}: ${serverMessage(error.message, error.status)}`,
        { status: error.status, cause: error },
      );
    }
    if (error instanceof APIError)
      // No status: an error event inside a stream (`data: {"error": ...}`); keep the server's own code.
      return new EndpointError(
        "STREAM_ERROR",
        `${this.baseURL} reported an error in its stream${typeof error.code === "string" ? ` (${error.code})` : ""}: ${serverMessage(error.message)}`,
        { cause: error },
      );
    if (error instanceof OpenAIError)
      return new EndpointError("SDK_ERROR", `the openai SDK refused the request: ${error.message}`, { cause: error });
    const name = (error as { name?: unknown } | null)?.name;
    if (name === "AbortError") return new EndpointError("ABORTED", "the request was aborted.", { cause: error });
    if (name === "TimeoutError")
      return new EndpointError("TIMEOUT", `no answer from ${this.baseURL} in time.`, { cause: error });
    if (error instanceof SyntaxError)
      return new EndpointError(
        "BAD_RESPONSE",
        `${this.baseURL} sent a reply that is not valid JSON: ${error.message}`,
        {
          cause: error,
        },
      );
    // What fetch throws when the connection breaks while the body is read ("terminated", "other side closed").
    if (error instanceof TypeError)
      return new EndpointError(
        "NETWORK",
        `the connection to ${this.baseURL} broke during the reply: ${describeCause(error)}.`,
        { cause: error },
      );
    return error;
  }
}

function describeCause(error: Error): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? error.message;
}

/** One line for a CLI: `usage: 12 requests (3 cached), 4,210 prompt + 36 completion tokens, est. $0.0007`. */
export function formatUsage(report: UsageReport): string {
  const n = (x: number) => x.toLocaleString("en-US");
  const cost =
    report.costUsd === undefined ? "cost unknown (no price for this model)" : `est. $${report.costUsd.toFixed(4)}`;
  const missing = report.requestsWithoutUsage > 0 ? `, ${report.requestsWithoutUsage} without usage` : "";
  return `usage (${report.model}): ${n(report.requests)} requests (${n(report.cacheHits)} cached), ${n(report.promptTokens)} prompt + ${n(report.completionTokens)} completion tokens${missing}, ${cost}`;
}
