/**
 * The npov HTTP server (fastify): OpenAI-compatible `POST /v1/chat/completions` (an NPOV input in, a neutral
 * response out), `POST /v1/completions` (a raw prompt completed by the local model -- what the endpoint
 * classifier and judges need), `GET /v1/models`, `POST /v1/check` for guardrail pipelines (input + response
 * -> guard verdict), `GET /health`. With a local model it returns real `usage`, `logprobs`/`top_logprobs`
 * (teacher-forced, see LocalGenerator.complete), `finish_reason: "length"` when `max_tokens` cuts the
 * answer, `n` choices (seeds seed, seed+1, ...) and `stop` strings. Streamed and non-streamed chat replies
 * carry the same cleaned content. Request validation with JSON errors in OpenAI's shape, a body-size limit,
 * opt-in CORS, and clean shutdown via `close()`.
 *
 * User input never gives a 500: a body over the limit is 413, a body that is not JSON (or not an object),
 * a malformed message or option is 400 with `{error: {message, type, code}}`; 500 is kept for faults of the
 * server itself. A malformed JSON body is answered on the same keep-alive connection as a valid one
 * (fastify closes the connection after a body it cannot parse, which under load costs a reconnect per
 * request), so a flood of bad JSON is as cheap as valid traffic; a body over the limit is read and dropped
 * before its 413 so that clients still sending it read the reply.
 */

import { type IncomingMessage, STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import type { Guard } from "@npov/classifier";
import {
  describe,
  generatorPrompt,
  InvalidValueError,
  NpovError,
  type NpovInput,
  parseGeneratorOutput,
  requireText,
  validateCheckInput,
  validateInput,
} from "@npov/core";
import { EndpointError } from "@npov/llm";
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import { HostUnavailableError, PortInUseError, PortNotPermittedError } from "./errors.js";
import type { GenerateOptions, Generator } from "./generator.js";
import { type CompleteOptions, firstStop, type GeneratedTokenLogprob, type TextCompletion } from "./local.js";

export interface ServerOptions {
  generator: Generator;
  /**
   * Guard for /v1/check (default: none, the route answers 503). A {@link GuardPool} runs checks on worker
   * threads (what `npov serve --guard-config` uses); any other Guard runs on the server's event loop.
   */
  guard?: Guard;
  /** Largest accepted request body in bytes, from 1 to {@link MAX_BODY_LIMIT} (default 256 KiB). */
  bodyLimit?: number;
  /**
   * Origins allowed to call the server from a browser (CORS), e.g. `"https://app.example.com"`, or `"*"`
   * for any origin; default: none (no CORS headers, browsers on other origins cannot read replies).
   */
  cors?: string | readonly string[];
  /**
   * Longest time a client may take to send its whole request, headers and body, in milliseconds (default
   * {@link DEFAULT_REQUEST_TIMEOUT_MS}); past it the request is answered 408 and the connection closed, so
   * slow or stalled senders cannot hold connections forever. Replies (streams included) are not limited.
   */
  requestTimeoutMs?: number;
}

/** The default request timeout: 60 s to send a request (Node checks every 30 s, so a stall ends within 90 s). */
export const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;

/** The default request-body limit: 256 KiB. */
export const DEFAULT_BODY_LIMIT = 256 * 1024;

/** The largest body limit the server accepts: 64 MiB (bodies are held in memory as one string). */
export const MAX_BODY_LIMIT = 64 * 1024 * 1024;

/** Longest `stop` string: cutting at a stop string costs up to its length per streamed token. */
const MAX_STOP_LENGTH = 1000;

/** A generator that can also complete raw prompts with log-probabilities (LocalGenerator). */
export interface PromptCompleter {
  complete(prompt: string, options?: CompleteOptions): Promise<TextCompletion>;
  streamPrompt(prompt: string, options?: GenerateOptions, onToken?: (id: number) => void): AsyncIterable<string>;
  readonly eosTokenIds: number[];
}

function completer(generator: Generator): PromptCompleter | undefined {
  const g = generator as Partial<PromptCompleter>;
  return typeof g.complete === "function" && typeof g.streamPrompt === "function"
    ? (generator as unknown as PromptCompleter)
    : undefined;
}

function apiError(reply: FastifyReply, status: number, message: string, code: string, type = "invalid_request_error") {
  return reply.code(status).send({ error: { message, type, code } });
}

/** The request body as a JSON object. @throws InvalidRequest (code `invalid_body`) for anything else */
function objectBody<T>(request: FastifyRequest): T {
  const body = request.body;
  if (!isRecord(body))
    throw new InvalidRequest(
      `the request body must be a JSON object (content-type: application/json), got ${describe(body)}.`,
      "invalid_body",
    );
  return body as T;
}

interface ChatBody {
  model?: unknown;
  messages?: unknown;
  temperature?: unknown;
  top_p?: unknown;
  seed?: unknown;
  max_tokens?: unknown;
  max_completion_tokens?: unknown;
  stream?: unknown;
  n?: unknown;
  stop?: unknown;
  logprobs?: unknown;
  top_logprobs?: unknown;
  npov?: unknown;
}

interface CompletionBody extends Omit<ChatBody, "messages" | "logprobs"> {
  prompt?: unknown;
  logprobs?: unknown;
  echo?: unknown;
}

const ROLES = new Set(["system", "developer", "user", "assistant", "tool", "function"]);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A chat message, checked: a known role and text content (a string, text parts, or none). */
export interface ChatMessage {
  role: string;
  content: string | null;
}

/** Check every message of a chat request. @throws InvalidRequest (code `invalid_messages`) naming the message */
export function validateMessages(messages: unknown): ChatMessage[] {
  if (!Array.isArray(messages) || messages.length === 0)
    throw new InvalidRequest("messages must be a non-empty array.", "invalid_messages");
  return messages.map((m: unknown, k) => {
    const at = `messages[${k}]`;
    if (!isRecord(m))
      throw new InvalidRequest(`${at} must be an object {role, content}, got ${describe(m)}.`, "invalid_messages");
    if (typeof m.role !== "string" || !ROLES.has(m.role))
      throw new InvalidRequest(
        `${at}.role must be one of ${[...ROLES].join(", ")}, got ${describe(m.role)}.`,
        "invalid_messages",
      );
    const content = m.content;
    if (content === undefined || content === null) return { role: m.role, content: null };
    if (typeof content === "string") return { role: m.role, content };
    if (Array.isArray(content)) {
      const parts = content.map((part: unknown, i) => {
        if (isRecord(part) && part.type === "text" && typeof part.text === "string") return part.text;
        throw new InvalidRequest(
          `${at}.content[${i}] must be a text part {"type": "text", "text": "..."} (npov reads text only), got ${describe(part)}.`,
          "invalid_messages",
        );
      });
      return { role: m.role, content: parts.join("") };
    }
    throw new InvalidRequest(
      `${at}.content must be a string or an array of text parts, got ${describe(content)}.`,
      "invalid_messages",
    );
  });
}

/** The NPOV input of a chat request: `npov.input`, or the last user message holding it as JSON. */
export function chatInput(body: ChatBody): NpovInput {
  const messages = validateMessages(body.messages);
  const npov = isRecord(body.npov) ? body.npov : undefined;
  if (npov?.input !== undefined) return validateInput(npov.input, "npov.input");
  let user: ChatMessage | undefined;
  for (let k = messages.length - 1; k >= 0 && user === undefined; k--)
    if (messages[k]?.role === "user") user = messages[k];
  if (user === undefined || user.content === null)
    throw new InvalidRequest(
      "messages must contain a user message whose content is the NPOV input as JSON, or pass it in npov.input.",
      "missing_input",
    );
  let value: unknown;
  try {
    value = JSON.parse(user.content);
  } catch {
    throw new InvalidRequest(
      'the user message must be an NPOV input as JSON: {"topic", "query", "perspectives": [{"label", "arguments"}]} (or pass it in npov.input). For raw prompts use POST /v1/completions: npov check, eval, judge and guard ask it with --api completions (api: completions in a guard config).',
      "input_not_json",
    );
  }
  return validateInput(value, "messages[-1].content");
}

class InvalidRequest extends NpovError {
  constructor(message: string, code: string) {
    super(code, message);
  }
}

/** The sampling options every route shares, plus `n`, `stop` and the token budget. */
function options(body: ChatBody): GenerateOptions & { n: number; stop: string[] } {
  const num = (v: unknown, name: string, ok: (x: number) => boolean) => {
    if (v === undefined || v === null) return undefined;
    if (typeof v !== "number" || !ok(v))
      throw new InvalidRequest(`${name} is out of range or not a number.`, `invalid_${name}`);
    return v;
  };
  const temperature = num(body.temperature, "temperature", (x) => x >= 0 && x <= 2);
  const topP = num(body.top_p, "top_p", (x) => x > 0 && x <= 1);
  const seed = num(body.seed, "seed", Number.isSafeInteger);
  const maxNewTokens =
    num(body.max_tokens, "max_tokens", (x) => Number.isInteger(x) && x > 0 && x <= 4096) ??
    num(body.max_completion_tokens, "max_completion_tokens", (x) => Number.isInteger(x) && x > 0 && x <= 4096);
  const n = num(body.n, "n", (x) => Number.isInteger(x) && x >= 1 && x <= 16) ?? 1;
  const stop =
    body.stop === undefined || body.stop === null
      ? []
      : typeof body.stop === "string"
        ? [body.stop]
        : Array.isArray(body.stop) && body.stop.length <= 4 && body.stop.every((x) => typeof x === "string")
          ? (body.stop as string[])
          : undefined;
  if (stop === undefined || stop.some((x) => x.length > MAX_STOP_LENGTH))
    throw new InvalidRequest(
      `stop must be a string or up to 4 strings of at most ${MAX_STOP_LENGTH} characters.`,
      "invalid_stop",
    );
  return {
    n,
    stop: stop.filter((x) => x.length > 0),
    ...(temperature === undefined ? {} : { temperature }),
    ...(topP === undefined ? {} : { topP }),
    ...(seed === undefined ? {} : { seed }),
    ...(maxNewTokens === undefined ? {} : { maxNewTokens }),
  };
}

const CORE_MARKER = /\}\s*Neutral response core:\s*\{/;

/**
 * The content a client sees for a generator's raw text: `<opening> <core>` when the Figure 3 marker is
 * there (the core ends at its closing brace or, if truncated, at the end), else the text trimmed.
 * Prefix-stable for streaming: with `final` false, text from the first `}` on is held back while no marker
 * is seen, so every streamed prefix is a prefix of the final content.
 */
export function cleanGeneratorText(raw: string, final = true): string {
  const m = CORE_MARKER.exec(raw);
  if (m === null) {
    const brace = raw.indexOf("}");
    return raw.slice(0, final || brace < 0 ? raw.length : brace).trim();
  }
  const opening = raw.slice(0, m.index).trim();
  const rest = raw.slice(m.index + m[0].length);
  const close = rest.indexOf("}");
  const core = (close < 0 ? rest : rest.slice(0, close)).trim();
  return [opening, core].filter((x) => x.length > 0).join(" ");
}

/** `text` without anything from the first stop string on; while streaming, also without a partial stop at the end. */
function cutAtStop(text: string, stops: readonly string[], final: boolean): { text: string; stopped: boolean } {
  const hit = firstStop(text, stops);
  if (hit !== undefined) return { text: text.slice(0, hit.index), stopped: true };
  if (final) return { text, stopped: false };
  let hold = 0;
  for (const stop of stops)
    for (let k = Math.min(stop.length - 1, text.length); k > hold; k--)
      if (text.endsWith(stop.slice(0, k))) {
        hold = k;
        break;
      }
  return { text: text.slice(0, text.length - hold), stopped: false };
}

function chatLogprobs(tokens: GeneratedTokenLogprob[]) {
  return {
    content: tokens.map((t) => ({
      token: t.token,
      logprob: t.logprob,
      bytes: t.bytes,
      top_logprobs: t.top.map((x) => ({ token: x.token, logprob: x.logprob, bytes: x.bytes })),
    })),
    refusal: null,
  };
}

/** OpenAI completions shape; two candidates with the same text share a key, their probabilities summed. */
function completionLogprobs(tokens: GeneratedTokenLogprob[]) {
  const offsets: number[] = [];
  let at = 0;
  for (const t of tokens) {
    offsets.push(at);
    at += t.token.length;
  }
  return {
    tokens: tokens.map((t) => t.token),
    token_logprobs: tokens.map((t) => t.logprob),
    top_logprobs: tokens.map((t) => {
      const dict: Record<string, number> = {};
      for (const x of t.top) {
        const prev = dict[x.token];
        dict[x.token] =
          prev === undefined
            ? x.logprob
            : Math.max(prev, x.logprob) + Math.log1p(Math.exp(-Math.abs(prev - x.logprob)));
      }
      return dict;
    }),
    text_offset: offsets,
  };
}

/** Check a port: a whole number from 0 to 65535 (0 = any free port). @throws InvalidValueError */
export function checkPort(port: unknown): number {
  if (typeof port !== "number" || !Number.isInteger(port) || port < 0 || port > 65535)
    throw new InvalidValueError(
      "port",
      `must be a whole number from 0 to 65535 (0 = any free port), got ${describe(port)}.`,
    );
  return port;
}

/**
 * Check a host: a non-empty name or address without spaces. An empty host would make Node listen on every
 * interface; that must be asked for explicitly (0.0.0.0 or ::). @throws InvalidValueError
 */
export function checkHost(host: unknown): string {
  if (typeof host !== "string" || host.length === 0 || host.length > 253 || /[\s\p{Cc}/]/u.test(host))
    throw new InvalidValueError(
      "host",
      `must be a host name or IP address such as 127.0.0.1 (the default), ::1 or 0.0.0.0, got ${describe(host)}.`,
    );
  return host;
}

/** Check a body limit in bytes: from 1 to {@link MAX_BODY_LIMIT}. @throws InvalidValueError */
export function checkBodyLimit(bytes: unknown): number {
  if (typeof bytes !== "number" || !Number.isInteger(bytes) || bytes < 1 || bytes > MAX_BODY_LIMIT)
    throw new InvalidValueError(
      "bodyLimit",
      `must be a whole number of bytes from 1 to ${MAX_BODY_LIMIT} (64 MiB), got ${describe(bytes)}.`,
    );
  return bytes;
}

/**
 * Check CORS origins: `"*"` or origins such as `https://app.example.com` (scheme, host and port; no path);
 * a string may list several, separated by commas. @throws InvalidValueError
 */
export function checkCorsOrigins(value: string | readonly string[]): string[] {
  const list = (typeof value === "string" ? value.split(",") : [...value]).map((x) =>
    typeof x === "string" ? x.trim() : x,
  );
  if (list.length === 0) throw new InvalidValueError("cors", 'give "*" or at least one origin.');
  for (const origin of list) {
    if (origin === "*") continue;
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    if (parsed === undefined || parsed.origin === "null" || parsed.origin !== origin)
      throw new InvalidValueError(
        "cors",
        `${describe(origin)} is not an origin: give "*" or scheme://host[:port] with no path or trailing slash, e.g. https://app.example.com.`,
      );
  }
  return list;
}

/**
 * Listen, turning address problems into typed one-line errors.
 * @throws InvalidValueError (bad port or host), PortInUseError (PORT_IN_USE), PortNotPermittedError
 *   (PORT_NOT_PERMITTED), HostUnavailableError (HOST_UNAVAILABLE)
 */
export async function listen(app: FastifyInstance, where: { host: string; port: number }): Promise<string> {
  const host = checkHost(where.host);
  const port = checkPort(where.port);
  try {
    return await app.listen({ host, port });
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === "EADDRINUSE") throw new PortInUseError(host, port);
    if (code === "EACCES") throw new PortNotPermittedError(host, port);
    if (code === "EADDRNOTAVAIL") throw new HostUnavailableError(host, "not an address of this machine");
    if (code === "ENOTFOUND" || code === "EAI_AGAIN" || code === "EAI_NONAME" || code === "EAI_FAIL")
      throw new HostUnavailableError(host, "the name does not resolve");
    throw error;
  }
}

/** The most body bytes read (and dropped) for a 413, so a client still sending its body reads the reply. */
const DRAIN_LIMIT = 64 * 1024 * 1024;

/**
 * Before a 413, read and drop the rest of the body: answering first would close the connection under a
 * client still writing its 50 MB body, which then sees a broken pipe instead of the 413. Resolves true
 * once the body has ended (the connection can stay open: the HTTP framing is intact), false at once for a
 * body declared larger than {@link DRAIN_LIMIT} (not worth reading), and false -- with the connection
 * closed -- when more than that arrives.
 */
function drainRejectedBody(request: IncomingMessage): Promise<boolean> {
  if (request.readableEnded) return Promise.resolve(true);
  if (Number(request.headers["content-length"]) > DRAIN_LIMIT) return Promise.resolve(false);
  return new Promise((resolve) => {
    let seen = 0;
    request.on("data", (chunk: Buffer) => {
      seen += chunk.length;
      if (seen <= DRAIN_LIMIT) return;
      request.socket.destroy();
      resolve(false);
    });
    request.once("end", () => resolve(true));
    request.once("close", () => resolve(request.readableEnded));
    request.resume();
  });
}

/**
 * Errors Node's HTTP parser meets before fastify sees a request -- headers (with the URL) over 16 KiB,
 * bytes that are not HTTP, a client too slow to send its request -- answered in the server's error shape.
 */
function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  const [status, code, message] =
    error.code === "HPE_HEADER_OVERFLOW"
      ? [431, "headers_too_large", "the request line and headers are larger than 16 KiB: shorten the URL or headers."]
      : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? [408, "request_timeout", "the request was not received in time."]
        : [400, "bad_http", `the request is not valid HTTP/1.1 (${error.code ?? error.message}).`];
  const body = JSON.stringify({ error: { message, type: "invalid_request_error", code } });
  if (socket.writable)
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\ncontent-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
  // end() lets the client read the reply; a client that never closes its side is cut off soon after.
  setTimeout(() => socket.destroy(), 1000).unref();
}

/** A request body that is not JSON: kept as a value so the reply goes out on the same connection. */
class UnparsedBody {
  constructor(
    readonly code: string,
    readonly message: string,
  ) {}
}

/** Guard failures that are the server's fault (a broken detector), not the request's. */
const SERVER_SIDE_CODES: Readonly<Record<string, number>> = {
  INVALID_SCORE: 500,
  DETECTOR_FAILED: 500,
  GUARD_WORKER_FAILED: 500,
  GUARD_TIMEOUT: 504,
  GUARD_BUSY: 503,
};

/**
 * Failures of the upstream endpoint (`npov serve --endpoint`): a gateway's statuses, so clients see the
 * fault is not theirs and retry where retrying helps (503 with retry-after, 504).
 */
const UPSTREAM_CODES: Readonly<Record<string, number>> = {
  NETWORK: 502,
  BAD_RESPONSE: 502,
  HTTP_ERROR: 502,
  STREAM_ERROR: 502,
  RETRIES_EXHAUSTED: 503,
  TIMEOUT: 504,
  MISSING_API_KEY: 500,
  SDK_ERROR: 500,
};

/** Build the server (not listening yet): `await listen(server, { host: "127.0.0.1", port })`. */
export function createServer(o: ServerOptions): FastifyInstance {
  const bodyLimit = checkBodyLimit(o.bodyLimit ?? DEFAULT_BODY_LIMIT);
  const cors = o.cors === undefined ? undefined : checkCorsOrigins(o.cors);
  const requestTimeout = o.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  if (!Number.isInteger(requestTimeout) || requestTimeout < 1 || requestTimeout > 3_600_000)
    throw new InvalidValueError(
      "requestTimeoutMs",
      `must be a whole number of milliseconds from 1 to 3,600,000, got ${describe(requestTimeout)}.`,
    );
  const app = Fastify({
    bodyLimit,
    requestTimeout,
    // Node enforces the timeout on a timer (30 s by default); check a few times per timeout so a stalled
    // request ends close to it.
    http: {
      requestTimeout,
      headersTimeout: requestTimeout,
      connectionsCheckingInterval: Math.min(30_000, Math.max(50, Math.floor(requestTimeout / 4))),
    },
    logger: false,
    // Errors fastify raises before routing (e.g. a URL that is not valid percent-encoding) get the same shape.
    frameworkErrors: (error, _request, reply) => apiError(reply, 400, error.message, error.code ?? "bad_request"),
    clientErrorHandler: answerClientError,
  });
  const local = completer(o.generator);
  let counter = 0;

  // fastify's own JSON parser (with its __proto__ / constructor poisoning checks), but a body it cannot
  // parse becomes an UnparsedBody instead of an error: a parser error makes fastify close the connection
  // ("the client may send more data"), which is only needed when the body was not read to the end --
  // bodies over the limit still take that path and get 413 + close.
  const parseJson = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    parseJson(request, body as string, (error: Error | null, value?: unknown) => {
      if (error === null) return done(null, value);
      const code = (error as FastifyError).code ?? "FST_ERR_CTP_INVALID_JSON_BODY";
      if (code === "FST_ERR_CTP_EMPTY_JSON_BODY")
        return done(null, new UnparsedBody(code, "the request body is empty: send a JSON object."));
      let detail = "it holds a __proto__ or constructor.prototype key, which is refused";
      try {
        JSON.parse(body as string);
      } catch (e) {
        detail = (e as Error).message;
      }
      done(null, new UnparsedBody(code, `the request body is not valid JSON (${detail}): send a JSON object.`));
    });
  });
  app.addHook("preValidation", async (request) => {
    if (request.body instanceof UnparsedBody) throw new InvalidRequest(request.body.message, request.body.code);
  });

  if (cors !== undefined) {
    const anyOrigin = cors.includes("*");
    const allowed = (origin: string) => anyOrigin || cors.includes(origin);
    app.addHook("onRequest", async (request, reply) => {
      const origin = request.headers.origin;
      if (typeof origin === "string" && allowed(origin)) {
        reply.header("access-control-allow-origin", anyOrigin ? "*" : origin);
        if (!anyOrigin) reply.header("vary", "origin");
      }
    });
    // Preflight: browsers ask before a cross-origin POST with a JSON body.
    app.options("/*", async (request, reply) => {
      const origin = request.headers.origin;
      if (typeof origin === "string" && !allowed(origin))
        return apiError(
          reply,
          403,
          `origin ${origin} is not allowed (see the server's --cors).`,
          "cors_origin_not_allowed",
        );
      const asked = request.headers["access-control-request-headers"];
      return reply
        .code(204)
        .header("allow", "GET, POST, OPTIONS")
        .header("access-control-allow-methods", "GET, POST, OPTIONS")
        .header("access-control-allow-headers", typeof asked === "string" ? asked : "content-type, authorization")
        .header("access-control-max-age", "600")
        .send();
    });
  }

  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    if (error instanceof EndpointError) {
      const status = UPSTREAM_CODES[error.code] ?? 502;
      if (status === 503) reply.header("retry-after", "1");
      return apiError(reply, status, `upstream endpoint: ${error.message}`, error.code, "server_error");
    }
    if (error instanceof NpovError) {
      const status = SERVER_SIDE_CODES[error.code];
      if (status !== undefined) {
        if (status === 503) reply.header("retry-after", "1");
        return apiError(reply, status, error.message, error.code, "server_error");
      }
      return apiError(reply, 400, error.message, error.code);
    }
    if (error.statusCode === 413) {
      // fastify asks to close the connection (the body was not read to its end); once it has been, the
      // connection is as good as any other.
      if (await drainRejectedBody(request.raw)) reply.removeHeader("connection");
      return apiError(reply, 413, `request body larger than ${bodyLimit} bytes.`, "body_too_large");
    }
    if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500)
      return apiError(reply, error.statusCode, error.message, error.code ?? "bad_request");
    return apiError(reply, 500, "internal error", "internal", "server_error");
  });
  app.setNotFoundHandler((request, reply) =>
    apiError(reply, 404, `no route ${request.method} ${request.url}`, "not_found"),
  );

  app.get("/health", async () => ({ status: "ok", model: o.generator.model }));
  app.get("/v1/models", async () => ({
    object: "list",
    data: [{ id: o.generator.model, object: "model", created: 0, owned_by: "npov" }],
  }));

  const topLogprobs = (value: unknown, name: string): number => {
    if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > 100_000)
      throw new InvalidRequest(`${name} must be an integer >= 0.`, `invalid_${name}`);
    return value;
  };

  app.post("/v1/chat/completions", async (request, reply) => {
    const body = objectBody<ChatBody>(request);
    const input = chatInput(body);
    const { n, stop, ...opts } = options(body);
    if (body.logprobs !== undefined && body.logprobs !== null && typeof body.logprobs !== "boolean")
      throw new InvalidRequest("logprobs must be a boolean.", "invalid_logprobs");
    const wantLogprobs = body.logprobs === true;
    const k =
      body.top_logprobs === undefined || body.top_logprobs === null
        ? 0
        : topLogprobs(body.top_logprobs, "top_logprobs");
    if (k > 0 && !wantLogprobs) throw new InvalidRequest("top_logprobs needs logprobs: true.", "invalid_top_logprobs");
    if (wantLogprobs && local === undefined)
      throw new InvalidRequest(
        `this server's generator (${o.generator.model}) has no log-probabilities: serve a local model (--generator local).`,
        "logprobs_unsupported",
      );
    const id = `chatcmpl-npov-${++counter}`;
    const created = Math.floor(Date.now() / 1000);
    const model = typeof body.model === "string" ? body.model : o.generator.model;
    const seedOf = (i: number) => (opts.seed ?? 0) + i;

    if (body.stream === true) {
      // The status line waits for the first event, so an error before any output (e.g. a prompt longer
      // than the model's context) still gets its 400; after that, an error is an SSE error event.
      let started = false;
      const write = (event: unknown) => {
        if (!started) {
          reply.raw.writeHead(200, {
            ...(reply.getHeaders() as Record<string, string>),
            "content-type": "text/event-stream",
            "cache-control": "no-cache",
            connection: "keep-alive",
          });
          started = true;
        }
        reply.raw.write(`data: ${typeof event === "string" ? event : JSON.stringify(event)}\n\n`);
      };
      const send = (index: number, delta: Record<string, unknown>, finish: string | null) =>
        write({
          id,
          object: "chat.completion.chunk",
          created,
          model,
          choices: [{ index, delta, finish_reason: finish }],
        });
      try {
        for (let i = 0; i < n && !reply.raw.destroyed; i++) {
          let raw = "";
          let emitted = "";
          let stopped = false;
          let tokens = 0;
          let last = -1;
          let opened = false;
          const open = () => {
            if (!opened) send(i, { role: "assistant", content: "" }, null);
            opened = true;
          };
          const deltas =
            local === undefined
              ? o.generator.stream(input, { ...opts, seed: seedOf(i) })
              : local.streamPrompt(generatorPrompt(input), { ...opts, seed: seedOf(i) }, (token) => {
                  tokens++;
                  last = token;
                });
          for await (const text of deltas) {
            open();
            // A client that hung up stops the generation instead of letting it run to the end.
            if (reply.raw.destroyed) break;
            raw += text;
            const cut = cutAtStop(raw, stop, false);
            const clean = cleanGeneratorText(cut.text, cut.stopped);
            if (clean.length > emitted.length && clean.startsWith(emitted)) {
              send(i, { content: clean.slice(emitted.length) }, null);
              emitted = clean;
            }
            if (cut.stopped) {
              stopped = true;
              break;
            }
          }
          open();
          const final = cleanGeneratorText(cutAtStop(raw, stop, true).text, true);
          if (final.length > emitted.length) send(i, { content: final.slice(emitted.length) }, null);
          const length =
            !stopped &&
            local !== undefined &&
            tokens >= (opts.maxNewTokens ?? 256) &&
            !local.eosTokenIds.includes(last);
          send(i, {}, length ? "length" : "stop");
        }
      } catch (error) {
        if (!started) throw error;
        const typed = error instanceof NpovError;
        write({
          error: {
            message: typed ? error.message : "internal error",
            type: typed ? "invalid_request_error" : "server_error",
            code: typed ? error.code : "internal",
          },
        });
      }
      if (!reply.raw.destroyed) {
        write("[DONE]");
        reply.raw.end();
      }
      return reply;
    }

    const choices: unknown[] = [];
    let promptTokens = 0;
    let completionTokens = 0;
    for (let i = 0; i < n; i++) {
      const seed = seedOf(i);
      if (local !== undefined) {
        const c = await local.complete(generatorPrompt(input), {
          ...opts,
          seed,
          stop,
          ...(wantLogprobs ? { logprobs: k } : {}),
        });
        promptTokens = c.promptTokens;
        completionTokens += c.completionTokens;
        let parsed: { parsed: boolean; opening?: string; core?: string } = { parsed: false };
        try {
          const p = parseGeneratorOutput(c.text);
          parsed = { parsed: true, opening: p.opening, core: p.core };
        } catch (e) {
          if (!(e instanceof NpovError)) throw e;
        }
        choices.push({
          index: i,
          message: { role: "assistant", content: cleanGeneratorText(c.text, true), refusal: null },
          logprobs: wantLogprobs && c.logprobs !== undefined ? chatLogprobs(c.logprobs) : null,
          finish_reason: c.finishReason,
          npov: parsed,
        });
        continue;
      }
      const result = await o.generator.generate(input, { ...opts, seed }).catch((e: unknown) => {
        // The model wrote something that is not an NPOV response: still answer, with empty content.
        if (e instanceof NpovError && e.code === "MALFORMED_GENERATOR_OUTPUT") return undefined;
        throw e;
      });
      const cut = result === undefined ? { text: "", stopped: false } : cutAtStop(result.raw, stop, true);
      choices.push({
        index: i,
        message: { role: "assistant", content: cleanGeneratorText(cut.text, true), refusal: null },
        logprobs: null,
        finish_reason: cut.stopped ? "stop" : (result?.finishReason ?? "stop"),
        npov: result === undefined ? { parsed: false } : { parsed: true, opening: result.opening, core: result.core },
      });
    }
    const first = (choices[0] as { npov: unknown }).npov;
    return {
      id,
      object: "chat.completion",
      created,
      model,
      choices,
      // Token counts exist only for a local model; other generators report none rather than zeros.
      ...(local === undefined
        ? {}
        : {
            usage: {
              prompt_tokens: promptTokens,
              completion_tokens: completionTokens,
              total_tokens: promptTokens + completionTokens,
            },
          }),
      npov: first,
    };
  });

  app.post("/v1/completions", async (request) => {
    const body = objectBody<CompletionBody>(request);
    if (local === undefined)
      throw new InvalidRequest(
        `this server's generator (${o.generator.model}) cannot complete raw prompts: serve a local model (--generator local --model DIR).`,
        "completions_unsupported",
      );
    const prompt =
      typeof body.prompt === "string"
        ? body.prompt
        : Array.isArray(body.prompt) && body.prompt.length === 1 && typeof body.prompt[0] === "string"
          ? body.prompt[0]
          : undefined;
    if (prompt === undefined || prompt.length === 0)
      throw new InvalidRequest("prompt must be a non-empty string (or an array holding one).", "invalid_prompt");
    if (body.echo === true) throw new InvalidRequest("echo is not supported.", "echo_unsupported");
    if (body.stream === true)
      throw new InvalidRequest("stream is not supported on /v1/completions (use chat).", "stream_unsupported");
    const { n, stop, ...opts } = options(body);
    const k =
      body.logprobs === undefined || body.logprobs === null ? undefined : topLogprobs(body.logprobs, "logprobs");
    const choices: unknown[] = [];
    let promptTokens = 0;
    let completionTokens = 0;
    for (let i = 0; i < n; i++) {
      const c = await local.complete(prompt, {
        maxNewTokens: 16,
        ...opts,
        seed: (opts.seed ?? 0) + i,
        stop,
        ...(k === undefined ? {} : { logprobs: k }),
      });
      promptTokens = c.promptTokens;
      completionTokens += c.completionTokens;
      choices.push({
        index: i,
        text: c.text,
        logprobs: c.logprobs === undefined ? null : completionLogprobs(c.logprobs),
        finish_reason: c.finishReason,
      });
    }
    return {
      id: `cmpl-npov-${++counter}`,
      object: "text_completion",
      created: Math.floor(Date.now() / 1000),
      model: typeof body.model === "string" ? body.model : o.generator.model,
      choices,
      usage: {
        prompt_tokens: promptTokens,
        completion_tokens: completionTokens,
        total_tokens: promptTokens + completionTokens,
      },
    };
  });

  app.post("/v1/check", async (request, reply) => {
    if (o.guard === undefined)
      return apiError(
        reply,
        503,
        "no guard configured (start the server with --guard-config).",
        "no_guard",
        "server_error",
      );
    const body = objectBody<{ input?: unknown; response?: unknown }>(request);
    const input = validateCheckInput(body.input, "input");
    // A missing, non-text or empty response is a malformed request (400 NOT_TEXT / EMPTY_TEXT); text with
    // nothing to score is the guard's to judge: it blocks it (fail closed) with the reason.
    return o.guard.check(input, requireText(body.response, "response"));
  });

  return app;
}
