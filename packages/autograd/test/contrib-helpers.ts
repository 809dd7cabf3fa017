// Test helpers for the contrib-op decomposition: one-node graphs run by onnxruntime's contrib kernels
// and by their standard-op decomposition on the same seeded inputs.
import {
  DataType,
  decomposeContribOps,
  encodeModel,
  floatToHalf,
  halfToFloat,
  type IGraphProto,
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

export type Attrs = Parameters<typeof makeAttributes>[0];

export interface Feed {
  name: string;
  dims: number[];
  /** float32 (default), float16, int32, int64 or bool. */
  type?: "float32" | "float16" | "int32" | "int64" | "bool";
  /** Explicit values; random in [-scale, scale) otherwise. */
  values?: number[];
  scale?: number;
}

export interface OneNode {
  op: string;
  domain?: string;
  inputs: Array<string | Feed | TensorProto>;
  outputs: string[];
  attrs?: Attrs;
  opset?: number;
  seed?: number;
}

const ELEM: Record<string, number> = {
  float32: DataType.FLOAT,
  float16: DataType.FLOAT16,
  int32: DataType.INT32,
  int64: DataType.INT64,
  bool: DataType.BOOL,
};

/** Seeded values in [-scale, scale). */
export function randomValues(n: number, seed: number, scale = 1): number[] {
  const rng = createRng(seed);
  return Array.from({ length: n }, () => (rng.next() * 2 - 1) * scale);
}

export function tensorOf(f: Feed, seed: number): ort.Tensor {
  const n = f.dims.reduce((a, b) => a * b, 1);
  const values = f.values ?? randomValues(n, seed, f.scale ?? 1);
  switch (f.type ?? "float32") {
    case "float16":
      return new ort.Tensor("float16", Uint16Array.from(values, floatToHalf), f.dims);
    case "int32":
      return new ort.Tensor("int32", Int32Array.from(values), f.dims);
    case "int64":
      return new ort.Tensor("int64", BigInt64Array.from(values.map((v) => BigInt(v))), f.dims);
    case "bool":
      return new ort.Tensor("bool", Uint8Array.from(values), f.dims);
    default:
      return new ort.Tensor("float32", Float32Array.from(values), f.dims);
  }
}

/** A float32 initializer with seeded random values. */
export function randomInit(name: string, dims: number[], seed: number, scale = 1): TensorProto {
  const n = dims.reduce((a, b) => a * b, 1);
  return makeTensor(name, Float32Array.from(randomValues(n, seed, scale)), dims, DataType.FLOAT);
}

/** The one-node model and its feeds. */
export function oneNodeModel(spec: OneNode): { model: ModelProto; feeds: Record<string, ort.Tensor> } {
  const feeds: Record<string, ort.Tensor> = {};
  const inputs: ReturnType<typeof valueInfo>[] = [];
  const initializers: TensorProto[] = [];
  const names = spec.inputs.map((x, k) => {
    if (typeof x === "string") return x;
    if ("dims" in x && !("dataType" in x)) {
      const f = x as Feed;
      feeds[f.name] = tensorOf(f, (spec.seed ?? 1) * 100 + k);
      inputs.push(valueInfo(f.name, ELEM[f.type ?? "float32"], f.dims));
      return f.name;
    }
    initializers.push(x as TensorProto);
    return (x as TensorProto).name;
  });
  const model = onnx.ModelProto.create({
    irVersion: 8,
    opsetImport: [
      { domain: "", version: spec.opset ?? 17 },
      { domain: "com.microsoft", version: 1 },
    ],
    graph: {
      name: "one-node",
      input: inputs,
      output: spec.outputs.filter((o) => o).map((o) => valueInfo(o)),
      initializer: initializers,
      node: [
        onnx.NodeProto.create({
          opType: spec.op,
          domain: spec.domain ?? "com.microsoft",
          input: names,
          output: spec.outputs,
          name: `${spec.op}_node`,
          attribute: makeAttributes(spec.attrs ?? {}),
        }),
      ],
    },
  });
  return { model, feeds };
}

export function numbers(t: ort.Tensor): number[] {
  if (t.type === "float16") return Array.from(t.data as Uint16Array, halfToFloat);
  if (t.type === "int64") return Array.from(t.data as BigInt64Array, Number);
  return Array.from(t.data as ArrayLike<number>);
}

/** No node of the model or its subgraphs is in the com.microsoft domain. */
export function contribNodes(model: ModelProto): string[] {
  const found: string[] = [];
  const visit = (g: IGraphProto) => {
    for (const n of g.node ?? []) {
      if (n.domain === "com.microsoft") found.push(`${n.opType}:${n.name}`);
      for (const a of n.attribute ?? []) if (a.g) visit(a.g);
    }
  };
  visit(model.graph as IGraphProto);
  return found;
}

const sessionOptions = { graphOptimizationLevel: "disabled" } as const;

/**
 * Run the model directly (ORT's contrib kernels) and decomposed; every output must have the same dims
 * and agree within `tol` relative to the output's largest magnitude. Returns the largest relative error.
 */
export async function expectSameOutputs(
  model: ModelProto,
  feeds: Record<string, ort.Tensor>,
  options: { tol?: number; expectOps?: Record<string, number> } = {},
): Promise<number> {
  const tol = options.tol ?? 1e-5;
  const { model: decomposed, report } = decomposeContribOps(model);
  if (options.expectOps) expect(report).toEqual(options.expectOps);
  expect(contribNodes(decomposed)).toEqual([]);
  const a = await ort.InferenceSession.create(encodeModel(model), sessionOptions);
  const b = await ort.InferenceSession.create(encodeModel(decomposed), sessionOptions);
  const ra = await a.run(feeds);
  const rb = await b.run(feeds);
  let worst = 0;
  for (const name of a.outputNames) {
    const x = ra[name] as ort.Tensor;
    const y = rb[name] as ort.Tensor;
    expect(y.dims, `dims of ${name}`).toEqual(x.dims);
    expect(y.type, `type of ${name}`).toBe(x.type);
    const xs = numbers(x);
    const ys = numbers(y);
    const scale = Math.max(1e-30, ...xs.map(Math.abs));
    for (let i = 0; i < xs.length; i++) {
      const err = Math.abs((xs[i] as number) - (ys[i] as number)) / scale;
      worst = Math.max(worst, err);
      if (!(err <= tol)) expect.fail(`${name}[${i}]: ORT ${xs[i]} vs decomposed ${ys[i]} (relative ${err})`);
    }
  }
  await a.release();
  await b.release();
  return worst;
}
