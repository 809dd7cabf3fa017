// The middleware with the AI SDK's own mock language model and streams (no network): generateText and
// streamText through wrapLanguageModel, each policy, streams cut mid-answer, a stream that stops
// mid-sentence, aborts, sources inputs, and guards that fail.
import type {
  LanguageModelV4CallOptions,
  LanguageModelV4GenerateResult,
  LanguageModelV4StreamPart,
} from "@ai-sdk/provider";
import {
  feedbackInstruction,
  type NpovGuardMetadata,
  npovGuardMiddleware,
  npovMetadata,
  npovProviderOptions,
  ResponseBlockedError,
} from "@npov/ai-sdk";
import { createGuard, type Guard } from "@npov/classifier";
import type { ErrorDetector, NpovInput, SourcesInput } from "@npov/core";
import { generateText, streamText, wrapLanguageModel } from "ai";
import { MockLanguageModelV4, simulateReadableStream } from "ai/test";
import { describe, expect, it } from "vitest";

const input: NpovInput = {
  topic: "zoos",
  query: "Should zoos be abolished?",
  perspectives: [
    { label: "pro", arguments: [{ text: "Keeping wild animals in enclosures deprives them of natural behaviour." }] },
    { label: "con", arguments: [{ text: "Zoos run breeding programs that save endangered species." }] },
  ],
};
const sources: SourcesInput = {
  query: "What do zoos do for endangered species?",
  sources: [{ id: "doc1", text: "Zoos run breeding programs that save endangered species." }],
};

const CLEAN = "Opinions differ. Zoos run breeding programs. Enclosures deprive animals of natural behaviour.";
const MOON = "Opinions differ. Zoos run breeding programs. The moon is made of cheese. Enclosures deprive animals.";

/**
 * A scripted detector: every word of a sentence mentioning the moon is unsupported (hallucination 1 when
 * the text has one, else 0); coverage 1 when "breeding" is missing. `calls` records the texts it checked.
 */
function scripted(delayMs = 0): ErrorDetector & { calls: string[] } {
  const d = {
    name: "scripted",
    calls: [] as string[],
    async detect(_input: unknown, response: string) {
      d.calls.push(response);
      if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
      const at = response.indexOf("The moon");
      const end = at < 0 ? -1 : response.indexOf(".", at) + 1;
      return {
        hallucination: at < 0 ? 0 : 1,
        coverage: response.includes("breeding") ? 0 : 1,
        unsupportedSpans: at < 0 ? [] : [{ text: response.slice(at, end), start: at, end, score: 1 }],
        uncoveredArguments: response.includes("breeding")
          ? []
          : [
              {
                perspective: 1,
                argument: 0,
                text: "Zoos run breeding programs that save endangered species.",
                score: 1,
              },
            ],
      };
    },
  };
  return d;
}

const guardOf = (detector: ErrorDetector): Guard =>
  createGuard({ detector, thresholds: { hallucination: 0.5, coverage: 0.5 } });

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 20, text: 20, reasoning: 0 },
};
const generated = (text: string): LanguageModelV4GenerateResult => ({
  content: [{ type: "text", text }],
  finishReason: { unified: "stop", raw: "stop" },
  usage,
  warnings: [],
});

/** A mock model answering `texts` in turn (the last one repeats); it records every call's options. */
function mockGenerate(...texts: string[]) {
  let k = 0;
  return new MockLanguageModelV4({
    doGenerate: async () => generated(texts[Math.min(k++, texts.length - 1)] as string),
  });
}

/** Stream parts of a text in chunks of `size` characters; `finish: false` ends without a finish part. */
function parts(text: string, size = 7, finish = true): LanguageModelV4StreamPart[] {
  const deltas: LanguageModelV4StreamPart[] = [];
  for (let i = 0; i < text.length; i += size)
    deltas.push({ type: "text-delta", id: "t", delta: text.slice(i, i + size) });
  return [
    { type: "stream-start", warnings: [] },
    { type: "text-start", id: "t" },
    ...deltas,
    { type: "text-end", id: "t" },
    ...(finish
      ? [{ type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage } as LanguageModelV4StreamPart]
      : []),
  ];
}

/** A mock streaming model; `pulled` counts the parts the middleware read from it. */
function mockStream(chunks: LanguageModelV4StreamPart[], chunkDelayInMs: number | null = null) {
  const state = { pulled: 0 };
  const model = new MockLanguageModelV4({
    doStream: async () => ({
      stream: simulateReadableStream({ chunks, chunkDelayInMs }).pipeThrough(
        new TransformStream<LanguageModelV4StreamPart, LanguageModelV4StreamPart>({
          transform(part, controller) {
            state.pulled++;
            controller.enqueue(part);
          },
        }),
      ),
    }),
  });
  return { model, state };
}

/** Read a wrapped model's stream directly (the LanguageModelV4 level), collecting parts and the error, if any. */
async function readStream(
  model: ReturnType<typeof wrapLanguageModel>,
  options: Partial<LanguageModelV4CallOptions> = {},
): Promise<{ parts: LanguageModelV4StreamPart[]; error?: unknown }> {
  const { stream } = await model.doStream({ prompt: [], providerOptions: npovProviderOptions(input), ...options });
  const out: LanguageModelV4StreamPart[] = [];
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { parts: out };
      out.push(value);
    }
  } catch (error) {
    return { parts: out, error };
  }
}

const textOf = (ps: LanguageModelV4StreamPart[]) => ps.map((p) => (p.type === "text-delta" ? p.delta : "")).join("");

describe("wrapGenerate", () => {
  it("flag: passes the answer on with the verdict and its evidence in the provider metadata", async () => {
    const model = wrapLanguageModel({
      model: mockGenerate(MOON),
      middleware: npovGuardMiddleware({ guard: guardOf(scripted()), policy: "flag" }),
    });
    const r = await generateText({
      model,
      prompt: "Should zoos be abolished?",
      providerOptions: npovProviderOptions(input),
    });
    expect(r.text).toBe(MOON);
    const meta = npovMetadata(r.providerMetadata) as NpovGuardMetadata;
    expect(meta.allowed).toBe(false);
    expect(meta.policy).toBe("flag");
    if (meta.verdict === undefined || meta.verdict.error) throw new Error("a scored verdict expected");
    expect(meta.verdict.hallucination.flagged).toBe(true);
    expect(meta.verdict.hallucination.evidence.sentences.map((s) => s.text)).toEqual(["The moon is made of cheese."]);
    const clean = await generateText({
      model: wrapLanguageModel({
        model: mockGenerate(CLEAN),
        middleware: npovGuardMiddleware({ guard: guardOf(scripted()), policy: "flag" }),
      }),
      prompt: "Should zoos be abolished?",
      providerOptions: npovProviderOptions(input),
    });
    expect(npovMetadata(clean.providerMetadata)?.allowed).toBe(true);
  });

  it("block: generateText rejects with ResponseBlockedError carrying the verdict and the text", async () => {
    const model = wrapLanguageModel({
      model: mockGenerate(MOON),
      middleware: npovGuardMiddleware({ guard: guardOf(scripted()) }),
    });
    const error = await generateText({
      model,
      prompt: "q",
      providerOptions: npovProviderOptions(input),
      maxRetries: 0,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ResponseBlockedError);
    const blocked = error as ResponseBlockedError;
    expect(blocked.code).toBe("RESPONSE_BLOCKED");
    expect(blocked.text).toBe(MOON);
    expect(blocked.message).toContain('hallucination 1.000 >= 0.500 (unsupported: "The moon is made of cheese.")');
  });

  it("regenerate: a new seed and the evidence fed back; usage counts every attempt", async () => {
    const mock = mockGenerate(MOON, CLEAN);
    const model = wrapLanguageModel({
      model: mock,
      middleware: npovGuardMiddleware({ guard: guardOf(scripted()), policy: "regenerate", retryTemperature: 0.7 }),
    });
    const r = await generateText({
      model,
      prompt: "Should zoos be abolished?",
      seed: 40,
      providerOptions: npovProviderOptions(input),
    });
    expect(r.text).toBe(CLEAN);
    expect(mock.doGenerateCalls).toHaveLength(2);
    const retry = mock.doGenerateCalls[1] as LanguageModelV4CallOptions;
    expect(retry.seed).toBe(41);
    expect(retry.temperature).toBe(0.7);
    expect(retry.prompt.slice(-2)).toEqual([
      { role: "assistant", content: [{ type: "text", text: MOON }] },
      {
        role: "user",
        content: [
          {
            type: "text",
            text: 'Revise your previous answer. Remove content that is not among the given arguments, such as: "The moon is made of cheese.".',
          },
        ],
      },
    ]);
    const meta = npovMetadata(r.providerMetadata) as NpovGuardMetadata;
    expect(meta.allowed).toBe(true);
    expect(meta.attempts?.map((a) => [a.attempt, a.seed, a.verdict.allow])).toEqual([
      [1, 40, false],
      [2, 41, true],
    ]);
    expect(r.usage.inputTokens).toBe(20);
    expect(r.usage.outputTokens).toBe(40);
  });

  it("regenerate: after the last attempt, blocks with the best verdict (or returns the best under onExhausted: flag)", async () => {
    // Attempt 1 misses coverage (excess 0.5); attempt 2 hallucinates and misses coverage; both are as far
    // over a threshold, so the first stays best.
    const noBreeding = "Opinions differ. Enclosures deprive animals of natural behaviour.";
    const mock = mockGenerate(noBreeding, "The moon is made of cheese. Enclosures.");
    const model = wrapLanguageModel({
      model: mock,
      middleware: npovGuardMiddleware({ guard: guardOf(scripted()), policy: "regenerate", maxAttempts: 2 }),
    });
    const error = (await generateText({
      model,
      prompt: "q",
      providerOptions: npovProviderOptions(input),
      maxRetries: 0,
    }).catch((e: unknown) => e)) as ResponseBlockedError;
    expect(error).toBeInstanceOf(ResponseBlockedError);
    expect(error.attempts).toBe(2);
    expect(error.text).toBe(noBreeding);
    expect(error.message).toContain("after 2 attempts");
    expect(error.message).toContain('not covered: "Zoos run breeding programs that save endangered species."');
    const retry = mock.doGenerateCalls[1] as LanguageModelV4CallOptions;
    expect(JSON.stringify(retry.prompt.at(-1))).toContain("Make sure to state these given arguments");

    const flagging = wrapLanguageModel({
      model: mockGenerate(noBreeding, "The moon is made of cheese. Enclosures."),
      middleware: npovGuardMiddleware({
        guard: guardOf(scripted()),
        policy: "regenerate",
        maxAttempts: 2,
        onExhausted: "flag",
      }),
    });
    const r = await generateText({ model: flagging, prompt: "q", providerOptions: npovProviderOptions(input) });
    expect(r.text).toBe(noBreeding);
    expect(npovMetadata(r.providerMetadata)?.allowed).toBe(false);
    expect(npovMetadata(r.providerMetadata)?.attempts).toHaveLength(2);
  });

  it("checks against a sources input, given per call or by a function of the call", async () => {
    const detector = scripted();
    let seenInput: unknown;
    const spy: ErrorDetector = {
      name: "spy",
      detect(i, r) {
        seenInput = i;
        return detector.detect(i, r);
      },
    };
    const model = wrapLanguageModel({
      model: mockGenerate(CLEAN),
      middleware: npovGuardMiddleware({ guard: guardOf(spy), policy: "flag", input: () => sources }),
    });
    await generateText({ model, prompt: "What do zoos do?" });
    expect(seenInput).toEqual(sources);
    await generateText({ model, prompt: "q", providerOptions: npovProviderOptions(input) });
    expect(seenInput).toEqual(input); // the call's own input wins over the function
    expect(
      feedbackInstruction(
        (await guardOf(scripted()).check(sources, "The moon is made of cheese.")) as never,
        "sources",
      ),
    ).toBe(
      'Revise your previous answer. Make sure to cover these points of the sources: "Zoos run breeding programs that save endangered species.". Remove claims the sources do not support, such as: "The moon is made of cheese.".',
    );
  });

  it("fails closed: a guard that cannot check blocks with its reason; a call without input is an error", async () => {
    const broken: ErrorDetector = {
      name: "broken",
      detect() {
        throw new Error("model file missing");
      },
    };
    const model = wrapLanguageModel({
      model: mockGenerate(CLEAN),
      middleware: npovGuardMiddleware({ guard: guardOf(broken) }),
    });
    const error = (await generateText({
      model,
      prompt: "q",
      providerOptions: npovProviderOptions(input),
      maxRetries: 0,
    }).catch((e: unknown) => e)) as ResponseBlockedError;
    expect(error).toBeInstanceOf(ResponseBlockedError);
    expect(error.verdict.error).toBe(true);
    expect(error.message).toContain("DETECTOR_FAILED");
    expect(error.message).toContain("model file missing");
    const noInput = await generateText({ model, prompt: "q", maxRetries: 0 }).catch((e: unknown) => e);
    expect(noInput).toMatchObject({ code: "INVALID_VALUE", path: "providerOptions.npov.input" });
    const badInput = await generateText({
      model,
      prompt: "q",
      maxRetries: 0,
      providerOptions: { npov: { input: { topic: "zoos", query: "q", perspectives: [] } } },
    }).catch((e: unknown) => e);
    expect(badInput).toMatchObject({ code: "TOO_FEW_PERSPECTIVES" });
    expect(() => npovGuardMiddleware({ guard: guardOf(broken), policy: "drop" as never })).toThrow(
      expect.objectContaining({ path: "policy" }),
    );
  });

  it("does not check a step that only calls tools", async () => {
    const detector = scripted();
    const model = wrapLanguageModel({
      model: new MockLanguageModelV4({
        doGenerate: async () => ({
          ...generated(""),
          content: [{ type: "tool-call", toolCallId: "c1", toolName: "search", input: "{}" }],
          finishReason: { unified: "tool-calls", raw: "tool_calls" },
        }),
      }),
      middleware: npovGuardMiddleware({ guard: guardOf(detector) }),
    });
    const r = await model.doGenerate({ prompt: [], providerOptions: npovProviderOptions(input) });
    expect(detector.calls).toHaveLength(0);
    expect(npovMetadata(r.providerMetadata)).toEqual({ allowed: true, policy: "block", skipped: "tool calls only" });
  });

  it("an abort while the guard checks ends the call with the abort reason", async () => {
    const controller = new AbortController();
    const model = wrapLanguageModel({
      model: mockGenerate(CLEAN),
      middleware: npovGuardMiddleware({ guard: guardOf(scripted(2000)) }),
    });
    const started = performance.now();
    setTimeout(() => controller.abort(new Error("user left")), 30);
    const error = await model
      .doGenerate({ prompt: [], providerOptions: npovProviderOptions(input), abortSignal: controller.signal })
      .catch((e: unknown) => e);
    expect((error as Error).message).toBe("user left");
    expect(performance.now() - started).toBeLessThan(1500);
  });
});

describe("wrapStream", () => {
  it("block: cuts the stream after the sentence that fails, before the rest streams, with an error part", async () => {
    const detector = scripted();
    const { model: mock, state } = mockStream(parts(MOON));
    const model = wrapLanguageModel({ model: mock, middleware: npovGuardMiddleware({ guard: guardOf(detector) }) });
    const { parts: got, error } = await readStream(model);
    expect(error).toBeUndefined();
    const last = got.at(-1) as Extract<LanguageModelV4StreamPart, { type: "error" }>;
    expect(last.type).toBe("error");
    expect(last.error).toBeInstanceOf(ResponseBlockedError);
    expect((last.error as ResponseBlockedError).message).toContain("The moon is made of cheese.");
    expect(got.some((p) => p.type === "finish")).toBe(false);
    // Checked after each completed sentence: "Opinions differ.", then through "...programs.", then through
    // "...cheese." (as soon as "Enclosures" begins) -- which fails.
    expect(detector.calls).toEqual([
      "Opinions differ.",
      "Opinions differ. Zoos run breeding programs.",
      "Opinions differ. Zoos run breeding programs. The moon is made of cheese.",
    ]);
    // Passed on as it came: everything up to the delta in which the next sentence began, nothing after.
    const text = textOf(got);
    expect(MOON.startsWith(text)).toBe(true);
    expect(text).toContain("The moon is made of cheese. E");
    expect(text.length).toBeLessThan(MOON.length - 10);
    // The model's stream was cancelled: its remaining parts were never read.
    expect(state.pulled).toBeLessThan(parts(MOON).length);
  });

  it("block with streamRelease 'checked': the client never sees the failing sentence", async () => {
    const { model: mock } = mockStream(parts(MOON, 5));
    const model = wrapLanguageModel({
      model: mock,
      middleware: npovGuardMiddleware({ guard: guardOf(scripted()), streamRelease: "checked" }),
    });
    const { parts: got } = await readStream(model);
    // Released: sentences a passing check saw with the next one after them. "...programs." passed only as
    // the last sentence of a check, so it is held too when the check through "...cheese." fails.
    expect(textOf(got)).toBe("Opinions differ.");
    expect(got.at(-1)?.type).toBe("error");
    // Parts are passed on in order: stream-start and text-start before any text.
    expect(got.slice(0, 2).map((p) => p.type)).toEqual(["stream-start", "text-start"]);
  });

  it("a clean answer streams through unchanged, the verdict on its finish part", async () => {
    for (const release of ["immediate", "checked"] as const) {
      const chunks = parts(CLEAN, 4);
      const { model: mock } = mockStream(chunks);
      const model = wrapLanguageModel({
        model: mock,
        middleware: npovGuardMiddleware({ guard: guardOf(scripted()), streamRelease: release }),
      });
      const { parts: got } = await readStream(model);
      expect(textOf(got)).toBe(CLEAN);
      // The same parts in the same order ("checked" may split a text delta at a sentence's end).
      const others = (ps: LanguageModelV4StreamPart[]) => ps.map((p) => p.type).filter((t) => t !== "text-delta");
      expect(others(got)).toEqual(others(chunks));
      if (release === "immediate") expect(got.map((p) => p.type)).toEqual(chunks.map((p) => p.type));
      const finish = got.at(-1) as Extract<LanguageModelV4StreamPart, { type: "finish" }>;
      expect(finish.type).toBe("finish");
      const meta = npovMetadata(finish.providerMetadata) as NpovGuardMetadata;
      expect(meta.allowed).toBe(true);
      expect(meta.checks?.map((c) => [CLEAN.slice(0, c.end), c.allow])).toEqual([
        ["Opinions differ.", true],
        ["Opinions differ. Zoos run breeding programs.", true],
      ]);
    }
  });

  it("regenerate on a stream blocks: streamed text cannot be taken back", async () => {
    const { model: mock } = mockStream(parts(MOON));
    const model = wrapLanguageModel({
      model: mock,
      middleware: npovGuardMiddleware({ guard: guardOf(scripted()), policy: "regenerate" }),
    });
    const { parts: got } = await readStream(model);
    expect(got.at(-1)?.type).toBe("error");
    expect(mock.doStreamCalls).toHaveLength(1);
  });

  it("flag: streams everything and reports each check and the final verdict", async () => {
    const { model: mock } = mockStream(parts(MOON));
    const model = wrapLanguageModel({
      model: mock,
      middleware: npovGuardMiddleware({ guard: guardOf(scripted()), policy: "flag" }),
    });
    const result = streamText({ model, prompt: "q", providerOptions: npovProviderOptions(input) });
    expect(await result.text).toBe(MOON);
    const meta = npovMetadata(await result.providerMetadata) as NpovGuardMetadata;
    expect(meta.allowed).toBe(false);
    expect(meta.checks?.map((c) => c.allow)).toEqual([true, true, false]);
    expect(meta.checks?.[2]?.hallucination).toBe(1);
  });

  it("streamText surfaces the blocked stream as an error part and stops the text", async () => {
    const { model: mock } = mockStream(parts(MOON));
    const model = wrapLanguageModel({ model: mock, middleware: npovGuardMiddleware({ guard: guardOf(scripted()) }) });
    const errors: unknown[] = [];
    const result = streamText({
      model,
      prompt: "q",
      providerOptions: npovProviderOptions(input),
      onError: ({ error }) => {
        errors.push(error);
      },
    });
    const seen: string[] = [];
    for await (const part of result.fullStream) seen.push(part.type);
    expect(seen).toContain("error");
    expect(errors[0]).toBeInstanceOf(ResponseBlockedError);
    expect(MOON.startsWith(await result.text)).toBe(true);
    expect((await result.text).length).toBeLessThan(MOON.length);
  });

  it("a stream that stops mid-sentence is checked at the end, with the unfinished sentence", async () => {
    const cutShort = "Opinions differ. Zoos run breeding programs. The moon is made of";
    const detector = scripted();
    const { model: mock } = mockStream(parts(cutShort, 6));
    const model = wrapLanguageModel({ model: mock, middleware: npovGuardMiddleware({ guard: guardOf(detector) }) });
    const { parts: got } = await readStream(model);
    expect(textOf(got)).toBe(cutShort);
    expect(detector.calls.at(-1)).toBe(cutShort);
    expect(got.at(-1)?.type).toBe("error");
    expect((got.at(-1) as { error: ResponseBlockedError }).error.text).toBe(cutShort);
    // Without a finish part at all (the connection closed): the end of the stream triggers the final check.
    const { model: closed } = mockStream(parts(cutShort, 6, false));
    const wrapped = wrapLanguageModel({
      model: closed,
      middleware: npovGuardMiddleware({ guard: guardOf(scripted()) }),
    });
    const { parts: got2 } = await readStream(wrapped);
    expect(got2.at(-1)?.type).toBe("error");
    // The same unfinished answer without the moon passes: every part arrives, then the stream closes.
    const fine = "Opinions differ. Zoos run breeding programs. Enclosures deprive animals of";
    const { model: ok } = mockStream(parts(fine, 6, false));
    const okWrapped = wrapLanguageModel({ model: ok, middleware: npovGuardMiddleware({ guard: guardOf(scripted()) }) });
    const { parts: got3, error } = await readStream(okWrapped);
    expect(error).toBeUndefined();
    expect(textOf(got3)).toBe(fine);
  });

  it("checks against a sources input and with streamCheck 'end' only once", async () => {
    const detector = scripted();
    const { model: mock } = mockStream(parts(CLEAN));
    const model = wrapLanguageModel({
      model: mock,
      middleware: npovGuardMiddleware({ guard: guardOf(detector), streamCheck: "end" }),
    });
    const { parts: got } = await readStream(model, { providerOptions: npovProviderOptions(sources) });
    expect(detector.calls).toEqual([CLEAN]);
    const meta = npovMetadata((got.at(-1) as { providerMetadata?: unknown }).providerMetadata);
    expect(meta?.allowed).toBe(true);
    expect(meta?.checks).toBeUndefined();
  });

  it("an abort mid-stream ends it with the abort reason and runs no more checks", async () => {
    const detector = scripted(50);
    const { model: mock, state } = mockStream(parts(CLEAN, 3), 5);
    const model = wrapLanguageModel({ model: mock, middleware: npovGuardMiddleware({ guard: guardOf(detector) }) });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("user left")), 40);
    const started = performance.now();
    const { parts: got, error } = await readStream(model, { abortSignal: controller.signal });
    expect((error as Error).message).toBe("user left");
    expect(performance.now() - started).toBeLessThan(1000);
    expect(got.some((p) => p.type === "finish")).toBe(false);
    const checksAtAbort = detector.calls.length;
    await new Promise((r) => setTimeout(r, 300));
    expect(detector.calls.length).toBe(checksAtAbort);
    expect(checksAtAbort).toBeLessThanOrEqual(2);
    expect(state.pulled).toBeLessThan(parts(CLEAN, 3).length);
  });
});
