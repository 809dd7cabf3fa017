/**
 * Graph surgery: make an intermediate tensor a graph input (e.g. `inputs_embeds` after the word-embedding
 * Gather), make initializers graph inputs (to train them), append a per-token loss, remove dead nodes.
 */
import type * as ort from "onnxruntime-node";
import { GradientGraphError } from "./errors.js";
import { GraphBuilder } from "./graph.js";
import { probeTensors, sampleFeeds } from "./probe.js";
import {
  attrInt,
  cloneModel,
  DataType,
  encodeModel,
  type GraphProto,
  type ModelProto,
  makeTensor,
  type NodeProto,
  onnx,
  type TensorData,
  type TensorProto,
  tensorData,
  tensorDims,
  type ValueInfoProto,
  valueInfo,
} from "./proto.js";

function copyModel(model: ModelProto): { model: ModelProto; graph: GraphProto; nodes: NodeProto[] } {
  const copy = cloneModel(model);
  const graph = copy.graph as GraphProto;
  return { model: copy, graph, nodes: graph.node as NodeProto[] };
}

/** Remove nodes that no graph output needs, then unused initializers and graph inputs. Returns removed input names. */
export function pruneDeadNodes(graph: GraphProto): string[] {
  const nodes = graph.node as NodeProto[];
  const needed = new Set<string>((graph.output as ValueInfoProto[]).map((o) => o.name));
  const keep: NodeProto[] = [];
  for (let i = nodes.length - 1; i >= 0; i--) {
    const n = nodes[i] as NodeProto;
    if (!n.output.some((o) => needed.has(o))) continue;
    keep.push(n);
    for (const x of n.input) if (x) needed.add(x);
  }
  keep.reverse();
  graph.node = keep;
  graph.initializer = (graph.initializer as TensorProto[]).filter((t) => needed.has(t.name));
  const removed = (graph.input as ValueInfoProto[]).filter((v) => !needed.has(v.name)).map((v) => v.name);
  graph.input = (graph.input as ValueInfoProto[]).filter((v) => needed.has(v.name));
  return removed;
}

/** Ops that pass token ids through unchanged in value (exporters reshape or cast ids before the lookup). */
const ID_PASSTHROUGH = new Set(["Reshape", "Cast", "Unsqueeze", "Squeeze", "Flatten", "Identity"]);

/**
 * The output of the word-embedding Gather: the Gather whose indices are `idsInput`, or `idsInput` passed
 * through Reshape/Cast/Unsqueeze/Squeeze/Flatten/Identity (Optimum reshapes ids first, the onnxruntime
 * optimizer casts them), and whose data is a rank-2 initializer (the largest, if several).
 */
export function findEmbeddingOutput(model: ModelProto, idsInput = "input_ids"): string {
  const graph = model.graph as GraphProto;
  const inits = new Map((graph.initializer as TensorProto[]).map((t) => [t.name, t]));
  const ids = new Set([idsInput]);
  for (const n of graph.node as NodeProto[])
    if (ID_PASSTHROUGH.has(n.opType) && ids.has(n.input[0] as string)) ids.add(n.output[0] as string);
  let best: { out: string; rows: number } | undefined;
  for (const n of graph.node as NodeProto[]) {
    if (n.opType !== "Gather" || !ids.has(n.input[1] as string) || attrInt(n, "axis", 0) !== 0) continue;
    const table = inits.get(n.input[0] as string);
    if (table === undefined || tensorDims(table).length !== 2) continue;
    const rows = tensorDims(table)[0] as number;
    if (best === undefined || rows > best.rows) best = { out: n.output[0] as string, rows };
  }
  if (best === undefined) {
    const quantized = (graph.node as NodeProto[]).some(
      (n) => n.opType === "Gather" && ids.has(n.input[1] as string) && inits.get(n.input[0] as string)?.dataType !== 1,
    );
    throw new GradientGraphError(
      `no word-embedding lookup (a Gather of a float table by "${idsInput}") found${quantized ? "; the table is not float: normalize the model first (normalizeModel)" : ""}.`,
    );
  }
  return best.out;
}

/** The word-embedding table read by the Gather of `idsInput`: its values, row width, and the Gather's output. */
export function embeddingTable(
  model: ModelProto,
  idsInput = "input_ids",
): { data: Float32Array | Float64Array; dim: number; gather: string } {
  const gather = findEmbeddingOutput(model, idsInput);
  const graph = model.graph as GraphProto;
  const node = (graph.node as NodeProto[]).find((n) => n.output[0] === gather) as NodeProto;
  const table = (graph.initializer as TensorProto[]).find((t) => t.name === node.input[0]) as TensorProto;
  return { data: tensorData(table) as Float32Array | Float64Array, dim: tensorDims(table)[1] as number, gather };
}

/**
 * Make intermediate tensor `tensor` a graph input named `name`: its consumers read the new input and the
 * nodes that only computed it are removed. The input's dims are probed (static dims stay numbers,
 * dynamic ones get symbolic names). Other inputs keep being required if still used (e.g. input_ids for
 * sequence lengths).
 */
export async function cutAtTensor(
  model: ModelProto,
  tensor: string,
  name = "inputs_embeds",
  feeds?: Record<string, ort.Tensor>,
): Promise<ModelProto> {
  const a = await probeTensors(model, [tensor], feeds ?? sampleFeeds(model, 3));
  const b = await probeTensors(model, [tensor], sampleFeeds(model, 5));
  const fa = a.get(tensor);
  const fb = b.get(tensor);
  if (fa === undefined || fb === undefined) throw new GradientGraphError(`tensor "${tensor}" is not in the graph`);
  const { model: copy, graph, nodes } = copyModel(model);
  if (name !== tensor && (graph.input as ValueInfoProto[]).some((v) => v.name === name))
    throw new GradientGraphError(`cannot cut at "${tensor}": the graph already has an input named "${name}".`);
  // The producer goes even when the tensor keeps its name (genai graphs call the embedding "inputs_embeds").
  graph.node = nodes.filter((n) => !n.output.includes(tensor));
  for (const n of graph.node as NodeProto[]) n.input = n.input.map((x) => (x === tensor ? name : x));
  for (const o of graph.output as ValueInfoProto[]) if (o.name === tensor) o.name = name;
  const dims = fa.dims.map((d, k) => (fb.dims[k] === d ? d : `${name}_dim_${k}`));
  (graph.input as ValueInfoProto[]).push(valueInfo(name, fa.elemType, dims));
  pruneDeadNodes(graph);
  return copy;
}

/** Make initializers graph inputs (to feed trained values); returns the model and their current values. */
export function initializersToInputs(
  model: ModelProto,
  names: readonly string[],
): { model: ModelProto; values: Map<string, { data: TensorData; dims: number[]; elemType: number }> } {
  const { model: copy, graph } = copyModel(model);
  const wanted = new Set(names);
  const values = new Map<string, { data: TensorData; dims: number[]; elemType: number }>();
  const keep: TensorProto[] = [];
  for (const t of graph.initializer as TensorProto[]) {
    if (!wanted.has(t.name)) {
      keep.push(t);
      continue;
    }
    const dims = tensorDims(t);
    values.set(t.name, { data: tensorData(t), dims, elemType: t.dataType });
    (graph.input as ValueInfoProto[]).push(valueInfo(t.name, t.dataType, dims));
  }
  for (const n of names) if (!values.has(n)) throw new GradientGraphError(`"${n}" is not an initializer`);
  graph.initializer = keep;
  return { model: copy, values };
}

/**
 * Append a per-token loss: `token_loss[b, s] = -log softmax(logits[b, s])[labels[b, s]] * label_mask[b, s]`.
 * Adds inputs `labels` (int64 [batch, seq]; values in [0, vocab) wherever the mask is 1) and, unless
 * `mask: false`, `label_mask` (same float type as the logits) to zero padding.
 */
export async function appendTokenLoss(
  model: ModelProto,
  options: {
    logits?: string;
    labels?: string;
    mask?: string | false;
    output?: string;
    feeds?: Record<string, ort.Tensor>;
  } = {},
): Promise<ModelProto> {
  const logits = options.logits ?? "logits";
  const labels = options.labels ?? "labels";
  const maskName = options.mask === false ? undefined : (options.mask ?? "label_mask");
  const output = options.output ?? "token_loss";
  const facts = (await probeTensors(model, [logits], options.feeds ?? sampleFeeds(model, 3))).get(logits);
  if (facts === undefined || facts.dims.length < 2)
    throw new GradientGraphError(`"${logits}" must be logits of rank >= 2`);
  const { model: copy, graph } = copyModel(model);
  const rank = facts.dims.length;
  const lead = facts.dims.slice(0, -1).map((_, k) => `${labels}_dim_${k}`);
  (graph.input as ValueInfoProto[]).push(valueInfo(labels, DataType.INT64, lead));
  const b = new GraphBuilder(graph, "loss");
  const logp = b.op("LogSoftmax", [logits], { axis: -1 });
  const vocab = b.op("Gather", [b.op("Shape", [logits]), b.ints([rank - 1])]);
  const values = b.fresh("onehot_values");
  b.initializers.push(makeTensor(values, Float32Array.of(0, 1), [2], DataType.FLOAT));
  let onehot = b.op("OneHot", [labels, vocab, values], { axis: -1 });
  if (facts.elemType !== DataType.FLOAT) onehot = b.op("Cast", [onehot], { to: facts.elemType });
  let loss = b.op("Neg", [b.op("ReduceSum", [b.op("Mul", [logp, onehot]), b.ints([-1])], { keepdims: 0 })]);
  if (maskName !== undefined) {
    (graph.input as ValueInfoProto[]).push(valueInfo(maskName, facts.elemType, lead));
    loss = b.op("Mul", [loss, maskName]);
  }
  b.node("Identity", [loss], [output]);
  (graph.output as ValueInfoProto[]).push(valueInfo(output, facts.elemType, lead));
  b.flushInto(graph);
  return copy;
}

/**
 * One graph from an encoder and a decoder (Hugging Face seq2seq layout), so gradients flow from decoder
 * losses into the encoder: encoder inputs keep their names (input_ids, attention_mask), the decoder's
 * input_ids becomes `decoder_input_ids`, its encoder_hidden_states reads the encoder's
 * last_hidden_state and its encoder_attention_mask reads attention_mask. Encoder tensors are prefixed
 * `encoder/`; initializers with the same name and bytes (shared embeddings) are stored once.
 */
export function mergeEncoderDecoder(encoder: ModelProto, decoder: ModelProto): ModelProto {
  const enc = copyModel(encoder);
  const dec = copyModel(decoder);
  const encGraph = enc.graph;
  const decGraph = dec.graph;
  const encInputs = new Set((encGraph.input as ValueInfoProto[]).map((v) => v.name));
  const renameEnc = (name: string) => (name === "" || encInputs.has(name) ? name : `encoder/${name}`);
  const decInits = new Map((decGraph.initializer as TensorProto[]).map((t) => [t.name, t]));
  // Raw data is compared in place: encoding a T5's tied 8 MB table twice to compare made 32 MB of garbage.
  const view = (t: TensorProto) => Buffer.from(t.rawData.buffer, t.rawData.byteOffset, t.rawData.byteLength);
  const sameBytes = (a: TensorProto, b: TensorProto) =>
    a.rawData?.length > 0 && b.rawData?.length > 0
      ? a.dataType === b.dataType && tensorDims(a).join() === tensorDims(b).join() && view(a).equals(view(b))
      : Buffer.from(encodeModel(onnx.ModelProto.create({ graph: { initializer: [a] } }))).equals(
          Buffer.from(encodeModel(onnx.ModelProto.create({ graph: { initializer: [b] } }))),
        );
  const shared = new Set<string>();
  for (const t of encGraph.initializer as TensorProto[]) {
    const twin = decInits.get(t.name);
    if (twin !== undefined && sameBytes(t, twin)) shared.add(t.name);
  }
  const encName = (name: string) => (shared.has(name) ? name : renameEnc(name));
  for (const n of encGraph.node as NodeProto[]) {
    n.input = n.input.map(encName);
    n.output = n.output.map(encName);
    n.name = `encoder/${n.name}`;
  }
  for (const t of encGraph.initializer as TensorProto[]) t.name = encName(t.name);
  const hidden = encName("last_hidden_state");
  const decRename: Record<string, string> = {
    input_ids: "decoder_input_ids",
    encoder_hidden_states: hidden,
    encoder_attention_mask: "attention_mask",
  };
  for (const n of decGraph.node as NodeProto[]) n.input = n.input.map((x) => decRename[x] ?? x);
  for (const o of decGraph.output as ValueInfoProto[]) if (decRename[o.name]) o.name = decRename[o.name] as string;
  const inputs = [
    ...(encGraph.input as ValueInfoProto[]),
    ...(decGraph.input as ValueInfoProto[])
      .filter((v) => v.name !== "encoder_hidden_states" && v.name !== "encoder_attention_mask")
      .map((v) =>
        v.name === "input_ids"
          ? valueInfo("decoder_input_ids", DataType.INT64, ["batch_size", "decoder_sequence_length"])
          : v,
      ),
  ];
  const merged = onnx.GraphProto.create({
    name: "encoder_decoder",
    node: [...(encGraph.node as NodeProto[]), ...(decGraph.node as NodeProto[])],
    initializer: [
      ...(encGraph.initializer as TensorProto[]).filter((t) => !decInits.has(t.name) || !shared.has(t.name)),
      ...(decGraph.initializer as TensorProto[]),
    ],
    input: inputs,
    output: [
      ...(decGraph.output as ValueInfoProto[]),
      ...(encGraph.output as ValueInfoProto[]).map((o) => valueInfo(encName(o.name))),
    ],
  });
  const model = dec.model;
  model.graph = merged;
  return model;
}
