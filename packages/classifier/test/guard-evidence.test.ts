/**
 * The guard's sentence evidence: each sentence's score is the sum of the scores of the unsupported spans
 * lying inside it, each counted once per word it covers (a word span once; a whole-sentence span, as support
 * gives, for every word), over its word count, capped at 1; sentences without any are left out; worst first. The
 * step is one pass over the words sorted by start (it scanned every word for each sentence, which took
 * minutes on a 4 MB response: bench/guard-evidence.bench.mjs); here it must give exactly what the plain
 * definition gives, for words in any order, overlapping sentence ends or not.
 */
import { createGuard } from "@npov/classifier";
import { type ErrorDetector, type NpovInput, splitSentences, type UnsupportedSpan } from "@npov/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const input: NpovInput = {
  topic: "zoos",
  query: "Should zoos be abolished?",
  perspectives: [
    { label: "pro", arguments: [{ text: "Zoos keep animals in small cages." }] },
    { label: "con", arguments: [{ text: "Zoos protect endangered species." }] },
  ],
};

/**
 * The definition, written plainly: for each sentence, every word is looked at (the words as the guard
 * lists them in its evidence: scored above 0, worst first).
 */
function reference(response: string, spans: UnsupportedSpan[]) {
  const words = spans.filter((w) => w.score > 0).sort((a, b) => b.score - a.score || a.start - b.start);
  return splitSentences(response)
    .map((s) => {
      const inside = words.filter((w) => w.start >= s.start && w.end <= s.end);
      const count = (t: string) => t.split(/\s+/).filter((x) => /[\p{L}\p{N}]/u.test(x)).length;
      const total = count(s.text) || 1;
      const sum = inside.reduce((a, w) => a + w.score * Math.max(1, count(response.slice(w.start, w.end))), 0);
      return { text: s.text, start: s.start, end: s.end, score: Math.min(1, sum / total) };
    })
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || a.start - b.start);
}

const detectorOf = (spans: UnsupportedSpan[]): ErrorDetector => ({
  name: "fixed",
  detect: async () => ({ hallucination: 0.9, coverage: 0, unsupportedSpans: spans }),
});

describe("guard sentence evidence", () => {
  it("equals the plain definition for any words, in any order (fast-check)", async () => {
    const sentence = fc
      .array(fc.constantFrom("zoos", "keep", "animals", "cheap", "tickets", "42", "it's"), {
        minLength: 1,
        maxLength: 6,
      })
      .map((w) => `${w.join(" ")}.`);
    await fc.assert(
      fc.asyncProperty(
        fc.array(sentence, { minLength: 1, maxLength: 8 }),
        fc.array(fc.tuple(fc.nat(), fc.nat(12), fc.double({ min: 0.01, max: 1, noNaN: true })), { maxLength: 30 }),
        async (sentences, picks) => {
          const response = sentences.join(" ");
          // Spans anywhere in the text: inside a sentence, across two, at an end, or empty.
          const spans = picks.map(([at, length, score]) => {
            const start = at % response.length;
            const end = Math.min(response.length, start + length);
            return { text: response.slice(start, end), start, end, score };
          });
          const guard = createGuard({
            detector: detectorOf(spans),
            thresholds: { hallucination: 0.5, coverage: 1 },
            maxEvidence: 1000,
          });
          const verdict = await guard.check(input, response);
          if (verdict.error) throw new Error(`blocked: ${verdict.reason.code}`);
          expect(verdict.hallucination.evidence.sentences).toEqual(reference(response, spans));
        },
      ),
      { numRuns: 200 },
    );
  });

  it("scores a hand-worked case: two of three words of the first sentence, none of the second", async () => {
    const response = "Zoos sell cheap tickets. Zoos keep animals.";
    const spans = [
      { text: "tickets", start: 16, end: 23, score: 1 },
      { text: "cheap", start: 10, end: 15, score: 0.5 },
    ];
    const guard = createGuard({ detector: detectorOf(spans), thresholds: { hallucination: 0.5, coverage: 1 } });
    const verdict = await guard.check(input, response);
    if (verdict.error) throw new Error("blocked");
    expect(verdict.hallucination.evidence.sentences).toEqual([
      { text: "Zoos sell cheap tickets.", start: 0, end: 24, score: 1.5 / 4 },
    ]);
  });
});
