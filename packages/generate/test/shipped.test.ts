import { createGuard } from "@npov/classifier";
import { openKnowledgeBase, parseGeneratorOutput, repoPath, sampleInput } from "@npov/core";
import { createServer, LocalGenerator } from "@npov/generate";
import { rougeErrorDetector } from "@npov/rouge";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";

// End to end with the shipped generator (models/npov-gen): serve it, generate through the official
// OpenAI client, and check the result through /v1/check.
describe("the shipped generator behind npov serve", () => {
  it("writes a parseable NPOV response for a held-out topic and /v1/check judges it", async () => {
    const generator = await LocalGenerator.fromPretrained(repoPath("models", "npov-gen"));
    const guard = createGuard({ detector: rougeErrorDetector(), thresholds: { hallucination: 0.6, coverage: 0.3 } });
    const app = createServer({ generator, guard });
    const base = await app.listen({ host: "127.0.0.1", port: 0 });
    try {
      const topic = openKnowledgeBase("fixtures").get("zoos"); // a test-split topic
      const input = sampleInput(topic, { seed: 1, perSide: 1 });
      const client = new OpenAI({ baseURL: `${base}/v1`, apiKey: "unused" });
      const completion = await client.chat.completions.create({
        model: "npov-gen",
        messages: [{ role: "user", content: JSON.stringify(input) }],
        max_tokens: 160,
      });
      const npov = (completion as unknown as { npov: { parsed: boolean; opening?: string; core?: string } }).npov;
      expect(npov.parsed).toBe(true);
      const content = completion.choices[0]!.message.content as string;
      expect(content).toBe(`${npov.opening} ${npov.core}`);
      // The same text straight from the generator (greedy is deterministic).
      const direct = await generator.generateText(input, { maxNewTokens: 160 });
      expect(parseGeneratorOutput(direct.text).response).toBe(content);
      const verdict = await (
        await fetch(`${base}/v1/check`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ input, response: content }),
        })
      ).json();
      expect(typeof verdict.allow).toBe("boolean");
      expect(verdict.coverage.score).toBeGreaterThanOrEqual(0);
      expect(verdict.coverage.score).toBeLessThanOrEqual(1);
    } finally {
      await app.close();
    }
  }, 120_000);
});
