/**
 * Split vector-Jacobian products: ONE forward pass at batch 1 whose activations every backward pass
 * reuses, instead of a forward recomputed inside every batched VJP.
 *
 * A language model's per-token loss is `loss_t = head(h_t)` with `h` the input of the LM-head MatMul: the
 * head acts on each position alone, so `d loss_t / d h` is zero except row t, and that row is row t of
 * `d (sum_t loss_t) / d h` -- one head backward at batch 1 gives every seed. The body's backward (from `h`
 * to the input embeddings) then runs at batch k over k seeds, reading the stored batch-1 activations:
 * each one either does not depend on the batch (masks, position biases: fed as is) or is the batch-1 value
 * repeated along its batch axis (Tile in the backward graph, placed just before its first use, so only one
 * layer's tiled activations are alive at a time). Which of the two holds is checked at build time by
 * running the forward at batch 1 and at batch 2 (the batch-1 rows twice); a tensor that is neither (say a
 * shape with the batch size baked in) makes the build fail with {@link SplitVjpError}, and callers keep the
 * recompute path for that model. Tensors the backward only reads the shape of are stored as shapes.
 *
 * The built backward is then simplified with the same probes (see {@link foldReductionAxes} and
 * {@link broadcastSavedTensors}): broadcast reductions get constant axes, and batch-1 activations that only
 * meet the gradient in row-wise ops are broadcast instead of tiled. For the T5 of bench/salience that took
 * the backward from ~2,900 to ~1,000 nodes (a third of them Identities onnxruntime removes) and no copies.
 * The three graphs are loaded with their weights in a temporary external-data file (see weight-file.ts).
 */

import { InvalidValueError, maxOf, NpovError, pushAll } from "@npov/core";
import * as ort from "onnxruntime-node";
import { upgradeOpset } from "./contrib/opset.js";
import { buildGradientGraph } from "./gradient.js";
import { sampleFeeds } from "./probe.js";
import {
  cloneModel,
  DataType,
  type GraphProto,
  type ModelProto,
  makeTensor,
  type NodeProto,
  onnx,
  opsetVersion,
  type TensorProto,
  type ValueInfoProto,
  valueInfo,
  valueInfoShape,
} from "./proto.js";
import { pruneDeadNodes } from "./surgery.js";
import { createWeightFileSession, withWeightFile } from "./weight-file.js";

/** The graph cannot be split into one forward and batched backward passes; `reason` says why. */
export class SplitVjpError extends NpovError {
  readonly reason: string;
  constructor(reason: string) {
    super("SPLIT_VJP", `cannot split the forward from the backward pass: ${reason}.`);
    this.reason = reason;
  }
}

/** Options of {@link buildSplitVjp}. */
export interface SplitVjpOptions {
  /** Per-position loss output (default `token_loss`, see `appendTokenLoss`). */
  loss?: string;
  /** Logits tensor, to find the LM head (default `logits`). */
  logits?: string;
  /** Tensors to differentiate with respect to (the input embeddings). */
  wrt: string[];
  /** The LM head's input `h`; default: found with {@link findLmHeadInput}. */
  head?: string;
  /**
   * Which activations the backward recomputes instead of reading them from the forward pass.
   * `"elementwise"` (default): chains of elementwise ops (decomposed GELU, SiLU) from stored tensors.
   * `"superlinear"`: also every activation whose size grows faster than the sequence length (attention
   * scores and probabilities, [.., s, s]), recomputed layer by layer inside each backward pass from stored
   * tensors that grow at most linearly (queries, keys, masks): the stored activations then grow linearly
   * with the sequence instead of quadratically, for about one more forward pass of attention work per
   * backward pass (selective recomputation, as in Korthikanti et al. 2022, "Reducing Activation
   * Recomputation in Large Transformer Models"). For long inputs; see {@link storedBytesAt}.
   */
  recompute?: "elementwise" | "superlinear";
}

/** A tensor the backward reads from the forward pass. */
export interface SavedTensor {
  /** The backward graph's input name (the forward tensor's name, or `split/shape/...` for shapes). */
  name: string;
  /** `input`: a forward graph input the caller feeds again; `output`: a forward output. */
  source: "input" | "output";
  /** For `input` sources: the forward input's name. */
  input?: string;
  /**
   * Its batch axis (the backward repeats or broadcasts it along this axis to batch k); undefined when it
   * does not depend on the batch.
   */
  tileAxis: number | undefined;
}

/** The graphs of a split VJP and how to wire them. */
export interface SplitVjp {
  /** Batch-1 forward of the body: the model's inputs -> the head input `head` and the saved activations. */
  forward: ModelProto;
  /**
   * The LM head and its backward on selected positions: `head` [1, n, d], `labels` and the loss mask
   * [1, n] -> `headGrad` [1, n, d], row j = d loss_j / d h_j (the head acts on each position alone).
   */
  headModel: ModelProto;
  /** Batch-k backward: saved activations, `upstream` [k, s, d], `batch` -> gradients. */
  backward: ModelProto;
  /** The LM head's input tensor (a forward output, and the head model's input). */
  head: string;
  /** Head model output: d (sum of its losses) / d head. */
  headGrad: string;
  /** Head model inputs besides `head` (labels, loss mask), all [1, n]. */
  headInputs: string[];
  /** Vocabulary size (the head's output width), to bound the head's temporaries. */
  vocab: number;
  /** The tensors the backward reads from the forward pass (or from the forward's inputs). */
  saved: SavedTensor[];
  /** Backward input: the upstream gradient at the head, batch k. */
  upstream: string;
  /** Backward input: int64 [1] holding k. */
  batch: string;
  /** wrt tensor -> backward output with its gradient. */
  gradients: Record<string, string>;
  /** What the backward recomputes (see {@link SplitVjpOptions.recompute}). */
  recompute: "elementwise" | "superlinear";
  /**
   * Bytes of the saved tensors at batch 1 for probe inputs of 3, 5 and 7 tokens, measured at build time:
   * {@link storedBytesAt} extrapolates them to a real length.
   */
  storedBytes: [number, number, number];
}

/** Probe lengths of {@link SplitVjp.storedBytes}: equally spaced, so second differences are exact. */
const GROWTH_LENGTHS = [3, 5, 7] as const;

/**
 * Bytes the forward pass of `split` stores for the backward (at batch 1) for a sequence of `length` tokens
 * (for an encoder-decoder, the longer of its two sequences: the estimate is then an upper bound). Exact for
 * activations whose dims are affine in the length (every transformer activation: [s, d], [h, s, s], ...):
 * the quadratic through the three sizes measured at build time.
 */
export function storedBytesAt(split: Pick<SplitVjp, "storedBytes">, length: number): number {
  // Newton's forward differences through the sizes at the three equally spaced probe lengths.
  const [b0, b1, b2] = split.storedBytes;
  const x = (length - GROWTH_LENGTHS[0]) / (GROWTH_LENGTHS[1] - GROWTH_LENGTHS[0]);
  return Math.max(0, b0 + x * (b1 - b0) + ((x * (x - 1)) / 2) * (b2 - 2 * b1 + b0));
}

const PASSTHROUGH = new Set(["Identity", "Cast", "Reshape", "Squeeze", "Unsqueeze"]);

/**
 * The input `h` of the LM head: walking back from `logits` through Identity/Cast/Reshape/Squeeze/Unsqueeze
 * and bias Adds, the first MatMul or Gemm whose other operand is a 2-D initializer (the head weight).
 * @throws SplitVjpError when there is none (the head is not a plain projection).
 */
export function findLmHeadInput(model: ModelProto, logits = "logits"): string {
  const graph = model.graph as GraphProto;
  const inits = new Map((graph.initializer as TensorProto[]).map((t) => [t.name, t]));
  const producer = new Map<string, NodeProto>();
  for (const n of graph.node as NodeProto[]) for (const o of n.output) producer.set(o, n);
  // A weight: an initializer, or computed from initializers only (a tied head's Transpose of the table).
  const constant = new Set<string>(inits.keys());
  for (const n of graph.node as NodeProto[])
    if (n.input.every((x) => !x || constant.has(x))) for (const o of n.output) constant.add(o);
  const isWeight = (name: string | undefined) =>
    name !== undefined && constant.has(name) && (!inits.has(name) || inits.get(name)?.dims.length === 2);
  let t = logits;
  for (let step = 0; step < 16; step++) {
    const n = producer.get(t);
    if (n === undefined) break;
    const op = n.opType ?? "";
    if (PASSTHROUGH.has(op)) {
      t = n.input[0] as string;
      continue;
    }
    if (op === "Add" && n.input.some((x) => constant.has(x))) {
      t = n.input.find((x) => !constant.has(x)) as string;
      continue;
    }
    if ((op === "MatMul" || op === "Gemm") && isWeight(n.input[1]) && !constant.has(n.input[0] as string))
      return n.input[0] as string;
    break;
  }
  throw new SplitVjpError(`no LM-head projection (MatMul or Gemm by a weight) produces "${logits}"`);
}

type Values = Record<string, ort.Tensor>;

/** Options of a probe session: graph optimizations and weight prepacking off (a probe runs once or twice). */
const PROBE_SESSION: ort.InferenceSession.SessionOptions = {
  graphOptimizationLevel: "disabled",
  logSeverityLevel: 4,
  intraOpNumThreads: 1,
  interOpNumThreads: 1,
  extra: { session: { disable_prepacking: "1" } },
};

/** Run `model` once per feed set (one session) returning the tensors `names` of each run. */
async function runFor(model: ModelProto, names: string[], ...feedSets: Values[]): Promise<Values[]> {
  const copy = cloneModel(model);
  const graph = copy.graph as GraphProto;
  const inputs = new Set((graph.input as ValueInfoProto[]).map((v) => v.name));
  const existing = new Set((graph.output as ValueInfoProto[]).map((o) => o.name));
  const wanted = names.filter((n) => !inputs.has(n));
  for (const n of wanted) if (!existing.has(n)) graph.output.push(valueInfo(n));
  const session = await createWeightFileSession(copy, PROBE_SESSION);
  try {
    const runs: Values[] = [];
    for (const feeds of feedSets) {
      const result = await session.run(feeds, wanted);
      const out: Values = {};
      for (const n of names) out[n] = inputs.has(n) ? (feeds[n] as ort.Tensor) : (result[n] as ort.Tensor);
      runs.push(out);
    }
    return runs;
  } finally {
    await session.release();
  }
}

/** `t` repeated `times` along `axis` (as ONNX Tile does). */
export function tileTensor(t: ort.Tensor, axis: number, times: number): ort.Tensor {
  const dims = t.dims.slice();
  const outer = dims.slice(0, axis).reduce((a, b) => a * b, 1);
  const block = dims.slice(axis).reduce((a, b) => a * b, 1);
  const src = t.data as ArrayLike<unknown> & { subarray(a: number, b: number): ArrayLike<unknown> };
  const Ctor = (t.data as object).constructor as new (n: number) => { set(a: ArrayLike<unknown>, o: number): void };
  const out = new Ctor(outer * block * times);
  for (let o = 0; o < outer; o++)
    for (let r = 0; r < times; r++) out.set(src.subarray(o * block, (o + 1) * block), (o * times + r) * block);
  dims[axis] = (dims[axis] as number) * times;
  return new ort.Tensor(t.type as "float32", out as unknown as Float32Array, dims);
}

function sameValues(a: ort.Tensor, b: ort.Tensor): boolean {
  if (a.type !== b.type || a.dims.length !== b.dims.length || a.dims.some((d, k) => d !== b.dims[k])) return false;
  const x = a.data as ArrayLike<number | bigint>;
  const y = b.data as ArrayLike<number | bigint>;
  if (x.length !== y.length) return false;
  const floating = a.type === "float32" || a.type === "float64" || a.type === "float16";
  let scale = 0;
  if (floating) for (let i = 0; i < x.length; i++) scale = Math.max(scale, Math.abs(x[i] as number));
  for (let i = 0; i < x.length; i++) {
    if (floating) {
      const u = x[i] as number;
      const v = y[i] as number;
      if (Number.isNaN(u) !== Number.isNaN(v)) return false;
      if (!Number.isNaN(u) && Math.abs(u - v) > 1e-4 * (1 + scale)) return false;
    } else if (x[i] !== y[i]) return false;
  }
  return true;
}

/** How a batch-2 value relates to the batch-1 value: same (`null`), tiled along an axis, or neither. */
function batchRelation(one: ort.Tensor, two: ort.Tensor): number | null | undefined {
  if (one.dims.length === two.dims.length && one.dims.every((d, k) => d === two.dims[k]))
    return sameValues(one, two) ? null : undefined;
  if (one.dims.length !== two.dims.length) return undefined;
  const differing = one.dims.map((d, k) => (d === two.dims[k] ? -1 : k)).filter((k) => k >= 0);
  if (differing.length !== 1) return undefined;
  const axis = differing[0] as number;
  if (two.dims[axis] !== 2 * (one.dims[axis] as number)) return undefined;
  return sameValues(tileTensor(one, axis, 2), two) ? axis : undefined;
}

/**
 * Feeds for one example at batch 1 (ids 0, masks 1, floats sin(i + 1); symbolic lengths 4), built from
 * the model's inputs; every input's axis 0 is its batch axis.
 */
export function batchOneFeeds(model: ModelProto, length = 4): Values {
  const feeds = sampleFeeds(model, length);
  const out: Values = {};
  for (const input of model.graph?.input ?? []) {
    const name = input.name ?? "";
    const t = feeds[name];
    if (t === undefined) continue;
    const { shape } = valueInfoShape(input);
    if (shape === undefined || shape.length === 0 || typeof shape[0] === "number") {
      out[name] = t;
      continue;
    }
    const dims = t.dims.slice();
    const rows = dims[0] as number;
    dims[0] = 1;
    const data = t.data as ArrayLike<unknown> & { slice(a: number, b: number): unknown };
    out[name] = new ort.Tensor(t.type as "float32", data.slice(0, data.length / rows) as Float32Array, dims);
  }
  return out;
}

/** The nodes computing `loss` from `head` (the LM head), the inputs and weights they read, and its products. */
interface HeadSubgraph {
  keep: Set<NodeProto>;
  usedInputs: Set<string>;
  usedInits: Set<string>;
  /** Outputs of the head's MatMul/Gemm nodes: the widest (the logits) bounds how many rows one head run takes. */
  products: string[];
}

function headSubgraph(model: ModelProto, head: string, loss: string): HeadSubgraph {
  const graph = model.graph as GraphProto;
  const producer = new Map<string, NodeProto>();
  for (const n of graph.node as NodeProto[]) for (const o of n.output) producer.set(o, n);
  const inits = new Set((graph.initializer as TensorProto[]).map((t) => t.name));
  const inputs = new Set((graph.input as ValueInfoProto[]).map((v) => v.name));
  const keep = new Set<NodeProto>();
  const usedInputs = new Set<string>();
  const usedInits = new Set<string>();
  const stack = [loss];
  const seen = new Set<string>();
  while (stack.length > 0) {
    const t = stack.pop() as string;
    if (seen.has(t) || t === head || t === "") continue;
    seen.add(t);
    if (inits.has(t)) {
      usedInits.add(t);
      continue;
    }
    if (inputs.has(t)) {
      usedInputs.add(t);
      continue;
    }
    const n = producer.get(t);
    if (n === undefined) throw new SplitVjpError(`"${t}" has no producer`);
    keep.add(n);
    pushAll(stack, n.input);
  }
  const products = (graph.node as NodeProto[])
    .filter((n) => keep.has(n) && (n.opType === "MatMul" || n.opType === "Gemm"))
    .map((n) => n.output[0] as string);
  return { keep, usedInputs, usedInits, products };
}

/**
 * The LM head alone (see {@link headSubgraph}), differentiated with respect to `head` with seed ones.
 * `probe` holds `head` and the head's products at batch 1 (from the build's batch probe). Checks that the
 * head acts on each position alone (row j of the result for a subset of rows equals row j for all rows).
 */
async function buildHeadModel(
  model: ModelProto,
  head: string,
  loss: string,
  subgraph: HeadSubgraph,
  probe: Values,
): Promise<{ model: ModelProto; headGrad: string; headInputs: string[]; vocab: number }> {
  const graph = model.graph as GraphProto;
  const inits = new Map((graph.initializer as TensorProto[]).map((t) => [t.name, t]));
  const inputs = new Map((graph.input as ValueInfoProto[]).map((v) => [v.name, v]));
  const { keep, usedInputs, usedInits, products } = subgraph;
  const vocab = maxOf(
    products.map((p) => (probe[p]?.dims.at(-1) as number | undefined) ?? 1),
    1,
  );
  const h = probe[head] as ort.Tensor;
  const headInputs = [...usedInputs];
  for (const name of headInputs) {
    const shape = valueInfoShape(inputs.get(name) as ValueInfoProto).shape ?? [];
    if (shape.length !== 2)
      throw new SplitVjpError(`the LM head's loss reads "${name}", which is not a per-position [batch, seq] input`);
  }
  const sub = onnx.ModelProto.create({
    irVersion: model.irVersion,
    opsetImport: model.opsetImport,
    producerName: "npov split-vjp head",
    graph: {
      name: "lm_head",
      node: (graph.node as NodeProto[]).filter((n) => keep.has(n)),
      initializer: [...usedInits].map((n) => inits.get(n) as TensorProto),
      input: [
        valueInfo(
          head,
          ONNX_TYPE[h.type] ?? DataType.FLOAT,
          h.dims.map((_, k) => (k === h.dims.length - 1 ? (h.dims[k] as number) : `head_d${k}`)),
        ),
        ...headInputs.map((n) => inputs.get(n) as ValueInfoProto),
      ],
      output: (graph.output as ValueInfoProto[]).filter((o) => o.name === loss),
    },
  });
  const differentiated = await buildGradientGraph(sub, { of: loss, wrt: [head], seed: "ones" });
  const headGrad = differentiated.gradients[head] as string;
  const dGraph = differentiated.model.graph as GraphProto;
  dGraph.output = (dGraph.output as ValueInfoProto[]).filter((o) => o.name === headGrad);
  pruneDeadNodes(dGraph);
  // Position-wise check on the probe: rows {1, 3} alone give rows 1 and 3 of the all-rows result.
  const feeds = (rows: number[]): Values => {
    const width = h.dims[2] as number;
    const data = h.data as Float32Array | Float64Array;
    const picked = new (data.constructor as new (n: number) => Float32Array)(rows.length * width);
    rows.forEach((r, j) => {
      picked.set(data.subarray(r * width, (r + 1) * width), j * width);
    });
    const out: Values = { [head]: new ort.Tensor(h.type as "float32", picked, [1, rows.length, width]) };
    const one = batchOneFeeds(model);
    for (const name of headInputs) {
      const t = one[name] as ort.Tensor;
      const src = t.data as Float32Array;
      const vals = new (src.constructor as new (n: number) => Float32Array)(rows.length);
      rows.forEach((r, j) => {
        vals[j] = src[r] as number;
      });
      out[name] = new ort.Tensor(t.type as "float32", vals, [1, rows.length]);
    }
    return out;
  };
  if (h.dims.length !== 3 || h.dims[0] !== 1 || (h.dims[1] as number) < 4)
    throw new SplitVjpError(`the LM head's input "${head}" has dims ${h.dims.join("x")}, not [batch, seq, hidden]`);
  const [allRows, someRows] = (await runFor(differentiated.model, [headGrad], feeds([0, 1, 2, 3]), feeds([1, 3]))) as [
    Values,
    Values,
  ];
  const all = allRows[headGrad] as ort.Tensor;
  const part = someRows[headGrad] as ort.Tensor;
  const width = h.dims[2] as number;
  const rowsOf = (t: ort.Tensor, rows: number[]) => {
    const d = t.data as Float32Array | Float64Array;
    const out = new (d.constructor as new (n: number) => Float32Array)(rows.length * width);
    rows.forEach((r, j) => {
      out.set(d.subarray(r * width, (r + 1) * width), j * width);
    });
    return new ort.Tensor(t.type as "float32", out, [1, rows.length, width]);
  };
  if (!sameValues(rowsOf(all, [1, 3]), part))
    throw new SplitVjpError(`the LM head does not act on each position alone (its loss mixes positions)`);
  return { model: differentiated.model, headGrad, headInputs, vocab };
}

/** Elementwise ops (and Constant) whose outputs the backward may recompute instead of storing. */
const ELEMENTWISE = new Set([
  "Add",
  "Sub",
  "Mul",
  "Div",
  "Pow",
  "Neg",
  "Tanh",
  "Sigmoid",
  "Erf",
  "Exp",
  "Log",
  "Sqrt",
  "Reciprocal",
  "Relu",
  "Cast",
  "Identity",
  "Constant",
]);
const REMAT_DEPTH = 8;

/** Append a one-output node named after its output. */
function pushNode(into: NodeProto[], opType: string, input: string[], output: string): void {
  into.push(onnx.NodeProto.create({ opType, input, output: [output], name: `${output}/node` }));
}

/** Where each forward tensor comes from, in the order the forward graph lists its nodes. */
interface ForwardIndex {
  producer: Map<string, NodeProto>;
  inits: Set<string>;
  /** `names` sorted by their producers' positions (inputs and initializers first). */
  tensorsInOrder(names: Iterable<string>): string[];
  /** `nodes` in forward order. */
  nodesInOrder(nodes: Iterable<NodeProto>): NodeProto[];
}

function forwardIndex(model: ModelProto): ForwardIndex {
  const graph = model.graph as GraphProto;
  const producer = new Map<string, NodeProto>();
  const order = new Map<NodeProto, number>();
  (graph.node as NodeProto[]).forEach((n, i) => {
    order.set(n, i);
    for (const o of n.output) producer.set(o, n);
  });
  const position = (t: string) => order.get(producer.get(t) as NodeProto) ?? -1;
  return {
    producer,
    inits: new Set((graph.initializer as TensorProto[]).map((t) => t.name)),
    tensorsInOrder: (names) => [...names].sort((a, b) => position(a) - position(b)),
    nodesInOrder: (nodes) => [...nodes].sort((x, y) => (order.get(x) as number) - (order.get(y) as number)),
  };
}

/**
 * Which of the tensors the backward reads can be recomputed from the others: a tensor produced by a
 * chain of at most {@link REMAT_DEPTH} elementwise ops whose leaves are constants or other stored tensors
 * (decomposed GELU and SiLU store 3-4 same-sized tensors per layer that are functions of one of them).
 * Returns tensor -> the forward nodes computing it (in forward order), for tensors worth recomputing.
 */
function planRemat(
  model: ModelProto,
  candidates: readonly string[],
  never: ReadonlySet<string>,
): Map<string, NodeProto[]> {
  const nodes = (model.graph as GraphProto).node as NodeProto[];
  const { producer, inits, tensorsInOrder, nodesInOrder } = forwardIndex(model);
  const constant = new Set<string>(inits);
  for (const n of nodes) if (n.input.every((x) => !x || constant.has(x))) for (const o of n.output) constant.add(o);
  const kept = new Set(candidates.filter((c) => never.has(c)));
  const plan = new Map<string, NodeProto[]>();
  // chainOf: the nodes computing t from kept tensors and constants, or undefined.
  const chainOf = (t: string, depth: number, into: Set<NodeProto>): boolean => {
    if (!t || inits.has(t) || kept.has(t)) return true;
    if (never.has(t) || depth > REMAT_DEPTH) return false;
    const p = producer.get(t);
    if (p === undefined || !ELEMENTWISE.has(p.opType ?? "") || p.output.length !== 1) return false;
    if (constant.has(t) && p.opType !== "Constant" && p.input.some((x) => x && !inits.has(x) && !constant.has(x)))
      return false;
    for (const x of p.input) if (!chainOf(x, depth + 1, into)) return false;
    into.add(p);
    return true;
  };
  // In forward order: a candidate is recomputed if an elementwise chain computes it from constants and
  // tensors stored so far (earlier candidates that could not be recomputed); otherwise it is stored.
  for (const c of tensorsInOrder(candidates.filter((c) => !kept.has(c)))) {
    const p = producer.get(c);
    const into = new Set<NodeProto>();
    if (p !== undefined && ELEMENTWISE.has(p.opType ?? "") && p.input.every((x) => chainOf(x, 1, into))) {
      into.add(p);
      plan.set(c, nodesInOrder(into));
    } else kept.add(c);
  }
  return plan;
}

/** The most forward nodes one recomputed activation may take: beyond it (a model-wide prefix), it is stored. */
const MAX_RECOMPUTED_NODES = 256;

/**
 * The `"superlinear"` plan (see {@link SplitVjpOptions.recompute}): for each tensor of `recompute` (in
 * forward order), the forward nodes computing it from `stored` tensors, forward `inputs` and initializers
 * -- any single-output op, at most {@link MAX_RECOMPUTED_NODES} -- or none (then it is stored itself). Returns the plan
 * and the forward inputs the chains read (the backward must be fed them).
 */
function planSuperlinear(
  model: ModelProto,
  recompute: readonly string[],
  stored: ReadonlySet<string>,
  inputs: ReadonlySet<string>,
): { plan: Map<string, NodeProto[]>; inputLeaves: Set<string> } {
  const { producer, inits, tensorsInOrder, nodesInOrder } = forwardIndex(model);
  const kept = new Set(stored);
  const plan = new Map<string, NodeProto[]>();
  const inputLeaves = new Set<string>();
  for (const target of tensorsInOrder(recompute)) {
    const into = new Set<NodeProto>();
    const leaves = new Set<string>();
    // Iterative walk (a deep graph must not overflow the stack): every tensor on the way back to leaves.
    const stack = [target];
    let ok = true;
    while (stack.length > 0 && ok) {
      const t = stack.pop() as string;
      if (!t || inits.has(t) || (t !== target && kept.has(t))) continue;
      if (inputs.has(t)) {
        leaves.add(t);
        continue;
      }
      const p = producer.get(t);
      // A node with several outputs would define its other outputs again in the backward, where one may
      // already be a stored input (onnxruntime: "Duplicate definition"): such chains are not recomputed.
      if (p === undefined || into.size >= MAX_RECOMPUTED_NODES || p.output.filter((o) => o).length > 1) ok = false;
      else if (!into.has(p)) {
        into.add(p);
        pushAll(stack, p.input);
      }
    }
    if (!ok) {
      kept.add(target);
      continue;
    }
    for (const leaf of leaves) inputLeaves.add(leaf);
    plan.set(target, nodesInOrder(into));
  }
  return { plan, inputLeaves };
}

/**
 * Build the forward and backward graphs of a split VJP of `loss` (a per-position loss) with respect to
 * `wrt`, for a model whose inputs all have batch axis 0 (see the module comment).
 * @throws SplitVjpError when the head or an activation does not fit the scheme.
 */
export async function buildSplitVjp(model: ModelProto, options: SplitVjpOptions): Promise<SplitVjp> {
  // Every probe session of the build reads the weights from one file, written once.
  return withWeightFile(() => buildSplit(model, options));
}

async function buildSplit(given: ModelProto, options: SplitVjpOptions): Promise<SplitVjp> {
  // The forward graph must be the one the gradient graph starts with: raise an old graph to opset 13
  // first, as buildGradientGraph would (the later raise to 16 for scatter rules changes no node).
  const model = opsetVersion(given) < 13 ? upgradeOpset(given, 13) : given;
  const loss = options.loss ?? "token_loss";
  const head = options.head ?? findLmHeadInput(model, options.logits ?? "logits");
  const headSub = headSubgraph(model, head, loss);
  const body = await buildGradientGraph(model, { of: head, wrt: options.wrt, seed: "input" });
  const upstream = body.upstream[head] as string;
  const baseGraph = model.graph as GraphProto;
  const bodyGraph = body.model.graph as GraphProto;
  const nForward = body.forward.nodes;
  const nInit = body.forward.initializers;
  const backwardNodes = (bodyGraph.node as NodeProto[]).slice(nForward);
  const backwardInits = (bodyGraph.initializer as TensorProto[]).slice(nInit);
  const forwardInits = new Map((baseGraph.initializer as TensorProto[]).map((t) => [t.name, t]));
  const forwardInputs = new Set((baseGraph.input as ValueInfoProto[]).map((v) => v.name));

  // What the backward reads from the forward: initializers (copied), and tensors (saved).
  const local = new Set<string>([upstream, ...backwardInits.map((t) => t.name)]);
  for (const n of backwardNodes) for (const o of n.output) local.add(o);
  const usedInits = new Set<string>();
  const consumers = new Map<string, NodeProto[]>();
  for (const n of backwardNodes)
    for (const x of n.input) {
      if (!x || local.has(x)) continue;
      if (forwardInits.has(x)) {
        usedInits.add(x);
        continue;
      }
      const list = consumers.get(x) ?? [];
      list.push(n);
      consumers.set(x, list);
    }
  const shapeOnly = (n: NodeProto) => (n.opType === "Shape" && (n.attribute ?? []).length === 0) || n.opType === "Size";
  const referenced = [...consumers.keys()];

  // Probe: batch 1 vs batch 2 (batch-1 rows twice).
  const one = batchOneFeeds(model);
  const two: Values = {};
  for (const [name, t] of Object.entries(one)) {
    const input = (baseGraph.input as ValueInfoProto[]).find((v) => v.name === name);
    const batchDim = input ? valueInfoShape(input).shape?.[0] : undefined;
    two[name] = typeof batchDim === "number" ? t : tileTensor(t, 0, 2);
  }
  const probeNames = [...referenced, head];
  const dimNames = (name: string, rank: number) => Array.from({ length: rank }, (_, k) => `${name}_d${k}`);
  // The same batch-1 run gives the LM head's probe (its input and products); with the runs at 7 and 10
  // tokens it tells which tensors grow faster than the sequence (the superlinear plan).
  const [v1, v2, v7, v10] = (await runFor(
    model,
    [...new Set([...probeNames, ...headSub.products])],
    one,
    two,
    batchOneFeeds(model, 7),
    batchOneFeeds(model, 10),
  )) as [Values, Values, Values, Values];
  const growthRuns = [v1, v7, v10]; // lengths 4, 7, 10: equally spaced
  const { model: headModel, headGrad, headInputs, vocab } = await buildHeadModel(model, head, loss, headSub, v1);
  const relation = new Map<string, number | null>();
  for (const name of probeNames) {
    const a = v1[name];
    const b = v2[name];
    if (a === undefined || b === undefined) throw new SplitVjpError(`the forward pass does not compute "${name}"`);
    const r = batchRelation(a, b);
    if (r === undefined)
      throw new SplitVjpError(
        `the backward reads "${name}" (dims ${a.dims.join("x")} at batch 1, ${b.dims.join("x")} at batch 2), which is neither the same for every batch nor the batch-1 value repeated along one axis`,
      );
    relation.set(name, r);
  }
  const headAxis = relation.get(head);
  const headDims = v1[head]?.dims ?? [];
  if (headAxis !== 0 || headDims.length < 2 || headDims[0] !== 1)
    throw new SplitVjpError(`the LM head's input "${head}" (dims ${headDims.join("x")}) must have batch axis 0`);

  // Forward graph: the body, with the head input and the saved tensors as outputs.
  const forward = cloneModel(model);
  const fGraph = forward.graph as GraphProto;
  const elemOf = (name: string) => {
    const t = v1[name] as ort.Tensor;
    return ONNX_TYPE[t.type] ?? DataType.FLOAT;
  };
  const fOutputs: ValueInfoProto[] = [valueInfo(head, elemOf(head), dimNames(head, headDims.length))];
  const saved: SavedTensor[] = [];
  const bInputs: ValueInfoProto[] = [];
  const bNodes: NodeProto[] = [];
  const bInits: TensorProto[] = [...backwardInits, ...[...usedInits].map((n) => forwardInits.get(n) as TensorProto)];
  const batch = "split/batch";
  const repeats = new Map<string, string>();
  const repeatsFor = (rank: number, axis: number): string => {
    const key = `${rank}:${axis}`;
    let name = repeats.get(key);
    if (name === undefined) {
      name = `split/repeats_${rank}_${axis}`;
      const before = `split/ones_${axis}`;
      const after = `split/ones_${rank - axis - 1}`;
      for (const [n, len] of [
        [before, axis],
        [after, rank - axis - 1],
      ] as const)
        if (!bInits.some((t) => t.name === n)) bInits.push(makeTensor(n, new BigInt64Array(len).fill(1n), [len]));
      bNodes.push(
        onnx.NodeProto.create({
          opType: "Concat",
          input: [before, batch, after],
          output: [name],
          name: `${name}/node`,
          attribute: [{ name: "axis", type: onnx.AttributeProto.AttributeType.INT, i: 0 }],
        }),
      );
      repeats.set(key, name);
    }
    return name;
  };
  // Scheduling: onnxruntime may run a Tile as soon as its input exists (at the start of the backward), which
  // would keep every tiled activation alive at once (peak ~3x the stored activations per seed). Each
  // Tile's repeats therefore depend on the newest gradient tensor before its first reader (k + 0 * its
  // first dim), so the Tile runs when the backward reaches that layer and its copy dies soon after.
  const newestGradient = new Map<NodeProto, string>();
  {
    const flowing = new Set<string>([upstream]);
    let newest = upstream;
    for (const n of backwardNodes) {
      newestGradient.set(n, newest);
      if (n.input.some((x) => flowing.has(x))) {
        for (const o of n.output) if (o) flowing.add(o);
        if (n.output[0]) newest = n.output[0];
      }
    }
  }
  if (!bInits.some((t) => t.name === "split/zero_1d"))
    bInits.push(makeTensor("split/zero_1d", BigInt64Array.of(0n), [1]));
  if (!bInits.some((t) => t.name === "split/one_1d"))
    bInits.push(makeTensor("split/one_1d", BigInt64Array.of(1n), [1]));
  const timed = new Map<string, string>();
  const zeros = new Map<string, string>();
  /** An int64 [1] zero computed from `grad`'s shape: adding it makes a value wait for `grad`. */
  const timedZero = (grad: string, into: NodeProto[]): string => {
    let name = zeros.get(grad);
    if (name !== undefined) return name;
    const prefix = `split/timed_zero_${zeros.size}`;
    pushNode(into, "Shape", [grad], `${prefix}/shape`);
    pushNode(into, "Slice", [`${prefix}/shape`, "split/zero_1d", "split/one_1d"], `${prefix}/first`);
    pushNode(into, "Mul", [`${prefix}/first`, "split/zero_1d"], `${prefix}/zero`);
    name = `${prefix}/zero`;
    zeros.set(grad, name);
    return name;
  };
  /** Repeats for a Tile placed before `reader`: the batch size, made to depend on the newest gradient. */
  const timedRepeats = (rank: number, axis: number, reader: NodeProto, into: NodeProto[]): string => {
    const grad = newestGradient.get(reader) ?? upstream;
    const key = `${grad}|${rank}:${axis}`;
    let name = timed.get(key);
    if (name !== undefined) return name;
    const prefix = `split/timed_${timed.size}`;
    pushNode(into, "Add", [repeatsFor(rank, axis), timedZero(grad, into)], `${prefix}/repeats`);
    name = `${prefix}/repeats`;
    timed.set(key, name);
    return name;
  };
  const remat = planRemat(
    model,
    referenced.filter((n) => !(consumers.get(n) as NodeProto[]).every(shapeOnly)),
    new Set([head, ...forwardInputs]),
  );
  const recompute = options.recompute ?? "elementwise";
  // Backward node positions: chains are emitted in the order the backward first reads their tensors, so a
  // forward node two chains share is emitted (and timed) for the earlier one.
  const position = new Map<NodeProto, number>(backwardNodes.map((n, i) => [n, i]));
  const firstRead = (name: string) => position.get((consumers.get(name) as NodeProto[])[0] as NodeProto) ?? 0;
  let inputLeaves = new Set<string>();
  if (recompute === "superlinear") {
    const elements = (t: ort.Tensor | undefined) => (t === undefined ? 0 : t.dims.reduce((a, b) => a * b, 1));
    const superlinear = (name: string) => {
      const [e4, e7, e10] = growthRuns.map((r) => elements(r[name]));
      return (e10 as number) - 2 * (e7 as number) + (e4 as number) > 0;
    };
    const readOnlyShape = (name: string) => (consumers.get(name) as NodeProto[]).every(shapeOnly);
    const targets = referenced.filter(
      (n) => !remat.has(n) && !readOnlyShape(n) && n !== head && !forwardInputs.has(n) && superlinear(n),
    );
    const targetSet = new Set(targets);
    // Tensors whose shape only the backward reads are stored as shapes: no chain may start from them.
    const stored = new Set(referenced.filter((n) => !remat.has(n) && !targetSet.has(n) && !readOnlyShape(n)));
    stored.add(head);
    const planned = planSuperlinear(model, targets, stored, forwardInputs);
    for (const [name, chain] of planned.plan) remat.set(name, chain);
    inputLeaves = planned.inputLeaves;
    referenced.sort((a, b) => firstRead(a) - firstRead(b));
  }
  /**
   * With the superlinear plan, a chain's reads of stored tensors go through a Reshape whose shape depends
   * on the newest gradient before its reader (as the Tiles' repeats do): onnxruntime would otherwise run
   * every layer's recomputation as soon as the backward starts and keep them all alive at once.
   */
  const timedReads = new Map<string, string>();
  const timedRead = (x: string, reader: NodeProto, into: NodeProto[]): string => {
    const grad = newestGradient.get(reader) ?? upstream;
    const key = `${grad}|${x}`;
    let name = timedReads.get(key);
    if (name !== undefined) return name;
    name = `split/timed_read_${timedReads.size}`;
    const zero = timedZero(grad, into);
    pushNode(into, "Shape", [x], `${name}/shape`);
    pushNode(into, "Add", [`${name}/shape`, zero], `${name}/timed_shape`);
    pushNode(into, "Reshape", [x, `${name}/timed_shape`], name);
    timedReads.set(key, name);
    return name;
  };
  const chainLeaves = new Set<string>();
  const recomputedOutputs = new Set<string>();
  const bInitNames = new Set(bInits.map((t) => t.name));
  const emitted = new Set<NodeProto>();
  let rematCount = 0;
  const fNodes = fGraph.node as NodeProto[];
  // Rewiring of the backward's reads, and nodes to place before the first reader.
  const rename = new Map<string, string>();
  const before = new Map<NodeProto, NodeProto[]>();
  const replaced = new Map<NodeProto, NodeProto>();
  let shapeCount = 0;
  for (const name of referenced) {
    const readers = consumers.get(name) as NodeProto[];
    const axis = relation.get(name) ?? undefined;
    const rank = (v1[name] as ort.Tensor).dims.length;
    if (readers.every(shapeOnly)) {
      // Only its shape is read: store the batch-1 shape, scale the batch axis by k.
      const shapeName = `split/shape_${shapeCount++}`;
      fNodes.push(
        onnx.NodeProto.create({ opType: "Shape", input: [name], output: [shapeName], name: `${shapeName}/node` }),
      );
      fOutputs.push(valueInfo(shapeName, DataType.INT64, [rank]));
      saved.push({ name: shapeName, source: "output", tileAxis: undefined });
      bInputs.push(valueInfo(shapeName, DataType.INT64, [rank]));
      let shapeK = shapeName;
      const prelude: NodeProto[] = [];
      if (axis !== undefined) {
        shapeK = `${shapeName}/k`;
        prelude.push(
          onnx.NodeProto.create({
            opType: "Mul",
            input: [shapeName, repeatsFor(rank, axis)],
            output: [shapeK],
            name: `${shapeK}/node`,
          }),
        );
      }
      for (const r of readers) {
        const node =
          r.opType === "Shape"
            ? onnx.NodeProto.create({ opType: "Identity", input: [shapeK], output: r.output, name: r.name })
            : onnx.NodeProto.create({
                opType: "ReduceProd",
                input: [shapeK],
                output: r.output,
                name: r.name,
                attribute: [{ name: "keepdims", type: onnx.AttributeProto.AttributeType.INT, i: 0 }],
              });
        replaced.set(r, node);
      }
      before.set(readers[0] as NodeProto, [...(before.get(readers[0] as NodeProto) ?? []), ...prelude]);
      continue;
    }
    const chain = remat.get(name);
    if (chain !== undefined) {
      // Recomputed in the backward (at batch 1) from stored tensors instead of stored.
      const reader = readers[0] as NodeProto;
      const prelude = before.get(reader) ?? [];
      const emitChain = (nodes: readonly NodeProto[]): void => {
        for (const n of nodes) {
          if (emitted.has(n)) continue;
          emitted.add(n);
          // An input that is itself recomputed, by a chain whose reader comes later: that chain runs first,
          // here (read as a stored tensor it would be produced after its reader -- a cycle).
          for (const x of n.input) {
            const inner = x ? remat.get(x) : undefined;
            if (inner !== undefined && !recomputedOutputs.has(x)) emitChain(inner);
          }
          const input =
            recompute === "superlinear"
              ? n.input.map((x) => {
                  if (!x || forwardInits.has(x) || recomputedOutputs.has(x)) return x;
                  chainLeaves.add(x);
                  return timedRead(x, reader, prelude);
                })
              : n.input.slice();
          for (const o of n.output) if (o) recomputedOutputs.add(o);
          prelude.push(
            onnx.NodeProto.create({
              ...n,
              // Numbered: exported graphs may leave node names empty, and names must be unique.
              name: `split/remat/${rematCount++}/${n.name ?? ""}`,
              input,
              output: n.output.slice(),
            }),
          );
          for (const x of n.input)
            if (x && forwardInits.has(x) && !bInitNames.has(x)) {
              bInits.push(forwardInits.get(x) as TensorProto);
              bInitNames.add(x);
            }
        }
      };
      emitChain(chain);
      before.set(reader, prelude);
    }
    const isInput = forwardInputs.has(name);
    if (chain === undefined)
      saved.push(
        isInput ? { name, source: "input", input: name, tileAxis: axis } : { name, source: "output", tileAxis: axis },
      );
    if (!isInput && chain === undefined) fOutputs.push(valueInfo(name, elemOf(name), dimNames(name, rank)));
    if (chain === undefined) bInputs.push(valueInfo(name, elemOf(name), dimNames(name, rank)));
    if (axis !== undefined) {
      const tiled = `${name}/tiled`;
      rename.set(name, tiled);
      const reader = readers[0] as NodeProto;
      const prelude = before.get(reader) ?? [];
      const tile = onnx.NodeProto.create({
        opType: "Tile",
        input: [name, timedRepeats(rank, axis, reader, prelude)],
        output: [tiled],
        name: `${tiled}/node`,
      });
      prelude.push(tile);
      before.set(reader, prelude);
    }
  }
  // Forward inputs the recomputation reads that the backward did not read already: fed as they are (the
  // chains run at batch 1).
  for (const name of inputLeaves) {
    if (!chainLeaves.has(name) || saved.some((t) => t.name === name)) continue;
    const info = (baseGraph.input as ValueInfoProto[]).find((v) => v.name === name) as ValueInfoProto;
    saved.push({ name, source: "input", input: name, tileAxis: undefined });
    bInputs.push(onnx.ValueInfoProto.create({ ...info, name }));
  }
  fGraph.output = fOutputs;
  pruneDeadNodes(fGraph);

  // Backward graph: the body's backward nodes, Tiles before first reads, shapes from the saved shapes.
  const ordered: NodeProto[] = [...bNodes];
  for (const n of backwardNodes) {
    pushAll(ordered, before.get(n) ?? []);
    const node = replaced.get(n) ?? n;
    node.input = node.input.map((x) => rename.get(x) ?? x);
    ordered.push(node);
  }
  const gradientOutputs = (bodyGraph.output as ValueInfoProto[]).filter((o) =>
    Object.values(body.gradients).includes(o.name),
  );
  const upstreamInfo = (bodyGraph.input as ValueInfoProto[]).find((v) => v.name === upstream) as ValueInfoProto;
  const bGraph = onnx.GraphProto.create({
    name: "split_backward",
    node: ordered,
    initializer: bInits,
    input: [...bInputs, upstreamInfo, valueInfo(batch, DataType.INT64, [1])],
    output: gradientOutputs,
  });
  pruneDeadNodes(bGraph as GraphProto);
  const backward = onnx.ModelProto.create({
    // The gradient graph's opset: accumulating scatters need 16 where the forward graph may have 13.
    irVersion: body.model.irVersion,
    opsetImport: body.model.opsetImport,
    producerName: "npov split-vjp",
    graph: bGraph,
  });
  const { feeds: probeFeeds, savedBytes } = await backwardProbeFeeds(model, forward, backward, {
    head,
    saved,
    upstream,
    batch,
  });
  const gradientNames = Object.values(body.gradients);
  const reference = await foldReductionAxes(backward, probeFeeds, gradientNames);
  await broadcastSavedTensors(backward, probeFeeds, reference, upstream, gradientNames);
  // Saved tensors the pruned backward no longer reads are dropped (pruneDeadNodes removed their inputs).
  const kept = new Set((bGraph.input as ValueInfoProto[]).map((v) => v.name));
  // Saved tensors that are forward inputs must not be forward outputs too; the head input may be saved.
  // Outputs the pruned backward no longer reads go too: a graph output's buffer cannot be reused by
  // onnxruntime's memory planner, so each would stay allocated for the whole forward pass.
  fGraph.output = (fGraph.output as ValueInfoProto[]).filter(
    (o, i, all) => all.findIndex((x) => x.name === o.name) === i && (o.name === head || kept.has(o.name)),
  );
  pruneDeadNodes(fGraph);
  const finalSaved = saved.filter((s) => kept.has(s.name));
  return {
    forward,
    headModel,
    backward,
    head,
    headGrad,
    headInputs,
    vocab,
    saved: finalSaved,
    upstream,
    batch,
    gradients: body.gradients,
    recompute,
    storedBytes: [0, 1, 2].map((i) => finalSaved.reduce((sum, t) => sum + (savedBytes.get(t.name)?.[i] ?? 0), 0)) as [
      number,
      number,
      number,
    ],
  };
}

/**
 * Backward feeds at two sizes (lengths 3 and 5, batches 2 and 3): the forward's saved tensors and a
 * made-up upstream gradient, for the build-time checks of the backward graph below.
 */
async function backwardProbeFeeds(
  model: ModelProto,
  forward: ModelProto,
  backward: ModelProto,
  wiring: { head: string; saved: readonly SavedTensor[]; upstream: string; batch: string },
): Promise<{ feeds: Values[]; savedBytes: Map<string, [number, number, number]> }> {
  const fInputs = new Set(((forward.graph as GraphProto).input as ValueInfoProto[]).map((v) => v.name));
  const outputs = ((forward.graph as GraphProto).output as ValueInfoProto[]).map((o) => o.name);
  const sizes = [
    { length: GROWTH_LENGTHS[0], k: 2 },
    { length: GROWTH_LENGTHS[1], k: 3 },
  ];
  const backwardFeeds: Values[] = [];
  // The third length only measures the saved tensors' sizes (see storedBytesAt).
  const modelFeeds = GROWTH_LENGTHS.map((length) => batchOneFeeds(model, length));
  const forwardFeeds = modelFeeds.map((all) => Object.fromEntries(Object.entries(all).filter(([n]) => fInputs.has(n))));
  const forwardRuns = await runFor(forward, outputs, ...forwardFeeds);
  const savedBytes = new Map<string, [number, number, number]>();
  for (const s of wiring.saved) {
    const bytes = GROWTH_LENGTHS.map((_, i) => {
      const t = s.source === "input" ? modelFeeds[i]?.[s.input as string] : forwardRuns[i]?.[s.name];
      return t === undefined ? 0 : (t.data as ArrayBufferView).byteLength;
    });
    savedBytes.set(s.name, bytes as [number, number, number]);
  }
  for (const [i, { k }] of sizes.entries()) {
    const all = modelFeeds[i] as Values;
    const f = forwardRuns[i] as Values;
    const h = f[wiring.head] as ort.Tensor;
    const dims = [k, ...h.dims.slice(1)];
    const size = dims.reduce((a, b) => a * b, 1);
    const up = h.type === "float64" ? new Float64Array(size) : new Float32Array(size);
    for (let i = 0; i < size; i++) up[i] = Math.sin(i + 1);
    const b: Values = {
      [wiring.upstream]: new ort.Tensor(h.type as "float32", up as Float32Array, dims),
      [wiring.batch]: new ort.Tensor("int64", BigInt64Array.of(BigInt(k)), [1]),
    };
    for (const s of wiring.saved) {
      const t = s.source === "input" ? all[s.input as string] : f[s.name];
      if (t !== undefined) b[s.name] = t;
    }
    backwardFeeds.push(b);
  }
  const bInputs = new Set(((backward.graph as GraphProto).input as ValueInfoProto[]).map((v) => v.name));
  for (const feeds of backwardFeeds) for (const name of Object.keys(feeds)) if (!bInputs.has(name)) delete feeds[name];
  return { feeds: backwardFeeds, savedBytes };
}

async function foldReductionAxes(
  backward: ModelProto,
  probeFeeds: readonly Values[],
  gradients: readonly string[],
): Promise<Values[]> {
  const bGraph = backward.graph as GraphProto;
  const producer = new Map<string, NodeProto>();
  for (const n of bGraph.node as NodeProto[]) for (const o of n.output) producer.set(o, n);
  const attr = (n: NodeProto, name: string, fallback: number) => {
    const a = (n.attribute ?? []).find((x) => x.name === name);
    return a === undefined ? fallback : Number(a.i ?? fallback);
  };
  // ReduceSum(g, Reshape(NonZero(mask), ...)) with keepdims and noop_with_empty_axes, as sumTo emits it.
  const reductions = (bGraph.node as NodeProto[]).filter((n) => {
    if (n.opType !== "ReduceSum" || attr(n, "keepdims", 1) !== 1 || attr(n, "noop_with_empty_axes", 0) !== 1)
      return false;
    const reshape = producer.get(n.input[1] ?? "");
    return reshape?.opType === "Reshape" && producer.get(reshape.input[0] ?? "")?.opType === "NonZero";
  });
  const axesNames = [...new Set(reductions.map((n) => n.input[1] as string))];
  // The same runs give the gradients the later simplifications are checked against.
  const runs = await runFor(backward, [...axesNames, ...gradients], ...probeFeeds);
  if (reductions.length === 0) return runs;
  const folded = new Map<string, bigint[]>();
  for (const name of axesNames) {
    const [a, b] = runs.map((r) => r[name]);
    if (a === undefined || b === undefined) continue;
    const x = [...(a.data as BigInt64Array)];
    const y = [...(b.data as BigInt64Array)];
    if (x.length === y.length && x.every((v, i) => v === y[i])) folded.set(name, x);
  }
  const inits = bGraph.initializer as TensorProto[];
  bGraph.node = (bGraph.node as NodeProto[]).map((n) => {
    const axes = reductions.includes(n) ? folded.get(n.input[1] as string) : undefined;
    if (axes === undefined) return n;
    if (axes.length === 0)
      return onnx.NodeProto.create({
        opType: "Identity",
        input: [n.input[0] as string],
        output: n.output,
        name: n.name,
      });
    const constant = `${n.input[1]}/folded`;
    if (!inits.some((t) => t.name === constant))
      inits.push(makeTensor(constant, BigInt64Array.from(axes), [axes.length]));
    n.input[1] = constant;
    return n;
  });
  pruneDeadNodes(bGraph);
  return runs;
}

/** Ops that act on each batch row alone (elementwise, broadcasting) or move axes without mixing them. */
const ROW_WISE = new Set([
  "Add",
  "Sub",
  "Mul",
  "Div",
  "Pow",
  "Neg",
  "Abs",
  "Exp",
  "Log",
  "Sqrt",
  "Reciprocal",
  "Tanh",
  "Sigmoid",
  "Relu",
  "Erf",
  "Cast",
  "Identity",
  "Where",
  "Greater",
  "Less",
  "GreaterOrEqual",
  "LessOrEqual",
  "Equal",
  "And",
  "Or",
  "Not",
  "Max",
  "Min",
  "Sum",
  "Transpose",
  "MatMul",
]);

/**
 * Saved activations broadcast instead of tiled. The backward repeats each batch-dependent saved tensor k
 * times (a Tile) so every op sees batch k; but most readers multiply it with the gradient (Mul, Div, Where,
 * a MatMul over batch dimensions), where a batch-1 tensor broadcasts to the same values with no copy. Each
 * Tile whose output reaches the gradient only through such row-wise ops is removed (its batch-1 input read
 * directly); the result is checked on the probe feeds against the tiled graph (same gradients, same dims)
 * and kept only if equal. At k = 1 the Tiles were plain copies of every saved tensor per run; at k > 1
 * they were the backward's largest temporaries.
 */
async function broadcastSavedTensors(
  backward: ModelProto,
  probeFeeds: readonly Values[],
  tiled: readonly Values[],
  upstream: string,
  gradients: readonly string[],
): Promise<void> {
  const graph = backward.graph as GraphProto;
  const nodes = graph.node as NodeProto[];
  const consumers = new Map<string, NodeProto[]>();
  for (const n of nodes)
    for (const x of n.input) {
      const list = consumers.get(x) ?? [];
      list.push(n);
      consumers.set(x, list);
    }
  // Tensors with batch k: the upstream gradient and what is computed from it (shapes excepted).
  const batched = new Set<string>([upstream]);
  for (const n of nodes)
    if (n.opType !== "Shape" && n.opType !== "Size" && n.input.some((x) => batched.has(x)))
      for (const o of n.output) if (o) batched.add(o);
  const outputs = new Set(gradients);
  const removable = nodes.filter((tile) => {
    if (tile.opType !== "Tile" || !(tile.output[0] ?? "").endsWith("/tiled")) return false;
    // Every path from the tiled tensor must meet a batched tensor, through row-wise ops only.
    const stack = [tile.output[0] as string];
    const seen = new Set<string>();
    while (stack.length > 0) {
      const t = stack.pop() as string;
      if (seen.has(t)) continue;
      seen.add(t);
      if (outputs.has(t)) return false;
      for (const c of consumers.get(t) ?? []) {
        if (!ROW_WISE.has(c.opType ?? "")) return false;
        if (!c.input.some((x) => x !== t && batched.has(x))) pushAll(stack, c.output);
      }
    }
    return true;
  });
  if (removable.length === 0) return;
  const rename = new Map(removable.map((n) => [n.output[0] as string, n.input[0] as string]));
  const candidate = cloneModel(backward);
  const cGraph = candidate.graph as GraphProto;
  cGraph.node = (cGraph.node as NodeProto[])
    .filter((n) => !rename.has(n.output[0] ?? ""))
    .map((n) => (n.input.some((x) => rename.has(x)) ? { ...n, input: n.input.map((x) => rename.get(x) ?? x) } : n))
    .map((n) => onnx.NodeProto.create(n));
  pruneDeadNodes(cGraph);
  // The probe feeds may hold inputs the pruned candidate no longer reads.
  const cInputs = new Set((cGraph.input as ValueInfoProto[]).map((v) => v.name));
  const candidateFeeds = probeFeeds.map((f) => Object.fromEntries(Object.entries(f).filter(([n]) => cInputs.has(n))));
  let broadcast: Values[];
  try {
    broadcast = await runFor(candidate, [...gradients], ...candidateFeeds);
  } catch {
    return; // onnxruntime refused the broadcast graph (shapes that only match when tiled): keep the Tiles
  }
  for (let r = 0; r < tiled.length; r++)
    for (const g of gradients) {
      const a = tiled[r]?.[g];
      const b = broadcast[r]?.[g];
      if (a === undefined || b === undefined || a.dims.join() !== b.dims.join()) return;
      const x = a.data as Float32Array | Float64Array;
      const y = b.data as Float32Array | Float64Array;
      let scale = 0;
      for (let i = 0; i < x.length; i++) scale = Math.max(scale, Math.abs(x[i] as number));
      const tolerance = (x instanceof Float64Array ? 1e-12 : 1e-5) * scale;
      for (let i = 0; i < x.length; i++) if (!(Math.abs((x[i] as number) - (y[i] as number)) <= tolerance)) return;
    }
  graph.node = cGraph.node;
  graph.initializer = cGraph.initializer;
  graph.input = cGraph.input;
}

const ONNX_TYPE: Record<string, number> = {
  float32: DataType.FLOAT,
  float64: DataType.DOUBLE,
  float16: DataType.FLOAT16,
  int64: DataType.INT64,
  int32: DataType.INT32,
  int8: DataType.INT8,
  uint8: DataType.UINT8,
  bool: DataType.BOOL,
};

/** The saved activations of one forward pass, and the head gradients of its seed positions. */
export interface SplitForwardRun {
  /** The head input at batch 1 ([1, s, d]). */
  head: ort.Tensor;
  /** Seed position -> d loss_p / d h_p (one row of width d). */
  seeds: Map<number, Float32Array | Float64Array>;
  /** Backward input name -> value. */
  saved: Values;
  /** Bytes of all saved activations. */
  bytes: number;
  /**
   * Bytes of the saved activations that depend on the batch: a proxy for a backward pass's working memory
   * per seed (k seeds: about k times this), for choosing k.
   */
  tiledBytes: number;
  /**
   * Upstream buffers of finished backward passes (all zero), reused by the next ones of this run: a fresh
   * [k, s, d] buffer per pass was garbage V8 collected late (bench/salience, 1,024 tokens: 257 x 1 MB).
   */
  spareUpstream: Array<Float32Array | Float64Array>;
}

/**
 * Extra options of the LM-head session. Its graph reads the (tied) vocabulary projection twice: as exported
 * (logits = h W^T) and transposed back for its backward (dh = dlogits W). Constant folding would store that
 * transposed copy and prepacking a packed copy of each: 3-4 copies of the largest weight. Without them
 * onnxruntime fuses the transpose into the product (FusedMatMul) and both products read the one mapped copy;
 * the head runs once per example on the seed rows only, so the packing it skips costs little.
 */
const HEAD_SESSION_EXTRA = {
  session: { disable_prepacking: "1" },
  optimization: { disable_specified_optimizers: "ConstantFolding" },
};

/** Byte budget of the head's [n, vocab] temporaries per head run (positions are processed in chunks). */
const HEAD_MEMORY = 8 * 1024 * 1024;

/** A split VJP loaded in three onnxruntime sessions (forward, LM head, backward). */
export class SplitVjpSession {
  private readonly backwardInputs: ReadonlySet<string>;

  private constructor(
    readonly split: SplitVjp,
    private readonly forwardSession: ort.InferenceSession,
    private readonly headSession: ort.InferenceSession,
    private readonly backwardSession: ort.InferenceSession,
  ) {
    this.backwardInputs = new Set(backwardSession.inputNames);
  }

  /**
   * Load the three graphs of `split` (a failure releases the sessions already made). The weights reach
   * onnxruntime through a temporary external-data file (see `WeightFile`), so each session holds one copy
   * of the weights it reads instead of the several that parsing model bytes leaves behind. The backward
   * session always uses onnxruntime's CPU memory arena, whatever `sessionOptions` says: its many small
   * per-node tensors, allocated with malloc one by one, fragmented the heap by up to 100 MB on a first
   * batched run (bench/salience, 64 GPT-2 tokens), while the arena reuses its blocks across runs.
   */
  static async create(
    split: SplitVjp,
    sessionOptions: ort.InferenceSession.SessionOptions = {},
  ): Promise<SplitVjpSession> {
    const made: ort.InferenceSession[] = [];
    // One weight file for the three sessions: the surrounding useWeightFile's (weights moved there at
    // build time), else a temporary one deleted once the sessions exist.
    try {
      await withWeightFile(async () => {
        made.push(await createWeightFileSession(split.forward, sessionOptions));
        made.push(
          await createWeightFileSession(split.headModel, {
            ...sessionOptions,
            extra: { ...sessionOptions.extra, ...HEAD_SESSION_EXTRA },
          }),
        );
        made.push(await createWeightFileSession(split.backward, { ...sessionOptions, enableCpuMemArena: true }));
      });
    } catch (error) {
      for (const s of made) await s.release();
      throw error;
    }
    return new SplitVjpSession(
      split,
      made[0] as ort.InferenceSession,
      made[1] as ort.InferenceSession,
      made[2] as ort.InferenceSession,
    );
  }

  /**
   * One forward pass at batch 1, then the head gradients of the seed `positions` (the loss at position p
   * reads `feeds[labels][p]` and the mask's value at p; the head runs on those rows only, in chunks).
   */
  async forward(feeds: Values, positions: readonly number[]): Promise<SplitForwardRun> {
    const outputs = this.split.saved.filter((s) => s.source === "output").map((s) => s.name);
    const want = [...new Set([this.split.head, ...outputs])];
    const own: Values = {};
    for (const name of this.forwardSession.inputNames) {
      const t = feeds[name];
      if (t === undefined) throw new InvalidValueError(`feeds.${name}`, "is missing (a forward input).");
      own[name] = t;
    }
    const r = await this.forwardSession.run(own, want);
    const saved: Values = {};
    let bytes = 0;
    let tiledBytes = 0;
    for (const s of this.split.saved) {
      const t = s.source === "input" ? feeds[s.input as string] : r[s.name];
      if (t === undefined)
        throw new InvalidValueError(`feeds.${s.input ?? s.name}`, "is missing (read by the backward).");
      saved[s.name] = t;
      const size = (t.data as ArrayBufferView).byteLength;
      bytes += size;
      if (s.tileAxis !== undefined) tiledBytes += size;
    }
    const head = r[this.split.head] as ort.Tensor;
    const width = head.dims[2] as number;
    const rows = head.dims[1] as number;
    const h = head.data as Float32Array | Float64Array;
    const seeds = new Map<number, Float32Array | Float64Array>();
    const unique = [...new Set(positions)];
    for (const p of unique)
      if (!Number.isInteger(p) || p < 0 || p >= rows)
        throw new InvalidValueError("positions", `seed position ${p} is outside the head's ${rows} rows.`);
    const chunk = Math.max(1, Math.floor(HEAD_MEMORY / (4 * h.BYTES_PER_ELEMENT * Math.max(1, this.split.vocab))));
    for (let c0 = 0; c0 < unique.length; c0 += chunk) {
      const part = unique.slice(c0, c0 + chunk);
      const picked = new (h.constructor as new (n: number) => Float32Array)(part.length * width);
      part.forEach((p, j) => {
        picked.set(h.subarray(p * width, (p + 1) * width), j * width);
      });
      const headFeeds: Values = {
        [this.split.head]: new ort.Tensor(head.type as "float32", picked, [1, part.length, width]),
      };
      for (const name of this.split.headInputs) {
        const t = feeds[name];
        if (t === undefined) throw new InvalidValueError(`feeds.${name}`, "is missing (an LM-head input).");
        const src = t.data as Float32Array | Float64Array | BigInt64Array;
        const vals = new (src.constructor as new (n: number) => Float32Array)(part.length);
        part.forEach((p, j) => {
          (vals as unknown as Array<number | bigint>)[j] = src[p] as number | bigint;
        });
        headFeeds[name] = new ort.Tensor(t.type as "float32", vals, [1, part.length]);
      }
      const g = (await this.headSession.run(headFeeds, [this.split.headGrad]))[this.split.headGrad] as ort.Tensor;
      const gd = g.data as Float32Array | Float64Array;
      part.forEach((p, j) => {
        seeds.set(p, gd.slice(j * width, (j + 1) * width));
      });
    }
    return { head, seeds, saved, bytes, tiledBytes, spareUpstream: [] };
  }

  /**
   * Batched backward over `positions.length` seeds: seed b is d loss_p / d head with p = positions[b]
   * (each p must have been a seed position of `run`). Returns wrt -> gradient [k, ...].
   */
  async backward(run: SplitForwardRun, positions: readonly number[]): Promise<Values> {
    const dims = run.head.dims;
    const width = dims[2] as number;
    const block = (dims[1] as number) * width;
    const k = positions.length;
    if (k === 0) throw new InvalidValueError("positions", "is empty: a backward pass needs at least one seed.");
    for (const p of positions)
      if (!run.seeds.has(p))
        throw new InvalidValueError("positions", `position ${p} was not a seed position of the forward run.`);
    // A spare buffer of this size if one is free (concurrent passes of one run each take their own).
    const spare = run.spareUpstream.findIndex((b) => b.length === k * block);
    const up =
      spare >= 0
        ? (run.spareUpstream.splice(spare, 1)[0] as Float32Array | Float64Array)
        : run.head.type === "float64"
          ? new Float64Array(k * block)
          : new Float32Array(k * block);
    positions.forEach((p, b) => {
      up.set(run.seeds.get(p) as Float32Array | Float64Array, b * block + p * width);
    });
    const feeds: Values = {
      ...run.saved,
      [this.split.upstream]: new ort.Tensor(run.head.type as "float32", up as Float32Array, [
        k,
        dims[1] as number,
        width,
      ]),
    };
    // Read only by Tiles of saved tensors; a backward that broadcasts every one of them has no such input.
    if (this.backwardInputs.has(this.split.batch))
      feeds[this.split.batch] = new ort.Tensor("int64", BigInt64Array.of(BigInt(k)), [1]);
    const names = Object.entries(this.split.gradients);
    let r: Values;
    try {
      r = await this.backwardSession.run(
        feeds,
        names.map(([, o]) => o),
      );
    } finally {
      // Zero again (only the rows set above) and hand the buffer to the run's next pass.
      positions.forEach((p, b) => {
        up.fill(0, b * block + p * width, b * block + (p + 1) * width);
      });
      run.spareUpstream.push(up);
    }
    const out: Values = {};
    for (const [wrt, o] of names) out[wrt] = r[o] as ort.Tensor;
    return out;
  }

  /** Release the three onnxruntime sessions (all of them, even when one release fails). */
  async release(): Promise<void> {
    try {
      await this.forwardSession.release();
    } finally {
      try {
        await this.headSession.release();
      } finally {
        await this.backwardSession.release();
      }
    }
  }
}
