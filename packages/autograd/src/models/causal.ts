/**
 * Causal language models in the node patterns of Hugging Face's ONNX exports (optimum): GPT-2-like
 * (learned positions, LayerNorm, GELU-tanh MLP, tied head) and LLaMA-like (RMSNorm, rotary embeddings,
 * grouped-query attention, SwiGLU, optionally tied head). Inputs: input_ids, attention_mask,
 * position_ids, past_key_values.{i}.key/value; outputs: logits, present.{i}.key/value -- the layout
 * transformers.js runs (the past may have length 0).
 */
import { DataType, type ModelProto } from "../proto.js";
import { Net, randomInit, type WeightInit } from "./net.js";

export interface Gpt2Config {
  vocabSize: number;
  nEmbd: number;
  nLayer: number;
  nHead: number;
  nPositions: number;
  layerNormEpsilon?: number;
}

export interface LlamaConfig {
  vocabSize: number;
  hiddenSize: number;
  intermediateSize: number;
  numHiddenLayers: number;
  numAttentionHeads: number;
  numKeyValueHeads: number;
  maxPositionEmbeddings: number;
  rmsNormEps?: number;
  ropeTheta?: number;
  tieWordEmbeddings?: boolean;
}

/** A built model and how many parameters it has. */
export interface BuiltModel {
  model: ModelProto;
  parameters: number;
}

function causalInputs(
  net: Net,
  layers: number,
  kvHeads: number,
  headDim: number,
): { ids: string; mask: string; positions: string; past: Array<[string, string]> } {
  const ids = net.input("input_ids", DataType.INT64, ["batch_size", "sequence_length"]);
  const mask = net.input("attention_mask", DataType.INT64, ["batch_size", "total_sequence_length"]);
  const positions = net.input("position_ids", DataType.INT64, ["batch_size", "sequence_length"]);
  const past: Array<[string, string]> = [];
  for (let i = 0; i < layers; i++)
    past.push([
      net.input(`past_key_values.${i}.key`, DataType.FLOAT, ["batch_size", kvHeads, "past_sequence_length", headDim]),
      net.input(`past_key_values.${i}.value`, DataType.FLOAT, ["batch_size", kvHeads, "past_sequence_length", headDim]),
    ]);
  return { ids, mask, positions, past };
}

function presentOutput(net: Net, i: number, key: string, value: string, kvHeads: number, headDim: number): void {
  net.output(`present.${i}.key`, key, DataType.FLOAT, ["batch_size", kvHeads, "total_sequence_length", headDim]);
  net.output(`present.${i}.value`, value, DataType.FLOAT, ["batch_size", kvHeads, "total_sequence_length", headDim]);
}

/** GELU with the tanh approximation, as GPT-2 exports it (Pow, Mul, Add, Tanh). */
function geluTanh(net: Net, x: string): string {
  const { b } = net;
  const f = (v: number) => b.scalar(v, DataType.FLOAT);
  const inner = net.op("Mul", [
    f(Math.sqrt(2 / Math.PI)),
    net.op("Add", [x, net.op("Mul", [f(0.044715), net.op("Pow", [x, f(3)])])]),
  ]);
  return net.op("Mul", [net.op("Mul", [f(0.5), x]), net.op("Add", [f(1), net.op("Tanh", [inner])])]);
}

/** A GPT-2-like causal LM. */
export function buildGpt2(config: Gpt2Config, init: WeightInit = randomInit(0)): BuiltModel {
  const net = new Net("gpt2", init);
  const { nEmbd: d, nHead: h, nLayer: layers, vocabSize: v } = config;
  const hd = d / h;
  const eps = config.layerNormEpsilon ?? 1e-5;
  const { ids, mask, positions, past } = causalInputs(net, layers, h, hd);
  const wte = net.weight("transformer.wte.weight", [v, d]);
  const wpe = net.weight("transformer.wpe.weight", [config.nPositions, d]);
  let x = net.op("Add", [net.op("Gather", [wte, ids]), net.op("Gather", [wpe, positions])]);
  const seq = net.dim(ids, 1);
  const pastLength = net.dim(past[0]?.[0] as string, 2);
  const bias = net.attentionBias(mask, seq, pastLength, true);
  for (let i = 0; i < layers; i++) {
    const p = `transformer.h.${i}`;
    const a = net.layerNorm(x, net.weight(`${p}.ln_1.weight`, [d]), net.weight(`${p}.ln_1.bias`, [d]), eps);
    const qkv = net.linear(
      a,
      net.weight(`${p}.attn.c_attn.weight`, [d, 3 * d]),
      net.weight(`${p}.attn.c_attn.bias`, [3 * d]),
    );
    const [q, k, val] = net.b.node("Split", [qkv, net.b.ints([d, d, d])], 3, { axis: -1 }) as [string, string, string];
    const [pk, pv] = past[i] as [string, string];
    const keys = net.op("Concat", [pk, net.splitHeads(k, h, hd)], { axis: 2 });
    const values = net.op("Concat", [pv, net.splitHeads(val, h, hd)], { axis: 2 });
    presentOutput(net, i, keys, values, h, hd);
    const attn = net.mergeHeads(net.attend(net.splitHeads(q, h, hd), keys, values, bias, 1 / Math.sqrt(hd)), d);
    x = net.op("Add", [
      x,
      net.linear(attn, net.weight(`${p}.attn.c_proj.weight`, [d, d]), net.weight(`${p}.attn.c_proj.bias`, [d])),
    ]);
    const m = net.layerNorm(x, net.weight(`${p}.ln_2.weight`, [d]), net.weight(`${p}.ln_2.bias`, [d]), eps);
    const up = geluTanh(
      net,
      net.linear(m, net.weight(`${p}.mlp.c_fc.weight`, [d, 4 * d]), net.weight(`${p}.mlp.c_fc.bias`, [4 * d])),
    );
    x = net.op("Add", [
      x,
      net.linear(up, net.weight(`${p}.mlp.c_proj.weight`, [4 * d, d]), net.weight(`${p}.mlp.c_proj.bias`, [d])),
    ]);
  }
  x = net.layerNorm(x, net.weight("transformer.ln_f.weight", [d]), net.weight("transformer.ln_f.bias", [d]), eps);
  const logits = net.op("MatMul", [x, net.op("Transpose", [wte], { perm: [1, 0] })]);
  net.output("logits", logits, DataType.FLOAT, ["batch_size", "sequence_length", v]);
  return { model: net.model(17), parameters: net.parameterCount };
}

/** A LLaMA-like causal LM (rotary embeddings in Hugging Face's rotate-half layout). */
export function buildLlama(config: LlamaConfig, init: WeightInit = randomInit(0)): BuiltModel {
  const net = new Net("llama", init);
  const d = config.hiddenSize;
  const h = config.numAttentionHeads;
  const kvh = config.numKeyValueHeads;
  const hd = d / h;
  const layers = config.numHiddenLayers;
  const v = config.vocabSize;
  const eps = config.rmsNormEps ?? 1e-6;
  const theta = config.ropeTheta ?? 10000;
  const { b } = net;
  const { ids, mask, positions, past } = causalInputs(net, layers, kvh, hd);
  const embed = net.weight("model.embed_tokens.weight", [v, d]);
  let x = net.op("Gather", [embed, ids]);
  const seq = net.dim(ids, 1);
  const pastLength = net.dim(past[0]?.[0] as string, 2);
  const bias = net.attentionBias(mask, seq, pastLength, true);

  // Rotary tables from position ids (not differentiable: Cos/Sin sit off the gradient path).
  const invFreq = net.constant(
    "inv_freq",
    Float32Array.from({ length: hd / 2 }, (_, i) => 1 / theta ** ((2 * i) / hd)),
    [hd / 2],
  );
  const freqs = net.op("Mul", [
    net.op("Unsqueeze", [net.op("Cast", [positions], { to: DataType.FLOAT }), b.ints([-1])]),
    invFreq,
  ]);
  const emb = net.op("Concat", [freqs, freqs], { axis: -1 });
  const cos = net.op("Unsqueeze", [net.op("Cos", [emb]), b.ints([1])]);
  const sin = net.op("Unsqueeze", [net.op("Sin", [emb]), b.ints([1])]);
  const rotate = (t: string) => {
    const x1 = net.op("Slice", [t, b.ints([0]), b.ints([hd / 2]), b.ints([-1])]);
    const x2 = net.op("Slice", [t, b.ints([hd / 2]), b.ints([hd]), b.ints([-1])]);
    const rotated = net.op("Concat", [net.op("Neg", [x2]), x1], { axis: -1 });
    return net.op("Add", [net.op("Mul", [t, cos]), net.op("Mul", [rotated, sin])]);
  };

  for (let i = 0; i < layers; i++) {
    const p = `model.layers.${i}`;
    const a = net.rmsNorm(x, net.weight(`${p}.input_layernorm.weight`, [d]), eps);
    const q = rotate(net.splitHeads(net.linear(a, net.weight(`${p}.self_attn.q_proj.weight`, [d, h * hd])), h, hd));
    const k = rotate(net.splitHeads(net.linear(a, net.weight(`${p}.self_attn.k_proj.weight`, [d, kvh * hd])), kvh, hd));
    const val = net.splitHeads(net.linear(a, net.weight(`${p}.self_attn.v_proj.weight`, [d, kvh * hd])), kvh, hd);
    const [pk, pv] = past[i] as [string, string];
    const keys = net.op("Concat", [pk, k], { axis: 2 });
    const values = net.op("Concat", [pv, val], { axis: 2 });
    presentOutput(net, i, keys, values, kvh, hd);
    const rep = h / kvh;
    const attn = net.attend(
      q,
      net.repeatKv(keys, rep, h, hd),
      net.repeatKv(values, rep, h, hd),
      bias,
      1 / Math.sqrt(hd),
    );
    x = net.op("Add", [
      x,
      net.linear(net.mergeHeads(attn, d), net.weight(`${p}.self_attn.o_proj.weight`, [h * hd, d])),
    ]);
    const m = net.rmsNorm(x, net.weight(`${p}.post_attention_layernorm.weight`, [d]), eps);
    const gate = net.linear(m, net.weight(`${p}.mlp.gate_proj.weight`, [d, config.intermediateSize]));
    const up = net.linear(m, net.weight(`${p}.mlp.up_proj.weight`, [d, config.intermediateSize]));
    const act = net.op("Mul", [net.op("Mul", [gate, net.op("Sigmoid", [gate])]), up]);
    x = net.op("Add", [x, net.linear(act, net.weight(`${p}.mlp.down_proj.weight`, [config.intermediateSize, d]))]);
  }
  x = net.rmsNorm(x, net.weight("model.norm.weight", [d]), eps);
  const head = config.tieWordEmbeddings
    ? net.op("Transpose", [embed], { perm: [1, 0] })
    : net.weight("lm_head.weight", [d, v]);
  net.output("logits", net.op("MatMul", [x, head]), DataType.FLOAT, ["batch_size", "sequence_length", v]);
  return { model: net.model(17), parameters: net.parameterCount };
}
