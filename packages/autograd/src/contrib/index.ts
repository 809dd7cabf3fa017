/**
 * `decomposeContribOps(model)`: rewrite onnxruntime's com.microsoft contrib ops (and ORT's default-domain
 * `SimplifiedLayerNormalization`) into standard ONNX ops, so graphs from the onnxruntime-genai builder and
 * the ORT transformer optimizer can be differentiated by {@link buildGradientGraph}. Each op family lives
 * in its own module, whose comment states exactly what is covered; anything else raises a typed
 * {@link ContribDecompositionError} naming op, node and attribute. Models below opset 13 are upgraded
 * first ({@link upgradeOpset}). Subgraphs (If/Loop/Scan bodies) are rewritten too. Default-domain
 * `LayerNormalization` below opset 17 (ORT runs it; standard ONNX has it from 17) is rewritten like the
 * contrib one. Contrib ops outside {@link DECOMPOSED_CONTRIB_OPS} are left as they are: they still run in
 * onnxruntime, and the gradient builder names them if they sit on the differentiable path.
 */

import { pushAll } from "@npov/core";
import { GraphBuilder } from "../graph.js";
import {
  cloneModel,
  type GraphProto,
  type IGraphProto,
  type ModelProto,
  type NodeProto,
  opsetVersion,
  type TensorProto,
} from "../proto.js";
import { attention, groupQueryAttention, multiHeadAttention } from "./attention.js";
import { Emitter, unsupported } from "./context.js";
import { embedLayerNormalization } from "./embed.js";
import { biasAdd, biasGelu, fastGelu, gelu, quickGelu } from "./gelu.js";
import { inferFacts } from "./infer.js";
import { fusedMatMul, matMulNBits } from "./matmul.js";
import { layerNorm, skipLayerNorm } from "./norm.js";
import { upgradeOpset } from "./opset.js";
import { rotaryEmbedding } from "./rotary.js";

export { ContribDecompositionError } from "./context.js";
export { dequantizeNBits } from "./matmul.js";
export { upgradeOpset } from "./opset.js";

type Decomposer = (e: Emitter, node: NodeProto) => Array<string | undefined>;

/** com.microsoft ops this pass rewrites. */
const CONTRIB: Record<string, Decomposer> = {
  SimplifiedLayerNormalization: layerNorm(true),
  LayerNormalization: layerNorm(false),
  SkipSimplifiedLayerNormalization: skipLayerNorm(true),
  SkipLayerNormalization: skipLayerNorm(false),
  FastGelu: fastGelu,
  Gelu: gelu,
  BiasGelu: biasGelu,
  QuickGelu: quickGelu,
  BiasAdd: biasAdd,
  RotaryEmbedding: rotaryEmbedding,
  GroupQueryAttention: groupQueryAttention,
  MultiHeadAttention: multiHeadAttention,
  Attention: attention,
  EmbedLayerNormalization: embedLayerNormalization,
  MatMulNBits: matMulNBits,
  FusedMatMul: fusedMatMul,
};

/** Ops ORT registers in the default domain although they are not standard ONNX (at that opset). */
const ORT_DEFAULT_DOMAIN: Record<string, Decomposer> = {
  SimplifiedLayerNormalization: layerNorm(true),
};

/** The contrib op types {@link decomposeContribOps} rewrites. */
export const DECOMPOSED_CONTRIB_OPS: readonly string[] = Object.keys(CONTRIB);

function decomposerOf(node: NodeProto, opset: number): Decomposer | undefined {
  const domain = node.domain ?? "";
  const op = node.opType ?? "";
  if (domain === "com.microsoft") return CONTRIB[op];
  if (domain === "" || domain === "ai.onnx") {
    // ORT runs LayerNormalization at any opset; standard ONNX has it from opset 17 only.
    if (op === "LayerNormalization" && opset < 17) return CONTRIB.LayerNormalization;
    return ORT_DEFAULT_DOMAIN[op];
  }
  return undefined;
}

/** Every tensor and node name of a graph and its subgraphs, as one graph for {@link GraphBuilder}. */
function allNames(graph: IGraphProto, into: IGraphProto = { node: [], initializer: [], input: [], output: [] }) {
  if (into.node) pushAll(into.node, graph.node ?? []);
  if (into.initializer) pushAll(into.initializer, graph.initializer ?? []);
  if (into.input) pushAll(into.input, graph.input ?? []);
  if (into.output) pushAll(into.output, graph.output ?? []);
  for (const n of graph.node ?? [])
    for (const a of n.attribute ?? []) {
      if (a.g) allNames(a.g, into);
      for (const g of a.graphs ?? []) allNames(g, into);
    }
  return into;
}

/**
 * A copy of `model` with every covered contrib op replaced by standard ONNX ops computing the same
 * outputs (same tensor names), and how many ops of each type were rewritten. Contrib ops not covered are
 * left alone. @throws ContribDecompositionError for a covered op with an attribute/input combination the
 * decomposition does not implement; GradientGraphError when the opset cannot be upgraded.
 */
export function decomposeContribOps(model: ModelProto): { model: ModelProto; report: Record<string, number> } {
  let copy = cloneModel(model);
  if (opsetVersion(copy) < 13) copy = upgradeOpset(copy, 13);
  const opset = opsetVersion(copy);
  const facts = inferFacts(copy);
  const names = allNames(copy.graph as GraphProto);
  const report: Record<string, number> = {};
  let graphIndex = 0;

  const rewrite = (graph: GraphProto) => {
    const b = new GraphBuilder(names, `contrib${graphIndex++ || ""}`);
    const e = new Emitter(b, opset, facts);
    const out: NodeProto[] = [];
    for (const n of graph.node as NodeProto[]) {
      for (const a of n.attribute ?? []) {
        if (a.g) rewrite(a.g as GraphProto);
        for (const g of a.graphs ?? []) rewrite(g as GraphProto);
      }
      const decompose = decomposerOf(n, opset);
      if (decompose === undefined) {
        out.push(n);
        continue;
      }
      if (!n.name) n.name = `${n.opType}_${out.length}`;
      const produced = decompose(e, n);
      const emitted = b.nodes.splice(0);
      bindOutputs(n, produced, emitted, b);
      pushAll(emitted, b.nodes.splice(0));
      pushAll(out, withoutDeadNodes(emitted, new Set(n.output.filter((o) => o))));
      report[n.opType] = (report[n.opType] ?? 0) + 1;
    }
    graph.node = out;
    pushAll(graph.initializer, b.initializers.splice(0) as TensorProto[]);
  };
  rewrite(copy.graph as GraphProto);
  return { model: copy, report };
}

/**
 * Drop emitted nodes whose results nothing reads (statistics or caches of optional outputs the graph does
 * not ask for). Fresh names are private to one decomposition, so only `keep` and emitted inputs count.
 */
function withoutDeadNodes(emitted: NodeProto[], keep: Set<string>): NodeProto[] {
  let nodes = emitted;
  for (;;) {
    const read = new Set(nodes.flatMap((m) => m.input));
    const live = nodes.filter((m) => m.output.some((o) => keep.has(o) || read.has(o)));
    if (live.length === nodes.length) return nodes;
    nodes = live;
  }
}

/**
 * Give the decomposition's results the original output names: rename the emitted node that produced a
 * result (and its uses), or add an Identity when the result is not a fresh tensor of this decomposition.
 */
function bindOutputs(node: NodeProto, produced: Array<string | undefined>, emitted: NodeProto[], b: GraphBuilder) {
  const renamed = new Map<string, string>();
  node.output.forEach((target, k) => {
    if (!target) return;
    const source = produced[k];
    if (source === undefined) unsupported(node, `output ${k} ("${target}")`, "this output is not produced");
    const producer = emitted.find((m) => m.output.includes(source));
    if (producer === undefined || renamed.has(source)) {
      b.node("Identity", [renamed.get(source) ?? source], [target]);
      return;
    }
    renamed.set(source, target);
    producer.output = producer.output.map((o) => (o === source ? target : o));
    for (const m of emitted) m.input = m.input.map((x) => (x === source ? target : x));
  });
}
