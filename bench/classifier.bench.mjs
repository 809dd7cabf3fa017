// bench/classifier: single-example guard checks (latency p50/p95, examples/s) with the YES/NO classifier
// on a generated ~20M-parameter T5-like model, and batched classifier throughput; the ROUGE guard is the
// baseline in the same run.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeTestModel } from "@npov/autograd";
import { createGuard, YesNoClassifier } from "@npov/classifier";
import { openKnowledgeBase } from "@npov/core";
import { rougeErrorDetector } from "@npov/rouge";
import { buildDataset } from "@npov/synth";
import { fmt, percentile } from "./lib.mjs";

const dir = mkdtempSync(join(tmpdir(), "npov-bench-classifier-"));
const info = writeTestModel(dir, "t5", { size: "bench", seed: 1 });
const examples = buildDataset(openKnowledgeBase("fixtures"), {
  split: "test",
  seed: 0,
  slices: ["unparaphrased-synthetic"],
}).slice(0, 40);
const classifier = await YesNoClassifier.fromPretrained(dir, { task: "both", batchSize: 8 });
const thresholds = { hallucination: 0.5, coverage: 0.5 };

async function latencies(guard, runs) {
  await guard.check(examples[0].input, examples[0].response);
  const ms = [];
  for (let i = 0; i < runs; i++) {
    const e = examples[i % examples.length];
    const t = performance.now();
    await guard.check(e.input, e.response);
    ms.push(performance.now() - t);
  }
  return ms;
}

const classifierMs = await latencies(createGuard({ detector: classifier, thresholds }), 40);
const rougeMs = await latencies(createGuard({ detector: rougeErrorDetector(), thresholds }), 2000);
const t = performance.now();
await classifier.scoreBatch(examples, "coverage");
await classifier.scoreBatch(examples, "hallucination");
const batchedPerSecond = examples.length / ((performance.now() - t) / 1000);
const chars = examples.reduce((a, e) => a + e.response.length, 0) / examples.length;
const sum = (xs) => xs.reduce((a, b) => a + b, 0);
console.log(
  `model: T5-like encoder-decoder, ${fmt(info.parameters / 1e6, 1)}M parameters, character-level tokenizer (Figure 4 prompts ~${fmt(chars + 350)} tokens); ${examples.length} fixture test examples`,
);
console.log(
  `classifier guard (both tasks), one example per check: p50 ${fmt(percentile(classifierMs, 50), 1)} ms, p95 ${fmt(percentile(classifierMs, 95), 1)} ms, ${fmt((classifierMs.length / sum(classifierMs)) * 1000, 1)} examples/s`,
);
console.log(`classifier, batched (8 per run, both tasks): ${fmt(batchedPerSecond, 1)} examples/s`);
console.log(
  `ROUGE guard (baseline), one example per check: p50 ${fmt(percentile(rougeMs, 50), 3)} ms, p95 ${fmt(percentile(rougeMs, 95), 3)} ms, ${fmt((rougeMs.length / sum(rougeMs)) * 1000)} examples/s`,
);
console.log(`ratio classifier / ROUGE p50 latency: ${fmt(percentile(classifierMs, 50) / percentile(rougeMs, 50))}x`);
await classifier.dispose();
