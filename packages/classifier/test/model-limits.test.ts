/**
 * The YES/NO classifier and the stacked classifier at their limits: text the shipped model cannot
 * represent (UNREPRESENTABLE_TEXT), prompts over the context (CONTEXT_TOO_LONG, also when tuning a soft
 * prompt), a NaN weight (INVALID_SCORE, never a null score), a corrupt model folder (MODEL_FILE_INVALID),
 * and stacked-model files or feature sources that would give NaN.
 */
import { cpSync, mkdtempSync, rmSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadModel, saveModel, writeTestModel } from "@npov/autograd";
import {
  fitLogistic,
  loadEmbeddingModel,
  loadStacked,
  stackedDetector,
  tuneSoftPrompt,
  YesNoClassifier,
} from "@npov/classifier";
import { type ErrorDetector, NpovError, type NpovInput } from "@npov/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const REPO = new URL("../../../", import.meta.url).pathname;
const CLS = join(REPO, "models/npov-cls");
const root = mkdtempSync(join(tmpdir(), "npov-classifier-limits-"));
const tiny = join(root, "gpt2");
beforeAll(() => writeTestModel(tiny, "gpt2", { seed: 4 }));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const input: NpovInput = {
  topic: "uniforms",
  query: "Should schools require uniforms?",
  perspectives: [
    { label: "pro", arguments: [{ text: "Uniforms cut 校服 costs." }] },
    { label: "con", arguments: [{ text: "Uniforms limit expression." }] },
  ],
};
const ascii: NpovInput = {
  ...input,
  perspectives: [
    { label: "pro", arguments: [{ text: "Uniforms cut clothing costs." }] },
    { label: "con", arguments: [{ text: "Uniforms limit expression." }] },
  ],
};

describe("YES/NO classifier", () => {
  it("shipped npov-cls: CJK words are UNREPRESENTABLE_TEXT; a 1 MB response is CONTEXT_TOO_LONG", async () => {
    const clf = await YesNoClassifier.fromPretrained(CLS, { task: "coverage" });
    try {
      expect(clf.em.context).toEqual({ tokens: 512, source: "tokenizer_config.json model_max_length" });
      await expect(clf.detect(input, "Uniforms cut 校服 costs.")).rejects.toMatchObject({
        code: "UNREPRESENTABLE_TEXT",
        words: [
          { path: "perspectives[0].arguments[0]", word: "校服", characters: ["校", "服"] },
          { path: "response", word: "校服" },
        ],
      });
      const error = await clf.detect(ascii, "Uniforms cut costs. ".repeat(50_000)).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: "CONTEXT_TOO_LONG", limit: 512 });
      expect((error as Error).message).toMatch(/the classifier prompt has at least \d+ tokens/);
      // The opt-out scores the same text.
      const lenient = await YesNoClassifier.fromPretrained(CLS, { task: "coverage", unrepresentableText: "score" });
      const scores = await lenient.detect(input, "Uniforms cut 校服 costs.");
      await lenient.dispose();
      expect(scores.coverage).toBeGreaterThanOrEqual(0);
      expect(scores.coverage).toBeLessThanOrEqual(1);
    } finally {
      await clf.dispose();
    }
  });

  it("a soft prompt counts against the context: 128 positions, prompt rows checked before tuning starts", async () => {
    const em = await loadEmbeddingModel(tiny);
    expect(em.context).toEqual({ tokens: 128, source: "config.json n_positions" });
    const long = { ...ascii, query: `${"Should schools require uniforms? ".repeat(6)}` };
    const examples = [
      { input: long, response: "Uniforms cut costs.", labels: { coverage: true, hallucination: false } },
      { input: ascii, response: "Uniforms cut costs.", labels: { coverage: false, hallucination: false } },
    ];
    const error = await tuneSoftPrompt(em, examples, [], { task: "coverage", steps: 1, length: 5 }).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: "CONTEXT_TOO_LONG", limit: 128 });
    expect((error as Error).message).toMatch(/besides 5 for the rest of the sequence/);
  });

  it("a NaN weight is INVALID_SCORE naming the task", async () => {
    const dir = join(root, "nan");
    writeTestModel(dir, "llama", { seed: 4 });
    const model = loadModel(join(dir, "onnx/model.onnx"));
    const init = model.graph?.initializer?.find((t) => t.name === "model.norm.weight");
    const raw = init?.rawData as Uint8Array;
    const floats = new Float32Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength));
    floats[0] = Number.NaN;
    (init as { rawData: Uint8Array }).rawData = new Uint8Array(floats.buffer);
    saveModel(join(dir, "onnx/model.onnx"), model);
    const clf = await YesNoClassifier.fromPretrained(dir, { task: "coverage" });
    const error = await clf.detect(ascii, "Uniforms cut costs.").catch((e: unknown) => e);
    await clf.dispose();
    expect(error).toMatchObject({ code: "INVALID_SCORE", path: "coverage" });
  });

  it("a truncated graph is MODEL_FILE_INVALID naming the file", async () => {
    const dir = join(root, "truncated");
    cpSync(tiny, dir, { recursive: true });
    const file = join(dir, "onnx/model.onnx");
    truncateSync(file, Math.floor(statSync(file).size / 2));
    await expect(YesNoClassifier.fromPretrained(dir)).rejects.toMatchObject({
      code: "MODEL_FILE_INVALID",
      problem: "truncated",
      file,
    });
  });
});

describe("stacked classifier", () => {
  const model = {
    format: "npov-stacked/1" as const,
    hallucination: fitLogistic([[0], [1], [0.2], [0.9]], [false, true, false, true], ["rouge.hallucination"], {
      iterations: 50,
    }),
    coverage: fitLogistic([[0], [1], [0.1], [0.8]], [false, true, false, true], ["rouge.coverage"], {
      iterations: 50,
    }),
  };
  const source = (value: number): ErrorDetector => ({
    name: "rouge",
    detect: async () => ({ hallucination: value, coverage: 0.5 }),
  });

  it("a source feature that is NaN is INVALID_SCORE, not a NaN probability", async () => {
    const ok = await stackedDetector(model, [source(0.3)]).detect(ascii, "x");
    expect(Number.isFinite(ok.hallucination)).toBe(true);
    await expect(stackedDetector(model, [source(Number.NaN)]).detect(ascii, "x")).rejects.toMatchObject({
      code: "INVALID_SCORE",
      path: "feature rouge.hallucination",
    });
  });

  it("a feature the model reads that no source gives is INVALID_VALUE, not its training mean", async () => {
    const withClassifier = {
      ...model,
      coverage: fitLogistic(
        [
          [0, 0.1],
          [1, 0.9],
          [0.1, 0.2],
          [0.8, 0.7],
        ],
        [false, true, false, true],
        ["rouge.coverage", "classifier.coverage"],
        {
          iterations: 50,
        },
      ),
    };
    await expect(stackedDetector(withClassifier, [source(0.3)]).detect(ascii, "x")).rejects.toMatchObject({
      code: "INVALID_VALUE",
      path: "sources",
      message: expect.stringContaining("classifier.coverage"),
    });
  });

  it("fitLogistic refuses NaN, null, ragged rows and bad labels with INVALID_VALUE naming the place", () => {
    const fit = (rows: unknown, labels: unknown = [true, false], features: unknown = ["x"]) => {
      try {
        fitLogistic(rows as never, labels as never, features as never);
        return "fitted";
      } catch (e) {
        return e instanceof NpovError ? `${e.code} ${e.path}` : `not an NpovError: ${String(e)}`;
      }
    };
    expect(fit([[Number.NaN]], [true])).toBe("INVALID_VALUE rows[0][0]");
    expect(fit(null)).toBe("INVALID_VALUE rows");
    expect(fit([[1, 2], [0]])).toBe("INVALID_VALUE rows[0]");
    expect(fit([null, [0]])).toBe("INVALID_VALUE rows[0]");
    expect(fit([[1], [0]], null)).toBe("INVALID_VALUE labels");
    expect(fit([[1], [0]], [1, 0])).toBe("INVALID_VALUE labels[0]");
    expect(fit([[1], [0]], [true, false], null)).toBe("INVALID_VALUE features");
    expect(fit([[1], [0]])).toBe("fitted");
  });

  it("a model file with null weights, a missing bias or a zero std is INVALID_FILE listing each field", () => {
    const file = join(root, "stacked.json");
    const broken = JSON.parse(JSON.stringify(model));
    broken.hallucination.weights = [null];
    delete broken.coverage.bias;
    broken.coverage.std = [0];
    writeFileSync(file, JSON.stringify(broken));
    let error: unknown;
    try {
      loadStacked(file);
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: "INVALID_FILE" });
    expect((error as { issues: Array<{ field: string }> }).issues.map((i) => i.field)).toEqual([
      "hallucination.weights[0]",
      "coverage.std[0]",
      "coverage.bias",
    ]);
    writeFileSync(file, "null");
    expect(() => loadStacked(file)).toThrow(expect.objectContaining({ code: "INVALID_FILE" }));
  });
});
