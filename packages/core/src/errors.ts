/**
 * Typed errors. Every error npov throws on bad input is an {@link NpovError} with a stable `code`
 * (safe to switch on; never reworded) and a message that says what to fix.
 */

/** Base class of every error npov throws on purpose. */
export class NpovError extends Error {
  /** Stable machine-readable identifier, e.g. `"EMPTY_TEXT"`. */
  readonly code: string;
  /** Where the problem is: a field path such as `perspectives[1].arguments`, when known. */
  readonly path: string | undefined;

  constructor(code: string, message: string, options: { path?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.path = options.path;
  }
}

/** A text field (query, topic, argument, response) is empty or only whitespace. */
export class EmptyTextError extends NpovError {
  constructor(path: string) {
    super("EMPTY_TEXT", `${path} is empty: give it some text.`, { path });
  }
}

/** A field that must be a string holds something else. */
export class NotTextError extends NpovError {
  constructor(path: string, got: unknown) {
    super("NOT_TEXT", `${path} must be a string, got ${describe(got)}.`, { path });
  }
}

/** A perspective has no arguments. */
export class NoArgumentsError extends NpovError {
  constructor(path: string, label: string) {
    super(
      "NO_ARGUMENTS",
      `${path} (perspective "${label}") has no arguments: give it at least one argument or remove it.`,
      { path },
    );
  }
}

/** Fewer than two perspectives: a neutral response needs at least two sides. */
export class TooFewPerspectivesError extends NpovError {
  constructor(path: string, count: number) {
    super(
      "TOO_FEW_PERSPECTIVES",
      `${path} has ${count} perspective(s) with arguments; an NPOV input needs at least two (e.g. "pro" and "con").`,
      { path },
    );
  }
}

/** A structurally invalid value (wrong type, duplicate label, out-of-range option). */
export class InvalidValueError extends NpovError {
  constructor(path: string, problem: string) {
    super("INVALID_VALUE", `${path}: ${problem}`, { path });
  }
}

/** A split name other than train, dev or test. */
export class UnknownSplitError extends NpovError {
  constructor(split: unknown) {
    super("UNKNOWN_SPLIT", `Unknown split ${describe(split)}: use one of train, dev, test.`);
  }
}

/** A file or directory that cannot be read (missing, permissions, not a file). */
export class FileReadError extends NpovError {
  readonly file: string;
  constructor(file: string, cause: unknown) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super("FILE_UNREADABLE", `Cannot read ${file}: ${reason}. Check the path and permissions.`, {
      cause,
    });
    this.file = file;
  }
}

/** One problem found while validating a knowledge-base or dataset file. */
export interface FileIssue {
  file: string;
  /** 1-based line number (JSONL) or undefined for whole-file problems. */
  line: number | undefined;
  /** Field path inside the record, e.g. `perspectives[0].arguments[2].text`. */
  field: string;
  message: string;
}

/** A knowledge-base or dataset file with invalid records; `issues` lists every problem found. */
export class FileFormatError extends NpovError {
  readonly issues: FileIssue[];
  constructor(issues: FileIssue[]) {
    const shown = issues
      .slice(0, 20)
      .map((i) => `${i.file}${i.line === undefined ? "" : `:${i.line}`} ${i.field || "(record)"}: ${i.message}`);
    const more = issues.length > 20 ? `\n... and ${issues.length - 20} more` : "";
    super("INVALID_FILE", `${issues.length} problem(s) in input file:\n${shown.join("\n")}${more}`);
    this.issues = issues;
  }
}

/** Generator output that is not `<opening>} Neutral response core: {<core>}`. */
export class GeneratorOutputError extends NpovError {
  constructor(problem: string) {
    super("MALFORMED_GENERATOR_OUTPUT", `Malformed generator output: ${problem}`);
  }
}

/** A topic cannot provide what was asked (e.g. sampling 3 arguments from a side that has 2). */
export class InsufficientArgumentsError extends NpovError {
  constructor(message: string) {
    super("INSUFFICIENT_ARGUMENTS", message);
  }
}

/** A sources input with no source. */
export class NoSourcesError extends NpovError {
  constructor(path: string) {
    super("NO_SOURCES", `${path} is empty: give at least one source {text} to check the response against.`, {
      path,
    });
  }
}

/** A detector that cannot read the given kind of input (e.g. an NPOV-prompt classifier given sources). */
export class UnsupportedInputError extends NpovError {
  constructor(detector: string, kind: string, hint: string) {
    super("UNSUPPORTED_INPUT", `The ${detector} detector does not take ${kind} inputs. ${hint}`);
  }
}

/** Describe a value for an error message without dumping large objects. */
export function describe(value: unknown): string {
  if (value === null) return "null";
  if (value === undefined) return "nothing (undefined)";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value);
  if (typeof value === "object") return "an object";
  return `${typeof value} ${String(value)}`;
}

/**
 * A text has nothing a detector can score: no word (only emoji, punctuation, invisible characters), or
 * -- for word-overlap detectors -- only stop words. npov refuses it rather than score it as clean, so a
 * guard never allows a response nobody could check.
 */
export class NothingToScoreError extends NpovError {
  constructor(path: string, what = "no word (letters or digits)") {
    super(
      "NOTHING_TO_SCORE",
      `${path} has ${what}, so there is nothing to check: give text with at least one content word.`,
      { path },
    );
  }
}

/** A size beyond a documented limit (too many arguments, too long a text, too many examples asked for). */
export class InputTooLargeError extends NpovError {
  readonly limit: number;
  readonly actual: number;
  constructor(path: string, actual: number, limit: number, unit: string, fix: string) {
    super("INPUT_TOO_LARGE", `${path} has ${actual} ${unit}; the limit is ${limit}. ${fix}`, { path });
    this.limit = limit;
    this.actual = actual;
  }
}

/** A token sequence longer than the model's context window (and truncation was not asked for). */
export class ContextTooLongError extends NpovError {
  readonly tokens: number;
  readonly limit: number;
  constructor(model: string, tokens: number, limit: number, fix = "shorten the response or arguments") {
    super(
      "CONTEXT_TOO_LONG",
      `The prompt for ${model} is ${tokens} tokens, more than its context of ${limit}: ${fix}.`,
    );
    this.tokens = tokens;
    this.limit = limit;
  }
}

/** A detector produced a score that is not a finite number in [0, 1] (e.g. NaN from a broken model). */
export class InvalidScoreError extends NpovError {
  constructor(detector: string, field: string, value: unknown) {
    super(
      "INVALID_SCORE",
      `Detector "${detector}" returned ${field} = ${String(value)}, not a number in [0, 1]: the model or detector is broken (check its weights and tokenizer).`,
      { path: field },
    );
  }
}

/** An output file that cannot be written (directory, missing or non-directory parent, read-only, disk full). */
export class FileWriteError extends NpovError {
  readonly file: string;
  constructor(file: string, reason: string, cause?: unknown) {
    super("FILE_UNWRITABLE", `Cannot write ${file || '""'}: ${reason}. Choose another output path.`, {
      ...(cause === undefined ? {} : { cause }),
    });
    this.file = file;
  }
}

/**
 * An output path that is (or resolves to, through symbolic links or a hard link) a file or folder the same
 * command reads, or a folder output that would replace one: writing it would destroy the input. Refused
 * before any work.
 */
export class OutputIsInputError extends NpovError {
  /** The output's flag, e.g. `--out`. */
  readonly output: string;
  /** The input's flag, e.g. `--data`. */
  readonly input: string;
  constructor(output: { flag: string; path: string }, input: { flag: string; path: string }, relation: string) {
    super(
      "OUTPUT_IS_INPUT",
      `${output.flag} ${output.path} ${relation} ${input.flag} ${input.path}: writing it would destroy what the command reads. Give ${output.flag} another path.`,
      { path: output.flag },
    );
    this.output = output.flag;
    this.input = input.flag;
  }
}
