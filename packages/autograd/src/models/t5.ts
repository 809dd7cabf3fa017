/**
 * A T5-like encoder-decoder in the node patterns of Hugging Face's ONNX export: RMS layer norm (no mean,
 * no bias), bucketed relative position bias shared across layers, unscaled attention, ReLU feed-forward,
 * untied LM head. `encoder_model.onnx`: input_ids, attention_mask -> last_hidden_state.
 * `decoder_model.onnx` (also saved as decoder_model_merged.onnx, which transformers.js loads):
 * input_ids, encoder_attention_mask, encoder_hidden_states, past_key_values.{i}.decoder.key/value ->
 * logits, present.{i}.decoder.key/value.
 */
import { DataType, makeTensor } from "../proto.js";
import type { BuiltModel } from "./causal.js";
import { Net, randomInit, type WeightInit } from "./net.js";

export interface T5Config {
  vocabSize: number;
  dModel: number;
  dKv: number;
  dFf: number;
  numLayers: number;
  numDecoderLayers: number;
  numHeads: number;
  relativeAttentionNumBuckets?: number;
  relativeAttentionMaxDistance?: number;
  layerNormEpsilon?: number;
}

/**
 * Relative position buckets (T5's `_relative_position_bucket`) for query positions [qStart, qStart + Sq)
 * and key positions [0, Sk): [Sq, Sk] int64. Pure index arithmetic, off the gradient path.
 */
function relativeBuckets(
  net: Net,
  qStart: string,
  sq: string,
  sk: string,
  bidirectional: boolean,
  numBuckets: number,
  maxDistance: number,
): string {
  const { b } = net;
  const qpos = net.op("Range", [qStart, net.op("Add", [qStart, sq]), b.ints([1], [])]);
  const kpos = net.op("Range", [b.ints([0], []), sk, b.ints([1], [])]);
  const rel = net.op("Sub", [net.op("Unsqueeze", [kpos, b.ints([0])]), net.op("Unsqueeze", [qpos, b.ints([1])])]);
  let buckets = numBuckets;
  let offset: string | undefined;
  let n: string;
  if (bidirectional) {
    buckets = numBuckets / 2;
    offset = net.op("Mul", [
      net.op("Cast", [net.op("Greater", [rel, b.ints([0], [])])], { to: DataType.INT64 }),
      b.ints([buckets], []),
    ]);
    n = net.op("Abs", [rel]);
  } else n = net.op("Max", [net.op("Neg", [rel]), b.ints([0], [])]);
  const maxExact = buckets / 2;
  const isSmall = net.op("Less", [n, b.ints([maxExact], [])]);
  // log(n / maxExact) / log(maxDistance / maxExact) * (buckets - maxExact); n >= 1 avoids log(0).
  const nf = net.op("Cast", [net.op("Max", [n, b.ints([1], [])])], { to: DataType.FLOAT });
  const scaled = net.op("Mul", [
    net.op("Div", [
      net.op("Log", [net.op("Div", [nf, b.scalar(maxExact, DataType.FLOAT)])]),
      b.scalar(Math.log(maxDistance / maxExact), DataType.FLOAT),
    ]),
    b.scalar(buckets - maxExact, DataType.FLOAT),
  ]);
  const large = net.op("Min", [
    net.op("Add", [net.op("Cast", [scaled], { to: DataType.INT64 }), b.ints([maxExact], [])]),
    b.ints([buckets - 1], []),
  ]);
  const bucket = net.op("Where", [isSmall, n, large]);
  return offset === undefined ? bucket : net.op("Add", [bucket, offset]);
}

/** Position bias [1, H, Sq, Sk] from a [buckets, H] table. */
function positionBias(net: Net, table: string, buckets: string): string {
  const gathered = net.op("Gather", [table, buckets]); // [Sq, Sk, H]
  return net.op("Unsqueeze", [net.op("Transpose", [gathered], { perm: [2, 0, 1] }), net.b.ints([0])]);
}

function feedForward(net: Net, x: string, p: string, d: number, dff: number): string {
  const hidden = net.op("Relu", [net.linear(x, net.weight(`${p}.DenseReluDense.wi.weight`, [d, dff]))]);
  return net.linear(hidden, net.weight(`${p}.DenseReluDense.wo.weight`, [dff, d]));
}

/** Encoder and decoder graphs of a T5-like model. Weights shared between them (embeddings) are written to both. */
export function buildT5(
  config: T5Config,
  init: WeightInit = randomInit(0),
): { encoder: BuiltModel; decoder: BuiltModel } {
  // The same seed-indexed values for a weight name in both graphs: memoize by name.
  const cache = new Map<string, Float32Array>();
  const shared: WeightInit = (name, dims) => {
    let w = cache.get(name);
    if (w === undefined) {
      w = init(name, dims);
      cache.set(name, w);
    }
    return w;
  };
  const { dModel: d, dKv: dk, dFf: dff, numHeads: h, vocabSize: v } = config;
  const inner = h * dk;
  const eps = config.layerNormEpsilon ?? 1e-6;
  const numBuckets = config.relativeAttentionNumBuckets ?? 32;
  const maxDistance = config.relativeAttentionMaxDistance ?? 128;

  const attention = (net: Net, x: string, kv: string, p: string, bias: string, past?: [string, string]) => {
    const q = net.splitHeads(net.linear(x, net.weight(`${p}.q.weight`, [d, inner])), h, dk);
    let k = net.splitHeads(net.linear(kv, net.weight(`${p}.k.weight`, [d, inner])), h, dk);
    let val = net.splitHeads(net.linear(kv, net.weight(`${p}.v.weight`, [d, inner])), h, dk);
    if (past !== undefined) {
      k = net.op("Concat", [past[0], k], { axis: 2 });
      val = net.op("Concat", [past[1], val], { axis: 2 });
    }
    const out = net.linear(
      net.mergeHeads(net.attend(q, k, val, bias, undefined), inner),
      net.weight(`${p}.o.weight`, [inner, d]),
    );
    return { out, k, v: val };
  };

  // ---- encoder ----
  const enc = new Net("t5_encoder", shared);
  {
    const ids = enc.input("input_ids", DataType.INT64, ["batch_size", "encoder_sequence_length"]);
    const mask = enc.input("attention_mask", DataType.INT64, ["batch_size", "encoder_sequence_length"]);
    const embed = enc.weight("shared.weight", [v, d]);
    let x = enc.op("Gather", [embed, ids]);
    const s = enc.dim(ids, 1);
    const table = enc.weight("encoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight", [numBuckets, h]);
    const bias = enc.op("Add", [
      positionBias(enc, table, relativeBuckets(enc, enc.b.ints([0], []), s, s, true, numBuckets, maxDistance)),
      enc.attentionBias(mask, s, enc.b.ints([0], []), false),
    ]);
    for (let i = 0; i < config.numLayers; i++) {
      const p = `encoder.block.${i}`;
      const a = enc.rmsNorm(x, enc.weight(`${p}.layer.0.layer_norm.weight`, [d]), eps);
      x = enc.op("Add", [x, attention(enc, a, a, `${p}.layer.0.SelfAttention`, bias).out]);
      const f = enc.rmsNorm(x, enc.weight(`${p}.layer.1.layer_norm.weight`, [d]), eps);
      x = enc.op("Add", [x, feedForward(enc, f, `${p}.layer.1`, d, dff)]);
    }
    x = enc.rmsNorm(x, enc.weight("encoder.final_layer_norm.weight", [d]), eps);
    enc.output("last_hidden_state", x, DataType.FLOAT, ["batch_size", "encoder_sequence_length", d]);
  }

  // ---- decoder ----
  const dec = new Net("t5_decoder", shared);
  {
    const encMask = dec.input("encoder_attention_mask", DataType.INT64, ["batch_size", "encoder_sequence_length"]);
    const ids = dec.input("input_ids", DataType.INT64, ["batch_size", "decoder_sequence_length"]);
    const encStates = dec.input("encoder_hidden_states", DataType.FLOAT, ["batch_size", "encoder_sequence_length", d]);
    const past: Array<[string, string]> = [];
    for (let i = 0; i < config.numDecoderLayers; i++)
      past.push([
        dec.input(`past_key_values.${i}.decoder.key`, DataType.FLOAT, [
          "batch_size",
          h,
          "past_decoder_sequence_length",
          dk,
        ]),
        dec.input(`past_key_values.${i}.decoder.value`, DataType.FLOAT, [
          "batch_size",
          h,
          "past_decoder_sequence_length",
          dk,
        ]),
      ]);
    const embed = dec.weight("shared.weight", [v, d]);
    let x = dec.op("Gather", [embed, ids]);
    const s = dec.dim(ids, 1);
    const pastLength = dec.dim(past[0]?.[0] as string, 2);
    const total = dec.op("Add", [pastLength, s]);
    const table = dec.weight("decoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight", [numBuckets, h]);
    // All previous decoder positions are real tokens: a causal mask over [past + S] positions.
    const selfMask = dec.op(
      "ConstantOfShape",
      [
        dec.op(
          "Concat",
          [dec.op("Reshape", [dec.dim(ids, 0), dec.b.ints([1])]), dec.op("Reshape", [total, dec.b.ints([1])])],
          { axis: 0 },
        ),
      ],
      {
        value: makeTensor("value", BigInt64Array.of(1n), [1], DataType.INT64),
      },
    );
    const selfBias = dec.op("Add", [
      positionBias(dec, table, relativeBuckets(dec, pastLength, s, total, false, numBuckets, maxDistance)),
      dec.attentionBias(selfMask, s, pastLength, true),
    ]);
    const crossBias = dec.attentionBias(encMask, s, dec.b.ints([0], []), false);
    for (let i = 0; i < config.numDecoderLayers; i++) {
      const p = `decoder.block.${i}`;
      const a = dec.rmsNorm(x, dec.weight(`${p}.layer.0.layer_norm.weight`, [d]), eps);
      const self = attention(dec, a, a, `${p}.layer.0.SelfAttention`, selfBias, past[i]);
      dec.output(`present.${i}.decoder.key`, self.k, DataType.FLOAT, [
        "batch_size",
        h,
        "total_decoder_sequence_length",
        dk,
      ]);
      dec.output(`present.${i}.decoder.value`, self.v, DataType.FLOAT, [
        "batch_size",
        h,
        "total_decoder_sequence_length",
        dk,
      ]);
      x = dec.op("Add", [x, self.out]);
      const c = dec.rmsNorm(x, dec.weight(`${p}.layer.1.layer_norm.weight`, [d]), eps);
      x = dec.op("Add", [x, attention(dec, c, encStates, `${p}.layer.1.EncDecAttention`, crossBias).out]);
      const f = dec.rmsNorm(x, dec.weight(`${p}.layer.2.layer_norm.weight`, [d]), eps);
      x = dec.op("Add", [x, feedForward(dec, f, `${p}.layer.2`, d, dff)]);
    }
    x = dec.rmsNorm(x, dec.weight("decoder.final_layer_norm.weight", [d]), eps);
    dec.output("logits", dec.linear(x, dec.weight("lm_head.weight", [d, v])), DataType.FLOAT, [
      "batch_size",
      "decoder_sequence_length",
      v,
    ]);
  }
  return {
    encoder: { model: enc.model(17), parameters: enc.parameterCount },
    decoder: { model: dec.model(17), parameters: dec.parameterCount },
  };
}

/** config.json (Hugging Face T5 keys) for a T5-like model built by {@link buildT5}; `extra` adds or overrides keys. */
export function t5ConfigJson(c: T5Config, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    architectures: ["T5ForConditionalGeneration"],
    model_type: "t5",
    is_encoder_decoder: true,
    d_model: c.dModel,
    d_kv: c.dKv,
    d_ff: c.dFf,
    num_layers: c.numLayers,
    num_decoder_layers: c.numDecoderLayers,
    num_heads: c.numHeads,
    relative_attention_num_buckets: c.relativeAttentionNumBuckets ?? 32,
    relative_attention_max_distance: c.relativeAttentionMaxDistance ?? 128,
    feed_forward_proj: "relu",
    layer_norm_epsilon: c.layerNormEpsilon ?? 1e-6,
    tie_word_embeddings: false,
    vocab_size: c.vocabSize,
    decoder_start_token_id: 0,
    pad_token_id: 0,
    eos_token_id: 1,
    bos_token_id: 3,
    ...extra,
  };
}
