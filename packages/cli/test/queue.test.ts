// `npov check-batch` / `npov eval` with --queue and `npov worker`, as built binaries against a real
// redis-server: in-process, 1 worker and 2 workers write byte-identical score files; a worker killed with
// SIGKILL mid-job loses nothing; Ctrl-C on the command stops cleanly and a re-run resumes the same jobs.
import { type ChildProcess, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort, type RedisServer, startRedisServer } from "@npov/queue";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { npov, REPO } from "./helpers.js";

const BIN = fileURLToPath(new URL("../dist/bin.js", import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), "npov-cli-queue-"));
// Short locks: a killed worker's job is back on the queue about a second later. Only where a worker is
// killed: a worker that blocks its event loop longer than a lock (loading word vectors takes ~2 s) has its
// job handed out twice -- harmless, results are stored by job id, but the job counts below are exact.
const FAST_LOCKS = ["--lock-duration", "1000", "--stalled-interval", "300"];

interface Running {
  child: ChildProcess;
  stdout: string;
  stderr: string;
  exited: Promise<number | null>;
}

/** Start the built `npov` without waiting for it. */
function start(...args: string[]): Running {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: REPO });
  const r: Running = { child, stdout: "", stderr: "", exited: Promise.resolve(null) };
  child.stdout?.on("data", (d) => {
    r.stdout += d;
  });
  child.stderr?.on("data", (d) => {
    r.stderr += d;
  });
  r.exited = new Promise((resolve) => child.once("exit", (code) => resolve(code)));
  return r;
}

/** Run the built `npov` to the end (asynchronously, so the test's own servers keep answering). */
async function run(...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const r = start(...args);
  const status = await r.exited;
  return { status, stdout: r.stdout, stderr: r.stderr };
}

async function until(what: string, ok: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!ok()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const workers: Running[] = [];
async function startWorker(url: string, ...extra: string[]): Promise<Running> {
  const w = start("worker", "--queue", url, ...extra);
  workers.push(w);
  await until("the worker to start", () => w.stderr.includes("waiting for jobs"));
  return w;
}
async function stopWorkers(): Promise<void> {
  const stopping = workers.splice(0);
  for (const w of stopping) if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill("SIGTERM");
  await Promise.all(stopping.map((w) => w.exited));
}

let redis: RedisServer;
const data = join(tmp, "batch.jsonl");
beforeAll(async () => {
  redis = await startRedisServer();
  const synth = npov("synth", "--split", "test", "--per-topic", "2", "--seed", "0", "--out", join(tmp, "test.jsonl"));
  expect(synth.status).toBe(0);
  const lines = readFileSync(join(tmp, "test.jsonl"), "utf8").trim().split("\n");
  const one = JSON.parse(lines[0] as string);
  const poison = JSON.stringify({
    ...one,
    id: "one-side",
    input: { ...one.input, perspectives: [one.input.perspectives[0]] },
  });
  // A JSON Lines file with a blank line, an example with one perspective and a line that is not JSON.
  writeFileSync(data, [...lines.slice(0, 10), "", poison, "{not json", ...lines.slice(10)].join("\n"));
});
afterEach(stopWorkers);
afterAll(async () => {
  await stopWorkers();
  await redis?.dispose();
});

describe("npov check-batch and eval on a Redis queue", () => {
  it("in-process, 1 worker and 2 workers write identical score files; eval --queue gives the same numbers", async () => {
    const methods = ["--methods", "rouge"];
    const queued = (queueName: string) =>
      run(
        "check-batch",
        "--data",
        data,
        "--out",
        join(tmp, `${queueName}.jsonl`),
        ...methods,
        "--queue",
        redis.url,
        "--queue-name",
        queueName,
        "--chunk-size",
        "8",
      );
    const evalArgs = ["eval", "--data", join(tmp, "test.jsonl"), "--methods", "rouge", "--json", "--bootstrap", "20"];
    // One worker on queue "one" (also serving eval), two on queue "two": started together, runs side by side.
    const [one, twoA, twoB] = await Promise.all([
      startWorker(redis.url, "--queue-name", "one"),
      startWorker(redis.url, "--queue-name", "two"),
      startWorker(redis.url, "--queue-name", "two"),
    ]);
    const [local, queuedOne, queuedTwo, evalLocal, evalQueued] = await Promise.all([
      run("check-batch", "--data", data, "--out", join(tmp, "local.jsonl"), ...methods),
      queued("one"),
      queued("two"),
      run(...evalArgs),
      run(...evalArgs, "--queue", redis.url, "--queue-name", "one"),
    ]);
    for (const r of [local, queuedOne, queuedTwo, evalLocal, evalQueued]) expect(r.status, r.stderr).toBe(0);

    const expected = readFileSync(join(tmp, "local.jsonl"), "utf8");
    const rows = expected
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    const total = readFileSync(data, "utf8")
      .split("\n")
      .filter((l) => l.trim() !== "").length;
    expect(rows.length).toBe(total);
    expect(rows.map((r) => r.index)).toEqual(rows.map((_, i) => i));
    expect(rows[10]).toMatchObject({ index: 10, line: 12, id: "one-side", error: { code: "TOO_FEW_PERSPECTIVES" } });
    expect(rows[11]).toMatchObject({ index: 11, line: 13, error: { code: "INVALID_JSON" } });
    expect(Object.keys(rows[0].scores)).toEqual(["rouge"]);
    expect(Object.keys(rows[0].scores.rouge)).toEqual([
      "hallucination",
      "coverage",
      "uncoveredArguments",
      "unsupportedSpans",
    ]);
    expect(local.stdout).toContain(`scored ${total - 2} of ${total} examples with rouge (2 failed:`);

    expect(queuedOne.stderr).toContain('jobs on queue "one"');
    expect(readFileSync(join(tmp, "one.jsonl"), "utf8")).toBe(expected);
    expect(readFileSync(join(tmp, "two.jsonl"), "utf8")).toBe(expected);
    expect(evalQueued.stdout).toBe(evalLocal.stdout);
    expect(JSON.parse(evalLocal.stdout).rows.length).toBeGreaterThan(0);

    await stopWorkers();
    const jobs = (w: Running | undefined) => Number(/stopped after (\d+) jobs/.exec(w?.stdout ?? "")?.[1] ?? "-1");
    const chunks = Math.ceil((total - 1) / 8); // the non-JSON line never travels
    const evalChunks = Math.ceil(readFileSync(join(tmp, "test.jsonl"), "utf8").trim().split("\n").length / 16);
    expect(jobs(one)).toBe(chunks + evalChunks);
    expect(jobs(twoA) + jobs(twoB)).toBe(chunks);
    expect(jobs(twoA)).toBeGreaterThan(0);
    expect(jobs(twoB)).toBeGreaterThan(0);
  }, 60_000);

  it("a worker killed with SIGKILL mid-job: its job goes to the other worker, the output is complete and identical", async () => {
    // A slow OpenAI-compatible endpoint: the endpoint classifier takes ~300 ms per example, so jobs take a while.
    const endpoint: Server = createServer((req, res) => {
      let body = "";
      req.on("data", (d) => {
        body += d;
      });
      req.on("end", () => {
        const digest = createHash("sha256").update(body).digest();
        const pNo = 0.05 + (0.9 * (digest[0] as number)) / 255;
        const top = [
          { token: "NO", logprob: Math.log(pNo) },
          { token: "YES", logprob: Math.log(1 - pNo) },
        ];
        setTimeout(() => {
          res.writeHead(200, { "content-type": "application/json" });
          res.end(
            JSON.stringify({
              id: "x",
              object: "chat.completion",
              created: 0,
              model: "m",
              choices: [
                {
                  index: 0,
                  message: { role: "assistant", content: "NO" },
                  finish_reason: "stop",
                  logprobs: { content: [{ token: "NO", logprob: Math.log(pNo), top_logprobs: top }] },
                },
              ],
              usage: { prompt_tokens: 10, completion_tokens: 1, total_tokens: 11 },
            }),
          );
        }, 300);
      });
    });
    await new Promise<void>((r) => endpoint.listen(0, "127.0.0.1", () => r()));
    try {
      const url = `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/v1`;
      const small = join(tmp, "small.jsonl");
      writeFileSync(small, readFileSync(join(tmp, "test.jsonl"), "utf8").trim().split("\n").slice(0, 12).join("\n"));
      const methods = ["--methods", "endpoint-classifier", "--endpoint", url, "--endpoint-model", "m"];
      const local = await run("check-batch", "--data", small, "--out", join(tmp, "ep-local.jsonl"), ...methods);
      expect(local.status, local.stderr).toBe(0);

      const [doomed, survivor] = await Promise.all(
        [1, 2].map(() => startWorker(redis.url, "--queue-name", "kill", "--verbose", ...FAST_LOCKS)),
      );
      if (doomed === undefined || survivor === undefined) throw new Error("unreachable");
      const out = join(tmp, "ep-queued.jsonl");
      const command = start(
        "check-batch",
        "--data",
        small,
        "--out",
        out,
        ...methods,
        "--queue",
        redis.url,
        "--queue-name",
        "kill",
        "--chunk-size",
        "2",
      );
      // Kill it mid-job: a job (2 examples at 300 ms each) runs ~0.6 s after its "started" line.
      await until("the doomed worker's first job", () => doomed.stderr.includes(": started"));
      doomed.child.kill("SIGKILL");
      expect(await command.exited, command.stderr).toBe(0);
      expect(await doomed.exited).toBe(null);
      expect(survivor.stderr).toMatch(/job npov-[0-9a-f]+ lost its worker/);
      expect(readFileSync(out, "utf8")).toBe(readFileSync(join(tmp, "ep-local.jsonl"), "utf8"));
      const rows = readFileSync(out, "utf8").trim().split("\n");
      expect(rows.length).toBe(12);
      expect(rows.every((r) => "scores" in JSON.parse(r))).toBe(true);
    } finally {
      endpoint.closeAllConnections();
      await new Promise((r) => endpoint.close(r));
    }
  }, 60_000);

  it("Ctrl-C on the command stops cleanly (exit 130); a re-run finds the same jobs and completes", async () => {
    const args = ["check-batch", "--data", data, "--out", join(tmp, "resumed.jsonl"), "--methods", "rouge"];
    const queued = [...args, "--queue", redis.url, "--queue-name", "ctrl-c", "--chunk-size", "8"];
    // No worker yet: the jobs wait on the queue.
    const first = start(...queued);
    await until("the jobs to be queued", () => first.stderr.includes("jobs on queue"));
    expect(first.stderr).toMatch(/\(0 done by an earlier run, (\d+) added\)/);
    first.child.kill("SIGINT");
    expect(await first.exited).toBe(130);
    expect(first.stderr).toContain("run the same command again to resume. [RUN_INTERRUPTED]");
    expect(existsSync(join(tmp, "resumed.jsonl"))).toBe(false);

    await startWorker(redis.url, "--queue-name", "ctrl-c");
    const again = await run(...queued);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stderr).toContain(", 0 added)"); // the same job ids: nothing new to enqueue
    const local = await run(
      "check-batch",
      "--data",
      data,
      "--out",
      join(tmp, "rouge-local.jsonl"),
      "--methods",
      "rouge",
    );
    expect(local.status).toBe(0);
    expect(readFileSync(join(tmp, "resumed.jsonl"), "utf8")).toBe(readFileSync(join(tmp, "rouge-local.jsonl"), "utf8"));
  }, 60_000);

  it("refuses a queue URL that is not Redis, with a typed one-line error", () => {
    const r = npov("check-batch", "--data", data, "--out", join(tmp, "x.jsonl"), "--queue", "http://127.0.0.1:1/0");
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/not redis or rediss.*\[INVALID_QUEUE_URL\]/);
    const w = npov("worker", "--queue", "redis://127.0.0.1:1/zero");
    expect(w.status).toBe(2);
    expect(w.stderr).toContain("[INVALID_QUEUE_URL]");
  });

  it("a worker given SIGTERM while its Redis is down exits within a couple of seconds (it stayed alive)", async () => {
    const own = await startRedisServer();
    try {
      const w = await startWorker(own.url);
      await own.kill();
      await until("the worker to notice", () => w.stderr.includes("Redis connection problem"));
      const started = Date.now();
      w.child.kill("SIGTERM");
      const code = await Promise.race([w.exited, new Promise((r) => setTimeout(() => r("alive"), 5000))]);
      expect(code).toBe(0);
      expect(Date.now() - started).toBeLessThan(3000);
      expect(w.stdout).toContain("stopped after 0 jobs");
    } finally {
      await own.dispose();
    }
  }, 30_000);

  it("a wrong Redis password is QUEUE_AUTH_FAILED at once, not 'cannot reach Redis' after the timeout", async () => {
    const port = await freePort();
    const server = spawn(
      "redis-server",
      ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--requirepass", "right"],
      {
        stdio: ["ignore", "pipe", "ignore"],
      },
    );
    try {
      let log = "";
      server.stdout?.on("data", (d) => {
        log += d;
      });
      await until("redis-server to listen", () => log.includes("Ready to accept connections"));
      const started = Date.now();
      const r = await run("worker", "--queue", `redis://:wrong@127.0.0.1:${port}/0`);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/refused npov \(WRONGPASS.*\[QUEUE_AUTH_FAILED\]/);
      expect(r.stderr).toContain("redis://:***@");
      expect(Date.now() - started).toBeLessThan(4000);
    } finally {
      server.kill("SIGKILL");
    }
  });
});
