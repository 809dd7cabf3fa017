/**
 * Gradient rules: for each op, the vector-Jacobian product written in standard ONNX ops at the graph's opset
 * (>= 13). A rule receives the upstream gradients of the node's outputs and returns the gradients of its inputs
 * (undefined where an input is inactive or not differentiable). Broadcasting is undone by `sumTo`.
 *
 * Rules that accumulate into repeated positions (GatherElements, GatherND, Gather on an axis other than 0)
 * need the `reduction` attribute of ScatterElements / ScatterND, which ONNX added at opset 16. An ONNX model
 * declares one version per domain, so the forward and backward ops of one graph cannot come from different
 * opsets: {@link requiredOpset} says which version a node's rule needs and `buildGradientGraph` raises the
 * whole graph to it (`upgradeOpset`; nothing that text models use changed meaning between 13 and 16).
 */
import { UnsupportedOpError } from "./errors.js";
import { attrFloat, attrInt, attrInts, attrString, DataType, makeTensor, type NodeProto } from "./proto.js";
import { type RuleContext, sumTo } from "./rule-context.js";
import { einsumGradient } from "./rules-einsum.js";

export { type RuleContext, sumTo };

export type Rule = (ctx: RuleContext, node: NodeProto, gy: Array<string | undefined>) => Array<string | undefined>;

/** Which inputs of each op can carry gradients (others: indices, shapes, conditions). */
export const DIFFERENTIABLE_INPUTS: Record<string, number[]> = {
  Add: [0, 1],
  Sub: [0, 1],
  Mul: [0, 1],
  Div: [0, 1],
  Neg: [0],
  Pow: [0, 1],
  Sqrt: [0],
  Reciprocal: [0],
  Exp: [0],
  Log: [0],
  Tanh: [0],
  Sigmoid: [0],
  Relu: [0],
  Erf: [0],
  Softmax: [0],
  LogSoftmax: [0],
  ReduceMean: [0],
  ReduceSum: [0],
  LayerNormalization: [0, 1, 2],
  MatMul: [0, 1],
  Gemm: [0, 1, 2],
  Gather: [0],
  Reshape: [0],
  Flatten: [0],
  Transpose: [0],
  Squeeze: [0],
  Unsqueeze: [0],
  Concat: [],
  Split: [0],
  Slice: [0],
  Expand: [0],
  Where: [1, 2],
  Cast: [0],
  Identity: [0],
  Dropout: [0],
  Sum: [],
  Max: [],
  Min: [],
  Mean: [],
  Einsum: [],
  Abs: [0],
  Clip: [0, 1, 2],
  Trilu: [0],
  Tile: [0],
  Pad: [0],
  ReduceMax: [0],
  ReduceMin: [0],
  CumSum: [0],
  GatherElements: [0],
  GatherND: [0],
  ScatterElements: [0, 2],
  ScatterND: [0, 2],
  Gelu: [0],
  Softplus: [0],
  LeakyRelu: [0],
  Sin: [0],
  Cos: [0],
  RMSNormalization: [0, 1],
};
// Variadic ops: every input.
export const VARIADIC = new Set(["Concat", "Sum", "Max", "Min", "Mean", "Einsum"]);

/**
 * Ops whose outputs never carry gradients (shapes, comparisons, rounding, index computations). For the
 * rounding ops ({@link ZERO_GRADIENT_OPS}) this is exact: their derivative is 0 wherever it exists.
 */
export const NON_DIFFERENTIABLE = new Set([
  "Shape",
  "Size",
  "Equal",
  "Greater",
  "GreaterOrEqual",
  "Less",
  "LessOrEqual",
  "Not",
  "And",
  "Or",
  "Xor",
  "NonZero",
  "ArgMax",
  "ArgMin",
  "ConstantOfShape",
  "Range",
  "OneHot",
  "Floor",
  "Ceil",
  "Round",
  "Sign",
  "IsNaN",
  "IsInf",
  "Constant",
  "EyeLike",
  "RandomNormalLike",
  "RandomUniformLike",
  "Mod",
  "BitShift",
]);

/** Float-valued ops whose derivative is 0 almost everywhere (piecewise constant): they end the differentiable path. */
export const ZERO_GRADIENT_OPS: readonly string[] = ["Sign", "Ceil", "Floor", "Round"];

/** Ops with integer outputs that read floats (ArgMax-style selections): a stop-gradient, exact as for indices. */
export const INTEGER_OUTPUT_OPS: readonly string[] = ["ArgMax", "ArgMin"];

/**
 * The default-domain opset a node's gradient rule needs: 16 for the rules that scatter with accumulation
 * (ScatterElements/ScatterND `reduction: "add"`), else 13 (see the module comment).
 */
export function requiredOpset(node: NodeProto): number {
  const op = node.opType ?? "";
  if (op === "GatherElements" || op === "GatherND") return 16;
  if (op === "Gather" && attrInt(node, "axis", 0) !== 0) return 16;
  return 13;
}

const FLOATING = new Set<number>([DataType.FLOAT, DataType.DOUBLE, DataType.FLOAT16]);
export const isFloating = (elemType: number) => FLOATING.has(elemType);

// ---------- helpers ----------

const one = (ctx: RuleContext, like: string) => ctx.b.scalar(1, ctx.elemType(like));
const zero = (ctx: RuleContext, like: string) => ctx.b.scalar(0, ctx.elemType(like));

/** Whether a reduction op takes its axes as an input (ReduceSum from opset 13, the others from 18) or an attribute. */
function axesAsInput(op: string, opset: number): boolean {
  return op === "ReduceSum" ? opset >= 13 : opset >= 18;
}

/** A reduction over constant `axes` (empty: all axes) in the form the graph's opset takes. */
function reduce(ctx: RuleContext, op: string, t: string, axes: number[], keepdims: number): string {
  if (axes.length === 0) return ctx.b.op(op, [t], { keepdims });
  if (axesAsInput(op, ctx.opset)) return ctx.b.op(op, [t, ctx.b.ints(axes)], { keepdims });
  return ctx.b.op(op, [t], { axes, keepdims });
}

const reduceSum = (ctx: RuleContext, t: string, axes: number[], keepdims: number) =>
  reduce(ctx, "ReduceSum", t, axes, keepdims);
const reduceMean = (ctx: RuleContext, t: string, axes: number[], keepdims: number) =>
  reduce(ctx, "ReduceMean", t, axes, keepdims);

/**
 * The axes a reduction node reduces over: constant values, `[]` when absent (all axes, unless
 * `noop_with_empty_axes`), or undefined when a computed tensor gives them.
 */
function nodeReduceAxes(ctx: RuleContext, n: NodeProto): number[] | undefined {
  if (axesAsInput(n.opType ?? "", ctx.opset)) return n.input[1] ? ctx.constInts(n.input[1]) : [];
  return attrInts(n, "axes") ?? [];
}

/** `t` (a reduction's output or its gradient) with the reduced axes put back as size 1, when keepdims was 0. */
function keepReducedDims(ctx: RuleContext, t: string, axes: number[], keepdims: number): string {
  return keepdims === 1 ? t : ctx.b.op("Unsqueeze", [t, ctx.b.ints(axes)]);
}

/** 1 where `a == b` (broadcasting), else 0, in the float type of `like`. */
function equalMask(ctx: RuleContext, a: string, c: string, like: string): string {
  return ctx.b.op("Cast", [ctx.b.op("Equal", [a, c])], { to: ctx.elemType(like) });
}

/** Transpose swapping the last two axes of a tensor of rank r. */
function swapLast(ctx: RuleContext, t: string, r: number): string {
  const perm = Array.from({ length: r }, (_, i) => i);
  perm[r - 1] = r - 2;
  perm[r - 2] = r - 1;
  return ctx.b.op("Transpose", [t], { perm });
}

/** The `value` attribute of a ConstantOfShape of zeros in `t`'s float type. */
function zeroValue(ctx: RuleContext, t: string) {
  return makeTensor(
    "value",
    ctx.elemType(t) === DataType.DOUBLE ? Float64Array.of(0) : Float32Array.of(0),
    [1],
    ctx.elemType(t),
  );
}

/** Zeros of `t`'s shape and float type. */
export function zerosLike(ctx: RuleContext, t: string): string {
  return ctx.b.op("ConstantOfShape", [ctx.shape(t)], { value: zeroValue(ctx, t) });
}

const normAxis = (axis: number, rank: number) => (axis < 0 ? axis + rank : axis);
/** Rank of a node's first output: the rank of its upstream gradient. */
const outRank = (ctx: RuleContext, n: NodeProto) => ctx.rank(n.output[0] as string);

// ---------- rules ----------

const unary =
  (f: (ctx: RuleContext, node: NodeProto, gy: string) => string): Rule =>
  (ctx, node, gy) => {
    const g = gy[0];
    return [g === undefined ? undefined : f(ctx, node, g)];
  };

export const RULES: Record<string, Rule> = {
  Identity: unary((_c, _n, g) => g),
  Dropout: unary((_c, _n, g) => g), // inference semantics: identity
  Neg: unary((ctx, _n, g) => ctx.b.op("Neg", [g])),
  Exp: unary((ctx, n, g) => ctx.b.op("Mul", [g, n.output[0] as string])),
  Log: unary((ctx, n, g) => ctx.b.op("Div", [g, n.input[0] as string])),
  Sqrt: unary((ctx, n, g) => {
    const y = n.output[0] as string;
    return ctx.b.op("Div", [ctx.b.op("Mul", [g, ctx.b.scalar(0.5, ctx.elemType(y))]), y]);
  }),
  Reciprocal: unary((ctx, n, g) => {
    const y = n.output[0] as string;
    return ctx.b.op("Neg", [ctx.b.op("Mul", [g, ctx.b.op("Mul", [y, y])])]);
  }),
  Tanh: unary((ctx, n, g) => {
    const y = n.output[0] as string;
    return ctx.b.op("Mul", [g, ctx.b.op("Sub", [one(ctx, y), ctx.b.op("Mul", [y, y])])]);
  }),
  Sigmoid: unary((ctx, n, g) => {
    const y = n.output[0] as string;
    return ctx.b.op("Mul", [g, ctx.b.op("Mul", [y, ctx.b.op("Sub", [one(ctx, y), y])])]);
  }),
  Relu: unary((ctx, n, g) => {
    const x = n.input[0] as string;
    return ctx.b.op("Where", [ctx.b.op("Greater", [x, zero(ctx, x)]), g, zero(ctx, x)]);
  }),
  Erf: unary((ctx, n, g) => {
    const x = n.input[0] as string;
    const e = ctx.b.op("Exp", [ctx.b.op("Neg", [ctx.b.op("Mul", [x, x])])]);
    return ctx.b.op("Mul", [g, ctx.b.op("Mul", [e, ctx.b.scalar(2 / Math.sqrt(Math.PI), ctx.elemType(x))])]);
  }),
  Cast: unary((ctx, n, g) => ctx.b.op("Cast", [g], { to: ctx.elemType(n.input[0] as string) })),
  Reshape: unary((ctx, n, g) => ctx.b.op("Reshape", [g, ctx.shape(n.input[0] as string)])),
  Flatten: unary((ctx, n, g) => ctx.b.op("Reshape", [g, ctx.shape(n.input[0] as string)])),
  Squeeze: unary((ctx, n, g) => ctx.b.op("Reshape", [g, ctx.shape(n.input[0] as string)])),
  Unsqueeze: unary((ctx, n, g) => ctx.b.op("Reshape", [g, ctx.shape(n.input[0] as string)])),
  Expand: unary((ctx, n, g) => sumTo(ctx, g, outRank(ctx, n), n.input[0] as string, undefined, n.output[0])),
  Transpose: unary((ctx, n, g) => {
    const r = ctx.rank(n.input[0] as string);
    const perm = attrInts(n, "perm") ?? Array.from({ length: r }, (_, i) => r - 1 - i);
    const inverse = new Array<number>(r);
    perm.forEach((p, i) => {
      inverse[p] = i;
    });
    return ctx.b.op("Transpose", [g], { perm: inverse });
  }),

  Add: (ctx, n, [g]) => {
    if (g === undefined) return [];
    const [a, c] = n.input as [string, string];
    const r = outRank(ctx, n);
    const y = n.output[0];
    return [
      ctx.active(a) ? sumTo(ctx, g, r, a, undefined, y) : undefined,
      ctx.active(c) ? sumTo(ctx, g, r, c, undefined, y) : undefined,
    ];
  },
  Sum: (ctx, n, [g]) =>
    g === undefined
      ? []
      : n.input.map((x) => (ctx.active(x) ? sumTo(ctx, g, outRank(ctx, n), x, undefined, n.output[0]) : undefined)),
  Sub: (ctx, n, [g]) => {
    if (g === undefined) return [];
    const [a, c] = n.input as [string, string];
    const r = outRank(ctx, n);
    const y = n.output[0];
    return [
      ctx.active(a) ? sumTo(ctx, g, r, a, undefined, y) : undefined,
      ctx.active(c) ? sumTo(ctx, ctx.b.op("Neg", [g]), r, c, undefined, y) : undefined,
    ];
  },
  Mul: (ctx, n, [g]) => {
    if (g === undefined) return [];
    const [a, c] = n.input as [string, string];
    const r = outRank(ctx, n);
    const y = n.output[0];
    return [
      ctx.active(a) ? sumTo(ctx, ctx.b.op("Mul", [g, c]), r, a, undefined, y) : undefined,
      ctx.active(c) ? sumTo(ctx, ctx.b.op("Mul", [g, a]), r, c, undefined, y) : undefined,
    ];
  },
  Div: (ctx, n, [g]) => {
    if (g === undefined) return [];
    const [a, c] = n.input as [string, string];
    const y = n.output[0] as string;
    const r = outRank(ctx, n);
    return [
      ctx.active(a) ? sumTo(ctx, ctx.b.op("Div", [g, c]), r, a, undefined, y) : undefined,
      ctx.active(c)
        ? sumTo(ctx, ctx.b.op("Neg", [ctx.b.op("Div", [ctx.b.op("Mul", [g, y]), c])]), r, c, undefined, y)
        : undefined,
    ];
  },
  Pow: (ctx, n, [g]) => {
    if (g === undefined) return [];
    const [x, p] = n.input as [string, string];
    if (ctx.active(p)) throw new UnsupportedOpError("Pow", n.name ?? "", "the exponent must be constant");
    const { b } = ctx;
    const type = ctx.elemType(x);
    const constant = ctx.constFloats(p);
    let d: string;
    if (constant !== undefined && constant.length === 1) {
      // Constant exponent: p * x^(p-1), with the common cases as plain multiplications.
      const e = constant[0] as number;
      if (e === 1) d = b.scalar(1, type);
      else if (e === 2) d = b.op("Mul", [x, b.scalar(2, type)]);
      else if (e === 3) d = b.op("Mul", [b.op("Mul", [x, x]), b.scalar(3, type)]);
      else d = b.op("Mul", [b.scalar(e, type), b.op("Pow", [x, b.scalar(e - 1, type)])]);
    } else {
      const pf = ctx.elemType(p) === type ? p : b.op("Cast", [p], { to: type });
      d = b.op("Mul", [pf, b.op("Pow", [x, b.op("Sub", [pf, one(ctx, x)])])]);
    }
    return [sumTo(ctx, b.op("Mul", [g, d]), outRank(ctx, n), x, undefined, n.output[0])];
  },

  Softmax: (ctx, n, [g]) => {
    if (g === undefined) return [];
    const y = n.output[0] as string;
    const axis = attrInt(n, "axis", -1);
    const s = reduceSum(ctx, ctx.b.op("Mul", [g, y]), [axis], 1);
    return [ctx.b.op("Mul", [y, ctx.b.op("Sub", [g, s])])];
  },
  LogSoftmax: (ctx, n, [g]) => {
    if (g === undefined) return [];
    const y = n.output[0] as string;
    const axis = attrInt(n, "axis", -1);
    const s = reduceSum(ctx, g, [axis], 1);
    return [ctx.b.op("Sub", [g, ctx.b.op("Mul", [ctx.b.op("Exp", [y]), s])])];
  },

  ReduceSum: (ctx, n, [g]) => {
    if (g === undefined) return [];
    const x = n.input[0] as string;
    const axesInput = n.input[1];
    const keepdims = attrInt(n, "keepdims", 1);
    const noop = attrInt(n, "noop_with_empty_axes", 0);
    const axes = axesInput ? ctx.constInts(axesInput) : [];
    if ((axes?.length ?? 1) === 0 && noop === 1) return [g];
    let up = g;
    if (keepdims === 0 && axesInput && (axes === undefined || axes.length > 0))
      up = ctx.b.op("Unsqueeze", [g, axesInput]);
    return [ctx.b.op("Expand", [up, ctx.shape(x)])];
  },
  ReduceMean: (ctx, n, [g]) => {
    if (g === undefined) return [];
    const x = n.input[0] as string;
    const y = n.output[0] as string;
    const keepdims = attrInt(n, "keepdims", 1);
    const axes = ctx.opset >= 18 ? (n.input[1] ? ctx.constInts(n.input[1]) : []) : (attrInts(n, "axes") ?? []);
    if (axes === undefined) throw new UnsupportedOpError("ReduceMean", n.name ?? "", "axes must be constant");
    let up = g;
    if (keepdims === 0 && axes.length > 0) up = ctx.b.op("Unsqueeze", [g, ctx.b.ints(axes)]);
    const count = ctx.b.op("Cast", [ctx.b.op("Div", [ctx.b.op("Size", [x]), ctx.b.op("Size", [y])])], {
      to: ctx.elemType(x),
    });
    return [ctx.b.op("Div", [ctx.b.op("Expand", [up, ctx.shape(x)]), count])];
  },

  LayerNormalization: (ctx, n, gys) => {
    const g = gys[0];
    if (gys[1] !== undefined || gys[2] !== undefined)
      throw new UnsupportedOpError("LayerNormalization", n.name ?? "", "gradients through the Mean/InvStdDev outputs");
    if (g === undefined) return [];
    const [x, scale, bias] = n.input as [string, string, string | undefined];
    const r = ctx.rank(x);
    const axis = normAxis(attrInt(n, "axis", -1), r);
    const eps = attrFloat(n, "epsilon", 1e-5);
    const axes = Array.from({ length: r - axis }, (_, i) => axis + i);
    const { b } = ctx;
    const mean = reduceMean(ctx, x, axes, 1);
    const xc = b.op("Sub", [x, mean]);
    const variance = reduceMean(ctx, b.op("Mul", [xc, xc]), axes, 1);
    const inv = b.op("Reciprocal", [b.op("Sqrt", [b.op("Add", [variance, b.scalar(eps, ctx.elemType(x))])])]);
    const xhat = b.op("Mul", [xc, inv]);
    const gScale = ctx.active(scale) ? sumTo(ctx, b.op("Mul", [g, xhat]), r, scale) : undefined;
    const gBias = bias && ctx.active(bias) ? sumTo(ctx, g, r, bias) : undefined;
    let gx: string | undefined;
    if (ctx.active(x)) {
      const gxhat = b.op("Mul", [g, scale]);
      const m1 = reduceMean(ctx, gxhat, axes, 1);
      const m2 = reduceMean(ctx, b.op("Mul", [gxhat, xhat]), axes, 1);
      gx = b.op("Mul", [inv, b.op("Sub", [b.op("Sub", [gxhat, m1]), b.op("Mul", [xhat, m2])])]);
    }
    return [gx, gScale, gBias];
  },

  MatMul: (ctx, n, [g]) => {
    if (g === undefined) return [];
    const [a, c] = n.input as [string, string];
    const ra = ctx.rank(a);
    const rc = ctx.rank(c);
    const { b } = ctx;
    if (ra === 1 && rc === 1)
      return [ctx.active(a) ? b.op("Mul", [g, c]) : undefined, ctx.active(c) ? b.op("Mul", [g, a]) : undefined];
    // Promote vectors to matrices as numpy does, then undo.
    const a2 = ra === 1 ? b.op("Unsqueeze", [a, b.ints([0])]) : a;
    const c2 = rc === 1 ? b.op("Unsqueeze", [c, b.ints([-1])]) : c;
    let g2 = g;
    if (ra === 1) g2 = b.op("Unsqueeze", [g2, b.ints([-2])]);
    if (rc === 1) g2 = b.op("Unsqueeze", [g2, b.ints([-1])]);
    const ra2 = Math.max(ra, 2);
    const rc2 = Math.max(rc, 2);
    const rg2 = Math.max(ra2, rc2);
    // Promoted vectors have a size-1 axis: let sumTo take its dynamic path for them.
    const promotedA = ra === 1 ? { rank: 2, dims: [1, ...ctx.dims(a)] } : undefined;
    const promotedC = rc === 1 ? { rank: 2, dims: [...ctx.dims(c), 1] } : undefined;
    let ga: string | undefined;
    let gc: string | undefined;
    if (ctx.active(a)) {
      ga = sumTo(ctx, b.op("MatMul", [g2, swapLast(ctx, c2, rc2)]), rg2, a2, promotedA);
      if (ra === 1) ga = b.op("Reshape", [ga, ctx.shape(a)]);
    }
    if (ctx.active(c)) {
      if (rc === 2 && ra > 2) {
        // A weight [K, N] applied to [..., M, K]: one Gemm over all rows, [rows, K]^T [rows, N] -> [K, N],
        // instead of a batched MatMul followed by a reduction over the batch axes.
        const k = b.op("Gather", [ctx.shape(a), b.ints([ra - 1])]);
        const n2 = b.op("Gather", [ctx.shape(c), b.ints([1])]);
        const rowsA = b.op("Reshape", [a, b.op("Concat", [b.ints([-1]), k], { axis: 0 })]);
        const rowsG = b.op("Reshape", [g, b.op("Concat", [b.ints([-1]), n2], { axis: 0 })]);
        gc = b.op("Gemm", [rowsA, rowsG], { transA: 1 });
      } else {
        gc = sumTo(ctx, b.op("MatMul", [swapLast(ctx, a2, ra2), g2]), rg2, c2, promotedC);
        if (rc === 1) gc = b.op("Reshape", [gc, ctx.shape(c)]);
      }
    }
    return [ga, gc];
  },

  Gemm: (ctx, n, [g]) => {
    if (g === undefined) return [];
    const [a, c, bias] = n.input as [string, string, string | undefined];
    const alpha = attrFloat(n, "alpha", 1);
    const beta = attrFloat(n, "beta", 1);
    const transA = attrInt(n, "transA", 0);
    const transB = attrInt(n, "transB", 0);
    const { b } = ctx;
    let ga: string | undefined;
    let gc: string | undefined;
    if (ctx.active(a)) {
      // d/dA' = alpha * G B'^T, and A = A'^T when transA.
      const gp = b.op("Gemm", [g, c], { alpha: { float: alpha }, transA: 0, transB: transB ? 0 : 1 });
      ga = transA ? b.op("Transpose", [gp], { perm: [1, 0] }) : gp;
    }
    if (ctx.active(c)) {
      const gp = b.op("Gemm", [a, g], { alpha: { float: alpha }, transA: transA ? 0 : 1, transB: 0 });
      gc = transB ? b.op("Transpose", [gp], { perm: [1, 0] }) : gp;
    }
    const gb =
      bias && ctx.active(bias)
        ? sumTo(ctx, beta === 1 ? g : b.op("Mul", [g, b.scalar(beta, ctx.elemType(a))]), 2, bias)
        : undefined;
    return [ga, gc, gb];
  },

  Gather: (ctx, n, [g]) => {
    if (g === undefined) return [];
    const [x, indices] = n.input as [string, string];
    const r = ctx.rank(x);
    const axis = normAxis(attrInt(n, "axis", 0), r);
    const { b } = ctx;
    if (axis === 0) {
      // Negative indices count from the end.
      const dim0 = b.op("Gather", [ctx.shape(x), b.ints([0], [])]);
      const idx = b.op("Cast", [indices], { to: DataType.INT64 });
      const fixed = b.op("Where", [b.op("Less", [idx, b.ints([0], [])]), b.op("Add", [idx, dim0]), idx]);
      if (ctx.opset >= 16)
        return [
          b.op("ScatterND", [zerosLike(ctx, x), b.op("Unsqueeze", [fixed, b.ints([-1])]), g], { reduction: "add" }),
        ];
      // Before opset 16 ScatterND cannot accumulate duplicates: one-hot rows times the gradient.
      const flat = b.op("Reshape", [fixed, b.ints([-1])]);
      // onnxruntime implements OneHot with float32 values only: build it in float32, then cast.
      let onehot = b.op("OneHot", [flat, b.op("Reshape", [dim0, b.ints([1])]), constPair(ctx, DataType.FLOAT)], {
        axis: -1,
      });
      if (ctx.elemType(x) !== DataType.FLOAT) onehot = b.op("Cast", [onehot], { to: ctx.elemType(x) });
      const rows = b.op("Reshape", [
        g,
        b.op("Concat", [b.ints([-1]), b.op("Slice", [ctx.shape(x), b.ints([1]), b.ints([r])])], { axis: 0 }),
      ]);
      const g2 = b.op("MatMul", [
        b.op("Transpose", [onehot], { perm: [1, 0] }),
        r === 1 ? b.op("Unsqueeze", [rows, b.ints([-1])]) : rows,
      ]);
      return [b.op("Reshape", [g2, ctx.shape(x)])];
    }
    if (ctx.opset < 16) throw new UnsupportedOpError("Gather", n.name ?? "", `axis ${axis} needs opset >= 16`);
    return [scatterThrough(ctx, x, g, (positions) => b.op("Gather", [positions, indices], { axis }), "add")];
  },

  Slice: (ctx, n, [g]) => {
    if (g === undefined) return [];
    const x = n.input[0] as string;
    const rest = n.input.slice(1);
    return [scatterThrough(ctx, x, g, (positions) => ctx.b.op("Slice", [positions, ...rest]), "none")];
  },

  Concat: (ctx, n, [g]) => {
    if (g === undefined) return [];
    const r = ctx.rank(n.input[0] as string);
    const axis = normAxis(attrInt(n, "axis", 0), r);
    const { b } = ctx;
    let start = b.ints([0]);
    return n.input.map((x) => {
      const size = b.op("Gather", [ctx.shape(x), b.ints([axis])]);
      const end = b.op("Add", [start, size]);
      const grad = ctx.active(x) ? b.op("Slice", [g, start, end, b.ints([axis])]) : undefined;
      start = end;
      return grad;
    });
  },

  Split: (ctx, n, gys) => {
    const axis = attrInt(n, "axis", 0);
    const parts = n.output.map((y, k) => gys[k] ?? zerosLike(ctx, y));
    return [ctx.b.op("Concat", parts, { axis })];
  },

  Where: (ctx, n, [g]) => {
    if (g === undefined) return [];
    const [cond, a, c] = n.input as [string, string, string];
    const z = zero(ctx, n.output[0] as string);
    const r = outRank(ctx, n);
    const y = n.output[0];
    return [
      undefined,
      ctx.active(a) ? sumTo(ctx, ctx.b.op("Where", [cond, g, z]), r, a, undefined, y) : undefined,
      ctx.active(c) ? sumTo(ctx, ctx.b.op("Where", [cond, z, g]), r, c, undefined, y) : undefined,
    ];
  },

  Abs: unary((ctx, n, g) => ctx.b.op("Mul", [g, ctx.b.op("Sign", [n.input[0] as string])])),
  Sin: unary((ctx, n, g) => ctx.b.op("Mul", [g, ctx.b.op("Cos", [n.input[0] as string])])),
  Cos: unary((ctx, n, g) => ctx.b.op("Neg", [ctx.b.op("Mul", [g, ctx.b.op("Sin", [n.input[0] as string])])])),
  Softplus: unary((ctx, n, g) => ctx.b.op("Mul", [g, ctx.b.op("Sigmoid", [n.input[0] as string])])),
  LeakyRelu: unary((ctx, n, g) => {
    const x = n.input[0] as string;
    const alpha = ctx.b.scalar(attrFloat(n, "alpha", 0.01), ctx.elemType(x));
    return ctx.b.op("Where", [ctx.b.op("Greater", [x, zero(ctx, x)]), g, ctx.b.op("Mul", [g, alpha])]);
  }),
  Gelu: unary((ctx, n, g) => {
    const x = n.input[0] as string;
    const { b } = ctx;
    const type = ctx.elemType(x);
    const c = (v: number) => b.scalar(v, type);
    if (attrString(n, "approximate", "none") === "tanh") {
      // y = x/2 (1 + tanh(u)), u = sqrt(2/pi) (x + 0.044715 x^3):
      // dy/dx = (1 + t)/2 + x/2 (1 - t^2) sqrt(2/pi) (1 + 3 * 0.044715 x^2).
      const x2 = b.op("Mul", [x, x]);
      const u = b.op("Mul", [
        c(Math.sqrt(2 / Math.PI)),
        b.op("Add", [x, b.op("Mul", [c(0.044715), b.op("Mul", [x2, x])])]),
      ]);
      const t = b.op("Tanh", [u]);
      const du = b.op("Mul", [c(Math.sqrt(2 / Math.PI)), b.op("Add", [c(1), b.op("Mul", [c(3 * 0.044715), x2])])]);
      const left = b.op("Mul", [c(0.5), b.op("Add", [c(1), t])]);
      const right = b.op("Mul", [
        b.op("Mul", [c(0.5), x]),
        b.op("Mul", [b.op("Sub", [c(1), b.op("Mul", [t, t])]), du]),
      ]);
      return b.op("Mul", [g, b.op("Add", [left, right])]);
    }
    // y = x Phi(x): dy/dx = Phi(x) + x phi(x), Phi(x) = (1 + erf(x / sqrt 2)) / 2, phi(x) = exp(-x^2/2) / sqrt(2 pi).
    const cdf = b.op("Mul", [c(0.5), b.op("Add", [c(1), b.op("Erf", [b.op("Mul", [x, c(Math.SQRT1_2)])])])]);
    const pdf = b.op("Mul", [
      c(1 / Math.sqrt(2 * Math.PI)),
      b.op("Exp", [b.op("Mul", [c(-0.5), b.op("Mul", [x, x])])]),
    ]);
    return b.op("Mul", [g, b.op("Add", [cdf, b.op("Mul", [x, pdf])])]);
  }),

  // Max/Min: the gradient goes to the inputs equal to the output, shared equally between ties (as PyTorch
  // does for maximum/minimum); a tie is where the function has no derivative.
  Max: (ctx, n, gys) => extremumGradient(ctx, n, gys),
  Min: (ctx, n, gys) => extremumGradient(ctx, n, gys),
  Mean: (ctx, n, [g]) => {
    if (g === undefined) return [];
    const share = ctx.b.op("Div", [g, ctx.b.scalar(n.input.length, ctx.elemType(n.output[0] as string))]);
    return n.input.map((x) =>
      ctx.active(x) ? sumTo(ctx, share, outRank(ctx, n), x, undefined, n.output[0]) : undefined,
    );
  },
  ReduceMax: (ctx, n, gys) => reduceExtremumGradient(ctx, n, gys),
  ReduceMin: (ctx, n, gys) => reduceExtremumGradient(ctx, n, gys),

  Clip: (ctx, n, [g]) => {
    if (g === undefined) return [];
    const [x, lo, hi] = n.input as [string, string | undefined, string | undefined];
    const { b } = ctx;
    const z = zero(ctx, x);
    const r = outRank(ctx, n);
    // Inside [min, max] the output is x; below min it is min, above max it is max (bounds included in x's part).
    const inside = [...(lo ? [b.op("GreaterOrEqual", [x, lo])] : []), ...(hi ? [b.op("LessOrEqual", [x, hi])] : [])];
    const pass = inside.length === 0 ? undefined : inside.length === 1 ? inside[0] : b.op("And", inside);
    const gx = ctx.active(x) ? (pass === undefined ? g : b.op("Where", [pass as string, g, z])) : undefined;
    const gLo = lo && ctx.active(lo) ? sumTo(ctx, b.op("Where", [b.op("Less", [x, lo]), g, z]), r, lo) : undefined;
    const gHi = hi && ctx.active(hi) ? sumTo(ctx, b.op("Where", [b.op("Greater", [x, hi]), g, z]), r, hi) : undefined;
    return [gx, gLo, gHi];
  },

  Trilu: unary((ctx, n, g) => ctx.b.op("Trilu", [g, ...n.input.slice(1)], { upper: attrInt(n, "upper", 1) })),

  CumSum: unary((ctx, n, g) =>
    // y_i = sum_{j <= i} x_j (exclusive: j < i): each x_j reaches the outputs after it, a sum the other way.
    ctx.b.op("CumSum", [g, n.input[1] as string], {
      exclusive: attrInt(n, "exclusive", 0),
      reverse: 1 - attrInt(n, "reverse", 0),
    }),
  ),

  Tile: unary((ctx, n, g) => {
    // y = x repeated r_k times along axis k: view the gradient as [r_0, d_0, r_1, d_1, ...] and sum the r axes.
    const [x, repeats] = n.input as [string, string];
    const { b } = ctx;
    const r = ctx.rank(x);
    const pairs = b.op(
      "Concat",
      [b.op("Unsqueeze", [repeats, b.ints([1])]), b.op("Unsqueeze", [ctx.shape(x), b.ints([1])])],
      {
        axis: 1,
      },
    );
    const blocks = b.op("Reshape", [g, b.op("Reshape", [pairs, b.ints([-1])])]);
    return reduceSum(
      ctx,
      blocks,
      Array.from({ length: r }, (_, k) => 2 * k),
      0,
    );
  }),

  Pad: unary((ctx, n, g) => {
    const mode = attrString(n, "mode", "constant");
    if (mode !== "constant")
      throw new UnsupportedOpError("Pad", n.name ?? "", `mode "${mode}" (only constant padding has a rule)`);
    // Padding by p is undone by padding by -p (negative pads crop), and a crop's gradient pads with zeros.
    const [, pads, , axes] = n.input as [string, string, string | undefined, string | undefined];
    const negated = ctx.b.op("Neg", [pads]);
    return ctx.b.op("Pad", axes ? [g, negated, "", axes] : [g, negated], { mode: "constant" });
  }),

  GatherElements: unary((ctx, n, g) => {
    const [x, indices] = n.input as [string, string];
    // ScatterElements reads negative indices as GatherElements does (counted from the end).
    return ctx.b.op("ScatterElements", [zerosLike(ctx, x), indices, g], {
      axis: attrInt(n, "axis", 0),
      reduction: "add",
    });
  }),

  GatherND: unary((ctx, n, g) => gatherNDGradient(ctx, n, g)),

  ScatterElements: (ctx, n, [g]) => {
    if (g === undefined) return [];
    const [data, indices, updates] = n.input as [string, string, string];
    const axis = attrInt(n, "axis", 0);
    const reduction = attrString(n, "reduction", "none");
    if (reduction !== "none" && reduction !== "add")
      throw new UnsupportedOpError("ScatterElements", n.name ?? "", `reduction "${reduction}"`);
    const { b } = ctx;
    // "none": the scattered positions of data are overwritten, so their gradient is 0; "add": all of it.
    const gData = !ctx.active(data)
      ? undefined
      : reduction === "add"
        ? g
        : b.op("ScatterElements", [g, indices, zerosLike(ctx, updates)], { axis });
    const gUpdates = ctx.active(updates) ? b.op("GatherElements", [g, indices], { axis }) : undefined;
    return [gData, undefined, gUpdates];
  },

  ScatterND: (ctx, n, [g]) => {
    if (g === undefined) return [];
    const [data, indices, updates] = n.input as [string, string, string];
    const reduction = attrString(n, "reduction", "none");
    if (reduction !== "none" && reduction !== "add")
      throw new UnsupportedOpError("ScatterND", n.name ?? "", `reduction "${reduction}"`);
    const { b } = ctx;
    const gData = !ctx.active(data)
      ? undefined
      : reduction === "add"
        ? g
        : b.op("ScatterND", [g, indices, zerosLike(ctx, updates)]);
    const gUpdates = ctx.active(updates) ? b.op("GatherND", [g, indices]) : undefined;
    return [gData, undefined, gUpdates];
  },

  Einsum: (ctx, n, [g]) => (g === undefined ? [] : einsumGradient(ctx, n, g)),

  RMSNormalization: (ctx, n, [g]) => {
    if (g === undefined) return [];
    const [x, scale] = n.input as [string, string];
    const r = ctx.rank(x);
    const axis = normAxis(attrInt(n, "axis", -1), r);
    const axes = Array.from({ length: r - axis }, (_, i) => axis + i);
    const { b } = ctx;
    const type = ctx.elemType(x);
    // y = x inv scale, inv = 1 / sqrt(mean(x^2) + eps): dx = inv (g scale - xhat mean(g scale xhat)).
    const inv = b.op("Reciprocal", [
      b.op("Sqrt", [
        b.op("Add", [reduceMean(ctx, b.op("Mul", [x, x]), axes, 1), b.scalar(attrFloat(n, "epsilon", 1e-5), type)]),
      ]),
    ]);
    const xhat = b.op("Mul", [x, inv]);
    const gScale = ctx.active(scale) ? sumTo(ctx, b.op("Mul", [g, xhat]), r, scale) : undefined;
    let gx: string | undefined;
    if (ctx.active(x)) {
      const gs = b.op("Mul", [g, scale]);
      gx = b.op("Mul", [
        inv,
        b.op("Sub", [gs, b.op("Mul", [xhat, reduceMean(ctx, b.op("Mul", [gs, xhat]), axes, 1)])]),
      ]);
    }
    return [gx, gScale];
  },
};

/** Max or Min of any number of inputs (see the rule's comment). */
function extremumGradient(ctx: RuleContext, n: NodeProto, [g]: Array<string | undefined>): Array<string | undefined> {
  if (g === undefined) return [];
  if (n.input.length === 1) return [g];
  const y = n.output[0] as string;
  const masks = n.input.map((x) => equalMask(ctx, x, y, y));
  const share = ctx.b.op("Div", [g, ctx.b.op("Sum", masks)]);
  const r = outRank(ctx, n);
  return n.input.map((x, k) =>
    ctx.active(x) ? sumTo(ctx, ctx.b.op("Mul", [share, masks[k] as string]), r, x, undefined, y) : undefined,
  );
}

/** ReduceMax / ReduceMin: the gradient goes to the elements equal to the extremum, shared between ties. */
function reduceExtremumGradient(
  ctx: RuleContext,
  n: NodeProto,
  [g]: Array<string | undefined>,
): Array<string | undefined> {
  if (g === undefined) return [];
  const x = n.input[0] as string;
  const y = n.output[0] as string;
  const axes = nodeReduceAxes(ctx, n);
  if (axes === undefined) throw new UnsupportedOpError(n.opType ?? "", n.name ?? "", "the axes must be constant");
  if (axes.length === 0 && attrInt(n, "noop_with_empty_axes", 0) === 1) return [g];
  const r = ctx.rank(x);
  const all = (axes.length === 0 ? Array.from({ length: r }, (_, k) => k) : axes.map((a) => normAxis(a, r))).sort(
    (a, c) => a - c,
  );
  const keepdims = attrInt(n, "keepdims", 1);
  const mask = equalMask(ctx, x, keepReducedDims(ctx, y, all, keepdims), x);
  const count = reduceSum(ctx, mask, all, 1);
  return [ctx.b.op("Mul", [ctx.b.op("Div", [keepReducedDims(ctx, g, all, keepdims), count]), mask])];
}

/**
 * GatherND's gradient: ScatterND with accumulation into zeros. Negative indices are made positive first
 * (ScatterND does not promise to read them); `batch_dims` b > 0 becomes one flat batch axis whose index is
 * prepended to every index tuple, since ScatterND has no batch dimensions.
 */
function gatherNDGradient(ctx: RuleContext, n: NodeProto, g: string): string {
  const [x, indices] = n.input as [string, string];
  const { b } = ctx;
  const batchDims = attrInt(n, "batch_dims", 0);
  const r = ctx.rank(x);
  const ri = ctx.rank(indices);
  // The dims the index tuples address: x's dims batchDims .. batchDims + (tuple length).
  const tupleEnd = b.op("Add", [b.ints([batchDims]), b.op("Gather", [ctx.shape(indices), b.ints([ri - 1])])]);
  const dims = b.op("Slice", [ctx.shape(x), b.ints([batchDims]), tupleEnd]);
  const fixed = b.op("Where", [b.op("Less", [indices, b.ints([0], [])]), b.op("Add", [indices, dims]), indices]);
  if (batchDims === 0) return b.op("ScatterND", [zerosLike(ctx, x), fixed, g], { reduction: "add" });
  const y = n.output[0] as string; // g has y's shape
  const batch = reduce(ctx, "ReduceProd", b.op("Slice", [ctx.shape(x), b.ints([0]), b.ints([batchDims])]), [], 1);
  const flatShape = (t: string, rank: number) =>
    b.op("Concat", [b.ints([-1]), b.op("Slice", [ctx.shape(t), b.ints([batchDims]), b.ints([rank])])], { axis: 0 });
  const tuples = b.op("Reshape", [fixed, flatShape(indices, ri)]);
  // The batch index of every tuple: Range(0, B) as [B, 1, ..., 1], expanded to the tuples' shape with last dim 1.
  const range = b.op("Range", [b.ints([0], []), b.op("Squeeze", [batch, b.ints([0])]), b.ints([1], [])]);
  const column = b.op("Reshape", [range, b.ints([-1, ...Array.from({ length: ri - batchDims }, () => 1)])]);
  const tupleShape = b.op("Shape", [tuples]);
  const lead = b.op("Concat", [b.op("Slice", [tupleShape, b.ints([0]), b.ints([-1])]), b.ints([1])], { axis: 0 });
  const withBatch = b.op("Concat", [b.op("Expand", [column, lead]), tuples], { axis: -1 });
  const flatX = b.op("Concat", [batch, b.op("Slice", [ctx.shape(x), b.ints([batchDims]), b.ints([r])])], { axis: 0 });
  const zeros = b.op("ConstantOfShape", [flatX], { value: zeroValue(ctx, x) });
  const scattered = b.op("ScatterND", [zeros, withBatch, b.op("Reshape", [g, flatShape(y, ctx.rank(y))])], {
    reduction: "add",
  });
  return b.op("Reshape", [scattered, ctx.shape(x)]);
}

/** The `values` input of OneHot: [off, on] = [0, 1] in the given float type. */
function constPair(ctx: RuleContext, elemType: number): string {
  const name = ctx.b.fresh("onehot_values");
  ctx.b.initializers.push(
    makeTensor(name, elemType === DataType.DOUBLE ? Float64Array.of(0, 1) : Float32Array.of(0, 1), [2], elemType),
  );
  return name;
}

/**
 * Gradient of an op that selects elements of x (Slice, Gather): apply the same selection to a tensor of
 * flat positions, then scatter the upstream gradient back to those positions (adding duplicates).
 */
function scatterThrough(
  ctx: RuleContext,
  x: string,
  g: string,
  select: (positions: string) => string,
  reduction: "add" | "none",
): string {
  const { b } = ctx;
  const size = b.op("Size", [x]);
  const positions = b.op("Reshape", [b.op("Range", [b.ints([0], []), size, b.ints([1], [])]), ctx.shape(x)]);
  const chosen = b.op("Reshape", [select(positions), b.ints([-1])]);
  const value = makeTensor(
    "value",
    ctx.elemType(x) === DataType.DOUBLE ? Float64Array.of(0) : Float32Array.of(0),
    [1],
    ctx.elemType(x),
  );
  const zeros = b.op("ConstantOfShape", [b.op("Reshape", [size, b.ints([1])])], { value });
  const attrs: Record<string, number | string> = reduction === "add" ? { axis: 0, reduction: "add" } : { axis: 0 };
  const flat = b.op("ScatterElements", [zeros, chosen, b.op("Reshape", [g, b.ints([-1])])], attrs);
  return b.op("Reshape", [flat, ctx.shape(x)]);
}
