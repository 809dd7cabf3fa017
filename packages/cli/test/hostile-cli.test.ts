/**
 * The CLI under hostile use: every numeric option of every command parses strictly; unwritable outputs
 * (a folder, a file as parent, an empty path, /proc, a full device, a read-only folder, the file-size
 * limit, a full or read-only file system) and corrupt input files end in one typed line `npov: ... [CODE]`
 * with exit code 2, no stack trace, the old output intact and no temp file left; an internal error is one
 * line with exit code 1 (the stack trace only with NPOV_DEBUG=1).
 *
 * Option and input cases call the CLI's exported `main` in this process (fast); cases that need a real
 * process (resource limits, another user, a mount namespace, process-level handlers) run the built binary.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildProgram } from "@npov/cli";
import type { Command } from "commander";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO } from "./helpers.js";
import { runMain as run } from "./in-process.js";

const BIN = fileURLToPath(new URL("../dist/bin.js", import.meta.url));
const root = mkdtempSync(join(tmpdir(), "npov-hostile-cli-"));
chmodSync(root, 0o755); // the read-only case runs as another user when this runs as root

/** Run the built binary (optionally under another program, user or environment). */
function spawnNpov(
  args: string[],
  options: { prefix?: string[]; nodeArgs?: string[]; env?: Record<string, string>; uid?: number } = {},
) {
  const command = [...(options.prefix ?? []), process.execPath, ...(options.nodeArgs ?? []), BIN, ...args];
  const r = spawnSync(command[0] as string, command.slice(1), {
    encoding: "utf8",
    cwd: REPO,
    timeout: 60_000,
    env: { ...process.env, NPOV_DEBUG: "", ...options.env },
    ...(options.uid === undefined ? {} : { uid: options.uid, gid: options.uid }),
  });
  return { status: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

/** Stack-trace lines as Node prints them ("    at f (file.js:1:2)"). */
const STACK_LINE = /^\s+at .+/m;

/** The one-line typed failure every bad input gets: exit 2, `npov: ... [CODE]`, no stack trace. */
function expectTypedFailure(r: { code?: number | null; status?: number | null; stderr: string }, code: string) {
  expect(r.code ?? r.status, r.stderr).toBe(2);
  const lines = r.stderr.trim().split("\n");
  expect(lines, r.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(new RegExp(`^npov: .+ \\[${code}\\]$`));
  expect(r.stderr).not.toMatch(STACK_LINE);
}

let counter = 0;
/** A fresh folder holding the old output `old.jsonl`. */
function outputDir(): { dir: string; old: string } {
  const dir = join(root, `out-${counter++}`);
  mkdirSync(dir);
  const old = join(dir, "old.jsonl");
  writeFileSync(old, '{"old": true}\n');
  return { dir, old };
}

/** Nothing was written: the old output is unchanged and the folder holds only what it held. */
function expectUntouched(dir: string, old: string, entries = ["old.jsonl"]) {
  expect(readFileSync(old, "utf8")).toBe('{"old": true}\n');
  expect(readdirSync(dir).sort()).toEqual(entries);
}

// A small real dataset (rouge scores it in well under a second) for the commands that read one.
let dataset: string;
let datasetLines: string[];
beforeAll(async () => {
  dataset = join(root, "test.jsonl");
  const r = await run(
    "synth",
    "--split",
    "test",
    "--per-topic",
    "1",
    "--slices",
    "unparaphrased-synthetic",
    "--out",
    dataset,
  );
  expect(r.code, r.stderr).toBe(0);
  datasetLines = readFileSync(dataset, "utf8").trim().split("\n");
});
afterAll(() => {
  chmodSync(root, 0o755);
});

/** Every subcommand with its path of names, e.g. ["annotate", "serve"]. */
function commands(program: Command, path: string[] = []): Array<{ path: string[]; command: Command }> {
  return program.commands.flatMap((c) => [
    { path: [...path, c.name()], command: c },
    ...commands(c, [...path, c.name()]),
  ]);
}

// Placeholders that name a number: every option written with one must parse it strictly.
const NUMERIC = /<(n|k|x|t|p|ms|bytes|fraction)>/;

describe("numeric options parse strictly, on every command", () => {
  const numeric = commands(buildProgram()).flatMap(({ path, command }) =>
    command.options.filter((o) => NUMERIC.test(o.flags)).map((option) => ({ path, option })),
  );

  it("every numeric option has a parser and a number (or no) default", () => {
    expect(numeric.length).toBeGreaterThan(60);
    for (const { path, option } of numeric) {
      expect(option.parseArg, `${path.join(" ")} ${option.flags}`).toBeTypeOf("function");
      expect(["number", "undefined"], `${path.join(" ")} ${option.flags}`).toContain(typeof option.defaultValue);
    }
  });

  it("every numeric option refuses text, an empty value and a fraction or infinity, before any work", async () => {
    for (const { path, option } of numeric) {
      const flag = option.long as string;
      for (const value of ["abc", "", "0x10", /<(n|k|ms|bytes)>/.test(option.flags) ? "1.5" : "Infinity"]) {
        const r = await run(...path, flag, value);
        expectTypedFailure(r, "USAGE");
        expect(r.stderr).toContain(`npov: ${flag} must be `);
        expect(r.stderr).toContain(`got "${value}".`);
      }
    }
  });

  it.each([
    [["eval", "--data", "x", "--limit", "-1"], '--limit must be an integer >= 1, got "-1".'],
    [["eval", "--data", "x", "--limit", "0"], '--limit must be an integer >= 1, got "0".'],
    [["eval", "--data", "x", "--bootstrap", "abc"], '--bootstrap must be an integer from 0 to 100000, got "abc".'],
    [["eval", "--data", "x", "--sample-per-slice", "0"], '--sample-per-slice must be an integer >= 1, got "0".'],
    [
      ["synth", "--split", "test", "--per-topic", "1000000000", "--out", "x.jsonl"],
      '--per-topic must be an integer from 1 to 100, got "1000000000".',
    ],
    [
      ["synth", "--split", "test", "--seed", "4294967296", "--out", "x"],
      '--seed must be an integer from 0 to 4294967295, got "4294967296".',
    ],
    [["generate", "--input", "x", "--top-p", "0"], '--top-p must be a number > 0 and <= 1, got "0".'],
    [["generate", "--input", "x", "--temperature", "-1"], '--temperature must be a number from 0 to 100, got "-1".'],
    [
      ["calibrate-guard", "--data", "x", "--out", "y", "--target-fpr", "1.5"],
      '--target-fpr must be a number from 0 to 1, got "1.5".',
    ],
    [
      ["worker", "--queue", "redis://x", "--concurrency", "0"],
      '--concurrency must be an integer from 1 to 1000, got "0".',
    ],
    [["annotate", "import", "--db", " "], "--db must name a database file, got an empty path."],
  ])("%j: %s", async (args, message) => {
    const r = await run(...args);
    expectTypedFailure(r, "USAGE");
    expect(r.stderr).toBe(`npov: ${message} [USAGE]\n`);
  });

  it("values inside the range are accepted and used", async () => {
    const r = await run(
      "eval",
      "--data",
      dataset,
      "--limit",
      "+2",
      "--bootstrap",
      "0",
      "--seed",
      "4294967295",
      "--json",
    );
    expect(r.code, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout).rows as Array<{ n: number; level: string }>;
    expect(Math.max(...rows.filter((x) => x.level === "example").map((x) => x.n))).toBe(2);
  });
});

describe("unwritable outputs: one typed line, exit 2, nothing written", () => {
  const synth = (out: string) => run("synth", "--split", "test", "--per-topic", "1", "--out", out);

  it("the output is a folder", async () => {
    const { dir, old } = outputDir();
    mkdirSync(join(dir, "sub"));
    const r = await synth(join(dir, "sub"));
    expectTypedFailure(r, "FILE_UNWRITABLE");
    expect(r.stderr).toContain("it is a folder");
    expectUntouched(dir, old, ["old.jsonl", "sub"]);
    expect(readdirSync(join(dir, "sub"))).toEqual([]);
  });

  it("a parent is a file", async () => {
    const { dir, old } = outputDir();
    const r = await synth(join(old, "x.jsonl"));
    expectTypedFailure(r, "FILE_UNWRITABLE");
    expect(r.stderr).toContain("a part of its path is a file, not a folder");
    expectUntouched(dir, old);
  });

  it("an empty path", async () => {
    const r = await synth("");
    expectTypedFailure(r, "FILE_UNWRITABLE");
    expect(r.stderr).toBe('npov: Cannot write "": the path is empty. Choose another output path. [FILE_UNWRITABLE]\n');
  });

  it("a folder under /proc fails at once instead of hanging", async () => {
    const r = await synth("/proc/npov-no-such-folder/out.jsonl");
    expectTypedFailure(r, "FILE_UNWRITABLE");
    expect(r.stderr).toContain("does not allow creating folders");
  });

  it("a full device (ENOSPC from /dev/full)", async () => {
    const r = await synth("/dev/full");
    expectTypedFailure(r, "FILE_UNWRITABLE");
    expect(r.stderr).toContain("no space left on the device");
  });

  it("eval --report, check-batch --out, calibrate-guard --out and annotate export --out are checked before the work", async () => {
    const { dir, old } = outputDir();
    const cases: string[][] = [
      ["eval", "--data", dataset, "--report", dir],
      ["check-batch", "--data", dataset, "--out", join(old, "scores.jsonl")],
      ["calibrate-guard", "--data", dataset, "--method", "rouge", "--out", dir],
      ["annotate", "export", "--db", join(dir, "never-created.sqlite"), "--out", dir],
      ["kb", "import-perspectrum", "--out", ""],
      ["train-vectors", "--out", old],
    ];
    for (const args of cases) {
      const r = await run(...args);
      expectTypedFailure(r, "FILE_UNWRITABLE");
      expect(r.stdout).toBe("");
    }
    expectUntouched(dir, old);
  });
});

describe("unwritable outputs that need a real process", () => {
  it("the file-size limit (ulimit -f): EFBIG, not killed by SIGXFSZ", () => {
    const { dir, old } = outputDir();
    // 16 blocks (8 or 16 KiB, by the shell's block size): far below the ~100 KB dataset.
    const r = spawnNpov(["synth", "--split", "test", "--out", old], {
      prefix: ["sh", "-c", 'ulimit -f 16 && exec "$@"', "sh"],
    });
    expect(r.signal).toBeNull();
    expectTypedFailure(r, "FILE_UNWRITABLE");
    expect(r.stderr).toContain("file-size limit");
    expectUntouched(dir, old);
  });

  it("standard output on a full device: one typed line, exit 2", () => {
    const r = spawnNpov(["kb", "list"], { prefix: ["sh", "-c", 'exec "$@" > /dev/full', "sh"] });
    expect(r.stderr).toBe(
      "npov: Cannot write standard output: ENOSPC: no space left on device, write. [FILE_UNWRITABLE]\n",
    );
    expect(r.status).toBe(2);
  });

  it("a read-only folder (as another user when run as root, who may write anywhere)", () => {
    const { dir, old } = outputDir();
    const asRoot = process.getuid?.() === 0;
    chmodSync(dir, 0o555);
    try {
      const r = spawnNpov(["synth", "--split", "test", "--out", old], asRoot ? { uid: 65534 } : {});
      expectTypedFailure(r, "FILE_UNWRITABLE");
      expect(r.stderr).toContain("permission denied");
    } finally {
      chmodSync(dir, 0o755);
    }
    expectUntouched(dir, old);
  });

  // A private mount namespace (util-linux `unshare`) gives a real small tmpfs: full, then read-only.
  const canMount =
    spawnSync("unshare", ["-rm", "sh", "-c", `mount -t tmpfs -o size=64k tmpfs "${root}"`], { encoding: "utf8" })
      .status === 0;
  it.runIf(canMount)("a full file system (ENOSPC) and a read-only one (EROFS): a 64 KiB tmpfs", () => {
    const mnt = join(root, "mnt");
    const results = join(root, "mnt-results");
    mkdirSync(mnt);
    mkdirSync(results);
    const script = `
      set -e
      mount -t tmpfs -o size=64k tmpfs "$1"
      printf '{"old": true}\\n' > "$1/old.jsonl"
      set +e
      "$3" "$4" synth --split test --out "$1/old.jsonl" 2> "$2/full.err"; echo $? > "$2/full.status"
      cp "$1/old.jsonl" "$2/full.old"; ls -A "$1" > "$2/full.ls"
      mount -o remount,ro "$1"
      "$3" "$4" synth --split test --out "$1/old.jsonl" 2> "$2/ro.err"; echo $? > "$2/ro.status"
      cp "$1/old.jsonl" "$2/ro.old"; ls -A "$1" > "$2/ro.ls"
    `;
    const r = spawnSync("unshare", ["-rm", "sh", "-c", script, "sh", mnt, results, process.execPath, BIN], {
      encoding: "utf8",
      cwd: REPO,
      env: { ...process.env, NPOV_DEBUG: "" },
    });
    expect(r.status, r.stderr).toBe(0);
    const read = (name: string) => readFileSync(join(results, name), "utf8");
    for (const [kind, reason] of [
      ["full", "no space left on the device"],
      ["ro", "the file system is read-only"],
    ] as const) {
      expectTypedFailure({ status: Number(read(`${kind}.status`)), stderr: read(`${kind}.err`) }, "FILE_UNWRITABLE");
      expect(read(`${kind}.err`)).toContain(reason);
      expect(read(`${kind}.old`)).toBe('{"old": true}\n');
      expect(read(`${kind}.ls`)).toBe("old.jsonl\n");
    }
  });
});

describe("input files: BOM accepted, corruption and wrong field types are typed errors", () => {
  const file = (name: string, content: string | Buffer) => {
    const path = join(root, name);
    writeFileSync(path, content);
    return path;
  };

  it("a UTF-8 byte-order mark is dropped (dataset, example JSON, text lines)", async () => {
    const plain = await run("eval", "--data", dataset, "--bootstrap", "0", "--json");
    const bom = await run(
      "eval",
      "--data",
      file("bom.jsonl", `\uFEFF${datasetLines.join("\n")}\n`),
      "--bootstrap",
      "0",
      "--json",
    );
    expect(bom.code, bom.stderr).toBe(0);
    expect(JSON.parse(bom.stdout).rows).toEqual(JSON.parse(plain.stdout).rows);
    const example = file("bom-example.json", `\uFEFF${datasetLines[0]}`);
    expect((await run("check", "--input", example, "--json")).code).toBe(0);
    const target = file("target.txt", "\uFEFFcats are calm\n");
    const prediction = file("prediction.txt", "cats are calm\n");
    const r = await run("rouge", "--target", target, "--prediction", prediction, "--json");
    expect(JSON.parse(r.stdout).rouge1.fmeasure).toBe(1);
  });

  it("an empty dataset or text file is a usage error, not a table of nothing; a one-class training set fails before scoring", async () => {
    const empty = file("empty.jsonl", "");
    const emptyArray = file("empty-array.json", "[]");
    for (const data of [empty, emptyArray]) {
      const r = await run("eval", "--data", data, "--bootstrap", "0");
      expectTypedFailure(r, "USAGE");
      expect(r.stderr).toContain("holds no examples");
    }
    const nothing = file("nothing.txt", "");
    const rouge = await run("rouge", "--target", nothing, "--prediction", nothing);
    expectTypedFailure(rouge, "USAGE");
    expect(rouge.stderr).toContain("has no lines");
    // Every example without a coverage error: refused before any detector is built or example scored.
    const clean = file(
      "clean.jsonl",
      `${datasetLines
        .map((l) => JSON.parse(l))
        .filter((e) => e.labels?.coverage === false)
        .map((e) => JSON.stringify(e))
        .join("\n")}\n`,
    );
    for (const args of [
      ["train-stacked", "--train", clean, "--out", join(root, "stacked-one-class.json")],
      ["calibrate-guard", "--data", clean, "--method", "rouge", "--out", join(root, "guard-one-class.json")],
    ]) {
      const r = await run(...args);
      expectTypedFailure(r, "USAGE");
      expect(r.stderr).toContain("needs examples with and without coverage errors");
    }
  });

  it("a detector named twice in --methods is scored once", async () => {
    const twice = await run("eval", "--data", dataset, "--methods", "rouge,rouge", "--bootstrap", "0", "--json");
    const once = await run("eval", "--data", dataset, "--methods", "rouge", "--bootstrap", "0", "--json");
    expect(twice.code, twice.stderr).toBe(0);
    expect(JSON.parse(twice.stdout).rows).toEqual(JSON.parse(once.stdout).rows);
  });

  it('eval with "slice": 5 names file, line and field', async () => {
    const lines = datasetLines.map((l, k) => (k === 1 ? JSON.stringify({ ...JSON.parse(l), slice: 5 }) : l));
    const bad = file("slice5.jsonl", `${lines.join("\n")}\n`);
    const r = await run("eval", "--data", bad, "--bootstrap", "0");
    expectTypedFailure(r, "INVALID_FILE");
    expect(r.stderr).toContain(`${bad}:2 slice: must be a non-empty string, got number 5.`);
  });

  it("invalid UTF-8, NUL bytes, truncation, random bytes and a huge line: INVALID_FILE, never a crash", async () => {
    const good = Buffer.from(`${datasetLines.join("\n")}\n`);
    const latin1 = Buffer.concat([good.subarray(0, 200), Buffer.from([0xe9]), good.subarray(200)]);
    const cases: Array<[string, Buffer, string]> = [
      ["latin1.jsonl", latin1, "not UTF-8 text (invalid byte 0xe9 at byte 200)"],
      ["nul.jsonl", Buffer.concat([Buffer.from([0]), good]), ":1 (record): invalid JSON"],
      ["truncated.jsonl", good.subarray(0, good.length - 40), `:${datasetLines.length} (record): invalid JSON`],
      ["cut-utf8.jsonl", Buffer.concat([good, Buffer.from([0xe2, 0x82])]), "not UTF-8 text"],
      ["random.jsonl", Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 256)), "not UTF-8 text"],
      ["huge-line.jsonl", Buffer.from(`${"x".repeat(3_000_000)}\n`), ":1 (record): invalid JSON"],
    ];
    for (const [name, bytes, message] of cases) {
      const path = file(name, bytes);
      for (const args of [
        ["eval", "--data", path, "--bootstrap", "0"],
        ["calibrate-guard", "--data", path, "--method", "rouge", "--out", join(root, "never.json")],
      ]) {
        const r = await run(...args);
        expectTypedFailure(r, "INVALID_FILE");
        expect(r.stderr).toContain(message);
        expect(r.stderr.length).toBeLessThan(3000);
      }
    }
    expect(readdirSync(root)).not.toContain("never.json");
  });
});

describe("an internal error (a bug) is one line, exit 1, distinct from bad input", () => {
  // A bug is injected with --import: writing the output throws a TypeError, as a broken command would.
  const inject = (code: string) => ["--import", `data:text/javascript,${encodeURIComponent(code)}`];

  it("thrown inside a command: one line; the stack trace only with NPOV_DEBUG=1", () => {
    const bug = 'process.stdout.write = () => { throw new TypeError("injected bug"); };';
    const r = spawnNpov(["kb", "list"], { nodeArgs: inject(bug) });
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(
      "npov: unexpected error (a bug in npov, please report it): TypeError: injected bug. Set NPOV_DEBUG=1 for the stack trace. [INTERNAL_ERROR]\n",
    );
    const debug = spawnNpov(["kb", "list"], { nodeArgs: inject(bug), env: { NPOV_DEBUG: "1" } });
    expect(debug.status).toBe(1);
    expect(debug.stderr).toMatch(/TypeError: injected bug\. Stack trace: \[INTERNAL_ERROR\]\n/);
    expect(debug.stderr).toMatch(STACK_LINE);
  });

  it("a stray promise rejection outside the command: one line, exit 1", () => {
    // When the command prints, a promise nobody awaits is rejected (as a careless event handler would).
    const stray =
      'const write = process.stdout.write.bind(process.stdout); process.stdout.write = (...a) => { Promise.reject(new RangeError("stray")); return write(...a); };';
    const r = spawnNpov(["kb", "list", "--json"], { nodeArgs: inject(stray) });
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(
      "npov: unexpected error (a bug in npov, please report it): RangeError: stray. Set NPOV_DEBUG=1 for the stack trace. [INTERNAL_ERROR]\n",
    );
  });
});
