/**
 * @npov/queue: scale-out evaluation and batch checking on a BullMQ job queue (Redis). A command splits
 * its examples into chunks with content-derived job ids ({@link planRun}) and enqueues them
 * ({@link scoreOnQueue}); workers anywhere that reach Redis score them ({@link startWorker}) with detectors
 * built from the specs in each job by a factory the caller passes; the command gathers the results in
 * input order. {@link scoreInProcess} runs the same chunks through the same {@link scoreChunk} without a
 * queue, so results are bit-identical either way; {@link evaluateScored} turns a run into @npov/eval's
 * evaluation.
 * @packageDocumentation
 */

export * from "./errors.js";
export * from "./evaluate.js";
export * from "./jobs.js";
export * from "./plan.js";
export * from "./queued.js";
export * from "./redis.js";
export * from "./run.js";
export * from "./score.js";
export * from "./server.js";
export * from "./worker.js";
