/**
 * Outputs that cannot destroy inputs. One rule for every command that writes: before any work, an output
 * that is -- or resolves to, through symbolic links or a hard link -- a file or folder the same command
 * reads is refused ({@link refuseOutputOverInput}); and a folder output (a model) is written into a
 * temporary sibling and swapped in at the end ({@link writeFolderAtomic}), so a run that fails half way
 * leaves the old folder whole instead of a mix of two runs.
 */
import { randomBytes } from "node:crypto";
import { cpSync, mkdirSync, realpathSync, renameSync, rmSync, type Stats, statSync } from "node:fs";
import { basename, dirname, join, resolve, sep } from "node:path";
import { FileWriteError, NpovError, OutputIsInputError } from "./errors.js";
import { ensureDirectory, fileWriteError } from "./io.js";

/** A path a command was given, with the flag that named it (`{flag: "--data", path: "d.jsonl"}`). */
export interface NamedPath {
  flag: string;
  /** Undefined when the option was not given (then there is nothing to check). */
  path: string | undefined;
}

/** An output of a command: a file, or a folder the command replaces as a whole (a model folder). */
export interface OutputPath extends NamedPath {
  folder?: boolean;
}

/** Two outputs of one command that are the same file: the second write would replace the first. */
export class OutputConflictError extends NpovError {
  constructor(first: { flag: string; path: string }, second: { flag: string; path: string }) {
    super(
      "OUTPUT_CONFLICT",
      `${second.flag} ${second.path} is the same file as ${first.flag} ${first.path}: one output would replace the other. Give them different paths.`,
      { path: second.flag },
    );
  }
}

interface Place {
  /** Absolute path with every existing part's symbolic links resolved. */
  real: string;
  /** The stats of the path itself when it exists. */
  stats: Stats | undefined;
}

/**
 * Where `path` leads: the real path of its nearest existing ancestor joined with the parts that do not
 * exist yet, so `out/new.jsonl` under a link to the input's folder resolves into that folder.
 */
function place(path: string): Place {
  const absolute = resolve(path);
  const missing: string[] = [];
  let existing = absolute;
  for (;;) {
    try {
      const real = realpathSync(existing);
      const stats = missing.length === 0 ? statSync(real) : undefined;
      return { real: missing.length === 0 ? real : join(real, ...missing.reverse()), stats };
    } catch {
      const up = dirname(existing);
      if (up === existing) return { real: absolute, stats: undefined };
      missing.push(basename(existing));
      existing = up;
    }
  }
}

/** Whether `inner` lies strictly inside the folder `outer` (both real paths). */
function inside(inner: string, outer: string): boolean {
  return inner.startsWith(outer.endsWith(sep) ? outer : outer + sep);
}

/** How output `o` endangers input `i`, in words, or undefined when it does not. */
function relation(o: Place, folderOutput: boolean, i: Place): string | undefined {
  if (o.real === i.real) return i.stats?.isDirectory() ? "is the same folder as" : "is the same file as";
  // A hard link: another name for the same file (same device and inode).
  if (o.stats?.isFile() && i.stats?.isFile() && o.stats.dev === i.stats.dev && o.stats.ino === i.stats.ino)
    return "is a hard link to the same file as";
  // Replacing an existing file inside a folder the command reads (a model folder) changes that input.
  if (i.stats?.isDirectory() && o.stats !== undefined && inside(o.real, i.real)) return "already exists inside";
  // A folder output is replaced as a whole: everything inside it goes, inputs included.
  if (folderOutput && inside(i.real, o.real)) return "is the folder that holds";
  return undefined;
}

/**
 * Refuse, before any work, an output that would destroy an input of the same command: an output that is
 * the same file as an input (by path, through symbolic links, or as a hard link), an existing file inside
 * an input folder, or a folder output that holds an input; and two outputs that are the same file.
 * Options not given (`path` undefined) are skipped.
 * @throws OutputIsInputError (code OUTPUT_IS_INPUT) naming both flags; OutputConflictError (OUTPUT_CONFLICT)
 */
export function refuseOutputOverInput(outputs: readonly OutputPath[], inputs: readonly NamedPath[]): void {
  const given = <T extends NamedPath>(list: readonly T[]) =>
    list.filter((p): p is T & { path: string } => typeof p.path === "string" && p.path.length > 0);
  const outs = given(outputs).map((o) => ({ ...o, at: place(o.path) }));
  const ins = given(inputs).map((i) => ({ ...i, at: place(i.path) }));
  for (const o of outs)
    for (const i of ins) {
      const how = relation(o.at, o.folder === true, i.at);
      if (how !== undefined) throw new OutputIsInputError(o, i, how);
    }
  outs.forEach((second, k) => {
    for (const first of outs.slice(0, k))
      if (relation(second.at, false, first.at) !== undefined || relation(first.at, false, second.at) !== undefined)
        throw new OutputConflictError(first, second);
  });
}

/**
 * Write folder `dir` as a whole, atomically enough that a failure leaves the old folder whole: `write` fills
 * a temporary sibling that starts as a copy of the old folder (so files this run does not write, such as a
 * model card, stay), then the sibling is swapped in by two renames and the old folder removed. When `write`
 * throws, the sibling is removed and `dir` is untouched. A symbolic link at `dir` stays; the folder it
 * points to is replaced. Returns what `write` returns.
 * @throws FileWriteError when the sibling cannot be made or swapped in; whatever `write` throws
 */
export function writeFolderAtomic<T>(dir: string, write: (staging: string) => T): T {
  let target = resolve(dir);
  let exists = false;
  try {
    const stats = statSync(dir);
    if (!stats.isDirectory()) throw new FileWriteError(dir, "it is a file, not a folder (this option names a folder)");
    target = realpathSync(dir);
    exists = true;
  } catch (error) {
    if (error instanceof FileWriteError) throw error;
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw fileWriteError(dir, error);
  }
  const parent = dirname(target);
  ensureDirectory(parent, dir);
  const stem = `.${basename(target).slice(0, 180)}.${process.pid}.${randomBytes(4).toString("hex")}`;
  const staging = join(parent, `${stem}.tmp`);
  try {
    if (exists) cpSync(target, staging, { recursive: true, verbatimSymlinks: true, errorOnExist: true });
    else mkdirSync(staging);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw fileWriteError(dir, error);
  }
  let result: T;
  try {
    result = write(staging);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw error;
  }
  const old = join(parent, `${stem}.old`);
  try {
    if (exists) renameSync(target, old);
    try {
      renameSync(staging, target);
    } catch (error) {
      if (exists) renameSync(old, target); // put the old folder back
      throw error;
    }
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    throw fileWriteError(dir, error);
  }
  if (exists) rmSync(old, { recursive: true, force: true });
  return result;
}
