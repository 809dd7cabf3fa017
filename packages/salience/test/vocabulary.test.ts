/**
 * Text a model cannot represent is reported, not scored as 0: the shipped models' ASCII-only vocabulary
 * maps CJK, Arabic, Hebrew, Cyrillic, Greek and Devanagari letters (and "é", and the digit "4") to <unk>,
 * so salience refuses such words with UNREPRESENTABLE_TEXT listing them (the classifier too: see
 * classifier/test/model-limits.test.ts); a zoo model with byte fallback (optimum-llama, stories260K's
 * tokenizer) reads them and scores them. Also the context limit (CONTEXT_TOO_LONG before any long
 * tokenization, work counted) and a NaN weight (INVALID_SCORE, never a null score).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadModel, saveModel, tokenizerFromFiles, unrepresentableWords, writeTestModel } from "@npov/autograd";
import type { NpovInput } from "@npov/core";
import { SalienceDetector } from "@npov/salience";
import { afterAll, describe, expect, it, vi } from "vitest";

const REPO = new URL("../../../", import.meta.url).pathname;
const GEN = join(REPO, "models/npov-gen");
const ZOO = new URL("../../../../shared/models/zoo/", import.meta.url).pathname;
const root = mkdtempSync(join(tmpdir(), "npov-vocabulary-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** An input whose first argument holds `word`, and a response that copies the argument verbatim. */
function example(word: string): { input: NpovInput; response: string } {
  return {
    input: {
      topic: "uniforms",
      query: "Should schools require uniforms?",
      perspectives: [
        { label: "pro", arguments: [{ text: `Uniforms cut ${word} costs.` }] },
        { label: "con", arguments: [{ text: "Uniforms limit expression." }] },
      ],
    },
    response: `Uniforms cut ${word} costs, but they limit expression.`,
  };
}

const SCRIPTS: Array<[string, string]> = [
  ["CJK", "校服"],
  ["Arabic", "مدرسة"],
  ["Hebrew", "בית"],
  ["Cyrillic", "школа"],
  ["Greek", "σχολείο"],
  ["Devanagari", "विद्यालय"],
];

describe("which words a tokenizer cannot represent", () => {
  const shipped = tokenizerFromFiles(GEN);
  const llama = tokenizerFromFiles(join(ZOO, "optimum-llama"));
  const gpt2 = tokenizerFromFiles(join(ZOO, "optimum-gpt2"));

  it.each(SCRIPTS)(
    "%s (%s): every letter is <unk> for the shipped model, none for byte fallback or byte-level BPE",
    (_s, word) => {
      const text = `Uniforms cut ${word} costs.`;
      expect(unrepresentableWords(shipped, [{ path: "response", text }])).toEqual([
        { path: "response", word, start: 13, end: 13 + word.length, characters: [...new Set(Array.from(word))] },
      ]);
      expect(unrepresentableWords(llama, [{ path: "response", text }])).toEqual([]);
      expect(unrepresentableWords(gpt2, [{ path: "response", text }])).toEqual([]);
    },
  );

  it("names only the unknown characters of a word; punctuation and emoji outside words never count", () => {
    expect(unrepresentableWords(shipped, [{ path: "a", text: "A café, 🙂 -- «quoted» (fine)!" }])).toEqual([
      { path: "a", word: "café", start: 2, end: 6, characters: ["é"] },
    ]);
    expect(unrepresentableWords(shipped, [{ path: "a", text: "Plain ASCII words only." }])).toEqual([]);
  });
});

describe("salience refuses what the shipped model cannot read, and scores it with byte fallback", () => {
  const detectors: SalienceDetector[] = [];
  afterAll(async () => {
    for (const d of detectors) await d.dispose();
  });

  it("shipped npov-gen: UNREPRESENTABLE_TEXT listing the words and where they are, before running the model", async () => {
    const detector = await SalienceDetector.fromPretrained(GEN);
    detectors.push(detector);
    const { input, response } = example("校服");
    const error = await detector.score(input, response).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: "UNREPRESENTABLE_TEXT",
      words: [
        { path: "perspectives[0].arguments[0]", word: "校服", start: 13, end: 15, characters: ["校", "服"] },
        { path: "response", word: "校服", start: 13, end: 15, characters: ["校", "服"] },
      ],
    });
    expect((error as Error).message).toContain('"校服" (response)');
    await expect(detector.detect(input, response)).rejects.toMatchObject({ code: "UNREPRESENTABLE_TEXT" });
  });

  it("shipped npov-gen: emoji and punctuation outside words do not block; the scores are finite", async () => {
    const detector = detectors[0] as SalienceDetector;
    const { input } = example("clothing");
    const r = await detector.score(input, "Uniforms cut clothing costs 🙂 -- but they limit expression!");
    expect(r.words.response.map((w) => w.text)).toEqual([
      "Uniforms",
      "cut",
      "clothing",
      "costs",
      "limit",
      "expression",
    ]);
    expect(Number.isFinite(r.hallucination) && Number.isFinite(r.coverage)).toBe(true);
  });

  it('shipped npov-gen with unrepresentableText: "score" scores anyway (the opt-out)', async () => {
    const detector = await SalienceDetector.fromPretrained(GEN, { unrepresentableText: "score" });
    detectors.push(detector);
    const { input, response } = example("校服");
    const r = await detector.score(input, response);
    expect(r.words.response.map((w) => w.text)).toContain("校服");
  });

  it("optimum-llama (byte fallback) reads the CJK word and attributes the copied word", async () => {
    const detector = await SalienceDetector.fromPretrained(join(ZOO, "optimum-llama"));
    detectors.push(detector);
    const { input, response } = example("校服");
    const r = await detector.score(input, response);
    const copied = r.words.response.find((w) => w.text === "校服");
    expect(copied?.attribution).toBeGreaterThan(0);
    const argument = r.words.arguments.find((w) => w.text === "校服");
    expect(argument?.contribution).toBeGreaterThan(0);
    expect(r.hallucination).toBeGreaterThanOrEqual(0);
    expect(r.hallucination).toBeLessThanOrEqual(1);
  });

  it("a 1 MB response is CONTEXT_TOO_LONG after tokenizing a few chunks of it, not the whole", async () => {
    const detector = detectors[0] as SalienceDetector;
    expect(detector.context).toEqual({ tokens: 512, source: "tokenizer_config.json model_max_length" });
    const { input } = example("clothing");
    const response = "Supporters say uniforms reduce visible differences in family income. ".repeat(15_000);
    const spy = vi.spyOn(detector.files.tokenizer, "encode");
    try {
      const error = await detector.score(input, response).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: "CONTEXT_TOO_LONG", limit: 512 });
      expect((error as Error).message).toMatch(/the response has at least \d+ tokens/);
      const read = spy.mock.calls.reduce((n, call) => n + String(call[0]).length, 0);
      expect(read).toBeLessThan(20_000); // of 1,035,000 characters
    } finally {
      spy.mockRestore();
    }
  });
});

describe("a NaN weight gives INVALID_SCORE, never a null score", () => {
  it("salience on a test model with one NaN in a layer-norm weight", async () => {
    const dir = join(root, "nan");
    writeNanModel(dir);
    const { input, response } = example("clothing");
    const salience = await SalienceDetector.fromPretrained(dir);
    const error = await salience.score(input, response).catch((e: unknown) => e);
    await salience.dispose();
    expect(error).toMatchObject({ code: "INVALID_SCORE" });
    expect((error as Error).message).toMatch(/Detector "salience" returned attributions\[\d+\]\[\d+\] = NaN/);
  });
});

/** A tiny LLaMA test model (512 positions) with one NaN in its final norm's weight. */
function writeNanModel(dir: string): void {
  writeTestModel(dir, "llama", { seed: 5 });
  const model = loadModel(join(dir, "onnx/model.onnx"));
  const init = model.graph?.initializer?.find((t) => t.name === "model.norm.weight");
  const raw = init?.rawData as Uint8Array;
  const floats = new Float32Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength));
  floats[0] = Number.NaN;
  (init as { rawData: Uint8Array }).rawData = new Uint8Array(floats.buffer);
  saveModel(join(dir, "onnx/model.onnx"), model);
}
