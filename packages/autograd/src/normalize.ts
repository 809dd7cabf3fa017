/**
 * Graph normalisation before differentiation: small passes that turn the graphs real exporters write
 * (Optimum with and without the legacy layout, transformers.js's quantization script, the onnxruntime-genai
 * builder, the onnxruntime transformer optimizer) into one canonical, differentiable form:
 *
 * - `inlineIf`: an `If` on a known boolean input (Optimum's merged decoders branch on `use_cache_branch`)
 *   is replaced by the nodes of the chosen branch;
 * - `removePastInputs`: past key/value inputs become empty tensors built in the graph and `present*`
 *   outputs are dropped, so the graph is the no-cache forward pass;
 * - `int64Inputs`: int32 ids, masks and positions become int64 inputs cast inside the graph;
 * - `foldQuantizedEmbeddings`: `DequantizeLinear(Gather(quantized table, ids))` becomes
 *   `Gather(float table, ids)` (transformers.js's q8/uint8 exports quantize the embedding this way);
 * - `canonicalInputDims`: masks get the sequence dimension of their ids (Optimum names the mask dim
 *   `past_sequence_length + 1`, true only for one-token decoding steps).
 *
 * Every pass works on a copy and names what it adds with fresh names, so a name already taken in the
 * graph (genai graphs call the embedding output `inputs_embeds`) never collides.
 */
import { NpovError, pushAll } from "@npov/core";
import { decomposeContribOps, upgradeOpset } from "./contrib/index.js";
import { dequantizeModel, dequantizeValues } from "./dequantize.js";
import { GradientGraphError } from "./errors.js";
import { GraphBuilder } from "./graph.js";
import {
  attr,
  attrInt,
  cloneModel,
  DataType,
  type GraphProto,
  type IGraphProto,
  type ModelProto,
  makeTensor,
  type NodeProto,
  onnx,
  opsetVersion,
  type TensorProto,
  tensorData,
  tensorDims,
  type ValueInfoProto,
  valueInfo,
  valueInfoShape,
} from "./proto.js";
import { pruneDeadNodes } from "./surgery.js";

/** Inputs that carry token ids or positions (int64 in the canonical form). */
export const ID_INPUTS = [
  "input_ids",
  "decoder_input_ids",
  "attention_mask",
  "decoder_attention_mask",
  "encoder_attention_mask",
  "position_ids",
  "token_type_ids",
] as const;

/** Names of key/value-cache inputs: `past_key_values.0.key`, `past_0`, `past`, `past_key_0`, ... */
export function isPastInput(name: string): boolean {
  return /^past(_|\.|$)/.test(name);
}

/** A key/value-cache input: named like one and a float tensor of rank >= 3 (not `past_sequence_length`). */
function isCacheTensor(v: ValueInfoProto): boolean {
  const { elemType, shape } = valueInfoShape(v);
  const float =
    elemType === DataType.FLOAT || elemType === DataType.FLOAT16 || elemType === DataType.DOUBLE || elemType === 16;
  return isPastInput(v.name) && float && (shape?.length ?? 0) >= 3;
}

/** Names of key/value-cache outputs: `present.0.key`, `present_0`, `present`, ... */
export function isPresentOutput(name: string): boolean {
  return /^present(_|\.|$)/.test(name);
}

function copyModel(model: ModelProto): { model: ModelProto; graph: GraphProto } {
  const copy = cloneModel(model);
  return { model: copy, graph: copy.graph as GraphProto };
}

/** Every tensor name a (sub)graph produces or declares, including those of nested subgraphs. */
function namesDeep(graph: IGraphProto, into = new Set<string>()): Set<string> {
  for (const v of graph.input ?? []) into.add(v.name ?? "");
  for (const t of graph.initializer ?? []) into.add(t.name ?? "");
  for (const n of graph.node ?? []) {
    for (const o of n.output ?? []) into.add(o);
    for (const a of n.attribute ?? []) {
      if (a.g) namesDeep(a.g, into);
      for (const g of a.graphs ?? []) namesDeep(g, into);
    }
  }
  return into;
}

/** Rename every use and definition of tensors in `graph` (and nested subgraphs) through `rename`. */
function renameDeep(graph: IGraphProto, rename: (name: string) => string): void {
  for (const t of graph.initializer ?? []) t.name = rename(t.name ?? "");
  for (const v of graph.output ?? []) v.name = rename(v.name ?? "");
  for (const n of graph.node ?? []) {
    n.input = (n.input ?? []).map((x) => (x ? rename(x) : x));
    n.output = (n.output ?? []).map((x) => (x ? rename(x) : x));
    for (const a of n.attribute ?? []) {
      if (a.g) renameDeep(a.g, rename);
      for (const g of a.graphs ?? []) renameDeep(g, rename);
    }
  }
}

/**
 * Replace every `If` whose condition is a graph input named in `values` (or a constant) by the nodes of
 * the branch that value selects. Names the branch defines are renamed where they collide with the outer
 * graph; branch outputs feed the If's outputs through Identity nodes. Returns the number of Ifs inlined.
 */
export function inlineIf(model: ModelProto, values: Record<string, boolean>): { model: ModelProto; inlined: number } {
  const { model: copy, graph } = copyModel(model);
  const constants = new Map<string, boolean>(Object.entries(values));
  for (const t of graph.initializer as TensorProto[])
    if (t.dataType === DataType.BOOL && tensorDims(t).reduce((a, b) => a * b, 1) === 1)
      constants.set(t.name, Number((tensorData(t) as Uint8Array)[0]) !== 0);
  let inlined = 0;
  for (;;) {
    const nodes = graph.node as NodeProto[];
    const index = nodes.findIndex((n) => n.opType === "If" && constants.has(n.input[0] as string));
    if (index < 0) break;
    const node = nodes[index] as NodeProto;
    const branch = attr(node, constants.get(node.input[0] as string) ? "then_branch" : "else_branch")?.g;
    if (!branch) throw new GradientGraphError(`If node "${node.name}" has no branch graph.`);
    const sub = onnx.GraphProto.decode(onnx.GraphProto.encode(branch).finish());
    const outer = namesDeep(graph);
    const local = new Set<string>([
      ...(sub.initializer ?? []).map((t) => t.name ?? ""),
      ...(sub.node ?? []).flatMap((n) => n.output ?? []),
    ]);
    const b = new GraphBuilder(graph, `${node.name || "If"}/inlined`);
    const renamed = new Map<string, string>();
    for (const name of local) if (name && outer.has(name)) renamed.set(name, b.fresh(name.replace(/^.*\//, "")));
    renameDeep(sub, (name) => renamed.get(name) ?? name);
    const replacement: NodeProto[] = [...(sub.node as NodeProto[])];
    (sub.output as ValueInfoProto[]).forEach((o, k) => {
      const target = node.output[k];
      if (target) replacement.push(onnx.NodeProto.create({ opType: "Identity", input: [o.name], output: [target] }));
    });
    graph.node = [...nodes.slice(0, index), ...replacement, ...nodes.slice(index + 1)];
    pushAll(graph.initializer, sub.initializer as TensorProto[]);
    inlined++;
  }
  pruneDeadNodes(graph);
  return { model: copy, inlined };
}

/** The input whose first dimension gives the batch size (ids, else embeddings, else the first input). */
function batchSource(graph: GraphProto): string {
  const names = (graph.input as ValueInfoProto[]).map((v) => v.name);
  return (
    ["input_ids", "decoder_input_ids", "inputs_embeds", "attention_mask"].find((n) => names.includes(n)) ??
    (names.find((n) => !isPastInput(n)) as string)
  );
}

/**
 * The no-cache forward graph: every past key/value input becomes an empty tensor (its past-length
 * dimension 0, its batch dimension read from the ids) and `present*` outputs are removed.
 */
export function removePastInputs(model: ModelProto): { model: ModelProto; removed: string[] } {
  const { model: copy, graph } = copyModel(model);
  const past = (graph.input as ValueInfoProto[]).filter(isCacheTensor);
  graph.output = (graph.output as ValueInfoProto[]).filter((o) => !isPresentOutput(o.name));
  if (past.length === 0) {
    pruneDeadNodes(graph);
    return { model: copy, removed: [] };
  }
  const b = new GraphBuilder(graph, "no_cache");
  const source = batchSource(graph);
  let batch: string | undefined;
  const head: NodeProto[] = [];
  for (const v of past) {
    const { elemType, shape } = valueInfoShape(v);
    if (shape === undefined) throw new GradientGraphError(`past input "${v.name}" has no declared shape.`);
    const pieces = shape.map((d) => {
      if (typeof d === "number") return b.ints([d]);
      if (d !== undefined && /past/i.test(d)) return b.ints([0]);
      if (d !== undefined && /batch/i.test(d)) {
        batch ??= b.op("Slice", [b.op("Shape", [source]), b.ints([0]), b.ints([1])]);
        return batch;
      }
      throw new GradientGraphError(
        `past input "${v.name}" has dimension "${d ?? "?"}" that is neither a batch, a past length nor a number.`,
      );
    });
    const value = onnx.TensorProto.create({
      name: "value",
      dataType: elemType,
      dims: [1],
      rawData: new Uint8Array(elemType === DataType.DOUBLE ? 8 : elemType === DataType.FLOAT ? 4 : 2),
    });
    b.node("ConstantOfShape", [b.op("Concat", pieces, { axis: 0 })], [v.name], { value });
  }
  pushAll(head, b.nodes);
  pushAll(graph.initializer, b.initializers);
  graph.node = [...head, ...(graph.node as NodeProto[])];
  graph.input = (graph.input as ValueInfoProto[]).filter((v) => !isCacheTensor(v));
  pruneDeadNodes(graph);
  return { model: copy, removed: past.map((v) => v.name) };
}

/** Make int32 id/mask/position inputs int64, casting them to int32 inside the graph where they are read. */
export function int64Inputs(model: ModelProto): { model: ModelProto; converted: string[] } {
  const { model: copy, graph } = copyModel(model);
  const converted: string[] = [];
  const b = new GraphBuilder(graph, "int64_inputs");
  for (const v of graph.input as ValueInfoProto[]) {
    if (!(ID_INPUTS as readonly string[]).includes(v.name)) continue;
    const tt = v.type?.tensorType;
    if (!tt || tt.elemType !== DataType.INT32) continue;
    const int32 = b.fresh(`${v.name}_int32`);
    for (const n of graph.node as NodeProto[]) n.input = n.input.map((x) => (x === v.name ? int32 : x));
    for (const n of graph.node as NodeProto[])
      for (const a of n.attribute ?? []) if (a.g) renameDeep(a.g, (x) => (x === v.name ? int32 : x));
    b.node("Cast", [v.name], [int32], { to: DataType.INT32 });
    tt.elemType = DataType.INT64;
    converted.push(v.name);
  }
  graph.node = [...b.nodes, ...(graph.node as NodeProto[])];
  pushAll(graph.initializer, b.initializers);
  return { model: copy, converted };
}

/** Ops that only move elements around, so elementwise dequantization commutes with them. */
const LAYOUT_OPS = new Set(["Transpose", "Reshape", "Squeeze", "Unsqueeze", "Flatten", "Identity"]);

/**
 * `DequantizeLinear(Gather(q, ids), scale, zeroPoint)` with a constant table `q` -- possibly with layout
 * ops (Transpose, Reshape, ...) between the Gather and the DequantizeLinear, as in T5's relative-position
 * bias -- becomes a Gather of the dequantized float table: exact, since dequantization is elementwise and
 * the Gather and layout ops only select and move elements. Per-tensor scales fold through any chain;
 * per-axis scales only along the table's last axis with no layout op in between.
 */
export function foldQuantizedEmbeddings(model: ModelProto): { model: ModelProto; folded: number } {
  const { model: copy, graph } = copyModel(model);
  const inits = new Map((graph.initializer as TensorProto[]).map((t) => [t.name, t]));
  const producer = new Map<string, NodeProto>();
  const uses = new Map<string, number>();
  for (const n of graph.node as NodeProto[]) {
    for (const o of n.output) producer.set(o, n);
    for (const x of n.input) if (x) uses.set(x, (uses.get(x) ?? 0) + 1);
  }
  const numbers = (t: TensorProto) => Array.from(tensorData(t) as ArrayLike<number | bigint>, Number);
  let folded = 0;
  const replaced = new Map<NodeProto, NodeProto>();
  for (const n of graph.node as NodeProto[]) {
    if (n.opType !== "DequantizeLinear") continue;
    const scale = inits.get(n.input[1] as string);
    const zp = n.input[2] ? inits.get(n.input[2]) : undefined;
    if (scale === undefined || (n.input[2] && zp === undefined)) continue;
    // Walk back through single-use layout ops to the Gather.
    let tensor = n.input[0] as string;
    let node = producer.get(tensor);
    let layoutOps = 0;
    while (node !== undefined && LAYOUT_OPS.has(node.opType) && uses.get(tensor) === 1) {
      tensor = node.input[0] as string;
      node = producer.get(tensor);
      layoutOps++;
    }
    const gather = node?.opType === "Gather" && uses.get(tensor) === 1 ? node : undefined;
    const table = gather ? inits.get(gather.input[0] as string) : undefined;
    if (gather === undefined || table === undefined || attrInt(gather, "axis", 0) !== 0) continue;
    const dims = tensorDims(table);
    const scales = numbers(scale);
    const axis = attrInt(n, "axis", 1);
    const lastAxis =
      scales.length > 1 && layoutOps === 0 && scales.length === dims[dims.length - 1] && (axis === -1 || axis === 2);
    if (scales.length > 1 && !lastAxis) continue;
    // Keyed on the scale and zero point too: one table gathered under two scales gives two float tables.
    const name = `${table.name}/dequantized/${scale.name}/${zp?.name ?? "no_zero_point"}`;
    if (!inits.has(name)) {
      const t = makeTensor(
        name,
        dequantizeValues(numbers(table), dims, scales, zp ? numbers(zp) : undefined, dims.length - 1),
        dims,
        DataType.FLOAT,
      );
      graph.initializer.push(t);
      inits.set(name, t);
    }
    gather.input[0] = name;
    replaced.set(
      n,
      onnx.NodeProto.create({
        opType: "Identity",
        name: `${n.name}/folded`,
        input: [n.input[0] as string],
        output: [n.output[0] as string],
      }),
    );
    folded++;
  }
  graph.node = (graph.node as NodeProto[]).map((n) => replaced.get(n) ?? n);
  pruneDeadNodes(graph);
  return { model: copy, folded };
}

/**
 * Give masks the sequence dimension of their ids (with the cache removed, total length = sequence length)
 * and name every other symbolic dimension consistently.
 */
export function canonicalInputDims(model: ModelProto): ModelProto {
  const { model: copy, graph } = copyModel(model);
  const inputs = new Map((graph.input as ValueInfoProto[]).map((v) => [v.name, v]));
  const seqDim = (ids: string): string | number | undefined => {
    const v = inputs.get(ids);
    return v ? valueInfoShape(v).shape?.[1] : undefined;
  };
  const pairs: Array<[string, string]> = [
    ["attention_mask", inputs.has("input_ids") ? "input_ids" : "decoder_input_ids"],
    ["position_ids", "input_ids"],
    ["decoder_attention_mask", "decoder_input_ids"],
  ];
  for (const [mask, ids] of pairs) {
    const v = inputs.get(mask);
    const seq = seqDim(ids);
    const shape = v ? valueInfoShape(v) : undefined;
    if (v === undefined || seq === undefined || shape?.shape?.length !== 2) continue;
    const batch = valueInfoShape(inputs.get(ids) as ValueInfoProto).shape?.[0] ?? "batch_size";
    const replaced = valueInfo(v.name, shape.elemType, [batch, seq]);
    v.type = replaced.type;
  }
  return copy;
}

/** What {@link normalizeModel} did to a graph. */
export interface NormalizationReport {
  /** `If` nodes replaced by their no-cache branch. */
  ifInlined: number;
  /** Past key/value inputs replaced by empty tensors. */
  pastRemoved: string[];
  /** Inputs widened from int32 to int64. */
  int64Inputs: string[];
  /** Default-domain opset before and after (raised to 13 for the gradient rules). */
  opset: { from: number; to: number };
  fp16Converted: boolean;
  /** Constant DequantizeLinear weights and dynamic-quantization MatMulInteger chains made fp32. */
  dequantizeLinear: number;
  matMulInteger: number;
  /** Quantized embedding lookups folded to float tables. */
  quantizedEmbeddings: number;
  /** Contrib (com.microsoft and ORT-only) ops rewritten in standard ONNX ops, per op type. */
  contribOps: Record<string, number>;
}

/**
 * The canonical differentiable form of an exported language-model graph (see the module comment): the
 * passes run in a fixed order, each on a copy. Throws typed errors naming the file and what blocks it.
 */
export function normalizeModel(
  model: ModelProto,
  options: { file?: string } = {},
): { model: ModelProto; report: NormalizationReport } {
  const where = options.file ? ` in ${options.file}` : "";
  try {
    // One working copy at a time: each pass's input becomes garbage as soon as the next has run, so a
    // large model is held about twice, not once per pass.
    let m = model;
    const a = inlineIf(m, { use_cache_branch: false });
    m = a.model;
    const b = removePastInputs(m);
    m = b.model;
    const c = int64Inputs(m);
    m = c.model;
    const from = opsetVersion(m);
    if (from < 13) m = upgradeOpset(m, 13);
    const d = dequantizeModel(m);
    m = d.model;
    const e = foldQuantizedEmbeddings(m);
    m = e.model;
    const f = decomposeContribOps(m);
    m = canonicalInputDims(f.model);
    return {
      model: m,
      report: {
        ifInlined: a.inlined,
        pastRemoved: b.removed,
        int64Inputs: c.converted,
        opset: { from, to: opsetVersion(m) },
        fp16Converted: d.report.fp16Converted,
        dequantizeLinear: d.report.dequantizeLinear,
        matMulInteger: d.report.matMulInteger,
        quantizedEmbeddings: e.folded,
        contribOps: f.report,
      },
    };
  } catch (error) {
    if (error instanceof NpovError) {
      if (where && !error.message.includes(where)) error.message += where;
      throw error;
    }
    // Anything else (a protobuf size limit, a malformed graph) still reaches the user as a typed error.
    throw new GradientGraphError(`cannot normalise the graph${where}: ${(error as Error).message ?? String(error)}`);
  }
}
