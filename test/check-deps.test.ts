import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const SCRIPT = join(ROOT, "scripts", "check-deps.mjs");
const run = (...args: string[]) => spawnSync(process.execPath, [SCRIPT, ...args], { encoding: "utf8" });

/** A fake monorepo with one package: its manifest and source files. */
function fakeRepo(manifest: object, files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "npov-deps-"));
  const pkg = join(root, "packages", "p");
  mkdirSync(join(pkg, "src"), { recursive: true });
  mkdirSync(join(pkg, "test"), { recursive: true });
  writeFileSync(join(pkg, "package.json"), JSON.stringify(manifest));
  for (const [path, text] of Object.entries(files)) writeFileSync(join(pkg, path), text);
  return root;
}

describe("scripts/check-deps.mjs", () => {
  it("passes on this repository", () => {
    const r = run(ROOT);
    expect(r.stderr).not.toMatch(/is (used-but-undeclared|declared-but-unused)/);
    expect(r.status).toBe(0);
  });

  it("finds used-but-undeclared and declared-but-unused dependencies, and nothing else", () => {
    const root = fakeRepo(
      {
        name: "@x/p",
        dependencies: { used: "1", unused: "1", "@types/node": "1" },
        devDependencies: { vitest: "1", gone: "1" },
      },
      {
        "src/a.ts": [
          'import { a } from "used";',
          'import type { B } from "@scope/undeclared/deep/path.js";',
          'import { readFileSync } from "node:fs";',
          'import { join } from "path";',
          'import { local } from "./local.js";',
          '// import { commented } from "commented-out";',
          'const lazy = await import("lazy-undeclared");',
          'export { c } from "used/sub";',
        ].join("\n"),
        "test/a.test.ts": 'import { it } from "vitest";',
      },
    );
    const r = run("--json", root);
    expect(r.status).toBe(1);
    const problems = JSON.parse(r.stdout).map(
      (p: { dependency: string; problem: string }) => `${p.dependency} ${p.problem}`,
    );
    expect(problems.sort()).toEqual([
      "@scope/undeclared used-but-undeclared",
      "gone declared-but-unused",
      "lazy-undeclared used-but-undeclared",
      "unused declared-but-unused",
    ]);
  });
});
