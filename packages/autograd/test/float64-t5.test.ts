/**
 * `precision: "float64"` must compute the float32 model's function, only more precisely. T5's relative-
 * position buckets are float index arithmetic (`trunc(log(d / e) / log(D / e) * (n - e))`) whose constants
 * the exporter rounded to float32; promoting the chain to double turned bucket 2 at d = 16 into
 * 1.99999999 -> 1. The buckets of npov's float64 graph are checked here against an independent plain-JS
 * computation of Hugging Face's `_relative_position_bucket` with the export's float32 rounding, for every
 * distance 0..128 in both directions, on the shipped T5 (models/npov-gen) and the zoo's Optimum T5 export.
 */
import { join } from "node:path";
import {
  convertFloatType,
  DataType,
  embeddingGraph,
  encodeModel,
  type GraphProto,
  loadPretrained,
  type ModelProto,
  mergeEncoderDecoder,
  onnx,
  pruneDeadNodes,
  sampleFeeds,
  tensorDims,
  valueInfo,
} from "@npov/autograd";
import * as ort from "onnxruntime-node";
import { describe, expect, it } from "vitest";

const REPO = join(import.meta.dirname, "../../..");
const ZOO = join(REPO, "../shared/models/zoo");
const f32 = Math.fround;

/**
 * Hugging Face T5's `_relative_position_bucket(relative_position, bidirectional, num_buckets, max_distance)`,
 * each float step rounded to float32 as the exported graph (float32 input, float32 constants) does it.
 */
function t5Bucket(relative: number, bidirectional: boolean, numBuckets: number, maxDistance: number): number {
  let n = numBuckets;
  let bucket = 0;
  let distance: number;
  if (bidirectional) {
    n = Math.floor(n / 2);
    if (relative > 0) bucket += n;
    distance = Math.abs(relative);
  } else distance = -Math.min(relative, 0);
  const maxExact = Math.floor(n / 2);
  if (distance < maxExact) return bucket + distance;
  const scaled = f32(
    f32(f32(Math.log(f32(distance / maxExact))) / f32(Math.log(maxDistance / maxExact))) * (n - maxExact),
  );
  return bucket + Math.min(maxExact + Math.trunc(scaled), n - 1);
}

describe("the plain-JS T5 bucket reference", () => {
  it("gives the mathematically exact buckets at the powers of two (log 2 / log 16 = 1/4 exactly)", () => {
    // 32 buckets, max distance 128 (T5's defaults, the shipped model's): 16 per direction, 8 exact.
    const distances = [0, 1, 7, 8, 15, 16, 31, 32, 63, 64, 90, 91, 128, 500];
    expect(distances.map((d) => t5Bucket(-d, true, 32, 128))).toEqual([
      0, 1, 7, 8, 9, 10, 11, 12, 13, 14, 14, 15, 15, 15,
    ]);
    expect([16, 32, 64].map((d) => t5Bucket(d, true, 32, 128))).toEqual([26, 28, 30]);
    // The double chain with the float32-rounded log(16) is what the bug computed: one bucket too low.
    expect(Math.trunc((Math.log(16 / 8) / f32(Math.log(16))) * 8)).toBe(1);
    // Decoder (causal): 32 buckets, 16 exact, log(d / 16) / log(8) * 16; future positions are bucket 0.
    expect([5, 0, -15, -16, -32, -64, -128, -1000].map((d) => t5Bucket(d, false, 32, 128))).toEqual([
      0, 0, 15, 16, 21, 26, 31, 31,
    ]);
  });
});

interface Model {
  name: string;
  dir: string;
}

const MODELS: Model[] = [
  { name: "shipped npov-gen", dir: join(REPO, "models/npov-gen") },
  { name: "zoo optimum-t5", dir: join(ZOO, "optimum-t5") },
];

/** Names of the bucket tensors: indices of Gathers from a [num_buckets, num_heads] initializer. */
function bucketTensors(model: ModelProto, numBuckets: number, heads: number): string[] {
  const graph = model.graph as NonNullable<ModelProto["graph"]>;
  const tables = new Set(
    (graph.initializer ?? [])
      .filter((t) => tensorDims(t).join() === `${numBuckets},${heads}`)
      .map((t) => t.name as string),
  );
  return (graph.node ?? [])
    .filter((n) => n.opType === "Gather" && tables.has(n.input?.[0] ?? ""))
    .map((n) => n.input?.[1] as string);
}

/**
 * Run the part of `model` that computes the named int64 tensors (everything else pruned, as converted)
 * on `length` tokens (encoder and decoder), and return them as [q][k] matrices.
 */
async function runBuckets(model: ModelProto, names: string[], length: number): Promise<number[][][]> {
  const copy = onnx.ModelProto.decode(encodeModel(model));
  const graph = copy.graph as GraphProto;
  graph.output = names.map((name) => valueInfo(name, DataType.INT64));
  pruneDeadNodes(graph);
  const session = await ort.InferenceSession.create(encodeModel(copy), { graphOptimizationLevel: "basic" });
  try {
    const out = await session.run(sampleFeeds(copy, length), names);
    return names.map((name) => {
      const t = out[name] as ort.Tensor;
      const data = Array.from(t.data as BigInt64Array, Number);
      const [q, k] = t.dims.slice(-2) as [number, number];
      expect(data.length).toBe(q * k); // [q, k] or [1, q, k]
      return Array.from({ length: q }, (_, i) => data.slice(i * k, (i + 1) * k));
    });
  } finally {
    await session.release();
  }
}

/** The reference bucket matrix: row q, column k holds the bucket of relative position k - q. */
const referenceMatrix = (length: number, bidirectional: boolean, n: number, max: number) =>
  Array.from({ length }, (_, q) => Array.from({ length }, (_, k) => t5Bucket(k - q, bidirectional, n, max)));

describe.each(MODELS)("float64 T5 buckets equal the float32 reference: $name", ({ dir }) => {
  it("for every distance 0..128, in the encoder (both directions) and the decoder (causal)", async () => {
    const files = await loadPretrained(dir);
    const config = files.config as Record<string, number>;
    const n = config.relative_attention_num_buckets as number;
    const max = config.relative_attention_max_distance as number;
    const heads = config.num_heads as number;
    const length = 129; // distances 0..128
    const g64 = await embeddingGraph(files, { decoderEmbeds: true, precision: "float64" });
    const names = bucketTensors(g64.model, n, heads);
    expect(names).toHaveLength(2); // the encoder's first block and the decoder's (the others reuse them)
    const [encoder, decoder] = await runBuckets(g64.model, names, length);
    const encoderReference = referenceMatrix(length, true, n, max);
    const decoderReference = referenceMatrix(length, false, n, max);
    expect(encoder).toEqual(encoderReference);
    expect(decoder).toEqual(decoderReference);

    // Same buckets as the float32 graph itself.
    const g32 = await embeddingGraph(files, { decoderEmbeds: true });
    expect(await runBuckets(g32.model, bucketTensors(g32.model, n, heads), length)).toEqual([encoder, decoder]);

    // The control: promoting the index arithmetic too (the old conversion) moves buckets at the
    // distances where the float32 chain lands exactly on an integer.
    // (On the merged model before the loss is appended: onnxruntime has no double OneHot.)
    const merged = mergeEncoderDecoder(files.encoder as ModelProto, files.decoder as ModelProto);
    const promoted = convertFloatType(merged, DataType.FLOAT, DataType.DOUBLE, { keepIndexArithmetic: false });
    const [oldEncoder] = await runBuckets(promoted, bucketTensors(promoted, n, heads), length);
    const wrong = (oldEncoder as number[][])[0]?.flatMap((b, k) => (b !== encoderReference[0]?.[k] ? [k] : []));
    const half = n / 2;
    const exact = half / 2;
    // Distances where log(d / exact) / log(max / exact) * (half - exact) is a whole number below the cap.
    const integral = Array.from(
      { length: half - exact },
      (_, j) => exact * (max / exact) ** (j / (half - exact)),
    ).filter((d) => Number.isInteger(d) && d > exact && d < length);
    expect(integral.length).toBeGreaterThan(0);
    for (const d of integral) expect(wrong).toContain(d);
  });
});
