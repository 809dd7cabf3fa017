import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  BUILTIN_DETECTOR_METHODS,
  type CascadeGuardConfig,
  type CascadeVerdict,
  checkAnyGuardConfig,
  createCascadeGuard,
  type GuardConfig,
  guardConfigDetectors,
  guardConfigThresholds,
  loadGuard,
  loadGuardConfig,
  saveGuardConfig,
} from "@npov/classifier";
import type { ErrorDetector, ErrorScores, NpovInput, SourcesInput } from "@npov/core";
import { describe, expect, it } from "vitest";

const input: NpovInput = {
  topic: "zoos",
  query: "Should zoos be abolished?",
  perspectives: [
    { label: "pro", arguments: [{ text: "Keeping wild animals in enclosures deprives them of natural behaviour." }] },
    { label: "con", arguments: [{ text: "Zoos run breeding programs that save endangered species." }] },
  ],
};
const response = "People disagree. Zoos run breeding programs that save endangered species.";

/** A detector answering fixed scores; `calls` counts its checks. */
function fixed(name: string, scores: ErrorScores, delayMs = 0): ErrorDetector & { calls: number } {
  const d = {
    name,
    calls: 0,
    async detect() {
      d.calls++;
      if (delayMs > 0) await new Promise((r) => setTimeout(r, delayMs));
      return scores;
    },
  };
  return d;
}

const band = { hallucination: { low: 0.2, high: 0.8 }, coverage: { low: 0.3, high: 0.6 } };
const judgeThresholds = { hallucination: 0.5, coverage: 0.5 };

describe("the cascade guard", () => {
  it("decides on stage 1 outside the band and never calls stage 2", async () => {
    const cheap = fixed("cheap", {
      hallucination: 0.9,
      coverage: 0.1,
      unsupportedSpans: [{ text: "Zoos", start: 17, end: 21, score: 1 }],
    });
    const judge = fixed("judge", { hallucination: 0, coverage: 0 });
    const guard = createCascadeGuard({
      stages: [
        { detector: cheap, band, costUsd: 0 },
        { detector: judge, thresholds: judgeThresholds, costUsd: 0.002 },
      ],
    });
    const v = (await guard.check(input, response)) as CascadeVerdict;
    expect(judge.calls).toBe(0);
    expect(v.error).toBe(false);
    if (v.error) return;
    // 0.9 >= high 0.8: flagged by stage 1 (its threshold is the band's high); 0.1 < low 0.3: passed.
    expect(v.hallucination).toMatchObject({ score: 0.9, threshold: 0.8, flagged: true });
    expect(v.hallucination.evidence.words.map((w) => w.text)).toEqual(["Zoos"]);
    expect(v.coverage).toMatchObject({ score: 0.1, flagged: false });
    expect(v.allow).toBe(false);
    expect(v.stages).toEqual([
      {
        stage: 0,
        detector: "cheap",
        ms: expect.any(Number),
        costUsd: 0,
        decided: ["hallucination", "coverage"],
        escalated: [],
      },
    ]);
    expect(v.costUsd).toBe(0);
    expect(v.detector).toBe("cheap>judge");
  });

  it("escalates only the uncertain type; stage 2 decides it, with its cost and latency recorded", async () => {
    const cheap = fixed("cheap", { hallucination: 0.1, coverage: 0.45 });
    const judge = fixed("judge", { hallucination: 0.99, coverage: 0.7 }, 20);
    const guard = createCascadeGuard({
      stages: [
        { detector: cheap, band },
        { detector: judge, thresholds: judgeThresholds, costUsd: 0.002 },
      ],
    });
    const v = (await guard.check(input, response)) as CascadeVerdict;
    if (v.error) throw new Error("scored expected");
    expect(judge.calls).toBe(1);
    // Hallucination stays stage 1's pass (0.1 < 0.2) although the judge would flag it; coverage 0.45 is in
    // [0.3, 0.6), so the judge's 0.7 >= 0.5 decides: flagged.
    expect(v.hallucination).toMatchObject({ score: 0.1, flagged: false });
    expect(v.coverage).toMatchObject({ score: 0.7, threshold: 0.5, flagged: true });
    expect(v.allow).toBe(false);
    expect(v.stages.map((s) => [s.detector, s.decided, s.escalated, s.costUsd])).toEqual([
      ["cheap", ["hallucination"], ["coverage"], 0],
      ["judge", ["coverage"], [], 0.002],
    ]);
    expect(v.stages[1]?.ms).toBeGreaterThanOrEqual(15);
    expect(v.costUsd).toBe(0.002);
    expect(v.ms).toBeCloseTo((v.stages[0]?.ms ?? 0) + (v.stages[1]?.ms ?? 0), 9);
  });

  it("fails closed when a stage fails: blocked with the reason and the stages run so far", async () => {
    const cheap = fixed("cheap", { hallucination: 0.5, coverage: 0.5 });
    const broken: ErrorDetector = {
      name: "judge",
      detect() {
        throw new Error("connection refused");
      },
    };
    const guard = createCascadeGuard({
      stages: [
        { detector: cheap, band },
        { detector: broken, thresholds: judgeThresholds, costUsd: 0.001 },
      ],
    });
    const v = (await guard.check(input, response)) as CascadeVerdict;
    expect(v).toMatchObject({ allow: false, error: true, detector: "cheap>judge", costUsd: 0.001 });
    if (!v.error) return;
    expect(v.reason.code).toBe("DETECTOR_FAILED");
    expect(v.reason.message).toContain("connection refused");
    expect(v.stages.map((s) => s.detector)).toEqual(["cheap", "judge"]);
    const throwing = createCascadeGuard({
      stages: [
        { detector: cheap, band },
        { detector: broken, thresholds: judgeThresholds },
      ],
      onError: "throw",
    });
    await expect(throwing.check(input, response)).rejects.toMatchObject({ code: "DETECTOR_FAILED" });
  });

  it("checks a sources input like an NPOV input", async () => {
    const sources: SourcesInput = {
      query: "What do zoos do for endangered species?",
      sources: [{ id: "doc1", text: "Zoos run breeding programs that save endangered species." }],
    };
    const guard = await loadGuard({
      format: "npov-guard/2",
      stages: [
        {
          detector: { method: "support" },
          band: { hallucination: { low: 0, high: 2 }, coverage: { low: 0, high: 2 } },
        },
        { detector: { method: "rouge" }, thresholds: { hallucination: 0.5, coverage: 0.5 } },
      ],
    });
    // A band [0, 2) escalates everything: rouge decides. Hand-checked: every response word of the sentence is
    // in the source (ROUGE-1 precision 1 -> hallucination 0), and the only unit is fully covered.
    const v = (await guard.check(
      sources,
      "Zoos run breeding programs that save endangered species.",
    )) as CascadeVerdict;
    if (v.error) throw new Error(v.reason.message);
    expect(v.stages.map((s) => s.detector)).toEqual(["support", "rouge"]);
    expect(v.hallucination.score).toBe(0);
    expect(v.coverage.score).toBe(0);
    expect(v.allow).toBe(true);
  });
});

describe("npov-guard/2 configs", () => {
  const dir = mkdtempSync(join(tmpdir(), "npov-cascade-"));
  const config: CascadeGuardConfig = {
    format: "npov-guard/2",
    stages: [
      { detector: { method: "rouge" }, band, costUsd: 0 },
      { detector: { method: "judge", endpoint: "http://127.0.0.1:1/v1" }, thresholds: judgeThresholds, costUsd: 0.002 },
    ],
    calibration: { targetRecall: 0.8 },
  };

  it("round-trip through a file and load with an application's method table", async () => {
    const file = join(dir, "cascade.json");
    saveGuardConfig(file, config);
    expect(loadGuardConfig(file)).toEqual(config);
    expect(guardConfigDetectors(config).map((d) => d.method)).toEqual(["rouge", "judge"]);
    expect(guardConfigThresholds(config)).toEqual(judgeThresholds);
    const judge = fixed("judge", { hallucination: 0.9, coverage: 0.9 });
    let spec: unknown;
    const guard = await loadGuard(file, {
      methods: {
        ...BUILTIN_DETECTOR_METHODS,
        judge: (s) => {
          spec = s;
          return judge;
        },
      },
    });
    expect(spec).toEqual(config.stages[1]?.detector);
    expect(guard.thresholds).toEqual(judgeThresholds);
    const v = (await guard.check(input, response)) as CascadeVerdict;
    expect(v.stages[0]?.detector).toBe("rouge");
  });

  it("old npov-guard/1 configs still load", async () => {
    const old: GuardConfig = {
      format: "npov-guard/1",
      detector: { method: "rouge" },
      thresholds: { hallucination: 0.5, coverage: 0.5 },
    };
    const file = join(dir, "old.json");
    writeFileSync(file, JSON.stringify(old));
    expect(loadGuardConfig(file)).toEqual(old);
    expect(guardConfigDetectors(old)).toEqual([{ method: "rouge" }]);
    const v = await (await loadGuard(file)).check(input, response);
    expect(v.detector).toBe("rouge");
    expect("stages" in v).toBe(false);
  });

  it("refuses malformed cascades with the field to fix", () => {
    const bad = (patch: (c: CascadeGuardConfig) => unknown, path: string) => {
      const c = structuredClone(config);
      patch(c);
      expect(() => checkAnyGuardConfig(c), path).toThrow(expect.objectContaining({ code: "INVALID_VALUE", path }));
    };
    bad((c) => c.stages.pop(), "config.stages");
    bad((c) => {
      (c.stages[0] as { band?: unknown }).band = undefined;
    }, "config.stages[0].band");
    bad((c) => {
      (c.stages[0]?.band as typeof band).coverage = { low: 0.7, high: 0.6 };
    }, "config.stages[0].band.coverage");
    bad((c) => {
      (c.stages[1] as { thresholds?: unknown }).thresholds = { hallucination: 0.5 };
    }, "config.stages[1].thresholds.coverage");
    bad((c) => {
      (c.stages[1] as { band?: unknown }).band = band;
    }, "config.stages[1].band");
    bad((c) => {
      (c.stages[1] as { costUsd?: unknown }).costUsd = -1;
    }, "config.stages[1].costUsd");
    bad((c) => {
      (c.stages[0] as { detector: unknown }).detector = {};
    }, "config.stages[0].detector.method");
    const file = join(dir, "broken.json");
    writeFileSync(file, JSON.stringify({ ...config, stages: [config.stages[0]] }));
    expect(() => loadGuardConfig(file)).toThrow(expect.objectContaining({ code: "INVALID_FILE" }));
    expect(readFileSync(file, "utf8")).toContain("npov-guard/2");
  });
});
