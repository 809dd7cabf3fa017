// A vitest reporter that ends the run with one plain line, "N passed, N failed" (", N skipped" when
// any), which CI systems read without understanding vitest's own summary.
import type { Reporter } from "vitest/reporters";

type Task = { type: string; mode?: string; result?: { state?: string }; tasks?: Task[] };

function count(tasks: readonly Task[], totals: { passed: number; failed: number; skipped: number }): void {
  for (const t of tasks) {
    if (t.type === "test") {
      const state = t.result?.state;
      if (state === "pass") totals.passed++;
      else if (state === "fail") totals.failed++;
      else totals.skipped++;
    }
    if (t.tasks) count(t.tasks, totals);
  }
}

export default class PlainSummaryReporter implements Reporter {
  onFinished(files: readonly Task[] = [], errors: readonly unknown[] = []): void {
    const totals = { passed: 0, failed: 0, skipped: 0 };
    count(files, totals);
    // Unhandled errors fail the run even when every test passed.
    const failed = totals.failed + errors.length;
    process.stdout.write(
      `\n${totals.passed} passed, ${failed} failed${totals.skipped > 0 ? `, ${totals.skipped} skipped` : ""}\n`,
    );
  }
}
