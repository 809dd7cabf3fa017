/**
 * A queue worker: takes chunk jobs from the BullMQ queue, builds the detectors each job names (once per
 * spec for the worker's lifetime, so a model loads once), scores the chunk with {@link scoreChunk} and
 * stores the result in the run's Redis hash. Run as many workers as you like, on any machine that reaches
 * Redis; the package never depends on the detector packages: the caller passes the factory.
 */
import type { ErrorDetector } from "@npov/core";
import { type ConnectionOptions, type Job, Worker } from "bullmq";
import { CHUNK_JOB_FORMAT, type ChunkJobData, DEFAULT_QUEUE_NAME, RESULTS_TTL_SECONDS } from "./jobs.js";
import { atMost, checkQueueName, closeRedis, connectRedis, refusedOptions, trackDuplicates } from "./redis.js";
import {
  type ChunkResult,
  type DetectorSpecJson,
  encodeChunkResult,
  isFailedItem,
  itemError,
  scoreChunk,
  stableJson,
} from "./score.js";

/** What a worker reports after each chunk. */
export interface ChunkReport {
  runId: string;
  chunk: number;
  jobId: string;
  examples: number;
  failed: number;
  /** Wall time of scoring the chunk (detector loading included the first time). */
  ms: number;
}

/** Options of {@link startWorker}. */
export interface StartWorkerOptions<Spec extends DetectorSpecJson = DetectorSpecJson> {
  /** Redis URL, `redis://HOST:PORT/DB`. */
  url: string;
  /** BullMQ queue name (default "npov"). */
  queueName?: string;
  /**
   * Build the detector of a spec (e.g. the CLI's registry). Called once per distinct spec for the worker's
   * lifetime; a failure is not cached (the job's retry tries again).
   */
  createDetector: (spec: Spec) => Promise<ErrorDetector>;
  /** Release the detectors when the worker closes (default: `dispose()` each). */
  releaseDetectors?: (detectors: ErrorDetector[]) => Promise<void>;
  /**
   * Jobs scored at once in this process (default 1). More helps detectors that wait on I/O (endpoint
   * methods); for CPU-bound detectors run more worker processes instead. Detectors are shared between
   * concurrent jobs.
   */
  concurrency?: number;
  /**
   * How long a job stays locked without a renewal (default 30000 ms); a worker renews its locks every
   * half of it. When a worker dies, its jobs go back to the queue this long after the last renewal.
   */
  lockDurationMs?: number;
  /** How often this worker looks for jobs whose worker died (default 30000 ms). */
  stalledIntervalMs?: number;
  /** Times a job may lose its worker before the queue gives up on it (default 2). */
  maxStalledCount?: number;
  /** Fail with QueueUnreachableError when Redis does not answer this soon at the start (default 5000 ms). */
  connectTimeoutMs?: number;
  /** Called when this worker starts a job (before any example is scored). */
  onStart?: (job: { runId: string; chunk: number; jobId: string }) => void;
  /** Called after each stored chunk result. */
  onChunk?: (report: ChunkReport) => void;
  /** Called when this worker hands a job whose worker died back to the queue. */
  onStalled?: (jobId: string) => void;
  /** Connection problems (Redis restarting); the worker keeps reconnecting. */
  onError?: (error: Error) => void;
}

/** A running worker. */
export interface QueueWorker {
  /** Chunks and examples this worker has stored results for. */
  readonly processed: { chunks: number; examples: number; failed: number };
  /** Stop taking jobs, finish the running ones, release the detectors and disconnect. */
  close(): Promise<void>;
}

/**
 * Start a worker on `options.url`. Resolves once it is connected and waiting for jobs.
 * @throws QueueUrlError, QueueUnreachableError
 */
export async function startWorker<Spec extends DetectorSpecJson = DetectorSpecJson>(
  options: StartWorkerOptions<Spec>,
): Promise<QueueWorker> {
  const queueName = checkQueueName(options.queueName ?? DEFAULT_QUEUE_NAME);
  const client = await connectRedis(options.url, {
    ...(options.connectTimeoutMs === undefined ? {} : { connectTimeoutMs: options.connectTimeoutMs }),
    ...(options.onError === undefined ? {} : { onError: options.onError }),
  });
  const destroyDuplicates = trackDuplicates(client);
  const detectors = new Map<string, Promise<ErrorDetector>>();
  const detectorOf = (spec: Spec): Promise<ErrorDetector> => {
    const key = stableJson(spec);
    let detector = detectors.get(key);
    if (detector === undefined) {
      detector = options.createDetector(spec);
      detectors.set(key, detector);
      detector.catch(() => detectors.delete(key));
    }
    return detector;
  };
  const processed = { chunks: 0, examples: 0, failed: 0 };

  const processJob = async (job: Job<ChunkJobData>): Promise<{ examples: number; failed: number }> => {
    const started = performance.now();
    const data = job.data;
    if (data?.format === CHUNK_JOB_FORMAT)
      options.onStart?.({ runId: data.runId, chunk: data.chunk, jobId: String(job.id) });
    let result: ChunkResult;
    try {
      if (data?.format !== CHUNK_JOB_FORMAT)
        throw new Error(`job ${job.id} is not an npov chunk job of format ${CHUNK_JOB_FORMAT}`);
      const chunkDetectors: ErrorDetector[] = [];
      for (const spec of data.specs) chunkDetectors.push(await detectorOf(spec as Spec));
      result = await scoreChunk(data.chunk, chunkDetectors, data.items, data.fields);
    } catch (error) {
      // Per-example errors never get here (they are failed items); this is the chunk as a whole (a
      // detector that cannot be built here, a malformed job). Retry; on the last try record every item
      // as failed with the error, so the run completes and says why.
      if (job.attemptsMade + 1 < (job.opts.attempts ?? 1) || !Array.isArray(data?.items)) throw error;
      const failure = itemError(error);
      result = {
        chunk: data.chunk,
        detectors: (data.specs ?? []).map((s) => s.method),
        items: data.items.map((i) => ({ index: i.index, error: failure })),
      };
    }
    await client
      .multi()
      .hSet(data.resultsKey, String(job.id), encodeChunkResult(result))
      .expire(data.resultsKey, RESULTS_TTL_SECONDS)
      .exec();
    const failed = result.items.filter(isFailedItem).length;
    processed.chunks++;
    processed.examples += result.items.length;
    processed.failed += failed;
    options.onChunk?.({
      runId: data.runId,
      chunk: data.chunk,
      jobId: String(job.id),
      examples: result.items.length,
      failed,
      ms: performance.now() - started,
    });
    return { examples: result.items.length, failed };
  };

  const worker = await refusedOptions(
    client,
    () =>
      new Worker<ChunkJobData>(queueName, processJob, {
        connection: client as unknown as ConnectionOptions,
        concurrency: options.concurrency ?? 1,
        lockDuration: options.lockDurationMs ?? 30_000,
        stalledInterval: options.stalledIntervalMs ?? 30_000,
        maxStalledCount: options.maxStalledCount ?? 2,
      }),
  );
  worker.on("error", (error) => options.onError?.(error));
  worker.on("stalled", (jobId) => options.onStalled?.(jobId));
  try {
    await worker.waitUntilReady();
  } catch (error) {
    // Do not leave a half-started worker holding the connection open (the process would never exit).
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      worker.close(true).catch(() => {}),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, 2000);
      }),
    ]);
    clearTimeout(timer);
    destroyDuplicates();
    await closeRedis(client);
    throw error;
  }

  let closing: Promise<void> | undefined;
  return {
    processed,
    close() {
      closing ??= (async () => {
        // Running jobs finish first; but with Redis away they can neither finish nor be handed back, and
        // a polite close would wait for Redis forever: then close at once (their locks expire, and the
        // stalled-job check gives them to another worker).
        let polling: NodeJS.Timeout | undefined;
        const redisGone = new Promise<"gone">((resolve) => {
          const check = () => {
            if (!client.isReady) resolve("gone");
            else polling = setTimeout(check, 250);
          };
          check();
        });
        // With Redis already away, skip the polite close: BullMQ remembers the first close it is asked for.
        const outcome = !client.isReady
          ? "gone"
          : await Promise.race([worker.close().then(() => "closed" as const), redisGone]);
        clearTimeout(polling);
        if (outcome === "gone") {
          // A polite close waits for Redis to answer; its connections would reconnect for ever meanwhile.
          destroyDuplicates();
          await atMost(worker.close(true), 2000);
        }
        destroyDuplicates();
        const built = await Promise.allSettled(detectors.values());
        const ready = built.flatMap((b) => (b.status === "fulfilled" ? [b.value] : []));
        try {
          if (options.releaseDetectors !== undefined) await options.releaseDetectors(ready);
          else for (const d of ready) await d.dispose?.();
        } finally {
          await closeRedis(client);
        }
      })();
      return closing;
    },
  };
}
