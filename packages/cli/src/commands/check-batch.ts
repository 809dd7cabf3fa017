/**
 * `npov check-batch`: score every example of a JSON Lines file and write one line of scores (or of the
 * example's error) per input line, in input order. `--queue redis://...` spreads the work over
 * `npov worker` processes; without it the same chunks run here. Also the queue options and scoring glue
 * that `npov eval` shares.
 */

import type { FileIssue, NpovExample } from "@npov/core";
import {
  checkOutputPath,
  FileFormatError,
  forEachJsonLine,
  jsonDepth,
  MAX_JSON_DEPTH,
  readTextFile,
  refuseOutputOverInput,
  writeFileAtomic,
} from "@npov/core";
import {
  DEFAULT_CHUNK_SIZE,
  DEFAULT_QUEUE_NAME,
  type DetectorSpecJson,
  type FailedItem,
  isFailedItem,
  RunInterruptedError,
  redactUrl,
  type ScoredRun,
  type ScoreField,
  scoreInProcess,
  scoreOnQueue,
} from "@npov/queue";
import type { Command } from "commander";
import {
  addDetectorOptions,
  cliDetectors,
  DEFAULT_METHOD,
  detectorInputPaths,
  finishDetectors,
  METHOD_NAMES,
  specFromOptions,
} from "../detectors.js";
import { progressBar } from "../progress.js";
import { integerOption, out, parseList, UsageError, warn } from "../util.js";

/** Most examples per queue job: a job's results travel through Redis as one value. */
export const MAX_CHUNK_SIZE = 100_000;

/** The queue options of eval and check-batch, as commander parses them. */
export interface QueueCliOptions {
  queue?: string;
  queueName?: string;
  chunkSize?: number;
}

/** Add --queue, --queue-name and --chunk-size to a command. */
export function addQueueOptions(command: Command): Command {
  return command
    .option(
      "--queue <url>",
      "score on a Redis job queue (redis://HOST:PORT/DB) by `npov worker` processes, anywhere that reaches Redis; a re-run resumes",
    )
    .option("--queue-name <name>", "BullMQ queue name (workers must use the same)", DEFAULT_QUEUE_NAME)
    .option(
      ...integerOption("--chunk-size <n>", "examples per job", { min: 1, max: MAX_CHUNK_SIZE }, DEFAULT_CHUNK_SIZE),
    );
}

/**
 * Score `examples` with `methods` (one spec from the command's detector options): on the queue with
 * --queue, else in this process through the same chunks. Shows a progress bar; Ctrl-C stops cleanly
 * (returns undefined after saying so on stderr, exit code 130; a queued run resumes when run again).
 */
export async function scoreWithOptions(
  examples: readonly unknown[],
  methods: readonly string[],
  opts: QueueCliOptions & Record<string, unknown>,
  fields: readonly ScoreField[],
): Promise<ScoredRun | undefined> {
  const chunkSize = opts.chunkSize ?? DEFAULT_CHUNK_SIZE;
  const spec = specFromOptions(opts);
  const controller = new AbortController();
  const onSigint = () => {
    // A second Ctrl-C while closing means "now".
    if (controller.signal.aborted) process.exit(130);
    controller.abort();
  };
  process.on("SIGINT", onSigint);
  const bar = progressBar("scoring");
  const common = {
    chunkSize,
    fields,
    signal: controller.signal,
    onProgress: (done: number, total: number) => bar.update(done, total),
  };
  try {
    if (opts.queue === undefined) {
      const detectors = await cliDetectors(methods, spec);
      try {
        return await scoreInProcess(examples, detectors, common);
      } finally {
        await finishDetectors(detectors);
      }
    }
    const url = opts.queue;
    const specs: DetectorSpecJson[] = methods.map((method) => ({ ...spec, method }));
    let lastWarning = 0;
    return await scoreOnQueue(examples, specs, {
      ...common,
      url,
      queueName: opts.queueName ?? DEFAULT_QUEUE_NAME,
      onEnqueued: (run) =>
        process.stderr.write(
          `npov: run ${run.runId}: ${run.chunks} jobs on queue "${run.queueName}" at ${redactUrl(url)} (${run.resumed} done by an earlier run, ${run.added} added); workers: npov worker --queue ${redactUrl(url)}${run.queueName === DEFAULT_QUEUE_NAME ? "" : ` --queue-name ${run.queueName}`}\n`,
        ),
      onConnectionError: (error) => {
        if (Date.now() - lastWarning < 10_000) return;
        lastWarning = Date.now();
        warn(`Redis connection problem (${error.message || "connection lost"}); waiting for it to come back`);
      },
    });
  } catch (error) {
    if (!(error instanceof RunInterruptedError)) throw error;
    bar.stop();
    process.stderr.write(`npov: ${error.message} [${error.code}]\n`);
    process.exitCode = 130;
    return undefined;
  } finally {
    bar.stop();
    process.off("SIGINT", onSigint);
  }
}

/** "3 failed: 2 TOO_FEW_PERSPECTIVES, 1 INVALID_JSON" (most frequent code first). */
export function describeFailures(failed: ReadonlyArray<{ error: { code: string } }>): string {
  const counts = new Map<string, number>();
  for (const f of failed) counts.set(f.error.code, (counts.get(f.error.code) ?? 0) + 1);
  const parts = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([c, n]) => `${n} ${c}`);
  return `${failed.length} failed: ${parts.join(", ")}`;
}

/** Say on stderr which examples failed (the first few, with their errors). */
export function warnAboutFailures(failed: readonly FailedItem[], label: (index: number) => string): void {
  if (failed.length === 0) return;
  warn(`${describeFailures(failed)}; left out of the results`);
  for (const f of failed.slice(0, 3))
    process.stderr.write(`  ${label(f.index)}: [${f.error.code}] ${f.error.message.split("\n")[0]}\n`);
  if (failed.length > 3) process.stderr.write(`  ... and ${failed.length - 3} more\n`);
}

/** One record of the input file: its 1-based line (JSON Lines) and its parsed value, or why it is not JSON. */
interface InputRecord {
  line?: number;
  value?: unknown;
  error?: { code: string; message: string };
}

/** The records of a JSON Lines file (blank lines skipped) or of a JSON array. */
function readRecords(file: string): InputRecord[] {
  const text = readTextFile(file);
  if (text.trimStart().startsWith("[")) {
    try {
      const value = JSON.parse(text) as unknown;
      if (Array.isArray(value) && jsonDepth(value) > MAX_JSON_DEPTH)
        throw new FileFormatError([
          {
            file,
            line: undefined,
            field: "",
            message: `arrays or objects nested more than ${MAX_JSON_DEPTH} levels deep`,
          },
        ]);
      if (Array.isArray(value)) return value.map((v) => ({ value: v }));
    } catch (error) {
      if (error instanceof FileFormatError) throw error;
      // not one JSON array: read it line by line (each bad line becomes an INVALID_JSON record)
    }
  }
  // Line by line, as every JSON Lines reader does; a line that is not JSON becomes a failed record in place.
  const records: InputRecord[] = [];
  const issues: FileIssue[] = [];
  forEachJsonLine(text, file, issues, (value, line) => {
    records.push({ line, value });
  });
  for (const issue of issues)
    records.push({
      line: issue.line,
      error: {
        code: "INVALID_JSON",
        message: `${file}:${issue.line}: ${issue.message}; give one example {"input": {...}, "response": "..."} per line`,
      },
    });
  records.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
  return records;
}

export function registerCheckBatch(program: Command): void {
  addQueueOptions(
    addDetectorOptions(
      program
        .command("check-batch")
        .description(
          "score every example of a JSON Lines file (e.g. a chatbot's answers) and write one line of scores per example, in input order",
        )
        .requiredOption("--data <file>", 'JSON Lines, one {"input": {...}, "response": "...", "id"?: ...} per line')
        .requiredOption(
          "--out <file>",
          "scores, JSON Lines: {index, line, id?, scores: {method: {...}}} or {..., error}",
        )
        .option(
          "--methods <list>",
          `comma-separated detectors: ${METHOD_NAMES.join(", ")} (default: ${DEFAULT_METHOD})`,
          DEFAULT_METHOD,
        ),
    ),
  )
    .option("--words", "also keep word-level scores and detector features (large)")
    .action(
      async (
        opts: { data: string; out: string; methods: string; words?: boolean } & QueueCliOptions &
          Record<string, unknown>,
      ) => {
        const methods = [...new Set(parseList(opts.methods, METHOD_NAMES, "--methods"))];
        refuseOutputOverInput(
          [{ flag: "--out", path: opts.out }],
          [{ flag: "--data", path: opts.data }, ...detectorInputPaths(opts)],
        );
        checkOutputPath(opts.out);
        const records = readRecords(opts.data);
        if (records.length === 0) throw new UsageError(`${opts.data} holds no examples.`);
        const parsed = records.flatMap((r, k) => (r.error === undefined ? [k] : []));
        const fields: ScoreField[] = [
          "uncoveredArguments",
          "unsupportedSpans",
          ...(opts.words ? (["features", "words"] as const) : []),
        ];
        const run = await scoreWithOptions(
          parsed.map((k) => records[k]?.value),
          methods,
          opts,
          fields,
        );
        if (run === undefined) return;
        const rows: string[] = [];
        const failed: Array<{ index: number; error: { code: string; message: string } }> = [];
        const resultOf = new Map(parsed.map((k, i) => [k, run.items[i]]));
        records.forEach((record, index) => {
          const id = (record.value as NpovExample | undefined)?.id;
          const head = {
            index,
            ...(record.line === undefined ? {} : { line: record.line }),
            ...(typeof id === "string" || typeof id === "number" ? { id } : {}),
          };
          const item = resultOf.get(index);
          const error = record.error ?? (item !== undefined && isFailedItem(item) ? item.error : undefined);
          if (error !== undefined || item === undefined || isFailedItem(item)) {
            const e = error ?? { code: "NOT_SCORED", message: "no result" };
            failed.push({ index, error: e });
            rows.push(JSON.stringify({ ...head, error: e }));
            return;
          }
          rows.push(
            JSON.stringify({ ...head, scores: Object.fromEntries(run.detectors.map((d, k) => [d, item.scores[k]])) }),
          );
        });
        writeFileAtomic(opts.out, `${rows.join("\n")}\n`);
        const where = (index: number) => {
          const line = records[index]?.line;
          return line === undefined ? `${opts.data}[${index}]` : `${opts.data}:${line}`;
        };
        warnAboutFailures(failed, where);
        out(
          `scored ${records.length - failed.length} of ${records.length} examples with ${run.detectors.join(", ")}${failed.length > 0 ? ` (${describeFailures(failed)})` : ""}; wrote ${opts.out}`,
        );
      },
    );
}
