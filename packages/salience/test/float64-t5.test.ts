/**
 * `precision: "float64"` computes the float32 model's function more precisely, never a different one
 * (issue 21: T5's relative-position buckets used to move at distances 16, 32 and 64 in float64, and the
 * float64 map was 0.016-0.16 away from the float32 one normwise on the shipped model). The bucket indices
 * themselves are checked against an independent computation in packages/autograd/test/float64-t5.test.ts.
 */
import { join } from "node:path";
import { generatorPromptLayout, type NpovInput } from "@npov/core";
import { SalienceDetector } from "@npov/salience";
import { afterAll, describe, expect, it } from "vitest";

const REPO = join(import.meta.dirname, "../../..");

const input: NpovInput = {
  topic: "school uniforms",
  query: "Should schools require students to wear uniforms?",
  perspectives: [
    {
      label: "pro",
      arguments: [
        { text: "Uniforms reduce visible differences in family income between students." },
        { text: "A dress code saves parents time and money on school clothing." },
      ],
    },
    { label: "con", arguments: [{ text: "Mandatory uniforms limit how students express their identity." }] },
  ],
};
const response = "Uniforms save parents money but limit how students express themselves.";

describe("float64 salience on a T5 (the shipped npov-gen)", () => {
  const detectors: SalienceDetector[] = [];
  afterAll(async () => Promise.all(detectors.map((d) => d.dispose())));

  it("is within float32 precision of the float32 map (prompt long enough for distances 16, 32, 64)", async () => {
    const dir = join(REPO, "models/npov-gen");
    const single = await SalienceDetector.fromPretrained(dir, { chunkSize: 16 });
    const double = await SalienceDetector.fromPretrained(dir, { chunkSize: 16, precision: "float64" });
    detectors.push(single, double);
    const prompt = generatorPromptLayout(input).prompt;
    const a = await single.tokenMap(prompt, response);
    const b = await double.tokenMap(prompt, response);
    expect(a.inputTokens.length).toBeGreaterThan(65);
    let diff = 0;
    let norm = 0;
    a.attributions.data.forEach((x, k) => {
      diff += (x - (b.attributions.data[k] as number)) ** 2;
      norm += x ** 2;
    });
    expect(norm).toBeGreaterThan(0);
    // Measured 1.8e-6; 0.016 with the buckets moved (the conversion before issue 21).
    expect(Math.sqrt(diff / norm)).toBeLessThan(1e-5);
  });
});
