/**
 * @npov/synth at its public boundaries: a billion inputs per topic is refused at once (it ran forever), a
 * count beyond what a topic can give returns what it has, and every public function under hostile arguments
 * (fast-check, fixed seed) returns or throws an NpovError.
 */
import { createRng, NpovError, openKnowledgeBase, sampleInput, sampleInputs } from "@npov/core";
import * as synth from "@npov/synth";
import { describe, expect, it } from "vitest";
import { attack, type Target } from "../../core/test/hostile.js";

const kb = openKnowledgeBase("fixtures");
const topic = kb.get("zoos");
const input = sampleInput(topic, { seed: 1, perSide: 2 });
const written = synth.writeReferenceResponse(input, { seed: 1 });
const example = { input, response: written.response, argumentSpans: written.argumentSpans, meta: {} };

const codeOf = (f: () => unknown): string | undefined => {
  try {
    f();
    return undefined;
  } catch (e) {
    return e instanceof NpovError ? e.code : `not an NpovError: ${String(e)}`;
  }
};

describe("dataset sizes", () => {
  it("refuses a billion inputs per topic, and more inputs in all than the limit, before any work", () => {
    expect(codeOf(() => synth.buildDataset(kb, { split: "test", perTopic: 1_000_000_000 }))).toBe("INPUT_TOO_LARGE");
    expect(codeOf(() => synth.buildChatbotDataset(kb.topics, { perTopic: 1_000_000_000 }))).toBe("INPUT_TOO_LARGE");
    expect(codeOf(() => synth.buildShapeDataset(kb.topics, { perTopic: 1_000_000_000 }))).toBe("INPUT_TOO_LARGE");
    // 1,000 per topic is allowed, but 12 topics x 1,000 x 2 > 20,000 inputs is not.
    const twice = new Array(2).fill(kb.topics).flat();
    expect(codeOf(() => synth.buildChatbotDataset(twice, { perTopic: 1_000 }))).toBe("INVALID_VALUE"); // duplicate ids
    expect(synth.MAX_DATASET_INPUTS).toBeLessThan(synth.MAX_PER_TOPIC * 21);
  });

  it("gives what a topic has when asked for more: every distinct input once, the first ones as before", () => {
    const all = sampleInputs(topic, { count: synth.MAX_PER_TOPIC, seed: 3 });
    // zoos: 3 pro and 3 con arguments, 1-3 per side: (3 + 3 + 1) x (3 + 3 + 1) = 49 combinations.
    expect(all.length).toBe(49);
    expect(new Set(all.map((i) => JSON.stringify(i))).size).toBe(49);
    expect(sampleInputs(topic, { count: 10, seed: 3 })).toEqual(all.slice(0, 10));
  });

  it("refuses bad options with typed errors naming them", () => {
    expect(codeOf(() => synth.buildDataset(kb, { split: "nope" as never }))).toBe("UNKNOWN_SPLIT");
    expect(codeOf(() => synth.buildDataset(kb, { split: "test", perTopic: -1 }))).toBe("INVALID_VALUE");
    expect(codeOf(() => synth.buildDataset(kb, { split: "test", styles: [] }))).toBe("INVALID_VALUE");
    expect(codeOf(() => synth.buildDataset({} as never, { split: "test" }))).toBe("INVALID_VALUE");
  });
});

describe("@npov/synth public functions under hostile arguments", () => {
  it("never throw anything but an NpovError, never return NaN", async () => {
    const rng = () => createRng(4);
    const targets: Target[] = [
      {
        name: "writeReferenceResponse",
        call: (i, o) => synth.writeReferenceResponse(i as never, o as never),
        valid: [input, { seed: 2, style: "free" }],
      },
      { name: "planResponse", call: (i, o) => synth.planResponse(i as never, o as never), valid: [input, { seed: 2 }] },
      {
        name: "renderPlan",
        call: (i, p, s) => synth.renderPlan(i as never, p as never, s as never),
        valid: [input, written.plan, "close"],
      },
      {
        name: "addSyntheticError",
        call: (e, t, k) => synth.addSyntheticError(e as never, t as never, k as never, rng()),
        valid: [example, topic, "both"],
      },
      {
        name: "addAmbiguousError",
        call: (e, w, k) => synth.addAmbiguousError(e as never, w as never, k as never, rng()),
        valid: [example, written, "repetition"],
      },
      { name: "unusedArguments", call: (i, t) => synth.unusedArguments(i as never, t as never), valid: [input, topic] },
      { name: "paraphraseInput", call: (i, r) => synth.paraphraseInput(i as never, r as never), valid: [input, rng()] },
      {
        name: "writeChatbotResponse",
        call: (i, o) => synth.writeChatbotResponse(i as never, o as never),
        valid: [input, { seed: 1, synonymRate: 0.2 }],
      },
      {
        name: "chatbotExample",
        call: (i, t, k, o) => synth.chatbotExample(i as never, t as never, k as never, o as never),
        valid: [input, topic, "both", { seed: 3 }],
      },
      {
        name: "buildChatbotDataset",
        call: (t, o) => synth.buildChatbotDataset(t as never, o as never),
        valid: [[topic], { perTopic: 1, kinds: ["clean"] }],
        runs: 30,
      },
      {
        name: "buildDataset",
        call: (o) => synth.buildDataset(kb, o as never),
        valid: [{ split: "test", perTopic: 1, slices: ["unparaphrased-synthetic"] }],
        runs: 30,
      },
      {
        name: "buildShapeDataset",
        call: (t, o) => synth.buildShapeDataset(t as never, o as never),
        valid: [[topic, kb.get("remote-work")], { perTopic: 1, shapes: ["qa", "npov-claim-last"] }],
        runs: 30,
      },
      {
        name: "summarizeDataset",
        call: (e) => synth.summarizeDataset(e as never),
        valid: [[{ ...example, slice: "s", labels: { hallucination: true } }]],
      },
    ];
    await attack(targets);
  }, 120_000);
});
