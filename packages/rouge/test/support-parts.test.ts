import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { contentTerms, type NpovInput } from "@npov/core";
import {
  blendedHallucination,
  blendLogit,
  buildSpecificityTable,
  calibrationReport,
  checkSupportCombiner,
  crossValidateLogistic,
  defaultLexSim,
  defaultSpecificityTable,
  fitLogistic,
  lexCosine,
  loadLexSim,
  loadSpecificityTable,
  loadSupportCombiner,
  opensSide,
  predictLogistic,
  SemanticMatcher,
  Specificity,
  type SupportArgument,
  type SupportSentence,
  saveLexSim,
  saveSpecificityTable,
  sentenceRole,
  supportFeatures,
  symmetricEigen,
} from "@npov/rouge";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const input: NpovInput = {
  topic: "violent video games",
  query: "Do violent video games cause aggression?",
  perspectives: [
    {
      label: "pro",
      arguments: [{ text: "Simulating violence such as shooting guns and hand-to-hand combat desensitizes players" }],
    },
    { label: "con", arguments: [{ text: "There is no proven link between games and real-world crime" }] },
  ],
};

/** Role of a sentence under the shipped specificity table, support 0 unless listed. */
function role(text: string) {
  const spec = new Specificity(defaultSpecificityTable(), input);
  const words = contentTerms(text).map((term) => ({ term, weight: spec.weight(term), inQuery: spec.inQuery(term) }));
  return sentenceRole(words);
}

describe("side blocks", () => {
  it("a sentence opening with a side cue opens a block; a word that merely starts with a cue does not", () => {
    for (const opener of [
      "However, the costs are real.",
      "Critics argue otherwise.",
      "On the other  hand, schools gain.",
      "\u201cThose in favour\u201d point to safety.",
      "BUT that is not all.",
      "Some see a benefit.",
    ])
      expect(opensSide(opener), opener).toBe(true);
    for (const other of [
      "Someone pays the bill.",
      "Butter is cheaper.",
      "Supportive parents help.",
      "The critics are wrong.",
      "Manyfold gains follow.",
    ])
      expect(opensSide(other), other).toBe(false);
  });

  it("structure features count perspective switches, mixed blocks and scattered perspectives (hand-worked)", () => {
    // Blocks 0 | 1: perspective 0, 0 in block 0; then 1 and 0 in block 1 (an argument presented as the
    // other side's). Order 0 0 1 0: 2 switches, 1 expected -> 1 extra; block 1 mixes both; perspective 0
    // is stated in 2 blocks -> 1 scattered. The 0.2-support sentence is not clearly attributed: ignored.
    const sentence = (side: number, perspective: number, support: number): SupportSentence => ({
      text: "x",
      start: 0,
      end: 1,
      role: "argument",
      support: 0.5,
      unsupportedMass: 0,
      singleSupport: 0.5,
      worstClause: 0,
      worstClauseMass: 0,
      clauseUnexplained: 0,
      bestArgument: { perspective, argument: 0, support },
      orphan: false,
      topical: true,
      unsupportedNames: 0,
      side,
      words: [],
      features: {},
    });
    const argument = (perspective: number, argument: number): SupportArgument => ({
      perspective,
      argument,
      text: "x",
      coverage: 1,
      localCoverage: 1,
      assignedCoverage: 1,
      claim: 1,
      claimed: true,
      words: [],
    });
    const f = supportFeatures(
      [sentence(0, 0, 0.6), sentence(0, 0, 0.7), sentence(1, 1, 0.2), sentence(1, 1, 0.8), sentence(1, 0, 0.5)],
      [argument(0, 0), argument(0, 1), argument(1, 0)],
      2,
    );
    // As shares: 1 extra switch of 3 transitions, 1 mixed block of 2, 1 scattered perspective over 4
    // attributed sentences.
    expect(f["support.extraSwitchShare"]).toBeCloseTo(1 / 3, 12);
    expect(f["support.mixedBlockShare"]).toBe(0.5);
    expect(f["support.scatteredShare"]).toBe(0.25);
  });
});

describe("sentence roles", () => {
  it.each([
    "Critics raise several objections.",
    "Supporters make a few points.",
    "Ultimately, the answer depends on how one weighs these concerns.",
    "Whether violent video games cause aggression is a question that divides people.",
  ])("framing: %s", (text) => {
    expect(role(text)).toBe("framing");
  });

  it.each([
    "The American Psychological Association lists violent video games as a risk factor for aggressive behavior.",
    "Acting out violence on a screen, such as firing weapons, numbs players.",
  ])("argument: %s", (text) => {
    expect(role(text)).toBe("argument");
  });

  it("a role is decided by what the sentence says: the same claim argues first, last or alone", () => {
    // No position reaches sentenceRole: an invented claim closing a response is checked like any other.
    const text = "Firing weapons on a screen numbs players.";
    expect(role(text)).toBe("argument");
    expect(sentenceRole([])).toBe("framing");
  });
});

describe("specificity", () => {
  const topics = [
    {
      id: "t",
      title: "zoos",
      query: "Should zoos exist?",
      split: "train" as const,
      perspectives: [
        { label: "pro", arguments: [{ text: "Zoos protect animals" }, { text: "Zoos educate children" }] },
        { label: "con", arguments: [{ text: "Zoos confine animals" }] },
      ],
    },
  ];

  it("weighs a word by its IDF over the arguments, discounting query words (hand-worked)", () => {
    const table = buildSpecificityTable(topics);
    expect(table.documents).toBe(3);
    expect(table.df.get("zoo")).toBe(3);
    expect(table.df.get("anim")).toBe(2);
    const spec = new Specificity(table, { topic: "zoos", query: "Should zoos exist?", perspectives: [] as never });
    const [zoo, animals, children] = contentTerms("zoo animals children");
    const maxIdf = Math.log(4);
    expect(spec.idf(animals!)).toBeCloseTo(Math.log(4 / 3) / maxIdf, 12);
    expect(spec.idf(children!)).toBeCloseTo(Math.log(4 / 2) / maxIdf, 12);
    // "zoo" is in every document (idf 0) and in the query: the floor.
    expect(spec.weight(zoo!)).toBe(0.02);
    const unknown = contentTerms("psychological")[0]!;
    expect(spec.weight(unknown)).toBe(1);
  });

  it("round-trips through its file and rejects a file of another format with a typed error", () => {
    const dir = mkdtempSync(join(tmpdir(), "npov-spec-"));
    const table = buildSpecificityTable(topics);
    saveSpecificityTable(join(dir, "s.json"), table);
    expect(loadSpecificityTable(join(dir, "s.json"))).toEqual(table);
    writeFileSync(join(dir, "bad.json"), '{"format":"other"}');
    expect(() => loadSpecificityTable(join(dir, "bad.json"))).toThrow(
      expect.objectContaining({ code: "INVALID_FILE" }),
    );
    writeFileSync(join(dir, "broken.json"), "{not json");
    expect(() => loadSpecificityTable(join(dir, "broken.json"))).toThrow(
      expect.objectContaining({ code: "INVALID_FILE" }),
    );
  });
});

describe("lexical similarity (shipped npov-lexsim)", () => {
  const model = defaultLexSim();
  const matcher = new SemanticMatcher();
  const t = (w: string) => contentTerms(w, { stopwords: false })[0]!;
  const synonyms = [
    ["car", "automobile"],
    ["opponent", "adversary"],
    ["fight", "combat"],
    ["boundary", "limit"],
    ["firing", "shooting"],
    ["attack", "assault"],
    ["costly", "expensive"],
    ["children", "kids"],
  ] as const;
  const unrelated = [
    ["car", "banana"],
    ["democracy", "banana"],
    ["opponent", "vegetable"],
    ["boundary", "singing"],
    ["expensive", "tree"],
    ["children", "volcano"],
    ["attack", "spoon"],
    ["fight", "purple"],
  ] as const;

  it("covers WordNet at scale", () => {
    expect(model).toBeDefined();
    expect(model!.words.length).toBeGreaterThan(140_000);
    expect(model!.index.has("ice cream")).toBe(true);
    expect(model!.index.has("desensitize")).toBe(true);
  });

  it("puts every synonym pair above every unrelated pair, by a margin", () => {
    const syn = synonyms.map(([a, b]) => matcher.weight(t(a), t(b)));
    const unr = unrelated.map(([a, b]) => matcher.weight(t(a), t(b)));
    expect(Math.min(...syn) - Math.max(...unr)).toBeGreaterThan(0.3);
    const cos = (a: string, b: string) => lexCosine(model!, a, b) as number;
    const known = synonyms.filter(([a, b]) => model!.index.has(a) && model!.index.has(b));
    expect(known.length).toBeGreaterThanOrEqual(5);
    const synCos = known.map(([a, b]) => cos(a, b));
    const unrCos = unrelated.filter(([a, b]) => model!.index.has(a) && model!.index.has(b)).map(([a, b]) => cos(a, b));
    expect(unrCos.length).toBeGreaterThanOrEqual(5);
    expect(
      synCos.reduce((x, y) => x + y, 0) / synCos.length - unrCos.reduce((x, y) => x + y, 0) / unrCos.length,
    ).toBeGreaterThan(0.3);
  });

  it("round-trips through its files; a truncated vector file is a typed error", () => {
    const dir = mkdtempSync(join(tmpdir(), "npov-lexsim-"));
    const tiny = {
      dim: 2,
      words: ["a", "b"],
      index: new Map([
        ["a", 0],
        ["b", 1],
      ]),
      data: Int8Array.from([127, 0, 90, 90]),
      norms: Float32Array.from([127, Math.hypot(90, 90)]),
    };
    saveLexSim(dir, tiny);
    const back = loadLexSim(dir);
    expect(back.words).toEqual(["a", "b"]);
    expect(lexCosine(back, "a", "b")).toBeCloseTo(Math.SQRT1_2, 6);
    expect(lexCosine(back, "a", "zzz")).toBeUndefined();
    writeFileSync(join(dir, "vectors.i8"), new Uint8Array(3));
    expect(() => loadLexSim(dir)).toThrow(expect.objectContaining({ code: "INVALID_FILE" }));
  });
});

describe("combiner", () => {
  it("fits the hand-worked one-feature optimum w = 2 sigmoid(-w), bias 0", () => {
    // x = -1 (no error), x = +1 (error), L2 = 1: the gradient vanishes where w = 2 sigmoid(-w).
    const m = fitLogistic([{ x: -1 }, { x: 1 }], [false, true], ["x"], { l2: 1 });
    const w = m.weights[0]!;
    expect(w).toBeCloseTo(2 / (1 + Math.exp(w)), 10);
    expect(m.bias).toBeCloseTo(0, 10);
    expect(predictLogistic(m, { x: 1 })).toBeCloseTo(1 / (1 + Math.exp(-w)), 12);
  });

  it("gives bit-identical weights for the same seed and data (any data)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.double({ min: -5, max: 5, noNaN: true }), fc.double({ min: -5, max: 5, noNaN: true })), {
          minLength: 4,
          maxLength: 30,
        }),
        fc.integer({ min: 0, max: 1000 }),
        (points, seed) => {
          const rows = points.map(([a, b]) => ({ a, b }));
          const labels = points.map((_, i) => i % 2 === 0);
          const first = fitLogistic(rows, labels, ["a", "b"], { seed });
          const second = fitLogistic(rows, labels, ["a", "b"], { seed });
          expect(second).toEqual(first);
          for (const r of rows) {
            const p = predictLogistic(first, r);
            expect(p).toBeGreaterThanOrEqual(0);
            expect(p).toBeLessThanOrEqual(1);
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it("scores each group with the model fitted without its fold, bit-identical to fitLogistic on the rest", () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -3, max: 3, noNaN: true }), { minLength: 12, maxLength: 40 }),
        fc.integer({ min: 2, max: 4 }),
        fc.integer({ min: 0, max: 1000 }),
        (xs, folds, seed) => {
          const rows = xs.map((x, i) => ({ x, y: (i % 5) - 2 }));
          // Labels alternate so every training set holds both classes; every third row is ungrouped
          // (always trained on, never scored), the rest fall in six groups.
          const labels = xs.map((_, i) => i % 2 === 0);
          const groups = xs.map((_, i) => (i % 3 === 0 ? undefined : `g${i % 6}`));
          const weights = (train: readonly number[]) => train.map((i) => 1 + (i % 3));
          const cv = crossValidateLogistic(rows, labels, ["x", "y"], { groups, folds, seed, weights });
          expect(cv.rows).toEqual(groups.flatMap((g, i) => (g === undefined ? [] : [i])));
          // A group's rows share a fold, and the groups are dealt evenly.
          const foldOfGroup = new Map<string, number>();
          cv.rows.forEach((row, j) => {
            const g = groups[row] as string;
            expect(foldOfGroup.get(g) ?? cv.folds[j]).toBe(cv.folds[j]);
            foldOfGroup.set(g, cv.folds[j] as number);
          });
          const perFold = Array.from(
            { length: folds },
            (_, f) => [...foldOfGroup.values()].filter((x) => x === f).length,
          );
          expect(Math.max(...perFold) - Math.min(...perFold)).toBeLessThanOrEqual(1);
          for (let f = 0; f < folds; f++) {
            const train = rows.flatMap((_, i) =>
              groups[i] === undefined || foldOfGroup.get(groups[i] as string) !== f ? [i] : [],
            );
            const model = fitLogistic(
              train.map((i) => rows[i] as { x: number; y: number }),
              train.map((i) => labels[i] as boolean),
              ["x", "y"],
              { seed, weights: weights(train) },
            );
            cv.rows.forEach((row, j) => {
              if (cv.folds[j] === f)
                expect(cv.probabilities[j]).toBe(predictLogistic(model, rows[row] as { x: number; y: number }));
            });
          }
          expect(crossValidateLogistic(rows, labels, ["x", "y"], { groups, folds, seed, weights })).toEqual(cv);
        },
      ),
      { numRuns: 25 },
    );
  });

  it("never scores a group with a model that saw it (hand-made: two groups with opposite labels)", () => {
    // Group "a": error when x > 0; group "b": error when x < 0. Fitted on both, the model is flat (weight 0 by
    // symmetry, every probability 1/2); out of fold, each group is scored by the other's rule, so each row
    // gets the wrong side of 1/2.
    const xs = [-2, -1, 1, 2];
    const rows = [...xs, ...xs].map((x) => ({ x }));
    const labels = [...xs.map((x) => x > 0), ...xs.map((x) => x < 0)];
    const groups = [...xs.map(() => "a"), ...xs.map(() => "b")];
    const pooled = fitLogistic(rows, labels, ["x"]);
    for (const r of rows) expect(predictLogistic(pooled, r)).toBeCloseTo(0.5, 12);
    const cv = crossValidateLogistic(rows, labels, ["x"], { groups, folds: 2 });
    expect(cv.rows).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    cv.probabilities.forEach((p, j) => {
      expect(p > 0.5).toBe(!labels[cv.rows[j] as number]);
    });
  });

  it("rejects too few groups for the folds and mismatched groups with typed errors", () => {
    const rows = [{ x: 1 }, { x: -1 }, { x: 2 }, { x: -2 }];
    const labels = [true, false, true, false];
    expect(() => crossValidateLogistic(rows, labels, ["x"], { groups: ["a", "a", "b", "b"], folds: 3 })).toThrow(
      expect.objectContaining({
        code: "INVALID_VALUE",
        message: expect.stringContaining("2 groups cannot fill 3 folds"),
      }),
    );
    expect(() => crossValidateLogistic(rows, labels, ["x"], { groups: ["a", "b"] })).toThrow(
      expect.objectContaining({ code: "INVALID_VALUE" }),
    );
    expect(() => crossValidateLogistic(rows, labels, ["x"], { groups: ["a", "b", "c", 4 as never], folds: 2 })).toThrow(
      expect.objectContaining({ code: "NOT_TEXT" }),
    );
  });

  it("rejects one-class data and missing features with typed errors", () => {
    expect(() => fitLogistic([{ x: 1 }], [true], ["x"])).toThrow(expect.objectContaining({ code: "INVALID_VALUE" }));
    expect(() => fitLogistic([{ x: 1 }, { y: 2 }], [true, false], ["x"])).toThrow(
      expect.objectContaining({ code: "INVALID_VALUE" }),
    );
  });

  it("reports Brier score and reliability (hand-worked)", () => {
    const r = calibrationReport([0.1, 0.9, 0.85, 0.15], [false, true, false, false]);
    expect(r.brier).toBeCloseTo((0.01 + 0.01 + 0.7225 + 0.0225) / 4, 12);
    // Bins of width 0.1: {0.1, 0.15} -> bin 1, 0.85 -> bin 8, 0.9 -> bin 9.
    expect(r.bins[1]).toMatchObject({ count: 2, predicted: expect.closeTo(0.125, 12), observed: 0 });
    expect(r.bins[8]).toMatchObject({ count: 1, predicted: 0.85, observed: 0 });
    expect(r.bins[9]).toMatchObject({ count: 1, predicted: 0.9, observed: 1 });
    expect(r.ece).toBeCloseTo(0.5 * 0.125 + 0.25 * 0.85 + 0.25 * 0.1, 12);
  });

  it("blends the example model with the likeliest unsupported sentence and recalibrates (hand-worked)", () => {
    const blend = { sentenceShare: 0.5, npov: { scale: 2, bias: -1 } };
    // (0.2 + 0.6) / 2 = 0.4; logit 0.4 = ln(2/3); 2 ln(2/3) - 1 -> sigmoid.
    const z = 2 * Math.log(0.4 / 0.6) - 1;
    expect(blendedHallucination(blend, 0.2, 0.6)).toBeCloseTo(1 / (1 + Math.exp(-z)), 12);
    expect(blendedHallucination({ sentenceShare: 1, npov: { scale: 1, bias: 0 } }, 0.2, 0.6)).toBeCloseTo(0.6, 12);
    expect(blendLogit(0.5, 0.2, 0.6)).toBeCloseTo(Math.log(0.4 / 0.6), 12);
    // Ends of the scale stay finite; never NaN.
    for (const [e, m] of [
      [0, 0],
      [1, 1],
    ] as const)
      expect(Number.isFinite(blendedHallucination(blend, e, m))).toBe(true);
    // Monotone in both parts for any positive scale (fast-check).
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0.01, max: 10, noNaN: true }),
        (a, b, share, scale) => {
          const x = { sentenceShare: share, npov: { scale, bias: 0.3 } };
          const [lo, hi] = a <= b ? [a, b] : [b, a];
          expect(blendedHallucination(x, hi, 0.5)).toBeGreaterThanOrEqual(blendedHallucination(x, lo, 0.5));
          expect(blendedHallucination(x, 0.5, hi)).toBeGreaterThanOrEqual(blendedHallucination(x, 0.5, lo));
        },
      ),
      { numRuns: 200, seed: 29 },
    );
  });

  it("refuses a blend that could make the score fall, or that has no sentence model to read", () => {
    const model = { features: ["x"], mean: [0], std: [1], weights: [1], bias: 0 };
    const base = { format: "npov-support-combiner/2", hallucination: model, coverage: model, sentence: model };
    expect(() => checkSupportCombiner({ ...base, blend: { sentenceShare: 0.5, npov: { scale: 0, bias: 0 } } })).toThrow(
      expect.objectContaining({ code: "INVALID_VALUE", path: "combiner.blend.npov.scale" }),
    );
    expect(() => checkSupportCombiner({ ...base, blend: { sentenceShare: 1.5, npov: { scale: 1, bias: 0 } } })).toThrow(
      expect.objectContaining({ path: "combiner.blend.sentenceShare" }),
    );
    const { sentence: _, ...noSentence } = base;
    expect(() =>
      checkSupportCombiner({ ...noSentence, blend: { sentenceShare: 0.5, npov: { scale: 1, bias: 0 } } }),
    ).toThrow(expect.objectContaining({ path: "combiner.blend" }));
    const dir = mkdtempSync(join(tmpdir(), "npov-blend-"));
    writeFileSync(
      join(dir, "c.json"),
      JSON.stringify({ ...base, blend: { sentenceShare: 0.5, npov: { scale: -1, bias: 0 } } }),
    );
    expect(() => loadSupportCombiner(join(dir, "c.json"))).toThrow(expect.objectContaining({ code: "INVALID_FILE" }));
  });

  it("a stored combiner of the wrong shape is a typed error", () => {
    const dir = mkdtempSync(join(tmpdir(), "npov-comb-"));
    writeFileSync(join(dir, "c.json"), JSON.stringify({ format: "npov-support-combiner/1", hallucination: {} }));
    expect(() => loadSupportCombiner(join(dir, "c.json"))).toThrow(expect.objectContaining({ code: "INVALID_FILE" }));
  });
});

describe("symmetric eigen-solver (randomized SVD core)", () => {
  it("solves a hand-worked 2 x 2 case", () => {
    const { values, vectors } = symmetricEigen(Float64Array.from([2, 1, 1, 2]), 2);
    expect([...values].sort()).toEqual([expect.closeTo(1, 12), expect.closeTo(3, 12)]);
    const k = values[0]! > values[1]! ? 0 : 1;
    expect(Math.abs(vectors[k]!)).toBeCloseTo(Math.SQRT1_2, 12);
    expect(Math.abs(vectors[2 + k]!)).toBeCloseTo(Math.SQRT1_2, 12);
  });
});
