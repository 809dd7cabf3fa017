/**
 * Outputs that cannot destroy inputs: refuseOutputOverInput names both flags for an output that is an
 * input by path, through a symbolic link or as a hard link, an existing file inside an input folder, or a
 * folder output holding an input; writeFolderAtomic leaves the old folder whole when the write fails and
 * keeps the files a run does not write when it succeeds.
 */
import {
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  FileWriteError,
  NpovError,
  OutputConflictError,
  OutputIsInputError,
  refuseOutputOverInput,
  writeFolderAtomic,
} from "@npov/core";
import { afterAll, describe, expect, it } from "vitest";

const root = mkdtempSync(join(tmpdir(), "npov-outputs-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let counter = 0;
function fresh(): string {
  const dir = join(root, `case-${counter++}`);
  mkdirSync(dir);
  return dir;
}

function refusal(call: () => void): NpovError {
  try {
    call();
  } catch (error) {
    expect(error).toBeInstanceOf(NpovError);
    return error as NpovError;
  }
  throw new Error("expected a refusal");
}

describe("refuseOutputOverInput", () => {
  it("refuses an output that is an input by path, by a relative spelling, by a symbolic link and as a hard link", () => {
    const dir = fresh();
    const data = join(dir, "d.jsonl");
    writeFileSync(data, "{}\n");
    symlinkSync(data, join(dir, "link.jsonl"));
    linkSync(data, join(dir, "hard.jsonl"));
    mkdirSync(join(dir, "sub"));
    for (const [out, words] of [
      [data, "is the same file as"],
      [join(dir, "sub", "..", "d.jsonl"), "is the same file as"],
      [join(dir, "link.jsonl"), "is the same file as"],
      [join(dir, "hard.jsonl"), "is a hard link to the same file as"],
    ] as const) {
      const error = refusal(() =>
        refuseOutputOverInput([{ flag: "--out", path: out }], [{ flag: "--data", path: data }]),
      );
      expect(error).toBeInstanceOf(OutputIsInputError);
      expect(error.code).toBe("OUTPUT_IS_INPUT");
      expect(error.message).toContain(`--out ${out} ${words} --data ${data}`);
      expect((error as OutputIsInputError).input).toBe("--data");
    }
    expect(readFileSync(data, "utf8")).toBe("{}\n");
  });

  it("refuses a new name under a folder link that leads to the input", () => {
    const dir = fresh();
    mkdirSync(join(dir, "real"));
    writeFileSync(join(dir, "real", "d.jsonl"), "{}\n");
    symlinkSync(join(dir, "real"), join(dir, "alias"));
    const error = refusal(() =>
      refuseOutputOverInput(
        [{ flag: "--out", path: join(dir, "alias", "d.jsonl") }],
        [{ flag: "--data", path: join(dir, "real", "d.jsonl") }],
      ),
    );
    expect(error.code).toBe("OUTPUT_IS_INPUT");
  });

  it("refuses an existing file inside an input folder, and a folder output that holds an input", () => {
    const dir = fresh();
    const model = join(dir, "model");
    mkdirSync(model);
    writeFileSync(join(model, "config.json"), "{}");
    expect(
      refusal(() =>
        refuseOutputOverInput(
          [{ flag: "--report", path: join(model, "config.json") }],
          [{ flag: "--model", path: model }],
        ),
      ).message,
    ).toContain("already exists inside --model");
    // A new file beside the model's files replaces nothing the command reads.
    refuseOutputOverInput([{ flag: "--report", path: join(model, "report.html") }], [{ flag: "--model", path: model }]);
    const dev = join(model, "dev.jsonl");
    writeFileSync(dev, "{}\n");
    expect(
      refusal(() =>
        refuseOutputOverInput([{ flag: "--out", path: model, folder: true }], [{ flag: "--dev", path: dev }]),
      ).message,
    ).toContain(`--out ${model} is the folder that holds --dev ${dev}`);
    // As a file output (not replaced as a whole) the same folder path is only refused when it is the input.
    refuseOutputOverInput([{ flag: "--out", path: join(dir, "other") }], [{ flag: "--dev", path: dev }]);
  });

  it("passes different files, options not given, and inputs that do not exist yet", () => {
    const dir = fresh();
    writeFileSync(join(dir, "a"), "a");
    refuseOutputOverInput(
      [
        { flag: "--out", path: join(dir, "b") },
        { flag: "--agreement", path: undefined },
      ],
      [
        { flag: "--data", path: join(dir, "a") },
        { flag: "--model", path: undefined },
        { flag: "--stacked", path: join(dir, "missing.json") },
      ],
    );
  });

  it("refuses two outputs that are the same file", () => {
    const dir = fresh();
    const error = refusal(() =>
      refuseOutputOverInput(
        [
          { flag: "--out", path: join(dir, "x.jsonl") },
          { flag: "--agreement", path: join(dir, ".", "x.jsonl") },
        ],
        [],
      ),
    );
    expect(error).toBeInstanceOf(OutputConflictError);
    expect(error.code).toBe("OUTPUT_CONFLICT");
    expect(error.message).toMatch(/--agreement .* is the same file as --out/);
  });
});

describe("writeFolderAtomic", () => {
  const listing = (dir: string) => readdirSync(dir).sort();

  it("leaves the old folder byte-identical and no staging folder when the write fails half way", () => {
    const dir = fresh();
    const model = join(dir, "model");
    mkdirSync(model);
    writeFileSync(join(model, "a.json"), "old a");
    writeFileSync(join(model, "b.json"), "old b");
    expect(() =>
      writeFolderAtomic(model, (staging) => {
        writeFileSync(join(staging, "a.json"), "new a");
        throw new Error("the run failed after writing a.json");
      }),
    ).toThrow("the run failed");
    expect(readFileSync(join(model, "a.json"), "utf8")).toBe("old a");
    expect(readFileSync(join(model, "b.json"), "utf8")).toBe("old b");
    expect(listing(dir)).toEqual(["model"]);
  });

  it("swaps the new files in, keeps files the run does not write, and returns the write's value", () => {
    const dir = fresh();
    const model = join(dir, "model");
    mkdirSync(join(model, "onnx"), { recursive: true });
    writeFileSync(join(model, "card.json"), "card");
    writeFileSync(join(model, "onnx", "model.onnx"), "old graph");
    const result = writeFolderAtomic(model, (staging) => {
      writeFileSync(join(staging, "onnx", "model.onnx"), "new graph");
      writeFileSync(join(staging, "config.json"), "{}");
      return 3;
    });
    expect(result).toBe(3);
    expect(readFileSync(join(model, "onnx", "model.onnx"), "utf8")).toBe("new graph");
    expect(readFileSync(join(model, "card.json"), "utf8")).toBe("card");
    expect(listing(model)).toEqual(["card.json", "config.json", "onnx"]);
    expect(listing(dir)).toEqual(["model"]);
  });

  it("creates a folder that does not exist (and its parents), and replaces the folder a link points to", () => {
    const dir = fresh();
    const target = join(dir, "new", "deep", "model");
    writeFolderAtomic(target, (staging) => writeFileSync(join(staging, "x"), "x"));
    expect(readFileSync(join(target, "x"), "utf8")).toBe("x");
    mkdirSync(join(dir, "real"));
    writeFileSync(join(dir, "real", "x"), "old");
    symlinkSync(join(dir, "real"), join(dir, "link"));
    writeFolderAtomic(join(dir, "link"), (staging) => writeFileSync(join(staging, "x"), "new"));
    expect(readFileSync(join(dir, "real", "x"), "utf8")).toBe("new");
    expect(existsSync(join(dir, "link", "x"))).toBe(true);
  });

  it("refuses a file where the folder should be, writing nothing", () => {
    const dir = fresh();
    writeFileSync(join(dir, "model"), "a file");
    let called = false;
    expect(() =>
      writeFolderAtomic(join(dir, "model"), () => {
        called = true;
      }),
    ).toThrow(FileWriteError);
    expect(called).toBe(false);
    expect(readFileSync(join(dir, "model"), "utf8")).toBe("a file");
  });
});
