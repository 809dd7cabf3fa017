/**
 * Bounded work in @npov/rouge (issue 22), proven by counting matching steps on a WorkMeter, never by timing:
 * the one-to-one matchings grow near-linearly with the response and the arguments, inputs beyond the
 * documented limits are refused before any work (0 steps), maxWeightMatching refuses NaN and ragged rows
 * (it looped forever), and word-overlap detectors refuse arguments with nothing to score.
 */
import { contentTerms, NpovError, type NpovInput, readJsonFile } from "@npov/core";
import {
  alignResponse,
  MAX_ARGUMENTS,
  MAX_RESPONSE_CHARS,
  MAX_WORD_PAIRS,
  maxWeightMatching,
  rougeDetector,
  rougeErrorDetector,
  SoftMatcher,
  softRouge,
  supportResponse,
  WorkMeter,
} from "@npov/rouge";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const example: { input: NpovInput; response: string } = readJsonFile(
  `${__dirname}/../../../fixtures/examples/uniforms.json`,
);
const { input } = example;
const matcher = new SoftMatcher();

/** The example response repeated up to `chars` characters (a long response of real sentences). */
const longResponse = (chars: number) => {
  let text = example.response;
  while (text.length + example.response.length + 1 <= chars) text += ` ${example.response}`;
  return text;
};

/** `n` arguments (the example's, numbered so they differ), split over two perspectives. */
const manyArguments = (n: number): NpovInput => {
  const texts = input.perspectives.flatMap((p) => p.arguments.map((a) => a.text));
  const side = (offset: number) =>
    Array.from({ length: Math.ceil(n / 2) }, (_, i) => ({ text: `${texts[(i + offset) % texts.length]} number ${i}` }));
  return {
    ...input,
    perspectives: [
      { label: "pro", arguments: side(0) },
      { label: "con", arguments: side(1) },
    ],
  };
};

const codeOf = (f: () => unknown): string | undefined => {
  try {
    f();
    return undefined;
  } catch (e) {
    return e instanceof NpovError ? e.code : `not an NpovError: ${String(e)}`;
  }
};

/** Steps the check needs, counted on a meter without a limit. */
const steps = (check: (meter: WorkMeter) => unknown): number => {
  const meter = new WorkMeter(Number.POSITIVE_INFINITY);
  check(meter);
  return meter.steps;
};

describe("maxWeightMatching", () => {
  it("refuses NaN, infinite, negative and ragged weights with INVALID_VALUE (NaN looped forever)", () => {
    expect(codeOf(() => maxWeightMatching([[1, Number.NaN]]))).toBe("INVALID_VALUE");
    expect(codeOf(() => maxWeightMatching([[Number.POSITIVE_INFINITY]]))).toBe("INVALID_VALUE");
    expect(codeOf(() => maxWeightMatching([[1, -0.5]]))).toBe("INVALID_VALUE");
    expect(codeOf(() => maxWeightMatching([[1, 2], [3]]))).toBe("INVALID_VALUE");
    expect(codeOf(() => maxWeightMatching([null] as never))).toBe("INVALID_VALUE");
    expect(maxWeightMatching([[], []])).toEqual([-1, -1]);
  });

  it("the unpadded formulation finds matchings as heavy as the padded one (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 12 }),
        fc.array(fc.integer({ min: 0, max: 5 }), { minLength: 144, maxLength: 144 }),
        (rows, cols, values) => {
          const w = Array.from({ length: rows }, (_, r) => values.slice(r * 12, r * 12 + cols));
          const total = (m: number[]) => m.reduce((s, c, r) => s + (c < 0 ? 0 : (w[r]?.[c] as number)), 0);
          const padded = maxWeightMatching(w, new WorkMeter(Number.POSITIVE_INFINITY, "w", Number.POSITIVE_INFINITY));
          const unpadded = maxWeightMatching(w, new WorkMeter(Number.POSITIVE_INFINITY, "w", 0));
          expect(total(unpadded)).toBe(total(padded));
          const used = unpadded.filter((c) => c >= 0);
          expect(new Set(used).size).toBe(used.length);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("counts O(min^2 x max) steps unpadded where the padded formulation takes ~n^3", () => {
    // Argument words x response words, every pair a candidate (the worst case for the search).
    const matrix = (rows: number, cols: number) =>
      Array.from({ length: rows }, (_, r) => Array.from({ length: cols }, (_, c) => ((r + c) % 7 === 0 ? 1 : 0.5)));
    const count = (w: number[][], paddedBudget: number) => {
      const meter = new WorkMeter(Number.POSITIVE_INFINITY, "w", paddedBudget);
      maxWeightMatching(w, meter);
      return meter.steps;
    };
    const small = matrix(20, 300);
    const padded = count(small, Number.POSITIVE_INFINITY);
    const unpadded = count(small, 0);
    expect(unpadded).toBeLessThanOrEqual(20 * 20 * (2 * 300 + 1));
    expect(padded).toBeGreaterThan(300 * 300 * 20);
    // 1,500 response words: still O(20^2 x 1,500), where padding would cost ~1,500^3 = 3.4e9 steps.
    expect(count(matrix(20, 1500), 0)).toBeLessThanOrEqual(20 * 20 * (2 * 1500 + 1));
  });
});

describe("soft, align and support: near-linear work, refusal beyond the limits", () => {
  it("matching steps grow about linearly with the response (4, 8, 16 KB)", () => {
    // Unpadded only (padded budget 0): the default meter adds at most a fixed budget of padded work.
    for (const check of [
      (text: string, meter: WorkMeter) => softRouge(input, text, matcher, { meter }),
      (text: string, meter: WorkMeter) => alignResponse(input, text, matcher, { meter }),
      (text: string, meter: WorkMeter) => supportResponse(input, text, { limits: { meter } }),
    ]) {
      const counts = [4000, 8000, 16_000].map((n) => {
        const meter = new WorkMeter(Number.POSITIVE_INFINITY, "input", 0);
        check(longResponse(n), meter);
        return meter.steps;
      });
      for (let i = 1; i < counts.length; i++) expect(counts[i]).toBeLessThan((counts[i - 1] as number) * 2.5);
      // A 16 KB response (~1,500 content words): far below the padded formulation's n^3.
      expect(counts[2]).toBeLessThan(contentTerms(longResponse(16_000)).length ** 3 / 1000);
    }
  });

  it("300 arguments are matched in bounded work; 10,000 and a 1 MB response are refused with 0 steps", () => {
    const many = manyArguments(300);
    const work = steps((meter) => alignResponse(many, example.response, matcher, { meter }));
    expect(work).toBeGreaterThan(0);
    expect(work).toBeLessThan(1e8);
    for (const [args, response, limit] of [
      [manyArguments(10_000), example.response, MAX_ARGUMENTS],
      [input, longResponse(1_000_000), MAX_RESPONSE_CHARS],
    ] as const) {
      for (const check of [
        (meter: WorkMeter) => softRouge(args, response, matcher, { meter }),
        (meter: WorkMeter) => alignResponse(args, response, matcher, { meter }),
        (meter: WorkMeter) => supportResponse(args, response, { limits: { meter } }),
      ]) {
        const meter = new WorkMeter();
        try {
          check(meter);
          expect.unreachable();
        } catch (e) {
          expect((e as NpovError).code).toBe("INPUT_TOO_LARGE");
          expect((e as Error).message).toContain(`the limit is ${limit}`);
        }
        expect(meter.steps).toBe(0);
      }
    }
  });

  it("refuses more word pairs or steps than the limits (here lowered), and nonsense limits", () => {
    const meter = new WorkMeter();
    expect(codeOf(() => softRouge(input, longResponse(5000), matcher, { maxWordPairs: 1000, meter }))).toBe(
      "INPUT_TOO_LARGE",
    );
    expect(meter.steps).toBe(0);
    expect(codeOf(() => alignResponse(input, example.response, matcher, { maxMatchingSteps: 10 }))).toBe(
      "INPUT_TOO_LARGE",
    );
    expect(MAX_WORD_PAIRS).toBeGreaterThanOrEqual(100_000);
    expect(codeOf(() => softRouge(input, example.response, matcher, { maxArguments: 0 }))).toBe("INVALID_VALUE");
  });

  it("200,000 arguments no longer overflow the stack: rouge scores them (Math.min(...) crashed)", () => {
    const n = 150_000;
    const wide: NpovInput = {
      topic: "zoos",
      query: "Should zoos exist?",
      perspectives: [
        { label: "pro", arguments: Array.from({ length: n / 2 }, (_, i) => `zoos ${i}`) },
        { label: "con", arguments: Array.from({ length: n / 2 }, (_, i) => `cages ${i}`) },
      ],
    };
    const r = rougeErrorDetector().detect(wide, "Zoos are cages.");
    expect(r.features?.["rouge.minArgumentRecall"]).toBe(0.5);
    expect(r.hallucination).toBe(0);
  });
});

describe("nothing to score", () => {
  const stopArgument: NpovInput = {
    ...input,
    perspectives: [...input.perspectives, { label: "other", arguments: [{ text: "It is what it is." }] }],
  };
  const checks = [
    ["rouge", (i: NpovInput, r: string) => rougeDetector(i, r)],
    ["soft", (i: NpovInput, r: string) => softRouge(i, r, matcher)],
    ["align", (i: NpovInput, r: string) => alignResponse(i, r, matcher)],
    ["support", (i: NpovInput, r: string) => supportResponse(i, r, { combiner: null })],
  ] as const;
  it.each(checks)("%s refuses an argument of stop words only (a mistake in the input)", (_, check) => {
    try {
      check(stopArgument, example.response);
      expect.unreachable();
    } catch (e) {
      expect((e as NpovError).code).toBe("NOTHING_TO_SCORE");
      expect((e as NpovError).path).toBe("input.perspectives[2].arguments[0]");
    }
  });
  it.each(checks)("%s scores a response of stop words only: nothing unsupported, nothing covered", (_, check) => {
    // "No." or "It was." answers a question without a word overlap can check: no claim to flag, no argument
    // stated (HaluEval's right answers include "no").
    const r = check(input, "It is what it is, and so it was.");
    expect(r.hallucination).toBe(0);
    expect(r.coverage).toBe(1);
  });
});

describe("review fixes: per-check meters and sentence x argument pairs", () => {
  it("a meter given to a detector totals every check, while each check is limited on its own", () => {
    const once = steps((meter) => alignResponse(input, example.response, matcher, { meter }));
    expect(once).toBeGreaterThan(0);
    // A limit twice one check's work: a shared meter refused the third check; each check fits its own.
    const meter = new WorkMeter(2 * once);
    const scores = Array.from({ length: 5 }, () => alignResponse(input, example.response, matcher, { meter }));
    for (const s of scores)
      expect([s.hallucination, s.coverage]).toEqual([scores[0]?.hallucination, scores[0]?.coverage]);
    expect(meter.steps).toBe(5 * once);
    for (const limit of [Number.NaN, 0, -1, "100" as never])
      expect(codeOf(() => new WorkMeter(limit))).toBe("INVALID_VALUE");
  });

  it("many stop-word sentences against many arguments are refused before any matching (0 steps)", () => {
    // 2,001 sentences x 60 arguments = 120,060 pairs > 100,000, with only a few hundred word pairs.
    const response = `${"It is. ".repeat(2000)}Uniforms reduce visible income differences.`;
    const many = manyArguments(60);
    for (const check of [
      (meter: WorkMeter) => alignResponse(many, response, matcher, { meter }),
      (meter: WorkMeter) => supportResponse(many, response, { limits: { meter } }),
    ]) {
      const meter = new WorkMeter(Number.POSITIVE_INFINITY);
      expect(() => check(meter)).toThrow(
        expect.objectContaining({
          code: "INPUT_TOO_LARGE",
          message: expect.stringContaining("2001 response sentences x 60 arguments"),
        }),
      );
      expect(meter.steps).toBe(0);
    }
  });
});
