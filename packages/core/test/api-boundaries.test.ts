/**
 * Public functions of @npov/core (text, metrics, logistic models, sampling, seeds, knowledge base, prompts,
 * array helpers) at their boundaries: typed errors for bad arguments, under hostile property tests and for
 * the cases issue 22 found.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as core from "@npov/core";
import { describe, expect, it } from "vitest";
import { attack, type Target } from "./hostile.js";

const kb = core.openKnowledgeBase("fixtures");
const topic = kb.get("zoos");
const input = core.sampleInput(topic, { seed: 1 });
const response = "Zoos protect endangered species. Critics say zoos confine animals.";
const dir = mkdtempSync(join(tmpdir(), "npov-core-api-"));
const model = { features: ["a", "b"], mean: [0, 1], std: [1, 2], weights: [0.5, -1], bias: 0.1 };

const code = (f: () => unknown): string | undefined => {
  try {
    f();
    return undefined;
  } catch (e) {
    return (e as core.NpovError).code ?? `not an NpovError: ${String(e)}`;
  }
};

describe("issue 22 cases", () => {
  it("segmentWords(null) is NOT_TEXT, not the word 'null'", () => {
    expect(code(() => core.segmentWords(null as never))).toBe("NOT_TEXT");
    expect(code(() => core.contentTerms(5 as never))).toBe("NOT_TEXT");
    expect(code(() => core.splitSentences({} as never))).toBe("NOT_TEXT");
    expect(code(() => core.porterStem(undefined as never))).toBe("NOT_TEXT");
  });

  it("truncateText cuts between code points and says so with an ellipsis", () => {
    expect(core.truncateText("abcdef", 4)).toBe("abc…");
    expect(core.truncateText("abc", 3)).toBe("abc");
    // "😀" is two UTF-16 units but one character: never half of it.
    expect(core.truncateText("😀😀😀😀", 3)).toBe("😀😀…");
    expect(core.truncateText("a😀b", 2)).toBe("a…");
    expect(code(() => core.truncateText(5 as never, 3))).toBe("NOT_TEXT");
    expect(code(() => core.truncateText("abc", 0))).toBe("INVALID_VALUE");
  });

  it("minOf and maxOf take 200,000 values, where Math.min(...values) overflowed the stack", () => {
    const values = Array.from({ length: 200_000 }, (_, i) => (i * 7919) % 200_003);
    expect(() => Math.min(...Array.from({ length: 2_000_000 }, () => 1))).toThrow(RangeError);
    expect(core.minOf(values)).toBe(0);
    expect(core.maxOf(values)).toBe(values.reduce((a, b) => Math.max(a, b)));
    expect(core.maxOf([], 0)).toBe(0);
    expect(core.minOf([0.3, -0, 0])).toBe(-0);
    expect(code(() => core.minOf([]))).toBe("INVALID_VALUE");
    expect(code(() => core.minOf([1, Number.NaN]))).toBe("INVALID_VALUE");
    const target = [1];
    expect(core.pushAll(target, values).length).toBe(200_001);
  });

  it("rocAuc refuses NaN scores and non-binary labels", () => {
    expect(code(() => core.rocAuc([0.1, Number.NaN], [true, false]))).toBe("INVALID_VALUE");
    expect(code(() => core.rocAuc([0.1, 0.2], ["yes", "no"] as never))).toBe("INVALID_VALUE");
    expect(core.rocAuc([0.1, 0.9, 0.5], [false, true, 1])).toBe(1);
  });

  it("sigmoid and logistic models refuse NaN and broken models", () => {
    expect(code(() => core.sigmoid(Number.NaN))).toBe("INVALID_VALUE");
    expect(core.sigmoid(Number.POSITIVE_INFINITY)).toBe(1);
    expect(code(() => core.logisticProbability({ ...model, std: [1, 0] }, () => 1))).toBe("INVALID_VALUE");
    expect(code(() => core.logisticProbability(model, () => Number.NaN))).toBe("INVALID_VALUE");
    // 0.1 + 0.5 * (2 - 0) / 1 - 1 * (3 - 1) / 2 = 0.1
    expect(core.logisticProbability(model, (_, i) => [2, 3][i] as number)).toBe(core.sigmoid(0.1));
  });

  it("seeds and generators refuse junk with INVALID_VALUE, not RangeError", () => {
    const rng = core.createRng(1);
    expect(code(() => rng.int(0))).toBe("INVALID_VALUE");
    expect(code(() => rng.pick([]))).toBe("INVALID_VALUE");
    expect(code(() => core.createRng(Number.NaN))).toBe("INVALID_VALUE");
    expect(code(() => core.hashSeed("a", {} as never))).toBe("INVALID_VALUE");
    expect(core.hashSeed("a", 1)).toBe(core.hashSeed("a", 1));
  });

  it("sampleInputs stops once a topic has given every combination, and refuses a billion", () => {
    // zoos has 3 pro and 3 con arguments: (3 + 3 + 1) x (3 + 3 + 1) = 49 distinct inputs, all found.
    const all = core.sampleInputs(topic, { count: 10_000, seed: 0 });
    expect(all.length).toBe(49);
    expect(all.slice(0, 5)).toEqual(core.sampleInputs(topic, { count: 5, seed: 0 }));
    expect(code(() => core.sampleInputs(topic, { count: 1_000_000_000 }))).toBe("INPUT_TOO_LARGE");
  });

  it("knowledge-base functions name the bad field", () => {
    expect(code(() => new core.KnowledgeBase([{ ...topic, split: "nope" } as never]))).toBe("INVALID_VALUE");
    expect(code(() => kb.get(3 as never))).toBe("NOT_TEXT");
    expect(code(() => kb.split(null as never))).toBe("UNKNOWN_SPLIT");
    expect(code(() => core.loadKnowledgeBase({} as never))).toBe("NOT_TEXT");
    const file = join(dir, "kb.jsonl");
    core.writeKnowledgeBase(file, [topic]);
    expect(readFileSync(file, "utf8")).toContain('"id":"zoos"');
    expect(code(() => core.writeKnowledgeBase(join(dir, "bad.jsonl"), [null as never]))).toBe("INVALID_VALUE");
  });
});

describe("issue 33 cases: null is a typed error, not a TypeError", () => {
  it("parseExamplesJsonl, writeExamples and rankUncoveredArguments name the bad argument; nothing is written", () => {
    expect(code(() => core.parseExamplesJsonl(null as never, "d.jsonl"))).toBe("NOT_TEXT");
    expect(code(() => core.parseExamplesJsonl("", null as never))).toBe("NOT_TEXT");
    const file = join(dir, "examples.jsonl");
    expect(code(() => core.writeExamples(file, null as never))).toBe("INVALID_VALUE");
    expect(code(() => core.writeExamples(file, [null] as never))).toBe("INVALID_VALUE");
    expect(() => readFileSync(file)).toThrow(/ENOENT/);
    expect(code(() => core.rankUncoveredArguments(null as never, () => 1))).toBe("INVALID_VALUE");
    expect(code(() => core.rankUncoveredArguments([{ arguments: null }] as never, () => 1))).toBe("INVALID_VALUE");
    expect(code(() => core.rankUncoveredArguments([{ arguments: [{ text: "a" }] }], null as never))).toBe(
      "INVALID_VALUE",
    );
    expect(
      core.rankUncoveredArguments([{ arguments: [{ text: "a" }, { text: "b" }] }], (a) => (a.text === "b" ? 1 : 0)),
    ).toEqual([
      { perspective: 0, argument: 1, text: "b", score: 1 },
      { perspective: 0, argument: 0, text: "a", score: 0 },
    ]);
  });
});

describe("@npov/core public functions under hostile arguments", () => {
  it("never throw anything but an NpovError, never return NaN", async () => {
    const rng = () => core.createRng(7);
    const targets: Target[] = [
      { name: "segmentWords", call: (t) => core.segmentWords(t as string), valid: [response] },
      { name: "porterStem", call: (w) => core.porterStem(w as string), valid: ["running"] },
      {
        name: "contentTerms",
        call: (t, o) => core.contentTerms(t as string, o as never),
        valid: [response, { stopwords: ["zoos"] }],
      },
      { name: "splitSentences", call: (t) => core.splitSentences(t as string), valid: [response] },
      {
        name: "checkBinary",
        call: (s, l) => core.checkBinary(s as never, l as never),
        valid: [
          [0.1, 0.2],
          [true, false],
        ],
      },
      {
        name: "requireBothClasses",
        call: (p, n, m) => core.requireBothClasses(p as number, n as number, m as string),
        valid: [1, 1, "AUC"],
      },
      {
        name: "rocAuc",
        call: (s, l) => core.rocAuc(s as never, l as never),
        valid: [
          [0.1, 0.9, 0.4],
          [false, true, true],
        ],
      },
      { name: "sigmoid", call: (z) => core.sigmoid(z as number), valid: [0.3] },
      { name: "checkLogisticModel", call: (m) => core.checkLogisticModel(m), valid: [model] },
      {
        name: "logisticProbability",
        call: (m, v) => core.logisticProbability(m as never, () => v as number),
        valid: [model, 0.5],
      },
      { name: "hashSeed", call: (a, b) => core.hashSeed(a as string, b as number), valid: ["topic", 3] },
      { name: "createRng", call: (s) => core.createRng(s as number).next(), valid: [5] },
      { name: "Rng.int", call: (n) => rng().int(n as number), valid: [10] },
      { name: "Rng.shuffle", call: (xs) => rng().shuffle(xs as number[]), valid: [[1, 2, 3]] },
      { name: "Rng.sample", call: (xs, k) => rng().sample(xs as number[], k as number), valid: [[1, 2, 3], 2] },
      { name: "Rng.pick", call: (xs) => rng().pick(xs as number[]), valid: [[1, 2, 3]] },
      {
        name: "sampleInput",
        call: (t, o) => core.sampleInput(t as never, o as never),
        valid: [topic, { seed: 2, perSide: 1 }],
      },
      {
        name: "sampleInputWith",
        call: (t, p) => core.sampleInputWith(t as never, rng(), p as never),
        valid: [topic, 2],
      },
      {
        name: "sampleInputs",
        call: (t, o) => core.sampleInputs(t as never, o as never),
        valid: [topic, { count: 3, seed: 1 }],
      },
      {
        name: "parseTopic",
        call: (v, f, l) => core.parseTopic(v, f as string, l as number),
        valid: [topic, "kb.jsonl", 3],
      },
      {
        name: "parseKnowledgeBase",
        call: (t, f) => core.parseKnowledgeBase(t as string, f as string),
        valid: [JSON.stringify(topic), "kb.jsonl"],
      },
      {
        name: "KnowledgeBase",
        call: (ts, id) => new core.KnowledgeBase(ts as never).get(id as string),
        valid: [[topic], "zoos"],
      },
      { name: "KnowledgeBase.split", call: (s) => kb.split(s as never), valid: ["test"] },
      { name: "loadKnowledgeBase", call: (p) => core.loadKnowledgeBase(p as string), valid: ["fixtures/kb"], runs: 30 },
      {
        name: "writeKnowledgeBase",
        call: (ts) => core.writeKnowledgeBase(join(dir, "w.jsonl"), ts as never),
        valid: [[topic]],
      },
      { name: "formatArguments", call: (p) => core.formatArguments(p as never), valid: [input.perspectives[0]] },
      { name: "generatorPrompt", call: (i) => core.generatorPrompt(i as never), valid: [input] },
      { name: "generatorPromptLayout", call: (i) => core.generatorPromptLayout(i as never), valid: [input] },
      {
        name: "generatorTarget",
        call: (a, b) => core.generatorTarget(a as string, b as string),
        valid: ["Opening", "Core"],
      },
      {
        name: "classifierPrompt",
        call: (i, r, t) => core.classifierPrompt(i as never, r as string, t as never),
        valid: [input, response, "coverage"],
      },
      { name: "classifierTarget", call: (h) => core.classifierTarget(h as boolean), valid: [true] },
      {
        name: "parseGeneratorOutput",
        call: (o) => core.parseGeneratorOutput(o as string),
        valid: ["Open} Neutral response core: {Core}"],
      },
      {
        name: "minOf",
        call: (v, e) => core.minOf(v as number[], e as number),
        valid: [[3, 1, 2], 5],
        allowInfinity: true,
      },
      { name: "maxOf", call: (v) => core.maxOf(v as number[]), valid: [[3, 1, 2]], allowInfinity: true },
      { name: "pushAll", call: (t, v) => core.pushAll(t as unknown[], v as unknown[]), valid: [[1], [2, 3]] },
      { name: "requireFiniteNumbers", call: (v) => core.requireFiniteNumbers(v, "x"), valid: [[1, 2]] },
      {
        name: "requireNumber",
        call: (v, r) => core.requireNumber(v, "x", r as never),
        valid: [3, { min: 0, max: 5, integer: true }],
      },
    ];
    await attack(targets);
  }, 120_000);
});
