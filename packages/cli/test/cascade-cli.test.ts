import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runProcess } from "../../../test/process.js";
import { REPO } from "./helpers.js";

const BIN = fileURLToPath(new URL("../dist/bin.js", import.meta.url));

/** Run the built `npov` binary without blocking the test worker (a calibration takes many seconds). */
async function npov(...args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  const r = await runProcess(process.execPath, [BIN, ...args], { cwd: REPO, timeout: 120_000 });
  return { ...r, status: r.status ?? -1 };
}

const tmp = mkdtempSync(join(tmpdir(), "npov-cli-cascade-"));

describe("npov calibrate-guard --cascade", () => {
  it("prints the trade-off table, writes a npov-guard/2 config, and npov guard runs it", async () => {
    const dev = join(tmp, "dev.jsonl");
    expect((await npov("synth", "--split", "dev", "--per-topic", "1", "--seed", "1", "--out", dev)).status).toBe(0);
    const config = join(tmp, "cascade.json");
    const r = await npov(
      "calibrate-guard",
      "--data",
      dev,
      "--heldout",
      dev,
      "--cascade",
      "rouge,support",
      "--stage-costs",
      "0,0.001",
      "--target-recall",
      "0.7",
      "--target-fpr",
      "0.3",
      "--out",
      config,
    );
    expect(r.status, r.stderr).toBe(0);
    const lines = r.stdout.split("\n");
    const rows = lines.filter((l) => l.startsWith("| stage") || l.startsWith("| cascade"));
    // Stage 1 only, stage 2 only, six recall levels (0.7 among them); the table twice (dev and held-out).
    expect(rows).toHaveLength(2 * 8);
    const saved = JSON.parse(readFileSync(config, "utf8"));
    expect(saved.format).toBe("npov-guard/2");
    expect(saved.stages.map((s: { detector: { method: string } }) => s.detector)).toEqual([
      { method: "rouge" },
      { method: "support" },
    ]);
    expect(saved.stages.map((s: { costUsd: number }) => s.costUsd)).toEqual([0, 0.001]);
    for (const t of ["hallucination", "coverage"]) {
      const band = saved.stages[0].band[t];
      expect(band.low).toBeLessThanOrEqual(band.high);
      expect(typeof saved.stages[1].thresholds[t]).toBe("number");
    }
    // Cost per 1,000 checks = 1000 x (0 + share escalated x 0.001) = the share escalated.
    expect(saved.calibration.costPer1000).toBeCloseTo(saved.calibration.escalated, 12);
    // The chosen row of the held-out table is the calibration data's own (same file).
    expect(saved.calibration.heldout.escalated).toBe(saved.calibration.escalated);
    const chosenRow = lines.find((l) => l.startsWith("| cascade, recall >= 0.7 "));
    expect(chosenRow).toContain(`${(100 * saved.calibration.escalated).toFixed(1)}%`);
    expect(r.stdout).toContain(`cascade guard config written to ${config}`);

    const example = join(tmp, "ex.json");
    writeFileSync(
      example,
      JSON.stringify({
        input: {
          topic: "zoos",
          query: "Should zoos be abolished?",
          perspectives: [
            { label: "pro", arguments: ["Keeping wild animals in enclosures deprives them of natural behaviour."] },
            { label: "con", arguments: ["Zoos run breeding programs that save endangered species from extinction."] },
          ],
        },
        response: "People disagree. Some say keeping wild animals in enclosures deprives them of natural behaviour.",
      }),
    );
    const v = await npov("guard", "--config", config, "--input", example);
    expect(v.status, v.stderr).toBe(0);
    const verdict = JSON.parse(v.stdout);
    expect(verdict.detector).toBe("rouge>support");
    expect(verdict.stages[0].detector).toBe("rouge");
    expect(verdict.stages[0].decided.length + verdict.stages[0].escalated.length).toBe(2);
  });

  it("refuses a cascade that is not two methods, and bad stage costs, with exit code 2", async () => {
    const dev = join(tmp, "none.jsonl");
    const one = await npov("calibrate-guard", "--data", dev, "--cascade", "support", "--out", join(tmp, "x.json"));
    expect(one.status).toBe(2);
    expect(one.stderr).toContain("--cascade takes two methods");
    const costs = await npov(
      "calibrate-guard",
      "--data",
      dev,
      "--cascade",
      "rouge,support",
      "--stage-costs",
      "0,-1",
      "--out",
      join(tmp, "x.json"),
    );
    expect(costs.status).toBe(2);
    expect(costs.stderr).toContain("--stage-costs must be two numbers >= 0");
  });
});
