// The example suite examples/promptfoo, run by the real promptfoo CLI (offline: a fixture provider replays
// recorded answers; telemetry and update checks off; promptfoo's state in a temporary folder). promptfoo
// loads @npov/promptfoo from its build, as an application would (`pnpm test` builds first).
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { type ProcessResult, runProcess } from "../../../test/process.js";

const REPO = fileURLToPath(new URL("../../../", import.meta.url));

function run(args: string[], env: Record<string, string>): Promise<ProcessResult> {
  return runProcess(join(REPO, "node_modules/.bin/promptfoo"), args, {
    cwd: REPO,
    env: { ...process.env, ...env },
    timeout: 120_000,
  });
}

interface PromptfooResult {
  success: boolean;
  vars: { question: string };
  gradingResult: { pass: boolean; componentResults: Array<{ pass: boolean; reason: string }> };
  namedScores: Record<string, number>;
}

describe("examples/promptfoo", () => {
  it("promptfoo eval runs the npov assertion: two answers pass, the invented study fails with its sentence", async () => {
    const dir = mkdtempSync(join(tmpdir(), "npov-promptfoo-eval-"));
    const out = join(dir, "results.json");
    const r = await run(
      ["eval", "-c", "examples/promptfoo/promptfooconfig.yaml", "--no-cache", "--no-write", "--no-table", "-o", out],
      {
        PROMPTFOO_DISABLE_TELEMETRY: "1",
        PROMPTFOO_DISABLE_UPDATE: "1",
        PROMPTFOO_CONFIG_DIR: join(dir, "promptfoo"),
        NO_COLOR: "1",
      },
    );
    // promptfoo's exit code when a test fails (100, unless PROMPTFOO_FAILED_TEST_EXIT_CODE says otherwise).
    expect(r.status, r.stderr).toBe(100);
    const results = (JSON.parse(readFileSync(out, "utf8")) as { results: { results: PromptfooResult[] } }).results
      .results;
    const byQuestion = Object.fromEntries(results.map((x) => [x.vars.question, x]));
    expect(Object.keys(byQuestion).sort()).toEqual([
      "Do zoos help animals?",
      "Should zoos be abolished?",
      "What do zoos do for endangered species?",
    ]);
    expect(byQuestion["Should zoos be abolished?"]?.success).toBe(true);
    expect(byQuestion["What do zoos do for endangered species?"]?.success).toBe(true);
    const failed = byQuestion["Do zoos help animals?"] as PromptfooResult;
    expect(failed.success).toBe(false);
    expect(failed.gradingResult.componentResults[0]?.reason).toContain(
      'unsupported: "A 2019 Oxford study found that most zoo visitors forget the animals within a week."',
    );
    // The error scores reach promptfoo's named scores (its per-prompt summary averages them).
    expect(failed.namedScores["npov hallucination"]).toBeGreaterThan(0.6);
    expect(byQuestion["Should zoos be abolished?"]?.namedScores["npov hallucination"]).toBeLessThan(0.6);
  }, 150_000);
});
