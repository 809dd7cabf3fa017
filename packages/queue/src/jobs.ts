/** What travels through Redis: the job payload of a chunk, where results go, and the queue's defaults. */
import type { DetectorSpecJson, ScoreField, ScoreItem } from "./score.js";

/** The BullMQ queue name commands and workers use unless told otherwise. */
export const DEFAULT_QUEUE_NAME = "npov";

/** Format tag of {@link ChunkJobData}; a worker refuses (as failed items) jobs of another format. */
export const CHUNK_JOB_FORMAT = "npov-chunk/1";

/** BullMQ job name of chunk jobs. */
export const CHUNK_JOB_NAME = "score";

/** How long a run's stored results outlive their last write (7 days), so abandoned runs do not pile up. */
export const RESULTS_TTL_SECONDS = 7 * 24 * 3600;

/** The payload of one chunk job. */
export interface ChunkJobData {
  format: typeof CHUNK_JOB_FORMAT;
  runId: string;
  chunk: number;
  /** Redis hash the worker stores the chunk's result in, under the job id. */
  resultsKey: string;
  /** Detector specs (JSON), in the order of the run's detectors. */
  specs: DetectorSpecJson[];
  fields: ScoreField[];
  items: ScoreItem[];
}

/** The Redis hash of a run's chunk results (field: job id, value: the encoded chunk result). */
export function resultsKey(queueName: string, runId: string): string {
  return `npov:${queueName}:results:${runId}`;
}
