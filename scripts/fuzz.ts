/**
 * The long fuzz run for people (`pnpm fuzz`): the properties of test/fuzz.test.ts with many more runs.
 * Seeded: the default seed is fixed, so a run is reproducible; a failure prints the seed and the path
 * that reproduce it (fast-check shrinks it to a small counterexample first).
 *
 *   pnpm fuzz                        # 13 x the CI counts: ~2,000 inputs, 780 texts, 1,560 data-file and 260 model-file corruptions
 *   pnpm fuzz --runs 10              # scale every count (10 x the CI counts)
 *   pnpm fuzz --seed 7               # another seed (FC_SEED works too)
 *   pnpm fuzz --only model           # input | text | data | model
 */
import { rmSync } from "node:fs";
import fc from "fast-check";
import {
  dataFileProperty,
  dataFiles,
  inputSchemaProperty,
  modelFileProperty,
  responseTextProperty,
  scratchDir,
  uniformsExample,
} from "../test/fuzz/properties.js";

function option(name: string): string | undefined {
  const k = process.argv.indexOf(name);
  return k < 0 ? undefined : process.argv[k + 1];
}

const seed = Number(option("--seed") ?? process.env.FC_SEED ?? 20_261_121);
const scale = Number(option("--runs") ?? 13);
const only = option("--only");
if (!Number.isInteger(seed)) throw new Error("--seed must be an integer");
if (!(scale > 0)) throw new Error("--runs must be a positive number");

const scratch = scratchDir();
const example = uniformsExample();
const suites: Array<[string, () => fc.IAsyncPropertyWithHooks<never>, number]> = [
  ["input", () => inputSchemaProperty() as never, 150],
  ["text", () => responseTextProperty() as never, 60],
  ["data", () => dataFileProperty(scratch, dataFiles(example)) as never, 120],
  ["model", () => modelFileProperty(scratch) as never, 20],
];

let failed = 0;
try {
  for (const [name, property, ciRuns] of suites) {
    if (only !== undefined && only !== name) continue;
    const numRuns = Math.round(ciRuns * scale);
    const start = performance.now();
    const result = await fc.check(property(), { numRuns, seed });
    const seconds = ((performance.now() - start) / 1000).toFixed(1);
    if (result.failed) {
      failed++;
      process.stderr.write(`fuzz ${name}: FAILED after ${result.numRuns} runs (${seconds} s)\n`);
      process.stderr.write(`${fc.defaultReportMessage(result)}\n`);
    } else process.stderr.write(`fuzz ${name}: ${numRuns} runs passed (${seconds} s, seed ${seed})\n`);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
process.exitCode = failed === 0 ? 0 : 1;
