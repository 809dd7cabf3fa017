/**
 * The reliability harness's machinery: a case (what is done, what must come out), running the real CLI in
 * a child process with a hard timeout, and the judges that turn what came out into a pass or a reason.
 * A case fails on a crash, a stack trace on stderr, a native onnxruntime message on stderr, exit 0 with
 * null/NaN scores, an unexpected error code, a hang (the per-case timeout), a 500, or a file written
 * where nothing should be.
 */
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The checkout under test: the one this script is in (its built CLI and packages). */
export const ROOT = join(fileURLToPath(import.meta.url), "../../..");
export const BIN = join(ROOT, "packages/cli/dist/bin.js");

export const CATEGORIES = ["input files (CLI)", "model files", "atomic writes", "server", "library API"] as const;
export type Category = (typeof CATEGORIES)[number];

/** Which part of npov a failure points to (the `--failures` list groups by it). */
export type Area = "A" | "B" | "C" | "D";

export const AREAS: Readonly<Record<Area, string>> = {
  A: "the guard and the HTTP server (classifier/guard.ts, generate/server.ts, serve)",
  B: "text, detectors, evaluation and synthesis (core text, rouge, eval, synth)",
  C: "model files, context length and vocabulary (autograd, salience, classifier models, local generator)",
  D: "the CLI, input files and writes (cli, core io/validate/dataset)",
};

export interface Case {
  category: Category;
  /** What is done, e.g. `check --methods align: response of 10,000 arguments`. */
  name: string;
  /** The outcome that counts as a pass, e.g. `exit 2 [NOTHING_TO_SCORE]`. */
  expected: string;
  area: Area;
  /** Runs the case; returns undefined on a pass, else what happened instead. */
  run(): Promise<string | undefined>;
}

export interface CaseResult {
  case: Case;
  /** undefined = pass. */
  got: string | undefined;
  ms: number;
}

/** Run cases with at most `concurrency` at once; `onDone` sees each result as it lands. */
export async function runCases(
  cases: readonly Case[],
  concurrency: number,
  onDone: (r: CaseResult, done: number) => void,
): Promise<CaseResult[]> {
  const results: CaseResult[] = new Array(cases.length);
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < cases.length) {
      const k = next++;
      const c = cases[k] as Case;
      const start = performance.now();
      let got: string | undefined;
      let watchdog: NodeJS.Timeout | undefined;
      try {
        // Every case has its own time limits; this one only stops a run that would wait forever.
        got = await Promise.race([
          c.run(),
          new Promise<string>((resolve) => {
            watchdog = setTimeout(() => resolve("harness: the case did not finish within 300 s"), 300_000);
          }),
        ]);
      } catch (error) {
        got = `harness error: ${error instanceof Error ? error.message : String(error)}`;
      } finally {
        clearTimeout(watchdog);
      }
      results[k] = { case: c, got, ms: performance.now() - start };
      onDone(results[k] as CaseResult, ++done);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));
  return results;
}

export interface ProcResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  ms: number;
  /** stdout was longer than the harness keeps (128 MB): only its start is in `stdout`. */
  truncated?: boolean;
}

export interface SpawnOptions {
  cwd?: string;
  env?: Record<string, string | undefined>;
  timeoutMs?: number;
  stdin?: string;
  /** Prepended to the command, e.g. `["prlimit", "--fsize=4096"]`. */
  wrap?: string[];
}

/** Environment of every child: no network model downloads, no colour, no debug stacks. */
export function childEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0", ...extra };
  delete env.NPOV_DEBUG;
  delete env.NODE_OPTIONS;
  for (const [k, v] of Object.entries(extra)) if (v === undefined) delete env[k];
  return env;
}

/** Run a command with a hard timeout (the whole process group is killed); never rejects. */
export function runProcess(command: string, args: readonly string[], o: SpawnOptions = {}): Promise<ProcResult> {
  const argv = [...(o.wrap ?? []), command, ...args];
  const start = performance.now();
  return new Promise((resolve) => {
    const child = spawn(argv[0] as string, argv.slice(1), {
      cwd: o.cwd ?? ROOT,
      env: childEnv(o.env),
      detached: true,
      stdio: ["pipe", "pipe", "pipe"],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let outBytes = 0;
    let errBytes = 0;
    // Keep at most 128 MB of each stream: a runaway writer must not take the harness's memory.
    child.stdout.on("data", (b: Buffer) => {
      if (outBytes < 128e6) out.push(b);
      outBytes += b.length;
    });
    child.stderr.on("data", (b: Buffer) => {
      if (errBytes < 16e6) err.push(b);
      errBytes += b.length;
    });
    child.stdin.on("error", () => {});
    child.stdin.end(o.stdin ?? "");
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        // already gone
      }
    }, o.timeoutMs ?? 30_000);
    child.on("error", (e) => {
      clearTimeout(timer);
      resolve({ code: null, signal: null, stdout: "", stderr: String(e), timedOut, ms: performance.now() - start });
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({
        code,
        signal,
        stdout: Buffer.concat(out).toString("utf8"),
        stderr: Buffer.concat(err).toString("utf8"),
        timedOut,
        ms: performance.now() - start,
        truncated: outBytes >= 128e6,
      });
    });
  });
}

/** Run the built CLI: `node packages/cli/dist/bin.js ...args`. */
export function runCli(args: readonly string[], o: SpawnOptions = {}): Promise<ProcResult> {
  return runProcess(process.execPath, [BIN, ...args], o);
}

const STACK_LINE = /^\s+at\s.+(:\d+:\d+\)?|\(native\)|\(<anonymous>\))\s*$/m;
const ORT_NATIVE = /\[(E|W|F):onnxruntime:|onnxruntime::|\bORT\b.*\bstatus\b/i;

function clip(text: string, n = 160): string {
  const one = text.replace(/\s+/g, " ").trim();
  return one.length > n ? `${one.slice(0, n)}...` : one;
}

/** What a CLI run shows, in one short line (for the failure list). */
export function describeRun(r: ProcResult): string {
  if (r.timedOut) return `hang: killed after ${(r.ms / 1000).toFixed(0)} s`;
  const last =
    r.stderr
      .trim()
      .split("\n")
      .filter((l) => !l.startsWith("npov: warning:"))
      .pop() ?? "";
  const head = r.signal === null ? `exit ${r.code}` : `killed by ${r.signal}`;
  return `${head}${last ? `: ${clip(last)}` : ""}`;
}

/** Problems every CLI run must be free of, whatever its outcome. */
export function runProblems(r: ProcResult): string | undefined {
  if (r.timedOut) return `hang: no answer within ${(r.ms / 1000).toFixed(0)} s`;
  if (r.signal !== null) return `killed by ${r.signal}${r.stderr ? `: ${clip(r.stderr)}` : ""}`;
  if (STACK_LINE.test(r.stderr)) {
    const first = r.stderr.split("\n").find((l) => l.trim().length > 0 && !l.startsWith("npov: warning")) ?? "";
    return `stack trace on stderr (exit ${r.code}): ${clip(first)}`;
  }
  if (/unexpected error/i.test(r.stderr)) return `unexpected error (exit ${r.code}): ${clip(r.stderr)}`;
  if (ORT_NATIVE.test(r.stderr)) return `native onnxruntime message on stderr: ${clip(r.stderr)}`;
  return undefined;
}

/** The `[CODE]` at the end of the CLI's one-line error. */
export function errorCode(stderr: string): string | undefined {
  const lines = stderr
    .trim()
    .split("\n")
    .filter((l) => l.startsWith("npov:") && !l.startsWith("npov: warning:"));
  const m = /\[([A-Z][A-Z0-9_]*)\]\s*$/.exec(lines.at(-1) ?? "");
  return m?.[1];
}

/** A typed one-line error: exit 2 and `[CODE]` with a code in `codes` (any code when `codes` is empty). */
export function judgeError(r: ProcResult, codes: readonly string[]): string | undefined {
  const problem = runProblems(r);
  if (problem !== undefined) return problem;
  const code = errorCode(r.stderr);
  if (r.code !== 2 || code === undefined) return describeRun(r);
  if (codes.length > 0 && !codes.includes(code)) return `exit 2 with [${code}]: ${clip(lastErrorLine(r.stderr))}`;
  return undefined;
}

/** A usage error: exit 2 with a typed `[CODE]` or commander's one-line `error: ...`. */
export function judgeUsage(r: ProcResult, codes: readonly string[]): string | undefined {
  const problem = runProblems(r);
  if (problem !== undefined) return problem;
  if (r.code === 2 && /^error: /m.test(r.stderr) && errorCode(r.stderr) === undefined) return undefined;
  return judgeError(r, codes);
}

function lastErrorLine(stderr: string): string {
  return (
    stderr
      .trim()
      .split("\n")
      .filter((l) => !l.startsWith("npov: warning:"))
      .at(-1) ?? ""
  );
}

/** Whether `x` is a finite number in [0, 1]. */
export function isUnitScore(x: unknown): boolean {
  return typeof x === "number" && Number.isFinite(x) && x >= 0 && x <= 1;
}

/** Score problems of a detector result `{hallucination, coverage, ...}`. */
export function scoreProblems(value: unknown, where: string): string | undefined {
  if (value === null || typeof value !== "object") return `${where}: no result object`;
  const v = value as Record<string, unknown>;
  for (const k of ["hallucination", "coverage"])
    if (!isUnitScore(v[k])) return `${where}.${k} = ${JSON.stringify(v[k])} (not a number in [0, 1])`;
  return undefined;
}

/** Parse stdout as JSON, or say why not. */
export function parseJson(text: string): { value?: unknown; problem?: string } {
  try {
    return { value: JSON.parse(text) };
  } catch (e) {
    return { problem: `stdout is not JSON (${(e as Error).message}): ${clip(text, 80)}` };
  }
}

/** `check --json`: exit 0 and finite scores in [0, 1] for every method. */
export function judgeCheckScores(r: ProcResult, methods: readonly string[]): string | undefined {
  const problem = runProblems(r);
  if (problem !== undefined) return problem;
  if (r.code !== 0) return describeRun(r);
  if (r.truncated && methods.length === 1) {
    // Evidence for 200,000 arguments is more JSON than the harness keeps; the scores come first.
    const m = new RegExp(
      `"${methods[0]}":\\s*\\{\\s*"hallucination":\\s*([^,\\s]+),\\s*"coverage":\\s*([^,\\s]+),`,
    ).exec(r.stdout);
    if (m === null) return "exit 0, stdout too long to keep and without scores at its start";
    return scoreProblems({ hallucination: Number(m[1]), coverage: Number(m[2]) }, methods[0] as string);
  }
  const { value, problem: bad } = parseJson(r.stdout);
  if (bad !== undefined) return bad;
  for (const m of methods) {
    const p = scoreProblems((value as Record<string, unknown>)[m], m);
    if (p !== undefined) return `exit 0 with ${p}`;
  }
  return undefined;
}

/** Either outcome is documented: a valid result (judged by `ok`) or a typed error with one of `codes`. */
export function judgeEither(
  r: ProcResult,
  ok: (r: ProcResult) => string | undefined,
  codes: readonly string[],
): string | undefined {
  const problem = runProblems(r);
  if (problem !== undefined) return problem;
  if (r.code === 0) return ok(r);
  return judgeError(r, codes);
}

/** Names of a directory's entries (empty when it does not exist). */
export function listDir(dir: string): string[] {
  return existsSync(dir) && statSync(dir).isDirectory() ? readdirSync(dir).sort() : [];
}

/** What changed in a directory: new or vanished entries (temp files left behind show up here). */
export function dirChanges(before: readonly string[], after: readonly string[]): string | undefined {
  const added = after.filter((f) => !before.includes(f));
  const removed = before.filter((f) => !after.includes(f));
  if (added.length === 0 && removed.length === 0) return undefined;
  return [
    added.length ? `left behind: ${added.join(", ")}` : "",
    removed.length ? `removed: ${removed.join(", ")}` : "",
  ]
    .filter(Boolean)
    .join("; ");
}

/** Bytes of a file, or undefined when it does not exist. */
export function fileBytes(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** A seeded pseudo-random generator (mulberry32): every random choice of the harness takes a seed. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `n` seeded random bytes. */
export function randomBytesSeeded(n: number, seed: number): Buffer {
  const rand = seeded(seed);
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) b[i] = Math.floor(rand() * 256);
  return b;
}
