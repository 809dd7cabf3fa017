/**
 * A run's results in input order, and the in-process runner: the same chunks and the same
 * {@link scoreChunk} as queue workers, so a run without a queue gives bit-identical results.
 */
import type { ErrorDetector } from "@npov/core";
import { RunInterruptedError } from "./errors.js";
import { type PlannedChunk, type PlanOptions, planRun, type RunPlan } from "./plan.js";
import {
  type ChunkResult,
  type DetectorSpecJson,
  decodeChunkResult,
  encodeChunkResult,
  type ItemResult,
  isFailedItem,
  scoreChunk,
} from "./score.js";

/** Every example's result, in input order (`items[i].index === i`), and the detectors' names. */
export interface ScoredRun {
  runId: string;
  /** Detector names in spec order; `scores[d]` of a scored item belongs to `detectors[d]`. */
  detectors: string[];
  items: ItemResult[];
}

/** Options shared by the in-process and the queued runner. */
export interface RunOptions extends PlanOptions {
  /** Called whenever more examples have results (scored or failed). */
  onProgress?: (done: number, total: number) => void;
  /** Stop early: the runner throws {@link RunInterruptedError}. */
  signal?: AbortSignal;
}

/** The failure result of every item of a chunk (a chunk that could not be scored at all). */
export function failedChunk(
  chunk: PlannedChunk,
  detectors: readonly string[],
  error: { code: string; message: string },
): ChunkResult {
  return { chunk: chunk.chunk, detectors: [...detectors], items: chunk.items.map((i) => ({ index: i.index, error })) };
}

/**
 * Put chunk results in input order. Detector names come from a chunk that scored something (a chunk that
 * failed as a whole only knows the methods of its specs).
 */
export function assembleRun(plan: RunPlan, results: ReadonlyMap<string, ChunkResult>): ScoredRun {
  const items: ItemResult[] = new Array(plan.total);
  let detectors: string[] | undefined;
  for (const chunk of plan.chunks) {
    const result = results.get(chunk.jobId);
    if (result === undefined) throw new Error(`internal: no result for chunk ${chunk.chunk}`);
    for (const item of result.items) items[item.index] = item;
    if (detectors === undefined && result.items.some((i) => !isFailedItem(i))) detectors = result.detectors;
  }
  return { runId: plan.runId, detectors: detectors ?? plan.specs.map((s) => s.method), items };
}

/**
 * Score examples in this process with ready detectors: chunk by chunk through {@link scoreChunk} and the
 * JSON encoding queue workers use. @throws RunInterruptedError when `signal` aborts (not resumable)
 */
export async function scoreInProcess(
  examples: readonly unknown[],
  detectors: readonly ErrorDetector[],
  options: RunOptions = {},
): Promise<ScoredRun> {
  const specs: DetectorSpecJson[] = detectors.map((d) => ({ method: d.name }));
  const plan = planRun(examples, specs, options);
  const results = new Map<string, ChunkResult>();
  let done = 0;
  options.onProgress?.(0, plan.total);
  for (const chunk of plan.chunks) {
    let result: ChunkResult;
    try {
      result = await scoreChunk(chunk.chunk, detectors, chunk.items, plan.fields, options.signal);
    } catch (error) {
      if (options.signal?.aborted) throw new RunInterruptedError(done, plan.total, false);
      throw error;
    }
    results.set(chunk.jobId, decodeChunkResult(encodeChunkResult(result)));
    done += chunk.size;
    options.onProgress?.(done, plan.total);
  }
  return assembleRun(plan, results);
}
