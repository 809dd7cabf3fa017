/**
 * Scoring a chunk of examples: the one code path of in-process runs and of queue workers, so both give
 * bit-identical results. Results travel as JSON (which round-trips every finite double exactly); in-process
 * runs go through the same encoding, so even the object shapes are the same.
 */
import { createHash } from "node:crypto";
import { type ErrorDetector, type ErrorScores, NpovError, validateExample } from "@npov/core";

/**
 * A detector spec as it travels in a job: plain JSON naming the method and its options (the CLI's
 * `DetectorSpec`: `{method: "support"}`, `{method: "salience", model: "models/npov-gen"}`, ...).
 */
export type DetectorSpecJson = { method: string } & Record<string, unknown>;

/** Evidence fields of {@link ErrorScores} a run can keep besides the two scores (word maps are large). */
export type ScoreField = "uncoveredArguments" | "unsupportedSpans" | "features" | "words";

/** Every optional field, in the order results list them. */
export const SCORE_FIELDS: readonly ScoreField[] = ["uncoveredArguments", "unsupportedSpans", "features", "words"];

/** One example to score: its position in the run's input and the example as JSON (`{input, response}`). */
export interface ScoreItem {
  index: number;
  example: unknown;
}

/** Why an example could not be scored: the error's stable code and its message. */
export interface ItemError {
  code: string;
  message: string;
}

/** An example scored by every detector of the run (`scores[d]` is detector d's result). */
export interface ScoredItem {
  index: number;
  scores: ErrorScores[];
}

/** An example that failed (invalid, or a detector threw on it); the run goes on without it. */
export interface FailedItem {
  index: number;
  error: ItemError;
}

/** The result of one example. */
export type ItemResult = ScoredItem | FailedItem;

/** Whether an item result is a failure. */
export function isFailedItem(item: ItemResult): item is FailedItem {
  return "error" in item;
}

/** What scoring one chunk gives: the detectors' names (in spec order) and one result per item. */
export interface ChunkResult {
  chunk: number;
  detectors: string[];
  items: ItemResult[];
}

/** The error of a thrown value: NpovError codes as they are, anything else `DETECTOR_FAILED`. */
export function itemError(error: unknown, detector?: string): ItemError {
  const code =
    error instanceof NpovError
      ? error.code
      : typeof (error as { code?: unknown })?.code === "string"
        ? ((error as { code: string }).code as string)
        : "DETECTOR_FAILED";
  const message = error instanceof Error ? error.message : String(error);
  return { code, message: detector === undefined ? message : `${detector}: ${message}` };
}

/** Keep the scores and the requested evidence fields, in a fixed order. */
function keepFields(scores: ErrorScores, fields: readonly ScoreField[]): ErrorScores {
  const kept: ErrorScores = { hallucination: scores.hallucination, coverage: scores.coverage };
  for (const field of SCORE_FIELDS)
    if (fields.includes(field) && scores[field] !== undefined)
      (kept as unknown as Record<string, unknown>)[field] = scores[field];
  return kept;
}

// Let timers run between examples: a queue worker renews its job lock from a timer, and a detector that
// keeps the event loop busy for a whole chunk would lose the lock and have its job taken away.
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Score a chunk: validate each example, run every detector on it, keep `fields`. An example that is
 * invalid or makes a detector throw becomes a {@link FailedItem}; the others are unaffected. An aborted
 * `signal` stops before the next example (throwing its reason).
 */
export async function scoreChunk(
  chunk: number,
  detectors: readonly ErrorDetector[],
  items: readonly ScoreItem[],
  fields: readonly ScoreField[],
  signal?: AbortSignal,
): Promise<ChunkResult> {
  const results: ItemResult[] = [];
  for (const item of items) {
    signal?.throwIfAborted();
    let example: { input: Parameters<ErrorDetector["detect"]>[0]; response: string };
    try {
      example = validateExample(item.example, "");
    } catch (error) {
      results.push({ index: item.index, error: itemError(error) });
      continue;
    }
    const scores: ErrorScores[] = [];
    let failure: ItemError | undefined;
    for (const detector of detectors) {
      try {
        scores.push(keepFields(await detector.detect(example.input, example.response), fields));
      } catch (error) {
        failure = itemError(error, detector.name);
        break;
      }
    }
    results.push(failure === undefined ? { index: item.index, scores } : { index: item.index, error: failure });
    await yieldToEventLoop();
  }
  return { chunk, detectors: detectors.map((d) => d.name), items: results };
}

/** Serialize a chunk result (what workers store in Redis). */
export function encodeChunkResult(result: ChunkResult): string {
  return JSON.stringify(result);
}

/** Parse a stored chunk result. */
export function decodeChunkResult(text: string): ChunkResult {
  return JSON.parse(text) as ChunkResult;
}

/** JSON with object keys sorted, so equal values hash equally whatever their key order. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** Hex SHA-256 of some strings, each length-prefixed so boundaries cannot shift. */
export function sha256(parts: Iterable<string>): string {
  const hash = createHash("sha256");
  for (const part of parts) hash.update(`${Buffer.byteLength(part)}:${part}`);
  return hash.digest("hex");
}
