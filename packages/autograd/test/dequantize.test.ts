import {
  DataType,
  dequantizeModel,
  dequantizeValues,
  encodeModel,
  floatToHalf,
  type ModelProto,
  makeTensor,
} from "@npov/autograd";
import { createRng } from "@npov/core";
import * as ort from "onnxruntime-node";
import { describe, expect, it } from "vitest";
import { checkGradient, randomFeed, tinyModel } from "./helpers.js";

const rng = createRng(5);
const W1 = Float32Array.from({ length: 4 * 5 }, () => rng.next() * 2 - 1);
const W2 = Float32Array.from({ length: 5 * 3 }, () => rng.next() * 2 - 1);
const x = randomFeed([2, 4], "float", 3);

async function run(model: ModelProto, feeds: Record<string, ort.Tensor>): Promise<Float32Array> {
  // Unoptimized: onnxruntime would otherwise fuse DequantizeLinear + MatMul into an integer kernel that
  // also quantizes the activations, which is not the model's arithmetic.
  const s = await ort.InferenceSession.create(encodeModel(model), { graphOptimizationLevel: "disabled" });
  const r = await s.run(feeds);
  await s.release();
  return r.out!.data as Float32Array;
}

/** Symmetric int8 per-column quantization of a [K, N] weight. */
function quantizeColumns(w: Float32Array, k: number, n: number): { q: Int8Array; scale: Float32Array } {
  const scale = new Float32Array(n);
  for (let c = 0; c < n; c++) {
    let max = 0;
    for (let r = 0; r < k; r++) max = Math.max(max, Math.abs(w[r * n + c] as number));
    scale[c] = max / 127;
  }
  const q = Int8Array.from(w, (v, i) => Math.round(v / (scale[i % n] as number)));
  return { q, scale };
}

describe("dequantizeModel", () => {
  it("folds DequantizeLinear weights (per-axis int8) into fp32 initializers, same outputs", async () => {
    const q1 = quantizeColumns(W1, 4, 5);
    const q2 = quantizeColumns(W2, 5, 3);
    const model = tinyModel({
      inputs: [{ name: "x", dims: ["b", 4], dtype: "float" }],
      nodes: [
        ["DequantizeLinear", ["w1q", "s1"], ["w1"], { axis: 1 }],
        ["DequantizeLinear", ["w2q", "s2"], ["w2"], { axis: 1 }],
        ["MatMul", ["x", "w1"], ["h"]],
        ["Relu", ["h"], ["r"]],
        ["MatMul", ["r", "w2"], ["out"]],
      ],
      outputs: ["out"],
      initializers: [
        makeTensor("w1q", q1.q, [4, 5], DataType.INT8),
        makeTensor("s1", q1.scale, [5]),
        makeTensor("w2q", q2.q, [5, 3], DataType.INT8),
        makeTensor("s2", q2.scale, [3]),
      ],
    });
    const { model: fp32, report } = dequantizeModel(model);
    expect(report).toEqual({ fp16Converted: false, dequantizeLinear: 2, matMulInteger: 0 });
    expect(fp32.graph!.node!.map((n) => n.opType)).toEqual(["MatMul", "Relu", "MatMul"]);
    const a = await run(model, { x });
    const b = await run(fp32, { x });
    for (let i = 0; i < a.length; i++) expect(b[i]).toBeCloseTo(a[i] as number, 6);
    await checkGradient(fp32, { of: "out", wrt: ["x"], feeds: { x }, dtype: "float", h: 1e-2, tol: 1e-2 });
  });

  it("rewrites onnxruntime's dynamic quantization (MatMulInteger) to MatMul on dequantized weights", async () => {
    // uint8 weights with a zero point, per-tensor scale, as quantize_dynamic emits.
    const wScale = 2 / 255;
    const wq = Uint8Array.from(W1, (v) => Math.round(v / wScale) + 128);
    const model = tinyModel({
      inputs: [{ name: "x", dims: ["b", 4], dtype: "float" }],
      nodes: [
        ["DynamicQuantizeLinear", ["x"], ["xq", "xs", "xzp"]],
        ["MatMulInteger", ["xq", "wq", "xzp", "wzp"], ["yi"]],
        ["Cast", ["yi"], ["yf"], { to: DataType.FLOAT }],
        ["Mul", ["xs", "ws"], ["s"]],
        ["Mul", ["yf", "s"], ["out"]],
      ],
      outputs: ["out"],
      initializers: [
        makeTensor("wq", wq, [4, 5], DataType.UINT8),
        makeTensor("wzp", Uint8Array.of(128), [], DataType.UINT8),
        makeTensor("ws", Float32Array.of(wScale), []),
      ],
    });
    const quantized = await run(model, { x });
    const { model: fp32, report } = dequantizeModel(model);
    expect(report.matMulInteger).toBe(1);
    expect(fp32.graph!.node!.map((n) => n.opType)).toEqual(["MatMul"]);
    const got = await run(fp32, { x });
    // Exactly x @ dequantized W; close to the quantized model (which also quantizes x).
    const w = dequantizeValues(wq, [4, 5], [wScale], [128], 1);
    const xs = x.data as Float32Array;
    for (let r = 0; r < 2; r++)
      for (let c = 0; c < 5; c++) {
        let s = 0;
        for (let k = 0; k < 4; k++) s += (xs[r * 4 + k] as number) * (w[k * 5 + c] as number);
        expect(got[r * 5 + c]).toBeCloseTo(s, 5);
        expect(Math.abs((got[r * 5 + c] as number) - (quantized[r * 5 + c] as number))).toBeLessThan(0.03);
      }
    await checkGradient(fp32, { of: "out", wrt: ["x"], feeds: { x }, dtype: "float", h: 1e-2, tol: 1e-2 });
  });

  it("converts fp16 weights, casts and types to fp32", async () => {
    const float = tinyModel({
      inputs: [{ name: "x", dims: ["b", 4], dtype: "float" }],
      nodes: [["MatMul", ["x", "w"], ["out"]]],
      outputs: ["out"],
      initializers: [makeTensor("w", W1, [4, 5])],
    });
    // As fp16 models are published: fp16 weights, activations cast to fp16 and back.
    const half = tinyModel({
      inputs: [{ name: "x", dims: ["b", 4], dtype: "float" }],
      nodes: [
        ["Cast", ["x"], ["x16"], { to: DataType.FLOAT16 }],
        ["MatMul", ["x16", "w"], ["h"]],
        ["Cast", ["h"], ["out"], { to: DataType.FLOAT }],
      ],
      outputs: ["out"],
      initializers: [makeTensor("w", Uint16Array.from(W1, floatToHalf), [4, 5], DataType.FLOAT16)],
    });
    const { model: fp32, report } = dequantizeModel(half);
    expect(report.fp16Converted).toBe(true);
    expect(fp32.graph!.initializer!.every((t) => t.dataType === DataType.FLOAT)).toBe(true);
    expect(
      fp32.graph!.node!.filter((n) => n.opType === "Cast").every((n) => Number(n.attribute![0]!.i) === DataType.FLOAT),
    ).toBe(true);
    const a = await run(float, { x });
    const b = await run(fp32, { x });
    const c = await run(half, { x });
    for (let i = 0; i < a.length; i++) {
      expect(Math.abs((b[i] as number) - (a[i] as number))).toBeLessThan(2e-3); // fp16 weight rounding
      expect(Math.abs((b[i] as number) - (c[i] as number))).toBeLessThan(5e-3); // plus fp16 arithmetic
    }
    await checkGradient(fp32, { of: "out", wrt: ["x"], feeds: { x }, dtype: "float", h: 1e-2, tol: 1e-2 });
  });
});
