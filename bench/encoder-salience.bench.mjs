// bench/encoder-salience: encoder salience (one forward + one backward pass of the entailment logit per
// premise/hypothesis pair) on the sequence classifiers of ../shared/models/encoder-zoo, against one forward
// pass of the ORIGINAL exported file in onnxruntime-node on the same token ids. Pairs: the arguments of
// fixtures/examples/uniforms.json as the premise (as `EncoderSalience.scoreInput` builds it) and each
// sentence of its response as the hypothesis. Times are minima of ROUNDS rounds over the pairs after a
// warm-up (the machine is shared: minima are the least disturbed); the first `score` (gradient graph and session) is reported apart as "build". The zoo's weights
// are random and its hidden size 32: the figures measure graph structure and per-op overhead, not the
// matrix products of real NLI models (a DeBERTa-v3-base has 184M parameters, these ~100k).
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { EncoderSalience } from "@npov/salience";
import * as ort from "onnxruntime-node";
import { fmt, median } from "./lib.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const ZOO = join(here, "..", "..", "shared", "models", "encoder-zoo");
const EXAMPLE = JSON.parse(readFileSync(join(here, "..", "fixtures", "examples", "uniforms.json"), "utf8"));
const MODELS = [
  ["optimum-bert", "fp32"],
  ["optimum-bert", "q8"],
  ["optimum-distilbert", "fp32"],
  ["optimum-deberta-v2", "fp32"],
  ["optimum-deberta-v2", "q4"],
];
const ROUNDS = 7;
const SUFFIX = { fp32: "", q8: "_quantized", q4: "_q4" };

const premise = EXAMPLE.input.perspectives.flatMap((p) => p.arguments.map((a) => a.text)).join(" ");
const hypotheses = EXAMPLE.response.match(/[^.!?]+[.!?]/g).map((s) => s.trim());

console.log(
  `pairs: premise = the ${EXAMPLE.input.perspectives.flatMap((p) => p.arguments).length} arguments of fixtures/examples/uniforms.json, hypothesis = each of its ${hypotheses.length} response sentences; minima of ${ROUNDS} rounds; intra-op threads 1`,
);
console.log(
  "| model | dtype | tokens per pair | load s | build s | salience ms/pair | pairs/s | forward ms/pair (original file) | salience / forward |",
);
console.log("|---|---|--:|--:|--:|--:|--:|--:|--:|");
for (const [folder, dtype] of MODELS) {
  const dir = join(ZOO, folder);
  let t = performance.now();
  const salience = await EncoderSalience.fromPretrained(dir, { dtype });
  const loadS = (performance.now() - t) / 1000;
  t = performance.now();
  await salience.score(premise, hypotheses[0]);
  const buildS = (performance.now() - t) / 1000;
  const encoded = hypotheses.map((h) => salience.encode(premise, h));
  const session = await ort.InferenceSession.create(join(dir, "onnx", `model${SUFFIX[dtype]}.onnx`), {
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    logSeverityLevel: 4,
  });
  const feeds = ({ ids, types }) => {
    const n = ids.length;
    const int64 = (v) => new ort.Tensor("int64", BigInt64Array.from(v, BigInt), [1, n]);
    const all = {
      input_ids: int64(ids),
      attention_mask: int64(ids.map(() => 1)),
      token_type_ids: int64(types ?? ids.map(() => 0)),
    };
    return Object.fromEntries(session.inputNames.map((name) => [name, all[name]]));
  };
  for (const e of encoded) await session.run(feeds(e)); // warm-up
  const salienceMs = [];
  const forwardMs = [];
  for (let round = 0; round < ROUNDS; round++) {
    t = performance.now();
    for (const h of hypotheses) await salience.score(premise, h);
    salienceMs.push((performance.now() - t) / hypotheses.length);
    t = performance.now();
    for (const e of encoded) await session.run(feeds(e));
    forwardMs.push((performance.now() - t) / encoded.length);
  }
  const tokens = median(encoded.map((e) => e.ids.length));
  const s = Math.min(...salienceMs);
  const f = Math.min(...forwardMs);
  console.log(
    `| ${folder} | ${dtype} | ${tokens} | ${fmt(loadS, 2)} | ${fmt(buildS, 2)} | ${fmt(s, 2)} | ${fmt(1000 / s, 0)} | ${fmt(f, 3)} | ${fmt(s / f, 1)}x |`,
  );
  await session.release();
  await salience.dispose();
}
