import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  DTYPE_SUFFIX,
  halfToFloat,
  inspectModel,
  loadModel,
  type ModelDtype,
  tokenizerFromFiles,
} from "@npov/autograd";
import { generatorPrompt, type NpovInput } from "@npov/core";
import { LocalGenerator } from "@npov/generate";
import * as ort from "onnxruntime-node";
import { describe, expect, it } from "vitest";
import { directFeeds, ZOO, ZOO_INPUT } from "../../autograd/test/zoo-reference.js";

const input: NpovInput = ZOO_INPUT;
const STEPS = 6;
type Graph = NonNullable<ReturnType<typeof loadModel>["graph"]>;

function floats(t: ort.Tensor): Float32Array {
  return t.type === "float16" ? Float32Array.from(t.data as Uint16Array, halfToFloat) : (t.data as Float32Array);
}

function argmax(t: ort.Tensor, position: number): number {
  const v = t.dims[2] as number;
  const data = floats(t);
  let best = 0;
  for (let j = 1; j < v; j++) if ((data[position * v + j] as number) > (data[position * v + best] as number)) best = j;
  return best;
}

/**
 * Greedy decoding as a generation loop does it: prefill with an empty past, then one token per step with
 * the cache fed back (present.* -> past_key_values.*; the merged legacy decoder takes its cache branch).
 * Quantized graphs quantize activations per run, so cached and recomputed decodes differ: the reference
 * must run the same computation transformers.js runs.
 */
async function greedyCached(file: string, ids: number[]): Promise<number[]> {
  const graph = loadModel(file).graph as Graph;
  const session = await ort.InferenceSession.create(file);
  const inputs = new Set(session.inputNames);
  const out: number[] = [];
  let feeds = directFeeds(graph, ids, "float32");
  let length = ids.length;
  for (let k = 0; k < STEPS; k++) {
    const r = await session.run(feeds);
    const logits = r.logits as ort.Tensor;
    const next = argmax(logits, (logits.dims[1] as number) - 1);
    out.push(next);
    length++;
    const step: Record<string, ort.Tensor> = {
      input_ids: new ort.Tensor("int64", BigInt64Array.of(BigInt(next)), [1, 1]),
      attention_mask: new ort.Tensor("int64", new BigInt64Array(length).fill(1n), [1, length]),
    };
    if (inputs.has("position_ids"))
      step.position_ids = new ort.Tensor("int64", BigInt64Array.of(BigInt(length - 1)), [1, 1]);
    if (inputs.has("use_cache_branch")) step.use_cache_branch = new ort.Tensor("bool", [true], [1]);
    for (const name of session.outputNames)
      if (name.startsWith("present")) step[name.replace(/^present/, "past_key_values")] = r[name] as ort.Tensor;
    feeds = step;
  }
  await session.release();
  return out;
}

describe("transformers.js generation offline on zoo models", () => {
  it.each([
    ...(["fp32", "fp16", "q8", "int8", "uint8", "q4", "q4f16"] as const).flatMap((dtype) =>
      ["optimum-gpt2", "optimum-llama"].map((folder) => ({ folder, dtype: dtype as ModelDtype, file: "model" })),
    ),
    { folder: "optimum-gpt2-legacy", dtype: "fp32" as ModelDtype, file: "decoder_model_merged" },
    { folder: "optimum-gpt2-legacy", dtype: "q8" as ModelDtype, file: "decoder_model_merged" },
    { folder: "genai-llama", dtype: "fp32" as ModelDtype, file: "model" },
  ])("$folder $dtype ($file)", async ({ folder, dtype, file }) => {
    const dir = join(ZOO, folder);
    const generator = await LocalGenerator.fromPretrained(dir, {
      dtype,
      ...(file !== "model" ? { modelFileName: file } : {}),
    });
    const { text } = await generator.generateText(input, { maxNewTokens: STEPS });
    const tokenizer = tokenizerFromFiles(dir);
    const ids = tokenizer.encode(generatorPrompt(input)) as number[];
    const expected = await greedyCached(join(dir, "onnx", `${file}${DTYPE_SUFFIX[dtype]}.onnx`), ids);
    expect(text).toBe(tokenizer.decode(expected, { skip_special_tokens: true }));
  });

  it("folders transformers.js cannot generate with are refused at load, with the reason npov model inspect gives", async () => {
    for (const [folder, options, reason] of [
      ["genai-qwen-gqa", {}, "input_ids is int32"],
      ["ortopt-gpt2", { dtype: "fp32" as ModelDtype }, "input_ids is int32"],
      ["optimum-gpt2-legacy", { modelFileName: "decoder_model" }, "has no key/value cache inputs"],
    ] as const)
      await expect(LocalGenerator.fromPretrained(join(ZOO, folder), options)).rejects.toMatchObject({
        code: "UNSUPPORTED_MODEL",
        message: expect.stringContaining(reason),
      });
  });

  it("a copy without generation_config.json loads offline; announced external data that is missing is refused", async () => {
    const root = mkdtempSync(join(tmpdir(), "npov-gen-folders-"));
    try {
      // No generation_config.json (optional): nothing may be fetched from a hub repository of the same name.
      const plain = join(root, "optimum-gpt2");
      cpSync(join(ZOO, "optimum-gpt2"), plain, { recursive: true });
      rmSync(join(plain, "generation_config.json"));
      const generator = await LocalGenerator.fromPretrained(plain);
      expect((await generator.generateText(input, { maxNewTokens: 2 })).tokens).toBe(2);
      // config.json announces onnx/model.onnx_data, which is not there: transformers.js would end the
      // process from an uncatchable rejection; npov refuses first.
      const announced = join(root, "announced");
      cpSync(join(ZOO, "optimum-gpt2"), announced, { recursive: true });
      const config = JSON.parse(readFileSync(join(announced, "config.json"), "utf8"));
      config["transformers.js_config"] = { ...config["transformers.js_config"], use_external_data_format: true };
      writeFileSync(join(announced, "config.json"), JSON.stringify(config));
      await expect(LocalGenerator.fromPretrained(announced, { dtype: "fp32" })).rejects.toMatchObject({
        code: "MODEL_NOT_FOUND",
        message: expect.stringContaining("model.onnx_data is missing"),
      });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("a legacy folder (no onnx/model.onnx) generates with its If-merged decoder by default", async () => {
    const dir = join(ZOO, "optimum-gpt2-legacy");
    const byDefault = await LocalGenerator.fromPretrained(dir);
    const named = await LocalGenerator.fromPretrained(dir, { modelFileName: "decoder_model_merged" });
    const a = await byDefault.generateText(input, { maxNewTokens: STEPS });
    expect(a.text.length).toBeGreaterThan(0);
    expect(a).toEqual(await named.generateText(input, { maxNewTokens: STEPS }));
  });

  it("optimum-t5 fp32 and q4 (encoder + If-merged decoder)", async () => {
    const dir = join(ZOO, "optimum-t5");
    for (const dtype of ["fp32", "q4"] as const) {
      const generator = await LocalGenerator.fromPretrained(dir, { dtype });
      const { text, tokens, budget } = await generator.generateText(input, { maxNewTokens: STEPS });
      // Generated tokens only: the decoder start token is not one of them.
      expect([tokens, budget]).toEqual([STEPS, STEPS]);
      const tokenizer = tokenizerFromFiles(dir);
      const ids = tokenizer.encode(generatorPrompt(input)) as number[];
      const encFile = join(dir, "onnx", `encoder_model${DTYPE_SUFFIX[dtype]}.onnx`);
      const decFile = join(dir, "onnx", `decoder_model_merged${DTYPE_SUFFIX[dtype]}.onnx`);
      const enc = await ort.InferenceSession.create(encFile);
      const hidden = (await enc.run(directFeeds(loadModel(encFile).graph as Graph, ids, "float32"))).last_hidden_state;
      const decGraph = loadModel(decFile).graph as Graph;
      const dec = await ort.InferenceSession.create(decFile);
      const mask = new ort.Tensor("int64", new BigInt64Array(ids.length).fill(1n), [1, ids.length]);
      const seq = [0];
      const eos = 1;
      for (let k = 0; k < STEPS; k++) {
        const r = await dec.run(
          directFeeds(decGraph, seq, "float32", {
            encoder_hidden_states: hidden as ort.Tensor,
            encoder_attention_mask: mask,
          }),
          ["logits"],
        );
        const next = argmax(r.logits as ort.Tensor, seq.length - 1);
        seq.push(next);
        if (next === eos) break;
      }
      await enc.release();
      await dec.release();
      expect(text).toBe(tokenizer.decode(seq.slice(1), { skip_special_tokens: true }));
    }
  });

  it("inspectModel says which folders transformers.js cannot generate with, and why", async () => {
    const qwen = await inspectModel(join(ZOO, "genai-qwen-gqa"));
    expect(qwen.variants.map((v) => v.dtype)).toEqual(["fp16"]);
    expect(qwen.variants[0]?.features.generation.supported).toBe(false);
    expect(qwen.variants[0]?.features.generation.blockers.join(" ")).toMatch(/input_ids is int32/);
    const ortopt = await inspectModel(join(ZOO, "ortopt-gpt2"));
    for (const v of ortopt.variants) {
      expect(v.features.generation.supported).toBe(false);
      expect(v.features.generation.blockers.join(" ")).toMatch(/past_0.*not in the past_key_values/);
      expect(v.features.salience.supported).toBe(true);
      expect(v.features.scoring.supported).toBe(true);
    }
    const llama = await inspectModel(join(ZOO, "optimum-llama"));
    expect(llama.variants.map((v) => v.dtype)).toEqual(["fp32", "fp16", "q8", "int8", "uint8", "q4", "q4f16"]);
    expect(llama.kind).toBe("causal");
    for (const v of llama.variants) {
      // nli is a sequence classifier's feature: it does not apply to a language model, and says so.
      expect(v.features.nli).toMatchObject({ supported: false, applicable: false });
      for (const f of Object.values(v.features).filter((x) => x.applicable !== false))
        expect(f).toEqual({ supported: true, blockers: [] });
    }
  });
});
