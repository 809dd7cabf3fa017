/**
 * How `npov` ends on an error that is not an NpovError (a bug, not bad input): exit codes and the one
 * line it prints. Kept free of imports so the binary can install its last-resort handlers before it
 * loads anything else.
 */

/** Exit codes of `npov`: documented in README.md ("Exit codes"), stable for scripts. */
export const EXIT_CODES = {
  ok: 0,
  /** An unexpected internal error (a bug): one line on stderr, the stack trace only with NPOV_DEBUG=1. */
  internal: 1,
  /** Bad input or usage: a typed error, one line `npov: <message> [CODE]`. */
  usage: 2,
} as const;

/**
 * The line `npov` prints for an error that is not an NpovError: `npov: unexpected error (...): Name:
 * message. ... [INTERNAL_ERROR]`. With NPOV_DEBUG=1 in the environment the stack trace follows it.
 */
export function describeUnexpected(error: unknown): string {
  const what =
    error instanceof Error
      ? `${error.name}: ${error.message}`
      : `${typeof error === "object" ? "a thrown value" : typeof error} ${String(error)}`;
  const line = what.split("\n").join("; ").slice(0, 1000);
  const stack = process.env.NPOV_DEBUG === "1" && error instanceof Error ? error.stack : undefined;
  return `npov: unexpected error (a bug in npov, please report it): ${line}. ${stack === undefined ? "Set NPOV_DEBUG=1 for the stack trace." : "Stack trace:"} [INTERNAL_ERROR]\n${stack === undefined ? "" : `${stack}\n`}`;
}
