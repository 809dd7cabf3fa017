/** Typed errors of the gradient engine. */
import { NpovError } from "@npov/core";

/** An op on the differentiable path has no gradient rule. */
export class UnsupportedOpError extends NpovError {
  readonly opType: string;
  readonly node: string;
  constructor(opType: string, node: string, detail = "") {
    super(
      "UNSUPPORTED_OP",
      `No gradient rule for ${opType} (node "${node}") on the differentiable path${detail ? `: ${detail}` : ""}. Cut the graph before it, or add a rule.`,
    );
    this.opType = opType;
    this.node = node;
  }
}

/** A graph that cannot be differentiated as asked (unknown tensor, unsupported opset, ...). */
export class GradientGraphError extends NpovError {
  constructor(message: string) {
    super("GRADIENT_GRAPH", message);
  }
}
