// bench/queue: examples per second of batch scoring on the Redis job queue with 1 and 2 `npov worker`
// processes against the same scoring in-process on the same machine (the baseline, in the same run), and
// the queue's overhead per example. Two detectors: `support` (~5 ms per example: the guard's default,
// a realistic batch audit) and `rouge` (~0.4 ms: nearly all of its queued time is queue overhead).
// Workers are the real CLI (`node packages/cli/dist/bin.js worker`), warmed up (detectors built) before
// timing; Redis is Debian's redis-server on a free loopback port. Every queued run is checked to give
// results bit-identical to the in-process run. Besides wall time (which a shared, busy machine distorts),
// CPU time per example is measured for every process involved -- in-process: this process; queued: the
// workers (/proc/PID/stat), Redis (INFO cpu) and this process (gathering) -- so the queue's overhead per
// example is the difference in CPU time, which other jobs on the machine barely change.

import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createDetector } from "@npov/classifier";
import { openKnowledgeBase } from "@npov/core";
import { closeRedis, connectRedis, scoreInProcess, scoreOnQueue, startRedisServer } from "@npov/queue";
import { buildDataset } from "@npov/synth";
import { fmt, median } from "./lib.mjs";

const BIN = join(dirname(fileURLToPath(import.meta.url)), "..", "packages", "cli", "dist", "bin.js");
const CHUNK = 16;
// Each configuration runs this many times; the median counts (the machine is shared and noisy).
const REPEATS = 3;
const kb = openKnowledgeBase("fixtures");

/** `n` synthetic test examples (datasets of several seeds, concatenated). */
function examples(n) {
  const out = [];
  for (let seed = 0; out.length < n; seed++) out.push(...buildDataset(kb, { split: "test", seed, perTopic: 2 }));
  return out.slice(0, n);
}

/** CPU seconds (user + system) a process has used so far. */
function processCpu(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
}
const selfCpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
async function redisCpu(client) {
  const info = await client.info("cpu");
  const get = (k) => Number(new RegExp(`${k}:([\\d.]+)`).exec(info)?.[1] ?? "NaN");
  return get("used_cpu_user") + get("used_cpu_sys");
}

/** Every worker process started, so an error mid-bench does not leave them running. */
const started = [];

function startWorker(url, queueName) {
  const child = spawn(process.execPath, [BIN, "worker", "--queue", url, "--queue-name", queueName, "--quiet"], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  started.push(child);
  let stderr = "";
  child.stderr.on("data", (d) => {
    stderr += d;
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const ready = new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      if (stderr.includes("waiting for jobs")) {
        clearInterval(timer);
        resolve();
      } else if (child.exitCode !== null) {
        clearInterval(timer);
        reject(new Error(`worker exited: ${stderr}`));
      }
    }, 20);
  });
  return { child, ready, exited };
}

const redis = await startRedisServer();
const stats = await connectRedis(redis.url);
const rows = [];
try {
  for (const [method, n] of [
    ["support", 1200],
    ["rouge", 4000],
  ]) {
    const data = examples(n);
    const detector = await createDetector({ method });
    await scoreInProcess(data.slice(0, 50), [detector]); // warm-up
    let local;
    const inProcess = [];
    const inProcessCpu = [];
    for (let k = 0; k < REPEATS; k++) {
      const [t, c] = [performance.now(), selfCpu()];
      local = await scoreInProcess(data, [detector], { chunkSize: CHUNK });
      inProcess.push(performance.now() - t);
      inProcessCpu.push(selfCpu() - c);
    }
    const inProcessMs = median(inProcess);
    await detector.dispose?.();
    const expected = JSON.stringify(local.items);
    const row = { method, n, inProcessMs, inProcessCpu: median(inProcessCpu), queued: {}, cpu: {} };
    for (const count of [1, 2]) {
      const queueName = `bench-${method}-${count}`;
      const workers = Array.from({ length: count }, () => startWorker(redis.url, queueName));
      await Promise.all(workers.map((w) => w.ready));
      const options = { url: redis.url, queueName, chunkSize: CHUNK, pollIntervalMs: 20 };
      // Warm-up: enough jobs that every worker builds its detector before the timed run.
      await scoreOnQueue(data.slice(0, CHUNK * count * 3), [{ method }], { ...options, chunkSize: 4 });
      const times = [];
      const cpus = [];
      const cpuNow = async () => ({
        workers: workers.reduce((sum, w) => sum + processCpu(w.child.pid), 0),
        redis: await redisCpu(stats),
        command: selfCpu(),
      });
      for (let k = 0; k < REPEATS; k++) {
        // Each run deletes its results when done, so the next run of the same data scores everything again.
        const before = await cpuNow();
        const t = performance.now();
        const queued = await scoreOnQueue(data, [{ method }], options);
        times.push(performance.now() - t);
        const after = await cpuNow();
        cpus.push(Object.fromEntries(Object.keys(after).map((key) => [key, after[key] - before[key]])));
        if (JSON.stringify(queued.items) !== expected)
          throw new Error(`${method}, ${count} worker(s): queued results differ from in-process`);
      }
      row.queued[count] = median(times);
      row.cpu[count] = Object.fromEntries(
        ["workers", "redis", "command"].map((key) => [key, median(cpus.map((c) => c[key]))]),
      );
      for (const w of workers) w.child.kill("SIGTERM");
      await Promise.all(workers.map((w) => w.exited));
    }
    rows.push(row);
  }
} finally {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  await closeRedis(stats);
  await redis.stop();
}

const perSecond = (n, ms) => (n / ms) * 1000;
const ms = (seconds, n) => (seconds * 1000) / n;
console.log(
  `chunk size ${CHUNK}; median of ${REPEATS} runs each; in-process = scoreInProcess in this process (detector built, warmed up); load average at the end ${loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")}`,
);
console.log("\nWall time (examples per second; ratio to in-process):");
console.log("| detector | examples | in-process | 1 worker | 2 workers |");
console.log("| -------- | -------: | ---------: | -------: | --------: |");
for (const r of rows) {
  const base = perSecond(r.n, r.inProcessMs);
  const cell = (count) =>
    `${fmt(perSecond(r.n, r.queued[count]))}/s (${fmt(perSecond(r.n, r.queued[count]) / base, 2)}x)`;
  console.log(`| ${r.method} | ${fmt(r.n)} | ${fmt(base)}/s | ${cell(1)} | ${cell(2)} |`);
}
console.log("\nCPU time per example (1 worker; 2 workers in brackets); overhead = queued total - in-process:");
console.log("| detector | in-process | workers | Redis | command | queued total | overhead per example | per job |");
console.log("| -------- | ---------: | ------: | ----: | ------: | -----------: | -------------------: | ------: |");
for (const r of rows) {
  const base = ms(r.inProcessCpu, r.n);
  const part = (key) => `${fmt(ms(r.cpu[1][key], r.n), 3)} (${fmt(ms(r.cpu[2][key], r.n), 3)})`;
  const total = (count) => ms(r.cpu[count].workers + r.cpu[count].redis + r.cpu[count].command, r.n);
  console.log(
    `| ${r.method} | ${fmt(base, 3)} ms | ${part("workers")} | ${part("redis")} | ${part("command")} | ${fmt(total(1), 3)} (${fmt(total(2), 3)}) ms | ${fmt(total(1) - base, 3)} (${fmt(total(2) - base, 3)}) ms | ${fmt((total(1) - base) * CHUNK, 1)} ms |`,
  );
}
