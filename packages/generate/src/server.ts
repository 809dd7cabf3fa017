/**
 * The npov HTTP server (fastify): an OpenAI-compatible `POST /v1/chat/completions` backed by a generator,
 * `POST /v1/check` for guardrail pipelines (input + response -> guard verdict), `GET /health`. Request
 * validation with JSON errors in OpenAI's shape, a body-size limit, and clean shutdown via `close()`.
 */
import type { Guard } from "@npov/classifier";
import { NpovError, type NpovInput, validateInput, validateResponse } from "@npov/core";
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply } from "fastify";
import type { GenerateOptions, Generator } from "./generator.js";

export interface ServerOptions {
  generator: Generator;
  /** Guard for /v1/check (default: none, the route answers 503). */
  guard?: Guard;
  /** Largest accepted request body in bytes (default 256 KiB). */
  bodyLimit?: number;
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
  stream?: unknown;
  npov?: { input?: unknown };
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
      'the user message must be an NPOV input as JSON: {"topic", "query", "perspectives": [{"label", "arguments"}]} (or pass it in npov.input).',
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

function options(body: ChatBody): GenerateOptions {
  const num = (v: unknown, name: string, ok: (x: number) => boolean) => {
    if (v === undefined) return undefined;
    if (typeof v !== "number" || !ok(v))
      throw new InvalidRequest(`${name} is out of range or not a number.`, `invalid_${name}`);
    return v;
  };
  const temperature = num(body.temperature, "temperature", (x) => x >= 0 && x <= 2);
  const topP = num(body.top_p, "top_p", (x) => x > 0 && x <= 1);
  const seed = num(body.seed, "seed", Number.isInteger);
  const maxNewTokens = num(body.max_tokens, "max_tokens", (x) => Number.isInteger(x) && x > 0 && x <= 4096);
  return {
    ...(temperature === undefined ? {} : { temperature }),
    ...(topP === undefined ? {} : { topP }),
    ...(seed === undefined ? {} : { seed }),
    ...(maxNewTokens === undefined ? {} : { maxNewTokens }),
  };
}

/** Build the server (not listening yet): `await server.listen({ host: "127.0.0.1", port })`. */
export function createServer(o: ServerOptions): FastifyInstance {
  const app = Fastify({ bodyLimit: o.bodyLimit ?? 256 * 1024, logger: false });
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

  app.post("/v1/chat/completions", async (request, reply) => {
    const body = (request.body ?? {}) as ChatBody;
    if (!Array.isArray(body.messages) || body.messages.length === 0)
      return apiError(reply, 400, "messages must be a non-empty array.", "invalid_messages");
    const input = chatInput(body);
    const opts = options(body);
    const id = `chatcmpl-npov-${++counter}`;
    const created = Math.floor(Date.now() / 1000);
    const model = typeof body.model === "string" ? body.model : o.generator.model;
    if (body.stream === true) {
      reply.raw.writeHead(200, {
        "content-type": "text/event-stream",
        "cache-control": "no-cache",
        connection: "keep-alive",
      });
      const send = (delta: Record<string, unknown>, finish: string | null) =>
        reply.raw.write(
          `data: ${JSON.stringify({ id, object: "chat.completion.chunk", created, model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`,
        );
      send({ role: "assistant", content: "" }, null);
      for await (const text of o.generator.stream(input, opts)) send({ content: text }, null);
      send({}, "stop");
      reply.raw.write("data: [DONE]\n\n");
      reply.raw.end();
      return reply;
    }
    const result = await o.generator.generate(input, opts).catch((e: unknown) => {
      // The model wrote something that is not an NPOV response: still answer, with its raw text.
      if (e instanceof NpovError && e.code === "MALFORMED_GENERATOR_OUTPUT") return undefined;
      throw e;
    });
    const content = result?.response ?? "";
    return {
      id,
      object: "chat.completion",
      created,
      model,
      choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: result?.finishReason ?? "stop" }],
      usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
      npov: result === undefined ? { parsed: false } : { parsed: true, opening: result.opening, core: result.core },
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
