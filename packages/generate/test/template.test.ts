import { createGuard } from "@npov/classifier";
import { openKnowledgeBase, sampleInput } from "@npov/core";
import { generateChecked, TEMPLATE_GENERATOR_NAME, TemplateGenerator } from "@npov/generate";
import { rougeErrorDetector } from "@npov/rouge";
import { writeReferenceResponse } from "@npov/synth";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

const kb = openKnowledgeBase("fixtures");

describe("TemplateGenerator (the default generator)", () => {
  it("returns the template writer's response, deterministically per seed, in either style", async () => {
    const input = sampleInput(kb.get("zoos"), { seed: 2 });
    for (const style of ["close", "free"] as const) {
      const r = await new TemplateGenerator({ style }).generate(input, { seed: 5 });
      const w = writeReferenceResponse(input, { seed: 5, style });
      expect(r).toEqual({
        opening: w.opening,
        core: w.core,
        response: w.response,
        raw: w.response,
        model: TEMPLATE_GENERATOR_NAME,
        finishReason: "stop",
      });
    }
    expect(() => new TemplateGenerator({ style: "loose" as "close" })).toThrow(/style/);
  });

  it("streams deltas that concatenate to the response, for any topic and seed", async () => {
    const generator = new TemplateGenerator();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...kb.topics), fc.integer({ min: 0, max: 1000 }), async (topic, seed) => {
        const input = sampleInput(topic, { seed });
        let text = "";
        for await (const delta of generator.stream(input, { seed })) text += delta;
        return text === (await generator.generate(input, { seed })).raw;
      }),
      { numRuns: 30 },
    );
  });

  it("passes a ROUGE guard on the first attempt: it states every given argument once", async () => {
    const input = sampleInput(kb.get("school-uniforms"), { seed: 1 });
    const guard = createGuard({ detector: rougeErrorDetector(), thresholds: { hallucination: 0.6, coverage: 0.3 } });
    const { allowed, attempts } = await generateChecked(input, { generator: new TemplateGenerator(), guard });
    expect(allowed).toBe(true);
    expect(attempts).toHaveLength(1);
  });
});
