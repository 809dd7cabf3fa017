import { join } from "node:path";
import { DataType, DTYPE_SUFFIX, GradientSession, halfToFloat, loadModel, type ModelDtype } from "@npov/autograd";
import {
  loadEmbeddingModel,
  probabilityNo,
  softPromptGradient,
  tuneSoftPrompt,
  YesNoClassifier,
} from "@npov/classifier";
import { classifierPrompt, createRng, type NpovExample, type NpovInput } from "@npov/core";
import * as ort from "onnxruntime-node";
import { describe, expect, it } from "vitest";
import { directFeeds, ZOO, ZOO_INPUT } from "../../autograd/test/zoo-reference.js";

const input: NpovInput = ZOO_INPUT;
const RESPONSE = "Some say cages harm animals; others that zoos save species.";

/**
 * Largest label-logit error relative to the logit row's spread: float rounding for fp32 and weight-only
 * q4 (MatMulNBits dequantized exactly); fp16 arithmetic in onnxruntime; run-time activation quantization
 * (q8/int8/uint8 MatMulInteger, which npov replaces by float activations).
 */
const tolerance = (dtype: ModelDtype) =>
  dtype === "fp32" || dtype === "q4" ? 1e-4 : dtype === "fp16" || dtype === "q4f16" ? 1e-2 : 0.2;

type Graph = NonNullable<ReturnType<typeof loadModel>["graph"]>;

/** Logits [1, S, V] at position `at`, from a direct run of an exported file. */
async function directLogits(file: string, ids: number[], extra: Record<string, ort.Tensor> = {}) {
  const model = loadModel(file);
  const session = await ort.InferenceSession.create(file);
  const float = "float32";
  const out = await session.run(directFeeds(model.graph as Graph, ids, float, extra), ["logits"]);
  await session.release();
  const t = out.logits as ort.Tensor;
  const half = t.type === "float16";
  const data = half ? Float32Array.from(t.data as Uint16Array, halfToFloat) : (t.data as Float32Array);
  return { data, v: t.dims[2] as number };
}

const CAUSAL: Array<{ folder: string; dtype: ModelDtype; file?: string }> = [
  { folder: "optimum-gpt2", dtype: "fp32" },
  { folder: "optimum-gpt2", dtype: "fp16" },
  { folder: "optimum-gpt2", dtype: "q8" },
  { folder: "optimum-gpt2", dtype: "q4" },
  { folder: "optimum-llama", dtype: "fp32" },
  { folder: "optimum-llama", dtype: "uint8" },
  { folder: "optimum-llama", dtype: "q4f16" },
  { folder: "optimum-gpt2-legacy", dtype: "fp32", file: "decoder_model_merged" },
  { folder: "genai-llama", dtype: "fp32" },
  { folder: "genai-llama", dtype: "fp16" },
  { folder: "genai-qwen-gqa", dtype: "fp16" },
  { folder: "ortopt-gpt2", dtype: "fp32" },
  { folder: "ortopt-gpt2", dtype: "fp16" },
];

describe("YES/NO classifier on zoo models: P(NO) vs a direct onnxruntime run", () => {
  it.each(CAUSAL)("$folder $dtype", async ({ folder, dtype, file }) => {
    const dir = join(ZOO, folder);
    const clf = await YesNoClassifier.fromPretrained(dir, {
      task: "coverage",
      dtype,
      ...(file ? { modelFileName: file } : {}),
      // The zoo's config.json for genai-qwen-gqa declares 128 positions, but its graph (attention without
      // rotary or a position table) reads any length; the prompt here has 136 tokens.
      ...(folder === "genai-qwen-gqa" ? { context: 256 } : {}),
    });
    const { labels } = clf.em;
    const prompt = classifierPrompt(input, RESPONSE, "coverage");
    const [score] = await clf.scoreBatch([{ input, response: RESPONSE }], "coverage");
    const [logits] = await clf.labelLogits([prompt]);
    // Padding: a batch of two prompts of different lengths gives each prompt's own logits.
    const pair = await clf.labelLogits([prompt, classifierPrompt(input, "Zoos save species.", "coverage")]);
    const alone = await clf.labelLogits([classifierPrompt(input, "Zoos save species.", "coverage")]);
    expect(pair[0]?.yes).toBeCloseTo(logits?.yes as number, 5);
    expect(pair[1]?.no).toBeCloseTo(alone[0]?.no as number, 5);
    const ids = [...(clf.em.files.tokenizer.encode(prompt) as number[]), ...labels.prefix];
    await clf.dispose();
    const { data, v } = await directLogits(join(dir, "onnx", `${file ?? "model"}${DTYPE_SUFFIX[dtype]}.onnx`), ids);
    const at = (ids.length - 1) * v;
    const row = Array.from(data.subarray(at, at + v));
    // Random weights give nearly flat logits (P(NO) ~ 0.5 whatever the model does), so the label logits
    // themselves are compared, relative to the spread of the logit row.
    const spread = Math.max(...row) - Math.min(...row);
    const err = Math.max(
      Math.abs((logits?.yes as number) - (row[labels.yes] as number)),
      Math.abs((logits?.no as number) - (row[labels.no] as number)),
    );
    expect(err / spread, `label-logit error ${err}, logit spread ${spread}`).toBeLessThanOrEqual(tolerance(dtype));
    expect(
      Math.abs((score as number) - probabilityNo(row[labels.yes] as number, row[labels.no] as number)),
    ).toBeLessThanOrEqual(tolerance(dtype));
  });

  it.each(["fp32", "q8"] as const)("optimum-t5 %s (encoder + If-merged decoder)", async (dtype) => {
    const dir = join(ZOO, "optimum-t5");
    const clf = await YesNoClassifier.fromPretrained(dir, { task: "hallucination", dtype });
    const [score] = await clf.scoreBatch([{ input, response: RESPONSE }], "hallucination");
    const { labels } = clf.em;
    const promptIds = clf.em.files.tokenizer.encode(classifierPrompt(input, RESPONSE, "hallucination")) as number[];
    await clf.dispose();
    const enc = join(dir, "onnx", `encoder_model${DTYPE_SUFFIX[dtype]}.onnx`);
    const encoder = await ort.InferenceSession.create(enc);
    const hidden = (await encoder.run(directFeeds(loadModel(enc).graph as Graph, promptIds, "float32")))
      .last_hidden_state as ort.Tensor;
    await encoder.release();
    const decIds = [0, ...labels.prefix];
    const mask = new ort.Tensor("int64", new BigInt64Array(promptIds.length).fill(1n), [1, promptIds.length]);
    const { data, v } = await directLogits(
      join(dir, "onnx", `decoder_model_merged${DTYPE_SUFFIX[dtype]}.onnx`),
      decIds,
      {
        encoder_hidden_states: hidden,
        encoder_attention_mask: mask,
      },
    );
    const at = (decIds.length - 1) * v;
    expect(
      Math.abs((score as number) - probabilityNo(data[at + labels.yes] as number, data[at + labels.no] as number)),
    ).toBeLessThanOrEqual(tolerance(dtype));
  });
});

/**
 * Tuning on every family: the whole training set is one batch, so the loss is a deterministic function of
 * the soft prompt and must go down. The onnxruntime-genai and ORT-optimizer test graphs have near-zero
 * weights (logits within +-0.5 whatever the input, and RMS/LayerNorm undo any growth of the prompt vectors),
 * so no prompt can move their loss much: for them the check is a strict decrease plus the soft-prompt
 * gradient against central finite differences; the Optimum exports must lose at least 10%.
 */
describe("soft-prompt tuning on each zoo model family lowers the loss on a toy task", () => {
  const make = (n: number, seed: number): NpovExample[] => {
    const rng = createRng(seed);
    return Array.from({ length: n }, (_, i) => {
      const error = i % 2 === 1;
      const words = error ? ["dark", "cold", "night"] : ["sun", "warm", "day"];
      const response = Array.from({ length: 3 }, () => words[rng.int(3)]).join(" ");
      return { input, response, labels: { coverage: error } };
    });
  };
  it.each([
    { folder: "optimum-gpt2", dtype: "fp32" as const, drop: 0.1 },
    { folder: "optimum-llama", dtype: "q4" as const, drop: 0.1 },
    { folder: "optimum-t5", dtype: "fp32" as const, drop: 0.1 },
    { folder: "genai-llama", dtype: "fp32" as const, drop: 0 },
    { folder: "genai-qwen-gqa", dtype: "fp16" as const, drop: 0 },
    { folder: "ortopt-gpt2", dtype: "fp32" as const, drop: 0 },
  ])("$folder $dtype", async ({ folder, dtype, drop }) => {
    const em = await loadEmbeddingModel(join(ZOO, folder), { dtype });
    expect(em.model.graph?.node?.some((n) => n.domain === "com.microsoft")).toBe(false);
    expect(em.model.graph?.input?.find((v) => v.name === "inputs_embeds")?.type?.tensorType?.elemType).toBe(
      DataType.FLOAT,
    );
    const train = make(8, 1);
    const result = await tuneSoftPrompt(em, train, make(8, 2), {
      task: "coverage",
      steps: 40,
      batchSize: 8,
      lr: 0.1,
      warmupSteps: 4,
      evalEvery: 40,
      seed: 3,
    });
    const losses = result.history.filter((h) => h.step > 0).map((h) => h.loss);
    expect(losses.every(Number.isFinite)).toBe(true);
    const first = losses[0] as number;
    const last = losses[losses.length - 1] as number;
    expect(last).toBeLessThan(first * (1 - drop));
    // The gradient tuning follows is the loss's: one element against central differences.
    const session = await GradientSession.create(em.model, { of: "token_loss", wrt: ["inputs_embeds"], seed: "ones" });
    const ids = train
      .slice(0, 2)
      .map((e) => em.files.tokenizer.encode(classifierPrompt(e.input, e.response, "coverage")) as number[]);
    const targets = [em.labels.yes, em.labels.no];
    const soft = Float32Array.from({ length: 5 * em.table.dim }, (_, i) => Math.sin(i + 1) * 0.5);
    const { gradient } = await softPromptGradient(session, em, ids, targets, soft);
    const k = 3;
    const h = 1e-2;
    const at = (delta: number) => {
      const x = Float32Array.from(soft);
      x[k] = (x[k] as number) + delta;
      return softPromptGradient(session, em, ids, targets, x);
    };
    const numeric = ((await at(h)).loss - (await at(-h)).loss) / (2 * h);
    await session.release();
    expect(Math.abs((gradient[k] as number) - numeric)).toBeLessThan(1e-4 + 0.02 * Math.abs(numeric));
  });
});
