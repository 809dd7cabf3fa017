/**
 * Attention contrib ops as standard ONNX ops: `GroupQueryAttention`, `MultiHeadAttention` and the ORT
 * transformer optimizer's `Attention` (packed QKV weights). All three share one core: scores = scale Q K^T
 * (optionally soft-capped), masked, softmax over the keys, times V. float16 inputs compute in float32.
 *
 * Masks follow ORT's CPU kernels. `Attention`/`MultiHeadAttention` add an additive mask: positions a
 * key-padding/raw mask drops get `mask_filter_value`, positions after the causal diagonal
 * (`unidirectional`) get the lowest finite value, then `attention_bias` is added. `GroupQueryAttention`
 * keeps key j for query i when past_b + i - local_window_size < j <= past_b + i (causal), where past_b is 0
 * for the first prompt (sequence_length == total_sequence_length) and seqlens_k[b] + 1 - sequence_length
 * otherwise; with causal = 0 it keeps j < seqlens_k[b] + 1. Rotary positions (do_rotary) are past_b + i.
 *
 * KV cache: present = Concat(past, new) along the sequence axis (`Attention` stacks key and value as
 * [2, B, N, T, H]). That is exact for an empty past and for a full-length past; NOT covered: a shared
 * past/present buffer (`past_present_share_buffer`, GQA's buffer sharing under IO binding, where past is
 * max-length and only seqlens_k says how much is valid), GQA's `sliding_window_cache`, quantized KV caches,
 * `position_ids`/`attention_bias`/`head_sink`/q-k norm inputs of GQA, `smooth_softmax`, `qk_output`, MHA's
 * packed QKV/KV layouts, `past_sequence_length` and `cache_indirection`, `Attention`'s `do_rotary` and
 * 4-D Megatron masks. Each raises a typed error naming the attribute or input. Ragged batches (different
 * seqlens_k per row) are exact for the valid positions of each row on the first prompt (empty past), which
 * is the only case npov runs (normalizeModel removes the cache). With a non-empty past and unequal
 * seqlens_k, onnxruntime writes each row's new keys at seqlens_k[b] + 1 - S while this decomposition
 * appends them after the past: rows then differ (measured: up to 0.45 on a test graph). Do not use the
 * decomposition for incremental decoding of ragged batches.
 */
import { attr, DataType, type NodeProto } from "../proto.js";
import { attrFloat, attrInt, type Emitter, lowest, tensorDims, unsupported } from "./context.js";
import { computeType, down, up } from "./norm.js";
import { gatherCaches, rotate } from "./rotary.js";

interface CoreOptions {
  /** [B, N, S, H] */
  q: string;
  /** [B, kvN, T, H] */
  k: string;
  /** [B, kvN, T, Hv] */
  v: string;
  numHeads: number;
  kvHeads: number;
  /** undefined: 1 / sqrt(head_size). */
  scale: number | undefined;
  ct: number;
  softcap?: number;
  /** Additive terms broadcastable to [B, N, S, T] (only head-independent [B, 1, S, T] when kvN < N). */
  additive?: string[];
  /** Keep-mask broadcastable to [B, 1, S, T]; dropped positions get probability 0. */
  allowed?: string;
}

/** Scaled dot-product attention; returns [B, S, N * Hv]. */
function attend(e: Emitter, o: CoreOptions): string {
  const groups = o.numHeads / o.kvHeads;
  let q = o.q;
  let k = o.k;
  let v = o.v;
  const lift = (m: string) => (groups > 1 ? e.unsqueeze(m, [1]) : m);
  if (groups > 1) {
    // Query heads h = kv * groups + g share key/value head kv: [B, kvN, G, S, H] against [B, kvN, 1, T, H].
    const shape = e.op(
      "Concat",
      [e.dim(q, 0), e.ints([o.kvHeads, groups]), e.op("Slice", [e.op("Shape", [q]), e.ints([2]), e.ints([4])])],
      { axis: 0 },
    );
    q = e.op("Reshape", [q, shape]);
    k = e.unsqueeze(k, [2]);
    v = e.unsqueeze(v, [2]);
  }
  const rank = groups > 1 ? 5 : 4;
  const perm = Array.from({ length: rank }, (_, i) => i);
  perm[rank - 1] = rank - 2;
  perm[rank - 2] = rank - 1;
  let s = e.op("MatMul", [q, e.op("Transpose", [k], { perm })]);
  const scale =
    o.scale !== undefined ? e.scalar(o.scale, o.ct) : e.op("Reciprocal", [e.op("Sqrt", [e.cast(e.dim(o.q, 3), o.ct)])]);
  s = e.op("Mul", [s, scale]);
  if (o.softcap !== undefined && o.softcap > 0) {
    const cap = e.scalar(o.softcap, o.ct);
    s = e.op("Mul", [e.op("Tanh", [e.op("Div", [s, cap])]), cap]);
  }
  for (const a of o.additive ?? []) s = e.op("Add", [s, lift(a)]);
  if (o.allowed) s = e.op("Where", [lift(o.allowed), s, e.scalar(lowest(o.ct), o.ct)]);
  const p = e.op("Softmax", [s], { axis: -1 });
  let out = e.op("MatMul", [p, v]);
  if (groups > 1) {
    const shape = e.op(
      "Concat",
      [e.dim(out, 0), e.ints([o.numHeads]), e.op("Slice", [e.op("Shape", [out]), e.ints([3]), e.ints([5])])],
      { axis: 0 },
    );
    out = e.op("Reshape", [out, shape]);
  }
  return e.op("Reshape", [e.op("Transpose", [out], { perm: [0, 2, 1, 3] }), e.ints([0, 0, -1])]);
}

/** [B, S, N*H] -> [B, N, S, H]. */
function heads(e: Emitter, x: string, n: number): string {
  return e.op("Transpose", [e.op("Reshape", [x, e.ints([0, 0, n, -1])])], { perm: [0, 2, 1, 3] });
}

const scalarOf = (e: Emitter, oneElement: string) => e.op("Reshape", [oneElement, e.ints([], [0])]);

/** 0..n-1 as int64, n a 1-element int64 tensor. */
function range(e: Emitter, n: string): string {
  return e.op("Range", [e.ints([0], []), scalarOf(e, n), e.ints([1], [])]);
}

function rejectInputs(node: NodeProto, from: number, names: string[]) {
  names.forEach((name, k) => {
    if (node.input[from + k]) unsupported(node, name, "this input is not covered");
  });
}

function rejectAttrs(node: NodeProto, names: string[]) {
  for (const name of names)
    if (attrInt(node, name, 0) !== 0) unsupported(node, name, `value ${attrInt(node, name, 0)} is not covered`);
}

export function groupQueryAttention(e: Emitter, node: NodeProto): string[] {
  const [query, key, value, pastKey, pastValue, seqlensK, totalSeqLen, cosCache, sinCache] = node.input.map(
    (x) => x || undefined,
  ) as Array<string | undefined>;
  rejectInputs(node, 9, [
    "position_ids",
    "attention_bias",
    "head_sink",
    "k_scale",
    "v_scale",
    "q_norm_weight",
    "k_norm_weight",
  ]);
  rejectAttrs(node, ["smooth_softmax", "qk_output", "sliding_window_cache"]);
  for (const name of ["k_quant_type", "v_quant_type"]) {
    const s = attr(node, name)?.s;
    const text = s ? new TextDecoder().decode(s) : "NONE";
    if (text !== "NONE" && text !== "") unsupported(node, name, `quantized KV cache "${text}"`);
  }
  if (!query || !seqlensK || !totalSeqLen)
    unsupported(node, "inputs", "query, seqlens_k and total_sequence_length are required");
  if (node.output[3]) unsupported(node, "output_qk", "this output is not covered");
  const numHeads = attrInt(node, "num_heads", 0);
  const kvHeads = attrInt(node, "kv_num_heads", 0);
  if (numHeads <= 0 || kvHeads <= 0 || numHeads % kvHeads !== 0)
    unsupported(node, "num_heads/kv_num_heads", `${numHeads}/${kvHeads}: must be positive, num_heads a multiple`);
  const causal = attrInt(node, "causal", 1) !== 0;
  const window = attrInt(node, "local_window_size", -1);
  const scaleAttr = attrFloat(node, "scale", 0);
  const softcap = attrFloat(node, "softcap", 0);
  const doRotary = attrInt(node, "do_rotary", 0) !== 0;
  const interleaved = attrInt(node, "rotary_interleaved", 0) !== 0;
  const type = e.elemType(node, query);
  const ct = computeType(type);

  let q3 = up(e, query, type);
  let k3: string;
  let v3: string;
  if (!key) {
    // Packed QKV: [B, S, (N + 2 kvN) H].
    const d = e.dim(query, 2);
    const headSize = e.op("Div", [d, e.ints([numHeads + 2 * kvHeads])]);
    const sizes = e.op("Mul", [headSize, e.ints([numHeads, kvHeads, kvHeads])]);
    [q3, k3, v3] = e.split(q3, 2, sizes, 3) as [string, string, string];
  } else {
    if (!value) unsupported(node, "value", "key without value");
    k3 = up(e, key, type);
    v3 = up(e, value, type);
  }
  let q4 = e.op("Reshape", [q3, e.ints([0, 0, numHeads, -1])]);
  let k4 = e.op("Reshape", [k3, e.ints([0, 0, kvHeads, -1])]);
  const v4 = e.op("Reshape", [v3, e.ints([0, 0, kvHeads, -1])]);

  const s1 = e.dim(query, 1);
  const total = e.cast(e.op("Reshape", [totalSeqLen, e.ints([1])]), DataType.INT64);
  // seqlens_k is documented as (batch_size); exporters also feed (batch_size, 1), which ORT accepts.
  const seqlens = e.op("Reshape", [e.cast(seqlensK, DataType.INT64), e.ints([-1])]);
  const firstPrompt = e.op("Equal", [s1, total]);
  const pastLen = e.op("Where", [firstPrompt, e.ints([0]), e.op("Sub", [e.op("Add", [seqlens, e.ints([1])]), s1])]);
  // Absolute position of each query token: [B, S].
  const qpos = e.op("Add", [e.unsqueeze(pastLen, [1]), e.unsqueeze(range(e, s1), [0])]);
  if (doRotary) {
    if (!cosCache || !sinCache) unsupported(node, "cos_cache/sin_cache", "do_rotary needs both caches");
    const { cos, sin } = gatherCaches(e, cosCache, sinCache, qpos, type);
    const c = e.unsqueeze(cos, [2]);
    const s = e.unsqueeze(sin, [2]);
    const half = e.dim(cosCache, -1);
    q4 = rotate(e, q4, c, s, half, interleaved);
    k4 = rotate(e, k4, c, s, half, interleaved);
  }
  const perm = { perm: [0, 2, 1, 3] };
  const q = e.op("Transpose", [q4], perm);
  let k = e.op("Transpose", [k4], perm);
  let v = e.op("Transpose", [v4], perm);
  if (pastKey) k = e.op("Concat", [up(e, pastKey, type), k], { axis: 2 });
  if (pastValue) v = e.op("Concat", [up(e, pastValue, type), v], { axis: 2 });
  if (!!pastKey !== !!pastValue) unsupported(node, "past_key/past_value", "one without the other");

  const keys = e.op("Reshape", [range(e, e.dim(k, 2)), e.ints([1, 1, 1, -1])]);
  let allowed: string;
  if (causal) {
    const qcol = e.unsqueeze(qpos, [1, 3]); // [B, 1, S, 1]
    allowed = e.op("LessOrEqual", [keys, qcol]);
    if (window > 0)
      allowed = e.op("And", [allowed, e.op("Greater", [keys, e.op("Sub", [qcol, e.ints([window], [])])])]);
  } else {
    if (window > 0) unsupported(node, "local_window_size", "needs causal = 1");
    allowed = e.op("Less", [keys, e.unsqueeze(e.op("Add", [seqlens, e.ints([1])]), [1, 2, 3])]);
  }
  const out = attend(e, {
    q,
    k,
    v,
    numHeads,
    kvHeads,
    scale: scaleAttr !== 0 ? scaleAttr : undefined,
    ct,
    softcap,
    allowed,
  });
  return [down(e, out, type), down(e, k, type), down(e, v, type)];
}

/**
 * ORT's key-padding / raw attention mask as an additive [B, 1 | S, T] term (or [B, 1, 1, T]):
 * rank 2 (B, T) and rank 3 (B, S, T) raw masks (0 drops), rank 1 (B) end positions or (2B) end and start
 * positions. Also applies the causal mask (lowest value) when `causal`.
 */
function additiveMask(
  e: Emitter,
  node: NodeProto,
  mask: string | undefined,
  options: { batch: string; seq: string; total: string; filter: number; causal: boolean; ct: number },
): string | undefined {
  const { ct } = options;
  const keys = range(e, options.total); // [T]
  let keep: string | undefined; // bool broadcastable to [B, 1, S, T]
  if (mask) {
    const r = e.rank(node, mask);
    const m = e.cast(mask, DataType.INT64);
    if (r === 2) keep = e.unsqueeze(e.op("Greater", [m, e.ints([0], [])]), [1, 2]);
    else if (r === 3) keep = e.unsqueeze(e.op("Greater", [m, e.ints([0], [])]), [1]);
    else if (r === 1) {
      const end = e.slice(m, 0, 0, options.batch);
      const twice = e.op("Mul", [options.batch, e.ints([2])]);
      const hasStart = e.op("Equal", [e.op("Reshape", [e.op("Size", [m]), e.ints([1])]), twice]);
      const start = e.op("Where", [
        hasStart,
        e.op("Slice", [e.op("Concat", [m, m], { axis: 0 }), options.batch, twice, e.ints([0])]),
        e.ints([0]),
      ]);
      const col = (x: string) => e.unsqueeze(x, [1]);
      keep = e.op("And", [e.op("Less", [keys, col(end)]), e.op("GreaterOrEqual", [keys, col(start)])]); // [B, T]
      keep = e.unsqueeze(keep, [1, 2]);
    } else unsupported(node, "mask_index", `rank ${r} (1, 2 and 3 are covered)`);
  }
  if (keep === undefined && !options.causal) return undefined;
  let bias = keep
    ? e.op("Where", [keep, e.scalar(0, ct), e.scalar(options.filter, ct)])
    : e.scalar(0, ct, [1, 1, 1, 1]);
  if (options.causal) {
    const past = e.op("Sub", [options.total, options.seq]);
    const qcol = e.op("Reshape", [e.op("Add", [range(e, options.seq), past]), e.ints([1, 1, -1, 1])]);
    const causalKeep = e.op("LessOrEqual", [e.op("Reshape", [keys, e.ints([1, 1, 1, -1])]), qcol]);
    bias = e.op("Where", [causalKeep, bias, e.scalar(lowest(ct), ct)]);
  }
  return bias;
}

export function multiHeadAttention(e: Emitter, node: NodeProto): string[] {
  const [query, key, value, bias, keyPaddingMask, attentionBias, pastKey, pastValue] = node.input.map(
    (x) => x || undefined,
  ) as Array<string | undefined>;
  rejectInputs(node, 8, ["past_sequence_length", "cache_indirection"]);
  if (!query) unsupported(node, "query", "missing");
  if (!key || !value) unsupported(node, "key/value", "packed QKV in query is not covered");
  const numHeads = attrInt(node, "num_heads", 0);
  if (numHeads <= 0) unsupported(node, "num_heads", "missing");
  const scaleAttr = attrFloat(node, "scale", 0);
  const filter = attrFloat(node, "mask_filter_value", -10000);
  const causal = attrInt(node, "unidirectional", 0) !== 0;
  const type = e.elemType(node, query);
  if (e.rank(node, query) !== 3) unsupported(node, "query", "only 3-D (batch, seq, hidden) queries are covered");
  const keyRank = e.rank(node, key);
  if (keyRank !== 3 && keyRank !== 4) unsupported(node, "key", `rank ${keyRank} (packed KV is not covered)`);
  let q3 = up(e, query, type);
  let k3 = up(e, key, type);
  let v3 = up(e, value, type);
  if (bias) {
    const third = e.op("Div", [e.dim(bias, 0), e.ints([3])]);
    const [bq, bk, bv] = e.split(up(e, bias, type), 0, e.op("Concat", [third, third, third], { axis: 0 }), 3) as [
      string,
      string,
      string,
    ];
    q3 = e.op("Add", [q3, bq]);
    if (keyRank === 3) {
      k3 = e.op("Add", [k3, bk]);
      v3 = e.op("Add", [v3, bv]);
    } else unsupported(node, "bias", "with 4-D (BNSH) key/value");
  }
  const q = heads(e, q3, numHeads);
  let k: string;
  let v: string;
  if (keyRank === 3) {
    k = heads(e, k3, numHeads);
    v = heads(e, v3, numHeads);
    if (pastKey) k = e.op("Concat", [up(e, pastKey, type), k], { axis: 2 });
    if (pastValue) v = e.op("Concat", [up(e, pastValue, type), v], { axis: 2 });
  } else {
    if (pastKey || pastValue) unsupported(node, "past_key/past_value", "with 4-D (BNSH) key/value");
    k = k3;
    v = v3;
  }
  const out = maskedAttention(e, node, {
    q,
    k,
    v,
    numHeads,
    input: query,
    mask: keyPaddingMask,
    bias: attentionBias,
    filter,
    causal,
    scale: scaleAttr !== 0 ? scaleAttr : undefined,
    type,
  });
  return [down(e, out, type), down(e, k, type), down(e, v, type)];
}

/**
 * MultiHeadAttention's and Attention's shared tail: ORT's padding mask (and the causal mask) as an additive
 * term, plus an optional attention bias, then attention with as many key/value heads as query heads.
 */
function maskedAttention(
  e: Emitter,
  node: NodeProto,
  o: {
    q: string;
    k: string;
    v: string;
    numHeads: number;
    /** The [B, S, ...] input the batch and sequence sizes come from. */
    input: string;
    mask: string | undefined;
    bias: string | undefined;
    filter: number;
    causal: boolean;
    scale: number | undefined;
    type: number;
  },
): string {
  const ct = computeType(o.type);
  const additive: string[] = [];
  const m = additiveMask(e, node, o.mask, {
    batch: e.dim(o.input, 0),
    seq: e.dim(o.input, 1),
    total: e.dim(o.k, 2),
    filter: o.filter,
    causal: o.causal,
    ct,
  });
  if (m) additive.push(m);
  if (o.bias) additive.push(up(e, o.bias, o.type));
  return attend(e, { q: o.q, k: o.k, v: o.v, numHeads: o.numHeads, kvHeads: o.numHeads, scale: o.scale, ct, additive });
}

export function attention(e: Emitter, node: NodeProto): string[] {
  const [input, weights, bias, maskIndex, past, attentionBias] = node.input.map((x) => x || undefined) as Array<
    string | undefined
  >;
  rejectInputs(node, 6, ["past_sequence_length"]);
  rejectAttrs(node, ["do_rotary", "past_present_share_buffer"]);
  if (!input || !weights) unsupported(node, "input/weights", "missing");
  const numHeads = attrInt(node, "num_heads", 0);
  if (numHeads <= 0) unsupported(node, "num_heads", "missing");
  const filter = attrFloat(node, "mask_filter_value", -10000);
  const causal = attrInt(node, "unidirectional", 0) !== 0;
  const scaleAttr = attrFloat(node, "scale", 0);
  const type = e.elemType(node, input);
  const w = e.initializer(weights);
  let sizes = attr(node, "qkv_hidden_sizes")?.ints?.map(Number);
  if (sizes === undefined || sizes.length === 0) {
    if (w === undefined) unsupported(node, "weights", "must be an initializer unless qkv_hidden_sizes is given");
    const total = tensorDims(w)[1] as number;
    sizes = [total / 3, total / 3, total / 3];
  }
  const [hq, hk, hv] = sizes as [number, number, number];
  if (sizes.length !== 3 || hq % numHeads !== 0 || hv % numHeads !== 0 || hq !== hk)
    unsupported(node, "qkv_hidden_sizes", `${sizes.join(",")} with ${numHeads} heads`);
  let qkv = e.op("MatMul", [up(e, input, type), up(e, weights, type)]);
  if (bias) qkv = e.op("Add", [qkv, up(e, bias, type)]);
  const [q3, k3, v3] = e.split(qkv, 2, sizes, 3) as [string, string, string];
  const q = heads(e, q3, numHeads);
  let k = heads(e, k3, numHeads);
  let v = heads(e, v3, numHeads);
  if (past) {
    const p = up(e, past, type);
    k = e.op("Concat", [e.op("Gather", [p, e.ints([0], [])], { axis: 0 }), k], { axis: 2 });
    v = e.op("Concat", [e.op("Gather", [p, e.ints([1], [])], { axis: 0 }), v], { axis: 2 });
  }
  const present = e.op("Concat", [e.unsqueeze(k, [0]), e.unsqueeze(v, [0])], { axis: 0 });
  const out = maskedAttention(e, node, {
    q,
    k,
    v,
    numHeads,
    input,
    mask: maskIndex,
    bias: attentionBias,
    filter,
    causal,
    scale: scaleAttr !== 0 ? scaleAttr : 1 / Math.sqrt(hq / numHeads),
    type,
  });
  return [down(e, out, type), down(e, present, type)];
}
