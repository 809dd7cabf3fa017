/**
 * Splitting a run into chunks with content-derived ids: the run id hashes the examples, the detector specs
 * and the kept fields; each chunk's job id hashes the run id, the chunk's examples and the specs. The same
 * command on the same data therefore finds the same jobs and stored results again after a Ctrl-C, a crash
 * or a Redis restart, and never scores a chunk twice into the output.
 */
import { type DetectorSpecJson, type ScoreField, type ScoreItem, sha256, stableJson } from "./score.js";

/** One chunk of a run: its job id and its examples. */
export interface PlannedChunk {
  /** Position of the chunk in the run. */
  chunk: number;
  /** Deterministic BullMQ job id (also the field of the chunk's result in the run's results hash). */
  jobId: string;
  /** Number of examples in the chunk. */
  size: number;
  /**
   * The chunk's examples, parsed from their JSON on each access (a run keeps only the JSON text, so a
   * large run does not hold a second parsed copy of its data).
   */
  readonly items: ScoreItem[];
}

/** A run split into chunks. */
export interface RunPlan {
  runId: string;
  /** Number of examples. */
  total: number;
  specs: DetectorSpecJson[];
  fields: ScoreField[];
  chunks: PlannedChunk[];
}

/** Options of {@link planRun}. */
export interface PlanOptions {
  /** Examples per chunk (one job each; default 16). */
  chunkSize?: number;
  /** Evidence fields to keep besides the two scores (default none). */
  fields?: readonly ScoreField[];
}

/** Default examples per job: large enough to amortise the queue's per-job cost, small enough to spread work. */
export const DEFAULT_CHUNK_SIZE = 16;

/**
 * What of an example a detector reads: `{input, response}` of an object (ids, labels and metadata stay
 * with the command), anything else unchanged so the worker reports it as invalid.
 */
function scoringPart(example: unknown): unknown {
  if (example === null || typeof example !== "object" || Array.isArray(example)) return example;
  const { input, response } = example as { input?: unknown; response?: unknown };
  return { input, response };
}

/**
 * Split `examples` into chunks with deterministic ids. Each example is reduced to `{input, response}` and
 * passed through JSON, exactly as a job payload is, so in-process and queued runs score the same values.
 */
export function planRun(
  examples: readonly unknown[],
  specs: readonly DetectorSpecJson[],
  options: PlanOptions = {},
): RunPlan {
  const chunkSize = options.chunkSize ?? DEFAULT_CHUNK_SIZE;
  if (!Number.isInteger(chunkSize) || chunkSize < 1)
    throw new RangeError(`chunkSize must be a positive integer, got ${chunkSize}`);
  const fields = [...new Set(options.fields ?? [])].sort();
  const specsJson = stableJson(specs);
  const payloads = examples.map((e) => JSON.stringify(scoringPart(e)) ?? "null");
  const runId = sha256(["npov-run/1", specsJson, stableJson(fields), String(chunkSize), ...payloads]).slice(0, 32);
  const chunks: PlannedChunk[] = [];
  for (let start = 0, chunk = 0; start < payloads.length; start += chunkSize, chunk++) {
    const part = payloads.slice(start, start + chunkSize);
    const itemsJson = `[${part.map((p, k) => `{"index":${start + k},"example":${p}}`).join(",")}]`;
    chunks.push({
      chunk,
      jobId: `npov-${sha256([runId, itemsJson, specsJson]).slice(0, 40)}`,
      size: part.length,
      get items() {
        return JSON.parse(itemsJson) as ScoreItem[];
      },
    });
  }
  return {
    runId,
    total: examples.length,
    specs: JSON.parse(JSON.stringify(specs)) as DetectorSpecJson[],
    fields: fields as ScoreField[],
    chunks,
  };
}
