/**
 * LlmClient against endpoints that misbehave after the headers: a stalled body or stream, invalid JSON, a
 * connection broken mid-stream, a stream closed before its end, an error event inside a stream, and a 200
 * without choices. Each must end in a typed EndpointError in bounded time, and nothing bad is cached.
 */
import { mkdtempSync, readdirSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
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

/** A raw endpoint: `handle` writes whatever it likes; returns the base URL and a hit counter. */
async function rawEndpoint(
  handle: (res: ServerResponse, hit: number, req: IncomingMessage) => void,
): Promise<{ url: string; hits: () => number; inFlight: () => number }> {
  let hits = 0;
  let open = 0;
  let maxOpen = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      open++;
      maxOpen = Math.max(maxOpen, open);
      res.on("close", () => {
        open--;
      });
      handle(res, hits++, req);
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    hits: () => hits,
    inFlight: () => maxOpen,
  };
}

const chunk = (content: string, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 0, model: "m", choices: [{ index: 0, delta: { content }, finish_reason: finish }] })}\n\n`;

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

async function collect(stream: AsyncIterable<string>, into: string[]): Promise<void> {
  for await (const delta of stream) into.push(delta);
}

describe("LlmClient after the headers", () => {
  it("times out a body that stalls after the headers (the SDK's timeout ends at the headers)", async () => {
    const api = await rawEndpoint((res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"id":"x","choices":[');
    });
    const client = new LlmClient({ baseURL: api.url, model: "m", timeoutMs: 300, maxRetries: 0 });
    const { error, ms } = await failure(() => client.chat(ask));
    expect(error.code).toBe("TIMEOUT");
    expect(error.message).toContain("300 ms");
    expect(ms).toBeLessThan(5_000);
  });

  it("times out a stream that stalls between chunks, keeping the text it had", async () => {
    const api = await rawEndpoint((res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(chunk("first "));
    });
    const client = new LlmClient({ baseURL: api.url, model: "m", timeoutMs: 300, maxRetries: 0 });
    const text: string[] = [];
    const { error } = await failure(() => collect(client.chatStream(ask), text));
    expect(error.code).toBe("TIMEOUT");
    expect(text).toEqual(["first "]);
  });

  it("lets a slow stream run past timeoutMs while chunks keep coming", async () => {
    const api = await rawEndpoint((res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      let n = 0;
      const timer = setInterval(() => {
        n++;
        if (n < 6) res.write(chunk(`${n} `));
        else {
          clearInterval(timer);
          res.end(`${chunk("end", "stop")}data: [DONE]\n\n`);
        }
      }, 100);
    });
    const client = new LlmClient({ baseURL: api.url, model: "m", timeoutMs: 400, maxRetries: 0 });
    const text: string[] = [];
    await collect(client.chatStream(ask), text);
    expect(text.join("")).toBe("1 2 3 4 5 end");
  });

  it("turns invalid JSON and a connection broken mid-stream into BAD_RESPONSE and NETWORK", async () => {
    const truncated = await rawEndpoint((res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": "10" });
      res.end('{"id":"x",');
    });
    const client = new LlmClient({ baseURL: truncated.url, model: "m", maxRetries: 0 });
    expect((await failure(() => client.chat(ask))).error.code).toBe("BAD_RESPONSE");
    const reset = await rawEndpoint((res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(chunk("The first half"), () => setTimeout(() => res.socket?.destroy(), 50));
    });
    const streaming = new LlmClient({ baseURL: reset.url, model: "m", maxRetries: 0 });
    const text: string[] = [];
    expect((await failure(() => collect(streaming.chatStream(ask), text))).error.code).toBe("NETWORK");
    expect(text).toEqual(["The first half"]);
  });

  it("refuses a stream closed before its finish_reason or [DONE], and accepts either end", async () => {
    const cut = await rawEndpoint((res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end(chunk("half an answer"));
    });
    const text: string[] = [];
    const { error } = await failure(() =>
      collect(new LlmClient({ baseURL: cut.url, model: "m", maxRetries: 0 }).chatStream(ask), text),
    );
    expect(error.code).toBe("BAD_RESPONSE");
    expect(error.message).toContain("incomplete");
    for (const ending of [chunk("!", "stop"), `${chunk("!")}data: [DONE]\n\n`]) {
      const api = await rawEndpoint((res) => {
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.end(chunk("whole") + ending);
      });
      const whole: string[] = [];
      await collect(new LlmClient({ baseURL: api.url, model: "m" }).chatStream(ask), whole);
      expect(whole.join("")).toBe("whole!");
    }
  });

  it("reports an error event inside a stream as STREAM_ERROR with the server's own code", async () => {
    const api = await rawEndpoint((res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.end(
        `${chunk("partial ")}data: ${JSON.stringify({ error: { message: "prompt too long", code: "PROMPT_TOO_LONG" } })}\n\n`,
      );
    });
    const { error } = await failure(() => collect(new LlmClient({ baseURL: api.url, model: "m" }).chatStream(ask), []));
    expect(error.code).toBe("STREAM_ERROR");
    expect(error.message).toContain("PROMPT_TOO_LONG");
    expect(error.message).toContain("prompt too long");
  });

  it("holds a concurrency slot for a stream until it ends", async () => {
    const api = await rawEndpoint((res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(chunk("a"));
      setTimeout(() => res.end(`${chunk("b", "stop")}data: [DONE]\n\n`), 150);
    });
    const client = new LlmClient({ baseURL: api.url, model: "m", concurrency: 1 });
    const texts = await Promise.all(
      [0, 1, 2].map(async () => {
        const t: string[] = [];
        await collect(client.chatStream(ask), t);
        return t.join("");
      }),
    );
    expect(texts).toEqual(["ab", "ab", "ab"]);
    expect(api.hits()).toBe(3);
    expect(api.inFlight()).toBe(1);
  });

  it("does not cache a 200 without choices: the next call asks again and caches the good answer", async () => {
    const api = await rawEndpoint((res, hit) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(hit === 0 ? { object: "error", message: "model loading" } : chatReply("YES")));
    });
    const cacheDir = mkdtempSync(join(tmpdir(), "npov-llm-faults-"));
    const client = new LlmClient({ baseURL: api.url, model: "m", cacheDir });
    expect((await failure(() => client.chat(ask))).error.code).toBe("BAD_RESPONSE");
    expect(readdirSync(cacheDir, { recursive: true }).filter((f) => String(f).endsWith(".json"))).toEqual([]);
    expect((await client.chat(ask)).choices[0]?.message.content).toBe("YES");
    expect((await client.chat(ask)).choices[0]?.message.content).toBe("YES");
    expect(api.hits()).toBe(2);
    expect(client.usage().cacheHits).toBe(1);
  });
});
