/** Typed errors of the guard (and other classifier APIs). */
import { NpovError } from "@npov/core";

/** A guard's detector did not answer within the guard's `timeoutMs`. */
export class GuardTimeoutError extends NpovError {
  readonly timeoutMs: number;
  constructor(detector: string, timeoutMs: number) {
    super(
      "GUARD_TIMEOUT",
      `Detector "${detector}" did not answer within ${timeoutMs} ms: raise the guard's timeoutMs, shorten the response, or use a faster detector method.`,
    );
    this.timeoutMs = timeoutMs;
  }
}

/**
 * A guard's detector failed with an error that is not an {@link NpovError} (a bug or a broken model):
 * the original error is the `cause`, its message is repeated here.
 */
export class DetectorFailedError extends NpovError {
  constructor(detector: string, cause: unknown) {
    const reason = cause instanceof Error ? `${cause.name}: ${cause.message.split("\n")[0]}` : String(cause);
    super(
      "DETECTOR_FAILED",
      `Detector "${detector}" failed: ${reason}. The response was not checked; see the cause, check the detector's model files, or report the bug.`,
      { cause },
    );
  }
}
