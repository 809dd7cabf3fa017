/** Typed errors of @npov/queue: each an {@link NpovError} with a stable code and a message saying what to fix. */
import { NpovError } from "@npov/core";

/** A --queue value that is not a Redis URL. */
export class QueueUrlError extends NpovError {
  constructor(url: string, problem: string) {
    super(
      "INVALID_QUEUE_URL",
      `--queue ${JSON.stringify(url)}: ${problem}. Give a Redis URL such as redis://127.0.0.1:6379/0 (rediss:// for TLS, redis://:PASSWORD@HOST:PORT/DB with a password).`,
    );
  }
}

/** Redis did not answer within the connect timeout when a run or a worker started. */
export class QueueUnreachableError extends NpovError {
  constructor(url: string, timeoutMs: number, cause?: unknown) {
    const reason = cause instanceof Error && cause.message ? ` (${cause.message})` : "";
    super(
      "QUEUE_UNREACHABLE",
      `cannot reach Redis at ${redactUrl(url)} within ${timeoutMs} ms${reason}. Start it (e.g. redis-server --port 6379) or fix --queue; workers and the command must reach the same server.`,
      { cause },
    );
  }
}

/** Redis answered but refused npov's commands (a password is needed, or the user may not run them). */
export class QueueAuthError extends NpovError {
  constructor(url: string, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(
      "QUEUE_AUTH_FAILED",
      `Redis at ${redactUrl(url)} refused npov (${reason}): give its password in --queue as redis://:PASSWORD@HOST:PORT/DB (or USER:PASSWORD for an ACL user).`,
      { cause },
    );
  }
}

/** A queue name BullMQ cannot use. */
export class QueueNameError extends NpovError {
  constructor(name: unknown, problem: string) {
    super("INVALID_QUEUE_NAME", `--queue-name ${JSON.stringify(name)}: ${problem}; use letters, digits, - and _.`);
  }
}

/** A run stopped by its abort signal (Ctrl-C) before every chunk was scored; a re-run resumes a queued run. */
export class RunInterruptedError extends NpovError {
  /** Examples with results when the run stopped. */
  readonly done: number;
  /** Examples in the run. */
  readonly total: number;
  /** Whether a re-run picks up where this one stopped (queued runs: yes; in-process runs start over). */
  readonly resumable: boolean;
  constructor(done: number, total: number, resumable: boolean) {
    super(
      "RUN_INTERRUPTED",
      resumable
        ? `stopped with ${done} of ${total} examples scored; queued jobs stay in Redis and workers keep scoring them: run the same command again to resume.`
        : `stopped with ${done} of ${total} examples scored; an in-process run starts over when run again (use --queue for a resumable run).`,
    );
    this.done = done;
    this.total = total;
    this.resumable = resumable;
  }
}

/** Every example of an evaluation failed, so there is nothing to compute metrics on. */
export class AllExamplesFailedError extends NpovError {
  constructor(count: number, first: { code: string; message: string }) {
    super(
      "ALL_EXAMPLES_FAILED",
      `all ${count} examples failed to score; the first failure: [${first.code}] ${first.message}`,
    );
  }
}

/** A Redis URL without its password, for messages. */
export function redactUrl(url: string): string {
  return url.replace(/^(rediss?:\/\/[^:@/]*:)[^@/]*@/, "$1***@");
}
