/** Symbolic dimensions of ONNX value infos, read as arithmetic expressions. */
import { GradientGraphError } from "./errors.js";

/**
 * Evaluate a symbolic dimension written as an expression (`past_sequence_length + 1`, `2 * n`) with the
 * given variable values; unknown names take `fallback(name)`.
 */
export function evaluateDimExpression(expression: string, fallback: (name: string) => number): number {
  const tokens = expression.match(/[A-Za-z_][\w.]*|\d+|[-+*/()]/g) ?? [];
  if (tokens.join("") !== expression.replace(/\s+/g, ""))
    throw new GradientGraphError(`cannot read dimension expression "${expression}".`);
  let pos = 0;
  const peek = () => tokens[pos];
  const atom = (): number => {
    const t = tokens[pos++];
    if (t === undefined) throw new GradientGraphError(`dimension expression "${expression}" ends early.`);
    if (t === "(") {
      const v = sum();
      if (tokens[pos++] !== ")") throw new GradientGraphError(`unbalanced parentheses in "${expression}".`);
      return v;
    }
    if (t === "-") return -atom();
    if (/^\d+$/.test(t)) return Number(t);
    if (/^[A-Za-z_]/.test(t)) return fallback(t);
    throw new GradientGraphError(`unexpected "${t}" in dimension expression "${expression}".`);
  };
  const product = (): number => {
    let v = atom();
    while (peek() === "*" || peek() === "/") v = tokens[pos++] === "*" ? v * atom() : Math.floor(v / atom());
    return v;
  };
  const sum = (): number => {
    let v = product();
    while (peek() === "+" || peek() === "-") v = tokens[pos++] === "+" ? v + product() : v - product();
    return v;
  };
  const value = sum();
  if (pos !== tokens.length) throw new GradientGraphError(`cannot read dimension expression "${expression}".`);
  return value;
}
