/**
 * Adam (with optional decoupled weight decay, AdamW) over named Float32Array parameters, a warm-up then
 * linear-decay learning-rate schedule, optional global-norm clipping, and writing trained values back
 * into a model.
 */
import { InvalidValueError } from "@npov/core";
import {
  cloneModel,
  type GraphProto,
  type ModelProto,
  makeTensor,
  type TensorProto,
  type ValueInfoProto,
} from "./proto.js";

export interface AdamOptions {
  /** Peak learning rate. */
  lr: number;
  beta1?: number;
  beta2?: number;
  eps?: number;
  /** Decoupled weight decay (AdamW); default 0. */
  weightDecay?: number;
  /** Linear warm-up from 0 to lr over this many steps (default 0). */
  warmupSteps?: number;
  /** When set, lr decays linearly from the end of warm-up to 0 at this step. */
  totalSteps?: number;
  /** Clip the global gradient norm to this value (default: no clipping). */
  clipNorm?: number;
}

/** Learning rate at `step` (1-based) for a warm-up + linear-decay schedule. */
export function scheduledLr(step: number, options: Pick<AdamOptions, "lr" | "warmupSteps" | "totalSteps">): number {
  const warmup = options.warmupSteps ?? 0;
  if (warmup > 0 && step <= warmup) return (options.lr * step) / warmup;
  if (options.totalSteps === undefined) return options.lr;
  const remaining = Math.max(0, options.totalSteps - step);
  return (options.lr * remaining) / Math.max(1, options.totalSteps - warmup);
}

/** Serializable optimizer state (for checkpoints and resuming). */
export interface AdamState {
  step: number;
  m: Record<string, number[]>;
  v: Record<string, number[]>;
}

/** Adam over named parameters, updated in place. */
export class Adam {
  readonly params: Map<string, Float32Array>;
  private readonly m = new Map<string, Float32Array>();
  private readonly v = new Map<string, Float32Array>();
  private t = 0;

  constructor(
    params: Map<string, Float32Array>,
    private readonly options: AdamOptions,
  ) {
    if (!(options.lr > 0)) throw new InvalidValueError("lr", "must be a positive number.");
    this.params = params;
    for (const [name, p] of params) {
      this.m.set(name, new Float32Array(p.length));
      this.v.set(name, new Float32Array(p.length));
    }
  }

  get step(): number {
    return this.t;
  }

  /** Apply one update from gradients (same names and sizes as the parameters); returns the lr used. */
  update(gradients: Map<string, ArrayLike<number>>): { lr: number; gradNorm: number } {
    this.t++;
    const { beta1 = 0.9, beta2 = 0.999, eps = 1e-8, weightDecay = 0 } = this.options;
    let norm2 = 0;
    for (const [name, g] of gradients) {
      if (!this.params.has(name)) throw new InvalidValueError("gradients", `unknown parameter "${name}".`);
      for (let i = 0; i < g.length; i++) norm2 += (g[i] as number) ** 2;
    }
    const gradNorm = Math.sqrt(norm2);
    const clip =
      this.options.clipNorm !== undefined && gradNorm > this.options.clipNorm ? this.options.clipNorm / gradNorm : 1;
    const lr = scheduledLr(this.t, this.options);
    const c1 = 1 - beta1 ** this.t;
    const c2 = 1 - beta2 ** this.t;
    for (const [name, g] of gradients) {
      const p = this.params.get(name) as Float32Array;
      const m = this.m.get(name) as Float32Array;
      const v = this.v.get(name) as Float32Array;
      if (g.length !== p.length)
        throw new InvalidValueError("gradients", `"${name}" has ${g.length} values, the parameter ${p.length}.`);
      for (let i = 0; i < p.length; i++) {
        const gi = (g[i] as number) * clip;
        const mi = beta1 * (m[i] as number) + (1 - beta1) * gi;
        const vi = beta2 * (v[i] as number) + (1 - beta2) * gi * gi;
        m[i] = mi;
        v[i] = vi;
        p[i] = (p[i] as number) - lr * (mi / c1 / (Math.sqrt(vi / c2) + eps) + weightDecay * (p[i] as number));
      }
    }
    return { lr, gradNorm };
  }

  /** State for a checkpoint. */
  state(): AdamState {
    const dump = (map: Map<string, Float32Array>) => Object.fromEntries([...map].map(([k, a]) => [k, Array.from(a)]));
    return { step: this.t, m: dump(this.m), v: dump(this.v) };
  }

  /** Restore a checkpoint's state. */
  restore(state: AdamState): void {
    this.t = state.step;
    for (const [name, values] of Object.entries(state.m)) this.m.get(name)?.set(values);
    for (const [name, values] of Object.entries(state.v)) this.v.get(name)?.set(values);
  }
}

/**
 * A copy of `model` whose initializers named in `values` hold the new values; names that were turned
 * into graph inputs become initializers again.
 */
export function withParameters(
  model: ModelProto,
  values: Map<string, { data: Float32Array; dims: number[] }>,
): ModelProto {
  const copy = cloneModel(model);
  const graph = copy.graph as GraphProto;
  const seen = new Set<string>();
  graph.initializer = (graph.initializer as TensorProto[]).map((t) => {
    const v = values.get(t.name);
    if (v === undefined) return t;
    seen.add(t.name);
    return makeTensor(t.name, v.data, v.dims);
  });
  for (const [name, v] of values) {
    if (seen.has(name)) continue;
    const input = (graph.input as ValueInfoProto[]).find((i) => i.name === name);
    if (input === undefined)
      throw new InvalidValueError("values", `"${name}" is neither an initializer nor an input of the model.`);
    graph.input = (graph.input as ValueInfoProto[]).filter((i) => i.name !== name);
    graph.initializer.push(makeTensor(name, v.data, v.dims));
  }
  return copy;
}
