// float64 Erf: onnxruntime has no float64 Erf kernel, so convertFloatType(FLOAT -> DOUBLE) writes erf in
// standard ops (a Taylor series and erfc's continued fraction). Its values must be erf's to ~1e-15 and its
// gradient, built by buildGradientGraph through those ops, erf's derivative 2/sqrt(pi) exp(-x^2).
import { buildGradientGraph, convertFloatType, DataType, encodeModel } from "@npov/autograd";
import * as ort from "onnxruntime-node";
import { describe, expect, it } from "vitest";
import { tinyModel } from "./helpers.js";

/** erf as 2/sqrt(pi) times the integral of exp(-t^2) from 0 to x, by composite Simpson (20,000 steps: ~1e-15). */
function erfReference(x: number): number {
  const steps = 20_000;
  const h = x / steps;
  const f = (t: number) => Math.exp(-t * t);
  let sum = f(0) + f(x);
  for (let k = 1; k < steps; k++) sum += (k % 2 === 1 ? 4 : 2) * f(k * h);
  return ((2 / Math.sqrt(Math.PI)) * (sum * h)) / 3;
}

describe("float64 Erf written in standard ops", () => {
  it("computes erf to 1e-13 and its gradient is 2/sqrt(pi) exp(-x^2)", async () => {
    const xs = [-7, -4.2, -2.5000001, -2.5, -1.3, -0.2, 0, 1e-9, 0.7, 2.4999, 2.5, 2.6, 3.9, 5.2, 9];
    const model = tinyModel({
      inputs: [{ name: "x", dims: [xs.length], dtype: "float" }],
      nodes: [["Erf", ["x"], ["out"]]],
      outputs: ["out"],
      opset: 13,
    });
    const double = convertFloatType(model, DataType.FLOAT, DataType.DOUBLE);
    expect((double.graph?.node ?? []).some((n) => n.opType === "Erf")).toBe(false);
    const grad = await buildGradientGraph(double, { of: "out", wrt: ["x"], seed: "input" });
    const session = await ort.InferenceSession.create(encodeModel(grad.model));
    const x = new ort.Tensor("float64", Float64Array.from(xs), [xs.length]);
    const ones = new ort.Tensor("float64", new Float64Array(xs.length).fill(1), [xs.length]);
    const r = await session.run({ x, [grad.upstream.out as string]: ones });
    const values = r.out?.data as Float64Array;
    const gradients = r[grad.gradients.x as string]?.data as Float64Array;
    xs.forEach((v, i) => {
      expect(Math.abs((values[i] as number) - erfReference(v)), `erf(${v})`).toBeLessThan(1e-13);
      const exact = (2 / Math.sqrt(Math.PI)) * Math.exp(-v * v);
      expect(Math.abs((gradients[i] as number) - exact), `erf'(${v})`).toBeLessThan(1e-13 * Math.max(1, exact));
      expect(Number.isFinite(gradients[i] as number)).toBe(true);
    });
    await session.release();
  });
});
