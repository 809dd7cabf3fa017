// bench/serve: requests per second and latency (p50/p95/p99) of POST /v1/check under a bounded local load
// (autocannon, 127.0.0.1 only, 10 connections, 10 s; autocannon reports whole milliseconds and no p95, so
// p90 and p97.5 are printed), with the ROUGE guard; baseline in the same run: the
// same guard checks called in-process (no HTTP).

import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeTestModel } from "@npov/autograd";
import { createGuard } from "@npov/classifier";
import { openKnowledgeBase } from "@npov/core";
import { createServer, LocalGenerator } from "@npov/generate";
import { rougeErrorDetector } from "@npov/rouge";
import { buildDataset } from "@npov/synth";
import autocannon from "autocannon";
import { fmt, percentile } from "./lib.mjs";

const examples = buildDataset(openKnowledgeBase("fixtures"), {
  split: "test",
  seed: 0,
  slices: ["unparaphrased-synthetic"],
});
const guard = createGuard({ detector: rougeErrorDetector(), thresholds: { hallucination: 0.6, coverage: 0.3 } });
const dir = join(mkdtempSync(join(tmpdir(), "npov-bench-serve-")), "t5");
writeTestModel(dir, "t5", { seed: 1 });
const app = createServer({ generator: await LocalGenerator.fromPretrained(dir), guard });
const base = await app.listen({ host: "127.0.0.1", port: 0 });

const bodies = examples.map((e) => JSON.stringify({ input: e.input, response: e.response }));
let k = 0;
const result = await autocannon({
  url: `${base}/v1/check`,
  connections: 10,
  duration: 10,
  requests: [
    {
      method: "POST",
      headers: { "content-type": "application/json" },
      setupRequest: (req) => ({ ...req, body: bodies[k++ % bodies.length] }),
    },
  ],
});
await app.close();

const inProcess = [];
for (let i = 0; i < 5000; i++) {
  const e = examples[i % examples.length];
  const t = performance.now();
  await guard.check(e.input, e.response);
  inProcess.push(performance.now() - t);
}
const perSecond = 1000 / (inProcess.reduce((a, b) => a + b, 0) / inProcess.length);
console.log(
  `POST /v1/check (ROUGE guard), 10 connections, 10 s on 127.0.0.1: ${fmt(result.requests.average)} requests/s, latency p50 ${fmt(result.latency.p50, 1)} ms, p90 ${fmt(result.latency.p90, 1)} ms, p97.5 ${fmt(result.latency.p97_5, 1)} ms, p99 ${fmt(result.latency.p99, 1)} ms; ${result.non2xx} non-2xx, ${result.errors} errors`,
);
console.log(
  `in-process guard.check (baseline): ${fmt(perSecond)} checks/s, p50 ${fmt(percentile(inProcess, 50), 3)} ms, p95 ${fmt(percentile(inProcess, 95), 3)} ms`,
);
console.log(`ratio HTTP / in-process throughput: ${fmt(result.requests.average / perSecond, 2)}x`);
