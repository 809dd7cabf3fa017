/**
 * `npov annotate` end to end: the commands' parsing, printing, exit codes and the server's lifetime run
 * in real processes (six starts, two of them at once). What the CLI does not add -- annotating,
 * refusing bad files, reading the agreement report -- is done through the library here and tested in
 * packages/annotate/test.
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  AnnotationStore,
  emptyAnnotation,
  layoutOf,
  MAX_POINTS,
  readAgreementReport,
  scoreCalibration,
  type WorkItem,
} from "@npov/annotate";
import { type NpovExample, openKnowledgeBase, readExamples, writeExamples } from "@npov/core";
import { formatAgreement, UNDEFINED_ALPHA_NOTE } from "@npov/eval";
import { buildDataset } from "@npov/synth";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO } from "./helpers.js";

const BIN = fileURLToPath(new URL("../dist/bin.js", import.meta.url));

let dir: string;
const at = (name: string) => join(dir, name);

const EXAMPLE = {
  id: "q-1",
  input: {
    topic: "zoos",
    query: "Should zoos be abolished?",
    perspectives: [
      { label: "pro", arguments: [{ text: "Zoos keep animals in small cages." }] },
      { label: "con", arguments: [{ text: "Zoos protect endangered species." }] },
    ],
  },
  response: "Some say zoos keep animals in small cages. Others say zoos protect endangered species.",
};

/** Run the built `npov` binary without blocking, so independent runs can overlap. */
function npov(...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: REPO });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
    });
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout, stderr }));
  });
}

/** A complete answer to `item`: every argument marked uncovered, `spans` hallucinated, every AIS question "yes". */
function answer(item: WorkItem, spans: NpovExample["wordLabels"] = {}) {
  const a = emptyAnnotation();
  item.input.perspectives.forEach((p, pi) => {
    p.arguments.forEach((_, k) => {
      a.uncoveredArguments.push([pi, k]);
    });
  });
  a.hallucinatedSpans = (spans.hallucinatedSpans ?? []).map((s) => ({ start: s.start, end: s.end }));
  if (item.ais) a.ais = item.sentences.map((_, s) => ({ sentence: s, interpretable: true, supported: true }));
  return a;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "npov-cli-annotate-"));
  writeFileSync(at("tasks.jsonl"), `${JSON.stringify(EXAMPLE)}\n${JSON.stringify({ ...EXAMPLE, id: "q-2" })}\n`);
  // What `npov synth --split test --per-topic 1 --slices unparaphrased-synthetic` writes (the library call
  // the command makes, without a process start).
  writeExamples(
    at("cal.jsonl"),
    buildDataset(openKnowledgeBase("fixtures"), {
      split: "test",
      slices: ["unparaphrased-synthetic"],
      seed: 0,
      perTopic: 1,
    }),
  );
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("npov annotate", () => {
  it("imports tasks and npov synth calibration examples, makes tokens, reports progress with points", async () => {
    const calibration = readExamples(at("cal.jsonl"));
    expect(calibration).toHaveLength(10);
    // Synth's known spans fit the RoFT scoring: giving the known answer scores full points, and every
    // synthetic hallucination has a known boundary sentence.
    for (const example of calibration) {
      const { sentences } = layoutOf(example.response);
      const feedback = scoreCalibration(example, sentences, {
        ...emptyAnnotation(),
        hallucinatedSpans: example.wordLabels?.hallucinatedSpans ?? [],
      });
      expect([example.id, feedback.points]).toEqual([example.id, MAX_POINTS]);
      if (example.labels?.hallucination) expect(feedback.trueBoundary).toBeLessThan(sentences.length);
    }

    const db = at("a.sqlite");
    const imported = await npov(
      "annotate",
      "import",
      "--db",
      db,
      "--data",
      at("tasks.jsonl"),
      "--calibration",
      at("cal.jsonl"),
      "--per-example",
      "2",
      "--ais",
    );
    expect(imported.stderr).toBe("");
    expect(imported.stdout).toBe(
      "2 task example(s) added (0 already there); 10 calibration example(s) added (0 already there); 2 task and 10 calibration example(s) in total, 2 annotator(s) per example, AIS questions on\n",
    );

    // Alice (added through the library) does the first calibration example, giving its known answer.
    const store = AnnotationStore.open(db);
    try {
      store.addUser("alice", "annotator");
      const alice = store.users()[0]!;
      const item = store.next(alice)!;
      expect([item.kind, item.calibration, item.ais]).toEqual(["calibration", { index: 1, total: 10 }, true]);
      const known = calibration.find((e) => e.response === item.response)!;
      const result = store.finish(alice, item.exampleId, {
        action: "submit",
        annotation: answer(item, known.wordLabels),
      });
      expect(result.feedback?.points).toBe(5);
    } finally {
      store.close();
    }

    const admin = await npov("annotate", "tokens", "--db", db, "--add", "root", "--role", "admin", "--list");
    expect(admin.stderr).toBe("");
    expect(admin.stdout).toMatch(/^[A-Za-z0-9_-]{32}\nalice\tannotator\nroot\tadmin\n$/);

    const progress = await npov("annotate", "progress", "--db", db);
    expect(progress.stdout).toBe(
      "0/4 labels (2 examples x 2); 0 examples complete; 10 calibration examples\nalice (annotator): 0 submitted, 0 skipped, 0 flagged, 0 open; calibration 1/10, 5 of 5 points\nroot (admin): 0 submitted, 0 skipped, 0 flagged, 0 open\n",
    );
  });

  it("exports what was annotated: majority labels and the agreement report npov eval reads", async () => {
    const db = at("b.sqlite");
    const store = AnnotationStore.open(db);
    try {
      store.configure({ perExample: 2 });
      store.importFile(at("tasks.jsonl"));
      for (const name of ["ann", "ben"]) {
        store.addUser(name, "annotator");
        const user = store.users().find((u) => u.name === name)!;
        for (let item = store.next(user); item !== null; item = store.next(user)) {
          const a = emptyAnnotation();
          const r = item.response;
          const span = (p: string) => ({ start: r.indexOf(p), end: r.indexOf(p) + p.length });
          a.argumentSpans.push({ ...span("zoos keep animals in small cages"), perspective: 0, argument: 0 });
          // ann says the con argument is dropped in q-1; ben covers it everywhere.
          if (name === "ann" && item.exampleId === 1) a.uncoveredArguments.push([1, 0]);
          else a.argumentSpans.push({ ...span("zoos protect endangered species"), perspective: 1, argument: 0 });
          store.finish(user, item.exampleId, { action: "submit", annotation: a });
        }
      }
    } finally {
      store.close();
    }
    const exported = await npov(
      "annotate",
      "export",
      "--db",
      db,
      "--out",
      at("labels.jsonl"),
      "--agreement",
      at("agreement.json"),
    );
    expect(exported.stderr).toBe("");
    // Coverage: units (y,n), (n,n): o_yn = o_ny = 1, o_nn = 2, n_y = 1, n_n = 3, n = 4:
    // alpha = 1 - 3 * 2 / (1 * 3 + 3 * 1) = 0. Hallucination: all "no": alpha is 0/0, undefined (not 1).
    expect(exported.stdout).toBe(
      `2 annotated example(s) written to ${at("labels.jsonl")}; agreement report to ${at("agreement.json")}\nKrippendorff's alpha: hallucination undefined, coverage 0.000\n(${UNDEFINED_ALPHA_NOTE})\n`,
    );
    const report = readAgreementReport(at("agreement.json"));
    expect(report.alpha.find((r) => r.errorType === "hallucination")).toMatchObject({
      alpha: null,
      units: 2,
      ratings: 4,
    });
    expect(formatAgreement(report)).toContain("hallucination (example): alpha undefined (2 units, 4 ratings)");
    expect(formatAgreement(report).split("\n").at(-1)).toBe(`(${UNDEFINED_ALPHA_NOTE})`);
    const examples = readExamples(at("labels.jsonl"));
    expect(examples.map((e) => [e.id, e.labels])).toEqual([
      ["q-1", { hallucination: false, coverage: false, ambiguous: false }],
      ["q-2", { hallucination: false, coverage: false, ambiguous: false }],
    ]);
    // The lines `npov eval --agreement` prints (browser.test.ts runs that command on a real export).
    expect(formatAgreement(readAgreementReport(at("agreement.json")))).toContain(
      "coverage (example): alpha 0.000 (2 units, 4 ratings)",
    );
    expect(readFileSync(at("agreement.json"), "utf8").endsWith("}\n")).toBe(true);
  });

  it("refuses to serve an empty database; serves until Ctrl-C, and the printed address answers with the token", async () => {
    const db = at("d.sqlite");
    const store = AnnotationStore.open(db);
    const token = store.addUser("cleo", "annotator");
    store.close();
    AnnotationStore.open(at("empty.sqlite")).close();
    // Both processes at once: the refusals need no server.
    const empty = npov("annotate", "--db", at("empty.sqlite"), "--port", "0");
    const missing = npov("annotate", "--db", at("typo.sqlite"), "--port", "0");
    const child = spawn(
      process.execPath,
      [BIN, "annotate", "--db", db, "--data", at("tasks.jsonl"), "--per-example", "3", "--port", "0"],
      { cwd: REPO },
    );
    let stdout = "";
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no address in: ${stdout}`)), 30_000);
      child.stdout.on("data", () => {
        const m = /annotation app on (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
        if (m) {
          clearTimeout(timer);
          resolve(m[1] as string);
        }
      });
    });
    expect(stdout).toContain("2 task example(s) added (0 already there)");
    const me = await fetch(`${url}/api/me`, { headers: { authorization: `Bearer ${token}` } });
    expect(await me.json()).toEqual({ name: "cleo", role: "annotator", settings: { perExample: 3, ais: false } });
    const wrong = await fetch(`${url}/api/me`, { headers: { authorization: "Bearer nope" } });
    expect(wrong.status).toBe(401);
    child.kill("SIGINT");
    expect(await exited).toBe(0);
    expect(stdout).toContain("stopped");

    const refused = await empty;
    expect([refused.status, refused.stderr]).toEqual([
      2,
      "npov: The database has no examples to annotate: give --data FILE.jsonl (e.g. from npov synth). [USAGE]\n",
    ]);
    // A mistyped --db is an error, and creates no file.
    const notFound = await missing;
    expect(notFound.status).toBe(2);
    expect(notFound.stderr).toContain("[DATABASE_NOT_FOUND]");
    expect(existsSync(at("typo.sqlite"))).toBe(false);
  });
});

describe("npov annotate on a database it cannot write", () => {
  it("says read-only for a database on a read-only file system (it said 'not an npov annotation database')", () => {
    const folder = at("ro");
    const file = join(folder, "a.sqlite");
    const store = AnnotationStore.open(join(dir, "made-here.sqlite"));
    store.importExamples([EXAMPLE]);
    store.close();
    rmSync(folder, { recursive: true, force: true });
    mkdirSync(folder);
    writeFileSync(file, readFileSync(join(dir, "made-here.sqlite")));
    // A private mount namespace makes the folder a read-only bind mount for the command alone.
    const script = 'mount --bind "$1" "$1" && mount -o remount,ro,bind "$1" && shift && exec "$@"';
    const r = spawnSync(
      "unshare",
      [
        "-rm",
        "sh",
        "-c",
        script,
        "sh",
        folder,
        process.execPath,
        BIN,
        "annotate",
        "import",
        "--db",
        file,
        "--data",
        at("tasks.jsonl"),
      ],
      { encoding: "utf8", cwd: REPO },
    );
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/the database is read-only .*\[DATABASE_READ_ONLY\]\n$/);
    expect(r.stderr).not.toContain("not an npov annotation database");
  });
});
