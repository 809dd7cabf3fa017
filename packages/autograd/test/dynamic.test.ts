import { buildGradientGraph, encodeModel, GradientGraphError, UnsupportedOpError } from "@npov/autograd";
import * as ort from "onnxruntime-node";
import { describe, expect, it } from "vitest";
import { checkGradient, randomFeed, tinyModel } from "./helpers.js";

describe("shapes known only at run time", () => {
  // x: [n, 4] and y: [m, 4] with independent symbolic dims: built from sampled sizes, then run where
  // n = 1 broadcasts against m = 3, and the other way round.
  const model = tinyModel({
    inputs: [
      { name: "x", dims: ["n", 4] },
      { name: "y", dims: ["m", 4] },
    ],
    nodes: [
      ["Mul", ["x", "y"], ["p"]],
      ["Add", ["p", "x"], ["out"]],
    ],
    outputs: ["out"],
  });

  for (const [n, m] of [
    [1, 3],
    [3, 1],
    [2, 2],
  ]) {
    it(`n = ${n}, m = ${m}`, async () => {
      const feeds = { x: randomFeed([n as number, 4], "double", 1), y: randomFeed([m as number, 4], "double", 2) };
      await checkGradient(model, { of: "out", wrt: ["x", "y"], feeds, buildWithSampledShapes: true });
    });
  }
});

describe("errors and scalar seeds", () => {
  it("names the op and node without a rule on the differentiable path", async () => {
    const model = tinyModel({
      inputs: [{ name: "x", dims: [2, 3] }],
      nodes: [["Softsign", ["x"], ["out"]]],
      outputs: ["out"],
    });
    const error = await buildGradientGraph(model, { of: "out", wrt: ["x"] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnsupportedOpError);
    expect((error as UnsupportedOpError).code).toBe("UNSUPPORTED_OP");
    expect((error as UnsupportedOpError).message).toContain('Softsign (node "Softsign_0")');
  });

  it("ignores ops without rules off the path, and refuses unknown tensors", async () => {
    const model = tinyModel({
      inputs: [
        { name: "x", dims: [2, 3] },
        { name: "z", dims: [2, 3] },
      ],
      nodes: [
        ["Sin", ["z"], ["s"]],
        ["Mul", ["x", "s"], ["out"]],
      ],
      outputs: ["out"],
    });
    await expect(buildGradientGraph(model, { of: "out", wrt: ["x"] })).resolves.toBeDefined();
    await expect(buildGradientGraph(model, { of: "out", wrt: ["nope"] })).rejects.toBeInstanceOf(GradientGraphError);
    await expect(buildGradientGraph(model, { of: "s", wrt: ["x"] })).rejects.toThrow(/does not depend/);
  });

  it("seeds a scalar loss with 1 and returns zeros for an unreachable wrt", async () => {
    const model = tinyModel({
      inputs: [
        { name: "x", dims: [3] },
        { name: "z", dims: [2] },
      ],
      nodes: [
        ["Mul", ["x", "x"], ["sq"]],
        ["ReduceSum", ["sq"], ["loss"], { keepdims: 0 }],
        ["Neg", ["z"], ["nz"]],
      ],
      outputs: ["loss", "nz"],
    });
    const g = await buildGradientGraph(model, { of: "loss", wrt: ["x", "z"] });
    expect(g.upstream).toEqual({});
    const session = await ort.InferenceSession.create(encodeModel(g.model));
    const r = await session.run({
      x: new ort.Tensor("float64", Float64Array.of(1, -2, 3), [3]),
      z: new ort.Tensor("float64", Float64Array.of(5, 6), [2]),
    });
    expect(Array.from(r["grad/x"]!.data as Float64Array)).toEqual([2, -4, 6]);
    expect(Array.from(r["grad/z"]!.data as Float64Array)).toEqual([0, 0]);
    expect(Array.from(r.loss!.data as Float64Array)).toEqual([14]);
  });
});
