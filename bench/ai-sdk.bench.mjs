// bench/ai-sdk: the overhead of npov's AI SDK middleware per generateText call and per streamed sentence,
// against the bare mock model in the same run. Answers: the 113 held-out chatbot-dev responses (chatbot-style,
// 62-143 words) with their NPOV inputs, streamed in 4-character deltas. Guards: a constant detector (the
// middleware's own cost: buffering, sentence splitting, metadata) and the shipped `support` guard (what an
// app pays with npov's default data-free detector), checking after every sentence or at the end only.
import { readFileSync } from "node:fs";
import { npovGuardMiddleware, npovProviderOptions } from "@npov/ai-sdk";
import { createGuard, loadGuard } from "@npov/classifier";
import { splitSentences } from "@npov/core";
import { generateText, streamText, wrapLanguageModel } from "ai";
import { MockLanguageModelV4, simulateReadableStream } from "ai/test";
import { fmt, median } from "./lib.mjs";

const examples = ["a", "b"]
  .flatMap((p) =>
    readFileSync(new URL(`../data/chatbot-dev/part-${p}.jsonl`, import.meta.url), "utf8")
      .trim()
      .split("\n"),
  )
  .map((l) => JSON.parse(l))
  .filter((e) => e.meta?.devSplit === "heldout");
const usage = {
  inputTokens: { total: 50, noCache: 50, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 100, text: 100, reasoning: 0 },
};
const finishReason = { unified: "stop", raw: "stop" };
let current = examples[0];
const mock = new MockLanguageModelV4({
  doGenerate: async () => ({ content: [{ type: "text", text: current.response }], finishReason, usage, warnings: [] }),
  doStream: async () => ({
    stream: simulateReadableStream({
      chunks: [
        { type: "text-start", id: "t" },
        ...(current.response.match(/.{1,4}/gs) ?? []).map((delta) => ({ type: "text-delta", id: "t", delta })),
        { type: "text-end", id: "t" },
        { type: "finish", finishReason, usage },
      ],
      chunkDelayInMs: null,
    }),
  }),
});
const thresholds = { hallucination: 2, coverage: 2 }; // never blocks: every answer streams to its end
const constant = createGuard({
  detector: { name: "constant", detect: () => ({ hallucination: 0, coverage: 0 }) },
  thresholds,
});
const support = await loadGuard({ format: "npov-guard/1", detector: { method: "support" }, thresholds });
const models = {
  bare: mock,
  "middleware, constant guard": wrapLanguageModel({
    model: mock,
    middleware: npovGuardMiddleware({ guard: constant }),
  }),
  "middleware, support guard": wrapLanguageModel({ model: mock, middleware: npovGuardMiddleware({ guard: support }) }),
  "middleware, support guard, end check only": wrapLanguageModel({
    model: mock,
    middleware: npovGuardMiddleware({ guard: support, streamCheck: "end" }),
  }),
};

/** One call through `model`; its milliseconds. */
async function timed(model, kind, e) {
  current = e;
  const options = { model, prompt: e.input.query, providerOptions: npovProviderOptions(e.input) };
  const t = performance.now();
  if (kind === "generate") await generateText(options);
  else await streamText(options).consumeStream();
  return performance.now() - t;
}

/**
 * Median milliseconds per call of each configuration. The configurations take turns on each example (three
 * rounds over all examples), so the load of this shared machine drifting over the run hits all of them alike.
 */
async function perCall(kind, names) {
  const ms = Object.fromEntries(names.map((n) => [n, []]));
  for (const e of examples.slice(0, 5)) for (const n of names) await timed(models[n], kind, e);
  for (let round = 0; round < 3; round++)
    for (const e of examples) for (const n of names) ms[n].push(await timed(models[n], kind, e));
  return Object.fromEntries(names.map((n) => [n, median(ms[n])]));
}

// support memoizes word-pair similarities process-wide: check every answer once first, so every
// configuration below runs with the same warm memo (as a long-running app that has seen these words).
for (const e of examples) await support.check(e.input, e.response);
const sentences = median(examples.map((e) => splitSentences(e.response).length));
console.log(
  `${examples.length} held-out chatbot-dev answers (median ${sentences} sentences), 4-character stream deltas`,
);
for (const kind of ["generate", "stream"]) {
  // streamCheck only matters to streams.
  const names = Object.keys(models).filter((n) => kind === "stream" || !n.endsWith("end check only"));
  const results = await perCall(kind, names);
  const bare = results.bare;
  for (const name of names) {
    const ms = results[name];
    const extra =
      name === "bare"
        ? ""
        : `, overhead ${fmt(ms - bare, 2)} ms${kind === "stream" ? ` (${fmt((ms - bare) / sentences, 2)} ms per sentence)` : ""}, ratio ${fmt(ms / bare, 1)}x`;
    console.log(`${kind}, ${name}: median ${fmt(ms, 2)} ms per call${extra}`);
  }
}
