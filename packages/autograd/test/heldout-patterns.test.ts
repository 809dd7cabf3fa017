// The two patterns that stopped salience on held-out decoder exports before any gradient was computed --
// "No gradient rule for Max" (a floor on the attention scores) and "No gradient rule for Gather ... axis 3
// needs opset >= 16" (a Gather along the key axis of an opset-11 graph, raised to 13 by normalisation) --
// put into a tiny llama's opset-13 graph. The function is unchanged (the floor is below every unmasked
// score, and the keys are reversed before the softmax and back after it), so the split VJP of the patched
// graph must equal the unpatched graph's, and its backward graph must run at opset 16.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  batchOneFeeds,
  buildSplitVjp,
  cloneModel,
  DataType,
  embeddingGraph,
  type GraphProto,
  loadPretrained,
  type ModelProto,
  makeTensor,
  type NodeProto,
  onnx,
  opsetVersion,
  SplitVjpSession,
  writeTestModel,
} from "@npov/autograd";
import { createRng } from "@npov/core";
import * as ort from "onnxruntime-node";
import { describe, expect, it } from "vitest";

const node = (opType: string, input: string[], output: string, attrs: onnx.IAttributeProto[] = []) =>
  onnx.NodeProto.create({ opType, input, output: [output], name: `${output}/node`, attribute: attrs });
const intAttr = (name: string, i: number): onnx.IAttributeProto => ({
  name,
  type: onnx.AttributeProto.AttributeType.INT,
  i,
});

/** Before every Softmax: floor the scores with Max, reverse the key axis with Gather(axis 3); after it, reverse back. */
function patch(model: ModelProto): ModelProto {
  const copy = cloneModel(model);
  const graph = copy.graph as GraphProto;
  for (const o of copy.opsetImport) if (!o.domain) o.version = 13;
  graph.initializer.push(
    makeTensor("patch/floor", Float64Array.of(-1e4), [], DataType.DOUBLE),
    makeTensor("patch/i3", BigInt64Array.of(3n), [1], DataType.INT64),
    makeTensor("patch/i4", BigInt64Array.of(4n), [1], DataType.INT64),
    makeTensor("patch/zero", BigInt64Array.of(0n), [1], DataType.INT64),
    makeTensor("patch/one", BigInt64Array.of(1n), [], DataType.INT64),
    makeTensor("patch/minus1", BigInt64Array.of(-1n), [], DataType.INT64),
  );
  const out: NodeProto[] = [];
  let k = 0;
  for (const n of graph.node as NodeProto[]) {
    if (n.opType !== "Softmax") {
      out.push(n);
      continue;
    }
    const p = `patch/${k++}`;
    const scores = n.input[0] as string;
    const probs = n.output[0] as string;
    out.push(
      node("Max", [scores, "patch/floor"], `${p}/floored`),
      node("Shape", [scores], `${p}/shape`),
      node("Slice", [`${p}/shape`, "patch/i3", "patch/i4"], `${p}/keys1`),
      node("Squeeze", [`${p}/keys1`, "patch/zero"], `${p}/keys`),
      node("Sub", [`${p}/keys`, "patch/one"], `${p}/last`),
      node("Range", [`${p}/last`, "patch/minus1", "patch/minus1"], `${p}/reversed`),
      node("Gather", [`${p}/floored`, `${p}/reversed`], `${p}/scores`, [intAttr("axis", 3)]),
      onnx.NodeProto.create({ ...n, input: [`${p}/scores`], output: [`${p}/probs`] }),
      node("Gather", [`${p}/probs`, `${p}/reversed`], probs, [intAttr("axis", 3)]),
    );
  }
  graph.node = out;
  return copy;
}

describe("held-out decoder patterns: Max on the scores, Gather along the key axis below opset 16", () => {
  it("the split VJP of the patched graph equals the original's, with its backward at opset 16", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), "npov-heldout-")), "llama");
    writeTestModel(dir, "llama", { seed: 5 });
    const graph = await embeddingGraph(await loadPretrained(dir), { precision: "float64" });
    const patched = patch(graph.model);
    expect(opsetVersion(patched)).toBe(13);
    const ops = (patched.graph?.node ?? []).map((n) => n.opType);
    expect(ops).toContain("Max");
    expect(ops.filter((op) => op === "Gather").length).toBeGreaterThan(2);

    const feeds = batchOneFeeds(graph.model, 6);
    const rng = createRng(3);
    const embeds = feeds.inputs_embeds as ort.Tensor;
    feeds.inputs_embeds = new ort.Tensor(
      "float64",
      Float64Array.from(embeds.data as Float64Array, () => rng.next() * 2 - 1),
      embeds.dims,
    );
    feeds.labels = new ort.Tensor("int64", BigInt64Array.from([5n, 9n, 4n, 7n, 3n, 8n]), [1, 6]);
    const positions = [5, 1, 3];
    const gradients = async (model: ModelProto) => {
      const split = await buildSplitVjp(model, { wrt: ["inputs_embeds"] });
      // Basic optimizations only: the extended fusions (QuickGelu) have float32 kernels only.
      const session = await SplitVjpSession.create(split, { logSeverityLevel: 4, graphOptimizationLevel: "basic" });
      try {
        const run = await session.forward(feeds, positions);
        return { split, grads: (await session.backward(run, positions)).inputs_embeds as ort.Tensor };
      } finally {
        await session.release();
      }
    };
    const original = await gradients(graph.model);
    const withPatterns = await gradients(patched);
    expect(opsetVersion(withPatterns.split.backward)).toBe(16);
    expect(opsetVersion(withPatterns.split.forward)).toBe(13);
    const a = original.grads.data as Float64Array;
    const b = withPatterns.grads.data as Float64Array;
    expect(b.length).toBe(a.length);
    const scale = Math.max(...Array.from(a, Math.abs));
    expect(scale).toBeGreaterThan(1e-6);
    for (let i = 0; i < a.length; i++)
      expect(Math.abs((a[i] as number) - (b[i] as number))).toBeLessThan(1e-12 * scale);
  });
});
