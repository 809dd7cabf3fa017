/**
 * Validation of the hand-written chatbot-style development set (data/chatbot-dev, npov issue 16): both
 * writers' files are read with `readExamples` and checked against the Perspectrum knowledge base and the
 * labelling rules of data/chatbot-dev/README.md.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { type NpovExample, openKnowledgeBase, readExamples, repoPath, type Topic } from "@npov/core";
import { CHATBOT_KINDS, type ChatbotKind } from "@npov/synth";
import { describe, expect, it } from "vitest";

// CHATBOT_DEV_DIR validates a candidate copy of the set elsewhere (e.g. before replacing the files).
const DIR = process.env.CHATBOT_DEV_DIR ?? repoPath("data", "chatbot-dev");
const PARTS = ["part-a.jsonl", "part-b.jsonl"].map((f) => join(DIR, f));
const kb = openKnowledgeBase("perspectrum");
const examples: NpovExample[] = PARTS.filter((f) => existsSync(f)).flatMap((f) => readExamples(f));

// The kinds are the chatbot-style writer's (one list); the label definitions below restate the card's.
const KINDS = CHATBOT_KINDS;
type Kind = ChatbotKind;
const HALLUCINATION: ReadonlySet<Kind> = new Set([
  "hallucination",
  "both",
  "partial-hallucination",
  "repetition",
  "perspective-confusion",
]);
const COVERAGE: ReadonlySet<Kind> = new Set(["coverage", "both", "partial-coverage", "perspective-confusion"]);
const AMBIGUOUS: ReadonlySet<Kind> = new Set([
  "partial-hallucination",
  "partial-coverage",
  "repetition",
  "perspective-confusion",
]);

const kindOf = (e: NpovExample) => e.meta?.kind as Kind;
const topicOf = (e: NpovExample): Topic => kb.get(e.topicId as string);
const givenIds = (e: NpovExample) => e.input.perspectives.flatMap((p) => p.arguments.map((a) => a.id as string));
const topicArgumentIds = (t: Topic) => t.perspectives.flatMap((p) => p.arguments.map((a) => a.id as string));

/** Run `check` on every example; collect failures so one run names every bad example. */
function everyExample(check: (e: NpovExample) => string | undefined): string[] {
  return examples.flatMap((e) => {
    const problem = check(e);
    return problem === undefined ? [] : [`${e.id}: ${problem}`];
  });
}

describe("chatbot-dev data set", () => {
  it("has both parts and at least 250 examples with unique ids", () => {
    expect(PARTS.filter((f) => !existsSync(f))).toEqual([]);
    expect(examples.length).toBeGreaterThanOrEqual(250);
    expect(new Set(examples.map((e) => e.id)).size).toBe(examples.length);
    expect(examples.every((e) => e.slice === "chatbot-dev" && e.meta?.writer === "hand")).toBe(true);
  });

  it("uses Perspectrum dev topics only, never a test topic", () => {
    const bad = everyExample((e) => {
      if (typeof e.topicId !== "string" || !kb.has(e.topicId)) return `unknown topic ${e.topicId}`;
      const split = topicOf(e).split;
      if (split !== "dev" || e.split !== "dev") return `topic split ${split}, record split ${e.split}`;
      return undefined;
    });
    expect(bad).toEqual([]);
    expect(new Set(examples.map((e) => e.topicId)).size).toBeGreaterThanOrEqual(60);
  });

  it("gives 1-3 arguments per perspective, copied exactly from the topic's perspective in the knowledge base", () => {
    const bad = everyExample((e) => {
      const topic = topicOf(e);
      if (e.input.query !== topic.query) return "query differs from the knowledge base";
      if (e.input.perspectives.map((p) => p.label).join() !== "pro,con") return "perspectives must be pro, con";
      for (const p of e.input.perspectives) {
        if (p.arguments.length < 1 || p.arguments.length > 3) return `${p.arguments.length} ${p.label} arguments`;
        const side = topic.perspectives.find((q) => q.label === p.label);
        for (const a of p.arguments) {
          const kbArg = side?.arguments.find((k) => k.id === a.id);
          if (kbArg === undefined) return `${a.id} is not a ${p.label} argument of ${topic.id}`;
          if (kbArg.text !== a.text) return `${a.id} text differs from the knowledge base`;
        }
      }
      if (new Set(givenIds(e)).size !== givenIds(e).length) return "an argument is given twice";
      return undefined;
    });
    expect(bad).toEqual([]);
  });

  it("has responses of 60-170 words", () => {
    const bad = everyExample((e) => {
      const words = e.response.split(/\s+/).filter((w) => w.length > 0).length;
      return words < 60 || words > 170 ? `${words} words` : undefined;
    });
    expect(bad).toEqual([]);
  });

  it("labels agree with meta.kind", () => {
    const bad = everyExample((e) => {
      const kind = kindOf(e);
      if (!KINDS.includes(kind)) return `unknown kind ${kind}`;
      const want = {
        hallucination: HALLUCINATION.has(kind),
        coverage: COVERAGE.has(kind),
        ambiguous: AMBIGUOUS.has(kind),
      };
      if (JSON.stringify(e.labels) !== JSON.stringify(want)) return `labels ${JSON.stringify(e.labels)} for ${kind}`;
      if (AMBIGUOUS.has(kind) && e.ambiguousKind !== kind) return `ambiguousKind ${e.ambiguousKind} for ${kind}`;
      return undefined;
    });
    expect(bad).toEqual([]);
  });

  it("has non-empty spans inside the response, matching the given arguments", () => {
    const bad = everyExample((e) => {
      const inside = (s: { start: number; end: number }) =>
        Number.isInteger(s.start) &&
        Number.isInteger(s.end) &&
        s.start >= 0 &&
        s.start < s.end &&
        s.end <= e.response.length;
      const hallucinated = e.wordLabels?.hallucinatedSpans ?? [];
      if (!hallucinated.every(inside)) return "a hallucinated span is empty or outside the response";
      for (const s of e.argumentSpans ?? []) {
        if (!inside(s)) return `span of ${s.argumentId} is empty or outside the response`;
        const p = e.input.perspectives.find((q) => q.label === s.perspective);
        const arg = p?.arguments.find((a) => a.id === s.argumentId);
        if (arg === undefined || arg.text !== s.argumentText)
          return `span names ${s.argumentId}, not given as ${s.perspective}`;
      }
      const kind = kindOf(e);
      if (HALLUCINATION.has(kind) !== hallucinated.length > 0) return `${hallucinated.length} hallucinated spans`;
      return undefined;
    });
    expect(bad).toEqual([]);
  });

  it("marks dropped, partly dropped and uncovered arguments consistently", () => {
    const bad = everyExample((e) => {
      const kind = kindOf(e);
      const uncovered = e.wordLabels?.uncoveredArguments ?? [];
      const dropped = (e.meta?.droppedArgumentIds ?? []) as string[];
      const partial = e.meta?.partialArgumentId as string | undefined;
      for (const [k, j] of uncovered)
        if (e.input.perspectives[k]?.arguments[j] === undefined) return `uncovered [${k},${j}]`;
      const uncoveredIds = uncovered.map(([k, j]) => e.input.perspectives[k]!.arguments[j]!.id).sort();
      const wantUncovered = [...dropped, ...(partial === undefined ? [] : [partial])].sort();
      if (uncoveredIds.join() !== wantUncovered.join()) return "uncovered arguments differ from dropped + partial ids";
      if (![...dropped, ...(partial === undefined ? [] : [partial])].every((d) => givenIds(e).includes(d)))
        return "a dropped or partial id is not a given argument";
      if ((kind === "coverage" || kind === "both") !== dropped.length > 0)
        return `${dropped.length} dropped for ${kind}`;
      if ((kind === "partial-coverage" || kind === "perspective-confusion") !== (partial !== undefined))
        return `partialArgumentId ${partial} for ${kind}`;
      // Every given argument that is not completely dropped is stated somewhere (partly, twice or on the
      // wrong side included); a dropped one is not.
      const spoken = new Set((e.argumentSpans ?? []).map((s) => s.argumentId));
      for (const id of givenIds(e)) if (spoken.has(id) === dropped.includes(id)) return `${id}: span ${spoken.has(id)}`;
      if (kind === "clean" && ((e.wordLabels?.hallucinatedSpans ?? []).length > 0 || uncovered.length > 0))
        return "clean example with error spans";
      return undefined;
    });
    expect(bad).toEqual([]);
  });

  it("records a repeated argument twice and a side-swapped one inside its error span", () => {
    const overlaps = (a: { start: number; end: number }, b: { start: number; end: number }) =>
      a.start < b.end && b.start < a.end;
    const bad = everyExample((e) => {
      const spans = e.argumentSpans ?? [];
      const hallucinated = e.wordLabels?.hallucinatedSpans ?? [];
      if (kindOf(e) === "repetition") {
        const twice = spans.filter((s) => spans.filter((t) => t.argumentId === s.argumentId).length >= 2);
        if (!twice.some((s) => hallucinated.some((h) => overlaps(s, h)))) return "no argument stated twice";
      }
      if (kindOf(e) === "perspective-confusion") {
        const swapped = spans.filter((s) => s.argumentId === e.meta?.partialArgumentId);
        if (!swapped.some((s) => hallucinated.some((h) => overlaps(s, h)))) return "swapped argument not in error span";
      }
      return undefined;
    });
    expect(bad).toEqual([]);
  });

  it("keeps extra content apart from argument spans and meaning shifts inside one", () => {
    const overlaps = (a: { start: number; end: number }, b: { start: number; end: number }) =>
      a.start < b.end && b.start < a.end;
    const bad = everyExample((e) => {
      const spans = e.argumentSpans ?? [];
      const hallucinated = e.wordLabels?.hallucinatedSpans ?? [];
      const kind = kindOf(e);
      if ((kind === "hallucination" || kind === "both") && hallucinated.some((h) => spans.some((s) => overlaps(h, s))))
        return "an extra-argument span overlaps a given argument's span";
      if (
        kind === "partial-hallucination" &&
        !hallucinated.every((h) => spans.some((s) => s.start <= h.start && h.end <= s.end))
      )
        return "a shifted part lies outside every argument span";
      // Outside the error spans, two different arguments never claim the same characters.
      const plain = spans.filter((s) => !hallucinated.some((h) => overlaps(h, s)));
      for (const [i, a] of plain.entries())
        for (const b of plain.slice(i + 1))
          if (a.argumentId !== b.argumentId && overlaps(a, b))
            return `spans of ${a.argumentId} and ${b.argumentId} overlap`;
      return undefined;
    });
    expect(bad).toEqual([]);
  });

  it("names an extra argument only when it is an unused argument of the same topic", () => {
    const bad = everyExample((e) => {
      const extra = e.meta?.extraArgument;
      if (extra === null || extra === undefined) return undefined;
      if (kindOf(e) !== "hallucination" && kindOf(e) !== "both") return `extra argument on a ${kindOf(e)} example`;
      if (!topicArgumentIds(topicOf(e)).includes(extra as string)) return `extra ${extra} is not in the topic`;
      return givenIds(e).includes(extra as string) ? `extra ${extra} is given` : undefined;
    });
    expect(bad).toEqual([]);
    // Both sources of extra content are used: knowledge-base arguments and written claims.
    const errorful = examples.filter((e) => kindOf(e) === "hallucination" || kindOf(e) === "both");
    expect(errorful.some((e) => typeof e.meta?.extraArgument === "string")).toBe(true);
    expect(errorful.some((e) => e.meta?.extraArgument === null)).toBe(true);
  });

  it("splits by topic into tune and heldout", () => {
    const splitOf = new Map<string, Set<string>>();
    for (const e of examples) {
      const s = splitOf.get(e.topicId as string) ?? new Set<string>();
      s.add(String(e.meta?.devSplit));
      splitOf.set(e.topicId as string, s);
    }
    const mixed = [...splitOf].filter(([, s]) => s.size !== 1).map(([t]) => t);
    expect(mixed).toEqual([]);
    const values = new Set([...splitOf.values()].flatMap((s) => [...s]));
    expect([...values].sort()).toEqual(["heldout", "tune"]);
    // Within each writer's part, every tune topic sorts before every held-out topic.
    for (const part of ["/a-", "/b-"]) {
      const ofPart = examples.filter((e) => e.id?.includes(part));
      const ids = (split: string) => ofPart.filter((e) => e.meta?.devSplit === split).map((e) => e.topicId as string);
      const lastTune = ids("tune").sort().at(-1) ?? "";
      const firstHeldout = ids("heldout").sort()[0] ?? "\uffff";
      expect(lastTune < firstHeldout, `${part}: ${lastTune} vs ${firstHeldout}`).toBe(true);
    }
    const tune = examples.filter((e) => e.meta?.devSplit === "tune").length / examples.length;
    expect(tune).toBeGreaterThan(0.5);
    expect(tune).toBeLessThan(0.7);
  });

  it("follows the label distribution of the style guide", () => {
    const share = (kinds: Kind[]) => examples.filter((e) => kinds.includes(kindOf(e))).length / examples.length;
    // Targets: 40% clean, 17% hallucination, 17% coverage, 10% both, 16% ambiguous; +-6 points.
    expect(Math.abs(share(["clean"]) - 0.4)).toBeLessThanOrEqual(0.06);
    expect(Math.abs(share(["hallucination"]) - 0.17)).toBeLessThanOrEqual(0.06);
    expect(Math.abs(share(["coverage"]) - 0.17)).toBeLessThanOrEqual(0.06);
    expect(Math.abs(share(["both"]) - 0.1)).toBeLessThanOrEqual(0.06);
    expect(Math.abs(share([...AMBIGUOUS]) - 0.16)).toBeLessThanOrEqual(0.06);
    for (const kind of AMBIGUOUS) expect(share([kind])).toBeGreaterThanOrEqual(0.02);
  });

  it("locates spans by text: a hand-checked example from part a", () => {
    const first = examples.find((e) => e.id === "chatbot-dev/a-001");
    const span = first?.argumentSpans?.find((s) => s.argumentId === "p793");
    expect(first?.response.slice(span?.start, span?.end)).toBe(
      "tougher penalties act as a deterrent, making would-be offenders think twice before targeting someone for who they are",
    );
  });
});
