/**
 * Typed errors of @npov/llm. Every failure of an endpoint call is an {@link EndpointError} (an
 * {@link NpovError}) with a stable `code`; detectors add their own codes for answers they cannot read.
 */
import { NpovError } from "@npov/core";

/**
 * An OpenAI-compatible endpoint refused a request or could not be reached, or the client was set up wrong.
 * Codes: `INVALID_BASE_URL`, `INVALID_MODEL`, `INVALID_OPTION`, `MISSING_API_KEY`, `HTTP_ERROR` (a 4xx that
 * retrying cannot fix; see `status`), `RETRIES_EXHAUSTED` (408/409/429/5xx after every retry), `TIMEOUT` (a
 * wait over `timeoutMs`, or the whole call over `deadlineMs`),
 * `NETWORK` (unreachable, or the connection broke during the reply), `ABORTED`, `BAD_RESPONSE` (a 200 that is
 * not JSON, lacks what the protocol promises, or a stream that ended before its finish), `RATE_LIMITED` (the
 * server asked to wait longer than `maxRetryAfterMs` or the call's deadline allows), `STREAM_ERROR` (an
 * error event inside a stream; the message carries the server's code), `SDK_ERROR` (the SDK refused the
 * request before sending it).
 */
export class EndpointError extends NpovError {
  /** HTTP status, when the server answered. */
  readonly status: number | undefined;
  constructor(code: string, message: string, options: { status?: number; cause?: unknown } = {}) {
    super(code, message, options.cause === undefined ? {} : { cause: options.cause });
    this.status = options.status;
  }
}

/**
 * The first answer token's top log-probabilities hold neither label (code `NO_LABEL_LOGPROBS`), or the
 * endpoint returned no log-probabilities at all (code `NO_LOGPROBS`): enable the sampling fallback, raise
 * `topLogprobs`, or check that the model answers YES/NO to the prompt.
 */
export class LabelLogprobsError extends NpovError {}

/** Every sampled answer was unreadable (code `UNPARSEABLE_ANSWERS`): no YES/NO, or no 1-5 rating. */
export class UnparseableAnswersError extends NpovError {
  /** The answers that could not be read (first 200 characters each). */
  readonly answers: string[];
  constructor(message: string, answers: string[]) {
    super("UNPARSEABLE_ANSWERS", message);
    this.answers = answers.map((a) => a.slice(0, 200));
  }
}

/** A cache file that exists but is not a stored response (code `CACHE_CORRUPT`): delete it or the cache dir. */
export class CacheError extends NpovError {}
