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

/**
 * A model npov cannot use for a feature (salience, scoring, tuning): names the model folder, the files and
 * the cause (an op without a gradient rule, a graph onnxruntime rejects, ...), and how to see the rest.
 */
export class UnsupportedModelError extends NpovError {
  readonly dir: string;
  readonly files: readonly string[];
  override readonly cause: unknown;
  constructor(dir: string, files: readonly string[], cause: unknown) {
    const reason = cause instanceof Error ? cause.message.split("\n")[0] : String(cause);
    const code = cause instanceof NpovError ? ` [${cause.code}]` : "";
    super(
      "UNSUPPORTED_MODEL",
      `npov cannot use ${files.join(" + ")} of ${dir}: ${reason}${code}. Run \`npov model inspect --model ${dir}\` to see which features each dtype supports.`,
    );
    this.dir = dir;
    this.files = files;
    this.cause = cause;
  }
}

/**
 * onnxruntime failed while running a model npov loaded (most often an input longer than the model's
 * positions). Names the model, the input size and, when config.json declares it, the position limit.
 */
export class ModelRunError extends NpovError {
  override readonly cause: unknown;
  constructor(dir: string, tokens: string, maxPositions: number | undefined, cause: unknown) {
    const reason = cause instanceof Error ? (cause.message.split("\n")[0] ?? "") : String(cause);
    const limit =
      maxPositions === undefined
        ? ""
        : ` config.json declares ${maxPositions} positions: shorten the input if it is longer.`;
    super("MODEL_RUN", `running ${dir} on ${tokens} failed: ${reason}.${limit}`);
    this.cause = cause;
  }
}

/** The position limit a config.json declares, if any (max_position_embeddings, n_positions, n_ctx). */
export function maxPositions(config: Record<string, unknown>): number | undefined {
  for (const key of ["max_position_embeddings", "n_positions", "n_ctx"]) {
    const v = config[key];
    if (typeof v === "number" && Number.isInteger(v) && v > 0) return v;
  }
  return undefined;
}
