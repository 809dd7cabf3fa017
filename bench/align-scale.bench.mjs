// bench/align-scale: CPU time of soft, align and support on the inputs issue 22 found cubic (a 10 KB
// response; 300 arguments), against the same checks forced to the padded O(n^3) matching they used before
// (a WorkMeter whose padded budget never runs out) in the same run; the time to refuse inputs beyond the
// limits; and the largest allowed inputs of real, varied text (Perspectrum arguments).

import { readFileSync } from "node:fs";
import { contentTerms, openKnowledgeBase } from "../packages/core/dist/index.js";
import { alignResponse, SoftMatcher, softRouge, supportResponse, WorkMeter } from "../packages/rouge/dist/index.js";
import { fmt, median } from "./lib.mjs";

const example = JSON.parse(readFileSync(new URL("../fixtures/examples/uniforms.json", import.meta.url), "utf8"));
let matcher = new SoftMatcher();

const longResponse = (chars) => {
  let text = example.response;
  while (text.length + example.response.length + 1 <= chars) text += ` ${example.response}`;
  return text;
};
const manyArguments = (n) => {
  const texts = example.input.perspectives.flatMap((p) => p.arguments.map((a) => a.text));
  const side = (offset) =>
    Array.from({ length: Math.ceil(n / 2) }, (_, i) => ({ text: `${texts[(i + offset) % texts.length]} number ${i}` }));
  return {
    ...example.input,
    perspectives: [
      { label: "pro", arguments: side(0) },
      { label: "con", arguments: side(1) },
    ],
  };
};

const checks = {
  soft: (input, response, meter) => softRouge(input, response, matcher, { meter }),
  align: (input, response, meter) => alignResponse(input, response, matcher, { meter }),
  support: (input, response, meter) => supportResponse(input, response, { limits: { meter } }),
};

/** CPU milliseconds of one check, its steps, and its scores (or the error code). */
function run(check, input, response, meter) {
  const start = process.cpuUsage();
  let out;
  try {
    const r = check(input, response, meter);
    out = { h: r.hallucination, c: r.coverage };
  } catch (e) {
    out = { error: e.code ?? String(e) };
  }
  const cpu = process.cpuUsage(start);
  return { ms: (cpu.user + cpu.system) / 1000, steps: meter.steps, ...out };
}

// Warm up: WordNet, the lexsim embedding and the support combiner load on first use.
for (const check of Object.values(checks)) check(example.input, example.response, new WorkMeter());

const cases = [
  ["10 KB response (990 content words, 99 sentences), 3 arguments", example.input, longResponse(10_000)],
  ["300 arguments, 45-word response (30 content words)", manyArguments(300), example.response],
];
console.log("case | method | now: CPU ms (median of 3), steps | padded as before: CPU ms, steps | ratio | same scores");
for (const [name, input, response] of cases)
  for (const [method, check] of Object.entries(checks)) {
    const now = [0, 1, 2].map(() => run(check, input, response, new WorkMeter()));
    const ms = median(now.map((r) => r.ms));
    // support's cubic parts were per-sentence filters, not its matching: no padded baseline to force.
    if (method === "support") {
      console.log(`${name} | ${method} | ${fmt(ms)} ms, ${fmt(now[0].steps)} steps | - | - | -`);
      continue;
    }
    const padded = run(
      check,
      input,
      response,
      new WorkMeter(Number.POSITIVE_INFINITY, "input", Number.POSITIVE_INFINITY),
    );
    const same = padded.h === now[0].h && padded.c === now[0].c;
    console.log(
      `${name} | ${method} | ${fmt(ms)} ms, ${fmt(now[0].steps)} steps | ${fmt(padded.ms)} ms, ${fmt(padded.steps)} steps | ${fmt(padded.ms / ms, 0)}x | ${same}`,
    );
  }

console.log("\nrefused at once (CPU ms to INPUT_TOO_LARGE, steps):");
for (const [name, input, response] of [
  ["1 MB response", example.input, longResponse(1_000_000)],
  ["10,000 arguments", manyArguments(10_000), example.response],
])
  for (const [method, check] of Object.entries(checks)) {
    const r = run(check, input, response, new WorkMeter());
    console.log(`${name} | ${method} | ${fmt(r.ms, 1)} ms | ${r.steps} steps | ${r.error}`);
  }

// The largest allowed inputs of varied text: every word pair distinct, so every pair is weighed afresh.
let kb;
try {
  kb = openKnowledgeBase("perspectrum");
} catch {
  console.log("\n(Perspectrum not found: skipping the varied-text cases)");
}
if (kb !== undefined) {
  const texts = kb.topics.flatMap((t) => t.perspectives.flatMap((p) => p.arguments.map((a) => a.text)));
  const varied = (chars, args) => {
    let response = "";
    let k = 0;
    while (response.length + texts[k].length + 1 <= chars) response += `${response ? " " : ""}${texts[k++]}`;
    const chosen = texts.slice(k, k + args).map((text) => ({ text }));
    const half = Math.ceil(args / 2);
    const input = {
      topic: "t",
      query: "q?",
      perspectives: [
        { label: "pro", arguments: chosen.slice(0, half) },
        { label: "con", arguments: chosen.slice(half) },
      ],
    };
    const pairs = contentTerms(response).length * chosen.reduce((s, a) => s + contentTerms(a.text).length, 0);
    return { input, response, pairs };
  };
  console.log("\nvaried text near the word-pair limit (CPU ms of one check, fresh pairs):");
  for (const [name, chars, args] of [
    ["16 KB response, 30 arguments", 16_500, 30],
    ["1 KB response, 600 arguments", 1_100, 600],
    ["49 KB response, 9 arguments", 49_000, 9],
  ]) {
    const { input, response, pairs } = varied(chars, args);
    matcher = new SoftMatcher(); // no word pair of this text weighed before
    for (const [method, check] of Object.entries(checks)) {
      const r = run(check, input, response, new WorkMeter());
      console.log(
        `${name} (${fmt(pairs)} word pairs) | ${method} | ${fmt(r.ms)} ms | ${fmt(r.steps)} steps${r.error ? ` | ${r.error}` : ""}`,
      );
    }
  }
}
