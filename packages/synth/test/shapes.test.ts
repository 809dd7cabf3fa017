import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type CheckInput,
  isSourcesInput,
  type NpovExample,
  type NpovInput,
  openKnowledgeBase,
  sourceUnits,
  type Topic,
  validateCheckInput,
  validateExample,
  writeExamples,
} from "@npov/core";
import { rougeN } from "@npov/rouge";
import { buildShapeDataset, SHAPES, type Shape, type ShapeProvenance, writeChatbotResponse } from "@npov/synth";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const kb = openKnowledgeBase("perspectrum");
const train = kb.split("train");
const topics = train.slice(0, 150);
const byId = new Map(kb.topics.map((t) => [t.id, t]));
const dataset = buildShapeDataset(topics, { seed: 11 });

interface Invented {
  text: string;
  argumentId?: string;
  perspective?: string;
  personal?: boolean;
}

const meta = (e: NpovExample<CheckInput>) =>
  e.meta as { shape: Shape; kind: string; position: string; provenance?: ShapeProvenance[]; invented?: Invented };

function sourceText(input: CheckInput): string {
  return isSourcesInput(input)
    ? input.sources.map((s) => s.text).join("\n")
    : input.perspectives.flatMap((p) => p.arguments.map((a) => a.text)).join("\n");
}

/** Everything an example of the shape dataset promises, checked against its topic. */
function checkExample(e: NpovExample<CheckInput>): void {
  expect(() => validateExample(e)).not.toThrow();
  expect(() => validateCheckInput(e.input)).not.toThrow();
  const m = meta(e);
  expect(SHAPES).toContain(m.shape);
  expect(e.slice).toBe(m.shape);
  expect(e.id).toBe(`${e.topicId}#0/${m.shape}/${m.kind}`);
  const topic = byId.get(e.topicId as string) as Topic;
  expect(e.split).toBe(topic.split);
  expect(e.labels?.ambiguous).toBe(false);
  expect(e.response).not.toMatch(/\s{2}/u);
  const spans = e.wordLabels?.hallucinatedSpans ?? [];
  const npov = m.shape.startsWith("npov-");
  expect(isSourcesInput(e.input)).toBe(!npov);
  if (npov || m.shape.startsWith("summary-")) expect(e.labels?.coverage).toBe(false);
  else expect(e.labels?.coverage).toBeUndefined();
  if (e.labels?.hallucination) {
    // Exactly one invented span, equal to the invented text, standing where meta.position says.
    expect(spans).toHaveLength(1);
    const [span] = spans as [{ start: number; end: number }];
    expect(span.start).toBeGreaterThanOrEqual(0);
    expect(span.end).toBeLessThanOrEqual(e.response.length);
    const invented = m.invented as Invented;
    expect(e.response.slice(span.start, span.end)).toBe(invented.text);
    expect(["first", "middle", "last", "only"]).toContain(m.position);
    const where = /claim-(first|middle|last)$/u.exec(m.shape)?.[1];
    if (where !== undefined) expect(m.position).toBe(where);
    if (invented.personal) {
      expect(m.shape).toBe("dialogue");
      expect(invented.text).toMatch(/^(I|My|A friend|When I)\b/u);
    } else {
      // An argument of the same topic, neither given nor in any source.
      const argument = topic.perspectives.flatMap((p) => p.arguments).find((a) => a.id === invented.argumentId);
      expect(argument).toBeDefined();
      if (isSourcesInput(e.input)) {
        const text = sourceText(e.input).toLowerCase();
        for (const w of [argument?.text ?? "", ...(argument?.paraphrases ?? [])])
          expect(text).not.toContain(w.toLowerCase().replace(/[\s.!?]+$/u, ""));
      } else {
        const given = e.input.perspectives.flatMap((p) => p.arguments.map((a) => a.id));
        expect(given).not.toContain(invented.argumentId);
      }
    }
  } else {
    expect(spans).toHaveLength(0);
    expect(m.position).toBe("none");
    expect(m.invented).toBeUndefined();
    if (isSourcesInput(e.input) && m.kind === "clean") {
      // Every restated piece points at source sentences of this example.
      const provenance = m.provenance as ShapeProvenance[];
      expect(provenance.length).toBeGreaterThan(0);
      for (const p of provenance) {
        expect(e.response.slice(p.start, p.end).trim().length).toBeGreaterThan(0);
        for (const s of p.sources) {
          const source = e.input.sources[s.source]?.text ?? "";
          expect(s.end).toBeLessThanOrEqual(source.length);
          expect(source.slice(s.start, s.end)).toMatch(/^\S.*\.$/u);
        }
      }
    }
    if (!isSourcesInput(e.input)) {
      // The clean NPOV answer states every given argument.
      const stated = new Set(e.argumentSpans?.map((s) => s.argumentId));
      for (const p of e.input.perspectives) for (const a of p.arguments) expect(stated.has(a.id)).toBe(true);
    }
  }
  if (isSourcesInput(e.input)) {
    const units = sourceUnits(e.input).flat().length;
    const n = e.input.sources.length;
    if (m.shape === "long-source") {
      expect(units).toBeLessThanOrEqual(80);
      expect(n).toBeGreaterThanOrEqual(2);
      expect(n).toBeLessThanOrEqual(4);
    } else if (m.shape === "dialogue") {
      expect(n).toBe(1);
      expect(units).toBeLessThanOrEqual(3);
    } else if (m.shape === "one-sentence" || m.shape === "qa") {
      expect(n).toBe(1);
      expect(e.input.query).toBe(topic.query);
      expect(e.input.sources[0]?.title).toBe(topic.title);
    } else expect(n).toBeLessThanOrEqual(2);
  }
}

describe("buildShapeDataset", () => {
  it("makes every shape, each with clean and hallucinated examples", () => {
    for (const shape of SHAPES) {
      const of = dataset.filter((e) => e.slice === shape);
      expect(of.filter((e) => e.labels?.hallucination === false).length, shape).toBeGreaterThan(20);
      expect(of.filter((e) => e.labels?.hallucination === true).length, shape).toBeGreaterThan(20);
    }
    const kinds = new Set(dataset.map((e) => `${meta(e).shape}/${meta(e).kind}`));
    for (const k of ["qa/restates-query", "qa/invented-clause", "qa/invented-only", "dialogue/personal-experience"])
      expect(kinds).toContain(k);
    for (const shape of ["npov-plain", "long-source", "dialogue"])
      for (const position of ["first", "middle", "last"])
        expect(
          dataset.some((e) => e.slice === shape && meta(e).position === position),
          `${shape} ${position}`,
        ).toBe(true);
    expect(dataset.some((e) => e.slice === "one-sentence" && meta(e).position === "only")).toBe(true);
  });

  it("keeps every promise of labels, spans, provenance and sources", () => {
    for (const e of dataset) checkExample(e);
  });

  it("pairs first/middle/last twins: the hallucinated response is the clean one with one sentence added", () => {
    for (const e of dataset.filter(
      (x) => /claim-(first|middle|last)$/u.test(x.slice ?? "") && x.labels?.hallucination,
    )) {
      const clean = dataset.find((x) => x.id === e.id?.replace(/invented-claim$/u, "clean")) as NpovExample<CheckInput>;
      const [span] = (e.wordLabels?.hallucinatedSpans ?? []) as [{ start: number; end: number }];
      // Some cut point i of the clean response where one inserted stretch holding the invented span (with at
      // most its lead-in, a space and a period) turns it into the hallucinated one.
      const added = e.response.length - clean.response.length;
      expect(added - (span.end - span.start)).toBeGreaterThan(0);
      expect(added - (span.end - span.start)).toBeLessThan(40);
      let found = false;
      for (let i = Math.max(0, span.end - added); i <= span.start && !found; i++)
        found =
          e.response.slice(0, i) === clean.response.slice(0, i) &&
          e.response.slice(i + added) === clean.response.slice(i);
      expect(found).toBe(true);
      expect(e.input).toEqual(clean.input);
    }
  });

  it("pairs the three claim positions: same input, answer and invented argument, only its place differs", () => {
    const byTopic = new Map<string, NpovExample<CheckInput>[]>();
    for (const e of dataset.filter(
      (x) => /npov-claim-(first|middle|last)$/u.test(x.slice ?? "") && x.labels?.hallucination,
    ))
      byTopic.set(`${e.id?.split("/")[0]}`, [...(byTopic.get(`${e.id?.split("/")[0]}`) ?? []), e]);
    let paired = 0;
    for (const group of byTopic.values()) {
      if (group.length < 3) continue;
      paired++;
      const invented = new Set(
        group.map((e) => String((e.meta?.invented as { text?: string } | undefined)?.text).toLowerCase()),
      );
      expect(invented.size).toBe(1);
      const cleans = group.map(
        (e) => dataset.find((x) => x.id === e.id?.replace(/invented-claim$/u, "clean"))?.response,
      );
      expect(new Set(cleans).size).toBe(1);
      expect(new Set(group.map((e) => e.meta?.position))).toEqual(new Set(["first", "middle", "last"]));
    }
    expect(paired).toBeGreaterThan(0);
  });

  it("clean responses' words come from the sources more than hallucinated ones', on every shape", () => {
    for (const shape of SHAPES) {
      const mean = (hallucination: boolean) => {
        const of = dataset.filter((e) => e.slice === shape && e.labels?.hallucination === hallucination);
        return of.reduce((s, e) => s + rougeN(e.response, sourceText(e.input)).precision, 0) / of.length;
      };
      expect(mean(false), shape).toBeGreaterThan(mean(true));
    }
  });

  it("is deterministic: same seed, byte-identical JSONL; another seed, other data", () => {
    const dir = mkdtempSync(join(tmpdir(), "npov-shapes-"));
    const few = train.slice(0, 40);
    const files = [11, 11, 12].map((seed, i) => {
      const file = join(dir, `${i}.jsonl`);
      writeExamples(file, buildShapeDataset(few, { seed }));
      return readFileSync(file, "utf8");
    });
    expect(files[1]).toBe(files[0]);
    expect(files[2]).not.toBe(files[0]);
  });

  it("gives each topic the same examples whatever other topics are built (long sources excepted)", () => {
    const few = train.slice(0, 30);
    const shapes = SHAPES.filter((s) => s !== "long-source");
    const all = buildShapeDataset(few, { seed: 5, shapes });
    const part = buildShapeDataset(few.slice(10, 20), { seed: 5, shapes });
    const ids = new Set(few.slice(10, 20).map((t) => t.id));
    expect(part).toEqual(all.filter((e) => ids.has(e.topicId as string)));
  });

  it("holds its promises for any seed (fast-check)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000 }), fc.integer({ min: 0, max: train.length - 8 }), (seed, at) => {
        const examples = buildShapeDataset(train.slice(at, at + 8), { seed });
        for (const e of examples) checkExample(e);
      }),
      { seed: 29, numRuns: 12 },
    );
  });

  it("names slices with the prefix and makes perTopic inputs per topic and shape", () => {
    const few = train.slice(0, 12);
    const two = buildShapeDataset(few, {
      seed: 1,
      perTopic: 2,
      shapes: ["qa", "npov-plain"],
      slicePrefix: "synthetic-",
    });
    expect(new Set(two.map((e) => e.slice))).toEqual(new Set(["synthetic-qa", "synthetic-npov-plain"]));
    expect(two.some((e) => e.id?.includes("#1/"))).toBe(true);
    expect(new Set(two.map((e) => e.id)).size).toBe(two.length);
    const one = buildShapeDataset(few, { seed: 1, perTopic: 1, shapes: ["qa", "npov-plain"] });
    expect(two.length).toBeGreaterThan(one.length);
  });

  it("keeps names capitalized where a clause is lower-cased after a lead-in", () => {
    const arg = (id: string, text: string) => ({ id, text });
    const topic: Topic = {
      id: "europe-army",
      title: "The EU should have its own army",
      query: "Should the EU have its own army?",
      split: "train",
      perspectives: [
        {
          label: "pro",
          arguments: [
            arg("a1", "Europe cannot rely on America for its defence forever."),
            arg("a2", "A shared army would let Europe act quickly in a crisis."),
            arg("a3", "Pooling equipment purchases would save European taxpayers money."),
            arg("a4", "NATO commitments would be easier to meet with one army."),
          ],
        },
        {
          label: "con",
          arguments: [
            arg("c1", "America would see a European army as a rival to NATO."),
            arg("c2", "Member states would lose control over their own soldiers."),
            arg("c3", "Europe has no single foreign policy for an army to serve."),
            arg("c4", "Defence is a matter for national parliaments, not Brussels."),
          ],
        },
      ],
    };
    const examples = buildShapeDataset([topic], { seed: 3, perTopic: 6 });
    expect(examples.length).toBeGreaterThan(60);
    for (const e of examples) expect(e.response).not.toMatch(/\b(europe|america|nato|brussels)\b/u);
  });

  it("refuses bad options and topics too small for any shape, with typed errors", () => {
    const few = train.slice(0, 3);
    expect(() => buildShapeDataset(few, { shapes: ["essay" as Shape] })).toThrow(
      expect.objectContaining({ code: "INVALID_VALUE", message: expect.stringContaining("long-source") }),
    );
    expect(() => buildShapeDataset(few, { shapes: [] })).toThrow(expect.objectContaining({ code: "INVALID_VALUE" }));
    expect(() => buildShapeDataset(few, { perTopic: 0 })).toThrow(expect.objectContaining({ code: "INVALID_VALUE" }));
    expect(() => buildShapeDataset(few, { slicePrefix: 3 as unknown as string })).toThrow(
      expect.objectContaining({ code: "INVALID_VALUE" }),
    );
    expect(() => buildShapeDataset(few, { seed: Number.NaN })).toThrow(
      expect.objectContaining({ code: "INVALID_VALUE" }),
    );
    expect(() => buildShapeDataset(train, { perTopic: 1000 })).toThrow(
      expect.objectContaining({ code: "INPUT_TOO_LARGE" }),
    );
    const tiny: Topic = {
      id: "tiny",
      title: "Tiny",
      query: "Is it tiny?",
      split: "test",
      perspectives: [
        // Two arguments, both given to an NPOV input (none to spare), neither a sentence a source could hold.
        { label: "pro", arguments: [{ text: "Very small." }] },
        { label: "con", arguments: [{ text: "Not small." }] },
      ],
    };
    expect(() => buildShapeDataset([tiny])).toThrow(expect.objectContaining({ code: "INSUFFICIENT_ARGUMENTS" }));
  });
});

describe("chatbot-style sentences", () => {
  it("tile the response in order, with their roles", () => {
    const t = train.find((x) => x.perspectives.filter((p) => p.arguments.length >= 2).length >= 2) as Topic;
    const input: NpovInput = {
      topic: t.title,
      query: t.query,
      perspectives: t.perspectives.map((p) => ({ label: p.label, arguments: p.arguments.slice(0, 2) })),
    };
    for (let seed = 0; seed < 20; seed++) {
      const r = writeChatbotResponse(input, { seed });
      expect(r.sentences.map((s) => r.response.slice(s.start, s.end)).join(" ")).toBe(r.response);
      expect(r.sentences[0]?.role).toBe("opening");
      expect(r.sentences.some((s) => s.role === "argument")).toBe(true);
      for (const a of r.argumentSpans)
        expect(r.sentences.some((s) => s.role === "argument" && s.start <= a.start && a.end <= s.end)).toBe(true);
    }
  });
});
