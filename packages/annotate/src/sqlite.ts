/**
 * Opening the SQLite database: a check that the installed better-sqlite3 can run on this Node.js (a
 * native add-on built for a newer N-API crashes the whole process instead of throwing), WAL mode so
 * readers never block the writer, a busy timeout so a second process (the export command while the
 * server runs) waits instead of failing, and the schema.
 */
import { accessSync, constants, existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname } from "node:path";
import type Database from "better-sqlite3";
import {
  DatabaseBusyError,
  DatabaseFormatError,
  DatabaseNotFoundError,
  DatabaseReadOnlyError,
  SqliteDriverError,
} from "./errors.js";

/** A better-sqlite3 connection. */
export type SqliteDatabase = Database.Database;

/** Schema version written to `meta.schema`; a database with a newer version is refused. */
export const SCHEMA_VERSION = 1;

/** The tables npov creates (a database holding any other is not npov's). */
const NPOV_TABLES: readonly string[] = ["meta", "users", "examples", "assignments"];

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS users (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  role TEXT NOT NULL CHECK (role IN ('annotator', 'admin')),
  token_hash TEXT NOT NULL UNIQUE,
  created_at TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS examples (
  id INTEGER PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('task', 'calibration')),
  key TEXT NOT NULL,
  data TEXT NOT NULL,
  UNIQUE (kind, key)
);
CREATE TABLE IF NOT EXISTS assignments (
  example_id INTEGER NOT NULL REFERENCES examples (id),
  user_id INTEGER NOT NULL REFERENCES users (id),
  status TEXT NOT NULL CHECK (status IN ('open', 'submitted', 'skipped', 'flagged')),
  draft TEXT,
  annotation TEXT,
  flag_reason TEXT,
  points REAL,
  assigned_at TEXT NOT NULL,
  finished_at TEXT,
  PRIMARY KEY (example_id, user_id)
);
CREATE INDEX IF NOT EXISTS assignments_by_user ON assignments (user_id, status);
`;

/**
 * Whether a `engines.node` range such as ">=22" or "20.x || 22.x" admits Node major version `major`.
 * Forms other than ">=N" and "N.x" are assumed to admit it (the check only exists to catch the known crash).
 */
export function nodeRangeAdmits(range: string, major: number): boolean {
  const alternatives = range.split("||").map((s) => s.trim());
  let understood = false;
  for (const alt of alternatives) {
    const atLeast = /^>=\s*(\d+)(?:\.\d+){0,2}$/.exec(alt);
    const exact = /^(\d+)\.x$/.exec(alt) ?? /^\^?(\d+)(?:\.\d+){0,2}$/.exec(alt);
    if (atLeast) {
      understood = true;
      if (major >= Number(atLeast[1])) return true;
    } else if (exact) {
      understood = true;
      if (major === Number(exact[1])) return true;
    } else return true;
  }
  return !understood;
}

// The driver is loaded with require() from this file, so the version check below reads the manifest of
// exactly the module that is then loaded.
const require = createRequire(import.meta.url);
let driver: typeof Database | undefined;

/**
 * Refuse, with a typed error, a better-sqlite3 whose declared Node.js range excludes this Node.js:
 * better-sqlite3 13 ships an N-API 10 binary that segfaults on Node 20 when the first database opens.
 * Returns the driver.
 * @throws SqliteDriverError
 */
export function checkSqliteDriver(): typeof Database {
  if (driver !== undefined) return driver;
  const manifest = require("better-sqlite3/package.json") as { version?: string; engines?: { node?: string } };
  const range = manifest.engines?.node;
  const major = Number(process.versions.node.split(".")[0]);
  if (range !== undefined && !nodeRangeAdmits(range, major))
    throw new SqliteDriverError(
      `better-sqlite3 ${manifest.version ?? "?"} supports Node.js ${range}, but this is Node.js ${process.versions.node} (N-API ${process.versions.napi}); opening a database would crash. Install better-sqlite3 12 (it builds from source for Node 20) or run on Node.js 22 or later.`,
    );
  driver = require("better-sqlite3") as typeof Database;
  return driver;
}

/** Options of {@link openDatabase}. */
export interface OpenDatabaseOptions {
  /** Create the file when it does not exist (default true); false: DatabaseNotFoundError instead. */
  create?: boolean;
  /**
   * Longest wait for another process's lock before a statement fails with DATABASE_BUSY (default
   * {@link DEFAULT_BUSY_TIMEOUT_MS}).
   */
  busyTimeoutMs?: number;
}

/** Default busy timeout: a write waits this long for another process's lock (5 s). */
export const DEFAULT_BUSY_TIMEOUT_MS = 5000;

/** Whether `path` (a file or folder that exists) cannot be written by this process. */
function notWritable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return false;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === "EROFS" || code === "EACCES" || code === "EPERM";
  }
}

/**
 * The typed error for an SQLite failure on `file`: a lock held too long (SQLITE_BUSY, SQLITE_LOCKED) is
 * DATABASE_BUSY, a read-only file or file system DATABASE_READ_ONLY; anything else is returned unchanged.
 */
export function sqliteError(file: string, error: unknown, busyTimeoutMs = DEFAULT_BUSY_TIMEOUT_MS): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== "string") return error;
  if (code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED"))
    return new DatabaseBusyError(file, busyTimeoutMs, error);
  if (code.startsWith("SQLITE_READONLY")) return new DatabaseReadOnlyError(file, error);
  // SQLite cannot open (or create the journal of) a database in a folder it may not write.
  if (
    (code.startsWith("SQLITE_CANTOPEN") || code === "SQLITE_IOERR_WRITE") &&
    file !== ":memory:" &&
    ((existsSync(file) && notWritable(file)) || notWritable(dirname(file)))
  )
    return new DatabaseReadOnlyError(file, error);
  return error;
}

/**
 * Open (creating if needed and allowed) an annotation database: WAL journal, foreign keys, a 5 s busy timeout
 * and the schema. `":memory:"` gives a private in-memory database. A file holding other tables (another
 * application's database) is refused before anything is written to it.
 * @throws SqliteDriverError, DatabaseNotFoundError, DatabaseFormatError
 */
export function openDatabase(file: string, options: OpenDatabaseOptions = {}): SqliteDatabase {
  const Driver = checkSqliteDriver();
  const create = options.create ?? true;
  const busyTimeoutMs = options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
  if (!Number.isInteger(busyTimeoutMs) || busyTimeoutMs < 0 || busyTimeoutMs > 2_147_483_647)
    throw new DatabaseFormatError(file, `busyTimeoutMs must be a whole number of milliseconds, got ${busyTimeoutMs}`);
  if (!create && file !== ":memory:" && !existsSync(file)) throw new DatabaseNotFoundError(file);
  let db: SqliteDatabase;
  try {
    db = new Driver(file, { fileMustExist: !create, timeout: busyTimeoutMs });
  } catch (cause) {
    const typed = sqliteError(file, cause, busyTimeoutMs);
    if (typed !== cause) throw typed;
    throw new DatabaseFormatError(file, `cannot open the database (${(cause as Error).message})`);
  }
  try {
    db.pragma(`busy_timeout = ${busyTimeoutMs}`);
    // Nothing is written until the file is known to be empty or npov's own.
    const tables = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as Array<{ name: string }>)
      .map((t) => t.name)
      .filter((name) => !name.startsWith("sqlite_"));
    const ours = tables.includes("meta") && tables.every((name) => NPOV_TABLES.includes(name));
    const marked =
      ours &&
      /^\d+$/.test(
        (db.prepare("SELECT value FROM meta WHERE key = 'schema'").get() as { value?: unknown } | undefined)
          ?.value as string,
      );
    if (tables.length > 0 && !marked)
      throw new DatabaseFormatError(
        file,
        `not an npov annotation database (it holds the tables ${tables.join(", ")}); give a new file or one npov created`,
      );
    if (file !== ":memory:") db.pragma("journal_mode = WAL");
    db.pragma("foreign_keys = ON");
    db.exec(SCHEMA);
    const row = db.prepare("SELECT value FROM meta WHERE key = 'schema'").get() as { value: string } | undefined;
    if (row === undefined) db.prepare("INSERT INTO meta (key, value) VALUES ('schema', ?)").run(String(SCHEMA_VERSION));
    else if (Number(row.value) > SCHEMA_VERSION)
      throw new DatabaseFormatError(
        file,
        `schema version ${row.value} is newer than this npov understands (${SCHEMA_VERSION}); update npov`,
      );
  } catch (cause) {
    db.close();
    if (cause instanceof DatabaseFormatError) throw cause;
    // A lock held elsewhere or a read-only file is not a sign of another application's file.
    const typed = sqliteError(file, cause, busyTimeoutMs);
    if (typed !== cause) throw typed;
    throw new DatabaseFormatError(file, `not an npov annotation database (${(cause as Error).message})`);
  }
  return db;
}
