import { mkdtempSync } from "node:fs";
import { createServer as createHttpServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeTestModel } from "@npov/autograd";
import { createGuard } from "@npov/classifier";
import { GeneratorOutputError, type NpovInput } from "@npov/core";
import {
  ChatApiError,
  chatInput,
  cleanGeneratorText,
  createServer,
  generateChecked,
  LocalGenerator,
  OpenAICompatibleGenerator,
  parseChatReply,
  TemplateGenerator,
} from "@npov/generate";
import { rougeErrorDetector } from "@npov/rouge";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const input: NpovInput = {
  topic: "zoos",
  query: "Should zoos be abolished?",
  perspectives: [
    { label: "pro", arguments: [{ text: "Keeping wild animals in enclosures deprives them of natural behaviour." }] },
    { label: "con", arguments: [{ text: "Zoos run breeding programs that save endangered species from extinction." }] },
  ],
};
const complete =
  "Opinions differ on zoos.} Neutral response core: {Some say keeping wild animals in enclosures deprives them of natural behaviour. Others say zoos run breeding programs that save endangered species from extinction.}";
const missingCon =
  "Opinions differ on zoos.} Neutral response core: {Some say keeping wild animals in enclosures deprives them of natural behaviour.}";

/** A stand-in for an external OpenAI-compatible API: answers from a script, records requests. */
function fakeApi(
  script: Array<{ status: number; body?: unknown; headers?: Record<string, string> }>,
): Promise<{ url: string; server: Server; requests: unknown[] }> {
  const requests: unknown[] = [];
  const server = createHttpServer((req, res) => {
    let data = "";
    req.on("data", (c) => {
      data += c;
    });
    req.on("end", () => {
      requests.push(JSON.parse(data));
      const step = script[Math.min(requests.length - 1, script.length - 1)]!;
      res.writeHead(step.status, { "content-type": "application/json", ...(step.headers ?? {}) });
      res.end(JSON.stringify(step.body ?? { error: { message: `status ${step.status}` } }));
    });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, server, requests }),
    ),
  );
}
const reply = (content: string) => ({
  status: 200,
  body: { choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }] },
});

describe("OpenAICompatibleGenerator", () => {
  it("sends the NPOV instructions and parses the reply", async () => {
    const api = await fakeApi([reply(complete)]);
    const g = new OpenAICompatibleGenerator({ baseURL: api.url, model: "m", apiKey: "k" });
    const r = await g.generate(input, { seed: 3 });
    expect(r.opening).toBe("Opinions differ on zoos.");
    expect(r.core).toContain("breeding programs");
    const sent = api.requests[0] as { messages: Array<{ role: string; content: string }>; seed: number };
    expect(sent.messages[0]!.role).toBe("system");
    expect(sent.messages[1]!.content).toContain('Arguments of the "con" perspective:\n- Zoos run breeding programs');
    expect(sent.seed).toBe(3);
    api.server.close();
  });

  it("retries 429 and 5xx with backoff, and fails fast with a typed error on 4xx", async () => {
    const flaky = await fakeApi([{ status: 429, headers: { "retry-after": "0" } }, { status: 503 }, reply(complete)]);
    const g = new OpenAICompatibleGenerator({ baseURL: flaky.url, model: "m" });
    expect((await g.generate(input)).core).toContain("natural behaviour");
    expect(flaky.requests.length).toBe(3);
    flaky.server.close();
    const refusing = await fakeApi([{ status: 401, body: { error: { message: "bad key" } } }]);
    const error = await new OpenAICompatibleGenerator({ baseURL: refusing.url, model: "m" })
      .generate(input)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChatApiError);
    expect((error as ChatApiError).status).toBe(401);
    expect((error as ChatApiError).message).toContain("bad key");
    expect(refusing.requests.length).toBe(1);
    refusing.server.close();
    const down = await fakeApi([{ status: 500 }]);
    const exhausted = await new OpenAICompatibleGenerator({
      baseURL: down.url,
      model: "m",
      maxRetries: 2,
    })
      .generate(input)
      .catch((e: unknown) => e);
    expect((exhausted as ChatApiError).code).toBe("RETRIES_EXHAUSTED");
    expect(down.requests.length).toBe(3);
    down.server.close();
  });

  it("parses free-form chat replies (first sentence = opening)", () => {
    expect(parseChatReply("People disagree. Some say X. Others say Y.")).toMatchObject({
      opening: "People disagree.",
      core: "Some say X. Others say Y.",
    });
    expect(() => parseChatReply("no sentence")).toThrow(GeneratorOutputError);
    // Not text at all: a typed NOT_TEXT, not a TypeError from .trim().
    for (const junk of [null, undefined, 5, { text: "x" }])
      expect(() => parseChatReply(junk as never)).toThrow(expect.objectContaining({ code: "NOT_TEXT", path: "text" }));
  });
});

describe("the guard loop", () => {
  it("regenerates with an instruction naming the missing argument until the guard allows", async () => {
    const api = await fakeApi([reply(missingCon), reply(complete)]);
    const generator = new OpenAICompatibleGenerator({ baseURL: api.url, model: "m" });
    const guard = createGuard({ detector: rougeErrorDetector(), thresholds: { hallucination: 0.6, coverage: 0.3 } });
    const result = await generateChecked(input, { generator, guard, maxAttempts: 3, seed: 10 });
    expect(result.allowed).toBe(true);
    expect(result.attempts.map((a) => a.verdict?.allow)).toEqual([false, true]);
    expect(result.attempts[1]!.seed).toBe(11);
    expect(result.attempts[1]!.instruction).toContain("Zoos run breeding programs");
    const second = api.requests[1] as { messages: Array<{ content: string }>; temperature: number };
    expect(second.messages[1]!.content).toContain("Make sure to state these given arguments");
    expect(second.temperature).toBe(0.7);
    expect(result.best?.response?.response).toContain("breeding programs");
    api.server.close();
  });

  it("returns the least-bad attempt when none is allowed", async () => {
    const api = await fakeApi([reply(missingCon)]);
    const generator = new OpenAICompatibleGenerator({ baseURL: api.url, model: "m" });
    const guard = createGuard({ detector: rougeErrorDetector(), thresholds: { hallucination: 0.6, coverage: 0.3 } });
    const result = await generateChecked(input, { generator, guard, maxAttempts: 2 });
    expect(result.allowed).toBe(false);
    expect(result.attempts).toHaveLength(2);
    expect(result.best).toBeDefined();
    api.server.close();
  });
});

describe("the guard loop's options", () => {
  it("refuses a maxAttempts that would run no attempt, and bad seeds or temperatures, with INVALID_VALUE", async () => {
    const generator = new TemplateGenerator();
    const guard = createGuard({ detector: rougeErrorDetector(), thresholds: { hallucination: 0.6, coverage: 0.3 } });
    for (const [bad, path] of [
      [{ maxAttempts: 0 }, "options.maxAttempts"],
      [{ maxAttempts: -1 }, "options.maxAttempts"],
      [{ maxAttempts: Number.NaN }, "options.maxAttempts"],
      [{ maxAttempts: 1.5 }, "options.maxAttempts"],
      [{ seed: 0.5 }, "options.seed"],
      [{ temperature: -1 }, "options.temperature"],
      [{ retryTemperature: Number.NaN }, "options.retryTemperature"],
      [{ maxNewTokens: 0 }, "options.maxNewTokens"],
    ] as const)
      await expect(generateChecked(input, { generator, guard, ...bad })).rejects.toMatchObject({
        code: "INVALID_VALUE",
        path,
      });
    // One attempt is the least: it runs and is judged.
    const once = await generateChecked(input, { generator, guard, maxAttempts: 1 });
    expect(once.attempts).toHaveLength(1);
    expect(once.attempts[0]?.verdict).toBeDefined();
  });
});

describe("npov server on 127.0.0.1 with the real OpenAI client", () => {
  let app: ReturnType<typeof createServer>;
  let base: string;
  let generator: LocalGenerator;
  beforeAll(async () => {
    const dir = join(mkdtempSync(join(tmpdir(), "npov-serve-")), "t5");
    writeTestModel(dir, "t5", { seed: 2, initStd: 0.3 });
    generator = await LocalGenerator.fromPretrained(dir);
    const guard = createGuard({ detector: rougeErrorDetector(), thresholds: { hallucination: 0.6, coverage: 0.3 } });
    app = createServer({ generator, guard, bodyLimit: 16 * 1024 });
    base = await app.listen({ host: "127.0.0.1", port: 0 });
  });
  afterAll(async () => {
    await app.close();
  });

  it("serves chat completions to the openai client, plain and streamed, deterministically", async () => {
    const client = new OpenAI({ baseURL: `${base}/v1`, apiKey: "unused" });
    const ask = () =>
      client.chat.completions.create({
        model: "npov",
        messages: [{ role: "user", content: JSON.stringify(input) }],
        max_tokens: 12,
        seed: 1,
      });
    const a = await ask();
    expect(a.object).toBe("chat.completion");
    expect(a.choices[0]!.message.role).toBe("assistant");
    const raw = await generator.generateText(input, { maxNewTokens: 12, seed: 1 });
    // Parsed or not, the content is the generator's text cleaned the same way for both transports.
    expect(a.choices[0]!.message.content).toBe(cleanGeneratorText(raw.text));
    // Both count generated tokens only (not the T5 decoder's start token), within the budget.
    expect(a.usage!.completion_tokens).toBe(raw.tokens);
    expect(raw.tokens).toBeLessThanOrEqual(raw.budget);
    expect(raw.finishReason).toBe(a.choices[0]!.finish_reason);
    const stream = await client.chat.completions.create({
      model: "npov",
      messages: [{ role: "user", content: JSON.stringify(input) }],
      max_tokens: 12,
      stream: true,
    });
    let text = "";
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? "";
    expect(text).toBe(a.choices[0]!.message.content);
    expect((await ask()).choices[0]!.message.content).toBe(a.choices[0]!.message.content);
  });

  it("checks responses through /v1/check", async () => {
    const post = (body: unknown) =>
      fetch(`${base}/v1/check`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const ok = await (
      await post({ input, response: "Opinions differ. " + complete.split("{")[1]!.replace("}", "") })
    ).json();
    expect(ok.allow).toBe(true);
    const flagged = await (
      await post({
        input,
        response: "Opinions differ. Some say keeping wild animals in enclosures deprives them of natural behaviour.",
      })
    ).json();
    expect(flagged.allow).toBe(false);
    expect(flagged.coverage.evidence.uncoveredArguments[0].text).toContain("breeding programs");
    // A RAG answer against plain sources, through the same endpoint (issue 29).
    const rag = {
      query: "When did the Royal Blue start running?",
      sources: [
        {
          id: "wiki",
          text: "The Royal Blue was the B&O Railroad's flagship train between New York and Washington from 1890.",
        },
      ],
    };
    const faithful = await (await post({ input: rag, response: "The Royal Blue started running in 1890." })).json();
    const invented = await (
      await post({
        input: rag,
        response: "The Royal Blue started running in 1890 and was retired after a crash in 1958.",
      })
    ).json();
    expect(faithful.error).toBe(false);
    expect(invented.hallucination.score).toBeGreaterThan(faithful.hallucination.score);
    expect(invented.hallucination.evidence.sentences[0].text).toContain("crash");
  });

  it("answers malformed requests with 4xx JSON errors and refuses oversized bodies", async () => {
    const post = (path: string, body: string) =>
      fetch(`${base}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body });
    const cases: Array<[string, string, number, string]> = [
      ["/v1/chat/completions", JSON.stringify({ messages: [] }), 400, "invalid_messages"],
      [
        "/v1/chat/completions",
        JSON.stringify({ messages: [{ role: "user", content: "hello" }] }),
        400,
        "input_not_json",
      ],
      [
        "/v1/chat/completions",
        JSON.stringify({ messages: [{ role: "user", content: JSON.stringify({ ...input, query: "" }) }] }),
        400,
        "EMPTY_TEXT",
      ],
      [
        "/v1/chat/completions",
        JSON.stringify({ messages: [{ role: "user", content: JSON.stringify(input) }], temperature: 9 }),
        400,
        "invalid_temperature",
      ],
      ["/v1/check", JSON.stringify({ input, response: 42 }), 400, "NOT_TEXT"],
      ["/v1/check", "{not json", 400, "FST_ERR_CTP_INVALID_JSON_BODY"],
      ["/v1/check", JSON.stringify({ input, response: "x".repeat(20_000) }), 413, "body_too_large"],
    ];
    for (const [path, body, status, code] of cases) {
      const r = await post(path, body);
      expect([path, r.status]).toEqual([path, status]);
      const json = (await r.json()) as { error: { code: string; message: string } };
      expect(json.error.code).toBe(code);
      expect(json.error.message.length).toBeGreaterThan(0);
    }
    expect((await fetch(`${base}/nope`)).status).toBe(404);
  });

  it("reads the input from npov.input too", () => {
    expect(chatInput({ messages: [{ role: "user", content: "hi" }], npov: { input } }).query).toBe(input.query);
  });
});
