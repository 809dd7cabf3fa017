import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type Annotation,
  AnnotationStore,
  boundaryPoints,
  checkSqliteDriver,
  type ExampleAnnotationMeta,
  emptyAnnotation,
  exportAnnotations,
  layoutOf,
  MAX_POINTS,
  majorityWordSpans,
  nodeRangeAdmits,
  type Role,
  readAgreementReport,
  scoreCalibration,
  sqliteError,
} from "@npov/annotate";
import { NpovError, type NpovExample } from "@npov/core";
import fc from "fast-check";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CALIBRATION_HALLUCINATION, spanOf, UNIFORMS, VEGETARIAN, ZOOS } from "./fixtures.js";

const code = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    if (e instanceof NpovError) return e.code;
    throw e;
  }
  return "no error";
};

let store: AnnotationStore;
afterEach(() => store?.close());

/** A complete annotation: every argument covered by `spans`, or uncovered. */
function annotation(partial: Partial<Annotation>): Annotation {
  return { ...emptyAnnotation(), ...partial };
}

describe("RoFT points (SPEC section 5)", () => {
  it("gives 5 for the exact boundary, one fewer per sentence late, none early", () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((g) => boundaryPoints(g, 1))).toEqual([5, 4, 3, 2, 1, 0, 0]);
    expect(boundaryPoints(0, 1)).toBe(0);
    expect(boundaryPoints(3, 3)).toBe(5);
  });

  it("is 5 only at the boundary, 0 before it, and never grows with lateness (property)", () => {
    fc.assert(
      fc.property(fc.nat(20), fc.nat(20), (guess, truth) => {
        const p = boundaryPoints(guess, truth);
        expect(p >= 0 && p <= MAX_POINTS && Number.isInteger(p)).toBe(true);
        expect(p === MAX_POINTS).toBe(guess === truth);
        if (guess < truth) expect(p).toBe(0);
        else expect(boundaryPoints(guess + 1, truth)).toBeLessThanOrEqual(p);
      }),
    );
  });

  it("scores a calibration example by its first hallucinated sentence", () => {
    const example = CALIBRATION_HALLUCINATION;
    const { sentences } = layoutOf(example.response);
    expect(sentences).toHaveLength(3); // the known hallucination is in sentence index 1
    const r = example.response;
    const score = (spans: Array<{ start: number; end: number }>) =>
      scoreCalibration(example, sentences, annotation({ hallucinatedSpans: spans }));
    expect(score([spanOf(r, "zoo keepers")]).points).toBe(5);
    expect(score([spanOf(r, "endangered species")]).points).toBe(4); // one sentence late
    expect(score([spanOf(r, "contested topic")]).points).toBe(0); // before the boundary
    // Marking nothing guesses "after the last sentence" (index 3): two sentences late, 5 - 2 points, as
    // RoFT scores a reader who calls every sentence human.
    const missed = score([]);
    expect([missed.points, missed.guessedBoundary, missed.trueBoundary]).toEqual([3, 3, 1]);
    expect(missed.message).toBe("Missed: the first unsupported sentence is sentence 2. 3 points.");
    expect(missed.hallucination).toEqual({ truth: true, answer: false, correct: false });
    // A clean response: marking nothing is exact, marking anything is early.
    const clean = { ...example, labels: { hallucination: false, coverage: false }, wordLabels: {} };
    expect(scoreCalibration(clean, sentences, annotation({})).points).toBe(5);
    expect(scoreCalibration(clean, sentences, annotation({ hallucinatedSpans: [spanOf(r, "underpaid")] })).points).toBe(
      0,
    );
  });
});

describe("assignment", () => {
  it("gives each example to k annotators, resumes open work, never shows another's draft, and lets a skip free a place", () => {
    store = AnnotationStore.open(":memory:");
    store.configure({ perExample: 2 });
    store.importExamples([ZOOS, UNIFORMS, VEGETARIAN]);
    expect(store.importExamples([ZOOS, UNIFORMS, VEGETARIAN])).toEqual({ added: 0, existing: 3 });
    // The same id with another response is refused, not silently skipped; nothing of the call is added.
    const edited = { ...ZOOS, response: `${ZOOS.response} Edited.` };
    expect(code(() => store.importExamples([{ ...UNIFORMS, id: "new-1" }, edited]))).toBe("INVALID_VALUE");
    expect(store.counts().examples).toBe(3);
    const [alice, bob, carol] = ["alice", "bob", "carol"].map((n) => {
      store.addUser(n, "annotator");
      return store.users().find((u) => u.name === n)!;
    }) as [
      ReturnType<AnnotationStore["users"]>[number],
      ReturnType<AnnotationStore["users"]>[number],
      ReturnType<AnnotationStore["users"]>[number],
    ];

    const a1 = store.next(alice)!;
    expect(a1.input.topic).toBe("zoos");
    const zoos = a1.exampleId;
    store.saveDraft(alice, zoos, annotation({ hallucinatedSpans: [spanOf(ZOOS.response, "contested")] }));
    expect(store.next(alice)?.exampleId).toBe(zoos); // resume: the open example, with the draft
    expect(store.next(alice)?.draft?.hallucinatedSpans).toEqual([spanOf(ZOOS.response, "contested")]);
    const b1 = store.next(bob)!;
    expect([b1.exampleId, b1.draft]).toEqual([zoos, null]); // same example, not alice's draft
    const c1 = store.next(carol)!;
    expect(c1.input.topic).toBe("school uniforms"); // zoos has k = 2 holders already

    store.finish(carol, c1.exampleId, { action: "skip" });
    const full = annotation({
      argumentSpans: [
        { ...spanOf(ZOOS.response, "zoos keep animals in small cages"), perspective: 0, argument: 0 },
        { ...spanOf(ZOOS.response, "zoos protect endangered species"), perspective: 1, argument: 0 },
      ],
    });
    expect(store.finish(alice, zoos, { action: "submit", annotation: full })).toEqual({
      status: "submitted",
      feedback: null,
    });
    // Carol's skip freed uniforms; alice takes it, then bob after his zoos example.
    expect(store.next(alice)?.input.topic).toBe("school uniforms");
    store.finish(bob, zoos, { action: "flag", reason: "the question is odd" });
    expect(store.next(bob)?.input.topic).toBe("school uniforms");
    // Carol skipped uniforms, zoos is full: she gets the vegetarian example; after it nothing is left.
    const c2 = store.next(carol)!;
    expect(c2.input.topic).toBe("vegetarianism");
    store.finish(carol, c2.exampleId, { action: "skip" });
    expect(store.next(carol)).toBeNull(); // an example skipped once is not offered to the same annotator again
    const p = store.progress();
    expect(p.overall).toMatchObject({ examples: 3, perExample: 2, target: 6, answered: 2, complete: 1 });
    expect(p.annotators.map((a) => [a.name, a.submitted, a.skipped, a.flagged, a.open])).toEqual([
      ["alice", 1, 0, 0, 1],
      ["bob", 0, 0, 1, 1],
      ["carol", 0, 2, 0, 0],
    ]);
  });

  it("puts every calibration example first, and scores it when submitted", () => {
    store = AnnotationStore.open(":memory:");
    store.importExamples([ZOOS]);
    store.importExamples([CALIBRATION_HALLUCINATION], "calibration");
    store.addUser("dana", "annotator");
    const dana = store.users()[0]!;
    const item = store.next(dana)!;
    expect([item.kind, item.calibration]).toEqual(["calibration", { index: 1, total: 1 }]);
    const r = item.response;
    const result = store.finish(dana, item.exampleId, {
      action: "submit",
      annotation: annotation({
        argumentSpans: [
          { ...spanOf(r, "zoos keep animals in small cages"), perspective: 0, argument: 0 },
          { ...spanOf(r, "zoos protect endangered species"), perspective: 1, argument: 0 },
        ],
        hallucinatedSpans: [spanOf(r, "endangered species")],
      }),
    });
    expect(result.feedback?.points).toBe(4);
    expect(result.feedback?.message).toBe(
      "Late: you marked sentence 3; the first unsupported sentence is sentence 2. 4 points.",
    );
    expect(store.next(dana)?.kind).toBe("task");
    expect(store.progress().annotators[0]?.calibration).toEqual({ done: 1, total: 1, points: 4, maxPoints: 5 });
    expect(code(() => store.importExamples([ZOOS], "calibration"))).toBe("INVALID_VALUE"); // no known labels
  });
});

describe("refused answers write nothing", () => {
  it("refuses spans outside the response, unknown arguments, contradictions, gaps, other people's examples", () => {
    store = AnnotationStore.open(":memory:");
    store.configure({ ais: true });
    store.importExamples([ZOOS, UNIFORMS]);
    store.addUser("alice", "annotator");
    store.addUser("bob", "annotator");
    store.addUser("root", "admin");
    const [alice, bob, root] = store.users() as [
      ReturnType<AnnotationStore["users"]>[number],
      ReturnType<AnnotationStore["users"]>[number],
      ReturnType<AnnotationStore["users"]>[number],
    ];
    const item = store.next(alice)!;
    const id = item.exampleId;
    const length = ZOOS.response.length;
    const before = store.counts();
    const submit = (a: Partial<Annotation>) => () =>
      store.finish(alice, id, { action: "submit", annotation: annotation(a) });
    expect(code(submit({ hallucinatedSpans: [{ start: length - 2, end: length + 5 }] }))).toBe("SPAN_OUT_OF_RANGE");
    expect(code(submit({ hallucinatedSpans: [{ start: 5, end: 5 }] }))).toBe("SPAN_OUT_OF_RANGE");
    expect(code(submit({ argumentSpans: [{ start: 0, end: 4, perspective: 0, argument: 3 }] }))).toBe(
      "INVALID_ANNOTATION",
    );
    expect(
      code(
        submit({
          argumentSpans: [{ start: 0, end: 4, perspective: 0, argument: 0 }],
          uncoveredArguments: [[0, 0]],
        }),
      ),
    ).toBe("INVALID_ANNOTATION");
    expect(code(submit({ argumentSpans: [{ start: 0, end: 4, perspective: 0, argument: 0 }] }))).toBe(
      "INCOMPLETE_ANNOTATION",
    );
    // Every argument decided, but the AIS questions are unanswered.
    const decided = {
      argumentSpans: [{ start: 0, end: 4, perspective: 0, argument: 0 }],
      uncoveredArguments: [[1, 0]] as Array<[number, number]>,
    };
    expect(code(submit(decided))).toBe("INCOMPLETE_ANNOTATION");
    expect(code(submit({ ...decided, ais: [{ sentence: 0, interpretable: false, supported: true }] }))).toBe(
      "INVALID_ANNOTATION",
    );
    expect(
      code(() =>
        store.saveDraft(alice, id, annotation({ ais: [{ sentence: 9, interpretable: true, supported: null }] })),
      ),
    ).toBe("INVALID_ANNOTATION");
    expect(code(() => store.saveDraft(bob, id, annotation({})))).toBe("NOT_ASSIGNED");
    expect(code(() => store.finish(bob, 999, { action: "skip" }))).toBe("NOT_ASSIGNED");
    expect(code(() => store.next(root))).toBe("FORBIDDEN");
    expect(store.counts()).toEqual(before);
    expect(store.next(alice)?.draft).toBeNull();

    const ais = item.sentences.map((_, s) => ({ sentence: s, interpretable: true, supported: s !== 1 }));
    expect(store.finish(alice, id, { action: "submit", annotation: annotation({ ...decided, ais }) }).status).toBe(
      "submitted",
    );
    expect(code(() => store.finish(alice, id, { action: "skip" }))).toBe("ALREADY_FINISHED");
    expect(code(() => store.addUser("alice", "annotator"))).toBe("INVALID_USER");
    expect(code(() => store.addUser("two words", "annotator"))).toBe("INVALID_USER");
    expect(code(() => store.addUser("eve", "boss" as Role))).toBe("INVALID_USER");
    expect(code(() => store.authenticate("not-a-token"))).toBe("UNAUTHORIZED");
  });
});

describe("export: majority labels, word labels from spans, agreement", () => {
  it("matches hand-worked majorities and Krippendorff's alpha", () => {
    store = AnnotationStore.open(":memory:");
    store.configure({ perExample: 3 });
    store.importExamples([UNIFORMS, ZOOS]);
    const users = ["alice", "bob", "carol"].map((n) => {
      store.addUser(n, "annotator");
      return store.users().find((u) => u.name === n)!;
    });
    const u = UNIFORMS.response;
    const z = ZOOS.response;
    const uniformsSpans = (extra: Partial<Annotation>, reduceSpan = "uniforms reduce bullying") =>
      annotation({
        argumentSpans: [
          { ...spanOf(u, reduceSpan), perspective: 0, argument: 0 },
          { ...spanOf(u, "uniforms limit self-expression"), perspective: 1, argument: 0 },
        ],
        ...extra,
      });
    const zoosSpans = (extra: Partial<Annotation>) =>
      annotation({
        argumentSpans: [
          { ...spanOf(z, "zoos keep animals in small cages"), perspective: 0, argument: 0 },
          { ...spanOf(z, "zoos protect endangered species"), perspective: 1, argument: 0 },
        ],
        ...extra,
      });
    const answers: Record<string, [Annotation, Annotation]> = {
      alice: [
        uniformsSpans({ hallucinatedSpans: [spanOf(u, "cost teachers their jobs")], uncoveredArguments: [[0, 1]] }),
        zoosSpans({}),
      ],
      bob: [
        uniformsSpans({ hallucinatedSpans: [spanOf(u, "and cost teachers their jobs")], uncoveredArguments: [[0, 1]] }),
        zoosSpans({ ambiguous: [{ ...spanOf(z, "contested topic"), kind: "repetition" }] }),
      ],
      carol: [
        (() => {
          const a = uniformsSpans({}, "Some argue uniforms reduce bullying");
          a.argumentSpans.push({ ...spanOf(u, "cost teachers their jobs"), perspective: 0, argument: 1 });
          return a;
        })(),
        zoosSpans({ hallucinatedSpans: [spanOf(z, "Zoos are a contested topic")] }),
      ],
    };
    for (const user of users)
      for (const answer of answers[user.name] as [Annotation, Annotation]) {
        const item = store.next(user)!;
        const which = item.input.topic === "zoos" ? 1 : 0;
        store.finish(user, item.exampleId, {
          action: "submit",
          annotation: (answers[user.name] as Annotation[])[which]!,
        });
        void answer;
      }

    const { examples, agreement } = exportAnnotations(store);
    expect(examples.map((e) => e.id)).toEqual(["uniforms-1", "zoos-1"]);
    const [uniforms, zoos] = examples as [(typeof examples)[number], (typeof examples)[number]];
    // 2 of 3 marked a hallucination and the uncovered money argument; "and" was marked by bob alone.
    expect(uniforms.labels).toEqual({ hallucination: true, coverage: true, ambiguous: false });
    expect(uniforms.wordLabels).toEqual({
      hallucinatedSpans: [spanOf(u, "cost teachers their jobs")],
      uncoveredArguments: [[0, 1]],
    });
    expect(uniforms.argumentSpans?.map((s) => [u.slice(s.start, s.end), s.perspective, s.argumentText])).toEqual([
      ["uniforms reduce bullying", "pro", "Uniforms reduce bullying."],
      ["uniforms limit self-expression", "con", "Uniforms limit self-expression."],
    ]);
    expect(uniforms.slice).toBe("organic");
    const meta = uniforms.meta?.annotation as ExampleAnnotationMeta;
    expect(meta.annotators.map((a) => [a.annotator, a.labels.hallucination, a.labels.coverage])).toEqual([
      ["alice", true, true],
      ["bob", true, true],
      ["carol", false, false],
    ]);
    expect(meta.votes.hallucination).toEqual({ yes: 2, voters: 3 });
    expect(zoos.labels).toEqual({ hallucination: false, coverage: false, ambiguous: false });
    expect(zoos.wordLabels).toEqual({ hallucinatedSpans: [], uncoveredArguments: [] });

    // Hallucination: units (y,y,n), (n,n,y): o_yy = 1, o_nn = 1, o_yn = o_ny = 2, n_y = n_n = 3, n = 6:
    // alpha = 1 - (n - 1) * 4 / (2 * 3 * 3) = 1 - 20/18 = -1/9.
    // Coverage: (y,y,n), (n,n,n): o_yy = 1, o_yn = o_ny = 1, o_nn = 3, n_y = 2, n_n = 4: 1 - 5 * 2 / 16 = 3/8.
    const alpha = Object.fromEntries(agreement.alpha.map((r) => [r.errorType, r]));
    expect(alpha.hallucination?.alpha).toBeCloseTo(-1 / 9, 12);
    expect(alpha.coverage?.alpha).toBeCloseTo(3 / 8, 12);
    expect([alpha.hallucination?.units, alpha.hallucination?.ratings]).toEqual([2, 6]);
    // Leave-one-out majorities: alice is compared only where bob and carol agree (zoos coverage: agrees);
    // carol is compared on 4 labels and agrees on 1 (zoos coverage).
    const people = Object.fromEntries(agreement.annotators.map((a) => [a.annotator, a]));
    expect([people.alice?.agreement, people.alice?.units]).toEqual([1, 1]);
    expect([people.carol?.agreement, people.carol?.units]).toEqual([0.25, 4]);
    expect(agreement.format).toBe("npov-agreement/1");
  });

  it("builds word spans from strict majorities, merging neighbouring words", () => {
    const words = [
      { start: 0, end: 3 },
      { start: 4, end: 7 },
      { start: 8, end: 11 },
      { start: 12, end: 15 },
    ];
    const voters = [[{ start: 0, end: 7 }], [{ start: 4, end: 11 }], [{ start: 5, end: 6 }], []];
    // word 1 is marked by 3 of 4 voters, words 0 and 2 by 1: only word 1 has a strict majority.
    expect(majorityWordSpans(words, voters)).toEqual([{ start: 4, end: 7 }]);
    expect(majorityWordSpans(words, [[{ start: 0, end: 11 }], [{ start: 2, end: 10 }]])).toEqual([
      { start: 0, end: 11 },
    ]);
  });
});

describe("bad files and bad examples", () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "npov-annotate-files-"));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("refuses calibration examples without usable known answers, and invalid examples, adding nothing", () => {
    store = AnnotationStore.open(":memory:");
    const tasks = join(dir, "tasks.jsonl");
    writeFileSync(tasks, `${JSON.stringify(ZOOS)}\n${JSON.stringify(UNIFORMS)}\n`);
    const error = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return e as NpovError;
      }
      throw new Error("no error");
    };
    const noLabels = error(() => store.importFile(tasks, "calibration"));
    expect(noLabels.code).toBe("INVALID_FILE");
    expect(noLabels.message).toContain("example 1 (zoos-1) labels: a calibration example needs known labels");
    expect(noLabels.message).toContain("example 2 (uniforms-1) labels");

    const cal = CALIBRATION_HALLUCINATION;
    const length = cal.response.length;
    const outside = { ...cal, wordLabels: { hallucinatedSpans: [{ start: length - 3, end: length + 1 }] } };
    const wrongArgument = { ...cal, wordLabels: { uncoveredArguments: [[0, 7]] as Array<[number, number]> } };
    const notSpans = { ...cal, wordLabels: { hallucinatedSpans: "sentence 2" } } as unknown as NpovExample;
    expect(error(() => store.importExamples([{ ...cal, id: "cal-0" }, outside], "calibration")).message).toBe(
      `examples[1].wordLabels.hallucinatedSpans[0]: must be {start, end} with 0 <= start < end <= ${length} (the response's length).`,
    );
    expect(error(() => store.importExamples([wrongArgument], "calibration")).message).toContain(
      "examples[0].wordLabels.uncoveredArguments[0]: must be a [perspective, argument] pair",
    );
    expect(code(() => store.importExamples([notSpans], "calibration"))).toBe("INVALID_VALUE");
    const noResponse = { ...ZOOS, response: undefined } as unknown as NpovExample;
    expect(code(() => store.importExamples([UNIFORMS, noResponse]))).toBe("NOT_TEXT");
    expect(store.counts().examples).toBe(0);
    expect(store.importExamples([cal], "calibration")).toEqual({ added: 1, existing: 0 });
  });

  it("refuses a file that is not an annotation database", () => {
    const text = join(dir, "text.sqlite");
    writeFileSync(text, "this is not a database, just text that is long enough to look like a header.");
    expect(code(() => AnnotationStore.open(text))).toBe("INVALID_DATABASE");
  });

  it("leaves another application's SQLite database untouched, and creates nothing where it may not", () => {
    const other = join(dir, "other-app.sqlite");
    const Driver = checkSqliteDriver();
    const foreign = new Driver(other);
    foreign.exec(
      "CREATE TABLE users (id INTEGER PRIMARY KEY, email TEXT); INSERT INTO users (email) VALUES ('a@b.c');",
    );
    foreign.close();
    const before = readFileSync(other);
    expect(() => AnnotationStore.open(other)).toThrow(
      expect.objectContaining({
        code: "INVALID_DATABASE",
        message: expect.stringContaining("not an npov annotation database (it holds the tables users)"),
      }),
    );
    // Not a byte changed: no npov tables, no switch to WAL.
    expect(readFileSync(other).equals(before)).toBe(true);
    expect(existsSync(`${other}-wal`)).toBe(false);
    const missing = join(dir, "typo.sqlite");
    expect(code(() => AnnotationStore.open(missing, { create: false }))).toBe("DATABASE_NOT_FOUND");
    expect(existsSync(missing)).toBe(false);
    // npov's own database opens either way, and an empty file is made into one.
    const own = join(dir, "own.sqlite");
    AnnotationStore.open(own).close();
    AnnotationStore.open(own, { create: false }).close();
    const empty = join(dir, "empty.sqlite");
    writeFileSync(empty, "");
    AnnotationStore.open(empty).close();
    AnnotationStore.open(empty, { create: false }).close();
  });

  it("waits a bounded time for another process's lock, then DATABASE_BUSY with nothing changed", () => {
    const file = join(dir, "busy.sqlite");
    const first = AnnotationStore.open(file);
    first.importExamples([UNIFORMS]);
    first.close();
    // Another connection (as another process would) holds the write lock.
    const holder = new (checkSqliteDriver())(file);
    holder.exec("BEGIN IMMEDIATE");
    try {
      const started = Date.now();
      const waiting = AnnotationStore.open(file, { busyTimeoutMs: 200 });
      try {
        expect(() => waiting.importExamples([ZOOS])).toThrow(
          expect.objectContaining({ code: "DATABASE_BUSY", status: 503, message: expect.stringContaining("200 ms") }),
        );
        expect(() => waiting.addUser("late", "annotator")).toThrow(expect.objectContaining({ code: "DATABASE_BUSY" }));
        expect(Date.now() - started).toBeGreaterThanOrEqual(200);
        expect(Date.now() - started).toBeLessThan(3000);
      } finally {
        waiting.close();
      }
    } finally {
      holder.exec("ROLLBACK");
      holder.close();
    }
    const after = AnnotationStore.open(file, { create: false });
    expect(after.progress().overall.examples).toBe(1);
    expect(after.users()).toEqual([]);
    after.close();
    expect(code(() => AnnotationStore.open(file, { busyTimeoutMs: -1 }))).toBe("INVALID_DATABASE");
  });

  it("names SQLite's lock and read-only failures, and leaves its other errors alone", () => {
    const sqlite = (c: string) => Object.assign(new Error(c), { code: c });
    expect(sqliteError("a.sqlite", sqlite("SQLITE_BUSY"))).toMatchObject({ code: "DATABASE_BUSY" });
    expect(sqliteError("a.sqlite", sqlite("SQLITE_LOCKED_SHAREDCACHE"))).toMatchObject({ code: "DATABASE_BUSY" });
    expect(sqliteError("a.sqlite", sqlite("SQLITE_READONLY_DBMOVED"))).toMatchObject({
      code: "DATABASE_READ_ONLY",
      message: expect.stringContaining("read-only"),
    });
    const other = sqlite("SQLITE_CORRUPT");
    expect(sqliteError("a.sqlite", other)).toBe(other);
    expect(sqliteError("a.sqlite", "text")).toBe("text");
  });

  it("reads an agreement report, and refuses one npov eval could not show", () => {
    store = AnnotationStore.open(":memory:");
    const file = join(dir, "agreement.json");
    writeFileSync(file, JSON.stringify(exportAnnotations(store).agreement));
    expect(readAgreementReport(file).format).toBe("npov-agreement/1");
    const bad = (value: unknown) => {
      writeFileSync(file, JSON.stringify(value));
      try {
        readAgreementReport(file);
      } catch (e) {
        return [(e as NpovError).code, (e as NpovError).message.split(": ")[1]];
      }
      return "read";
    };
    const row = { errorType: "hallucination", level: "example", alpha: 0.6, units: 10, ratings: 50 };
    const person = { annotator: "alice", agreement: 0.9, units: 20 };
    expect(bad({ format: "npov-agreement/1", alpha: [row], annotators: [person] })).toBe("read");
    expect(bad({ format: "something-else" })).toEqual([
      "INVALID_AGREEMENT",
      'format is "something-else", not "npov-agreement/1". Give the agreement.json that `npov annotate export --agreement` wrote.',
    ]);
    expect(bad({ format: "npov-agreement/1", alpha: [{ ...row, units: undefined }], annotators: [] })?.[1]).toMatch(
      /^alpha\[0\] needs errorType/,
    );
    expect(
      bad({ format: "npov-agreement/1", alpha: [row], annotators: [{ ...person, agreement: "high" }] })?.[1],
    ).toMatch(/^annotators\[0\] needs annotator/);
    expect(bad([1, 2])).toEqual([
      "INVALID_AGREEMENT",
      "not a JSON object. Give the agreement.json that `npov annotate export --agreement` wrote.",
    ]);
  });
});

describe("SQLite driver check", () => {
  it("reads engines ranges", () => {
    expect(nodeRangeAdmits(">=22", 20)).toBe(false);
    expect(nodeRangeAdmits(">=22", 22)).toBe(true);
    expect(nodeRangeAdmits("20.x || 22.x || 23.x", 20)).toBe(true);
    expect(nodeRangeAdmits("20.x || 22.x", 21)).toBe(false);
    expect(nodeRangeAdmits("*", 18)).toBe(true);
  });
});
