import { checkOutputPath, openKnowledgeBase, parseSplit, refuseOutputOverInput, writeExamples } from "@npov/core";
import {
  buildDataset,
  buildShapeDataset,
  SHAPES,
  type Shape,
  SLICES,
  type SliceSummary,
  summarizeDataset,
} from "@npov/synth";
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
  UsageError,
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
    .description(
      "build an evaluation dataset: error-free reference responses and synthetic errors, or with --shapes clean and hallucinated responses of every shape (JSONL)",
    )
    .option("--kb <spec>", 'knowledge base: "fixtures", "perspectrum" or a path', "fixtures")
    .requiredOption("--split <split>", "train | dev | test (topics never cross splits)")
    .option("--slices <list>", `comma-separated: ${SLICES.join(", ")} (default: all)`)
    .option(
      "--shapes <list>",
      `response shapes instead of slices (docs/datasets.md): "all" or comma-separated ${SHAPES.join(", ")}`,
    )
    .option(...integerOption("--seed <n>", "random seed", SEED_RANGE, 0))
    .option(
      ...integerOption(
        "--per-topic <n>",
        "error-free inputs sampled per topic (default 6); with --shapes, per topic and shape (default 1)",
        { min: 1, max: MAX_PER_TOPIC },
      ),
    )
    .requiredOption("--out <file>", "output JSONL file (written atomically)")
    .option("--json", "print the summary as JSON")
    .action(
      (opts: {
        kb: string;
        split: string;
        slices?: string;
        shapes?: string;
        seed: number;
        perTopic?: number;
        out: string;
        json?: boolean;
      }) => {
        const split = parseSplit(opts.split);
        if (opts.shapes !== undefined && opts.slices !== undefined)
          throw new UsageError(
            "--slices and --shapes build different datasets (synthetic errors of NPOV answers vs responses of every shape): give one.",
          );
        const shapes: Shape[] | undefined =
          opts.shapes === undefined
            ? undefined
            : opts.shapes.trim() === "all"
              ? [...SHAPES]
              : parseList(opts.shapes, SHAPES, "--shapes");
        const slices = parseList(opts.slices ?? SLICES.join(","), SLICES, "--slices");
        refuseOutputOverInput([{ flag: "--out", path: opts.out }], knowledgeBasePaths(opts.kb));
        checkOutputPath(opts.out);
        const kb = openKnowledgeBase(opts.kb);
        const examples =
          shapes === undefined
            ? buildDataset(kb, { split, slices, seed: opts.seed, perTopic: opts.perTopic ?? 6 })
            : buildShapeDataset(kb.split(split), { shapes, seed: opts.seed, perTopic: opts.perTopic ?? 1 });
        writeExamples(opts.out, examples);
        const summary = summarizeDataset(examples);
        if (opts.json) return outJson({ out: opts.out, examples: examples.length, slices: summary });
        out(summaryTable(summary));
        out(`\nwrote ${examples.length} examples to ${opts.out}`);
      },
    );
}
