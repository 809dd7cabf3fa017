/**
 * The annotation store: examples, users (token hashes only), assignments, drafts and answers in one
 * SQLite file. Every write runs in an IMMEDIATE transaction that validates before it writes, so a refused
 * request writes nothing and two annotators answering at once both keep their answers.
 *
 * Assignment is lazy: when an annotator asks for work they first get their open example (resume), then
 * every calibration example in order, then the first task example they have not seen that fewer than k
 * annotators hold (open, submitted or flagged; a skip frees the place for someone else). An annotator
 * only ever reads their own draft and answers.
 */
import { createHash, randomBytes } from "node:crypto";
import {
  FileFormatError,
  type FileIssue,
  InvalidValueError,
  type NpovExample,
  type NpovInput,
  readExamples,
  requireNpovExamples,
  type Span,
  validateExample,
} from "@npov/core";
import { type Annotation, checkAnnotation, layoutOf, type ResponseLayout } from "./annotation.js";
import { type CalibrationFeedback, MAX_POINTS, scoreCalibration } from "./calibration.js";
import {
  AlreadyFinishedError,
  ForbiddenError,
  InvalidUserError,
  NotAssignedError,
  UnauthorizedError,
} from "./errors.js";
import {
  DEFAULT_BUSY_TIMEOUT_MS,
  type OpenDatabaseOptions,
  openDatabase,
  type SqliteDatabase,
  sqliteError,
} from "./sqlite.js";

/** Who may do what: annotators annotate, admins watch progress and export. */
export type Role = "annotator" | "admin";

/** A signed-in user. */
export interface User {
  id: number;
  name: string;
  role: Role;
}

/** Project settings kept in the database. */
export interface StoreSettings {
  /** Annotators per task example (k; the paper used 5). */
  perExample: number;
  /** Whether annotators answer the two AIS questions per response sentence. */
  ais: boolean;
}

/** Task examples are the real work; calibration examples have known answers and give points. */
export type ExampleKind = "task" | "calibration";

/** The example an annotator works on now, with everything the app shows. */
export interface WorkItem {
  exampleId: number;
  kind: ExampleKind;
  input: NpovInput;
  response: string;
  /** Word offsets (selections snap to them) and sentence offsets (AIS questions, calibration points). */
  words: Span[];
  sentences: Span[];
  ais: boolean;
  /** The annotator's own saved draft, if any (never anyone else's). */
  draft: Annotation | null;
  /** Position among the calibration examples (1-based), for calibration examples. */
  calibration: { index: number; total: number } | null;
}

/** One annotator's progress. */
export interface AnnotatorProgress {
  name: string;
  role: Role;
  calibration: { done: number; total: number; points: number; maxPoints: number };
  submitted: number;
  skipped: number;
  flagged: number;
  /** Examples assigned and not yet answered (0 or 1). */
  open: number;
}

/** Progress of the whole project. */
export interface ProjectProgress {
  annotators: AnnotatorProgress[];
  overall: {
    examples: number;
    calibrationExamples: number;
    perExample: number;
    /** examples x k answers wanted. */
    target: number;
    /** Answers given (submitted or flagged) to task examples, at most k per example counted. */
    answered: number;
    /** Task examples with k answers. */
    complete: number;
  };
}

/** How an annotator finishes an example. */
export type Outcome =
  | { action: "submit"; annotation: Annotation }
  | { action: "skip" }
  | { action: "flag"; reason: string };

/** The answer to finishing an example; calibration examples come with feedback. */
export interface FinishResult {
  status: "submitted" | "skipped" | "flagged";
  feedback: CalibrationFeedback | null;
}

/** One stored answer, for export and agreement. */
export interface StoredAnswer {
  exampleId: number;
  kind: ExampleKind;
  annotator: string;
  status: "submitted" | "skipped" | "flagged";
  annotation: Annotation | null;
  flagReason: string | null;
  points: number | null;
}

/** An example as stored, with its database id. */
export interface StoredExample {
  id: number;
  kind: ExampleKind;
  example: NpovExample;
}

const USER_NAME = /^[\p{L}\p{N}_.@-]{1,64}$/u;

const hashToken = (token: string) => createHash("sha256").update(token, "utf8").digest("hex");
const now = () => new Date().toISOString();

/**
 * What makes `example` unusable as a calibration example, or null. Core passes `wordLabels` through
 * unchecked, and scoring reads them, so a wrong span here would otherwise fail only when an annotator
 * submits.
 */
function calibrationProblem(example: NpovExample): { field: string; message: string } | null {
  if (typeof example.labels?.hallucination !== "boolean" || typeof example.labels?.coverage !== "boolean")
    return {
      field: "labels",
      message:
        "a calibration example needs known labels.hallucination and labels.coverage (true/false), e.g. from npov synth",
    };
  const wordLabels = example.wordLabels as unknown;
  if (wordLabels === undefined) return null;
  if (wordLabels === null || typeof wordLabels !== "object" || Array.isArray(wordLabels))
    return { field: "wordLabels", message: "must be an object {hallucinatedSpans, uncoveredArguments}" };
  const { hallucinatedSpans: spans, uncoveredArguments: uncovered } = wordLabels as Record<string, unknown>;
  const length = example.response.length;
  const isIndex = (x: unknown): x is number => typeof x === "number" && Number.isInteger(x) && x >= 0;
  if (spans !== undefined) {
    if (!Array.isArray(spans)) return { field: "wordLabels.hallucinatedSpans", message: "must be a list of spans" };
    for (const [k, span] of spans.entries()) {
      const { start, end } = (span ?? {}) as { start?: unknown; end?: unknown };
      if (!isIndex(start) || !isIndex(end) || start >= end || end > length)
        return {
          field: `wordLabels.hallucinatedSpans[${k}]`,
          message: `must be {start, end} with 0 <= start < end <= ${length} (the response's length)`,
        };
    }
  }
  if (uncovered !== undefined) {
    if (!Array.isArray(uncovered))
      return { field: "wordLabels.uncoveredArguments", message: "must be a list of [perspective, argument] pairs" };
    for (const [k, pair] of uncovered.entries()) {
      const [p, a] = Array.isArray(pair) && pair.length === 2 ? pair : [undefined, undefined];
      if (!isIndex(p) || !isIndex(a) || a >= (example.input.perspectives[p]?.arguments.length ?? 0))
        return {
          field: `wordLabels.uncoveredArguments[${k}]`,
          message: "must be a [perspective, argument] pair of indices of a given argument",
        };
    }
  }
  return null;
}

/** The content key of an example: its id, or a hash of input and response. */
function exampleKey(example: NpovExample): string {
  if (example.id !== undefined) return `id:${typeof example.id === "string" ? example.id : JSON.stringify(example.id)}`;
  return `sha256:${createHash("sha256")
    .update(JSON.stringify([example.input, example.response]))
    .digest("hex")}`;
}

/**
 * The annotation store over one SQLite file. Synchronous (better-sqlite3): each method is one
 * transaction, so a server handling requests one after another never interleaves two writes.
 */
export class AnnotationStore {
  readonly db: SqliteDatabase;
  /** The database file (as given to {@link AnnotationStore.open}). */
  readonly file: string;
  /** How long a write waits for another process's lock before DATABASE_BUSY. */
  readonly busyTimeoutMs: number;
  private readonly layouts = new Map<number, ResponseLayout>();
  private readonly examples = new Map<number, StoredExample>();

  private constructor(db: SqliteDatabase, file: string, busyTimeoutMs: number) {
    this.db = db;
    this.file = file;
    this.busyTimeoutMs = busyTimeoutMs;
  }

  /**
   * Open the store in `file` (`":memory:"` for a private in-memory one), creating it unless
   * `options.create` is false (then a missing file is DATABASE_NOT_FOUND: reading commands use that, so a
   * mistyped path does not produce an empty database).
   */
  static open(file: string, options: OpenDatabaseOptions = {}): AnnotationStore {
    return new AnnotationStore(openDatabase(file, options), file, options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS);
  }

  /** Close the database. */
  close(): void {
    this.db.close();
  }

  /** The project settings (defaults: k = 5, no AIS questions). */
  settings(): StoreSettings {
    const get = (key: string) =>
      (this.db.prepare("SELECT value FROM meta WHERE key = ?").get(key) as { value: string } | undefined)?.value;
    return { perExample: Number(get("perExample") ?? 5), ais: get("ais") === "1" };
  }

  /** Change settings. @throws InvalidValueError for k < 1 */
  configure(settings: Partial<StoreSettings>): void {
    if (settings.perExample !== undefined && (!Number.isInteger(settings.perExample) || settings.perExample < 1))
      throw new InvalidValueError("perExample", `must be a whole number >= 1, got ${settings.perExample}.`);
    const set = this.db.prepare(
      "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
    );
    this.db
      .transaction(() => {
        if (settings.perExample !== undefined) set.run("perExample", String(settings.perExample));
        if (settings.ais !== undefined) set.run("ais", settings.ais ? "1" : "0");
      })
      .immediate();
  }

  /**
   * Add examples (each checked by core's `validateExample`); ones already present (same id, or same input
   * and response) are kept as they are, so importing the same file twice changes nothing, while an id that
   * comes back with another input or response is refused. Calibration
   * examples need known labels, and their known spans and uncovered arguments must fit the example.
   * Nothing is added when one example is refused.
   * @throws InvalidValueError (and core's other validation errors) naming the example and field
   */
  importExamples(examples: readonly NpovExample[], kind: ExampleKind = "task"): { added: number; existing: number } {
    // The app shows arguments per perspective; a sources example is refused, naming the tool.
    const clean = requireNpovExamples(
      examples.map((e, k) => validateExample(e, `examples[${k}]`)),
      "annotation app",
    );
    if (kind === "calibration")
      clean.forEach((e, k) => {
        const problem = calibrationProblem(e);
        if (problem !== null) throw new InvalidValueError(`examples[${k}].${problem.field}`, `${problem.message}.`);
      });
    const find = this.db.prepare("SELECT data FROM examples WHERE kind = ? AND key = ?");
    const insert = this.db.prepare("INSERT INTO examples (kind, key, data) VALUES (?, ?, ?)");
    const content = (e: NpovExample) => JSON.stringify([e.input, e.response]);
    let added = 0;
    this.db
      .transaction(() => {
        clean.forEach((e, k) => {
          const key = exampleKey(e);
          const row = find.get(kind, key) as { data: string } | undefined;
          if (row === undefined) {
            insert.run(kind, key, JSON.stringify(e));
            added++;
          } else if (content(JSON.parse(row.data) as NpovExample) !== content(e))
            // Same id, other text: keeping the first silently would drop this example's text.
            throw new InvalidValueError(
              `examples[${k}].id`,
              `${JSON.stringify(e.id)} is already imported with another input or response; give each example its own id.`,
            );
        });
      })
      .immediate();
    return { added, existing: examples.length - added };
  }

  /**
   * Read a dataset JSONL file (core's validation) and import it.
   * @throws FileReadError, FileFormatError (calibration examples without usable known answers are listed
   * per example)
   */
  importFile(file: string, kind: ExampleKind = "task"): { added: number; existing: number } {
    const examples = requireNpovExamples(readExamples(file), "annotation app");
    if (kind === "calibration") {
      const issues: FileIssue[] = [];
      examples.forEach((e, k) => {
        const problem = calibrationProblem(e);
        if (problem !== null)
          issues.push({
            file,
            line: undefined,
            field: `example ${k + 1}${e.id === undefined ? "" : ` (${e.id})`} ${problem.field}`,
            message: problem.message,
          });
      });
      if (issues.length > 0) throw new FileFormatError(issues);
    }
    return this.importExamples(examples, kind);
  }

  /**
   * Add a user and return their token (shown once; only its SHA-256 is stored).
   * @throws InvalidUserError for a bad or taken name
   */
  addUser(name: string, role: Role): string {
    if (!USER_NAME.test(name))
      throw new InvalidUserError(
        `User name ${JSON.stringify(name)} must be 1-64 letters, digits or _ . @ - (no spaces).`,
      );
    if (role !== "annotator" && role !== "admin")
      throw new InvalidUserError(`Unknown role ${JSON.stringify(role)}: use annotator or admin.`);
    const token = randomBytes(24).toString("base64url");
    try {
      this.db
        .prepare("INSERT INTO users (name, role, token_hash, created_at) VALUES (?, ?, ?, ?)")
        .run(name, role, hashToken(token), now());
    } catch (e) {
      if ((e as { code?: string }).code === "SQLITE_CONSTRAINT_UNIQUE")
        throw new InvalidUserError(`A user named ${JSON.stringify(name)} exists already; pick another name.`);
      throw e;
    }
    return token;
  }

  /** Every user (names and roles; tokens are not stored). */
  users(): User[] {
    return this.db.prepare("SELECT id, name, role FROM users ORDER BY id").all() as User[];
  }

  /** The user a token belongs to. @throws UnauthorizedError */
  authenticate(token: string | undefined): User {
    if (token === undefined || token.length === 0 || token.length > 200) throw new UnauthorizedError();
    const user = this.db.prepare("SELECT id, name, role FROM users WHERE token_hash = ?").get(hashToken(token)) as
      | User
      | undefined;
    if (user === undefined) throw new UnauthorizedError();
    return user;
  }

  /** A stored example by id (cached; examples never change once imported). */
  example(id: number): StoredExample | undefined {
    let stored = this.examples.get(id);
    if (stored === undefined) {
      const row = this.db.prepare("SELECT id, kind, data FROM examples WHERE id = ?").get(id) as
        | { id: number; kind: ExampleKind; data: string }
        | undefined;
      if (row === undefined) return undefined;
      stored = { id: row.id, kind: row.kind, example: JSON.parse(row.data) as NpovExample };
      this.examples.set(id, stored);
    }
    return stored;
  }

  /** Every example of a kind, in import order. */
  listExamples(kind: ExampleKind): StoredExample[] {
    const ids = this.db.prepare("SELECT id FROM examples WHERE kind = ? ORDER BY id").all(kind) as Array<{
      id: number;
    }>;
    return ids.map(({ id }) => this.example(id) as StoredExample);
  }

  /** Words and sentences of an example's response (cached). */
  layout(id: number): ResponseLayout {
    let layout = this.layouts.get(id);
    if (layout === undefined) {
      layout = layoutOf((this.example(id) as StoredExample).example.response);
      this.layouts.set(id, layout);
    }
    return layout;
  }

  private requireAnnotator(user: User): void {
    if (user.role !== "annotator") throw new ForbiddenError("annotate (admins watch progress and export)", user.role);
  }

  /**
   * The example `user` should work on now: their open one (resume), else the next calibration example,
   * else a new task example; null when nothing is left for them.
   * @throws ForbiddenError for admins
   */
  next(user: User): WorkItem | null {
    this.requireAnnotator(user);
    const { perExample, ais } = this.settings();
    const pick = this.db.transaction((): { id: number; draft: string | null } | null => {
      const open = this.db
        .prepare(
          "SELECT example_id AS id, draft FROM assignments WHERE user_id = ? AND status = 'open' ORDER BY assigned_at, example_id LIMIT 1",
        )
        .get(user.id) as { id: number; draft: string | null } | undefined;
      if (open !== undefined) return open;
      const fresh = (this.db
        .prepare(
          `SELECT e.id FROM examples e WHERE e.kind = 'calibration'
             AND NOT EXISTS (SELECT 1 FROM assignments a WHERE a.example_id = e.id AND a.user_id = ?)
           ORDER BY e.id LIMIT 1`,
        )
        .get(user.id) ??
        this.db
          .prepare(
            `SELECT e.id FROM examples e WHERE e.kind = 'task'
               AND NOT EXISTS (SELECT 1 FROM assignments a WHERE a.example_id = e.id AND a.user_id = ?)
               AND (SELECT COUNT(*) FROM assignments a WHERE a.example_id = e.id
                      AND a.status IN ('open', 'submitted', 'flagged')) < ?
             ORDER BY e.id LIMIT 1`,
          )
          .get(user.id, perExample)) as { id: number } | undefined;
      if (fresh === undefined) return null;
      this.db
        .prepare("INSERT INTO assignments (example_id, user_id, status, assigned_at) VALUES (?, ?, 'open', ?)")
        .run(fresh.id, user.id, now());
      return { id: fresh.id, draft: null };
    });
    const picked = pick.immediate();
    if (picked === null) return null;
    const stored = this.example(picked.id) as StoredExample;
    const layout = this.layout(picked.id);
    let calibration: WorkItem["calibration"] = null;
    if (stored.kind === "calibration") {
      const ids = this.db.prepare("SELECT id FROM examples WHERE kind = 'calibration' ORDER BY id").all() as Array<{
        id: number;
      }>;
      calibration = { index: ids.findIndex((r) => r.id === picked.id) + 1, total: ids.length };
    }
    return {
      exampleId: picked.id,
      kind: stored.kind,
      input: stored.example.input,
      response: stored.example.response,
      words: layout.words,
      sentences: layout.sentences,
      ais,
      draft: picked.draft === null ? null : (JSON.parse(picked.draft) as Annotation),
      calibration,
    };
  }

  /** The open assignment of `user` on `exampleId`, inside a transaction. */
  private openAssignment(user: User, exampleId: number): StoredExample {
    const row = this.db
      .prepare("SELECT status FROM assignments WHERE example_id = ? AND user_id = ?")
      .get(exampleId, user.id) as { status: string } | undefined;
    if (row === undefined) throw new NotAssignedError(exampleId);
    if (row.status !== "open") throw new AlreadyFinishedError(exampleId, row.status);
    return this.example(exampleId) as StoredExample;
  }

  /**
   * Save a partial annotation so a reload or another device resumes where the annotator stopped.
   * @throws NotAssignedError, AlreadyFinishedError, SpanOutOfRangeError, InvalidAnnotationError
   */
  saveDraft(user: User, exampleId: number, annotation: Annotation): void {
    this.requireAnnotator(user);
    const { ais } = this.settings();
    this.db
      .transaction(() => {
        const stored = this.openAssignment(user, exampleId);
        const clean = checkAnnotation(annotation, stored.example, {
          complete: false,
          ais,
          sentences: this.layout(exampleId).sentences.length,
        });
        this.db
          .prepare("UPDATE assignments SET draft = ? WHERE example_id = ? AND user_id = ?")
          .run(JSON.stringify(clean), exampleId, user.id);
      })
      .immediate();
  }

  /**
   * Finish an example: submit a complete annotation, skip it (someone else gets it) or flag it as broken.
   * Calibration examples are scored at once (RoFT points and the known answers).
   * @throws NotAssignedError, AlreadyFinishedError, SpanOutOfRangeError, InvalidAnnotationError,
   * IncompleteAnnotationError
   */
  finish(user: User, exampleId: number, outcome: Outcome): FinishResult {
    this.requireAnnotator(user);
    const { ais } = this.settings();
    return this.db
      .transaction((): FinishResult => {
        const stored = this.openAssignment(user, exampleId);
        const update = this.db.prepare(
          `UPDATE assignments SET status = ?, annotation = ?, flag_reason = ?, points = ?, draft = NULL, finished_at = ?
           WHERE example_id = ? AND user_id = ?`,
        );
        if (outcome.action === "skip") {
          update.run("skipped", null, null, null, now(), exampleId, user.id);
          return { status: "skipped", feedback: null };
        }
        if (outcome.action === "flag") {
          update.run("flagged", null, outcome.reason, null, now(), exampleId, user.id);
          return { status: "flagged", feedback: null };
        }
        const layout = this.layout(exampleId);
        const clean = checkAnnotation(outcome.annotation, stored.example, {
          complete: true,
          ais,
          sentences: layout.sentences.length,
        });
        const feedback =
          stored.kind === "calibration" ? scoreCalibration(stored.example, layout.sentences, clean) : null;
        update.run("submitted", JSON.stringify(clean), null, feedback?.points ?? null, now(), exampleId, user.id);
        return { status: "submitted", feedback };
      })
      .immediate();
  }

  /** Progress per annotator and overall. */
  progress(): ProjectProgress {
    const { perExample } = this.settings();
    const users = this.users();
    const counts = this.db
      .prepare(
        `SELECT a.user_id AS user, e.kind AS kind, a.status AS status, COUNT(*) AS n, COALESCE(SUM(a.points), 0) AS points
         FROM assignments a JOIN examples e ON e.id = a.example_id GROUP BY a.user_id, e.kind, a.status`,
      )
      .all() as Array<{ user: number; kind: ExampleKind; status: string; n: number; points: number }>;
    const calibrationTotal = (
      this.db.prepare("SELECT COUNT(*) AS n FROM examples WHERE kind = 'calibration'").get() as { n: number }
    ).n;
    const examples = (this.db.prepare("SELECT COUNT(*) AS n FROM examples WHERE kind = 'task'").get() as { n: number })
      .n;
    const perTask = this.db
      .prepare(
        `SELECT MIN(COUNT(a.user_id), ?) AS n FROM examples e LEFT JOIN assignments a
           ON a.example_id = e.id AND a.status IN ('submitted', 'flagged')
         WHERE e.kind = 'task' GROUP BY e.id`,
      )
      .all(perExample) as Array<{ n: number }>;
    const annotators = users.map((u): AnnotatorProgress => {
      const mine = counts.filter((c) => c.user === u.id);
      const count = (kind: ExampleKind, status: string) =>
        mine.find((c) => c.kind === kind && c.status === status)?.n ?? 0;
      const calibrationDone = mine.filter((c) => c.kind === "calibration" && c.status !== "open");
      return {
        name: u.name,
        role: u.role,
        calibration: {
          done: calibrationDone.reduce((s, c) => s + c.n, 0),
          total: calibrationTotal,
          points: calibrationDone.reduce((s, c) => s + c.points, 0),
          maxPoints: calibrationTotal * MAX_POINTS,
        },
        submitted: count("task", "submitted"),
        skipped: count("task", "skipped"),
        flagged: count("task", "flagged"),
        open: mine.filter((c) => c.status === "open").reduce((s, c) => s + c.n, 0),
      };
    });
    return {
      annotators,
      overall: {
        examples,
        calibrationExamples: calibrationTotal,
        perExample,
        target: examples * perExample,
        answered: perTask.reduce((s, r) => s + r.n, 0),
        complete: perTask.filter((r) => r.n >= perExample).length,
      },
    };
  }

  /** Every finished answer (not open assignments), in example then user order. */
  answers(kind?: ExampleKind): StoredAnswer[] {
    const rows = this.db
      .prepare(
        `SELECT a.example_id AS exampleId, e.kind AS kind, u.name AS annotator, a.status AS status,
                a.annotation AS annotation, a.flag_reason AS flagReason, a.points AS points
         FROM assignments a JOIN examples e ON e.id = a.example_id JOIN users u ON u.id = a.user_id
         WHERE a.status != 'open' ${kind === undefined ? "" : "AND e.kind = ?"}
         ORDER BY a.example_id, u.id`,
      )
      .all(...(kind === undefined ? [] : [kind])) as Array<
      Omit<StoredAnswer, "annotation"> & { annotation: string | null }
    >;
    return rows.map((r) => ({
      ...r,
      annotation: r.annotation === null ? null : (JSON.parse(r.annotation) as Annotation),
    }));
  }

  /** Row counts of the tables (tests use them to prove a refused request wrote nothing). */
  counts(): { users: number; examples: number; assignments: number; finished: number; drafts: number } {
    const n = (sql: string) => (this.db.prepare(sql).get() as { n: number }).n;
    return {
      users: n("SELECT COUNT(*) AS n FROM users"),
      examples: n("SELECT COUNT(*) AS n FROM examples"),
      assignments: n("SELECT COUNT(*) AS n FROM assignments"),
      finished: n("SELECT COUNT(*) AS n FROM assignments WHERE status != 'open'"),
      drafts: n("SELECT COUNT(*) AS n FROM assignments WHERE draft IS NOT NULL"),
    };
  }
}

// Every method of the store reaches SQLite, where another process's lock (held past the busy timeout) or a
// read-only file fails a statement: those failures become DATABASE_BUSY and DATABASE_READ_ONLY, whichever
// method met them, instead of SQLite's own errors ("database is locked").
for (const name of Object.getOwnPropertyNames(AnnotationStore.prototype)) {
  if (name === "constructor") continue;
  const descriptor = Object.getOwnPropertyDescriptor(AnnotationStore.prototype, name);
  const method = descriptor?.value as unknown;
  if (typeof method !== "function") continue;
  Object.defineProperty(AnnotationStore.prototype, name, {
    ...descriptor,
    value(this: AnnotationStore, ...args: unknown[]) {
      try {
        return (method as (...a: unknown[]) => unknown).apply(this, args);
      } catch (error) {
        throw sqliteError(this.file, error, this.busyTimeoutMs);
      }
    },
  });
}
