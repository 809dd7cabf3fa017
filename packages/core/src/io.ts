/** File helpers: typed read errors and atomic writes (temp file in the same folder, then rename). */
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { FileFormatError, type FileIssue, FileReadError } from "./errors.js";

/** Read a UTF-8 text file. @throws FileReadError */
export function readTextFile(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (cause) {
    throw new FileReadError(file, cause);
  }
}

/** Read and parse a JSON file. @throws FileReadError (cannot read), FileFormatError (not JSON). */
export function readJsonFile(file: string): unknown {
  const text = readTextFile(file);
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new FileFormatError([{ file, line: undefined, field: "", message: `invalid JSON: ${(e as Error).message}` }]);
  }
}

/**
 * Write a file atomically: readers see the old content or the new one, never half a file, even if the
 * process dies mid-write. Creates the parent folder.
 */
export function writeFileAtomic(file: string, data: string | Uint8Array): void {
  const dir = dirname(file);
  mkdirSync(dir, { recursive: true });
  const tmp = join(dir, `.${basename(file)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  try {
    writeFileSync(tmp, data);
    renameSync(tmp, file);
  } catch (error) {
    rmSync(tmp, { force: true });
    throw error;
  }
}

/** Serialize records as JSON Lines (one JSON object per line, trailing newline). */
export function toJsonl(records: readonly unknown[]): string {
  return records.map((r) => JSON.stringify(r)).join("\n") + (records.length > 0 ? "\n" : "");
}

/**
 * Walk the non-blank lines of JSON Lines text: each parsed value goes to `accept` with its 1-based line
 * number; a line that is not JSON is recorded in `issues` with its file and line.
 */
export function forEachJsonLine(
  text: string,
  file: string,
  issues: FileIssue[],
  accept: (value: unknown, line: number) => void,
): void {
  text.split("\n").forEach((raw, k) => {
    if (raw.trim().length === 0) return;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (e) {
      issues.push({ file, line: k + 1, field: "", message: `invalid JSON: ${(e as Error).message}` });
      return;
    }
    accept(value, k + 1);
  });
}
