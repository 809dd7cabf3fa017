import { join } from "node:path";
import { DTYPE_SUFFIX, type ModelDtype } from "@npov/autograd";
import { SalienceDetector } from "@npov/salience";
import { describe, expect, it } from "vitest";
import { causalReference, relativeError, seq2seqReference, ZOO } from "../../autograd/test/zoo-reference.js";

const PROMPT = "User question: {Ban zoos?} pro: {Cages harm animals.}";
const RESPONSE = "Cages harm";

interface Case {
  folder: string;
  dtype: ModelDtype;
  /** Decoder base name (legacy layouts). */
  file?: string;
  reference: "same-file" | "fp32-file";
  tolerance: number;
}

const CAUSAL: Case[] = [
  ...(["fp32", "fp16"] as const).flatMap((dtype) =>
    ["optimum-gpt2", "optimum-llama"].map((folder) => ({
      folder,
      dtype,
      reference: "same-file" as const,
      tolerance: 1e-4,
    })),
  ),
  ...(["q4", "q4f16"] as const).flatMap((dtype) =>
    ["optimum-gpt2", "optimum-llama"].map((folder) => ({
      folder,
      dtype,
      reference: "same-file" as const,
      tolerance: 1e-2,
    })),
  ),
  ...(["q8", "int8", "uint8"] as const).flatMap((dtype) =>
    ["optimum-gpt2", "optimum-llama"].map((folder) => ({
      folder,
      dtype,
      reference: "fp32-file" as const,
      tolerance: 0.2,
    })),
  ),
  { folder: "optimum-gpt2-legacy", dtype: "fp32", file: "decoder_model", reference: "same-file", tolerance: 1e-4 },
  {
    folder: "optimum-gpt2-legacy",
    dtype: "fp32",
    file: "decoder_model_merged",
    reference: "same-file",
    tolerance: 1e-4,
  },
  { folder: "optimum-gpt2-legacy", dtype: "q8", file: "decoder_model_merged", reference: "fp32-file", tolerance: 0.2 },
  { folder: "genai-llama", dtype: "fp32", reference: "same-file", tolerance: 1e-2 },
  { folder: "genai-llama", dtype: "fp16", reference: "same-file", tolerance: 1e-2 },
  { folder: "genai-qwen-gqa", dtype: "fp16", reference: "same-file", tolerance: 1e-2 },
  { folder: "ortopt-gpt2", dtype: "fp32", reference: "same-file", tolerance: 1e-2 },
  { folder: "ortopt-gpt2", dtype: "fp16", reference: "same-file", tolerance: 1e-2 },
];

describe("salience on zoo models: token maps vs finite differences on the original graphs", () => {
  it.each(CAUSAL)("$folder $dtype $file", async (c) => {
    const dir = join(ZOO, c.folder);
    const detector = await SalienceDetector.fromPretrained(dir, {
      dtype: c.dtype,
      precision: "float64",
      ...(c.file ? { modelFileName: c.file } : {}),
    });
    const map = await detector.tokenMap(PROMPT, RESPONSE);
    await detector.dispose();
    const promptIds = map.inputTokens.map((t) => t.id);
    const responseIds = map.responseTokens.map((t) => t.id);
    expect(promptIds.length).toBeGreaterThan(3);
    expect(responseIds.length).toBeGreaterThan(0);
    const base = c.file ?? "model";
    const file = `onnx/${base}${c.reference === "fp32-file" ? "" : DTYPE_SUFFIX[c.dtype]}.onnx`;
    const ref = await causalReference(dir, file, promptIds, responseIds, c.tolerance >= 1e-2 ? 1e-2 : 1e-4);
    const err = relativeError(map.attributions.data, ref.map.flat());
    expect(err, `relative error ${err} (reference ${ref.precision})`).toBeLessThanOrEqual(c.tolerance);
    // Causality: a response token never depends on later response tokens.
    const l = responseIds.length;
    for (let r = 0; r < l; r++)
      for (let t = 0; t <= r; t++) expect(map.attributions.data[(promptIds.length + r) * l + t]).toBe(0);
  });

  it.each([
    { dtype: "fp32" as const, reference: "same-file", tolerance: 1e-4 },
    { dtype: "fp16" as const, reference: "same-file", tolerance: 1e-4 },
    { dtype: "q4" as const, reference: "same-file", tolerance: 1e-2 },
    { dtype: "q8" as const, reference: "fp32-file", tolerance: 0.2 },
  ])("optimum-t5 $dtype (encoder + If-merged decoder)", async (c) => {
    const dir = join(ZOO, "optimum-t5");
    const precision = c.reference === "same-file" && c.tolerance >= 1e-2 ? "float32" : "float64";
    const detector = await SalienceDetector.fromPretrained(dir, { dtype: c.dtype, precision });
    const map = await detector.tokenMap(PROMPT, RESPONSE);
    await detector.dispose();
    const promptIds = map.inputTokens.map((t) => t.id);
    const responseIds = map.responseTokens.map((t) => t.id);
    const suffix = c.reference === "fp32-file" ? "" : DTYPE_SUFFIX[c.dtype];
    const ref = await seq2seqReference(
      dir,
      `onnx/encoder_model${suffix}.onnx`,
      `onnx/decoder_model_merged${suffix}.onnx`,
      promptIds,
      responseIds,
      0,
      c.tolerance >= 1e-2 ? 1e-2 : 1e-4,
    );
    const err = relativeError(map.attributions.data, ref.map.flat());
    expect(err, `relative error ${err} (reference ${ref.precision})`).toBeLessThanOrEqual(c.tolerance);
  });
  it("an input longer than the model's positions is a typed CONTEXT_TOO_LONG error naming the limit", async () => {
    const detector = await SalienceDetector.fromPretrained(join(ZOO, "optimum-llama"));
    expect(detector.context).toEqual({ tokens: 256, source: "config.json max_position_embeddings" });
    const error = await detector.tokenMap("zoo ".repeat(300), RESPONSE).catch((e: unknown) => e);
    await detector.dispose();
    expect(error).toMatchObject({ code: "CONTEXT_TOO_LONG", limit: 256 });
    expect((error as Error).message).toMatch(/more than its context of 256.*config.json max_position_embeddings/);
  });
});
