/**
 * NliModel on every encoder-zoo folder x dtype (tiny random-weight BERT, DistilBERT and DeBERTa-v2 NLI
 * classifiers: they prove loading, labels, batching and truncation, never quality): pair probabilities equal a
 * direct transformers.js AutoModelForSequenceClassification run, logits equal onnxruntime-node on the
 * original graph, batched numbers equal one-by-one numbers; label layouts from config.json in any order and
 * case, and a typed error without an entailment label; truncation reported (or refused); damaged folders and
 * bad calls are typed errors; the pair cache.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import * as transformers from "@huggingface/transformers";
import { halfToFloat, loadModel, saveModel } from "@npov/autograd";
import { cutPair, NliModel, nliLabels, PairScoreCache } from "@npov/nli";
import * as ort from "onnxruntime-node";
import { describe, expect, it } from "vitest";
import { copyWithConfig, DTYPES, DYNAMIC, directLogits, ENCODER_ZOO, FOLDERS, PAIRS, softmax } from "./helpers.js";

/** Logits of one pair from onnxruntime-node on the graph file itself. */
async function ortLogits(session: ort.InferenceSession, ids: number[], types: number[] | undefined): Promise<number[]> {
  const t = (xs: number[]) => new ort.Tensor("int64", BigInt64Array.from(xs.map(BigInt)), [1, xs.length]);
  const all: Record<string, ort.Tensor> = {
    input_ids: t(ids),
    attention_mask: t(ids.map(() => 1)),
    token_type_ids: t(types ?? ids.map(() => 0)),
  };
  const out = await session.run(Object.fromEntries(session.inputNames.map((n) => [n, all[n] as ort.Tensor])));
  const logits = out.logits as ort.Tensor;
  return logits.type === "float16"
    ? Array.from(logits.data as Uint16Array, halfToFloat)
    : Array.from(logits.data as Float32Array);
}

const maxAbsDiff = (a: readonly number[], b: readonly number[]) =>
  a.reduce((m, x, i) => Math.max(m, Math.abs(x - (b[i] as number))), 0);

describe.each(FOLDERS)("encoder zoo %s", (folder) => {
  const dir = join(ENCODER_ZOO, folder);
  it.each(DTYPES)(
    "%s: P(entailment) = softmax of a direct transformers.js run; logits = onnxruntime on the graph; batches = one by one",
    async (dtype) => {
      const direct = await directLogits(dir, dtype, PAIRS);
      const batched = await NliModel.fromPretrained(dir, { dtype, cache: 0 });
      const single = await NliModel.fromPretrained(dir, { dtype, cache: 0, batchSize: 1 });
      const session = await ort.InferenceSession.create(join(dir, batched.graphFile), { logSeverityLevel: 4 });
      try {
        expect(batched).toMatchObject({ model: resolve(dir), dtype, dynamicQuantization: DYNAMIC.has(dtype) });
        expect(batched.labels).toEqual({
          names: ["entailment", "neutral", "contradiction"],
          entailment: 0,
          neutral: 1,
          contradiction: 2,
        });
        // Dynamically quantized graphs run pair by pair (their activation scale spans the batch).
        expect(batched.effectiveBatchSize).toBe(DYNAMIC.has(dtype) ? 1 : 16);
        const one = await single.scorePairs(PAIRS);
        const many = await batched.scorePairs(PAIRS);
        for (const [i, pair] of PAIRS.entries()) {
          const s = one[i];
          // The same transformers.js session on the same ids: the same logits, bit for bit.
          expect(s?.logits).toEqual(direct.logits[i]);
          const p = softmax(direct.logits[i] as number[]);
          expect(s?.entailment).toBeCloseTo(p[0] as number, 12);
          expect(s?.contradiction).toBeCloseTo(p[2] as number, 12);
          expect(s?.tokens).toBe(direct.ids[i]?.length);
          expect(s?.truncated).toBeUndefined();
          // onnxruntime-node on the exported graph, fed the tokenizer's ids.
          const raw = await ortLogits(session, direct.ids[i] as number[], direct.types[i]);
          expect(maxAbsDiff(s?.logits ?? [], raw)).toBeLessThan(1e-5);
          // A batch padded to its longest pair gives the numbers of one-by-one runs.
          const b = many[i];
          if (DYNAMIC.has(dtype)) expect(b?.probabilities).toEqual(s?.probabilities);
          else expect(maxAbsDiff(b?.probabilities ?? [], s?.probabilities ?? [])).toBeLessThan(1e-6);
          expect(pair.premise.length).toBeGreaterThan(0);
        }
        expect(await batched.entailmentProbabilities(PAIRS)).toEqual(many.map((x) => x.entailment));
      } finally {
        await session.release();
        await batched.dispose();
        await single.dispose();
      }
    },
  );
});

describe("batching a dynamically quantized graph", () => {
  it("quantizedBatching makes a pair's numbers depend on its batch (why such graphs run pair by pair)", async () => {
    const dir = join(ENCODER_ZOO, "optimum-bert");
    const together = await NliModel.fromPretrained(dir, { dtype: "q8", cache: 0, quantizedBatching: true });
    const alone = await NliModel.fromPretrained(dir, { dtype: "q8", cache: 0 });
    expect(together.effectiveBatchSize).toBe(16);
    const a = await together.scorePairs(PAIRS);
    const b = await alone.scorePairs(PAIRS);
    expect(Math.max(...a.map((x, i) => maxAbsDiff(x.logits, b[i]?.logits ?? [])))).toBeGreaterThan(1e-3);
    await together.dispose();
    await alone.dispose();
  });
});

describe("labels from config.json", () => {
  it("finds entailment in any order and case; the probabilities follow the permuted outputs", async () => {
    const base = await NliModel.fromPretrained(join(ENCODER_ZOO, "optimum-bert"), { cache: 0 });
    const reference = await base.scorePairs(PAIRS);
    for (const [id2label, expected] of [
      [
        { 0: "CONTRADICTION", 1: "ENTAILMENT", 2: "NEUTRAL" },
        { entailment: 1, neutral: 2, contradiction: 0 },
      ],
      [
        { 0: "Neutral", 1: "contradiction", 2: "entailment" },
        { entailment: 2, neutral: 0, contradiction: 1 },
      ],
    ] as const) {
      const dir = copyWithConfig("optimum-bert", (c) => {
        c.id2label = id2label;
        c.label2id = Object.fromEntries(Object.entries(id2label).map(([k, v]) => [v, Number(k)]));
      });
      const model = await NliModel.fromPretrained(dir, { cache: 0 });
      expect(model.labels).toMatchObject(expected);
      const scores = await model.scorePairs(PAIRS);
      scores.forEach((s, i) => {
        const logits = reference[i]?.logits as number[];
        // Same weights, so the same logits; P(entailment) is now the softmax at the output named entailment.
        expect(s.logits).toEqual(logits);
        expect(s.entailment).toBeCloseTo(softmax(logits)[expected.entailment] as number, 12);
        expect(s.neutral).toBeCloseTo(softmax(logits)[expected.neutral] as number, 12);
        expect(s.contradiction).toBeCloseTo(softmax(logits)[expected.contradiction] as number, 12);
      });
      await model.dispose();
    }
    await base.dispose();
  });

  it("a model without an entailment label is NLI_LABELS, naming the labels it has", async () => {
    const dir = copyWithConfig("optimum-bert", (c) => {
      c.id2label = { 0: "LABEL_0", 1: "LABEL_1", 2: "LABEL_2" };
    });
    const error = await NliModel.fromPretrained(dir).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "NLI_LABELS", labels: ["LABEL_0", "LABEL_1", "LABEL_2"] });
    expect((error as Error).message).toContain('no entailment label (found 0: "LABEL_0", 1: "LABEL_1", 2: "LABEL_2")');
    // A decoder of the (decoder) zoo has no id2label at all.
    const gpt2 = join(ENCODER_ZOO, "..", "zoo", "optimum-gpt2");
    await expect(NliModel.fromPretrained(gpt2)).rejects.toMatchObject({ code: "NLI_LABELS" });
  });

  it("id2label with fewer outputs than the graph has is UNSUPPORTED_MODEL at the first run, naming both", async () => {
    const dir = copyWithConfig("optimum-bert", (c) => {
      c.id2label = { 0: "entailment", 1: "not_entailment" };
    });
    const model = await NliModel.fromPretrained(dir);
    expect(model.labels).toEqual({ names: ["entailment", "not_entailment"], entailment: 0 });
    const error = await model.scorePairs(PAIRS.slice(0, 1)).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "UNSUPPORTED_MODEL" });
    expect((error as Error).message).toContain("logits have shape [1, 3]");
    await model.dispose();
  });

  it("nliLabels: layouts and their errors", () => {
    expect(nliLabels({ id2label: { 1: "entailment", 0: "not_entailment" } }, "m")).toEqual({
      names: ["not_entailment", "entailment"],
      entailment: 1,
    });
    expect(nliLabels({ id2label: { 0: "Contradiction", 1: "Neutral", 2: "Entailment" } }, "m")).toMatchObject({
      entailment: 2,
      neutral: 1,
      contradiction: 0,
    });
    const code = (config: Record<string, unknown>) => {
      try {
        nliLabels(config, "m");
        return "ok";
      } catch (e) {
        return `${(e as { code: string }).code}: ${(e as Error).message.split(". The nli method")[0]}`;
      }
    };
    expect(code({})).toBe(
      "NLI_LABELS: m cannot be used as an NLI model: its config.json has no id2label (which output is entailment is unknown)",
    );
    expect(code({ id2label: ["entailment"] })).toContain("must be an object");
    expect(code({ id2label: { 0: "entailment", 5: "neutral" } })).toContain('has key "5"');
    expect(code({ id2label: { 0: "entailment", 1: "ENTAILMENT" } })).toContain("names entailment 2 times");
    expect(code({ id2label: { 0: "entailment" } })).toContain("has 1 label(s)");
    expect(code({ id2label: { 0: "entailment", 1: 3 } })).toContain("not a label name");
  });
});

describe("truncation: never silent", () => {
  const dir = join(ENCODER_ZOO, "optimum-bert");
  const long = `${"Zoos keep animals in small cages far from their natural habitat. ".repeat(20)}The end.`;
  const hypothesis = "Zoos harm animals.";

  it("cuts the premise's end to the 128-token context, reports it, and scores what the model saw", async () => {
    const model = await NliModel.fromPretrained(dir, { cache: 0 });
    const tokenizer = await transformers.AutoTokenizer.from_pretrained(dir, { local_files_only: true });
    const full = (
      tokenizer(long, { text_pair: hypothesis }) as unknown as { input_ids: { tolist(): bigint[][] } }
    ).input_ids
      .tolist()[0]
      ?.map(Number) as number[];
    const premiseIds = tokenizer.encode(long, { add_special_tokens: false });
    const hypothesisIds = tokenizer.encode(hypothesis, { add_special_tokens: false });
    expect(full.length).toBeGreaterThan(128);
    const [score] = await model.scorePairs([{ premise: long, hypothesis }]);
    const over = full.length - 128;
    expect(score).toMatchObject({ tokens: full.length, truncated: { premise: over, hypothesis: 0 } });
    // [CLS] premise minus its last `over` tokens [SEP] hypothesis [SEP]: what HF's "only_first" truncation gives.
    const cut = [2, ...premiseIds.slice(0, premiseIds.length - over), 3, ...hypothesisIds, 3];
    expect(cut).toHaveLength(128);
    const session = await ort.InferenceSession.create(join(dir, "onnx/model.onnx"), { logSeverityLevel: 4 });
    const types = [...cut.slice(0, premiseIds.length - over + 2).map(() => 0), ...hypothesisIds.map(() => 1), 1];
    expect(maxAbsDiff(score?.logits ?? [], await ortLogits(session, cut, types))).toBeLessThan(1e-5);
    await session.release();
    await model.dispose();
  });

  it("cuts the hypothesis too when the premise is down to one token", async () => {
    const model = await NliModel.fromPretrained(dir, { cache: 0, maxLength: 12 });
    expect(model.context).toEqual({ tokens: 12, source: "the maxLength option" });
    const tokenizer = await transformers.AutoTokenizer.from_pretrained(dir, { local_files_only: true });
    const pair = { premise: "Zoos keep animals.", hypothesis: "Zoos keep animals in small cages far away." };
    const p = tokenizer.encode(pair.premise, { add_special_tokens: false }).length;
    const h = tokenizer.encode(pair.hypothesis, { add_special_tokens: false }).length;
    const [s] = await model.scorePairs([pair]);
    // [CLS] premise [SEP] hypothesis [SEP]: the premise keeps 1 token, the hypothesis what is left of 12.
    expect(s).toMatchObject({ tokens: p + h + 3, truncated: { premise: p - 1, hypothesis: h - (12 - 3 - 1) } });
    expect(h - (12 - 3 - 1)).toBeGreaterThan(0);
    await model.dispose();
  });

  it("a SentencePiece tokenizer (DeBERTa-v3 layout) is cut the same way", async () => {
    const model = await NliModel.fromPretrained(join(ENCODER_ZOO, "optimum-deberta-v2"), { cache: 0, maxLength: 10 });
    const [s] = await model.scorePairs([PAIRS[0] as { premise: string; hypothesis: string }]);
    expect(s?.truncated?.premise).toBe((s?.tokens as number) - 10);
    expect(s?.truncated?.hypothesis).toBe(0);
    await model.dispose();
  });

  it('truncation: "error" refuses the pair with CONTEXT_TOO_LONG', async () => {
    const model = await NliModel.fromPretrained(dir, { truncation: "error" });
    const error = await model.scorePairs([PAIRS[0] as never, { premise: long, hypothesis }]).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "CONTEXT_TOO_LONG", limit: 128 });
    expect((error as Error).message).toContain('truncation: "report"');
    await model.dispose();
  });

  it("cutPair: undefined when the pair cannot be cut to fit", () => {
    const encoding = { input_ids: [2, 10, 11, 3, 20, 21, 3], attention_mask: [1, 1, 1, 1, 1, 1, 1] };
    expect(cutPair(encoding, [10, 11], [20, 21], 5)?.encoding.input_ids).toEqual([2, 10, 3, 20, 3]);
    expect(cutPair(encoding, [10, 11], [20, 21], 4)).toBeUndefined();
    expect(cutPair(encoding, [10, 12], [20, 21], 6)).toBeUndefined();
  });
});

describe("typed errors", () => {
  it("missing, damaged and dtype-less folders; a hub id without network; options", async () => {
    await expect(NliModel.fromPretrained("./no-such-nli-model")).rejects.toMatchObject({ code: "MODEL_NOT_FOUND" });
    const empty = copyWithConfig("optimum-bert", () => undefined);
    writeFileSync(join(empty, "onnx/model.onnx"), "");
    await expect(NliModel.fromPretrained(empty)).rejects.toMatchObject({
      code: "MODEL_FILE_INVALID",
      problem: "empty",
    });
    const badConfig = copyWithConfig("optimum-bert", () => undefined);
    writeFileSync(join(badConfig, "config.json"), "{");
    await expect(NliModel.fromPretrained(badConfig)).rejects.toMatchObject({
      code: "MODEL_FILE_INVALID",
      problem: "invalid-json",
    });
    // External data announced by the graph's base name ("model"), as transformers.js reads the config: a missing
    // data file is a typed error before transformers.js would fail where no caller can catch it.
    const baseKeyed = copyWithConfig("optimum-bert", (config) => {
      config["transformers.js_config"] = { use_external_data_format: { model: 1 } };
    });
    cpSync(join(ENCODER_ZOO, "optimum-bert", "onnx", "model_q4.onnx"), join(baseKeyed, "onnx", "model_q4.onnx"));
    const missingData = await NliModel.fromPretrained(baseKeyed, { dtype: "q4" }).catch((e: unknown) => e);
    expect(missingData).toMatchObject({ code: "MODEL_NOT_FOUND" });
    expect((missingData as Error).message).toContain("onnx/model_q4.onnx_data is missing");
    const fp32Only = copyWithConfig("optimum-bert", () => undefined);
    const absent = await NliModel.fromPretrained(fp32Only, { dtype: "q4" }).catch((e: unknown) => e);
    expect(absent).toMatchObject({ code: "MODEL_NOT_FOUND" });
    expect((absent as Error).message).toContain("onnx/model.onnx");
    await expect(NliModel.fromPretrained(join(ENCODER_ZOO, "optimum-bert"), { batchSize: 0 })).rejects.toMatchObject({
      code: "INVALID_VALUE",
      path: "batchSize",
    });
    await expect(
      NliModel.fromPretrained(join(ENCODER_ZOO, "optimum-bert"), { truncation: "cut" as never }),
    ).rejects.toMatchObject({ code: "INVALID_VALUE", path: "truncation" });

    const env = transformers.env as unknown as { remoteHost: string; allowRemoteModels: boolean; cacheDir: string };
    const saved = { ...env };
    env.remoteHost = "http://127.0.0.1:9/";
    env.allowRemoteModels = true;
    env.cacheDir = mkdtempSync(join(tmpdir(), "npov-nli-cache-"));
    try {
      await expect(NliModel.fromPretrained("someone/some-nli-model")).rejects.toMatchObject({
        code: "MODEL_DOWNLOAD_FAILED",
      });
    } finally {
      Object.assign(env, saved);
    }
  });

  it("a hub id loads through transformers.js's cache, with the folder's numbers", async () => {
    const env = transformers.env as unknown as { allowRemoteModels: boolean; cacheDir: string };
    const saved = { ...env };
    env.cacheDir = mkdtempSync(join(tmpdir(), "npov-nli-hub-"));
    env.allowRemoteModels = false;
    cpSync(join(ENCODER_ZOO, "optimum-bert"), join(env.cacheDir, "someone", "nli-bert"), { recursive: true });
    try {
      const hub = await NliModel.fromPretrained("someone/nli-bert", { dtype: "q8" });
      const folder = await NliModel.fromPretrained(join(ENCODER_ZOO, "optimum-bert"), { dtype: "q8" });
      expect(hub).toMatchObject({ model: "someone/nli-bert", dtype: "q8", dynamicQuantization: true });
      expect(hub.labels).toEqual(folder.labels);
      expect(await hub.scorePairs(PAIRS)).toEqual(await folder.scorePairs(PAIRS));
      await expect(NliModel.fromPretrained("someone/not-cached")).rejects.toMatchObject({ code: "MODEL_NOT_FOUND" });
      await hub.dispose();
      await folder.dispose();
    } finally {
      Object.assign(env, saved);
    }
  });

  it("a causal LM given NLI labels is UNSUPPORTED_MODEL (its graph reads more than a cross-encoder)", async () => {
    const src = join(ENCODER_ZOO, "..", "zoo", "optimum-gpt2");
    const dir = join(mkdtempSync(join(tmpdir(), "npov-nli-gpt2-")), "gpt2");
    cpSync(src, dir, { recursive: true });
    const config = JSON.parse(readFileSync(join(src, "config.json"), "utf8"));
    config.id2label = { 0: "entailment", 1: "neutral", 2: "contradiction" };
    // The copy is read-only like the zoo: replace the file rather than write into it.
    rmSync(join(dir, "config.json"));
    writeFileSync(join(dir, "config.json"), JSON.stringify(config));
    await expect(NliModel.fromPretrained(dir)).rejects.toMatchObject({ code: "UNSUPPORTED_MODEL" });
  });

  it("NaN weights are INVALID_SCORE, not a probability", async () => {
    const dir = copyWithConfig("optimum-bert", () => undefined);
    const graph = loadModel(join(dir, "onnx/model.onnx"));
    const bias = graph.graph?.initializer?.find((t) => t.name === "classifier.bias");
    expect(bias).toBeDefined();
    const raw = bias?.rawData as Uint8Array;
    const floats = new Float32Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength)).fill(Number.NaN);
    (bias as { rawData: Uint8Array }).rawData = new Uint8Array(floats.buffer);
    saveModel(join(dir, "onnx/model.onnx"), graph);
    const model = await NliModel.fromPretrained(dir);
    await expect(model.scorePairs(PAIRS)).rejects.toMatchObject({ code: "INVALID_SCORE" });
    await model.dispose();
  });

  it("bad pairs, and a disposed model", async () => {
    const model = await NliModel.fromPretrained(join(ENCODER_ZOO, "optimum-distilbert"));
    await expect(model.scorePairs("pairs" as never)).rejects.toMatchObject({ code: "INVALID_VALUE", path: "pairs" });
    await expect(model.scorePairs([{ premise: " ", hypothesis: "x" }])).rejects.toMatchObject({
      code: "EMPTY_TEXT",
      path: "pairs[0].premise",
    });
    await expect(model.scorePairs([{ premise: "x", hypothesis: 3 as never }])).rejects.toMatchObject({
      code: "NOT_TEXT",
    });
    await expect(model.scorePairs([{ premise: "a ".repeat(40_000), hypothesis: "x" }])).rejects.toMatchObject({
      code: "INPUT_TOO_LARGE",
    });
    expect(await model.scorePairs([])).toEqual([]);
    await model.dispose();
    await expect(model.scorePairs(PAIRS)).rejects.toMatchObject({ code: "MODEL_DISPOSED" });
  });
});

describe("the pair cache", () => {
  it("is a bounded LRU", () => {
    const cache = new PairScoreCache(2);
    const entry = {
      probabilities: new Float64Array(1),
      logits: new Float32Array(1),
      tokens: 1,
      truncated: { premise: 0, hypothesis: 0 },
    };
    cache.set("a", entry);
    cache.set("b", entry);
    cache.get("a");
    cache.set("c", entry);
    expect([cache.get("a"), cache.get("b"), cache.get("c")].map((x) => x !== undefined)).toEqual([true, false, true]);
    expect(cache.size).toBe(2);
    expect(() => new PairScoreCache(-1)).toThrow(/integer >= 0/);
    expect(PairScoreCache.key("m", "ab", "c")).not.toBe(PairScoreCache.key("m", "a", "bc"));
  });

  it("answers repeated pairs without a model run, keyed by model and weights file", async () => {
    const cache = new PairScoreCache(100);
    const dir = join(ENCODER_ZOO, "optimum-bert");
    const fp32 = await NliModel.fromPretrained(dir, { cache });
    const q4 = await NliModel.fromPretrained(dir, { dtype: "q4", cache });
    const first = await fp32.scorePairs([...PAIRS, ...PAIRS]);
    expect(first.map((s) => s.cached)).toEqual(PAIRS.flatMap(() => [false]).concat(PAIRS.map(() => false)));
    expect(cache.size).toBe(PAIRS.length);
    const again = await fp32.scorePairs(PAIRS);
    expect(again.every((s) => s.cached)).toBe(true);
    expect(again.map((s) => s.probabilities)).toEqual(first.slice(0, PAIRS.length).map((s) => s.probabilities));
    // Another weights file shares the cache but not the entries.
    const other = await q4.scorePairs(PAIRS);
    expect(other.some((s) => s.cached)).toBe(false);
    expect(other[0]?.logits).not.toEqual(first[0]?.logits);
    expect(cache.size).toBe(2 * PAIRS.length);
    await fp32.dispose();
    await q4.dispose();
  });
});
