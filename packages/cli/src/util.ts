/** Helpers shared by the CLI commands: reading inputs, printing, failing with a one-line reason. */

import { existsSync, readFileSync, statSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import type { CheckInput, NamedPath, NpovExample, NpovInput } from "@npov/core";
import {
  checkOutputPath,
  defaultPerspectrumDir,
  ensureDirectory,
  FileFormatError,
  FileWriteError,
  fileWriteError,
  fixturesKnowledgeBasePath,
  InvalidValueError,
  jsonDepth,
  MAX_JSON_DEPTH,
  maxOf,
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

/**
 * What to say when the model a command uses (`model`, or the shipped models/`defaultName`) is marked
 * unusable for `use` in its card: the reason and what to use instead; undefined when it is usable or has no
 * card. A card's advice names `npov check`'s options (`--methods align`); `command` is the command that
 * asks, and for one without --methods the advice becomes a whole command (`npov check --methods align`).
 */
export function modelWarning(
  model: string | undefined,
  defaultName: string,
  use: string,
  command: { hasMethods: boolean } = { hasMethods: true },
): string | undefined {
  const folder = model ?? repoPath("models", defaultName);
  const entry = readModelCard(folder)?.uses[use];
  if (entry === undefined || entry.usable) return undefined;
  const shown = model ?? `models/${defaultName}`;
  const instead =
    entry.instead === undefined || command.hasMethods
      ? entry.instead
      : entry.instead.replace(/(^|[\s(,;])--methods\b/g, "$1npov check --methods");
  return `${shown} is not usable for ${use}: ${entry.reason ?? "below the usable level"}.${instead === undefined ? "" : ` Use ${instead} instead.`}`;
}

const warned = new Set<string>();
/**
 * Say once per process, on stderr, what {@link modelWarning} says about the model; returns the warning
 * (also when it was said before) so a command can repeat it in its output, e.g. on an HTML page.
 */
export function warnAboutModel(
  model: string | undefined,
  defaultName: string,
  use: string,
  command: { hasMethods: boolean } = { hasMethods: true },
): string | undefined {
  const message = modelWarning(model, defaultName, use, command);
  if (message !== undefined && !warned.has(message)) {
    warned.add(message);
    warn(message);
  }
  return message;
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
export function readDataset(file: string): NpovExample<CheckInput>[] {
  const examples = readDatasetFile(file);
  // Every command that reads a dataset computes over it: an empty one is a mistake, not a result.
  if (examples.length === 0)
    throw new UsageError(`${file} holds no examples: give a dataset with at least one (npov synth --out FILE.jsonl).`);
  return examples;
}

/**
 * A labelled dataset for training or calibration: both outcomes present for each error type, checked
 * before any (possibly long) scoring. @throws UsageError naming the file and the type
 */
export function requireBothOutcomes(
  examples: readonly NpovExample<CheckInput>[],
  file: string,
  options: { allowUnlabelled?: boolean } = {},
): void {
  for (const type of ["hallucination", "coverage"] as const) {
    const labels = examples.map((e) => e.labels?.[type]).filter((l): l is boolean => l !== undefined);
    // A type no example labels (coverage of sources answers) may be left unchecked where the caller allows it.
    if (options.allowUnlabelled === true && labels.length === 0) continue;
    if (!labels.includes(true) || !labels.includes(false))
      throw new UsageError(
        `${file} needs examples with and without ${type} errors (labels.${type} true and false); it has ${labels.filter(Boolean).length} with and ${labels.filter((l) => !l).length} without.`,
      );
  }
}

function readDatasetFile(file: string): NpovExample<CheckInput>[] {
  const text = readTextFile(file);
  const trimmed = text.trimStart();
  const fail = (message: string) => new FileFormatError([{ file, line: undefined, field: "", message }]);
  if (trimmed.startsWith("[")) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      throw fail(
        `starts like a JSON array but is not valid JSON (${(e as Error).message.slice(0, 300)}); give JSON Lines, one example per line`,
      );
    }
    if (!Array.isArray(value))
      throw fail("starts with [ but is not a JSON array; give JSON Lines, one example per line");
    if (jsonDepth(value) > MAX_JSON_DEPTH)
      throw fail(`arrays or objects nested more than ${MAX_JSON_DEPTH} levels deep`);
    const items = value as unknown[];
    const issues: Array<{ file: string; line: undefined; field: string; message: string }> = [];
    const examples: NpovExample<CheckInput>[] = [];
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
export function readExample(file: string): NpovExample<CheckInput> {
  const value = readJsonFile(file) as Record<string, unknown>;
  if (value === null || typeof value !== "object" || !("response" in value))
    throw new InvalidValueError("example", `${file} must hold {"input": {...}, "response": "..."}.`);
  return validateExample(value);
}

/**
 * The files or folders a --kb value reads ("fixtures", "perspectrum", or paths, comma-separated where the
 * command takes a list), for the check that no output overwrites them.
 */
export function knowledgeBasePaths(value: string | undefined, flag = "--kb"): NamedPath[] {
  if (value === undefined) return [];
  return value
    .split(",")
    .map((k) => k.trim())
    .filter((k) => k.length > 0)
    .map((k) => ({
      flag,
      path: k === "fixtures" ? fixturesKnowledgeBasePath() : k === "perspectrum" ? defaultPerspectrumDir() : k,
    }));
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
  // "support,support" means support once (a repeated detector would be scored twice, then refused).
  return [...new Set(items)] as T[];
}

/** The accepted range of a numeric option (inclusive bounds unless marked exclusive). */
export interface NumberRange {
  min?: number;
  max?: number;
  /** The value must be greater than `min`, not equal to it. */
  minExclusive?: boolean;
  /** The value must be smaller than `max`, not equal to it. */
  maxExclusive?: boolean;
}

/** "an integer from 1 to 1000", "a number > 0", ...: what an option accepts, for messages and --help. */
export function describeRange(kind: "integer" | "number", range: NumberRange = {}): string {
  const { min, max, minExclusive, maxExclusive } = range;
  const noun = kind === "integer" ? "an integer" : "a number";
  if (min !== undefined && max !== undefined && !minExclusive && !maxExclusive) return `${noun} from ${min} to ${max}`;
  const parts: string[] = [];
  if (min !== undefined) parts.push(`${minExclusive ? ">" : ">="} ${min}`);
  if (max !== undefined) parts.push(`${maxExclusive ? "<" : "<="} ${max}`);
  return parts.length === 0 ? noun : `${noun} ${parts.join(" and ")}`;
}

function checkRange(n: number, value: string, option: string, kind: "integer" | "number", range: NumberRange): number {
  const { min, max, minExclusive, maxExclusive } = range;
  const below = min !== undefined && (minExclusive ? n <= min : n < min);
  const above = max !== undefined && (maxExclusive ? n >= max : n > max);
  if (below || above) throw new UsageError(`${option} must be ${describeRange(kind, range)}, got "${value}".`);
  return n;
}

// Plain decimal notation only: Number() would also take "", " ", "0x10", "1e3" and "Infinity".
const INTEGER_RE = /^[+-]?\d+$/;
const DECIMAL_RE = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/**
 * Parse an integer option strictly: decimal digits with an optional sign, a safe integer, inside `range`.
 * @throws UsageError naming the option, the value and what it accepts
 */
export function parseInteger(value: string, option: string, range: NumberRange = {}): number {
  const n = INTEGER_RE.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n))
    throw new UsageError(`${option} must be ${describeRange("integer", range)}, got "${value}".`);
  return checkRange(n, value, option, "integer", range);
}

/**
 * Parse a decimal number option strictly (no hex, no "Infinity", no empty text), inside `range`.
 * @throws UsageError naming the option, the value and what it accepts
 */
export function parseNumber(value: string, option: string, range: NumberRange = {}): number {
  const n = DECIMAL_RE.test(value) ? Number(value) : Number.NaN;
  if (!Number.isFinite(n)) throw new UsageError(`${option} must be ${describeRange("number", range)}, got "${value}".`);
  return checkRange(n === 0 ? 0 : n, value, option, "number", range);
}

/** The long name of an option's flags: "--limit" for "-l, --limit <n>". */
function longName(flags: string): string {
  return flags.split(/[ ,|]+/).find((f) => f.startsWith("--")) ?? flags.split(" ")[0] ?? flags;
}

/**
 * Arguments for commander's `.option(...)` of an integer option: flags, the description with the accepted
 * range appended, a strict parser (runs while commander parses, so a bad value fails before any work) and
 * the default. Use: `.option(...integerOption("--limit <n>", "score only the first n", { min: 1 }))`.
 */
export function integerOption(
  flags: string,
  description: string,
  range: NumberRange,
  defaultValue?: number,
): [string, string, (value: string) => number, number?] {
  const name = longName(flags);
  const parse = (value: string) => parseInteger(value, name, range);
  const text = `${description} (${describeRange("integer", range)})`;
  return defaultValue === undefined ? [flags, text, parse] : [flags, text, parse, defaultValue];
}

/** Like {@link integerOption}, for a decimal number option. */
export function numberOption(
  flags: string,
  description: string,
  range: NumberRange,
  defaultValue?: number,
): [string, string, (value: string) => number, number?] {
  const name = longName(flags);
  const parse = (value: string) => parseNumber(value, name, range);
  const text = `${description} (${describeRange("number", range)})`;
  return defaultValue === undefined ? [flags, text, parse] : [flags, text, parse, defaultValue];
}

/** Seeds: any integer from 0 to 2^32 - 1 (the generator uses 32 bits; larger seeds would alias smaller ones). */
export const SEED_RANGE: NumberRange = { min: 0, max: 4294967295 };

/**
 * Most inputs sampled per topic by --per-topic. The paper samples up to 18. The sampler's attempts grow
 * with the count, and the dataset with it: 1,000 per topic over Perspectrum's test topics is 1.4 GB of
 * memory and a minute of work, mostly repeats once a topic's distinct combinations are used up.
 */
export const MAX_PER_TOPIC = 100;

/** Most bootstrap resamples (--bootstrap, --resamples): 200 give stable 95% intervals; the work grows linearly. */
export const MAX_RESAMPLES = 100_000;

/**
 * Make sure `dir` is an output folder, before long work: an existing folder is fine, a missing one is
 * created (with its parents, one level at a time: libraries' recursive mkdir retries forever under
 * /proc), a file there is an error. Nothing else is written.
 * @throws FileWriteError
 */
export function prepareOutputFolder(dir: string): void {
  if (dir.length === 0 || dir.includes("\u0000")) checkOutputPath(dir); // throws: empty path, NUL byte
  if (existsSync(dir) && !statSync(dir).isDirectory())
    throw new FileWriteError(dir, "it is a file, not a folder (this option names an output folder)");
  ensureDirectory(dir);
}

/**
 * Write to stdout. When stdout is a file that cannot take it (a full disk, `ulimit -f`), the failure is
 * a typed FILE_UNWRITABLE, not an internal error.
 */
export function out(text: string): void {
  try {
    process.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
  } catch (error) {
    throw fileWriteError("standard output", error);
  }
}

/** Print a JSON value on stdout. */
export function outJson(value: unknown): void {
  out(JSON.stringify(value, null, 2));
}

/** Format rows as an aligned plain-text table. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, k) =>
    maxOf(
      rows.map((r) => (r[k] ?? "").length),
      h.length,
    ),
  );
  // Numeric columns align right, text columns left.
  const numeric = header.map((_, k) => rows.length > 0 && rows.every((r) => /^[-+]?[\d.,%()n= ±]*$/.test(r[k] ?? "")));
  const line = (cells: string[]) =>
    cells
      .map((c, k) => (numeric[k] ? c.padStart(widths[k] ?? 0) : c.padEnd(widths[k] ?? 0)))
      .join("  ")
      .trimEnd();
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}
