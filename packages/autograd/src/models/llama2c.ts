/**
 * Import llama2.c checkpoints (`model.bin` + `tokenizer.bin`) as Hugging Face-style LLaMA folders:
 * config.json, generation_config.json, tokenizer.json (SentencePiece-style BPE with byte fallback, the
 * dummy-prefix space and merges ordered by score) and onnx/model.onnx in the LLaMA builder's node pattern.
 *
 * Layout (little-endian): 7 int32 (dim, hidden_dim, n_layers, n_heads, n_kv_heads, vocab_size, seq_len;
 * a negative vocab_size means an unshared classifier), then float32 tensors: token embedding, attention
 * RMSNorm, wq, wk, wv, wo, FFN RMSNorm, w1, w2, w3, final RMSNorm, two legacy RoPE tables, [classifier].
 * Matrices are stored [out, in]; the ONNX graph multiplies x @ W with W [in, out], so they are transposed.
 * llama2.c rotates interleaved pairs (2i, 2i+1); the rows of wq and wk are permuted within each head to
 * Hugging Face's rotate-half layout (pairs (i, i + head_size/2)), which leaves attention scores unchanged.
 */
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { FileFormatError, FileReadError, writeFileAtomic } from "@npov/core";
import { saveModel } from "../proto.js";
import { buildLlama, type LlamaConfig } from "./causal.js";
import type { WeightInit } from "./net.js";
import { specialAddedToken } from "./tokenizer.js";

export interface Llama2cHeader {
  dim: number;
  hiddenDim: number;
  nLayers: number;
  nHeads: number;
  nKvHeads: number;
  vocabSize: number;
  seqLen: number;
  sharedClassifier: boolean;
}

export interface Llama2cCheckpoint {
  header: Llama2cHeader;
  /** Named float32 tensors in llama2.c's [out, in] layout. */
  tensors: Map<string, Float32Array>;
}

function read(file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (cause) {
    throw new FileReadError(file, cause);
  }
}

const fail = (file: string, message: string) => new FileFormatError([{ file, line: undefined, field: "", message }]);

/** Parse a llama2.c checkpoint; the header's sizes must account for every byte. @throws FileFormatError */
export function readLlama2cCheckpoint(file: string): Llama2cCheckpoint {
  const buf = read(file);
  if (buf.length < 28) throw fail(file, `only ${buf.length} bytes: a llama2.c checkpoint starts with a 28-byte header`);
  const h = Array.from({ length: 7 }, (_, i) => buf.readInt32LE(i * 4));
  const [dim, hiddenDim, nLayers, nHeads, nKvHeads, rawVocab, seqLen] = h as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const vocabSize = Math.abs(rawVocab);
  const header: Llama2cHeader = {
    dim,
    hiddenDim,
    nLayers,
    nHeads,
    nKvHeads,
    vocabSize,
    seqLen,
    sharedClassifier: rawVocab > 0,
  };
  if (
    [dim, hiddenDim, nLayers, nHeads, nKvHeads, vocabSize, seqLen].some((x) => !(x > 0)) ||
    dim % nHeads !== 0 ||
    nHeads % nKvHeads !== 0
  )
    throw fail(
      file,
      `inconsistent header ${JSON.stringify(header)}: sizes must be positive, dim divisible by n_heads, n_heads by n_kv_heads`,
    );
  const headSize = dim / nHeads;
  const kvDim = (dim * nKvHeads) / nHeads;
  const shapes: Array<[string, number]> = [
    ["token_embedding", vocabSize * dim],
    ["rms_att", nLayers * dim],
    ["wq", nLayers * dim * dim],
    ["wk", nLayers * kvDim * dim],
    ["wv", nLayers * kvDim * dim],
    ["wo", nLayers * dim * dim],
    ["rms_ffn", nLayers * dim],
    ["w1", nLayers * hiddenDim * dim],
    ["w2", nLayers * dim * hiddenDim],
    ["w3", nLayers * hiddenDim * dim],
    ["rms_final", dim],
    ["freq_cis_real", (seqLen * headSize) / 2],
    ["freq_cis_imag", (seqLen * headSize) / 2],
  ];
  if (!header.sharedClassifier) shapes.push(["wcls", vocabSize * dim]);
  const floats = shapes.reduce((a, [, n]) => a + n, 0);
  const expected = 28 + floats * 4;
  if (buf.length !== expected)
    throw fail(
      file,
      `the header describes ${expected} bytes (${floats} float32 values after the header) but the file has ${buf.length}: ${buf.length < expected ? "truncated" : "trailing data"}`,
    );
  const all = new Float32Array(buf.buffer.slice(buf.byteOffset + 28, buf.byteOffset + expected));
  const tensors = new Map<string, Float32Array>();
  let at = 0;
  for (const [name, n] of shapes) {
    tensors.set(name, all.subarray(at, at + n));
    at += n;
  }
  return { header, tensors };
}

export interface Llama2cVocab {
  maxTokenLength: number;
  tokens: string[];
  scores: number[];
}

/** Parse a llama2.c tokenizer.bin for `vocabSize` tokens. @throws FileFormatError */
export function readLlama2cTokenizer(file: string, vocabSize: number): Llama2cVocab {
  const buf = read(file);
  if (buf.length < 4) throw fail(file, "too short for a llama2.c tokenizer");
  const maxTokenLength = buf.readInt32LE(0);
  let at = 4;
  const tokens: string[] = [];
  const scores: number[] = [];
  const decoder = new TextDecoder("utf-8", { fatal: false });
  for (let i = 0; i < vocabSize; i++) {
    if (at + 8 > buf.length) throw fail(file, `truncated at token ${i} of ${vocabSize}`);
    scores.push(buf.readFloatLE(at));
    const len = buf.readInt32LE(at + 4);
    at += 8;
    if (len < 0 || len > maxTokenLength || at + len > buf.length)
      throw fail(file, `token ${i} has an invalid length ${len}`);
    tokens.push(decoder.decode(buf.subarray(at, at + len)));
    at += len;
  }
  if (at !== buf.length)
    throw fail(
      file,
      `${buf.length - at} bytes left after ${vocabSize} tokens: the tokenizer does not match the model's vocabulary size`,
    );
  return { maxTokenLength, tokens, scores };
}

/**
 * tokenizer.json reproducing llama2.c's tokenizer: a space is prepended to the text and spaces become "▁",
 * characters missing from the vocabulary fall back to byte tokens <0xNN>, and merges apply in order of the
 * merged token's score (highest first), as llama2.c's greedy best-score merging does.
 */
export function llama2cTokenizerJson(vocab: Llama2cVocab): Record<string, unknown> {
  const piece = (t: string) => t.replaceAll(" ", "\u2581");
  const pieces = vocab.tokens.map(piece);
  const ids: Record<string, number> = {};
  pieces.forEach((p, i) => {
    if (ids[p] === undefined) ids[p] = i;
  });
  const isSpecial = (i: number) => i < 3 || /^<0x[0-9A-F]{2}>$/.test(vocab.tokens[i] ?? "");
  const order = pieces.map((_, i) => i).filter((i) => !isSpecial(i) && [...(pieces[i] as string)].length > 1);
  order.sort((a, b) => (vocab.scores[b] as number) - (vocab.scores[a] as number) || a - b);
  const merges: Array<[string, string]> = [];
  for (const i of order) {
    const chars = [...(pieces[i] as string)];
    for (let k = 1; k < chars.length; k++) {
      const left = chars.slice(0, k).join("");
      const right = chars.slice(k).join("");
      if (
        ids[left] !== undefined &&
        ids[right] !== undefined &&
        !isSpecial(ids[left] as number) &&
        !isSpecial(ids[right] as number)
      )
        merges.push([left, right]);
    }
  }
  return {
    version: "1.0",
    truncation: null,
    padding: null,
    added_tokens: [specialAddedToken(0, "<unk>"), specialAddedToken(1, "<s>"), specialAddedToken(2, "</s>")],
    normalizer: {
      type: "Sequence",
      normalizers: [
        { type: "Prepend", prepend: "\u2581" },
        { type: "Replace", pattern: { String: " " }, content: "\u2581" },
      ],
    },
    pre_tokenizer: null,
    post_processor: {
      type: "TemplateProcessing",
      single: [{ SpecialToken: { id: "<s>", type_id: 0 } }, { Sequence: { id: "A", type_id: 0 } }],
      pair: [
        { SpecialToken: { id: "<s>", type_id: 0 } },
        { Sequence: { id: "A", type_id: 0 } },
        { Sequence: { id: "B", type_id: 1 } },
      ],
      special_tokens: { "<s>": { id: "<s>", ids: [1], tokens: ["<s>"] } },
    },
    decoder: {
      type: "Sequence",
      decoders: [
        { type: "Replace", pattern: { String: "\u2581" }, content: " " },
        { type: "ByteFallback" },
        { type: "Fuse" },
        { type: "Strip", content: " ", start: 1, stop: 0 },
      ],
    },
    model: {
      type: "BPE",
      dropout: null,
      unk_token: "<unk>",
      continuing_subword_prefix: null,
      end_of_word_suffix: null,
      fuse_unk: true,
      byte_fallback: true,
      ignore_merges: false,
      vocab: ids,
      merges,
    },
  };
}

/** Transpose an [out, in] block into [in, out]. */
function transpose(src: Float32Array, out: number, inn: number): Float32Array {
  const t = new Float32Array(src.length);
  for (let o = 0; o < out; o++) for (let i = 0; i < inn; i++) t[i * out + o] = src[o * inn + i] as number;
  return t;
}

/** Permute the rows of a [heads * headSize, in] block from interleaved to rotate-half order per head. */
function permuteRotary(src: Float32Array, heads: number, headSize: number, inn: number): Float32Array {
  const out = new Float32Array(src.length);
  for (let h = 0; h < heads; h++)
    for (let j = 0; j < headSize; j++) {
      const from = h * headSize + (j < headSize / 2 ? 2 * j : 2 * (j - headSize / 2) + 1);
      out.set(src.subarray(from * inn, (from + 1) * inn), (h * headSize + j) * inn);
    }
  return out;
}

/** The LLaMA builder's config and weight initializer for a checkpoint. */
export function llama2cWeights(ckpt: Llama2cCheckpoint): { config: LlamaConfig; init: WeightInit } {
  const { dim, hiddenDim, nLayers, nHeads, nKvHeads, vocabSize, seqLen, sharedClassifier } = ckpt.header;
  const headSize = dim / nHeads;
  const kvDim = nKvHeads * headSize;
  const t = (name: string) => ckpt.tensors.get(name) as Float32Array;
  const layer = (name: string, i: number, size: number) => t(name).subarray(i * size, (i + 1) * size);
  const init: WeightInit = (name, dims) => {
    if (name === "model.embed_tokens.weight") return Float32Array.from(t("token_embedding"));
    if (name === "model.norm.weight") return Float32Array.from(t("rms_final"));
    if (name === "lm_head.weight") return transpose(t("wcls"), vocabSize, dim);
    const m = /^model\.layers\.(\d+)\.(.+)$/.exec(name);
    if (m === null) throw new RangeError(`no llama2.c tensor for ${name}`);
    const i = Number(m[1]);
    switch (m[2]) {
      case "input_layernorm.weight":
        return Float32Array.from(layer("rms_att", i, dim));
      case "post_attention_layernorm.weight":
        return Float32Array.from(layer("rms_ffn", i, dim));
      case "self_attn.q_proj.weight":
        return transpose(permuteRotary(layer("wq", i, dim * dim), nHeads, headSize, dim), dim, dim);
      case "self_attn.k_proj.weight":
        return transpose(permuteRotary(layer("wk", i, kvDim * dim), nKvHeads, headSize, dim), kvDim, dim);
      case "self_attn.v_proj.weight":
        return transpose(layer("wv", i, kvDim * dim), kvDim, dim);
      case "self_attn.o_proj.weight":
        return transpose(layer("wo", i, dim * dim), dim, dim);
      case "mlp.gate_proj.weight":
        return transpose(layer("w1", i, hiddenDim * dim), hiddenDim, dim);
      case "mlp.up_proj.weight":
        return transpose(layer("w3", i, hiddenDim * dim), hiddenDim, dim);
      case "mlp.down_proj.weight":
        return transpose(layer("w2", i, dim * hiddenDim), dim, hiddenDim);
      default:
        throw new RangeError(`no llama2.c tensor for ${name} (${dims.join("x")})`);
    }
  };
  return {
    config: {
      vocabSize,
      hiddenSize: dim,
      intermediateSize: hiddenDim,
      numHiddenLayers: nLayers,
      numAttentionHeads: nHeads,
      numKeyValueHeads: nKvHeads,
      maxPositionEmbeddings: seqLen,
      rmsNormEps: 1e-5,
      ropeTheta: 10000,
      tieWordEmbeddings: sharedClassifier,
    },
    init,
  };
}

/** Convert a llama2.c checkpoint + tokenizer into a Hugging Face-style folder. Returns the written files. */
export function importLlama2c(
  modelFile: string,
  tokenizerFile: string,
  outDir: string,
): { files: string[]; header: Llama2cHeader; parameters: number } {
  const ckpt = readLlama2cCheckpoint(modelFile);
  const vocab = readLlama2cTokenizer(tokenizerFile, ckpt.header.vocabSize);
  const { config, init } = llama2cWeights(ckpt);
  const built = buildLlama(config, init);
  mkdirSync(join(outDir, "onnx"), { recursive: true });
  saveModel(join(outDir, "onnx/model.onnx"), built.model);
  const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;
  const h = ckpt.header;
  writeFileAtomic(
    join(outDir, "config.json"),
    json({
      architectures: ["LlamaForCausalLM"],
      model_type: "llama",
      hidden_size: h.dim,
      intermediate_size: h.hiddenDim,
      num_hidden_layers: h.nLayers,
      num_attention_heads: h.nHeads,
      num_key_value_heads: h.nKvHeads,
      head_dim: h.dim / h.nHeads,
      max_position_embeddings: h.seqLen,
      rms_norm_eps: 1e-5,
      rope_theta: 10000,
      tie_word_embeddings: h.sharedClassifier,
      vocab_size: h.vocabSize,
      bos_token_id: 1,
      eos_token_id: 2,
      hidden_act: "silu",
      torch_dtype: "float32",
    }),
  );
  writeFileAtomic(
    join(outDir, "generation_config.json"),
    json({ bos_token_id: 1, eos_token_id: 2, max_length: h.seqLen }),
  );
  writeFileAtomic(join(outDir, "tokenizer.json"), json(llama2cTokenizerJson(vocab)));
  writeFileAtomic(
    join(outDir, "tokenizer_config.json"),
    json({
      tokenizer_class: "LlamaTokenizer",
      bos_token: "<s>",
      eos_token: "</s>",
      unk_token: "<unk>",
      add_bos_token: true,
      add_eos_token: false,
      legacy: true,
      model_max_length: h.seqLen,
      clean_up_tokenization_spaces: false,
    }),
  );
  return {
    files: ["config.json", "generation_config.json", "tokenizer.json", "tokenizer_config.json", "onnx/model.onnx"],
    header: h,
    parameters: built.parameters,
  };
}
