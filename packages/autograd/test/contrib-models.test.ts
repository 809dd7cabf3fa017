// Whole zoo models with contrib ops: the decomposed graph gives the same outputs (logits and the present
// KV cache) as onnxruntime running the original graph, on a 5-token prompt with an empty past.
// float32 graphs: within 1e-5 of each output's largest magnitude. Graphs that compute in float16 (fp16 and
// q4f16 files, some with float32 outputs) run as they are on both sides: within 2e-3 of the largest
// magnitude, about two float16 ulps there (ORT's fused kernels and the decomposition round intermediate
// results at different points).
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  DataType,
  decomposeContribOps,
  encodeModel,
  loadModel,
  type ModelProto,
  opsetVersion,
  valueInfoShape,
} from "@npov/autograd";
import * as ort from "onnxruntime-node";
import { describe, expect, it } from "vitest";
import { contribNodes, numbers } from "./contrib-helpers.js";

const ZOO = fileURLToPath(new URL("../../../../shared/models/zoo/", import.meta.url));
const S = 5;

const files = [
  ...["genai-llama", "genai-qwen-gqa", "ortopt-gpt2"].flatMap((folder) =>
    readdirSync(join(ZOO, folder, "onnx"))
      .filter((f) => f.endsWith(".onnx"))
      .map((f) => `${folder}/onnx/${f}`),
  ),
  ...["optimum-gpt2", "optimum-llama", "optimum-t5"].flatMap((folder) =>
    readdirSync(join(ZOO, folder, "onnx"))
      .filter((f) => /_q4(f16)?\.onnx$/.test(f))
      .map((f) => `${folder}/onnx/${f}`),
  ),
].sort();

/** Feeds: ids, masks of ones, positions 0..S-1, empty past, declared element types. */
function promptFeeds(model: ModelProto): Record<string, ort.Tensor> {
  const feeds: Record<string, ort.Tensor> = {};
  const initializers = new Set((model.graph?.initializer ?? []).map((t) => t.name));
  for (const input of model.graph?.input ?? []) {
    const name = input.name ?? "";
    if (initializers.has(name)) continue;
    const { elemType, shape } = valueInfoShape(input);
    const dims = (shape ?? []).map((d) =>
      typeof d === "number"
        ? d
        : d === undefined
          ? S
          : /\+/.test(d)
            ? S
            : /past/i.test(d)
              ? 0
              : /batch/i.test(d)
                ? 1
                : S,
    );
    const n = dims.reduce((a, b) => a * b, 1);
    const values = /position/.test(name)
      ? Array.from({ length: n }, (_, i) => i % S)
      : /mask/.test(name)
        ? Array<number>(n).fill(1)
        : /input_ids/.test(name)
          ? Array.from({ length: n }, (_, i) => (i * 37 + 11) % 300)
          : Array.from({ length: n }, (_, i) => Math.sin(i + 1));
    if (elemType === 7) feeds[name] = new ort.Tensor("int64", BigInt64Array.from(values.map(BigInt)), dims);
    else if (elemType === 6) feeds[name] = new ort.Tensor("int32", Int32Array.from(values), dims);
    else if (elemType === 9)
      feeds[name] = new ort.Tensor("bool", new Uint8Array(n), dims); // use_cache_branch: false
    else if (elemType === 10)
      feeds[name] = new ort.Tensor("float16", new Uint16Array(n), dims); // empty past only
    else feeds[name] = new ort.Tensor("float32", Float32Array.from(values), dims);
  }
  return feeds;
}

describe("zoo models: decomposed graph == onnxruntime on the original graph", () => {
  it("covers every genai/ortopt file and the q4 files of the optimum folders", () => {
    expect(files.length).toBe(13);
  });
  it("leaves its input unchanged and gives bit-identical output for the same input", () => {
    const model = loadModel(join(ZOO, "ortopt-gpt2/onnx/model.onnx"));
    const before = encodeModel(model);
    const first = encodeModel(decomposeContribOps(model).model);
    expect(encodeModel(model)).toEqual(before);
    expect(encodeModel(decomposeContribOps(model).model)).toEqual(first);
  });
  for (const file of files) {
    it(file, async () => {
      const model = loadModel(join(ZOO, file));
      const { model: decomposed, report } = decomposeContribOps(model);
      expect(Object.values(report).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
      expect(contribNodes(decomposed)).toEqual([]);
      expect(opsetVersion(decomposed)).toBeGreaterThanOrEqual(13);
      const computesInHalf = (model.graph?.initializer ?? []).some((t) => t.dataType === DataType.FLOAT16);
      const tol = computesInHalf ? 2e-3 : 1e-5;
      const feeds = promptFeeds(model);
      const a = await ort.InferenceSession.create(encodeModel(model));
      const b = await ort.InferenceSession.create(encodeModel(decomposed));
      const ra = await a.run(feeds);
      const rb = await b.run(feeds);
      expect(b.outputNames).toEqual(a.outputNames);
      for (const name of a.outputNames) {
        const x = ra[name] as ort.Tensor;
        const y = rb[name] as ort.Tensor;
        expect(y.dims, name).toEqual(x.dims);
        expect(y.type, name).toBe(x.type);
        const xs = numbers(x);
        const ys = numbers(y);
        const scale = Math.max(1e-30, ...xs.map(Math.abs));
        let worst = 0;
        for (let i = 0; i < xs.length; i++)
          worst = Math.max(worst, Math.abs((xs[i] as number) - (ys[i] as number)) / scale);
        expect(worst, `${name}: largest error relative to max |value| ${scale}`).toBeLessThanOrEqual(tol);
      }
      await a.release();
      await b.release();
    });
  }
});
