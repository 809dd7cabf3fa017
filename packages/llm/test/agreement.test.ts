// Agreement of the Likert judge with human raters (computed in the CLI, which may depend on @npov/eval).
import { describe, expect, it } from "vitest";
import { ratingAgreement, usableItems } from "../../cli/src/commands/judge-agreement.js";

describe("ratingAgreement", () => {
  it("matches hand-computed Krippendorff's alpha (interval) and Kendall's tau-b", () => {
    // Per-item means: LLM [1, 2, 3, 4], humans [1, 3, 2, 4].
    // tau: 6 pairs, one discordant (items 2 and 3) -> (5 - 1) / 6 = 2/3.
    // alpha: 8 pooled values {1,1,2,3,3,2,4,4}; D_o = (2 + 2) / 8 = 0.5 (units 2 and 3 differ by 1, both
    // orders); D_e = (2 * 8 * 60 - 2 * 20^2) / (8 * 7) = 160 / 56; alpha = 1 - 0.5 / (160 / 56) = 0.825.
    const r = ratingAgreement([
      { llm: [1, 1, undefined], human: [1, 1] },
      { llm: [2, 2, 2], human: [3, 3] },
      { llm: [3, 3, 3], human: [2, 2] },
      { llm: [4, 4, 4], human: [4, 4] },
    ]);
    expect(r.items).toBe(4);
    expect(r.kendallTau).toBeCloseTo(2 / 3, 12);
    expect(r.alphaLlmVsHuman).toBeCloseTo(0.825, 12);
    // The samples agree perfectly wherever two or more are readable.
    expect(r.alphaLlmSamples).toBe(1);
    expect(r.llmMean).toBe(2.5);
    expect(r.humanMean).toBe(2.5);
  });

  it("is a typed error with fewer than two items rated by both", () => {
    expect(() =>
      ratingAgreement([
        { llm: [undefined], human: [3] },
        { llm: [2], human: [2] },
      ]),
    ).toThrow(expect.objectContaining({ code: "INVALID_VALUE" }));
  });

  it("leaves tau undefined when the LLM answers one value throughout, and still reports alpha", () => {
    // LLM means 4, 4, 4; human means 2, 3, 5: no ranking on the LLM side, so no tau. Interval alpha by hand:
    // coincidences within units sum to 2 x (4 + 1 + 1) = 12; over all six values (4, 4, 4, 2, 3, 5) the
    // ordered squared differences sum to 64; alpha = 1 - (n - 1) x 12 / 64 = 1 - 5 x 12 / 64 = 0.0625.
    const r = ratingAgreement([
      { llm: [4, 4], human: [2] },
      { llm: [4], human: [3] },
      { llm: [4, 4], human: [5] },
    ]);
    expect(r.kendallTau).toBeUndefined();
    expect(r.alphaLlmVsHuman).toBeCloseTo(0.0625, 12);
    expect(r.items).toBe(3);
    expect(
      usableItems([
        { llm: [undefined], human: [3] },
        { llm: [2], human: [] },
        { llm: [2], human: [1] },
      ]),
    ).toHaveLength(1);
  });

  it("leaves alpha undefined (not 1) when the LLM and the humans give every item the same rating", () => {
    // Means 4, 4 on both sides: no variation, alpha = 0/0; no ranking either, so no tau.
    const r = ratingAgreement([
      { llm: [4, 4], human: [4] },
      { llm: [4, 4], human: [4, 4] },
    ]);
    expect(r.alphaLlmVsHuman).toBeUndefined();
    expect(r.alphaLlmSamples).toBeUndefined();
    expect(r.kendallTau).toBeUndefined();
    expect([r.llmMean, r.humanMean]).toEqual([4, 4]);
  });
});
