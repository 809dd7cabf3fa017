// bench/support: latency per example of the support detector (roles, specificity, lexsim word similarity,
// sentence/argument alignment, learned combiner) against the ROUGE detector, on the same chatbot-style
// responses in the same run. Cold start (loading WordNet, the 147K-lemma embedding and the models) is
// reported apart from the per-example figures.

import { openKnowledgeBase } from "../packages/core/dist/index.js";
import {
  alignErrorDetector,
  rougeErrorDetector,
  SoftMatcher,
  supportErrorDetector,
} from "../packages/rouge/dist/index.js";
import { buildChatbotDataset } from "../packages/synth/dist/index.js";
import { fmt, median, percentile } from "./lib.mjs";

const kb = openKnowledgeBase("perspectrum");
const examples = buildChatbotDataset(kb.split("test").slice(0, 60), { seed: 0, perTopic: 1 }).slice(0, 300);
const meanWords = examples.reduce((s, e) => s + e.response.split(/\s+/).length, 0) / examples.length;

const detectors = [
  ["rouge", rougeErrorDetector()],
  // Support first, so its cold start includes loading WordNet (shared with align) and the embedding.
  ["support", supportErrorDetector()],
  ["align (soft matcher, no vectors)", alignErrorDetector(new SoftMatcher())],
];

// Cold start: the first call of each detector loads what it needs.
const cold = {};
for (const [name, d] of detectors) {
  const t = performance.now();
  d.detect(examples[0].input, examples[0].response);
  cold[name] = performance.now() - t;
}

// Per-example latency: every example once per round (the first round warms the memo caches like a
// long-running service would), three rounds, median of the rounds' p50 and p90.
const results = {};
for (const [name, d] of detectors) {
  const p50 = [];
  const p90 = [];
  for (let round = 0; round < 3; round++) {
    const times = examples.map((e) => {
      const t = performance.now();
      d.detect(e.input, e.response);
      return performance.now() - t;
    });
    p50.push(percentile(times, 50));
    p90.push(percentile(times, 90));
  }
  results[name] = { p50: median(p50), p90: median(p90) };
}

console.log(
  `examples: ${examples.length} chatbot-style responses (Perspectrum test topics), mean ${fmt(meanWords, 1)} words`,
);
for (const [name] of detectors)
  console.log(
    `${name.padEnd(34)}: p50 ${fmt(results[name].p50, 2)} ms, p90 ${fmt(results[name].p90, 2)} ms per example; cold start ${fmt(cold[name])} ms`,
  );
console.log(`support / rouge (p50): ${fmt(results.support.p50 / results.rouge.p50, 1)}x`);
