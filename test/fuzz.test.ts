/**
 * The bounded CI part of the fuzz suite (`pnpm fuzz` runs the same properties far longer, from any seed):
 * generated inputs through validation, the data-free detectors and the guard; byte-level corruptions of a
 * model folder and of dataset, knowledge-base and example files through their readers. Property: a finite
 * result in [0, 1] or an NpovError with a code -- never another error, never NaN, never a hang (the test
 * timeout) -- and the guard never allows what it could not check. Seeded by scripts/fast-check-seed.ts.
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { SalienceDetector } from "@npov/salience";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import {
  copyFuzzModel,
  corrupt,
  dataFileProperty,
  dataFiles,
  inputSchemaProperty,
  modelFileProperty,
  responseTextProperty,
  SHORT_EXAMPLE,
  scratchDir,
  uniformsExample,
} from "./fuzz/properties.js";

const scratch = scratchDir();
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const example = uniformsExample();

describe("fuzz: the input schema", () => {
  it("any input and response: validation, rouge/soft/align/support and the guard give finite scores or an NpovError", async () => {
    await fc.assert(inputSchemaProperty(), { numRuns: 150 });
  });

  it("valid inputs with any response text (emoji, stop words, scripts, lone surrogates, 40 KB)", async () => {
    await fc.assert(responseTextProperty(), { numRuns: 60 });
  });
});

describe("fuzz: byte-level file corruptions", () => {
  it("dataset, knowledge-base and example files: readers give valid records or an NpovError", async () => {
    await fc.assert(dataFileProperty(scratch, dataFiles(example)), { numRuns: 120 });
  });

  it("a model folder with one corrupted file: loads and scores in [0, 1], or an NpovError", async () => {
    await fc.assert(modelFileProperty(scratch), { numRuns: 20 });
  });

  it("the fuzz model scores the short example when intact (so corruptions are what makes it fail)", async () => {
    const dir = join(scratch, "intact");
    copyFuzzModel(dir);
    const detector = await SalienceDetector.fromPretrained(dir, { dtype: "fp32" });
    try {
      const r = await detector.detect(SHORT_EXAMPLE.input, SHORT_EXAMPLE.response);
      expect(Number.isFinite(r.hallucination) && r.hallucination >= 0 && r.hallucination <= 1).toBe(true);
      expect(Number.isFinite(r.coverage) && r.coverage >= 0 && r.coverage <= 1).toBe(true);
    } finally {
      await detector.dispose();
    }
  });

  it("the corruptions do what they say (the fuzz inputs are what the names claim)", () => {
    const b = Buffer.from("abcdefghij");
    expect(corrupt(b, { kind: "truncate", at: 0.5 }).toString()).toBe("abcde");
    expect(corrupt(Buffer.from("ab\ncd\nef\n"), { kind: "lines", at: 0.4 }).toString()).toBe("ab\ncd\n");
    expect(corrupt(b, { kind: "empty" }).length).toBe(0);
    expect([...corrupt(b, { kind: "zero" })]).toEqual(new Array(10).fill(0));
    expect(corrupt(b, { kind: "flip", at: 0, count: 1 })[0]).toBe("a".charCodeAt(0) ^ 0xff);
    expect([...corrupt(b, { kind: "invalid-utf8", at: 0.2 }).subarray(2, 6)]).toEqual([0xff, 0xfe, 0xc0, 0xaf]);
    expect([...corrupt(b, { kind: "nul", at: 1 }).subarray(10)]).toEqual([0, 0, 0]);
    const spliced = corrupt(b, { kind: "splice", at: 0.3, seed: 1, length: 2 });
    expect(spliced.length).toBe(10);
    expect(spliced.subarray(0, 3).toString()).toBe("abc");
    expect(spliced.subarray(5).toString()).toBe("fghij");
    expect(corrupt(b, { kind: "random", seed: 7, length: 16 })).toEqual(
      corrupt(b, { kind: "random", seed: 7, length: 16 }),
    );
  });
});
