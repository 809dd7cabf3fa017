import {
  claimToQuestion,
  createRng,
  importPerspectrum,
  KnowledgeBase,
  openKnowledgeBase,
  parseKnowledgeBase,
  sampleInput,
  sampleInputs,
} from "@npov/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

describe("Perspectrum import (read at run time from ../shared)", () => {
  const kb = importPerspectrum();

  it("yields 860 topics with Perspectrum's split 513/129/218", () => {
    expect(kb.topics.length).toBe(860);
    expect(kb.splitCounts()).toEqual({ train: 513, dev: 129, test: 218 });
  });

  it("maps SUPPORT to pro and UNDERMINE to con, cluster members to paraphrases", () => {
    const vaccination = kb.get("perspectrum-499");
    expect(vaccination.query).toBe("Should vaccination be made compulsory?");
    expect(vaccination.perspectives.map((p) => [p.label, p.arguments.length])).toEqual([
      ["pro", 3],
      ["con", 3],
    ]);
    const first = vaccination.perspectives[0]!.arguments[0]!;
    expect(first.id).toBe("p3695");
    expect(first.paraphrases).toHaveLength(2);
    expect(vaccination.meta?.license).toBe("CC BY-SA 4.0");
  });

  it("keeps one-sided claims as topics that cannot be sampled", () => {
    const oneSided = kb.topics.filter((t) => t.perspectives.length < 2);
    expect(oneSided.length).toBe(218);
  });
});

describe("claimToQuestion", () => {
  it.each([
    ["Vaccination must be made compulsory", "Should vaccination be made compulsory?"],
    ["punishment should fit the criminal", "Should punishment fit the criminal?"],
    ["Male infant circumcision is tantamount to child abuse", "Is male infant circumcision tantamount to child abuse?"],
    ["We Should Question Authorities", "Should we question authorities?"],
    ["Make all museums free of charge", "Should we make all museums free of charge?"],
    ["The integration of Africa can succeed.", "Can the integration of Africa succeed?"],
    ["Socialism has failed", "Is it true that socialism has failed?"],
  ])("%s", (claim, question) => {
    expect(claimToQuestion(claim)).toBe(question);
  });

  it("keeps names that the corpus never writes in lowercase", () => {
    expect(claimToQuestion("China should be allowed more control", new Set(["should", "more"]))).toBe(
      "Should China be allowed more control?",
    );
  });
});

describe("sampleInput", () => {
  const kb = openKnowledgeBase("fixtures");

  it("is deterministic per seed and respects 1-3 arguments per side", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 }), fc.integer({ min: 0, max: 11 }), (seed, k) => {
        const topic = kb.topics[k]!;
        const a = sampleInput(topic, { seed });
        expect(sampleInput(topic, { seed })).toEqual(a);
        expect(a.query).toBe(topic.query);
        a.perspectives.forEach((p, j) => {
          expect(p.arguments.length).toBeGreaterThanOrEqual(1);
          expect(p.arguments.length).toBeLessThanOrEqual(3);
          const ids = topic.perspectives[j]!.arguments.map((x) => x.id);
          const chosen = p.arguments.map((x) => ids.indexOf(x.id));
          expect(chosen.every((i) => i >= 0)).toBe(true);
          expect([...chosen].sort((x, y) => x - y)).toEqual(chosen);
          expect(new Set(chosen).size).toBe(chosen.length);
        });
      }),
      { numRuns: 200 },
    );
  });

  it("draws every count 1, 2 and 3 across seeds, and fixed counts exactly", () => {
    const topic = kb.topics[0]!;
    const counts = new Set<number>();
    for (let seed = 0; seed < 50; seed++) counts.add(sampleInput(topic, { seed }).perspectives[0]!.arguments.length);
    expect([...counts].sort()).toEqual([1, 2, 3]);
    expect(sampleInput(topic, { seed: 3, perSide: 2 }).perspectives.map((p) => p.arguments.length)).toEqual([2, 2]);
  });

  it("sampleInputs returns distinct combinations and stops when there are no more", () => {
    const topic = kb.topics[0]!;
    const many = sampleInputs(topic, { count: 18, seed: 1 });
    expect(many.length).toBe(18);
    const keys = many.map((i) => JSON.stringify(i.perspectives.map((p) => p.arguments.map((a) => a.id))));
    expect(new Set(keys).size).toBe(18);
    // 3 + 3 + 1 subsets of a 3-argument side: with perSide 1 only 4 x 3 = 12 combinations exist.
    expect(sampleInputs(topic, { count: 50, seed: 1, perSide: 1 }).length).toBe(
      topic.perspectives[0]!.arguments.length * topic.perspectives[1]!.arguments.length,
    );
  });
});

describe("createRng", () => {
  it("is reproducible and uniform enough", () => {
    const a = createRng(7);
    const b = createRng(7);
    const xs = Array.from({ length: 1000 }, () => a.next());
    expect(Array.from({ length: 1000 }, () => b.next())).toEqual(xs);
    const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
    expect(Math.abs(mean - 0.5)).toBeLessThan(0.05);
    expect(createRng("x").next()).not.toBe(createRng("y").next());
  });
});

describe("argument ids", () => {
  const topic = {
    id: "t",
    title: "Sugar taxes",
    query: "Should sugar be taxed?",
    split: "test",
    perspectives: [
      {
        label: "pro",
        arguments: [{ id: "t/pro/1", text: "Sugar taxes cut obesity rates." }, { text: "Revenue funds school meals." }],
      },
      { label: "con", arguments: [{ text: "Taxes on food hit the poor hardest." }] },
    ],
  };

  it("refuses two arguments with one id (an explicit id equal to another's default), naming both", () => {
    expect(() => parseKnowledgeBase(JSON.stringify(topic), "kb.jsonl")).toThrow(
      expect.objectContaining({
        code: "INVALID_FILE",
        message: expect.stringContaining(
          'perspectives[0].arguments[1].id: duplicate argument id "t/pro/1" (also perspectives[0].arguments[0].id)',
        ),
      }),
    );
    expect(() => new KnowledgeBase([topic as never])).toThrow(
      expect.objectContaining({ code: "INVALID_VALUE", path: "topics[0].perspectives[0].arguments[1].id" }),
    );
  });

  it("gives an in-memory knowledge base the default ids a file gets", () => {
    const plain = {
      ...topic,
      perspectives: topic.perspectives.map((p) => ({ ...p, arguments: p.arguments.map((a) => ({ text: a.text })) })),
    };
    const fromMemory = new KnowledgeBase([plain as never]);
    const fromFile = parseKnowledgeBase(JSON.stringify(plain), "kb.jsonl");
    expect(fromMemory.topics).toEqual(fromFile);
    expect(fromMemory.get("t").perspectives[0]?.arguments.map((a) => a.id)).toEqual(["t/pro/0", "t/pro/1"]);
    // The caller's objects are not changed.
    expect(plain.perspectives[0]?.arguments[0]).toEqual({ text: "Sugar taxes cut obesity rates." });
  });
});
