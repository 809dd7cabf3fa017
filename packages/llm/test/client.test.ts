import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  CacheError,
  canonicalJson,
  EndpointError,
  formatUsage,
  LlmClient,
  MAX_SERVER_MESSAGE_CHARS,
  requestKey,
} from "@npov/llm";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { chatReply, type FakeEndpoint, fakeEndpoint } from "./helpers.js";

const ask = { messages: [{ role: "user" as const, content: "Is the sky blue?" }], max_tokens: 1, seed: 0 };
let endpoints: FakeEndpoint[] = [];
const serve = async (...args: Parameters<typeof fakeEndpoint>) => {
  const e = await fakeEndpoint(...args);
  endpoints.push(e);
  return e;
};
const savedEnv = { NPOV_API_KEY: process.env.NPOV_API_KEY, OPENAI_API_KEY: process.env.OPENAI_API_KEY };
beforeEach(() => {
  delete process.env.NPOV_API_KEY;
  delete process.env.OPENAI_API_KEY;
});
afterEach(async () => {
  await Promise.all(endpoints.map((e) => e.close()));
  endpoints = [];
  for (const [k, v] of Object.entries(savedEnv))
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
});

describe("LlmClient retries", () => {
  it("waits the Retry-After a 429 asks for, then succeeds", async () => {
    const api = await serve((_, i) =>
      i === 0
        ? { status: 429, headers: { "retry-after": "1" }, body: { error: { message: "slow down" } } }
        : { body: chatReply("YES") },
    );
    const client = new LlmClient({ baseURL: api.url, model: "m" });
    const reply = await client.chat(ask);
    expect(reply.choices[0]!.message.content).toBe("YES");
    expect(api.requests).toHaveLength(2);
    const waited = api.requests[1]!.at - api.requests[0]!.at;
    expect(waited).toBeGreaterThanOrEqual(990);
    expect(waited).toBeLessThan(3000);
    expect(client.usage()).toMatchObject({ requests: 1, promptTokens: 10, completionTokens: 1 });
  });

  it("retries 5xx up to maxRetries, then fails with RETRIES_EXHAUSTED and the status", async () => {
    const api = await serve(() => ({
      status: 503,
      headers: { "retry-after-ms": "10" },
      body: { error: { message: "overloaded" } },
    }));
    const error = await new LlmClient({ baseURL: api.url, model: "m", maxRetries: 2 })
      .chat(ask)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EndpointError);
    expect(error).toMatchObject({ code: "RETRIES_EXHAUSTED", status: 503 });
    expect((error as Error).message).toContain("overloaded");
    expect(api.requests).toHaveLength(3);
  });

  it("fails fast on a 4xx, and says what is wrong for timeouts, dead servers and bad options", async () => {
    const refusing = await serve(() => ({ status: 401, body: { error: { message: "bad key" } } }));
    const e401 = await new LlmClient({ baseURL: refusing.url, model: "m" }).chat(ask).catch((e: unknown) => e);
    expect(e401).toMatchObject({ code: "HTTP_ERROR", status: 401 });
    expect((e401 as Error).message).toContain("bad key");
    expect(refusing.requests).toHaveLength(1);

    const hanging = await serve(() => ({ hang: true }));
    const slow = await new LlmClient({ baseURL: hanging.url, model: "m", timeoutMs: 150, maxRetries: 0 })
      .chat(ask)
      .catch((e: unknown) => e);
    expect(slow).toMatchObject({ code: "TIMEOUT" });

    const dead = await serve(() => ({}));
    const deadUrl = dead.url;
    await dead.close();
    endpoints = endpoints.filter((e) => e !== dead);
    const unreachable = await new LlmClient({ baseURL: deadUrl, model: "m", maxRetries: 0 })
      .chat(ask)
      .catch((e: unknown) => e);
    expect(unreachable).toMatchObject({ code: "NETWORK" });
    expect((unreachable as Error).message).toContain("Is the server running?");

    expect(() => new LlmClient({ baseURL: "localhost:8080", model: "m" })).toThrow(
      expect.objectContaining({ code: "INVALID_BASE_URL" }),
    );
    expect(() => new LlmClient({ baseURL: "http://x/v1", model: " " })).toThrow(
      expect.objectContaining({ code: "INVALID_MODEL" }),
    );
    expect(() => new LlmClient({ baseURL: "http://x/v1", model: "m", concurrency: 0 })).toThrow(
      expect.objectContaining({ code: "INVALID_OPTION" }),
    );
  });
});

describe("server error messages", () => {
  it("keep a server's explanation whole (once, without the SDK's repeated status); only a page-sized body is cut", async () => {
    // A context-length refusal as npov serve words it, with a long model path: over 300 characters.
    const explanation = `The prompt for /models/${"nested/".repeat(20)}npov-gen is 904 tokens, more than its context of 512: shorten it -- npov does not truncate, since a cut text would be scored as if it were whole.`;
    expect(explanation.length).toBeGreaterThan(300);
    const refusing = await serve(() => ({ status: 400, body: { error: { message: explanation } } }));
    const e400 = await new LlmClient({ baseURL: refusing.url, model: "m" }).chat(ask).catch((e: unknown) => e);
    expect(e400).toMatchObject({ code: "HTTP_ERROR", status: 400 });
    expect((e400 as Error).message).toBe(`400 from ${refusing.url}: ${explanation}`);

    const page = `<html>${"x".repeat(5000)}</html>`;
    const proxy = await serve(() => ({ status: 403, body: { error: { message: page } } }));
    const e403 = await new LlmClient({ baseURL: proxy.url, model: "m" }).chat(ask).catch((e: unknown) => e);
    expect((e403 as Error).message).toBe(
      `403 from ${proxy.url}: ${page.slice(0, MAX_SERVER_MESSAGE_CHARS)}... (${page.length - MAX_SERVER_MESSAGE_CHARS} more characters)`,
    );
  });
});

describe("LlmClient keys, concurrency and usage", () => {
  it("sends the key from the environment, the named variable, or none", async () => {
    const api = await serve(() => ({ body: chatReply("YES") }));
    await new LlmClient({ baseURL: api.url, model: "m" }).chat(ask);
    process.env.OPENAI_API_KEY = "sk-openai";
    await new LlmClient({ baseURL: api.url, model: "m" }).chat(ask);
    process.env.NPOV_API_KEY = "sk-npov";
    await new LlmClient({ baseURL: api.url, model: "m" }).chat(ask);
    process.env.MY_GATEWAY_KEY = "sk-gateway";
    await new LlmClient({ baseURL: api.url, model: "m", apiKeyEnv: "MY_GATEWAY_KEY" }).chat(ask);
    delete process.env.MY_GATEWAY_KEY;
    expect(api.requests.map((r) => r.headers.authorization)).toEqual([
      undefined,
      "Bearer sk-openai",
      "Bearer sk-npov",
      "Bearer sk-gateway",
    ]);
    expect(() => new LlmClient({ baseURL: api.url, model: "m", apiKeyEnv: "MY_GATEWAY_KEY" })).toThrow(
      expect.objectContaining({ code: "MISSING_API_KEY" }),
    );
  });

  it("keeps at most `concurrency` requests in flight", async () => {
    const api = await serve(() => ({ body: chatReply("YES"), delayMs: 60 }));
    const client = new LlmClient({ baseURL: api.url, model: "m", concurrency: 2 });
    await Promise.all(Array.from({ length: 6 }, (_, i) => client.chat({ ...ask, seed: i })));
    expect(api.requests).toHaveLength(6);
    expect(api.maxInFlight).toBe(2);
  });

  it("totals tokens and prices them from the table", async () => {
    const api = await serve((_, i) => ({
      body: chatReply("YES", undefined, { prompt_tokens: 1000 + i, completion_tokens: 2 }),
    }));
    const client = new LlmClient({
      baseURL: api.url,
      model: "m",
      prices: { m: { input: 0.15, output: 0.6 } },
    });
    await client.chat({ ...ask, seed: 1 });
    await client.chat({ ...ask, seed: 2 });
    const usage = client.usage();
    // 2001 prompt tokens at $0.15/M + 4 completion tokens at $0.60/M.
    expect(usage).toEqual({
      model: "m",
      requests: 2,
      cacheHits: 0,
      promptTokens: 2001,
      completionTokens: 4,
      requestsWithoutUsage: 0,
      costUsd: (2001 * 0.15 + 4 * 0.6) / 1e6,
    });
    expect(formatUsage(usage)).toBe(
      "usage (m): 2 requests (0 cached), 2,001 prompt + 4 completion tokens, est. $0.0003",
    );
    expect(new LlmClient({ baseURL: api.url, model: "other" }).usage().costUsd).toBeUndefined();
  });
});

describe("the response cache", () => {
  it("answers a repeated request from disk, bit-identically and without a request", async () => {
    const api = await serve((_, i) => ({
      body: chatReply(i === 0 ? "YES" : "NO", [
        ["YES", 0.7],
        ["NO", 0.3],
      ]),
    }));
    const cacheDir = mkdtempSync(join(tmpdir(), "npov-llm-cache-"));
    const first = await new LlmClient({ baseURL: api.url, model: "m", cacheDir }).chat({
      ...ask,
      logprobs: true,
      top_logprobs: 2,
    });
    const again = new LlmClient({ baseURL: api.url, model: "m", cacheDir });
    // The same request with its properties in another order hits the same entry.
    const second = await again.chat({
      top_logprobs: 2,
      logprobs: true,
      seed: 0,
      max_tokens: 1,
      messages: ask.messages,
    });
    expect(JSON.stringify(second)).toBe(JSON.stringify(first));
    expect(second.choices[0]!.message.content).toBe("YES");
    expect(api.requests).toHaveLength(1);
    expect(again.usage()).toMatchObject({ requests: 0, cacheHits: 1, promptTokens: 0 });
    // A different request (another seed) is a miss.
    await again.chat({ ...ask, seed: 9 });
    expect(api.requests).toHaveLength(2);
    // One file per request, named by the sha256 of the canonical request, with no temp files left.
    const files = readdirSync(cacheDir, { recursive: true })
      .map(String)
      .filter((f) => f.endsWith(".json"));
    expect(files).toHaveLength(2);
    const key = requestKey({
      api: "chat.completions",
      baseURL: api.url,
      body: { ...ask, logprobs: true, top_logprobs: 2, model: "m", stream: false },
    });
    expect(existsSync(join(cacheDir, key.slice(0, 2), `${key}.json`))).toBe(true);
    expect(
      readdirSync(cacheDir, { recursive: true })
        .map(String)
        .some((f) => f.endsWith(".tmp")),
    ).toBe(false);
    // A corrupted entry is a typed error that names the file.
    writeFileSync(join(cacheDir, key.slice(0, 2), `${key}.json`), "{not json");
    const corrupt = await again.chat({ ...ask, logprobs: true, top_logprobs: 2 }).catch((e: unknown) => e);
    expect(corrupt).toBeInstanceOf(CacheError);
    expect(corrupt).toMatchObject({ code: "CACHE_CORRUPT" });
    const other = files.find((f) => !f.includes(key))!;
    expect(JSON.parse(readFileSync(join(cacheDir, other), "utf8"))).toMatchObject({
      request: { api: "chat.completions", body: { model: "m", seed: 9 } },
      response: { choices: [{ message: { content: "NO" } }] },
    });
  });

  it("canonical JSON sorts keys at every level and drops undefined", () => {
    expect(canonicalJson({ b: 1, a: { d: [{ z: 1, y: 2 }], c: undefined } })).toBe('{"a":{"d":[{"y":2,"z":1}]},"b":1}');
    expect(requestKey({ a: 1, b: 2 })).toBe(requestKey({ b: 2, a: 1 }));
    expect(requestKey({ a: 1 })).toMatch(/^[0-9a-f]{64}$/);
  });
});
