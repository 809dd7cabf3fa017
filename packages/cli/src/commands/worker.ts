/**
 * `npov worker`: score chunk jobs that `npov eval --queue` and `npov check-batch --queue` put on a Redis
 * queue, with detectors from the CLI's method table (built once per spec, so models load once). Runs until
 * Ctrl-C or SIGTERM, then finishes its running jobs and stops.
 */

import type { DetectorSpec } from "@npov/classifier";
import { DEFAULT_QUEUE_NAME, redactUrl, startWorker } from "@npov/queue";
import type { Command } from "commander";
import { cliDetector, finishDetectors } from "../detectors.js";
import { integerOption, out, warn } from "../util.js";

/** The longest delay a Node timer takes (2^31 - 1 ms, about 24.8 days); longer ones fire at once. */
const MAX_TIMER_MS = 2_147_483_647;

export function registerWorker(program: Command): void {
  program
    .command("worker")
    .description(
      "score jobs of `npov eval --queue` / `npov check-batch --queue` from a Redis queue; run any number, on any machine that reaches Redis",
    )
    .requiredOption("--queue <url>", "Redis URL, redis://HOST:PORT/DB (the commands' --queue)")
    .option("--queue-name <name>", "BullMQ queue name (the commands' --queue-name)", DEFAULT_QUEUE_NAME)
    .option(
      ...integerOption(
        "--concurrency <n>",
        "jobs at once in this process (helps endpoint methods; for CPU-bound ones start more workers)",
        { min: 1, max: 1000 },
        1,
      ),
    )
    .option(
      ...integerOption(
        "--lock-duration <ms>",
        "a job whose worker stops renewing its lock this long (it died) goes back to the queue",
        { min: 1, max: MAX_TIMER_MS },
        30000,
      ),
    )
    .option(
      ...integerOption(
        "--stalled-interval <ms>",
        "how often to look for jobs of dead workers",
        { min: 1, max: MAX_TIMER_MS },
        30000,
      ),
    )
    .option("--quiet", "no line per finished job")
    .option("--verbose", "also a line when a job starts")
    .action(
      async (opts: {
        queue: string;
        queueName: string;
        concurrency: number;
        lockDuration: number;
        stalledInterval: number;
        quiet?: boolean;
        verbose?: boolean;
      }) => {
        const concurrency = opts.concurrency;
        const lockDurationMs = opts.lockDuration;
        const stalledIntervalMs = opts.stalledInterval;
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
