// bench/support: latency per example of the support detector (the default: word similarity, sentence and
// clause models, alignment, combiner) against the ROUGE detector in the same run, on three shapes: chatbot-style
// NPOV answers, short answers (one-sentence, QA, dialogue) against small sources, and answers against long
// noisy sources (up to 80 sentence units in 1-4 documents). p50 and p95 per example; cold start (loading
// WordNet, the 147K-lemma embedding and the models) apart.

import { openKnowledgeBase, sourceUnits } from "../packages/core/dist/index.js";
import { rougeErrorDetector, supportErrorDetector } from "../packages/rouge/dist/index.js";
import { buildChatbotDataset, buildShapeDataset } from "../packages/synth/dist/index.js";
import { fmt, median, percentile } from "./lib.mjs";

const kb = openKnowledgeBase("perspectrum");
const test = kb.split("test");
const shapes = buildShapeDataset(test, {
  seed: 0,
  perTopic: 1,
  shapes: ["one-sentence", "qa", "dialogue", "long-source"],
});
const sets = {
  "NPOV answers (chatbot-style)": buildChatbotDataset(test.slice(0, 60), { seed: 0, perTopic: 1 }).slice(0, 200),
  "short answers (1-3 sentences)": shapes.filter((e) => e.meta?.shape !== "long-source").slice(0, 200),
  "long sources (<= 80 units)": shapes.filter((e) => e.meta?.shape === "long-source").slice(0, 200),
};
const units = (e) => sourceUnits(e.input).reduce((n, u) => n + u.length, 0);

const detectors = [
  ["rouge", rougeErrorDetector()],
  ["support", supportErrorDetector()],
];
const cold = {};
for (const [name, d] of detectors) {
  const t = performance.now();
  d.detect(sets["NPOV answers (chatbot-style)"][0].input, sets["NPOV answers (chatbot-style)"][0].response);
  cold[name] = performance.now() - t;
}

// Every example once per round (the first warms the memo caches, as a long-running service is), three rounds,
// median of the rounds' p50 and p95.
for (const [set, examples] of Object.entries(sets)) {
  const sizes = examples.filter((e) => e.input.sources !== undefined).map(units);
  const words = examples.map((e) => e.response.split(/\s+/).length);
  console.log(
    `${set}: ${examples.length} examples, response ${fmt(median(words), 0)} words (median)${sizes.length > 0 ? `, sources ${fmt(median(sizes), 0)} units (median), max ${Math.max(...sizes)}` : ""}`,
  );
  const results = {};
  for (const [name, d] of detectors) {
    const p50 = [];
    const p95 = [];
    for (let round = 0; round < 3; round++) {
      const times = examples.map((e) => {
        const t = performance.now();
        d.detect(e.input, e.response);
        return performance.now() - t;
      });
      p50.push(percentile(times, 50));
      p95.push(percentile(times, 95));
    }
    results[name] = { p50: median(p50), p95: median(p95) };
    console.log(
      `  ${name.padEnd(8)}: p50 ${fmt(results[name].p50, 2)} ms, p95 ${fmt(results[name].p95, 2)} ms per example`,
    );
  }
  console.log(
    `  support / rouge: p50 ${fmt(results.support.p50 / results.rouge.p50, 1)}x, p95 ${fmt(results.support.p95 / results.rouge.p95, 1)}x`,
  );
}
for (const [name] of detectors) console.log(`cold start ${name}: ${fmt(cold[name])} ms`);
