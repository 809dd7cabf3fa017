/**
 * The cases issue 29 was filed on, with the shipped `support` detector: an invented argument scores the same
 * first, in the middle or last and is flagged; README's uniforms clause is flagged; behind a guard at 0.5, a
 * one-sentence reply with an invented fact is blocked, an answer that only restates the question is not, and a
 * RAG answer is checked against its retrieved passage.
 */
import { readFileSync } from "node:fs";
import { loadGuard } from "@npov/classifier";
import {
  type NpovInput,
  openKnowledgeBase,
  repoPath,
  type SourcesInput,
  sampleInput,
  splitSentences,
} from "@npov/core";
import { supportErrorDetector, supportResponse } from "@npov/rouge";
import { writeReferenceResponse } from "@npov/synth";
import { describe, expect, it } from "vitest";

// A RAG answer need not restate every retrieved sentence: coverage is optional for sources, and a threshold
// above 1 never flags it (docs/rag.md).
const ragGuard = await loadGuard({
  format: "npov-guard/1",
  detector: { method: "support" },
  thresholds: { hallucination: 0.5, coverage: 2 },
});
const support = supportErrorDetector();
const hallucination = async (input: NpovInput | SourcesInput, response: string) =>
  (await support.detect(input, response)).hallucination;

const lowerFirst = (t: string) => t.charAt(0).toLowerCase() + t.slice(1);

describe("issue 29: the default detector holds on every response shape", () => {
  const kb = openKnowledgeBase("fixtures");
  const cases = ["zoos", "uniforms", "nuclear", "homework"].flatMap((id) => (kb.has(id) ? [kb.get(id)] : []));
  const topics = cases.length === 4 ? cases : kb.topics.slice(0, 4);

  it.each(topics.map((t) => [t.id, t] as const))(
    "%s: an invented argument is scored the same first, in the middle or last, and is the top evidence",
    async (_, topic) => {
      const input = sampleInput(topic, { seed: 1, perSide: 1 });
      const given = new Set(input.perspectives.flatMap((p) => p.arguments.map((a) => a.text)));
      const unused = topic.perspectives.flatMap((p) => p.arguments).find((a) => !given.has(a.text));
      expect(unused).toBeDefined();
      const { response } = writeReferenceResponse(input, { seed: 1, style: "free" });
      const claim = `Some also point out that ${lowerFirst((unused?.text ?? "").replace(/[.!]$/, ""))}.`;
      const sentences = splitSentences(response).map((s) => s.text);
      const at = (k: number) => [...sentences.slice(0, k), claim, ...sentences.slice(k)].join(" ");
      const clean = await hallucination(input, response);
      const [first, middle, last] = await Promise.all(
        [0, Math.ceil(sentences.length / 2), sentences.length].map((k) => hallucination(input, at(k))),
      );
      // Before issue 29 a closing claim scored 0.16-0.22 where the same claim in the middle scored 0.63-0.91.
      expect(Math.abs((last as number) - (middle as number))).toBeLessThan(0.03);
      expect(Math.abs((first as number) - (middle as number))).toBeLessThan(0.03);
      expect(last).toBeGreaterThan(clean + 0.2);
      const r = await support.detect(input, at(sentences.length));
      expect(r.unsupportedSpans?.[0]?.text).toBe(claim);
      // Before issue 29 it was allowed; now it is the one flagged item.
      expect(r.unsupportedSpans?.[0]?.flagged).toBe(true);
      expect(r.unsupportedSpans?.filter((e) => e.flagged)).toHaveLength(1);
    },
  );

  it("README's uniforms example: the sentence with the appended clause is the top evidence, flagged", async () => {
    // "..., and that uniforms improve school safety": the clause is measured on its own, no argument explains it,
    // and the sentence model (trained on span-labelled synthetic shapes) reads the sentence as an unsupported
    // claim. Before issue 29 nothing was flagged ("every word is supported").
    const example = JSON.parse(readFileSync(repoPath("fixtures", "examples", "uniforms.json"), "utf8"));
    const r = supportResponse(example.input, example.response);
    const last = r.sentences.at(-1);
    expect(last?.clauses?.map((c) => c.text)).toEqual([
      "Critics answer that mandatory uniforms limit how students express who they are",
      "and that uniforms improve school safety.",
    ]);
    expect(last?.worstClause).toBe(1);
    expect(last?.clauseUnexplained).toBe(1);
    // Each clause carries its own probability; the stated argument's clause is not suspect, the appended one is
    // the likelier of the two.
    const [stated, appended] = last?.clauses ?? [];
    expect(appended?.probability).toBeGreaterThan((stated?.probability as number) + 0.2);
    const evidence = (await support.detect(example.input, example.response)).unsupportedSpans ?? [];
    expect(evidence[0]?.text).toContain("and that uniforms improve school safety");
    expect(evidence[0]?.flagged).toBe(true);
    expect(evidence.filter((e) => e.flagged)).toHaveLength(1);
    // Without the clause nothing is flagged, and the score does not rise.
    const without = example.response.replace(", and that uniforms improve school safety", "");
    expect(((await support.detect(example.input, without)).unsupportedSpans ?? []).some((e) => e.flagged)).toBe(false);
    expect(r.hallucination).toBeGreaterThanOrEqual(supportResponse(example.input, without).hallucination - 1e-12);
  });

  const passage: SourcesInput = {
    query: "When did the Royal Blue start running?",
    sources: [
      {
        id: "wiki/royal-blue",
        title: "Royal Blue (train)",
        text: "The Royal Blue was the Baltimore and Ohio Railroad's flagship passenger train between New York City and Washington, D.C., beginning in 1890. It was known for its luxurious coaches.",
      },
    ],
  };

  it("a one-sentence reply with one invented fact is flagged; the faithful one is not", async () => {
    expect((await ragGuard.check(passage, "The Royal Blue began running in 1890.")).allow).toBe(true);
    const invented = await ragGuard.check(
      passage,
      "The Royal Blue began running in 1890 and was retired after a crash in 1958.",
    );
    expect(invented.allow).toBe(false);
  });

  it("an answer that restates the question and adds nothing is not flagged", async () => {
    const verdict = await ragGuard.check(passage, "You are asking when the Royal Blue started running.");
    expect(verdict.allow).toBe(true);
  });
});
