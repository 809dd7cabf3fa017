import { makeTensor } from "@npov/autograd";
import { describe, it } from "vitest";
import { checkGradient, type DType, i64, type NodeSpec, randomFeed, tinyModel } from "./helpers.js";

interface Case {
  name: string;
  inputs: Array<{ name: string; dims: number[]; positive?: boolean; symbolic?: Array<number | string> }>;
  nodes: NodeSpec[];
  wrt?: string[];
  dtype?: DType;
  initializers?: ReturnType<typeof i64>[];
  opset?: number;
  int64Inputs?: Record<string, { dims: number[]; values: number[] }>;
}

const x = (dims: number[], extra: Partial<Case["inputs"][number]> = {}) => ({ name: "x", dims, ...extra });
const y = (dims: number[], extra: Partial<Case["inputs"][number]> = {}) => ({ name: "y", dims, ...extra });

const CASES: Case[] = [
  { name: "Add (broadcast [2,3,4] + [3,1])", inputs: [x([2, 3, 4]), y([3, 1])], nodes: [["Add", ["x", "y"], ["out"]]] },
  { name: "Sub (broadcast [4] - [2,3,4])", inputs: [x([4]), y([2, 3, 4])], nodes: [["Sub", ["x", "y"], ["out"]]] },
  { name: "Mul (broadcast [2,1,4] * [3,1])", inputs: [x([2, 1, 4]), y([3, 1])], nodes: [["Mul", ["x", "y"], ["out"]]] },
  {
    name: "Div (broadcast)",
    inputs: [x([2, 3]), y([1, 3], { positive: true })],
    nodes: [["Div", ["x", "y"], ["out"]]],
  },
  { name: "Mul with itself", inputs: [x([3, 2])], nodes: [["Mul", ["x", "x"], ["out"]]] },
  { name: "Neg", inputs: [x([2, 3])], nodes: [["Neg", ["x"], ["out"]]] },
  {
    name: "Pow (constant exponent)",
    inputs: [x([2, 3], { positive: true })],
    nodes: [["Pow", ["x", "p"], ["out"]]],
    initializers: [makeTensor("p", Float64Array.of(2.5), [], 11)],
  },
  { name: "Sqrt", inputs: [x([2, 3], { positive: true })], nodes: [["Sqrt", ["x"], ["out"]]] },
  { name: "Reciprocal", inputs: [x([2, 3], { positive: true })], nodes: [["Reciprocal", ["x"], ["out"]]] },
  { name: "Exp", inputs: [x([2, 3])], nodes: [["Exp", ["x"], ["out"]]] },
  { name: "Log", inputs: [x([2, 3], { positive: true })], nodes: [["Log", ["x"], ["out"]]] },
  { name: "Tanh", inputs: [x([2, 3])], nodes: [["Tanh", ["x"], ["out"]]] },
  { name: "Sigmoid", inputs: [x([2, 3])], nodes: [["Sigmoid", ["x"], ["out"]]] },
  { name: "Relu", inputs: [x([3, 4])], nodes: [["Relu", ["x"], ["out"]]] },
  { name: "Erf (float32)", inputs: [x([2, 3])], nodes: [["Erf", ["x"], ["out"]]], dtype: "float" },
  { name: "Softmax (last axis)", inputs: [x([2, 3, 4])], nodes: [["Softmax", ["x"], ["out"], { axis: -1 }]] },
  { name: "Softmax (axis 1)", inputs: [x([2, 3, 4])], nodes: [["Softmax", ["x"], ["out"], { axis: 1 }]] },
  { name: "LogSoftmax", inputs: [x([2, 5])], nodes: [["LogSoftmax", ["x"], ["out"], { axis: -1 }]] },
  {
    name: "ReduceSum (axes input, keepdims 0)",
    inputs: [x([2, 3, 4])],
    nodes: [["ReduceSum", ["x", "axes"], ["out"], { keepdims: 0 }]],
    initializers: [i64("axes", [1])],
  },
  { name: "ReduceSum (all axes)", inputs: [x([2, 3])], nodes: [["ReduceSum", ["x"], ["out"], { keepdims: 0 }]] },
  {
    name: "ReduceMean (opset 17 attribute axes)",
    inputs: [x([2, 3, 4])],
    nodes: [["ReduceMean", ["x"], ["out"], { axes: [-1], keepdims: 1 }]],
  },
  {
    name: "ReduceMean (opset 18 input axes, keepdims 0)",
    inputs: [x([2, 3, 4])],
    nodes: [["ReduceMean", ["x", "axes"], ["out"], { keepdims: 0 }]],
    initializers: [i64("axes", [0, 2])],
    opset: 18,
  },
  {
    name: "LayerNormalization (x, scale, bias)",
    inputs: [x([2, 3, 4]), { name: "s", dims: [4] }, { name: "b", dims: [4] }],
    nodes: [["LayerNormalization", ["x", "s", "b"], ["out"], { axis: -1, epsilon: 1e-5 }]],
    wrt: ["x", "s", "b"],
    dtype: "float",
  },
  {
    name: "MatMul (batched, broadcast [2,3,4] @ [4,5])",
    inputs: [x([2, 3, 4]), y([4, 5])],
    nodes: [["MatMul", ["x", "y"], ["out"]]],
  },
  {
    name: "MatMul (broadcast [2,1,3,4] @ [3,4,2])",
    inputs: [x([2, 1, 3, 4]), y([3, 4, 2])],
    nodes: [["MatMul", ["x", "y"], ["out"]]],
  },
  {
    name: "MatMul (vector @ batched matrix)",
    inputs: [x([4]), y([2, 4, 3])],
    nodes: [["MatMul", ["x", "y"], ["out"]]],
  },
  { name: "MatMul (matrix @ vector)", inputs: [x([3, 4]), y([4])], nodes: [["MatMul", ["x", "y"], ["out"]]] },
  {
    name: "Gemm (transA, transB, alpha, beta, broadcast C)",
    inputs: [x([4, 3]), y([5, 4]), { name: "c", dims: [5] }],
    nodes: [["Gemm", ["x", "y", "c"], ["out"], { transA: 1, transB: 1, alpha: 0.7, beta: 1.3 }]],
    wrt: ["x", "y", "c"],
  },
  { name: "Gemm (plain)", inputs: [x([2, 3]), y([3, 4])], nodes: [["Gemm", ["x", "y"], ["out"]]] },
  {
    name: "Gather axis 0 with repeated and negative indices",
    inputs: [x([5, 3])],
    nodes: [["Gather", ["x", "idx"], ["out"], { axis: 0 }]],
    initializers: [i64("idx", [1, 4, 1, -1, 0, 1], [2, 3])],
  },
  {
    name: "Gather axis 1",
    inputs: [x([2, 4, 3])],
    nodes: [["Gather", ["x", "idx"], ["out"], { axis: 1 }]],
    initializers: [i64("idx", [3, 0, 3])],
  },
  {
    name: "Gather axis 0 (opset 14, one-hot path)",
    inputs: [x([4, 3])],
    nodes: [["Gather", ["x", "idx"], ["out"], { axis: 0 }]],
    initializers: [i64("idx", [2, 2, 0])],
    opset: 14,
  },
  {
    name: "Reshape",
    inputs: [x([2, 3, 4])],
    nodes: [["Reshape", ["x", "shape"], ["out"]]],
    initializers: [i64("shape", [4, -1])],
  },
  { name: "Flatten", inputs: [x([2, 3, 4])], nodes: [["Flatten", ["x"], ["out"], { axis: 2 }]] },
  { name: "Transpose (perm)", inputs: [x([2, 3, 4])], nodes: [["Transpose", ["x"], ["out"], { perm: [2, 0, 1] }]] },
  { name: "Transpose (default reverses)", inputs: [x([2, 3, 4])], nodes: [["Transpose", ["x"], ["out"]]] },
  {
    name: "Squeeze",
    inputs: [x([2, 1, 3])],
    nodes: [["Squeeze", ["x", "axes"], ["out"]]],
    initializers: [i64("axes", [1])],
  },
  {
    name: "Unsqueeze",
    inputs: [x([2, 3])],
    nodes: [["Unsqueeze", ["x", "axes"], ["out"]]],
    initializers: [i64("axes", [0, 3])],
  },
  {
    name: "Concat (three inputs, axis 1)",
    inputs: [x([2, 1, 3]), y([2, 2, 3]), { name: "z", dims: [2, 3, 3] }],
    nodes: [["Concat", ["x", "y", "z"], ["out"], { axis: 1 }]],
    wrt: ["x", "y", "z"],
  },
  {
    name: "Split (one output unused)",
    inputs: [x([2, 6])],
    nodes: [["Split", ["x", "sizes"], ["a", "out", "c"], { axis: 1 }]],
    initializers: [i64("sizes", [1, 3, 2])],
  },
  {
    name: "Slice (negative start, step 2)",
    inputs: [x([3, 7])],
    nodes: [["Slice", ["x", "st", "en", "ax", "sp"], ["out"]]],
    initializers: [i64("st", [-6]), i64("en", [7]), i64("ax", [1]), i64("sp", [2])],
  },
  {
    name: "Expand",
    inputs: [x([3, 1])],
    nodes: [["Expand", ["x", "shape"], ["out"]]],
    initializers: [i64("shape", [2, 3, 4])],
  },
  {
    name: "Where (broadcast branches)",
    inputs: [x([2, 3]), y([3])],
    nodes: [
      ["Greater", ["x", "zero"], ["cond"]],
      ["Where", ["cond", "x", "y"], ["out"]],
    ],
    initializers: [makeTensor("zero", Float64Array.of(0.1), [], 11)],
  },
  {
    name: "Cast float64 -> float32",
    inputs: [x([2, 3])],
    nodes: [["Cast", ["x"], ["out"], { to: 1 }]],
    dtype: "double",
  },
  {
    name: "Identity and Dropout",
    inputs: [x([2, 3])],
    nodes: [
      ["Identity", ["x"], ["i"]],
      ["Dropout", ["i"], ["out"]],
    ],
  },
  { name: "Sum (variadic, broadcast)", inputs: [x([2, 3]), y([3])], nodes: [["Sum", ["x", "y", "x"], ["out"]]] },
  {
    name: "chain with a non-differentiable shape branch",
    inputs: [x([2, 3])],
    nodes: [
      ["Shape", ["x"], ["s"]],
      ["Tanh", ["x"], ["t"]],
      ["Reshape", ["t", "s"], ["r"]],
      ["Mul", ["r", "x"], ["out"]],
    ],
  },
];

describe("gradient rules agree with central finite differences", () => {
  for (const c of CASES) {
    it(c.name, async () => {
      const dtype = c.dtype ?? "double";
      const model = tinyModel({
        inputs: c.inputs.map((i) => ({ name: i.name, dims: i.symbolic ?? i.dims, dtype })),
        nodes: c.nodes,
        outputs: ["out"],
        initializers: c.initializers ?? [],
        opset: c.opset ?? 17,
      });
      const feeds = Object.fromEntries(
        c.inputs.map((i, k) => {
          const t = randomFeed(i.dims, dtype, 10 + k);
          if (i.positive)
            for (let j = 0; j < t.data.length; j++)
              (t.data as Float64Array)[j] = 0.5 + Math.abs((t.data as Float64Array)[j] as number);
          return [i.name, t];
        }),
      );
      // Cast to float32 changes precision: compare in float32 terms.
      const castCase = c.name.startsWith("Cast");
      await checkGradient(model, {
        of: "out",
        wrt: c.wrt ?? c.inputs.map((i) => i.name),
        feeds,
        dtype,
        ...(castCase ? { h: 1e-3, tol: 1e-4 } : {}),
      });
    });
  }
});
