/**
 * `npov worker`: score chunk jobs that `npov eval --queue` and `npov check-batch --queue` put on a Redis
 * queue, with detectors from the CLI's method table (built once per spec, so models load once). Runs until
 * Ctrl-C or SIGTERM, then finishes its running jobs and stops.
 */

import type { DetectorSpec } from "@npov/classifier";
import { DEFAULT_QUEUE_NAME, redactUrl, startWorker } from "@npov/queue";
import type { Command } from "commander";
import { cliDetector, finishDetectors } from "../detectors.js";
import { out, parseInteger, UsageError, warn } from "../util.js";

export function registerWorker(program: Command): void {
  program
    .command("worker")
    .description(
      "score jobs of `npov eval --queue` / `npov check-batch --queue` from a Redis queue; run any number, on any machine that reaches Redis",
    )
    .requiredOption("--queue <url>", "Redis URL, redis://HOST:PORT/DB (the commands' --queue)")
    .option("--queue-name <name>", "BullMQ queue name (the commands' --queue-name)", DEFAULT_QUEUE_NAME)
    .option(
      "--concurrency <n>",
      "jobs at once in this process (helps endpoint methods; for CPU-bound ones start more workers)",
      "1",
    )
    .option(
      "--lock-duration <ms>",
      "a job whose worker stops renewing its lock this long (it died) goes back to the queue",
      "30000",
    )
    .option("--stalled-interval <ms>", "how often to look for jobs of dead workers", "30000")
    .option("--quiet", "no line per finished job")
    .option("--verbose", "also a line when a job starts")
    .action(
      async (opts: {
        queue: string;
        queueName: string;
        concurrency: string;
        lockDuration: string;
        stalledInterval: string;
        quiet?: boolean;
        verbose?: boolean;
      }) => {
        const positive = (value: string, option: string) => {
          const n = parseInteger(value, option);
          if (n < 1) throw new UsageError(`${option} must be at least 1, got ${n}.`);
          return n;
        };
        const concurrency = positive(opts.concurrency, "--concurrency");
        const lockDurationMs = positive(opts.lockDuration, "--lock-duration");
        const stalledIntervalMs = positive(opts.stalledInterval, "--stalled-interval");
        const say = (line: string) => process.stderr.write(`npov worker: ${line}\n`);
        let lastWarning = 0;
        const worker = await startWorker<DetectorSpec>({
          url: opts.queue,
          queueName: opts.queueName,
          concurrency,
          lockDurationMs,
          stalledIntervalMs,
          createDetector: (spec) => cliDetector(spec),
          releaseDetectors: finishDetectors,
          onStart: (job) => {
            if (opts.verbose) say(`run ${job.runId} chunk ${job.chunk}: started`);
          },
          onChunk: (r) => {
            if (!opts.quiet)
              say(
                `run ${r.runId} chunk ${r.chunk}: ${r.examples} examples${r.failed > 0 ? ` (${r.failed} failed)` : ""} in ${(r.ms / 1000).toFixed(2)} s`,
              );
          },
          onStalled: (jobId) => say(`job ${jobId} lost its worker (it died or hung): back on the queue`),
          onError: (error) => {
            if (Date.now() - lastWarning < 10_000) return;
            lastWarning = Date.now();
            warn(`Redis connection problem (${error.message || "connection lost"}); reconnecting`);
          },
        });
        say(
          `waiting for jobs on ${redactUrl(opts.queue)} queue "${opts.queueName}" (concurrency ${concurrency}); Ctrl-C stops after the running jobs`,
        );
        await new Promise<void>((resolve) => {
          const stop = () => {
            process.off("SIGINT", stop);
            process.off("SIGTERM", stop);
            // A second signal while closing means "now".
            process.once("SIGINT", () => process.exit(130));
            process.once("SIGTERM", () => process.exit(143));
            resolve();
          };
          process.on("SIGINT", stop);
          process.on("SIGTERM", stop);
        });
        say("stopping: finishing the running jobs");
        await worker.close();
        const p = worker.processed;
        out(`npov worker: stopped after ${p.chunks} jobs, ${p.examples} examples (${p.failed} failed)`);
      },
    );
}
