import { type NpovExample, type NpovInput, openKnowledgeBase } from "@npov/core";
import { firstSenseSynonyms } from "@npov/rouge";
import {
  buildChatbotDataset,
  CHATBOT_KINDS,
  type ChatbotKind,
  chatbotExample,
  writeChatbotResponse,
} from "@npov/synth";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const kb = openKnowledgeBase("fixtures");
const topics = kb.topics.filter((t) => t.perspectives.filter((p) => p.arguments.length >= 2).length >= 2);
const topic = topics[0]!;

/** Given arguments of the input as [k, j] keys. */
const keys = (input: NpovInput) => input.perspectives.flatMap((p, k) => p.arguments.map((_, j) => `${k},${j}`));

/** Which given arguments have a recorded span in the response. */
function stated(e: NpovExample): Set<string> {
  const out = new Set<string>();
  for (const s of e.argumentSpans ?? []) {
    const k = e.input.perspectives.findIndex((p) => p.label === s.perspective);
    const j = e.input.perspectives[k]?.arguments.findIndex((a) => a.id === s.argumentId && a.text === s.argumentText);
    out.add(`${k},${j}`);
  }
  return out;
}

describe("chatbot-style writer", () => {
  it("is deterministic per seed and differs across seeds", () => {
    const input = {
      topic: topic.title,
      query: topic.query,
      perspectives: topic.perspectives.map((p) => ({ label: p.label, arguments: p.arguments.slice(0, 2) })),
    };
    const a = writeChatbotResponse(input, { seed: 7 });
    expect(writeChatbotResponse(input, { seed: 7 })).toEqual(a);
    const others = [1, 2, 3, 4].map((seed) => writeChatbotResponse(input, { seed }).response);
    expect(new Set([a.response, ...others]).size).toBeGreaterThan(1);
  });

  it("rewords with dominant-sense WordNet synonyms only (no rare words)", () => {
    const table = firstSenseSynonyms();
    expect(table.get("big")).toEqual(["large"]);
    expect(table.get("buy")).toEqual(["purchase"]);
    // "mandatary" is a WordNet lemma that is never sense-tagged: never offered as a replacement.
    expect([...table.values()].some((list) => list.includes("mandatary"))).toBe(false);
  });

  it("records spans and labels that agree with the response, for every kind and seed", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000 }),
        fc.constantFrom(...CHATBOT_KINDS),
        fc.integer({ min: 0, max: topics.length - 1 }),
        (seed, kind: ChatbotKind, t) => {
          const tp = topics[t]!;
          const input = {
            topic: tp.title,
            query: tp.query,
            perspectives: tp.perspectives.map((p) => ({ label: p.label, arguments: p.arguments.slice(0, 2) })),
          };
          const e = chatbotExample(input, tp, kind, { seed });
          if (e === undefined) return; // impossible for this input (e.g. no unused argument)
          expect(e.meta?.kind).toBe(kind);
          for (const s of [...(e.argumentSpans ?? []), ...(e.wordLabels?.hallucinatedSpans ?? [])]) {
            expect(s.start).toBeGreaterThanOrEqual(0);
            expect(s.end).toBeLessThanOrEqual(e.response.length);
            expect(e.response.slice(s.start, s.end).trim().length).toBeGreaterThan(0);
          }
          const h = e.wordLabels?.hallucinatedSpans ?? [];
          const u = (e.wordLabels?.uncoveredArguments ?? []).map(([k, j]) => `${k},${j}`);
          expect(e.labels?.hallucination).toBe(h.length > 0);
          expect(e.labels?.coverage).toBe(u.length > 0);
          expect(e.labels?.ambiguous).toBe(!["clean", "hallucination", "coverage", "both"].includes(kind));
          const said = stated(e);
          // Clean and extra-argument responses state every given argument; a dropped one is never stated.
          if (kind === "clean" || kind === "hallucination") expect([...said].sort()).toEqual(keys(e.input).sort());
          if (kind === "coverage" || kind === "both") for (const key of u) expect(said.has(key)).toBe(false);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("builds a dataset whose examples depend only on (seed, topic)", () => {
    const all = buildChatbotDataset(topics.slice(0, 3), { seed: 3, perTopic: 1 });
    const one = buildChatbotDataset(topics.slice(1, 2), { seed: 3, perTopic: 1 });
    expect(all.filter((e) => e.topicId === topics[1]!.id)).toEqual(one);
    expect(new Set(all.map((e) => e.meta?.kind))).toContain("clean");
    expect(new Set(all.map((e) => e.id)).size).toBe(all.length);
  });

  it("rejects an unknown kind with a typed error", () => {
    expect(() =>
      chatbotExample({ topic: "t", query: "q?", perspectives: topic.perspectives }, topic, "nope" as never),
    ).toThrow(expect.objectContaining({ code: "INVALID_VALUE" }));
  });
});
