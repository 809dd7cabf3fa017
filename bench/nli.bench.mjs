// bench/nli: the nli detector on the encoder zoo (../shared/models/encoder-zoo: tiny random-weight BERT,
// DistilBERT and DeBERTa-v2 NLI classifiers, hidden size 32, 2 layers, 128-token context). Two figures per
// model and dtype: pair throughput (pairs/s: 96 distinct premise-hypothesis pairs -- 12 response sentences x 8
// arguments -- through NliModel.scorePairs, batch size 16, and one pair per run) and the p50/p90 time of one
// check (NliDetector.score) of a 12-sentence response against 8 arguments (2 perspectives x 4), which asks for
// 316 pairs. The pair cache is off (cache: 0), so every run reaches the model. One onnxruntime intra-op
// thread (the machine is shared: a thread pool's figures swing more). The zoo's models are tiny: the cost is tokenization, padding and per-op overhead, not the
// matrix products of a real NLI model (hidden sizes of 384 and up).
// Usage: node bench/nli.bench.mjs [model:dtype ...] -- a zoo folder name, or the path of any NLI model folder
// (e.g. node bench/nli.bench.mjs ./models/nli-deberta-v3-xsmall:q8 to measure a downloaded model).
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { NliDetector, NliModel } from "@npov/nli";
import { fmt, percentile } from "./lib.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const ZOO = join(here, "..", "..", "shared", "models", "encoder-zoo");
const DEFAULT_RUNS = ["optimum-bert", "optimum-distilbert", "optimum-deberta-v2"].flatMap((f) =>
  ["fp32", "fp16", "q8", "q4"].map((d) => `${f}:${d}`),
);
const CHECKS = 12;
const ONE_THREAD = { intraOpNumThreads: 1, interOpNumThreads: 1 };
const PAIR_RUNS = 5;

const input = {
  topic: "school uniforms",
  query: "Should public schools require students to wear uniforms?",
  perspectives: [
    {
      label: "pro",
      arguments: [
        "Uniforms reduce bullying over expensive or unfashionable clothing.",
        "A dress code saves parents time and money on school clothes.",
        "Uniforms build a sense of belonging and school identity.",
        "Students focus on learning when clothing is not a competition.",
      ],
    },
    {
      label: "con",
      arguments: [
        "Mandatory uniforms limit how students express their identity.",
        "Uniforms are an extra cost for low-income families.",
        "There is little evidence that uniforms improve grades or behaviour.",
        "Enforcing dress codes takes teachers' time away from teaching.",
      ],
    },
  ],
};
const response = [
  "Whether schools should require uniforms is a question parents and educators answer differently.",
  "Supporters say uniforms take clothing off the list of things children tease each other about.",
  "They add that families spend less when every school day calls for the same outfit.",
  "A shared uniform can also make pupils feel part of one community.",
  "Some teachers report that classes are calmer when nobody competes over brands.",
  "Opponents see things differently.",
  "They argue that clothing is one of the few ways young people can show who they are.",
  "Buying a full set of uniform items can strain the budgets of poorer households.",
  "Critics also point out that studies find no clear link between uniforms and better grades.",
  "Checking every student's outfit, they say, turns teachers into dress-code enforcers.",
  "Both sides care about a good learning environment.",
  "In the end, the answer depends on what a community values most.",
].join(" ");

/** One model and dtype: load, pair throughput (batched and one by one), per-check times. */
async function measure(folder, dtype) {
  const dir = folder.includes("/") ? folder : join(ZOO, folder);
  const t0 = performance.now();
  const model = await NliModel.fromPretrained(dir, { dtype, cache: 0, sessionOptions: ONE_THREAD });
  const loadS = (performance.now() - t0) / 1000;
  const sentences = response.match(/[^.]+\./g).map((s) => s.trim());
  const args = input.perspectives.flatMap((p) => p.arguments);
  const pairs = sentences.flatMap((hypothesis) => args.map((premise) => ({ premise, hypothesis })));
  const throughput = async (m) => {
    await m.scorePairs(pairs.slice(0, 16));
    const rates = [];
    for (let i = 0; i < PAIR_RUNS; i++) {
      const t = performance.now();
      await m.scorePairs(pairs);
      rates.push(pairs.length / ((performance.now() - t) / 1000));
    }
    return percentile(rates, 50);
  };
  const batched = await throughput(model);
  const single = await NliModel.fromPretrained(dir, { dtype, cache: 0, batchSize: 1, sessionOptions: ONE_THREAD });
  const oneByOne = await throughput(single);
  await single.dispose();
  const detector = new NliDetector(model);
  const first = await detector.score(input, response);
  const ms = [];
  for (let i = 0; i < CHECKS; i++) {
    const t = performance.now();
    await detector.score(input, response);
    ms.push(performance.now() - t);
  }
  await detector.dispose();
  return {
    loadS,
    batchSize: model.effectiveBatchSize,
    batched,
    oneByOne,
    p50: percentile(ms, 50),
    p90: percentile(ms, 90),
    pairs: first.pairs.total,
    truncated: first.pairs.truncated,
  };
}

const runs = process.argv.slice(2).length > 0 ? process.argv.slice(2) : DEFAULT_RUNS;
console.log(
  `input: 12-sentence response (${response.split(/\s+/).length} words) against 8 arguments (2 perspectives x 4); pair throughput over ${12 * 8} distinct pairs (median of ${PAIR_RUNS}); check times over ${CHECKS} checks after a warm-up; pair cache off; 1 intra-op thread`,
);
console.log(
  "| model | dtype | load s | batch | pairs/s (batched) | pairs/s (one by one) | pairs per check (cut to 128 tokens) | check p50 ms | check p90 ms |",
);
console.log("|---|---|--:|--:|--:|--:|--:|--:|--:|");
for (const run of runs) {
  const at = run.lastIndexOf(":");
  const [folder, dtype] = [run.slice(0, at), run.slice(at + 1)];
  const x = await measure(folder, dtype);
  console.log(
    `| ${folder} | ${dtype} | ${fmt(x.loadS, 2)} | ${x.batchSize} | ${fmt(x.batched)} | ${fmt(x.oneByOne)} | ${x.pairs} (${x.truncated}) | ${fmt(x.p50, 1)} | ${fmt(x.p90, 1)} |`,
  );
}
