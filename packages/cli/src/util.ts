/** Helpers shared by the CLI commands: reading inputs, printing, failing with a one-line reason. */

import { existsSync, readFileSync, statSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import type { NpovExample, NpovInput } from "@npov/core";
import {
  FileFormatError,
  InvalidValueError,
  NpovError,
  readExamples,
  readJsonFile,
  readTextFile,
  repoPath,
  validateExample,
  validateInput,
} from "@npov/core";

/** Thrown by commands for a usage problem; printed as one line, exit code 2. */
export class UsageError extends NpovError {
  constructor(message: string) {
    super("USAGE", message);
  }
}

/** A --model path that does not exist (or is not a folder); never retried as a hub id. */
export class ModelNotFoundError extends NpovError {
  constructor(option: string, path: string, problem: string) {
    super(
      "MODEL_NOT_FOUND",
      `${option} ${path}: ${problem}. Give a model folder (config.json, tokenizer.json, onnx/) such as models/npov-gen, or leave ${option} out for the shipped model.`,
    );
  }
}

/**
 * Whether a --model value names a local folder rather than a hub id ("owner/name"): absolute or ./-relative
 * paths, paths with more than one "/", a trailing "/", backslashes, or a first segment that exists here.
 */
export function looksLikePath(value: string): boolean {
  const parts = value.split("/");
  return (
    isAbsolute(value) ||
    value.startsWith(".") ||
    value.startsWith("~") ||
    value.includes("\\") ||
    parts.length > 2 ||
    value.endsWith("/") ||
    (parts.length === 2 && existsSync(parts[0] as string))
  );
}

/** Check a --model value: a path-like value must be an existing folder (a hub id passes unchanged). */
export function checkModelOption(value: string, option: string): void {
  if (!looksLikePath(value)) return;
  if (!existsSync(value)) throw new ModelNotFoundError(option, value, "no such folder");
  if (!statSync(value).isDirectory()) throw new ModelNotFoundError(option, value, "not a folder");
}

/** One use of a model in its card (models/NAME/card.json). */
export interface ModelCardUse {
  usable: boolean;
  reason?: string;
  instead?: string;
}

/** The machine-readable part of a model card (models/NAME/card.json). */
export interface ModelCard {
  format: "npov-model-card/1";
  model: string;
  purpose: string;
  uses: Record<string, ModelCardUse>;
}

/** Read `card.json` of a model folder; undefined when the folder has none or it is not a model card. */
export function readModelCard(folder: string): ModelCard | undefined {
  const file = join(folder, "card.json");
  if (!existsSync(file)) return undefined;
  try {
    const card = JSON.parse(readFileSync(file, "utf8")) as ModelCard;
    return card.format === "npov-model-card/1" && typeof card.uses === "object" ? card : undefined;
  } catch {
    return undefined; // a broken card must not stop the command; the model still loads
  }
}

const warned = new Set<string>();
/**
 * Say once per process, on stderr, when the model a command uses (`model`, or the shipped
 * models/`defaultName`) is marked unusable for `use` in its card, with the reason and what to use instead.
 */
export function warnAboutModel(model: string | undefined, defaultName: string, use: string): void {
  const folder = model ?? repoPath("models", defaultName);
  const key = `${folder}\u0000${use}`;
  if (warned.has(key)) return;
  warned.add(key);
  const entry = readModelCard(folder)?.uses[use];
  if (entry === undefined || entry.usable) return;
  const shown = model ?? `models/${defaultName}`;
  warn(
    `${shown} is not usable for ${use}: ${entry.reason ?? "below the usable level"}.${entry.instead === undefined ? "" : ` Use ${entry.instead} instead.`}`,
  );
}

/** One warning line on stderr. */
export function warn(message: string): void {
  process.stderr.write(`npov: warning: ${message}\n`);
}

/** Read and parse a JSON file (core's, re-exported for the commands). @throws FileReadError, FileFormatError */
export { readJsonFile };

/** Read an NPOV input, accepting either a bare input or an example holding one. */
export function readInput(file: string): NpovInput {
  const value = readJsonFile(file) as Record<string, unknown>;
  if (value !== null && typeof value === "object" && "input" in value) return validateInput(value.input, "input");
  return validateInput(value, "input");
}

/**
 * Read a dataset: JSON Lines (one example per line, as `npov synth` writes), or a JSON array of examples.
 * A pretty-printed single JSON object gets one clear message instead of a problem per line.
 * @throws FileReadError, FileFormatError
 */
export function readDataset(file: string): NpovExample[] {
  const text = readTextFile(file);
  const trimmed = text.trimStart();
  const fail = (message: string) => new FileFormatError([{ file, line: undefined, field: "", message }]);
  if (trimmed.startsWith("[")) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      throw fail(
        `starts like a JSON array but is not valid JSON (${(e as Error).message}); give JSON Lines, one example per line`,
      );
    }
    const items = value as unknown[];
    const issues: Array<{ file: string; line: undefined; field: string; message: string }> = [];
    const examples: NpovExample[] = [];
    items.forEach((item, i) => {
      try {
        examples.push(validateExample(item, `[${i}]`));
      } catch (e) {
        if (!(e instanceof NpovError)) throw e;
        issues.push({ file, line: undefined, field: `[${i}]`, message: e.message });
      }
    });
    if (issues.length > 0) throw new FileFormatError(issues);
    return examples;
  }
  const firstLine = trimmed.split("\n", 1)[0]?.trim() ?? "";
  if (firstLine === "{")
    throw fail(
      "holds a pretty-printed JSON object, not JSON Lines; a dataset has one example per line (npov synth --out FILE.jsonl writes one)",
    );
  return readExamples(file);
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
