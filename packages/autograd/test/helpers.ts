// Test helpers: tiny hand-built ONNX models and central finite-difference checks of gradient graphs.
import {
  buildGradientGraph,
  DataType,
  encodeModel,
  type ModelProto,
  makeAttributes,
  makeTensor,
  onnx,
  type TensorProto,
  valueInfo,
} from "@npov/autograd";
import { createRng } from "@npov/core";
import * as ort from "onnxruntime-node";
import { expect } from "vitest";

export type DType = "double" | "float";
export type NodeSpec = [op: string, inputs: string[], outputs: string[], attrs?: Parameters<typeof makeAttributes>[0]];

/** A model with the given float/double inputs, nodes and initializers. */
export function tinyModel(spec: {
  inputs: Array<{ name: string; dims: Array<number | string>; dtype?: DType | "int64" }>;
  nodes: NodeSpec[];
  outputs: string[];
  initializers?: TensorProto[];
  opset?: number;
}): ModelProto {
  const typeOf = (d?: string) => (d === "int64" ? DataType.INT64 : d === "float" ? DataType.FLOAT : DataType.DOUBLE);
  return onnx.ModelProto.create({
    irVersion: 8,
    opsetImport: [{ domain: "", version: spec.opset ?? 17 }],
    graph: {
      name: "test",
      input: spec.inputs.map((i) => valueInfo(i.name, typeOf(i.dtype), i.dims)),
      output: spec.outputs.map((o) => valueInfo(o)),
      initializer: spec.initializers ?? [],
      node: spec.nodes.map(([op, inputs, outputs, attrs], k) =>
        onnx.NodeProto.create({
          opType: op,
          input: inputs,
          output: outputs,
          name: `${op}_${k}`,
          attribute: makeAttributes(attrs ?? {}),
        }),
      ),
    },
  });
}

export const i64 = (name: string, values: number[], dims = [values.length]) =>
  makeTensor(name, BigInt64Array.from(values.map(BigInt)), dims, DataType.INT64);

/** Random tensor feed. */
export function randomFeed(dims: number[], dtype: DType, seed: number, scale = 1): ort.Tensor {
  const rng = createRng(seed);
  const n = dims.reduce((a, b) => a * b, 1);
  const values = Array.from({ length: n }, () => (rng.next() * 2 - 1) * scale);
  return dtype === "double"
    ? new ort.Tensor("float64", Float64Array.from(values), dims)
    : new ort.Tensor("float32", Float32Array.from(values), dims);
}

function clone(t: ort.Tensor): ort.Tensor {
  if (t.type === "float64") return new ort.Tensor("float64", Float64Array.from(t.data as Float64Array), t.dims);
  if (t.type === "float32") return new ort.Tensor("float32", Float32Array.from(t.data as Float32Array), t.dims);
  return t;
}

/**
 * Check d(sum(out * u))/d(wrt) from the gradient graph against central finite differences, for a random
 * upstream gradient u. Returns the largest absolute error.
 */
export async function checkGradient(
  model: ModelProto,
  options: {
    of: string;
    wrt: string[];
    feeds: Record<string, ort.Tensor>;
    dtype?: DType;
    h?: number;
    tol?: number;
    seed?: number;
  },
): Promise<number> {
  const dtype = options.dtype ?? "double";
  const h = options.h ?? (dtype === "double" ? 1e-6 : 1e-2);
  const tol = options.tol ?? (dtype === "double" ? 1e-6 : 2e-2);
  // Basic optimizations only: extended fusions (e.g. QuickGelu) have float32 kernels only.
  const sessionOptions = { graphOptimizationLevel: "basic" } as const;
  const forward = await ort.InferenceSession.create(encodeModel(model), sessionOptions);
  const out0 = (await forward.run(options.feeds, [options.of]))[options.of] as ort.Tensor;
  const u = randomFeed(out0.dims.slice(), out0.type === "float64" ? "double" : "float", options.seed ?? 99);
  const grad = await buildGradientGraph(model, {
    of: options.of,
    wrt: options.wrt,
    feeds: options.feeds,
    seed: "input",
  });
  const session = await ort.InferenceSession.create(encodeModel(grad.model), sessionOptions);
  const upstreamName = grad.upstream[options.of] as string;
  const result = await session.run({ ...options.feeds, [upstreamName]: u }, Object.values(grad.gradients));
  const objective = async (feeds: Record<string, ort.Tensor>) => {
    const out = (await forward.run(feeds, [options.of]))[options.of] as ort.Tensor;
    let s = 0;
    const a = out.data as Float64Array;
    const b = u.data as Float64Array;
    for (let i = 0; i < a.length; i++) s += (a[i] as number) * (b[i] as number);
    return s;
  };
  let worst = 0;
  for (const w of options.wrt) {
    const analytic = result[grad.gradients[w] as string] as ort.Tensor;
    const base = options.feeds[w] as ort.Tensor;
    expect(analytic.dims, `gradient of ${w} has the input's shape`).toEqual(base.dims);
    const values = base.data as Float64Array;
    const all = Array.from({ length: values.length }, (_, i) => i);
    const indices =
      options.sample === undefined
        ? all
        : createRng(options.seed ?? 7).sample(all, Math.min(options.sample, all.length));
    for (const i of indices) {
      const plus = clone(base);
      const minus = clone(base);
      (plus.data as Float64Array)[i] = (values[i] as number) + h;
      (minus.data as Float64Array)[i] = (values[i] as number) - h;
      const numeric =
        ((await objective({ ...options.feeds, [w]: plus })) - (await objective({ ...options.feeds, [w]: minus }))) /
        (2 * h);
      const got = (analytic.data as Float64Array)[i] as number;
      const err = Math.abs(got - numeric);
      worst = Math.max(worst, err / Math.max(1, Math.abs(numeric)));
      expect(err, `${w}[${i}]: analytic ${got} vs numeric ${numeric}`).toBeLessThanOrEqual(
        tol * Math.max(1, Math.abs(numeric)),
      );
    }
  }
  await forward.release();
  await session.release();
  return worst;
}
