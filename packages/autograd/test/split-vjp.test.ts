// Split VJPs (one batch-1 forward, batched backward from the stored activations) against the recompute
// path (forward + backward at batch k in one graph) and central finite differences, float64.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  appendTokenLoss,
  batchOneFeeds,
  buildSplitVjp,
  DataType,
  embeddingGraph,
  encodeModel,
  findLmHeadInput,
  GradientSession,
  loadPretrained,
  type ModelProto,
  makeTensor,
  SplitVjpError,
  SplitVjpSession,
  storedBytesAt,
  tileTensor,
  writeTestModel,
} from "@npov/autograd";
import { createRng } from "@npov/core";
import * as ort from "onnxruntime-node";
import { describe, expect, it } from "vitest";
import { i64, tinyModel } from "./helpers.js";

const root = mkdtempSync(join(tmpdir(), "npov-split-"));

/** The example's feeds at batch 1 with random embeddings (seeded), ids 3.., labels shifted. */
function exampleFeeds(model: ModelProto, length: number, seed: number): Record<string, ort.Tensor> {
  const feeds = batchOneFeeds(model, length);
  const rng = createRng(seed);
  for (const [name, t] of Object.entries(feeds)) {
    if (name.endsWith("inputs_embeds")) {
      const data = Float64Array.from(t.data as Float64Array, () => rng.next() * 2 - 1);
      feeds[name] = new ort.Tensor("float64", data, t.dims);
    } else if (name === "labels" || name.endsWith("input_ids")) {
      const data = BigInt64Array.from({ length: t.dims.reduce((a, b) => a * b, 1) }, (_, i) =>
        BigInt(3 + ((i * 5) % 7)),
      );
      feeds[name] = new ort.Tensor("int64", data, t.dims);
    }
  }
  return feeds;
}

describe("split VJP equals the recompute VJP and central differences (float64)", () => {
  for (const arch of ["gpt2", "llama", "t5"] as const)
    for (const recompute of ["elementwise", "superlinear"] as const)
      it(`${arch}, ${recompute}`, async () => {
        const dir = join(root, arch);
        writeTestModel(dir, arch, { seed: 4 });
        const files = await loadPretrained(dir);
        const graph = await embeddingGraph(files, { decoderEmbeds: true, precision: "float64" });
        const wrt = files.encoderDecoder ? ["inputs_embeds", "decoder_inputs_embeds"] : ["inputs_embeds"];
        const split = await buildSplitVjp(graph.model, { wrt, recompute });
        expect(split.recompute).toBe(recompute);
        // The head is the LM head's input: a [1, s, d] activation, not the logits.
        expect(split.head).toBe(findLmHeadInput(graph.model));
        expect(split.saved.some((s) => s.tileAxis === 0)).toBe(true);
        // Stored bytes at 3, 5, 7 tokens: attention probabilities make them grow quadratically; the
        // superlinear plan recomputes every such tensor, so what it stores grows exactly linearly.
        const [b3, b5, b7] = split.storedBytes;
        if (recompute === "superlinear") expect(b7 - 2 * b5 + b3).toBe(0);
        else expect(b7 - 2 * b5 + b3).toBeGreaterThan(0);
        const options = { graphOptimizationLevel: "basic" as const, logSeverityLevel: 4 as const };
        const session = await SplitVjpSession.create(split, options);
        const feeds = exampleFeeds(graph.model, 5, 7);
        const lossLength = (feeds.labels as ort.Tensor).dims[1] as number;
        const positions = [4, 0, 2];
        const run = await session.forward(feeds, positions);
        // The estimate at 5 tokens is what the forward pass stored (every dim is affine in the length).
        expect(storedBytesAt(split, 5)).toBe(run.bytes);
        const grads = await session.backward(run, positions);
        // Passes reuse the run's upstream buffer; passes at the same time each take their own: the same
        // gradients as the batched pass, and a later pass reusing a buffer the same as the first, bit for bit.
        const single = await Promise.all(positions.map((p) => session.backward(run, [p])));
        const again = await session.backward(run, [positions[0] as number]);
        // One buffer of the batch-3 pass, three of the concurrent batch-1 passes (the later one reused one).
        expect(run.spareUpstream.map((b) => b.length / (run.head.data.length as number))).toEqual([3, 1, 1, 1]);
        for (const w of wrt) {
          const whole = grads[w]?.data as Float64Array;
          const per = whole.length / positions.length;
          const scale = Math.max(...Array.from(whole, Math.abs));
          single.forEach((g, b) => {
            const one = g[w]?.data as Float64Array;
            for (let i = 0; i < per; i++)
              expect(Math.abs((one[i] as number) - (whole[b * per + i] as number))).toBeLessThan(1e-12 * scale);
          });
          expect(Array.from(again[w]?.data as Float64Array)).toEqual(Array.from(single[0]?.[w]?.data as Float64Array));
        }

        // Recompute path: forward + backward at batch 3 over the tiled example, one-hot upstream per row.
        const reference = await GradientSession.create(graph.model, {
          of: "token_loss",
          wrt,
          seed: "input",
          sessionOptions: options,
        });
        const tiled = Object.fromEntries(
          Object.entries(feeds).map(([n, t]) => [n, tileTensor(t, 0, positions.length)]),
        );
        const upstream = new Float64Array(positions.length * lossLength);
        positions.forEach((p, b) => {
          upstream[b * lossLength + p] = 1;
        });
        const r = await reference.run(tiled, {
          upstream: { token_loss: new ort.Tensor("float64", upstream, [positions.length, lossLength]) },
          outputs: [],
        });
        for (const w of wrt) {
          const a = grads[w]?.data as Float64Array;
          const b = r.gradients[w]?.data as Float64Array;
          expect(grads[w]?.dims).toEqual(r.gradients[w]?.dims);
          const scale = Math.max(...Array.from(b, Math.abs));
          expect(scale).toBeGreaterThan(1e-6);
          for (let i = 0; i < b.length; i++)
            expect(Math.abs((a[i] as number) - (b[i] as number))).toBeLessThan(1e-12 * scale + 1e-15);
        }

        // Central differences of loss_p w.r.t. three entries of inputs_embeds, seed b = 1 (position 0).
        const forwardOnly = await ort.InferenceSession.create(encodeModel(graph.model), options);
        const base = feeds.inputs_embeds as ort.Tensor;
        const lossAt = async (index: number, delta: number) => {
          const data = Float64Array.from(base.data as Float64Array);
          data[index] = (data[index] as number) + delta;
          const out = await forwardOnly.run({ ...feeds, inputs_embeds: new ort.Tensor("float64", data, base.dims) }, [
            "token_loss",
          ]);
          return (out.token_loss as ort.Tensor).data[positions[1] as number] as number;
        };
        const g = grads.inputs_embeds?.data as Float64Array;
        const perSeed = g.length / positions.length;
        for (const index of [0, 7, perSeed - 1]) {
          const h = 1e-6;
          const numeric = ((await lossAt(index, h)) - (await lossAt(index, -h))) / (2 * h);
          expect(Math.abs((g[perSeed + index] as number) - numeric)).toBeLessThan(
            1e-7 * Math.max(1, Math.abs(numeric)),
          );
        }
        await session.release();
        await reference.release();
        await forwardOnly.release();
      }, 60_000);
});

/**
 * inputs_embeds [b, s, 2] -> Slice(x, 0, Shape(x)) -> MatMul(W) -> logits, with the token loss: the Slice's
 * `ends` input holds the batch size, and the Slice's gradient reads it, so the backward cannot run at
 * batch k from batch-1 values.
 */
function batchBakedModel(): Promise<ModelProto> {
  const rng = createRng(3);
  const w = Float64Array.from({ length: 2 * 5 }, () => rng.next() - 0.5);
  return appendTokenLoss(
    tinyModel({
      inputs: [{ name: "inputs_embeds", dims: ["b", "s", 2] }],
      nodes: [
        ["Shape", ["inputs_embeds"], ["shape"]],
        ["Slice", ["inputs_embeds", "starts", "shape"], ["sliced"]],
        ["MatMul", ["sliced", "W"], ["logits"]],
      ],
      outputs: ["logits"],
      initializers: [i64("starts", [0, 0, 0]), makeTensor("W", w, [2, 5], DataType.DOUBLE)],
    }),
  );
}

describe("graphs the split cannot handle are refused with a typed reason", () => {
  it("a backward that reads a batch-sized tensor", async () => {
    const model = await batchBakedModel();
    expect(findLmHeadInput(model)).toBe("sliced");
    const error = await buildSplitVjp(model, { wrt: ["inputs_embeds"] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SplitVjpError);
    expect((error as SplitVjpError).code).toBe("SPLIT_VJP");
    expect((error as SplitVjpError).reason).toMatch(/neither the same for every batch nor the batch-1 value repeated/);
  });

  it("logits that no weight projection produces", async () => {
    const model = tinyModel({
      inputs: [{ name: "inputs_embeds", dims: ["b", "s", 5] }],
      nodes: [["Tanh", ["inputs_embeds"], ["logits"]]],
      outputs: ["logits"],
    });
    expect(() => findLmHeadInput(model)).toThrow(SplitVjpError);
  });
});

describe("the superlinear plan on graphs it must not recompute through", () => {
  it("a chain through a node with two outputs (one of them stored) stores the tensor instead", async () => {
    // P = Softmax(q kT + m2 m2T) grows with s^2; m2 comes from a Split whose other output m1 the backward
    // reads: recomputing through the Split would define m1 twice in the backward.
    const rng = createRng(5);
    const mat = (name: string, r: number, c: number) =>
      makeTensor(
        name,
        Float64Array.from({ length: r * c }, () => rng.next() - 0.5),
        [r, c],
        DataType.DOUBLE,
      );
    const model = await appendTokenLoss(
      tinyModel({
        inputs: [
          { name: "inputs_embeds", dims: ["b", "s", 4] },
          { name: "m", dims: ["b", "s", 8] },
        ],
        nodes: [
          ["Split", ["m", "sp"], ["m1", "m2"], { axis: 2 }],
          ["Mul", ["inputs_embeds", "m1"], ["x1"]],
          ["MatMul", ["x1", "Wq"], ["q"]],
          ["MatMul", ["x1", "Wk"], ["k"]],
          ["Transpose", ["k"], ["kT"], { perm: [0, 2, 1] }],
          ["Transpose", ["m2"], ["m2T"], { perm: [0, 2, 1] }],
          ["MatMul", ["m2", "m2T"], ["bias"]],
          ["MatMul", ["q", "kT"], ["qk"]],
          ["Add", ["qk", "bias"], ["scores"]],
          ["Softmax", ["scores"], ["P"], { axis: -1 }],
          ["MatMul", ["P", "x1"], ["h"]],
          ["MatMul", ["h", "W"], ["logits"]],
        ],
        outputs: ["logits"],
        initializers: [mat("Wq", 4, 4), mat("Wk", 4, 4), mat("W", 4, 5), i64("sp", [4, 4])],
      }),
    );
    const grads = [];
    for (const recompute of ["elementwise", "superlinear"] as const) {
      const split = await buildSplitVjp(model, { wrt: ["inputs_embeds"], recompute });
      const session = await SplitVjpSession.create(split, { logSeverityLevel: 4 });
      const feeds = exampleFeeds(model, 5, 3);
      const run = await session.forward(feeds, [0, 3]);
      grads.push(Array.from((await session.backward(run, [0, 3])).inputs_embeds?.data as Float64Array));
      await session.release();
    }
    expect(grads[1]).toEqual(grads[0]);
  });
});
