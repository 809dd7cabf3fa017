#!/usr/bin/env node
// Check that each workspace package declares exactly the packages its source imports: fails (exit 1) on
// a package imported by src/ but missing from "dependencies" (used-but-undeclared), on a "dependencies"
// entry no src/ file imports (declared-but-unused), and on a "devDependencies" entry neither src/ nor
// test/ imports. Usage: node scripts/check-deps.mjs [--json] [repo root, default: this script's repo].
import { readdirSync, readFileSync, statSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const args = process.argv.slice(2);
const json = args.includes("--json");
const root = resolve(args.find((a) => !a.startsWith("--")) ?? join(dirname(fileURLToPath(import.meta.url)), ".."));

// Declared packages that are used without an import statement: type packages, and native add-ons that
// another dependency loads at run time.
const IMPLICIT = [/^@types\//];

// Dependencies declared ahead of the code that will import them (work in progress elsewhere), with why.
// An entry whose dependency is imported by then is reported as stale so it gets removed.
// e.g. { "@npov/cli": { "@npov/llm": "endpoint detectors register in packages/cli/src/detectors.ts" } }
const AHEAD = {};

/** Every .ts/.mts/.js/.mjs file under `dir` (no dist, no node_modules). */
function sourceFiles(dir) {
  let entries;
  try {
    entries = readdirSync(dir);
  } catch {
    return [];
  }
  return entries.flatMap((name) => {
    if (name === "node_modules" || name === "dist") return [];
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(m?ts|m?js)$/.test(name) && !name.endsWith(".d.ts") ? [path] : [];
  });
}

const SPECIFIER =
  /(?:^|[\s;}])(?:import|export)\s[^'"]*?from\s*["']([^"']+)["']|(?:^|[\s;}])import\s*["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)|\brequire\(\s*["']([^"']+)["']\s*\)/g;

/** The package names a file imports (bare specifiers only; "a/b/c" -> "a", "@s/a/b" -> "@s/a"). */
export function importedPackages(text) {
  const names = new Set();
  // Strip comments so examples in doc comments do not count.
  const code = text.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1");
  for (const m of code.matchAll(SPECIFIER)) {
    const spec = m[1] ?? m[2] ?? m[3] ?? m[4];
    if (spec === undefined || spec.startsWith(".") || spec.startsWith("/") || spec.startsWith("node:")) continue;
    const parts = spec.split("/");
    const name = spec.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] ?? spec);
    if (builtinModules.includes(name)) continue;
    names.add(name);
  }
  return names;
}

const problems = [];
const packagesDir = join(root, "packages");
for (const dir of readdirSync(packagesDir).sort()) {
  const manifestPath = join(packagesDir, dir, "package.json");
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(manifestPath, "utf8"));
  } catch {
    continue;
  }
  const name = manifest.name ?? dir;
  const deps = new Set([...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.peerDependencies ?? {})]);
  const devDeps = new Set(Object.keys(manifest.devDependencies ?? {}));
  const used = (folder) => {
    const all = new Map();
    for (const file of sourceFiles(join(packagesDir, dir, folder)))
      for (const pkg of importedPackages(readFileSync(file, "utf8")))
        if (!all.has(pkg)) all.set(pkg, file.slice(root.length + 1));
    return all;
  };
  const src = used("src");
  const test = used("test");
  for (const [pkg, file] of src)
    if (!deps.has(pkg) && pkg !== name)
      problems.push({ package: name, dependency: pkg, problem: "used-but-undeclared", where: file });
  const ahead = AHEAD[name] ?? {};
  for (const pkg of Object.keys(ahead))
    if (src.has(pkg))
      process.stderr.write(
        `check-deps: note: ${name} now imports ${pkg}; remove its AHEAD entry in scripts/check-deps.mjs\n`,
      );
  for (const pkg of deps)
    if (!src.has(pkg) && !IMPLICIT.some((re) => re.test(pkg)) && ahead[pkg] === undefined)
      problems.push({ package: name, dependency: pkg, problem: "declared-but-unused", where: "dependencies" });
  for (const pkg of devDeps)
    if (!src.has(pkg) && !test.has(pkg) && !IMPLICIT.some((re) => re.test(pkg)))
      problems.push({ package: name, dependency: pkg, problem: "declared-but-unused", where: "devDependencies" });
}

if (json) process.stdout.write(`${JSON.stringify(problems, null, 2)}\n`);
else if (problems.length === 0) process.stdout.write("check-deps: every workspace package declares what it imports\n");
else
  for (const p of problems)
    process.stderr.write(`check-deps: ${p.package}: ${p.dependency} is ${p.problem} (${p.where})\n`);
process.exitCode = problems.length === 0 ? 0 : 1;
