/**
 * The gradient of Einsum. For `out = einsum("A,B,...->O", a, b, ...)` the gradient of operand t is an Einsum
 * of the upstream gradient (subscripts O) with the other operands, written to t's subscripts: each output
 * element is a sum of products, and d/dt of a product is the product of the others. Letters of t that
 * appear nowhere else (summed within t alone) are absent from that Einsum: its result is broadcast back
 * along them. Ellipses become explicit letters (right-aligned, as numpy broadcasts them) and a size-1
 * ellipsis axis broadcast against a larger one is summed back by `sumTo`. A letter repeated within one
 * operand (a diagonal, "ii->i") has no rule.
 */
import { UnsupportedOpError } from "./errors.js";
import { attrString, type NodeProto } from "./proto.js";
import { type RuleContext, sumTo } from "./rule-context.js";

/** An Einsum equation with ellipses made explicit: one subscript string per input, and the output's. */
export interface EinsumTerms {
  inputs: string[];
  output: string;
}

const LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

/**
 * Parse an Einsum equation for inputs of the given ranks: spaces dropped, `...` replaced by letters the
 * equation does not use, the implicit output (no `->`) made explicit (ellipsis letters, then the letters
 * that appear once, in alphabetical order -- ONNX's and numpy's rule).
 * @throws Error on an equation that does not fit the ranks.
 */
export function parseEinsum(equation: string, ranks: readonly number[]): EinsumTerms {
  const eq = equation.replace(/\s+/g, "");
  const [lhs, rhs] = eq.split("->") as [string, string | undefined];
  const terms = lhs.split(",");
  if (terms.length !== ranks.length)
    throw new Error(`"${equation}" has ${terms.length} operands, the node ${ranks.length}`);
  const used = new Set(eq.replace(/[^a-zA-Z]/g, ""));
  const spare = [...LETTERS].filter((c) => !used.has(c));
  const explicit = (t: string) => t.replace("...", "").length;
  const ellipsisRanks = terms.map((t, k) => (t.includes("...") ? (ranks[k] as number) - explicit(t) : 0));
  const widest = Math.max(0, ...ellipsisRanks);
  if (widest > spare.length) throw new Error(`"${equation}" needs more letters than ONNX has`);
  const ellipsis = spare.slice(0, widest).join("");
  const inputs = terms.map((t, k) => {
    const e = ellipsisRanks[k] as number;
    if (e < 0) throw new Error(`operand ${k} of "${equation}" has rank ${ranks[k]}, fewer than its subscripts`);
    const full = t.replace("...", ellipsis.slice(widest - e));
    if (full.length !== ranks[k])
      throw new Error(`operand ${k} of "${equation}" has rank ${ranks[k]}, not ${full.length}`);
    return full;
  });
  let output: string;
  if (rhs !== undefined) output = rhs.replace("...", ellipsis);
  else {
    const counts = new Map<string, number>();
    for (const t of terms) for (const c of t.replace("...", "")) counts.set(c, (counts.get(c) ?? 0) + 1);
    output =
      ellipsis +
      [...counts]
        .filter(([, n]) => n === 1)
        .map(([c]) => c)
        .sort()
        .join("");
  }
  return { inputs, output };
}

/** Gradients of every active operand of an Einsum node given the upstream gradient `g`. */
export function einsumGradient(ctx: RuleContext, n: NodeProto, g: string): Array<string | undefined> {
  const { b } = ctx;
  const operands = n.input as string[];
  let terms: EinsumTerms;
  try {
    terms = parseEinsum(
      attrString(n, "equation", ""),
      operands.map((x) => ctx.rank(x)),
    );
  } catch (error) {
    throw new UnsupportedOpError("Einsum", n.name ?? "", (error as Error).message);
  }
  return operands.map((x, t) => {
    if (!ctx.active(x)) return undefined;
    const target = terms.inputs[t] as string;
    if (new Set(target).size !== target.length)
      throw new UnsupportedOpError(
        "Einsum",
        n.name ?? "",
        `operand ${t} repeats a subscript ("${target}", a diagonal)`,
      );
    const others = operands.map((o, k) => ({ tensor: o, sub: terms.inputs[k] as string })).filter((_, k) => k !== t);
    const factors = [{ tensor: g, sub: terms.output }, ...others];
    const elsewhere = new Set(factors.flatMap((f) => [...f.sub]));
    const kept = [...target].filter((c) => elsewhere.has(c)).join("");
    // A scalar factor (an empty subscript) is multiplied in afterwards: not every Einsum takes empty terms.
    const scalars = factors.filter((f) => f.sub === "").map((f) => f.tensor);
    const tensors = factors.filter((f) => f.sub !== "");
    let grad: string;
    if (tensors.length === 0) grad = scalars.reduce((a, c) => b.op("Mul", [a, c]));
    else {
      grad = b.op(
        "Einsum",
        tensors.map((f) => f.tensor),
        {
          equation: `${tensors.map((f) => f.sub).join(",")}->${kept}`,
        },
      );
      for (const s of scalars) grad = b.op("Mul", [grad, s]);
    }
    if (kept.length < target.length) {
      // Letters summed within this operand alone: broadcast the gradient back along them.
      const missing = [...target].flatMap((c, axis) => (kept.includes(c) ? [] : [axis]));
      grad = b.op("Expand", [b.op("Unsqueeze", [grad, b.ints(missing)]), ctx.shape(x)]);
    }
    return sumTo(ctx, grad, target.length, x);
  });
}
