/**
 * The reliability run: several hundred hostile but fair cases through the real CLI, the real library API
 * and a real server, in five categories (input files, model files, atomic writes, server, library API),
 * plus a bounded loopback load run of the server; writes docs/reliability.md (atomically).
 *
 *   pnpm reliability                          # everything; rewrites docs/reliability.md
 *   pnpm reliability --only server,library    # some of: input, model, writes, waits, server, library (no doc)
 *   pnpm reliability --grep "guard"           # cases whose name matches (no doc)
 *   pnpm reliability --failures FILE          # also write the failing cases, grouped by the part of npov
 *   pnpm reliability --list                   # list the cases (category, area, name, expected) and stop
 *   pnpm reliability --no-load --concurrency 4 --keep   # skip the load run; CLI cases at once; keep scratch
 *
 * Each case says what it does and what must come out (a typed error code, an HTTP status, or a valid
 * finite result); it fails on a crash, a stack trace, exit 0 with null/NaN scores, another error code, a
 * hang (per-case timeout), a 500, or something written where nothing should be.
 */
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { writeFileAtomic } from "@npov/core";
import { writeCases } from "./reliability/atomic-writes.js";
import { makeFixtures } from "./reliability/fixtures.js";
import { AREAS, CATEGORIES, type Case, type CaseResult, ROOT, runCases } from "./reliability/harness.js";
import { inputFileCases } from "./reliability/input-files.js";
import { libraryCases, stopLibraryWorker } from "./reliability/library.js";
import { type LoadFigures, loadRun } from "./reliability/load.js";
import { modelFileCases } from "./reliability/model-files.js";
import { outputOverInputCases } from "./reliability/outputs-over-inputs.js";
import { serverCases, stopServers } from "./reliability/server.js";
import { waitCases } from "./reliability/waits.js";

interface Options {
  only: string[] | undefined;
  grep: RegExp | undefined;
  failures: string | undefined;
  concurrency: number;
  load: boolean;
  keep: boolean;
  list: boolean;
}

function parseArgs(argv: string[]): Options {
  const o: Options = {
    only: undefined,
    grep: undefined,
    failures: undefined,
    // CLI cases spend much of their time starting Node and loading files: one more than the cores.
    concurrency: Math.max(2, Math.min(8, cpus().length + 1)),
    load: true,
    keep: false,
    list: false,
  };
  for (let k = 0; k < argv.length; k++) {
    const a = argv[k];
    const value = () => {
      const v = argv[++k];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === "--only") o.only = value().split(",");
    else if (a === "--grep") o.grep = new RegExp(value(), "i");
    else if (a === "--failures") o.failures = value();
    else if (a === "--concurrency") o.concurrency = Number(value());
    else if (a === "--no-load") o.load = false;
    else if (a === "--keep") o.keep = true;
    else if (a === "--list") o.list = true;
    else throw new Error(`unknown option ${a}`);
  }
  if (!Number.isInteger(o.concurrency) || o.concurrency < 1)
    throw new Error("--concurrency must be a positive integer");
  return o;
}

function mdCell(text: string): string {
  return text.replace(/\|/g, "\\|").replace(/\n/g, " ").replace(/`/g, "'");
}

/**
 * The guard's evidence step before and after it stopped being quadratic: the CLI figures the issue
 * reported (2 cores), and `node bench/guard-evidence.bench.mjs 1 2 4` (library: detector plus guard check)
 * run on this machine before and after the change, load average 4-7.
 */
const GUARD_FIGURES = [
  { cli: 13, library: 6.1, after: 1.5 },
  { cli: 34, library: 18.9, after: 1.1 },
  { cli: 162, library: 77.5, after: 1.7 },
];

function renderDoc(results: CaseResult[], load: LoadFigures | undefined, seconds: number, load1: number): string {
  const failures = results.filter((r) => r.got !== undefined);
  const lines: string[] = [];
  lines.push("# Reliability");
  lines.push("");
  lines.push(
    "Hostile but fair use of npov through the CLI, the library API and the HTTP server: every case does one thing a user",
    "might do and states what must come out -- a typed error code, an HTTP status, or a valid finite result. A case",
    "fails on a crash, a stack trace or a native onnxruntime message on stderr, exit 0 with null/NaN scores, another",
    "error code, a hang (per-case timeout), a 500, or a file written where nothing should be.",
  );
  lines.push("");
  lines.push(
    `Produced by \`pnpm reliability\` (scripts/reliability.ts; ${results.length} cases, ${Math.round(seconds)} s on`,
    `${cpus().length} cores, Node ${process.version}, load average ${load1.toFixed(1)} at the start). Per-case time limits: 15-60 s`,
    "(generous, since every CLI case starts Node; the bounded-work tests in the packages count work instead). The fuzz",
    "suite (test/fuzz.test.ts in CI, `pnpm fuzz` for longer runs) throws generated inputs and byte-level file",
    "corruptions at the same boundaries.",
  );
  lines.push("");
  lines.push("| category | cases | failures |");
  lines.push("| --- | --- | --- |");
  for (const c of CATEGORIES) {
    const of = results.filter((r) => r.case.category === c);
    lines.push(`| ${c} | ${of.length} | ${of.filter((r) => r.got !== undefined).length} |`);
  }
  lines.push(`| **all** | **${results.length}** | **${failures.length}** |`);
  lines.push("");
  lines.push(
    "- **input files (CLI)**: responses with nothing to score (emoji, punctuation, invisible characters, stop words)",
    "  through `check`, `guard` and `check-batch`; sizes that must finish or refuse with `INPUT_TOO_LARGE` (responses",
    "  of 10 KB to 1 MB, 300 to 200,000 arguments) or `CONTEXT_TOO_LONG` (model methods); strict numeric options of",
    "  every command; dataset fields of the wrong type; byte-level corruptions (truncation, random bytes, invalid",
    "  UTF-8, NUL, UTF-16, gzip, a 20 MB line; a BOM and CRLF must be read) of every kind of file the CLI reads;",
    "  non-ASCII scripts and lone surrogates; determinism (the same command twice, byte-identical output; `eval",
    "  --report` with `--no-date` or `SOURCE_DATE_EPOCH`). Waits: an endpoint that never answers, asks to wait 28",
    "  hours (`Retry-After: 100000`) or trickles a valid reply a byte at a time (`--timeout`: `TIMEOUT` /",
    "  `RATE_LIMITED` within seconds); a database another process holds locked (`DATABASE_BUSY` after 5 s) or",
    "  on a read-only mount (`DATABASE_READ_ONLY`); `npov worker` given SIGTERM while Redis is down (exits within",
    "  3 s) or a wrong password (`QUEUE_AUTH_FAILED`); the guard's evidence on 1, 2 and 4 MB responses.",
    "- **model files**: copies of the shipped models and a zoo model with truncated, empty, random, text or zeroed",
    "  graphs, bad `config.json` / `tokenizer.json`, tokenizer ids beyond the embedding table, NaN and infinite",
    "  weights, through `salience`, the classifier, `generate`, `serve`, `model inspect` and a guard; model paths",
    "  that do not exist (never a download); scripts the shipped vocabulary cannot represent; a t5 model whose",
    "  every weight is NaN (one typed line from `generate`).",
    "- **atomic writes**: first the data-loss cases: every command that writes, pointed at its own input -- the",
    "  same path, a symbolic or hard link to it, the annotation database (or its `-wal`, or another SQLite",
    "  database), a folder holding an input -- must refuse with `OUTPUT_IS_INPUT` naming both options and leave",
    "  the input byte-identical; `train-support` over a trained model with a broken or missing `--dev` must",
    "  leave the old model folder byte-identical. Then every command that writes a file, at a folder, under a file, at an empty or too long",
    "  name, on a read-only or full file system (private tmpfs mounts), under a file-size limit, as an unprivileged",
    "  user, under /proc and /sys, over a FIFO (and `synth` killed with SIGKILL mid-run): `FILE_UNWRITABLE`, the old file",
    "  byte-identical, no temp file left.",
    "- **server**: malformed message shapes and parameters, malformed JSON, wrong content types, bodies over the",
    "  limit (by header, chunked, 50 MB), big bodies under it, aborted requests, nothing-to-score responses, CORS,",
    "  bad `--port` / `--host` / `--body-limit`; the server stays up, with bounded memory and a clean stderr.",
    "- **library API**: public functions of core, rouge, eval, synth, classifier, salience and autograd called with",
    "  null, NaN, ragged arrays, wrong types, missing or corrupt files; the guard with detectors that return NaN or",
    '  out-of-range scores, throw, reject or never answer; `evaluate` with bootstrap options -1, 1.5, "x", NaN.',
  );
  lines.push("");
  if (load !== undefined) {
    lines.push("## Server under load");
    lines.push("");
    lines.push(
      `\`npov serve --port 0 --guard-config <support guard>\` on loopback; autocannon, ${load.connections} connections,`,
      `${load.seconds} s per kind of request, one kind after the other, all to \`POST /v1/check\`.`,
    );
    lines.push("");
    lines.push("| request | requests/s | p50 latency | p99 latency | responses | statuses |");
    lines.push("| --- | --- | --- | --- | --- | --- |");
    for (const r of load.runs)
      lines.push(
        `| ${r.label} | ${r.requestsPerSecond.toFixed(0)} | ${r.p50.toFixed(0)} ms | ${r.p99.toFixed(0)} ms | ${r.responses} | ${r.statuses} |`,
      );
    lines.push("");
    lines.push(
      `Server RSS: ${load.rssBefore} MiB before the load, ${load.rssAfter} MiB after it (${load.rssSettled} MiB after 5 s idle).` +
        ` /health answered during the load in ${load.healthMs.toFixed(0)} ms.`,
    );
    lines.push("");
  }
  const guardRuns = [1, 2, 4].map((mb) =>
    results.find((r) => r.case.name === `guard (rouge, flagged) --exit-code: a ${mb} MB response`),
  );
  if (guardRuns.every((r) => r !== undefined)) {
    lines.push("## Guard evidence on large responses");
    lines.push("");
    lines.push(
      "The guard ranks a flagged response's sentences by their unsupported words. That step scanned every word for",
      "each sentence (quadratic); it is now one pass over the words sorted by start (n log n, the same scores to the",
      "last bit). `npov guard` with a rouge guard that flags everything (thresholds 0), wall time of the whole command:",
      "before, as the issue measured it and as `bench/guard-evidence.bench.mjs` (the library call alone) measured it",
      "on this machine before the change; after, from this run's cases and the same benchmark after the change.",
    );
    lines.push("");
    lines.push("| response | before: CLI (issue) | before: library | after: CLI (this run) | after: library |");
    lines.push("| --- | --- | --- | --- | --- |");
    [1, 2, 4].forEach((mb, k) => {
      const r = guardRuns[k] as CaseResult;
      const figures = GUARD_FIGURES[k] as { cli: number; library: number; after: number };
      lines.push(
        `| ${mb} MB | ${figures.cli} s | ${figures.library} s | ${(r.ms / 1000).toFixed(1)} s${r.got === undefined ? "" : " (failed)"} | ${figures.after} s |`,
      );
    });
    lines.push("");
  }
  lines.push("## Failing cases");
  lines.push("");
  if (failures.length === 0) lines.push("None.");
  for (const r of failures)
    lines.push(`- ${r.case.category}: ${r.case.name} -- expected ${r.case.expected}; got ${r.got}`);
  lines.push("");
  lines.push("## All cases");
  for (const c of CATEGORIES) {
    const of = results.filter((r) => r.case.category === c);
    if (of.length === 0) continue;
    lines.push("");
    lines.push(`### ${c}`);
    lines.push("");
    lines.push("| case | expected | result |");
    lines.push("| --- | --- | --- |");
    for (const r of of)
      lines.push(
        `| ${mdCell(r.case.name)} | ${mdCell(r.case.expected)} | ${r.got === undefined ? "pass" : `**fail**: ${mdCell(r.got)}`} |`,
      );
  }
  lines.push("");
  return lines.join("\n");
}

/** The document as the repository's formatter (biome, which `pnpm lint` runs) lays it out: aligned tables. */
function formatMarkdown(text: string): string {
  const r = spawnSync(join(ROOT, "node_modules/.bin/biome"), ["format", "--stdin-file-path=docs/reliability.md"], {
    input: text,
    encoding: "utf8",
  });
  if (r.status !== 0) throw new Error(`biome format failed: ${r.stderr}`);
  return r.stdout;
}

function renderFailures(results: CaseResult[]): string {
  const failures = results.filter((r) => r.got !== undefined);
  const lines = [`# Reliability failures (${failures.length} of ${results.length} cases)`, ""];
  for (const area of ["A", "B", "C", "D"] as const) {
    const of = failures.filter((r) => r.case.area === area);
    lines.push(`## Area ${area} (${of.length}): ${AREAS[area]}`, "");
    for (const r of of)
      lines.push(`- [${r.case.category}] ${r.case.name}`, `  - expected: ${r.case.expected}`, `  - got: ${r.got}`);
    lines.push("");
  }
  return lines.join("\n");
}

async function main(): Promise<void> {
  const o = parseArgs(process.argv.slice(2));
  const start = performance.now();
  const startLoad = loadavg()[0] ?? 0;
  const f = await makeFixtures();
  const groups: Array<[string, () => Case[] | Promise<Case[]>]> = [
    ["input", () => inputFileCases(f)],
    ["model", () => modelFileCases(f)],
    ["writes", () => [...outputOverInputCases(f), ...writeCases(f)]],
    ["waits", () => waitCases(f)],
    ["server", () => serverCases(f)],
    ["library", () => libraryCases(f)],
  ];
  const chosen = groups.filter(([name]) => o.only === undefined || o.only.some((x) => name.startsWith(x)));
  let cases: Case[] = [];
  for (const [, make] of chosen) cases.push(...(await make()));
  if (o.grep !== undefined) cases = cases.filter((c) => o.grep?.test(c.name));
  if (o.list) {
    for (const c of cases) process.stdout.write(`${c.category}\t${c.area}\t${c.name}\t${c.expected}\n`);
    rmSync(f.dir, { recursive: true, force: true });
    return;
  }
  process.stderr.write(`reliability: ${cases.length} cases, ${o.concurrency} at a time\n`);

  // Server cases share one server per group and run one at a time; the rest run in parallel.
  const serial = cases.filter((c) => c.category === "server" || c.category === "library API");
  const parallel = cases.filter((c) => !serial.includes(c));
  let failed = 0;
  const report = (r: CaseResult, done: number, total: number) => {
    if (r.got !== undefined) failed++;
    const mark = r.got === undefined ? "ok  " : "FAIL";
    process.stderr.write(
      `[${String(done).padStart(4)}/${total}] ${mark} ${(r.ms / 1000).toFixed(1).padStart(5)} s  ${r.case.category}: ${r.case.name}${r.got === undefined ? "" : `\n        expected ${r.case.expected}\n        got ${r.got}`}\n`,
    );
  };
  let done = 0;
  const total = cases.length;
  const [a, b] = await Promise.all([
    runCases(parallel, o.concurrency, (r) => report(r, ++done, total)),
    runCases(serial, 1, (r) => report(r, ++done, total)),
  ]);
  // Keep the order the cases were written in.
  const byCase = new Map([...a, ...b].map((r) => [r.case, r]));
  const results = cases.map((c) => byCase.get(c) as CaseResult);

  await stopServers();
  await stopLibraryWorker();
  const load = o.load && (o.only === undefined || o.only.includes("server")) ? await loadRun(f) : undefined;
  const seconds = (performance.now() - start) / 1000;
  process.stderr.write(`reliability: ${failed} of ${results.length} cases failed (${seconds.toFixed(0)} s)\n`);
  if (load !== undefined)
    for (const r of load.runs)
      process.stderr.write(
        `load: ${r.label}: ${r.requestsPerSecond.toFixed(0)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, ${r.statuses}\n`,
      );
  if (o.failures !== undefined) writeFileAtomic(o.failures, renderFailures(results));
  const full = o.only === undefined && o.grep === undefined;
  if (full) {
    writeFileAtomic(join(ROOT, "docs/reliability.md"), formatMarkdown(renderDoc(results, load, seconds, startLoad)));
    process.stderr.write("reliability: wrote docs/reliability.md\n");
  }
  if (!o.keep) rmSync(f.dir, { recursive: true, force: true });
  process.exitCode = failed === 0 ? 0 : 1;
}

await main();
