/**
 * File helpers: typed read errors, strict UTF-8 text (a byte-order mark is dropped, invalid bytes are
 * reported), and atomic writes (temp file in the same folder, then rename) that fail with a typed
 * {@link FileWriteError} and leave neither a half-written file nor a temp file behind.
 */
import { randomBytes } from "node:crypto";
import {
  chmodSync,
  closeSync,
  constants,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  type Stats,
  statSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import {
  FileFormatError,
  type FileIssue,
  FileReadError,
  FileWriteError,
  InputTooLargeError,
  InvalidValueError,
} from "./errors.js";

/**
 * Largest text file npov reads, in bytes (500 MiB). V8 cannot hold a string much longer than 512 Mi
 * UTF-16 units, so a larger file would fail deep inside the decoder; it is refused up front instead.
 */
export const MAX_TEXT_FILE_BYTES = 500 * 1024 * 1024;

/**
 * Deepest nesting of arrays and objects accepted in a JSON value read from a file. Real npov records
 * nest a few levels; a value nested thousands of levels deep parses, but overflows the stack of anything
 * that walks it recursively later (`JSON.stringify` when writing it back), so it is refused at reading.
 */
export const MAX_JSON_DEPTH = 256;

/** The 0-based byte offset of the first byte that is not valid UTF-8, or -1 when all of it is valid. */
export function invalidUtf8Offset(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] as number;
    if (b < 0x80) {
      i++;
      continue;
    }
    // Length of the sequence and the allowed range of its second byte (no overlongs, no surrogates, <= U+10FFFF).
    let length: number;
    let low = 0x80;
    let high = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) length = 2;
    else if (b >= 0xe0 && b <= 0xef) {
      length = 3;
      if (b === 0xe0) low = 0xa0;
      if (b === 0xed) high = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      length = 4;
      if (b === 0xf0) low = 0x90;
      if (b === 0xf4) high = 0x8f;
    } else return i;
    for (let k = 1; k < length; k++) {
      const c = bytes[i + k];
      if (c === undefined) return i; // truncated sequence at the end
      if (k === 1 ? c < low || c > high : c < 0x80 || c > 0xbf) return i;
    }
    i += length;
  }
  return -1;
}

/**
 * Decode UTF-8 bytes read from `file` strictly: a leading byte-order mark is dropped; a byte that is not
 * valid UTF-8 is an error naming its line and byte offset, never silently replaced by U+FFFD.
 * @throws FileFormatError
 */
export function decodeUtf8(bytes: Uint8Array, file: string): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    const offset = invalidUtf8Offset(bytes);
    let line = 1;
    for (let i = 0; i < offset; i++) if (bytes[i] === 0x0a) line++;
    throw new FileFormatError([
      {
        file,
        line,
        field: "",
        message: `not UTF-8 text (invalid byte 0x${(bytes[offset] ?? 0).toString(16).padStart(2, "0")} at byte ${offset}): save the file as UTF-8`,
      },
    ]);
  }
}

/**
 * Read a UTF-8 text file (a byte-order mark is dropped).
 * @throws FileReadError (cannot read), FileFormatError (not UTF-8), InputTooLargeError (over {@link MAX_TEXT_FILE_BYTES})
 */
export function readTextFile(file: string): string {
  let bytes: Buffer;
  try {
    const stats = statSync(file);
    if (stats.isDirectory()) throw new Error("it is a folder, not a file");
    if (stats.isFile() && stats.size > MAX_TEXT_FILE_BYTES)
      throw new InputTooLargeError(
        file,
        stats.size,
        MAX_TEXT_FILE_BYTES,
        "bytes",
        "Split it into smaller files (e.g. `split -l 100000` for JSON Lines).",
      );
    bytes = readFileSync(file);
  } catch (cause) {
    if (cause instanceof InputTooLargeError) throw cause;
    throw new FileReadError(file, cause);
  }
  if (bytes.length > MAX_TEXT_FILE_BYTES)
    throw new InputTooLargeError(file, bytes.length, MAX_TEXT_FILE_BYTES, "bytes", "Split it into smaller files.");
  return decodeUtf8(bytes, file);
}

/** How deep arrays and objects nest in a JSON value (0 for a scalar), counted without recursion. */
export function jsonDepth(value: unknown): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop() as [unknown, number];
    if (v === null || typeof v !== "object") continue;
    const level = depth + 1;
    if (level > deepest) deepest = level;
    if (level > MAX_JSON_DEPTH) return level; // deep enough to refuse; no need to walk the rest
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, level]);
  }
  return deepest;
}

/**
 * Parse JSON text from a file, refusing values nested deeper than {@link MAX_JSON_DEPTH}.
 * @throws SyntaxError (not JSON; callers turn it into a FileIssue), RangeError (too deep)
 */
function parseJsonText(text: string): unknown {
  const value = JSON.parse(text) as unknown;
  if (jsonDepth(value) > MAX_JSON_DEPTH)
    throw new RangeError(`arrays or objects nested more than ${MAX_JSON_DEPTH} levels deep`);
  return value;
}

/**
 * Read and parse a JSON file (UTF-8, a byte-order mark is dropped).
 * @throws FileReadError (cannot read), FileFormatError (not UTF-8, not JSON, nested too deep), InputTooLargeError
 */
export function readJsonFile(file: string): unknown {
  const text = readTextFile(file);
  try {
    return parseJsonText(text);
  } catch (e) {
    throw new FileFormatError([{ file, line: undefined, field: "", message: `invalid JSON: ${(e as Error).message}` }]);
  }
}

/** Whether `error` comes from a system call (it has an errno code such as ENOSPC). */
function isSystemError(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === "string" && /^E[A-Z0-9]+$/.test(code);
}

/** Why a file-system call failed, in words, from its error code. */
function writeFailureReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case "EISDIR":
      return "it is a folder";
    case "ENOTDIR":
      return "a part of its path is a file, not a folder";
    case "EACCES":
    case "EPERM":
      return "permission denied";
    case "EROFS":
      return "the file system is read-only";
    case "ENOSPC":
      return "no space left on the device (the disk is full)";
    case "EDQUOT":
      return "the disk quota is exhausted";
    case "EFBIG":
      return "the file would exceed the file-size limit (ulimit -f) or the file system's largest file";
    case "ENAMETOOLONG":
      return "the path or a name in it is too long";
    case "ELOOP":
      return "too many levels of symbolic links";
    case "ENOENT":
      return "its folder does not exist and cannot be created here";
    case "EPIPE":
      return "the reader at the other end of the pipe closed it";
    case "ENXIO":
      return "nothing reads at the other end (a named pipe without a reader, or a socket)";
    case "EIO":
      return "an input/output error on the device";
    default:
      return error instanceof Error ? error.message : String(error);
  }
}

/**
 * The typed error for a failed write of `file` (a path, or e.g. "standard output"): a FileWriteError
 * whose reason is the system error in words, or `error` itself when it is not a system error.
 */
export function fileWriteError(file: string, error: unknown): unknown {
  if (error instanceof FileWriteError || !isSystemError(error)) return error;
  return new FileWriteError(file, writeFailureReason(error), error);
}

/** The stats of `path`, or undefined when it does not exist. @throws the fs error otherwise */
function statOrUndefined(stat: (p: string) => Stats, path: string): Stats | undefined {
  try {
    return stat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/**
 * Create folder `dir` and its missing parents, one level at a time. Node's `mkdirSync(dir, {recursive:
 * true})` retries forever when the kernel answers ENOENT for a folder whose parent exists (it does under
 * /proc), so this walks up at most once per path component and fails on the first refusal.
 * @throws FileWriteError naming `file` (the output the folder is for)
 */
export function ensureDirectory(dir: string, file = dir): void {
  const missing: string[] = [];
  let current = resolve(dir);
  for (;;) {
    let stats: Stats | undefined;
    try {
      stats = statOrUndefined(statSync, current);
    } catch (error) {
      throw new FileWriteError(file, `cannot reach folder ${current}: ${writeFailureReason(error)}`, error);
    }
    if (stats !== undefined) {
      if (!stats.isDirectory()) throw new FileWriteError(file, `${current} is a file, not a folder`);
      break;
    }
    missing.push(current);
    const parent = dirname(current);
    if (parent === current) break; // the root, which always exists
    current = parent;
  }
  for (const folder of missing.reverse()) {
    try {
      mkdirSync(folder);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "EEXIST" && statOrUndefined(statSync, folder)?.isDirectory())
        continue; // made by someone else meanwhile
      const reason =
        (error as NodeJS.ErrnoException).code === "ENOENT"
          ? "this file system does not allow creating folders (e.g. /proc)"
          : writeFailureReason(error);
      throw new FileWriteError(file, `cannot create folder ${folder}: ${reason}`, error);
    }
  }
}

/**
 * Check, without writing anything, that `file` can be an output path: a non-empty path without NUL bytes
 * that is not a folder, whose nearest existing ancestor is a folder. Commands call it before long work so
 * a bad --out fails at once, not after an hour. (It cannot foresee a full disk or a read-only mount.)
 * @throws FileWriteError
 */
export function checkOutputPath(file: string): void {
  if (typeof file !== "string" || file.length === 0) throw new FileWriteError("", "the path is empty");
  if (file.includes("\u0000")) throw new FileWriteError(file, "the path contains a NUL byte");
  if (/[\\/]$/.test(file))
    throw new FileWriteError(file, "the path ends with a slash, so it names a folder, not a file");
  let stats: Stats | undefined;
  try {
    stats = statOrUndefined(statSync, file);
  } catch (error) {
    throw new FileWriteError(file, writeFailureReason(error), error);
  }
  if (stats?.isDirectory()) throw new FileWriteError(file, "it is a folder");
  if (stats !== undefined) return;
  let current = dirname(resolve(file));
  for (;;) {
    let parent: Stats | undefined;
    try {
      parent = statOrUndefined(statSync, current);
    } catch (error) {
      throw new FileWriteError(file, `cannot reach folder ${current}: ${writeFailureReason(error)}`, error);
    }
    if (parent !== undefined) {
      if (!parent.isDirectory()) throw new FileWriteError(file, `${current} is a file, not a folder`);
      return;
    }
    const up = dirname(current);
    if (up === current) return;
    current = up;
  }
}

/**
 * `JSON.stringify(value, null, indent)`, or an InvalidValueError naming `path` when the value cannot be
 * written as JSON (a BigInt, a cycle): what a save function checks before it writes anything.
 */
export function jsonText(value: unknown, path: string, indent?: number): string {
  try {
    return JSON.stringify(value, null, indent);
  } catch (cause) {
    throw new InvalidValueError(path, `must be JSON-serializable (${(cause as Error).message}).`);
  }
}

/**
 * Write a file atomically: readers see the old content or the new one, never half a file, even if the
 * process dies mid-write. `data` is a string, bytes, or an iterable of chunks (written as they come, so a
 * large output need not be one string). Creates the parent folder. A symbolic link is followed (the file
 * it points to is replaced, the link stays); a character device or pipe (`/dev/stdout`, `/dev/null`) is
 * written directly, as a stream has no "old content" to keep (a named pipe nobody reads is refused rather
 * than waited on). The replaced file keeps its permissions.
 *
 * On failure nothing changes: the old file (if any) is intact and the temp file is removed. An error
 * thrown by the chunk iterable itself is re-thrown as it is, after the same clean-up.
 * @throws FileWriteError (code FILE_UNWRITABLE) saying why: a folder, a path ending in "/", a file where
 *   a folder should be, an empty path, permission denied, a read-only file system, a full disk, the
 *   file-size limit, a name too long, ...
 */
export function writeFileAtomic(file: string, data: string | Uint8Array | Iterable<string | Uint8Array>): void {
  checkOutputPath(file);
  let target = file;
  let mode: number | undefined;
  let stats: Stats | undefined;
  try {
    stats = statOrUndefined(statSync, file);
    if (stats === undefined && statOrUndefined(lstatSync, file)?.isSymbolicLink())
      throw new FileWriteError(file, `it is a symbolic link to a missing file; remove the link or give another path`);
  } catch (error) {
    if (error instanceof FileWriteError) throw error;
    throw new FileWriteError(file, writeFailureReason(error), error);
  }
  if (stats !== undefined && !stats.isFile()) {
    // A device, pipe or socket: there is nothing to replace atomically, so write to it as a stream.
    try {
      // Opening a named pipe nobody reads would block forever: probe without blocking first (ENXIO).
      if (stats.isFIFO() || stats.isSocket()) closeSync(openSync(file, constants.O_WRONLY | constants.O_NONBLOCK));
      writeData(file, data, "w");
    } catch (error) {
      if (!isSystemError(error)) throw error;
      throw new FileWriteError(file, writeFailureReason(error), error);
    }
    return;
  }
  if (stats !== undefined) {
    mode = stats.mode & 0o7777;
    try {
      target = realpathSync(file);
    } catch (error) {
      throw new FileWriteError(file, writeFailureReason(error), error);
    }
  }
  const dir = dirname(target);
  ensureDirectory(dir, file);
  // Short enough that the temp name fits the 255-byte limit whenever the target's name does.
  const tmp = join(dir, `.${basename(target).slice(0, 200)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  try {
    writeData(tmp, data, "wx");
    if (mode !== undefined) chmodSync(tmp, mode);
    renameSync(tmp, target);
  } catch (error) {
    try {
      rmSync(tmp, { force: true });
    } catch {
      // Nothing more to do: the temp file could not be created or is already gone.
    }
    // An error of the data itself (a chunk generator that throws) is the caller's, not the file system's.
    if (!isSystemError(error)) throw error;
    // The folder exists (just checked), so ENOENT here means the file system refuses new files.
    const reason =
      (error as NodeJS.ErrnoException).code === "ENOENT"
        ? "this file system does not allow creating files (e.g. /proc or /sys)"
        : writeFailureReason(error);
    throw new FileWriteError(file, reason, error);
  }
}

/**
 * Write `data` to `path` opened with `flag`: a string or bytes at once, an iterable chunk by chunk (so a
 * large output never has to be one string; V8 strings stop at about 512 Mi characters).
 */
function writeData(path: string, data: string | Uint8Array | Iterable<string | Uint8Array>, flag: string): void {
  if (typeof data === "string" || data instanceof Uint8Array) {
    writeFileSync(path, data, { flag });
    return;
  }
  const fd = openSync(path, flag);
  // Small chunks (one JSON line each) are gathered into ~1 MiB writes: one system call per line is slow.
  let pending: string[] = [];
  let pendingLength = 0;
  const put = (bytes: Uint8Array) => {
    let done = 0;
    while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done);
  };
  const flush = () => {
    if (pending.length === 0) return;
    put(Buffer.from(pending.join(""), "utf8"));
    pending = [];
    pendingLength = 0;
  };
  try {
    for (const chunk of data) {
      if (typeof chunk === "string") {
        pending.push(chunk);
        pendingLength += chunk.length;
        if (pendingLength >= 1 << 20) flush();
      } else {
        flush();
        put(chunk);
      }
    }
    flush();
  } finally {
    closeSync(fd);
  }
}

/** The lines of {@link toJsonl}, one JSON record and its newline per chunk (for large outputs). */
export function* jsonlChunks(records: Iterable<unknown>): Generator<string> {
  for (const r of records) yield `${JSON.stringify(r)}\n`;
}

/** Serialize records as JSON Lines (one JSON object per line, trailing newline). */
export function toJsonl(records: readonly unknown[]): string {
  return records.map((r) => JSON.stringify(r)).join("\n") + (records.length > 0 ? "\n" : "");
}

/**
 * Walk the non-blank lines of JSON Lines text: each parsed value goes to `accept` with its 1-based line
 * number; a line that is not JSON (or nests deeper than {@link MAX_JSON_DEPTH}) is recorded in `issues`
 * with its file and line.
 */
export function forEachJsonLine(
  text: string,
  file: string,
  issues: FileIssue[],
  accept: (value: unknown, line: number) => void,
): void {
  let start = 0;
  for (let k = 0; start <= text.length; k++) {
    // Walk by index rather than split(): a 400 MB file does not need a second copy as an array of lines.
    let end = text.indexOf("\n", start);
    if (end === -1) end = text.length;
    const raw = text.slice(start, end);
    start = end + 1;
    if (raw.trim().length === 0) continue;
    let value: unknown;
    try {
      value = parseJsonText(raw);
    } catch (e) {
      issues.push({ file, line: k + 1, field: "", message: `invalid JSON: ${shorten((e as Error).message)}` });
      continue;
    }
    accept(value, k + 1);
  }
}

/** An error message cut to a readable length (V8 quotes the start of a bad line, which may be huge). */
function shorten(message: string): string {
  return message.length > 300 ? `${message.slice(0, 300)}...` : message;
}
