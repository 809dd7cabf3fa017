/**
 * Commands of the support detector's models: `npov build-lexsim` (WordNet lemma embeddings, models/npov-lexsim)
 * and `npov train-support` (specificity table and learned combiner, models/npov-support), and `npov support-report`
 * (the comparison of docs/results.md).
 */
import { join } from "node:path";
import {
  checkOutputPath,
  type ErrorDetector,
  openKnowledgeBase,
  readExamples,
  refuseOutputOverInput,
  requireNpovExamples,
  writeExamples,
  writeFileAtomic,
  writeFolderAtomic,
} from "@npov/core";
import {
  alignErrorDetector,
  buildLexSim,
  compareLexSimWithVectors,
  defaultWordVectors,
  lexSimCard,
  rouge1PrecisionDetector,
  rougeErrorDetector,
  SoftMatcher,
  saveLexSim,
  saveSpecificityTable,
  saveSupportCombiner,
  supportErrorDetector,
} from "@npov/rouge";
import { buildShapeDataset } from "@npov/synth";
import { shapeReport, supportCard, trainSupport } from "@npov/train";
import type { Command } from "commander";
import { progressBar } from "../progress.js";
import {
  integerOption,
  knowledgeBasePaths,
  MAX_PER_TOPIC,
  MAX_RESAMPLES,
  numberOption,
  out,
  prepareOutputFolder,
  SEED_RANGE,
  UsageError,
} from "../util.js";

/** Register `npov build-lexsim`, `npov train-support` and `npov support-report`. */
export function registerSupport(program: Command): void {
  registerSupportReport(program);
  program
    .command("build-lexsim")
    .description("build the WordNet lemma embeddings of the support detector (PPMI + randomized SVD; seeded)")
    .requiredOption("--out <dir>", "output folder (lexsim.json, vectors.i8, README.md)")
    .option(...integerOption("--dim <n>", "embedding dimension", { min: 1, max: 4096 }, 128))
    .option(...integerOption("--power <n>", "power iterations of the randomized SVD", { min: 0, max: 100 }, 3))
    .option(
      ...numberOption(
        "--holdout <fraction>",
        "fraction of multi-lemma synsets held out for the evaluation build",
        { min: 0, minExclusive: true, max: 0.5, maxExclusive: true },
        0.03,
      ),
    )
    .option(...integerOption("--seed <n>", "random seed", SEED_RANGE, 0))
    .action((opts: { out: string; dim: number; power: number; holdout: number; seed: number }) => {
      const { dim, power, seed, holdout } = opts;
      refuseOutputOverInput([{ flag: "--out", path: opts.out, folder: true }], []);
      prepareOutputFolder(opts.out);
      let started = performance.now();
      // Evaluation build: the identity of held-out synsets is hidden, their synonym pairs are the benchmark.
      const evalBuild = buildLexSim({ dim, power, seed, holdout });
      const evaluation = compareLexSimWithVectors(evalBuild.model, evalBuild.heldOut, evalBuild.coHyponyms);
      const evalSeconds = (performance.now() - started) / 1000;
      started = performance.now();
      const full = buildLexSim({ dim, power, seed });
      const seconds = (performance.now() - started) / 1000;
      const command = `pnpm npov build-lexsim --out ${opts.out} --dim ${dim} --power ${power} --holdout ${holdout} --seed ${seed}`;
      saveLexSim(opts.out as string, full.model, { command, evaluation });
      const e = evaluation.own;
      writeFileAtomic(
        join(opts.out as string, "README.md"),
        lexSimCard({
          words: full.model.words.length,
          dim,
          power,
          seed,
          holdout,
          command,
          seconds,
          evalSeconds,
          evaluation,
        }),
      );
      out(
        `built ${full.model.words.length} x ${dim} lemma embeddings in ${seconds.toFixed(0)} s; held-out synonyms AUC ${e.aucVsRandom.toFixed(3)} vs random, ${e.aucVsRelated.toFixed(3)} vs co-hyponyms; written to ${opts.out}`,
      );
    });

  program
    .command("train-support")
    .description(
      "train the support detector's specificity table and combiner on synthetic data of every response shape plus hand-labelled tune examples (seeded, bit-identical)",
    )
    .requiredOption("--out <dir>", "output folder (specificity.json, combiner.json, README.md)")
    .option("--kb <name>", "knowledge base for specificity and synthetic training data", "perspectrum")
    .option(
      ...integerOption("--per-topic <n>", "chatbot-style inputs per train topic", { min: 1, max: MAX_PER_TOPIC }, 1),
    )
    .option(
      ...integerOption(
        "--template-per-topic <n>",
        "template-style inputs per train topic for the coverage model (0: none)",
        { min: 0, max: MAX_PER_TOPIC },
        1,
      ),
    )
    .option(
      ...integerOption(
        "--shapes-per-topic <n>",
        "inputs per train topic of every other response shape (npov synth --shapes; 0: none)",
        { min: 0, max: MAX_PER_TOPIC },
        1,
      ),
    )
    .option("--dev <files>", "comma-separated hand-written dev files; their meta.devSplit=tune examples are added")
    .option(
      ...numberOption(
        "--tune-weight <x>",
        "total weight of the tune examples relative to the synthetic NPOV ones",
        { min: 0, max: 1e6 },
        8,
      ),
    )
    .option(
      ...numberOption(
        "--sentence-tune-weight <x>",
        "the same for the unsupported-claim sentence model (0: it learns from the synthetic shapes only)",
        { min: 0, max: 1e6 },
        0,
      ),
    )
    .option(
      ...numberOption(
        "--sentence-share <x>",
        "weight of the likeliest unsupported sentence in the hallucination score, blended with the example model and recalibrated (0: the example model alone)",
        { min: 0, max: 1 },
        0.5,
      ),
    )
    .option(...numberOption("--l2 <x>", "L2 penalty", { min: 0, max: 1e6 }, 1))
    .option(
      ...integerOption(
        "--cv-folds <n>",
        "topic-grouped cross-validation folds over the tune part, reported as out-of-fold ROC AUC (0: none)",
        { min: 0, max: 100 },
        5,
      ),
    )
    .option(...integerOption("--seed <n>", "random seed", SEED_RANGE, 0))
    .action(
      (opts: {
        out: string;
        kb: string;
        dev?: string;
        perTopic: number;
        templatePerTopic: number;
        shapesPerTopic: number;
        tuneWeight: number;
        sentenceTuneWeight: number;
        sentenceShare: number;
        l2: number;
        cvFolds: number;
        seed: number;
      }) => {
        const { seed, perTopic, l2, tuneWeight } = opts;
        if (opts.cvFolds === 1) throw new UsageError("--cv-folds must be 0 (no cross-validation) or at least 2.");
        const devFiles = (opts.dev ?? "").split(",").filter((f) => f.length > 0);
        refuseOutputOverInput(
          [{ flag: "--out", path: opts.out, folder: true }],
          [...knowledgeBasePaths(opts.kb), ...devFiles.map((f) => ({ flag: "--dev", path: f }))],
        );
        const tune = requireNpovExamples(
          devFiles.flatMap((f) => readExamples(f)),
          "train-support",
        ).filter((e) => e.meta?.devSplit === "tune");
        prepareOutputFolder(opts.out);
        const started = performance.now();
        const kb = openKnowledgeBase(opts.kb as string);
        const extra =
          opts.shapesPerTopic > 0 ? buildShapeDataset(kb.split("train"), { seed, perTopic: opts.shapesPerTopic }) : [];
        const bar = progressBar("features", "");
        const training = trainSupport({
          kb,
          seed,
          perTopic,
          templatePerTopic: opts.templatePerTopic,
          extra,
          tune,
          tuneWeight,
          sentenceShare: opts.sentenceShare,
          sentenceTuneWeight: opts.sentenceTuneWeight,
          l2,
          folds: opts.cvFolds,
          onProgress: (done, total) => bar.update(done, total),
        });
        bar.stop();
        const seconds = (performance.now() - started) / 1000;
        const command = `pnpm npov train-support --out ${opts.out} --kb ${opts.kb} --per-topic ${perTopic} --template-per-topic ${opts.templatePerTopic} --shapes-per-topic ${opts.shapesPerTopic}${devFiles.length > 0 ? ` --dev ${devFiles.join(",")}` : ""} --tune-weight ${tuneWeight}${opts.sentenceTuneWeight === 0 ? "" : ` --sentence-tune-weight ${opts.sentenceTuneWeight}`}${opts.sentenceShare === 0.5 ? "" : ` --sentence-share ${opts.sentenceShare}`} --l2 ${l2}${opts.cvFolds === 5 ? "" : ` --cv-folds ${opts.cvFolds}`} --seed ${seed}`;
        // The three files go into a copy of the folder that is swapped in at the end: a run that fails leaves
        // the old model whole, never one file of each training.
        writeFolderAtomic(opts.out, (folder) => {
          saveSpecificityTable(join(folder, "specificity.json"), training.specificity, {
            kb: opts.kb,
            splits: ["train", "dev"],
          });
          saveSupportCombiner(join(folder, "combiner.json"), {
            ...training.combiner,
            meta: {
              seed,
              l2,
              tuneWeight,
              sentenceShare: opts.sentenceShare,
              sentenceTuneWeight: opts.sentenceTuneWeight,
              counts: training.counts,
              command,
              calibration: training.calibration,
              ...(training.crossValidation === undefined ? {} : { crossValidation: training.crossValidation }),
            },
          });
          writeFileAtomic(
            join(folder, "README.md"),
            supportCard(training, {
              kb: opts.kb,
              command,
              seconds,
              tuneWeight,
              sentenceTuneWeight: opts.sentenceTuneWeight,
            }),
          );
        });
        const cv = training.crossValidation;
        out(
          `trained the support combiner on ${training.counts.chatbot + training.counts.template + training.counts.extra} synthetic + ${training.counts.tune} tune examples in ${seconds.toFixed(0)} s${cv === undefined ? "" : `; tune-part ${cv.folds}-fold cross-validation ROC AUC: hallucination ${cv.hallucination?.toFixed(3) ?? "n/a"}, coverage ${cv.coverage?.toFixed(3) ?? "n/a"}`}; written to ${opts.out}`,
        );
      },
    );
}

/** The detectors compared in `npov support-report`, on one shared soft matcher (as `npov eval` builds it). */
function reportDetectors(): ErrorDetector[] {
  const vectors = defaultWordVectors();
  const matcher = new SoftMatcher(vectors === undefined ? {} : { vectors, vectorThreshold: 0.7 });
  return [rouge1PrecisionDetector(), rougeErrorDetector(), alignErrorDetector(matcher), supportErrorDetector()];
}

/** Register `npov support-report`. */
export function registerSupportReport(program: Command): void {
  program
    .command("support-report")
    .description(
      "ROC AUC (bootstrap 95% intervals) of the ROUGE-1 precision baseline, rouge, align and support on every response shape: chatbot-dev, Perspectrum test slices, chatbot-style and synthetic shapes on test topics, FaithDial and HaluEval",
    )
    .option("--kb <name>", "knowledge base", "perspectrum")
    .option("--dev <files>", "comma-separated chatbot-dev files (meta.devSplit tune/heldout)")
    .option("--grounding-dev <dir>", "the grounding-dev folder (faithdial-audit/, halueval-qa/)")
    .option(
      ...integerOption(
        "--per-topic <n>",
        "inputs per test topic for the Perspectrum synthetic slices",
        { min: 1, max: MAX_PER_TOPIC },
        1,
      ),
    )
    .option(...integerOption("--resamples <n>", "bootstrap resamples", { min: 0, max: MAX_RESAMPLES }, 200))
    .option(...integerOption("--seed <n>", "random seed of the synthetic data and the bootstrap", SEED_RANGE, 0))
    .option("--write-data <file>", "also write the report's examples (JSONL) for other tools")
    .action(
      async (opts: {
        kb: string;
        dev?: string;
        groundingDev?: string;
        perTopic: number;
        resamples: number;
        seed: number;
        writeData?: string;
      }) => {
        const devFiles = typeof opts.dev === "string" ? opts.dev.split(",").filter((f) => f.length > 0) : [];
        if (opts.writeData !== undefined) {
          checkOutputPath(opts.writeData);
          refuseOutputOverInput(
            [{ flag: "--write-data", path: opts.writeData }],
            [
              ...knowledgeBasePaths(opts.kb),
              ...devFiles.map((f) => ({ flag: "--dev", path: f })),
              ...(opts.groundingDev === undefined ? [] : [{ flag: "--grounding-dev", path: opts.groundingDev }]),
            ],
          );
        }
        const bar = progressBar("scoring", "");
        const { table, data } = await shapeReport({
          kb: openKnowledgeBase(opts.kb as string),
          seed: opts.seed,
          perTopic: opts.perTopic,
          dev: devFiles.flatMap((f) => readExamples(f)),
          ...(opts.groundingDev === undefined ? {} : { groundingDev: opts.groundingDev }),
          detectors: reportDetectors(),
          resamples: opts.resamples,
          onProgress: (done, total) => bar.update(done, total),
        });
        bar.stop();
        if (opts.writeData !== undefined) writeExamples(opts.writeData, data);
        out(table);
      },
    );
}
