/**
 * Shared machinery of the contrib-op decomposition: a per-node emitter (fresh names, typed constants,
 * opset-aware helpers for ops whose signature changed between opsets) and static facts about tensors
 * (element type, rank, constant values) inferred without running the model.
 */
import { floatToHalf, halfToFloat } from "../convert.js";
import { UnsupportedOpError } from "../errors.js";
import type { GraphBuilder } from "../graph.js";
import {
  attrFloat,
  attrInt,
  attrInts,
  DataType,
  type GraphProto,
  makeTensor,
  type NodeProto,
  num,
  type TensorData,
  type TensorProto,
  tensorData,
  tensorDims,
} from "../proto.js";
import type { TensorFacts } from "./infer.js";

/** What a decomposer may ask and emit while rewriting one contrib node. */
export class Emitter {
  private readonly constants = new Map<string, string>();

  constructor(
    readonly b: GraphBuilder,
    readonly opset: number,
    readonly facts: TensorFacts,
  ) {}

  /** Append a single-output node. */
  op(opType: string, inputs: readonly string[], attrs: Parameters<GraphBuilder["op"]>[2] = {}): string {
    return this.b.op(opType, inputs, attrs);
  }

  /** Append a node with `count` outputs. */
  ops(opType: string, inputs: readonly string[], count: number, attrs: Parameters<GraphBuilder["op"]>[2] = {}) {
    return this.b.node(opType, inputs, count, attrs);
  }

  /** A constant int64 tensor (1-D by default, scalar with `dims: []`). */
  ints(values: readonly number[], dims: readonly number[] = [values.length]): string {
    return this.b.ints(values, dims);
  }

  /** A constant int32 tensor. */
  int32s(values: readonly number[], dims: readonly number[] = [values.length]): string {
    return this.constant(`i32:${dims.join("x")}:${values.join(",")}`, () =>
      makeTensor("", Int32Array.from(values), dims, DataType.INT32),
    );
  }

  /** A constant scalar (or 1-D `dims`) of a floating element type (FLOAT, DOUBLE or FLOAT16). */
  scalar(value: number, elemType: number, dims: readonly number[] = []): string {
    return this.constant(`f${elemType}:${dims.join("x")}:${value}`, () => floatTensor([value], dims, elemType));
  }

  /** A float initializer with the given values (not shared). */
  floats(hint: string, values: ArrayLike<number>, dims: readonly number[], elemType: number): string {
    const name = this.b.fresh(hint);
    const t = floatTensor(values, dims, elemType);
    t.name = name;
    this.b.initializers.push(t);
    return name;
  }

  private constant(key: string, make: () => TensorProto): string {
    let name = this.constants.get(key);
    if (name === undefined) {
      name = this.b.fresh("const");
      const t = make();
      t.name = name;
      this.b.initializers.push(t);
      this.constants.set(key, name);
    }
    return name;
  }

  // ---------- ops whose signature depends on the opset ----------

  unsqueeze(x: string, axes: number[]): string {
    return this.opset >= 13 ? this.op("Unsqueeze", [x, this.ints(axes)]) : this.op("Unsqueeze", [x], { axes });
  }

  squeeze(x: string, axes: number[]): string {
    return this.opset >= 13 ? this.op("Squeeze", [x, this.ints(axes)]) : this.op("Squeeze", [x], { axes });
  }

  reduceMean(x: string, axes: number[], keepdims = 1): string {
    return this.opset >= 18
      ? this.op("ReduceMean", [x, this.ints(axes)], { keepdims })
      : this.op("ReduceMean", [x], { axes, keepdims });
  }

  reduceSum(x: string, axes: number[], keepdims = 1): string {
    return this.opset >= 13
      ? this.op("ReduceSum", [x, this.ints(axes)], { keepdims })
      : this.op("ReduceSum", [x], { axes, keepdims });
  }

  /** Split along `axis` into parts of the given sizes (a constant list or a 1-D int64 tensor name). */
  split(x: string, axis: number, sizes: number[] | string, count: number): string[] {
    const sizesName = typeof sizes === "string" ? sizes : this.ints(sizes);
    return this.ops("Split", [x, sizesName], count, { axis });
  }

  /** Slice along one axis, [start, end). */
  slice(x: string, axis: number, start: number | string, end: number | string): string {
    const s = typeof start === "number" ? this.ints([start]) : start;
    const e = typeof end === "number" ? this.ints([end]) : end;
    return this.op("Slice", [x, s, e, this.ints([axis])]);
  }

  /** The size of dimension `axis` of x as a 1-D int64 tensor of one element. */
  dim(x: string, axis: number): string {
    return this.op("Gather", [this.op("Shape", [x]), this.ints([axis])]);
  }

  cast(x: string, to: number): string {
    return this.op("Cast", [x], { to });
  }

  // ---------- static facts ----------

  elemType(node: NodeProto, tensor: string): number {
    const t = this.facts.elemType(tensor);
    if (t === undefined)
      unsupported(node, tensor, "its element type cannot be inferred statically; add a value_info for it");
    return t;
  }

  rank(node: NodeProto, tensor: string): number {
    const r = this.facts.rank(tensor);
    if (r === undefined) unsupported(node, tensor, "its rank cannot be inferred statically; add a value_info for it");
    return r;
  }

  /** An initializer (or Constant value) by name, or undefined. */
  initializer(name: string): TensorProto | undefined {
    return this.facts.constant(name);
  }
}

/** A float tensor proto of the given element type (FLOAT16 stored as IEEE halves). */
export function floatTensor(values: ArrayLike<number>, dims: readonly number[], elemType: number): TensorProto {
  let data: TensorData;
  if (elemType === DataType.DOUBLE) data = Float64Array.from(values);
  else if (elemType === DataType.FLOAT && values instanceof Float32Array) data = values;
  else if (elemType === DataType.FLOAT16) data = Uint16Array.from(Array.from(values), floatToHalf);
  else data = Float32Array.from(values);
  return makeTensor("", data, dims, elemType === DataType.DOUBLE || elemType === DataType.FLOAT16 ? elemType : 1);
}

/** Values of an initializer as plain numbers (fp16 decoded). */
export function numbersOf(t: TensorProto): number[] {
  const data = tensorData(t);
  if (t.dataType === DataType.FLOAT16) {
    return Array.from(data as Uint16Array, halfToFloat);
  }
  return Array.from(data as ArrayLike<number | bigint>, Number);
}

/** Attribute helpers re-exported for the decomposers. */
export { attrFloat, attrInt, attrInts, num, tensorDims };

/** The most negative finite value of a float type: the additive mask that stays finite in that type. */
export function lowest(elemType: number): number {
  if (elemType === DataType.FLOAT16) return -65504;
  if (elemType === DataType.DOUBLE) return -1.7976931348623157e308;
  return -3.4028234663852886e38;
}

/**
 * A contrib node uses an input, attribute or value the decomposition does not implement. Code
 * `UNSUPPORTED_OP` (it is an {@link UnsupportedOpError}); `feature` names the attribute or input.
 */
export class ContribDecompositionError extends UnsupportedOpError {
  readonly feature: string;
  constructor(opType: string, node: string, feature: string, detail: string) {
    super(opType, node, detail);
    this.feature = feature;
    this.message = `Cannot rewrite ${opType} (node "${node}") into standard ONNX ops: ${feature}: ${detail}. Export the model without this option, or keep the op off the differentiable path.`;
  }
}

/** Reject a feature the decomposition does not implement, naming op, node and attribute/input. */
export function unsupported(node: NodeProto, feature: string, detail: string): never {
  throw new ContribDecompositionError(node.opType ?? "", node.name ?? "", feature, detail);
}

/** Graph type used by the pass. */
export type { GraphProto };
