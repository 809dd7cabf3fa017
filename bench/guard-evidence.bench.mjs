// bench/guard-evidence: wall time of a guard check (rouge detector, thresholds 0 so the response is flagged
// and the evidence is built) against the detector alone, on responses of 1, 2 and 4 MB. The evidence step
// ranks the response's sentences by their unsupported words; it was quadratic (every word scanned for each
// sentence). Usage: node bench/guard-evidence.bench.mjs [MB ...]
import { readFileSync } from "node:fs";
import { createGuard } from "../packages/classifier/dist/index.js";
import { rougeErrorDetector } from "../packages/rouge/dist/index.js";
import { fmt } from "./lib.mjs";

const example = JSON.parse(readFileSync(new URL("../fixtures/examples/uniforms.json", import.meta.url), "utf8"));
// Sentences with supported and unsupported words, so every sentence gets evidence.
const sentences = [
  "Supporters say uniforms reduce visible differences in family income between students.",
  "Critics answer that mandatory uniforms limit how students express who they are.",
  "Some add that uniforms improve school safety and punctuality in every district.",
  "A dress code saves parents time and money on school clothing, others note.",
];
function response(bytes) {
  const parts = [];
  let length = 0;
  for (let i = 0; length < bytes; i++) {
    const s = sentences[i % sentences.length];
    parts.push(s);
    length += s.length + 1;
  }
  return parts.join(" ");
}

const detector = rougeErrorDetector();
const guard = createGuard({ detector, thresholds: { hallucination: 0, coverage: 0 } });
const sizes = process.argv
  .slice(2)
  .map(Number)
  .filter((x) => x > 0);
console.log("| response | sentences | detector alone | guard check (with evidence) |");
console.log("| --- | --- | --- | --- |");
for (const mb of sizes.length > 0 ? sizes : [1, 2, 4]) {
  const text = response(mb * 1_000_000);
  let t = performance.now();
  await detector.detect(example.input, text);
  const alone = (performance.now() - t) / 1000;
  t = performance.now();
  const verdict = await guard.check(example.input, text);
  const checked = (performance.now() - t) / 1000;
  if (verdict.allow || verdict.hallucination.evidence.sentences.length === 0)
    throw new Error("the guard must flag the response and give sentence evidence");
  console.log(`| ${mb} MB | ${fmt(text.split(". ").length)} | ${fmt(alone, 1)} s | ${fmt(checked, 1)} s |`);
}
