import { readdirSync, readFileSync } from "node:fs";
import { repoPath } from "@npov/core";
import {
  answerPosition,
  LabelLogprobsError,
  labelOf,
  labelOfText,
  labelProbability,
  labelProbabilityOf,
  normalizeLabelToken,
  tokenPositions,
  yesNoDefaults,
} from "@npov/llm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(repoPath("fixtures", "endpoints", name), "utf8")) as unknown;

// P(NO) per recorded shape, by hand from the probabilities written in each file:
// YES-forms and NO-forms in the answer token's top-k, P(NO) = no / (yes + no).
const EXPECTED: Record<string, number> = {
  "openai-chat.json": 0.22 / 0.92, // YES .6 + Yes .1 vs " NO" .2 + No .02
  "openai-completions.json": 0.7 / 0.9, // " NO" .7 vs " YES" .2 (" Maybe" ignored)
  "vllm-chat.json": 0.8 / 0.95, // first token " " skipped; no .75 + No .05 vs yes .15
  "vllm-completions.json": 0.4 / 0.9, // YES .4 + Yes .1 vs NO .35 + N .05 ("Nothing" ignored)
  "llamacpp-completion.json": 0.81 / 0.96, // NO .8 + No .01 vs YES .15
  "llamacpp-completion-post-sampling.json": 0.25 / 0.875, // YES .5 + Yes .125 vs NO .25 (probabilities)
  "llamacpp-completion-legacy.json": 0.55 / 0.85, // NO .55 vs YES .3
  "ollama-generate.json": 0.06 / 0.98, // Yes .9 + YES .02 vs No .06
  "ollama-chat.json": 0.6 / 0.9, // No .6 vs Yes .3 ("Not" ignored)
};

describe("the label rule on recorded endpoint shapes", () => {
  it("reads P(NO) from every shape in fixtures/endpoints", () => {
    const files = readdirSync(repoPath("fixtures", "endpoints")).filter((f) => f.endsWith(".json"));
    expect(files.sort()).toEqual([...Object.keys(EXPECTED), "openai-chat-no-logprobs.json"].sort());
    for (const [file, pNo] of Object.entries(EXPECTED)) {
      const read = labelProbabilityOf(fixture(file));
      expect([file, read.pNo]).toEqual([file, expect.closeTo(pNo, 12)]);
    }
  });

  it("gives every position of a multi-token answer, and skips an empty first token", () => {
    const chat = tokenPositions(fixture("openai-chat.json"))!;
    expect(chat.map((p) => p.token)).toEqual(["YES", "}"]);
    expect(chat[1]!.top.map((t) => t.token)).toEqual(["}", "}.", ".", "\n"]);
    const vllm = tokenPositions(fixture("vllm-chat.json"))!;
    expect(answerPosition(vllm)!.token).toBe("no");
    const legacy = tokenPositions(fixture("llamacpp-completion-legacy.json"))!;
    expect(legacy[0]!.top.map((t) => t.token)).toEqual(["NO", "YES", "Maybe"]);
    expect(legacy[0]!.top[0]!.logprob).toBeCloseTo(Math.log(0.55), 12);
  });

  it("is a typed error, never 0.5, when there are no log-probabilities or no label", () => {
    const none = (() => {
      try {
        labelProbabilityOf(fixture("openai-chat-no-logprobs.json"));
      } catch (e) {
        return e;
      }
    })();
    expect(none).toBeInstanceOf(LabelLogprobsError);
    expect((none as LabelLogprobsError).code).toBe("NO_LOGPROBS");
    const noLabel = (() => {
      try {
        labelProbability([
          { token: "Maybe", logprob: -0.1 },
          { token: "Nope", logprob: -2 },
          { token: "NOT", logprob: -3 },
        ]);
      } catch (e) {
        return e;
      }
    })();
    expect((noLabel as LabelLogprobsError).code).toBe("NO_LABEL_LOGPROBS");
    expect((noLabel as Error).message).toContain('"Maybe"');
  });
});

describe("label forms", () => {
  it("normalizes the forms endpoints return", () => {
    const yes = ["YES", " YES", "Yes", "yes", "YES}", "▁Yes", "ĠYES", "**Yes", '"yes"', "Y", "Ye", "\nYES."];
    const no = ["NO", "NO}", " No", "no", "▁no", "ĠNO", "N", "No.", "NO,"];
    const neither = ["Nope", "NOT", "None", "Maybe", "", " ", "}", "{", "YESS", "Yeah", "N/A", "oui"];
    for (const t of yes) expect([t, labelOf(t)]).toEqual([t, "yes"]);
    for (const t of no) expect([t, labelOf(t)]).toEqual([t, "no"]);
    for (const t of neither) expect([t, labelOf(t)]).toEqual([t, undefined]);
    expect(normalizeLabelToken("▁Yes}")).toBe("YES");
    // Custom labels: a token that is a prefix of both is ambiguous and counts for neither.
    expect(labelOf("T", { yes: "TRUE", no: "TRICK" })).toBeUndefined();
    expect(labelOf("TRU", { yes: "TRUE", no: "TRICK" })).toBe("yes");
  });

  it("reads sampled text answers by their first word", () => {
    expect(labelOfText("Yes.")).toBe("yes");
    expect(labelOfText(" NO} because")).toBe("no");
    expect(labelOfText("no, it does not")).toBe("no");
    expect(labelOfText("Nope")).toBeUndefined();
    expect(labelOfText("The answer is YES")).toBeUndefined();
    expect(labelOfText("")).toBeUndefined();
  });

  it("P(NO) is in [0, 1], ignores order and non-label tokens, and grows with NO mass", () => {
    const tokens = fc.constantFrom("YES", " yes", "Yes}", "NO", " no", "No.", "Maybe", "the", "{");
    const entry = fc.record({ token: tokens, logprob: fc.double({ min: -20, max: 0, noNaN: true }) });
    fc.assert(
      fc.property(fc.array(entry, { minLength: 1, maxLength: 12 }), fc.integer(), (top, shift) => {
        const hasLabel = top.some((t) => labelOf(t.token) !== undefined);
        if (!hasLabel) {
          expect(() => labelProbability(top)).toThrow(LabelLogprobsError);
          return;
        }
        const p = labelProbability(top);
        expect(p.pNo).toBeGreaterThanOrEqual(0);
        expect(p.pNo).toBeLessThanOrEqual(1);
        const rotated = top.map((_, i) => top[(i + Math.abs(shift)) % top.length]!);
        expect(labelProbability(rotated).pNo).toBeCloseTo(p.pNo, 12);
        const more = labelProbability([...top, { token: "NO", logprob: -0.5 }]);
        expect(more.pNo).toBeGreaterThanOrEqual(p.pNo - 1e-12);
      }),
    );
  });
});

describe("label pairs and log-probability values", () => {
  it("refuses a missing, empty, equal or prefix label with INVALID_VALUE naming it", () => {
    const top = [
      { token: "YES", logprob: -0.1 },
      { token: "NO", logprob: -2.4 },
    ];
    for (const [labels, path] of [
      [{ yes: "SI" }, "labels.no"],
      [{ yes: "", no: "NO" }, "labels.yes"],
      [{ yes: "**", no: "NO" }, "labels.yes"],
      [{ yes: "YES", no: "yes." }, "labels"],
      [{ yes: "NO", no: "NOPE" }, "labels"],
      [null, "labels"],
    ] as const) {
      expect(() => labelProbability(top, labels as never)).toThrow(
        expect.objectContaining({ code: "INVALID_VALUE", path }),
      );
      expect(() => yesNoDefaults({ labels: labels as never })).toThrow(
        expect.objectContaining({ code: "INVALID_VALUE", path }),
      );
    }
    // Other languages' labels work: P(NO) = e^-2.4 / (e^-0.1 + e^-2.4).
    const r = labelProbability(
      [
        { token: " Sí", logprob: -0.1 },
        { token: "No", logprob: -2.4 },
      ],
      { yes: "SÍ", no: "NO" },
    );
    expect(r.pNo).toBeCloseTo(Math.exp(-2.4) / (Math.exp(-0.1) + Math.exp(-2.4)), 12);
  });

  it("ignores log-probabilities above 0 (beyond rounding) instead of returning NaN", () => {
    expect(() =>
      labelProbability([
        { token: "YES", logprob: 710 },
        { token: "NO", logprob: 711 },
      ]),
    ).toThrow(
      expect.objectContaining({ code: "NO_LABEL_LOGPROBS", message: expect.stringContaining("2 had no number <= 0") }),
    );
    // A certain answer rounded a hair above 0 still counts, as probability 1.
    const r = labelProbability([
      { token: "NO", logprob: 1e-7 },
      { token: "YES", logprob: -20 },
    ]);
    expect(r.noMass).toBe(1);
    expect(r.pNo).toBeCloseTo(1 / (1 + Math.exp(-20)), 15);
  });
});
