/**
 * The queued runner: enqueue a run's chunks on a BullMQ queue (idempotent job ids), let `npov worker`
 * processes anywhere score them, and gather the results in input order.
 *
 * Fault behaviour: results live in a Redis hash keyed by job id, so a re-run of the same command (after
 * Ctrl-C or a crash) finds what is done and re-adds only what is missing; a worker killed mid-job loses
 * its lock and BullMQ's stalled-job check hands the job to another worker; while Redis restarts, every
 * client waits and reconnects, and jobs that a Redis without persistence lost are added again (checked
 * after each reconnect and every `recheckIntervalMs`).
 */

import { pushAll } from "@npov/core";
import { type ConnectionOptions, Queue } from "bullmq";
import { RunInterruptedError } from "./errors.js";
import { CHUNK_JOB_FORMAT, CHUNK_JOB_NAME, type ChunkJobData, DEFAULT_QUEUE_NAME, resultsKey } from "./jobs.js";
import { type PlannedChunk, planRun, type RunPlan } from "./plan.js";
import { atMost, checkQueueName, closeRedis, connectRedis, refusedOptions } from "./redis.js";
import { assembleRun, failedChunk, type RunOptions, type ScoredRun } from "./run.js";
import { type ChunkResult, type DetectorSpecJson, decodeChunkResult } from "./score.js";

/** What {@link scoreOnQueue} reports once its jobs are on the queue. */
export interface EnqueuedRun {
  runId: string;
  queueName: string;
  /** Chunks (jobs) of the run. */
  chunks: number;
  /** Chunks whose results an earlier run of the same command left in Redis. */
  resumed: number;
  /** Jobs added now (the others were already waiting or running). */
  added: number;
}

/** Options of {@link scoreOnQueue}. */
export interface QueueRunOptions extends RunOptions {
  /** Redis URL, `redis://HOST:PORT/DB`. */
  url: string;
  /** BullMQ queue name; workers must use the same (default "npov"). */
  queueName?: string;
  /** Tries per job before its examples are recorded as failed with the error (default 3). */
  attempts?: number;
  /** First retry delay; doubles per retry (default 1000 ms). */
  backoffMs?: number;
  /** How often to look for new results (default 200 ms). */
  pollIntervalMs?: number;
  /** How often to check that unfinished jobs still exist (default 10 s; also after every reconnect). */
  recheckIntervalMs?: number;
  /** Fail with QueueUnreachableError when Redis does not answer this soon at the start (default 5000 ms). */
  connectTimeoutMs?: number;
  /** Leave the run's results in Redis after gathering them (default: delete them). */
  keepResults?: boolean;
  /** Called once the run's jobs are on the queue. */
  onEnqueued?: (run: EnqueuedRun) => void;
  /** Connection problems while the run waits (Redis restarting); the run keeps waiting and resumes. */
  onConnectionError?: (error: Error) => void;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });

/** `promise`, or the abort of `signal` first (a command waiting on an unreachable Redis still stops at once). */
function abortable<T>(promise: Promise<T>, signal: AbortSignal | undefined, onAbort: () => Error): Promise<T> {
  if (signal === undefined) return promise;
  if (signal.aborted) return Promise.reject(onAbort());
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(onAbort());
    signal.addEventListener("abort", abort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", abort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", abort);
        reject(error);
      },
    );
  });
}

/** Run `fn` over `items` with at most `width` calls in flight (node-redis pipelines them). */
async function inBatches<T, R>(items: readonly T[], width: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += width) pushAll(out, await Promise.all(items.slice(i, i + width).map(fn)));
  return out;
}

/**
 * Score examples on a Redis job queue with the detectors named by `specs` (workers build them). Returns
 * when every chunk has a result: scored items, and failed items for invalid examples, examples a detector
 * threw on, and chunks that failed on every try. The same call again after an interruption resumes.
 * @throws QueueUrlError, QueueUnreachableError (at the start), RunInterruptedError (signal aborted)
 */
export async function scoreOnQueue(
  examples: readonly unknown[],
  specs: readonly DetectorSpecJson[],
  options: QueueRunOptions,
): Promise<ScoredRun> {
  const plan = planRun(examples, specs, options);
  const queueName = checkQueueName(options.queueName ?? DEFAULT_QUEUE_NAME);
  let client: Awaited<ReturnType<typeof connectRedis>>;
  try {
    client = await connectRedis(options.url, {
      ...(options.connectTimeoutMs === undefined ? {} : { connectTimeoutMs: options.connectTimeoutMs }),
      ...(options.onConnectionError === undefined ? {} : { onError: options.onConnectionError }),
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
  } catch (error) {
    // Ctrl-C while connecting: nothing was queued yet.
    if (options.signal?.aborted) throw new RunInterruptedError(0, plan.total, true);
    throw error;
  }
  const queue = await refusedOptions(
    client,
    () =>
      new Queue<ChunkJobData>(queueName, {
        connection: client as unknown as ConnectionOptions,
        defaultJobOptions: {
          attempts: options.attempts ?? 3,
          backoff: { type: "exponential", delay: options.backoffMs ?? 1000 },
          // Results go to the run's hash, so finished jobs need not stay; failed ones stay for inspection
          // until the run that owns them has recorded them.
          removeOnComplete: true,
          removeOnFail: false,
        },
      }),
  );
  queue.on("error", (error) => options.onConnectionError?.(error));
  const run = new QueuedRun(plan, queue, client, resultsKey(queueName, plan.runId), options);
  // A reconnect may mean Redis restarted and lost jobs: check them at the next poll.
  const onReady = () => {
    run.recheckDue = true;
  };
  client.on("ready", onReady);
  const interrupted = () => run.interrupted();
  try {
    await abortable(run.collect(), options.signal, interrupted);
    const added = await abortable(run.ensureJobs(true), options.signal, interrupted);
    options.onEnqueued?.({
      runId: plan.runId,
      queueName,
      chunks: plan.chunks.length,
      resumed: run.results.size,
      added,
    });
    await run.wait();
    // Best effort: every result is in hand, so a Redis that went away now must not hold up the output
    // (the results hash expires by itself).
    if (options.keepResults !== true) await atMost(run.cleanUp(), 2000);
  } finally {
    client.off?.("ready", onReady);
    await atMost(queue.close(), 2000);
    await closeRedis(client);
  }
  return assembleRun(plan, run.results);
}

/** The state of one queued run while it waits for its results. */
class QueuedRun {
  readonly results = new Map<string, ChunkResult>();
  recheckDue = false;
  private readonly byJob: Map<string, PlannedChunk>;
  /** Size of the results hash at the last look (-1: never looked). */
  private lastHashSize = -1;
  private readonly failedJobs: string[] = [];
  private done = 0;

  constructor(
    private readonly plan: RunPlan,
    private readonly queue: Queue<ChunkJobData>,
    private readonly client: Awaited<ReturnType<typeof connectRedis>>,
    private readonly key: string,
    private readonly options: QueueRunOptions,
  ) {
    this.byJob = new Map(plan.chunks.map((c) => [c.jobId, c]));
  }

  /** The error of a stop by the abort signal, with the progress so far. */
  interrupted(): RunInterruptedError {
    return new RunInterruptedError(this.done, this.plan.total, true);
  }

  private pending(): PlannedChunk[] {
    return this.plan.chunks.filter((c) => !this.results.has(c.jobId));
  }

  private record(jobId: string, result: ChunkResult): void {
    if (this.results.has(jobId)) return;
    this.results.set(jobId, result);
    this.done += result.items.length;
    this.options.onProgress?.(this.done, this.plan.total);
  }

  /**
   * Read results workers stored since the last look: when the hash changed size, or always with `force`
   * (a Redis that restarted empty refills the hash from zero, so its size alone can repeat).
   */
  async collect(force = false): Promise<void> {
    const size = await this.client.hLen(this.key);
    if (!force && size === this.lastHashSize) return;
    this.lastHashSize = size;
    const fresh = (await this.client.hKeys(this.key)).filter((k) => this.byJob.has(k) && !this.results.has(k));
    for (let i = 0; i < fresh.length; i += 200) {
      const keys = fresh.slice(i, i + 200);
      const values = await this.client.hmGet(this.key, keys);
      keys.forEach((jobId, k) => {
        const value = values[k];
        if (typeof value === "string") this.record(jobId, decodeChunkResult(value));
      });
    }
  }

  private jobData(chunk: PlannedChunk): ChunkJobData {
    return {
      format: CHUNK_JOB_FORMAT,
      runId: this.plan.runId,
      chunk: chunk.chunk,
      resultsKey: this.key,
      specs: this.plan.specs,
      fields: this.plan.fields,
      items: chunk.items,
    };
  }

  /**
   * Make sure every unfinished chunk has a job: add missing ones (never added, or lost with a Redis that
   * restarted without persistence). A failed job (BullMQ gave up on it: a worker died on it too often) is
   * retried when the run starts and recorded as failed items while it waits. Returns the number of jobs added.
   */
  async ensureJobs(starting: boolean): Promise<number> {
    const pending = this.pending();
    const states = await inBatches(pending, 100, (c) => this.queue.getJobState(c.jobId));
    const toAdd: PlannedChunk[] = [];
    for (const [k, chunk] of pending.entries()) {
      const state = states[k];
      if (state === "unknown" || state === "completed" || state === "failed") {
        // A worker may have stored its result between our last look and now (even for a job the queue
        // gave up on: a worker that blocked its event loop past its lock still stores its result); the
        // next look collects it.
        if (await this.client.hExists(this.key, chunk.jobId)) {
          if (state === "failed") this.failedJobs.push(chunk.jobId);
          continue;
        }
      }
      if (state === "unknown" || state === "completed") {
        if (state === "completed") await this.queue.remove(chunk.jobId);
        toAdd.push(chunk);
      } else if (state === "failed") {
        if (starting) {
          await this.queue.remove(chunk.jobId);
          toAdd.push(chunk);
        } else {
          const job = await this.queue.getJob(chunk.jobId);
          const reason = job?.failedReason || "unknown reason";
          this.failedJobs.push(chunk.jobId);
          this.record(
            chunk.jobId,
            failedChunk(
              chunk,
              this.plan.specs.map((s) => s.method),
              {
                code: "JOB_FAILED",
                message: `the queue gave up on chunk ${chunk.chunk}: ${reason} (a worker process died while scoring it, each time it was tried: one of its examples may crash workers)`,
              },
            ),
          );
        }
      }
    }
    for (let i = 0; i < toAdd.length; i += 500) {
      const jobs = toAdd
        .slice(i, i + 500)
        .map((c) => ({ name: CHUNK_JOB_NAME, data: this.jobData(c), opts: { jobId: c.jobId } }));
      try {
        await this.queue.addBulk(jobs);
      } catch {
        // A Redis that just restarted has lost BullMQ's Lua scripts; a bulk add (a transaction of script
        // calls) fails with NOSCRIPT where a single add reloads the script. Job ids make re-adding safe.
        for (const job of jobs) await this.queue.add(job.name, job.data, job.opts);
      }
    }
    return toAdd.length;
  }

  /** Poll until every chunk has a result. @throws RunInterruptedError */
  async wait(): Promise<void> {
    const poll = this.options.pollIntervalMs ?? 200;
    const recheck = this.options.recheckIntervalMs ?? 10_000;
    const signal = this.options.signal;
    const interrupted = () => this.interrupted();
    let lastCheck = Date.now();
    while (this.results.size < this.plan.chunks.length) {
      if (signal?.aborted) throw this.interrupted();
      await sleep(poll, signal);
      try {
        await abortable(this.collect(), signal, interrupted);
        if (this.recheckDue || Date.now() - lastCheck >= recheck) {
          this.recheckDue = false;
          lastCheck = Date.now();
          await abortable(this.collect(true), signal, interrupted);
          await abortable(this.ensureJobs(false), signal, interrupted);
        }
      } catch (error) {
        if (error instanceof RunInterruptedError) throw error;
        // Redis went away mid-command (restart, network): report, keep waiting, check the jobs once back.
        this.options.onConnectionError?.(error as Error);
        this.recheckDue = true;
      }
    }
  }

  /** Delete the run's results hash and the failed jobs it recorded (a new run scores afresh). */
  async cleanUp(): Promise<void> {
    await this.client.del(this.key);
    for (const jobId of this.failedJobs) await this.queue.remove(jobId).catch(() => 0);
  }
}
