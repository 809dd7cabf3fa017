/**
 * The annotation web server (fastify): the app shell and bundle, and a JSON API authenticated with the
 * tokens `npov annotate tokens` prints. Request bodies are checked by JSON schemas (no type coercion, no
 * unknown fields) and a size limit before any handler runs; every handler's write is one store
 * transaction, so a refused request writes nothing. Errors are `{error: {code, message}}` with the
 * typed error's HTTP status.
 */
import { describe, InvalidValueError, NpovError, toJsonl } from "@npov/core";
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import { exportAnnotations } from "./aggregate.js";
import { AMBIGUOUS_KINDS, type Annotation } from "./annotation.js";
import { frontend } from "./bundle.js";
import {
  AnnotateError,
  ForbiddenError,
  InvalidRequestError,
  PayloadTooLargeError,
  UnauthorizedError,
} from "./errors.js";
import type { AnnotationStore, Outcome, User } from "./store.js";

/** Options of {@link createAnnotationServer}. */
export interface AnnotationServerOptions {
  store: AnnotationStore;
  /** Largest request body in bytes (default 256 KiB: an annotation is a few KiB). */
  bodyLimit?: number;
  /**
   * Longest time a client may take to send a whole request in milliseconds (default 60 s): slow or stalled
   * senders are answered 408 and cut off instead of holding connections forever.
   */
  requestTimeoutMs?: number;
}

const span = {
  type: "object",
  required: ["start", "end"],
  additionalProperties: false,
  properties: { start: { type: "integer" }, end: { type: "integer" } },
} as const;

const ANNOTATION_SCHEMA = {
  type: "object",
  required: ["argumentSpans", "hallucinatedSpans", "uncoveredArguments", "ambiguous", "ais"],
  additionalProperties: false,
  properties: {
    argumentSpans: {
      type: "array",
      maxItems: 500,
      items: {
        type: "object",
        required: ["start", "end", "perspective", "argument"],
        additionalProperties: false,
        properties: {
          start: { type: "integer" },
          end: { type: "integer" },
          perspective: { type: "integer", minimum: 0 },
          argument: { type: "integer", minimum: 0 },
        },
      },
    },
    hallucinatedSpans: { type: "array", maxItems: 500, items: span },
    uncoveredArguments: {
      type: "array",
      maxItems: 500,
      items: {
        type: "array",
        minItems: 2,
        maxItems: 2,
        items: { type: "integer", minimum: 0 },
      },
    },
    ambiguous: {
      type: "array",
      maxItems: 500,
      items: {
        type: "object",
        required: ["start", "end", "kind"],
        additionalProperties: false,
        properties: { start: { type: "integer" }, end: { type: "integer" }, kind: { enum: AMBIGUOUS_KINDS } },
      },
    },
    ais: {
      type: "array",
      maxItems: 1000,
      items: {
        type: "object",
        required: ["sentence", "interpretable", "supported"],
        additionalProperties: false,
        properties: {
          sentence: { type: "integer", minimum: 0 },
          interpretable: { type: ["boolean", "null"] },
          supported: { type: ["boolean", "null"] },
        },
      },
    },
  },
} as const;

const FINISH_SCHEMA = {
  type: "object",
  required: ["action"],
  additionalProperties: false,
  properties: {
    action: { enum: ["submit", "skip", "flag"] },
    annotation: ANNOTATION_SCHEMA,
    reason: { type: "string", maxLength: 2000 },
  },
} as const;

// Path parameters arrive as text; type coercion is off, so the id is checked as digits and converted.
const ID_PARAMS = {
  type: "object",
  required: ["id"],
  properties: { id: { type: "string", pattern: "^[1-9][0-9]{0,14}$" } },
} as const;

const SHELL = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>npov annotate</title><link rel="stylesheet" href="/app.css"></head>
<body><div id="app"><noscript>The annotation app needs JavaScript.</noscript></div>
<script type="module" src="/app.js"></script></body></html>
`;

const SECURITY_HEADERS = {
  "content-security-policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
};

function sendError(reply: FastifyReply, status: number, code: string, message: string) {
  return reply.code(status).header("cache-control", "no-store").send({ error: { code, message } });
}

/**
 * Build the annotation server (not listening yet). Routes: `GET /` (app), `GET /app.js`, `GET /app.css`,
 * `GET /api/me`, `GET /api/next`, `PUT /api/examples/:id/draft`, `POST /api/examples/:id/finish`,
 * `GET /api/progress`, `GET /api/admin/export` (admin only).
 */
export function createAnnotationServer(options: AnnotationServerOptions): FastifyInstance {
  const { store } = options;
  const bodyLimit = options.bodyLimit ?? 256 * 1024;
  const requestTimeout = options.requestTimeoutMs ?? 60_000;
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
    // Strict validation: a wrong type is an error, not silently coerced; an unknown field is an error,
    // not silently dropped.
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, allErrors: false } },
  });

  app.setErrorHandler((error: FastifyError, _request, reply) => {
    if (error instanceof AnnotateError) return sendError(reply, error.status, error.code, error.message);
    if (error instanceof NpovError) return sendError(reply, 400, error.code, error.message);
    if (error.validation !== undefined) {
      const e = new InvalidRequestError(
        `${error.validationContext ?? "body"} ${error.message.replace(/^\w+\b/, "")}`.trim(),
      );
      return sendError(reply, e.status, e.code, e.message);
    }
    if (error.code === "FST_ERR_CTP_BODY_TOO_LARGE" || error.statusCode === 413) {
      const e = new PayloadTooLargeError(bodyLimit);
      return sendError(reply, e.status, e.code, e.message);
    }
    if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500)
      return sendError(reply, error.statusCode, error.code ?? "BAD_REQUEST", error.message);
    return sendError(reply, 500, "INTERNAL", "Internal error: the request was not applied; try again.");
  });
  app.setNotFoundHandler((request, reply) =>
    sendError(reply, 404, "NOT_FOUND", `No route ${request.method} ${request.url.split("?")[0]}.`),
  );

  // Authentication runs first (onRequest), before the body is read or validated: a request without a
  // valid token learns nothing else about the API, and its body is never parsed. The matched route
  // decides, not the raw URL: the router decodes percent-escapes, so "/%61pi/next" reaches /api/next.
  const users = new WeakMap<FastifyRequest, User>();
  app.addHook("onRequest", async (request) => {
    const route = request.routeOptions.url;
    if (!(route ?? request.url).startsWith("/api/")) return;
    const header = request.headers.authorization;
    const token = typeof header === "string" && header.startsWith("Bearer ") ? header.slice(7).trim() : undefined;
    users.set(request, store.authenticate(token));
  });
  const userOf = (request: FastifyRequest): User => {
    const user = users.get(request);
    if (user === undefined) throw new UnauthorizedError();
    return user;
  };
  const adminOf = (request: FastifyRequest, what: string): User => {
    const user = userOf(request);
    if (user.role !== "admin") throw new ForbiddenError(what, user.role);
    return user;
  };
  app.addHook("onSend", async (request, reply, payload) => {
    reply.headers(SECURITY_HEADERS);
    if ((request.routeOptions.url ?? request.url).startsWith("/api/")) reply.header("cache-control", "no-store");
    return payload;
  });

  app.get("/", async (_request, reply) => reply.type("text/html; charset=utf-8").send(SHELL));
  app.get("/app.js", async (_request, reply) =>
    reply.type("text/javascript; charset=utf-8").send((await frontend()).js),
  );
  app.get("/app.css", async (_request, reply) => reply.type("text/css; charset=utf-8").send((await frontend()).css));

  app.get("/api/me", async (request) => {
    const user = userOf(request);
    return { name: user.name, role: user.role, settings: store.settings() };
  });

  const mine = (user: User) => {
    const progress = store.progress();
    return {
      me: progress.annotators.find((a) => a.name === user.name) ?? null,
      overall: progress.overall,
    };
  };

  app.get("/api/next", async (request) => {
    const user = userOf(request);
    const item = store.next(user);
    return { item, progress: mine(user) };
  });

  app.put<{ Params: { id: string }; Body: Annotation }>(
    "/api/examples/:id/draft",
    { schema: { params: ID_PARAMS, body: ANNOTATION_SCHEMA } },
    async (request) => {
      const user = userOf(request);
      store.saveDraft(user, Number(request.params.id), request.body);
      return { saved: true };
    },
  );

  app.post<{ Params: { id: string }; Body: { action: Outcome["action"]; annotation?: Annotation; reason?: string } }>(
    "/api/examples/:id/finish",
    { schema: { params: ID_PARAMS, body: FINISH_SCHEMA } },
    async (request) => {
      const user = userOf(request);
      const { action, annotation, reason } = request.body;
      let outcome: Outcome;
      if (action === "submit") {
        if (annotation === undefined) throw new InvalidRequestError("body must have property 'annotation' to submit");
        outcome = { action, annotation };
      } else if (action === "flag") outcome = { action, reason: (reason ?? "").trim() || "(no reason given)" };
      else outcome = { action };
      const result = store.finish(user, Number(request.params.id), outcome);
      return { ...result, progress: mine(user) };
    },
  );

  app.get("/api/progress", async (request) => {
    const user = userOf(request);
    if (user.role === "admin") return store.progress();
    return { annotators: [mine(user).me].filter((a) => a !== null), overall: store.progress().overall };
  });

  app.get("/api/admin/export", async (request) => {
    adminOf(request, "export");
    const { examples, agreement } = exportAnnotations(store);
    return { jsonl: toJsonl(examples), agreement };
  });

  return app;
}

/** A listening annotation server. */
export interface RunningServer {
  url: string;
  app: FastifyInstance;
  close(): Promise<void>;
}

/** A port that another process holds. */
export class PortInUseError extends AnnotateError {
  constructor(host: string, port: number) {
    super(
      "PORT_IN_USE",
      500,
      `Port ${port} on ${host} is already in use: stop the other server or choose another --port (0 = any free port).`,
    );
  }
}

/** An address the server cannot listen on (a host name that does not resolve, an address not on this machine). */
export class ListenError extends AnnotateError {
  constructor(host: string, port: number, reason: string) {
    super(
      "LISTEN_FAILED",
      500,
      `Cannot listen on ${host}:${port} (${reason}): give a --host address of this machine (default 127.0.0.1).`,
    );
  }
}

/**
 * Start the server on `host:port` (default 127.0.0.1, port 0 = any free port); the front end is bundled
 * before the first request is answered.
 * @throws InvalidValueError (port not 0-65535), PortInUseError, ListenError, FrontendBuildError
 */
export async function startAnnotationServer(
  options: AnnotationServerOptions & { host?: string; port?: number },
): Promise<RunningServer> {
  const host = options.host ?? "127.0.0.1";
  const port = options.port ?? 0;
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new InvalidValueError("port", `must be a whole number from 0 to 65535 (0 = any free port), got ${port}.`);
  await frontend();
  const app = createAnnotationServer(options);
  let url: string;
  try {
    url = await app.listen({ host, port });
  } catch (error) {
    await app.close();
    const code = (error as { code?: string }).code;
    if (code === "EADDRINUSE") throw new PortInUseError(host, port);
    if (typeof code === "string") throw new ListenError(host, port, `${code}: ${(error as Error).message}`);
    throw error;
  }
  return { url, app, close: () => app.close() };
}
