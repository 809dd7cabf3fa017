import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { contentTerms, type NpovInput } from "@npov/core";
import {
  alignResponse,
  loadWordNet,
  loadWordVectors,
  maxWeightMatching,
  rougeDetector,
  SoftMatcher,
  saveWordVectors,
  softErrorDetector,
  softRouge,
  trainWordVectors,
} from "@npov/rouge";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const term = (word: string) => contentTerms(word, { stopwords: false })[0]!;
const matcher = new SoftMatcher();

describe("soft word matching", () => {
  it.each([
    ["mothers", "mother", 1], // inflection (same stem and lemma)
    ["running", "run", 1], // inflection the Porter stemmer also catches
    ["happier", "happy", 1], // lemma by morphy rules
    ["kids", "children", 0.9], // WordNet synonyms (kid/child share a synset)
    ["costly", "expensive", 0.9], // synonyms
    ["decision", "decide", 0.8], // derivational relation (different Porter stems: decis / decid)
    ["mom", "mother", 0.7], // direct hypernym
  ])("%s ~ %s (weight %d); exact ROUGE misses the non-stem ones", (a, b, weight) => {
    expect(matcher.weight(term(a), term(b))).toBeCloseTo(weight, 10);
  });

  it.each([
    ["banana", "democracy"],
    ["expensive", "tree"],
    ["children", "taxes"],
  ])("%s and %s stay unmatched", (a, b) => {
    expect(matcher.weight(term(a), term(b))).toBe(0);
  });

  it("WordNet lemmas come from morphy's rules (no exception lists)", () => {
    const wn = loadWordNet();
    expect(wn.lemmas("taxes")).toContain("tax");
    expect(wn.lemmas("educated")).toContain("educate");
    expect([...wn.derivations("educate")]).toContain("education");
  });
});

describe("maximum-weight matching", () => {
  it("beats greedy first-come matching", () => {
    // Greedy row by row takes (0,0)=1 and leaves row 1 with 0; the optimum is 0.9 + 0.95.
    expect(
      maxWeightMatching([
        [1, 0.9],
        [0.95, 0],
      ]),
    ).toEqual([1, 0]);
  });

  it("equals brute force on small random matrices (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 4 }),
        fc.integer({ min: 1, max: 4 }),
        fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 16, maxLength: 16 }),
        (r, c, values) => {
          const w = Array.from({ length: r }, (_, i) =>
            Array.from({ length: c }, (_, j) => values[i * 4 + j] as number),
          );
          const m = maxWeightMatching(w);
          const total = m.reduce((s, col, i) => s + (col < 0 ? 0 : (w[i]![col] as number)), 0);
          expect(new Set(m.filter((x) => x >= 0)).size).toBe(m.filter((x) => x >= 0).length);
          let best = 0;
          const search = (i: number, used: Set<number>, sum: number) => {
            if (i === r) {
              best = Math.max(best, sum);
              return;
            }
            search(i + 1, used, sum);
            for (let j = 0; j < c; j++)
              if (!used.has(j)) search(i + 1, new Set([...used, j]), sum + (w[i]![j] as number));
          };
          search(0, new Set(), 0);
          expect(total).toBe(best);
        },
      ),
      { numRuns: 150 },
    );
  });
});

const input: NpovInput = {
  topic: "school uniforms",
  query: "Should schools require uniforms?",
  perspectives: [
    {
      label: "pro",
      arguments: [{ text: "Uniforms are cheaper for families." }, { text: "Uniforms reduce bullying of children." }],
    },
    { label: "con", arguments: [{ text: "Uniforms limit the expression of pupils." }] },
  ],
};

describe("soft ROUGE and alignment", () => {
  const paraphrased =
    "People disagree. Some say uniforms cost families less. Others note that uniforms lower the bullying of kids. Critics say uniforms restrict how students express themselves.";

  it("soft matching recovers paraphrases that exact ROUGE misses", () => {
    const exact = rougeDetector(input, paraphrased);
    const soft = softRouge(input, paraphrased, matcher);
    expect(soft.recall).toBeGreaterThan(exact.recall);
    expect(soft.precision).toBeGreaterThan(exact.precision);
    expect(soft.words.find((w) => w.text === "kids")?.matchedTo).toBe("children");
  });

  it("alignment finds the missing argument and the unsupported sentence", () => {
    const response =
      "People disagree. Some say uniforms cost families less. Others say uniforms improve school safety against intruders. Critics say uniforms restrict how students express themselves.";
    const a = alignResponse(input, response, matcher);
    const worstArgument = [...a.arguments].sort((x, y) => x.coverage - y.coverage)[0]!;
    expect(worstArgument.text).toBe("Uniforms reduce bullying of children.");
    const scored = a.sentences.filter((s) => !s.opening);
    const worstSentence = [...scored].sort((x, y) => x.support - y.support)[0]!;
    expect(worstSentence.text).toBe("Others say uniforms improve school safety against intruders.");
    expect(a.sentences[0]!.opening).toBe(true);
    const good = alignResponse(input, paraphrased, matcher);
    expect(good.hallucination).toBeLessThan(a.hallucination);
    expect(good.coverage).toBeLessThan(a.coverage);
  });
});

describe("word vectors", () => {
  it("train deterministically, pull paraphrase words together, and round-trip", () => {
    const groups = [
      ["the kids play outside", "the children play outside"],
      ["kids like games", "children like games"],
      ["taxes fund schools", "levies fund schools"],
      ["the kids learn", "the children learn"],
      ["taxes are high", "levies are high"],
    ];
    const a = trainWordVectors(groups, { dim: 16, epochs: 30, minCount: 1, seed: 4 });
    const b = trainWordVectors(groups, { dim: 16, epochs: 30, minCount: 1, seed: 4 });
    expect(Array.from(a.data)).toEqual(Array.from(b.data));
    const dir = mkdtempSync(join(tmpdir(), "npov-vec-"));
    saveWordVectors(dir, a);
    const c = loadWordVectors(dir);
    expect(Array.from(c.data)).toEqual(Array.from(a.data));
    const withVectors = new SoftMatcher({ vectors: a, vectorThreshold: 0.3 });
    expect(withVectors.weight(term("levies"), term("taxes"))).toBeGreaterThan(0.3);
  });
});

describe("soft matcher inputs and evidence order", () => {
  it("word vectors must have unit rows (similarities are dot products): others are INVALID_VALUE", () => {
    const index = new Map([
      ["zoo", 0],
      ["park", 1],
    ]);
    const scaled = { dim: 2, index, data: Float32Array.from([3, 0, 3, 0]) };
    expect(() => new SoftMatcher({ vectors: scaled })).toThrow(
      expect.objectContaining({ code: "INVALID_VALUE", message: expect.stringContaining("row 0 has length 3") }),
    );
    const unit = { dim: 2, index, data: Float32Array.from([1, 0, 0.6, 0.8]) };
    expect(() => new SoftMatcher({ vectors: unit })).not.toThrow();
  });

  it("soft's unsupported spans come worst first (npov check prints the first ones)", async () => {
    const r = await softErrorDetector(matcher).detect(
      {
        topic: "zoos",
        query: "Should zoos exist?",
        perspectives: [
          { label: "pro", arguments: [{ text: "Zoos rescue animals." }] },
          { label: "con", arguments: [{ text: "Cages harm creatures." }] },
        ],
      },
      "Zoos rescue beasts. Astrology predicts elections.",
    );
    const scores = (r.unsupportedSpans ?? []).map((s) => s.score);
    expect(scores.length).toBeGreaterThan(1);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(r.unsupportedSpans?.[0]?.score).toBe(1);
  });
});
