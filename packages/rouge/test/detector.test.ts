import { contentTerms, EmptyTextError, type NpovInput, TooFewPerspectivesError } from "@npov/core";
import { rougeDetector } from "@npov/rouge";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

// Worked by hand (NLTK stop words removed, Porter stems):
// response terms: sai uniform reduc bulli save monei famili            (7)
// pro 1: uniform reduc bulli   pro 2: uniform save monei
// con 1: uniform limit express  con 2: cloth cost rise
const input: NpovInput = {
  topic: "school uniforms",
  query: "Should schools require uniforms?",
  perspectives: [
    { label: "pro", arguments: [{ text: "Uniforms reduce bullying." }, { text: "Uniforms save money.", id: "p2" }] },
    { label: "con", arguments: [{ text: "Uniforms limit expression." }, { text: "Clothing costs rise." }] },
  ],
};
const response = "Some say uniforms reduce bullying and save money for families.";

describe("rougeDetector on a hand-worked example", () => {
  const result = rougeDetector(input, response);

  it("precision counts response words matched in the union of arguments", () => {
    expect(result.words.map((w) => [w.term, w.hallucination])).toEqual([
      ["sai", 1],
      ["uniform", 0],
      ["reduc", 0],
      ["bulli", 0],
      ["save", 0],
      ["monei", 0],
      ["famili", 1],
    ]);
    expect(result.precision).toBe(5 / 7);
    expect(result.hallucination).toBe(1 - 5 / 7);
  });

  it("recall is the minimum over perspectives, from the weaker side", () => {
    const [pro, con] = result.perspectives;
    // "uniform" occurs once in the response: clipped, it covers pro 1 but not pro 2.
    expect(pro?.recall).toBe(5 / 6);
    expect(pro?.arguments[1]?.words.map((w) => w.coverage)).toEqual([1, 0, 0]);
    expect(con?.recall).toBe(1 / 6);
    expect(result.recall).toBe(1 / 6);
    expect(result.weakestPerspective).toBe("con");
    expect(result.coverage).toBe(5 / 6);
  });

  it("reports per-argument recall, including a fully uncovered argument", () => {
    const recalls = result.perspectives.map((p) => p.arguments.map((a) => a.recall));
    expect(recalls).toEqual([
      [1, 1],
      [1 / 3, 0],
    ]);
    expect(result.perspectives[0]?.arguments[1]?.id).toBe("p2");
    expect(result.perspectives[1]?.arguments[1]?.words.every((w) => w.coverage === 1)).toBe(true);
  });

  it("word offsets point into the response and the argument texts", () => {
    for (const w of result.words) expect(response.slice(w.start, w.end)).toBe(w.text);
    result.perspectives.forEach((p, k) => {
      p.arguments.forEach((a, j) => {
        const text = input.perspectives[k]!.arguments[j]!.text;
        for (const w of a.words) expect(text.slice(w.start, w.end)).toBe(w.text);
      });
    });
  });

  it("options: without stemming 'uniforms' still matches but 'families' vs nothing is unchanged", () => {
    const noStem = rougeDetector(input, response, { stem: false });
    expect(noStem.words.map((w) => w.term)).toEqual([
      "say",
      "uniforms",
      "reduce",
      "bullying",
      "save",
      "money",
      "families",
    ]);
    expect(noStem.precision).toBe(5 / 7);
    const withStop = rougeDetector(input, response, { stopwords: false });
    // + some, and, for (unmatched) in the response; pro/con gain no stop words.
    expect(withStop.precision).toBe(5 / 10);
    const custom = rougeDetector(input, response, { stopwords: ["say", "families", "some", "and", "for"] });
    expect(custom.precision).toBe(1);
  });
});

describe("rougeDetector invariants", () => {
  it("copying every argument gives zero error; scores stay in [0, 1] and are never NaN", () => {
    const copy = input.perspectives.flatMap((p) => p.arguments.map((a) => a.text)).join(" ");
    const perfect = rougeDetector(input, copy);
    expect(perfect.hallucination).toBe(0);
    expect(perfect.coverage).toBe(0);
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 80 }),
        fc.string({ minLength: 1, maxLength: 40 }),
        (resp, arg) => {
          fc.pre(contentTerms(resp).length > 0 && contentTerms(arg).length > 0);
          const r = rougeDetector(
            {
              topic: "t",
              query: "q",
              perspectives: [
                { label: "a", arguments: [{ text: arg }] },
                { label: "b", arguments: [{ text: "x y z" }] },
              ],
            },
            resp,
          );
          for (const v of [r.hallucination, r.coverage, r.precision, r.recall]) {
            expect(Number.isFinite(v)).toBe(true);
            expect(v).toBeGreaterThanOrEqual(0);
            expect(v).toBeLessThanOrEqual(1);
          }
          const mean = r.words.length === 0 ? 0 : r.words.reduce((s, w) => s + w.hallucination, 0) / r.words.length;
          expect(r.hallucination).toBeCloseTo(mean, 12);
        },
      ),
    );
  });

  it("refuses an argument of stop words only; a response of stop words states nothing: precision 1, recall 0", () => {
    const r = rougeDetector(input, "and so it is");
    expect([r.precision, r.recall, r.hallucination, r.coverage, r.words.length]).toEqual([1, 0, 0, 1, 0]);
    const stopArgument = {
      ...input,
      perspectives: [...input.perspectives, { label: "z", arguments: ["it is what it is"] }],
    };
    expect(() => rougeDetector(stopArgument, "Uniforms reduce bullying.")).toThrow(
      expect.objectContaining({ code: "NOTHING_TO_SCORE", path: "input.perspectives[2].arguments[0]" }),
    );
    // With stop words kept, the same text has words to score.
    expect(rougeDetector(input, "and so it is", { stopwords: false }).precision).toBe(0);
  });

  it("keeps non-ASCII words", () => {
    const r = rougeDetector(
      {
        topic: "t",
        query: "q",
        perspectives: [
          { label: "pro", arguments: ["Müller ist naïve"] },
          { label: "con", arguments: ["café"] },
        ],
      },
      "Müller is naïve about the café",
    );
    expect(r.words.map((w) => w.text)).toEqual(["Müller", "naïve", "café"]);
    expect(r.hallucination).toBe(0);
  });

  it("rejects bad input with typed errors", () => {
    expect(() => rougeDetector(input, "   ")).toThrow(EmptyTextError);
    expect(() => rougeDetector({ ...input, perspectives: input.perspectives.slice(0, 1) }, response)).toThrow(
      TooFewPerspectivesError,
    );
  });
});
