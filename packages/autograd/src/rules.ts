/**
 * Gradient rules: for each op, the vector-Jacobian product written in standard ONNX ops (opset >= 13).
 * A rule receives the upstream gradients of the node's outputs and returns the gradients of its inputs
 * (undefined where an input is inactive or not differentiable). Broadcasting is undone by `sumTo`.
 */
import { UnsupportedOpError } from "./errors.js";
import type { GraphBuilder } from "./graph.js";
import { attrFloat, attrInt, attrInts, DataType, makeTensor, type NodeProto } from "./proto.js";

/** What a rule can ask about the graph while it emits gradient nodes. */
export interface RuleContext {
  b: GraphBuilder;
  opset: number;
  rank(tensor: string): number;
  elemType(tensor: string): number;
  /** Probed dims, with dims that vary between probes (dynamic) reported as 1: use for static shortcuts only. */
  dims(tensor: string): number[];
  /** Whether the tensor needs a gradient (it depends on a `wrt` tensor). */
  active(tensor: string): boolean;
  /** A Shape node of the tensor (cached). */
  shape(tensor: string): string;
  /** Constant int64 values of a tensor if it is an initializer or Constant output, else undefined. */
  constInts(tensor: string): number[] | undefined;
  /** Constant float values of a small float initializer or Constant output, else undefined. */
  constFloats(tensor: string): number[] | undefined;
}

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
};
// Variadic ops: every input.
export const VARIADIC = new Set(["Concat", "Sum"]);

/** Ops whose outputs never carry gradients (shapes, comparisons, rounding, index computations). */
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

const FLOATING = new Set<number>([DataType.FLOAT, DataType.DOUBLE, DataType.FLOAT16]);
export const isFloating = (elemType: number) => FLOATING.has(elemType);

// ---------- helpers ----------

const one = (ctx: RuleContext, like: string) => ctx.b.scalar(1, ctx.elemType(like));
const zero = (ctx: RuleContext, like: string) => ctx.b.scalar(0, ctx.elemType(like));

/**
 * Reduce gradient `g` (of rank `gRank`, the broadcast shape) to the shape of `x`, summing over broadcast
 * axes. `target` overrides x's rank and probed dims for tensors the gradient graph created itself.
 */
export function sumTo(
  ctx: RuleContext,
  g: string,
  gRank: number,
  x: string,
  target?: { rank: number; dims: number[] },
): string {
  const { b } = ctx;
  const rx = target?.rank ?? ctx.rank(x);
  const dims = target?.dims ?? ctx.dims(x);
  let out = g;
  if (gRank > rx)
    out = b.op("ReduceSum", [out, b.ints(Array.from({ length: gRank - rx }, (_, i) => i))], { keepdims: 0 });
  if (rx === 0) return out;
  // Static shortcut: a probed x without size-1 dims cannot be broadcast along its own axes.
  if (!dims.includes(1)) return out;
  // Dynamic: reduce (keepdims) over axes where x has size 1 and the gradient does not.
  const xs = ctx.shape(x);
  const gs = b.op("Shape", [out]);
  const oneI = b.ints([1], []);
  const mask = b.op("And", [b.op("Equal", [xs, oneI]), b.op("Not", [b.op("Equal", [gs, oneI])])]);
  const axes = b.op("Reshape", [b.op("NonZero", [mask]), b.ints([-1])]);
  return b.op("ReduceSum", [out, axes], { keepdims: 1, noop_with_empty_axes: 1 });
}

function reduceSum(ctx: RuleContext, t: string, axes: number[], keepdims: number): string {
  return ctx.b.op("ReduceSum", [t, ctx.b.ints(axes)], { keepdims });
}

function reduceMean(ctx: RuleContext, t: string, axes: number[], keepdims: number): string {
  if (ctx.opset >= 18) return ctx.b.op("ReduceMean", [t, ctx.b.ints(axes)], { keepdims });
  return ctx.b.op("ReduceMean", [t], { axes, keepdims });
}

/** Transpose swapping the last two axes of a tensor of rank r. */
function swapLast(ctx: RuleContext, t: string, r: number): string {
  const perm = Array.from({ length: r }, (_, i) => i);
  perm[r - 1] = r - 2;
  perm[r - 2] = r - 1;
  return ctx.b.op("Transpose", [t], { perm });
}

function zerosLike(ctx: RuleContext, t: string): string {
  const value = makeTensor(
    "value",
    ctx.elemType(t) === DataType.DOUBLE ? Float64Array.of(0) : Float32Array.of(0),
    [1],
    ctx.elemType(t),
  );
  return ctx.b.op("ConstantOfShape", [ctx.shape(t)], { value });
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
  Expand: unary((ctx, n, g) => sumTo(ctx, g, outRank(ctx, n), n.input[0] as string)),
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
    return [ctx.active(a) ? sumTo(ctx, g, r, a) : undefined, ctx.active(c) ? sumTo(ctx, g, r, c) : undefined];
  },
  Sum: (ctx, n, [g]) =>
    g === undefined ? [] : n.input.map((x) => (ctx.active(x) ? sumTo(ctx, g, outRank(ctx, n), x) : undefined)),
  Sub: (ctx, n, [g]) => {
    if (g === undefined) return [];
    const [a, c] = n.input as [string, string];
    const r = outRank(ctx, n);
    return [
      ctx.active(a) ? sumTo(ctx, g, r, a) : undefined,
      ctx.active(c) ? sumTo(ctx, ctx.b.op("Neg", [g]), r, c) : undefined,
    ];
  },
  Mul: (ctx, n, [g]) => {
    if (g === undefined) return [];
    const [a, c] = n.input as [string, string];
    const r = outRank(ctx, n);
    return [
      ctx.active(a) ? sumTo(ctx, ctx.b.op("Mul", [g, c]), r, a) : undefined,
      ctx.active(c) ? sumTo(ctx, ctx.b.op("Mul", [g, a]), r, c) : undefined,
    ];
  },
  Div: (ctx, n, [g]) => {
    if (g === undefined) return [];
    const [a, c] = n.input as [string, string];
    const y = n.output[0] as string;
    const r = outRank(ctx, n);
    return [
      ctx.active(a) ? sumTo(ctx, ctx.b.op("Div", [g, c]), r, a) : undefined,
      ctx.active(c) ? sumTo(ctx, ctx.b.op("Neg", [ctx.b.op("Div", [ctx.b.op("Mul", [g, y]), c])]), r, c) : undefined,
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
    return [sumTo(ctx, b.op("Mul", [g, d]), outRank(ctx, n), x)];
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
    return [
      undefined,
      ctx.active(a) ? sumTo(ctx, ctx.b.op("Where", [cond, g, z]), r, a) : undefined,
      ctx.active(c) ? sumTo(ctx, ctx.b.op("Where", [cond, z, g]), r, c) : undefined,
    ];
  },
};

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
