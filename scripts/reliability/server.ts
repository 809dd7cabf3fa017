/**
 * Category "server": a real `npov serve --port 0 --guard-config <support guard>` on loopback, and hostile
 * requests -- malformed message shapes, malformed JSON, wrong content types, bodies over the limit (by
 * length header and chunked), big messages under the limit, aborted requests, CORS, bad `--port` /
 * `--host` / `--body-limit` values. Every request must get a 4xx with a typed error body (413 over the
 * limit), never a 500, and the server must stay up with bounded memory.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { connect } from "node:net";
import type { Fixtures } from "./fixtures.js";
import { longResponse, manyArguments } from "./fixtures.js";
import {
  BIN,
  type Case,
  childEnv,
  isUnitScore,
  judgeError,
  judgeUsage,
  type ProcResult,
  ROOT,
  runCli,
  runProblems,
} from "./harness.js";

export interface StartedCli {
  /** `http://127.0.0.1:PORT` when the server said it is serving; undefined when it exited first. */
  url: string | undefined;
  pid: number | undefined;
  /** The process outcome (after it exited, or after stop()). */
  result(): ProcResult;
  /** Resident set size in MiB (from /proc), undefined when gone. */
  rssMiB(): number | undefined;
  stop(): Promise<void>;
}

/** Start a long-running CLI command (serve) and wait for its "serving ... at URL" line or its exit. */
export function startCli(args: string[], o: { cwd?: string; timeoutMs?: number } = {}): Promise<StartedCli> {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: o.cwd ?? ROOT,
    env: childEnv(),
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  let exited: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  const startedAt = performance.now();
  let timedOut = false;
  const closed = new Promise<void>((resolve) =>
    child.on("close", (code, signal) => {
      exited = { code, signal };
      resolve();
    }),
  );
  child.stdout.on("data", (b: Buffer) => {
    if (stdout.length < 1e6) stdout += b.toString("utf8");
  });
  child.stderr.on("data", (b: Buffer) => {
    if (stderr.length < 1e6) stderr += b.toString("utf8");
  });
  const kill = (signal: NodeJS.Signals) => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, signal);
    } catch {
      // gone
    }
  };
  const handle = (url: string | undefined): StartedCli => ({
    url,
    pid: child.pid,
    result: () => ({
      code: exited?.code ?? null,
      signal: exited?.signal ?? null,
      stdout,
      stderr,
      timedOut,
      ms: performance.now() - startedAt,
    }),
    rssMiB: () => {
      try {
        const status = readFileSync(`/proc/${child.pid}/status`, "utf8");
        const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
        return Number.isFinite(kb) ? Math.round(kb / 1024) : undefined;
      } catch {
        return undefined;
      }
    },
    stop: async () => {
      if (exited === undefined) {
        kill("SIGTERM");
        const t = setTimeout(() => kill("SIGKILL"), 5000);
        await closed;
        clearTimeout(t);
      }
    },
  });
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      timedOut = true;
      kill("SIGKILL");
    }, o.timeoutMs ?? 60_000);
    const onData = () => {
      const m = /serving .* at (http:\/\/[^\s]+?)\s/.exec(stdout);
      if (m !== null) {
        clearTimeout(timer);
        child.stdout.off("data", onData);
        resolve(handle((m[1] as string).replace(/\/$/, "")));
      }
    };
    child.stdout.on("data", onData);
    void closed.then(() => {
      clearTimeout(timer);
      resolve(handle(undefined));
    });
  });
}

interface HttpResult {
  status: number;
  headers: Record<string, string>;
  body: string;
  json: unknown;
  ms: number;
}

/** One HTTP request with a hard timeout; never rejects (status 0 = no answer, with the reason in body). */
export function http(
  url: string,
  o: { method?: string; headers?: Record<string, string>; body?: string | Buffer; timeoutMs?: number } = {},
): Promise<HttpResult> {
  const start = performance.now();
  return new Promise((resolve) => {
    // agent: false -- a fresh connection per request, so a connection the server closed on purpose (after a
    // 413 or 431) is never reused for the next request.
    const req = httpRequest(url, { method: o.method ?? "GET", headers: o.headers ?? {}, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (b: Buffer) => chunks.push(b));
      res.on("end", () => {
        const body = Buffer.concat(chunks).toString("utf8");
        let json: unknown;
        try {
          json = JSON.parse(body);
        } catch {
          json = undefined;
        }
        resolve({
          status: res.statusCode ?? 0,
          headers: Object.fromEntries(Object.entries(res.headers).map(([k, v]) => [k, String(v)])),
          body,
          json,
          ms: performance.now() - start,
        });
      });
      res.on("error", (e) => resolve({ status: 0, headers: {}, body: String(e), json: undefined, ms: 0 }));
    });
    req.setTimeout(o.timeoutMs ?? 30_000, () => req.destroy(new Error("timeout: no answer")));
    req.on("error", (e) =>
      resolve({ status: 0, headers: {}, body: e.message, json: undefined, ms: performance.now() - start }),
    );
    req.end(o.body);
  });
}

const JSON_HEADERS = { "content-type": "application/json" };

/** A typed JSON error: the status is in `statuses` and the body is `{error: {code, message}}`. */
function judgeStatus(r: HttpResult, statuses: readonly number[], codes: readonly string[] = []): string | undefined {
  if (r.status === 0) return `no answer: ${r.body}`;
  if (!statuses.includes(r.status)) return `status ${r.status}: ${r.body.replace(/\s+/g, " ").slice(0, 140)}`;
  if (r.status >= 400) {
    const e = (r.json as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
    if (typeof e?.code !== "string" || typeof e.message !== "string")
      return `status ${r.status} without a typed error body: ${r.body.slice(0, 120)}`;
    if (codes.length > 0 && !codes.includes(e.code)) return `status ${r.status} with code ${e.code}`;
    if (/\n\s+at\s/.test(e.message)) return "stack trace in the error message";
  }
  return undefined;
}

/** A guard verdict: finite scores, or blocked with a reason code in `codes`; or a typed 400 with one of `codes`. */
function judgeVerdict(r: HttpResult, blockCodes: readonly string[], mustBlock: boolean): string | undefined {
  if (r.status === 400 && blockCodes.length > 0) return judgeStatus(r, [400], blockCodes);
  const bad = judgeStatus(r, [200]);
  if (bad !== undefined) return bad;
  const v = r.json as {
    allow?: unknown;
    reason?: { code?: unknown };
    hallucination?: { score?: unknown };
    coverage?: { score?: unknown };
  };
  if (typeof v?.allow !== "boolean") return `200 without a verdict: ${r.body.slice(0, 120)}`;
  if (v.reason !== undefined && v.reason !== null) {
    if (v.allow) return "allowed with an error reason";
    return typeof v.reason.code === "string" && blockCodes.includes(v.reason.code)
      ? undefined
      : `blocked with reason ${String(v.reason.code)}`;
  }
  if (mustBlock)
    return `answered allow = ${v.allow} with scores ${JSON.stringify(v.hallucination?.score)}/${JSON.stringify(v.coverage?.score)}`;
  if (!isUnitScore(v.hallucination?.score) || !isUnitScore(v.coverage?.score))
    return `scores ${JSON.stringify(v.hallucination?.score)}/${JSON.stringify(v.coverage?.score)} without a reason`;
  return undefined;
}

interface Shared {
  server: StartedCli | undefined;
  starting: Promise<StartedCli> | undefined;
  baselineRss: number | undefined;
}

const shared: Shared = { server: undefined, starting: undefined, baselineRss: undefined };
const others: StartedCli[] = [];

/** Stop every server the cases started. */
export async function stopServers(): Promise<void> {
  await Promise.all([shared.server, ...others].map((s) => s?.stop()));
  shared.server = undefined;
  shared.starting = undefined;
  others.length = 0;
}

export function serverCases(f: Fixtures): Case[] {
  const cases: Case[] = [];
  const server = async (): Promise<StartedCli> => {
    if (
      shared.server?.url !== undefined &&
      shared.server.result().code === null &&
      shared.server.rssMiB() !== undefined
    )
      return shared.server;
    if (shared.starting === undefined || shared.server !== undefined) {
      shared.server = undefined;
      shared.starting = startCli(["serve", "--port", "0", "--guard-config", f.guard.support], { cwd: f.dir });
    }
    const s = await shared.starting;
    if (s.url === undefined) throw new Error(`npov serve did not start: ${s.result().stderr.slice(0, 200)}`);
    shared.server = s;
    // Warm up (the support detector loads its tables on first use), then take the baseline memory.
    await http(`${s.url}/v1/check`, {
      method: "POST",
      headers: JSON_HEADERS,
      body: JSON.stringify({ input: f.example.input, response: f.example.response }),
    });
    shared.baselineRss = s.rssMiB();
    return s;
  };
  /** A case against the shared server; it also fails when the server does not answer /health afterwards. */
  const httpCase = (
    name: string,
    expected: string,
    run: (url: string) => Promise<string | undefined>,
    area: "A" | "B" = "A",
  ): Case => ({
    category: "server",
    area,
    name,
    expected,
    run: async () => {
      const s = await server();
      const got = await run(s.url as string);
      const health = await http(`${s.url}/health`, { timeoutMs: 30_000 });
      if (health.status !== 200)
        return `${got ?? "answered"}; then the server is down (${health.status} ${health.body.slice(0, 80)})`;
      return got;
    },
  });
  const post =
    (path: string, body: string | Buffer, headers: Record<string, string> = JSON_HEADERS) =>
    (url: string) =>
      http(`${url}${path}`, { method: "POST", headers, body });
  const chat = (body: unknown) => post("/v1/chat/completions", JSON.stringify(body));
  const userMessage = (content: unknown) => ({ messages: [{ role: "user", content }] });
  const inputJson = JSON.stringify(f.example.input);

  // Chat: every malformed message shape is a typed 400.
  const shapes: Array<[string, unknown]> = [
    ["messages: [null]", { messages: [null] }],
    ["messages: [1]", { messages: [1] }],
    ['messages: ["text"]', { messages: ["text"] }],
    ["messages: [[]]", { messages: [[]] }],
    ["messages: [{}]", { messages: [{}] }],
    ['messages: [{"role": "user"}]', { messages: [{ role: "user" }] }],
    ["a user message with content 5", userMessage(5)],
    ["a user message with content null", userMessage(null)],
    ["a user message with content []", userMessage([])],
    ["a user message with content {}", userMessage({})],
    ['messages: [{"role": 5, "content": "x"}]', { messages: [{ role: 5, content: inputJson }] }],
    ["messages: {} (an object)", { messages: {} }],
    ['messages: "text"', { messages: "text" }],
    ["messages: null", { messages: null }],
    ["messages: []", { messages: [] }],
    ["no messages", {}],
    ["a user message that is not JSON", userMessage("Should zoos be banned?")],
    ["a user message holding JSON that is not an input (an array)", userMessage("[1, 2]")],
    [
      "a user message with one perspective",
      userMessage(
        JSON.stringify({ ...f.example.input, perspectives: (f.example.input.perspectives as unknown[]).slice(0, 1) }),
      ),
    ],
    [
      "a user message whose arguments are emoji only",
      userMessage(
        JSON.stringify({
          ...f.example.input,
          perspectives: [
            { label: "pro", arguments: ["🦁"] },
            { label: "con", arguments: ["🐘"] },
          ],
        }),
      ),
    ],
    ["npov.input: 5", { messages: [{ role: "user", content: "x" }], npov: { input: 5 } }],
    ["npov: null", { messages: [{ role: "user", content: "x" }], npov: null }],
  ];
  for (const [label, body] of shapes)
    cases.push(
      httpCase(`POST /v1/chat/completions with ${label}`, "400 with a typed error body", async (u) =>
        judgeStatus(await chat(body)(u), [400]),
      ),
    );
  const params: Array<[string, Record<string, unknown>]> = [
    ['temperature "hot"', { temperature: "hot" }],
    ["temperature -1", { temperature: -1 }],
    ["temperature 3", { temperature: 3 }],
    ["top_p 0", { top_p: 0 }],
    ["top_p 2", { top_p: 2 }],
    ["n 0", { n: 0 }],
    ["n 1000", { n: 1000 }],
    ["n 1.5", { n: 1.5 }],
    ["max_tokens 0", { max_tokens: 0 }],
    ["max_tokens 1e9", { max_tokens: 1e9 }],
    ['max_tokens "x"', { max_tokens: "x" }],
    ["stop [1]", { stop: [1] }],
    ["stop 5", { stop: 5 }],
    ["5 stop strings", { stop: ["a", "b", "c", "d", "e"] }],
    ["seed 1.5", { seed: 1.5 }],
    ['logprobs "yes"', { logprobs: "yes" }],
    ["top_logprobs -1", { logprobs: true, top_logprobs: -1 }],
  ];
  for (const [label, extra] of params)
    cases.push(
      httpCase(`POST /v1/chat/completions with ${label}`, "400 with a typed error body", async (u) =>
        judgeStatus(await chat({ ...userMessage(inputJson), ...extra })(u), [400]),
      ),
    );
  cases.push(
    httpCase(
      "POST /v1/chat/completions, a valid request",
      "200 with a response in choices[0].message.content",
      async (u) => {
        const r = await chat(userMessage(inputJson))(u);
        const bad = judgeStatus(r, [200]);
        if (bad !== undefined) return bad;
        const content = (r.json as { choices?: Array<{ message?: { content?: unknown } }> }).choices?.[0]?.message
          ?.content;
        return typeof content === "string" && content.length > 0 ? undefined : `no content: ${r.body.slice(0, 100)}`;
      },
    ),
    httpCase("POST /v1/chat/completions, a valid streamed request", "200 event stream ending in [DONE]", async (u) => {
      const r = await chat({ ...userMessage(inputJson), stream: true })(u);
      if (r.status !== 200) return `status ${r.status}: ${r.body.slice(0, 100)}`;
      return r.body.trim().endsWith("data: [DONE]") ? undefined : `stream does not end in [DONE]: ${r.body.slice(-80)}`;
    }),
    httpCase(
      "POST /v1/completions (the template writer cannot complete raw prompts)",
      "400 with a typed error body",
      async (u) => judgeStatus(await post("/v1/completions", JSON.stringify({ prompt: "Hello" }))(u), [400]),
    ),
    httpCase("POST /v1/completions with prompt 5", "400 with a typed error body", async (u) =>
      judgeStatus(await post("/v1/completions", JSON.stringify({ prompt: 5 }))(u), [400]),
    ),
  );

  // Big bodies under the limit, and memory.
  const big = (bytes: number) => {
    const input = {
      ...f.example.input,
      perspectives: structuredClone(f.example.input.perspectives) as Array<{ arguments: unknown[] }>,
    };
    (input.perspectives[0] as { arguments: unknown[] }).arguments.push({ text: longResponse(f, bytes, 11) });
    return JSON.stringify(input);
  };
  cases.push(
    httpCase(
      "POST /v1/chat/completions with a 240 KB user message that is not JSON",
      "400 with a typed error body",
      async (u) => judgeStatus(await chat(userMessage(longResponse(f, 240_000, 12)))(u), [400]),
    ),
    httpCase(
      "POST /v1/chat/completions with a 240 KB NPOV input (one 235 KB argument)",
      "200, or 400 [INPUT_TOO_LARGE]; never 500",
      async (u) => {
        const r = await chat(userMessage(big(235_000)))(u);
        return r.status === 200 ? undefined : judgeStatus(r, [400], ["INPUT_TOO_LARGE"]);
      },
    ),
    httpCase(
      "POST /v1/check with a 250 KB response",
      "a verdict (or blocked / 400 [INPUT_TOO_LARGE]); /health sent 20 ms later is answered first",
      async (u) => {
        const body = JSON.stringify({ input: f.example.input, response: longResponse(f, 250_000, 13) });
        let order = "";
        const check = http(`${u}/v1/check`, { method: "POST", headers: JSON_HEADERS, body, timeoutMs: 60_000 }).then(
          (r) => {
            order += "c";
            return r;
          },
        );
        await new Promise((r) => setTimeout(r, 20));
        const health = http(`${u}/health`, { timeoutMs: 60_000 }).then((r) => {
          order += "h";
          return r;
        });
        const [c, h] = await Promise.all([check, health]);
        if (h.status !== 200) return `/health answered ${h.status}`;
        const v = judgeVerdict(c, ["INPUT_TOO_LARGE"], false);
        if (v !== undefined) return v;
        if (order !== "hc" && c.ms > 200)
          return `/health waited for the check (${c.ms.toFixed(0)} ms): the check blocks the event loop`;
        return undefined;
      },
    ),
    httpCase(
      "POST /v1/check with 2,000 arguments (under the body limit)",
      "a verdict, or blocked / 400 with INPUT_TOO_LARGE, within 30 s",
      async (u) => {
        const body = JSON.stringify({ input: manyArguments(f, 2000), response: f.example.response });
        if (body.length > 262_144) return `harness: body of ${body.length} bytes is over the limit`;
        return judgeVerdict(await post("/v1/check", body)(u), ["INPUT_TOO_LARGE"], false);
      },
      "B",
    ),
  );

  // /v1/check: shapes and nothing to score.
  const checkBody = (over: Record<string, unknown>) =>
    JSON.stringify({ input: f.example.input, response: f.example.response, ...over });
  cases.push(
    httpCase("POST /v1/check, a valid request", "200 with allow and finite scores in [0, 1]", async (u) =>
      judgeVerdict(await post("/v1/check", checkBody({}))(u), [], false),
    ),
  );
  for (const [label, over, codes] of [
    ["no input", { input: undefined }, ["INVALID_VALUE"]],
    ["input: null", { input: null }, ["INVALID_VALUE"]],
    ["input: []", { input: [] }, ["INVALID_VALUE"]],
    ["no response", { response: undefined }, ["NOT_TEXT"]],
    ["response: 5", { response: 5 }, ["NOT_TEXT"]],
    ['response: ""', { response: "" }, ["EMPTY_TEXT"]],
    ["response: {}", { response: {} }, ["NOT_TEXT"]],
    [
      "an input with one perspective",
      { input: { ...f.example.input, perspectives: (f.example.input.perspectives as unknown[]).slice(0, 1) } },
      ["TOO_FEW_PERSPECTIVES"],
    ],
  ] as Array<[string, Record<string, unknown>, string[]]>)
    cases.push(
      httpCase(
        `POST /v1/check with ${label}`,
        `400 with a typed error body [${codes.join(" | ")}], or a verdict blocking with that reason`,
        async (u) => judgeVerdict(await post("/v1/check", checkBody(over))(u), codes, true),
      ),
    );
  for (const [label, response] of [
    ["emoji only", "😀😀 🎉"],
    ["punctuation only", "... !!! ???"],
    ["zero-width spaces only", "\u200B\u200B"],
    ["stop words only", "It is what it is."],
    ["one stop word", "the"],
  ])
    cases.push(
      httpCase(
        `POST /v1/check with a response of ${label}`,
        "blocked: 200 with allow false and reason NOTHING_TO_SCORE, or 400 [NOTHING_TO_SCORE]",
        async (u) =>
          judgeVerdict(await post("/v1/check", checkBody({ response }))(u), ["NOTHING_TO_SCORE", "EMPTY_TEXT"], true),
      ),
    );

  // Malformed JSON and content types.
  const malformed: Array<[string, string]> = [
    ["an unterminated object", '{"input": '],
    ["a lone brace", "{"],
    ["a truncated literal", "nul"],
    ["an unterminated array", "[1, 2"],
    ["NaN", "NaN"],
    ["a trailing comma", '{"input": {}, }'],
    ["single quotes", "{'input': 1}"],
    ["a number 1e400", '{"input": 1e400, "response": "x"}'],
    ["invalid UTF-8 bytes", "\uFFFD"],
    ["null", "null"],
    ["[]", "[]"],
    ['"a string"', '"a string"'],
    ["5", "5"],
    ["an empty body", ""],
    ["JSON nested 100,000 arrays deep", `${"[".repeat(100_000)}${"]".repeat(100_000)}`],
    ["a JSON comment", '// hi\n{"input": 1}'],
  ];
  for (const [label, body] of malformed)
    for (const path of ["/v1/check", "/v1/chat/completions"])
      cases.push(
        httpCase(`POST ${path} with a body of ${label}`, "400 with a typed error body", async (u) => {
          const raw = label.startsWith("invalid UTF-8") ? Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]) : body;
          return judgeStatus(await post(path, raw)(u), [400]);
        }),
      );
  for (const [label, type] of [
    ["text/plain", "text/plain"],
    ["application/x-www-form-urlencoded", "application/x-www-form-urlencoded"],
    ["multipart/form-data", "multipart/form-data; boundary=x"],
    ["application/json; charset=latin1", "application/json; charset=latin1"],
  ] as const)
    cases.push(
      httpCase(
        `POST /v1/check with content-type ${label}`,
        "415 or 400 with a typed error body (or 200 for JSON with a charset)",
        async (u) => {
          const r = await post("/v1/check", checkBody({}), { "content-type": type })(u);
          if (type.startsWith("application/json") && r.status === 200) return judgeVerdict(r, [], false);
          return judgeStatus(r, [400, 415]);
        },
      ),
    );
  cases.push(
    httpCase(
      "POST /v1/check with a UTF-8 BOM before the JSON",
      "200 verdict or 400 with a typed error body",
      async (u) => {
        const r = await post(
          "/v1/check",
          Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(checkBody({}))]),
        )(u);
        return r.status === 200 ? judgeVerdict(r, [], false) : judgeStatus(r, [400]);
      },
    ),
  );

  // Over the body limit.
  for (const [label, bytes] of [
    ["300 KB", 300_000],
    ["1 MB", 1_000_000],
    ["50 MB", 50_000_000],
  ] as const)
    for (const path of ["/v1/check", "/v1/chat/completions"])
      cases.push(
        httpCase(`POST ${path} with a ${label} body`, "413 with a typed error body", async (u) =>
          judgeRaw(await sendBody(u, path, bytes), [413]),
        ),
      );
  cases.push(
    httpCase("POST /v1/check declaring content-length 100,000,000 and sending 10 bytes", "413 at once", async (u) => {
      const r = await rawRequest(
        u,
        `POST /v1/check HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000000\r\n\r\n{"a": 1}`,
      );
      return /^HTTP\/1\.1 413/.test(r) ? undefined : `answered: ${r.split("\r\n")[0] || "(nothing)"}`;
    }),
    httpCase("POST /v1/check with a chunked 50 MB body", "413 with a typed error body", async (u) =>
      chunked(u, 50_000_000),
    ),
    httpCase("a request whose body ends early (client disconnects)", "the server stays up", async (u) => {
      for (let k = 0; k < 20; k++)
        await rawRequest(
          u,
          `POST /v1/check HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"input": `,
          50,
        );
      return undefined;
    }),
    httpCase("200 connections opened at once and dropped", "the server stays up", async (u) => {
      const { port, hostname } = new URL(u);
      await Promise.all(
        Array.from(
          { length: 200 },
          () =>
            new Promise<void>((resolve) => {
              const s = connect(Number(port), hostname, () => s.destroy());
              s.on("close", () => resolve());
              s.on("error", () => resolve());
            }),
        ),
      );
      return undefined;
    }),
  );

  // Routes, methods, headers.
  for (const [label, method, path, statuses] of [
    ["GET /v1/check", "GET", "/v1/check", [404, 405]],
    ["PUT /health", "PUT", "/health", [404, 405]],
    ["DELETE /v1/chat/completions", "DELETE", "/v1/chat/completions", [404, 405]],
    ["GET /no/such/route", "GET", "/no/such/route", [404]],
    ["GET /v1/models", "GET", "/v1/models", [200]],
    ["GET /health", "GET", "/health", [200]],
  ] as Array<[string, string, string, number[]]>)
    cases.push(
      httpCase(
        `${label}`,
        statuses.includes(200) ? "200" : `${statuses.join(" or ")} with a typed error body`,
        async (u) => judgeStatus(await http(`${u}${path}`, { method }), statuses),
      ),
    );
  cases.push(
    httpCase(
      "no CORS by default: POST /v1/check with an Origin header",
      "200 without Access-Control-Allow-Origin",
      async (u) => {
        const r = await post("/v1/check", checkBody({}), { ...JSON_HEADERS, origin: "http://evil.test" })(u);
        if (r.status !== 200) return `status ${r.status}`;
        return r.headers["access-control-allow-origin"] === undefined
          ? undefined
          : `CORS header ${r.headers["access-control-allow-origin"]}`;
      },
    ),
    httpCase(
      "no CORS by default: OPTIONS preflight",
      "no Access-Control-Allow-Origin header (404/405/204)",
      async (u) => {
        const r = await http(`${u}/v1/check`, {
          method: "OPTIONS",
          headers: { origin: "http://evil.test", "access-control-request-method": "POST" },
        });
        if (r.status >= 500 || r.status === 0) return `status ${r.status}`;
        return r.headers["access-control-allow-origin"] === undefined
          ? undefined
          : `CORS header ${r.headers["access-control-allow-origin"]}`;
      },
    ),
    httpCase("the server listens on 127.0.0.1 by default", "the serving line names 127.0.0.1", async (u) =>
      new URL(u).hostname === "127.0.0.1" ? undefined : `listens on ${u}`,
    ),
  );
  cases.push({
    category: "server",
    area: "A",
    name: "serve --cors http://app.test: preflight and a check from that origin",
    expected:
      "OPTIONS 204 with Access-Control-Allow-Origin http://app.test; POST carries the header; other origins get none",
    run: async () => {
      const s = await startCli(["serve", "--port", "0", "--guard-config", f.guard.rouge, "--cors", "http://app.test"], {
        cwd: f.dir,
      });
      others.push(s);
      try {
        if (s.url === undefined) return `did not start: ${s.result().stderr.trim().split("\n").pop()}`;
        const pre = await http(`${s.url}/v1/check`, {
          method: "OPTIONS",
          headers: {
            origin: "http://app.test",
            "access-control-request-method": "POST",
            "access-control-request-headers": "content-type",
          },
        });
        if (pre.status !== 204 && pre.status !== 200) return `preflight status ${pre.status}`;
        if (pre.headers["access-control-allow-origin"] !== "http://app.test")
          return `preflight Access-Control-Allow-Origin ${pre.headers["access-control-allow-origin"]}`;
        const r = await http(`${s.url}/v1/check`, {
          method: "POST",
          headers: { ...JSON_HEADERS, origin: "http://app.test" },
          body: checkBody({}),
        });
        if (r.headers["access-control-allow-origin"] !== "http://app.test")
          return `POST without the CORS header (status ${r.status})`;
        const other = await http(`${s.url}/v1/check`, {
          method: "POST",
          headers: { ...JSON_HEADERS, origin: "http://evil.test" },
          body: checkBody({}),
        });
        const h = other.headers["access-control-allow-origin"];
        return h === undefined || h === "http://app.test" ? undefined : `other origin got ${h}`;
      } finally {
        await s.stop();
      }
    },
  });

  // Bad server options: one line, exit 2, no stack.
  const bad: Array<[string, string[], string[]]> = [
    ["--port abc", ["--port", "abc"], []],
    ["--port -1", ["--port", "-1"], []],
    ["--port 65536", ["--port", "65536"], []],
    ["--port 1.5", ["--port", "1.5"], []],
    ['--port ""', ["--port", ""], []],
    ["--host not-a-host.invalid", ["--host", "not-a-host.invalid"], []],
    ["--host 999.1.1.1", ["--host", "999.1.1.1"], []],
    ['--host ""', ["--host", ""], []],
    ["--body-limit abc", ["--body-limit", "abc"], []],
    ["--body-limit -1", ["--body-limit", "-1"], []],
    ["--body-limit 0", ["--body-limit", "0"], []],
    ["--body-limit 1.5", ["--body-limit", "1.5"], []],
    ["--guard-config a missing file", ["--guard-config", "/nonexistent/guard.json"], ["FILE_UNREADABLE"]],
    [
      "--guard-config a file that is not JSON",
      ["--guard-config", f.exampleFile.replace(/uniforms\.json$/, "../kb/README.md")],
      ["INVALID_FILE"],
    ],
    [
      "--guard-config with an unknown method",
      [
        "--guard-config",
        f.writeJson("guard-unknown.json", {
          format: "npov-guard/1",
          detector: { method: "nope" },
          thresholds: { hallucination: 0.5, coverage: 0.5 },
        }),
      ],
      ["INVALID_VALUE", "INVALID_FILE", "USAGE"],
    ],
  ];
  for (const [label, args, codes] of bad)
    cases.push({
      category: "server",
      area: "A",
      name: `serve ${label}`,
      expected: `exit 2, one-line typed error${codes.length ? ` [${codes.join(" | ")}]` : " (any code)"}, no stack trace`,
      run: async () => {
        const s = await startCli(["serve", "--port", "0", ...args], { cwd: f.dir, timeoutMs: 30_000 });
        if (s.url !== undefined) {
          await s.stop();
          return `started and listened at ${s.url}`;
        }
        return judgeUsage(s.result(), codes);
      },
    });
  cases.push({
    category: "server",
    area: "A",
    name: "serve --port <a port in use>",
    expected: "exit 2 [PORT_IN_USE]",
    run: async () => {
      const s = await server();
      const port = new URL(s.url as string).port;
      const r = await runCli(["serve", "--port", port], { timeoutMs: 30_000 });
      return judgeError(r, ["PORT_IN_USE"]);
    },
  });
  cases.push({
    category: "server",
    area: "A",
    name: "the server's stderr after every hostile request above",
    expected: "no stack trace, no native onnxruntime message, no unexpected error",
    run: async () => {
      const s = await server();
      const r = s.result();
      return runProblems({ ...r, timedOut: false, signal: null }) === undefined
        ? undefined
        : `stderr: ${r.stderr.replace(/\s+/g, " ").slice(0, 200)}`;
    },
  });
  cases.push({
    category: "server",
    area: "A",
    name: "memory after every hostile request above (RSS against the warmed-up baseline)",
    expected: "RSS at most 150 MiB above the baseline after 3 s idle",
    run: async () => {
      const s = await server();
      await new Promise((r) => setTimeout(r, 3000));
      const now = s.rssMiB();
      const base = shared.baselineRss;
      if (now === undefined || base === undefined) return "server gone";
      return now - base <= 150 ? undefined : `RSS ${base} -> ${now} MiB`;
    },
  });
  return cases;
}

/**
 * POST a JSON body of `bytes` bytes over a raw socket, reading the answer while still sending: a server
 * may answer 413 and close before the body is all sent (an HTTP client would only see EPIPE).
 */
function sendBody(url: string, path: string, bytes: number): Promise<string> {
  const { port, hostname } = new URL(url);
  return new Promise((resolve) => {
    let got = "";
    let finished = false;
    const s = connect(Number(port), hostname);
    const done = () => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      s.destroy();
      resolve(got);
    };
    const timer = setTimeout(done, 60_000);
    s.on("data", (b: Buffer) => {
      got += b.toString("utf8");
      const head = got.indexOf("\r\n\r\n");
      const length = Number(/content-length:\s*(\d+)/i.exec(got)?.[1] ?? Number.NaN);
      if (head >= 0 && Buffer.byteLength(got.slice(head + 4)) >= length) done();
    });
    s.on("close", done);
    s.on("error", () => {});
    s.on("connect", () => {
      const prefix = '{"response": "';
      const suffix = '"}';
      s.write(
        `POST ${path} HTTP/1.1\r\nHost: ${hostname}\r\nContent-Type: application/json\r\nContent-Length: ${bytes}\r\nConnection: close\r\n\r\n${prefix}`,
      );
      const chunk = Buffer.alloc(65_536, 0x78);
      let sent = prefix.length;
      const pump = () => {
        while (!finished && sent < bytes - suffix.length) {
          const n = Math.min(chunk.length, bytes - suffix.length - sent);
          sent += n;
          if (!s.write(chunk.subarray(0, n))) return void s.once("drain", pump);
        }
        if (!finished) s.write(suffix);
      };
      pump();
    });
  });
}

/** A raw HTTP answer: its status is in `statuses` and its body is a typed JSON error. */
function judgeRaw(raw: string, statuses: readonly number[]): string | undefined {
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(raw)?.[1] ?? 0);
  if (!statuses.includes(status)) return status === 0 ? `no answer: ${raw.slice(0, 80)}` : `status ${status}`;
  const body = raw.slice(raw.indexOf("\r\n\r\n") + 4);
  try {
    const e = (JSON.parse(body) as { error?: { code?: unknown } }).error;
    return typeof e?.code === "string" ? undefined : `status ${status} without a typed error body`;
  } catch {
    return `status ${status} without a JSON body: ${body.slice(0, 80)}`;
  }
}

/** Send raw bytes, return what came back within `waitMs` (or at close). */
function rawRequest(url: string, text: string, waitMs = 5000): Promise<string> {
  const { port, hostname } = new URL(url);
  return new Promise((resolve) => {
    let got = "";
    const s = connect(Number(port), hostname, () => s.write(text));
    const done = () => {
      s.destroy();
      resolve(got);
    };
    const t = setTimeout(done, waitMs);
    s.on("data", (b: Buffer) => {
      got += b.toString("utf8");
      if (got.includes("\r\n\r\n")) {
        clearTimeout(t);
        setTimeout(done, 50);
      }
    });
    s.on("close", () => {
      clearTimeout(t);
      resolve(got);
    });
    s.on("error", () => {});
  });
}

/** Stream `bytes` of a JSON body in chunks; the server must answer 413 before it is all sent. */
function chunked(url: string, bytes: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const req = httpRequest(
      `${url}/v1/check`,
      { method: "POST", headers: { ...JSON_HEADERS, "transfer-encoding": "chunked" } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (b: Buffer) => chunks.push(b));
        res.on("end", () => {
          req.destroy();
          const body = Buffer.concat(chunks).toString("utf8");
          if (res.statusCode !== 413) return resolve(`status ${res.statusCode}: ${body.slice(0, 100)}`);
          try {
            const e = (JSON.parse(body) as { error?: { code?: unknown } }).error;
            resolve(typeof e?.code === "string" ? undefined : "413 without a typed error body");
          } catch {
            resolve("413 without a JSON body");
          }
        });
      },
    );
    req.on("error", (e) => resolve(`no answer: ${e.message}`));
    req.setTimeout(60_000, () => req.destroy(new Error("timeout")));
    const chunk = Buffer.alloc(65_536, 0x61);
    let sent = 0;
    req.write('{"response": "');
    const pump = () => {
      while (sent < bytes) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
      req.end('"}');
    };
    req.on("response", () => {
      sent = bytes;
    });
    pump();
  });
}
