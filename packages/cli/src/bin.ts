#!/usr/bin/env node
import { describeUnexpected, EXIT_CODES } from "./unexpected.js";

// An error thrown outside a command's own promise chain (an event handler, a stray rejection, even while
// the commands load) still ends in one line and exit code 1, never a raw stack trace. Installed before
// anything else loads: cli.js is imported below, after these handlers.
for (const event of ["uncaughtException", "unhandledRejection"] as const)
  process.on(event, (error: unknown) => {
    process.stderr.write(describeUnexpected(error));
    process.exit(EXIT_CODES.internal);
  });

// A reader that stops early (`npov kb list | head -1`) closes the pipe: stop quietly, as Unix tools do,
// instead of dying with an EPIPE stack trace. Another failure of an output stream (a full disk behind a
// pipe) is bad output, not a bug: one line, exit code 2.
for (const [stream, name] of [
  [process.stdout, "standard output"],
  [process.stderr, "standard error"],
] as const)
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
    if (stream !== process.stderr)
      process.stderr.write(`npov: Cannot write ${name}: ${error.message}. [FILE_UNWRITABLE]\n`);
    process.exit(EXIT_CODES.usage);
  });

const { main } = await import("./cli.js");
process.exitCode = await main(process.argv.slice(2));
