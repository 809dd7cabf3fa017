/**
 * The nli detector on the encoder zoo (random weights: the numbers prove the wiring, not detection): its
 * example scores, evidence and features recomputed by hand from the pair API, the premises it builds (units,
 * windows where a unit is too short, joined arguments), sources inputs with offsets back into the documents,
 * the work bound, the cache, truncation reported, unrepresentable text.
 */
import { join } from "node:path";
import type { NpovInput, SourcesInput } from "@npov/core";
import { NliDetector, NliModel, type NliPair } from "@npov/nli";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENCODER_ZOO } from "./helpers.js";

let model: NliModel;
beforeAll(async () => {
  model = await NliModel.fromPretrained(join(ENCODER_ZOO, "optimum-bert"));
});
afterAll(() => model.dispose());

/** The pairs a detector asks its model for, recorded. */
function recording(m: NliModel): { pairs: NliPair[] } {
  const log = { pairs: [] as NliPair[] };
  const original = m.scorePairs.bind(m);
  m.scorePairs = async (pairs) => {
    log.pairs.push(...pairs);
    return original(pairs);
  };
  return log;
}

const entail = async (premise: string, hypothesis: string) =>
  (await model.entailmentProbabilities([{ premise, hypothesis }]))[0] as number;

const input: NpovInput = {
  topic: "school uniforms",
  query: "Should schools require uniforms?",
  perspectives: [
    {
      label: "pro",
      arguments: [
        { text: "Uniforms reduce bullying in schools today" },
        { text: "Uniforms save families a lot of money" },
      ],
    },
    { label: "con", arguments: [{ text: "Uniforms limit how students express themselves" }] },
  ],
};
const response =
  "It depends. Uniforms can stop children from teasing each other. Critics reply that dress codes silence personal style.";

describe("NPOV input", () => {
  it("scores = the hand-computed best entailments over the premises and response windows", async () => {
    const detector = new NliDetector(model);
    const r = await detector.score(input, response);
    // Every argument has at least 6 words: no windows; the pro side joined, and the whole input joined.
    const premises = [
      "Uniforms reduce bullying in schools today",
      "Uniforms save families a lot of money",
      "Uniforms limit how students express themselves",
      "Uniforms reduce bullying in schools today. Uniforms save families a lot of money.",
      "Uniforms reduce bullying in schools today. Uniforms save families a lot of money. Uniforms limit how students express themselves.",
    ];
    const sentences = [
      "It depends.",
      "Uniforms can stop children from teasing each other.",
      "Critics reply that dress codes silence personal style.",
    ];
    const best: number[] = [];
    for (const s of sentences) best.push(Math.max(...(await Promise.all(premises.map((p) => entail(p, s))))));
    expect(r.sentences.map((s) => s.text)).toEqual(sentences);
    expect(r.sentences.map((s) => s.claim)).toEqual([false, true, true]); // "It depends.": one content word
    for (const [i, s] of r.sentences.entries()) expect(s.entailment).toBeCloseTo(best[i] as number, 12);
    expect(r.hallucination).toBeCloseTo(1 - Math.min(best[1] as number, best[2] as number), 12);
    // Coverage: every argument against windows of one and two adjacent sentences.
    const at = (i: number, j: number) =>
      response.slice(
        response.indexOf(sentences[i] as string),
        response.indexOf(sentences[j] as string) + (sentences[j] as string).length,
      );
    const windows = [at(0, 0), at(0, 1), at(1, 1), at(1, 2), at(2, 2)];
    const covered: number[] = [];
    for (const a of premises.slice(0, 3))
      covered.push(Math.max(...(await Promise.all(windows.map((w) => entail(w, a))))));
    for (const [i, a] of r.arguments.entries()) expect(a.entailment).toBeCloseTo(covered[i] as number, 12);
    expect(r.coverage).toBeCloseTo(1 - Math.min(...covered), 12);
    expect(r.perspectives.map((p) => p.entailment)).toEqual([
      Math.min(r.arguments[0]?.entailment as number, r.arguments[1]?.entailment as number),
      r.arguments[2]?.entailment,
    ]);
    expect(r.pairs).toMatchObject({ total: 3 * 5 + 3 * 5, distinct: 30, truncated: 0 });

    const scores = await detector.detect(input, response);
    expect(scores.hallucination).toBe(r.hallucination);
    expect(scores.coverage).toBe(r.coverage);
    // Evidence: the claim sentences, worst first; every argument, worst first.
    expect(scores.unsupportedSpans?.map((s) => s.text).sort()).toEqual(sentences.slice(1).sort());
    expect(scores.unsupportedSpans?.[0]?.score).toBe(r.hallucination);
    expect(scores.uncoveredArguments?.map((a) => a.score)).toEqual(
      r.arguments.map((a) => a.score).sort((x, y) => y - x),
    );
    expect(scores.features).toMatchObject({
      "nli.minEntailment": 1 - r.hallucination,
      "nli.minCoverage": 1 - r.coverage,
      "nli.claimSentences": 2,
      "nli.sentences": 3,
      "nli.truncatedPairs": 0,
    });
    expect(scores.features?.["nli.maxContradiction"]).toBe(
      Math.max(r.sentences[1]?.contradiction as number, r.sentences[2]?.contradiction as number),
    );
    // Word maps at sentence granularity: framing words 0, claim words their sentence's score.
    expect(scores.words?.response.find((w) => w.start === 0)?.score).toBe(0);
    expect(scores.words?.response.find((w) => w.start === response.indexOf("Critics"))?.score).toBe(
      r.sentences[2]?.score,
    );
    expect(scores.words?.arguments.filter((w) => w.perspective === 1).map((w) => w.score)).toEqual(
      Array(6).fill(r.arguments[2]?.score),
    );
  });

  it("builds windows where an argument is too short (under 6 words), and joins only when asked", async () => {
    const short: NpovInput = {
      ...input,
      perspectives: [
        {
          label: "pro",
          arguments: [
            { text: "Costs" },
            { text: "Uniforms save families a lot of money" },
            { text: "Uniforms build a sense of school community" },
          ],
        },
        { label: "con", arguments: [{ text: "Uniforms limit how students express themselves" }] },
      ],
    };
    const m = await NliModel.fromPretrained(join(ENCODER_ZOO, "optimum-bert"));
    const log = recording(m);
    await new NliDetector(m, { joinArguments: false }).score(short, "Uniforms save money.");
    expect([
      ...new Set(log.pairs.filter((p) => p.hypothesis === "Uniforms save money.").map((p) => p.premise)),
    ]).toEqual([
      "Costs",
      "Uniforms save families a lot of money",
      "Uniforms build a sense of school community",
      "Uniforms limit how students express themselves",
      "Costs. Uniforms save families a lot of money.",
    ]);
    await m.dispose();
  });

  it("refuses more pairs than maxPairs before running anything", async () => {
    const detector = new NliDetector(model, { maxPairs: 29 });
    const error = await detector.detect(input, response).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "INPUT_TOO_LARGE", actual: 30, limit: 29 });
    expect((error as Error).message).toContain("3 sentences against 5 premises");
  });

  it("answers a repeated check from the cache, with the same numbers", async () => {
    const m = await NliModel.fromPretrained(join(ENCODER_ZOO, "optimum-distilbert"));
    const detector = new NliDetector(m);
    const first = await detector.score(input, response);
    const again = await detector.score(input, response);
    expect(first.pairs.cached).toBe(0);
    expect(again.pairs.cached).toBe(again.pairs.distinct);
    expect({ ...again, pairs: undefined }).toEqual({ ...first, pairs: undefined });
    await detector.dispose();
  });

  it("typed errors: options, input, response, unrepresentable words", async () => {
    expect(() => new NliDetector(model, { coverageWindow: 0 })).toThrow(
      expect.objectContaining({ code: "INVALID_VALUE", path: "coverageWindow" }),
    );
    expect(() => new NliDetector({} as NliModel)).toThrow(
      expect.objectContaining({ code: "INVALID_VALUE", path: "model" }),
    );
    const detector = new NliDetector(model);
    await expect(detector.detect(input, "  ")).rejects.toMatchObject({ code: "EMPTY_TEXT" });
    await expect(detector.detect({ ...input, perspectives: [] }, response)).rejects.toMatchObject({
      code: "TOO_FEW_PERSPECTIVES",
    });
    // The zoo's 2,048-word ASCII vocabulary has no CJK characters: the model would read [UNK].
    await expect(detector.detect(input, "Uniforms are common in 東京.")).rejects.toMatchObject({
      code: "UNREPRESENTABLE_TEXT",
    });
    const lenient = new NliDetector(model, { unrepresentableText: "score" });
    expect((await lenient.detect(input, "Uniforms are common in 東京.")).hallucination).toBeGreaterThanOrEqual(0);
  });
});

describe("sources input", () => {
  const sources: SourcesInput = {
    query: "When did the Eiffel Tower open?",
    sources: [
      { id: "wiki", text: "The Eiffel Tower stands in Paris, France. It opened in 1889. It is 330 metres tall." },
      { text: "Gustave Eiffel's company designed and built the tower for the World's Fair." },
    ],
  };
  const answer = "The tower opened in 1889. Eiffel's company built it for a fair.";

  it("premises are source sentences and windows over short ones; evidence points into the sources", async () => {
    const m = await NliModel.fromPretrained(join(ENCODER_ZOO, "optimum-bert"));
    const log = recording(m);
    const detector = new NliDetector(m);
    const r = await detector.score(sources, answer);
    const text = sources.sources[0]?.text as string;
    const units = [
      "The Eiffel Tower stands in Paris, France.",
      "It opened in 1889.",
      "It is 330 metres tall.",
      sources.sources[1]?.text as string,
    ];
    // "It opened in 1889." (4 words) and "It is 330 metres tall." (5) are too short to stand alone.
    const premises = [
      ...units,
      "The Eiffel Tower stands in Paris, France. It opened in 1889.",
      "It opened in 1889. It is 330 metres tall.",
    ];
    const hypotheses = ["The tower opened in 1889.", "Eiffel's company built it for a fair."];
    expect([...new Set(log.pairs.filter((p) => p.hypothesis === hypotheses[0]).map((p) => p.premise))]).toEqual(
      premises,
    );
    const best: number[] = [];
    for (const h of hypotheses)
      best.push(
        Math.max(...(await m.entailmentProbabilities(premises.map((premise) => ({ premise, hypothesis: h }))))),
      );
    expect(r.kind).toBe("sources");
    expect(r.hallucination).toBeCloseTo(1 - Math.min(...best), 12);
    // Coverage of sources: 1 - the mean over units of their best entailment by a response window.
    const windows = [hypotheses[0], answer, hypotheses[1]] as string[];
    const covered: number[] = [];
    for (const u of units)
      covered.push(Math.max(...(await m.entailmentProbabilities(windows.map((w) => ({ premise: w, hypothesis: u }))))));
    expect(r.coverage).toBeCloseTo(1 - covered.reduce((a, b) => a + b, 0) / covered.length, 12);
    // The best premise of a sentence and each unit carry their place in the documents.
    for (const s of r.sentences) {
      const o = s.bestPremise.origin;
      expect(o).toBeDefined();
      const sourceText = sources.sources[o?.source as number]?.text as string;
      expect(premises).toContain(sourceText.slice(o?.start, o?.end));
    }
    const scores = await detector.detect(sources, answer);
    for (const a of scores.uncoveredArguments ?? []) {
      expect(sources.sources[a.origin?.source as number]?.text.slice(a.origin?.start, a.origin?.end)).toBe(a.text);
      if (a.origin?.source === 0) expect(a.origin.sourceId).toBe("wiki");
    }
    expect(scores.uncoveredArguments).toHaveLength(4);
    expect(text.slice(0, 10)).toBe("The Eiffel");
    await m.dispose();
  });

  it("a source sentence longer than the model's 128 tokens is cut, and the result says so", async () => {
    const long = `The tower ${"was painted again and again by many crews of workers over the years and ".repeat(12)}still stands.`;
    const r = await new NliDetector(model).score({ sources: [{ text: long }] }, "The tower still stands.");
    expect(r.pairs.truncated).toBeGreaterThan(0);
    expect(r.features["nli.truncatedPairs"]).toBe(r.pairs.truncated);
    expect(r.sentences[0]?.truncated).toBe(true);
    expect(r.arguments[0]?.truncated).toBe(true);
    const strict = await NliDetector.fromPretrained(join(ENCODER_ZOO, "optimum-bert"), { truncation: "error" });
    await expect(strict.detect({ sources: [{ text: long }] }, "The tower still stands.")).rejects.toMatchObject({
      code: "CONTEXT_TOO_LONG",
    });
    await strict.dispose();
  });
});
