/**
 * Validation of inputs that arrive from users (JSON files, API calls). Every problem becomes a typed
 * {@link NpovError} naming the field to fix.
 */
import {
  describe,
  EmptyTextError,
  InvalidValueError,
  NoArgumentsError,
  NoSourcesError,
  NothingToScoreError,
  NotTextError,
  TooFewPerspectivesError,
  UnknownSplitError,
} from "./errors.js";
import type {
  AmbiguousKind,
  Argument,
  CheckInput,
  NpovExample,
  NpovInput,
  Perspective,
  Source,
  SourcesInput,
  Split,
} from "./types.js";
import { SPLITS } from "./types.js";
import { sourceUnits } from "./units.js";

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

/** The kinds of ambiguous errors an example's `ambiguousKind` may name. */
export const AMBIGUOUS_KINDS: readonly AmbiguousKind[] = [
  "partial-hallucination",
  "partial-coverage",
  "repetition",
  "perspective-confusion",
];

const isIndex = (x: unknown): x is number => typeof x === "number" && Number.isInteger(x) && x >= 0;

/** Check a `{start, end}` span of a text of `length` characters: 0 <= start < end <= length. */
function checkSpan(value: unknown, path: string, length: number): void {
  const { start, end } = (isRecord(value) ? value : {}) as { start?: unknown; end?: unknown };
  if (!isIndex(start) || !isIndex(end) || start >= end || end > length)
    throw new InvalidValueError(
      path,
      `must be {start, end} with 0 <= start < end <= ${length} (the response's length).`,
    );
}

/**
 * Check the optional fields of an example that scoring, evaluation and annotation read (slice, id,
 * ambiguousKind, topicId, meta, argumentSpans, wordLabels), so a wrong type fails here, naming the
 * field, instead of crashing deep in a report.
 */
function checkExampleExtras(
  value: Record<string, unknown>,
  example: NpovExample<CheckInput>,
  at: (f: string) => string,
): void {
  if (
    value.id !== undefined &&
    typeof value.id !== "string" &&
    !(typeof value.id === "number" && Number.isFinite(value.id))
  )
    throw new InvalidValueError(at("id"), `must be a string (or a number), got ${describe(value.id)}.`);
  for (const field of ["slice", "topicId"] as const) {
    const v = value[field];
    if (v !== undefined && (typeof v !== "string" || v.trim().length === 0))
      throw new InvalidValueError(at(field), `must be a non-empty string, got ${describe(v)}.`);
  }
  if (value.ambiguousKind !== undefined && !(AMBIGUOUS_KINDS as readonly unknown[]).includes(value.ambiguousKind))
    throw new InvalidValueError(
      at("ambiguousKind"),
      `must be one of ${AMBIGUOUS_KINDS.join(", ")}, got ${describe(value.ambiguousKind)}.`,
    );
  if (value.meta !== undefined && !isRecord(value.meta))
    throw new InvalidValueError(at("meta"), `must be an object, got ${describe(value.meta)}.`);
  const length = example.response.length;
  if (value.argumentSpans !== undefined) {
    if (!Array.isArray(value.argumentSpans))
      throw new InvalidValueError(at("argumentSpans"), "must be a list of {start, end, perspective, argumentText}.");
    value.argumentSpans.forEach((span, k) => {
      const path = at(`argumentSpans[${k}]`);
      checkSpan(span, path, length);
      const s = span as Record<string, unknown>;
      if (typeof s.perspective !== "string") throw new NotTextError(`${path}.perspective`, s.perspective);
      if (typeof s.argumentText !== "string") throw new NotTextError(`${path}.argumentText`, s.argumentText);
      if (s.argumentId !== undefined && typeof s.argumentId !== "string")
        throw new NotTextError(`${path}.argumentId`, s.argumentId);
    });
  }
  if (value.wordLabels !== undefined) {
    if (!isRecord(value.wordLabels))
      throw new InvalidValueError(at("wordLabels"), "must be an object {hallucinatedSpans, uncoveredArguments}.");
    const { hallucinatedSpans: spans, uncoveredArguments: uncovered } = value.wordLabels;
    if (spans !== undefined) {
      if (!Array.isArray(spans))
        throw new InvalidValueError(at("wordLabels.hallucinatedSpans"), "must be a list of spans.");
      spans.forEach((span, k) => {
        checkSpan(span, at(`wordLabels.hallucinatedSpans[${k}]`), length);
      });
    }
    if (uncovered !== undefined) {
      if (!Array.isArray(uncovered))
        throw new InvalidValueError(
          at("wordLabels.uncoveredArguments"),
          "must be a list of [perspective, argument] pairs.",
        );
      const input = example.input;
      const unitCounts = isSourcesInput(input)
        ? sourceUnits(input).map((u) => u.length)
        : input.perspectives.map((p) => p.arguments.length);
      uncovered.forEach((pair, k) => {
        const [p, a] = Array.isArray(pair) && pair.length === 2 ? pair : [undefined, undefined];
        if (!isIndex(p) || !isIndex(a) || a >= (unitCounts[p] ?? 0))
          throw new InvalidValueError(
            at(`wordLabels.uncoveredArguments[${k}]`),
            isSourcesInput(input)
              ? "must be a [source, unit] pair of indices of a sentence unit of a source (sourceUnits)."
              : "must be a [perspective, argument] pair of indices of a given argument.",
          );
      });
    }
  }
}

/**
 * Validate an {@link NpovExample}: input and response, and the optional fields downstream code reads
 * (labels, split, slice, id, ambiguousKind, topicId, meta, argumentSpans, wordLabels); other fields are
 * passed through.
 * @throws InvalidValueError (naming the field), UnknownSplitError, and the errors of {@link validateInput} /
 *   {@link validateResponse}
 */
export function validateExample(value: unknown, path = "example"): NpovExample<CheckInput> {
  const at = (field: string) => (path ? `${path}.${field}` : field);
  if (!isRecord(value))
    throw new InvalidValueError(path || "example", `must be an object {input, response}, got ${describe(value)}.`);
  const example = { ...(value as unknown as NpovExample<CheckInput>) };
  example.input = validateCheckInput(value.input, at("input"));
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
  checkExampleExtras(value, example, at);
  return example;
}

/** Parse a split name. @throws UnknownSplitError */
export function parseSplit(value: unknown): Split {
  if (typeof value === "string" && (SPLITS as readonly string[]).includes(value)) return value as Split;
  throw new UnknownSplitError(value);
}

/** True when `input` is shaped as a sources input (`{sources}`) rather than an NPOV one (`{perspectives}`). */
export function isSourcesInput(input: unknown): input is SourcesInput {
  return isRecord(input) && input.sources !== undefined && input.perspectives === undefined;
}

/** Most sources in one input. */
export const MAX_SOURCES = 1_000;

/**
 * Validate a {@link SourcesInput} from untrusted data and return a clean copy.
 * @throws NoSourcesError, NotTextError, EmptyTextError, NothingToScoreError, InvalidValueError
 */
export function validateSourcesInput(value: unknown, path = "input"): SourcesInput {
  if (!isRecord(value))
    throw new InvalidValueError(path, `must be an object {query?, sources}, got ${describe(value)}.`);
  if (!Array.isArray(value.sources))
    throw new InvalidValueError(
      `${path}.sources`,
      `must be an array of {id?, title?, text}, got ${describe(value.sources)}.`,
    );
  if (value.sources.length === 0) throw new NoSourcesError(`${path}.sources`);
  if (value.sources.length > MAX_SOURCES)
    throw new InvalidValueError(
      `${path}.sources`,
      `holds ${value.sources.length} sources; at most ${MAX_SOURCES} (pass the ones retrieved for this answer).`,
    );
  const ids = new Set<string>();
  const sources = value.sources.map((s, i): Source => {
    const at = `${path}.sources[${i}]`;
    // A bare string is a source's text, as a bare string is an argument's.
    if (typeof s === "string") return { text: requireScorableText(s, at) };
    if (!isRecord(s)) throw new InvalidValueError(at, `must be {id?, title?, text} or a string, got ${describe(s)}.`);
    const out: Source = { text: requireScorableText(s.text, `${at}.text`) };
    if (s.id !== undefined) {
      if (typeof s.id !== "string" && !(typeof s.id === "number" && Number.isFinite(s.id)))
        throw new NotTextError(`${at}.id`, s.id);
      const id = requireText(String(s.id), `${at}.id`);
      if (ids.has(id)) throw new InvalidValueError(`${at}.id`, `duplicate source id "${id}": ids must be unique.`);
      ids.add(id);
      out.id = id;
    }
    if (s.title !== undefined) {
      if (typeof s.title !== "string") throw new NotTextError(`${at}.title`, s.title);
      if (s.title.trim().length > 0) out.title = s.title;
    }
    return out;
  });
  const out: SourcesInput = { sources };
  if (value.query !== undefined && value.query !== null) {
    if (typeof value.query !== "string") throw new NotTextError(`${path}.query`, value.query);
    if (value.query.trim().length > 0) out.query = value.query;
  }
  return out;
}

/**
 * Validate either input shape: `{topic, query, perspectives}` (NPOV) or `{query?, sources}` (sources).
 * @throws the errors of {@link validateInput} or {@link validateSourcesInput}; InvalidValueError for an object
 *   with both or neither of `perspectives` and `sources`
 */
export function validateCheckInput(value: unknown, path = "input"): CheckInput {
  if (isRecord(value) && value.sources !== undefined && value.perspectives !== undefined)
    throw new InvalidValueError(
      path,
      "has both perspectives and sources: give {topic, query, perspectives} for NPOV arguments or {query?, sources} for plain sources.",
    );
  if (isRecord(value) && value.sources !== undefined) return validateSourcesInput(value, path);
  if (isRecord(value) && value.perspectives === undefined && value.topic === undefined)
    throw new InvalidValueError(
      path,
      "must be {topic, query, perspectives} (NPOV arguments per perspective) or {query?, sources: [{text}]} (plain sources).",
    );
  return validateInput(value, path);
}
