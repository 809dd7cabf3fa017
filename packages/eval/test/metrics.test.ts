import { InvalidValueError } from "@npov/core";
import {
  averagePrecision,
  bootstrapCi,
  chooseThreshold,
  kendallTauB,
  krippendorffAlpha,
  metricsAt,
  rocAuc,
  rocCurve,
  trapezoidArea,
} from "@npov/eval";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

describe("rocAuc", () => {
  it("matches hand-worked values, ties counted half", () => {
    expect(rocAuc([0.1, 0.4, 0.35, 0.8], [0, 0, 1, 1])).toBe(0.75); // scikit-learn's documented example
    expect(rocAuc([0.2, 0.5, 0.5, 0.9], [0, 0, 1, 1])).toBe(3.5 / 4);
    expect(rocAuc([0.5, 0.5, 0.5, 0.5], [0, 1, 0, 1])).toBe(0.5);
    expect(rocAuc([1, 2, 3], [true, false, false])).toBe(0);
  });

  const data = fc
    .array(fc.tuple(fc.integer({ min: 0, max: 20 }), fc.boolean()), { minLength: 2, maxLength: 60 })
    .filter((xs) => xs.some(([, l]) => l) && xs.some(([, l]) => !l));

  it("equals the Mann-Whitney pair count, the trapezoid area, and is invariant to monotone transforms", () => {
    fc.assert(
      fc.property(data, (xs) => {
        const scores = xs.map(([s]) => s / 20);
        const labels = xs.map(([, l]) => l);
        const auc = rocAuc(scores, labels);
        let wins = 0;
        let pairs = 0;
        xs.forEach(([a, la]) => {
          xs.forEach(([b, lb]) => {
            if (la && !lb) {
              pairs++;
              wins += a > b ? 1 : a === b ? 0.5 : 0;
            }
          });
        });
        expect(auc).toBeCloseTo(wins / pairs, 12);
        expect(trapezoidArea(rocCurve(scores, labels))).toBeCloseTo(auc, 12);
        expect(
          rocAuc(
            scores.map((s) => Math.exp(3 * s) - 7),
            labels,
          ),
        ).toBeCloseTo(auc, 12);
        expect(
          rocAuc(
            scores.map((s) => -s),
            labels,
          ),
        ).toBeCloseTo(1 - auc, 12);
      }),
    );
  });

  it("refuses missing classes, unequal lengths and non-finite scores with typed errors", () => {
    expect(() => rocAuc([0.1, 0.2], [1, 1])).toThrow(InvalidValueError);
    expect(() => rocAuc([0.1], [1, 0])).toThrow(/one label per score/);
    expect(() => rocAuc([Number.NaN, 0.2], [1, 0])).toThrow(/finite/);
  });
});

describe("rocCurve and averagePrecision", () => {
  it("reproduce scikit-learn's documented examples", () => {
    expect(rocCurve([0.1, 0.4, 0.35, 0.8], [0, 0, 1, 1])).toEqual([
      { threshold: Number.POSITIVE_INFINITY, fpr: 0, tpr: 0 },
      { threshold: 0.8, fpr: 0, tpr: 0.5 },
      { threshold: 0.4, fpr: 0.5, tpr: 0.5 },
      { threshold: 0.35, fpr: 0.5, tpr: 1 },
      { threshold: 0.1, fpr: 1, tpr: 1 },
    ]);
    expect(averagePrecision([0.1, 0.4, 0.35, 0.8], [0, 0, 1, 1])).toBeCloseTo(0.8333333333333333, 15);
  });
});

describe("bootstrapCi", () => {
  it("is deterministic per seed and brackets the estimate", () => {
    const scores = Array.from({ length: 200 }, (_, i) => ((i * 37) % 101) / 100);
    const labels = scores.map((s, i) => s + ((i * 13) % 7) / 10 > 0.7);
    const a = bootstrapCi(rocAuc, scores, labels, { seed: 4, resamples: 300 });
    const b = bootstrapCi(rocAuc, scores, labels, { seed: 4, resamples: 300 });
    expect(a).toEqual(b);
    expect(a.low).toBeLessThanOrEqual(a.estimate);
    expect(a.high).toBeGreaterThanOrEqual(a.estimate);
    expect(a.high - a.low).toBeGreaterThan(0);
    expect(a.high - a.low).toBeLessThan(0.3);
    expect(bootstrapCi(rocAuc, scores, labels, { seed: 5, resamples: 300 })).not.toEqual(a);
  });
});

describe("Krippendorff's alpha", () => {
  // Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability", section C: 4 observers, 12 units,
  // values 1-5, missing data. Published: nominal 0.743, ordinal 0.815, interval 0.849.
  const _ = null;
  const data = [
    [1, 2, 3, 3, 2, 1, 4, 1, 2, _, _, _],
    [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, _, 3],
    [_, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, _],
    [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, _],
  ];
  it("reproduces the published worked example", () => {
    expect(krippendorffAlpha(data, "nominal")).toBeCloseTo(0.743, 3);
    expect(krippendorffAlpha(data, "ordinal")).toBeCloseTo(0.815, 3);
    expect(krippendorffAlpha(data, "interval")).toBeCloseTo(0.849, 3);
  });

  it("reproduces the binary two-observer example (alpha = 0.095)", () => {
    const a = [0, 1, 0, 0, 0, 0, 0, 0, 1, 0];
    const b = [1, 1, 1, 0, 0, 1, 0, 0, 0, 0];
    expect(krippendorffAlpha([a, b], "nominal")).toBeCloseTo(0.095, 3);
  });

  it("is undefined, not 1, when every pairable rating is the same (0/0: no variation to agree on)", () => {
    for (const level of ["nominal", "ordinal", "interval"] as const)
      expect(
        krippendorffAlpha(
          [
            [0, 0, 0, null],
            [0, 0, null, 7], // the 7 has no partner in its unit: it is not pairable and does not count
            [0, null, 0, null],
          ],
          level,
        ),
      ).toBeUndefined();
    expect(
      krippendorffAlpha([
        ["no", "no"],
        ["no", "no"],
      ]),
    ).toBeUndefined();
    // One differing rating makes it defined: units (n,n), (n,y): o_nn = 2, o_ny = o_yn = 1, n = 4, n_n = 3,
    // n_y = 1: alpha = 1 - 3 * 2 / (3 * 1 + 1 * 3) = 0.
    expect(
      krippendorffAlpha([
        ["no", "no"],
        ["no", "yes"],
      ]),
    ).toBe(0);
  });

  it("is 1 for perfect agreement, accepts string labels, and rejects bad data", () => {
    expect(
      krippendorffAlpha([
        ["yes", "no", "yes"],
        ["yes", "no", "yes"],
      ]),
    ).toBe(1);
    expect(() => krippendorffAlpha([[1, 2]])).toThrow(InvalidValueError);
    expect(() => krippendorffAlpha([[1, 2], [1]])).toThrow(/units/);
    expect(() =>
      krippendorffAlpha(
        [
          ["a", "b"],
          ["a", "b"],
        ],
        "interval",
      ),
    ).toThrow(/numeric/);
  });
});

describe("Kendall's tau-b", () => {
  it("reproduces scipy's documented example with ties", () => {
    expect(kendallTauB([12, 2, 1, 12, 2], [1, 4, 7, 1, 0])).toBeCloseTo(-0.47140452079103173, 14);
  });
  it("is 1 for identical order, -1 for reversed, and refuses constants", () => {
    expect(kendallTauB([1, 2, 3, 4], [10, 20, 30, 40])).toBe(1);
    expect(kendallTauB([1, 2, 3, 4], [4, 3, 2, 1])).toBe(-1);
    expect(() => kendallTauB([1, 1, 1], [1, 2, 3])).toThrow(InvalidValueError);
  });
});

describe("thresholds", () => {
  const scores = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8];
  const labels = [0, 0, 1, 0, 1, 0, 1, 1];

  it("computes the confusion matrix at a threshold", () => {
    expect(metricsAt(scores, labels, 0.5)).toEqual({
      threshold: 0.5,
      tp: 3,
      fp: 1,
      tn: 3,
      fn: 1,
      precision: 0.75,
      recall: 0.75,
      f1: 0.75,
      fpr: 0.25,
    });
  });

  it("chooses by target FPR, max F1 and Youden's J", () => {
    expect(chooseThreshold(scores, labels, { rule: "fpr", target: 0 }).threshold).toBe(0.7);
    expect(chooseThreshold(scores, labels, { rule: "fpr", target: 0.25 }).threshold).toBe(0.5);
    // F1 at 0.3 = 2*(4/6)*(1)/(4/6+1) = 0.8, the best.
    expect(chooseThreshold(scores, labels, { rule: "max-f1" })).toMatchObject({ threshold: 0.3, f1: 0.8 });
    // J: 0.7 -> 0.5, 0.5 -> 0.5, 0.3 -> 0.5; ties go to the higher threshold.
    expect(chooseThreshold(scores, labels, { rule: "youden" }).threshold).toBe(0.7);
  });

  it("agrees with metricsAt for every rule (property)", () => {
    fc.assert(
      fc.property(
        fc
          .array(fc.tuple(fc.integer({ min: 0, max: 9 }), fc.boolean()), { minLength: 2, maxLength: 40 })
          .filter((xs) => xs.some((x) => x[1]) && xs.some((x) => !x[1])),
        (xs) => {
          const s = xs.map(([v]) => v / 10);
          const l = xs.map(([, b]) => b);
          for (const rule of [
            { rule: "max-f1" as const },
            { rule: "youden" as const },
            { rule: "fpr" as const, target: 0.2 },
          ]) {
            const chosen = chooseThreshold(s, l, rule);
            expect(chosen).toEqual(metricsAt(s, l, chosen.threshold));
            if (rule.rule === "fpr") expect(chosen.fpr).toBeLessThanOrEqual(0.2);
          }
        },
      ),
    );
  });
});
