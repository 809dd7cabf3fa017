/**
 * `buildGradientGraph(model, {of, wrt})`: reverse-mode differentiation of an ONNX graph, emitted as standard
 * ONNX ops appended to a copy of the forward graph, so plain onnxruntime runs forward and backward in one
 * session. A non-scalar `of` gets an upstream-gradient input (a vector-Jacobian product).
 */
import type * as ort from "onnxruntime-node";
import { upgradeOpset } from "./contrib/opset.js";
import { GradientGraphError, UnsupportedOpError } from "./errors.js";
import { GraphBuilder } from "./graph.js";
import { probeTensors, sampleFeeds, type TensorFacts } from "./probe.js";
import {
  attrInt,
  cloneModel,
  type GraphProto,
  type ModelProto,
  type NodeProto,
  num,
  onnx,
  opsetVersion,
  type TensorProto,
  tensorData,
  type ValueInfoProto,
  valueInfo,
} from "./proto.js";
import {
  DIFFERENTIABLE_INPUTS,
  isFloating,
  NON_DIFFERENTIABLE,
  RULES,
  type RuleContext,
  requiredOpset,
  VARIADIC,
} from "./rules.js";

/** Options of {@link buildGradientGraph}. */
export interface GradientOptions {
  /** Tensor(s) to differentiate: a loss, per-token losses, or any outputs. */
  of: string | string[];
  /** Tensors to differentiate with respect to: graph inputs, initializers or intermediate tensors. */
  wrt: string[];
  /**
   * Feeds for one forward run that reveals ranks (symbolic dims are sampled as 3 when omitted). Values
   * only matter for data-dependent shapes.
   */
  feeds?: Record<string, ort.Tensor>;
  /**
   * `"input"` (default for non-scalars): an input `grad_in/<name>` carries the upstream gradient;
   * `"ones"`: seed with ones (the gradient of the sum of `of`).
   */
  seed?: "input" | "ones";
}

/** The differentiated model and where to find things in it. */
export interface GradientGraph {
  /**
   * The forward graph followed by the gradient nodes. Its default-domain opset can be higher than the input
   * model's: below 13 the graph is raised to 13 (`upgradeOpset`), and to 16 when a rule needs it (see
   * `requiredOpset` in rules.ts).
   */
  model: ModelProto;
  /** How many of `model`'s nodes and initializers are the forward graph's (they come first). */
  forward: { nodes: number; initializers: number };
  /** wrt tensor -> output name of its gradient. */
  gradients: Record<string, string>;
  /** of tensor -> input name of its upstream gradient (only for seed "input"). */
  upstream: Record<string, string>;
  /** What the probe learned about the graph's differentiable tensors. */
  facts: Map<string, TensorFacts>;
}

/** Inputs of a node that can carry gradients. */
/** A graph input or output of `f`'s type and rank with every dimension symbolic, so one graph serves all shapes. */
function symbolicValueInfo(name: string, f: TensorFacts): ValueInfoProto {
  return valueInfo(
    name,
    f.elemType,
    f.dims.map((_, k) => `${name}_d${k}`),
  );
}

function differentiableInputs(node: NodeProto): number[] {
  const op = node.opType ?? "";
  if (VARIADIC.has(op)) return node.input.map((_, i) => i);
  return DIFFERENTIABLE_INPUTS[op] ?? [];
}

/**
 * Build the gradient graph. Nodes that do not depend on `wrt`, or whose gradient cannot reach `of`, are
 * left alone (shape computations, masks, position buckets). A node on the differentiable path without a
 * rule raises {@link UnsupportedOpError} naming the op and node.
 */
export async function buildGradientGraph(model: ModelProto, options: GradientOptions): Promise<GradientGraph> {
  const given = opsetVersion(model);
  if (given < 7)
    throw new GradientGraphError(
      `opset ${given} is not supported: onnxruntime and the gradient rules need opset >= 7 (re-export the model).`,
    );
  // Rules are written in opset-13 ops; an older graph is raised first (its node list may change).
  let copy = given < 13 ? upgradeOpset(model, 13) : cloneModel(model);
  let analysis = analyze(copy, options);
  let required = 13;
  for (const i of analysis.needed) required = Math.max(required, requiredOpset(analysis.nodes[i] as NodeProto));
  if (opsetVersion(copy) < required) {
    // 13 -> 16 changes no node of the graph, only the version the ops are read at.
    copy = upgradeOpset(copy, required);
    analysis = analyze(copy, options);
  }
  return differentiate(copy, options, analysis);
}

/** Which tensors depend on `wrt` (active) and which nodes lie on a path from `wrt` to `of` (needed). */
interface Analysis {
  nodes: NodeProto[];
  ofs: string[];
  active: Set<string>;
  needed: Set<number>;
}

function analyze(copy: ModelProto, options: GradientOptions): Analysis {
  const graph = copy.graph as GraphProto;
  const ofs = Array.isArray(options.of) ? options.of : [options.of];
  // Decoded protos have every repeated field present; the class types say so, the interfaces do not.
  const nodes = graph.node as NodeProto[];
  const inputs = graph.input as ValueInfoProto[];
  const initializers = graph.initializer as TensorProto[];
  nodes.forEach((n, i) => {
    if (!n.name) n.name = `${n.opType}_${i}`;
  });

  // Forward activity: tensors that depend on wrt through differentiable edges.
  const known = new Set<string>([
    ...inputs.map((v) => v.name),
    ...initializers.map((t) => t.name),
    ...nodes.flatMap((n) => n.output),
  ]);
  for (const w of options.wrt)
    if (!known.has(w)) throw new GradientGraphError(`wrt tensor "${w}" is not in the graph.`);
  for (const o of ofs) if (!known.has(o)) throw new GradientGraphError(`of tensor "${o}" is not in the graph.`);
  const active = new Set(options.wrt);
  const unsupported = new Map<number, string>();
  nodes.forEach((n, i) => {
    const op = n.opType ?? "";
    const touched = n.input.some((x) => x && active.has(x));
    if (!touched) return;
    if (op === "Cast") {
      // Casting to an integer type ends differentiability.
      if (isFloating(attrInt(n, "to", 0))) active.add(n.output[0] as string);
      return;
    }
    if (NON_DIFFERENTIABLE.has(op)) return;
    if (RULES[op] === undefined) {
      unsupported.set(i, op);
      for (const o of n.output) active.add(o);
      return;
    }
    if (differentiableInputs(n).some((k) => n.input[k] && active.has(n.input[k] as string))) {
      // Dropout's mask and LayerNormalization's statistics are outputs too; only floating outputs matter.
      for (const o of n.output) if (o) active.add(o);
    }
  });
  for (const o of ofs) if (!active.has(o)) throw new GradientGraphError(`"${o}" does not depend on any wrt tensor.`);

  // Backward: nodes whose outputs lead to `of`.
  const producer = new Map<string, number>();
  nodes.forEach((n, i) => {
    for (const o of n.output) producer.set(o, i);
  });
  const needed = new Set<number>();
  const stack = [...ofs];
  const seen = new Set<string>();
  while (stack.length > 0) {
    const t = stack.pop() as string;
    if (seen.has(t)) continue;
    seen.add(t);
    const i = producer.get(t);
    if (i === undefined || !active.has(t)) continue;
    needed.add(i);
    for (const x of (nodes[i] as NodeProto).input) if (x && active.has(x)) stack.push(x);
  }
  for (const i of needed) {
    const op = unsupported.get(i);
    if (op !== undefined) throw new UnsupportedOpError(op, (nodes[i] as NodeProto).name ?? String(i));
  }
  return { nodes, ofs, active, needed };
}

async function differentiate(copy: ModelProto, options: GradientOptions, analysis: Analysis): Promise<GradientGraph> {
  const graph = copy.graph as GraphProto;
  const { nodes, ofs, active, needed } = analysis;
  const opset = opsetVersion(copy);
  const initializers = graph.initializer as TensorProto[];
  const forward = { nodes: nodes.length, initializers: initializers.length };

  // Probe ranks and element types of every tensor the rules will look at.
  const probeNames = new Set<string>(ofs);
  for (const i of needed)
    for (const t of [...(nodes[i] as NodeProto).input, ...(nodes[i] as NodeProto).output]) if (t) probeNames.add(t);
  for (const w of options.wrt) probeNames.add(w);
  const feeds = options.feeds ?? sampleFeeds(copy, 3);
  const facts = await probeTensors(copy, probeNames, feeds);
  // A second probe with other sizes tells static dims from dynamic ones: a dynamic dim may be 1 at run
  // time and broadcast, so sumTo must not skip the reduction for it.
  const other = await probeTensors(copy, probeNames, sampleFeeds(copy, 5));
  const dynamicDims = (t: string): number[] => {
    const a = facts.get(t)?.dims ?? [];
    const c = other.get(t)?.dims ?? a;
    return a.map((d, k) => (c[k] === d ? d : 1));
  };

  const b = new GraphBuilder(graph, "grad");
  const constants = new Map<string, number[]>();
  const floatConstants = new Map<string, number[]>();
  for (const t of initializers) {
    if (t.dataType === 7) constants.set(t.name, Array.from(tensorData(t) as BigInt64Array, Number));
    // Small float constants (exponents, epsilons) let rules specialize.
    if ((t.dataType === 1 || t.dataType === 11) && t.dims.reduce((a, d) => a * num(d), 1) <= 16)
      floatConstants.set(t.name, Array.from(tensorData(t) as Float32Array));
  }
  for (const n of nodes)
    if (n.opType === "Constant") {
      const value = n.attribute.find((a) => a.name === "value")?.t ?? undefined;
      if (value && value.dataType === 7)
        constants.set(n.output[0] as string, Array.from(tensorData(value) as BigInt64Array, Number));
      if (value && (value.dataType === 1 || value.dataType === 11))
        floatConstants.set(n.output[0] as string, Array.from(tensorData(value) as Float32Array));
      const ints = n.attribute.find((a) => a.name === "value_ints")?.ints;
      if (ints) constants.set(n.output[0] as string, ints.map(num));
    }
  const shapes = new Map<string, string>();
  const fact = (t: string): TensorFacts => {
    const f = facts.get(t);
    if (f === undefined) throw new GradientGraphError(`no shape information for tensor "${t}"`);
    return f;
  };
  const ctx: RuleContext = {
    b,
    opset,
    rank: (t) => fact(t).dims.length,
    elemType: (t) => fact(t).elemType,
    dims: (t) => {
      fact(t); // throws a clear error for a tensor the probe did not see
      return dynamicDims(t);
    },
    sameDims: (a, c) => {
      const same = (x?: number[], y?: number[]) =>
        x !== undefined && y !== undefined && x.length === y.length && x.every((d, k) => d === y[k]);
      return same(facts.get(a)?.dims, facts.get(c)?.dims) && same(other.get(a)?.dims, other.get(c)?.dims);
    },
    active: (t) => active.has(t),
    shape: (t) => {
      let s = shapes.get(t);
      if (s === undefined) {
        s = b.op("Shape", [t]);
        shapes.set(t, s);
      }
      return s;
    },
    constInts: (t) => constants.get(t),
    constFloats: (t) => floatConstants.get(t),
  };

  // Seed the output gradients.
  const grads = new Map<string, string[]>();
  const upstream: Record<string, string> = {};
  for (const o of ofs) {
    const f = fact(o);
    const seedWith = options.seed ?? (f.dims.length === 0 ? "ones" : "input");
    if (seedWith === "input") {
      const name = b.fresh(`grad_in/${o}`).replace(/_\d+$/, "");
      graph.input.push(symbolicValueInfo(name, f));
      upstream[o] = name;
      grads.set(o, [name]);
    } else {
      const value = onnx.TensorProto.create({
        name: "value",
        dataType: f.elemType,
        dims: [1],
        rawData: new Uint8Array(f.elemType === 11 ? new Float64Array([1]).buffer : new Float32Array([1]).buffer),
      });
      grads.set(o, [b.op("ConstantOfShape", [ctx.shape(o)], { value })]);
    }
  }
  const total = (t: string): string | undefined => {
    const parts = grads.get(t);
    if (parts === undefined || parts.length === 0) return undefined;
    if (parts.length === 1) return parts[0];
    const sum = b.op("Sum", parts);
    grads.set(t, [sum]);
    return sum;
  };

  // Reverse topological order (ONNX nodes are topologically sorted).
  for (let i = nodes.length - 1; i >= 0; i--) {
    if (!needed.has(i)) continue;
    const n = nodes[i] as NodeProto;
    const gy = n.output.map((o) => (o ? total(o) : undefined));
    if (gy.every((g) => g === undefined)) continue;
    const rule = RULES[n.opType ?? ""];
    if (rule === undefined) throw new UnsupportedOpError(n.opType ?? "", n.name ?? String(i));
    const gx = rule(ctx, n, gy);
    gx.forEach((g, k) => {
      const x = n.input[k];
      if (g === undefined || !x || !active.has(x)) return;
      const list = grads.get(x) ?? [];
      list.push(g);
      grads.set(x, list);
    });
  }

  const gradients: Record<string, string> = {};
  for (const w of options.wrt) {
    const f = fact(w);
    let g = total(w);
    if (g === undefined) {
      // No path from this wrt to `of`: the gradient is zero.
      const value = onnx.TensorProto.create({
        name: "value",
        dataType: f.elemType,
        dims: [1],
        rawData: new Uint8Array(f.elemType === 11 ? new Float64Array(1).buffer : new Float32Array(1).buffer),
      });
      g = b.op("ConstantOfShape", [ctx.shape(w)], { value });
    }
    const name = `grad/${w}`;
    b.node("Identity", [g], [name]);
    graph.output.push(symbolicValueInfo(name, f));
    gradients[w] = name;
  }
  b.flushInto(graph);
  return { model: copy, forward, gradients, upstream, facts };
}
