/**
 * `upgradeOpset(model, 13)`: raise the default-domain opset of an older model (e.g. the ORT GPT-2
 * optimizer's opset-11 graphs) so the gradient builder, which needs opset >= 13, can take it. Rewrites the
 * ops whose signature or semantics changed on the way: Slice's `starts`/`ends`/`axes` (10), TopK's `k` (10),
 * Clip's `min`/`max` and Pad's `pads`/`value` (11) move from attributes to inputs; Squeeze/Unsqueeze/ReduceSum
 * `axes` and Split `split` move from attributes to inputs (13); Softmax/LogSoftmax/Hardmax before 13
 * normalize over the flattened trailing axes from `axis` (default 1), so unless `axis` is the last axis they
 * become Flatten -> op(axis=-1) -> Reshape; Dropout's `ratio` attribute (before 12) is dropped (inference is
 * the identity); RoiAlign keeps its pre-16 default `coordinate_transformation_mode`. Ops removed by 13
 * (Upsample, Scatter) and Resize before 11 (its inputs changed) raise a typed error. Subgraphs are rewritten
 * too. Only upgrades from opset >= 7 to at most 17 are supported (later opsets changed other reductions).
 * Between 13 and 16 (the opset the accumulating scatter gradients need) only the version changes.
 */

import { pushAll } from "@npov/core";
import { GradientGraphError } from "../errors.js";
import { GraphBuilder } from "../graph.js";
import {
  attr,
  attrFloat,
  attrInt,
  cloneModel,
  DataType,
  type GraphProto,
  type IGraphProto,
  type ModelProto,
  makeTensor,
  type NodeProto,
  num,
  onnx,
  opsetVersion,
} from "../proto.js";
import { inferFacts } from "./infer.js";

const REMOVED = new Set(["Upsample", "Scatter"]);

/** A copy of `model` at default-domain opset `target` (unchanged copy when it is already there). */
export function upgradeOpset(model: ModelProto, target = 13): ModelProto {
  const copy = cloneModel(model);
  const from = opsetVersion(copy);
  if (from >= target) return copy;
  if (from < 7 || target > 17)
    throw new GradientGraphError(
      `upgradeOpset supports opset 7..17 as source and at most 17 as target; this model is at opset ${from}, asked ${target}.`,
    );
  const facts = inferFacts(copy);
  let counter = 0;
  const rewrite = (graph: GraphProto) => {
    const b = new GraphBuilder(graph as IGraphProto, `opset${target}/${counter++}`);
    const out: NodeProto[] = [];
    for (const n of graph.node as NodeProto[]) {
      for (const a of n.attribute ?? []) {
        if (a.g) rewrite(a.g as GraphProto);
        for (const g of a.graphs ?? []) rewrite(g as GraphProto);
      }
      if (n.domain && n.domain !== "ai.onnx") {
        out.push(n);
        continue;
      }
      const op = n.opType ?? "";
      if (REMOVED.has(op))
        throw new GradientGraphError(
          `${op} (node "${n.name}") was removed from ONNX before opset ${target}; re-export the model.`,
        );
      if (op === "Resize" && from < 11 && target >= 11)
        throw new GradientGraphError(
          `Resize (node "${n.name}") changed its inputs at opset 11; re-export the model at opset 11 or later.`,
        );
      const dropAttrs = (...names: string[]) => {
        n.attribute = n.attribute.filter((a) => !names.includes(a.name ?? ""));
      };
      const intsOf = (name: string) => (attr(n, name)?.ints ?? []).map(Number);
      // A scalar constant in the float type of the node's first input (float32 when unknown).
      const floatScalar = (value: number) => {
        const type = facts.elemType(n.input[0] as string) ?? DataType.FLOAT;
        const name = b.fresh(`${op}_constant`);
        b.initializers.push(
          makeTensor(name, type === DataType.DOUBLE ? Float64Array.of(value) : Float32Array.of(value), [], type),
        );
        return name;
      };
      if (target >= 10 && from < 10 && op === "Slice") {
        const axes = attr(n, "axes");
        n.input = [
          n.input[0] as string,
          b.ints(intsOf("starts")),
          b.ints(intsOf("ends")),
          ...(axes ? [b.ints(intsOf("axes"))] : []),
        ];
        dropAttrs("starts", "ends", "axes");
      }
      if (target >= 10 && from < 10 && op === "TopK") {
        n.input = [n.input[0] as string, b.ints([attrInt(n, "k", 1)])];
        dropAttrs("k");
      }
      if (target >= 11 && from < 11 && op === "Clip") {
        // Clip-6's defaults are the float32 extremes: absent bounds stay absent (no clipping on that side).
        const lo = attr(n, "min") ? floatScalar(attrFloat(n, "min", 0)) : "";
        const hi = attr(n, "max") ? floatScalar(attrFloat(n, "max", 0)) : "";
        n.input = hi ? [n.input[0] as string, lo, hi] : lo ? [n.input[0] as string, lo] : [n.input[0] as string];
        dropAttrs("min", "max");
      }
      if (target >= 11 && from < 11 && op === "Pad") {
        const value = attrFloat(n, "value", 0);
        n.input = [n.input[0] as string, b.ints(intsOf("pads")), ...(value !== 0 ? [floatScalar(value)] : [])];
        dropAttrs("pads", "value");
      }
      if (target >= 16 && from < 16 && op === "RoiAlign" && !attr(n, "coordinate_transformation_mode"))
        n.attribute.push({
          name: "coordinate_transformation_mode",
          type: onnx.AttributeProto.AttributeType.STRING,
          s: new TextEncoder().encode("output_half_pixel"),
        });
      const moveAttr = (name: string) => {
        const a = attr(n, name);
        if (a === undefined) return;
        n.attribute = n.attribute.filter((x) => x.name !== name);
        const c = b.ints((a.ints ?? []).map(Number));
        // Split's `split` is input 1; the axes of Squeeze/Unsqueeze/ReduceSum are input 1.
        n.input = [n.input[0] as string, c, ...n.input.slice(1)];
      };
      if (target >= 13 && from < 13 && (op === "Squeeze" || op === "Unsqueeze" || op === "ReduceSum")) moveAttr("axes");
      if (target >= 13 && from < 13 && op === "Split") moveAttr("split");
      if (target >= 12 && from < 12 && op === "Dropout") n.attribute = n.attribute.filter((x) => x.name !== "ratio");
      if (target >= 13 && from < 13 && (op === "Softmax" || op === "LogSoftmax" || op === "Hardmax")) {
        const x = n.input[0] as string;
        const axis = attrInt(n, "axis", 1);
        const rank = facts.rank(x);
        const last = axis === -1 || (rank !== undefined && axis === rank - 1);
        n.attribute = n.attribute.filter((a) => a.name !== "axis");
        n.attribute.push({ name: "axis", type: onnx.AttributeProto.AttributeType.INT, i: -1 });
        if (!last) {
          const flat = b.op("Flatten", [x], { axis });
          const y = n.output[0] as string;
          const tmp = b.fresh(`${op}_2d`);
          pushAll(out, b.nodes.splice(0));
          out.push(onnx.NodeProto.create({ ...n, input: [flat], output: [tmp] }));
          b.node("Reshape", [tmp, b.op("Shape", [x])], [y]);
          pushAll(out, b.nodes.splice(0));
          continue;
        }
      }
      pushAll(out, b.nodes.splice(0));
      out.push(n);
    }
    graph.node = out;
    pushAll(graph.initializer, b.initializers.splice(0));
  };
  rewrite(copy.graph as GraphProto);
  for (const o of copy.opsetImport) if (!o.domain || o.domain === "ai.onnx") o.version = target;
  // Opset 13 needs IR version 7.
  if (num(copy.irVersion) < 7) copy.irVersion = 7;
  return copy;
}
