/**
 * Dataset files: JSON Lines, one {@link NpovExample} per line (format documented in packages/synth's
 * README). Reading validates every line and reports the file, line and field of each problem.
 */
import { FileFormatError, type FileIssue, NotTextError, NpovError } from "./errors.js";
import { forEachJsonLine, jsonlChunks, readTextFile, writeFileAtomic } from "./io.js";
import type { CheckInput, NpovExample } from "./types.js";
import { validateExample } from "./validate.js";
import { requireArray, requireRecord } from "./values.js";

/** Parse dataset JSONL text. @throws NotTextError for text or file that is not a string; FileFormatError listing every bad line */
export function parseExamplesJsonl(text: string, file: string): NpovExample<CheckInput>[] {
  if (typeof text !== "string") throw new NotTextError("text", text);
  if (typeof file !== "string") throw new NotTextError("file", file);
  const examples: NpovExample<CheckInput>[] = [];
  const issues: FileIssue[] = [];
  forEachJsonLine(text, file, issues, (value, line) => {
    try {
      examples.push(validateExample(value, ""));
    } catch (e) {
      if (!(e instanceof NpovError)) throw e;
      const field = e.path ?? (e.code === "UNKNOWN_SPLIT" ? "split" : "");
      // The issue names the field already; drop the message's own "field: " prefix so it is not said twice.
      const message = field && e.message.startsWith(`${field}: `) ? e.message.slice(field.length + 2) : e.message;
      issues.push({ file, line, field, message });
    }
  });
  if (issues.length > 0) throw new FileFormatError(issues);
  return examples;
}

/** Read a dataset JSONL file. @throws FileReadError, FileFormatError */
export function readExamples(file: string): NpovExample<CheckInput>[] {
  return parseExamplesJsonl(readTextFile(file), file);
}

/**
 * Write examples as JSONL, atomically.
 * @throws InvalidValueError when `examples` is not an array of objects (nothing is written); FileWriteError
 */
export function writeExamples(file: string, examples: readonly NpovExample<CheckInput>[]): void {
  requireArray(examples, "examples", "an array of examples");
  // Line by line: a large dataset need not fit in one string. A bad item ends the write before the file
  // is replaced (the iterable's error is the caller's, after the temp file is removed).
  writeFileAtomic(
    file,
    jsonlChunks(
      (function* () {
        for (const [k, e] of examples.entries()) yield requireRecord(e, `examples[${k}]`, "an example object");
      })(),
    ),
  );
}
