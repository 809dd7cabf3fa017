import { generatorPrompt, openKnowledgeBase, sampleInput } from "@npov/core";
import { evaluate, formatResultTable } from "@npov/eval";
import { TemplateGenerator } from "@npov/generate";
import { rougeDetector, rougeErrorDetector, supportErrorDetector } from "@npov/rouge";
import { buildDataset, SLICES, summarizeDataset } from "@npov/synth";
import type { Command } from "commander";
import { integerOption, out, SEED_RANGE } from "../util.js";
import { cliGenerator, type GeneratorOptions, generatorOptions } from "./generate.js";
import { summaryTable } from "./synth.js";

export function registerDemo(program: Command): void {
  generatorOptions(
    program
      .command("demo")
      .description(
        "the main job on the embedded defaults (fixtures/kb, template writer): prompt, response, detection, evaluation",
      ),
  )
    .option("--kb <spec>", "knowledge base", "fixtures")
    .option(...integerOption("--seed <n>", "random seed", SEED_RANGE, 0))
    .action(async (opts: GeneratorOptions & { kb: string; seed: number }) => {
      const seed = opts.seed;
      const base = openKnowledgeBase(opts.kb);
      const topic = base.topics[Math.abs(seed) % base.topics.length];
      if (topic === undefined) return;
      const input = sampleInput(topic, { seed });
      out(
        `1. Input sampled from topic "${topic.id}" (${topic.split} split)\n\nGenerator prompt (paper Figure 3):\n${generatorPrompt(input)}`,
      );

      // The default generator: the template writer (see packages/generate/src/template.ts for why).
      const generator = await cliGenerator(opts);
      const generated = await generator.generate(input, { seed, maxNewTokens: 192 }).catch((e: unknown) => e as Error);
      if (generated instanceof Error) {
        out(`\n2. The generator (${generator.model}) wrote no parseable response: ${generated.message}`);
        return;
      }
      out(`\n2. Response written by ${generator.model}:\n${generated.response}`);

      const response = generated.response;
      const clean = rougeDetector(input, response);
      const content = clean.words.length;
      const unsupported = clean.words.filter((w) => w.hallucination === 1);
      const aligned = await supportErrorDetector().detect(input, response);
      out(
        `\n3. Detectors (SPEC 2.1; scores in [0, 1], higher = more likely an error):\n   support (the guard's default): hallucination ${aligned.hallucination.toFixed(3)}, coverage ${aligned.coverage.toFixed(3)}\n   ROUGE: hallucination ${clean.hallucination.toFixed(3)}, coverage ${clean.coverage.toFixed(3)}`,
      );
      const words = unsupported.map((w) => w.text).join(", ");
      out(
        `   ROUGE's hallucination is the share of response content words found in no given argument: ${unsupported.length} of ${content} here (${words}).`,
      );
      if (generator instanceof TemplateGenerator)
        out(
          "   The template writer states every argument and nothing else, so these are its opening's and connectors' words (and words used more often than the arguments use them): even an error-free response scores above 0. A score means something against a threshold calibrated on labelled data (npov calibrate-guard), not on its own.",
        );
      const dropped = {
        ...input,
        perspectives: input.perspectives.map((p, k) =>
          k === 0 && p.arguments.length > 1 ? { ...p, arguments: p.arguments.slice(1) } : p,
        ),
      };
      if (dropped.perspectives[0]!.arguments.length < input.perspectives[0]!.arguments.length) {
        const halluc = rougeDetector(dropped, response);
        const supportHalluc = await supportErrorDetector().detect(dropped, response);
        out(
          `   The same response with the first "${input.perspectives[0]!.label}" argument removed from the input (now a synthetic hallucination): ROUGE hallucination ${halluc.hallucination.toFixed(3)}, support ${supportHalluc.hallucination.toFixed(3)}.`,
        );
      }
      if (generator instanceof TemplateGenerator)
        out(
          "   (The small model npov trains, models/npov-gen, does not write usable responses yet -- see models/npov-gen/card.json; try it with --generator local.)",
        );

      const dataset = buildDataset(base, { split: "test", seed });
      out(
        `\n4. Synthetic test dataset (SPEC 3), ${dataset.length} examples:\n${summaryTable(summarizeDataset(dataset))}`,
      );
      const result = await evaluate(dataset, [rougeErrorDetector()], { bootstrap: false, sliceOrder: SLICES });
      out(`\n5. ROC AUC of the ROUGE detector (SPEC 4):\n${formatResultTable(result)}`);
    });
}
