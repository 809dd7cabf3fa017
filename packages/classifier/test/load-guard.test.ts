import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  BUILTIN_DETECTOR_METHODS,
  createDetector,
  createGuard,
  type GuardConfig,
  loadGuard,
  saveGuardConfig,
} from "@npov/classifier";
import { type ErrorDetector, InvalidValueError, type NpovError, type NpovInput } from "@npov/core";
import { rougeErrorDetector } from "@npov/rouge";
import { describe, expect, it } from "vitest";

const input: NpovInput = {
  topic: "zoos",
  query: "Should zoos be abolished?",
  perspectives: [
    { label: "pro", arguments: [{ text: "Keeping wild animals in enclosures deprives them of natural behaviour." }] },
    { label: "con", arguments: [{ text: "Zoos run breeding programs that save endangered species." }] },
  ],
};
const dropsCon = "People disagree. Keeping wild animals in enclosures deprives them of natural behaviour.";
const dir = mkdtempSync(join(tmpdir(), "npov-load-guard-"));

describe("loadGuard and the detector method table", () => {
  it("builds the same guard from guard.json as createGuard from the detector object", async () => {
    const config: GuardConfig = {
      format: "npov-guard/1",
      detector: { method: "rouge" },
      thresholds: { hallucination: 0.5, coverage: 0.3 },
    };
    const file = join(dir, "guard.json");
    saveGuardConfig(file, config);
    const fromFile = await loadGuard(file);
    const direct = createGuard({ detector: rougeErrorDetector(), thresholds: config.thresholds });
    const verdict = await fromFile.check(input, dropsCon);
    expect(verdict).toEqual(await direct.check(input, dropsCon));
    // Hand-worked: no content word of the con argument (zoos, run, breeding, programs, save, endangered,
    // species) is in the response, so the con side's recall is 0 and coverage = 1 - min recall = 1.
    expect(verdict.coverage.score).toBe(1);
    expect(verdict.coverage.flagged).toBe(true);
    expect(verdict.allow).toBe(false);
    expect(verdict.detector).toBe("rouge");
  });

  it("every built-in data-free method implements ErrorDetector with word maps", async () => {
    for (const method of ["rouge", "soft", "align"]) {
      const detector = await createDetector({ method });
      expect(detector.name).toBe(method);
      const r = await detector.detect(input, dropsCon);
      expect(r.coverage).toBeGreaterThan(0.5);
      expect(r.hallucination).toBeGreaterThanOrEqual(0);
      if (method !== "align") {
        // Word maps cover the response words with offsets into the response.
        expect(r.words?.response.length).toBeGreaterThan(5);
        for (const w of r.words?.response ?? []) expect(dropsCon.slice(w.start, w.end)).toMatch(/^\p{L}/u);
      }
    }
    const rouge = await (await createDetector({ method: "rouge" })).detect(input, dropsCon);
    // ROUGE's argument-word map: the con argument's words are all uncovered (1), the pro argument's covered (0).
    const argWords = rouge.words?.arguments ?? [];
    expect(new Set(argWords.filter((w) => w.perspective === 1).map((w) => w.score))).toEqual(new Set([1]));
    expect(new Set(argWords.filter((w) => w.perspective === 0).map((w) => w.score))).toEqual(new Set([0]));
  });

  it("refuses an unknown method with a typed error listing the methods", async () => {
    const error = await createDetector({ method: "bleu" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidValueError);
    expect((error as NpovError).code).toBe("INVALID_VALUE");
    expect((error as Error).message).toContain(
      "rouge, soft, align, support, rouge1-precision, salience, classifier, nli, stacked",
    );
    const stacked = await createDetector({ method: "stacked" }).catch((e: unknown) => e);
    expect((stacked as Error).message).toContain("stacked model file");
  });

  it("loads a guard whose method comes from an application's own table", async () => {
    const constant: ErrorDetector = { name: "constant", detect: () => ({ hallucination: 0.7, coverage: 0.1 }) };
    const file = join(dir, "mine.json");
    writeFileSync(
      file,
      JSON.stringify({
        format: "npov-guard/1",
        detector: { method: "mine" },
        thresholds: { hallucination: 0.6, coverage: 0.2 },
      }),
    );
    await expect(loadGuard(file)).rejects.toThrow(/unknown detector method "mine"/);
    const guard = await loadGuard(file, { methods: { ...BUILTIN_DETECTOR_METHODS, mine: () => constant } });
    const v = await guard.check(input, dropsCon);
    expect([v.allow, v.hallucination.flagged, v.coverage.flagged, v.detector]).toEqual([
      false,
      true,
      false,
      "constant",
    ]);
  });
});
