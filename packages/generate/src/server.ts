/**
 * The npov HTTP server (fastify): OpenAI-compatible `POST /v1/chat/completions` (an NPOV input in, a neutral
 * response out), `POST /v1/completions` (a raw prompt completed by the local model -- what the endpoint
 * classifier and judges need), `GET /v1/models`, `POST /v1/check` for guardrail pipelines (input + response
 * -> guard verdict), `GET /health`. With a local model it returns real `usage`, `logprobs`/`top_logprobs`
 * (teacher-forced, see LocalGenerator.complete), `finish_reason: "length"` when `max_tokens` cuts the
 * answer, `n` choices (seeds seed, seed+1, ...) and `stop` strings. Streamed and non-streamed chat replies
 * carry the same cleaned content. Request validation with JSON errors in OpenAI's shape, a body-size limit,
 * and clean shutdown via `close()`.
 */
import type { Guard } from "@npov/classifier";
import {
  generatorPrompt,
  NpovError,
  type NpovInput,
  parseGeneratorOutput,
  validateInput,
  validateResponse,
} from "@npov/core";
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply } from "fastify";
import type { GenerateOptions, Generator } from "./generator.js";
import { type CompleteOptions, firstStop, type GeneratedTokenLogprob, type TextCompletion } from "./local.js";

export interface ServerOptions {
  generator: Generator;
  /** Guard for /v1/check (default: none, the route answers 503). */
  guard?: Guard;
  /** Largest accepted request body in bytes (default 256 KiB). */
  bodyLimit?: number;
}

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
  npov?: { input?: unknown };
}

interface CompletionBody extends Omit<ChatBody, "messages" | "logprobs"> {
  prompt?: unknown;
  logprobs?: unknown;
  echo?: unknown;
}

/** The NPOV input of a chat request: `npov.input`, or the last user message holding it as JSON. */
export function chatInput(body: ChatBody): NpovInput {
  if (body.npov?.input !== undefined) return validateInput(body.npov.input, "npov.input");
  const messages = body.messages as Array<{ role?: unknown; content?: unknown }>;
  const user = [...messages].reverse().find((m) => m.role === "user");
  if (user === undefined || typeof user.content !== "string")
    throw new InvalidRequest(
      "messages must contain a user message whose content is the NPOV input as JSON, or pass it in npov.input.",
      "missing_input",
    );
  let value: unknown;
  try {
    value = JSON.parse(user.content);
  } catch {
    throw new InvalidRequest(
      'the user message must be an NPOV input as JSON: {"topic", "query", "perspectives": [{"label", "arguments"}]} (or pass it in npov.input). For raw prompts use POST /v1/completions.',
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

/** The port is taken (code `PORT_IN_USE`). */
export class PortInUseError extends NpovError {}

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
  const seed = num(body.seed, "seed", Number.isInteger);
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
  if (stop === undefined) throw new InvalidRequest("stop must be a string or up to 4 strings.", "invalid_stop");
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

/**
 * Listen, turning a busy port into a typed one-line error.
 * @throws PortInUseError (code PORT_IN_USE)
 */
export async function listen(app: FastifyInstance, where: { host: string; port: number }): Promise<string> {
  try {
    return await app.listen(where);
  } catch (error) {
    if ((error as { code?: string }).code === "EADDRINUSE")
      throw new PortInUseError(
        "PORT_IN_USE",
        `port ${where.port} on ${where.host} is already in use: stop the other server or choose another --port (0 = any free port).`,
      );
    throw error;
  }
}

/** Build the server (not listening yet): `await listen(server, { host: "127.0.0.1", port })`. */
export function createServer(o: ServerOptions): FastifyInstance {
  const app = Fastify({ bodyLimit: o.bodyLimit ?? 256 * 1024, logger: false });
  const local = completer(o.generator);
  let counter = 0;

  app.setErrorHandler((error: FastifyError, _request, reply) => {
    if (error instanceof NpovError) return apiError(reply, 400, error.message, error.code);
    if (error.statusCode === 413)
      return apiError(reply, 413, `request body larger than ${o.bodyLimit ?? 256 * 1024} bytes.`, "body_too_large");
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
    const body = (request.body ?? {}) as ChatBody;
    if (!Array.isArray(body.messages) || body.messages.length === 0)
      return apiError(reply, 400, "messages must be a non-empty array.", "invalid_messages");
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
      reply.raw.writeHead(200, {
        "content-type": "text/event-stream",
        "cache-control": "no-cache",
        connection: "keep-alive",
      });
      const send = (index: number, delta: Record<string, unknown>, finish: string | null) =>
        reply.raw.write(
          `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model, choices: [{ index, delta, finish_reason: finish }] })}\n\n`,
        );
      for (let i = 0; i < n; i++) {
        send(i, { role: "assistant", content: "" }, null);
        let raw = "";
        let emitted = "";
        let stopped = false;
        let tokens = 0;
        let last = -1;
        const deltas =
          local === undefined
            ? o.generator.stream(input, { ...opts, seed: seedOf(i) })
            : local.streamPrompt(generatorPrompt(input), { ...opts, seed: seedOf(i) }, (token) => {
                tokens++;
                last = token;
              });
        for await (const text of deltas) {
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
        const final = cleanGeneratorText(cutAtStop(raw, stop, true).text, true);
        if (final.length > emitted.length) send(i, { content: final.slice(emitted.length) }, null);
        const length =
          !stopped && local !== undefined && tokens >= (opts.maxNewTokens ?? 256) && !local.eosTokenIds.includes(last);
        send(i, {}, length ? "length" : "stop");
      }
      reply.raw.write("data: [DONE]\n\n");
      reply.raw.end();
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
    const body = (request.body ?? {}) as CompletionBody;
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
    const body = (request.body ?? {}) as { input?: unknown; response?: unknown };
    const input = validateInput(body.input, "input");
    const response = validateResponse(body.response, "response");
    return o.guard.check(input, response);
  });

  return app;
}
