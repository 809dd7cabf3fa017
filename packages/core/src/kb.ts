/**
 * The knowledge base: topics with a leading question and every argument per perspective.
 *
 * File format (JSON Lines, UTF-8, one topic per line; a `.json` file holding an array also works):
 * ```json
 * {"id": "school-uniforms", "title": "school uniforms", "query": "Should schools require uniforms?",
 *  "split": "train",
 *  "perspectives": [
 *    {"label": "pro", "arguments": [{"id": "school-uniforms/pro/0", "text": "...", "paraphrases": ["..."]}]},
 *    {"label": "con", "arguments": [{"text": "..."}]}]}
 * ```
 * `id` of an argument is optional (defaults to `<topic id>/<label>/<index>`); `paraphrases` are optional.
 * A topic may list a single perspective (some Perspectrum claims do); such a topic cannot be sampled.
 */
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import {
  describe,
  FileFormatError,
  type FileIssue,
  FileReadError,
  InvalidValueError,
  NotTextError,
  UnknownSplitError,
} from "./errors.js";
import { forEachJsonLine, readTextFile, toJsonl, writeFileAtomic } from "./io.js";
import type { Split, Topic } from "./types.js";
import { SPLITS } from "./types.js";
import { pushAll } from "./values.js";

const nonEmpty = z.string().refine((s) => s.trim().length > 0, { message: "must not be empty" });
const noBraces = nonEmpty.refine((s) => !/[{}]/.test(s), { message: "must not contain curly braces" });

const argumentSchema = z.strictObject({
  id: nonEmpty.optional(),
  text: nonEmpty,
  paraphrases: z.array(nonEmpty).optional(),
});

const topicSchema = z.strictObject({
  id: nonEmpty,
  title: nonEmpty,
  query: nonEmpty,
  split: z.enum(["train", "dev", "test"]),
  perspectives: z.array(z.strictObject({ label: noBraces, arguments: z.array(argumentSchema).min(1) })).min(1),
  meta: z.record(z.string(), z.unknown()).optional(),
});

function fieldPath(path: ReadonlyArray<PropertyKey>): string {
  let out = "";
  for (const part of path) out += typeof part === "number" ? `[${part}]` : `${out ? "." : ""}${String(part)}`;
  return out;
}

/**
 * Validate one parsed record as a topic; return the topic or the issues found.
 * @throws NotTextError / InvalidValueError for a non-string file or a line that is not a positive integer
 */
export function parseTopic(value: unknown, file: string, line: number | undefined): Topic | FileIssue[] {
  if (typeof file !== "string") throw new NotTextError("file", file);
  if (line !== undefined && (!Number.isInteger(line) || line < 1))
    throw new InvalidValueError("line", `must be a line number >= 1 or undefined, got ${describe(line)}.`);
  const result = topicSchema.safeParse(value);
  if (!result.success) {
    return result.error.issues.map((issue) => ({ file, line, field: fieldPath(issue.path), message: issue.message }));
  }
  const topic = result.data as Topic;
  const issues: FileIssue[] = [];
  const labels = new Set<string>();
  topic.perspectives.forEach((p, k) => {
    if (labels.has(p.label))
      issues.push({ file, line, field: `perspectives[${k}].label`, message: `duplicate perspective "${p.label}"` });
    labels.add(p.label);
    p.arguments.forEach((a, j) => {
      a.id ??= `${topic.id}/${p.label}/${j}`;
    });
  });
  // Ids name arguments in spans and labels: two arguments with one id (explicit, or an explicit one equal to
  // another's default) would make a label point at the wrong argument.
  const seen = new Map<string, string>();
  topic.perspectives.forEach((p, k) => {
    p.arguments.forEach((a, j) => {
      const at = `perspectives[${k}].arguments[${j}].id`;
      const first = seen.get(a.id as string);
      if (first !== undefined)
        issues.push({ file, line, field: at, message: `duplicate argument id "${a.id}" (also ${first})` });
      else seen.set(a.id as string, at);
    });
  });
  return issues.length > 0 ? issues : topic;
}

/**
 * Check an in-memory topic and return the checked copy with default argument ids filled in
 * (`<topic id>/<label>/<index>`), as a knowledge-base file gets them. @throws InvalidValueError
 */
function normalizeTopic(value: unknown, path: string): Topic {
  const parsed = parseTopic(value, path, undefined);
  if (Array.isArray(parsed)) {
    const first = parsed[0] as FileIssue;
    throw new InvalidValueError(`${path}${first.field ? `.${first.field}` : ""}`, first.message);
  }
  return parsed;
}

/**
 * Check an in-memory topic against the knowledge-base schema; return it unchanged.
 * @throws InvalidValueError naming the first bad field
 */
export function validateTopic(value: unknown, path = "topic"): Topic {
  normalizeTopic(value, path);
  return value as Topic;
}

/** Parse knowledge-base text (JSONL, or a JSON array) from `file`. @throws FileFormatError, NotTextError */
export function parseKnowledgeBase(text: string, file: string): Topic[] {
  if (typeof text !== "string") throw new NotTextError("text", text);
  if (typeof file !== "string") throw new NotTextError("file", file);
  const topics: Topic[] = [];
  const issues: FileIssue[] = [];
  const accept = (value: unknown, line: number | undefined, where: string) => {
    const parsed = parseTopic(value, file, line);
    if (Array.isArray(parsed))
      pushAll(
        issues,
        parsed.map((i) => ({ ...i, field: where + (where && i.field ? "." : "") + i.field })),
      );
    else topics.push(parsed);
  };
  const trimmed = text.trimStart();
  if (trimmed.startsWith("[")) {
    let values: unknown;
    try {
      values = JSON.parse(text);
    } catch (e) {
      throw new FileFormatError([
        { file, line: undefined, field: "", message: `invalid JSON: ${(e as Error).message}` },
      ]);
    }
    if (!Array.isArray(values))
      throw new FileFormatError([
        { file, line: undefined, field: "", message: "a .json knowledge base must hold an array of topics" },
      ]);
    values.forEach((v, k) => {
      accept(v, undefined, `[${k}]`);
    });
  } else {
    forEachJsonLine(text, file, issues, (value, line) => accept(value, line, ""));
  }
  const seen = new Map<string, number>();
  topics.forEach((t, k) => {
    if (seen.has(t.id)) issues.push({ file, line: undefined, field: "id", message: `duplicate topic id "${t.id}"` });
    seen.set(t.id, k);
  });
  if (issues.length > 0) throw new FileFormatError(issues);
  if (topics.length === 0)
    throw new FileFormatError([{ file, line: undefined, field: "", message: "no topics found" }]);
  return topics;
}

/** A validated collection of topics. */
export class KnowledgeBase {
  readonly topics: readonly Topic[];
  private readonly byId: Map<string, Topic>;

  /**
   * Checked copies of `topics`, with default argument ids filled in as a knowledge-base file gets them (so
   * an in-memory knowledge base labels synthetic examples exactly as the same topics read from a file).
   * @throws InvalidValueError for anything but an array of valid topics with unique ids
   */
  constructor(topics: readonly Topic[]) {
    if (!Array.isArray(topics))
      throw new InvalidValueError("topics", `must be an array of topics, got ${describe(topics)}.`);
    topics = topics.map((t, k) => normalizeTopic(t, `topics[${k}]`));
    this.topics = topics;
    this.byId = new Map(topics.map((t) => [t.id, t]));
    if (this.byId.size !== topics.length) throw new InvalidValueError("topics", "topic ids must be unique.");
  }

  /** The topic with this id. @throws InvalidValueError */
  get(id: string): Topic {
    if (typeof id !== "string") throw new NotTextError("id", id);
    const topic = this.byId.get(id);
    if (topic === undefined)
      throw new InvalidValueError("topic", `no topic with id "${id}"; run \`npov kb list\` to see the ids.`);
    return topic;
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  /** Topics of one split. @throws UnknownSplitError */
  split(split: Split): Topic[] {
    if (typeof split !== "string" || !(SPLITS as readonly string[]).includes(split)) throw new UnknownSplitError(split);
    return this.topics.filter((t) => t.split === split);
  }

  /** Number of topics per split. */
  splitCounts(): Record<Split, number> {
    const counts: Record<Split, number> = { train: 0, dev: 0, test: 0 };
    for (const t of this.topics) counts[t.split]++;
    return counts;
  }
}

/**
 * Load a knowledge base from a `.jsonl`/`.json` file, or from a folder (every `.jsonl` file in it, in
 * name order). Every problem is reported with its file, line and field.
 * @throws NotTextError, FileReadError, FileFormatError
 */
export function loadKnowledgeBase(path: string): KnowledgeBase {
  if (typeof path !== "string") throw new NotTextError("path", path);
  let files: string[];
  try {
    files = statSync(path).isDirectory()
      ? readdirSync(path)
          .filter((f) => f.endsWith(".jsonl"))
          .sort()
          .map((f) => join(path, f))
      : [path];
  } catch (cause) {
    throw new FileReadError(path, cause);
  }
  if (files.length === 0) throw new FileReadError(path, new Error("the folder has no .jsonl files"));
  const topics: Topic[] = [];
  const issues: FileIssue[] = [];
  for (const file of files) {
    try {
      pushAll(topics, parseKnowledgeBase(readTextFile(file), file));
    } catch (e) {
      if (e instanceof FileFormatError) pushAll(issues, e.issues);
      else throw e;
    }
  }
  if (issues.length > 0) throw new FileFormatError(issues);
  const ids = new Set<string>();
  for (const t of topics) {
    if (ids.has(t.id))
      throw new FileFormatError([
        { file: path, line: undefined, field: "id", message: `duplicate topic id "${t.id}" across files` },
      ]);
    ids.add(t.id);
  }
  return new KnowledgeBase(topics);
}

/** Write topics as a JSONL knowledge base, atomically. @throws NotTextError, InvalidValueError, FileWriteError */
export function writeKnowledgeBase(file: string, topics: readonly Topic[]): void {
  if (typeof file !== "string") throw new NotTextError("file", file);
  new KnowledgeBase(topics); // validates
  writeFileAtomic(file, toJsonl(topics));
}
