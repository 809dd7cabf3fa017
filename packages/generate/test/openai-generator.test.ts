// OpenAICompatibleGenerator on @npov/llm's client: streaming over SSE, the response cache, usage.
import { mkdtempSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { NpovInput } from "@npov/core";
import { OpenAICompatibleGenerator } from "@npov/generate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const input: NpovInput = {
  topic: "zoos",
  query: "Should zoos be abolished?",
  perspectives: [
    { label: "pro", arguments: [{ text: "Zoos confine animals." }] },
    { label: "con", arguments: [{ text: "Zoos protect species." }] },
  ],
};
const reply =
  "Opinions differ.} Neutral response core: {Some say zoos confine animals. Others say zoos protect species.}";

describe("OpenAICompatibleGenerator over the SDK", () => {
  let server: Server;
  let url: string;
  const bodies: Array<Record<string, unknown>> = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      let data = "";
      req.on("data", (c) => {
        data += c;
      });
      req.on("end", () => {
        const body = JSON.parse(data) as Record<string, unknown>;
        bodies.push(body);
        if (body.stream === true) {
          res.writeHead(200, { "content-type": "text/event-stream" });
          for (const piece of reply.match(/.{1,7}/gs)!)
            res.write(
              `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] })}\n\n`,
            );
          res.end("data: [DONE]\n\n");
          return;
        }
        res.writeHead(200, { "content-type": "application/json" });
        res.end(
          JSON.stringify({
            choices: [{ index: 0, message: { role: "assistant", content: reply }, finish_reason: "length" }],
            usage: { prompt_tokens: 50, completion_tokens: 20, total_tokens: 70 },
          }),
        );
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(() => {
    server.close();
  });

  it("streams the deltas the endpoint sends, in order", async () => {
    const g = new OpenAICompatibleGenerator({ baseURL: url, model: "m" });
    const deltas: string[] = [];
    for await (const d of g.stream(input, { seed: 4 })) deltas.push(d);
    expect(deltas.join("")).toBe(reply);
    expect(deltas.length).toBe(Math.ceil(reply.length / 7));
    expect(bodies.at(-1)).toMatchObject({ stream: true, seed: 4, model: "m" });
  });

  it("answers a repeated generation from the cache and reports usage", async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), "npov-gen-cache-"));
    const first = new OpenAICompatibleGenerator({ baseURL: url, model: "m", cacheDir });
    const a = await first.generate(input, { seed: 1 });
    expect(a).toMatchObject({ opening: "Opinions differ.", finishReason: "length" });
    const before = bodies.length;
    const second = new OpenAICompatibleGenerator({ baseURL: url, model: "m", cacheDir });
    expect(await second.generate(input, { seed: 1 })).toEqual(a);
    expect(bodies.length).toBe(before);
    expect(first.usage()).toMatchObject({ requests: 1, promptTokens: 50, completionTokens: 20 });
    expect(second.usage()).toMatchObject({ requests: 0, cacheHits: 1 });
  });
});
