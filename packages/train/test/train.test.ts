import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bpeModelTokenizerJson, loadModel, trainBpe } from "@npov/autograd";
import { openKnowledgeBase, writeFileAtomic } from "@npov/core";
import { buildDataset } from "@npov/synth";
import { classifierPairs, generatorPairs, Seq2SeqTrainer, T5_SIZES } from "@npov/train";
import { describe, expect, it } from "vitest";

const kb = openKnowledgeBase("fixtures");
const train = generatorPairs([kb], "train", { perTopic: 2, seed: 1 });
const dev = generatorPairs([kb], "dev", { perTopic: 1, seed: 1 });

function workDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "npov-train-"));
  const model = trainBpe(
    train.flatMap((p) => [p.source, p.target]),
    { vocabSize: 300 },
  );
  writeFileAtomic(join(dir, "tokenizer.json"), JSON.stringify(bpeModelTokenizerJson(model)));
  writeFileAtomic(join(dir, "tokenizer_config.json"), JSON.stringify({ tokenizer_class: "T5Tokenizer" }));
  return dir;
}

describe("training data", () => {
  it("generator pairs pair Figure 3 prompts with opening/core targets, train topics only", () => {
    expect(train.length).toBe(6 * 2 * 2);
    for (const p of train) {
      expect(p.source).toMatch(/^User question: \{.*\} Neutral response opening: \{$/);
      expect(p.target).toMatch(/^.+\} Neutral response core: \{.+\}$/);
      expect(kb.get(p.topicId!).split).toBe("train");
    }
  });

  it("classifier pairs target YES} without an error and NO} with one", () => {
    const examples = buildDataset(kb, { split: "train", seed: 1, slices: ["unparaphrased-synthetic"] });
    const pairs = classifierPairs(examples);
    expect(pairs.length).toBe(examples.length * 2);
    for (const p of pairs) expect(p.target).toBe(p.error ? "NO}" : "YES}");
  });
});

describe("Seq2SeqTrainer", () => {
  it("drives the loss down and resumes bit for bit", async () => {
    const options = { steps: 40, batchSize: 4, lr: 3e-3, warmupSteps: 5, checkpointEvery: 20, evalEvery: 20, seed: 3 };
    const straight = await Seq2SeqTrainer.open(workDir(), T5_SIZES.tiny, options);
    await straight.train(train, dev);
    const history = straight.history();
    expect(history.map((h) => h.step)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    expect(mean(history.slice(-5).map((h) => h.loss))).toBeLessThan(mean(history.slice(0, 5).map((h) => h.loss)));
    expect(history.at(-1)?.devLoss).toBeLessThan(history.find((h) => h.devLoss !== undefined)!.devLoss! + 1e-9);

    const dir = workDir();
    // Interrupted after 20 of 40 steps, then reopened from the checkpoint and continued.
    const partial = await Seq2SeqTrainer.open(dir, T5_SIZES.tiny, options);
    await partial.train(train, dev, undefined, 20);
    const resumed = await Seq2SeqTrainer.open(dir, T5_SIZES.tiny, options);
    expect(resumed.step).toBe(20);
    await resumed.train(train, dev);
    for (const [name, p] of straight.params) expect(Array.from(resumed.params.get(name)!), name).toEqual(Array.from(p));

    const out = join(dir, "export");
    resumed.exportModel(out);
    for (const f of ["config.json", "tokenizer.json", "onnx/encoder_model.onnx", "onnx/decoder_model_merged.onnx"])
      expect(existsSync(join(out, f))).toBe(true);
    expect(
      loadModel(join(out, "onnx/encoder_model.onnx")).graph?.initializer?.some((t) => t.name === "shared.weight"),
    ).toBe(true);
  }, 120_000);
});
