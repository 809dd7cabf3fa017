/**
 * No import cycles between the source files of a package (relative imports, `import type` included): a
 * cycle makes the order modules initialize in depend on which one is imported first, and a file of the
 * cycle cannot be read or moved on its own.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const REPO = fileURLToPath(new URL("..", import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !name.endsWith(".d.ts") ? [path] : [];
  });
}

/** The files of this package a file imports (static, dynamic and re-exports), by their .ts paths. */
function relativeImports(file: string, text: string): string[] {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");
  const found: string[] = [];
  for (const m of code.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)["'](\.{1,2}\/[^"']+)["']/g)) {
    const target = resolve(dirname(file), m[1] as string);
    found.push(target.replace(/\.js$/, ".ts"));
  }
  return found;
}

/** Every cycle (as a list of files, first repeated at the end) in an import graph, each found once. */
function importCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (node: string) => {
    state.set(node, "open");
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (state.get(next) === "open") cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (state.get(next) === undefined) visit(next);
    }
    stack.pop();
    state.set(node, "done");
  };
  for (const node of [...graph.keys()].sort()) if (state.get(node) === undefined) visit(node);
  return cycles;
}

describe("import cycles", () => {
  it("the detector finds a cycle of two and one of three, and none in a chain", () => {
    const graph = new Map([
      ["a", ["b"]],
      ["b", ["a", "c"]],
      ["c", ["d"]],
      ["d", ["e"]],
      ["e", ["c"]],
      ["f", ["a"]],
    ]);
    expect(importCycles(graph)).toEqual([
      ["a", "b", "a"],
      ["c", "d", "e", "c"],
    ]);
    expect(
      importCycles(
        new Map([
          ["a", ["b"]],
          ["b", ["c"]],
          ["c", []],
        ]),
      ),
    ).toEqual([]);
  });

  it("type-only, re-exported and dynamic imports count", () => {
    const text = [
      'import type { A } from "./a.js";',
      'export { B } from "../b.js";',
      'const c = await import("./c.js");',
      '// import { D } from "./d.js";',
      'import { E } from "@npov/core";',
    ].join("\n");
    expect(relativeImports("/p/src/x/f.ts", text)).toEqual(["/p/src/x/a.ts", "/p/src/b.ts", "/p/src/x/c.ts"]);
  });

  const packages = readdirSync(join(REPO, "packages")).filter((p) => {
    try {
      return statSync(join(REPO, "packages", p, "src")).isDirectory();
    } catch {
      return false;
    }
  });
  it.each(packages)("packages/%s/src has none", (name) => {
    const src = join(REPO, "packages", name, "src");
    const graph = new Map(sourceFiles(src).map((f) => [f, relativeImports(f, readFileSync(f, "utf8"))]));
    const cycles = importCycles(graph).map((c) => c.map((f) => relative(src, f)).join(" -> "));
    expect(cycles).toEqual([]);
  });
});
