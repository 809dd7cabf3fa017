import { generatorPrompt, openKnowledgeBase, sampleInput } from "@npov/core";
import type { Command } from "commander";
import { out, parseInteger } from "../util.js";

export function registerDemo(program: Command): void {
  program
    .command("demo")
    .description("the main job on the embedded defaults: sample an input from fixtures/kb and show its prompt")
    .option("--kb <spec>", "knowledge base", "fixtures")
    .option("--seed <n>", "random seed", "0")
    .action((opts: { kb: string; seed: string }) => {
      const seed = parseInteger(opts.seed, "--seed");
      const base = openKnowledgeBase(opts.kb);
      const topic = base.topics[seed % base.topics.length];
      if (topic === undefined) return;
      const input = sampleInput(topic, { seed });
      out(`Topic ${topic.id}: ${topic.query}`);
      out(`\nGenerator prompt (paper Figure 3):\n${generatorPrompt(input)}`);
    });
}
