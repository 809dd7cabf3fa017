// bench/rouge: examples per second of the ROUGE detector on ~100-word responses, against js-rouge
// configured to the same ROUGE-1 (same tokenizer; precision against all arguments via beta = 0, recall
// per perspective via beta = Infinity) in the same run.

import { n as jsRougeN } from "js-rouge";
import { contentTerms, createRng, openKnowledgeBase, sampleInput } from "../packages/core/dist/index.js";
import { rougeDetector } from "../packages/rouge/dist/index.js";
import { fmt, median, opsPerSecond } from "./lib.mjs";

const kb = openKnowledgeBase("fixtures");
const rng = createRng(2024);
const filler =
  "people often argue that this matters because many studies and experts in the field suggest otherwise while others disagree".split(
    " ",
  );
const examples = [];
for (let i = 0; i < 3000; i++) {
  const topic = kb.topics[i % kb.topics.length];
  const input = sampleInput(topic, { seed: i });
  const parts = [];
  for (const p of input.perspectives) for (const a of p.arguments) parts.push(a.text);
  let words = parts.join(" ").split(" ");
  while (words.length < 100) words.push(rng.pick(filler));
  words = words.slice(0, 110);
  examples.push({ input, response: words.join(" ") });
}
const meanWords = examples.reduce((s, e) => s + e.response.split(" ").length, 0) / examples.length;

const tokenizer = (text) => contentTerms(text).map((t) => t.term);
function jsRougeDetector(input, response) {
  const all = input.perspectives.flatMap((p) => p.arguments.map((a) => a.text)).join(" ");
  const precision = jsRougeN(response, all, { n: 1, beta: 0, tokenizer });
  let recall = 1;
  for (const p of input.perspectives) {
    const r = jsRougeN(response, p.arguments.map((a) => a.text).join(" "), {
      n: 1,
      beta: Number.POSITIVE_INFINITY,
      tokenizer,
    });
    recall = Math.min(recall, r);
  }
  return { hallucination: 1 - precision, coverage: 1 - recall };
}

// Same numbers from both (checked on every example), so the comparison is like for like.
let maxDiff = 0;
for (const e of examples) {
  const a = rougeDetector(e.input, e.response);
  const b = jsRougeDetector(e.input, e.response);
  maxDiff = Math.max(maxDiff, Math.abs(a.hallucination - b.hallucination), Math.abs(a.coverage - b.coverage));
}

let k = 0;
const runOurs = () => {
  const e = examples[k++ % examples.length];
  rougeDetector(e.input, e.response);
  return 1;
};
const runTheirs = () => {
  const e = examples[k++ % examples.length];
  jsRougeDetector(e.input, e.response);
  return 1;
};
const ours = [];
const theirs = [];
for (let round = 0; round < 3; round++) {
  ours.push(opsPerSecond(runOurs));
  theirs.push(opsPerSecond(runTheirs));
}
const o = median(ours);
const t = median(theirs);
console.log(
  `examples: ${examples.length}, mean response length ${fmt(meanWords, 1)} words; max |score difference| vs js-rouge: ${maxDiff.toExponential(2)}`,
);
console.log(`@npov/rouge rougeDetector : ${fmt(o)} examples/s (median of 3 rounds, one core)`);
console.log(`js-rouge (same ROUGE-1)   : ${fmt(t)} examples/s`);
console.log(`ratio npov / js-rouge     : ${fmt(o / t, 2)}x`);
console.log(`target >= 20,000 examples/s: ${o >= 20000 ? "met" : "NOT met"}`);
