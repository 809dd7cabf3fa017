// Runs the benchmarks named on the command line (default: all), each in its own Node process so one
// benchmark's garbage and JIT state cannot skew another. Usage: pnpm bench [rouge ...]
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const all = readdirSync(here)
  .filter((f) => f.endsWith(".bench.mjs"))
  .map((f) => f.replace(".bench.mjs", ""))
  .sort();
const wanted = process.argv.slice(2).length > 0 ? process.argv.slice(2) : all;
let failed = 0;
for (const name of wanted) {
  if (!all.includes(name)) {
    console.error(`unknown benchmark "${name}"; available: ${all.join(", ")}`);
    process.exit(2);
  }
  console.log(`\n=== bench/${name} ===`);
  const r = spawnSync(process.execPath, ["--expose-gc", join(here, `${name}.bench.mjs`)], { stdio: "inherit" });
  if (r.status !== 0) failed++;
}
process.exit(failed > 0 ? 1 : 0);
