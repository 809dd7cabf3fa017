/**
 * Writing transformer graphs from scratch: a fresh graph with named weights, and the layers the
 * builders share (linear, norms, multi-head attention with a KV cache, rotary embeddings).
 */
import { createRng } from "@npov/core";
import { GraphBuilder } from "../graph.js";
import { DataType, type GraphProto, type ModelProto, makeTensor, onnx, valueInfo } from "../proto.js";

/** Supplies a weight's values: `(name, dims) => Float32Array` of the product of dims. */
export type WeightInit = (name: string, dims: readonly number[]) => Float32Array;

/** Seeded N(0, std^2) weights (Box-Muller over the project's RNG); norm scales are 1, biases 0. */
export function randomInit(seed: number, std = 0.02): WeightInit {
  const rng = createRng(seed);
  return (name, dims) => {
    const n = dims.reduce((a, b) => a * b, 1);
    const out = new Float32Array(n);
    if (/(norm|ln_|layernorm).*weight$|\.g$|scale$/i.test(name)) return out.fill(1);
    if (/bias$/.test(name)) return out;
    for (let i = 0; i < n; i += 2) {
      const u = Math.max(rng.next(), 1e-12);
      const v = rng.next();
      const r = Math.sqrt(-2 * Math.log(u)) * std;
      out[i] = r * Math.cos(2 * Math.PI * v);
      if (i + 1 < n) out[i + 1] = r * Math.sin(2 * Math.PI * v);
    }
    return out;
  };
}

/** A graph under construction. */
export class Net {
  readonly graph: GraphProto;
  readonly b: GraphBuilder;
  private params = 0;

  constructor(
    name: string,
    private readonly init: WeightInit,
  ) {
    this.graph = onnx.GraphProto.create({ name });
    this.b = new GraphBuilder(this.graph, name);
  }

  /** A float32 weight initializer. */
  weight(name: string, dims: number[]): string {
    const values = this.init(name, dims);
    if (values.length !== dims.reduce((a, b) => a * b, 1))
      throw new RangeError(`weight ${name}: expected ${dims.join("x")} values, got ${values.length}`);
    this.graph.initializer.push(makeTensor(name, values, dims, DataType.FLOAT));
    this.params += values.length;
    return name;
  }

  /** A constant float32 tensor (not a parameter). */
  constant(hint: string, values: Float32Array, dims: number[]): string {
    const name = this.b.fresh(hint);
    this.b.initializers.push(makeTensor(name, values, dims, DataType.FLOAT));
    return name;
  }

  input(name: string, elemType: number, dims: Array<number | string>): string {
    this.graph.input.push(valueInfo(name, elemType, dims));
    return name;
  }

  output(name: string, from: string, elemType: number, dims: Array<number | string>): void {
    this.b.node("Identity", [from], [name]);
    this.graph.output.push(valueInfo(name, elemType, dims));
  }

  op(type: string, inputs: string[], attrs: Parameters<GraphBuilder["op"]>[2] = {}): string {
    return this.b.op(type, inputs, attrs);
  }

  /** Number of parameters added with {@link weight}. */
  get parameterCount(): number {
    return this.params;
  }

  /** Finish: a model at `opset`. */
  model(opset = 17, producer = "npov-autograd"): ModelProto {
    this.b.flushInto(this.graph);
    return onnx.ModelProto.create({
      irVersion: 8,
      producerName: producer,
      opsetImport: [{ domain: "", version: opset }],
      graph: this.graph,
    });
  }

  // ---- layers ----

  linear(x: string, w: string, bias?: string): string {
    const y = this.op("MatMul", [x, w]);
    return bias === undefined ? y : this.op("Add", [y, bias]);
  }

  /** RMSNorm as Hugging Face exports it: x / sqrt(mean(x^2) + eps) * weight. */
  rmsNorm(x: string, weight: string, eps: number): string {
    const { b } = this;
    const variance = b.op("ReduceMean", [b.op("Pow", [x, b.scalar(2, DataType.FLOAT)])], { axes: [-1], keepdims: 1 });
    const denom = b.op("Sqrt", [b.op("Add", [variance, b.scalar(eps, DataType.FLOAT)])]);
    return b.op("Mul", [weight, b.op("Div", [x, denom])]);
  }

  layerNorm(x: string, scale: string, bias: string, eps: number): string {
    return this.op("LayerNormalization", [x, scale, bias], { axis: -1, epsilon: { float: eps } });
  }

  /** [B, S, H*hd] -> [B, H, S, hd] */
  splitHeads(x: string, heads: number, headDim: number): string {
    return this.op("Transpose", [this.op("Reshape", [x, this.b.ints([0, 0, heads, headDim])])], { perm: [0, 2, 1, 3] });
  }

  /** [B, H, S, hd] -> [B, S, H*hd] */
  mergeHeads(x: string, width: number): string {
    return this.op("Reshape", [this.op("Transpose", [x], { perm: [0, 2, 1, 3] }), this.b.ints([0, 0, width])]);
  }

  /** Dimension `axis` of a tensor as a scalar int64. */
  dim(t: string, axis: number): string {
    return this.op("Gather", [this.op("Shape", [t]), this.b.ints([axis], [])]);
  }

  /**
   * Additive attention bias [B, 1, S, T] from a [B, T] int mask (1 = attend), causal when `causal`:
   * query i (absolute position past + i) sees keys j <= past + i. Masked entries get -1e9.
   */
  attentionBias(mask: string, queryLength: string, pastLength: string, causal: boolean): string {
    const { b } = this;
    let allowed = this.op("Cast", [this.op("Unsqueeze", [mask, b.ints([1, 2])])], { to: DataType.BOOL });
    if (causal) {
      const total = this.op("Add", [pastLength, queryLength]);
      const qpos = this.op("Range", [pastLength, total, b.ints([1], [])]);
      const kpos = this.op("Range", [b.ints([0], []), total, b.ints([1], [])]);
      const causalMask = this.op("LessOrEqual", [
        this.op("Unsqueeze", [kpos, b.ints([0])]),
        this.op("Unsqueeze", [qpos, b.ints([1])]),
      ]);
      allowed = this.op("And", [allowed, causalMask]);
    }
    return this.op("Where", [allowed, b.scalar(0, DataType.FLOAT), b.scalar(-1e9, DataType.FLOAT)]);
  }

  /** softmax(q k^T * scale + bias) v for [B, H, S, hd] tensors. */
  attend(q: string, k: string, v: string, bias: string | undefined, scale: number | undefined): string {
    let scores = this.op("MatMul", [q, this.op("Transpose", [k], { perm: [0, 1, 3, 2] })]);
    if (scale !== undefined) scores = this.op("Mul", [scores, this.b.scalar(scale, DataType.FLOAT)]);
    if (bias !== undefined) scores = this.op("Add", [scores, bias]);
    return this.op("MatMul", [this.op("Softmax", [scores], { axis: -1 }), v]);
  }

  /** Repeat KV heads for grouped-query attention: [B, KvH, T, hd] -> [B, KvH*rep, T, hd]. */
  repeatKv(x: string, rep: number, heads: number, headDim: number): string {
    if (rep === 1) return x;
    const { b } = this;
    const expanded = this.op("Expand", [this.op("Unsqueeze", [x, b.ints([2])]), b.ints([1, 1, rep, 1, 1])]);
    return this.op("Reshape", [expanded, b.ints([0, heads, -1, headDim])]);
  }
}
