import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Tests import the packages from source, so a test run never sees stale build output; CLI tests run
// the built binary (`pnpm test` builds first).
const pkg = (name: string) => fileURLToPath(new URL(`./packages/${name}/src/index.ts`, import.meta.url));

export default defineConfig({
  resolve: {
    alias: Object.fromEntries(
      [
        "core",
        "autograd",
        "nli",
        "rouge",
        "salience",
        "classifier",
        "synth",
        "eval",
        "train",
        "llm",
        "generate",
        "queue",
        "annotate",
        "cli",
        "ai-sdk",
        "promptfoo",
      ].map((n) => [`@npov/${n}`, pkg(n)]),
    ),
  },
  test: {
    include: ["packages/*/test/**/*.test.ts", "test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    setupFiles: ["./scripts/fast-check-seed.ts"],
    reporters: ["default", "./scripts/plain-summary-reporter.ts"],
  },
});
