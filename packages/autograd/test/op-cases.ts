// The op-coverage cases: for every op the gradient builder handles (a rule, a zero gradient or a stop), a
// minimal graph at the op's oldest opset (its first version, or 7, onnxruntime's oldest) and at the newest
// opset onnxruntime-node loads (26), each checked against central finite differences by op-coverage.test.ts.
// scripts/models-doc.ts reads this list to write docs/models.md's op-coverage table.
import { DataType, makeTensor, NEWEST_OPSET, type TensorProto } from "@npov/autograd";
// Types only: scripts/models-doc.ts imports this file outside vitest, where helpers.ts (vitest's expect) cannot load.
import type { NodeSpec } from "./helpers.js";

const i64 = (name: string, values: number[], dims = [values.length]) =>
  makeTensor(name, BigInt64Array.from(values.map(BigInt)), dims, DataType.INT64);

export interface OpCaseInput {
  name: string;
  dims: number[];
  /** Explicit values (else seeded random in [-1, 1)). */
  values?: number[];
  /** Map random values to [0.5, 1.5) (logarithms, roots, divisors). */
  positive?: boolean;
}

export interface OpCase {
  /** The op the case checks. */
  op: string;
  opset: number;
  /** What the case exercises. */
  name: string;
  inputs: OpCaseInput[];
  nodes: NodeSpec[];
  initializers?: TensorProto[];
  /** Inputs differentiated (default: all). */
  wrt?: string[];
  /** float64 unless onnxruntime has only a float32 kernel for the op at that opset. */
  dtype?: "double" | "float";
  /** Finite-difference step and relative tolerance, when not the dtype's defaults (float64 1e-6 and 1e-6). */
  h?: number;
  tol?: number;
}

/** The file that runs the cases (named in docs/models.md). */
export const OP_CASES_TEST = "packages/autograd/test/op-coverage.test.ts";

const N = NEWEST_OPSET;
const x = (dims: number[], extra: Partial<OpCaseInput> = {}): OpCaseInput => ({ name: "x", dims, ...extra });
const y = (dims: number[], extra: Partial<OpCaseInput> = {}): OpCaseInput => ({ name: "y", dims, ...extra });
const z = (dims: number[], extra: Partial<OpCaseInput> = {}): OpCaseInput => ({ name: "z", dims, ...extra });
const f64 = (name: string, values: number[], dims = [values.length]) =>
  makeTensor(name, Float64Array.from(values), dims, 11);

/** The same one-node graph at both opsets. */
function both(
  op: string,
  oldest: number,
  spec: Omit<OpCase, "op" | "opset" | "name"> & { name?: string },
  newest = N,
): OpCase[] {
  return [oldest, newest].map((opset) => ({ op, opset, name: spec.name ?? op, ...spec }));
}

/** Unary elementwise op at both opsets. */
function unary(
  op: string,
  oldest: number,
  extra: { positive?: boolean; dtype?: "double" | "float"; attrs?: NodeSpec[3] } = {},
): OpCase[] {
  return both(op, oldest, {
    inputs: [x([2, 3], extra.positive ? { positive: true } : {})],
    nodes: [[op, ["x"], ["out"], extra.attrs ?? {}]],
    ...(extra.dtype ? { dtype: extra.dtype } : {}),
  });
}

/** Values away from the integers (and from 0): rounding ops are only differentiable there. */
const OFF_INTEGER = [0.3, -0.6, 1.4, -1.2, 2.7, -2.35];

export const OP_CASES: OpCase[] = [
  // ---- elementwise ----
  ...unary("Abs", 7),
  ...unary("Neg", 7),
  ...unary("Exp", 7),
  ...unary("Log", 7, { positive: true }),
  ...unary("Sqrt", 7, { positive: true }),
  ...unary("Reciprocal", 7, { positive: true }),
  ...unary("Tanh", 7),
  ...unary("Sigmoid", 7),
  ...unary("Relu", 7),
  ...unary("Softplus", 7, { dtype: "float" }),
  ...unary("LeakyRelu", 7, { attrs: { alpha: 0.2 }, dtype: "float" }),
  ...unary("Erf", 9, { dtype: "float" }),
  ...unary("Sin", 7),
  ...unary("Cos", 7),
  ...both("Gelu", 20, { name: "Gelu (exact)", inputs: [x([2, 3])], nodes: [["Gelu", ["x"], ["out"]]], dtype: "float" }),
  ...both("Gelu", 20, {
    name: "Gelu (tanh approximation)",
    inputs: [x([2, 3])],
    nodes: [["Gelu", ["x"], ["out"], { approximate: "tanh" }]],
    dtype: "float",
  }),
  ...["Add", "Sub", "Mul"].flatMap((op) =>
    both(op, 7, {
      name: `${op} (broadcast [2,3,4] and [3,1])`,
      inputs: [x([2, 3, 4]), y([3, 1])],
      nodes: [[op, ["x", "y"], ["out"]]],
    }),
  ),
  ...both("Div", 7, {
    name: "Div (broadcast)",
    inputs: [x([2, 3]), y([1, 3], { positive: true })],
    nodes: [["Div", ["x", "y"], ["out"]]],
  }),
  ...both("Pow", 7, {
    name: "Pow (constant exponent 2.5)",
    inputs: [x([2, 3], { positive: true })],
    nodes: [["Pow", ["x", "p"], ["out"]]],
    initializers: [f64("p", [2.5], [])],
  }),
  // Variadic Max/Min/Sum/Mean: no broadcasting before opset 8 (a constant has the input's shape there);
  // onnxruntime's Max-6/Min-6 and every Mean kernel are float32 only.
  ...["Max", "Min", "Sum", "Mean"].flatMap((op): OpCase[] => [
    {
      op,
      opset: 7,
      name: `${op} of three inputs`,
      inputs: [x([2, 3]), y([2, 3]), z([2, 3])],
      nodes: [[op, ["x", "y", "z"], ["out"]]],
      ...(op === "Sum" ? {} : { dtype: "float" as const }),
    },
    {
      op,
      opset: N,
      name: `${op} of three inputs (broadcast, one input twice)`,
      inputs: [x([2, 3]), y([3])],
      nodes: [[op, ["x", "y", "x"], ["out"]]],
      ...(op === "Mean" ? { dtype: "float" as const } : {}),
    },
  ]),
  {
    op: "Max",
    opset: 7,
    name: "Max with a constant (attention-mask floor)",
    inputs: [x([2, 3])],
    nodes: [["Max", ["x", "floor"], ["out"]]],
    initializers: [makeTensor("floor", new Float32Array(6).fill(-0.25), [2, 3], 1)],
    dtype: "float",
  },
  {
    op: "Max",
    opset: N,
    name: "Max with a constant (attention-mask floor)",
    inputs: [x([2, 3])],
    nodes: [["Max", ["x", "floor"], ["out"]]],
    initializers: [f64("floor", [-0.25], [])],
  },
  ...both("Where", 9, {
    name: "Where (broadcast branches)",
    inputs: [x([2, 3]), y([3])],
    nodes: [
      ["Greater", ["x", "zero"], ["cond"]],
      ["Where", ["cond", "x", "y"], ["out"]],
    ],
    initializers: [f64("zero", [0.1], [])],
  }),
  // Clip: bounds are attributes before opset 11, inputs from 11 (the newest case also differentiates them).
  {
    op: "Clip",
    opset: 7,
    name: "Clip (attribute bounds)",
    inputs: [x([2, 4], { values: [0.1, -0.5, 0.45, -0.2, 0.9, -0.8, 0.05, 0.25] })],
    nodes: [["Clip", ["x"], ["out"], { min: -0.3, max: 0.4 }]],
    dtype: "float",
  },
  {
    op: "Clip",
    opset: N,
    name: "Clip (input bounds, differentiated too)",
    inputs: [
      x([2, 4], { values: [0.1, -0.5, 0.45, -0.2, 0.9, -0.8, 0.05, 0.25] }),
      { name: "lo", dims: [], values: [-0.3] },
      { name: "hi", dims: [], values: [0.4] },
    ],
    nodes: [["Clip", ["x", "lo", "hi"], ["out"]]],
  },
  // Zero gradients: y = x * op(x) has derivative op(x) exactly when op's derivative is 0 (away from steps).
  ...["Floor", "Ceil"].flatMap((op) =>
    both(op, 7, {
      name: `${op} (zero gradient: x * ${op}(x))`,
      inputs: [x([2, 3], { values: OFF_INTEGER })],
      nodes: [
        [op, ["x"], ["r"]],
        ["Mul", ["x", "r"], ["out"]],
      ],
      dtype: "float",
    }),
  ),
  ...both("Round", 11, {
    name: "Round (zero gradient: x * Round(x))",
    inputs: [x([2, 3], { values: OFF_INTEGER })],
    nodes: [
      ["Round", ["x"], ["r"]],
      ["Mul", ["x", "r"], ["out"]],
    ],
    dtype: "float",
  }),
  ...both("Sign", 9, {
    name: "Sign (zero gradient: x * Sign(x))",
    inputs: [x([2, 3])],
    nodes: [
      ["Sign", ["x"], ["r"]],
      ["Mul", ["x", "r"], ["out"]],
    ],
  }),
  // Stop-gradients: an index computed from x selects from x; only the selected element's gradient flows.
  ...["ArgMax", "ArgMin"].flatMap((op) =>
    both(op, 7, {
      name: `${op} (stop-gradient: x * index)`,
      inputs: [x([2, 3])],
      nodes: [
        [op, ["x"], ["i"], { axis: 1, keepdims: 1 }],
        ["Cast", ["i"], ["f"], { to: 11 }],
        ["Mul", ["x", "f"], ["out"]],
      ],
    }),
  ),

  // ---- softmax, normalisation, products ----
  ...["Softmax", "LogSoftmax"].flatMap((op) =>
    both(op, 7, {
      name: `${op} (axis 1 of [2,3,4]: the flattened trailing axes before opset 13)`,
      inputs: [x([2, 3, 4])],
      nodes: [[op, ["x"], ["out"], { axis: 1 }]],
    }),
  ),
  ...both("LayerNormalization", 17, {
    name: "LayerNormalization (x, scale, bias)",
    inputs: [x([2, 3, 4]), { name: "s", dims: [4] }, { name: "b", dims: [4] }],
    nodes: [["LayerNormalization", ["x", "s", "b"], ["out"], { axis: -1, epsilon: 1e-5 }]],
  }),
  ...both("RMSNormalization", 23, {
    name: "RMSNormalization (x, scale; last two axes)",
    inputs: [x([2, 3, 4]), { name: "s", dims: [4] }],
    nodes: [["RMSNormalization", ["x", "s"], ["out"], { axis: -2, epsilon: 1e-5 }]],
    dtype: "float",
  }),
  ...both("MatMul", 7, {
    name: "MatMul (batched, broadcast [2,3,4] @ [4,5])",
    inputs: [x([2, 3, 4]), y([4, 5])],
    nodes: [["MatMul", ["x", "y"], ["out"]]],
  }),
  ...both("Gemm", 7, {
    name: "Gemm (transA, transB, alpha, beta, broadcast C)",
    inputs: [x([4, 3]), y([5, 4]), { name: "c", dims: [5] }],
    nodes: [["Gemm", ["x", "y", "c"], ["out"], { transA: 1, transB: 1, alpha: 0.7, beta: 1.3 }]],
  }),
  ...both("Einsum", 12, {
    name: "Einsum (batched matmul bij,bjk->bik)",
    inputs: [x([2, 3, 4]), y([2, 4, 2])],
    nodes: [["Einsum", ["x", "y"], ["out"], { equation: "bij,bjk->bik" }]],
  }),
  ...both("Einsum", 12, {
    name: "Einsum (ellipsis, a letter summed in one operand: ...ij,jk->...i)",
    inputs: [x([2, 3, 4]), y([4, 5])],
    nodes: [["Einsum", ["x", "y"], ["out"], { equation: "...ij,jk->...i" }]],
  }),
  ...both("Einsum", 12, {
    name: "Einsum (implicit output, three operands: ij,jk,k)",
    inputs: [x([2, 3]), y([3, 4]), z([4])],
    nodes: [["Einsum", ["x", "y", "z"], ["out"], { equation: "ij,jk,k" }]],
  }),
  ...both("Einsum", 12, {
    name: "Einsum (scalar output: ij,ij->)",
    inputs: [x([2, 3]), y([2, 3])],
    nodes: [["Einsum", ["x", "y"], ["out"], { equation: "ij,ij->" }]],
  }),

  // ---- reductions: axes are attributes before 13 (ReduceSum) / 18 (others), inputs after ----
  {
    op: "ReduceSum",
    opset: 7,
    name: "ReduceSum (attribute axes, keepdims 0)",
    inputs: [x([2, 3, 4])],
    nodes: [["ReduceSum", ["x"], ["out"], { axes: [1], keepdims: 0 }]],
  },
  {
    op: "ReduceSum",
    opset: N,
    name: "ReduceSum (input axes, keepdims 0)",
    inputs: [x([2, 3, 4])],
    nodes: [["ReduceSum", ["x", "axes"], ["out"], { keepdims: 0 }]],
    initializers: [i64("axes", [1])],
  },
  ...["ReduceMean", "ReduceMax", "ReduceMin"].flatMap((op): OpCase[] => [
    {
      op,
      opset: 7,
      name: `${op} (attribute axes [0, 2], keepdims 0)`,
      inputs: [x([2, 3, 4])],
      nodes: [[op, ["x"], ["out"], { axes: [0, 2], keepdims: 0 }]],
    },
    {
      op,
      opset: N,
      name: `${op} (input axes [-1], keepdims 1)`,
      inputs: [x([2, 3, 4])],
      nodes: [[op, ["x", "axes"], ["out"], { keepdims: 1 }]],
      initializers: [i64("axes", [-1])],
    },
  ]),
  ...both("ReduceMax", 7, {
    name: "ReduceMax (all axes)",
    inputs: [x([2, 3])],
    nodes: [["ReduceMax", ["x"], ["out"], { keepdims: 0 }]],
  }),
  {
    op: "CumSum",
    opset: 11,
    name: "CumSum (axis 1)",
    inputs: [x([2, 4])],
    nodes: [["CumSum", ["x", "axis"], ["out"]]],
    initializers: [i64("axis", [1], [])],
  },
  {
    op: "CumSum",
    opset: N,
    name: "CumSum (exclusive, reverse)",
    inputs: [x([2, 4])],
    nodes: [["CumSum", ["x", "axis"], ["out"], { exclusive: 1, reverse: 1 }]],
    initializers: [i64("axis", [-1], [])],
  },

  // ---- selection and layout ----
  {
    op: "Gather",
    opset: 7,
    name: "Gather axis 0 (repeated indices)",
    inputs: [x([5, 3])],
    nodes: [["Gather", ["x", "idx"], ["out"], { axis: 0 }]],
    initializers: [i64("idx", [1, 4, 1, 0, 0, 1], [2, 3])],
  },
  {
    op: "Gather",
    opset: 11,
    name: "Gather axis 3 of a rank-4 tensor at opset 11 (raised to 16 for the gradient)",
    inputs: [x([2, 2, 3, 4])],
    nodes: [["Gather", ["x", "idx"], ["out"], { axis: 3 }]],
    initializers: [i64("idx", [3, 0, 3, -1], [2, 2])],
  },
  {
    op: "Gather",
    opset: N,
    name: "Gather axis -1 (repeated and negative indices)",
    inputs: [x([2, 3, 4])],
    nodes: [["Gather", ["x", "idx"], ["out"], { axis: -1 }]],
    initializers: [i64("idx", [3, 0, 3, -4])],
  },
  ...both("GatherElements", 11, {
    name: "GatherElements axis 1 (repeated and negative indices)",
    inputs: [x([2, 4, 3])],
    nodes: [["GatherElements", ["x", "idx"], ["out"], { axis: 1 }]],
    initializers: [i64("idx", [0, 3, 3, -1, 1, 0, 2, 2, -4, 1, 1, 1], [2, 2, 3])],
  }),
  {
    op: "GatherND",
    opset: 11,
    name: "GatherND (index pairs, repeated and negative)",
    inputs: [x([3, 4, 2])],
    nodes: [["GatherND", ["x", "idx"], ["out"]]],
    initializers: [i64("idx", [0, 1, 2, -1, 0, 1], [3, 2])],
  },
  {
    op: "GatherND",
    opset: N,
    name: "GatherND (batch_dims 1)",
    inputs: [x([2, 3, 4])],
    nodes: [["GatherND", ["x", "idx"], ["out"], { batch_dims: 1 }]],
    initializers: [i64("idx", [2, 0, 2, 1, -1, -3], [2, 3, 1])],
  },
  {
    op: "ScatterElements",
    opset: 11,
    name: "ScatterElements (overwrite, distinct indices)",
    inputs: [x([3, 3]), { name: "u", dims: [2, 3] }],
    nodes: [["ScatterElements", ["x", "idx", "u"], ["out"], { axis: 0 }]],
    initializers: [i64("idx", [1, 0, 2, 2, 1, 0], [2, 3])],
  },
  {
    op: "ScatterElements",
    opset: N,
    name: "ScatterElements (reduction add, repeated indices)",
    inputs: [x([3, 3]), { name: "u", dims: [2, 3] }],
    nodes: [["ScatterElements", ["x", "idx", "u"], ["out"], { axis: 1, reduction: "add" }]],
    initializers: [i64("idx", [1, 1, 2, 0, 0, 0], [2, 3])],
  },
  {
    op: "ScatterND",
    opset: 11,
    name: "ScatterND (overwrite rows)",
    inputs: [x([4, 3]), { name: "u", dims: [2, 3] }],
    nodes: [["ScatterND", ["x", "idx", "u"], ["out"]]],
    initializers: [i64("idx", [2, 0], [2, 1])],
  },
  {
    op: "ScatterND",
    opset: N,
    name: "ScatterND (reduction add, repeated index)",
    inputs: [x([4, 3]), { name: "u", dims: [3, 3] }],
    nodes: [["ScatterND", ["x", "idx", "u"], ["out"], { reduction: "add" }]],
    initializers: [i64("idx", [2, 0, 2], [3, 1])],
  },
  // Slice: starts/ends/axes are attributes before opset 10.
  {
    op: "Slice",
    opset: 7,
    name: "Slice (attribute starts/ends/axes)",
    inputs: [x([3, 7])],
    nodes: [["Slice", ["x"], ["out"], { starts: [1, -5], ends: [3, 6], axes: [0, 1] }]],
  },
  {
    op: "Slice",
    opset: N,
    name: "Slice (negative start, step 2)",
    inputs: [x([3, 7])],
    nodes: [["Slice", ["x", "st", "en", "ax", "sp"], ["out"]]],
    initializers: [i64("st", [-6]), i64("en", [7]), i64("ax", [1]), i64("sp", [2])],
  },
  ...both("Reshape", 7, {
    inputs: [x([2, 3, 4])],
    nodes: [["Reshape", ["x", "shape"], ["out"]]],
    initializers: [i64("shape", [4, -1])],
  }),
  ...both("Flatten", 7, { inputs: [x([2, 3, 4])], nodes: [["Flatten", ["x"], ["out"], { axis: 2 }]] }),
  ...both("Transpose", 7, { inputs: [x([2, 3, 4])], nodes: [["Transpose", ["x"], ["out"], { perm: [2, 0, 1] }]] }),
  {
    op: "Squeeze",
    opset: 7,
    name: "Squeeze (attribute axes)",
    inputs: [x([2, 1, 3])],
    nodes: [["Squeeze", ["x"], ["out"], { axes: [1] }]],
  },
  {
    op: "Squeeze",
    opset: N,
    name: "Squeeze (input axes)",
    inputs: [x([2, 1, 3])],
    nodes: [["Squeeze", ["x", "axes"], ["out"]]],
    initializers: [i64("axes", [1])],
  },
  {
    op: "Unsqueeze",
    opset: 7,
    name: "Unsqueeze (attribute axes)",
    inputs: [x([2, 3])],
    nodes: [["Unsqueeze", ["x"], ["out"], { axes: [0, 3] }]],
  },
  {
    op: "Unsqueeze",
    opset: N,
    name: "Unsqueeze (input axes)",
    inputs: [x([2, 3])],
    nodes: [["Unsqueeze", ["x", "axes"], ["out"]]],
    initializers: [i64("axes", [0, 3])],
  },
  ...both("Concat", 7, {
    name: "Concat (three inputs, axis 1)",
    inputs: [x([2, 1, 3]), y([2, 2, 3]), z([2, 3, 3])],
    nodes: [["Concat", ["x", "y", "z"], ["out"], { axis: 1 }]],
  }),
  {
    op: "Split",
    opset: 7,
    name: "Split (attribute sizes, one output unused)",
    inputs: [x([2, 6])],
    nodes: [
      ["Split", ["x"], ["a", "b", "c"], { axis: 1, split: [1, 3, 2] }],
      ["Mul", ["a", "c2"], ["ac"]],
      ["Concat", ["b", "ac"], ["out"], { axis: 1 }],
    ],
    initializers: [f64("c2", [2], [])],
  },
  {
    op: "Split",
    opset: N,
    name: "Split (num_outputs, one output unused)",
    inputs: [x([2, 6])],
    nodes: [["Split", ["x"], ["a", "out", "c"], { axis: 1, num_outputs: 3 }]],
  },
  ...both("Expand", 8, {
    inputs: [x([3, 1])],
    nodes: [["Expand", ["x", "shape"], ["out"]]],
    initializers: [i64("shape", [2, 3, 4])],
  }),
  ...both("Tile", 7, {
    name: "Tile (repeats 2, 1, 3)",
    inputs: [x([2, 3, 1])],
    nodes: [["Tile", ["x", "reps"], ["out"]]],
    initializers: [i64("reps", [2, 1, 3])],
  }),
  // Pad: pads/value are attributes before opset 11; axes input from 18.
  {
    op: "Pad",
    opset: 7,
    name: "Pad (attribute pads, constant value)",
    inputs: [x([2, 3])],
    nodes: [["Pad", ["x"], ["out"], { pads: [1, 0, 0, 2], value: 0.5, mode: "constant" }]],
  },
  {
    op: "Pad",
    opset: N,
    name: "Pad (axes input, a negative pad crops)",
    inputs: [x([2, 3, 4])],
    nodes: [["Pad", ["x", "pads", "", "axes"], ["out"], { mode: "constant" }]],
    initializers: [i64("pads", [1, -1, 2, 1]), i64("axes", [0, 2])],
  },
  ...[false, true].flatMap((upper) =>
    both("Trilu", 14, {
      name: upper ? "Trilu (upper, k = -1)" : "Trilu (lower, k = 1: a causal-mask pattern)",
      inputs: [x([2, 3, 4])],
      nodes: [["Trilu", ["x", "k"], ["out"], { upper: upper ? 1 : 0 }]],
      initializers: [i64("k", [upper ? -1 : 1], [])],
    }),
  ),
  {
    op: "Cast",
    opset: 7,
    name: "Cast float64 -> float32 -> float64",
    inputs: [x([2, 3])],
    // float32 rounding (~6e-8 relative) would swamp a 1e-6 step: a larger step, a float32-sized tolerance.
    h: 1e-3,
    tol: 1e-4,
    nodes: [
      ["Cast", ["x"], ["f"], { to: 1 }],
      ["Cast", ["f"], ["out"], { to: 11 }],
    ],
  },
  {
    op: "Cast",
    opset: N,
    name: "Cast float64 -> float32 -> float64",
    inputs: [x([2, 3])],
    // float32 rounding (~6e-8 relative) would swamp a 1e-6 step: a larger step, a float32-sized tolerance.
    h: 1e-3,
    tol: 1e-4,
    nodes: [
      ["Cast", ["x"], ["f"], { to: 1 }],
      ["Cast", ["f"], ["out"], { to: 11 }],
    ],
  },
  ...both("Identity", 7, { inputs: [x([2, 3])], nodes: [["Identity", ["x"], ["out"]]] }),
  {
    op: "Dropout",
    opset: 7,
    name: "Dropout (ratio attribute; inference is the identity)",
    inputs: [x([2, 3])],
    nodes: [["Dropout", ["x"], ["out"], { ratio: 0.3 }]],
  },
  {
    op: "Dropout",
    opset: N,
    name: "Dropout (inference is the identity)",
    inputs: [x([2, 3])],
    nodes: [["Dropout", ["x"], ["out"]]],
  },
];
