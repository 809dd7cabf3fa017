// @npov/queue against a real redis-server (Debian's binary; these tests fail, never skip, without it):
// queued runs give the in-process results exactly, whatever the number of workers, and survive a poison
// example, a chunk that cannot be scored, worker processes dying on an example, Ctrl-C (abort), and Redis
// restarts with and without persistence.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { connect } from "node:net";
import { fileURLToPath } from "node:url";
import { type ErrorDetector, NpovError, type NpovExample, openKnowledgeBase } from "@npov/core";
import { evaluate } from "@npov/eval";
import {
  closeRedis,
  connectRedis,
  evaluateScored,
  evaluationFields,
  freePort,
  isFailedItem,
  parseQueueUrl,
  planRun,
  QueueUnreachableError,
  QueueUrlError,
  type QueueWorker,
  type RedisServer,
  RedisServerMissingError,
  RunInterruptedError,
  resultsKey,
  type ScoredRun,
  scoreInProcess,
  scoreOnQueue,
  startRedisServer,
  startWorker,
} from "@npov/queue";
import { rougeErrorDetector } from "@npov/rouge";
import { buildDataset } from "@npov/synth";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";

const dataset = buildDataset(openKnowledgeBase("fixtures"), { split: "test", seed: 0, perTopic: 1 });
const rouge = rougeErrorDetector();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** ROUGE that takes `ms` per example and counts its calls (so a kill or a restart lands mid-job). */
function slowRouge(ms: number, name = "rouge"): ErrorDetector & { calls: number } {
  const d = {
    name,
    calls: 0,
    async detect(input: NpovExample["input"], response: string) {
      d.calls++;
      await sleep(ms);
      return rouge.detect(input, response);
    },
  };
  return d;
}

// Short locks so a job whose worker vanished comes back within about a second.
const FAST = { lockDurationMs: 1000, stalledIntervalMs: 300, connectTimeoutMs: 3000 };
const QUEUE = { pollIntervalMs: 50, recheckIntervalMs: 500, backoffMs: 50 };

let redis: RedisServer;
const workers: QueueWorker[] = [];
const children: ChildProcess[] = [];
let queueCount = 0;
/** A fresh queue name per test, so one test's leftovers never feed another's workers. */
const freshQueue = () => `t${++queueCount}`;

async function worker(queueName: string, make: () => ErrorDetector | Promise<ErrorDetector>): Promise<QueueWorker> {
  const w = await startWorker({ url: redis.url, queueName, createDetector: async () => make(), ...FAST });
  workers.push(w);
  return w;
}

beforeAll(async () => {
  redis = await startRedisServer();
});
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.close()));
});
afterAll(async () => {
  for (const child of children) child.kill("SIGKILL");
  await redis?.dispose();
});

describe("planRun", () => {
  const specs = [{ method: "rouge" }];
  it("gives content-derived ids: same input, same ids; any change, new ids", () => {
    const a = planRun(dataset, specs, { chunkSize: 5 });
    const b = planRun(structuredClone(dataset), specs, { chunkSize: 5 });
    expect(b.runId).toBe(a.runId);
    expect(b.chunks.map((c) => c.jobId)).toEqual(a.chunks.map((c) => c.jobId));
    expect(a.chunks.length).toBe(Math.ceil(dataset.length / 5));
    expect(a.chunks.flatMap((c) => c.items.map((i) => i.index))).toEqual(dataset.map((_, i) => i));
    expect(new Set(a.chunks.map((c) => c.jobId)).size).toBe(a.chunks.length);
    // Only input and response travel: labels and ids do not change the jobs.
    const relabelled = dataset.map((e) => ({ ...e, id: "x", labels: { hallucination: true, coverage: true } }));
    expect(planRun(relabelled, specs, { chunkSize: 5 }).runId).toBe(a.runId);
    expect(a.chunks[0]?.items[0]?.example).toEqual({ input: dataset[0]?.input, response: dataset[0]?.response });
    const edited = dataset.map((e, i) => (i === 7 ? { ...e, response: `${e.response} More.` } : e));
    const c = planRun(edited, specs, { chunkSize: 5 });
    expect(c.runId).not.toBe(a.runId);
    expect(planRun(dataset, [{ method: "support" }], { chunkSize: 5 }).runId).not.toBe(a.runId);
    expect(planRun(dataset, specs, { chunkSize: 5, fields: ["words"] }).runId).not.toBe(a.runId);
    // Key order of a spec does not matter.
    expect(planRun(dataset, [{ method: "m", a: 1, b: 2 }]).runId).toBe(
      planRun(dataset, [{ b: 2, method: "m", a: 1 }]).runId,
    );
  });

  it("parses Redis URLs and refuses others with a typed error", () => {
    expect(parseQueueUrl("redis://localhost")).toMatchObject({ url: "redis://localhost:6379/0", port: 6379, db: 0 });
    expect(parseQueueUrl("rediss://:pw@h:7000/3")).toMatchObject({ url: "rediss://:pw@h:7000/3", tls: true, db: 3 });
    for (const bad of ["http://h:1/0", "redis://h:1/abc", "h:6379", "redis://h:1/0?x=1"])
      expect(() => parseQueueUrl(bad), bad).toThrow(QueueUrlError);
  });
});

describe("scoreOnQueue against redis-server", () => {
  let inProcess: ScoredRun;
  beforeAll(async () => {
    inProcess = await scoreInProcess(dataset, [rouge], { chunkSize: 4, fields: ["words"] });
  });

  it("gives the in-process results exactly, with 1 and with 2 workers", async () => {
    expect(inProcess.items.length).toBe(dataset.length);
    expect(inProcess.items.every((item, i) => item.index === i && !isFailedItem(item))).toBe(true);
    for (const count of [1, 2]) {
      const queueName = freshQueue();
      const started = await Promise.all(Array.from({ length: count }, () => worker(queueName, () => rouge)));
      const queued = await scoreOnQueue(dataset, [{ method: "rouge" }], {
        url: redis.url,
        queueName,
        chunkSize: 4,
        fields: ["words"],
        ...QUEUE,
      });
      expect(JSON.stringify(queued)).toBe(JSON.stringify(inProcess));
      const chunks = Math.ceil(dataset.length / 4);
      expect(started.reduce((n, w) => n + w.processed.chunks, 0)).toBe(chunks);
      if (count === 2) expect(started.every((w) => w.processed.chunks > 0)).toBe(true);
    }
  });

  it("builds each spec once per worker, and runs --concurrency jobs at once", async () => {
    const queueName = freshQueue();
    let builds = 0;
    let inFlight = 0;
    let maxInFlight = 0;
    const counting: ErrorDetector = {
      name: "rouge",
      async detect(input, response) {
        maxInFlight = Math.max(maxInFlight, ++inFlight);
        await sleep(5);
        inFlight--;
        return rouge.detect(input, response);
      },
    };
    const w = await startWorker({
      url: redis.url,
      queueName,
      concurrency: 3,
      createDetector: async () => {
        builds++;
        await sleep(50); // a model loading: concurrent jobs must wait for the same build
        return counting;
      },
      ...FAST,
    });
    workers.push(w);
    const run = await scoreOnQueue(dataset, [{ method: "rouge" }], {
      url: redis.url,
      queueName,
      chunkSize: 2,
      ...QUEUE,
    });
    expect(run.items.every((i) => !isFailedItem(i))).toBe(true);
    expect(builds).toBe(1);
    expect(maxInFlight).toBe(3);
    expect(w.processed).toEqual({ chunks: Math.ceil(dataset.length / 2), examples: dataset.length, failed: 0 });
  });

  it("evaluates a queued run exactly as evaluate() with the detector itself", async () => {
    const queueName = freshQueue();
    await worker(queueName, () => rouge);
    expect(evaluationFields(dataset)).toEqual(dataset.some((e) => e.wordLabels) ? ["words"] : []);
    const run = await scoreOnQueue(dataset, [{ method: "rouge" }], {
      url: redis.url,
      queueName,
      fields: evaluationFields(dataset),
      ...QUEUE,
    });
    const options = { bootstrap: { resamples: 50, seed: 3 } } as const;
    const { result, failed } = await evaluateScored(dataset, run, options);
    expect(failed).toEqual([]);
    expect(result).toEqual(await evaluate(dataset, [rouge], options));
    expect(result.rows.some((r) => r.level === "word")).toBe(dataset.some((e) => e.wordLabels));
  });

  it("records a poison example and an invalid one as failed items; the run completes", async () => {
    const queueName = freshQueue();
    const base = dataset[3] as NpovExample;
    const poison = { ...base, response: `${base.response} Poison.` };
    const picky: ErrorDetector = {
      name: "rouge",
      detect: (input, response) => {
        if (response.endsWith(" Poison.")) throw new TypeError("cannot read this one");
        return rouge.detect(input, response);
      },
    };
    const invalid = { input: { ...base.input, perspectives: base.input.perspectives.slice(0, 1) }, response: "r" };
    // dataset[0..2], poison, dataset[3..5], invalid, not an object, dataset[6..]
    const examples: unknown[] = [
      ...dataset.slice(0, 3),
      poison,
      ...dataset.slice(3, 6),
      invalid,
      42,
      ...dataset.slice(6),
    ];
    await worker(queueName, () => picky);
    const run = await scoreOnQueue(examples, [{ method: "rouge" }], {
      url: redis.url,
      queueName,
      chunkSize: 4,
      ...QUEUE,
    });
    expect(run.items.length).toBe(examples.length);
    const failed = run.items.filter(isFailedItem);
    expect(failed.map((f) => [f.index, f.error.code])).toEqual([
      [3, "DETECTOR_FAILED"],
      [7, "TOO_FEW_PERSPECTIVES"],
      [8, "INVALID_VALUE"],
    ]);
    expect(failed[0]?.error.message).toBe("rouge: cannot read this one");
    // Every other example has exactly its in-process scores (without word maps: not asked for here).
    const others = run.items.filter((i) => !isFailedItem(i)) as Array<{
      scores: Array<{ hallucination: number; coverage: number }>;
    }>;
    const expected = inProcess.items as Array<{ scores: Array<{ hallucination: number; coverage: number }> }>;
    expect(others.map((i) => i.scores.map((s) => [s.hallucination, s.coverage]))).toEqual(
      expected.map((i) => i.scores.map((s) => [s.hallucination, s.coverage])),
    );
    // The same poison in-process fails the same way.
    const local = await scoreInProcess(examples, [picky], { chunkSize: 4 });
    expect(JSON.stringify(local.items)).toBe(JSON.stringify(run.items));
  });

  it("records every item of a chunk whose detector cannot be built, after the retries", async () => {
    const queueName = freshQueue();
    let tries = 0;
    await worker(queueName, () => {
      tries++;
      throw new NpovError("MODEL_NOT_FOUND", "--model /nowhere: no such folder");
    });
    const run = await scoreOnQueue(dataset.slice(0, 6), [{ method: "salience", model: "/nowhere" }], {
      url: redis.url,
      queueName,
      chunkSize: 3,
      attempts: 2,
      ...QUEUE,
    });
    expect(run.items.map((i) => (isFailedItem(i) ? i.error : undefined))).toEqual(
      Array(6).fill({ code: "MODEL_NOT_FOUND", message: "--model /nowhere: no such folder" }),
    );
    expect(run.detectors).toEqual(["salience"]);
    expect(tries).toBe(4); // 2 chunks x 2 attempts; a failed build is not cached
    await expect(evaluateScored(dataset.slice(0, 6), run)).rejects.toMatchObject({ code: "ALL_EXAMPLES_FAILED" });
  });

  it("stops on abort with a resumable error; a re-run resumes and scores each example once", async () => {
    const queueName = freshQueue();
    const slow = slowRouge(15);
    await worker(queueName, () => slow);
    const controller = new AbortController();
    const options = { url: redis.url, queueName, chunkSize: 3, fields: ["words" as const], ...QUEUE };
    const first = await scoreOnQueue(dataset, [{ method: "rouge" }], {
      ...options,
      signal: controller.signal,
      onProgress: (done) => {
        if (done >= 6) controller.abort();
      },
    }).catch((e: unknown) => e);
    expect(first).toBeInstanceOf(RunInterruptedError);
    expect((first as RunInterruptedError).resumable).toBe(true);
    expect((first as RunInterruptedError).done).toBeGreaterThanOrEqual(6);
    expect((first as RunInterruptedError).done).toBeLessThan(dataset.length);
    let resumedFrom = -1;
    const second = await scoreOnQueue(dataset, [{ method: "rouge" }], {
      ...options,
      onEnqueued: (r) => {
        resumedFrom = r.resumed;
      },
    });
    expect(resumedFrom).toBeGreaterThanOrEqual(2);
    expect(JSON.stringify(second.items)).toBe(JSON.stringify(inProcess.items));
    expect(slow.calls).toBe(dataset.length); // nothing scored twice
    // The run cleaned up after itself.
    const client = await connectRedis(redis.url);
    expect(await client.hLen(resultsKey(queueName, second.runId))).toBe(0);
    await closeRedis(client);
  });

  it("in-process runs stop on abort too (not resumable)", async () => {
    const controller = new AbortController();
    const error = await scoreInProcess(dataset, [slowRouge(2)], {
      chunkSize: 3,
      signal: controller.signal,
      onProgress: (done) => {
        if (done >= 3) controller.abort();
      },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RunInterruptedError);
    expect(error).toMatchObject({ code: "RUN_INTERRUPTED", resumable: false, done: 3, total: dataset.length });
  });

  it("fails fast and clearly when Redis is not there", async () => {
    const port = await freePort();
    const started = Date.now();
    await expect(
      scoreOnQueue(dataset, [{ method: "rouge" }], { url: `redis://127.0.0.1:${port}/0`, connectTimeoutMs: 300 }),
    ).rejects.toBeInstanceOf(QueueUnreachableError);
    expect(Date.now() - started).toBeLessThan(3000);
    await expect(startRedisServer({ binary: "/nonexistent/redis-server" })).rejects.toBeInstanceOf(
      RedisServerMissingError,
    );
  });
});

describe("connecting and stopping: typed errors, no hangs, nothing left behind", () => {
  it("a queue name BullMQ cannot use is INVALID_QUEUE_NAME before any connection", async () => {
    const dead = `redis://127.0.0.1:${await freePort()}/0`;
    for (const queueName of ["a:b", ""]) {
      await expect(scoreOnQueue(dataset, [{ method: "rouge" }], { url: dead, queueName })).rejects.toMatchObject({
        code: "INVALID_QUEUE_NAME",
      });
      await expect(startWorker({ url: dead, queueName, createDetector: async () => rouge })).rejects.toMatchObject({
        code: "INVALID_QUEUE_NAME",
      });
    }
  });

  it("a Redis that needs a password: QUEUE_AUTH_FAILED for the command and the worker; with it, they work", async () => {
    const port = await freePort();
    const child = spawn(
      "redis-server",
      ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--requirepass", "sekret"],
      {
        stdio: "ignore",
      },
    );
    try {
      const url = `redis://127.0.0.1:${port}/0`;
      // Wait until it accepts connections (the refusal below must be the password, not a closed port).
      for (let i = 0; i < 100; i++) {
        const open = await new Promise<boolean>((resolve) => {
          const socket = connect(port, "127.0.0.1");
          socket.once("connect", () => {
            socket.destroy();
            resolve(true);
          });
          socket.once("error", () => resolve(false));
        });
        if (open) break;
        await sleep(50);
      }
      await expect(scoreOnQueue(dataset, [{ method: "rouge" }], { url, connectTimeoutMs: 3000 })).rejects.toMatchObject(
        {
          code: "QUEUE_AUTH_FAILED",
          message: expect.stringContaining("NOAUTH"),
        },
      );
      await expect(
        startWorker({ url, createDetector: async () => rouge, connectTimeoutMs: 3000 }),
      ).rejects.toMatchObject({
        code: "QUEUE_AUTH_FAILED",
      });
      // A wrong password is refused at once (node-redis would retry the handshake until the timeout).
      const started = Date.now();
      const wrong = `redis://:wrong@127.0.0.1:${port}/0`;
      await expect(
        startWorker({ url: wrong, createDetector: async () => rouge, connectTimeoutMs: 10_000 }),
      ).rejects.toMatchObject({ code: "QUEUE_AUTH_FAILED", message: expect.stringContaining("WRONGPASS") });
      await expect(
        scoreOnQueue(dataset, [{ method: "rouge" }], { url: wrong, connectTimeoutMs: 10_000 }),
      ).rejects.toMatchObject({ code: "QUEUE_AUTH_FAILED" });
      expect(Date.now() - started).toBeLessThan(5000);
      const w = await startWorker({ url: `redis://:sekret@127.0.0.1:${port}/0`, createDetector: async () => rouge });
      await w.close();
    } finally {
      child.kill("SIGKILL");
    }
  });

  it("Ctrl-C while connecting stops at once with RUN_INTERRUPTED", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = Date.now();
    // A blackhole address: the connect would wait for its whole timeout.
    const error = await scoreOnQueue(dataset, [{ method: "rouge" }], {
      url: "redis://10.255.255.1:6379/0",
      connectTimeoutMs: 10_000,
      signal: controller.signal,
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "RUN_INTERRUPTED", done: 0, total: dataset.length, resumable: true });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("a worker stops while its Redis is down, and a server's own folder goes with it", async () => {
    const server = await startRedisServer();
    let errors = 0;
    const w = await startWorker({
      url: server.url,
      createDetector: async () => rouge,
      ...FAST,
      onError: () => {
        errors++;
      },
    });
    await server.kill();
    await sleep(300);
    // A polite close would wait for Redis forever; BullMQ's blocking connection kept reconnecting after it.
    const started = Date.now();
    await w.close();
    expect(Date.now() - started).toBeLessThan(3000);
    const after = errors;
    await sleep(1500);
    expect(errors).toBe(after);
    expect(existsSync(server.dir)).toBe(true);
    await server.dispose();
    expect(existsSync(server.dir)).toBe(false);
  }, 20_000);
});

describe("a worker process that dies on an example", () => {
  it("gets the job retried twice, then the chunk's examples are JOB_FAILED items and the run completes", async () => {
    const queueName = freshQueue();
    // Each worker is its own Node process (the built package) that exits on the poison example.
    const script = `
      import { startWorker } from "@npov/queue";
      await startWorker({
        url: ${JSON.stringify(redis.url)}, queueName: ${JSON.stringify(queueName)}, lockDurationMs: 800, stalledIntervalMs: 300,
        createDetector: async () => ({ name: "rouge", detect: (input, response) => {
          if (response.endsWith(" Crash.")) process.exit(9);
          return { hallucination: response.length % 7 / 7, coverage: 0 };
        } }),
      });`;
    const spawnWorker = () =>
      new Promise<number | null>((resolve) => {
        const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
          cwd: fileURLToPath(new URL("..", import.meta.url)),
          stdio: "ignore",
        });
        children.push(child);
        child.once("exit", (code) => resolve(code));
      });
    const examples = dataset.slice(0, 6).map((e, i) => (i === 1 ? { ...e, response: `${e.response} Crash.` } : e));
    let finished = false;
    const run = scoreOnQueue(examples, [{ method: "rouge" }], { url: redis.url, queueName, chunkSize: 2, ...QUEUE });
    run.then(
      () => {
        finished = true;
      },
      () => {
        finished = true;
      },
    );
    const exits: Array<number | null> = [];
    // Workers crash on chunk 0 until the queue gives up on it; the last one scores the rest and lives.
    while (!finished && exits.length < 3) exits.push(await spawnWorker());
    const last = spawnWorker();
    const result = await run;
    expect(exits).toEqual([9, 9, 9]); // the first try and two retries after each worker's death
    expect(result.items.map((i) => (isFailedItem(i) ? i.error.code : "scored"))).toEqual([
      "JOB_FAILED",
      "JOB_FAILED",
      "scored",
      "scored",
      "scored",
      "scored",
    ]);
    expect((result.items[0] as { error: { message: string } }).error.message).toMatch(/gave up on chunk 0: .*stalled/);
    for (const child of children.splice(0)) child.kill("SIGKILL");
    await last;
  }, 30_000);
});

describe("Redis restarted mid-run", () => {
  let server: RedisServer | undefined;
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((w) => w.close()));
    await server?.dispose();
  });

  for (const persist of [true, false])
    it(`completes with the in-process results (${persist ? "append-only file: jobs survive" : "no persistence: lost jobs are added again"})`, async () => {
      server = await startRedisServer({ persist });
      const slow = slowRouge(10);
      const w = await startWorker({ url: server.url, createDetector: async () => slow, ...FAST });
      workers.push(w);
      let done = 0;
      const run = scoreOnQueue(dataset, [{ method: "rouge" }], {
        url: server.url,
        chunkSize: 3,
        ...QUEUE,
        onProgress: (d) => {
          done = d;
        },
      });
      while (done < 6) await sleep(10);
      const before = done;
      await (persist ? server.stop() : server.kill());
      await sleep(300);
      await server.start();
      const queued = await run;
      expect(before).toBeLessThan(dataset.length);
      const local = await scoreInProcess(dataset, [slowRouge(0)], { chunkSize: 3 });
      expect(JSON.stringify(queued.items)).toBe(JSON.stringify(local.items));
      expect(slow.calls).toBeGreaterThanOrEqual(dataset.length);
    }, 30_000);
});
