/**
 * The shipped `support` detector's scores move the right way on every response shape (issue 29): adding an
 * unsupported claim -- first, in the middle, last, or as the only sentence -- never lowers the hallucination
 * score, and removing a stated argument never lowers the coverage score; every combiner input stays a share in
 * [0, 1] whatever the size of the response (1 to 12 sentences) or of the sources (1 to 80 units).
 */
import {
  type CheckInput,
  contentTerms,
  type NpovInput,
  openKnowledgeBase,
  type SourcesInput,
  sampleInput,
  splitSentences,
} from "@npov/core";
import { SemanticMatcher, supportErrorDetector, supportResponse } from "@npov/rouge";
import { writeReferenceResponse } from "@npov/synth";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const kb = openKnowledgeBase("fixtures");
const texts = kb.topics.flatMap((t) => t.perspectives.flatMap((p) => p.arguments.map((a) => a.text)));
const matcher = new SemanticMatcher();
const support = supportErrorDetector();

// Words about nothing any debate here discusses; each claim uses the ones no grounding word resembles.
const FOREIGN = [
  "zebra",
  "trombone",
  "glacier",
  "volcano",
  "saxophone",
  "kangaroo",
  "asteroid",
  "tulip",
  "submarine",
  "marmalade",
  "origami",
  "walrus",
  "igloo",
  "flamingo",
  "harpsichord",
  "meteorite",
];

/** A claim made of words none of the grounding's words resembles (similarity 0): unsupported by construction. */
function foreignClaim(grounding: string, pick: number): string {
  const pool = contentTerms(grounding);
  const words = FOREIGN.filter((w) => {
    const term = contentTerms(w)[0];
    return term !== undefined && pool.every((p) => matcher.weight(term, p) === 0);
  });
  expect(words.length).toBeGreaterThanOrEqual(4);
  const at = (k: number) => words[(pick + k) % words.length] as string;
  return `The ${at(0)} and the ${at(1)} ${at(2)} beside every ${at(3)}.`;
}

/** Insert `claim` as sentence `position` (0 = first) of `response`. */
function insertAt(response: string, claim: string, position: number): string {
  const sentences = splitSentences(response).map((s) => s.text);
  sentences.splice(Math.min(position, sentences.length), 0, claim);
  return sentences.join(" ");
}

/** A sources input of `units` argument texts in `documents` documents, and a response restating some of them. */
function sourcesShape(seed: number, units: number, documents: number, sentences: number) {
  const unitTexts = Array.from({ length: units }, (_, i) => texts[(seed + i * 7) % texts.length] as string);
  const sources = Array.from({ length: documents }, (_, d) => ({
    id: `doc${d + 1}`,
    text: unitTexts.filter((_, i) => i % documents === d).join(" "),
  })).filter((s) => s.text.length > 0);
  const response = Array.from({ length: sentences }, (_, i) => unitTexts[(i * 3) % units] as string).join(" ");
  const input: SourcesInput = { query: kb.topics[seed % kb.topics.length]?.query as string, sources };
  return { input, response, grounding: unitTexts.join(" ") };
}

const hallucination = (input: CheckInput, response: string) => supportResponse(input, response).hallucination;

describe("support: monotone and scale-free on every shape", () => {
  it("adding an unsupported claim at any position never lowers the hallucination score (sources, 1-80 units)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000 }),
        fc.integer({ min: 1, max: 80 }),
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 0, max: 12 }),
        (seed, units, documents, sentences, position) => {
          const { input, response, grounding } = sourcesShape(seed, units, Math.min(documents, units), sentences);
          const claim = foreignClaim(grounding, seed);
          const before = hallucination(input, response);
          const after = hallucination(input, insertAt(response, claim, position));
          expect(after).toBeGreaterThanOrEqual(before - 1e-12);
          // The claim alone is an answer too: at least as suspect as the clean response.
          expect(hallucination(input, claim)).toBeGreaterThanOrEqual(before - 1e-12);
        },
      ),
      { numRuns: 30 },
    );
  });

  it("adding an unsupported claim at any position never lowers the hallucination score (NPOV answers)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000 }),
        fc.integer({ min: 0, max: 12 }),
        fc.constantFrom("close" as const, "free" as const),
        (seed, position, style) => {
          const topic = kb.topics[seed % kb.topics.length] as (typeof kb.topics)[number];
          const input: NpovInput = sampleInput(topic, { seed });
          const { response } = writeReferenceResponse(input, { seed, style });
          const grounding = [input.query, ...input.perspectives.flatMap((p) => p.arguments.map((a) => a.text))];
          const claim = foreignClaim(grounding.join(" "), seed);
          const before = hallucination(input, response);
          expect(hallucination(input, insertAt(response, claim, position))).toBeGreaterThanOrEqual(before - 1e-12);
        },
      ),
      { numRuns: 30 },
    );
  });

  it("removing a stated argument never lowers the coverage score", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000 }),
        fc.nat(),
        fc.constantFrom("close" as const, "free" as const),
        (seed, which, style) => {
          const topic = kb.topics[seed % kb.topics.length] as (typeof kb.topics)[number];
          const input: NpovInput = sampleInput(topic, { seed });
          const { response, argumentSpans } = writeReferenceResponse(input, { seed, style });
          const span = argumentSpans[which % argumentSpans.length];
          if (span === undefined) return;
          const kept = splitSentences(response).filter((s) => s.end <= span.start || s.start >= span.end);
          if (kept.length === 0) return;
          const before = supportResponse(input, response).coverage;
          const after = supportResponse(input, kept.map((s) => s.text).join(" ")).coverage;
          expect(after).toBeGreaterThanOrEqual(before - 1e-12);
        },
      ),
      { numRuns: 30 },
    );
  });

  it("every combiner input is a share in [0, 1], whatever the size of the response or the sources", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000 }),
        fc.integer({ min: 1, max: 80 }),
        fc.integer({ min: 1, max: 12 }),
        (seed, units, sentences) => {
          const { input, response } = sourcesShape(seed, units, 1 + (seed % 3), sentences);
          const r = supportResponse(input, response);
          for (const [name, value] of Object.entries(r.features)) {
            expect(value, name).toBeGreaterThanOrEqual(0);
            expect(value, name).toBeLessThanOrEqual(1);
          }
          for (const s of r.sentences)
            for (const [name, value] of Object.entries(s.features)) {
              expect(value, name).toBeGreaterThanOrEqual(0);
              expect(value, name).toBeLessThanOrEqual(1);
            }
        },
      ),
      { numRuns: 20 },
    );
  });

  it("flags its evidence at 0.5 and points sources evidence back into the documents", async () => {
    const { input, response } = sourcesShape(3, 6, 2, 2);
    const claim = foreignClaim(input.sources.map((s) => s.text).join(" "), 3);
    const r = await support.detect(input, `${response} ${claim}`);
    const top = r.unsupportedSpans?.[0];
    expect(top?.text).toBe(claim);
    for (const s of r.unsupportedSpans ?? []) expect(s.flagged).toBe(s.score >= 0.5);
    for (const a of r.uncoveredArguments ?? []) {
      expect(a.flagged).toBe(a.score >= 0.5);
      const doc = input.sources[a.origin?.source as number];
      expect(doc?.text.slice(a.origin?.start, a.origin?.end)).toBe(a.text);
    }
  });
});
