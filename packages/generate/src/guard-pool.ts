/**
 * A guard whose checks run on worker threads, so a long check (a 250 KB response, a slow model) never
 * blocks the server's event loop: health checks and other requests stay fast while it runs. Each worker
 * loads its own guard from the guard config; checks wait in a bounded queue for a free worker. The pool
 * also enforces the config's `timeoutMs` on any detector, synchronous ones included, by ending the
 * worker that overruns (and starting a fresh one).
 */
import { availableParallelism } from "node:os";
import { isAbsolute, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import {
  type AnyGuardConfig,
  type Guard,
  type GuardErrorPolicy,
  type GuardThresholds,
  GuardTimeoutError,
  type GuardVerdict,
  guardConfigDetectors,
  guardConfigThresholds,
  loadGuardConfig,
} from "@npov/classifier";
import { type CheckInput, InvalidValueError, NotTextError, NpovError, validateCheckInput } from "@npov/core";
import { GuardBusyError, GuardWorkerError } from "./errors.js";

/** How workers build their guard: `(await import(module))[export](config)` must return a Guard. */
export interface GuardLoader {
  /**
   * A file: URL, an absolute or ./relative file path (resolved from the working directory), or a package
   * name (resolved from @npov/generate).
   */
  module: string;
  /** The export to call with the guard config (default "loadGuard"). */
  export?: string;
}

export interface GuardPoolOptions {
  /** A guard.json path (read and validated here first) or a config object; each worker loads its guard from it. */
  config: string | AnyGuardConfig;
  /** Worker threads (default: the cores minus one, from 1 to 4). */
  threads?: number;
  /** Default: `loadGuard` of @npov/classifier, i.e. the built-in detector methods. */
  loader?: GuardLoader;
  /** Checks that may wait for a free worker; one more is refused with GUARD_BUSY (default 256). */
  maxQueue?: number;
}

/** @internal What a worker receives at start. */
export interface GuardWorkerData {
  module: string;
  export: string;
  config: string | AnyGuardConfig;
}
/** @internal The worker's first message. */
export type WorkerSetup = { ready: true } | { ready: false; error: SerializedError };
/** @internal A check sent to a worker. */
export interface WorkerRequest {
  id: number;
  input: CheckInput;
  response: string;
}
/** @internal A worker's answer to a check. */
export interface WorkerReply {
  id: number;
  verdict?: GuardVerdict;
  error?: SerializedError;
}
/** @internal A typed error as it crosses threads. */
export interface SerializedError {
  code: string;
  message: string;
  name: string;
  path?: string;
}

interface Job {
  request: Omit<WorkerRequest, "id">;
  resolve(verdict: GuardVerdict): void;
  reject(error: unknown): void;
}

interface Slot {
  worker: Worker | undefined;
  job: (Job & { id: number; timer: NodeJS.Timeout | undefined }) | undefined;
}

const NO_WORKER =
  "no guard worker is running and none could be restarted (npov retries with backoff; check the guard's model files, or restart the server).";

/** A typed error rebuilt from a worker's `{code, message}` (the class does not cross threads; the code does). */
function rebuild(e: SerializedError): NpovError {
  const error = new NpovError(e.code, e.message, e.path === undefined ? {} : { path: e.path });
  error.name = e.name;
  return error;
}

/**
 * The worker script: compiled next to this file; when this file runs from source (tests import src through
 * aliases), the built copy in dist -- a worker thread cannot load TypeScript.
 */
function workerFile(): URL {
  const here = new URL(import.meta.url);
  return here.pathname.endsWith(".ts") ? new URL("../dist/guard-worker.js", here) : new URL("./guard-worker.js", here);
}

function loaderModule(module: string): string {
  if (module.startsWith("file:")) return module;
  if (module.startsWith(".") || isAbsolute(module)) return pathToFileURL(resolve(module)).href;
  return module;
}

function checkCount(value: unknown, path: string, max: number): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1 || value > max)
    throw new InvalidValueError(path, `must be a whole number from 1 to ${max}, got ${String(value)}.`);
  return value;
}

/** A {@link Guard} that runs checks on worker threads; create with {@link startGuardPool}, end with `close()`. */
export class GuardPool implements Guard {
  readonly thresholds: GuardThresholds;
  /** Worker threads. */
  readonly threads: number;
  private readonly slots: Slot[];
  private readonly queue: Job[] = [];
  private readonly data: GuardWorkerData;
  private readonly onError: GuardErrorPolicy;
  private readonly timeoutMs: number | undefined;
  private readonly maxQueue: number;
  private readonly detector: string;
  private nextId = 0;
  private spawned = 0;
  /** Workers being started now. */
  private starting = 0;
  /** Restarts waiting for their backoff to pass. */
  private readonly retries = new Set<NodeJS.Timeout>();
  private closed = false;

  private constructor(config: AnyGuardConfig, data: GuardWorkerData, threads: number, maxQueue: number) {
    this.thresholds = guardConfigThresholds(config);
    this.threads = threads;
    this.data = data;
    this.onError = config.onError ?? "block";
    this.timeoutMs = config.timeoutMs;
    this.maxQueue = maxQueue;
    this.detector = guardConfigDetectors(config)
      .map((d) => d.method)
      .join(">");
    this.slots = Array.from({ length: threads }, () => ({ worker: undefined, job: undefined }));
  }

  /** @internal Use {@link startGuardPool}. */
  static async start(options: GuardPoolOptions): Promise<GuardPool> {
    const config = typeof options.config === "string" ? loadGuardConfig(options.config) : options.config;
    const threads = checkCount(options.threads ?? Math.max(1, Math.min(4, availableParallelism() - 1)), "threads", 64);
    const maxQueue = checkCount(options.maxQueue ?? 256, "maxQueue", 1_000_000);
    const data: GuardWorkerData = {
      module: loaderModule(options.loader?.module ?? "@npov/classifier"),
      export: options.loader?.export ?? "loadGuard",
      config: options.config,
    };
    const pool = new GuardPool(config, data, threads, maxQueue);
    try {
      await Promise.all(pool.slots.map((slot) => pool.spawn(slot)));
    } catch (error) {
      await pool.close();
      throw error;
    }
    return pool;
  }

  /** Checks waiting for a free worker. */
  get queued(): number {
    return this.queue.length;
  }

  /** Checks running on a worker now. */
  get running(): number {
    return this.slots.filter((s) => s.job !== undefined).length;
  }

  /**
   * Check on a worker thread. Same contract as {@link Guard.check}, with the config's `onError` policy also
   * covering the pool's own failures: a check over `timeoutMs` (GUARD_TIMEOUT) and a crashed worker
   * (GUARD_WORKER_FAILED) are blocked verdicts, or thrown under "throw".
   * @throws GuardBusyError when `maxQueue` checks already wait (whatever the policy: retry later);
   *   GuardWorkerError after `close()`; whatever the worker's guard throws (rebuilt with the same code).
   */
  async check(input: CheckInput, response: string): Promise<GuardVerdict> {
    if (this.closed) throw new GuardWorkerError("the guard pool is closed.");
    // The developer errors of Guard.check, thrown here; the clean copy is also safe to post to a thread.
    const clean = validateCheckInput(input);
    if (typeof response !== "string") throw new NotTextError("response", response);
    const idle = this.slots.find((s) => s.worker !== undefined && s.job === undefined);
    if (idle === undefined && this.queue.length >= this.maxQueue) throw new GuardBusyError(this.queue.length);
    return new Promise<GuardVerdict>((resolve, reject) => {
      const job: Job = { request: { input: clean, response }, resolve, reject };
      // No worker and none starting (restarts failed; the next waits for its backoff): the check could
      // only wait, and its timeout starts at dispatch -- answer now by the policy instead.
      if (this.slots.every((s) => s.worker === undefined) && this.starting === 0) {
        this.fail(job, new GuardWorkerError(NO_WORKER));
        return;
      }
      this.queue.push(job);
      this.dispatch();
    });
  }

  /** End every worker; waiting checks fail with GUARD_WORKER_FAILED. */
  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.retries) clearTimeout(timer);
    this.retries.clear();
    const error = new GuardWorkerError("the guard pool was closed before the check ran.");
    for (const job of this.queue.splice(0)) job.reject(error);
    await Promise.all(
      this.slots.map(async (slot) => {
        const { worker, job } = slot;
        slot.worker = undefined;
        slot.job = undefined;
        if (job !== undefined) {
          clearTimeout(job.timer);
          job.reject(error);
        }
        await worker?.terminate();
      }),
    );
  }

  /** A failure of the pool itself, answered by the policy: a blocked verdict, or the error. */
  private fail(job: Job, error: NpovError): void {
    if (this.onError === "throw") {
      job.reject(error);
      return;
    }
    job.resolve({
      allow: false,
      error: true,
      reason: { code: error.code, message: error.message },
      detector: this.detector,
    });
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (this.queue.length === 0) return;
      const worker = slot.worker;
      if (worker === undefined || slot.job !== undefined) continue;
      const job = this.queue.shift() as Job;
      const id = ++this.nextId;
      const timer = this.timeoutMs === undefined ? undefined : setTimeout(() => this.timeOut(slot, id), this.timeoutMs);
      slot.job = { ...job, id, timer };
      try {
        worker.postMessage({ id, ...job.request } satisfies WorkerRequest);
      } catch (error) {
        slot.job = undefined;
        clearTimeout(timer);
        job.reject(new GuardWorkerError("the check could not be sent to a guard worker.", error));
      }
    }
  }

  /** The worker has not answered in time: it may be stuck in synchronous work, so end it and start afresh. */
  private timeOut(slot: Slot, id: number): void {
    const job = slot.job;
    if (job === undefined || job.id !== id) return;
    slot.job = undefined;
    this.fail(job, new GuardTimeoutError(this.detector, this.timeoutMs as number));
    this.replace(slot);
  }

  private replace(slot: Slot, attempt = 0): void {
    const old = slot.worker;
    slot.worker = undefined;
    void old?.terminate();
    if (this.closed) return;
    this.spawn(slot).catch(() => {
      if (this.closed) return;
      // A worker that loaded before and now cannot: with no worker left, waiting checks can never run.
      if (this.slots.every((s) => s.worker === undefined) && this.starting === 0) {
        const error = new GuardWorkerError(NO_WORKER);
        for (const job of this.queue.splice(0)) this.fail(job, error);
      }
      // Try again later (1 s, 2 s, 4 s, ... up to a minute): a model file being replaced comes back.
      const timer = setTimeout(
        () => {
          this.retries.delete(timer);
          this.replace(slot, attempt + 1);
        },
        Math.min(60_000, 1000 * 2 ** attempt),
      );
      timer.unref();
      this.retries.add(timer);
    });
  }

  /** Start a worker in `slot`; resolves once its guard is loaded. @throws the loader's error, rebuilt */
  private spawn(slot: Slot): Promise<void> {
    // Every worker loads the same config, so their warnings (e.g. "this model is not usable") are the
    // same: only the first worker's stderr is passed on.
    const first = this.spawned++ === 0;
    const worker = new Worker(workerFile(), { workerData: this.data, stderr: !first });
    if (!first) worker.stderr.resume();
    this.starting++;
    let settled = false;
    const started = () => {
      if (!settled) this.starting--;
      settled = true;
    };
    return new Promise<void>((resolveStart, rejectStart) => {
      const resolve = () => {
        started();
        resolveStart();
      };
      const reject = (error: unknown) => {
        started();
        rejectStart(error);
      };
      let ready = false;
      worker.on("message", (message: WorkerSetup | WorkerReply) => {
        if ("ready" in message) {
          if (!message.ready) {
            void worker.terminate();
            reject(rebuild(message.error));
            return;
          }
          ready = true;
          if (this.closed) {
            void worker.terminate();
            resolve();
            return;
          }
          slot.worker = worker;
          resolve();
          this.dispatch();
          return;
        }
        const job = slot.job;
        if (slot.worker !== worker || job === undefined || job.id !== message.id) return;
        slot.job = undefined;
        clearTimeout(job.timer);
        if (message.verdict !== undefined) job.resolve(message.verdict);
        else job.reject(rebuild(message.error as SerializedError));
        this.dispatch();
      });
      const crashed = (reason: string, cause?: unknown) => {
        if (!ready) {
          reject(new GuardWorkerError(`a guard worker failed to start: ${reason}.`, cause));
          return;
        }
        if (slot.worker !== worker) return;
        const job = slot.job;
        slot.job = undefined;
        if (job !== undefined) {
          clearTimeout(job.timer);
          this.fail(job, new GuardWorkerError(`the guard worker stopped during the check: ${reason}.`, cause));
        }
        this.replace(slot);
      };
      worker.on("error", (error) => crashed(error.message.split("\n")[0] ?? "unknown error", error));
      worker.on("exit", (code) => crashed(`exit code ${code}`));
    });
  }
}

/**
 * Start a {@link GuardPool}: read the config (FILE_UNREADABLE, INVALID_FILE before any thread starts),
 * start `threads` workers and wait until each has loaded its guard and run one check on a built-in example
 * (detectors load some data on first use; after this, the first real check is as fast as the rest).
 * @throws FileReadError, FileFormatError, InvalidValueError, or the loader's typed error (e.g. MODEL_NOT_FOUND)
 */
export function startGuardPool(options: GuardPoolOptions): Promise<GuardPool> {
  return GuardPool.start(options);
}
