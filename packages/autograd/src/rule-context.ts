/**
 * What a gradient rule sees of the graph ({@link RuleContext}) and the broadcast reduction every elementwise
 * rule ends with ({@link sumTo}): shared by rules.ts and the Einsum rule, so neither imports the other.
 */
import type { GraphBuilder } from "./graph.js";

/** What a rule can ask about the graph while it emits gradient nodes. */
export interface RuleContext {
  b: GraphBuilder;
  opset: number;
  rank(tensor: string): number;
  elemType(tensor: string): number;
  /** Probed dims, with dims that vary between probes (dynamic) reported as 1: use for static shortcuts only. */
  dims(tensor: string): number[];
  /**
   * Whether two probed tensors had the same dims in both probes (whose symbolic sizes differ): then they
   * have the same shape for every input, and nothing was broadcast between them.
   */
  sameDims(a: string, b: string): boolean;
  /** Whether the tensor needs a gradient (it depends on a `wrt` tensor). */
  active(tensor: string): boolean;
  /** A Shape node of the tensor (cached). */
  shape(tensor: string): string;
  /** Constant int64 values of a tensor if it is an initializer or Constant output, else undefined. */
  constInts(tensor: string): number[] | undefined;
  /** Constant float values of a small float initializer or Constant output, else undefined. */
  constFloats(tensor: string): number[] | undefined;
}

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
  like?: string,
): string {
  const { b } = ctx;
  // A gradient shaped like `like` (a probed tensor, e.g. the node's output) needs no reduction when x has
  // its dims in every probe: the elementwise ops of a chain then cost no Shape/Equal/NonZero nodes.
  if (target === undefined && like !== undefined && ctx.sameDims(like, x)) return g;
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
