import { checkOutputPath, openKnowledgeBase, parseSplit, refuseOutputOverInput, writeExamples } from "@npov/core";
import { buildDataset, SLICES, type SliceSummary, summarizeDataset } from "@npov/synth";
import type { Command } from "commander";
import {
  integerOption,
  knowledgeBasePaths,
  MAX_PER_TOPIC,
  out,
  outJson,
  parseList,
  SEED_RANGE,
  table,
} from "../util.js";

/** Table 7 style text table of a dataset summary. */
export function summaryTable(rows: readonly SliceSummary[]): string {
  const total = rows.reduce(
    (t, r) => ({
      slice: "total",
      examples: t.examples + r.examples,
      errorFree: t.errorFree + r.errorFree,
      hallucinationOnly: t.hallucinationOnly + r.hallucinationOnly,
      coverageOnly: t.coverageOnly + r.coverageOnly,
      both: t.both + r.both,
      ambiguous: t.ambiguous + r.ambiguous,
    }),
    { slice: "total", examples: 0, errorFree: 0, hallucinationOnly: 0, coverageOnly: 0, both: 0, ambiguous: 0 },
  );
  return table(
    ["slice", "examples", "error-free", "hallucination only", "coverage only", "both", "ambiguous"],
    [...rows, total].map((r) =>
      [r.slice, r.examples, r.errorFree, r.hallucinationOnly, r.coverageOnly, r.both, r.ambiguous].map(String),
    ),
  );
}

export function registerSynth(program: Command): void {
  program
    .command("synth")
    .description("build an evaluation dataset: error-free reference responses and synthetic errors (JSONL)")
    .option("--kb <spec>", 'knowledge base: "fixtures", "perspectrum" or a path', "fixtures")
    .requiredOption("--split <split>", "train | dev | test (topics never cross splits)")
    .option("--slices <list>", `comma-separated: ${SLICES.join(", ")}`, SLICES.join(","))
    .option(...integerOption("--seed <n>", "random seed", SEED_RANGE, 0))
    .option(
      ...integerOption("--per-topic <n>", "error-free inputs sampled per topic", { min: 1, max: MAX_PER_TOPIC }, 6),
    )
    .requiredOption("--out <file>", "output JSONL file (written atomically)")
    .option("--json", "print the summary as JSON")
    .action(
      (opts: {
        kb: string;
        split: string;
        slices: string;
        seed: number;
        perTopic: number;
        out: string;
        json?: boolean;
      }) => {
        const split = parseSplit(opts.split);
        const slices = parseList(opts.slices, SLICES, "--slices");
        refuseOutputOverInput([{ flag: "--out", path: opts.out }], knowledgeBasePaths(opts.kb));
        checkOutputPath(opts.out);
        const examples = buildDataset(openKnowledgeBase(opts.kb), {
          split,
          slices,
          seed: opts.seed,
          perTopic: opts.perTopic,
        });
        writeExamples(opts.out, examples);
        const summary = summarizeDataset(examples);
        if (opts.json) return outJson({ out: opts.out, examples: examples.length, slices: summary });
        out(summaryTable(summary));
        out(`\nwrote ${examples.length} examples to ${opts.out}`);
      },
    );
}
