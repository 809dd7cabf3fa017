import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  createRng,
  importPerspectrum,
  KnowledgeBase,
  type NpovExample,
  type NpovInput,
  openKnowledgeBase,
  readExamples,
  sampleInput,
  type Topic,
  writeExamples,
} from "@npov/core";
import { rougeDetector } from "@npov/rouge";
import {
  AMBIGUOUS_KINDS,
  addAmbiguousError,
  addSyntheticError,
  buildDataset,
  MEANING_SWAPS,
  NoUsableTopicsError,
  paraphraseInput,
  summarizeDataset,
  writeChatbotResponse,
  writeReferenceResponse,
} from "@npov/synth";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const kb = openKnowledgeBase("fixtures");
const ids = (input: NpovInput) => input.perspectives.map((p) => p.arguments.map((a) => a.id as string));
const flat = (input: NpovInput) => ids(input).flat();

function errorFree(topic: Topic, seed: number, style: "close" | "free" = "close") {
  const input = sampleInput(topic, { seed });
  const written = writeReferenceResponse(input, { seed, style });
  const example: NpovExample = { input, response: written.response, argumentSpans: written.argumentSpans };
  return { input, written, example };
}

const seeds = fc.record({
  seed: fc.integer({ min: 0, max: 1e9 }),
  topic: fc.integer({ min: 0, max: kb.topics.length - 1 }),
});

describe("writeReferenceResponse", () => {
  it("states every argument once, in a recorded span, after an opening", () => {
    fc.assert(
      fc.property(seeds, ({ seed, topic }) => {
        const { input, written } = errorFree(kb.topics[topic]!, seed);
        expect(written.response).toBe(`${written.opening} ${written.core}`);
        expect(written.argumentSpans.map((s) => s.argumentId)).toEqual(flat(input));
        for (const span of written.argumentSpans) {
          const stated = written.response.slice(span.start, span.end);
          const original = span.argumentText.replace(/[.!?]+$/, "");
          expect(stated.toLowerCase()).toBe(original.toLowerCase());
          expect(span.start).toBeGreaterThan(written.opening.length);
        }
        expect(writeReferenceResponse(input, { seed, style: "close" }).response).toBe(written.response);
      }),
      { numRuns: 100 },
    );
  });

  it("passes the ROUGE detector as error-free on its own inputs", () => {
    fc.assert(
      fc.property(seeds, fc.constantFrom("close" as const, "free" as const), ({ seed, topic }, style) => {
        const { input, written } = errorFree(kb.topics[topic]!, seed, style);
        const r = rougeDetector(input, written.response);
        const recalls = r.perspectives.flatMap((p) => p.arguments.map((a) => a.recall));
        if (style === "close") {
          // Nothing dropped, and each argument span on its own is fully supported by the arguments: the
          // only unsupported words are the opening's and the connectors'.
          expect(r.coverage).toBe(0);
          for (const span of written.argumentSpans)
            expect(rougeDetector(input, written.response.slice(span.start, span.end)).hallucination).toBe(0);
        } else {
          expect(Math.min(...recalls)).toBeGreaterThanOrEqual(2 / 3);
        }
      }),
      { numRuns: 150 },
    );
  });

  it("free style rewords lightly and deterministically", () => {
    const input = sampleInput(kb.get("nuclear-power"), { seed: 5 });
    const texts = new Set(
      Array.from({ length: 20 }, (_, s) => writeReferenceResponse(input, { seed: s, style: "free" }).response),
    );
    expect(texts.size).toBeGreaterThan(5);
  });
});

describe("synthetic errors (SPEC section 3)", () => {
  it("coverage error = original arguments + exactly one unused argument of the same topic", () => {
    fc.assert(
      fc.property(seeds, ({ seed, topic }) => {
        const t = kb.topics[topic]!;
        const { example, input } = errorFree(t, seed);
        const e = addSyntheticError(example, t, "coverage", createRng(seed));
        if (e === undefined) return;
        expect(e.response).toBe(example.response);
        const before = flat(input);
        const after = flat(e.input);
        expect(after.length).toBe(before.length + 1);
        const added = after.filter((id) => !before.includes(id));
        expect(added).toHaveLength(1);
        const topicIds = t.perspectives.flatMap((p) => p.arguments.map((a) => a.id));
        expect(topicIds).toContain(added[0]);
        // Original arguments keep their relative order.
        expect(after.filter((id) => id !== added[0])).toEqual(before);
        const [k, j] = e.wordLabels!.uncoveredArguments![0]!;
        expect(e.input.perspectives[k]!.arguments[j]!.id).toBe(added[0]);
        expect(e.labels).toEqual({ hallucination: false, coverage: true, ambiguous: false });
      }),
      { numRuns: 200 },
    );
  });

  it("hallucination = original arguments minus exactly one, whose span is the hallucinated text", () => {
    fc.assert(
      fc.property(seeds, ({ seed, topic }) => {
        const t = kb.topics[topic]!;
        const { example, input, written } = errorFree(t, seed);
        const e = addSyntheticError(example, t, "hallucination", createRng(seed));
        const multi = input.perspectives.some((p) => p.arguments.length >= 2);
        expect(e === undefined).toBe(!multi);
        if (e === undefined) return;
        expect(e.response).toBe(example.response);
        const before = flat(input);
        const after = flat(e.input);
        const removed = before.filter((id) => !after.includes(id));
        expect(removed).toHaveLength(1);
        expect(after).toEqual(before.filter((id) => id !== removed[0]));
        const span = written.argumentSpans.find((s) => s.argumentId === removed[0])!;
        expect(e.wordLabels!.hallucinatedSpans).toEqual([{ start: span.start, end: span.end }]);
        for (const p of e.input.perspectives) expect(p.arguments.length).toBeGreaterThanOrEqual(1);
      }),
      { numRuns: 200 },
    );
  });

  it("both = one removed and one previously unused added", () => {
    fc.assert(
      fc.property(seeds, ({ seed, topic }) => {
        const t = kb.topics[topic]!;
        const { example, input } = errorFree(t, seed);
        const e = addSyntheticError(example, t, "both", createRng(seed));
        if (e === undefined) return;
        const before = flat(input);
        const after = flat(e.input);
        expect(after.length).toBe(before.length);
        expect(after.filter((id) => !before.includes(id))).toHaveLength(1);
        expect(before.filter((id) => !after.includes(id))).toHaveLength(1);
        expect(e.response).toBe(example.response);
        expect(e.labels).toMatchObject({ hallucination: true, coverage: true });
      }),
      { numRuns: 200 },
    );
  });

  it("paraphrased inputs use the knowledge base's paraphrases and keep ids", () => {
    const t = kb.topics[2]!;
    const input = sampleInput(t, { seed: 9 });
    const p = paraphraseInput(input, createRng(1))!;
    expect(ids(p)).toEqual(ids(input));
    p.perspectives.forEach((persp, k) => {
      persp.arguments.forEach((a, j) => {
        expect(input.perspectives[k]!.arguments[j]!.paraphrases).toContain(a.text);
      });
    });
  });
});

describe("ambiguous errors", () => {
  it("each kind changes the response locally and labels it", () => {
    fc.assert(
      fc.property(seeds, ({ seed, topic }) => {
        const { example, written } = errorFree(kb.topics[topic]!, seed);
        for (const kind of AMBIGUOUS_KINDS) {
          const e = addAmbiguousError(example, written, kind, createRng(seed));
          if (e === undefined) continue;
          expect(e.input).toEqual(example.input);
          expect(e.response).not.toBe(example.response);
          expect(e.labels?.ambiguous).toBe(true);
          expect(e.ambiguousKind).toBe(kind);
          expect(e.response.startsWith(written.opening)).toBe(true);
          for (const s of e.wordLabels?.hallucinatedSpans ?? []) {
            expect(s.start).toBeGreaterThanOrEqual(0);
            expect(s.end).toBeLessThanOrEqual(e.response.length);
          }
          if (kind === "partial-hallucination") {
            const [s] = e.wordLabels!.hallucinatedSpans!;
            expect(Object.values(MEANING_SWAPS)).toContain(e.response.slice(s!.start, s!.end).toLowerCase());
            // Only the swapped word differs.
            const tail = e.response.length - s!.end;
            expect(e.response.slice(0, s!.start)).toBe(example.response.slice(0, s!.start));
            expect(e.response.slice(s!.end)).toBe(example.response.slice(example.response.length - tail));
          }
          if (kind === "repetition") {
            const [s] = e.wordLabels!.hallucinatedSpans!;
            const copy = e.response.slice(s!.start, s!.end);
            expect(e.response.indexOf(copy)).toBeLessThan(s!.start);
          }
          if (kind === "partial-coverage") expect(e.response.length).toBeLessThan(example.response.length);
          if (kind === "perspective-confusion") expect(e.labels).toMatchObject({ hallucination: true, coverage: true });
        }
      }),
      { numRuns: 100 },
    );
  });
});

describe("buildDataset", () => {
  it("keeps topics inside their split and counts like Table 7", () => {
    const dev = buildDataset(kb, { split: "dev", seed: 3 });
    const test = buildDataset(kb, { split: "test", seed: 3 });
    const devTopics = new Set(dev.map((e) => e.topicId));
    const testTopics = new Set(test.map((e) => e.topicId));
    expect([...devTopics].filter((t) => testTopics.has(t))).toEqual([]);
    for (const e of test) expect(kb.get(e.topicId!).split).toBe("test");
    const summary = summarizeDataset(test);
    expect(summary.map((r) => r.slice)).toEqual([
      "unparaphrased-synthetic",
      "paraphrased-synthetic",
      "ambiguous-synthetic",
    ]);
    for (const row of summary) {
      expect(row.errorFree + row.hallucinationOnly + row.coverageOnly + row.both).toBe(row.examples);
      expect(row.errorFree).toBe(18); // 3 test topics x 6 inputs
    }
    expect(new Set(test.map((e) => e.id)).size).toBe(test.length);
  });

  it("the same seed gives a byte-identical file; another seed does not", () => {
    const dir = mkdtempSync(join(tmpdir(), "npov-synth-"));
    const files = [1, 1, 2].map((seed, k) => {
      const file = join(dir, `d${k}.jsonl`);
      writeExamples(file, buildDataset(kb, { split: "train", seed }));
      return readFileSync(file, "utf8");
    });
    expect(files[0]).toBe(files[1]);
    expect(files[0]).not.toBe(files[2]);
    expect(readExamples(join(dir, "d0.jsonl")).length).toBe(files[0]!.trim().split("\n").length);
  });

  it("names the topics of a split none of which can give an input (it said '0 perspective(s)')", () => {
    const oneSided = (id: string, split: "train" | "test") => ({
      id,
      title: id,
      query: `${id}?`,
      split,
      perspectives: [{ label: "pro", arguments: [{ text: "It helps." }] }],
    });
    const base = new KnowledgeBase([oneSided("alpha", "test"), oneSided("beta", "test"), oneSided("gamma", "train")]);
    const error = (() => {
      try {
        buildDataset(base, { split: "test" });
      } catch (e) {
        return e as NoUsableTopicsError;
      }
      throw new Error("expected an error");
    })();
    expect(error).toBeInstanceOf(NoUsableTopicsError);
    expect(error.code).toBe("NO_USABLE_TOPICS");
    expect(error.message).toContain('none of the 2 topic(s) of split "test" has two perspectives with arguments');
    expect(error.message).toContain('"alpha" (only "pro" with arguments), "beta" (only "pro" with arguments)');
    expect(() => buildDataset(base, { split: "dev" })).toThrow(
      'the knowledge base has no topics in split "dev" (it has 1 train, 0 dev and 2 test topics)',
    );
  });

  it("builds Perspectrum's test split without crossing splits", () => {
    const perspectrum = importPerspectrum();
    const test = buildDataset(perspectrum, { split: "test", seed: 0, perTopic: 2 });
    expect(test.every((e) => perspectrum.get(e.topicId!).split === "test")).toBe(true);
    const rows = summarizeDataset(test);
    expect(rows.find((r) => r.slice === "unparaphrased-synthetic")!.errorFree).toBeGreaterThan(250);
  });
});

describe("text with replacement patterns and knowledge bases without ids", () => {
  it("states a query and labels holding $&, $$, $' and {label} verbatim (reference and chatbot writers)", () => {
    const input: NpovInput = {
      topic: "Soda taxes of $$2",
      query: "Should a soda cost $$2 more, i.e. $' extra, or {label}?",
      perspectives: [
        { label: "A $& B", arguments: [{ text: "Sugar taxes cut obesity rates." }] },
        { label: "con", arguments: [{ text: "Taxes on food hit the poor hardest." }] },
      ],
    };
    for (let seed = 0; seed < 20; seed++) {
      for (const response of [
        writeReferenceResponse(input, { seed }).response,
        writeChatbotResponse(input, { seed }).response,
      ]) {
        // Nothing expanded or substituted inside the values: "$$" stays two dollars, "{label}" stays literal.
        if (response.includes("cost")) expect(response).toContain("cost $$2 more, i.e. $' extra, or {label}");
        if (response.includes("A $")) expect(response).toContain("A $& B");
      }
    }
  });

  it("paraphrased hallucination examples keep their hallucinated span when the file gives no ids", () => {
    const noIds = new KnowledgeBase(
      kb.topics.map((t) => ({
        ...t,
        perspectives: t.perspectives.map((p) => ({
          ...p,
          arguments: p.arguments.map(({ id: _id, ...a }) => a),
        })),
      })),
    );
    const data = buildDataset(noIds, { split: "test", seed: 0, perTopic: 3 });
    const hallucinated = data.filter((e) => e.labels?.hallucination === true && e.labels.ambiguous !== true);
    const paraphrased = hallucinated.filter((e) => e.slice === "paraphrased-synthetic");
    expect(paraphrased.length).toBeGreaterThan(0);
    for (const e of hallucinated) expect(e.wordLabels?.hallucinatedSpans.length, e.id).toBe(1);
  });
});
