/**
 * An independent reference for salience token maps on the zoo's exported models: central finite
 * differences of d loss_t / d s_i, computed by running the ORIGINAL exported graph (past inputs, If
 * branches, contrib ops and all) directly in onnxruntime-node -- none of npov's graph rewriting is used.
 *
 * Scaling one position's embedding without touching the graph: two rows, (1 + h) e and (1 - h) e, are
 * appended to the word-embedding table, and position i reads one of them instead of its token's row.
 * Only the table initializer changes; every node is the exporter's.
 */
import { join } from "node:path";
import { convertFloatType, DataType, encodeModel, loadModel, type ModelProto, onnx } from "@npov/autograd";
import * as ort from "onnxruntime-node";

type Graph = NonNullable<ModelProto["graph"]>;

/** The model zoo (../shared beside the repository): tiny random-weight models from real exporters. */
export const ZOO = join(import.meta.dirname, "../../../../shared/models/zoo");

/** A small NPOV input the zoo tests share (text only; the zoo's models have random weights). */
export const ZOO_INPUT = {
  topic: "zoos",
  query: "Ban zoos?",
  perspectives: [
    { label: "pro", arguments: [{ text: "Cages harm animals." }] },
    { label: "con", arguments: [{ text: "Zoos save species." }] },
  ],
};

/**
 * The name of the word-embedding table the exporter's graph reads `ids` from (traced independently,
 * into If branches: Optimum's merged decoders look the table up inside both branches).
 */
export function tableOf(graph: Graph, ids: string): string {
  const reach = new Set([ids]);
  const walk = (nodes: Graph["node"]): string | undefined => {
    for (const n of nodes ?? []) {
      const op = n.opType ?? "";
      if (op === "Gather" && reach.has(n.input?.[1] ?? "")) return n.input?.[0] as string;
      if (op === "EmbedLayerNormalization" && reach.has(n.input?.[0] ?? "")) return n.input?.[2] as string;
      if (["Reshape", "Cast", "Unsqueeze", "Flatten"].includes(op) && reach.has(n.input?.[0] ?? ""))
        reach.add(n.output?.[0] as string);
      for (const a of n.attribute ?? []) {
        const found = a.g ? walk(a.g.node) : undefined;
        if (found) return found;
      }
    }
    return undefined;
  };
  const found = walk(graph.node);
  if (found === undefined) throw new Error(`no embedding table for ${ids}`);
  return found;
}

/** The table (as float64 values, with its rows and width) of a graph. */
function readTable(graph: Graph, name: string): { values: Float64Array; rows: number; dim: number; type: number } {
  const t = (graph.initializer ?? []).find((x) => x.name === name);
  if (!t) throw new Error(`table ${name} is not an initializer`);
  const [rows, dim] = (t.dims ?? []).map(Number) as [number, number];
  const raw = t.rawData as Uint8Array;
  const buf = raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength);
  const values = t.dataType === DataType.DOUBLE ? new Float64Array(buf) : Float64Array.from(new Float32Array(buf));
  return { values, rows, dim, type: t.dataType as number };
}

/**
 * Copy `model` with, for each `ids[k]`, two scaled copies of its row appended: rows `rows + 2k` ((1 + h) e)
 * and `rows + 2k + 1` ((1 - h) e). One table serves every position, so each graph is loaded once.
 */
function withScaledRows(model: ModelProto, name: string, ids: number[], h: number): ModelProto {
  const copy = onnx.ModelProto.decode(encodeModel(model));
  const graph = copy.graph as Graph;
  const { values, rows, dim, type } = readTable(graph, name);
  const total = rows + 2 * ids.length;
  const out = type === DataType.DOUBLE ? new Float64Array(total * dim) : new Float32Array(total * dim);
  out.set(values);
  ids.forEach((id, k) => {
    for (let j = 0; j < dim; j++) {
      out[(rows + 2 * k) * dim + j] = (1 + h) * (values[id * dim + j] as number);
      out[(rows + 2 * k + 1) * dim + j] = (1 - h) * (values[id * dim + j] as number);
    }
  });
  const t = (graph.initializer ?? []).find((x) => x.name === name) as NonNullable<Graph["initializer"]>[number];
  t.dims = [total, dim];
  t.rawData = new Uint8Array(out.buffer);
  return copy;
}

/** Feeds for a direct run of an exported graph: ids, ones masks, positions, empty past, no-cache branch. */
export function directFeeds(
  graph: Graph,
  ids: number[],
  float: "float32" | "float64",
  extra: Record<string, ort.Tensor> = {},
): Record<string, ort.Tensor> {
  const feeds: Record<string, ort.Tensor> = {};
  const s = ids.length;
  for (const v of graph.input ?? []) {
    const name = v.name ?? "";
    if (extra[name]) {
      feeds[name] = extra[name] as ort.Tensor;
      continue;
    }
    const tt = v.type?.tensorType;
    const int32 = tt?.elemType === DataType.INT32;
    const ints = (values: number[], dims: number[]) =>
      int32
        ? new ort.Tensor("int32", Int32Array.from(values), dims)
        : new ort.Tensor("int64", BigInt64Array.from(values, BigInt), dims);
    if (name === "input_ids") feeds[name] = ints(ids, [1, s]);
    else if (/attention_mask$/.test(name)) feeds[name] = ints(new Array(s).fill(1), [1, s]);
    else if (name === "position_ids") feeds[name] = ints([...ids.keys()], [1, s]);
    else if (name === "use_cache_branch") feeds[name] = new ort.Tensor("bool", [false], [1]);
    else if (/^past/.test(name)) {
      const dims = (tt?.shape?.dim ?? []).map((d) =>
        d.dimValue && Number(d.dimValue) > 0 ? Number(d.dimValue) : /batch/.test(d.dimParam ?? "") ? 1 : 0,
      );
      feeds[name] =
        float === "float64"
          ? new ort.Tensor("float64", new Float64Array(0), dims)
          : tt?.elemType === DataType.FLOAT16
            ? new ort.Tensor("float16", new Uint16Array(0), dims)
            : new ort.Tensor("float32", new Float32Array(0), dims);
    } else throw new Error(`no feed for input ${name}`);
  }
  return feeds;
}

/** Per-token losses -log softmax(logits[pos])[label] from a [1, S, V] logits tensor. */
function tokenLosses(logits: ort.Tensor, positions: number[], labels: number[]): number[] {
  const v = logits.dims[2] as number;
  const data = logits.data as Float32Array | Float64Array;
  return positions.map((p, k) => {
    let max = -Infinity;
    for (let j = 0; j < v; j++) max = Math.max(max, data[p * v + j] as number);
    let sum = 0;
    for (let j = 0; j < v; j++) sum += Math.exp((data[p * v + j] as number) - max);
    return -((data[p * v + (labels[k] as number)] as number) - max - Math.log(sum));
  });
}

/** The precision a copy of the original graph can run in: float64 where ORT has double kernels for all its ops. */
export function referencePrecision(model: ModelProto): "float32" | "float64" {
  const ops = new Set((model.graph?.node ?? []).map((n) => `${n.domain ?? ""}:${n.opType}`));
  const float32Only = [...ops].some(
    (o) =>
      o.startsWith("com.microsoft:") ||
      /:(SimplifiedLayerNormalization|DynamicQuantizeLinear|MatMulInteger|DequantizeLinear)$/.test(o),
  );
  return float32Only ? "float32" : "float64";
}

/** A copy in `precision` (fp16 graphs are widened first; fp16 finite differences would be noise). */
export function inPrecision(model: ModelProto, precision: "float32" | "float64"): ModelProto {
  let m = convertFloatType(model, DataType.FLOAT16, DataType.FLOAT);
  if (precision === "float64") m = convertFloatType(m, DataType.FLOAT, DataType.DOUBLE);
  return m;
}

/**
 * Reference token map (rows: prompt then response tokens, columns: response tokens) of a causal LM
 * folder file, by central differences with step `h` on the original graph.
 */
export async function causalReference(
  dir: string,
  file: string,
  promptIds: number[],
  responseIds: number[],
  h: number,
  force?: "float32" | "float64",
): Promise<{ map: number[][]; precision: "float32" | "float64" }> {
  const original = loadModel(join(dir, file));
  const precision = force ?? referencePrecision(original);
  const model = inPrecision(original, precision);
  const graph = model.graph as Graph;
  const table = tableOf(graph, "input_ids");
  const { rows } = readTable(graph, table);
  const ids = [...promptIds, ...responseIds];
  const m = promptIds.length;
  const positions = responseIds.map((_, t) => m + t - 1);
  const scaled = withScaledRows(model, table, ids, h);
  const session = await ort.InferenceSession.create(encodeModel(scaled), { graphOptimizationLevel: "disabled" });
  const run = async (i: number, row: number) => {
    const x = ids.slice();
    x[i] = row;
    const out = await session.run(directFeeds(scaled.graph as Graph, x, precision), ["logits"]);
    return tokenLosses(out.logits as ort.Tensor, positions, responseIds);
  };
  const map: number[][] = [];
  for (let i = 0; i < ids.length; i++) {
    const plus = await run(i, rows + 2 * i);
    const minus = await run(i, rows + 2 * i + 1);
    map.push(plus.map((p, t) => (p - (minus[t] as number)) / (2 * h)));
  }
  await session.release();
  return { map, precision };
}

/**
 * The same for an encoder-decoder folder (encoder file + decoder file, the decoder possibly merged with
 * an If): rows are prompt tokens (encoder inputs) then response tokens (decoder inputs shifted right).
 */
export async function seq2seqReference(
  dir: string,
  encoderFile: string,
  decoderFile: string,
  promptIds: number[],
  responseIds: number[],
  startId: number,
  h: number,
  force?: "float32" | "float64",
): Promise<{ map: number[][]; precision: "float32" | "float64" }> {
  const encOriginal = loadModel(join(dir, encoderFile));
  const decOriginal = loadModel(join(dir, decoderFile));
  const both64 = referencePrecision(encOriginal) === "float64" && referencePrecision(decOriginal) === "float64";
  const precision = force ?? (both64 ? "float64" : "float32");
  const encoder = inPrecision(encOriginal, precision);
  const decoder = inPrecision(decOriginal, precision);
  const encTable = tableOf(encoder.graph as Graph, "input_ids");
  const decTable = tableOf(decoder.graph as Graph, "input_ids");
  const decIds = [startId, ...responseIds.slice(0, -1)];
  const positions = responseIds.map((_, t) => t);
  const encRows = readTable(encoder.graph as Graph, encTable).rows;
  const decRows = readTable(decoder.graph as Graph, decTable).rows;
  const enc = withScaledRows(encoder, encTable, promptIds, h);
  const dec = withScaledRows(decoder, decTable, decIds, h);
  const es = await ort.InferenceSession.create(encodeModel(enc), { graphOptimizationLevel: "disabled" });
  const ds = await ort.InferenceSession.create(encodeModel(dec), { graphOptimizationLevel: "disabled" });
  const encode = async (eIds: number[]) =>
    (await es.run(directFeeds(enc.graph as Graph, eIds, precision))).last_hidden_state as ort.Tensor;
  const losses = async (hidden: ort.Tensor, eLength: number, dIds: number[]) => {
    const mask = new ort.Tensor("int64", new BigInt64Array(eLength).fill(1n), [1, eLength]);
    const out = await ds.run(
      directFeeds(dec.graph as Graph, dIds, precision, { encoder_hidden_states: hidden, encoder_attention_mask: mask }),
      ["logits"],
    );
    return tokenLosses(out.logits as ort.Tensor, positions, responseIds);
  };
  const map: number[][] = [];
  const m = promptIds.length;
  for (let i = 0; i < m; i++) {
    const at = (row: number) => promptIds.map((x, k) => (k === i ? row : x));
    const plus = await losses(await encode(at(encRows + 2 * i)), m, decIds);
    const minus = await losses(await encode(at(encRows + 2 * i + 1)), m, decIds);
    map.push(plus.map((p, t) => (p - (minus[t] as number)) / (2 * h)));
  }
  // Response token r is the decoder input at position r + 1; the last response token is never an input.
  const hidden = await encode(promptIds);
  for (let r = 0; r < responseIds.length; r++) {
    if (r + 1 >= decIds.length) {
      map.push(new Array(responseIds.length).fill(0));
      continue;
    }
    const at = (row: number) => decIds.map((x, k) => (k === r + 1 ? row : x));
    const plus = await losses(hidden, m, at(decRows + 2 * (r + 1)));
    const minus = await losses(hidden, m, at(decRows + 2 * (r + 1) + 1));
    map.push(plus.map((p, t) => (p - (minus[t] as number)) / (2 * h)));
  }
  await es.release();
  await ds.release();
  return { map, precision };
}

/** max |a - b| / max |b|: the error of a map relative to its largest reference entry. */
export function relativeError(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let err = 0;
  let scale = 0;
  for (let k = 0; k < b.length; k++) {
    err = Math.max(err, Math.abs((a[k] as number) - (b[k] as number)));
    scale = Math.max(scale, Math.abs(b[k] as number));
  }
  return err / scale;
}
