/**
 * Float-type conversion of a whole model: fp16 -> fp32 (so published fp16 models can be differentiated)
 * or fp32 -> fp64 (for double-precision gradient checks). Converts initializers, Constant and
 * ConstantOfShape values, Cast targets, and input/output/value_info types.
 */
import {
  DataType,
  type GraphProto,
  type IGraphProto,
  type ITensorProto,
  type ModelProto,
  makeTensor,
  onnx,
  type TensorProto,
  tensorData,
  tensorDims,
} from "./proto.js";

/** IEEE 754 half -> number. */
export function halfToFloat(h: number): number {
  const sign = h & 0x8000 ? -1 : 1;
  const exponent = (h >> 10) & 0x1f;
  const fraction = h & 0x3ff;
  if (exponent === 0) return sign * 2 ** -14 * (fraction / 1024);
  if (exponent === 31) return fraction ? Number.NaN : sign * Number.POSITIVE_INFINITY;
  return sign * 2 ** (exponent - 15) * (1 + fraction / 1024);
}

/** number -> IEEE 754 half (round to nearest even). */
export function floatToHalf(value: number): number {
  const f32 = new Float32Array([value]);
  const u = new Uint32Array(f32.buffer)[0] as number;
  const sign = (u >>> 16) & 0x8000;
  const exp = ((u >>> 23) & 0xff) - 127 + 15;
  let mant = u & 0x7fffff;
  if (((u >>> 23) & 0xff) === 0xff) return sign | 0x7c00 | (mant ? 0x200 : 0);
  if (exp >= 31) return sign | 0x7c00;
  if (exp <= 0) {
    if (exp < -10) return sign;
    mant |= 0x800000;
    const shift = 14 - exp;
    const half = mant >> shift;
    const rest = mant & ((1 << shift) - 1);
    const mid = 1 << (shift - 1);
    return sign | (half + (rest > mid || (rest === mid && half & 1) ? 1 : 0));
  }
  const half = (exp << 10) | (mant >> 13);
  const rest = mant & 0x1fff;
  return sign | (half + (rest > 0x1000 || (rest === 0x1000 && half & 1) ? 1 : 0));
}

function convertTensor(t: ITensorProto, from: number, to: number): TensorProto | undefined {
  if (t.dataType !== from) return undefined;
  const data = tensorData(t);
  const values =
    from === DataType.FLOAT16 ? Array.from(data as Uint16Array, halfToFloat) : Array.from(data as Float32Array);
  const out =
    to === DataType.DOUBLE
      ? Float64Array.from(values)
      : to === DataType.FLOAT16
        ? Uint16Array.from(values, floatToHalf)
        : Float32Array.from(values);
  return makeTensor(t.name ?? "", out, tensorDims(t), to);
}

/** Retype a graph and its subgraphs (If/Loop/Scan bodies) in place. */
function convertGraph(graph: IGraphProto, from: number, to: number): void {
  graph.initializer = (graph.initializer ?? []).map((t) => convertTensor(t, from, to) ?? t);
  const retype = (v: NonNullable<IGraphProto["input"]>[number]) => {
    const tt = v.type?.tensorType;
    if (tt && tt.elemType === from) tt.elemType = to;
  };
  for (const list of [graph.input, graph.output, graph.valueInfo]) for (const v of list ?? []) retype(v);
  for (const n of graph.node ?? []) {
    for (const a of n.attribute ?? []) {
      if (a.t) {
        const converted = convertTensor(a.t, from, to);
        if (converted) a.t = converted;
      }
      if (a.g) convertGraph(a.g, from, to);
      for (const g of a.graphs ?? []) convertGraph(g, from, to);
      if (n.opType === "Cast" && a.name === "to" && Number(a.i) === from) a.i = to;
    }
  }
}

/** A copy of `model` with every `from`-typed float tensor and type annotation changed to `to` (subgraphs too). */
export function convertFloatType(model: ModelProto, from: number, to: number): ModelProto {
  const copy = onnx.ModelProto.decode(onnx.ModelProto.encode(model).finish());
  convertGraph(copy.graph as GraphProto, from, to);
  return copy;
}
