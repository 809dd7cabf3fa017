// The salience schedules (split, recompute) give the same token maps; graphs the split cannot
// handle fall back to recompute with the reason; options are validated.
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DataType, makeAttributes, makeTensor, onnx, saveModel, valueInfo, writeTestModel } from "@npov/autograd";
import { createRng, InvalidValueError, repoPath } from "@npov/core";
import { SalienceDetector } from "@npov/salience";
import { describe, expect, it } from "vitest";

const root = mkdtempSync(join(tmpdir(), "npov-salience-schedule-"));
const ZOO = repoPath("..", "shared", "models", "zoo");

describe("split and recompute schedules compute the same token map (float64)", () => {
  for (const arch of ["t5", "llama"] as const) {
    it(arch, async () => {
      const dir = join(root, arch);
      writeTestModel(dir, arch, { seed: 11 });
      const maps = [];
      for (const [schedule, chunkSize] of [
        ["recompute", 3],
        ["split", 2],
        ["split", "auto"],
      ] as const) {
        const detector = await SalienceDetector.fromPretrained(dir, { precision: "float64", schedule, chunkSize });
        const map = await detector.tokenMap("ab cd ef", "xy zw q");
        expect(map.schedule?.mode).toBe(schedule);
        expect(map.schedule?.fallback).toBeUndefined();
        const l = map.attributions.cols;
        if (chunkSize !== "auto") expect(map.schedule?.chunkSize).toBe(Math.min(chunkSize, l));
        // recompute: one run per chunk; split: one forward, then one run per chunk.
        const chunks = Math.ceil(l / (map.schedule?.chunkSize ?? 1));
        expect(map.schedule?.runs).toBe(schedule === "split" ? chunks + 1 : chunks);
        maps.push(map.attributions.data);
        await detector.dispose();
      }
      const reference = maps[0] as Float64Array;
      const scale = Math.max(...Array.from(reference, Math.abs));
      expect(scale).toBeGreaterThan(0);
      for (const other of maps.slice(1))
        for (let i = 0; i < reference.length; i++)
          expect(Math.abs((other[i] as number) - (reference[i] as number))).toBeLessThan(1e-12 * scale);
    }, 60_000);
  }

  it("edge lengths: a 1-token prompt and a 1-token response give the recompute map (causal and T5)", async () => {
    for (const arch of ["gpt2", "t5"] as const) {
      const dir = join(root, `${arch}-edges`);
      writeTestModel(dir, arch, { seed: 11 });
      for (const [promptIds, responseIds] of [
        [[5], [7]],
        [[5], [7, 8, 9]],
        [[5, 6, 7, 8, 9, 10], [7]],
      ]) {
        const maps = [];
        for (const schedule of ["recompute", "split"] as const) {
          const detector = await SalienceDetector.fromPretrained(dir, { precision: "float64", schedule, chunkSize: 2 });
          const { attributions, schedule: used } = await detector.tokenMapOfIds(promptIds, responseIds);
          expect(used.mode).toBe(schedule);
          expect([attributions.rows, attributions.cols]).toEqual([
            promptIds.length + responseIds.length,
            responseIds.length,
          ]);
          maps.push(attributions.data);
          await detector.dispose();
        }
        const [reference, split] = maps as [Float64Array, Float64Array];
        const scale = Math.max(...Array.from(reference, Math.abs));
        expect(scale).toBeGreaterThan(0);
        for (let i = 0; i < reference.length; i++)
          expect(Math.abs((split[i] as number) - (reference[i] as number))).toBeLessThan(1e-12 * scale);
      }
    }
  }, 60_000);

  it("an input over activationMemory uses the split that recomputes superlinear activations: the same map", async () => {
    for (const arch of ["gpt2", "t5"] as const) {
      const dir = join(root, `${arch}-long`);
      writeTestModel(dir, arch, { seed: 12 });
      const plain = await SalienceDetector.fromPretrained(dir, { precision: "float64", chunkSize: 2 });
      const a = await plain.tokenMap("ab cd ef gh", "xy zw q");
      expect(a.schedule).toMatchObject({ mode: "split", recompute: "elementwise" });
      // A budget below what this input stores: the superlinear split, built on first need.
      const budget = (a.schedule?.storedBytes as number) - 1;
      const long = await SalienceDetector.fromPretrained(dir, {
        precision: "float64",
        chunkSize: 2,
        activationMemory: budget,
      });
      const b = await long.tokenMap("ab cd ef gh", "xy zw q");
      expect(b.schedule).toMatchObject({ mode: "split", recompute: "superlinear", runs: a.schedule?.runs });
      const scale = Math.max(...Array.from(a.attributions.data, Math.abs));
      expect(scale).toBeGreaterThan(0);
      for (let i = 0; i < a.attributions.data.length; i++)
        expect(Math.abs((b.attributions.data[i] as number) - (a.attributions.data[i] as number))).toBeLessThan(
          1e-12 * scale,
        );
      // A shorter input stays under the budget: the plain split again, same detector.
      const short = await long.tokenMap("ab", "xy");
      expect(short.schedule?.recompute).toBe("elementwise");
      await plain.dispose();
      await long.dispose();
    }
  }, 60_000);

  it("on exported zoo graphs (Optimum, onnxruntime-genai) the superlinear split builds and gives the same map", async () => {
    // Unnamed nodes (genai) and recomputed chains that read other recomputed tensors (Optimum's causal
    // attention) once made onnxruntime reject the graph, and the detector fell back to storing everything.
    for (const [folder, dtype] of [
      ["optimum-gpt2", "fp32"],
      ["optimum-llama", "q4"],
      ["genai-qwen-gqa", "fp16"],
    ] as const) {
      const maps = [];
      for (const activationMemory of [1000, undefined]) {
        const detector = await SalienceDetector.fromPretrained(join(ZOO, folder), {
          dtype,
          ...(activationMemory === undefined ? {} : { activationMemory }),
        });
        const map = await detector.tokenMap("User question: {Ban zoos?} pro: {Cages harm animals.}", "Cages harm.");
        expect(map.schedule?.superlinearFallback, folder).toBeUndefined();
        expect(map.schedule?.recompute, folder).toBe(activationMemory === undefined ? "elementwise" : "superlinear");
        maps.push(map.attributions.data);
        await detector.dispose();
      }
      expect(Array.from(maps[0] as ArrayLike<number>), folder).toEqual(Array.from(maps[1] as ArrayLike<number>));
    }
  }, 120_000);

  it("auto picks split for short inputs and 1 thread, and the default chunk stays within the budget", async () => {
    const dir = join(root, "gpt2");
    writeTestModel(dir, "gpt2", { seed: 2 });
    const detector = await SalienceDetector.fromPretrained(dir);
    const map = await detector.tokenMap("ab cd", "xy");
    expect(map.schedule).toMatchObject({ mode: "split", threads: 1 });
    await detector.dispose();
  });
});

/**
 * A causal LM folder whose graph the split cannot handle: the embedding goes through Slice(x, 0, Shape(x)),
 * whose gradient reads the batch size, before a weight projection to the logits.
 */
function writeBatchBakedModel(dir: string): void {
  writeTestModel(dir, "gpt2", { seed: 1 });
  const vocab = Number(JSON.parse(readFileSync(join(dir, "config.json"), "utf8")).vocab_size);
  const d = 4;
  const rng = createRng(5);
  const table = Float32Array.from({ length: vocab * d }, () => rng.next() - 0.5);
  const w = Float32Array.from({ length: d * vocab }, () => rng.next() - 0.5);
  const node = (opType: string, input: string[], output: string, attrs = {}) =>
    onnx.NodeProto.create({ opType, input, output: [output], name: output, attribute: makeAttributes(attrs) });
  const model = onnx.ModelProto.create({
    irVersion: 8,
    opsetImport: [{ domain: "", version: 17 }],
    graph: {
      name: "batch_baked",
      input: [valueInfo("input_ids", DataType.INT64, ["batch", "seq"])],
      output: [valueInfo("logits", DataType.FLOAT, ["batch", "seq", vocab])],
      initializer: [
        makeTensor("table", table, [vocab, d]),
        makeTensor("W", w, [d, vocab]),
        makeTensor("starts", BigInt64Array.of(0n, 0n, 0n), [3]),
      ],
      node: [
        node("Gather", ["table", "input_ids"], "embeds"),
        node("Shape", ["embeds"], "shape"),
        node("Slice", ["embeds", "starts", "shape"], "sliced"),
        node("MatMul", ["sliced", "W"], "logits"),
      ],
    },
  });
  saveModel(join(dir, "onnx/model.onnx"), model);
}

describe("graphs the split cannot handle", () => {
  it('fall back to recompute under schedule "auto", naming why, and are refused under "split"', async () => {
    const dir = join(root, "baked");
    writeBatchBakedModel(dir);
    const auto = await SalienceDetector.fromPretrained(dir);
    const map = await auto.tokenMap("ab cd", "xy zw");
    expect(map.schedule?.mode).toBe("recompute");
    expect(map.schedule?.fallback).toMatch(/neither the same for every batch nor the batch-1 value repeated/);
    const recompute = await SalienceDetector.fromPretrained(dir, { schedule: "recompute" });
    expect(Array.from((await recompute.tokenMap("ab cd", "xy zw")).attributions.data)).toEqual(
      Array.from(map.attributions.data),
    );
    const split = await SalienceDetector.fromPretrained(dir, { schedule: "split" });
    const error = await split.tokenMap("ab cd", "xy zw").catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "UNSUPPORTED_MODEL" });
    expect((error as { cause: { code: string } }).cause.code).toBe("SPLIT_VJP");
    await auto.dispose();
    await recompute.dispose();
    await split.dispose();
  });
});

describe("schedule options", () => {
  it("refuses bad values with typed errors", async () => {
    const dir = join(root, "gpt2-options");
    writeTestModel(dir, "gpt2", { seed: 1 });
    for (const bad of [
      { threads: 0 },
      { threads: 1.5 },
      { schedule: "sometimes" as "auto" },
      { chunkSize: -1 },
      { backwardMemory: 0 },
      { activationMemory: 0 },
      { activationMemory: Number.NaN },
    ])
      await expect(SalienceDetector.fromPretrained(dir, bad)).rejects.toBeInstanceOf(InvalidValueError);
    const detector = await SalienceDetector.fromPretrained(dir);
    await expect(detector.tokenMapOfIds([1, 2], [1e9])).rejects.toThrow(
      /responseIds\[0\].*not in the model's vocabulary/,
    );
    await expect(detector.tokenMapOfIds([1, -1], [2])).rejects.toBeInstanceOf(InvalidValueError);
    await expect(detector.tokenMapOfIds([], [2])).rejects.toBeInstanceOf(InvalidValueError);
    await detector.dispose();
  });
});
