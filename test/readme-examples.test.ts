/**
 * Every code block of README.md and the package READMEs runs as written: shell blocks line by line (from a
 * scratch copy of the repository root, so files the examples write land there), TypeScript blocks with tsx
 * from a folder where every @npov/* package resolves, JSON blocks parse (and examples validate). A block
 * preceded by `<!-- not-run: reason -->` is skipped; the reason is required. CLI lines use the built
 * binary (`pnpm test` builds first).
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { validateExample } from "@npov/core";
import { describe, expect, it } from "vitest";
import { type ProcessResult, runProcess } from "./process.js";

const REPO = fileURLToPath(new URL("..", import.meta.url));

/** A fenced code block of a Markdown file. */
interface CodeBlock {
  file: string;
  line: number;
  lang: string;
  code: string;
  /** Why the block is not run, from a `<!-- not-run: reason -->` comment right before it. */
  notRun?: string;
}

/** The fenced code blocks of a Markdown text, with their not-run markers. */
function codeBlocks(markdown: string, file: string): CodeBlock[] {
  const lines = markdown.split("\n");
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w*)\s*$/.exec(lines[i] as string);
    if (open === null) continue;
    const start = i;
    let end = i + 1;
    while (end < lines.length && !/^```\s*$/.test(lines[end] as string)) end++;
    let k = start - 1;
    while (k >= 0 && (lines[k] as string).trim() === "") k--;
    const marker = k >= 0 ? /^<!--\s*not-run:\s*(.+?)\s*-->$/.exec((lines[k] as string).trim()) : null;
    blocks.push({
      file,
      line: start + 1,
      lang: open[1] ?? "",
      code: lines.slice(start + 1, end).join("\n"),
      ...(marker === null ? {} : { notRun: marker[1] as string }),
    });
    i = end;
  }
  return blocks;
}

const readmes = [
  "README.md",
  ...readdirSync(join(REPO, "packages"))
    .map((p) => `packages/${p}/README.md`)
    .filter((f) => {
      try {
        readFileSync(join(REPO, f));
        return true;
      } catch {
        return false;
      }
    }),
];
const blocks = readmes.flatMap((f) => codeBlocks(readFileSync(join(REPO, f), "utf8"), f));

/**
 * A scratch "repository root": symlinks to the real package.json, packages, node_modules, fixtures, models
 * and examples, plus `../shared`, so examples run as written and write their files here, not into the repo.
 */
function scratchRoot(): string {
  const top = mkdtempSync(join(tmpdir(), "npov-readme-"));
  const root = join(top, "repo");
  mkdirSync(root);
  for (const name of ["package.json", "packages", "node_modules", "fixtures", "models", "examples"])
    symlinkSync(join(REPO, name), join(root, name));
  symlinkSync(join(REPO, "..", "shared"), join(top, "shared"));
  return root;
}

/**
 * A folder where every @npov/* package resolves (the root package.json lists them all, as a user's project
 * would), beside `../shared`, so TypeScript examples run as written from the repository root.
 */
function tsFolder(): string {
  const top = mkdtempSync(join(tmpdir(), "npov-readme-ts-"));
  const dir = join(top, "repo");
  mkdirSync(dir);
  symlinkSync(join(REPO, "node_modules"), join(dir, "node_modules"));
  for (const name of ["fixtures", "models"]) symlinkSync(join(REPO, name), join(dir, name));
  symlinkSync(join(REPO, "..", "shared"), join(top, "shared"));
  return dir;
}

const where = (b: CodeBlock) => `${b.file}:${b.line}`;

/** Run a command to completion (test/process.ts) as a user's shell would, without colours. */
function run(command: string, args: string[], options: { cwd: string; timeout: number }): Promise<ProcessResult> {
  return runProcess(command, args, { ...options, env: { ...process.env, NO_COLOR: "1" } });
}

describe("README code blocks", () => {
  it("are found, and every skipped block says why", () => {
    expect(blocks.filter((b) => b.file === "README.md" && b.lang === "sh").length).toBeGreaterThanOrEqual(2);
    expect(blocks.some((b) => b.file === "README.md" && b.lang === "ts")).toBe(true);
    for (const b of blocks) expect(["sh", "ts", "json"], `${where(b)} has language "${b.lang}"`).toContain(b.lang);
    const skipped = blocks.filter((b) => b.notRun !== undefined);
    for (const b of skipped) expect(b.notRun?.length, where(b)).toBeGreaterThan(10);
    // Few: the install line, long-running commands and model-specific sketches.
    expect(skipped.length).toBeLessThanOrEqual(3);
  });

  it("finds a block's not-run marker only right before it", () => {
    const md = ["<!-- not-run: trains for 30 minutes -->", "", "```sh", "a", "```", "text", "```ts", "b", "```"];
    const found = codeBlocks(md.join("\n"), "x.md");
    expect(found.map((b) => [b.line, b.lang, b.code, b.notRun])).toEqual([
      [3, "sh", "a", "trains for 30 minutes"],
      [7, "ts", "b", undefined],
    ]);
  });

  // Shell blocks share one scratch root, in order (later lines use files earlier ones write).
  const root = scratchRoot();
  for (const block of blocks.filter((b) => b.lang === "sh" && b.notRun === undefined))
    it(`${where(block)}: every shell line exits 0`, async () => {
      const lines = block.code.split("\n").filter((l) => l.trim() !== "" && !l.trim().startsWith("#"));
      for (const [k, line] of lines.entries()) {
        const r = await run("bash", ["-o", "pipefail", "-c", line], { cwd: root, timeout: 120_000 });
        const label = `${block.file}:${block.line + 1 + k} ${line}\n${r.stderr}`;
        expect(r.status, label).toBe(0);
        expect(r.stderr, label).not.toMatch(/\n\s+at .+:\d+:\d+\)?\n|EPIPE|ERR_MODULE_NOT_FOUND/);
      }
    }, 170_000);

  const tsDir = tsFolder();
  for (const [n, block] of blocks.filter((b) => b.lang === "ts" && b.notRun === undefined).entries())
    it(`${where(block)}: runs with tsx`, async () => {
      const file = join(tsDir, `block-${n}.mts`);
      writeFileSync(file, block.code);
      const r = await run(join(REPO, "node_modules", ".bin", "tsx"), [file], { cwd: tsDir, timeout: 150_000 });
      expect(r.status, `${where(block)}\n${r.stderr}`).toBe(0);
    }, 160_000);

  for (const block of blocks.filter((b) => b.lang === "json" && b.notRun === undefined))
    it(`${where(block)}: parses${block.code.includes('"response"') ? " and is a valid example" : ""}`, () => {
      const value = JSON.parse(block.code);
      if ("response" in value) expect(() => validateExample(value)).not.toThrow();
    });
});
