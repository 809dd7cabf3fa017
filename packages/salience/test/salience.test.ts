import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  appendTokenLoss,
  convertFloatType,
  cutAtTensor,
  DataType,
  encodeModel,
  findEmbeddingOutput,
  loadPretrained,
  type ModelProto,
  mergeEncoderDecoder,
  writeTestModel,
} from "@npov/autograd";
import { generatorPromptLayout, InvalidValueError, type NpovInput } from "@npov/core";
import {
  colMax,
  gmean,
  ModelNotFoundError,
  matrix,
  mergeToWords,
  postprocessSalience,
  renderSalienceHtml,
  rowMax,
  SalienceDetector,
  squareNormalizeColumns,
} from "@npov/salience";
import * as ort from "onnxruntime-node";
import { describe, expect, it } from "vitest";

const root = mkdtempSync(join(tmpdir(), "npov-salience-"));
const input: NpovInput = {
  topic: "zoos",
  query: "Ban zoos?",
  perspectives: [
    { label: "pro", arguments: [{ text: "Cages harm animals." }] },
    { label: "con", arguments: [{ text: "Zoos save species." }] },
  ],
};

describe("post-processing (SPEC 2.2 steps 3-7) on a hand-worked 3 x 4 token map", () => {
  // Rows: tokens t0 t1 t2 (t0, t1 form one input word; t2 another). Columns: response tokens r0..r3
  // (r0 r1 one word, r2, r3 one word each).
  const raw = matrix(3, 4, [1, 0, 3, 0, 2, 1, 0, 0, 2, 0, 4, 5]);
  it("squares, normalizes columns, merges by max, takes row and column maxima", () => {
    const n = squareNormalizeColumns(raw);
    // column 0: 1, 4, 4 -> /9; column 1: 0, 1, 0; column 2: 9, 0, 16 -> /25; column 3: 0, 0, 25 -> /25
    expect(Array.from(n.data)).toEqual([1 / 9, 0, 9 / 25, 0, 4 / 9, 1, 0, 0, 4 / 9, 0, 16 / 25, 1]);
    const words = mergeToWords(n, [[0, 1], [2]], [[0, 1], [2], [3]]);
    expect(Array.from(words.data)).toEqual([1, 9 / 25, 0, 4 / 9, 16 / 25, 1]);
    expect(Array.from(rowMax(words))).toEqual([1, 1]);
    expect(Array.from(colMax(words))).toEqual([1, 16 / 25, 1]);
    expect(gmean([1, 16 / 25, 1])).toBeCloseTo((16 / 25) ** (1 / 3), 15);
    expect(gmean([0, 1], 1e-6)).toBeCloseTo(1e-3, 15); // log(0) guarded by epsilon
    expect(gmean([])).toBe(1);
    const zero = squareNormalizeColumns(matrix(2, 1, [0, 0]));
    expect(Array.from(zero.data)).toEqual([0, 0]);
  });

  it("maps words through token spans, drops stop words, and aggregates per perspective", () => {
    const layout = generatorPromptLayout(input);
    const [pro, con] = layout.arguments as [{ start: number; end: number }, { start: number; end: number }];
    // Prompt tokens: "Cages" "harm" "animals" "Zoos" "save" "species"; response "cages hurt the animals" -> tokens.
    const word = (text: string, from: number, start: number) => {
      const s = layout.prompt.indexOf(text, from);
      expect(s).toBeGreaterThanOrEqual(start);
      return { id: 0, start: s, end: s + text.length };
    };
    const inputTokens = [
      word("Cages", pro.start, pro.start),
      word("harm", pro.start, pro.start),
      word("animals", pro.start, pro.start),
      word("Zoos", con.start, con.start),
      word("save", con.start, con.start),
      word("species", con.start, con.start),
    ];
    const response = "cages hurt the animals";
    const responseTokens = [
      { id: 0, start: 0, end: 5 },
      { id: 0, start: 6, end: 10 },
      { id: 0, start: 11, end: 14 },
      { id: 0, start: 15, end: 22 },
    ];
    // Rows: 6 prompt tokens + 4 response tokens; each response token column points at one prompt token.
    const att = matrix(10, 4);
    const set = (r: number, c: number, v: number) => {
      att.data[r * 4 + c] = v;
    };
    set(0, 0, 2); // cages <- Cages
    set(1, 1, 1); // hurt <- harm
    set(6, 1, 1); // ... and half from an earlier response token (not an argument row)
    set(2, 2, 3); // "the" (stop word column)
    set(2, 3, 3); // animals <- animals
    const result = postprocessSalience(
      input,
      response,
      layout,
      { inputTokens, responseTokens, attributions: att },
      "grad-x-input",
    );
    expect(result.words.response.map((w) => w.text)).toEqual(["cages", "hurt", "animals"]);
    expect(result.words.response.map((w) => w.attribution)).toEqual([1, 0.5, 1]);
    expect(result.words.arguments.map((w) => [w.text, w.contribution])).toEqual([
      ["Cages", 1],
      ["harm", 0.5],
      ["animals", 1],
      ["Zoos", 0],
      ["save", 0],
      ["species", 0],
    ]);
    expect(result.hallucination).toBeCloseTo(1 - 0.5 ** (1 / 3), 15);
    expect(result.perspectives[0]!.contribution).toBeCloseTo(0.5 ** (1 / 3), 15);
    expect(result.perspectives[1]!.contribution).toBeCloseTo(1e-6, 15); // all zeros -> epsilon
    expect(result.coverage).toBeCloseTo(1 - 1e-6, 15);
  });
});

async function lossAt(model: ModelProto, feeds: Record<string, ort.Tensor>, position: number): Promise<number> {
  const s = await ort.InferenceSession.create(encodeModel(model), { graphOptimizationLevel: "basic" });
  const r = await s.run(feeds, ["token_loss"]);
  await s.release();
  return (r.token_loss!.data as Float64Array)[position] as number;
}

describe("token map columns equal d loss_t / d s_i (embedding i scaled by s_i), central differences", () => {
  for (const arch of ["t5", "llama"] as const) {
    it(`${arch}`, async () => {
      const dir = join(root, arch);
      writeTestModel(dir, arch, { seed: 21 });
      const detector = await SalienceDetector.fromPretrained(dir, { precision: "float64", chunkSize: 3 });
      const prompt = "ab cd";
      const response = "xy z";
      const map = await detector.tokenMap(prompt, response);
      // The detector released its graphs after building (its weights live in its weight file): the
      // independent reference loads the folder again.
      expect([detector.files.model, detector.files.encoder, detector.files.decoder]).toEqual([
        undefined,
        undefined,
        undefined,
      ]);
      const files = await loadPretrained(dir);
      const tok = detector.files.tokenizer;
      const promptIds = tok.encode(prompt) as number[];
      const responseIds = tok.encode(response, { add_special_tokens: false }) as number[];
      const m = promptIds.length;
      const l = responseIds.length;
      expect([map.attributions.rows, map.attributions.cols]).toEqual([m + l, l]);

      // An independent forward model: same surgery, float64, embeddings fed directly.
      const i64 = (xs: number[]) => new ort.Tensor("int64", BigInt64Array.from(xs.map(BigInt)), [1, xs.length]);
      const empty = (dims: number[]) => new ort.Tensor("float64", new Float64Array(0), dims);
      let model: ModelProto;
      let feeds: Record<string, ort.Tensor>;
      let rows: Array<{ tensor: string; index: number; row: number }>;
      let lossPosition: (t: number) => number;
      const table = (mdl: ModelProto, idsName: string) => {
        const out = findEmbeddingOutput(mdl, idsName);
        const node = mdl.graph!.node!.find((n) => n.output![0] === out)!;
        const t = mdl.graph!.initializer!.find((x) => x.name === node.input![0])!;
        return { data: new Float64Array(new Uint8Array(t.rawData!).slice().buffer), dim: Number(t.dims![1]) };
      };
      const embed = (tb: { data: Float64Array; dim: number }, ids: number[]) => {
        const out = new Float64Array(ids.length * tb.dim);
        ids.forEach((id, k) => {
          out.set(tb.data.subarray(id * tb.dim, (id + 1) * tb.dim), k * tb.dim);
        });
        return out;
      };
      if (arch === "t5") {
        const merged = convertFloatType(
          mergeEncoderDecoder(files.encoder!, files.decoder!),
          DataType.FLOAT,
          DataType.DOUBLE,
        );
        const withLoss = await appendTokenLoss(merged);
        const encT = table(withLoss, "input_ids");
        const decT = table(withLoss, "decoder_input_ids");
        let cut = await cutAtTensor(withLoss, findEmbeddingOutput(withLoss, "input_ids"), "inputs_embeds");
        cut = await cutAtTensor(cut, findEmbeddingOutput(cut, "decoder_input_ids"), "decoder_inputs_embeds");
        model = cut;
        const decIds = [0, ...responseIds.slice(0, -1)];
        feeds = {
          input_ids: i64(promptIds),
          attention_mask: i64(promptIds.map(() => 1)),
          inputs_embeds: new ort.Tensor("float64", embed(encT, promptIds), [1, m, encT.dim]),
          decoder_input_ids: i64(decIds),
          decoder_inputs_embeds: new ort.Tensor("float64", embed(decT, decIds), [1, l, decT.dim]),
          labels: i64(responseIds),
          label_mask: new ort.Tensor("float64", new Float64Array(l).fill(1), [1, l]),
        };
        for (let i = 0; i < 2; i++)
          for (const kv of ["key", "value"]) feeds[`past_key_values.${i}.decoder.${kv}`] = empty([1, 4, 0, 8]);
        rows = [
          ...promptIds.map((_, i) => ({ tensor: "inputs_embeds", index: i, row: i })),
          ...responseIds.slice(0, -1).map((_, r) => ({ tensor: "decoder_inputs_embeds", index: r + 1, row: m + r })),
        ];
        lossPosition = (t) => t;
      } else {
        const withLoss = await appendTokenLoss(convertFloatType(files.model!, DataType.FLOAT, DataType.DOUBLE));
        const tb = table(withLoss, "input_ids");
        model = await cutAtTensor(withLoss, findEmbeddingOutput(withLoss, "input_ids"), "inputs_embeds");
        const ids = [...promptIds, ...responseIds];
        feeds = {
          input_ids: i64(ids),
          attention_mask: i64(ids.map(() => 1)),
          position_ids: i64(ids.map((_, i) => i)),
          inputs_embeds: new ort.Tensor("float64", embed(tb, ids), [1, ids.length, tb.dim]),
          labels: i64([...ids.slice(1), 0]),
          label_mask: new ort.Tensor("float64", new Float64Array(ids.length).fill(1), [1, ids.length]),
        };
        for (let i = 0; i < 2; i++)
          for (const kv of ["key", "value"]) feeds[`past_key_values.${i}.${kv}`] = empty([1, 2, 0, 8]);
        rows = ids.map((_, p) => ({ tensor: "inputs_embeds", index: p, row: p }));
        lossPosition = (t) => m + t - 1;
      }
      const h = 1e-6;
      for (const t of [0, l - 1]) {
        for (const { tensor, index, row } of rows) {
          const base = feeds[tensor] as ort.Tensor;
          const dim = base.dims[2] as number;
          const scaled = (factor: number) => {
            const data = Float64Array.from(base.data as Float64Array);
            for (let k = 0; k < dim; k++) data[index * dim + k] = (data[index * dim + k] as number) * factor;
            return { ...feeds, [tensor]: new ort.Tensor("float64", data, base.dims) };
          };
          const numeric =
            ((await lossAt(model, scaled(1 + h), lossPosition(t))) -
              (await lossAt(model, scaled(1 - h), lossPosition(t)))) /
            (2 * h);
          const analytic = map.attributions.data[row * l + t] as number;
          expect(Math.abs(analytic - numeric), `row ${row}, column ${t}`).toBeLessThan(
            1e-6 * Math.max(1, Math.abs(numeric)),
          );
        }
      }
      await detector.dispose();
    }, 120_000);
  }
});

describe("SalienceDetector end to end", () => {
  it("scores an example, renders the heatmap, and Chromium shows it", async () => {
    const dir = join(root, "t5-page");
    writeTestModel(dir, "t5", { seed: 5 });
    const detector = await SalienceDetector.fromPretrained(dir);
    const result = await detector.score(input, "Some say cages harm animals. Others say zoos save species.");
    expect(result.wordMatrix.rows).toBe(result.words.arguments.length);
    expect(result.wordMatrix.cols).toBe(result.words.response.length);
    for (let c = 0; c < result.tokens.normalized.cols; c++) {
      let s = 0;
      for (let r = 0; r < result.tokens.normalized.rows; r++)
        s += result.tokens.normalized.data[r * result.tokens.normalized.cols + c] as number;
      expect(s).toBeCloseTo(1, 10);
    }
    for (const v of [result.hallucination, result.coverage]) expect(v).toBeGreaterThanOrEqual(0);
    const norm = await SalienceDetector.fromPretrained(dir, { variant: "grad-norm" });
    const r2 = await norm.score(input, "Some say cages harm animals. Others say zoos save species.");
    expect(Array.from(r2.tokens.attributions.data).every((v) => v >= 0)).toBe(true);
    const html = renderSalienceHtml(result, { title: "test map" });
    const file = join(root, "map.html");
    writeFileSync(file, html);
    const chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((p) => existsSync(p));
    expect(chromium, "Chromium must be installed").toBeDefined();
    const flags = [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      `--user-data-dir=${join(root, "profile")}`,
    ];
    const dom = spawnSync(chromium!, [...flags, "--dump-dom", `file://${file}`], { encoding: "utf8", timeout: 60_000 });
    expect((dom.stdout.match(/class="cell"/g) ?? []).length).toBe(result.wordMatrix.rows * result.wordMatrix.cols);
    expect((dom.stdout.match(/class="alpha"/g) ?? []).length).toBe(result.words.arguments.length);
    expect((dom.stdout.match(/class="beta"/g) ?? []).length).toBe(result.words.response.length);
    const png = join(root, "map.png");
    spawnSync(chromium!, [...flags, `--screenshot=${png}`, "--window-size=900,700", `file://${file}`], {
      timeout: 60_000,
    });
    expect(statSync(png).size).toBeGreaterThan(10_000);
    await detector.dispose();
    await norm.dispose();
  }, 120_000);

  it("refuses a missing model and bad options with typed errors", async () => {
    await expect(SalienceDetector.fromPretrained(join(root, "nope"))).rejects.toBeInstanceOf(ModelNotFoundError);
    writeTestModel(join(root, "g"), "gpt2", { seed: 1 });
    await expect(SalienceDetector.fromPretrained(join(root, "g"), { chunkSize: 0 })).rejects.toBeInstanceOf(
      InvalidValueError,
    );
  });
});

describe("model resolution", () => {
  it("loads fp16 files (converted to fp32 for gradients) with maps close to the fp32 model's", async () => {
    const { loadModel, saveModel } = await import("@npov/autograd");
    const dir = join(root, "half");
    writeTestModel(dir, "llama", { seed: 8 });
    const half = convertFloatType(loadModel(join(dir, "onnx/model.onnx")), DataType.FLOAT, DataType.FLOAT16);
    saveModel(join(dir, "onnx/model_fp16.onnx"), half);
    const a = await SalienceDetector.fromPretrained(dir);
    const b = await SalienceDetector.fromPretrained(dir, { dtype: "fp16" });
    const ra = await a.tokenMap("ab cd", "xy");
    const rb = await b.tokenMap("ab cd", "xy");
    const scale = Math.max(...Array.from(ra.attributions.data, Math.abs));
    for (let i = 0; i < ra.attributions.data.length; i++)
      expect(Math.abs((ra.attributions.data[i] as number) - (rb.attributions.data[i] as number))).toBeLessThan(
        0.02 * scale,
      );
    await a.dispose();
    await b.dispose();
  });

  it("refuses hub ids when remote models are disabled, naming the fix", async () => {
    const { env } = await import("@huggingface/transformers");
    const before = env.allowRemoteModels;
    env.allowRemoteModels = false;
    try {
      const error = await SalienceDetector.fromPretrained("some-org/some-model").catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ModelNotFoundError);
      expect((error as ModelNotFoundError).code).toBe("MODEL_NOT_FOUND");
      expect((error as Error).message).toContain("allowRemoteModels");
    } finally {
      env.allowRemoteModels = before;
    }
  });
});

describe("salience on real weights (stories260K imported from llama2.c)", () => {
  it("renders a salience map of a short story continuation with normalized columns", async () => {
    const { importLlama2c } = await import("@npov/autograd");
    const shared = new URL("../../../../shared/models/stories260K/", import.meta.url).pathname;
    const dir = join(root, "stories260K");
    importLlama2c(join(shared, "stories260K.bin"), join(shared, "tok512.bin"), dir);
    const detector = await SalienceDetector.fromPretrained(dir);
    const story: NpovInput = {
      topic: "a story",
      query: "What did Lily do?",
      perspectives: [
        { label: "pro", arguments: [{ text: "Lily loved to play outside in the park." }] },
        { label: "con", arguments: [{ text: "The red ball was too high." }] },
      ],
    };
    const result = await detector.score(story, "Lily saw a big red ball in the park.");
    const { rows, cols } = result.tokens.attributions;
    expect(rows).toBe(result.tokens.inputTokens.length + result.tokens.responseTokens.length);
    expect(cols).toBe(result.tokens.responseTokens.length);
    for (let c = 0; c < cols; c++) {
      let s = 0;
      for (let r = 0; r < rows; r++) s += result.tokens.normalized.data[r * cols + c] as number;
      expect(s).toBeCloseTo(1, 10);
    }
    expect([result.wordMatrix.rows, result.wordMatrix.cols]).toEqual([
      result.words.arguments.length,
      result.words.response.length,
    ]);
    const html = renderSalienceHtml(result, { title: "stories260K" });
    expect((html.match(/class="cell"/g) ?? []).length).toBe(result.wordMatrix.rows * result.wordMatrix.cols);
    writeFileSync(join(root, "stories.html"), html);
    await detector.dispose();
  });
});
