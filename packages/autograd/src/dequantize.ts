/**
 * Turn weight-quantized and fp16 models into fp32 graphs that can be differentiated:
 * - fp16 initializers, constants, casts and types become fp32;
 * - DequantizeLinear of a constant weight becomes the dequantized fp32 initializer;
 * - onnxruntime's dynamic quantization pattern
 *   DynamicQuantizeLinear(X) -> MatMulInteger(Xq, Wq, Xzp, Wzp) -> Cast(float) -> Mul(Xs * Ws)
 *   becomes MatMul(X, dequantized W): the straight-through view of quantization, exact for the weights.
 */
import { InvalidValueError } from "@npov/core";
import { convertFloatType } from "./convert.js";
import { GradientGraphError } from "./errors.js";
import {
  attrInt,
  cloneModel,
  DataType,
  type GraphProto,
  type ModelProto,
  makeTensor,
  type NodeProto,
  onnx,
  type TensorProto,
  tensorData,
  tensorDims,
} from "./proto.js";
import { pruneDeadNodes } from "./surgery.js";

/** What the pass changed. */
export interface DequantizeReport {
  fp16Converted: boolean;
  dequantizeLinear: number;
  matMulInteger: number;
}

/** Dequantize integer weights: (q - zeroPoint) * scale, per tensor or per `axis`. */
export function dequantizeValues(
  q: ArrayLike<number>,
  dims: number[],
  scale: ArrayLike<number>,
  zeroPoint: ArrayLike<number> | undefined,
  axis: number,
): Float32Array {
  const out = new Float32Array(q.length);
  const perAxis = scale.length > 1;
  const a = axis < 0 ? axis + dims.length : axis;
  const inner = dims.slice(a + 1).reduce((x, y) => x * y, 1);
  const size = dims[a] ?? 1;
  // One scale (and zero point) per slice of the axis, or one in all: a shorter list would give NaN weights.
  if (perAxis && scale.length !== size)
    throw new InvalidValueError(
      "scale",
      `has ${scale.length} values for an axis of ${size}: one per slice, or one in all.`,
    );
  if (zeroPoint !== undefined && zeroPoint.length !== scale.length)
    throw new InvalidValueError("zeroPoint", `has ${zeroPoint.length} values for ${scale.length} scales.`);
  for (let i = 0; i < q.length; i++) {
    const c = perAxis ? Math.floor(i / inner) % size : 0;
    out[i] = ((q[i] as number) - (zeroPoint ? (zeroPoint[c] as number) : 0)) * (scale[c] as number);
  }
  return out;
}

const numbers = (t: TensorProto): number[] => Array.from(tensorData(t) as ArrayLike<number | bigint>, Number);

/** A copy of `model` in fp32 without weight quantization (see the module comment). */
export function dequantizeModel(model: ModelProto): { model: ModelProto; report: DequantizeReport } {
  const hasFp16 =
    (model.graph?.initializer ?? []).some((t) => t.dataType === DataType.FLOAT16) ||
    (model.graph?.input ?? []).some((v) => v.type?.tensorType?.elemType === DataType.FLOAT16) ||
    (model.graph?.node ?? []).some(
      (n) => n.opType === "Cast" && n.attribute?.some((a) => a.name === "to" && Number(a.i) === DataType.FLOAT16),
    );
  const base = hasFp16 ? convertFloatType(model, DataType.FLOAT16, DataType.FLOAT) : cloneModel(model);
  const graph = base.graph as GraphProto;
  const inits = new Map((graph.initializer as TensorProto[]).map((t) => [t.name, t]));
  const report: DequantizeReport = { fp16Converted: hasFp16, dequantizeLinear: 0, matMulInteger: 0 };
  let nodes = graph.node as NodeProto[];

  // DequantizeLinear on constant weights -> fp32 initializers.
  nodes = nodes.filter((n) => {
    if (n.opType !== "DequantizeLinear") return true;
    const [xq, scale, zp] = n.input.map((name) => (name ? inits.get(name) : undefined));
    if (xq === undefined || scale === undefined) return true; // activation quantization: left alone
    const values = dequantizeValues(
      numbers(xq),
      tensorDims(xq),
      numbers(scale),
      zp ? numbers(zp) : undefined,
      attrInt(n, "axis", 1),
    );
    const t = makeTensor(n.output[0] as string, values, tensorDims(xq), DataType.FLOAT);
    graph.initializer.push(t);
    inits.set(t.name, t);
    report.dequantizeLinear++;
    return false;
  });

  // Dynamic quantization: MatMulInteger chains -> MatMul on fp32 weights.
  const producer = new Map<string, NodeProto>();
  const consumers = new Map<string, NodeProto[]>();
  for (const n of nodes) {
    for (const o of n.output) producer.set(o, n);
    for (const x of n.input) if (x) consumers.set(x, [...(consumers.get(x) ?? []), n]);
  }
  const drop = new Set<NodeProto>();
  const replacements = new Map<NodeProto, NodeProto>();
  for (const m of nodes) {
    if (m.opType !== "MatMulInteger") continue;
    const [aq, wqName, , wzpName] = m.input;
    const dq = producer.get(aq as string);
    const wq = inits.get(wqName as string);
    const cast = consumers.get(m.output[0] as string)?.[0];
    const mul = cast ? consumers.get(cast.output[0] as string)?.[0] : undefined;
    if (dq?.opType !== "DynamicQuantizeLinear" || wq === undefined || cast?.opType !== "Cast" || mul?.opType !== "Mul")
      throw new GradientGraphError(
        `MatMulInteger "${m.name}" is not in onnxruntime's dynamic-quantization pattern; cannot dequantize it.`,
      );
    const scaleName = mul.input.find((x) => x !== cast.output[0]) as string;
    const scaleMul = producer.get(scaleName);
    const wsName = scaleMul?.opType === "Mul" ? scaleMul.input.find((x) => x !== dq.output[1]) : undefined;
    const ws = wsName ? inits.get(wsName) : undefined;
    if (ws === undefined) throw new GradientGraphError(`cannot find the weight scale of MatMulInteger "${m.name}".`);
    const wzp = wzpName ? inits.get(wzpName) : undefined;
    // Per-column weight scales run along the last axis of W [K, N].
    const dims = tensorDims(wq);
    const values = dequantizeValues(numbers(wq), dims, numbers(ws), wzp ? numbers(wzp) : undefined, dims.length - 1);
    const wName = `${wqName}/dequantized`;
    if (!inits.has(wName)) {
      const t = makeTensor(wName, values, dims, DataType.FLOAT);
      graph.initializer.push(t);
      inits.set(wName, t);
    }
    replacements.set(
      mul,
      onnx.NodeProto.create({
        opType: "MatMul",
        name: `${m.name}/dequantized`,
        input: [dq.input[0] as string, wName],
        output: [mul.output[0] as string],
      }),
    );
    drop.add(m);
    drop.add(cast);
    report.matMulInteger++;
  }
  graph.node = nodes.filter((n) => !drop.has(n)).map((n) => replacements.get(n) ?? n);
  pruneDeadNodes(graph);
  return { model: base, report };
}
