// bench/salience: seconds per example and peak memory of the salience token map against response
// length (25, 50, 100, 200 tokens) on a generated ~20M-parameter T5-like encoder-decoder (prompt 128
// tokens), next to the finite-difference baseline in the same run: one forward pass per input token
// (each embedding scaled by 1 + h; one pass gives every output token's loss), plus one unperturbed pass.
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  appendTokenLoss,
  cutAtTensor,
  encodeModel,
  findEmbeddingOutput,
  mergeEncoderDecoder,
  tensorData,
  writeTestModel,
} from "@npov/autograd";
import { SalienceDetector } from "@npov/salience";
import * as ort from "onnxruntime-node";
import { fmt } from "./lib.mjs";

const LENGTHS = [25, 50, 100, 200];
const PROMPT = 128;
const text = (n, seed) => Array.from({ length: n }, (_, i) => String.fromCharCode(97 + ((i * 7 + seed) % 26))).join("");

if (process.argv[2] === undefined) {
  const dir = mkdtempSync(join(tmpdir(), "npov-bench-salience-"));
  const info = writeTestModel(dir, "t5", { size: "bench", seed: 1 });
  console.log(
    `model: T5-like encoder-decoder, ${fmt(info.parameters / 1e6, 1)}M parameters; prompt ${PROMPT} tokens; chunk 8 output tokens per batched VJP`,
  );
  console.log("response tokens | salience s/example | peak RSS | finite differences s/example | FD / salience");
  for (const n of LENGTHS) {
    const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), String(n), dir], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    });
    if (r.status !== 0) process.exit(1);
    const x = JSON.parse(r.stdout.trim().split("\n").at(-1));
    console.log(
      `${String(x.l).padStart(15)} | ${fmt(x.salienceS, 2).padStart(18)} | ${fmt(x.rssMB).padStart(5)} MB | ${fmt(x.fdS, 2).padStart(28)} | ${fmt(x.fdS / x.salienceS, 2)}x`,
    );
  }
  process.exit(0);
}

const n = Number(process.argv[2]);
const dir = process.argv[3];
// Character-level tokenizer: n characters (no spaces) are n + 1 tokens with the metaspace marker.
const prompt = text(PROMPT - 2, 1);
const response = text(n - 1, 2);
const detector = await SalienceDetector.fromPretrained(dir, { chunkSize: 8 });
await detector.tokenMap("ab", "cd"); // build the gradient graph outside the timing
let t = performance.now();
const map = await detector.tokenMap(prompt, response);
const salienceS = (performance.now() - t) / 1000;
const rssMB = process.resourceUsage().maxRSS / 1024;

// Baseline: forward passes with one embedding scaled at a time.
const tok = detector.files.tokenizer;
const promptIds = tok.encode(prompt);
const responseIds = tok.encode(response, { add_special_tokens: false });
const m = promptIds.length;
const l = responseIds.length;
const merged = await appendTokenLoss(mergeEncoderDecoder(detector.files.encoder, detector.files.decoder));
const tableOf = (model, ids) => {
  const out = findEmbeddingOutput(model, ids);
  const node = model.graph.node.find((x) => x.output[0] === out);
  const init = model.graph.initializer.find((x) => x.name === node.input[0]);
  return { data: tensorData(init), dim: Number(init.dims[1]) };
};
const enc = tableOf(merged, "input_ids");
const dec = tableOf(merged, "decoder_input_ids");
let cut = await cutAtTensor(merged, findEmbeddingOutput(merged, "input_ids"), "inputs_embeds");
cut = await cutAtTensor(cut, findEmbeddingOutput(cut, "decoder_input_ids"), "decoder_inputs_embeds");
const session = await ort.InferenceSession.create(encodeModel(cut));
const i64 = (xs) => new ort.Tensor("int64", BigInt64Array.from(xs.map(BigInt)), [1, xs.length]);
const embed = (tb, ids) => {
  const out = new Float32Array(ids.length * tb.dim);
  ids.forEach((id, k) => {
    out.set(tb.data.subarray(id * tb.dim, (id + 1) * tb.dim), k * tb.dim);
  });
  return out;
};
const decIds = [0, ...responseIds.slice(0, -1)];
const encEmb = embed(enc, promptIds);
const decEmb = embed(dec, decIds);
const past = Object.fromEntries(
  session.inputNames
    .filter((x) => x.startsWith("past_"))
    .map((x) => [x, new ort.Tensor("float32", new Float32Array(0), [1, 5, 0, 64])]),
);
const feeds = (e, d) => ({
  input_ids: i64(promptIds),
  attention_mask: i64(promptIds.map(() => 1)),
  inputs_embeds: new ort.Tensor("float32", e, [1, m, enc.dim]),
  decoder_input_ids: i64(decIds),
  decoder_inputs_embeds: new ort.Tensor("float32", d, [1, l, dec.dim]),
  labels: i64(responseIds),
  label_mask: new ort.Tensor("float32", new Float32Array(l).fill(1), [1, l]),
  ...past,
});
t = performance.now();
await session.run(feeds(encEmb, decEmb), ["token_loss"]);
for (let i = 0; i < m + l - 1; i++) {
  const e = i < m ? Float32Array.from(encEmb) : encEmb;
  const d = i < m ? decEmb : Float32Array.from(decEmb);
  const [buf, row, dim] = i < m ? [e, i, enc.dim] : [d, i - m + 1, dec.dim];
  for (let k = 0; k < dim; k++) buf[row * dim + k] *= 1 + 1e-3;
  await session.run(feeds(e, d), ["token_loss"]);
}
const fdS = (performance.now() - t) / 1000;
void map;
console.log(JSON.stringify({ l, m, salienceS, fdS, rssMB }));
