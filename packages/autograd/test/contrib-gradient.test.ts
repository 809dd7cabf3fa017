// Gradients through decomposed contrib ops: after decomposeContribOps, genai-llama (GroupQueryAttention
// with fused rotary, RMSNorms) and ortopt-gpt2 (EmbedLayerNormalization, Attention, SkipLayerNormalization,
// FastGelu; opset 11 upgraded to 13) contain no contrib op, and buildGradientGraph of the logits with
// respect to the word-embedding Gather output builds and runs. In float64, the vector-Jacobian product
// for one token's embedding column matches central finite differences within 1e-4 (relative to the
// column's largest entry).
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  buildGradientGraph,
  convertFloatType,
  cutAtTensor,
  DataType,
  decomposeContribOps,
  encodeModel,
  findEmbeddingOutput,
  loadModel,
  type ModelProto,
  onnx,
  opsetVersion,
  valueInfo,
  valueInfoShape,
} from "@npov/autograd";
import * as ort from "onnxruntime-node";
import { describe, expect, it } from "vitest";
import { contribNodes, randomValues } from "./contrib-helpers.js";

const ZOO = fileURLToPath(new URL("../../../../shared/models/zoo/", import.meta.url));
const S = 5;
// QuickGelu and other ORT fusions have float32 kernels only: keep float64 graphs unfused.
const basic = { graphOptimizationLevel: "basic" } as const;

function feedsFor(model: ModelProto): Record<string, ort.Tensor> {
  const feeds: Record<string, ort.Tensor> = {};
  for (const input of model.graph?.input ?? []) {
    const name = input.name ?? "";
    const { elemType, shape } = valueInfoShape(input);
    const dims = (shape ?? []).map((d) =>
      typeof d === "number" ? d : /past/i.test(String(d)) ? 0 : /batch/i.test(String(d)) ? 1 : S,
    );
    const n = dims.reduce((a, b) => a * b, 1);
    const values = /position/.test(name)
      ? Array.from({ length: n }, (_, i) => i)
      : /mask/.test(name)
        ? Array<number>(n).fill(1)
        : Array.from({ length: n }, (_, i) => (i * 37 + 11) % 300);
    if (elemType === DataType.INT64)
      feeds[name] = new ort.Tensor("int64", BigInt64Array.from(values.map(BigInt)), dims);
    else if (elemType === DataType.INT32) feeds[name] = new ort.Tensor("int32", Int32Array.from(values), dims);
    else feeds[name] = new ort.Tensor("float64", new Float64Array(n), dims); // empty past
  }
  return feeds;
}

async function checkEmbeddingGradient(file: string, expectedOps: string[]) {
  // float16 graphs go to float64 before the decomposition, so no float32 casts remain inside.
  const loaded = loadModel(join(ZOO, file));
  const half = (loaded.graph?.initializer ?? []).some((t) => t.dataType === DataType.FLOAT16);
  const { model: decomposed, report } = decomposeContribOps(
    half ? convertFloatType(loaded, DataType.FLOAT16, DataType.DOUBLE) : loaded,
  );
  expect(Object.keys(report).sort()).toEqual(expectedOps.sort());
  expect(contribNodes(decomposed)).toEqual([]);
  expect(opsetVersion(decomposed)).toBeGreaterThanOrEqual(13);
  const model = half ? decomposed : convertFloatType(decomposed, DataType.FLOAT, DataType.DOUBLE);
  const feeds = feedsFor(model);
  const embedding = findEmbeddingOutput(model);

  const grad = await buildGradientGraph(model, { of: "logits", wrt: [embedding], feeds });
  const withEmbedding = onnx.ModelProto.decode(encodeModel(model));
  withEmbedding.graph?.output?.push(valueInfo(embedding));
  const forward = await ort.InferenceSession.create(encodeModel(withEmbedding), basic);
  const base = await forward.run(feeds);
  const logits = base.logits as ort.Tensor;
  const e = base[embedding] as ort.Tensor;
  const u = Float64Array.from(randomValues(logits.data.length, 11));
  const session = await ort.InferenceSession.create(encodeModel(grad.model), basic);
  const run = await session.run({
    ...feeds,
    [grad.upstream.logits as string]: new ort.Tensor("float64", u, logits.dims),
  });
  const vjp = (run[grad.gradients[embedding] as string] as ort.Tensor).data as Float64Array;

  // Central differences of sum(u * logits) on the embedding of token 2, every channel.
  const cut = await cutAtTensor(model, embedding, "inputs_embeds", feeds);
  const cutSession = await ort.InferenceSession.create(encodeModel(cut), basic);
  const cutFeeds = Object.fromEntries(
    cutSession.inputNames.filter((n) => n !== "inputs_embeds").map((n) => [n, feeds[n] as ort.Tensor]),
  );
  const objective = async (values: Float64Array) => {
    const out = await cutSession.run({ ...cutFeeds, inputs_embeds: new ort.Tensor("float64", values, e.dims) }, [
      "logits",
    ]);
    const l = (out.logits as ort.Tensor).data as Float64Array;
    let s = 0;
    for (let i = 0; i < l.length; i++) s += (l[i] as number) * (u[i] as number);
    return s;
  };
  const hidden = e.dims[2] as number;
  const token = 2;
  const h = 1e-6;
  const numeric: number[] = [];
  const analytic: number[] = [];
  for (let c = 0; c < hidden; c++) {
    const i = token * hidden + c;
    const plus = Float64Array.from(e.data as Float64Array);
    const minus = Float64Array.from(e.data as Float64Array);
    plus[i] = (plus[i] as number) + h;
    minus[i] = (minus[i] as number) - h;
    numeric.push(((await objective(plus)) - (await objective(minus))) / (2 * h));
    analytic.push(vjp[i] as number);
  }
  const scale = Math.max(...numeric.map(Math.abs));
  expect(scale).toBeGreaterThan(0);
  const worst = Math.max(...numeric.map((v, k) => Math.abs(v - (analytic[k] as number)) / scale));
  expect(worst).toBeLessThanOrEqual(1e-4);
  await Promise.all([forward.release(), session.release(), cutSession.release()]);
}

describe("gradients through decomposed contrib ops (float64, central differences)", () => {
  it("genai-llama fp32: GroupQueryAttention with rotary, (Skip)SimplifiedLayerNormalization", async () => {
    await checkEmbeddingGradient("genai-llama/onnx/model.onnx", [
      "GroupQueryAttention",
      "SimplifiedLayerNormalization",
      "SkipSimplifiedLayerNormalization",
    ]);
  });
  it("ortopt-gpt2 fp32 (opset 11): EmbedLayerNormalization, Attention, SkipLayerNormalization, FastGelu", async () => {
    await checkEmbeddingGradient("ortopt-gpt2/onnx/model.onnx", [
      "Attention",
      "EmbedLayerNormalization",
      "FastGelu",
      "SkipLayerNormalization",
    ]);
  });
  it("genai-llama fp16 graph (in float64): MultiHeadAttention, RotaryEmbedding", async () => {
    await checkEmbeddingGradient("genai-llama/onnx/model_fp16.onnx", [
      "MultiHeadAttention",
      "RotaryEmbedding",
      "SimplifiedLayerNormalization",
      "SkipSimplifiedLayerNormalization",
    ]);
  });
  it("genai-qwen-gqa fp16 graph (in float64): GroupQueryAttention with kv_num_heads < num_heads", async () => {
    await checkEmbeddingGradient("genai-qwen-gqa/onnx/model_fp16.onnx", [
      "GroupQueryAttention",
      "SkipLayerNormalization",
    ]);
  });
});
