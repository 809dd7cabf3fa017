import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { npov } from "./helpers.js";

const tmp = mkdtempSync(join(tmpdir(), "npov-cli-guard-"));

describe("npov calibrate-guard and npov guard", () => {
  it("calibrates ROUGE thresholds on a dev set and checks examples with them", () => {
    const dev = join(tmp, "dev.jsonl");
    expect(npov("synth", "--split", "dev", "--slices", "unparaphrased-synthetic", "--out", dev).status).toBe(0);
    const config = join(tmp, "guard.json");
    const r = npov("calibrate-guard", "--data", dev, "--method", "rouge", "--target-fpr", "0.1", "--out", config);
    expect(r.status).toBe(0);
    const saved = JSON.parse(readFileSync(config, "utf8"));
    expect(saved.format).toBe("npov-guard/1");
    expect(saved.calibration.metrics.coverage.fpr).toBeLessThanOrEqual(0.1);

    // A response that drops the con side entirely.
    const example = join(tmp, "ex.json");
    writeFileSync(
      example,
      JSON.stringify({
        input: {
          topic: "zoos",
          query: "Should zoos be abolished?",
          perspectives: [
            {
              label: "pro",
              arguments: [{ text: "Keeping wild animals in enclosures deprives them of natural behaviour." }],
            },
            {
              label: "con",
              arguments: [{ text: "Zoos run breeding programs that save endangered species from extinction." }],
            },
          ],
        },
        response:
          "People disagree. Supporters argue that keeping wild animals in enclosures deprives them of natural behaviour.",
      }),
    );
    const verdict = npov("guard", "--config", config, "--input", example, "--exit-code");
    expect(verdict.status).toBe(3);
    const v = JSON.parse(verdict.stdout);
    expect(v.allow).toBe(false);
    expect(v.coverage.flagged).toBe(true);
    expect(v.coverage.evidence.uncoveredArguments[0].text).toContain("breeding programs");
  });

  it("refuses a malformed guard config with its field", () => {
    const bad = join(tmp, "bad.json");
    writeFileSync(
      bad,
      JSON.stringify({
        format: "npov-guard/1",
        detector: { method: "rouge" },
        thresholds: { hallucination: "x", coverage: 0.5 },
      }),
    );
    const r = npov("guard", "--config", bad, "--input", join(tmp, "ex.json"));
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("thresholds.hallucination");
  });
});
