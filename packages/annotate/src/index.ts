/**
 * @npov/annotate: the human annotation web app (paper Section 4.1, Fig. 6; AIS; RoFT). Annotators mark,
 * per response, the span covering each argument, hallucinated spans, uncovered arguments and ambiguous
 * errors, and optionally answer the two AIS questions per sentence; k annotators per example, answers in
 * SQLite; export to npov's dataset JSONL with majority and word labels, an agreement report (Krippendorff's
 * alpha per error type), and a RoFT-style calibration mode with points.
 * @packageDocumentation
 */

export * from "./aggregate.js";
export * from "./annotation.js";
export * from "./bundle.js";
export * from "./calibration.js";
export * from "./errors.js";
export * from "./server.js";
export {
  checkSqliteDriver,
  DEFAULT_BUSY_TIMEOUT_MS,
  nodeRangeAdmits,
  type OpenDatabaseOptions,
  openDatabase,
  SCHEMA_VERSION,
  type SqliteDatabase,
  sqliteError,
} from "./sqlite.js";
export * from "./store.js";
