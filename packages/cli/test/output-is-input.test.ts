/**
 * Nothing a user types can destroy their data: every command that writes refuses, before any work, an output
 * that is (by path, through a symbolic link, or as a hard link) one of its inputs, its database or a folder
 * holding an input -- `OUTPUT_IS_INPUT` naming both flags -- and each case checks that the input's bytes are
 * unchanged. Model folders are written to a temporary sibling and swapped in, so a failed run leaves the old
 * model whole. Runs the CLI's `main` in this process (the refusals come before any model loads).
 */
import { spawn } from "node:child_process";
import {
  cpSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO } from "./helpers.js";
import { runMain as run } from "./in-process.js";

const BIN = fileURLToPath(new URL("../dist/bin.js", import.meta.url));

/** Run the built binary without blocking this test process (a long synchronous spawn stalls vitest's worker). */
function npov(...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: REPO });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

const root = mkdtempSync(join(tmpdir(), "npov-output-is-input-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let counter = 0;
function fresh(): string {
  const dir = join(root, `case-${counter++}`);
  mkdirSync(dir);
  return dir;
}

/** Every file under `dir` (relative path -> bytes), to compare a folder before and after. */
function snapshot(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (rel: string) => {
    for (const e of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const path = join(rel, e.name);
      if (e.isDirectory()) walk(path);
      else files.set(path, readFileSync(join(dir, path)).toString("base64"));
    }
  };
  walk("");
  return files;
}

let dataset: string;
beforeAll(() => {
  dataset = readFileSync(join(REPO, "fixtures/examples/uniforms.json"), "utf8");
});

/** A dataset file (one example per line) with known bytes. */
function datasetFile(dir: string, name = "d.jsonl"): string {
  const file = join(dir, name);
  writeFileSync(file, `${JSON.stringify(JSON.parse(dataset))}\n`);
  return file;
}

/** The command must refuse with OUTPUT_IS_INPUT naming both flags, leaving `files` byte-identical. */
async function refused(args: string[], flags: [string, string], files: string[], code = "OUTPUT_IS_INPUT") {
  const before = files.map((f) => readFileSync(f));
  const r = await run(...args);
  expect(r.code).toBe(2);
  const line = r.stderr.trim().split("\n").at(-1) ?? "";
  expect(line).toContain(`[${code}]`);
  expect(line).toContain(flags[0]);
  expect(line).toContain(flags[1]);
  files.forEach((f, k) => {
    expect(readFileSync(f).equals(before[k] as Buffer)).toBe(true);
  });
}

describe("data loss: an output over an input is refused and the input keeps its bytes", () => {
  it("check-batch --out the --data file, a symbolic link to it, or a hard link to it", async () => {
    const dir = fresh();
    const data = datasetFile(dir);
    symlinkSync(data, join(dir, "link.jsonl"));
    linkSync(data, join(dir, "hard.jsonl"));
    for (const out of [data, join(dir, "link.jsonl"), join(dir, "hard.jsonl")])
      await refused(["check-batch", "--data", data, "--out", out], ["--out", "--data"], [data]);
  });

  it("annotate export --out or --agreement the database, another SQLite database, or its write-ahead log", async () => {
    const dir = fresh();
    const db = join(dir, "a.sqlite");
    const data = datasetFile(dir);
    expect((await run("annotate", "import", "--db", db, "--data", data)).code).toBe(0);
    expect((await run("annotate", "tokens", "--db", db, "--add", "ann")).code).toBe(0);
    const other = join(dir, "other.sqlite");
    cpSync(db, other);
    await refused(["annotate", "export", "--db", db, "--out", db], ["--out", "--db"], [db]);
    await refused(
      ["annotate", "export", "--db", db, "--out", join(dir, "x.jsonl"), "--agreement", db],
      ["--agreement", "--db"],
      [db],
    );
    await refused(["annotate", "export", "--db", db, "--out", `${db}-wal`], ["--out", "--db"], [db]);
    await refused(["annotate", "export", "--db", db, "--out", other], ["--out", "SQLite database"], [db, other]);
    await refused(
      ["annotate", "export", "--db", db, "--out", join(dir, "x.jsonl"), "--agreement", join(dir, "x.jsonl")],
      ["--agreement", "--out"],
      [db],
      "OUTPUT_CONFLICT",
    );
    // The database is still whole: its user and its examples are there.
    const progress = await npov("annotate", "progress", "--db", db, "--json");
    expect(progress.status).toBe(0);
    expect(JSON.parse(progress.stdout).overall.examples).toBe(1);
  });

  it("annotate import --db the --data file", async () => {
    const dir = fresh();
    const data = datasetFile(dir);
    await refused(["annotate", "import", "--db", data, "--data", data], ["--db", "--data"], [data]);
  });

  it("train-support over a trained model with a broken or missing --dev: the old model stays whole", async () => {
    const dir = fresh();
    const model = join(dir, "support");
    cpSync(join(REPO, "models/npov-support"), model, { recursive: true });
    writeFileSync(join(model, "card.json"), '{"kept": true}');
    const before = snapshot(model);
    writeFileSync(join(dir, "broken.jsonl"), "{not json\n");
    for (const [dev, code] of [
      [join(dir, "broken.jsonl"), "INVALID_FILE"],
      [join(dir, "missing.jsonl"), "FILE_UNREADABLE"],
    ] as const) {
      const r = await run("train-support", "--out", model, "--kb", "fixtures", "--dev", dev, "--cv-folds", "0");
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`[${code}]`);
      expect(snapshot(model)).toEqual(before);
      expect(readdirSync(dir).sort()).toEqual(["broken.jsonl", "support"]);
    }
    // A --dev file inside the folder the run replaces is refused.
    const inside = datasetFile(model, "dev.jsonl");
    await refused(["train-support", "--out", model, "--kb", "fixtures", "--dev", inside], ["--out", "--dev"], [inside]);
  });

  it("calibrate-guard --out the --data file, and eval --report a link to the --data file", async () => {
    const dir = fresh();
    const data = datasetFile(dir);
    await refused(["calibrate-guard", "--data", data, "--method", "rouge", "--out", data], ["--out", "--data"], [data]);
    symlinkSync(data, join(dir, "report.html"));
    await refused(
      ["eval", "--data", data, "--methods", "rouge", "--report", join(dir, "report.html")],
      ["--report", "--data"],
      [data],
    );
  });

  it("synth --out its --kb, train-stacked --out its --train, salience --html its --input", async () => {
    const dir = fresh();
    const kb = join(dir, "kb.jsonl");
    cpSync(join(REPO, "fixtures/kb/topics.jsonl"), kb);
    await refused(["synth", "--kb", kb, "--split", "test", "--out", kb], ["--out", "--kb"], [kb]);
    const data = datasetFile(dir);
    await refused(["train-stacked", "--train", data, "--out", data], ["--out", "--train"], [data]);
    const example = join(dir, "example.json");
    writeFileSync(example, dataset);
    await refused(["salience", "--input", example, "--html", example], ["--html", "--input"], [example]);
  });

  it("train-classifier --out its --dev, kb import-perspectrum --out a file of its --dir", async () => {
    const dir = fresh();
    const data = datasetFile(dir);
    await refused(
      [
        "train-classifier",
        "--task",
        "coverage",
        "--model",
        join(REPO, "models/npov-cls"),
        "--train",
        data,
        "--dev",
        data,
      ].concat(["--out", data]),
      ["--out", "--train"],
      [data],
    );
    const pdir = join(dir, "perspectrum");
    mkdirSync(pdir);
    const claims = join(pdir, "perspectrum_with_answers_v1.0.json");
    writeFileSync(claims, "[]");
    await refused(["kb", "import-perspectrum", "--dir", pdir, "--out", claims], ["--out", "--dir"], [claims]);
  });

  it("model folders: import-llama2c, train-vectors and train-model --out a folder holding an input", async () => {
    const dir = fresh();
    const bin = join(dir, "model.bin");
    writeFileSync(bin, "weights");
    await refused(["import-llama2c", "--model", bin, "--tokenizer", bin, "--out", dir], ["--out", "--model"], [bin]);
    const kb = join(dir, "kb.jsonl");
    cpSync(join(REPO, "fixtures/kb/topics.jsonl"), kb);
    await refused(["train-vectors", "--kb", kb, "--out", dir], ["--out", "--kb"], [kb]);
    const work = join(dir, "work");
    mkdirSync(work);
    writeFileSync(join(work, "history.jsonl"), "{}\n");
    await refused(
      ["train-model", "--task", "generate", "--work", work, "--out", work, "--kb", "fixtures", "--steps", "1"],
      ["--out", "--work"],
      [join(work, "history.jsonl")],
    );
  });
});

describe("outputs that are not inputs still work", () => {
  it("check-batch writes beside its input, and a train-support run swaps the new model in keeping other files", async () => {
    const dir = fresh();
    const data = datasetFile(dir);
    expect((await run("check-batch", "--data", data, "--out", join(dir, "scores.jsonl"))).code).toBe(0);
    expect(readFileSync(join(dir, "scores.jsonl"), "utf8")).toContain('"scores"');
    const model = join(dir, "support");
    mkdirSync(model);
    writeFileSync(join(model, "card.json"), "card");
    writeFileSync(join(model, "combiner.json"), "old");
    const r = await npov("train-support", "--out", model, "--kb", "fixtures", "--cv-folds", "0");
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(readdirSync(model).sort()).toEqual(["README.md", "card.json", "combiner.json", "specificity.json"]);
    expect(readFileSync(join(model, "card.json"), "utf8")).toBe("card");
    expect(JSON.parse(readFileSync(join(model, "combiner.json"), "utf8")).format).toBe("npov-support-combiner/2");
    expect(readdirSync(dir).sort()).toEqual(["d.jsonl", "scores.jsonl", "support"]);
  });
});
