/**
 * No endpoint call waits forever: a total deadline per call bounds every attempt, every retry wait and the
 * whole body (a reply trickled a byte at a time is cut at the deadline, though no single chunk is late), and
 * a Retry-After beyond the cap -- or beyond what the deadline leaves -- fails at once with RATE_LIMITED
 * instead of being obeyed. Real servers on 127.0.0.1.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { EndpointError, LlmClient } from "@npov/llm";
import { afterEach, describe, expect, it } from "vitest";
import { chatReply } from "./helpers.js";

const ask = { messages: [{ role: "user" as const, content: "Is the sky blue?" }], max_tokens: 1, seed: 0 };
let servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.map(
      (s) =>
        new Promise<void>((r) => {
          s.closeAllConnections();
          s.close(() => r());
        }),
    ),
  );
  servers = [];
});

/** An endpoint whose handler writes whatever it likes; returns the base URL and the request count. */
async function rawEndpoint(
  handle: (res: ServerResponse, hit: number, req: IncomingMessage) => void,
): Promise<{ url: string; hits: () => number }> {
  let hits = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => handle(res, hits++, req));
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, hits: () => hits };
}

async function failure(run: () => Promise<unknown>): Promise<{ error: EndpointError; ms: number }> {
  const started = Date.now();
  try {
    await run();
  } catch (error) {
    expect(error).toBeInstanceOf(EndpointError);
    return { error: error as EndpointError, ms: Date.now() - started };
  }
  throw new Error("expected an EndpointError");
}

const tooManyRequests = (retryAfter: string) => (res: ServerResponse) => {
  res.writeHead(429, { "content-type": "application/json", "retry-after": retryAfter });
  res.end(JSON.stringify({ error: { message: "slow down" } }));
};

describe("LlmClient deadlines", () => {
  it("refuses a Retry-After of 28 hours at once with RATE_LIMITED (it was obeyed)", async () => {
    const api = await rawEndpoint(tooManyRequests("100000"));
    const client = new LlmClient({ baseURL: api.url, model: "m" });
    const { error, ms } = await failure(() => client.chat(ask));
    expect(error.code).toBe("RATE_LIMITED");
    expect(error.status).toBe(429);
    expect(error.message).toContain("100000 s");
    expect(error.message).toContain("30000 ms");
    expect(ms).toBeLessThan(2000);
    expect(api.hits()).toBe(1);
  });

  it("also refuses a Retry-After (as an HTTP date) beyond what the deadline leaves, and honours a raised cap", async () => {
    const later = new Date(Date.now() + 20_000).toUTCString();
    const api = await rawEndpoint(tooManyRequests(later));
    const { error, ms } = await failure(() =>
      new LlmClient({ baseURL: api.url, model: "m", deadlineMs: 5000, maxRetryAfterMs: 60_000 }).chat(ask),
    );
    expect(error.code).toBe("RATE_LIMITED");
    expect(error.message).toContain("deadline");
    expect(ms).toBeLessThan(2000);
    // A short Retry-After within both limits is still waited for.
    const waits = await rawEndpoint((res, hit) => {
      if (hit === 0) return tooManyRequests("0.3")(res);
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(chatReply("YES")));
    });
    const reply = await new LlmClient({ baseURL: waits.url, model: "m", maxRetryAfterMs: 1000 }).chat(ask);
    expect(reply.choices[0]?.message.content).toBe("YES");
    expect(waits.hits()).toBe(2);
  });

  it("cuts a valid reply sent a byte at a time at the deadline (each byte is in time, the whole is not)", async () => {
    const body = JSON.stringify(chatReply("YES"));
    let sent = 0;
    const api = await rawEndpoint((res) => {
      res.writeHead(200, { "content-type": "application/json" });
      const timer = setInterval(() => {
        if (res.destroyed || sent >= body.length) return clearInterval(timer);
        res.write(body[sent++] as string);
      }, 50);
      res.on("close", () => clearInterval(timer));
    });
    const client = new LlmClient({ baseURL: api.url, model: "m", timeoutMs: 300, deadlineMs: 1000, maxRetries: 0 });
    const { error, ms } = await failure(() => client.chat(ask));
    expect(error.code).toBe("TIMEOUT");
    expect(error.message).toContain("1000 ms deadline");
    expect(ms).toBeGreaterThanOrEqual(900);
    expect(ms).toBeLessThan(2500);
    expect(sent).toBeLessThan(body.length);
  });

  it("gives up on an endpoint that never answers at the deadline, not after every retry's timeout", async () => {
    const api = await rawEndpoint(() => undefined);
    const client = new LlmClient({ baseURL: api.url, model: "m", timeoutMs: 400, deadlineMs: 900, maxRetries: 3 });
    const { error, ms } = await failure(() => client.chat(ask));
    expect(error.code).toBe("TIMEOUT");
    // 4 attempts x 400 ms plus 0.5 + 1 + 2 s of backoff would be 5.1 s.
    expect(ms).toBeLessThan(1800);
    expect(api.hits()).toBeLessThanOrEqual(2);
  });

  it("ends a stream that trickles past the deadline, and a call whose fetch ignores its abort signal", async () => {
    const chunk = (content: string) =>
      `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 0, model: "m", choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`;
    const api = await rawEndpoint((res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      const timer = setInterval(() => res.write(chunk("x")), 100);
      res.on("close", () => clearInterval(timer));
    });
    const client = new LlmClient({ baseURL: api.url, model: "m", timeoutMs: 500, deadlineMs: 800, maxRetries: 0 });
    const text: string[] = [];
    const { error, ms } = await failure(async () => {
      for await (const delta of client.chatStream(ask)) text.push(delta);
    });
    expect(error.code).toBe("TIMEOUT");
    expect(text.length).toBeGreaterThan(2);
    expect(ms).toBeLessThan(2000);

    const deaf: typeof fetch = () => new Promise<Response>(() => undefined);
    const stuck = new LlmClient({ baseURL: "http://127.0.0.1:9/v1", model: "m", deadlineMs: 300, fetch: deaf });
    const late = await failure(() => stuck.chat(ask));
    expect(late.error.code).toBe("TIMEOUT");
    expect(late.ms).toBeLessThan(1500);
  });

  it("aborts on the caller's signal with ABORTED, and refuses deadline options that are not positive integers", async () => {
    const api = await rawEndpoint(() => undefined);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const { error } = await failure(() =>
      new LlmClient({ baseURL: api.url, model: "m", deadlineMs: 5000 }).chat(ask, controller.signal),
    );
    expect(error.code).toBe("ABORTED");
    for (const options of [{ deadlineMs: 0 }, { deadlineMs: 1.5 }, { maxRetryAfterMs: -1 }, { deadlineMs: 2 ** 31 }])
      expect(() => new LlmClient({ baseURL: api.url, model: "m", ...options })).toThrow(
        expect.objectContaining({ code: "INVALID_OPTION" }),
      );
  });
});
