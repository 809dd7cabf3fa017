/**
 * The nli method in the detector table and in guards: `createDetector({method: "nli", model, dtype})` is the
 * NliDetector on that model, its spec settings are checked, and a guard built from a config scores with it
 * (NPOV and sources inputs). The encoder-zoo model has random weights: this proves the wiring only.
 */
import { join } from "node:path";
import { createDetector, loadGuard } from "@npov/classifier";
import type { NpovInput } from "@npov/core";
import { NliDetector } from "@npov/nli";
import { describe, expect, it } from "vitest";

const MODEL = join(import.meta.dirname, "../../../../shared/models/encoder-zoo/optimum-distilbert");
const input: NpovInput = {
  topic: "zoos",
  query: "Should zoos be abolished?",
  perspectives: [
    { label: "pro", arguments: [{ text: "Keeping wild animals in enclosures deprives them of natural behaviour." }] },
    { label: "con", arguments: [{ text: "Zoos run breeding programs that save endangered species." }] },
  ],
};
const response = "People disagree. Keeping wild animals in enclosures deprives them of natural behaviour.";

describe("the nli method", () => {
  it("createDetector builds the NliDetector of --model and --dtype", async () => {
    const viaTable = await createDetector({
      method: "nli",
      model: MODEL,
      dtype: "q4",
      nliBatchSize: 2,
      nliMaxPairs: 100,
    });
    const direct = await NliDetector.fromPretrained(MODEL, { dtype: "q4" });
    expect(viaTable.name).toBe("nli");
    expect((viaTable as NliDetector).model.dtype).toBe("q4");
    expect(await viaTable.detect(input, response)).toEqual(await direct.detect(input, response));
    await viaTable.dispose?.();
    await direct.dispose();
  });

  it("checks the spec: a model is required, settings are typed", async () => {
    await expect(createDetector({ method: "nli" })).rejects.toMatchObject({ code: "INVALID_VALUE", path: "model" });
    await expect(createDetector({ method: "nli", model: MODEL, nliBatchSize: "8" })).rejects.toMatchObject({
      code: "INVALID_VALUE",
      path: "nliBatchSize",
    });
    await expect(createDetector({ method: "nli", model: MODEL, nliTruncation: "cut" })).rejects.toMatchObject({
      code: "INVALID_VALUE",
      path: "nliTruncation",
    });
    const strict = await createDetector({ method: "nli", model: MODEL, nliMaxPairs: 3 });
    await expect(strict.detect(input, response)).rejects.toMatchObject({ code: "INPUT_TOO_LARGE", limit: 3 });
    await strict.dispose?.();
  });

  it("a guard config with the nli method scores NPOV and sources inputs", async () => {
    const guard = await loadGuard({
      format: "npov-guard/1",
      detector: { method: "nli", model: MODEL },
      thresholds: { hallucination: 0, coverage: 0 },
    });
    const detector = await NliDetector.fromPretrained(MODEL);
    const verdict = await guard.check(input, response);
    const scores = await detector.detect(input, response);
    if (verdict.error) throw new Error(verdict.reason.message);
    // Thresholds 0 flag everything: the verdict carries the detector's scores and its evidence.
    expect(verdict).toMatchObject({ allow: false, detector: "nli" });
    expect(verdict.hallucination.score).toBe(scores.hallucination);
    expect(verdict.coverage.score).toBe(scores.coverage);
    expect(verdict.coverage.evidence.uncoveredArguments.map((a) => a.text)).toEqual(
      scores.uncoveredArguments?.map((a) => a.text),
    );
    const sources = {
      sources: [{ id: "doc", text: "Zoos breed endangered species. Critics say cages harm animals." }],
    };
    const fromSources = await guard.check(sources, "Zoos save species.");
    if (fromSources.error) throw new Error(fromSources.reason.message);
    expect(fromSources.coverage.evidence.uncoveredArguments[0]?.origin).toMatchObject({ source: 0, sourceId: "doc" });
    await detector.dispose();
  });
});
