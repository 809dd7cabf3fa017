import { contentTerms, type NpovInput } from "@npov/core";
import {
  alignResponse,
  defaultWordVectors,
  SoftMatcher,
  supportErrorDetector,
  supportFeatures,
  supportResponse,
} from "@npov/rouge";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

// A hand-made debate and chatbot-style responses: framing sentences, free rewording of every argument, and
// variants with a topic-word hallucination or a dropped argument.
const input: NpovInput = {
  topic: "violent video games",
  query: "Do violent video games make people more aggressive?",
  perspectives: [
    {
      label: "pro",
      arguments: [
        {
          text: "Simulating violence such as shooting guns and hand-to-hand combat desensitizes players to real violence",
        },
        { text: "Children imitate the behaviour they see rewarded in games" },
      ],
    },
    { label: "con", arguments: [{ text: "Violent crime among young people has fallen while game sales have risen" }] },
  ],
};
const OPENING = "This is a genuinely contested question, and thoughtful people come down on different sides. ";
const INTRO = "Critics raise several objections. ";
const SIMULATING =
  "Acting out violence on a screen, such as firing weapons or fighting opponents at close quarters, is said to numb players to the real thing. ";
const IMITATING = "They also note that kids copy whatever conduct a game rewards. ";
const APA =
  "The American Psychological Association lists violent video games as a risk factor for aggressive behavior. ";
const OTHER_SIDE = "Supporters see it differently. ";
const CRIME = "Youth violence has dropped even as sales of games have climbed. ";
const CLOSING = "Ultimately, the answer depends on how one weighs these concerns.";

const CONCEDING = "Even they accept that kids copy whatever conduct a game rewards. ";

const clean = OPENING + INTRO + SIMULATING + IMITATING + OTHER_SIDE + CRIME + CLOSING;
const hallucinated = OPENING + INTRO + SIMULATING + IMITATING + APA + OTHER_SIDE + CRIME + CLOSING;
const dropped = OPENING + INTRO + IMITATING + OTHER_SIDE + CRIME + CLOSING;
// A pro argument presented in the supporters' (con) block as their concession: perspective confusion.
const confused = OPENING + INTRO + SIMULATING + OTHER_SIDE + CRIME + CONCEDING + CLOSING;

const vectors = defaultWordVectors();
const align = (response: string) =>
  alignResponse(input, response, new SoftMatcher(vectors === undefined ? {} : { vectors, vectorThreshold: 0.7 }));
const support = supportErrorDetector();
const detect = (response: string) => {
  const r = support.detect(input, response);
  if (r instanceof Promise) throw new Error("support is synchronous");
  return r;
};

describe("support detector on chatbot-style responses, where align fails", () => {
  it("framing sentences carry no argument: support does not score them, align does (and flags them)", () => {
    const a = align(clean);
    const worstAligned = a.sentences.filter((s) => !s.opening).sort((x, y) => x.support - y.support)[0]!;
    expect([INTRO.trim(), CLOSING, OTHER_SIDE.trim()]).toContain(worstAligned.text);
    expect(worstAligned.support).toBeLessThan(0.2);
    expect(a.hallucination).toBeGreaterThan(0.7); // the clean response looks hallucinated to align

    const s = supportResponse(input, clean);
    const roles = Object.fromEntries(s.sentences.map((x) => [x.text, x.role]));
    expect(roles[INTRO.trim()]).toBe("framing");
    expect(roles[OTHER_SIDE.trim()]).toBe("framing");
    expect(roles[CLOSING]).toBe("framing");
    expect(roles[SIMULATING.trim()]).toBe("argument");
    expect(roles[CRIME.trim()]).toBe("argument");
  });

  it("a hallucination made of the debate's own words: support ranks it first and separates the responses, align does not", () => {
    const aClean = align(clean).hallucination;
    const aHall = align(hallucinated).hallucination;
    expect(Math.abs(aHall - aClean)).toBeLessThan(0.1);
    const aWorst = align(hallucinated)
      .sentences.filter((x) => !x.opening)
      .sort((x, y) => x.support - y.support)[0]!;
    expect(aWorst.text).not.toBe(APA.trim());

    const sClean = detect(clean);
    const sHall = detect(hallucinated);
    expect(sHall.hallucination - sClean.hallucination).toBeGreaterThan(0.4);
    expect(sHall.unsupportedSpans?.[0]?.text).toBe(APA.trim());
    const apa = supportResponse(input, hallucinated).sentences.find((x) => x.text === APA.trim())!;
    // Its topic words are discounted: most of its specific weight is unsupported.
    expect(apa.support).toBeLessThan(0.5);
    expect(apa.orphan).toBe(true);
  });

  it("free rewording still covers an argument; dropping it is caught by support, not by align", () => {
    const aGap = align(dropped).coverage - align(clean).coverage;
    expect(aGap).toBeLessThan(0.1);
    const sClean = detect(clean);
    const sDropped = detect(dropped);
    expect(sDropped.coverage - sClean.coverage).toBeGreaterThan(0.3);
    expect(sDropped.uncoveredArguments?.[0]?.text).toBe(input.perspectives[0]!.arguments[0]!.text);
    // In the clean response the reworded argument is matched through its synonyms and relatives
    // (firing ~ shooting, weapons ~ guns, fighting ~ combat).
    const simulating = supportResponse(input, clean).arguments.find((x) => x.perspective === 0 && x.argument === 0)!;
    expect(simulating.localCoverage).toBeGreaterThan(0.4);
    expect(simulating.span?.start).toBe(clean.indexOf(SIMULATING.trim()));
  });
});

describe("support detector on response structure", () => {
  it("an argument presented as the other side's lands in the other side's block", () => {
    const ok = supportResponse(input, clean);
    const bad = supportResponse(input, confused);
    // Side blocks: the opening, "Critics ..." (pro), "Supporters ..." (con).
    expect(ok.sentences.map((s) => s.side)).toEqual([0, 1, 1, 1, 2, 2, 2]);
    const structure = (f: Record<string, number>) => [
      f["support.extraSwitchShare"],
      f["support.mixedBlockShare"],
      f["support.scatteredShare"],
    ];
    expect(structure(ok.features)).toEqual([0, 0, 0]);
    // One extra switch, one of two side blocks mixed, one perspective scattered -- as shares.
    for (const x of structure(bad.features)) expect(x).toBeGreaterThan(0);
    // Perspective confusion is an ambiguous kind: the structure features see it, but the shipped combiner
    // does not weigh them (topic-grouped cross-validation on the tune part found no gain; docs/results.md).
  });
});

describe("support detector contract", () => {
  it("gives scores in [0, 1], word scores inside the response and argument evidence, deterministically", () => {
    const r = detect(hallucinated);
    expect(detect(hallucinated)).toEqual(r);
    for (const x of [r.hallucination, r.coverage]) {
      expect(x).toBeGreaterThanOrEqual(0);
      expect(x).toBeLessThanOrEqual(1);
    }
    expect(r.uncoveredArguments).toHaveLength(3);
    const scores = (r.unsupportedSpans ?? []).map((s) => s.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    for (const w of r.words?.response ?? []) {
      expect(hallucinated.slice(w.start, w.end)).toMatch(/^[\p{L}\p{N}]+$/u);
      expect(w.score).toBeGreaterThanOrEqual(0);
      expect(w.score).toBeLessThanOrEqual(1);
    }
    // Argument words: offsets into their argument, score = 1 - best match in the response.
    const argumentWords = r.words?.arguments ?? [];
    expect(argumentWords.length).toBeGreaterThan(10);
    for (const w of argumentWords) {
      const text = input.perspectives[w.perspective]?.arguments[w.argument]?.text ?? "";
      expect(text.slice(w.start, w.end)).toMatch(/^[\p{L}\p{N}-]+$/u);
      expect(w.score).toBeGreaterThanOrEqual(0);
      expect(w.score).toBeLessThanOrEqual(1);
    }
    // Framing words are never word-level hallucinations.
    const framingWord = hallucinated.indexOf("objections");
    expect(r.words?.response.find((w) => w.start === framingWord)?.score).toBe(0);
  });

  it("scores the words of a dropped argument as uncovered, and the same words as covered when it is stated", () => {
    const meanScore = (response: string) => {
      const words = (detect(response).words?.arguments ?? []).filter((w) => w.perspective === 0 && w.argument === 0);
      return words.reduce((s, w) => s + w.score, 0) / words.length;
    };
    expect(meanScore(dropped)).toBeGreaterThan(meanScore(clean) + 0.3);
  });

  it("stays finite and in range on any response text", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 200 }), (text) => {
        if (text.trim().length === 0) return;
        if (!/[\p{L}\p{M}\p{N}]/u.test(text)) {
          // No word at all (punctuation, symbols): refused, never scored as clean.
          expect(() => supportResponse(input, text)).toThrow(expect.objectContaining({ code: "NOTHING_TO_SCORE" }));
          return;
        }
        const r = supportResponse(input, text);
        for (const x of [r.hallucination, r.coverage, ...Object.values(r.features)]) {
          expect(Number.isFinite(x)).toBe(true);
          expect(x).toBeGreaterThanOrEqual(0);
          expect(x).toBeLessThanOrEqual(1);
        }
        if (contentTerms(text).length === 0) expect(r.features["support.imprecision"]).toBe(0); // states nothing
        const context = { kind: r.kind, exactPrecision: 1 - (r.features["support.exactImprecision"] as number) };
        expect(supportFeatures(r.sentences, r.arguments, 2, context)).toEqual(r.features);
      }),
      { numRuns: 40 },
    );
  });

  it("rejects an empty response and an invalid input with typed errors", () => {
    expect(() => supportResponse(input, "   ")).toThrow(expect.objectContaining({ code: "EMPTY_TEXT" }));
    expect(() => supportResponse({ ...input, perspectives: [input.perspectives[0]!] }, clean)).toThrow(
      expect.objectContaining({ code: "TOO_FEW_PERSPECTIVES" }),
    );
  });
});
