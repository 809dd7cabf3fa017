import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { AutoModelForCausalLM, AutoTokenizer, env, Tensor } from "@huggingface/transformers";
import {
  appendTokenLoss,
  convertFloatType,
  cutAtTensor,
  DataType,
  encodeModel,
  findEmbeddingOutput,
  importLlama2c,
  loadModel,
  readLlama2cCheckpoint,
  readLlama2cTokenizer,
} from "@npov/autograd";
import { FileFormatError } from "@npov/core";
import * as ort from "onnxruntime-node";
import { describe, expect, it } from "vitest";
import { checkGradient, randomFeed } from "./helpers.js";
import { referenceEncode, referenceLogits } from "./llama2c-reference.js";

const shared = fileURLToPath(new URL("../../../../shared/models/stories260K/", import.meta.url));
const MODEL = join(shared, "stories260K.bin");
const TOKENIZER = join(shared, "tok512.bin");
const REFERENCE =
  "Once upon a time, there was a little girl named Lily. She loved to play outside in the park. One day, she saw a big, red ball. She wanted to play with it, but it was too high.";
const root = mkdtempSync(join(tmpdir(), "npov-llama2c-"));
const dir = join(root, "stories260K");
const info = importLlama2c(MODEL, TOKENIZER, dir);
const ckpt = readLlama2cCheckpoint(MODEL);
const vocab = readLlama2cTokenizer(TOKENIZER, ckpt.header.vocabSize);
const i64 = (xs: number[]) => new ort.Tensor("int64", BigInt64Array.from(xs.map(BigInt)), [1, xs.length]);
const empty = (dims: number[], type: "float32" | "float64" = "float32") =>
  new ort.Tensor(type, type === "float32" ? new Float32Array(0) : new Float64Array(0), dims);
const past = (type: "float32" | "float64" = "float32") =>
  Object.fromEntries(
    Array.from({ length: 5 }, (_, i) => [
      [`past_key_values.${i}.key`, empty([1, 4, 0, 8], type)],
      [`past_key_values.${i}.value`, empty([1, 4, 0, 8], type)],
    ]).flat(),
  );

describe("llama2c import of stories260K", () => {
  it("reads the header and accounts for every byte", () => {
    expect(info.header).toEqual({
      dim: 64,
      hiddenDim: 172,
      nLayers: 5,
      nHeads: 8,
      nKvHeads: 4,
      vocabSize: 512,
      seqLen: 512,
      sharedClassifier: true,
    });
    // 264,128 float32 values in the file minus the two legacy RoPE tables (2 x 512 x 4) = 260,032 weights.
    expect(info.parameters).toBe(264_128 - 2 * 512 * 4);
  });

  it("tokenizer.json reproduces llama2.c's encoding (dummy prefix, merges by score, byte fallback)", async () => {
    env.allowRemoteModels = false;
    env.localModelPath = root;
    const tok = await AutoTokenizer.from_pretrained("stories260K");
    for (const text of [REFERENCE, "Tom and  Sue ran.\nThe end!", "naïve Müller 東京 🙂", "x"]) {
      expect(tok.encode(text), text).toEqual(referenceEncode(vocab, text));
      expect(tok.decode(tok.encode(text), { skip_special_tokens: true })).toBe(text);
    }
  });

  it("greedy generation through transformers.js reproduces the reference text token for token", async () => {
    env.allowRemoteModels = false;
    env.localModelPath = root;
    const tok = await AutoTokenizer.from_pretrained("stories260K");
    const model = await AutoModelForCausalLM.from_pretrained("stories260K", { dtype: "fp32" });
    const expected = referenceEncode(vocab, REFERENCE);
    const out = await model.generate({
      input_ids: new Tensor("int64", BigInt64Array.of(1n), [1, 1]),
      max_new_tokens: expected.length - 1,
      do_sample: false,
    });
    expect(Array.from(out.data as BigInt64Array, Number)).toEqual(expected);
    expect(tok.decode(out[0], { skip_special_tokens: true })).toBe(REFERENCE);
  });

  it("greedy decoding with the KV cache through onnxruntime directly gives the same tokens", async () => {
    const session = await ort.InferenceSession.create(encodeModel(loadModel(join(dir, "onnx/model.onnx"))));
    const expected = referenceEncode(vocab, REFERENCE);
    const ids = [1];
    let feeds: Record<string, ort.Tensor> = { ...past() };
    while (ids.length < expected.length) {
      const step = ids.length === 1 ? [1] : [ids.at(-1) as number];
      const r = await session.run({
        ...feeds,
        input_ids: i64(step),
        attention_mask: i64(ids.map(() => 1)),
        position_ids: i64([ids.length - 1]),
      });
      const logits = r.logits!.data as Float32Array;
      let best = 0;
      for (let k = 1; k < 512; k++) if ((logits[k] as number) > (logits[best] as number)) best = k;
      ids.push(best);
      feeds = Object.fromEntries(
        Array.from({ length: 5 }, (_, i) => [
          [`past_key_values.${i}.key`, r[`present.${i}.key`]!],
          [`past_key_values.${i}.value`, r[`present.${i}.value`]!],
        ]).flat(),
      );
    }
    expect(ids).toEqual(expected);
  });

  it("per-token log-probabilities agree with an independent TypeScript forward pass to 1e-4", async () => {
    const tokens = referenceEncode(vocab, REFERENCE).slice(0, 24);
    const ref = referenceLogits(ckpt, tokens);
    const session = await ort.InferenceSession.create(encodeModel(loadModel(join(dir, "onnx/model.onnx"))));
    const r = await session.run({
      input_ids: i64(tokens),
      attention_mask: i64(tokens.map(() => 1)),
      position_ids: i64(tokens.map((_, k) => k)),
      ...past(),
    });
    const logits = r.logits!.data as Float32Array;
    const logSoftmax = (row: ArrayLike<number>) => {
      const m = Math.max(...Array.from(row));
      const z = Math.log(Array.from(row).reduce((a, b) => a + Math.exp(b - m), 0)) + m;
      return Array.from(row, (v) => v - z);
    };
    let worst = 0;
    for (let p = 0; p + 1 < tokens.length; p++) {
      const next = tokens[p + 1] as number;
      const mine = logSoftmax(logits.subarray(p * 512, (p + 1) * 512))[next] as number;
      const theirs = logSoftmax(ref[p] as Float64Array)[next] as number;
      worst = Math.max(worst, Math.abs(mine - theirs));
    }
    expect(worst).toBeLessThan(1e-4);
  });

  it("gradients on the real weights agree with finite differences (float64)", async () => {
    const tokens = referenceEncode(vocab, "Once upon a time").slice(0, 6);
    const double = convertFloatType(loadModel(join(dir, "onnx/model.onnx")), DataType.FLOAT, DataType.DOUBLE);
    const feeds: Record<string, ort.Tensor> = {
      input_ids: i64(tokens),
      attention_mask: i64(tokens.map(() => 1)),
      position_ids: i64(tokens.map((_, k) => k)),
      labels: i64([...tokens.slice(1), 2]),
      label_mask: new ort.Tensor("float64", Float64Array.from(tokens.map(() => 1)), [1, tokens.length]),
      ...past("float64"),
    };
    const withLoss = await appendTokenLoss(double, { feeds });
    const cut = await cutAtTensor(withLoss, findEmbeddingOutput(withLoss), "inputs_embeds", feeds);
    await checkGradient(cut, {
      of: "token_loss",
      wrt: ["inputs_embeds"],
      feeds: { ...feeds, inputs_embeds: randomFeed([1, tokens.length, 64], "double", 3, 0.5) },
      sample: 40,
    });
  });

  it("refuses truncated or inconsistent files with a typed error", () => {
    const truncated = join(root, "truncated.bin");
    writeFileSync(truncated, readFileSync(MODEL).subarray(0, 1_000_000));
    expect(() => readLlama2cCheckpoint(truncated)).toThrow(FileFormatError);
    expect(() => readLlama2cCheckpoint(truncated)).toThrow(/truncated/);
    const trailing = join(root, "trailing.bin");
    writeFileSync(trailing, Buffer.concat([readFileSync(MODEL), Buffer.alloc(8)]));
    expect(() => readLlama2cCheckpoint(trailing)).toThrow(/trailing data/);
    expect(() => readLlama2cTokenizer(TOKENIZER, 300)).toThrow(/does not match/);
    const copy = join(root, "tok.bin");
    copyFileSync(TOKENIZER, copy);
    expect(() => readLlama2cTokenizer(copy, 600)).toThrow(/truncated/);
  });
});
