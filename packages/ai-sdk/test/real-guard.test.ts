// The middleware with guards npov ships (support; a support -> rouge cascade), on an NPOV input and on
// sources: the invented sentence is what gets flagged, and a cascade's stages reach the metadata.
import type { LanguageModelV4StreamPart } from "@ai-sdk/provider";
import {
  type NpovGuardMetadata,
  npovGuardMiddleware,
  npovMetadata,
  npovProviderOptions,
  ResponseBlockedError,
} from "@npov/ai-sdk";
import { type CascadeVerdict, loadGuard } from "@npov/classifier";
import type { NpovInput, SourcesInput } from "@npov/core";
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
  sources: [
    {
      id: "doc1",
      text: "Zoos run breeding programs that save endangered species. Critics say enclosures deprive wild animals of natural behaviour.",
    },
  ],
};
const CLEAN =
  "People disagree about zoos. Critics say keeping wild animals in enclosures deprives them of natural behaviour. Supporters point out that zoos run breeding programs that save endangered species.";
const INVENTED = "A 2019 Oxford study found that most zoo visitors forget the animals within a week.";
const WITH_INVENTED = CLEAN.replace("Supporters", `${INVENTED} Supporters`);

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 20, text: 20, reasoning: 0 },
};
const streamOf = (text: string): LanguageModelV4StreamPart[] => [
  { type: "text-start", id: "t" },
  ...(text.match(/.{1,9}/gs) ?? []).map((delta) => ({ type: "text-delta" as const, id: "t", delta })),
  { type: "text-end", id: "t" },
  { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage },
];

describe("the middleware with npov's support guard", async () => {
  const guard = await loadGuard({
    format: "npov-guard/1",
    detector: { method: "support" },
    thresholds: { hallucination: 0.6, coverage: 0.6 },
  });

  it("allows the clean answer and blocks the one with an invented study, on both kinds of input", async () => {
    for (const given of [input, sources]) {
      const model = (text: string) =>
        wrapLanguageModel({
          model: new MockLanguageModelV4({
            doGenerate: async () => ({
              content: [{ type: "text", text }],
              finishReason: { unified: "stop", raw: "stop" },
              usage,
              warnings: [],
            }),
          }),
          middleware: npovGuardMiddleware({ guard }),
        });
      const ok = await generateText({ model: model(CLEAN), prompt: "q", providerOptions: npovProviderOptions(given) });
      expect(npovMetadata(ok.providerMetadata)?.allowed).toBe(true);
      const error = (await generateText({
        model: model(WITH_INVENTED),
        prompt: "q",
        maxRetries: 0,
        providerOptions: npovProviderOptions(given),
      }).catch((e: unknown) => e)) as ResponseBlockedError;
      expect(error).toBeInstanceOf(ResponseBlockedError);
      if (error.verdict.error) throw new Error("a scored verdict expected");
      expect(error.verdict.hallucination.evidence.sentences[0]?.text).toBe(INVENTED);
    }
  });

  it("cuts a stream right after the invented sentence", async () => {
    const model = wrapLanguageModel({
      model: new MockLanguageModelV4({
        doStream: async () => ({ stream: simulateReadableStream({ chunks: streamOf(WITH_INVENTED) }) }),
      }),
      middleware: npovGuardMiddleware({ guard, streamRelease: "checked" }),
    });
    const result = streamText({
      model,
      prompt: "q",
      providerOptions: npovProviderOptions(sources),
      onError: () => undefined,
    });
    const errors: unknown[] = [];
    for await (const part of result.fullStream) if (part.type === "error") errors.push(part.error);
    expect(errors[0]).toBeInstanceOf(ResponseBlockedError);
    // Checked text only is released, and the stream ends at the first check that blocks: the client never
    // sees the invented sentence (against these sources the opening "People disagree about zoos." is itself
    // content no source states, so the cut may come before it).
    const released = await result.text;
    expect(WITH_INVENTED.startsWith(released)).toBe(true);
    expect(released).not.toContain("Oxford");
  });

  it("records a cascade's stages, latency and cost in the metadata", async () => {
    const cascade = await loadGuard({
      format: "npov-guard/2",
      stages: [
        {
          detector: { method: "support" },
          band: { hallucination: { low: 0.3, high: 0.9 }, coverage: { low: 0.5, high: 0.9 } },
        },
        { detector: { method: "rouge" }, thresholds: { hallucination: 0.5, coverage: 0.5 }, costUsd: 0.001 },
      ],
    });
    const model = wrapLanguageModel({
      model: new MockLanguageModelV4({
        doStream: async () => ({ stream: simulateReadableStream({ chunks: streamOf(CLEAN) }) }),
      }),
      middleware: npovGuardMiddleware({ guard: cascade, streamCheck: "end" }),
    });
    const result = streamText({ model, prompt: "q", providerOptions: npovProviderOptions(input) });
    expect(await result.text).toBe(CLEAN);
    const meta = npovMetadata(await result.providerMetadata) as NpovGuardMetadata;
    const verdict = meta.verdict as CascadeVerdict;
    expect(verdict.allow).toBe(true);
    // support scores this answer below both lows (hallucination ~0.2, coverage ~0.3): stage 1 decides, free.
    expect(verdict.stages.map((s) => [s.detector, s.decided])).toEqual([["support", ["hallucination", "coverage"]]]);
    expect(verdict.costUsd).toBe(0);
    expect(verdict.stages[0]?.ms).toBeGreaterThan(0);
  });
});
