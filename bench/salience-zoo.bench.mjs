// bench/salience-zoo: salience (batched fwd+bwd VJPs) on the exported models of ../shared/models/zoo -- one
// per exporter family plus quantized variants -- against the forward pass alone in the same run, twice: the
// normalised differentiable graph salience runs (fwd only, batch 1, fetching token_loss) and the ORIGINAL
// exported file(s) run directly in onnxruntime-node (one forward pass with an empty past). Input: the
// Figure-3 generator prompt of fixtures/examples/uniforms.json; response: the fixture response cut at a
// word boundary to at most RESPONSE_TOKENS tokens of the model's tokenizer. A model whose position table
// (RoPE cache, position embeddings) is shorter than prompt + RESPONSE_TOKENS is first run on that input (to
// record what npov does), then measured on the input with one argument per perspective and the response cut
// to fit. Every model twice, with onnxruntime's default intra-op thread pool and with one thread in every
// session (the detector's too), each in its own process (peak RSS per run). The zoo's weights are random and
// its hidden sizes 16-64, so the cost is that of the sequence-squared attention tensors and of per-op
// overhead, not the FLOPs of real models' matrix products.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { embeddingGraph, encodeModel, feedsFor, GradientSession, int64Tensor, loadModel } from "@npov/autograd";
import { generatorPrompt } from "@npov/core";
import { SalienceDetector } from "@npov/salience";
import * as ort from "onnxruntime-node";
import { fmt, median } from "./lib.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const ZOO = join(here, "..", "..", "shared", "models", "zoo");
const EXAMPLE = join(here, "..", "fixtures", "examples", "uniforms.json");
const MODELS = [
  ["optimum-gpt2", "fp32"],
  ["optimum-llama", "fp32"],
  ["optimum-t5", "fp32"],
  ["genai-llama", "fp32"],
  ["genai-qwen-gqa", "fp16"],
  ["ortopt-gpt2", "fp32"],
  ["optimum-llama", "q8"],
  ["optimum-llama", "q4"],
];
const RESPONSE_TOKENS = 60;
const CHUNK = 8;
const SALIENCE_RUNS = 3;
const FORWARD_RUNS = 10;
const TIMEOUT_MS = 120_000;
// onnxruntime's default intra-op pool (one thread per core) and a single thread (see below).
const THREADS = ["1", "default"];

if (process.argv[2] === undefined) {
  console.log(
    `input: Figure-3 generator prompt of fixtures/examples/uniforms.json, response cut to <= ${RESPONSE_TOKENS} tokens; ` +
      `chunk ${CHUNK} output tokens per batched VJP; times are minima: salience of ${SALIENCE_RUNS} runs, each forward baseline of ${SALIENCE_RUNS} x ${FORWARD_RUNS} runs interleaved with them (after warm-ups); medians below the table`,
  );
  console.log(
    "| model | dtype | intra-op threads | prompt + response tokens | load s | build s | salience s/example | passes | forward ms (normalised) | forward ms (original) | salience / fwd normalised | salience / fwd original | per response token / fwd normalised | nodes: original / normalised / fwd+bwd | peak RSS |",
  );
  console.log("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|");
  const notes = [];
  const medians = [];
  const t0 = performance.now();
  for (const [folder, dtype, threads] of MODELS.flatMap((m) => THREADS.map((t) => [...m, t]))) {
    const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), folder, dtype, threads], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      timeout: TIMEOUT_MS,
    });
    let x;
    try {
      x = JSON.parse(r.stdout?.trim().split("\n").at(-1) ?? "");
    } catch {
      const why = r.error ? r.error.message : r.stderr?.trim().split("\n").slice(-3).join(" / ") || `exit ${r.status}`;
      x = { errors: [{ stage: "process", message: why }] };
    }
    const cell = (v, digits, unit = "") => (v === undefined ? "-" : `${fmt(v, digits)}${unit}`);
    const ratio = (a, b) => (a === undefined || b === undefined ? "-" : `${fmt(a / b, 1)}x`);
    const tokens = x.m === undefined ? "-" : `${x.m} + ${x.l}${x.reducedInput ? " (reduced input)" : ""}`;
    console.log(
      `| ${folder} | ${dtype} | ${threads} | ${tokens} | ${cell(x.loadS, 2)} | ${cell(x.buildS, 2)} | ${cell(x.salienceS, 3)} | ${x.passes ?? "-"} | ${cell(x.fwdNormS && x.fwdNormS * 1000, 2)} | ${cell(x.fwdOrigS && x.fwdOrigS * 1000, 2)} | ${ratio(x.salienceS, x.fwdNormS)} | ${ratio(x.salienceS, x.fwdOrigS)} | ${ratio(x.salienceS && x.salienceS / x.l, x.fwdNormS)} | ${x.nodesOriginal ?? "-"} / ${x.nodesNormalised ?? "-"} / ${x.nodesGradient ?? "-"} | ${cell(x.rssMB, 0, " MB")} |`,
    );
    if (x.reducedInput && threads === THREADS[0])
      notes.push(
        `${folder} ${dtype}: prompt + ${RESPONSE_TOKENS} response tokens exceed its ${x.context} position table; ${x.fullInputRan ? "salience ran anyway" : "salience on it failed (below)"}; measured on the input with one argument per perspective, response cut to fit`,
      );
    for (const e of x.errors ?? [])
      if (e.stage !== "salience on the full input" || threads === THREADS[0])
        notes.push(`${folder} ${dtype} (${threads} threads) FAILED at ${e.stage}: ${e.type ?? "Error"}: ${e.message}`);
    medians.push(
      `${folder} ${dtype} ${threads}: ${x.salienceMedianS === undefined ? "-" : fmt(x.salienceMedianS, 3)} s / ${x.fwdNormMedianS === undefined ? "-" : fmt(x.fwdNormMedianS * 1000, 2)} ms / ${x.fwdOrigMedianS === undefined ? "-" : fmt(x.fwdOrigMedianS * 1000, 2)} ms`,
    );
  }
  console.log(`medians (salience / forward normalised / forward original): ${medians.join("; ")}`);
  for (const n of notes) console.log(`- ${n}`);
  console.log(`total ${fmt((performance.now() - t0) / 1000, 1)} s`);
  process.exit(0);
}

// ---- one model, in its own process ----
const [folder, dtype] = process.argv.slice(2);
const dir = join(ZOO, folder);
const out = { folder, dtype };
let stage = "load";
const errorText = (error) =>
  String(error?.message ?? error)
    .split("\n")[0]
    .slice(0, 400);
const fail = (error) => {
  out.errors ??= [];
  out.errors.push({ stage, type: error?.constructor?.name, message: errorText(error) });
};
const done = (error) => {
  if (error) fail(error);
  console.log(JSON.stringify(out));
  process.exit(0);
};

if (process.argv[4] === "1") {
  // One intra-op thread in every session (the detector's included): figures that a busy second core
  // disturbs far less than the default two-thread pool's.
  const create = ort.InferenceSession.create;
  ort.InferenceSession.create = (model, options = {}) =>
    create.call(ort.InferenceSession, model, { ...options, intraOpNumThreads: 1, interOpNumThreads: 1 });
}

// Node count of the gradient graph of the recompute schedule (the split schedule reports its own runs).
const run = GradientSession.prototype.run;
GradientSession.prototype.run = function (...args) {
  out.nodesGradient = this.graph.model.graph.node.length;
  return run.apply(this, args);
};

try {
  const example = JSON.parse(readFileSync(EXAMPLE, "utf8"));
  let t = performance.now();
  const detector = await SalienceDetector.fromPretrained(dir, { dtype, chunkSize: CHUNK });
  out.loadS = (performance.now() - t) / 1000;
  // Nodes run per forward pass: Optimum's merged decoders branch on use_cache_branch; count the no-cache
  // (else) branch, which is what a full forward pass executes.
  const nodes = (graph) =>
    graph.node.reduce((n, node) => {
      const branch = node.opType === "If" ? node.attribute.find((a) => a.name === "else_branch")?.g : undefined;
      return n + (branch ? nodes(branch) : 1);
    }, 0);
  out.nodesOriginal = detector.files.onnxFiles.reduce((n, f) => n + nodes(loadModel(join(dir, f)).graph), 0);
  out.nodesNormalised = [detector.files.model, detector.files.encoder, detector.files.decoder]
    .filter((g) => g !== undefined)
    .reduce((n, g) => n + nodes(g.graph), 0);
  const tok = detector.files.tokenizer;
  const count = (s) => tok.encode(s, { add_special_tokens: false }).length;
  // The fixture prompt, and its response cut at a word boundary to <= RESPONSE_TOKENS tokens and to what
  // the model's position table leaves after the prompt.
  const context = Number(detector.files.config.max_position_embeddings ?? detector.files.config.n_positions ?? 1e9);
  const boundedPositions = ["gpt2", "llama"].includes(String(detector.files.config.model_type));
  const inputFor = (npovInput) => {
    const prompt = generatorPrompt(npovInput);
    const m = tok.encode(prompt).length;
    const budget = Math.min(RESPONSE_TOKENS, boundedPositions ? context - m : RESPONSE_TOKENS);
    const words = example.response.split(" ");
    let k = words.length;
    while (k > 1 && count(words.slice(0, k).join(" ")) > budget) k--;
    return { prompt, response: words.slice(0, k).join(" ") };
  };
  let { prompt, response } = inputFor(example.input);
  out.context = context;

  stage = "salience build";
  t = performance.now();
  await detector.tokenMap("ab", "cd"); // graph construction + session creation, outside the steady state
  out.buildS = (performance.now() - t) / 1000;

  if (boundedPositions && tok.encode(prompt).length + RESPONSE_TOKENS > context) {
    // The fixture prompt leaves (almost) no room: record what salience does on the full input (prompt +
    // 60-token response), then measure on the input with one argument per perspective.
    stage = "salience on the full input";
    const words = example.response.split(" ");
    let k = words.length;
    while (k > 1 && count(words.slice(0, k).join(" ")) > RESPONSE_TOKENS) k--;
    try {
      await detector.tokenMap(prompt, words.slice(0, k).join(" "));
      out.fullInputRan = true;
    } catch (error) {
      fail(error);
    }
    ({ prompt, response } = inputFor({
      ...example.input,
      perspectives: example.input.perspectives.map((p) => ({ ...p, arguments: p.arguments.slice(0, 1) })),
    }));
    out.reducedInput = true;
  }
  const promptIds = tok.encode(prompt);
  const responseIds = tok.encode(response, { add_special_tokens: false });
  out.m = promptIds.length;
  out.l = responseIds.length;

  // One salience run first (peak RSS of salience alone), then rounds of [forward baselines, salience] so
  // that the figures compared in a ratio see the same background load (this machine is shared).
  stage = "salience";
  const salienceTimes = [];
  const salienceRun = async () => {
    const t1 = performance.now();
    const map = await detector.tokenMap(prompt, response);
    salienceTimes.push((performance.now() - t1) / 1000);
    if (!map.attributions.data.every(Number.isFinite)) throw new Error("non-finite attribution");
    // Forward + backward runs as the detector counts them, whichever schedule it used.
    out.passes = map.schedule?.runs;
    out.schedule = map.schedule?.mode;
  };
  let salienceOk = true;
  try {
    await salienceRun();
  } catch (error) {
    fail(error);
    salienceOk = false;
  }
  out.rssMB = process.resourceUsage().maxRSS / 1024;

  const ones = (n) => new Array(n).fill(1);
  const positions = (n) => Array.from({ length: n }, (_, i) => i);
  const m = promptIds.length;
  const l = responseIds.length;
  const start = Number(detector.files.config.decoder_start_token_id ?? 0);
  const decoderIds = [start, ...responseIds.slice(0, -1)];
  const ids = [...promptIds, ...responseIds];

  // Baseline 1: the normalised graph salience differentiates, forward only, the same tokens, batch 1.
  stage = "forward (normalised)";
  let forwardNormalised;
  try {
    const graph = await embeddingGraph(detector.files, { decoderEmbeds: true });
    const norm = await ort.InferenceSession.create(encodeModel(graph.model));
    const embed = (table, xs) => {
      const e = new Float32Array(xs.length * table.dim);
      xs.forEach((id, j) => {
        e.set(table.data.subarray(id * table.dim, (id + 1) * table.dim), j * table.dim);
      });
      return new ort.Tensor("float32", e, [1, xs.length, table.dim]);
    };
    const f32 = (n) => new ort.Tensor("float32", new Float32Array(n).fill(1), [1, n]);
    const normFeeds = detector.files.encoderDecoder
      ? {
          input_ids: int64Tensor(promptIds, [1, m]),
          attention_mask: int64Tensor(ones(m), [1, m]),
          inputs_embeds: embed(graph.table, promptIds),
          decoder_input_ids: int64Tensor(decoderIds, [1, l]),
          decoder_inputs_embeds: embed(graph.decoderTable, decoderIds),
          labels: int64Tensor(responseIds, [1, l]),
          label_mask: f32(l),
        }
      : {
          input_ids: int64Tensor(ids, [1, ids.length]),
          attention_mask: int64Tensor(ones(ids.length), [1, ids.length]),
          position_ids: int64Tensor(positions(ids.length), [1, ids.length]),
          inputs_embeds: embed(graph.table, ids),
          labels: int64Tensor([...ids.slice(1), 0], [1, ids.length]),
          label_mask: f32(ids.length),
        };
    const normInputs = feedsFor(graph, normFeeds);
    forwardNormalised = () => norm.run(normInputs, ["token_loss"]);
    await forwardNormalised(); // warm-up
  } catch (error) {
    fail(error);
    forwardNormalised = undefined;
  }

  // Baseline 2: the exported file(s) as they are, one forward pass with an empty past.
  stage = "forward (original)";
  let forwardOriginal;
  try {
    const sessions = [];
    for (const f of detector.files.onnxFiles) sessions.push(await ort.InferenceSession.create(join(dir, f)));
    const tensorOf = (meta, values) => {
      const dims = [1, values.length];
      if (meta.type === "int32") return new ort.Tensor("int32", Int32Array.from(values), dims);
      if (meta.type === "int64") return int64Tensor(values, dims);
      return new ort.Tensor("float32", Float32Array.from(values), dims);
    };
    const empty = (meta) => {
      const dims = meta.shape.map((d) => (typeof d === "number" ? d : /batch/.test(d) ? 1 : 0));
      if (meta.type === "float16") return new ort.Tensor("float16", new Uint16Array(0), dims);
      return new ort.Tensor("float32", new Float32Array(0), dims);
    };
    const originalFeeds = (session, tokens, extra = {}) => {
      const feeds = {};
      for (const meta of session.inputMetadata) {
        const name = meta.name;
        if (name in extra) feeds[name] = extra[name];
        else if (name === "input_ids") feeds[name] = tensorOf(meta, tokens);
        else if (name === "attention_mask") feeds[name] = tensorOf(meta, ones(tokens.length));
        else if (name === "position_ids") feeds[name] = tensorOf(meta, positions(tokens.length));
        else if (name === "use_cache_branch") feeds[name] = new ort.Tensor("bool", [false], [1]);
        else if (/^past/.test(name)) feeds[name] = empty(meta);
        else throw new Error(`no feed for input ${name} of ${detector.files.onnxFiles.join(", ")}`);
      }
      return feeds;
    };
    if (detector.files.encoderDecoder) {
      const [encoder, decoder] = sessions;
      const encFeeds = originalFeeds(encoder, promptIds);
      forwardOriginal = async () => {
        const e = await encoder.run(encFeeds);
        const decFeeds = originalFeeds(decoder, decoderIds, {
          encoder_hidden_states: e.last_hidden_state,
          encoder_attention_mask: encFeeds.attention_mask,
        });
        await decoder.run(decFeeds, ["logits"]);
      };
    } else {
      const [model] = sessions;
      const feeds = originalFeeds(model, ids);
      forwardOriginal = () => model.run(feeds, ["logits"]);
    }
    await forwardOriginal(); // warm-up
  } catch (error) {
    fail(error);
    forwardOriginal = undefined;
  }

  stage = "rounds";
  const normTimes = [];
  const origTimes = [];
  const timed = async (fn, into) => {
    for (let i = 0; i < FORWARD_RUNS; i++) {
      const t1 = performance.now();
      await fn();
      into.push((performance.now() - t1) / 1000);
    }
  };
  for (let round = 0; round < SALIENCE_RUNS; round++) {
    if (forwardNormalised) await timed(forwardNormalised, normTimes);
    if (forwardOriginal) await timed(forwardOriginal, origTimes);
    if (salienceOk && round > 0) await salienceRun();
  }
  // Minima: on a shared 2-core machine a millisecond forward pass whose two intra-op threads lose their core
  // to another process takes several times longer; the minimum is the least disturbed run (medians kept too).
  if (salienceOk) [out.salienceS, out.salienceMedianS] = [Math.min(...salienceTimes), median(salienceTimes)];
  if (normTimes.length > 0) [out.fwdNormS, out.fwdNormMedianS] = [Math.min(...normTimes), median(normTimes)];
  if (origTimes.length > 0) [out.fwdOrigS, out.fwdOrigMedianS] = [Math.min(...origTimes), median(origTimes)];
  done();
} catch (error) {
  done(error);
}
