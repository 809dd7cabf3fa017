// bench/salience: npov's salience token maps against PyTorch CPU in the same run.
//
// bench/salience-torch/torch_salience.py (Debian's /usr/bin/python3 with python3-torch) builds a GPT-2-style
// causal LM and a T5-style encoder-decoder in plain PyTorch (fixed seed) and exports them with
// torch.onnx.export; npov loads the exported folders with SalienceDetector.fromPretrained and computes the
// token maps of the same token ids (tokenMapOfIds) as PyTorch does with one forward pass and l backward
// passes (torch.autograd.grad(loss_t, embeddings, retain_graph=True)). Both sides use the same number of
// threads (torch.set_num_threads / onnxruntime intra-op threads). Every configuration runs in a fresh
// process (peak RSS = that process's ru_maxrss), in the order npov, PyTorch, repeated REPEATS times; the
// table shows medians, the maps are compared numerically (normwise relative difference).
//
// Usage: node bench/salience.bench.mjs [--lengths 64,256,1024] [--repeats 3] [--threads 1]
//        [--archs gpt2,t5] [--torch-schedules natural,head] [--torch-from DIR] [--npov-options JSON]
// --npov-options passes SalienceDetector options to npov (e.g. '{"chunkSize":4}').
// --torch-from DIR reuses the exported models and the PyTorch results (torch-ARCH-N-SCHEDULE.json/.bin)
// of an earlier run's work directory (PyTorch at 1,024 tokens takes ~20 minutes per model here).
// Without python3-torch the npov side still runs and the PyTorch columns say why they are empty.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { fmt } from "./lib.mjs";

const here = fileURLToPath(new URL(".", import.meta.url));
const script = join(here, "salience-torch", "torch_salience.py");
const PYTHON = "/usr/bin/python3";
const VOCAB = 8192;

/** Deterministic token ids (mulberry32), prompt 3/4 of the tokens, response 1/4. */
function example(n, seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const id = () => 2 + Math.floor(next() * (VOCAB - 2));
  const m = (3 * n) / 4;
  return { prompt: Array.from({ length: m }, id), response: Array.from({ length: n - m }, id) };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const k = Math.floor(s.length / 2);
  return s.length % 2 ? s[k] : (s[k - 1] + s[k]) / 2;
};

function child(cmd, args, env = process.env) {
  const r = spawnSync(cmd, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], maxBuffer: 1 << 26, env });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed:\n${r.stderr}`);
  return JSON.parse(r.stdout.trim().split("\n").at(-1));
}

if (process.argv[2] === "--npov-child") {
  // One npov configuration in this process: load, build (warm-up on a short prefix), then the timed map.
  const [dir, idsFile, out, threads, optionsJson] = process.argv.slice(3);
  const { SalienceDetector } = await import("@npov/salience");
  const ex = JSON.parse(readFileSync(idsFile, "utf8"));
  const t0 = performance.now();
  const detector = await SalienceDetector.fromPretrained(dir, { threads: Number(threads), ...JSON.parse(optionsJson) });
  await detector.tokenMapOfIds(ex.prompt.slice(0, 8), ex.response.slice(0, 4));
  const buildS = (performance.now() - t0) / 1000;
  const t1 = performance.now();
  const map = await detector.tokenMapOfIds(ex.prompt, ex.response);
  const seconds = (performance.now() - t1) / 1000;
  writeFileSync(out, new Uint8Array(new Float32Array(map.attributions.data).buffer));
  console.log(
    JSON.stringify({ seconds, buildS, maxrssMB: process.resourceUsage().maxRSS / 1024, schedule: map.schedule }),
  );
  process.exit(0);
}

const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const lengths = arg("lengths", "64,256,1024").split(",").map(Number);
const repeats = Number(arg("repeats", "3"));
const threads = Number(arg("threads", "1"));
const blasEnv = {
  ...process.env,
  OPENBLAS_NUM_THREADS: String(threads),
  OMP_NUM_THREADS: String(threads),
  MKL_NUM_THREADS: String(threads),
};
const archs = arg("archs", "gpt2,t5").split(",");
const torchSchedules = arg("torch-schedules", "natural").split(",");
const npovOptions = arg("npov-options", "{}");
const torchFrom = arg("torch-from", undefined);

const torchCheck = existsSync(PYTHON)
  ? spawnSync(PYTHON, ["-c", "import torch; print(torch.__version__)"], { encoding: "utf8" })
  : undefined;
const torchVersion = torchCheck?.status === 0 ? torchCheck.stdout.trim() : undefined;
if (torchVersion === undefined)
  console.log(`PyTorch not found (${PYTHON} -c "import torch" failed): the PyTorch columns stay empty.`);

const work = torchFrom ?? mkdtempSync(join(tmpdir(), "npov-bench-salience-"));
console.log(
  `threads ${threads}; repeats ${repeats} (medians); PyTorch ${torchVersion ?? "-"}; npov options ${npovOptions}; work dir ${work}`,
);
const header = [
  "model",
  "m+l tokens",
  "npov s",
  ...torchSchedules.map((s) => `PyTorch ${s} s`),
  ...torchSchedules.map((s) => `npov/PyTorch ${s}`),
  "npov peak RSS",
  ...torchSchedules.map((s) => `PyTorch ${s} peak RSS`),
  "npov schedule",
  "max normwise diff",
];
console.log(`| ${header.join(" | ")} |`);
for (const arch of archs) {
  const dir = join(work, arch);
  if (torchFrom !== undefined) {
    if (!existsSync(join(dir, "config.json"))) throw new Error(`--torch-from ${torchFrom}: no exported ${arch} model`);
  } else if (torchVersion !== undefined) child(PYTHON, [script, "export", arch, dir]);
  else {
    console.log(`(${arch}: no PyTorch to export the model with)`);
    continue;
  }
  for (const n of lengths) {
    const idsFile = join(work, `${arch}-${n}.json`);
    writeFileSync(idsFile, JSON.stringify(example(n, n)));
    const npov = [];
    const torch = Object.fromEntries(torchSchedules.map((s) => [s, []]));
    let diff = 0;
    for (let r = 0; r < repeats; r++) {
      const npovOut = join(work, `npov-${arch}-${n}.bin`);
      npov.push(
        child(process.execPath, [
          fileURLToPath(import.meta.url),
          "--npov-child",
          dir,
          idsFile,
          npovOut,
          String(threads),
          npovOptions,
        ]),
      );
      const a = new Float32Array(readFileSync(npovOut).buffer.slice(0));
      for (const s of torchSchedules) {
        const torchOut = join(work, `torch-${arch}-${n}-${s}.bin`);
        const torchJson = join(work, `torch-${arch}-${n}-${s}.json`);
        if (torchFrom !== undefined) torch[s].push(JSON.parse(readFileSync(torchJson, "utf8")));
        else {
          // torch.set_num_threads does not reach OpenBLAS's own thread pool (2 threads here, 198% CPU):
          // the BLAS gets the same thread count through its environment.
          const result = child(PYTHON, [script, "map", arch, dir, idsFile, torchOut, String(threads), s], blasEnv);
          writeFileSync(torchJson, JSON.stringify(result));
          torch[s].push(result);
        }
        const b = new Float32Array(readFileSync(torchOut).buffer.slice(0));
        let num = 0;
        let den = 0;
        for (let i = 0; i < b.length; i++) {
          num += (a[i] - b[i]) ** 2;
          den += b[i] ** 2;
        }
        diff = Math.max(diff, a.length === b.length ? Math.sqrt(num / den) : Number.POSITIVE_INFINITY);
      }
    }
    const ns = median(npov.map((x) => x.seconds));
    const nm = median(npov.map((x) => x.maxrssMB));
    const ts = torchSchedules.map((s) => median(torch[s].map((x) => x.seconds)));
    const tm = torchSchedules.map((s) => median(torch[s].map((x) => x.maxrss_mb)));
    const sched = npov[0].schedule;
    console.log(
      `| ${[
        arch,
        n,
        fmt(ns, 3),
        ...ts.map((x) => fmt(x, 3)),
        ...ts.map((x) => `${fmt(ns / x, 3)}`),
        `${fmt(nm)} MB`,
        ...tm.map((x) => `${fmt(x)} MB`),
        `${sched.mode}${sched.recompute === "superlinear" ? " (superlinear recomputed)" : ""}, k=${sched.chunkSize}, ${sched.runs} runs, ${fmt((sched.storedBytes ?? 0) / 1048576, 1)} MB stored`,
        diff.toExponential(1),
      ].join(" | ")} |`,
    );
  }
}
