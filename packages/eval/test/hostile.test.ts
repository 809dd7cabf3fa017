/**
 * @npov/eval at its public boundaries: the issue 22 cases (Krippendorff's alpha on NaN, a numeric slice, a
 * detector returning NaN, unbounded bootstrap), Kendall's tau-b in O(n log n) against the pairwise
 * definition, and every public function under hostile arguments (fast-check, fixed seed).
 */
import type { ErrorDetector, NpovExample, NpovInput } from "@npov/core";
import { NpovError, readJsonFile } from "@npov/core";
import * as ev from "@npov/eval";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { attack, type Target } from "../../core/test/hostile.js";

const input: NpovInput = readJsonFile(`${__dirname}/../../../fixtures/examples/uniforms.json`).input;
const example = (i: number, hallucination: boolean, slice = "s"): NpovExample => ({
  id: `e${i}`,
  slice,
  input,
  response: `Response number ${i} about uniforms.`,
  labels: { hallucination, coverage: !hallucination },
});
const dataset = [0, 1, 2, 3, 4, 5].map((i) => example(i, i % 2 === 0));
// Scores from the response's number: a detector that ranks examples 0..5.
const numbered = (name: string, f: (n: number) => number): ErrorDetector => ({
  name,
  detect: (_input, response) => {
    const n = Number(/\d+/.exec(response)?.[0]);
    return { hallucination: f(n), coverage: 1 - f(n) };
  },
});

const codeOf = async (f: () => unknown): Promise<string | undefined> => {
  try {
    await f();
    return undefined;
  } catch (e) {
    return e instanceof NpovError ? e.code : `not an NpovError: ${String(e)}`;
  }
};

/** Kendall's tau-b by its definition: every pair, O(n^2). */
function pairwiseTau(x: number[], y: number[]): number {
  let c = 0;
  let d = 0;
  let tx = 0;
  let ty = 0;
  for (let i = 0; i < x.length; i++)
    for (let j = i + 1; j < x.length; j++) {
      const dx = Math.sign((x[i] as number) - (x[j] as number));
      const dy = Math.sign((y[i] as number) - (y[j] as number));
      if (dx === 0) tx++;
      if (dy === 0) ty++;
      if (dx !== 0 && dy !== 0) dx === dy ? c++ : d++;
    }
  const n0 = (x.length * (x.length - 1)) / 2;
  return (c - d) / Math.sqrt((n0 - tx) * (n0 - ty));
}

describe("issue 22 cases", () => {
  it("krippendorffAlpha refuses NaN (it answered 1); null still marks a missing rating", async () => {
    expect(
      await codeOf(() =>
        ev.krippendorffAlpha([
          [Number.NaN, 1],
          [Number.NaN, 1],
        ]),
      ),
    ).toBe("INVALID_VALUE");
    expect(
      await codeOf(() =>
        ev.krippendorffAlpha(
          [
            [1, Number.POSITIVE_INFINITY],
            [1, 2],
          ],
          "interval",
        ),
      ),
    ).toBe("INVALID_VALUE");
    expect(await codeOf(() => ev.krippendorffAlpha([[1], [1]], "ratio" as never))).toBe("INVALID_VALUE");
    expect(
      ev.krippendorffAlpha([
        [null, 1, 2],
        [3, 1, 2],
      ]),
    ).toBe(1);
  });

  it("kendallTauB counts pairs in O(n log n) and equals the pairwise definition exactly (property)", async () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 6 })), {
          minLength: 2,
          maxLength: 40,
        }),
        (pairs) => {
          const x = pairs.map(([a]) => a);
          const y = pairs.map(([, b]) => b / 3);
          const expected = pairwiseTau(x, y);
          if (!Number.isFinite(expected)) expect(() => ev.kendallTauB(x, y)).toThrow(NpovError);
          else expect(ev.kendallTauB(x, y)).toBe(expected);
        },
      ),
      { numRuns: 300 },
    );
    // 200,000 pairs: 2e10 pair comparisons before, a sort and a merge now.
    const n = 200_000;
    const x = Array.from({ length: n }, (_, i) => i % 1000);
    const tau = ev.kendallTauB(
      x,
      x.map((v) => -v),
    );
    expect(tau).toBe(-1);
    expect(await codeOf(() => ev.kendallTauB([1, Number.NaN], [1, 2]))).toBe("INVALID_VALUE");
  });

  it('evaluate refuses "slice": 5 and a detector that returns NaN, naming them', async () => {
    const withNumericSlice = [...dataset, { ...example(9, true), slice: 5 as never }];
    expect(await codeOf(() => ev.evaluate(withNumericSlice, [numbered("n", (k) => k / 10)]))).toBe("INVALID_VALUE");
    const broken = numbered("broken", () => Number.NaN);
    try {
      await ev.evaluate(dataset, [broken]);
      expect.unreachable();
    } catch (e) {
      expect((e as NpovError).code).toBe("INVALID_SCORE");
      expect((e as Error).message).toContain('"broken"');
    }
    expect(await codeOf(() => ev.calibrateThresholds(dataset, broken))).toBe("INVALID_SCORE");
  });

  it("bootstrap refuses a billion resamples at once", async () => {
    expect(await codeOf(() => ev.bootstrapCi(ev.rocAuc, [0.1, 0.9], [false, true], { resamples: 1e9 }))).toBe(
      "INPUT_TOO_LARGE",
    );
    expect(await codeOf(() => ev.bootstrapCi(() => Number.NaN, [0.1, 0.9], [false, true]))).toBe("INVALID_VALUE");
  });
});

describe("@npov/eval public functions under hostile arguments", () => {
  it("never throw anything but an NpovError, never return NaN", async () => {
    const detector = numbered("n", (k) => k / 10);
    const result = await ev.evaluate(dataset, [detector], { bootstrap: { resamples: 20, seed: 1 } });
    const agreement = { alpha: [{ errorType: "hallucination", alpha: 0.5, units: 3, ratings: 6 }] };
    const scores = [0.1, 0.4, 0.35, 0.8];
    const labels = [false, false, true, true];
    const targets: Target[] = [
      { name: "rocAuc", call: (s, l) => ev.rocAuc(s as never, l as never), valid: [scores, labels] },
      {
        name: "rocCurve",
        call: (s, l) => ev.rocCurve(s as never, l as never),
        valid: [scores, labels],
        allowInfinity: true,
      },
      {
        name: "averagePrecision",
        call: (s, l) => ev.averagePrecision(s as never, l as never),
        valid: [scores, labels],
      },
      {
        name: "trapezoidArea",
        call: (p) => ev.trapezoidArea(p as never),
        valid: [
          [
            { fpr: 0, tpr: 0 },
            { fpr: 1, tpr: 1 },
          ],
        ],
      },
      {
        name: "metricsAt",
        call: (s, l, t) => ev.metricsAt(s as never, l as never, t as number),
        valid: [scores, labels, 0.5],
      },
      {
        name: "chooseThreshold",
        call: (s, l, r) => ev.chooseThreshold(s as never, l as never, r as never),
        valid: [scores, labels, { rule: "fpr", target: 0.1 }],
      },
      {
        name: "bootstrapCi",
        call: (s, l, o) => ev.bootstrapCi(ev.rocAuc, s as never, l as never, o as never),
        valid: [scores, labels, { resamples: 30, seed: 2 }],
      },
      {
        name: "krippendorffAlpha",
        call: (d, l) => ev.krippendorffAlpha(d as never, l as never),
        valid: [
          [
            [1, 2, 3],
            [1, 2, 2],
          ],
          "interval",
        ],
      },
      {
        name: "kendallTauB",
        call: (x, y) => ev.kendallTauB(x as never, y as never),
        valid: [
          [1, 2, 3],
          [1, 3, 2],
        ],
      },
      {
        name: "evaluate",
        call: (d, o) => ev.evaluate(d as never, [detector], o as never),
        valid: [dataset, { bootstrap: false }],
        runs: 40,
        allowInfinity: true,
      },
      {
        name: "evaluate(detectors)",
        call: (ds) => ev.evaluate(dataset, ds as never, { bootstrap: false }),
        valid: [[detector]],
        runs: 40,
        allowInfinity: true,
      },
      {
        name: "calibrateThresholds",
        call: (d, o) => ev.calibrateThresholds(d as never, detector, o as never),
        valid: [dataset, { rule: { rule: "youden" } }],
        runs: 40,
      },
      { name: "formatAucCell", call: (r) => ev.formatAucCell(r as never), valid: [result.rows[0]] },
      { name: "resultGrid", call: (r, l) => ev.resultGrid(r as never, l as never), valid: [result, "example"] },
      { name: "formatResultTable", call: (r) => ev.formatResultTable(r as never), valid: [result] },
      { name: "formatAgreement", call: (a) => ev.formatAgreement(a as never), valid: [agreement] },
      {
        name: "renderReport",
        call: (r, o) => ev.renderReport(r as never, o as never),
        valid: [result, { title: "t", agreement, metadata: [["a", "b"]] }],
        runs: 40,
      },
    ];
    await attack(targets);
  }, 120_000);
});
