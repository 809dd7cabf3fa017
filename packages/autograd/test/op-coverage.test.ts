// Every op the gradient builder handles, at its oldest and newest opset: a minimal graph whose gradient
// (from buildGradientGraph, run by onnxruntime) equals central finite differences of the original graph
// (float64 where onnxruntime has float64 kernels; see op-cases.ts). The oldest-opset graphs also check
// upgradeOpset: the forward pass is the original graph, the gradient is built on the raised one.
import { coveredOps, gradientKind, NEWEST_OPSET, opsetRange } from "@npov/autograd";
import type * as ort from "onnxruntime-node";
import { describe, expect, it } from "vitest";
import { checkGradient, randomFeed, tinyModel } from "./helpers.js";
import { OP_CASES, type OpCase } from "./op-cases.js";

function feedsOf(c: OpCase): Record<string, ort.Tensor> {
  const dtype = c.dtype ?? "double";
  return Object.fromEntries(
    c.inputs.map((input, k) => {
      const t = randomFeed(input.dims, dtype, 10 + k);
      const data = t.data as Float64Array | Float32Array;
      for (let j = 0; j < data.length; j++) {
        if (input.values !== undefined) data[j] = input.values[j] as number;
        else if (input.positive) data[j] = 0.5 + Math.abs(data[j] as number);
      }
      return [input.name, t];
    }),
  );
}

describe("op coverage: gradients at the oldest and newest opset agree with central finite differences", () => {
  for (const c of OP_CASES) {
    it(`${c.op} @ opset ${c.opset}: ${c.name}`, async () => {
      const dtype = c.dtype ?? "double";
      const model = tinyModel({
        inputs: c.inputs.map((i) => ({ name: i.name, dims: i.dims, dtype })),
        nodes: c.nodes,
        outputs: ["out"],
        initializers: c.initializers ?? [],
        opset: c.opset,
      });
      // Measured worst relative errors: float64 1.1e-9 (Cast through float32, h 1e-3: 1.2e-5), float32 7.7e-5.
      const tol = c.tol ?? (dtype === "double" ? 1e-6 : 1e-3);
      const worst = await checkGradient(model, {
        of: "out",
        wrt: c.wrt ?? c.inputs.map((i) => i.name),
        feeds: feedsOf(c),
        dtype,
        tol,
        ...(c.h !== undefined ? { h: c.h } : {}),
      });
      expect(worst).toBeLessThanOrEqual(tol);
    });
  }
});

describe("op coverage: the case list", () => {
  it("has a case at the oldest and the newest opset of every op with a rule, a zero gradient or a stop", () => {
    const missing: string[] = [];
    for (const op of coveredOps()) {
      const { oldest, newest } = opsetRange(op);
      for (const opset of [oldest, newest])
        if (!OP_CASES.some((c) => c.op === op && c.opset === opset)) missing.push(`${op} @ ${opset}`);
    }
    expect(missing).toEqual([]);
  });

  it("checks only covered ops, within their opsets", () => {
    for (const c of OP_CASES) {
      expect(gradientKind(c.op), c.op).toBeDefined();
      expect(c.opset).toBeGreaterThanOrEqual(opsetRange(c.op).oldest);
      expect(c.opset).toBeLessThanOrEqual(NEWEST_OPSET);
      // The op under test is in the graph (not only named in the case).
      expect(c.nodes.some(([op]) => op === c.op)).toBe(true);
    }
  });
});
