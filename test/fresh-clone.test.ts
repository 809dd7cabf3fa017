/**
 * `pnpm exec npov` and `npx npov` on a fresh clone: the tracked files of this checkout (what a clone gets,
 * uncommitted edits included) copied to a scratch folder, `pnpm install --frozen-lockfile --offline` from the
 * machine's pnpm store, then the command. Before the build the linked bin says in one line how to build;
 * after it, `npov kb list --json` prints clean JSON.
 *
 * The build step copies this checkout's dist/ folders (`pnpm test` builds them first) instead of running
 * `tsc -b` again in the scratch folder: the compiler's output is the same, and what is under test -- the
 * bin link pnpm makes at install time, the committed entry file, and the module resolution from the clone --
 * is all real. (A full `pnpm build` there takes about 10 s more on an idle 2-core machine.)
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { copyFile, cp, mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runProcess } from "./process.js";

const REPO = fileURLToPath(new URL("..", import.meta.url));
const top = mkdtempSync(join(tmpdir(), "npov-fresh-clone-"));
const clone = join(top, "npov");

/**
 * Run a command in the clone without blocking the test worker (an install on a busy machine takes long
 * enough to stall vitest's RPC otherwise), as a user's shell would: not this checkout's node_modules/.bin
 * on PATH, nor the npm_* settings pnpm passes to the scripts it runs (vitest runs under pnpm; npx would
 * warn about pnpm's own settings).
 */
function run(command: string, args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
  env.PATH = (process.env.PATH ?? "")
    .split(":")
    .filter((p) => !p.includes("node_modules"))
    .join(":");
  return runProcess(command, args, { cwd: clone, env, timeout: 170_000 }).then((r) => ({
    ...r,
    status: r.status ?? -1,
  }));
}

let install: Awaited<ReturnType<typeof run>>;

beforeAll(async () => {
  const listed = spawnSync("git", ["ls-files", "-z"], { cwd: REPO, encoding: "utf8" });
  expect(listed.status, `git ls-files failed: ${listed.stderr}`).toBe(0);
  for (const file of listed.stdout.split("\0").filter((f) => f !== "")) {
    const from = join(REPO, file);
    if (!existsSync(from)) continue; // deleted in the working tree and not yet committed
    await mkdir(dirname(join(clone, file)), { recursive: true });
    await copyFile(from, join(clone, file));
  }
  install = await run("pnpm", ["install", "--frozen-lockfile", "--offline"]);
}, 180_000);

afterAll(() => {
  rmSync(top, { recursive: true, force: true });
});

describe("the npov bin on a fresh clone", () => {
  it("pnpm install links node_modules/.bin/npov without a build", () => {
    expect(install.status, install.stderr + install.stdout).toBe(0);
    expect(install.stdout + install.stderr).not.toContain("Failed to create bin");
    expect(existsSync(join(clone, "node_modules", ".bin", "npov"))).toBe(true);
  });

  it("before the build, `pnpm exec npov` says in one line how to build", async () => {
    const r = await run("pnpm", ["exec", "npov", "kb", "list", "--json"]);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(
      /^npov: the command line is not built yet \(.*dist\/bin\.js is missing\): run `pnpm build` in .*\. \[NOT_BUILT\]\n$/,
    );
    expect(r.status).toBe(2);
  });

  it("after the build, `pnpm exec npov` and `npx npov` print clean JSON", async () => {
    for (const name of readdirSync(join(REPO, "packages"))) {
      const dist = join(REPO, "packages", name, "dist");
      if (existsSync(dist)) await cp(dist, join(clone, "packages", name, "dist"), { recursive: true });
    }
    const kbIds = (stdout: string) => (JSON.parse(stdout) as Array<{ id: string }>).map((k) => k.id);
    const viaPnpm = await run("pnpm", ["exec", "npov", "kb", "list", "--json"]);
    expect([viaPnpm.status, viaPnpm.stderr]).toEqual([0, ""]);
    expect(kbIds(viaPnpm.stdout)).toContain("school-uniforms");
    const viaNpx = await run("npx", ["--no-install", "npov", "kb", "list", "--json"]);
    expect([viaNpx.status, viaNpx.stderr]).toEqual([0, ""]);
    expect(viaNpx.stdout).toBe(viaPnpm.stdout);
  });
});
