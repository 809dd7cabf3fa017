/**
 * Category "atomic writes", the data-loss cases: every command that writes, pointed at one of its own
 * inputs -- the same path, a symbolic link to it, a hard link to it, the annotation database, a folder
 * holding an input -- must refuse before any work with OUTPUT_IS_INPUT naming both options, and leave the
 * input byte-identical. A model folder over a trained model with a broken or missing --dev must stay whole.
 */
import { cpSync, linkSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Fixtures } from "./fixtures.js";
import { type Case, judgeError, ROOT, runCli } from "./harness.js";

/** Every file under `dir` with its bytes (relative path -> base64), to compare a folder before and after. */
function snapshot(dir: string): string {
  const files: string[] = [];
  const walk = (rel: string) => {
    for (const e of readdirSync(join(dir, rel), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const path = join(rel, e.name);
      if (e.isDirectory()) walk(path);
      else files.push(`${path}:${readFileSync(join(dir, path)).toString("base64")}`);
    }
  };
  walk("");
  return files.join("\n");
}

const SAME = "exit 2 [OUTPUT_IS_INPUT] naming both options, the input byte-identical";

export function outputOverInputCases(f: Fixtures): Case[] {
  const cases: Case[] = [];
  /**
   * A case: `setup` makes the inputs in a fresh folder and returns the command and the files that must
   * not change; the command must fail with one of `codes` naming `flags`.
   */
  const add = (
    name: string,
    setup: (dir: string) => { args: string[]; keep: string[]; flags: [string, string] },
    codes = ["OUTPUT_IS_INPUT"],
    expected = SAME,
  ) =>
    cases.push({
      category: "atomic writes",
      area: "D",
      name,
      expected,
      run: async () => {
        const dir = f.sub("over-input");
        const { args, keep, flags } = setup(dir);
        const before = keep.map((k) => snapshotOf(k));
        const r = await runCli(args, { timeoutMs: 60_000, cwd: dir });
        const e = judgeError(r, codes);
        if (e !== undefined) return e;
        const line = r.stderr.trim().split("\n").at(-1) ?? "";
        for (const flag of flags) if (!line.includes(flag)) return `the error does not name ${flag}: ${line}`;
        for (const [k, file] of keep.entries()) if (snapshotOf(file) !== before[k]) return `${file} was changed`;
        return undefined;
      },
    });
  const snapshotOf = (path: string) => {
    try {
      return snapshot(path);
    } catch {
      return readFileSync(path).toString("base64");
    }
  };
  const data = (dir: string, name = "d.jsonl") => {
    const file = join(dir, name);
    cpSync(f.testData, file);
    return file;
  };
  const links = [
    ["the --data file itself", (file: string) => file],
    [
      "a symbolic link to the --data file",
      (file: string) => {
        symlinkSync(file, `${file}.link`);
        return `${file}.link`;
      },
    ],
    [
      "a hard link to the --data file",
      (file: string) => {
        linkSync(file, `${file}.hard`);
        return `${file}.hard`;
      },
    ],
  ] as const;

  for (const [how, alias] of links) {
    add(`check-batch --out ${how}`, (dir) => {
      const d = data(dir);
      return { args: ["check-batch", "--data", d, "--out", alias(d)], keep: [d], flags: ["--out", "--data"] };
    });
    add(`calibrate-guard --out ${how}`, (dir) => {
      const d = data(dir);
      return {
        args: ["calibrate-guard", "--data", d, "--method", "rouge", "--out", alias(d)],
        keep: [d],
        flags: ["--out", "--data"],
      };
    });
    add(`eval --report ${how}`, (dir) => {
      const d = data(dir);
      return {
        args: ["eval", "--data", d, "--methods", "rouge", "--report", alias(d)],
        keep: [d],
        flags: ["--report", "--data"],
      };
    });
  }
  add("synth --out its --kb file", (dir) => {
    const kb = join(dir, "kb.jsonl");
    cpSync(join(ROOT, "fixtures/kb/topics.jsonl"), kb);
    return { args: ["synth", "--kb", kb, "--split", "test", "--out", kb], keep: [kb], flags: ["--out", "--kb"] };
  });
  add("train-stacked --out its --train", (dir) => {
    const d = data(dir);
    return { args: ["train-stacked", "--train", d, "--out", d], keep: [d], flags: ["--out", "--train"] };
  });
  add("salience --html its --input", (dir) => {
    const ex = join(dir, "example.json");
    cpSync(f.exampleFile, ex);
    return { args: ["salience", "--input", ex, "--html", ex], keep: [ex], flags: ["--html", "--input"] };
  });
  add("eval --report its --agreement file", (dir) => {
    const agreement = join(dir, "agreement.json");
    writeFileSync(agreement, '{"format": "npov-agreement/1", "alpha": [], "annotators": []}');
    return {
      args: ["eval", "--data", f.testData, "--agreement", agreement, "--report", agreement],
      keep: [agreement],
      flags: ["--report", "--agreement"],
    };
  });
  add("kb import-perspectrum --out a file of its --dir", (dir) => {
    const p = join(dir, "perspectrum");
    mkdirSync(p);
    const claims = join(p, "perspectrum_with_answers_v1.0.json");
    writeFileSync(claims, "[]");
    return {
      args: ["kb", "import-perspectrum", "--dir", p, "--out", claims],
      keep: [claims],
      flags: ["--out", "--dir"],
    };
  });

  // The annotation database: never an export target, never its own import.
  const database = async (dir: string) => {
    const db = join(dir, "a.sqlite");
    const r = await runCli(["annotate", "import", "--db", db, "--data", f.testData], { timeoutMs: 60_000 });
    if (r.code !== 0) throw new Error(`annotate import failed: ${r.stderr}`);
    const t = await runCli(["annotate", "tokens", "--db", db, "--add", "ann"], { timeoutMs: 60_000 });
    if (t.code !== 0) throw new Error(`annotate tokens failed: ${t.stderr}`);
    return db;
  };
  for (const [label, args, flags] of [
    [
      "annotate export --out the database",
      (db: string, dir: string) => ["--out", db, "--agreement", join(dir, "ag.json")],
      ["--out", "--db"],
    ],
    [
      "annotate export --agreement the database",
      (db: string, dir: string) => ["--out", join(dir, "x.jsonl"), "--agreement", db],
      ["--agreement", "--db"],
    ],
    ["annotate export --out the database's write-ahead log", (db: string) => ["--out", `${db}-wal`], ["--out", "--db"]],
    [
      "annotate export --out another SQLite database",
      (db: string, dir: string) => {
        cpSync(db, join(dir, "other.sqlite"));
        return ["--out", join(dir, "other.sqlite")];
      },
      ["--out", "SQLite database"],
    ],
  ] as const)
    cases.push({
      category: "atomic writes",
      area: "D",
      name: label,
      expected: `${SAME} (every user, token and annotation kept)`,
      run: async () => {
        const dir = f.sub("over-db");
        const db = await database(dir);
        const extra = args(db, dir);
        const before = readFileSync(db);
        const other = extra.at(-1)?.endsWith("other.sqlite") ? readFileSync(join(dir, "other.sqlite")) : undefined;
        const r = await runCli(["annotate", "export", "--db", db, ...extra], { timeoutMs: 60_000 });
        const e = judgeError(r, ["OUTPUT_IS_INPUT"]);
        if (e !== undefined) return e;
        const line = r.stderr.trim().split("\n").at(-1) ?? "";
        for (const flag of flags) if (!line.includes(flag)) return `the error does not name ${flag}: ${line}`;
        if (!readFileSync(db).equals(before)) return "the database was changed";
        if (other !== undefined && !readFileSync(join(dir, "other.sqlite")).equals(other))
          return "the other database was changed";
        const progress = await runCli(["annotate", "progress", "--db", db, "--json"], { timeoutMs: 60_000 });
        return progress.code === 0 ? undefined : `the database no longer opens: ${progress.stderr.trim()}`;
      },
    });
  add("annotate import --db its --data file", (dir) => {
    const d = data(dir);
    return { args: ["annotate", "import", "--db", d, "--data", d], keep: [d], flags: ["--db", "--data"] };
  });
  add(
    "annotate export --out and --agreement the same new file",
    (dir) => {
      const db = join(dir, "none.sqlite");
      writeFileSync(db, "");
      return {
        args: ["annotate", "export", "--db", db, "--out", join(dir, "x.jsonl"), "--agreement", join(dir, "x.jsonl")],
        keep: [db],
        flags: ["--agreement", "--out"],
      };
    },
    ["OUTPUT_CONFLICT"],
    "exit 2 [OUTPUT_CONFLICT] naming both options",
  );

  // Model folders: an input inside the folder a run replaces, and a failed run over a trained model.
  add("train-support --out the folder holding its --dev", (dir) => {
    const model = join(dir, "support");
    cpSync(join(ROOT, "models/npov-support"), model, { recursive: true });
    const dev = data(model, "dev.jsonl");
    return {
      args: ["train-support", "--out", model, "--kb", "fixtures", "--dev", dev],
      keep: [model],
      flags: ["--out", "--dev"],
    };
  });
  add("import-llama2c --out the folder holding its --model", (dir) => {
    const bin = join(dir, "model.bin");
    writeFileSync(bin, "weights");
    return {
      args: ["import-llama2c", "--model", bin, "--tokenizer", bin, "--out", dir],
      keep: [bin],
      flags: ["--out", "--model"],
    };
  });
  add("train-vectors --out the folder holding its --kb", (dir) => {
    const kb = join(dir, "kb.jsonl");
    cpSync(join(ROOT, "fixtures/kb/topics.jsonl"), kb);
    return { args: ["train-vectors", "--kb", kb, "--out", dir], keep: [kb], flags: ["--out", "--kb"] };
  });
  add("train-model --out its --work folder", (dir) => {
    const work = join(dir, "work");
    mkdirSync(work);
    writeFileSync(join(work, "history.jsonl"), "{}\n");
    return {
      args: ["train-model", "--task", "generate", "--work", work, "--out", work, "--kb", "fixtures", "--steps", "1"],
      keep: [work],
      flags: ["--out", "--work"],
    };
  });
  add("train-classifier --out its --train", (dir) => {
    const d = data(dir);
    return {
      args: ["train-classifier", "--task", "coverage", "--model", join(ROOT, "models/npov-cls"), "--train", d].concat([
        "--dev",
        f.devData,
        "--out",
        d,
      ]),
      keep: [d],
      flags: ["--out", "--train"],
    };
  });
  for (const [label, dev, code] of [
    ["a --dev that is broken JSON", "broken", "INVALID_FILE"],
    ["a --dev that does not exist", "missing", "FILE_UNREADABLE"],
  ] as const)
    add(
      `train-support --out over a trained model with ${label}`,
      (dir) => {
        const model = join(dir, "support");
        cpSync(join(ROOT, "models/npov-support"), model, { recursive: true });
        const file = join(dir, "dev.jsonl");
        if (dev === "broken") writeFileSync(file, "{not json\n");
        return {
          args: ["train-support", "--out", model, "--kb", "fixtures", "--dev", file],
          keep: [model, dir],
          flags: ["", ""],
        };
      },
      [code],
      `exit 2 [${code}], the old model folder byte-identical (it mixed two trainings), nothing beside it`,
    );
  return cases;
}
