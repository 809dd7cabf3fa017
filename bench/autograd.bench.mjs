// bench/autograd: forward vs forward+backward time and peak memory on a generated ~20M-parameter
// T5-like encoder-decoder (encoder and decoder merged into one graph, token loss appended).
// Each mode runs in its own process so peak RSS is per mode. Target (issue 6): backward <= 3x forward.
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import * as ort from "onnxruntime-node";
import {
  appendTokenLoss,
  cutAtTensor,
  encodeModel,
  findEmbeddingOutput,
  GradientSession,
  initializersToInputs,
  loadModel,
  mergeEncoderDecoder,
  writeTestModel,
} from "../packages/autograd/dist/index.js";
import { fmt, median } from "./lib.mjs";

const SRC = 128;
const TGT = 64;
const RUNS = 5;
const mode = process.argv[2];

if (mode === undefined) {
  const dir = mkdtempSync(join(tmpdir(), "npov-bench-autograd-"));
  const info = writeTestModel(dir, "t5", { size: "bench", seed: 1 });
  console.log(
    `model: T5-like encoder-decoder, ${fmt(info.parameters / 1e6, 1)}M parameters; batch 1, source ${SRC} tokens, target ${TGT}; median of ${RUNS} runs after a warm-up`,
  );
  const results = {};
  for (const m of ["forward", "backward-embeds", "backward-weights"]) {
    const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), m, dir], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    });
    if (r.status !== 0) process.exit(1);
    results[m] = JSON.parse(r.stdout.trim().split("\n").at(-1));
  }
  const f = results.forward;
  console.log(`forward                          : ${fmt(f.ms, 1)} ms, peak RSS ${fmt(f.rssMB)} MB`);
  for (const [m, label] of [
    ["backward-embeds", "forward+backward wrt inputs_embeds"],
    ["backward-weights", "forward+backward wrt all weights "],
  ]) {
    const r = results[m];
    console.log(
      `${label} : ${fmt(r.ms, 1)} ms, peak RSS ${fmt(r.rssMB)} MB; time ratio ${fmt(r.ms / f.ms, 2)}x, memory ratio ${fmt(r.rssMB / f.rssMB, 2)}x (graph build ${fmt(r.buildMs)} ms, once)`,
    );
  }
  // The target reads "backward costs <= 3x forward": backward alone = (forward+backward) - forward.
  for (const m of ["backward-embeds", "backward-weights"]) {
    const backward = (results[m].ms - f.ms) / f.ms;
    console.log(
      `${m}: backward alone ${fmt(backward, 2)}x forward -> target <= 3x ${backward <= 3 ? "met" : "NOT met"}`,
    );
  }
  process.exit(0);
}

const dir = process.argv[3];
const merged = mergeEncoderDecoder(
  loadModel(join(dir, "onnx/encoder_model.onnx")),
  loadModel(join(dir, "onnx/decoder_model.onnx")),
);
const config = JSON.parse((await import("node:fs")).readFileSync(join(dir, "config.json"), "utf8"));
const i64 = (xs, dims) => new ort.Tensor("int64", BigInt64Array.from(xs.map(BigInt)), dims);
const ids = (n, seed) => Array.from({ length: n }, (_, i) => 4 + ((i * 7919 + seed) % (config.vocab_size - 4)));
const feeds = {
  input_ids: i64(ids(SRC, 1), [1, SRC]),
  attention_mask: i64(new Array(SRC).fill(1), [1, SRC]),
  decoder_input_ids: i64(ids(TGT, 2), [1, TGT]),
  labels: i64(ids(TGT, 3), [1, TGT]),
  label_mask: new ort.Tensor("float32", new Float32Array(TGT).fill(1), [1, TGT]),
};
for (let i = 0; i < config.num_decoder_layers; i++)
  for (const kv of ["key", "value"])
    feeds[`past_key_values.${i}.decoder.${kv}`] = new ort.Tensor("float32", new Float32Array(0), [
      1,
      config.num_heads,
      0,
      config.d_kv,
    ]);
let model = await appendTokenLoss(merged, { feeds });

const time = async (fn) => {
  await fn();
  const ms = [];
  for (let r = 0; r < RUNS; r++) {
    const t = performance.now();
    await fn();
    ms.push(performance.now() - t);
  }
  return median(ms);
};

let result;
if (mode === "forward") {
  const session = await ort.InferenceSession.create(encodeModel(model));
  const ms = await time(() => session.run(feeds, ["token_loss"]));
  result = { ms, buildMs: 0 };
} else if (mode === "backward-embeds") {
  const embed = findEmbeddingOutput(model, "input_ids");
  const embedTable = model.graph.initializer.find((t) => t.name === "shared.weight");
  model = await cutAtTensor(model, embed, "inputs_embeds", feeds);
  const d = config.d_model;
  const embeds = new ort.Tensor(
    "float32",
    Float32Array.from({ length: SRC * d }, (_, i) => Math.sin(i) * 0.1),
    [1, SRC, d],
  );
  const t = performance.now();
  const session = await GradientSession.create(model, {
    of: "token_loss",
    wrt: ["inputs_embeds"],
    seed: "ones",
    feeds: { ...feeds, inputs_embeds: embeds },
  });
  const buildMs = performance.now() - t;
  void embedTable;
  const ms = await time(() => session.run({ ...feeds, inputs_embeds: embeds }, { outputs: ["token_loss"] }));
  result = { ms, buildMs };
} else {
  const names = model.graph.initializer
    .filter((t) => t.dataType === 1 && t.dims.length >= 1 && /weight/.test(t.name))
    .map((t) => t.name);
  const { model: trainable, values } = initializersToInputs(model, names);
  const weights = Object.fromEntries([...values].map(([n, v]) => [n, new ort.Tensor("float32", v.data, v.dims)]));
  const t = performance.now();
  const session = await GradientSession.create(trainable, {
    of: "token_loss",
    wrt: names,
    seed: "ones",
    feeds: { ...feeds, ...weights },
  });
  const buildMs = performance.now() - t;
  const ms = await time(() => session.run({ ...feeds, ...weights }, { outputs: ["token_loss"] }));
  result = { ms, buildMs };
}
result.rssMB = process.resourceUsage().maxRSS / 1024;
console.log(JSON.stringify(result));
