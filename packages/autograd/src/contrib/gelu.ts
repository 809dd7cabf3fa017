/**
 * Elementwise contrib ops: `FastGelu` (tanh approximation, optional bias), `Gelu` (erf), `BiasGelu`,
 * `QuickGelu` (x * sigmoid(alpha * x)) and `BiasAdd` (X + bias + skip). float16 computes in float32.
 */
import type { NodeProto } from "../proto.js";
import { attrFloat, type Emitter } from "./context.js";
import { computeType, down, up } from "./norm.js";

const SQRT_2_OVER_PI = 0.7978845608028654;

function erfGelu(e: Emitter, x: string, ct: number): string {
  const inner = e.op("Erf", [e.op("Mul", [x, e.scalar(Math.SQRT1_2, ct)])]);
  return e.op("Mul", [e.op("Mul", [x, e.scalar(0.5, ct)]), e.op("Add", [inner, e.scalar(1, ct)])]);
}

/** FastGelu(X, bias?) = 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), x = X + bias. */
export function fastGelu(e: Emitter, node: NodeProto): string[] {
  const [input, bias] = node.input as [string, string | undefined];
  const type = e.elemType(node, input);
  const ct = computeType(type);
  let x = up(e, input, type);
  if (bias) x = e.op("Add", [x, up(e, bias, type)]);
  const cube = e.op("Mul", [e.op("Mul", [x, x]), x]);
  const inner = e.op("Mul", [
    e.op("Add", [x, e.op("Mul", [cube, e.scalar(0.044715, ct)])]),
    e.scalar(SQRT_2_OVER_PI, ct),
  ]);
  const y = e.op("Mul", [e.op("Mul", [x, e.scalar(0.5, ct)]), e.op("Add", [e.op("Tanh", [inner]), e.scalar(1, ct)])]);
  return [down(e, y, type)];
}

/** Gelu(X) = 0.5 x (1 + erf(x / sqrt 2)). */
export function gelu(e: Emitter, node: NodeProto): string[] {
  const x = node.input[0] as string;
  const type = e.elemType(node, x);
  return [down(e, erfGelu(e, up(e, x, type), computeType(type)), type)];
}

/** BiasGelu(A, B) = Gelu(A + B). */
export function biasGelu(e: Emitter, node: NodeProto): string[] {
  const [a, bias] = node.input as [string, string];
  const type = e.elemType(node, a);
  const x = e.op("Add", [up(e, a, type), up(e, bias, type)]);
  return [down(e, erfGelu(e, x, computeType(type)), type)];
}

/** QuickGelu(X) = x * sigmoid(alpha x), alpha = 1.702 by default. */
export function quickGelu(e: Emitter, node: NodeProto): string[] {
  const input = node.input[0] as string;
  const type = e.elemType(node, input);
  const ct = computeType(type);
  const x = up(e, input, type);
  const alpha = attrFloat(node, "alpha", 1.702);
  const y = e.op("Mul", [x, e.op("Sigmoid", [e.op("Mul", [x, e.scalar(alpha, ct)])])]);
  return [down(e, y, type)];
}

/** BiasAdd(X, bias, skip) = X + bias + skip. */
export function biasAdd(e: Emitter, node: NodeProto): string[] {
  const [x, bias, skip] = node.input as [string, string, string];
  const type = e.elemType(node, x);
  const y = e.op("Add", [e.op("Add", [up(e, x, type), up(e, bias, type)]), up(e, skip, type)]);
  return [down(e, y, type)];
}
