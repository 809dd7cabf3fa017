import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  Adam,
  appendTokenLoss,
  buildGpt2,
  encodeModel,
  GradientSession,
  initializersToInputs,
  loadModel,
  makeTensor,
  randomInit,
  saveModel,
  scheduledLr,
  withParameters,
} from "@npov/autograd";
import { createRng } from "@npov/core";
import * as ort from "onnxruntime-node";
import { describe, expect, it } from "vitest";
import { tinyModel } from "./helpers.js";

describe("learning-rate schedule and Adam", () => {
  it("warms up linearly, then decays linearly to 0 (the paper's 500 warm-up steps)", () => {
    const o = { lr: 0.1, warmupSteps: 500, totalSteps: 20_000 };
    expect(scheduledLr(250, o)).toBeCloseTo(0.05, 15);
    expect(scheduledLr(500, o)).toBeCloseTo(0.1, 15);
    expect(scheduledLr(10_250, o)).toBeCloseTo(0.05, 15);
    expect(scheduledLr(20_000, o)).toBe(0);
    expect(scheduledLr(7, { lr: 0.3 })).toBe(0.3);
  });

  it("takes the textbook first step", () => {
    const p = new Map([["w", Float32Array.of(1, -2)]]);
    const adam = new Adam(p, { lr: 0.1 });
    adam.update(new Map([["w", [0.5, -4]]]));
    // m_hat = g, v_hat = g^2: each parameter moves by lr * sign(g).
    expect(Array.from(p.get("w")!)).toEqual([Math.fround(0.9), Math.fround(-1.9)]);
    expect(adam.step).toBe(1);
  });

  it("clips the global gradient norm and restores state", () => {
    const p = new Map([["w", Float32Array.of(0, 0)]]);
    const adam = new Adam(p, { lr: 0.1, clipNorm: 1 });
    const { gradNorm } = adam.update(new Map([["w", [3, 4]]]));
    expect(gradNorm).toBe(5);
    const state = adam.state();
    const other = new Adam(new Map([["w", Float32Array.of(0, 0)]]), { lr: 0.1, clipNorm: 1 });
    other.restore(state);
    expect(other.state()).toEqual(state);
  });
});

describe("GradientSession training and writing weights back", () => {
  it("fits a linear map; trained values round-trip through a saved model", async () => {
    const rng = createRng(1);
    const trueW = Float32Array.from({ length: 3 * 2 }, () => rng.next() * 2 - 1);
    const model = tinyModel({
      inputs: [
        { name: "x", dims: ["b", 3], dtype: "float" },
        { name: "y", dims: ["b", 2], dtype: "float" },
      ],
      nodes: [
        ["MatMul", ["x", "w"], ["pred"]],
        ["Sub", ["pred", "y"], ["d"]],
        ["Mul", ["d", "d"], ["sq"]],
        ["ReduceMean", ["sq"], ["loss"], { keepdims: 0 }],
      ],
      outputs: ["loss", "pred"],
      initializers: [makeTensor("w", new Float32Array(6), [3, 2])],
    });
    const { model: trainable, values } = initializersToInputs(model, ["w"]);
    const w = Float32Array.from(values.get("w")!.data as Float32Array);
    const session = await GradientSession.create(trainable, { of: "loss", wrt: ["w"] });
    const adam = new Adam(new Map([["w", w]]), { lr: 0.05, warmupSteps: 10, totalSteps: 400 });
    const batch = () => {
      const xs = Float32Array.from({ length: 16 * 3 }, () => rng.next() * 2 - 1);
      const ys = new Float32Array(16 * 2);
      for (let r = 0; r < 16; r++)
        for (let c = 0; c < 2; c++)
          for (let k = 0; k < 3; k++)
            ys[r * 2 + c] = (ys[r * 2 + c] as number) + (xs[r * 3 + k] as number) * (trueW[k * 2 + c] as number);
      return { x: new ort.Tensor("float32", xs, [16, 3]), y: new ort.Tensor("float32", ys, [16, 2]) };
    };
    const losses: number[] = [];
    for (let step = 0; step < 400; step++) {
      const r = await session.run({ ...batch(), w: new ort.Tensor("float32", w, [3, 2]) }, { outputs: ["loss"] });
      losses.push((r.outputs.loss!.data as Float32Array)[0] as number);
      adam.update(new Map([["w", r.gradients.w!.data as Float32Array]]));
    }
    expect(losses.at(-1)!).toBeLessThan(losses[0]! / 100);
    for (let i = 0; i < 6; i++) expect(w[i]).toBeCloseTo(trueW[i] as number, 2);

    const dir = mkdtempSync(join(tmpdir(), "npov-train-"));
    const file = join(dir, "trained.onnx");
    saveModel(file, withParameters(trainable, new Map([["w", { data: w, dims: [3, 2] }]])), {
      externalDataThreshold: 16,
    });
    expect(existsSync(`${file}.data`)).toBe(true);
    const reloaded = loadModel(file);
    const s = await ort.InferenceSession.create(encodeModel(reloaded));
    const probe = batch();
    const out = await s.run(probe);
    const expected = await session.run({ ...probe, w: new ort.Tensor("float32", w, [3, 2]) }, { outputs: ["pred"] });
    expect(Array.from(out.pred!.data as Float32Array)).toEqual(Array.from(expected.outputs.pred!.data as Float32Array));
  });

  it("trains a tiny GPT-2-like model's weights: the token loss on a sequence goes down", async () => {
    const { model } = buildGpt2({ vocabSize: 32, nEmbd: 16, nLayer: 1, nHead: 2, nPositions: 16 }, randomInit(2));
    const withLoss = await appendTokenLoss(model);
    const names = withLoss
      .graph!.initializer!.filter((t) => /weight|bias/.test(t.name ?? ""))
      .map((t) => t.name as string);
    const { model: trainable, values } = initializersToInputs(withLoss, names);
    const params = new Map([...values].map(([n, v]) => [n, Float32Array.from(v.data as Float32Array)]));
    const session = await GradientSession.create(trainable, { of: "token_loss", wrt: names, seed: "ones" });
    const adam = new Adam(params, { lr: 0.01 });
    const seq = [3, 9, 4, 9, 5, 9, 6, 9];
    const i64 = (xs: number[]) => new ort.Tensor("int64", BigInt64Array.from(xs.map(BigInt)), [1, xs.length]);
    const feeds = {
      input_ids: i64(seq.slice(0, -1)),
      attention_mask: i64(seq.slice(0, -1).map(() => 1)),
      position_ids: i64(seq.slice(0, -1).map((_, i) => i)),
      labels: i64(seq.slice(1)),
      label_mask: new ort.Tensor("float32", new Float32Array(7).fill(1), [1, 7]),
      "past_key_values.0.key": new ort.Tensor("float32", new Float32Array(0), [1, 2, 0, 8]),
      "past_key_values.0.value": new ort.Tensor("float32", new Float32Array(0), [1, 2, 0, 8]),
    };
    const losses: number[] = [];
    for (let step = 0; step < 60; step++) {
      const weights = Object.fromEntries(
        [...params].map(([n, p]) => [n, new ort.Tensor("float32", p, values.get(n)!.dims)]),
      );
      const r = await session.run({ ...feeds, ...weights }, { outputs: ["token_loss"] });
      losses.push(Array.from(r.outputs.token_loss!.data as Float32Array).reduce((a, b) => a + b, 0));
      adam.update(new Map(Object.entries(r.gradients).map(([n, t]) => [n, t.data as Float32Array])));
    }
    expect(losses.at(-1)!).toBeLessThan(losses[0]! * 0.5);
  });
});
