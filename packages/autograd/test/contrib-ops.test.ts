// Each contrib op, alone in a graph, run by onnxruntime's own kernel and by decomposeContribOps' standard
// ops on the same seeded inputs: outputs must match within 1e-5 of the output's largest magnitude.
import {
  ContribDecompositionError,
  DataType,
  decomposeContribOps,
  dequantizeNBits,
  encodeModel,
  floatToHalf as floatToHalfBits,
  makeTensor,
} from "@npov/autograd";
import fc from "fast-check";
import * as ort from "onnxruntime-node";
import { describe, expect, it } from "vitest";
import { expectSameOutputs, type OneNode, oneNodeModel, randomInit, randomValues } from "./contrib-helpers.js";

const f = (
  name: string,
  dims: number[],
  extra: Partial<{ type: "int32" | "int64" | "float16"; values: number[]; scale: number }> = {},
) => ({
  name,
  dims,
  ...extra,
});

async function same(spec: OneNode, expectOps?: Record<string, number>) {
  const { model, feeds } = oneNodeModel(spec);
  return expectSameOutputs(model, feeds, { expectOps: expectOps ?? { [spec.op]: 1 } });
}

describe("normalizations", () => {
  it("SimplifiedLayerNormalization (default domain) with inv_std_var", async () => {
    await same({
      op: "SimplifiedLayerNormalization",
      domain: "",
      inputs: [f("x", [2, 3, 8]), randomInit("scale", [8], 2)],
      outputs: ["y", "inv_std_var"],
      attrs: { epsilon: { float: 1e-6 }, axis: -1, stash_type: 1 },
    });
  });
  it("SimplifiedLayerNormalization over the last two axes (axis=1 of a 3-D input)", async () => {
    await same({
      op: "SimplifiedLayerNormalization",
      domain: "",
      inputs: [f("x", [2, 3, 4]), randomInit("scale", [3, 4], 3)],
      outputs: ["y"],
      attrs: { epsilon: { float: 1e-5 }, axis: 1 },
    });
  });
  it("SkipSimplifiedLayerNormalization with bias, inv_std_var and the residual sum", async () => {
    await same({
      op: "SkipSimplifiedLayerNormalization",
      inputs: [f("x", [2, 3, 8]), f("skip", [2, 3, 8]), randomInit("gamma", [8], 4), randomInit("bias", [8], 5)],
      outputs: ["y", "", "inv_std_var", "sum"],
      attrs: { epsilon: { float: 1e-6 } },
    });
  });
  it("SkipSimplifiedLayerNormalization without bias (genai layout: output and residual sum)", async () => {
    await same({
      op: "SkipSimplifiedLayerNormalization",
      inputs: [f("x", [1, 5, 16]), f("skip", [1, 5, 16]), randomInit("gamma", [16], 6)],
      outputs: ["y", "", "", "sum"],
      attrs: { epsilon: { float: 1e-6 } },
    });
  });
  it("SkipLayerNormalization with beta and bias, all four outputs", async () => {
    await same({
      op: "SkipLayerNormalization",
      inputs: [
        f("x", [2, 3, 8]),
        f("skip", [2, 3, 8]),
        randomInit("gamma", [8], 7),
        randomInit("beta", [8], 8),
        randomInit("bias", [8], 9),
      ],
      outputs: ["y", "mean", "inv_std_var", "sum"],
      attrs: { epsilon: { float: 1e-5 } },
    });
  });
  it("SkipLayerNormalization without beta/bias and with the default epsilon", async () => {
    await same({
      op: "SkipLayerNormalization",
      inputs: [f("x", [2, 3, 8]), f("skip", [2, 3, 8]), randomInit("gamma", [8], 10)],
      outputs: ["y"],
    });
  });
  it("SkipLayerNormalization at opset 13 (LayerNorm decomposed into reductions)", async () => {
    await same({
      op: "SkipLayerNormalization",
      opset: 13,
      inputs: [
        f("x", [2, 3, 8]),
        f("skip", [2, 3, 8]),
        randomInit("gamma", [8], 11),
        randomInit("beta", [8], 12),
        randomInit("bias", [8], 13),
      ],
      outputs: ["y", "", "", "sum"],
      attrs: { epsilon: { float: 1e-5 } },
    });
  });
  it("LayerNormalization below opset 17 (ORT-only there) with Mean and InvStdDev", async () => {
    await same({
      op: "LayerNormalization",
      domain: "",
      opset: 13,
      inputs: [f("x", [2, 3, 8]), randomInit("gamma", [8], 14), randomInit("beta", [8], 15)],
      outputs: ["y", "mean", "inv_std"],
      attrs: { epsilon: { float: 1e-5 }, axis: -1 },
    });
  });
  it("float16 SkipLayerNormalization computes in float32 like ORT (within float16 rounding)", async () => {
    const half = (name: string, dims: number[], seed: number) =>
      makeTensor(
        name,
        Uint16Array.from(
          randomValues(
            dims.reduce((a, b) => a * b, 1),
            seed,
          ),
          (v) => floatToHalfBits(v),
        ),
        dims,
        DataType.FLOAT16,
      );
    const { model, feeds } = oneNodeModel({
      op: "SkipLayerNormalization",
      inputs: [
        f("x", [1, 4, 16], { type: "float16" }),
        f("skip", [1, 4, 16], { type: "float16" }),
        half("gamma", [16], 16),
        half("beta", [16], 17),
      ],
      outputs: ["y", "", "", "sum"],
      attrs: { epsilon: { float: 1e-5 } },
    });
    // One float16 ulp at magnitude 4 is 2^-8.
    await expectSameOutputs(model, feeds, { tol: 2 ** -9 });
  });
});

describe("activations", () => {
  it("FastGelu with bias", async () => {
    await same({
      op: "FastGelu",
      inputs: [f("x", [2, 3, 8], { scale: 3 }), randomInit("bias", [8], 20)],
      outputs: ["y"],
    });
  });
  it("FastGelu without bias", async () => {
    await same({ op: "FastGelu", inputs: [f("x", [2, 3, 8], { scale: 3 })], outputs: ["y"] });
  });
  it("Gelu", async () => {
    await same({ op: "Gelu", inputs: [f("x", [2, 3, 8], { scale: 3 })], outputs: ["y"] });
  });
  it("BiasGelu", async () => {
    await same({
      op: "BiasGelu",
      inputs: [f("x", [2, 3, 8], { scale: 3 }), randomInit("bias", [8], 21)],
      outputs: ["y"],
    });
  });
  it("QuickGelu with the default alpha and with alpha 1", async () => {
    await same({ op: "QuickGelu", inputs: [f("x", [2, 3, 8], { scale: 3 })], outputs: ["y"] });
    await same({
      op: "QuickGelu",
      inputs: [f("x", [2, 3, 8], { scale: 3 })],
      outputs: ["y"],
      attrs: { alpha: { float: 1 } },
    });
  });
  it("BiasAdd (CUDA-only in ORT: checked against hand-computed sums)", async () => {
    const { model } = oneNodeModel({
      op: "BiasAdd",
      inputs: [
        f("x", [1, 2, 2]),
        makeTensor("bias", Float32Array.of(0.5, -1), [2], DataType.FLOAT),
        f("skip", [1, 2, 2]),
      ],
      outputs: ["y"],
    });
    const session = await ort.InferenceSession.create(encodeModel(decomposeContribOps(model).model));
    const run = await session.run({
      x: new ort.Tensor("float32", Float32Array.of(1, 2, 3, 4), [1, 2, 2]),
      skip: new ort.Tensor("float32", Float32Array.of(10, 20, 30, 40), [1, 2, 2]),
    });
    expect(Array.from(run.y?.data as Float32Array)).toEqual([11.5, 21, 33.5, 43]);
  });
});

describe("matrix products", () => {
  it("FusedMatMul with alpha, transA and transB on batched inputs", async () => {
    await same({
      op: "FusedMatMul",
      inputs: [f("a", [2, 4, 3]), f("b", [2, 5, 4])],
      outputs: ["y"],
      attrs: { alpha: { float: 0.5 }, transA: 1, transB: 1 },
    });
    await same({ op: "FusedMatMul", inputs: [f("a", [2, 3, 4]), f("b", [4, 5])], outputs: ["y"] });
  });

  const bytes = (name: string, dims: number[], seed: number) =>
    makeTensor(
      name,
      Uint8Array.from(
        randomValues(
          dims.reduce((a, b) => a * b, 1),
          seed,
        ),
        (v) => Math.floor((v + 1) * 128) & 255,
      ),
      dims,
      DataType.UINT8,
    );
  const nbits = (o: {
    k: number;
    n: number;
    bits: number;
    block: number;
    zp?: "packed" | "float";
    bias?: boolean;
    gIdx?: boolean;
  }) => {
    const blocks = Math.ceil(o.k / o.block);
    const blob = (o.block * o.bits) / 8;
    const inputs: OneNode["inputs"] = [
      f("a", [2, 3, o.k]),
      bytes("B", [o.n, blocks, blob], 30),
      randomInit("scales", [o.n * blocks], 31, 0.1),
    ];
    if (o.zp === "packed") inputs.push(bytes("zp", [o.n * Math.ceil((blocks * o.bits) / 8)], 32));
    else if (o.zp === "float") inputs.push(randomInit("zp", [o.n * blocks], 33, 8));
    else if (o.gIdx || o.bias) inputs.push("");
    if (o.gIdx)
      inputs.push(
        makeTensor(
          "g_idx",
          Int32Array.from({ length: o.k }, (_, i) => (i * 7) % blocks),
          [o.k],
          DataType.INT32,
        ),
      );
    else if (o.bias) inputs.push("");
    if (o.bias) inputs.push(randomInit("bias", [o.n], 34));
    return same({
      op: "MatMulNBits",
      inputs,
      outputs: ["y"],
      attrs: { K: o.k, N: o.n, bits: o.bits, block_size: o.block },
    });
  };
  it("MatMulNBits 4-bit without zero points (zoo layout: K 32, block 32)", async () => {
    await nbits({ k: 32, n: 24, bits: 4, block: 32 });
  });
  it("MatMulNBits 4-bit with packed zero points, K not a multiple of the block, bias", async () => {
    await nbits({ k: 48, n: 8, bits: 4, block: 32, zp: "packed", bias: true });
  });
  it("MatMulNBits 4-bit with float zero points", async () => {
    await nbits({ k: 64, n: 8, bits: 4, block: 16, zp: "float" });
  });
  it("MatMulNBits 8-bit with packed zero points", async () => {
    await nbits({ k: 64, n: 8, bits: 8, block: 32, zp: "packed" });
  });
  it("MatMulNBits 8-bit without zero points, with bias", async () => {
    await nbits({ k: 32, n: 8, bits: 8, block: 16, bias: true });
  });
  it("MatMulNBits with too few scales or zero points is UNSUPPORTED_OP naming them, not NaN weights", () => {
    const blocks = 1;
    const base: OneNode["inputs"] = [f("a", [2, 3, 32]), bytes("B", [8, blocks, 16], 30)];
    for (const [extra, name] of [
      [[randomInit("scales", [4], 31, 0.1)], "scales: has 4 values, expected N * k_blocks = 8"],
      [[randomInit("scales", [8], 31, 0.1), randomInit("zp", [3], 33, 8)], "zero_points: has 3 values, expected 8"],
    ] as const) {
      const { model } = oneNodeModel({
        op: "MatMulNBits",
        inputs: [...base, ...extra],
        outputs: ["y"],
        attrs: { K: 32, N: 8, bits: 4, block_size: 32 },
      });
      expect(() => decomposeContribOps(model)).toThrow(
        expect.objectContaining({ code: "UNSUPPORTED_OP", message: expect.stringContaining(name) }),
      );
    }
  });
  it("dequantizeNBits: hand-worked 4-bit block, low nibble first, default zero point 8", () => {
    const packed = new Uint8Array(8);
    packed.set([0x21, 0x43, 0xf0]);
    const w = dequantizeNBits({ k: 16, n: 1, bits: 4, blockSize: 16, packed, scales: [0.5] });
    expect(Array.from(w.slice(0, 6))).toEqual([-3.5, -3, -2.5, -2, -4, 3.5]);
  });
  it("dequantizeNBits reads back what the spec's bit packing wrote (fast-check)", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(2, 4, 8),
        fc.constantFrom(16, 32),
        fc.integer({ min: 1, max: 70 }),
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        (bits, blockSize, K, N, seed) => {
          const blocks = Math.ceil(K / blockSize);
          const blob = (blockSize * bits) / 8;
          const zpRow = Math.ceil((blocks * bits) / 8);
          const rnd = randomValues(N * K + 2 * N * blocks, seed).map((v) => (v + 1) / 2);
          const q = (n: number, k: number) => Math.floor((rnd[n * K + k] as number) * 2 ** bits);
          const zp = (n: number, g: number) => Math.floor((rnd[N * K + n * blocks + g] as number) * 2 ** bits);
          const scale = (n: number, g: number) => (rnd[N * K + N * blocks + n * blocks + g] as number) - 0.5;
          const packed = new Uint8Array(N * blocks * blob);
          const zps = new Uint8Array(N * zpRow);
          for (let n = 0; n < N; n++) {
            for (let k = 0; k < K; k++) {
              const g = Math.floor(k / blockSize);
              const bit = (k % blockSize) * bits;
              packed[n * blocks * blob + g * blob + (bit >> 3)] |= q(n, k) << (bit & 7);
            }
            for (let g = 0; g < blocks; g++) zps[n * zpRow + ((g * bits) >> 3)] |= zp(n, g) << ((g * bits) & 7);
          }
          const scales = Array.from({ length: N * blocks }, (_, i) => scale(Math.floor(i / blocks), i % blocks));
          const w = dequantizeNBits({ k: K, n: N, bits, blockSize, packed, scales, zeroPoints: { packed: zps } });
          for (let n = 0; n < N; n++)
            for (let k = 0; k < K; k++) {
              const g = Math.floor(k / blockSize);
              expect(w[k * N + n]).toBe(Math.fround((q(n, k) - zp(n, g)) * scale(n, g)));
            }
        },
      ),
      { numRuns: 60 },
    );
  });
  it("MatMulNBits with the deprecated g_idx input is a typed error", async () => {
    await expect(nbits({ k: 64, n: 8, bits: 4, block: 16, zp: "packed", gIdx: true })).rejects.toThrow(
      ContribDecompositionError,
    );
  });
  it("MatMulNBits 2-bit with packed zero points", async () => {
    await nbits({ k: 64, n: 8, bits: 2, block: 16, zp: "packed" });
  });
});

describe("RotaryEmbedding", () => {
  const caches = (maxPos: number, half: number) => [
    randomInit("cos", [maxPos, half], 40),
    randomInit("sin", [maxPos, half], 41),
  ];
  const pos = (b: number, s: number) =>
    f("pos", [b, s], { type: "int64", values: Array.from({ length: b * s }, (_, i) => (i * 3) % 16) });
  it("3-D input, head size from the caches, not interleaved", async () => {
    await same({ op: "RotaryEmbedding", inputs: [f("x", [2, 3, 16]), pos(2, 3), ...caches(16, 4)], outputs: ["y"] });
  });
  it("3-D input, interleaved, num_heads given", async () => {
    await same({
      op: "RotaryEmbedding",
      inputs: [f("x", [2, 3, 16]), pos(2, 3), ...caches(16, 4)],
      outputs: ["y"],
      attrs: { interleaved: 1, num_heads: 2 },
    });
  });
  it("4-D (batch, heads, seq, head) input, both layouts", async () => {
    for (const interleaved of [0, 1])
      await same({
        op: "RotaryEmbedding",
        inputs: [f("x", [2, 2, 3, 8]), pos(2, 3), ...caches(16, 4)],
        outputs: ["y"],
        attrs: { interleaved },
      });
  });
  it("partial rotation (rotary_embedding_dim < head size) passes the other channels through", async () => {
    for (const interleaved of [0, 1])
      await same({
        op: "RotaryEmbedding",
        inputs: [f("x", [2, 3, 16]), pos(2, 3), ...caches(16, 2)],
        outputs: ["y"],
        attrs: { interleaved, num_heads: 2, rotary_embedding_dim: 4 },
      });
  });
  it("position_ids of shape (1) is an offset", async () => {
    await same({
      op: "RotaryEmbedding",
      inputs: [f("x", [2, 3, 16]), f("pos", [1], { type: "int64", values: [5] }), ...caches(16, 4)],
      outputs: ["y"],
    });
  });
});

describe("GroupQueryAttention", () => {
  const gqa = (o: {
    b?: number;
    s: number;
    past: number;
    n: number;
    kv: number;
    h: number;
    packed?: boolean;
    rotary?: { interleaved: number; half?: number };
    attrs?: Record<string, number | { float: number }>;
  }) => {
    const b = o.b ?? 2;
    const total = o.past + o.s;
    const inputs: OneNode["inputs"] = o.packed
      ? [f("qkv", [b, o.s, (o.n + 2 * o.kv) * o.h]), "", ""]
      : [f("q", [b, o.s, o.n * o.h]), f("k", [b, o.s, o.kv * o.h]), f("v", [b, o.s, o.kv * o.h])];
    inputs.push(
      f("past_key", [b, o.kv, o.past, o.h]),
      f("past_value", [b, o.kv, o.past, o.h]),
      f("seqlens_k", [b], { type: "int32", values: Array(b).fill(total - 1) }),
      makeTensor("total_sequence_length", Int32Array.of(total), [], DataType.INT32),
    );
    if (o.rotary) {
      const half = o.rotary.half ?? o.h / 2;
      inputs.push(randomInit("cos", [32, half], 50), randomInit("sin", [32, half], 51));
    }
    return same({
      op: "GroupQueryAttention",
      inputs,
      outputs: ["out", "present_key", "present_value"],
      attrs: {
        num_heads: o.n,
        kv_num_heads: o.kv,
        ...(o.rotary ? { do_rotary: 1, rotary_interleaved: o.rotary.interleaved } : {}),
        ...o.attrs,
      },
    });
  };
  it("packed QKV with fused rotary, empty past (genai-llama layout), both rotary layouts", async () => {
    for (const interleaved of [0, 1])
      await gqa({ s: 5, past: 0, n: 2, kv: 1, h: 16, packed: true, rotary: { interleaved } });
  });
  it("separate Q/K/V, kv_num_heads < num_heads, no rotary (genai-qwen-gqa layout)", async () => {
    await gqa({ s: 4, past: 0, n: 4, kv: 2, h: 16 });
  });
  it("custom scale and softcap", async () => {
    await gqa({ s: 4, past: 0, n: 4, kv: 2, h: 16, attrs: { scale: { float: 0.3 }, softcap: { float: 2 } } });
  });
  it("local_window_size", async () => {
    await gqa({ s: 6, past: 0, n: 2, kv: 1, h: 16, attrs: { local_window_size: 2 } });
  });
  it("token generation over a non-empty past, with rotary at the right positions", async () => {
    await gqa({ s: 1, past: 3, n: 2, kv: 1, h: 16, packed: true, rotary: { interleaved: 0 } });
  });
  it("partial rotary (cos/sin caches narrower than head_size / 2), interleaved", async () => {
    await gqa({ s: 4, past: 0, n: 2, kv: 1, h: 32, packed: true, rotary: { interleaved: 1, half: 8 } });
  });
  it("causal = 0 attends to every valid key", async () => {
    await gqa({ s: 4, past: 0, n: 4, kv: 2, h: 16, attrs: { causal: 0 } });
  });
  it("a subsequent prompt (several new tokens after a past, batch 1)", async () => {
    await gqa({ b: 1, s: 3, past: 2, n: 4, kv: 2, h: 16, rotary: { interleaved: 0 }, attrs: { local_window_size: 3 } });
  });
});

describe("MultiHeadAttention", () => {
  it("with attention_bias and a non-empty past (genai-llama fp16 layout)", async () => {
    await same({
      op: "MultiHeadAttention",
      inputs: [
        f("q", [2, 3, 16]),
        f("k", [2, 3, 16]),
        f("v", [2, 3, 16]),
        "",
        "",
        f("attention_bias", [2, 1, 3, 5], { scale: 3 }),
        f("past_key", [2, 2, 2, 8]),
        f("past_value", [2, 2, 2, 8]),
      ],
      outputs: ["out", "present_key", "present_value"],
      attrs: { num_heads: 2, scale: { float: 0.25 } },
    });
  });
  it("with bias, a 2-D key padding mask and unidirectional", async () => {
    await same({
      op: "MultiHeadAttention",
      inputs: [
        f("q", [2, 4, 16]),
        f("k", [2, 4, 16]),
        f("v", [2, 4, 16]),
        randomInit("bias", [48], 60),
        f("mask", [2, 4], { type: "int32", values: [1, 1, 0, 1, 1, 1, 1, 0] }),
      ],
      outputs: ["out"],
      attrs: { num_heads: 2, unidirectional: 1 },
    });
  });
});

describe("MultiHeadAttention, other documented layouts", () => {
  it("cross attention with 4-D (batch, heads, kv_seq, head) key and value", async () => {
    await same({
      op: "MultiHeadAttention",
      inputs: [f("q", [2, 3, 16]), f("k", [2, 2, 5, 8]), f("v", [2, 2, 5, 8])],
      outputs: ["out"],
      attrs: { num_heads: 2 },
    });
  });
  it("3-D key padding mask (batch, seq, total) and mask_filter_value", async () => {
    const values = randomValues(2 * 3 * 4, 61).map((v) => (v > -0.4 ? 1 : 0));
    for (let i = 0; i < values.length; i += 4) values[i] = 1;
    await same({
      op: "MultiHeadAttention",
      inputs: [
        f("q", [2, 3, 16]),
        f("k", [2, 4, 16]),
        f("v", [2, 4, 16]),
        "",
        f("mask", [2, 3, 4], { type: "int32", values }),
      ],
      outputs: ["out"],
      attrs: { num_heads: 2, mask_filter_value: { float: -1000 } },
    });
  });
  it("1-D key padding mask (end positions)", async () => {
    await same({
      op: "MultiHeadAttention",
      inputs: [
        f("q", [2, 3, 16]),
        f("k", [2, 4, 16]),
        f("v", [2, 4, 16]),
        "",
        f("mask", [2], { type: "int32", values: [2, 4] }),
      ],
      outputs: ["out"],
      attrs: { num_heads: 2 },
    });
  });
});

describe("Attention (ORT optimizer GPT-2)", () => {
  const attn = (o: {
    s: number;
    past: number;
    mask?: ReturnType<typeof f>;
    attrs?: Record<string, number | { float: number }>;
  }) => {
    const b = 2;
    const inputs: OneNode["inputs"] = [
      f("x", [b, o.s, 16]),
      randomInit("w", [16, 48], 70, 0.5),
      randomInit("bias", [48], 71),
      o.mask ?? "",
    ];
    if (o.past >= 0) inputs.push(f("past", [2, b, 2, o.past, 8]));
    return same({
      op: "Attention",
      inputs,
      outputs: o.past >= 0 ? ["out", "present"] : ["out"],
      attrs: { num_heads: 2, ...o.attrs },
    });
  };
  it("unidirectional with a raw mask, a non-empty past and mask_filter_value = lowest (zoo layout)", async () => {
    await attn({
      s: 3,
      past: 2,
      mask: f("mask", [2, 5], { type: "int32", values: [1, 0, 1, 1, 1, 1, 1, 1, 1, 1] }),
      attrs: { unidirectional: 1, mask_filter_value: { float: -3.4028234663852886e38 } },
    });
  });
  it("unidirectional, empty past, no mask", async () => {
    await attn({ s: 4, past: 0, attrs: { unidirectional: 1 } });
  });
  it("bidirectional without past, custom scale", async () => {
    await attn({ s: 4, past: -1, attrs: { scale: { float: 0.2 } } });
  });
  it("mask_index as end positions (B) and as end + start positions (2B)", async () => {
    await attn({ s: 4, past: -1, mask: f("mask", [2], { type: "int32", values: [3, 4] }) });
    await attn({ s: 4, past: -1, mask: f("mask", [4], { type: "int32", values: [3, 4, 1, 0] }) });
  });
  it("qkv_hidden_sizes with a wider value projection", async () => {
    await same({
      op: "Attention",
      inputs: [f("x", [2, 3, 16]), randomInit("w", [16, 48], 73, 0.5), randomInit("bias", [48], 74)],
      outputs: ["out"],
      attrs: { num_heads: 2, qkv_hidden_sizes: [12, 12, 24], unidirectional: 1 },
    });
  });
  it("3-D mask (B, S, T)", async () => {
    const values = randomValues(2 * 3 * 3, 72).map((v) => (v > -0.5 ? 1 : 0));
    for (let i = 0; i < values.length; i += 3) values[i] = 1; // every row keeps one key
    await attn({ s: 3, past: -1, mask: f("mask", [2, 3, 3], { type: "int32", values }) });
  });
});

describe("EmbedLayerNormalization", () => {
  it("GPT-2 layout: position_ids, no segment, no mask (mask_index of zeros)", async () => {
    await same({
      op: "EmbedLayerNormalization",
      inputs: [
        f("ids", [2, 4], { type: "int32", values: [1, 5, 9, 2, 0, 3, 3, 7] }),
        "",
        randomInit("word", [10, 8], 80),
        randomInit("position", [6, 8], 81),
        "",
        randomInit("gamma", [8], 82),
        randomInit("beta", [8], 83),
        "",
        f("position_ids", [2, 4], { type: "int32", values: [0, 1, 2, 3, 2, 3, 4, 5] }),
      ],
      outputs: ["out", "mask_index", "embedding_sum"],
      attrs: { epsilon: { float: 1e-5 } },
    });
  });
  it("BERT layout: segment embeddings, a mask, default positions", async () => {
    await same({
      op: "EmbedLayerNormalization",
      inputs: [
        f("ids", [2, 4], { type: "int32", values: [1, 5, 9, 2, 0, 3, 3, 7] }),
        f("segments", [2, 4], { type: "int32", values: [0, 0, 1, 1, 0, 1, 1, 1] }),
        randomInit("word", [10, 8], 84),
        randomInit("position", [6, 8], 85),
        randomInit("segment", [2, 8], 86),
        randomInit("gamma", [8], 87),
        randomInit("beta", [8], 88),
        f("mask", [2, 4], { type: "int32", values: [1, 1, 1, 0, 1, 1, 0, 0] }),
      ],
      outputs: ["out", "mask_index"],
      attrs: { epsilon: { float: 1e-12 } },
    });
  });
  it("the word lookup is a plain Gather of the table by the ids", () => {
    const { model } = oneNodeModel({
      op: "EmbedLayerNormalization",
      inputs: [
        f("ids", [1, 2], { type: "int32" }),
        "",
        randomInit("word", [10, 8], 80),
        randomInit("position", [6, 8], 81),
        "",
        randomInit("gamma", [8], 82),
        randomInit("beta", [8], 83),
      ],
      outputs: ["out"],
    });
    const nodes = decomposeContribOps(model).model.graph?.node ?? [];
    expect(nodes.filter((n) => n.opType === "Gather" && n.input?.[0] === "word").map((n) => n.input?.[1])).toEqual([
      "ids",
    ]);
  });
});

describe("typed errors for what the decomposition does not cover", () => {
  it("names the op, node and attribute", () => {
    const { model } = oneNodeModel({
      op: "GroupQueryAttention",
      inputs: [
        f("qkv", [1, 2, 64]),
        "",
        "",
        "",
        "",
        f("seqlens_k", [1], { type: "int32" }),
        makeTensor("total", Int32Array.of(2), [], DataType.INT32),
      ],
      outputs: ["out"],
      attrs: { num_heads: 2, kv_num_heads: 1, smooth_softmax: 1 },
    });
    let error: unknown;
    try {
      decomposeContribOps(model);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ContribDecompositionError);
    const err = error as ContribDecompositionError;
    expect(err.code).toBe("UNSUPPORTED_OP");
    expect(err.feature).toBe("smooth_softmax");
    expect(err.message).toContain('GroupQueryAttention (node "GroupQueryAttention_node")');
  });
  it("MatMulNBits needs its weights as initializers", () => {
    const { model } = oneNodeModel({
      op: "MatMulNBits",
      inputs: [f("a", [1, 32]), f("b", [8, 1, 16]), randomInit("scales", [8], 1)],
      outputs: ["y"],
      attrs: { K: 32, N: 8, bits: 4, block_size: 32 },
    });
    expect(() => decomposeContribOps(model)).toThrow(ContribDecompositionError);
  });
});
