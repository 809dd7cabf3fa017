/**
 * Hostile outputs and inputs for core's file helpers: every unwritable output is a FileWriteError
 * (FILE_UNWRITABLE) that leaves the old file intact and no temp file behind; every unreadable or corrupt
 * input file is a typed error (FILE_UNREADABLE, INVALID_FILE, INPUT_TOO_LARGE), never a crash or
 * silently replaced bytes. (Read-only and full file systems and the file-size limit need another user
 * or a child process: packages/cli/test/hostile-cli.test.ts covers them through the CLI.)
 */
import { execFileSync } from "node:child_process";
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  statSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  checkOutputPath,
  decodeUtf8,
  ensureDirectory,
  type FileFormatError,
  type FileIssue,
  forEachJsonLine,
  invalidUtf8Offset,
  jsonDepth,
  MAX_JSON_DEPTH,
  MAX_TEXT_FILE_BYTES,
  NpovError,
  openKnowledgeBase,
  parseExamplesJsonl,
  readExamples,
  readJsonFile,
  readTextFile,
  toJsonl,
  validateExample,
  writeExamples,
  writeFileAtomic,
} from "@npov/core";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";

const root = mkdtempSync(join(tmpdir(), "npov-atomic-hostile-"));
afterAll(() => {
  // Leave nothing read-only behind for the clean-up of the temp folder.
  chmodSync(root, 0o755);
});

let counter = 0;
/** A fresh folder holding `old.txt` with known content. */
function freshDir(): { dir: string; old: string } {
  const dir = join(root, `case-${counter++}`);
  mkdirSync(dir);
  const old = join(dir, "old.txt");
  writeFileSync(old, "old content\n");
  return { dir, old };
}

/** The NpovError `f` throws (fails the test for any other outcome). */
function caught(f: () => unknown): NpovError {
  try {
    f();
  } catch (e) {
    if (!(e instanceof NpovError)) throw new Error(`expected an NpovError, got ${String(e)}`);
    return e;
  }
  throw new Error("expected an error, got none");
}

/** Entries of `dir` that look like writeFileAtomic temp files. */
const temps = (dir: string) => readdirSync(dir).filter((f) => f.endsWith(".tmp"));

describe("writeFileAtomic: unwritable outputs are FILE_UNWRITABLE, nothing changes", () => {
  it("the output is a folder", () => {
    const { dir, old } = freshDir();
    const target = join(dir, "sub");
    mkdirSync(target);
    const error = caught(() => writeFileAtomic(target, "new"));
    expect(error.code).toBe("FILE_UNWRITABLE");
    expect(error.message).toBe(`Cannot write ${target}: it is a folder. Choose another output path.`);
    expect(statSync(target).isDirectory()).toBe(true);
    expect(readdirSync(target)).toEqual([]);
    expect(readFileSync(old, "utf8")).toBe("old content\n");
    expect(temps(dir)).toEqual([]);
  });

  it("a parent is a file", () => {
    const { dir, old } = freshDir();
    const error = caught(() => writeFileAtomic(join(old, "x.json"), "new"));
    expect(error.code).toBe("FILE_UNWRITABLE");
    expect(error.message).toContain("a part of its path is a file, not a folder");
    const deeper = caught(() => writeFileAtomic(join(old, "a", "b", "x.json"), "new"));
    expect(deeper.code).toBe("FILE_UNWRITABLE");
    expect(readFileSync(old, "utf8")).toBe("old content\n");
    expect(temps(dir)).toEqual([]);
  });

  it("an empty path or a NUL byte in the path", () => {
    const empty = caught(() => writeFileAtomic("", "new"));
    expect(empty.code).toBe("FILE_UNWRITABLE");
    expect(empty.message).toBe('Cannot write "": the path is empty. Choose another output path.');
    const { dir } = freshDir();
    const nul = caught(() => writeFileAtomic(join(dir, "a\u0000b"), "new"));
    expect(nul.code).toBe("FILE_UNWRITABLE");
    expect(nul.message).toContain("NUL byte");
    expect(readdirSync(dir)).toEqual(["old.txt"]);
  });

  it("a folder under /proc: refused at once (Node's recursive mkdir retried it forever)", () => {
    // The kernel answers ENOENT to mkdir under /proc; mkdirSync(dir, {recursive: true}) looped on it.
    const error = caught(() => writeFileAtomic("/proc/npov-no-such-folder/sub/out.jsonl", "new"));
    expect(error.code).toBe("FILE_UNWRITABLE");
    expect(error.message).toContain("cannot create folder /proc/npov-no-such-folder");
    const direct = caught(() => writeFileAtomic("/proc/npov-out.jsonl", "new"));
    expect(direct.code).toBe("FILE_UNWRITABLE");
    expect(direct.message).toContain("does not allow creating files");
    expect(existsSync("/proc/npov-out.jsonl")).toBe(false);
  });

  it("a full device (/dev/full answers ENOSPC to every write)", () => {
    const error = caught(() => writeFileAtomic("/dev/full", "x".repeat(10_000)));
    expect(error.code).toBe("FILE_UNWRITABLE");
    expect(error.message).toContain("no space left on the device");
    // Still the character device: a stream is written in place, never replaced by a regular file.
    expect(statSync("/dev/full").isCharacterDevice()).toBe(true);
  });

  it("a path ending in a slash, a name over NAME_MAX, a named pipe nobody reads", () => {
    const { dir, old } = freshDir();
    const slash = caught(() => writeFileAtomic(`${join(dir, "out.json")}/`, "new"));
    expect(slash.code).toBe("FILE_UNWRITABLE");
    expect(slash.message).toContain("ends with a slash");
    const long = caught(() => writeFileAtomic(join(dir, `${"n".repeat(300)}.json`), "new"));
    expect(long.code).toBe("FILE_UNWRITABLE");
    expect(long.message).toContain("too long");
    const fifo = join(dir, "fifo");
    execFileSync("mkfifo", [fifo]);
    // Opening a pipe without a reader for writing would block forever; it is refused instead.
    const pipe = caught(() => writeFileAtomic(fifo, "new"));
    expect(pipe.code).toBe("FILE_UNWRITABLE");
    expect(pipe.message).toContain("nothing reads at the other end");
    expect(statSync(fifo).isFIFO()).toBe(true);
    expect(readFileSync(old, "utf8")).toBe("old content\n");
    expect(readdirSync(dir).sort()).toEqual(["fifo", "old.txt"]);
  });

  it("a character device is written as a stream, not replaced (/dev/null)", () => {
    writeFileAtomic("/dev/null", "discarded\n");
    expect(statSync("/dev/null").isCharacterDevice()).toBe(true);
  });

  it("a broken symbolic link is refused; a good one is followed and kept", () => {
    const { dir, old } = freshDir();
    const dangling = join(dir, "dangling.json");
    symlinkSync(join(dir, "missing", "target.json"), dangling);
    const error = caught(() => writeFileAtomic(dangling, "new"));
    expect(error.code).toBe("FILE_UNWRITABLE");
    expect(error.message).toContain("symbolic link to a missing file");
    expect(lstatSync(dangling).isSymbolicLink()).toBe(true);

    const link = join(dir, "link.txt");
    symlinkSync(old, link);
    writeFileAtomic(link, "through the link\n");
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe(old);
    expect(readFileSync(old, "utf8")).toBe("through the link\n");
    expect(temps(dir)).toEqual([]);
  });

  it("the replaced file keeps its permissions; a long name still fits its temp file", () => {
    const { dir, old } = freshDir();
    chmodSync(old, 0o600);
    writeFileAtomic(old, "new\n");
    expect(statSync(old).mode & 0o777).toBe(0o600);
    const long = join(dir, `${"n".repeat(250)}.json`); // 255 bytes is the usual name limit
    writeFileAtomic(long, "{}\n");
    expect(readFileSync(long, "utf8")).toBe("{}\n");
    expect(temps(dir)).toEqual([]);
  });

  it("creates missing parent folders, one level at a time", () => {
    const { dir } = freshDir();
    const file = join(dir, "a", "b", "c", "out.json");
    writeFileAtomic(file, "{}\n");
    expect(readFileSync(file, "utf8")).toBe("{}\n");
    ensureDirectory(join(dir, "a", "b")); // exists already: nothing to do
    expect(caught(() => ensureDirectory(join(file, "sub"))).code).toBe("FILE_UNWRITABLE");
  });

  it("writes chunks from an iterable; a chunk source that throws leaves the old file and no temp file", () => {
    const { dir, old } = freshDir();
    writeFileAtomic(old, ["a\n", new TextEncoder().encode("b\n"), "c\n"]);
    expect(readFileSync(old, "utf8")).toBe("a\nb\nc\n");
    function* failing(): Generator<string> {
      yield "partial line\n".repeat(100_000); // more than one buffered write
      throw new RangeError("the caller's own error");
    }
    expect(() => writeFileAtomic(old, failing())).toThrow(RangeError);
    expect(readFileSync(old, "utf8")).toBe("a\nb\nc\n");
    expect(temps(dir)).toEqual([]);
  });

  it("writeExamples writes exactly the bytes of toJsonl, line by line", () => {
    const { dir } = freshDir();
    const examples = [
      {
        input: {
          topic: "t",
          query: "Q?",
          perspectives: [
            { label: "pro", arguments: [{ text: "Cats are calm." }] },
            { label: "con", arguments: [{ text: "Dogs are loyal." }] },
          ],
        },
        response: "Cats are calm, but dogs are loyal. 東京",
      },
    ];
    const file = join(dir, "data.jsonl");
    writeExamples(file, examples);
    expect(readFileSync(file, "utf8")).toBe(toJsonl(examples));
    writeExamples(file, []);
    expect(readFileSync(file, "utf8")).toBe("");
  });

  it("checkOutputPath refuses the same paths without writing anything", () => {
    const { dir, old } = freshDir();
    expect(caught(() => checkOutputPath(dir)).code).toBe("FILE_UNWRITABLE");
    expect(caught(() => checkOutputPath(join(old, "x"))).code).toBe("FILE_UNWRITABLE");
    expect(caught(() => checkOutputPath("")).code).toBe("FILE_UNWRITABLE");
    checkOutputPath(join(dir, "new", "deeper", "x.json")); // missing folders are fine: they will be made
    expect(readdirSync(dir)).toEqual(["old.txt"]);
  });
});

describe("strict UTF-8 input", () => {
  it("finds the first invalid byte (hand-worked sequences)", () => {
    const at = (...bytes: number[]) => invalidUtf8Offset(Uint8Array.from(bytes));
    expect(at(0x41, 0x42)).toBe(-1);
    expect(at(0xf0, 0x9f, 0x98, 0x80)).toBe(-1); // U+1F600
    expect(at(0x41, 0xff)).toBe(1); // never valid
    expect(at(0xc0, 0x80)).toBe(0); // overlong NUL
    expect(at(0xe0, 0x80, 0x80)).toBe(0); // overlong 3-byte
    expect(at(0xed, 0xa0, 0x80)).toBe(0); // a UTF-16 surrogate
    expect(at(0xf4, 0x90, 0x80, 0x80)).toBe(0); // above U+10FFFF
    expect(at(0x41, 0xe2, 0x82)).toBe(1); // truncated at the end
    expect(at(0x41, 0x80)).toBe(1); // a lone continuation byte
  });

  it("agrees with the platform's strict decoder on random bytes (fast-check, fixed seed)", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        const offset = invalidUtf8Offset(bytes);
        let valid = true;
        try {
          new TextDecoder("utf-8", { fatal: true }).decode(bytes);
        } catch {
          valid = false;
        }
        expect(offset === -1).toBe(valid);
        // Everything before the first bad byte decodes.
        if (offset > 0) new TextDecoder("utf-8", { fatal: true }).decode(bytes.subarray(0, offset));
      }),
      { numRuns: 2000 },
    );
  });

  it("reports invalid UTF-8 with its line instead of replacing it with U+FFFD", () => {
    const { dir } = freshDir();
    const file = join(dir, "latin1.jsonl");
    writeFileSync(file, Buffer.concat([Buffer.from('{"a": 1}\n{"b": "caf'), Buffer.from([0xe9]), Buffer.from('"}\n')]));
    // Line 1 is 9 bytes, then `{"b": "caf` is 10: the Latin-1 "é" (0xe9) is byte 19 (0-based), on line 2.
    const error = caught(() => readTextFile(file)) as FileFormatError;
    expect(error.code).toBe("INVALID_FILE");
    expect(error.issues).toEqual([
      { file, line: 2, field: "", message: "not UTF-8 text (invalid byte 0xe9 at byte 19): save the file as UTF-8" },
    ]);
    expect(caught(() => decodeUtf8(Uint8Array.from([0xff]), "x")).code).toBe("INVALID_FILE");
  });

  it("drops a byte-order mark in text, JSON and JSON Lines files", () => {
    const { dir } = freshDir();
    const bom = "\uFEFF";
    const text = join(dir, "bom.txt");
    writeFileSync(text, `${bom}hello\n`);
    expect(readTextFile(text)).toBe("hello\n");
    const json = join(dir, "bom.json");
    writeFileSync(json, `${bom}{"a": 1}`);
    expect(readJsonFile(json)).toEqual({ a: 1 });
    const kb = join(dir, "bom-kb.jsonl");
    const topic = openKnowledgeBase("fixtures").topics[0];
    writeFileSync(kb, `${bom}${JSON.stringify(topic)}\n`);
    expect(openKnowledgeBase(kb).topics.map((t) => t.id)).toEqual([topic?.id]);
  });

  it("refuses a file over the size limit before reading it (a sparse file: no disk used)", () => {
    const { dir } = freshDir();
    const file = join(dir, "huge.jsonl");
    writeFileSync(file, "");
    truncateSync(file, MAX_TEXT_FILE_BYTES + 1);
    const error = caught(() => readTextFile(file));
    expect(error.code).toBe("INPUT_TOO_LARGE");
    expect(error.message).toContain(`the limit is ${MAX_TEXT_FILE_BYTES}`);
  });

  it("a folder or a missing file is FILE_UNREADABLE", () => {
    const { dir } = freshDir();
    expect(caught(() => readTextFile(dir)).code).toBe("FILE_UNREADABLE");
    expect(caught(() => readTextFile(join(dir, "missing.jsonl"))).code).toBe("FILE_UNREADABLE");
  });
});

describe("JSON nesting and huge lines", () => {
  it("counts depth without recursion and refuses values nested past the limit", () => {
    expect(jsonDepth(5)).toBe(0);
    expect(jsonDepth({ a: [1, { b: [] }] })).toBe(4);
    const deep = `${"[".repeat(100_000)}${"]".repeat(100_000)}`; // parses, but JSON.stringify overflows the stack
    expect(jsonDepth(JSON.parse(deep))).toBe(MAX_JSON_DEPTH + 1); // stops walking once too deep
    const { dir } = freshDir();
    const file = join(dir, "deep.json");
    writeFileSync(file, deep);
    expect(caught(() => readJsonFile(file)).code).toBe("INVALID_FILE");
    const issues: FileIssue[] = [];
    forEachJsonLine(`{"ok": 1}\n${deep}\n`, "deep.jsonl", issues, () => {});
    expect(issues.map((i) => [i.line, i.message])).toEqual([
      [2, `invalid JSON: arrays or objects nested more than ${MAX_JSON_DEPTH} levels deep`],
    ]);
  });

  it("a 5 MB line of garbage is one short issue", () => {
    const issues: FileIssue[] = [];
    forEachJsonLine(`${"x".repeat(5_000_000)}\n`, "big.jsonl", issues, () => {});
    expect(issues).toHaveLength(1);
    expect(issues[0]?.line).toBe(1);
    expect(issues[0]?.message.length).toBeLessThan(400);
  });
});

describe("examples: every optional field downstream code reads is checked, naming file, line and field", () => {
  const good = {
    input: {
      topic: "pets",
      query: "Cats or dogs?",
      perspectives: [
        { label: "pro", arguments: [{ text: "Cats are calm." }, { text: "Cats are clean." }] },
        { label: "con", arguments: [{ text: "Dogs are loyal." }] },
      ],
    },
    response: "Cats are calm and clean, while dogs are loyal.",
  };
  const length = good.response.length;

  it.each([
    ["slice", 5, "slice", "must be a non-empty string, got number 5."],
    ["slice", "  ", "slice", 'must be a non-empty string, got "  ".'],
    ["topicId", ["a"], "topicId", "must be a non-empty string, got an array."],
    ["id", { a: 1 }, "id", "must be a string (or a number), got an object."],
    [
      "ambiguousKind",
      "partial",
      "ambiguousKind",
      'must be one of partial-hallucination, partial-coverage, repetition, perspective-confusion, got "partial".',
    ],
    ["meta", [1], "meta", "must be an object, got an array."],
    ["argumentSpans", "x", "argumentSpans", "must be a list of {start, end, perspective, argumentText}."],
    [
      "argumentSpans",
      [{ start: 0, end: length + 1, perspective: "pro", argumentText: "Cats are calm." }],
      "argumentSpans[0]",
      `must be {start, end} with 0 <= start < end <= ${length} (the response's length).`,
    ],
    ["wordLabels", 5, "wordLabels", "must be an object {hallucinatedSpans, uncoveredArguments}."],
    [
      "wordLabels",
      { hallucinatedSpans: [{ start: 3, end: 3 }] },
      "wordLabels.hallucinatedSpans[0]",
      `must be {start, end} with 0 <= start < end <= ${length} (the response's length).`,
    ],
    [
      "wordLabels",
      { uncoveredArguments: [[1, 1]] },
      "wordLabels.uncoveredArguments[0]",
      "must be a [perspective, argument] pair of indices of a given argument.",
    ],
    ["labels", { coverage: "yes" }, "labels.coverage", 'must be true or false, got "yes".'],
  ])("%s = %j is an INVALID_FILE issue at line 2, field %s", (key, value, field, message) => {
    const text = `${JSON.stringify(good)}\n${JSON.stringify({ ...good, [key]: value })}\n`;
    const error = caught(() => parseExamplesJsonl(text, "data.jsonl")) as FileFormatError;
    expect(error.code).toBe("INVALID_FILE");
    expect(error.issues).toEqual([{ file: "data.jsonl", line: 2, field, message }]);
    expect(error.message).toContain(`data.jsonl:2 ${field}: ${message}`);
  });

  it("an unknown split names its field", () => {
    const error = caught(() =>
      parseExamplesJsonl(`${JSON.stringify({ ...good, split: "holdout" })}\n`, "d.jsonl"),
    ) as FileFormatError;
    expect(error.issues[0]).toMatchObject({ line: 1, field: "split" });
    expect(error.issues[0]?.message).toContain('Unknown split "holdout"');
  });

  it("well-formed optional fields pass through unchanged", () => {
    const full = {
      ...good,
      id: 7,
      slice: "paraphrased-synthetic",
      topicId: "pets",
      ambiguousKind: "repetition",
      meta: { style: "free" },
      argumentSpans: [{ start: 0, end: 14, perspective: "pro", argumentText: "Cats are calm." }],
      wordLabels: { hallucinatedSpans: [{ start: 0, end: 4 }], uncoveredArguments: [[0, 1]] },
    };
    expect(validateExample(full)).toEqual(full);
  });

  it("the shipped datasets still pass", () => {
    const dir = new URL("../../../data/chatbot-dev/", import.meta.url);
    const files = readdirSync(dir).filter((f) => f.endsWith(".jsonl"));
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) expect(readExamples(join(dir.pathname, f)).length).toBeGreaterThan(0);
  });

  it("byte-level corruption of a dataset file gives examples or a typed error, never a crash (fast-check)", () => {
    const { dir } = freshDir();
    const bytes = Buffer.from(`${JSON.stringify(good)}\n${JSON.stringify({ ...good, slice: "s" })}\n`);
    const file = join(dir, "corrupt.jsonl");
    const corruption = fc.oneof(
      fc.record({ kind: fc.constant("truncate" as const), at: fc.nat() }),
      fc.record({ kind: fc.constant("set" as const), at: fc.nat(), value: fc.integer({ min: 0, max: 255 }) }),
      fc.record({ kind: fc.constant("insert" as const), at: fc.nat(), bytes: fc.uint8Array({ maxLength: 8 }) }),
    );
    fc.assert(
      fc.property(fc.array(corruption, { minLength: 1, maxLength: 4 }), (changes) => {
        let b = Buffer.from(bytes);
        for (const c of changes) {
          const at = c.at % (b.length + 1);
          if (c.kind === "truncate") b = b.subarray(0, at);
          else if (c.kind === "set" && at < b.length) b[at] = c.value;
          else if (c.kind === "insert") b = Buffer.concat([b.subarray(0, at), c.bytes, b.subarray(at)]);
        }
        writeFileSync(file, b);
        try {
          for (const e of readExamples(file)) expect(typeof e.response).toBe("string");
        } catch (error) {
          expect(error).toBeInstanceOf(NpovError);
          expect(["INVALID_FILE"]).toContain((error as NpovError).code);
        }
      }),
      { numRuns: 300 },
    );
  });
});
