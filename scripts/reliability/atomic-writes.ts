/**
 * Category "atomic writes": every command that writes a file, pointed at outputs it cannot write -- a
 * directory, a path under a file, an empty path, a read-only or full file system (a private tmpfs mount),
 * a file-size limit, /proc and /sys, a name over NAME_MAX -- and killed with SIGKILL mid-write. Each must
 * refuse with FILE_UNWRITABLE (one line, exit 2), leave an existing file byte-identical and leave no
 * temporary file behind.
 */
import { execFileSync, spawn } from "node:child_process";
import { chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Fixtures } from "./fixtures.js";
import {
  BIN,
  type Case,
  childEnv,
  describeRun,
  dirChanges,
  fileBytes,
  judgeError,
  judgeUsage,
  listDir,
  type ProcResult,
  runCli,
  runProblems,
  runProcess,
} from "./harness.js";

const UNWRITABLE = ["FILE_UNWRITABLE"];
const OLD = "OLD CONTENT: must survive a failed write\n";

interface Writer {
  label: string;
  ext: string;
  args(out: string): string[];
  /** A variant that fails before writing (bad input): the old output must survive it. */
  failing?(out: string): string[];
}

export function writeCases(f: Fixtures): Case[] {
  const ex = f.exampleFile;
  const bad = f.write("bad.jsonl", '{"input": 1}\n');
  const writers: Writer[] = [
    {
      label: "synth --out",
      ext: "jsonl",
      args: (o) => ["synth", "--split", "test", "--per-topic", "1", "--out", o],
      failing: (o) => ["synth", "--kb", join(f.dir, "missing.jsonl"), "--split", "test", "--out", o],
    },
    {
      label: "check-batch --out",
      ext: "jsonl",
      args: (o) => ["check-batch", "--data", f.testData, "--out", o, "--methods", "rouge"],
      failing: (o) => ["check-batch", "--data", join(f.dir, "missing.jsonl"), "--out", o],
    },
    {
      label: "calibrate-guard --out",
      ext: "json",
      args: (o) => ["calibrate-guard", "--data", f.devData, "--method", "rouge", "--out", o],
      failing: (o) => ["calibrate-guard", "--data", bad, "--method", "rouge", "--out", o],
    },
    {
      label: "train-stacked --out",
      ext: "json",
      args: (o) => ["train-stacked", "--train", f.testData, "--out", o],
      failing: (o) => ["train-stacked", "--train", bad, "--out", o],
    },
    {
      label: "eval --report",
      ext: "html",
      args: (o) => ["eval", "--data", f.testData, "--methods", "rouge", "--bootstrap", "0", "--report", o],
      failing: (o) => ["eval", "--data", bad, "--methods", "rouge", "--report", o],
    },
    {
      label: "salience --html",
      ext: "html",
      args: (o) => ["salience", "--input", ex, "--html", o],
      failing: (o) => ["salience", "--input", bad, "--html", o],
    },
    {
      label: "kb import-perspectrum --out",
      ext: "jsonl",
      args: (o) => ["kb", "import-perspectrum", "--out", o],
    },
  ];
  const cases: Case[] = [];
  const wc = (
    w: Writer,
    what: string,
    expected: string,
    run: () => Promise<string | undefined>,
    area: "D" | "A" = "D",
  ): Case => ({
    category: "atomic writes",
    area,
    name: `${w.label} ${what}`,
    expected,
    run,
  });
  /** Run `w` at `out` (inside `dir`): typed FILE_UNWRITABLE, `dir` unchanged, the old file (if any) intact. */
  const refused = async (
    w: Writer,
    out: string,
    dir: string,
    o: { codes?: string[]; wrap?: string[]; timeoutMs?: number } = {},
  ) => {
    const before = listDir(dir);
    const old = existsSync(out) && lstatSync(out).isFile() ? fileBytes(out) : undefined;
    const r = await runCli(w.args(out), {
      timeoutMs: o.timeoutMs ?? 60_000,
      cwd: f.dir,
      ...(o.wrap ? { wrap: o.wrap } : {}),
    });
    const e = judgeUsage(r, o.codes ?? UNWRITABLE);
    if (e !== undefined) return e;
    if (old !== undefined && !fileBytes(out)?.equals(old)) return "the old file was changed";
    return dirChanges(before, listDir(dir));
  };
  for (const w of writers) {
    const expected = "exit 2 [FILE_UNWRITABLE], nothing written, no temp file left";
    cases.push(
      wc(w, "at an existing directory", expected, async () => {
        const dir = f.sub("w-dir");
        const out = join(dir, `out.${w.ext}`);
        mkdirSync(out);
        writeFileSync(join(out, "keep.txt"), "keep");
        const e = await refused(w, out, dir);
        return e ?? (listDir(out).join(",") === "keep.txt" ? undefined : `directory contents changed: ${listDir(out)}`);
      }),
      wc(w, "under a path whose parent is a file", expected, async () => {
        const dir = f.sub("w-parent-file");
        writeFileSync(join(dir, "file.txt"), OLD);
        const e = await refused(w, join(dir, "file.txt", `out.${w.ext}`), dir);
        return e ?? (readFileSync(join(dir, "file.txt"), "utf8") === OLD ? undefined : "the parent file changed");
      }),
      wc(w, 'at an empty path ("")', "exit 2 [FILE_UNWRITABLE | USAGE], nothing written", async () => {
        const dir = f.sub("w-empty");
        const r = await runCli(w.args(""), { timeoutMs: 60_000, cwd: dir });
        const e = judgeUsage(r, [...UNWRITABLE, "USAGE", "INVALID_VALUE"]);
        return e ?? dirChanges([], listDir(dir));
      }),
      wc(w, "at a path ending in a slash (out.ext/)", expected, async () => {
        const dir = f.sub("w-slash");
        return refused(w, `${join(dir, `out.${w.ext}`)}/`, dir);
      }),
      wc(w, "at a name longer than NAME_MAX (300 characters)", expected, async () => {
        const dir = f.sub("w-long");
        return refused(w, join(dir, `${"n".repeat(300)}.${w.ext}`), dir);
      }),
      wc(
        w,
        "in a parent folder that does not exist",
        "exit 2 [FILE_UNWRITABLE], or the folder is created and the file written",
        async () => {
          const dir = f.sub("w-missing-parent");
          const out = join(dir, "no", "such", `out.${w.ext}`);
          const r = await runCli(w.args(out), { timeoutMs: 60_000, cwd: f.dir });
          if (r.code === 0) return runProblems(r) ?? (fileBytes(out)?.length ? undefined : "exit 0 but no file");
          return judgeError(r, UNWRITABLE) ?? dirChanges([], listDir(dir));
        },
      ),
      wc(w, "over an existing file on a read-only file system (private tmpfs, ro)", expected, async () =>
        inMount(f, w, { readOnly: true }),
      ),
      wc(w, "over an existing file on a full file system (private 64 KB tmpfs, filled)", expected, async () =>
        inMount(f, w, { full: true }),
      ),
      wc(
        w,
        "over an existing file under a 100-byte file-size limit (prlimit --fsize)",
        "exit 2 [FILE_UNWRITABLE], not killed by SIGXFSZ, old file intact, no temp file",
        async () => {
          const dir = f.sub("w-fsize");
          const out = join(dir, `out.${w.ext}`);
          writeFileSync(out, OLD);
          return refused(w, out, dir, { wrap: ["prlimit", "--fsize=100"] });
        },
      ),
      wc(w, "in a read-only directory, as an unprivileged user", expected, async () => {
        const dir = f.sub("w-eacces");
        const out = join(dir, `out.${w.ext}`);
        writeFileSync(out, OLD);
        chmodSync(dir, 0o555);
        openUp(f);
        return refused(w, out, dir, { wrap: ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"] });
      }),
    );
    for (const [label, path] of [
      ["under /proc", "/proc/npov-reliability.out"],
      ["under /proc/self", "/proc/self/npov-reliability.out"],
      ["under /sys", "/sys/npov-reliability.out"],
    ] as const)
      cases.push(
        wc(w, label, "exit 2 [FILE_UNWRITABLE] within 15 s", async () => {
          const r = await runCli(w.args(path), { timeoutMs: 15_000, cwd: f.dir });
          return judgeError(r, UNWRITABLE) ?? (existsSync(path) ? `${path} exists now` : undefined);
        }),
      );
    const failing = w.failing;
    if (failing !== undefined)
      cases.push(
        wc(
          w,
          "over an existing file, the command failing on bad input",
          "exit 2 with a typed error, the old file byte-identical, no temp file",
          async () => {
            const dir = f.sub("w-failing");
            const out = join(dir, `out.${w.ext}`);
            writeFileSync(out, OLD);
            const r = await runCli(failing(out), { timeoutMs: 60_000, cwd: f.dir });
            return (
              judgeError(r, []) ??
              (readFileSync(out, "utf8") === OLD
                ? dirChanges([`out.${w.ext}`], listDir(dir))
                : "the old file was changed")
            );
          },
        ),
      );
    cases.push(
      wc(w, "at a non-ASCII file name (résumé-数据)", "exit 0 and the file written", async () => {
        const dir = f.sub("w-unicode");
        const out = join(dir, `résumé-数据.${w.ext}`);
        const r = await runCli(w.args(out), { timeoutMs: 60_000, cwd: f.dir });
        return (
          runProblems(r) ??
          (r.code !== 0
            ? describeRun(r)
            : fileBytes(out)?.length
              ? dirChanges([`résumé-数据.${w.ext}`], listDir(dir))
              : "no file")
        );
      }),
      wc(
        w,
        "over a named pipe (FIFO)",
        "exit 0 with the pipe replaced by the file, or exit 2 [FILE_UNWRITABLE]; no hang",
        async () => {
          const dir = f.sub("w-fifo");
          const out = join(dir, `out.${w.ext}`);
          execFileSync("mkfifo", [out]);
          const r = await runCli(w.args(out), { timeoutMs: 30_000, cwd: f.dir });
          if (r.code === 0)
            return runProblems(r) ?? (lstatSync(out).isFile() ? undefined : "exit 0 but the output is not a file");
          return judgeError(r, UNWRITABLE);
        },
      ),
    );
  }

  // kill -9 in the middle of writing: the target is the old file or the complete new one, never a part.
  for (const ms of [400, 900, 1500, 2500])
    cases.push({
      category: "atomic writes",
      area: "D",
      name: `synth --per-topic 20 --out over an existing file, killed with SIGKILL after ${ms} ms`,
      expected: "the file is the old content or the complete new dataset (every line valid JSON)",
      run: async () => {
        const dir = f.sub("w-kill");
        const out = join(dir, "out.jsonl");
        writeFileSync(out, OLD);
        const child = spawn(process.execPath, [BIN, "synth", "--split", "test", "--per-topic", "20", "--out", out], {
          cwd: f.dir,
          env: childEnv(),
          stdio: "ignore",
        });
        // Listen for the end now: the run may finish before the kill.
        const closed = new Promise((r) => child.on("close", r));
        await new Promise((r) => setTimeout(r, ms));
        child.kill("SIGKILL");
        await closed;
        const text = readFileSync(out, "utf8");
        if (text === OLD) return undefined;
        const lines = text.split("\n");
        if (lines.at(-1) !== "") return "the file does not end in a newline: a partial write";
        for (const [k, line] of lines.slice(0, -1).entries()) {
          try {
            JSON.parse(line);
          } catch {
            return `line ${k + 1} is not JSON: a partial write`;
          }
        }
        return undefined;
      },
    });
  return cases;
}

let opened = false;
/** Let an unprivileged user reach the scratch folder (mkdtemp makes it 0700). */
function openUp(f: Fixtures): void {
  if (opened) return;
  opened = true;
  chmodSync(f.dir, 0o755);
}

/**
 * Run the writer inside a private mount namespace (unshare -m) on a 64 KB tmpfs that holds an old output
 * file, made read-only or filled up; the outcome and the mount's listing and old file come back through
 * files in the scratch folder.
 */
async function inMount(f: Fixtures, w: Writer, o: { readOnly?: boolean; full?: boolean }): Promise<string | undefined> {
  const dir = f.sub(o.readOnly ? "w-ro" : "w-full");
  const mnt = join(dir, "mnt");
  mkdirSync(mnt);
  const out = join(mnt, `out.${w.ext}`);
  const before = join(dir, "before.txt");
  const after = join(dir, "after.txt");
  const oldCopy = join(dir, "old-copy");
  const script = [
    "set -e",
    `mount -t tmpfs -o size=64k tmpfs "${mnt}"`,
    `printf '%s' "$OLD" > "${out}"`,
    o.full ? `dd if=/dev/zero of="${mnt}/fill" bs=1k count=200 2>/dev/null || true` : "true",
    o.readOnly ? `mount -o remount,ro "${mnt}"` : "true",
    `ls -A "${mnt}" > "${before}"`,
    "set +e",
    '"$@"',
    "rc=$?",
    `ls -A "${mnt}" > "${after}"`,
    `cat "${out}" > "${oldCopy}" 2>/dev/null`,
    "exit $rc",
  ].join("\n");
  const r: ProcResult = await runProcess(
    "unshare",
    ["-m", "--propagation", "private", "sh", "-c", script, "sh", process.execPath, BIN, ...w.args(out)],
    { timeoutMs: 60_000, cwd: f.dir, env: { OLD } },
  );
  if (!existsSync(before)) return `harness: the private mount failed: ${r.stderr.slice(0, 200)}`;
  const e = judgeError(r, UNWRITABLE);
  if (e !== undefined) return e;
  if (readFileSync(oldCopy, "utf8") !== OLD) return "the old file was changed";
  return dirChanges(
    readFileSync(before, "utf8").split("\n").filter(Boolean),
    readFileSync(after, "utf8").split("\n").filter(Boolean),
  );
}
