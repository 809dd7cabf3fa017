/**
 * The normalisation passes, each on a small hand-built graph with hand-worked expectations, then the whole
 * pipeline on every zoo file (logits unchanged), then a model npov cannot differentiate (a typed error
 * naming the op and the file, and `inspectModel` saying which features remain).
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  canonicalInputDims,
  DataType,
  encodeModel,
  evaluateDimExpression,
  foldQuantizedEmbeddings,
  halfToFloat,
  inlineIf,
  inspectModel,
  int64Inputs,
  loadModel,
  loadPretrained,
  type ModelProto,
  makeTensor,
  normalizeModel,
  onnx,
  removePastInputs,
  saveModel,
  valueInfo,
  valueInfoShape,
} from "@npov/autograd";
import { NpovError } from "@npov/core";
import * as ort from "onnxruntime-node";
import { describe, expect, it } from "vitest";
import { directFeeds, ZOO } from "./zoo-reference.js";

function model(graph: Parameters<typeof onnx.GraphProto.create>[0], opset = 13): ModelProto {
  return onnx.ModelProto.create({
    irVersion: 8,
    opsetImport: [{ domain: "", version: opset }],
    graph: onnx.GraphProto.create(graph),
  });
}

async function run(m: ModelProto, feeds: Record<string, ort.Tensor>): Promise<Record<string, ort.Tensor>> {
  const session = await ort.InferenceSession.create(encodeModel(m));
  const out = await session.run(feeds);
  await session.release();
  return out;
}

const f32 = (values: number[], dims: number[]) => new ort.Tensor("float32", Float32Array.from(values), dims);

describe("dimension expressions", () => {
  it("evaluates Optimum's dim names with past lengths and sequence lengths", () => {
    const value = (name: string) => (/past/.test(name) ? 0 : 3);
    expect(evaluateDimExpression("past_sequence_length + 1", value)).toBe(1);
    expect(evaluateDimExpression("past_sequence_length + sequence_length", value)).toBe(3);
    expect(evaluateDimExpression("2 * (sequence_length - 1) / 2", value)).toBe(2);
    expect(evaluateDimExpression("-1 + batch_size", value)).toBe(2);
    expect(() => evaluateDimExpression("a + ", value)).toThrow(NpovError);
    expect(() => evaluateDimExpression("a $ b", value)).toThrow(/cannot read dimension expression/);
  });
});

describe("inlineIf", () => {
  // y = If(use_cache_branch) then x + 1 else x * 2; the else branch defines "t", a name the outer graph uses too.
  const branch = (op: string, c: number) =>
    onnx.GraphProto.create({
      name: op,
      node: [
        { opType: op, input: ["x", "c"], output: ["t"] },
        { opType: "Identity", input: ["t"], output: ["branch_out"] },
      ],
      initializer: [makeTensor("c", Float32Array.of(c), [], DataType.FLOAT)],
      output: [valueInfo("branch_out", DataType.FLOAT, [2])],
    });
  const m = model({
    node: [
      {
        opType: "If",
        input: ["use_cache_branch"],
        output: ["y"],
        attribute: [
          { name: "then_branch", type: onnx.AttributeProto.AttributeType.GRAPH, g: branch("Add", 1) },
          { name: "else_branch", type: onnx.AttributeProto.AttributeType.GRAPH, g: branch("Mul", 2) },
        ],
      },
      { opType: "Neg", input: ["x"], output: ["t"] },
      { opType: "Add", input: ["y", "t"], output: ["z"] },
    ],
    input: [valueInfo("x", DataType.FLOAT, [2]), valueInfo("use_cache_branch", DataType.BOOL, [1])],
    output: [valueInfo("z", DataType.FLOAT, [2])],
  });
  it.each([
    [false, [2 * 3 - 3, 2 * 5 - 5]],
    [true, [3 + 1 - 3, 5 + 1 - 5]],
  ])("use_cache_branch = %s keeps that branch, renaming its colliding names", async (value, expected) => {
    const { model: inlined, inlined: count } = inlineIf(m, { use_cache_branch: value });
    expect(count).toBe(1);
    expect(inlined.graph?.node?.some((n) => n.opType === "If")).toBe(false);
    expect(inlined.graph?.input?.map((v) => v.name)).toEqual(["x"]);
    const out = await run(inlined, { x: f32([3, 5], [2]) });
    expect(Array.from(out.z?.data as Float32Array)).toEqual(expected);
  });
});

describe("removePastInputs", () => {
  // Optimum-style attention cache: key = Concat(past [batch, 2, past, 4], new [batch, 2, seq, 4], axis 2).
  const m = model({
    node: [
      {
        opType: "Concat",
        input: ["past_key_values.0.key", "new"],
        output: ["present.0.key"],
        attribute: [{ name: "axis", type: 2, i: 2 }],
      },
      {
        opType: "ReduceSum",
        input: ["present.0.key"],
        output: ["s"],
        attribute: [{ name: "keepdims", type: 2, i: 0 }],
      },
      {
        opType: "Cast",
        input: ["input_ids"],
        output: ["ids_f"],
        attribute: [{ name: "to", type: 2, i: DataType.FLOAT }],
      },
      { opType: "ReduceSum", input: ["ids_f"], output: ["si"], attribute: [{ name: "keepdims", type: 2, i: 0 }] },
      { opType: "Add", input: ["s", "si"], output: ["logits"] },
    ],
    input: [
      valueInfo("input_ids", DataType.INT64, ["batch_size", "sequence_length"]),
      valueInfo("new", DataType.FLOAT, ["batch_size", 2, "sequence_length", 4]),
      valueInfo("past_key_values.0.key", DataType.FLOAT, ["batch_size", 2, "past_sequence_length", 4]),
    ],
    output: [
      valueInfo("logits", DataType.FLOAT, []),
      valueInfo("present.0.key", DataType.FLOAT, ["batch_size", 2, "past_sequence_length + sequence_length", 4]),
    ],
  });
  it("replaces the cache with an empty tensor of the ids' batch size and drops present outputs", async () => {
    const { model: noCache, removed } = removePastInputs(m);
    expect(removed).toEqual(["past_key_values.0.key"]);
    expect(noCache.graph?.input?.map((v) => v.name)).toEqual(["input_ids", "new"]);
    expect(noCache.graph?.output?.map((v) => v.name)).toEqual(["logits"]);
    const values = Array.from({ length: 2 * 2 * 3 * 4 }, (_, i) => i);
    const out = await run(noCache, {
      input_ids: new ort.Tensor("int64", BigInt64Array.from([1n, 2n, 3n, 4n, 5n, 6n]), [2, 3]),
      new: f32(values, [2, 2, 3, 4]),
    });
    expect(out.logits?.data[0]).toBe(values.reduce((a, b) => a + b, 0) + 21);
  });
});

describe("int64Inputs and canonicalInputDims", () => {
  const m = model({
    node: [
      {
        opType: "Cast",
        input: ["attention_mask"],
        output: ["m"],
        attribute: [{ name: "to", type: 2, i: DataType.FLOAT }],
      },
      { opType: "Cast", input: ["input_ids"], output: ["i"], attribute: [{ name: "to", type: 2, i: DataType.FLOAT }] },
      { opType: "Mul", input: ["i", "m"], output: ["logits"] },
    ],
    input: [
      valueInfo("input_ids", DataType.INT32, ["batch_size", "seq_len"]),
      valueInfo("attention_mask", DataType.INT32, ["batch_size", "past_sequence_length + 1"]),
    ],
    output: [valueInfo("logits", DataType.FLOAT, ["batch_size", "seq_len"])],
  });
  it("int32 ids and masks become int64 inputs cast inside; the mask takes the ids' sequence dim", async () => {
    const { model: widened, converted } = int64Inputs(m);
    expect(converted).toEqual(["input_ids", "attention_mask"]);
    const canonical = canonicalInputDims(widened);
    const inputs = Object.fromEntries((canonical.graph?.input ?? []).map((v) => [v.name, valueInfoShape(v)]));
    expect(inputs.input_ids).toEqual({ elemType: DataType.INT64, shape: ["batch_size", "seq_len"] });
    expect(inputs.attention_mask).toEqual({ elemType: DataType.INT64, shape: ["batch_size", "seq_len"] });
    const out = await run(canonical, {
      input_ids: new ort.Tensor("int64", BigInt64Array.from([7n, 8n, 9n]), [1, 3]),
      attention_mask: new ort.Tensor("int64", BigInt64Array.from([1n, 0n, 1n]), [1, 3]),
    });
    expect(Array.from(out.logits?.data as Float32Array)).toEqual([7, 0, 9]);
  });
});

describe("foldQuantizedEmbeddings", () => {
  // T5's pattern: Gather(uint8 table, ids) -> Transpose -> DequantizeLinear(scale 0.5, zero point 128).
  const table = Uint8Array.from([128, 130, 126, 140, 100, 129]); // 3 rows x 2
  const m = model({
    node: [
      { opType: "Gather", input: ["table_q", "ids"], output: ["g"] },
      { opType: "Transpose", input: ["g"], output: ["t"], attribute: [{ name: "perm", type: 7, ints: [1, 0] }] },
      { opType: "DequantizeLinear", input: ["t", "scale", "zp"], output: ["y"] },
    ],
    initializer: [
      makeTensor("table_q", table, [3, 2], DataType.UINT8),
      makeTensor("scale", Float32Array.of(0.5), [], DataType.FLOAT),
      makeTensor("zp", Uint8Array.of(128), [], DataType.UINT8),
    ],
    input: [valueInfo("ids", DataType.INT64, [2])],
    output: [valueInfo("y", DataType.FLOAT, [2, 2])],
  });
  it("moves the dequantization onto the table (exact): (q - 128) * 0.5, rows 2 and 0, transposed", async () => {
    const { model: folded, folded: count } = foldQuantizedEmbeddings(m);
    expect(count).toBe(1);
    expect(folded.graph?.node?.map((n) => n.opType)).toEqual(["Gather", "Transpose", "Identity"]);
    const ids = new ort.Tensor("int64", BigInt64Array.from([2n, 0n]), [2]);
    const before = await run(m, { ids });
    const after = await run(folded, { ids });
    expect(Array.from(after.y?.data as Float32Array)).toEqual([-14, 0, 0.5, 1]);
    expect(Array.from(after.y?.data as Float32Array)).toEqual(Array.from(before.y?.data as Float32Array));
  });
});

describe("normalizeModel on every zoo file", () => {
  const files = existsSync(ZOO)
    ? readdirSync(ZOO).flatMap((folder) =>
        existsSync(join(ZOO, folder, "onnx"))
          ? readdirSync(join(ZOO, folder, "onnx"))
              .filter((f) => f.endsWith(".onnx") && !f.includes("with_past") && !f.includes("encoder_model"))
              .map((f) => ({ folder, file: f }))
          : [],
      )
    : [];
  // Exact up to float rounding where the original computes in fp32 with fp32 weights or weight-only
  // quantization; fp16 graphs compute in fp16 (npov in fp32 on the same weights); q8/int8/uint8 graphs
  // quantize activations at run time (npov keeps them float).
  const tolerance = (file: string) =>
    /_(quantized|int8|uint8)\.onnx$/.test(file) ? 0.2 : /_(fp16|q4f16)\.onnx$/.test(file) ? 2e-2 : 1e-5;
  it.each(files)(
    "$folder/$file: no cache, If, contrib op or int32 input left; logits as the original's",
    async ({ folder, file }) => {
      const path = join(ZOO, folder, "onnx", file);
      const original = loadModel(path);
      const { model: normalized, report } = normalizeModel(original, { file: path });
      const g = normalized.graph;
      expect(g?.node?.some((n) => n.opType === "If" || (n.domain ?? "") !== "")).toBe(false);
      expect(g?.input?.some((v) => /^past/.test(v.name ?? "") || v.name === "use_cache_branch")).toBe(false);
      expect(g?.input?.every((v) => v.type?.tensorType?.elemType !== DataType.INT32)).toBe(true);
      expect(g?.input?.every((v) => v.type?.tensorType?.elemType !== DataType.FLOAT16)).toBe(true);
      expect(report.opset.to).toBeGreaterThanOrEqual(13);
      const ids = [5, 17, 42, 8, 99, 3];
      const extra: Record<string, ort.Tensor> = {};
      if (original.graph?.input?.some((v) => v.name === "encoder_hidden_states")) {
        extra.encoder_hidden_states = f32(
          Array.from({ length: 4 * 32 }, (_, i) => Math.sin(i)),
          [1, 4, 32],
        );
        extra.encoder_attention_mask = new ort.Tensor("int64", new BigInt64Array(4).fill(1n), [1, 4]);
      }
      const a = (await run(original, directFeeds(original.graph as never, ids, "float32", extra))).logits as ort.Tensor;
      const b = (await run(normalized, directFeeds(normalized.graph as never, ids, "float32", extra)))
        .logits as ort.Tensor;
      const x =
        a.type === "float16" ? Array.from(a.data as Uint16Array, halfToFloat) : Array.from(a.data as Float32Array);
      const y = Array.from(b.data as Float32Array);
      expect(b.dims).toEqual(a.dims);
      const scale = Math.max(...x.map(Math.abs));
      const err = Math.max(...x.map((v, i) => Math.abs(v - (y[i] as number))));
      expect(err / scale).toBeLessThanOrEqual(tolerance(file));
    },
  );
});

describe("a model npov cannot differentiate", () => {
  // optimum-gpt2 with its GELU's Tanh swapped for Softsign, an op without a gradient rule.
  const dir = mkdtempSync(join(tmpdir(), "npov-unsupported-"));
  mkdirSync(join(dir, "onnx"));
  for (const f of ["config.json", "tokenizer.json", "tokenizer_config.json", "generation_config.json"])
    copyFileSync(join(ZOO, "optimum-gpt2", f), join(dir, f));
  const m = loadModel(join(ZOO, "optimum-gpt2", "onnx", "model.onnx"));
  const tanh = m.graph?.node?.find((n) => n.opType === "Tanh");
  if (tanh) tanh.opType = "Softsign";
  saveModel(join(dir, "onnx", "model.onnx"), m);

  it("salience fails with a typed error naming the op, the folder and the file", async () => {
    const { SalienceDetector } = await import("@npov/salience");
    const detector = await SalienceDetector.fromPretrained(dir);
    const error = await detector.tokenMap("a b c", "d e").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NpovError);
    expect((error as NpovError).code).toBe("UNSUPPORTED_MODEL");
    expect((error as Error).message).toMatch(/Softsign/);
    expect((error as Error).message).toContain("onnx/model.onnx");
    expect((error as Error).message).toContain("npov model inspect");
  });

  it("inspectModel: scoring and generation yes, salience and tuning no, because of Softsign", async () => {
    const r = await inspectModel(dir);
    expect(r.variants).toHaveLength(1);
    const f = r.variants[0]?.features;
    expect(f?.scoring.supported).toBe(true);
    expect(f?.generation.supported).toBe(true);
    expect(f?.salience).toEqual({ supported: false, blockers: ["onnx/model.onnx: no gradient rule for Softsign"] });
    expect(f?.tuning.supported).toBe(false);
    expect(r.variants[0]?.files[0]?.ops).toContain("Softsign");
  });

  it("a graph whose fp32 weights would pass protobuf's 2 GiB limit is refused up front, with the reason", async () => {
    const big = mkdtempSync(join(tmpdir(), "npov-big-"));
    mkdirSync(join(big, "onnx"));
    for (const f of ["config.json", "tokenizer.json", "tokenizer_config.json"])
      copyFileSync(join(ZOO, "optimum-gpt2", f), join(big, f));
    // A sparse 300 MB q4 file: 2.3 GiB once widened to fp32. Nothing is read before the check.
    writeFileSync(join(big, "onnx", "model_q4.onnx"), "");
    truncateSync(join(big, "onnx", "model_q4.onnx"), 300 * 2 ** 20);
    const error = await loadPretrained(big).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "UNSUPPORTED_MODEL" });
    expect((error as Error).message).toMatch(/about 2\.3 GiB in fp32.*at most 2 GiB/);
  });

  it("loadPretrained: a folder with several variants and no fp32 asks for a dtype; a missing dtype names what exists", async () => {
    const multi = mkdtempSync(join(tmpdir(), "npov-variants-"));
    mkdirSync(join(multi, "onnx"));
    for (const f of ["config.json", "tokenizer.json", "tokenizer_config.json"])
      copyFileSync(join(ZOO, "optimum-gpt2", f), join(multi, f));
    for (const f of ["model_q4.onnx", "model_int8.onnx"])
      copyFileSync(join(ZOO, "optimum-gpt2", "onnx", f), join(multi, "onnx", f));
    await expect(loadPretrained(multi)).rejects.toThrow(
      /exists as int8, q4 but not fp32: choose one with the dtype option/,
    );
    await expect(loadPretrained(multi, { dtype: "fp16" })).rejects.toThrow(
      /no fp16 file: the folder has onnx\/model_int8.onnx, onnx\/model_q4.onnx/,
    );
    await expect(loadPretrained(multi, { dtype: "fp8" as never })).rejects.toMatchObject({ code: "INVALID_VALUE" });
    const only = await loadPretrained(join(ZOO, "genai-qwen-gqa"));
    expect(only.dtype).toBe("fp16");
    expect(only.onnxFiles).toEqual(["onnx/model_fp16.onnx"]);
  });
});
