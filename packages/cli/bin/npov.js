#!/usr/bin/env node
// The `npov` command's entry file. It is committed (the build output in dist/ is not), so `pnpm install`
// on a fresh clone can link node_modules/.bin/npov before anything is built; it loads the build, or says
// in one line how to make it.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const built = new URL("../dist/bin.js", import.meta.url);
if (!existsSync(fileURLToPath(built))) {
  const root = fileURLToPath(new URL("../../..", import.meta.url)).replace(/\/$/, "");
  process.stderr.write(
    `npov: the command line is not built yet (${fileURLToPath(built)} is missing): run \`pnpm build\` in ${root}, or \`pnpm run setup\` for the whole set-up. [NOT_BUILT]\n`,
  );
  process.exitCode = 2;
} else await import(built.href);
