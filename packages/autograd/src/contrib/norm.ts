/**
 * Layer normalizations of onnxruntime: `SimplifiedLayerNormalization` (RMSNorm; ORT registers it in the
 * default domain), `SkipSimplifiedLayerNormalization`, `SkipLayerNormalization` and com.microsoft
 * `LayerNormalization`.
 *
 * Like ORT's CPU kernels, float16 inputs are normalized in float32 (input + skip + bias summed in float32,
 * statistics in float32, result rounded to float16 once). Statistics outputs (mean, inv_std_var) are
 * float32 for float16 inputs (ORT's stash type) and keep the normalized axes as size-1 dims.
 * Not covered: the `mean` output of SkipSimplifiedLayerNormalization (RMSNorm has no mean; ORT leaves it
 * unset), which raises a typed error when a graph asks for it.
 */
import { DataType, type NodeProto } from "../proto.js";
import { attrFloat, attrInt, type Emitter, unsupported } from "./context.js";

/** float16 computes in float32; other types in themselves. */
export const computeType = (elemType: number) => (elemType === DataType.FLOAT16 ? DataType.FLOAT : elemType);

/** Cast x to the compute type when it differs from `elemType`. */
export function up(e: Emitter, x: string, elemType: number): string {
  return elemType === DataType.FLOAT16 ? e.cast(x, DataType.FLOAT) : x;
}

/** Cast a compute-type result back to `elemType`. */
export function down(e: Emitter, y: string, elemType: number): string {
  return elemType === DataType.FLOAT16 ? e.cast(y, DataType.FLOAT16) : y;
}

export interface Normalized {
  y: string;
  mean?: string;
  invStd: string;
}

/**
 * Normalize `x` (compute type `ct`) over `axes` and apply gamma (and beta): RMSNorm when `simplified`,
 * else LayerNorm (the standard LayerNormalization op from opset 17, its decomposition before).
 */
export function normalize(
  e: Emitter,
  x: string,
  gamma: string,
  beta: string | undefined,
  axes: number[],
  eps: number,
  ct: number,
  simplified: boolean,
): Normalized {
  const epsName = e.scalar(eps, ct);
  if (simplified) {
    const ms = e.reduceMean(e.op("Mul", [x, x]), axes);
    const denom = e.op("Sqrt", [e.op("Add", [ms, epsName])]);
    let y = e.op("Mul", [e.op("Div", [x, denom]), gamma]);
    if (beta) y = e.op("Add", [y, beta]);
    return { y, invStd: e.op("Reciprocal", [denom]) };
  }
  if (e.opset >= 17 && axes.every((a, k) => k === 0 || a === (axes[k - 1] as number) + 1)) {
    const inputs = beta ? [x, gamma, beta] : [x, gamma];
    const [y, mean, invStd] = e.ops("LayerNormalization", inputs, 3, {
      axis: axes[0] as number,
      epsilon: { float: eps },
    }) as [string, string, string];
    return { y, mean, invStd };
  }
  const mean = e.reduceMean(x, axes);
  const xc = e.op("Sub", [x, mean]);
  const variance = e.reduceMean(e.op("Mul", [xc, xc]), axes);
  const denom = e.op("Sqrt", [e.op("Add", [variance, epsName])]);
  let y = e.op("Mul", [e.op("Div", [xc, denom]), gamma]);
  if (beta) y = e.op("Add", [y, beta]);
  return { y, mean, invStd: e.op("Reciprocal", [denom]) };
}

/** The normalized axes for `axis` (negative axes need no rank). */
function axesFrom(e: Emitter, node: NodeProto, x: string, axis: number): number[] {
  if (axis < 0) return Array.from({ length: -axis }, (_, i) => axis + i);
  const r = e.rank(node, x);
  return Array.from({ length: r - axis }, (_, i) => axis + i);
}

/** SimplifiedLayerNormalization / com.microsoft LayerNormalization: (X, scale[, B]) -> (Y, [Mean,] InvStdDev). */
export function layerNorm(simplified: boolean) {
  return (e: Emitter, node: NodeProto): Array<string | undefined> => {
    const [x, scale, bias] = node.input as [string, string, string | undefined];
    const type = e.elemType(node, x);
    const ct = computeType(type);
    const axes = axesFrom(e, node, x, attrInt(node, "axis", -1));
    const eps = attrFloat(node, "epsilon", 1e-5);
    const n = normalize(
      e,
      up(e, x, type),
      up(e, scale, type),
      bias ? up(e, bias, type) : undefined,
      axes,
      eps,
      ct,
      simplified,
    );
    const y = down(e, n.y, type);
    return simplified ? [y, n.invStd] : [y, n.mean, n.invStd];
  };
}

/**
 * SkipLayerNormalization (input, skip, gamma, beta?, bias?) and SkipSimplifiedLayerNormalization
 * (input, skip, gamma, bias?) -> (output, mean, inv_std_var, input_skip_bias_sum).
 */
export function skipLayerNorm(simplified: boolean) {
  return (e: Emitter, node: NodeProto): Array<string | undefined> => {
    const [x, skip, gamma] = node.input as [string, string, string];
    const beta = simplified ? undefined : node.input[3] || undefined;
    const bias = (simplified ? node.input[3] : node.input[4]) || undefined;
    if (simplified && node.output[1]) unsupported(node, "output mean", "RMSNorm has no mean; ORT leaves it unset");
    const type = e.elemType(node, x);
    const ct = computeType(type);
    const eps = attrFloat(node, "epsilon", 1e-12);
    let sum = e.op("Add", [up(e, x, type), up(e, skip, type)]);
    if (bias) sum = e.op("Add", [sum, up(e, bias, type)]);
    const n = normalize(e, sum, up(e, gamma, type), beta ? up(e, beta, type) : undefined, [-1], eps, ct, simplified);
    return [down(e, n.y, type), n.mean, n.invStd, down(e, sum, type)];
  };
}
