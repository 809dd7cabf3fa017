/**
 * Dataset files: JSON Lines, one {@link NpovExample} per line (format documented in packages/synth's
 * README). Reading validates every line and reports the file, line and field of each problem.
 */
import { FileFormatError, type FileIssue, NpovError } from "./errors.js";
import { forEachJsonLine, jsonlChunks, readTextFile, writeFileAtomic } from "./io.js";
import type { CheckInput, NpovExample } from "./types.js";
import { validateExample } from "./validate.js";

/** Parse dataset JSONL text. @throws FileFormatError listing every bad line */
export function parseExamplesJsonl(text: string, file: string): NpovExample<CheckInput>[] {
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

/** Write examples as JSONL, atomically. */
export function writeExamples(file: string, examples: readonly NpovExample<CheckInput>[]): void {
  // Line by line: a large dataset need not fit in one string.
  writeFileAtomic(file, jsonlChunks(examples));
}
