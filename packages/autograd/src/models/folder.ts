/**
 * Test models the project generates, written in the folder layout transformers.js loads offline:
 * config.json, generation_config.json, tokenizer.json, tokenizer_config.json and onnx/*.onnx.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "@npov/core";
import { saveModel } from "../proto.js";
import { buildGpt2, buildLlama } from "./causal.js";
import { randomInit } from "./net.js";
import { buildT5, t5ConfigJson } from "./t5.js";
import { bpeTokenizerJson, SPECIAL_IDS, SPECIAL_TOKENS, vocabSize } from "./tokenizer.js";

export type TestArchitecture = "t5" | "gpt2" | "llama";

/** Sizes: `tiny` for tests (tens of thousands of parameters), `bench` about 20M parameters. */
export type TestModelSize = "tiny" | "bench";

export interface TestModelInfo {
  dir: string;
  architecture: TestArchitecture;
  parameters: number;
  files: string[];
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** Write a random-weight test model of `architecture` into `dir`. Deterministic per seed. */
export function writeTestModel(
  dir: string,
  architecture: TestArchitecture,
  /** `initStd`: std of the random weights (default 0.02, Hugging Face's initialization). */
  options: { size?: TestModelSize; seed?: number; initStd?: number } = {},
): TestModelInfo {
  const size = options.size ?? "tiny";
  const init = randomInit(options.seed ?? 0, options.initStd ?? 0.02);
  const tokenizer = bpeTokenizerJson(undefined, [], { appendEos: architecture === "t5" });
  const v = size === "bench" ? 8000 : vocabSize(tokenizer);
  mkdirSync(join(dir, "onnx"), { recursive: true });
  const files: string[] = [];
  const write = (name: string, content: string | Uint8Array) => {
    writeFileAtomic(join(dir, name), content);
    files.push(name);
  };
  const save = (name: string, model: Parameters<typeof saveModel>[1]) => {
    saveModel(join(dir, name), model);
    files.push(name);
  };
  let parameters = 0;
  const common = {
    pad_token_id: SPECIAL_IDS.pad,
    eos_token_id: SPECIAL_IDS.eos,
    bos_token_id: SPECIAL_IDS.bos,
    vocab_size: v,
  };
  let tokenizerClass: string;
  if (architecture === "t5") {
    const c =
      size === "bench"
        ? { vocabSize: v, dModel: 320, dKv: 64, dFf: 1024, numLayers: 6, numDecoderLayers: 6, numHeads: 5 }
        : { vocabSize: v, dModel: 32, dKv: 8, dFf: 64, numLayers: 2, numDecoderLayers: 2, numHeads: 4 };
    const { encoder, decoder } = buildT5(c, init);
    parameters = encoder.parameters + decoder.parameters - c.vocabSize * c.dModel; // shared embedding counted once
    save("onnx/encoder_model.onnx", encoder.model);
    save("onnx/decoder_model.onnx", decoder.model);
    save("onnx/decoder_model_merged.onnx", decoder.model);
    write("config.json", json(t5ConfigJson(c, common)));
    write(
      "generation_config.json",
      json({ decoder_start_token_id: SPECIAL_IDS.pad, eos_token_id: SPECIAL_IDS.eos, pad_token_id: SPECIAL_IDS.pad }),
    );
    tokenizerClass = "T5Tokenizer";
  } else if (architecture === "gpt2") {
    const c = { vocabSize: v, nEmbd: 32, nLayer: 2, nHead: 4, nPositions: 128 };
    const built = buildGpt2(c, init);
    parameters = built.parameters;
    save("onnx/model.onnx", built.model);
    write(
      "config.json",
      json({
        architectures: ["GPT2LMHeadModel"],
        model_type: "gpt2",
        n_embd: c.nEmbd,
        n_layer: c.nLayer,
        n_head: c.nHead,
        n_positions: c.nPositions,
        n_ctx: c.nPositions,
        layer_norm_epsilon: 1e-5,
        ...common,
      }),
    );
    write(
      "generation_config.json",
      json({ bos_token_id: SPECIAL_IDS.bos, eos_token_id: SPECIAL_IDS.eos, pad_token_id: SPECIAL_IDS.pad }),
    );
    tokenizerClass = "GPT2Tokenizer";
  } else {
    const c = {
      vocabSize: v,
      hiddenSize: 32,
      intermediateSize: 64,
      numHiddenLayers: 2,
      numAttentionHeads: 4,
      numKeyValueHeads: 2,
      // The graph computes rotary positions for any length; 512 matches tokenizer_config.json's model_max_length.
      maxPositionEmbeddings: 512,
      tieWordEmbeddings: false,
    };
    const built = buildLlama(c, init);
    parameters = built.parameters;
    save("onnx/model.onnx", built.model);
    write(
      "config.json",
      json({
        architectures: ["LlamaForCausalLM"],
        model_type: "llama",
        hidden_size: c.hiddenSize,
        intermediate_size: c.intermediateSize,
        num_hidden_layers: c.numHiddenLayers,
        num_attention_heads: c.numAttentionHeads,
        num_key_value_heads: c.numKeyValueHeads,
        head_dim: c.hiddenSize / c.numAttentionHeads,
        max_position_embeddings: c.maxPositionEmbeddings,
        rms_norm_eps: 1e-6,
        rope_theta: 10000,
        tie_word_embeddings: false,
        ...common,
      }),
    );
    write(
      "generation_config.json",
      json({ bos_token_id: SPECIAL_IDS.bos, eos_token_id: SPECIAL_IDS.eos, pad_token_id: SPECIAL_IDS.pad }),
    );
    tokenizerClass = "LlamaTokenizer";
  }
  write("tokenizer.json", json(tokenizer));
  write(
    "tokenizer_config.json",
    json({
      tokenizer_class: tokenizerClass,
      bos_token: SPECIAL_TOKENS.bos,
      eos_token: SPECIAL_TOKENS.eos,
      unk_token: SPECIAL_TOKENS.unk,
      pad_token: SPECIAL_TOKENS.pad,
      model_max_length: 512,
      add_bos_token: false,
      add_eos_token: false,
      clean_up_tokenization_spaces: false,
    }),
  );
  return { dir, architecture, parameters, files };
}
