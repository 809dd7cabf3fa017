#!/usr/bin/env node
import { main } from "./cli.js";

// A reader that stops early (`npov kb list | head -1`) closes the pipe: stop quietly, as Unix tools do,
// instead of dying with an EPIPE stack trace.
for (const stream of [process.stdout, process.stderr])
  stream.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
    throw error;
  });

process.exitCode = await main(process.argv.slice(2));
