import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { encodeModel, GradientSession, loadModel, writeTestModel } from "@npov/autograd";
import {
  createGuard,
  LabelTokenError,
  labelTokens,
  loadEmbeddingModel,
  loadSoftPrompt,
  loadStacked,
  probabilityNo,
  saveSoftPrompt,
  saveStacked,
  softPromptGradient,
  stackedDetector,
  trainStacked,
  tuneSoftPrompt,
  YesNoClassifier,
} from "@npov/classifier";
import {
  classifierPrompt,
  createRng,
  FileFormatError,
  type NpovExample,
  openKnowledgeBase,
  rocAuc,
  writeFileAtomic,
} from "@npov/core";
import { calibrateThresholds } from "@npov/eval";
import { rougeErrorDetector } from "@npov/rouge";
import { buildDataset } from "@npov/synth";
import * as ort from "onnxruntime-node";
import { describe, expect, it } from "vitest";

const root = mkdtempSync(join(tmpdir(), "npov-classifier-"));
const input = {
  topic: "zoos",
  query: "Ban zoos?",
  perspectives: [
    { label: "pro", arguments: [{ text: "Cages harm animals." }] },
    { label: "con", arguments: [{ text: "Zoos save species." }] },
  ],
};
const response = "Some say cages harm animals; others say zoos save species.";
const i64 = (xs: number[]) => new ort.Tensor("int64", BigInt64Array.from(xs.map(BigInt)), [1, xs.length]);
const argmaxFree = (t: ort.Tensor, pos: number, id: number) =>
  (t.data as Float32Array)[pos * (t.dims[2] as number) + id] as number;

describe("YesNoClassifier", () => {
  it("P(NO) equals the softmax of the two label logits from a direct onnxruntime run (encoder-decoder)", async () => {
    const dir = join(root, "t5");
    writeTestModel(dir, "t5", { seed: 3, initStd: 0.3 });
    const classifier = await YesNoClassifier.fromPretrained(dir, { task: "coverage" });
    const [score] = await classifier.scoreBatch([{ input, response }], "coverage");
    const tok = classifier.em.files.tokenizer;
    const labels = classifier.em.labels;
    const ids = tok.encode(classifierPrompt(input, response, "coverage")) as number[];
    const enc = await ort.InferenceSession.create(encodeModel(loadModel(join(dir, "onnx/encoder_model.onnx"))));
    const dec = await ort.InferenceSession.create(encodeModel(loadModel(join(dir, "onnx/decoder_model.onnx"))));
    const hidden = (await enc.run({ input_ids: i64(ids), attention_mask: i64(ids.map(() => 1)) })).last_hidden_state!;
    const decIds = [0, ...labels.prefix];
    const past = Object.fromEntries(
      dec.inputNames
        .filter((n) => n.startsWith("past"))
        .map((n) => [n, new ort.Tensor("float32", new Float32Array(0), [1, 4, 0, 8])]),
    );
    const logits = (
      await dec.run({
        input_ids: i64(decIds),
        encoder_attention_mask: i64(ids.map(() => 1)),
        encoder_hidden_states: hidden,
        ...past,
      })
    ).logits!;
    const yes = argmaxFree(logits, decIds.length - 1, labels.yes);
    const no = argmaxFree(logits, decIds.length - 1, labels.no);
    expect(score).toBeCloseTo(Math.exp(no) / (Math.exp(yes) + Math.exp(no)), 5);
    // Batching with padding gives the same scores as one at a time.
    const other = { input, response: "Zoos save species." };
    const batched = await classifier.scoreBatch([{ input, response }, other], "coverage");
    const single = await classifier.scoreBatch([other], "coverage");
    expect(batched[0]).toBeCloseTo(score as number, 5);
    expect(batched[1]).toBeCloseTo(single[0] as number, 5);
    await classifier.dispose();
  });

  it("reads the next-token logits of a causal LM after the label prefix", async () => {
    const dir = join(root, "llama");
    writeTestModel(dir, "llama", { seed: 4, initStd: 0.3 });
    const classifier = await YesNoClassifier.fromPretrained(dir, { task: "hallucination" });
    const [score] = await classifier.scoreBatch([{ input, response }], "hallucination");
    const tok = classifier.em.files.tokenizer;
    const { prefix, yes, no } = classifier.em.labels;
    const ids = [...(tok.encode(classifierPrompt(input, response, "hallucination")) as number[]), ...prefix];
    const s = await ort.InferenceSession.create(encodeModel(loadModel(join(dir, "onnx/model.onnx"))));
    const past = Object.fromEntries(
      s.inputNames
        .filter((n) => n.startsWith("past"))
        .map((n) => [n, new ort.Tensor("float32", new Float32Array(0), [1, 2, 0, 8])]),
    );
    const logits = (
      await s.run({
        input_ids: i64(ids),
        attention_mask: i64(ids.map(() => 1)),
        position_ids: i64(ids.map((_, k) => k)),
        ...past,
      })
    ).logits!;
    expect(score).toBeCloseTo(
      probabilityNo(argmaxFree(logits, ids.length - 1, yes), argmaxFree(logits, ids.length - 1, no)),
      5,
    );
    await classifier.dispose();
  });

  it("finds label tokens after their common prefix and refuses indistinguishable labels", async () => {
    const em = await loadEmbeddingModel(join(root, "t5"));
    const tok = em.files.tokenizer;
    expect(em.labels.prefix).toEqual((tok.encode("YES}", { add_special_tokens: false }) as number[]).slice(0, 1));
    expect(tok.decode([em.labels.yes])).toBe("Y");
    expect(tok.decode([em.labels.no])).toBe("N");
    expect(() => labelTokens(em.files, { yes: "AB", no: "AB" })).toThrow(LabelTokenError);
  });
});

describe("soft-prompt tuning", () => {
  it("the soft-prompt gradient matches central finite differences", async () => {
    // A smooth (SiLU) model: T5's ReLU kinks make float32 differences at h = 1e-2 unreliable.
    const em = await loadEmbeddingModel(join(root, "llama"));
    const session = await GradientSession.create(em.model, { of: "token_loss", wrt: ["inputs_embeds"], seed: "ones" });
    const ids = [
      em.files.tokenizer.encode(classifierPrompt(input, response, "coverage")) as number[],
      em.files.tokenizer.encode("a b") as number[],
    ];
    const targets = [em.labels.no, em.labels.yes];
    const rng = createRng(2);
    const soft = Float32Array.from({ length: 3 * em.table.dim }, () => (rng.next() - 0.5) * 0.6);
    const { loss, gradient } = await softPromptGradient(session, em, ids, targets, soft);
    expect(Number.isFinite(loss)).toBe(true);
    const h = 1e-2;
    for (const k of [0, 7, 40, 95]) {
      const plus = Float32Array.from(soft);
      const minus = Float32Array.from(soft);
      plus[k] = (plus[k] as number) + h;
      minus[k] = (minus[k] as number) - h;
      const numeric =
        ((await softPromptGradient(session, em, ids, targets, plus)).loss -
          (await softPromptGradient(session, em, ids, targets, minus)).loss) /
        (2 * h);
      expect(Math.abs((gradient[k] as number) - numeric), `element ${k}`).toBeLessThan(2e-3 + 0.03 * Math.abs(numeric));
    }
    await session.release();
  });

  it("a few hundred steps on a learnable toy task drive the loss down and dev AUC up", async () => {
    const dir = join(root, "toy");
    writeTestModel(dir, "t5", { seed: 4, initStd: 0.3 });
    const em = await loadEmbeddingModel(dir);
    const rng = createRng(1);
    // Error examples answer with letters from "xyz", error-free ones with letters from "abc".
    const make = (n: number): NpovExample[] =>
      Array.from({ length: n }, (_, i) => {
        const error = i % 2 === 1;
        const text = Array.from({ length: 3 + rng.int(3) }, () => (error ? "xyz" : "abc").charAt(rng.int(3))).join("");
        return { input, response: text, labels: { coverage: error } };
      });
    const result = await tuneSoftPrompt(em, make(64), make(32), {
      task: "coverage",
      steps: 200,
      evalEvery: 50,
      patience: 10,
      warmupSteps: 20,
      seed: 2,
    });
    const losses = result.history.filter((h) => h.step > 0).map((h) => h.loss);
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    expect(mean(losses.slice(-20))).toBeLessThan(mean(losses.slice(0, 20)) * 0.6);
    const aucs = result.history.filter((h) => h.devAuc !== undefined).map((h) => h.devAuc as number);
    expect(aucs[0]).toBeLessThan(0.8);
    expect(Math.max(...aucs)).toBeGreaterThan(0.95);
    expect(result.prompt.meta.devAuc).toBe(Math.max(...aucs));
    // The saved prompt, loaded into a classifier, reproduces the best dev AUC.
    const file = join(root, "prompt.json");
    saveSoftPrompt(file, result.prompt);
    const loaded = loadSoftPrompt(file);
    expect(Array.from(loaded.vectors)).toEqual(Array.from(result.prompt.vectors));
    const classifier = await YesNoClassifier.fromPretrained(dir, { task: "coverage", softPrompt: file });
    const dev = make(32);
    const scores = await classifier.scoreBatch(dev, "coverage");
    expect(
      rocAuc(
        scores,
        dev.map((e) => e.labels!.coverage!),
      ),
    ).toBeGreaterThan(0.9);
    await classifier.dispose();
    // The coverage prompt given alone to a two-task classifier serves coverage only: hallucination scores
    // equal the plain classifier's, to the bit; a hallucination-only classifier refuses it.
    const both = await YesNoClassifier.fromPretrained(dir, { softPrompt: file });
    const plain = await YesNoClassifier.fromPretrained(dir);
    expect(await both.scoreBatch(dev, "hallucination")).toEqual(await plain.scoreBatch(dev, "hallucination"));
    expect(await both.scoreBatch(dev, "coverage")).toEqual(scores);
    await both.dispose();
    await plain.dispose();
    await expect(
      YesNoClassifier.fromPretrained(dir, { task: "hallucination", softPrompt: file }),
    ).rejects.toMatchObject({
      code: "INVALID_VALUE",
      path: "softPrompt",
    });
  }, 120_000);

  it("P(NO) from infinite logits: the infinite side wins instead of NaN", () => {
    expect(probabilityNo(Number.POSITIVE_INFINITY, 0)).toBe(0);
    expect(probabilityNo(0, Number.POSITIVE_INFINITY)).toBe(1);
    expect(probabilityNo(Number.NEGATIVE_INFINITY, 0)).toBe(1);
    expect(probabilityNo(Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY)).toBeNaN();
    expect(probabilityNo(1, 1)).toBe(0.5);
  });

  it("refuses malformed soft-prompt files with the file and problem", () => {
    const file = join(root, "bad.json");
    writeFileAtomic(
      file,
      JSON.stringify({ format: "npov-soft-prompt/1", length: 2, dim: 4, vectors: "AAAA", meta: {} }),
    );
    expect(() => loadSoftPrompt(file)).toThrow(FileFormatError);
    expect(() => loadSoftPrompt(file)).toThrow(/expected 32/);
  });
});

describe("guard and stacked classifier", () => {
  const kb = openKnowledgeBase("fixtures");
  const dev = buildDataset(kb, { split: "dev", seed: 1, slices: ["unparaphrased-synthetic"] });
  const test = buildDataset(kb, { split: "test", seed: 1, slices: ["unparaphrased-synthetic"] });

  it("calibrates thresholds on dev, flags errors with evidence that agrees with the verdict, deterministically", async () => {
    const detector = rougeErrorDetector();
    const calibration = await calibrateThresholds(dev, detector, { rule: { rule: "fpr", target: 0.1 } });
    expect(calibration.metrics.coverage.fpr).toBeLessThanOrEqual(0.1);
    const guard = createGuard({ detector, thresholds: calibration.thresholds });
    const coverage = test.find((e) => e.meta?.variant === "coverage")!;
    const verdict = await guard.check(coverage.input, coverage.response);
    expect(await guard.check(coverage.input, coverage.response)).toEqual(verdict);
    if (verdict.coverage.flagged) {
      expect(verdict.allow).toBe(false);
      const [k, j] = coverage.wordLabels!.uncoveredArguments![0]!;
      expect(verdict.coverage.evidence.uncoveredArguments[0]).toMatchObject({ perspective: k, argument: j });
    }
    for (const e of test) {
      const v = await guard.check(e.input, e.response);
      expect(v.allow).toBe(!v.hallucination.flagged && !v.coverage.flagged);
      expect(v.hallucination.flagged).toBe(v.hallucination.score >= v.hallucination.threshold);
      if (!v.coverage.flagged) expect(v.coverage.evidence.uncoveredArguments).toEqual([]);
      if (!v.hallucination.flagged) expect(v.hallucination.evidence.sentences).toEqual([]);
      for (const s of v.hallucination.evidence.sentences) expect(e.response.slice(s.start, s.end)).toBe(s.text);
    }
    const caught = test.filter((e) => e.labels?.coverage).length;
    let flagged = 0;
    for (const e of test.filter((x) => x.labels?.coverage))
      if ((await guard.check(e.input, e.response)).coverage.flagged) flagged++;
    expect(flagged / caught).toBeGreaterThan(0.8);
  });

  it("trains a stacked logistic regression over ROUGE features and saves it", async () => {
    const sources = [rougeErrorDetector()];
    const model = await trainStacked(sources, dev);
    expect(model.coverage.features).toContain("rouge.minArgumentRecall");
    const detector = stackedDetector(model, sources);
    const scores: number[] = [];
    for (const e of test) scores.push((await detector.detect(e.input, e.response)).coverage);
    expect(scores.every((s) => s > 0 && s < 1)).toBe(true);
    expect(
      rocAuc(
        scores,
        test.map((e) => e.labels!.coverage!),
      ),
    ).toBeGreaterThan(0.9);
    const file = join(root, "stacked.json");
    saveStacked(file, model);
    const again = stackedDetector(loadStacked(file), sources);
    expect((await again.detect(test[0]!.input, test[0]!.response)).coverage).toBe(scores[0]);
  });
});
