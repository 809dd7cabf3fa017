/**
 * The one line `npov` prints for a typed error: `npov: [CONTEXT: ]MESSAGE [CODE]`, with the library's
 * advice phrased for the command line -- @npov/llm names its options as the API does (`topLogprobs`,
 * `samples`), the CLI user sets them with flags (`--top-logprobs`, `--samples`).
 */
import type { NpovError } from "@npov/core";

/**
 * Library advice -> the same advice in flags, per error code. Each library phrase is matched verbatim (the
 * CLI tests trigger every one of these errors through a real endpoint, so a reworded library message
 * fails there instead of silently keeping the API names).
 */
const CLI_ADVICE: ReadonlyArray<readonly [code: string, library: string, cli: string]> = [
  [
    "NO_LABEL_LOGPROBS",
    "raise topLogprobs, enable the sampling fallback (samples),",
    "raise --top-logprobs (e.g. --top-logprobs 20), add --samples K (read K sampled answers instead),",
  ],
  [
    "NO_LOGPROBS",
    "(enable the sampling fallback with samples > 0)",
    "(add --samples K: read K sampled answers instead)",
  ],
  ["UNPARSEABLE_ANSWERS", "or raise samples.", "or raise --samples."],
];

/** The message of `error` with library option names turned into the CLI's flags. */
export function cliMessage(error: NpovError): string {
  let message = error.message;
  for (const [code, library, cli] of CLI_ADVICE) if (error.code === code) message = message.replace(library, cli);
  return message;
}

/** `npov: [CONTEXT: ]MESSAGE [CODE]` and a newline; a message of several lines is joined with "; ". */
export function errorLine(error: NpovError, context?: string): string {
  const message = cliMessage(error).split("\n").join("; ");
  return `npov: ${context === undefined ? "" : `${context}: `}${message} [${error.code}]\n`;
}
