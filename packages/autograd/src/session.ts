/**
 * `GradientSession`: a gradient graph built once, cached, and run with onnxruntime-node.
 */
import { createHash } from "node:crypto";
import type * as ort from "onnxruntime-node";
import { buildGradientGraph, type GradientGraph, type GradientOptions } from "./gradient.js";
import { encodeModel, type ModelProto } from "./proto.js";
import { createWeightFileSession } from "./weight-file.js";

const cache = new Map<string, Promise<GradientGraph>>();
const CACHE_LIMIT = 16;

/** Build (or reuse) the gradient graph of `model` for `options`; keyed by the model bytes and options. */
export function cachedGradientGraph(model: ModelProto, options: GradientOptions): Promise<GradientGraph> {
  const key = createHash("sha256")
    .update(encodeModel(model))
    .update(JSON.stringify({ of: options.of, wrt: options.wrt, seed: options.seed ?? null }))
    .digest("hex");
  let graph = cache.get(key);
  if (graph === undefined) {
    if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
    graph = buildGradientGraph(model, options);
    cache.set(key, graph);
    graph.catch(() => cache.delete(key));
  }
  return graph;
}

/** Forward outputs and gradients of one run. */
export interface GradientRun {
  outputs: Record<string, ort.Tensor>;
  /** wrt tensor name -> its gradient. */
  gradients: Record<string, ort.Tensor>;
}

/** A differentiated model ready to run: forward and backward in one onnxruntime session. */
export class GradientSession {
  private constructor(
    readonly graph: GradientGraph,
    private readonly session: ort.InferenceSession,
  ) {}

  /** Build (cached) and load the gradient graph. */
  static async create(
    model: ModelProto,
    options: GradientOptions & { sessionOptions?: ort.InferenceSession.SessionOptions },
  ): Promise<GradientSession> {
    const graph = await cachedGradientGraph(model, options);
    // onnxruntime would print its own warnings and kernel failures to stderr: npov reports them through
    // typed errors instead (logSeverityLevel 4 = fatal only; the caller's options win).
    // Weights reach the session through an external-data file (see weight-file.ts): mapped, not copied,
    // and the only way when the model's weights were moved there (WeightFile.moveWeights).
    const session = await createWeightFileSession(graph.model, {
      logSeverityLevel: 4,
      ...options.sessionOptions,
    });
    return new GradientSession(graph, session);
  }

  /** Names of the inputs the session needs (model inputs plus upstream-gradient inputs). */
  get inputNames(): readonly string[] {
    return this.session.inputNames;
  }

  /**
   * Run forward and backward. `upstream` maps each `of` tensor to its upstream gradient (required for
   * non-scalar `of` built with seed "input"). `outputs` selects forward outputs to return (default: all).
   */
  async run(
    feeds: Record<string, ort.Tensor>,
    options: { upstream?: Record<string, ort.Tensor>; outputs?: string[] } = {},
  ): Promise<GradientRun> {
    const all: Record<string, ort.Tensor> = { ...feeds };
    for (const [of, input] of Object.entries(this.graph.upstream)) {
      const u = options.upstream?.[of];
      if (u === undefined) throw new RangeError(`missing upstream gradient for "${of}" (input "${input}")`);
      all[input] = u;
    }
    const gradientNames = Object.values(this.graph.gradients);
    const forward = options.outputs ?? this.session.outputNames.filter((n) => !gradientNames.includes(n));
    const result = await this.session.run(all, [...forward, ...gradientNames]);
    const gradients: Record<string, ort.Tensor> = {};
    for (const [wrt, name] of Object.entries(this.graph.gradients)) gradients[wrt] = result[name] as ort.Tensor;
    const outputs: Record<string, ort.Tensor> = {};
    for (const name of forward) outputs[name] = result[name] as ort.Tensor;
    return { outputs, gradients };
  }

  async release(): Promise<void> {
    await this.session.release();
  }
}
