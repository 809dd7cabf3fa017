/**
 * An independent reference for encoder salience on the encoder zoo's exported classifiers: central finite
 * differences of one label's logit, computed by running the ORIGINAL exported graph directly in
 * onnxruntime-node (only widened to float64 where asked, and there float64 Erf is written in standard ops,
 * as onnxruntime has no float64 Erf kernel) -- none of npov's normalisation or gradient code is used.
 *
 * Two derivatives per token, both by appending rows to the word-embedding table and pointing the token at
 * them (only the table initializer changes):
 * - gradient x input: rows (1 + h) e and (1 - h) e, so (L+ - L-) / 2h = dot(dL/de, e);
 * - gradient coordinates: rows e + h u_j and e - h u_j for a few coordinates j.
 */
import { join } from "node:path";
import { encodeModel, loadModel, type ModelProto, onnx } from "@npov/autograd";
import * as ort from "onnxruntime-node";
import { inPrecision, referencePrecision, tableOf } from "../../autograd/test/zoo-reference.js";

type Graph = NonNullable<ModelProto["graph"]>;

/** The encoder zoo (../shared beside the repository): tiny random-weight NLI classifiers from real exporters. */
export const ENCODER_ZOO = join(import.meta.dirname, "../../../../shared/models/encoder-zoo");

function readTable(graph: Graph, name: string): { values: Float64Array; rows: number; dim: number; type: number } {
  const t = (graph.initializer ?? []).find((x) => x.name === name);
  if (!t) throw new Error(`table ${name} is not an initializer`);
  const [rows, dim] = (t.dims ?? []).map(Number) as [number, number];
  const raw = t.rawData as Uint8Array;
  const buf = raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength);
  const values = t.dataType === 11 ? new Float64Array(buf) : Float64Array.from(new Float32Array(buf));
  return { values, rows, dim, type: t.dataType as number };
}

/** The original graph with `extra` rows appended to its word-embedding table. */
function withRows(model: ModelProto, name: string, extra: Float64Array[]): { model: ModelProto; first: number } {
  const copy = onnx.ModelProto.decode(encodeModel(model));
  const graph = copy.graph as Graph;
  const { values, rows, dim, type } = readTable(graph, name);
  const total = rows + extra.length;
  const out = type === 11 ? new Float64Array(total * dim) : new Float32Array(total * dim);
  out.set(values);
  extra.forEach((row, k) => {
    out.set(row, (rows + k) * dim);
  });
  const t = (graph.initializer ?? []).find((x) => x.name === name) as NonNullable<Graph["initializer"]>[number];
  t.dims = [total, dim];
  t.rawData = new Uint8Array(out.buffer);
  return { model: copy, first: rows };
}

/** Feeds of a direct run: the pair's ids, ones mask, token types when the graph reads them. */
function feeds(graph: Graph, ids: number[], types: number[]): Record<string, ort.Tensor> {
  const n = ids.length;
  const out: Record<string, ort.Tensor> = {};
  const int64 = (v: number[]) => new ort.Tensor("int64", BigInt64Array.from(v, BigInt), [1, n]);
  for (const v of graph.input ?? []) {
    if (v.name === "input_ids") out.input_ids = int64(ids);
    else if (v.name === "attention_mask") out.attention_mask = int64(new Array(n).fill(1));
    else if (v.name === "token_type_ids") out.token_type_ids = int64(types);
    else throw new Error(`no feed for input ${v.name}`);
  }
  return out;
}

/** Logits of the original graph file for one pair (float16 outputs widened). */
export async function originalLogits(dir: string, file: string, ids: number[], types: number[]): Promise<number[]> {
  const model = loadModel(join(dir, file));
  const session = await ort.InferenceSession.create(join(dir, file), { logSeverityLevel: 4 });
  try {
    const r = await session.run(feeds(model.graph as Graph, ids, types), ["logits"]);
    const t = r.logits as ort.Tensor;
    return t.type === "float16"
      ? Array.from(t.data as Uint16Array, (h) => halfToNumber(h))
      : Array.from(t.data as Float32Array);
  } finally {
    await session.release();
  }
}

function halfToNumber(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exponent = (h >> 10) & 0x1f;
  const fraction = h & 0x3ff;
  if (exponent === 0) return sign * 2 ** -14 * (fraction / 1024);
  return sign * 2 ** (exponent - 15) * (1 + fraction / 1024);
}

/**
 * Reference derivatives of logit `label` for the pair `ids` (token types `types`) of an encoder-zoo file:
 * gradient x input per token, and the gradient at `coordinates` ([token, j] pairs), by central differences
 * with step `h`, in float64 when every op of the file has a float64 kernel (else float32).
 */
export async function encoderReference(
  dir: string,
  file: string,
  ids: number[],
  types: number[],
  label: number,
  h: number,
  coordinates: Array<[number, number]>,
): Promise<{ gradXInput: number[]; gradient: number[]; precision: "float32" | "float64" }> {
  const original = loadModel(join(dir, file));
  const precision = referencePrecision(original);
  const model = inPrecision(original, precision);
  const table = tableOf(model.graph as Graph, "input_ids");
  const { values, dim } = readTable(model.graph as Graph, table);
  const rowOf = (id: number) => values.subarray(id * dim, (id + 1) * dim);
  const extra: Float64Array[] = [];
  for (const id of ids) {
    const e = rowOf(id);
    extra.push(
      e.map((v) => (1 + h) * v),
      e.map((v) => (1 - h) * v),
    );
  }
  for (const [token, j] of coordinates) {
    const e = rowOf(ids[token] as number);
    const plus = Float64Array.from(e);
    const minus = Float64Array.from(e);
    plus[j] = (plus[j] as number) + h;
    minus[j] = (minus[j] as number) - h;
    extra.push(plus, minus);
  }
  const { model: scaled, first } = withRows(model, table, extra);
  const session = await ort.InferenceSession.create(encodeModel(scaled), {
    graphOptimizationLevel: "disabled",
    logSeverityLevel: 4,
  });
  const logitWith = async (token: number, row: number) => {
    const x = ids.slice();
    x[token] = row;
    const r = await session.run(feeds(scaled.graph as Graph, x, types), ["logits"]);
    return (r.logits as ort.Tensor).data[label] as number;
  };
  const gradXInput: number[] = [];
  for (let t = 0; t < ids.length; t++)
    gradXInput.push(((await logitWith(t, first + 2 * t)) - (await logitWith(t, first + 2 * t + 1))) / (2 * h));
  const gradient: number[] = [];
  for (const [k, [token]] of coordinates.entries()) {
    const at = first + 2 * ids.length + 2 * k;
    gradient.push(((await logitWith(token, at)) - (await logitWith(token, at + 1))) / (2 * h));
  }
  await session.release();
  return { gradXInput, gradient, precision };
}
