// The split VJP's memory measures: sessions whose weights come from an external-data file
// (weight-file.ts); the backward's folded broadcast reductions and broadcast (untiled) saved tensors
// (split.ts). Same values as the plain paths, each weight written once, temporary files removed, no
// run-time axis computation or Tile left.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import {
  buildSplitVjp,
  cloneModel,
  createWeightFileSession,
  DataType,
  decodeModel,
  embeddingGraph,
  encodeModel,
  GradientSession,
  loadPretrained,
  makeTensor,
  onnx,
  releaseModelBuffers,
  SplitVjpSession,
  sampleFeeds,
  tensorData,
  tileTensor,
  useWeightFile,
  WeightFile,
  withWeightFile,
  writeTestModel,
} from "@npov/autograd";
import { createRng } from "@npov/core";
import * as ort from "onnxruntime-node";
import { describe, expect, it } from "vitest";
import { tinyModel } from "./helpers.js";

const root = mkdtempSync(join(tmpdir(), "npov-weight-file-"));

/** x [n, 64] -> MatMul(W [64, 96]) + b [96]: W (24 KiB) goes to the weight file, b (384 B) stays inline. */
function linearModel(seed: number) {
  const rng = createRng(seed);
  const w = Float32Array.from({ length: 64 * 96 }, () => rng.next() - 0.5);
  const b = Float32Array.from({ length: 96 }, () => rng.next() - 0.5);
  return tinyModel({
    inputs: [{ name: "x", dims: ["n", 64], dtype: "float" }],
    nodes: [
      ["MatMul", ["x", "W"], ["xw"]],
      ["Add", ["xw", "b"], ["y"]],
    ],
    outputs: ["y"],
    initializers: [makeTensor("W", w, [64, 96], DataType.FLOAT), makeTensor("b", b, [96], DataType.FLOAT)],
  });
}

const input = () => {
  const rng = createRng(9);
  return new ort.Tensor(
    "float32",
    Float32Array.from({ length: 3 * 64 }, () => rng.next() * 2 - 1),
    [3, 64],
  );
};

describe("WeightFile", () => {
  it("serves sessions with the model's values, writes shared weights once, and deletes its directory", async () => {
    const model = linearModel(1);
    const expected = await ort.InferenceSession.create(encodeModel(model));
    const want = (await expected.run({ x: input() })).y?.data as Float32Array;

    const file = WeightFile.create();
    const a = await file.createSession(model);
    const b = await file.createSession(cloneModel(model)); // a clone shares the weight bytes
    const other = linearModel(2); // new bytes: appended after W, at the next 64 KiB boundary
    const c = await file.createSession(other);
    // Only weights.bin remains (the model files are removed once their session exists).
    expect(readdirSync(file.dir)).toEqual(["weights.bin"]);
    expect(statSync(join(file.dir, "weights.bin")).size).toBe(65536 + 64 * 96 * 4);
    const externalized = file.externalize(model);
    const w = externalized.graph?.initializer?.find((t) => t.name === "W");
    expect(w?.dataLocation).toBe(1);
    expect(w?.externalData?.map((e) => [e.key, e.value])).toEqual([
      ["location", "weights.bin"],
      ["offset", "0"],
      ["length", String(64 * 96 * 4)],
    ]);
    expect(externalized.graph?.initializer?.find((t) => t.name === "b")?.rawData?.length).toBe(96 * 4);
    file.dispose();
    expect(existsSync(file.dir)).toBe(false);
    // The sessions keep working after the file is gone: they hold (or map) their weights.
    for (const s of [a, b])
      expect(Array.from((await s.run({ x: input() })).y?.data as Float32Array)).toEqual(Array.from(want));
    const otherWant = (await (await ort.InferenceSession.create(encodeModel(other))).run({ x: input() })).y;
    expect(Array.from((await c.run({ x: input() })).y?.data as Float32Array)).toEqual(
      Array.from(otherWant?.data as Float32Array),
    );
  });

  it("withWeightFile shares one file among the sessions inside it and removes it afterwards", async () => {
    const scratch = mkdtempSync(join(root, "tmp-"));
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = scratch; // os.tmpdir() reads it on every call
    try {
      const model = linearModel(3);
      const seen: string[][] = [];
      const sizes: number[] = [];
      await withWeightFile(async () => {
        for (let i = 0; i < 3; i++) {
          const s = await createWeightFileSession(cloneModel(model));
          const dirs = readdirSync(scratch);
          seen.push(dirs);
          sizes.push(statSync(join(scratch, dirs[0] as string, "weights.bin")).size);
          await s.release();
        }
      });
      // One directory throughout, its weight file holding W once (the clones share its bytes).
      expect(seen.map((dirs) => dirs.length)).toEqual([1, 1, 1]);
      expect(new Set(seen.flat()).size).toBe(1);
      expect(sizes).toEqual([64 * 96 * 4, 64 * 96 * 4, 64 * 96 * 4]);
      expect(readdirSync(scratch)).toEqual([]);
      // Outside withWeightFile each session gets its own file, removed once the session exists.
      const s = await createWeightFileSession(model);
      expect(readdirSync(scratch)).toEqual([]);
      await s.release();
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
  });
});

describe("weight directories of killed processes", () => {
  it("the first weight file a process creates removes those of processes that no longer exist", () => {
    const scratch = mkdtempSync(join(root, "orphans-"));
    // A process that has exited: its pid is free (pids are not reused this fast).
    const dead = spawnSync(process.execPath, ["-e", "process.stdout.write(String(process.pid))"], {
      encoding: "utf8",
    }).stdout;
    const host =
      hostname()
        .replace(/[^A-Za-z0-9]/g, "")
        .slice(0, 32) || "host";
    const orphan = join(scratch, `npov-weights-${host}-${dead}-AbCdEf`);
    const alive = join(scratch, `npov-weights-${host}-${process.pid}-GhIjKl`); // this test's process: kept
    // Another machine's (or container's) pid says nothing about this host's processes: kept.
    const foreign = join(scratch, `npov-weights-otherhost${host}-${dead}-MnOpQr`);
    const other = join(scratch, "npov-weights-notapid");
    for (const d of [orphan, alive, foreign, other]) mkdirSync(d);
    writeFileSync(join(orphan, "weights.bin"), new Uint8Array(1024));
    const script = `import("@npov/autograd").then((m) => { const f = m.WeightFile.create(); f.dispose(); })`;
    const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], {
      env: { ...process.env, TMPDIR: scratch },
      cwd: join(import.meta.dirname, ".."),
      encoding: "utf8",
    });
    expect(r.stderr).toBe("");
    expect(readdirSync(scratch).sort()).toEqual(
      [
        `npov-weights-${host}-${process.pid}-GhIjKl`,
        "npov-weights-notapid",
        `npov-weights-otherhost${host}-${dead}-MnOpQr`,
      ].sort(),
    );
  });
});

describe("weights moved out of a decoded model", () => {
  it("moveWeights leaves no view of the file's buffer; sessions in useWeightFile compute the same; releaseModelBuffers frees the file", async () => {
    // A model decoded from its bytes, as loadPretrained decodes a file: every tensor views that one buffer.
    const original = linearModel(4);
    // A Constant node whose small tensor also views the buffer (kept inline, but copied to its own bytes).
    original.graph?.node?.push(
      onnx.NodeProto.create({
        opType: "Constant",
        output: ["c"],
        attribute: [{ name: "value", type: 4, t: makeTensor("", Float32Array.of(2), [1], DataType.FLOAT) }],
      }),
      onnx.NodeProto.create({ opType: "Mul", input: ["y", "c"], output: ["z"] }),
    );
    original.graph?.output?.push(onnx.ValueInfoProto.create({ name: "z" }));
    const fileBytes = Buffer.concat([Buffer.alloc(1 << 20), Buffer.from(encodeModel(original))]).subarray(1 << 20);
    const decoded = decodeModel(fileBytes);
    const fileBuffer = fileBytes.buffer;
    const want = (await (await ort.InferenceSession.create(encodeModel(decoded))).run({ x: input() })).z
      ?.data as Float32Array;

    const model = cloneModel(decoded); // shares the weight bytes, as embeddingGraph's graph does
    const file = WeightFile.create();
    try {
      expect(file.moveWeights(model)).toBe(64 * 96 * 4); // W moved; b (384 B) and the constant stay inline
      const w = model.graph?.initializer?.find((t) => t.name === "W");
      expect([w?.rawData?.length, w?.dataLocation]).toEqual([0, onnx.TensorProto.DataLocation.EXTERNAL]);
      const views: ArrayBufferLike[] = [];
      for (const t of model.graph?.initializer ?? []) if (t.rawData?.length) views.push(t.rawData.buffer);
      for (const n of model.graph?.node ?? [])
        for (const a of n.attribute ?? []) if (a.t?.rawData?.length) views.push(a.t.rawData.buffer);
      expect(views.length).toBe(2); // b and the constant
      for (const v of views) expect(v).not.toBe(fileBuffer);

      // The decoded model's buffer is freed at once (1 MiB + the model); the moved model still runs.
      const fileSize = fileBuffer.byteLength;
      expect(releaseModelBuffers([decoded, undefined], [])).toBe(fileSize);
      expect(fileBuffer.byteLength).toBe(0);
      const s = await useWeightFile(file, () => createWeightFileSession(model));
      expect(Array.from((await s.run({ x: input() })).z?.data as Float32Array)).toEqual(Array.from(want));
      await s.release();
      // Outside useWeightFile the moved model has no weights to read: onnxruntime refuses it.
      await expect(createWeightFileSession(model)).rejects.toThrow();
    } finally {
      file.dispose();
    }
    expect(existsSync(file.dir)).toBe(false);
  });

  it("moves floating-point weights only: a large int64 initializer stays, and gradients build from the moved model", async () => {
    const idx = BigInt64Array.from({ length: 4096 }, (_, i) => BigInt(i % 4)); // 32 KiB, over the 16 KiB cut
    const model = decodeModel(
      encodeModel(
        tinyModel({
          inputs: [{ name: "x", dims: [3, 64], dtype: "float" }],
          nodes: [
            ["Cast", ["idx"], ["idxf"], { to: DataType.FLOAT }],
            ["ReduceSum", ["idxf"], ["c"]],
            ["MatMul", ["x", "W"], ["xw"]],
            ["Mul", ["xw", "c"], ["y"]],
          ],
          outputs: ["y"],
          initializers: [
            makeTensor("idx", idx, [4096], DataType.INT64),
            linearModel(6).graph?.initializer?.find((t) => t.name === "W") as onnx.TensorProto,
          ],
        }),
      ),
    );
    const file = WeightFile.create();
    try {
      expect(file.moveWeights(model)).toBe(64 * 96 * 4); // W only
      const kept = model.graph?.initializer?.find((t) => t.name === "idx");
      expect(kept?.rawData?.length).toBe(4096 * 8);
      // Gradient building reads every int64 initializer's values: it works on the moved model.
      const session = await useWeightFile(file, () =>
        GradientSession.create(model, { of: "y", wrt: ["x"], seed: "input" }),
      );
      const run = await session.run(
        { x: input() },
        { upstream: { y: new ort.Tensor("float32", new Float32Array(3 * 96).fill(1), [3, 96]) } },
      );
      // d/dx sum(y) = c * (row sums of W), c = sum(idx) = 1,024 x (0 + 1 + 2 + 3) = 6,144.
      const w = tensorData(linearModel(6).graph?.initializer?.find((t) => t.name === "W") as onnx.TensorProto);
      const g = run.gradients.x?.data as Float32Array;
      for (let i = 0; i < 64; i++) {
        let rowSum = 0;
        for (let j = 0; j < 96; j++) rowSum += w[i * 96 + j] as number;
        for (let r = 0; r < 3; r++) expect(g[r * 64 + i]).toBeCloseTo(6144 * rowSum, 1);
      }
      await session.release();
    } finally {
      file.dispose();
    }
  });

  it("releaseModelBuffers keeps the buffers it is told to keep and small (pooled) ones", () => {
    const big = new Uint8Array(2 << 20);
    const small = new Uint8Array(4096);
    const kept = new Uint8Array(2 << 20);
    const tensor = (name: string, bytes: Uint8Array) =>
      onnx.TensorProto.create({ name, dataType: 2, dims: [bytes.length], rawData: bytes.subarray(16) });
    const model = onnx.ModelProto.create({
      graph: { initializer: [tensor("a", big), tensor("b", small), tensor("c", kept)] },
    });
    // A model still in use (here one whose local function's constant views `shared`) keeps its buffers.
    const shared = new Uint8Array(2 << 20);
    model.graph?.initializer?.push(tensor("d", shared));
    const user = onnx.ModelProto.create({
      functions: [
        {
          name: "f",
          node: [
            { opType: "Constant", output: ["c"], attribute: [{ name: "value", type: 4, t: tensor("c", shared) }] },
          ],
        },
      ],
    });
    expect(releaseModelBuffers([model], [kept.buffer, user])).toBe(2 << 20);
    expect([big.byteLength, small.byteLength, kept.byteLength, shared.byteLength]).toEqual([0, 4096, 2 << 20, 2 << 20]);
  });
});

describe("split backward: broadcast reductions folded to constant axes", () => {
  it("leaves no run-time axis computation in T5's backward and matches the recompute VJP at other lengths", async () => {
    const dir = join(root, "t5");
    writeTestModel(dir, "t5", { seed: 5 });
    const files = await loadPretrained(dir);
    const graph = await embeddingGraph(files, { decoderEmbeds: true, precision: "float64" });
    const wrt = ["inputs_embeds", "decoder_inputs_embeds"];
    const split = await buildSplitVjp(graph.model, { wrt });
    const ops = (split.backward.graph?.node ?? []).map((n) => n.opType);
    // sumTo's Equal/Not/And/NonZero chains are gone; the gradient's ReduceSums read constant axes; every
    // saved activation is read at batch 1 (broadcast), none repeated k times.
    for (const op of ["NonZero", "Equal", "Not", "And", "Tile"]) expect(ops).not.toContain(op);
    expect(split.saved.filter((s) => s.tileAxis === 0).length).toBeGreaterThan(0);
    const inits = new Set((split.backward.graph?.initializer ?? []).map((t) => t.name));
    const sums = (split.backward.graph?.node ?? []).filter((n) => n.opType === "ReduceSum");
    expect(sums.length).toBeGreaterThan(0);
    for (const n of sums) expect(inits.has(n.input[1] as string)).toBe(true);

    // Encoder 6 tokens, decoder 2 (the probes that fixed the axes used 3 and 5), seeds at positions 1, 0.
    const rng = createRng(8);
    const feeds = sampleFeeds(graph.model, 6);
    const length = (name: string) => (/^(decoder_|label)/.test(name) ? 2 : 6);
    for (const v of graph.model.graph?.input ?? []) {
      const name = v.name as string;
      const t = feeds[name] as ort.Tensor;
      const dims = t.dims.map((d, k) => (k === 0 ? 1 : k === 1 ? length(name) : d));
      const size = dims.reduce((a, b) => a * b, 1);
      feeds[name] =
        t.type === "float64"
          ? new ort.Tensor(
              "float64",
              Float64Array.from({ length: size }, () => (/mask/.test(name) ? 1 : rng.next() * 2 - 1)),
              dims,
            )
          : new ort.Tensor(
              "int64",
              BigInt64Array.from({ length: size }, (_, i) => (/mask/.test(name) ? 1n : BigInt(3 + i))),
              dims,
            );
    }
    const options = { graphOptimizationLevel: "basic" as const, logSeverityLevel: 4 as const };
    const session = await SplitVjpSession.create(split, options);
    const positions = [1, 0];
    const grads = await session.backward(await session.forward(feeds, positions), positions);
    const reference = await GradientSession.create(graph.model, {
      of: "token_loss",
      wrt,
      seed: "input",
      sessionOptions: options,
    });
    const upstream = new Float64Array([0, 1, 1, 0]);
    const r = await reference.run(Object.fromEntries(Object.entries(feeds).map(([n, t]) => [n, tileTensor(t, 0, 2)])), {
      upstream: { token_loss: new ort.Tensor("float64", upstream, [2, 2]) },
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
    await session.release();
    await reference.release();
  }, 60_000);
});
