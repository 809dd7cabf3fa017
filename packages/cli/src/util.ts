/** Helpers shared by the CLI commands: reading inputs, printing, failing with a one-line reason. */

import type { NpovExample, NpovInput } from "@npov/core";
import {
  FileFormatError,
  InvalidValueError,
  NpovError,
  readTextFile,
  validateExample,
  validateInput,
} from "@npov/core";

/** Thrown by commands for a usage problem; printed as one line, exit code 2. */
export class UsageError extends NpovError {
  constructor(message: string) {
    super("USAGE", message);
  }
}

/** Read and parse a JSON file. @throws FileReadError, FileFormatError */
export function readJsonFile(file: string): unknown {
  const text = readTextFile(file);
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new FileFormatError([{ file, line: undefined, field: "", message: `invalid JSON: ${(e as Error).message}` }]);
  }
}

/** Read an NPOV input, accepting either a bare input or an example holding one. */
export function readInput(file: string): NpovInput {
  const value = readJsonFile(file) as Record<string, unknown>;
  if (value !== null && typeof value === "object" && "input" in value) return validateInput(value.input, "input");
  return validateInput(value, "input");
}

/** Read an example file: `{input, response, ...}`. */
export function readExample(file: string): NpovExample {
  const value = readJsonFile(file) as Record<string, unknown>;
  if (value === null || typeof value !== "object" || !("response" in value))
    throw new InvalidValueError("example", `${file} must hold {"input": {...}, "response": "..."}.`);
  return validateExample(value);
}

/** Parse a comma-separated list option against allowed values. */
export function parseList<T extends string>(value: string, allowed: readonly T[], option: string): T[] {
  const items = value
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
  for (const item of items)
    if (!(allowed as readonly string[]).includes(item))
      throw new UsageError(`${option}: unknown value "${item}"; use one or more of ${allowed.join(", ")}.`);
  if (items.length === 0) throw new UsageError(`${option}: give at least one of ${allowed.join(", ")}.`);
  return items as T[];
}

/** Parse an integer option. */
export function parseInteger(value: string, option: string): number {
  const n = Number(value);
  if (!Number.isInteger(n)) throw new UsageError(`${option} must be an integer, got "${value}".`);
  return n;
}

/** Write to stdout. */
export function out(text: string): void {
  process.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
}

/** Print a JSON value on stdout. */
export function outJson(value: unknown): void {
  out(JSON.stringify(value, null, 2));
}

/** Format rows as an aligned plain-text table. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, k) => Math.max(h.length, ...rows.map((r) => (r[k] ?? "").length)));
  // Numeric columns align right, text columns left.
  const numeric = header.map((_, k) => rows.length > 0 && rows.every((r) => /^[-+]?[\d.,%()n= ±]*$/.test(r[k] ?? "")));
  const line = (cells: string[]) =>
    cells
      .map((c, k) => (numeric[k] ? c.padStart(widths[k] ?? 0) : c.padEnd(widths[k] ?? 0)))
      .join("  ")
      .trimEnd();
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}
