// The HTTP server against hostile but fair clients: every malformed request is a 4xx with a typed error
// code (never a 500), a malformed JSON body keeps its connection, bodies over the limit are 413, long
// checks run on worker threads (proved by the order in which replies arrive, not by timing), CORS is
// opt-in, and bad --port / --host / --body-limit values are one-line typed errors.
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer as createNodeServer } from "node:http";
import { type AddressInfo, connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { writeTestModel } from "@npov/autograd";
import { createGuard, type GuardConfig } from "@npov/classifier";
import type { NpovInput } from "@npov/core";
import {
  createServer,
  type GuardPool,
  LocalGenerator,
  listen,
  OpenAICompatibleGenerator,
  startGuardPool,
  TemplateGenerator,
} from "@npov/generate";
import { rougeErrorDetector } from "@npov/rouge";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const input: NpovInput = {
  topic: "zoos",
  query: "Should zoos be abolished?",
  perspectives: [
    { label: "pro", arguments: [{ text: "Keeping wild animals in enclosures deprives them of natural behaviour." }] },
    { label: "con", arguments: [{ text: "Zoos run breeding programs that save endangered species from extinction." }] },
  ],
};
const good = "Opinions differ. Zoos run breeding programs that save endangered species from extinction.";
const dir = mkdtempSync(join(tmpdir(), "npov-server-hostile-"));
const loaders = fileURLToPath(new URL("./fixtures/guard-loaders.mjs", import.meta.url));
const bin = fileURLToPath(new URL("../../cli/dist/bin.js", import.meta.url));
const JSON_HEADERS = { "content-type": "application/json" };

interface Reply {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: replies are checked field by field
  json: any;
}

async function request(url: string, init: RequestInit = {}): Promise<Reply> {
  const r = await fetch(url, init);
  const text = await r.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: r.status, headers: r.headers, json };
}
const post = (url: string, body: string | object, headers: Record<string, string> = JSON_HEADERS) =>
  request(url, { method: "POST", headers, body: typeof body === "string" ? body : JSON.stringify(body) });

/** Write raw bytes on one connection; the text the server sent before it closed (or `want` replies arrived). */
function exchange(port: number, data: string, want: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let text = "";
    socket.setEncoding("utf8");
    // Bounds a broken server; nothing is asserted about time.
    socket.setTimeout(10_000, () => socket.destroy());
    socket.on("data", (chunk: string) => {
      text += chunk;
      if ((text.match(/HTTP\/1\.1 \d{3}/g) ?? []).length >= want && /\r\n\r\n[\s\S]*\}$/.test(text)) socket.end();
    });
    socket.on("close", () => resolve(text));
    socket.on("error", reject);
    socket.write(data);
  });
}
const statusLines = (text: string) => [...text.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((m) => Number(m[1]));

describe("malformed requests are 4xx with a typed code, never 500", () => {
  let app: ReturnType<typeof createServer>;
  let base: string;
  let port: number;
  beforeAll(async () => {
    const guard = createGuard({ detector: rougeErrorDetector(), thresholds: { hallucination: 0.6, coverage: 0.3 } });
    app = createServer({ generator: new TemplateGenerator(), guard });
    base = await listen(app, { host: "127.0.0.1", port: 0 });
    port = Number(new URL(base).port);
  });
  afterAll(async () => {
    await app.close();
  });

  it("every malformed message shape: 400 invalid_messages naming the message", async () => {
    const shapes: unknown[] = [
      [null],
      [1],
      ["hello"],
      [[]],
      [{}],
      [{ role: 1, content: "x" }],
      [{ role: "wizard", content: "x" }],
      [{ role: "user", content: 5 }],
      [{ role: "user", content: {} }],
      [{ role: "user", content: [null] }],
      [{ role: "user", content: [{ type: "image_url", image_url: { url: "http://x" } }] }],
      [{ role: "user", content: [{ type: "text", text: 5 }] }],
      [{ role: "user", content: JSON.stringify(input) }, null],
    ];
    for (const messages of shapes) {
      const r = await post(`${base}/v1/chat/completions`, { messages });
      expect([JSON.stringify(messages), r.status, r.json.error.code]).toEqual([
        JSON.stringify(messages),
        400,
        "invalid_messages",
      ]);
      expect(r.json.error.message).toMatch(/^messages\[\d\]/);
    }
    for (const messages of [undefined, null, {}, "x", []]) {
      const r = await post(`${base}/v1/chat/completions`, messages === undefined ? {} : { messages });
      expect([r.status, r.json.error.code]).toEqual([400, "invalid_messages"]);
    }
    const cases: Array<[unknown, string]> = [
      [[{ role: "system", content: "be neutral" }], "missing_input"],
      [[{ role: "user", content: null }], "missing_input"],
      [[{ role: "user", content: "hello" }], "input_not_json"],
      [[{ role: "user", content: JSON.stringify({ ...input, perspectives: [] }) }], "TOO_FEW_PERSPECTIVES"],
    ];
    for (const [messages, code] of cases) {
      const r = await post(`${base}/v1/chat/completions`, { messages });
      expect([r.status, r.json.error.code]).toEqual([400, code]);
    }
    // Text parts are text: the OpenAI content-part form of the same input is served.
    const parts = await post(`${base}/v1/chat/completions`, {
      messages: [{ role: "user", content: [{ type: "text", text: JSON.stringify(input) }] }],
    });
    expect(parts.status).toBe(200);
    expect(parts.json.choices[0].message.content).toContain("breeding programs");
  });

  it("bodies that are not a JSON object: 400 on every route; other media types 415; bad URLs 400", async () => {
    const bodies: Array<[string, string]> = [
      ["{not json", "FST_ERR_CTP_INVALID_JSON_BODY"],
      ['{"messages": [', "FST_ERR_CTP_INVALID_JSON_BODY"],
      ['{"__proto__": {"admin": true}}', "FST_ERR_CTP_INVALID_JSON_BODY"],
      ['{"constructor": {"prototype": {"admin": true}}}', "FST_ERR_CTP_INVALID_JSON_BODY"],
      ["", "FST_ERR_CTP_EMPTY_JSON_BODY"],
      ["null", "invalid_body"],
      ["[1, 2]", "invalid_body"],
      ['"text"', "invalid_body"],
      ["5", "invalid_body"],
    ];
    for (const path of ["/v1/chat/completions", "/v1/completions", "/v1/check"])
      for (const [body, code] of bodies) {
        const r = await post(`${base}${path}`, body);
        expect([path, body, r.status, r.json.error.code]).toEqual([path, body, 400, code]);
      }
    const invalid = await post(`${base}/v1/check`, "{not json");
    expect(invalid.json.error.message).toContain("the request body is not valid JSON (");
    const csv = await post(`${base}/v1/check`, "a,b", { "content-type": "text/csv" });
    expect([csv.status, csv.json.error.code]).toEqual([415, "FST_ERR_CTP_INVALID_MEDIA_TYPE"]);
    const badUrl = await exchange(port, "GET /% HTTP/1.1\r\nhost: x\r\n\r\n", 1);
    expect(statusLines(badUrl)).toEqual([400]);
    expect(badUrl).toContain('"code":"FST_ERR_BAD_URL"');
  });

  it("/v1/check: a response that is missing, not text or empty is 400; one with nothing to score is blocked", async () => {
    for (const [response, code] of [
      [42, "NOT_TEXT"],
      [undefined, "NOT_TEXT"],
      ["", "EMPTY_TEXT"],
      ["  \n", "EMPTY_TEXT"],
    ]) {
      const r = await post(`${base}/v1/check`, { input, response });
      expect([r.status, r.json.error.code]).toEqual([400, code]);
    }
    const noInput = await post(`${base}/v1/check`, { response: good });
    expect([noInput.status, noInput.json.error.code]).toEqual([400, "INVALID_VALUE"]);
    for (const response of ["🙂🙂🙂", "\u200b", "... !!! ???"]) {
      const r = await post(`${base}/v1/check`, { input, response });
      expect([r.status, r.json.allow, r.json.error, r.json.reason.code]).toEqual([
        200,
        false,
        true,
        "NOTHING_TO_SCORE",
      ]);
    }
  });

  it("a malformed JSON body, or one over the limit, is answered on a connection that stays open", async () => {
    const bad = "{not json";
    const big = `{"response": "${"x".repeat(300_000)}"}`;
    const text = await exchange(
      port,
      `POST /v1/check HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${bad.length}\r\n\r\n${bad}` +
        `POST /v1/check HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${big.length}\r\n\r\n${big}` +
        "GET /health HTTP/1.1\r\nhost: x\r\n\r\n",
      3,
    );
    // The body over the limit is read to its end (and dropped) before the 413, so a client still writing
    // it reads the reply instead of a broken pipe, and the next request on the connection is served.
    expect(statusLines(text)).toEqual([400, 413, 200]);
    expect(text.toLowerCase()).not.toContain("connection: close");
    // A body declared larger than the server would ever read: 413 at once, and the connection closes.
    const huge = await exchange(
      port,
      "POST /v1/check HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100000000\r\n\r\n{}",
      2,
    );
    expect(statusLines(huge)).toEqual([413]);
    expect(huge.toLowerCase()).toContain("connection: close");
    // Headers over 16 KiB are refused by Node's parser; the reply still has the server's error shape.
    const longUrl = await exchange(port, `GET /${"a".repeat(60_000)} HTTP/1.1\r\nhost: x\r\n\r\n`, 1);
    expect(statusLines(longUrl)).toEqual([431]);
    expect(longUrl).toContain('"code":"headers_too_large"');
    expect((await request(`${base}/health`)).status).toBe(200);
  });

  it("413 for bodies over the limit, declared or streamed", async () => {
    const declared = await post(`${base}/v1/check`, { input, response: "x".repeat(300_000) });
    expect([declared.status, declared.json.error.code]).toEqual([413, "body_too_large"]);
    const chunk = new TextEncoder().encode(`{"response": "${"y".repeat(64 * 1024)}`);
    let sent = 0;
    const streamed = await request(`${base}/v1/check`, {
      method: "POST",
      headers: JSON_HEADERS,
      // No content-length: fastify counts the bytes as they arrive.
      body: new ReadableStream({
        pull(controller) {
          if (sent++ < 8) controller.enqueue(chunk);
          else controller.close();
        },
      }),
      duplex: "half",
    } as RequestInit);
    expect([streamed.status, streamed.json.error.code]).toEqual([413, "body_too_large"]);
  });

  it("a 240 KB user message under the limit is served by the template writer", async () => {
    const long = { ...input, query: `Should zoos be abolished? ${"Consider the animals. ".repeat(11_000)}` };
    const body = JSON.stringify({ messages: [{ role: "user", content: JSON.stringify(long) }] });
    expect(body.length).toBeGreaterThan(240_000);
    expect(body.length).toBeLessThan(256 * 1024);
    const r = await post(`${base}/v1/chat/completions`, body);
    expect(r.status).toBe(200);
    expect(r.json.choices[0].message.content).toContain("breeding programs");
  });

  it("random values in any field of a chat or check request: 200 or a 400 with a code, never a 500", async () => {
    const chatPaths = [
      ["messages"],
      ["messages", 0],
      ["messages", 0, "role"],
      ["messages", 0, "content"],
      ["npov"],
      ["npov", "input"],
      ["temperature"],
      ["top_p"],
      ["seed"],
      ["max_tokens"],
      ["n"],
      ["stop"],
      ["logprobs"],
      ["top_logprobs"],
      ["stream"],
      ["model"],
    ];
    const checkPaths = [
      ["input"],
      ["input", "topic"],
      ["input", "query"],
      ["input", "perspectives"],
      ["input", "perspectives", 0],
      ["input", "perspectives", 0, "label"],
      ["input", "perspectives", 0, "arguments"],
      ["input", "perspectives", 1, "arguments", 0],
      ["response"],
    ];
    const set = (value: unknown, path: Array<string | number>, leaf: unknown): unknown => {
      if (path.length === 0) return leaf;
      const [key, ...rest] = path as [string | number, ...Array<string | number>];
      const copy: Record<string | number, unknown> = Array.isArray(value) ? [...value] : { ...(value as object) };
      copy[key] = set(copy[key], rest, leaf);
      return copy;
    };
    const chatBody = { messages: [{ role: "user", content: JSON.stringify(input) }], max_tokens: 16 };
    const checkBody = { input, response: good };
    const routes = fc.oneof(
      fc.record({ path: fc.constantFrom(...chatPaths), route: fc.constant("/v1/chat/completions") }),
      fc.record({ path: fc.constantFrom(...checkPaths), route: fc.constant("/v1/check") }),
    );
    await fc.assert(
      fc.asyncProperty(routes, fc.jsonValue({ maxDepth: 3 }), async ({ path, route }, leaf) => {
        const body = set(route === "/v1/check" ? checkBody : chatBody, path, leaf);
        const r = await post(`${base}${route}`, body as object);
        expect([200, 400]).toContain(r.status);
        if (r.status === 400) expect(typeof r.json.error.code).toBe("string");
      }),
      { numRuns: 300 },
    );
  });
});

describe("a model that cannot take a 240 KB prompt", () => {
  let app: ReturnType<typeof createServer>;
  let base: string;
  beforeAll(async () => {
    const model = join(dir, "t5");
    writeTestModel(model, "t5", { seed: 2, initStd: 0.3 });
    app = createServer({ generator: await LocalGenerator.fromPretrained(model) });
    base = await listen(app, { host: "127.0.0.1", port: 0 });
  });
  afterAll(async () => {
    await app.close();
  });

  it("is a 400 CONTEXT_TOO_LONG before the model runs, streamed or not", async () => {
    const long = { ...input, query: `Should zoos be abolished? ${"Consider the animals. ".repeat(11_000)}` };
    for (const stream of [false, true]) {
      const r = await post(`${base}/v1/chat/completions`, {
        messages: [{ role: "user", content: JSON.stringify(long) }],
        stream,
      });
      expect([stream, r.status, r.json.error?.code]).toEqual([stream, 400, "CONTEXT_TOO_LONG"]);
    }
    const prompt = await post(`${base}/v1/completions`, { prompt: "x ".repeat(120_000) });
    expect([prompt.status, prompt.json.error?.code]).toEqual([400, "CONTEXT_TOO_LONG"]);
    // The server still serves normal requests afterwards.
    const ok = await post(`${base}/v1/chat/completions`, {
      messages: [{ role: "user", content: JSON.stringify(input) }],
      max_tokens: 4,
    });
    expect(ok.status).toBe(200);
  });
});

describe("/v1/check on worker threads (GuardPool)", () => {
  const config = (flag: string, extra: Partial<GuardConfig> = {}): GuardConfig => ({
    format: "npov-guard/1",
    detector: { method: "test", flag },
    thresholds: { hallucination: 0.5, coverage: 0.5 },
    ...extra,
  });
  const loader = { module: loaders, export: "testGuard" };
  const serve = async (pool: GuardPool) => {
    const app = createServer({ generator: new TemplateGenerator(), guard: pool });
    return { app, base: await listen(app, { host: "127.0.0.1", port: 0 }) };
  };

  it("answers /health and other checks while a long check runs (order of completion)", async () => {
    const flag = join(dir, "go-order");
    const pool = await startGuardPool({ config: config(flag), loader, threads: 1 });
    const { app, base } = await serve(pool);
    try {
      const order: string[] = [];
      const long = post(`${base}/v1/check`, { input, response: `spin ${"a".repeat(250_000)}` }).then((r) => {
        order.push("check");
        return r;
      });
      // The check is on the worker (spinning) before anything else is asked.
      await expect.poll(() => pool.running).toBe(1);
      const health = await request(`${base}/health`);
      order.push("health");
      const models = await request(`${base}/v1/models`);
      order.push("models");
      const chat = await post(`${base}/v1/chat/completions`, {
        messages: [{ role: "user", content: JSON.stringify(input) }],
      });
      order.push("chat");
      expect([health.status, models.status, chat.status]).toEqual([200, 200, 200]);
      // The check is still spinning on its worker: the server's event loop was free all along.
      expect(order).toEqual(["health", "models", "chat"]);
      writeFileSync(flag, "");
      const verdict = await long;
      expect(order).toEqual(["health", "models", "chat", "check"]);
      expect([verdict.status, verdict.json.allow, verdict.json.detector]).toEqual([200, true, "test:250005"]);
    } finally {
      await app.close();
      await pool.close();
    }
  });

  it("a check over timeoutMs ends its worker: blocked GUARD_TIMEOUT (or 504 under onError throw); the next check runs", async () => {
    const never = join(dir, "never-created");
    const pool = await startGuardPool({ config: config(never, { timeoutMs: 300 }), loader, threads: 1 });
    const { app, base } = await serve(pool);
    try {
      const r = await post(`${base}/v1/check`, { input, response: "spin forever" });
      expect([r.status, r.json.allow, r.json.error, r.json.reason.code]).toEqual([200, false, true, "GUARD_TIMEOUT"]);
      const next = await post(`${base}/v1/check`, { input, response: good });
      expect([next.status, next.json.allow]).toEqual([200, true]);
    } finally {
      await app.close();
      await pool.close();
    }
    const throwing = await startGuardPool({
      config: config(never, { timeoutMs: 300, onError: "throw" }),
      loader,
      threads: 1,
    });
    const served = await serve(throwing);
    try {
      const r = await post(`${served.base}/v1/check`, { input, response: "spin forever" });
      expect([r.status, r.json.error.code, r.json.error.type]).toEqual([504, "GUARD_TIMEOUT", "server_error"]);
    } finally {
      await served.app.close();
      await throwing.close();
    }
  });

  it("a worker that dies mid-check: blocked GUARD_WORKER_FAILED, and a fresh worker takes the next check", async () => {
    const pool = await startGuardPool({ config: config(join(dir, "unused")), loader, threads: 1 });
    const { app, base } = await serve(pool);
    try {
      const r = await post(`${base}/v1/check`, { input, response: "exit now" });
      expect([r.status, r.json.allow, r.json.reason.code]).toEqual([200, false, "GUARD_WORKER_FAILED"]);
      expect(r.json.reason.message).toContain("exit code 3");
      const next = await post(`${base}/v1/check`, { input, response: good });
      expect([next.status, next.json.allow]).toEqual([200, true]);
    } finally {
      await app.close();
      await pool.close();
    }
  });

  it("with no worker and none restartable, checks fail at once by the policy; a restored model brings workers back", async () => {
    const available = join(dir, "model-present");
    writeFileSync(available, "");
    const pool = await startGuardPool({
      config: { ...config(join(dir, "unused-2"), { timeoutMs: 5_000 }), detector: { method: "test", available } },
      loader: { module: loaders, export: "comesAndGoes" },
      threads: 1,
    });
    try {
      // The model disappears, then the only worker dies: its restart fails.
      rmSync(available);
      expect(await pool.check(input, "exit now")).toMatchObject({
        allow: false,
        reason: { code: "GUARD_WORKER_FAILED" },
      });
      await expect.poll(() => pool.running + pool.queued).toBe(0);
      // Checks are answered (blocked) at once instead of waiting for a worker that may never come.
      await expect
        .poll(async () => (await pool.check(input, good)).reason?.message ?? "", { timeout: 4_000 })
        .toContain("no guard worker is running");
      // The model comes back: a later restart (backoff 1 s, 2 s, ...) succeeds and checks pass again.
      writeFileSync(available, "");
      await expect
        .poll(async () => (await pool.check(input, good)).allow, { timeout: 10_000, interval: 250 })
        .toBe(true);
    } finally {
      await pool.close();
    }
  });

  it("a full queue is 503 GUARD_BUSY with Retry-After; queued checks still complete", async () => {
    const flag = join(dir, "go-busy");
    const pool = await startGuardPool({ config: config(flag), loader, threads: 1, maxQueue: 1 });
    const { app, base } = await serve(pool);
    try {
      const first = post(`${base}/v1/check`, { input, response: "spin 1" });
      // The first check runs on the only worker, the second waits in the queue, the third finds it full.
      await expect.poll(() => pool.running).toBe(1);
      const second = post(`${base}/v1/check`, { input, response: "spin 2" });
      await expect.poll(() => pool.queued).toBe(1);
      const third = await post(`${base}/v1/check`, { input, response: "spin 3" });
      expect([third.status, third.json.error.code, third.headers.get("retry-after")]).toEqual([503, "GUARD_BUSY", "1"]);
      writeFileSync(flag, "");
      expect((await first).status).toBe(200);
      expect((await second).status).toBe(200);
    } finally {
      await app.close();
      await pool.close();
    }
  });

  it("start-up failures are typed: a loader's error keeps its code; a bad config or loader is refused", async () => {
    await expect(
      startGuardPool({ config: config("x"), loader: { module: loaders, export: "missingModel" }, threads: 1 }),
    ).rejects.toMatchObject({ code: "MODEL_NOT_FOUND" });
    await expect(
      startGuardPool({ config: config("x"), loader: { module: loaders, export: "nothing" } }),
    ).rejects.toMatchObject({ code: "INVALID_VALUE" });
    await expect(startGuardPool({ config: join(dir, "missing.json") })).rejects.toMatchObject({
      code: "FILE_UNREADABLE",
    });
    await expect(startGuardPool({ config: config("x"), threads: 0 })).rejects.toMatchObject({ code: "INVALID_VALUE" });
  });

  it("the default loader builds the built-in guard: same verdicts as in-process, fail closed included", async () => {
    const rouge: GuardConfig = {
      format: "npov-guard/1",
      detector: { method: "rouge" },
      thresholds: { hallucination: 0.6, coverage: 0.3 },
    };
    const pool = await startGuardPool({ config: rouge, threads: 2 });
    try {
      const direct = createGuard({ detector: rougeErrorDetector(), thresholds: rouge.thresholds });
      const responses = [good, "Opinions differ. Keeping wild animals deprives them of natural behaviour.", "👍👍"];
      const pooled = await Promise.all(responses.map((r) => pool.check(input, r)));
      expect(pooled).toEqual(await Promise.all(responses.map((r) => direct.check(input, r))));
      expect(pooled[2]).toMatchObject({ allow: false, error: true, reason: { code: "NOTHING_TO_SCORE" } });
    } finally {
      await pool.close();
    }
    await expect(pool.check(input, good)).rejects.toMatchObject({ code: "GUARD_WORKER_FAILED" });
  });
});

describe("CORS is opt-in", () => {
  const origin = "https://app.example.com";
  const servers: Array<ReturnType<typeof createServer>> = [];
  const start = async (cors?: string | string[]) => {
    const app = createServer({ generator: new TemplateGenerator(), ...(cors === undefined ? {} : { cors }) });
    servers.push(app);
    return listen(app, { host: "127.0.0.1", port: 0 });
  };
  afterAll(async () => {
    for (const app of servers) await app.close();
  });

  it("off by default: no CORS headers, no preflight route", async () => {
    const base = await start();
    const r = await request(`${base}/health`, { headers: { origin } });
    expect(r.headers.get("access-control-allow-origin")).toBeNull();
    const preflight = await request(`${base}/v1/check`, {
      method: "OPTIONS",
      headers: { origin, "access-control-request-method": "POST" },
    });
    expect([preflight.status, preflight.json.error.code]).toEqual([404, "not_found"]);
  });

  it("--cors ORIGIN: that origin gets the headers and a preflight answer; others do not", async () => {
    const base = await start(`${origin}, http://localhost:5173`);
    const r = await post(
      `${base}/v1/chat/completions`,
      { messages: [{ role: "user", content: JSON.stringify(input) }] },
      {
        ...JSON_HEADERS,
        origin,
      },
    );
    expect([r.status, r.headers.get("access-control-allow-origin"), r.headers.get("vary")]).toEqual([
      200,
      origin,
      "origin",
    ]);
    const error = await post(`${base}/v1/check`, "{not json", { ...JSON_HEADERS, origin: "http://localhost:5173" });
    expect([error.status, error.headers.get("access-control-allow-origin")]).toEqual([400, "http://localhost:5173"]);
    const preflight = await request(`${base}/v1/chat/completions`, {
      method: "OPTIONS",
      headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "content-type" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-origin")).toBe(origin);
    expect(preflight.headers.get("access-control-allow-methods")).toBe("GET, POST, OPTIONS");
    expect(preflight.headers.get("access-control-allow-headers")).toBe("content-type");
    const other = await request(`${base}/health`, { headers: { origin: "https://evil.example" } });
    expect([other.status, other.headers.get("access-control-allow-origin")]).toEqual([200, null]);
    const otherPreflight = await request(`${base}/v1/check`, {
      method: "OPTIONS",
      headers: { origin: "https://evil.example", "access-control-request-method": "POST" },
    });
    expect([otherPreflight.status, otherPreflight.json.error.code]).toEqual([403, "cors_origin_not_allowed"]);
    expect(otherPreflight.headers.get("access-control-allow-origin")).toBeNull();
  });

  it('"*" allows any origin; a value that is not an origin is refused', async () => {
    const base = await start("*");
    const r = await request(`${base}/health`, { headers: { origin: "https://anything.example" } });
    expect(r.headers.get("access-control-allow-origin")).toBe("*");
    for (const cors of ["https://app.example.com/", "app.example.com", "https://a.example/path", "", "null"])
      expect(() => createServer({ generator: new TemplateGenerator(), cors })).toThrow(
        expect.objectContaining({ code: "INVALID_VALUE", path: "cors" }),
      );
  });
});

describe("slow senders and failing upstream endpoints", () => {
  it("answers a request whose body stalls with 408 and closes the connection (requestTimeoutMs)", async () => {
    const app = createServer({ generator: new TemplateGenerator(), requestTimeoutMs: 400 });
    const base = await listen(app, { host: "127.0.0.1", port: 0 });
    try {
      // Headers promise 100 bytes of body; 10 arrive, then nothing.
      const text = await exchange(
        Number(new URL(base).port),
        'POST /v1/check HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"input": ',
        1,
      );
      expect(statusLines(text)).toEqual([408]);
      expect(text).toContain('"code":"request_timeout"');
    } finally {
      await app.close();
    }
    for (const requestTimeoutMs of [0, -1, 1.5, Number.NaN, 1e12])
      expect(() => createServer({ generator: new TemplateGenerator(), requestTimeoutMs })).toThrow(
        expect.objectContaining({ code: "INVALID_VALUE", path: "requestTimeoutMs" }),
      );
  });

  it("reports an upstream outage as 503 with retry-after and an unreachable upstream as 502, not 400", async () => {
    const upstream = createNodeServer((req, res) => {
      req.resume();
      req.on("end", () => {
        res.writeHead(503, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: "model overloaded" } }));
      });
    });
    await new Promise<void>((r) => upstream.listen(0, "127.0.0.1", () => r()));
    const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/v1`;
    // A port that was just free: nothing listens there.
    const probe = createNodeServer();
    await new Promise<void>((r) => probe.listen(0, "127.0.0.1", () => r()));
    const deadUrl = `http://127.0.0.1:${(probe.address() as AddressInfo).port}/v1`;
    await new Promise<void>((r) => probe.close(() => r()));
    try {
      for (const [baseURL, status, code] of [
        [upstreamUrl, 503, "RETRIES_EXHAUSTED"],
        [deadUrl, 502, "NETWORK"],
      ] as const) {
        const app = createServer({
          generator: new OpenAICompatibleGenerator({ baseURL, model: "m", maxRetries: 0, timeoutMs: 5_000 }),
        });
        const base = await listen(app, { host: "127.0.0.1", port: 0 });
        try {
          const r = await post(`${base}/v1/chat/completions`, {
            model: "npov",
            messages: [{ role: "user", content: JSON.stringify(input) }],
          });
          expect([r.status, r.json.error.code, r.json.error.type]).toEqual([status, code, "server_error"]);
          expect(r.headers.get("retry-after")).toBe(status === 503 ? "1" : null);
        } finally {
          await app.close();
        }
      }
    } finally {
      upstream.closeAllConnections();
      await new Promise<void>((r) => upstream.close(() => r()));
    }
  });
});

describe("bad server options are typed one-line errors", () => {
  it("library: body limit, port and host are checked before anything listens", async () => {
    for (const bodyLimit of [0, -5, 1.5, Number.NaN, 2 ** 40])
      expect(() => createServer({ generator: new TemplateGenerator(), bodyLimit })).toThrow(
        expect.objectContaining({ code: "INVALID_VALUE", path: "bodyLimit" }),
      );
    const app = createServer({ generator: new TemplateGenerator() });
    for (const port of [-1, 65536, 1.5, Number.NaN])
      await expect(listen(app, { host: "127.0.0.1", port })).rejects.toMatchObject({
        code: "INVALID_VALUE",
        path: "port",
      });
    for (const host of ["", "a b", "127.0.0.1/8"])
      await expect(listen(app, { host, port: 0 })).rejects.toMatchObject({ code: "INVALID_VALUE", path: "host" });
    await expect(listen(app, { host: "10.255.255.1", port: 0 })).rejects.toMatchObject({ code: "HOST_UNAVAILABLE" });
    await app.close();
  });

  it("CLI: exit code 2 and one line naming the flag, no stack trace", async () => {
    const run = (...args: string[]) =>
      new Promise<{ code: number | null; stderr: string }>((resolve) => {
        execFile(process.execPath, [bin, "serve", ...args], { timeout: 30_000 }, (error, _stdout, stderr) =>
          resolve({ code: error === null ? 0 : ((error as { code?: number }).code ?? null), stderr }),
        );
      });
    const cases: Array<[string[], string]> = [
      [["--port", "99999"], "--port must be an integer from 0 to 65535"],
      [["--host", ""], "--host must be a host name or IP address"],
      [["--body-limit", "1e20"], "--body-limit must be an integer from 1 to 67108864"],
      [["--cors", "https://app.example.com/"], '--cors "https://app.example.com/" is not an origin'],
      [["--host", "10.255.255.1", "--port", "0"], "[HOST_UNAVAILABLE]"],
    ];
    const results = await Promise.all(cases.map(([args]) => run(...args)));
    for (const [k, [args, text]] of cases.entries()) {
      const r = results[k]!;
      expect([args, r.code]).toEqual([args, 2]);
      expect(r.stderr).toContain(text);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
    }
  });

  it("CLI: a real `npov serve --guard-config --cors` checks on workers and fails closed", async () => {
    const guardFile = join(dir, "guard.json");
    writeFileSync(
      guardFile,
      JSON.stringify({
        format: "npov-guard/1",
        detector: { method: "rouge" },
        thresholds: { hallucination: 0.6, coverage: 0.3 },
      }),
    );
    const child: ChildProcess = spawn(
      process.execPath,
      [
        bin,
        "serve",
        "--port",
        "0",
        "--guard-config",
        guardFile,
        "--guard-threads",
        "1",
        "--cors",
        "https://app.example.com",
      ],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    try {
      const base = await new Promise<string>((resolve, reject) => {
        let stdout = "";
        let stderr = "";
        child.stdout!.on("data", (chunk) => {
          stdout += chunk;
          const m = / at (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
          if (m) resolve(m[1] as string);
        });
        child.stderr!.on("data", (chunk) => {
          stderr += chunk;
        });
        child.on("exit", (code) => reject(new Error(`npov serve exited with ${code}: ${stderr}`)));
      });
      const emoji = await post(
        `${base}/v1/check`,
        { input, response: "🙂🙂" },
        { ...JSON_HEADERS, origin: "https://app.example.com" },
      );
      expect([emoji.status, emoji.json.allow, emoji.json.reason.code]).toEqual([200, false, "NOTHING_TO_SCORE"]);
      expect(emoji.headers.get("access-control-allow-origin")).toBe("https://app.example.com");
      const ok = await post(`${base}/v1/check`, { input, response: good });
      expect([ok.status, ok.json.error, ok.json.detector]).toEqual([200, false, "rouge"]);
      const nul = await post(`${base}/v1/chat/completions`, { messages: [null] });
      expect([nul.status, nul.json.error.code]).toEqual([400, "invalid_messages"]);
    } finally {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
    }
  });
});
