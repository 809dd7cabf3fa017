import {
  appendTokenLoss,
  buildGpt2,
  buildLlama,
  buildT5,
  convertFloatType,
  cutAtTensor,
  DataType,
  encodeModel,
  findEmbeddingOutput,
  initializersToInputs,
  type ModelProto,
  randomInit,
} from "@npov/autograd";
import * as ort from "onnxruntime-node";
import { describe, expect, it } from "vitest";
import { checkGradient, randomFeed } from "./helpers.js";

const toDouble = (m: ModelProto) => convertFloatType(m, DataType.FLOAT, DataType.DOUBLE);
const int64 = (values: number[], dims: number[]) =>
  new ort.Tensor("int64", BigInt64Array.from(values.map(BigInt)), dims);
const empty = (dims: number[]) => new ort.Tensor("float64", new Float64Array(0), dims);

const S = 4;
const ids = int64([5, 17, 42, 8], [1, S]);
const labels = int64([17, 42, 8, 1], [1, S]);
const labelMask = new ort.Tensor("float64", Float64Array.of(1, 1, 1, 0), [1, S]);

function causalFeeds(layers: number, kvHeads: number, headDim: number): Record<string, ort.Tensor> {
  const feeds: Record<string, ort.Tensor> = {
    input_ids: ids,
    attention_mask: int64([1, 1, 1, 1], [1, S]),
    position_ids: int64([0, 1, 2, 3], [1, S]),
    labels,
    label_mask: labelMask,
  };
  for (let i = 0; i < layers; i++) {
    feeds[`past_key_values.${i}.key`] = empty([1, kvHeads, 0, headDim]);
    feeds[`past_key_values.${i}.value`] = empty([1, kvHeads, 0, headDim]);
  }
  return feeds;
}

/** The model with a token loss, cut after the word embedding so it takes `inputs_embeds` (random here). */
async function embedsModel(
  model: ModelProto,
  feeds: Record<string, ort.Tensor>,
  width: number,
): Promise<{ model: ModelProto; feeds: Record<string, ort.Tensor> }> {
  const withLoss = await appendTokenLoss(model, { feeds });
  const cut = await cutAtTensor(withLoss, findEmbeddingOutput(withLoss), "inputs_embeds", feeds);
  const ids = feeds.input_ids as ort.Tensor;
  return { model: cut, feeds: { ...feeds, inputs_embeds: randomFeed([...ids.dims, width], "double", 21) } };
}

/** Checks d `of` / d the named weights, which become graph inputs fed their own values. */
async function checkWeightGradients(
  model: ModelProto,
  of: string,
  feeds: Record<string, ort.Tensor>,
  weights: string[],
): Promise<void> {
  const { model: trainable, values } = initializersToInputs(model, weights);
  const weightFeeds = Object.fromEntries(
    [...values].map(([n, v]) => [n, new ort.Tensor("float64", v.data as Float64Array, v.dims)]),
  );
  await checkGradient(trainable, { of, wrt: weights, feeds: { ...feeds, ...weightFeeds }, sample: 24 });
}

/** A causal LM (in float64): d token_loss / d inputs_embeds, then d token_loss / d the named weights. */
async function checkCausalModelGradients(
  model: ModelProto,
  feeds: Record<string, ort.Tensor>,
  weights: string[],
): Promise<void> {
  const double = toDouble(model);
  const e = await embedsModel(double, feeds, 16);
  await checkGradient(e.model, { of: "token_loss", wrt: ["inputs_embeds"], feeds: e.feeds });
  await checkWeightGradients(await appendTokenLoss(double, { feeds }), "token_loss", feeds, weights);
}

describe("whole-model gradients agree with finite differences (float64)", () => {
  it("GPT-2-like: d token_loss / d inputs_embeds and d loss / d weights", async () => {
    const { model } = buildGpt2({ vocabSize: 64, nEmbd: 16, nLayer: 2, nHead: 2, nPositions: 16 }, randomInit(3, 0.2));
    const feeds = causalFeeds(2, 2, 8);
    await checkCausalModelGradients(model, feeds, [
      "transformer.h.0.attn.c_attn.weight",
      "transformer.h.1.ln_2.weight",
      "transformer.wte.weight",
      "transformer.wpe.weight",
    ]);
  });

  it("LLaMA-like (rotary, grouped-query attention, SwiGLU)", async () => {
    const { model } = buildLlama(
      {
        vocabSize: 64,
        hiddenSize: 16,
        intermediateSize: 24,
        numHiddenLayers: 2,
        numAttentionHeads: 4,
        numKeyValueHeads: 2,
        maxPositionEmbeddings: 16,
      },
      randomInit(4, 0.2),
    );
    const feeds = causalFeeds(2, 2, 4);
    await checkCausalModelGradients(model, feeds, [
      "model.layers.0.self_attn.k_proj.weight",
      "model.layers.1.mlp.gate_proj.weight",
      "model.norm.weight",
      "lm_head.weight",
    ]);
  });

  it("T5-like encoder and decoder (relative position bias, cross attention)", async () => {
    const { encoder, decoder } = buildT5(
      { vocabSize: 64, dModel: 16, dKv: 4, dFf: 24, numLayers: 2, numDecoderLayers: 2, numHeads: 4 },
      randomInit(5, 0.2),
    );
    const encFeeds = { input_ids: int64([5, 17, 42, 8, 9], [1, 5]), attention_mask: int64([1, 1, 1, 1, 0], [1, 5]) };
    const enc = toDouble(encoder.model);
    const encCut = await cutAtTensor(enc, findEmbeddingOutput(enc), "inputs_embeds", encFeeds);
    await checkGradient(encCut, {
      of: "last_hidden_state",
      wrt: ["inputs_embeds"],
      feeds: { ...encFeeds, inputs_embeds: randomFeed([1, 5, 16], "double", 8) },
    });
    await checkWeightGradients(enc, "last_hidden_state", encFeeds, [
      "encoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight",
      "encoder.block.1.layer.1.DenseReluDense.wi.weight",
    ]);

    const decFeeds: Record<string, ort.Tensor> = {
      input_ids: int64([0, 17, 42, 8], [1, S]),
      encoder_attention_mask: int64([1, 1, 1, 1, 0], [1, 5]),
      encoder_hidden_states: randomFeed([1, 5, 16], "double", 9),
      labels,
      label_mask: labelMask,
    };
    for (let i = 0; i < 2; i++) {
      decFeeds[`past_key_values.${i}.decoder.key`] = empty([1, 4, 0, 4]);
      decFeeds[`past_key_values.${i}.decoder.value`] = empty([1, 4, 0, 4]);
    }
    const e = await embedsModel(toDouble(decoder.model), decFeeds, 16);
    await checkGradient(e.model, { of: "token_loss", wrt: ["inputs_embeds", "encoder_hidden_states"], feeds: e.feeds });
  });
});

describe("the generated models are consistent", () => {
  it("incremental decoding with the KV cache equals a full pass (LLaMA-like)", async () => {
    const { model } = buildLlama(
      {
        vocabSize: 64,
        hiddenSize: 16,
        intermediateSize: 24,
        numHiddenLayers: 2,
        numAttentionHeads: 4,
        numKeyValueHeads: 2,
        maxPositionEmbeddings: 16,
      },
      randomInit(6, 0.2),
    );
    const session = await ort.InferenceSession.create(encodeModel(model));
    const f32 = (dims: number[]) => new ort.Tensor("float32", new Float32Array(0), dims);
    const pastFeeds = (p: Record<string, ort.Tensor> | undefined) =>
      Object.fromEntries(
        [0, 1].flatMap((i) => [
          [`past_key_values.${i}.key`, p?.[`present.${i}.key`] ?? f32([1, 2, 0, 4])],
          [`past_key_values.${i}.value`, p?.[`present.${i}.value`] ?? f32([1, 2, 0, 4])],
        ]),
      );
    const full = await session.run({
      input_ids: ids,
      attention_mask: int64([1, 1, 1, 1], [1, 4]),
      position_ids: int64([0, 1, 2, 3], [1, 4]),
      ...pastFeeds(undefined),
    });
    const prefix = await session.run({
      input_ids: int64([5, 17, 42], [1, 3]),
      attention_mask: int64([1, 1, 1], [1, 3]),
      position_ids: int64([0, 1, 2], [1, 3]),
      ...pastFeeds(undefined),
    });
    const step = await session.run({
      input_ids: int64([8], [1, 1]),
      attention_mask: int64([1, 1, 1, 1], [1, 4]),
      position_ids: int64([3], [1, 1]),
      ...pastFeeds(prefix),
    });
    const last = Array.from((full.logits!.data as Float32Array).slice(3 * 64, 4 * 64));
    const inc = Array.from(step.logits!.data as Float32Array);
    for (let k = 0; k < 64; k++) expect(inc[k]).toBeCloseTo(last[k] as number, 5);
  });
});

describe("mergeEncoderDecoder", () => {
  it("gives the same logits as running encoder then decoder, and gradients reach the encoder", async () => {
    const { buildT5: build, mergeEncoderDecoder } = await import("@npov/autograd");
    const { encoder, decoder } = build(
      { vocabSize: 64, dModel: 16, dKv: 4, dFf: 24, numLayers: 2, numDecoderLayers: 2, numHeads: 4 },
      randomInit(9, 0.2),
    );
    const merged = mergeEncoderDecoder(encoder.model, decoder.model);
    const src = int64([5, 17, 42, 8, 9], [1, 5]);
    const mask = int64([1, 1, 1, 1, 1], [1, 5]);
    const tgt = int64([0, 17, 42], [1, 3]);
    const f32 = (dims: number[]) => new ort.Tensor("float32", new Float32Array(0), dims);
    const past = Object.fromEntries(
      [0, 1].flatMap((i) => [
        [`past_key_values.${i}.decoder.key`, f32([1, 4, 0, 4])],
        [`past_key_values.${i}.decoder.value`, f32([1, 4, 0, 4])],
      ]),
    );
    const e = await ort.InferenceSession.create(encodeModel(encoder.model));
    const d = await ort.InferenceSession.create(encodeModel(decoder.model));
    const m = await ort.InferenceSession.create(encodeModel(merged));
    const hidden = (await e.run({ input_ids: src, attention_mask: mask })).last_hidden_state!;
    const two = (await d.run({ input_ids: tgt, encoder_attention_mask: mask, encoder_hidden_states: hidden, ...past }))
      .logits!;
    const one = (await m.run({ input_ids: src, attention_mask: mask, decoder_input_ids: tgt, ...past })).logits!;
    expect(Array.from(one.data as Float32Array)).toEqual(Array.from(two.data as Float32Array));
    // The shared embedding is stored once.
    expect(merged.graph!.initializer!.filter((t) => t.name === "shared.weight")).toHaveLength(1);
    const double = toDouble(merged);
    const cut = await cutAtTensor(double, findEmbeddingOutput(double, "input_ids"), "inputs_embeds", {
      input_ids: src,
      attention_mask: mask,
      decoder_input_ids: tgt,
      ...Object.fromEntries(Object.entries(past).map(([k]) => [k, empty([1, 4, 0, 4])])),
    });
    const feeds = {
      attention_mask: mask,
      decoder_input_ids: tgt,
      input_ids: src,
      inputs_embeds: randomFeed([1, 5, 16], "double", 4),
      ...Object.fromEntries(Object.keys(past).map((k) => [k, empty([1, 4, 0, 4])])),
    };
    await checkGradient(cut, { of: "logits", wrt: ["inputs_embeds"], feeds, sample: 30 });
  });
});
