/**
 * The cases issue 29 was filed on, with the shipped `support` detector behind a guard at thresholds 0.5: a
 * claim appended as the closing sentence is caught as in the middle, README's uniforms example is flagged, a
 * one-sentence reply with an invented fact is flagged, an answer that only restates the question is not, and a
 * RAG answer is checked against its retrieved passage.
 */
import { readFileSync } from "node:fs";
import { loadGuard } from "@npov/classifier";
import { type NpovInput, openKnowledgeBase, repoPath, type SourcesInput, sampleInput } from "@npov/core";
import { supportErrorDetector } from "@npov/rouge";
import { writeReferenceResponse } from "@npov/synth";
import { describe, expect, it } from "vitest";

const guard = await loadGuard({
  format: "npov-guard/1",
  detector: { method: "support" },
  thresholds: { hallucination: 0.5, coverage: 0.5 },
});
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
    "%s: an invented argument appended as the closing sentence is blocked, as in the middle",
    async (_, topic) => {
      const input = sampleInput(topic, { seed: 1, perSide: 1 });
      const given = new Set(input.perspectives.flatMap((p) => p.arguments.map((a) => a.text)));
      const unused = topic.perspectives.flatMap((p) => p.arguments).find((a) => !given.has(a.text));
      expect(unused).toBeDefined();
      const { response } = writeReferenceResponse(input, { seed: 1, style: "free" });
      const claim = `Some also point out that ${lowerFirst((unused?.text ?? "").replace(/[.!]$/, ""))}.`;
      const last = `${response} ${claim}`;
      const verdict = await guard.check(input, last);
      expect(verdict.allow).toBe(false);
      // The claim's sentence is the evidence, flagged.
      if (!verdict.error) expect(verdict.hallucination.evidence.sentences[0]?.text).toBe(claim);
      expect(await hallucination(input, last)).toBeGreaterThan(await hallucination(input, response));
    },
  );

  it("README's uniforms example, with 'and that uniforms improve school safety' appended, is flagged", async () => {
    const example = JSON.parse(readFileSync(repoPath("fixtures", "examples", "uniforms.json"), "utf8"));
    const verdict = await guard.check(example.input, example.response);
    expect(verdict.allow).toBe(false);
    const r = await support.detect(example.input, example.response);
    expect(r.unsupportedSpans?.[0]?.flagged).toBe(true);
    expect(r.unsupportedSpans?.[0]?.text).toMatch(/improve school safety/);
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
