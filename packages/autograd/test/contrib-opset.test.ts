// upgradeOpset: an opset-11 graph using every op whose signature changed on the way to 13 computes the
// same outputs after the upgrade, and the upgraded graph is differentiable.
import {
  DataType,
  encodeModel,
  GradientGraphError,
  type ModelProto,
  makeAttributes,
  onnx,
  opsetVersion,
  upgradeOpset,
  valueInfo,
} from "@npov/autograd";
import * as ort from "onnxruntime-node";
import { describe, expect, it } from "vitest";
import { randomValues } from "./contrib-helpers.js";
import { checkGradient } from "./helpers.js";

type Spec = [op: string, inputs: string[], outputs: string[], attrs?: Parameters<typeof makeAttributes>[0]];

function model11(nodes: Spec[], outputs: string[], elemType: number = DataType.FLOAT): ModelProto {
  return onnx.ModelProto.create({
    irVersion: 6,
    opsetImport: [{ domain: "", version: 11 }],
    graph: {
      name: "opset11",
      input: [valueInfo("x", elemType, [2, 3, 4])],
      output: outputs.map((o) => valueInfo(o)),
      node: nodes.map(([opType, input, output, attrs], k) =>
        onnx.NodeProto.create({
          opType,
          input,
          output,
          name: `${opType}_${k}`,
          attribute: makeAttributes(attrs ?? {}),
        }),
      ),
    },
  });
}

const NODES: Spec[] = [
  ["Unsqueeze", ["x"], ["u"], { axes: [0, 3] }], // [1, 2, 3, 1, 4]
  ["Squeeze", ["u"], ["sq"], { axes: [0] }], // [2, 3, 1, 4]
  ["ReduceSum", ["sq"], ["rs"], { axes: [1], keepdims: 0 }], // [2, 1, 4]
  ["Split", ["x"], ["s1", "s2"], { axis: 2, split: [1, 3] }],
  ["Softmax", ["x"], ["sm1"], { axis: 1 }], // over the flattened [3, 4] of each batch row
  ["Softmax", ["x"], ["sm2"]], // default axis 1 before opset 13
  ["LogSoftmax", ["x"], ["lsm"], { axis: 2 }],
  ["Mul", ["sm1", "x"], ["p"]],
  ["Add", ["p", "s1"], ["q"]],
];
const OUTPUTS = ["rs", "s2", "q", "sm2", "lsm"];

describe("upgradeOpset", () => {
  it("rewrites attribute-to-input ops and pre-13 Softmax semantics, outputs unchanged", async () => {
    const old = model11(NODES, OUTPUTS);
    const upgraded = upgradeOpset(old, 13);
    expect(opsetVersion(upgraded)).toBe(13);
    expect(opsetVersion(old)).toBe(11); // the input model is not modified
    const x = new ort.Tensor("float32", Float32Array.from(randomValues(24, 5, 3)), [2, 3, 4]);
    const a = await ort.InferenceSession.create(encodeModel(old));
    const b = await ort.InferenceSession.create(encodeModel(upgraded));
    const ra = await a.run({ x });
    const rb = await b.run({ x });
    for (const name of OUTPUTS) {
      expect(rb[name]?.dims, name).toEqual(ra[name]?.dims);
      const xs = Array.from(ra[name]?.data as Float32Array);
      const ys = Array.from(rb[name]?.data as Float32Array);
      xs.forEach((v, i) => {
        expect(Math.abs(v - (ys[i] as number)), `${name}[${i}]`).toBeLessThanOrEqual(1e-6 * Math.max(1, Math.abs(v)));
      });
    }
    // The pre-13 softmax over axis 1 of [2, 3, 4] normalizes 12 values per batch row.
    const sm = Array.from(rb.sm2?.data as Float32Array);
    expect(sm.slice(0, 12).reduce((s, v) => s + v, 0)).toBeCloseTo(1, 6);
  });

  it("the upgraded graph is differentiable (central differences, float64)", async () => {
    const upgraded = upgradeOpset(model11(NODES.slice(0, 3), ["rs"], DataType.DOUBLE), 13);
    const x = new ort.Tensor("float64", Float64Array.from(randomValues(24, 6)), [2, 3, 4]);
    await checkGradient(upgraded, { of: "rs", wrt: ["x"], feeds: { x } });
    const softmax = upgradeOpset(model11([["Softmax", ["x"], ["y"], { axis: 1 }]], ["y"], DataType.DOUBLE), 13);
    await checkGradient(softmax, { of: "y", wrt: ["x"], feeds: { x } });
  });

  it("leaves a model at or above the target unchanged and rejects removed ops", () => {
    const old = model11(NODES, OUTPUTS);
    const at13 = upgradeOpset(old, 13);
    expect(encodeModel(upgradeOpset(at13, 13))).toEqual(encodeModel(at13));
    expect(() => upgradeOpset(model11([["Upsample", ["x"], ["y"]]], ["y"]), 13)).toThrow(GradientGraphError);
  });
});
