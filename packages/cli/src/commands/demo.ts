import { YesNoClassifier } from "@npov/classifier";
import { generatorPrompt, openKnowledgeBase, sampleInput } from "@npov/core";
import { evaluate, formatResultTable, rougeEvalDetector } from "@npov/eval";
import { LocalGenerator } from "@npov/generate";
import { rougeDetector } from "@npov/rouge";
import { buildDataset, SLICES, summarizeDataset, writeReferenceResponse } from "@npov/synth";
import type { Command } from "commander";
import { out, parseInteger } from "../util.js";
import { summaryTable } from "./synth.js";

export function registerDemo(program: Command): void {
  program
    .command("demo")
    .description(
      "the main job on the embedded defaults (fixtures/kb, shipped models): prompt, responses, detection, evaluation",
    )
    .option("--kb <spec>", "knowledge base", "fixtures")
    .option("--seed <n>", "random seed", "0")
    .action(async (opts: { kb: string; seed: string }) => {
      const seed = parseInteger(opts.seed, "--seed");
      const base = openKnowledgeBase(opts.kb);
      const topic = base.topics[Math.abs(seed) % base.topics.length];
      if (topic === undefined) return;
      const input = sampleInput(topic, { seed });
      out(
        `1. Input sampled from topic "${topic.id}" (${topic.split} split)\n\nGenerator prompt (paper Figure 3):\n${generatorPrompt(input)}`,
      );

      const written = writeReferenceResponse(input, { seed, style: "close" });
      out(`\n2. Error-free reference response (template writer):\n${written.response}`);

      const clean = rougeDetector(input, written.response);
      const dropped = {
        ...input,
        perspectives: input.perspectives.map((p, k) =>
          k === 0 && p.arguments.length > 1 ? { ...p, arguments: p.arguments.slice(1) } : p,
        ),
      };
      out(
        `\n3. ROUGE detector (SPEC 2.1): hallucination ${clean.hallucination.toFixed(3)}, coverage ${clean.coverage.toFixed(3)}`,
      );
      if (dropped.perspectives[0]!.arguments.length < input.perspectives[0]!.arguments.length) {
        const halluc = rougeDetector(dropped, written.response);
        out(
          `   same response with the first "${input.perspectives[0]!.label}" argument removed from the input (a synthetic hallucination): hallucination ${halluc.hallucination.toFixed(3)}`,
        );
      }

      // The models npov ships (trained from scratch by `npov train-model`; see models/*/README.md).
      const generator = await LocalGenerator.fromPretrained();
      const generated = await generator.generate(input, { maxNewTokens: 192 }).catch((e: unknown) => e as Error);
      if (generated instanceof Error)
        out(`\n3b. The shipped generator (models/npov-gen) wrote no parseable response: ${generated.message}`);
      else {
        const r = rougeDetector(input, generated.response);
        const classifier = await YesNoClassifier.fromPretrained();
        const [pNoCoverage] = await classifier.scoreBatch([{ input, response: generated.response }], "coverage");
        const [pNoHallucination] = await classifier.scoreBatch(
          [{ input, response: generated.response }],
          "hallucination",
        );
        await classifier.dispose();
        out(
          `\n3b. The shipped generator (models/npov-gen):\n${generated.response}\n   ROUGE hallucination ${r.hallucination.toFixed(3)}, coverage ${r.coverage.toFixed(3)}; shipped classifier (models/npov-cls) P(NO) coverage ${pNoCoverage?.toFixed(3)}, hallucination ${pNoHallucination?.toFixed(3)}`,
        );
      }

      const dataset = buildDataset(base, { split: "test", seed });
      out(
        `\n4. Synthetic test dataset (SPEC 3), ${dataset.length} examples:\n${summaryTable(summarizeDataset(dataset))}`,
      );
      const result = await evaluate(dataset, [rougeEvalDetector()], { bootstrap: false, sliceOrder: SLICES });
      out(`\n5. ROC AUC of the ROUGE detector (SPEC 4):\n${formatResultTable(result)}`);
    });
}
