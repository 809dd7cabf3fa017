/**
 * Which ONNX ops the gradient builder handles on a differentiable path, and at which opsets: the source of
 * docs/models.md's op-coverage table (scripts/models-doc.ts) and of the test that checks every entry at its
 * oldest and newest opset against central finite differences (packages/autograd/test/op-coverage.test.ts).
 */
import { INTEGER_OUTPUT_OPS, RULES, ZERO_GRADIENT_OPS } from "./rules.js";

/**
 * The opset versions of each op (the versions that changed it), as `onnx/defs/operator_sets.h` lists them
 * up to opset 21, plus the first version of ops added later (Gelu 20, RMSNormalization 23). Versions after
 * 21 that only widened the accepted types are not listed: the newest-opset test covers them.
 */
export const ONNX_OP_VERSIONS: Readonly<Record<string, readonly number[]>> = {
  Abs: [1, 6, 13],
  Add: [1, 6, 7, 13, 14],
  ArgMax: [1, 11, 12, 13],
  ArgMin: [1, 11, 12, 13],
  Cast: [1, 6, 9, 13, 19],
  Ceil: [1, 6, 13],
  Clip: [1, 6, 11, 12, 13],
  Concat: [1, 4, 11, 13],
  Cos: [7],
  CumSum: [11, 14],
  Div: [1, 6, 7, 13, 14],
  Dropout: [1, 6, 7, 10, 12, 13],
  Einsum: [12],
  Erf: [9, 13],
  Exp: [1, 6, 13],
  Expand: [8, 13],
  Flatten: [1, 9, 11, 13],
  Floor: [1, 6, 13],
  Gather: [1, 11, 13],
  GatherElements: [11, 13],
  GatherND: [11, 12, 13],
  Gelu: [20],
  Gemm: [1, 6, 7, 9, 11, 13],
  Identity: [1, 13, 14, 16, 19],
  LayerNormalization: [17],
  LeakyRelu: [1, 6, 16],
  Log: [1, 6, 13],
  LogSoftmax: [1, 11, 13],
  MatMul: [1, 9, 13],
  Max: [1, 6, 8, 12, 13],
  Mean: [1, 6, 8, 13],
  Min: [1, 6, 8, 12, 13],
  Mul: [1, 6, 7, 13, 14],
  Neg: [1, 6, 13],
  Pad: [1, 2, 11, 13, 18, 19],
  Pow: [1, 7, 12, 13, 15],
  RMSNormalization: [23],
  Reciprocal: [1, 6, 13],
  ReduceMax: [1, 11, 12, 13, 18, 20],
  ReduceMean: [1, 11, 13, 18],
  ReduceMin: [1, 11, 12, 13, 18, 20],
  ReduceSum: [1, 11, 13],
  Relu: [1, 6, 13, 14],
  Reshape: [1, 5, 13, 14, 19],
  Round: [11],
  ScatterElements: [11, 13, 16, 18],
  ScatterND: [11, 13, 16, 18],
  Sigmoid: [1, 6, 13],
  Sign: [9, 13],
  Sin: [7],
  Slice: [1, 10, 11, 13],
  Softmax: [1, 11, 13],
  Softplus: [1],
  Split: [1, 2, 11, 13, 18],
  Sqrt: [1, 6, 13],
  Squeeze: [1, 11, 13],
  Sub: [1, 6, 7, 13, 14],
  Sum: [1, 6, 8, 13],
  Tanh: [1, 6, 13],
  Tile: [1, 6, 13],
  Transpose: [1, 13],
  Trilu: [14],
  Unsqueeze: [1, 11, 13],
  Where: [9, 16],
};

/** The oldest default-domain opset onnxruntime loads (ONNX 1.2), and the oldest `upgradeOpset` raises. */
export const OLDEST_OPSET = 7;

/** The newest default-domain opset onnxruntime-node 1.30 loads: every op is also tested there. */
export const NEWEST_OPSET = 26;

/**
 * How the gradient builder treats an op on a differentiable path: `rule` (a vector-Jacobian product),
 * `zero` (piecewise constant: the derivative is 0 wherever it exists, so the path ends there exactly),
 * `stop` (integer outputs, e.g. ArgMax: nothing to differentiate), or undefined (no rule: building a
 * gradient through it raises UNSUPPORTED_OP).
 */
export function gradientKind(op: string): "rule" | "zero" | "stop" | undefined {
  if (RULES[op] !== undefined) return "rule";
  if (ZERO_GRADIENT_OPS.includes(op)) return "zero";
  if (INTEGER_OUTPUT_OPS.includes(op)) return "stop";
  return undefined;
}

/** Every op with a rule, a zero gradient or a stop, sorted. */
export function coveredOps(): string[] {
  return [...Object.keys(RULES), ...ZERO_GRADIENT_OPS, ...INTEGER_OUTPUT_OPS].sort();
}

/**
 * The opsets an op's rule must be checked at: its first version (or {@link OLDEST_OPSET} when older) and
 * {@link NEWEST_OPSET}.
 * @throws RangeError for an op without an entry in {@link ONNX_OP_VERSIONS}.
 */
export function opsetRange(op: string): { oldest: number; newest: number } {
  const versions = ONNX_OP_VERSIONS[op];
  if (versions === undefined || versions.length === 0) throw new RangeError(`no ONNX versions recorded for ${op}`);
  return { oldest: Math.max(OLDEST_OPSET, versions[0] as number), newest: NEWEST_OPSET };
}
