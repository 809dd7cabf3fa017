/**
 * Validation of inputs that arrive from users (JSON files, API calls). Every problem becomes a typed
 * {@link NpovError} naming the field to fix.
 */
import {
  describe,
  EmptyTextError,
  InvalidValueError,
  NoArgumentsError,
  NothingToScoreError,
  NotTextError,
  TooFewPerspectivesError,
  UnknownSplitError,
} from "./errors.js";
import type { Argument, NpovExample, NpovInput, Perspective, Split } from "./types.js";
import { SPLITS } from "./types.js";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Check that `value` is a non-empty string; return it unchanged. */
export function requireText(value: unknown, path: string): string {
  if (typeof value !== "string") throw new NotTextError(path, value);
  if (value.trim().length === 0) throw new EmptyTextError(path);
  return value;
}

// A word character of any script (letters, combining marks, digits): what `segmentWords` keeps.
const WORD_CHAR_RE = /[\p{L}\p{M}\p{N}]/u;

/**
 * Check that `value` is text with at least one word (letters, marks or digits of any script); return it
 * unchanged. Text of only emoji, punctuation or invisible characters cannot be checked by any detector.
 * @throws NotTextError, EmptyTextError, NothingToScoreError
 */
export function requireScorableText(value: unknown, path: string): string {
  const text = requireText(value, path);
  if (!WORD_CHAR_RE.test(text)) throw new NothingToScoreError(path);
  return text;
}

function toArgument(value: unknown, path: string): Argument {
  // Arguments may be given as plain strings for convenience.
  if (typeof value === "string") return { text: requireScorableText(value, path) };
  if (!isRecord(value)) throw new InvalidValueError(path, `must be a string or {text}, got ${describe(value)}.`);
  const arg: Argument = { text: requireScorableText(value.text, `${path}.text`) };
  if (value.id !== undefined) {
    if (typeof value.id !== "string") throw new NotTextError(`${path}.id`, value.id);
    arg.id = value.id;
  }
  if (value.paraphrases !== undefined) {
    if (!Array.isArray(value.paraphrases))
      throw new InvalidValueError(`${path}.paraphrases`, "must be an array of strings.");
    arg.paraphrases = value.paraphrases.map((p, k) => requireText(p, `${path}.paraphrases[${k}]`));
  }
  return arg;
}

/** Validate one perspective; `allowEmpty` is for knowledge-base topics that list one side only. */
export function validatePerspective(value: unknown, path: string, allowEmpty = false): Perspective {
  if (!isRecord(value)) throw new InvalidValueError(path, `must be {label, arguments}, got ${describe(value)}.`);
  const label = requireText(value.label, `${path}.label`);
  if (/[{}]/.test(label)) throw new InvalidValueError(`${path}.label`, "must not contain curly braces.");
  if (!Array.isArray(value.arguments))
    throw new InvalidValueError(`${path}.arguments`, "must be an array of arguments.");
  if (value.arguments.length === 0 && !allowEmpty) throw new NoArgumentsError(`${path}.arguments`, label);
  return { label, arguments: value.arguments.map((a, k) => toArgument(a, `${path}.arguments[${k}]`)) };
}

/** Validate perspectives: at least two, each non-empty, labels unique. */
export function validatePerspectives(value: unknown, path: string): Perspective[] {
  if (!Array.isArray(value)) throw new InvalidValueError(path, "must be an array of perspectives.");
  const perspectives = value.map((p, k) => validatePerspective(p, `${path}[${k}]`));
  if (perspectives.length < 2) throw new TooFewPerspectivesError(path, perspectives.length);
  const seen = new Set<string>();
  for (const [k, p] of perspectives.entries()) {
    if (seen.has(p.label)) throw new InvalidValueError(`${path}[${k}].label`, `duplicate perspective "${p.label}".`);
    seen.add(p.label);
  }
  return perspectives;
}

/**
 * Validate an {@link NpovInput} from untrusted data and return a clean copy.
 * @throws NotTextError, EmptyTextError, NoArgumentsError, TooFewPerspectivesError, InvalidValueError
 */
export function validateInput(value: unknown, path = "input"): NpovInput {
  if (!isRecord(value))
    throw new InvalidValueError(path, `must be an object {topic, query, perspectives}, got ${describe(value)}.`);
  return {
    topic: requireText(value.topic, `${path}.topic`),
    query: requireText(value.query, `${path}.query`),
    perspectives: validatePerspectives(value.perspectives, `${path}.perspectives`),
  };
}

/** Validate a response text: a string with at least one word. @throws NotTextError, EmptyTextError, NothingToScoreError */
export function validateResponse(value: unknown, path = "response"): string {
  return requireScorableText(value, path);
}

/** Validate an {@link NpovExample} (input + response; labels and truth are passed through). */
export function validateExample(value: unknown, path = "example"): NpovExample {
  const at = (field: string) => (path ? `${path}.${field}` : field);
  if (!isRecord(value))
    throw new InvalidValueError(path || "example", `must be an object {input, response}, got ${describe(value)}.`);
  const example = { ...(value as unknown as NpovExample) };
  example.input = validateInput(value.input, at("input"));
  example.response = validateResponse(value.response, at("response"));
  if (value.labels !== undefined) {
    if (!isRecord(value.labels)) throw new InvalidValueError(at("labels"), "must be an object.");
    for (const key of ["hallucination", "coverage", "ambiguous"]) {
      const v = value.labels[key];
      if (v !== undefined && typeof v !== "boolean")
        throw new InvalidValueError(at(`labels.${key}`), `must be true or false, got ${describe(v)}.`);
    }
  }
  if (value.split !== undefined) example.split = parseSplit(value.split);
  return example;
}

/** Parse a split name. @throws UnknownSplitError */
export function parseSplit(value: unknown): Split {
  if (typeof value === "string" && (SPLITS as readonly string[]).includes(value)) return value as Split;
  throw new UnknownSplitError(value);
}
