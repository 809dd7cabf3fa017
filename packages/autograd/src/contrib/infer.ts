/**
 * Static element-type and rank inference over a model (and its If/Loop/Scan subgraphs), enough for the
 * contrib-op decomposers: they must pick constant types (fp16 vs fp32) and layouts (3-D vs 4-D) without
 * running the model. Unknown facts stay undefined; a decomposer that needs one raises a typed error.
 */

import { maxOf } from "@npov/core";
import {
  attr,
  attrInt,
  attrInts,
  DataType,
  type GraphProto,
  type IGraphProto,
  type ModelProto,
  type NodeProto,
  num,
  type TensorProto,
  tensorData,
  valueInfoShape,
} from "../proto.js";

/** Facts about the tensors of a model, by name (names are unique across a model and its subgraphs). */
export interface TensorFacts {
  elemType(name: string): number | undefined;
  rank(name: string): number | undefined;
  /** An initializer or Constant-node value, or undefined. */
  constant(name: string): TensorProto | undefined;
}

const SAME_AS_FIRST = new Set([
  "Identity",
  "Dropout",
  "Neg",
  "Abs",
  "Relu",
  "Sigmoid",
  "Tanh",
  "Erf",
  "Exp",
  "Log",
  "Sqrt",
  "Reciprocal",
  "Softmax",
  "LogSoftmax",
  "Transpose",
  "Slice",
  "Split",
  "Concat",
  "Tile",
  "Pad",
  "Clip",
  "CumSum",
  "Trilu",
  "Floor",
  "Ceil",
  "Round",
  "LayerNormalization",
  "SimplifiedLayerNormalization",
  "SkipLayerNormalization",
  "SkipSimplifiedLayerNormalization",
  "FastGelu",
  "Gelu",
  "BiasGelu",
  "QuickGelu",
  "BiasAdd",
  "RotaryEmbedding",
  "MatMulNBits",
  "Not",
  "Sign",
  "HardSigmoid",
  "LeakyRelu",
  "Elu",
  "Softplus",
]);
const BROADCAST = new Set([
  "Add",
  "Sub",
  "Mul",
  "Div",
  "Pow",
  "Equal",
  "Less",
  "LessOrEqual",
  "Greater",
  "GreaterOrEqual",
  "And",
  "Or",
  "Xor",
  "Max",
  "Min",
  "Sum",
  "Mean",
  "Mod",
  "Where",
]);
const BOOL_OUT = new Set(["Equal", "Less", "LessOrEqual", "Greater", "GreaterOrEqual", "And", "Or", "Xor", "Not"]);
const REDUCE = new Set([
  "ReduceSum",
  "ReduceMean",
  "ReduceMax",
  "ReduceMin",
  "ReduceProd",
  "ReduceL2",
  "ReduceSumSquare",
]);

/** Infer element types and ranks of every tensor in the model. */
export function inferFacts(model: ModelProto): TensorFacts {
  const types = new Map<string, number>();
  const ranks = new Map<string, number>();
  const constants = new Map<string, TensorProto>();
  const opset = (model.opsetImport ?? []).find((o) => !o.domain || o.domain === "ai.onnx");
  const version = opset ? num(opset.version) : 0;

  const constInts = (name: string | undefined): number[] | undefined => {
    if (!name) return undefined;
    const t = constants.get(name);
    if (t === undefined || (t.dataType !== DataType.INT64 && t.dataType !== DataType.INT32)) return undefined;
    return Array.from(tensorData(t) as ArrayLike<number | bigint>, Number);
  };
  const constLength = (name: string | undefined): number | undefined => {
    if (!name) return undefined;
    const t = constants.get(name);
    if (t !== undefined) return (t.dims ?? []).map(num).reduce((a, b) => a * b, 1);
    return undefined;
  };

  const visit = (graph: IGraphProto) => {
    for (const t of graph.initializer ?? []) {
      types.set(t.name ?? "", t.dataType ?? 0);
      ranks.set(t.name ?? "", (t.dims ?? []).length);
      constants.set(t.name ?? "", t as TensorProto);
    }
    for (const v of [...(graph.input ?? []), ...(graph.valueInfo ?? []), ...(graph.output ?? [])]) {
      const { elemType, shape } = valueInfoShape(v);
      if (elemType) types.set(v.name ?? "", elemType);
      if (shape !== undefined) ranks.set(v.name ?? "", shape.length);
    }
    for (const n of graph.node ?? []) {
      for (const a of n.attribute ?? []) {
        if (a.g) visit(a.g);
        for (const g of a.graphs ?? []) visit(g);
      }
      inferNode(n as NodeProto);
    }
  };

  const setOut = (n: NodeProto, k: number, type: number | undefined, rank: number | undefined) => {
    const o = n.output[k];
    if (!o) return;
    if (type !== undefined && !types.has(o)) types.set(o, type);
    if (rank !== undefined && !ranks.has(o)) ranks.set(o, rank);
  };

  const inferNode = (n: NodeProto) => {
    const op = n.opType ?? "";
    const t0 = types.get(n.input[0] ?? "");
    const r = (k: number) => ranks.get(n.input[k] ?? "");
    const r0 = r(0);
    if (op === "Constant") {
      const value = attr(n, "value")?.t;
      if (value) {
        constants.set(n.output[0] as string, value as TensorProto);
        setOut(n, 0, value.dataType ?? undefined, (value.dims ?? []).length);
      } else if (attr(n, "value_ints")) setOut(n, 0, DataType.INT64, 1);
      else if (attr(n, "value_int")) setOut(n, 0, DataType.INT64, 0);
      else if (attr(n, "value_floats")) setOut(n, 0, DataType.FLOAT, 1);
      else if (attr(n, "value_float")) setOut(n, 0, DataType.FLOAT, 0);
      return;
    }
    if (SAME_AS_FIRST.has(op)) {
      n.output.forEach((_, k) => {
        setOut(n, k, t0, r0);
      });
      if (op === "Dropout") setOut(n, 1, DataType.BOOL, r0);
      return;
    }
    if (BROADCAST.has(op)) {
      const rs = n.input.map((_, k) => r(k));
      const rank = rs.every((x) => x !== undefined) ? maxOf(rs as number[], Number.NEGATIVE_INFINITY) : undefined;
      const type = BOOL_OUT.has(op) ? DataType.BOOL : op === "Where" ? types.get(n.input[1] ?? "") : t0;
      setOut(n, 0, type, rank);
      return;
    }
    if (REDUCE.has(op)) {
      const keep = attrInt(n, "keepdims", 1);
      const axes = attrInts(n, "axes") ?? constInts(n.input[1]);
      const rank =
        r0 === undefined ? undefined : keep ? r0 : axes === undefined || axes.length === 0 ? 0 : r0 - axes.length;
      setOut(n, 0, t0, rank);
      return;
    }
    switch (op) {
      case "Cast":
        setOut(n, 0, attrInt(n, "to", 0), r0);
        return;
      case "CastLike":
        setOut(n, 0, types.get(n.input[1] ?? ""), r0);
        return;
      case "Shape":
        setOut(n, 0, DataType.INT64, 1);
        return;
      case "Size":
        setOut(n, 0, DataType.INT64, 0);
        return;
      case "NonZero":
        setOut(n, 0, DataType.INT64, 2);
        return;
      case "ArgMax":
      case "ArgMin":
        setOut(n, 0, DataType.INT64, r0 === undefined ? undefined : attrInt(n, "keepdims", 1) ? r0 : r0 - 1);
        return;
      case "Range":
        setOut(n, 0, t0, 1);
        return;
      case "ConstantOfShape": {
        const value = attr(n, "value")?.t;
        setOut(n, 0, value?.dataType ?? DataType.FLOAT, constLength(n.input[0]) ?? undefined);
        return;
      }
      case "Reshape":
        setOut(n, 0, t0, constLength(n.input[1]));
        return;
      case "Expand": {
        const len = constLength(n.input[1]);
        setOut(n, 0, t0, len !== undefined && r0 !== undefined ? Math.max(len, r0) : undefined);
        return;
      }
      case "Unsqueeze": {
        const axes = version >= 13 ? constInts(n.input[1]) : attrInts(n, "axes");
        setOut(n, 0, t0, r0 !== undefined && axes !== undefined ? r0 + axes.length : undefined);
        return;
      }
      case "Squeeze": {
        const axes = version >= 13 ? constInts(n.input[1]) : attrInts(n, "axes");
        setOut(n, 0, t0, r0 !== undefined && axes !== undefined ? r0 - axes.length : undefined);
        return;
      }
      case "Flatten":
        setOut(n, 0, t0, 2);
        return;
      case "Gather": {
        const ri = r(1);
        setOut(n, 0, t0, r0 !== undefined && ri !== undefined ? r0 - 1 + ri : undefined);
        return;
      }
      case "GatherElements":
        setOut(n, 0, t0, r(1));
        return;
      case "MatMul":
      case "FusedMatMul": {
        const ra = r0;
        const rb = r(1);
        let rank: number | undefined;
        if (ra !== undefined && rb !== undefined) rank = ra === 1 ? rb - 1 : rb === 1 ? ra - 1 : Math.max(ra, rb);
        setOut(n, 0, t0, rank);
        return;
      }
      case "Gemm":
        setOut(n, 0, t0, 2);
        return;
      case "Attention":
        setOut(n, 0, t0, 3);
        setOut(n, 1, t0, 5);
        return;
      case "MultiHeadAttention":
      case "GroupQueryAttention":
        setOut(n, 0, t0, 3);
        setOut(n, 1, t0, 4);
        setOut(n, 2, t0, 4);
        return;
      case "EmbedLayerNormalization": {
        const table = types.get(n.input[2] ?? "");
        setOut(n, 0, table, 3);
        setOut(n, 1, DataType.INT32, 1);
        setOut(n, 2, table, 3);
        return;
      }
      case "If": {
        const branch = attr(n, "then_branch")?.g;
        (branch?.output ?? []).forEach((o, k) => {
          const { elemType, shape } = valueInfoShape(o);
          setOut(n, k, elemType || types.get(o.name ?? ""), shape?.length ?? ranks.get(o.name ?? ""));
        });
        return;
      }
      default:
        // Unknown op: its outputs stay unknown unless a value_info says otherwise.
        return;
    }
  };

  visit(model.graph as GraphProto);
  return {
    elemType: (name) => types.get(name),
    rank: (name) => ranks.get(name),
    constant: (name) => constants.get(name),
  };
}
