import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  EmptyTextError,
  FileFormatError,
  FileReadError,
  InsufficientArgumentsError,
  InvalidValueError,
  loadKnowledgeBase,
  NoArgumentsError,
  NotTextError,
  NpovError,
  openKnowledgeBase,
  parseSplit,
  sampleInput,
  TooFewPerspectivesError,
  UnknownSplitError,
  validateInput,
  writeFileAtomic,
} from "@npov/core";
import { describe, expect, it } from "vitest";

const good = {
  topic: "t",
  query: "Q?",
  perspectives: [
    { label: "pro", arguments: [{ text: "a" }] },
    { label: "con", arguments: ["b"] },
  ],
};

function caught(f: () => unknown): NpovError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(NpovError);
    return e as NpovError;
  }
  throw new Error("expected an error");
}

describe("typed errors on bad input", () => {
  it("accepts a valid input and normalizes string arguments", () => {
    expect(validateInput(good).perspectives[1]?.arguments[0]).toEqual({ text: "b" });
  });

  it.each([
    ["empty query", { ...good, query: "  " }, EmptyTextError, "EMPTY_TEXT", "input.query"],
    ["non-string query", { ...good, query: 42 }, NotTextError, "NOT_TEXT", "input.query"],
    [
      "non-string argument",
      { ...good, perspectives: [{ label: "pro", arguments: [{ text: ["x"] }] }, good.perspectives[1]] },
      NotTextError,
      "NOT_TEXT",
      "input.perspectives[0].arguments[0].text",
    ],
    [
      "perspective without arguments",
      { ...good, perspectives: [{ label: "pro", arguments: [] }, good.perspectives[1]] },
      NoArgumentsError,
      "NO_ARGUMENTS",
      "input.perspectives[0].arguments",
    ],
    [
      "one perspective",
      { ...good, perspectives: [good.perspectives[0]] },
      TooFewPerspectivesError,
      "TOO_FEW_PERSPECTIVES",
      "input.perspectives",
    ],
    [
      "duplicate labels",
      { ...good, perspectives: [good.perspectives[0], good.perspectives[0]] },
      InvalidValueError,
      "INVALID_VALUE",
      "input.perspectives[1].label",
    ],
    ["not an object", "hello", InvalidValueError, "INVALID_VALUE", "input"],
  ])("%s", (_name, value, cls, code, path) => {
    const error = caught(() => validateInput(value));
    expect(error).toBeInstanceOf(cls);
    expect(error.code).toBe(code);
    expect(error.path).toBe(path);
    expect(error.message).toContain(path);
  });

  it("unknown split", () => {
    const error = caught(() => parseSplit("validation"));
    expect(error).toBeInstanceOf(UnknownSplitError);
    expect(error.message).toContain("train, dev, test");
  });

  it("unreadable file", () => {
    const error = caught(() => loadKnowledgeBase("/definitely/not/here.jsonl"));
    expect(error).toBeInstanceOf(FileReadError);
    expect(error.code).toBe("FILE_UNREADABLE");
  });

  it("sampling more arguments than a side has", () => {
    const topic = openKnowledgeBase("fixtures").topics[0]!;
    const small = {
      ...topic,
      perspectives: topic.perspectives.map((p) => ({ ...p, arguments: p.arguments.slice(0, 2) })),
    };
    expect(caught(() => sampleInput(small, { perSide: 3 }))).toBeInstanceOf(InsufficientArgumentsError);
    expect(caught(() => sampleInput(small, { perSide: 4 as 3 }))).toBeInstanceOf(InvalidValueError);
    const oneSided = { ...topic, perspectives: topic.perspectives.slice(0, 1) };
    expect(caught(() => sampleInput(oneSided))).toBeInstanceOf(TooFewPerspectivesError);
  });
});

describe("knowledge-base loader", () => {
  it("reports the file, line and field of every problem", () => {
    const dir = mkdtempSync(join(tmpdir(), "npov-kb-"));
    const file = join(dir, "bad.jsonl");
    const ok = JSON.stringify({
      id: "a",
      title: "a",
      query: "A?",
      split: "train",
      perspectives: [{ label: "pro", arguments: [{ text: "x" }] }],
    });
    const badSplit = JSON.stringify({ ...JSON.parse(ok), id: "b", split: "validation" });
    const emptyArg = JSON.stringify({
      ...JSON.parse(ok),
      id: "c",
      perspectives: [{ label: "pro", arguments: [{ text: "" }] }],
    });
    writeFileAtomic(file, `${ok}\n\n${badSplit}\n{not json\n${emptyArg}\n`);
    const error = caught(() => loadKnowledgeBase(file)) as FileFormatError;
    expect(error).toBeInstanceOf(FileFormatError);
    expect(error.issues.map((i) => [i.line, i.field])).toEqual([
      [3, "split"],
      [4, ""],
      [5, "perspectives[0].arguments[0].text"],
    ]);
    expect(error.issues.every((i) => i.file === file)).toBe(true);
    expect(error.message).toContain(`${file}:3 split`);
  });

  it("assigns argument ids and loads the fixtures", () => {
    const kb = openKnowledgeBase("fixtures");
    expect(kb.topics.length).toBeGreaterThanOrEqual(12);
    for (const topic of kb.topics) {
      expect(topic.perspectives.map((p) => p.label)).toEqual(["pro", "con"]);
      for (const p of topic.perspectives) {
        expect(p.arguments.length).toBeGreaterThanOrEqual(3);
        expect(p.arguments.length).toBeLessThanOrEqual(5);
        for (const a of p.arguments) {
          expect(a.id).toMatch(new RegExp(`^${topic.id}/${p.label}/\\d$`));
          expect(a.paraphrases?.length).toBeGreaterThanOrEqual(1);
          expect(a.paraphrases?.length).toBeLessThanOrEqual(2);
        }
      }
    }
    expect(kb.splitCounts()).toEqual({ train: 6, dev: 3, test: 3 });
  });
});

describe("atomic writes", () => {
  it("leaves only the final file behind", () => {
    const dir = mkdtempSync(join(tmpdir(), "npov-atomic-"));
    const file = join(dir, "sub", "out.txt");
    writeFileAtomic(file, "one");
    writeFileAtomic(file, "two");
    expect(readFileSync(file, "utf8")).toBe("two");
    expect(readdirSync(join(dir, "sub"))).toEqual(["out.txt"]);
  });
});
