// The assertion against promptfoo's documented javascript-assertion contract: called with (output, context),
// `context.config` the assertion's config and `context.vars` the test's variables; it returns a GradingResult
// {pass, score, reason, namedScores?, componentResults?} or throws (promptfoo fails the assertion with the
// message). The example suite under examples/promptfoo runs the real promptfoo CLI (example.test.ts).
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { NpovInput } from "@npov/core";
import { type NpovAssertionConfig, npovAssertion } from "@npov/promptfoo";
import { describe, expect, it } from "vitest";

const input: NpovInput = {
  topic: "zoos",
  query: "Should zoos be abolished?",
  perspectives: [
    { label: "pro", arguments: [{ text: "Keeping wild animals in enclosures deprives them of natural behaviour." }] },
    { label: "con", arguments: [{ text: "Zoos run breeding programs that save endangered species." }] },
  ],
};
const CLEAN =
  "People disagree about zoos. Critics say keeping wild animals in enclosures deprives them of natural behaviour. Supporters point out that zoos run breeding programs that save endangered species.";
const INVENTED = "A 2019 Oxford study found that most zoo visitors forget the animals within a week.";
const WITH_INVENTED = CLEAN.replace("Supporters", `${INVENTED} Supporters`);
const DROPS_CON = "Critics say keeping wild animals in enclosures deprives them of natural behaviour.";

const support: NpovAssertionConfig = { method: "support", thresholds: { hallucination: 0.6, coverage: 0.6 } };

describe("npovAssertion", () => {
  it("passes a clean answer and fails an invented sentence, naming it in the reason", async () => {
    const ok = await npovAssertion(CLEAN, { vars: { input }, config: support });
    expect(ok.pass).toBe(true);
    expect(ok.reason).toMatch(/^npov support: hallucination 0\.\d{3} < 0\.600 \| coverage 0\.\d{3} < 0\.600$/);
    expect(ok.componentResults?.map((r) => r.pass)).toEqual([true, true]);
    const bad = await npovAssertion(WITH_INVENTED, { vars: { input }, config: support });
    expect(bad.pass).toBe(false);
    expect(bad.reason).toMatch(/hallucination 0\.\d{3} >= 0\.600/);
    expect(bad.reason).toContain(`unsupported: "${INVENTED}"`);
    // Only the failing type is in the reason; the score is 1 - the worst error score.
    expect(bad.reason).not.toContain("coverage");
    const h = bad.namedScores?.["npov hallucination"] as number;
    expect(bad.score).toBeCloseTo(1 - h, 12);
  });

  it("names the uncovered argument of a coverage failure", async () => {
    const r = await npovAssertion(DROPS_CON, { vars: { input }, config: support });
    expect(r.pass).toBe(false);
    expect(r.reason).toContain('not covered: "Zoos run breeding programs that save endangered species."');
    // Checking hallucination only, the same answer passes.
    const h = await npovAssertion(DROPS_CON, {
      vars: { input },
      config: { method: "support", thresholds: { hallucination: 0.6 } },
    });
    expect(h.pass).toBe(true);
    expect(h.componentResults).toHaveLength(1);
  });

  it("reads sources from the test's variables: a list of documents, texts, or JSON text", async () => {
    const docs = [
      { id: "doc1", text: "Zoos run breeding programs that save endangered species." },
      { id: "doc2", text: "Critics say enclosures deprive wild animals of natural behaviour." },
    ];
    const answer = "Zoos run breeding programs that save endangered species.";
    // Coverage of sources is the share of their content left out (optional for RAG answers; checked here at 0.4).
    const strict: NpovAssertionConfig = { method: "support", thresholds: { hallucination: 0.6, coverage: 0.4 } };
    const asObjects = await npovAssertion(answer, {
      vars: { sources: docs, query: "What do zoos do?" },
      config: strict,
    });
    const asJson = await npovAssertion(answer, {
      vars: { sources: JSON.stringify(docs), query: "What do zoos do?" },
      config: strict,
    });
    const asTexts = await npovAssertion(answer, {
      vars: { sources: docs.map((d) => d.text), query: "What do zoos do?" },
      config: strict,
    });
    expect(asJson).toEqual(asObjects);
    expect(asTexts.namedScores).toEqual(asObjects.namedScores);
    // doc2 is not covered: its sentence is named, with the source it came from.
    expect(asObjects.pass).toBe(false);
    expect(asObjects.reason).toContain(
      'not covered (from the sources): "Critics say enclosures deprive wild animals of natural behaviour." (doc2)',
    );
    const invented = await npovAssertion(`${answer} ${INVENTED}`, { vars: { sources: docs }, config: support });
    expect(invented.reason).toContain(`unsupported: "${INVENTED}"`);
  });

  it("takes a guard file, cascades included", async () => {
    const dir = mkdtempSync(join(tmpdir(), "npov-promptfoo-"));
    const file = join(dir, "cascade.json");
    writeFileSync(
      file,
      JSON.stringify({
        format: "npov-guard/2",
        stages: [
          {
            detector: { method: "support" },
            band: { hallucination: { low: 0.3, high: 0.8 }, coverage: { low: 0.5, high: 0.9 } },
          },
          { detector: { method: "rouge" }, thresholds: { hallucination: 0.5, coverage: 0.5 } },
        ],
      }),
    );
    const r = await npovAssertion(WITH_INVENTED, { vars: { input }, config: { guard: file } });
    expect(r.pass).toBe(false);
    // support's score falls inside its band, so the rouge stage decides, at its own threshold.
    expect(r.reason).toMatch(/^npov support>rouge: hallucination 0\.\d{3} >= 0\.500; unsupported: "A 2019 Oxford/);
  });

  it("fails closed when the output cannot be scored, and throws for a bad config or test", async () => {
    const empty = await npovAssertion("   ", { vars: { input }, config: support });
    expect(empty).toMatchObject({ pass: false, score: 0 });
    expect(empty.reason).toContain("could not score the output (EMPTY_TEXT");
    const object = await npovAssertion({ tool: "x" }, { vars: { input }, config: support });
    expect(object.pass).toBe(false);
    expect(object.reason).toContain("npov checks text");
    await expect(npovAssertion(CLEAN, { vars: { input } })).rejects.toMatchObject({ path: "config" });
    await expect(npovAssertion(CLEAN, { vars: { input }, config: { method: "support" } })).rejects.toMatchObject({
      path: "config.checks",
    });
    await expect(
      npovAssertion(CLEAN, {
        vars: { input },
        config: { method: "support", thresholds: { hallucination: 0.5 }, checks: ["coverage"] },
      }),
    ).rejects.toMatchObject({ path: "config.thresholds.coverage" });
    await expect(npovAssertion(CLEAN, { vars: {}, config: support })).rejects.toMatchObject({ path: "vars.input" });
    await expect(npovAssertion(CLEAN, { vars: { input: "{not json" }, config: support })).rejects.toMatchObject({
      path: "vars.input",
    });
    await expect(
      npovAssertion(CLEAN, { vars: { input }, config: { method: "bleu", thresholds: { hallucination: 0.5 } } }),
    ).rejects.toMatchObject({
      code: "INVALID_VALUE",
      message: expect.stringContaining("endpoint-classifier"),
    });
    await expect(
      npovAssertion(CLEAN, {
        vars: { input },
        config: { method: "endpoint-classifier", thresholds: { hallucination: 0.5 } },
      }),
    ).rejects.toMatchObject({ message: expect.stringContaining("needs --endpoint URL") });
  });
});
