import { existsSync } from "node:fs";
import { join } from "node:path";
import { bpeModelTokenizerJson, trainBpe } from "@npov/autograd";
import {
  ensureDirectory,
  type KnowledgeBase,
  openKnowledgeBase,
  refuseOutputOverInput,
  writeFileAtomic,
  writeFolderAtomic,
} from "@npov/core";
import { buildDataset } from "@npov/synth";
import { classifierPairs, generatorPairs, Seq2SeqTrainer, T5_SIZES, type TextPair } from "@npov/train";
import type { Command } from "commander";
import { progressBar } from "../progress.js";
import {
  integerOption,
  knowledgeBasePaths,
  MAX_PER_TOPIC,
  numberOption,
  out,
  prepareOutputFolder,
  SEED_RANGE,
  UsageError,
} from "../util.js";

/** The numeric options of train-model, as the option parsers return them. */
interface TrainModelNumbers {
  steps: number;
  batchSize: number;
  lr: number;
  perTopic: number;
  vocab: number;
  seed: number;
}

/** Training and dev pairs for a task from the named knowledge bases. */
export function trainingPairs(
  task: string,
  kbs: KnowledgeBase[],
  perTopic: number,
  seed: number,
): { train: TextPair[]; dev: TextPair[] } {
  if (task === "generate")
    return {
      train: generatorPairs(kbs, "train", { perTopic, seed, copyFraction: 0.4 }),
      dev: generatorPairs(kbs, "dev", { perTopic: 2, seed }),
    };
  const examples = (split: "train" | "dev") =>
    kbs.flatMap((kb) =>
      buildDataset(kb, {
        split,
        seed,
        perTopic: split === "train" ? perTopic : 2,
        slices: ["unparaphrased-synthetic", "paraphrased-synthetic"],
      }),
    );
  return {
    train: classifierPairs(examples("train"), ["coverage", "hallucination"], seed),
    dev: classifierPairs(examples("dev"), ["coverage", "hallucination"], seed),
  };
}

export function registerTrain(program: Command): void {
  program
    .command("train-model")
    .description("train one of npov's own models from scratch (T5-like; generator or YES/NO classifier), resumable")
    .option("--arch <arch>", "t5", "t5")
    .option("--size <size>", "tiny | small", "small")
    .requiredOption("--task <task>", "generate (Figure 3 prompt -> response) | classify (Figure 4 prompt -> YES}/NO})")
    .requiredOption("--work <dir>", "work folder: tokenizer, checkpoints, history (rerun the same command to resume)")
    .requiredOption("--out <dir>", "where to export the trained model (transformers.js layout)")
    .option("--kb <list>", "knowledge bases: fixtures,perspectrum", "fixtures,perspectrum")
    .option(...integerOption("--steps <n>", "training steps", { min: 1, max: 10_000_000 }, 6000))
    .option(...integerOption("--batch-size <n>", "pairs per step", { min: 1, max: 4096 }, 16))
    .option(...numberOption("--lr <x>", "peak learning rate", { min: 0, minExclusive: true, max: 100 }, 0.001))
    .option(...integerOption("--per-topic <n>", "inputs sampled per training topic", { min: 1, max: MAX_PER_TOPIC }, 4))
    .option(...integerOption("--vocab <n>", "tokenizer vocabulary size", { min: 1, max: 1_000_000 }, 3000))
    .option(...integerOption("--seed <n>", "random seed", SEED_RANGE, 0))
    .action(async (opts: Record<string, string> & TrainModelNumbers) => {
      if (opts.arch !== "t5") throw new UsageError(`--arch ${opts.arch} is not supported yet; use t5.`);
      const size = opts.size as keyof typeof T5_SIZES;
      if (T5_SIZES[size] === undefined) throw new UsageError(`--size must be tiny or small, got "${opts.size}".`);
      if (opts.task !== "generate" && opts.task !== "classify")
        throw new UsageError(`--task must be generate or classify, got "${opts.task}".`);
      const seed = opts.seed;
      refuseOutputOverInput(
        [{ flag: "--out", path: opts.out, folder: true }],
        [{ flag: "--work", path: opts.work }, ...knowledgeBasePaths(opts.kb)],
      );
      prepareOutputFolder(opts.out as string);
      const work = opts.work as string;
      ensureDirectory(work);
      const kbs = (opts.kb as string).split(",").map((k) => openKnowledgeBase(k.trim()));
      const { train, dev } = trainingPairs(opts.task, kbs, opts.perTopic, seed);
      if (!existsSync(join(work, "tokenizer.json"))) {
        const model = trainBpe(
          train.flatMap((p) => [p.source, p.target]),
          { vocabSize: opts.vocab },
        );
        writeFileAtomic(join(work, "tokenizer.json"), `${JSON.stringify(bpeModelTokenizerJson(model))}\n`);
        writeFileAtomic(
          join(work, "tokenizer_config.json"),
          `${JSON.stringify({ tokenizer_class: "T5Tokenizer", eos_token: "</s>", unk_token: "<unk>", pad_token: "<pad>", model_max_length: 512, clean_up_tokenization_spaces: false }, null, 2)}\n`,
        );
      }
      const trainer = await Seq2SeqTrainer.open(work, T5_SIZES[size], {
        steps: opts.steps,
        batchSize: opts.batchSize,
        lr: opts.lr,
        seed,
      });
      const resumed = trainer.step;
      const bar = progressBar(`training ${opts.task}`, " loss {loss} dev {dev}");
      let devLoss = "-";
      await trainer.train(train, dev, (e) => {
        if (e.devLoss !== undefined) devLoss = e.devLoss.toFixed(3);
        bar.update(e.step, trainer.options.steps, { loss: e.loss.toFixed(3), dev: devLoss });
      });
      bar.stop();
      // Exported into a copy of the folder and swapped in: a failed export leaves the old model whole.
      const files = writeFolderAtomic(opts.out as string, (folder) =>
        trainer.exportModel(folder, { npov_task: opts.task }),
      );
      const history = trainer.history();
      const last = history.at(-1);
      out(
        `${resumed > 0 ? `resumed at step ${resumed}; ` : ""}trained ${trainer.parameterCount.toLocaleString("en-US")} parameters for ${last?.step ?? 0} steps (${((last?.seconds ?? 0) / 60).toFixed(1)} min) on ${train.length} pairs; last loss ${last?.loss.toFixed(3)}, dev loss ${
          [...history]
            .reverse()
            .find((h) => h.devLoss !== undefined)
            ?.devLoss?.toFixed(3) ?? "n/a"
        }\nexported ${files.length} files to ${opts.out}`,
      );
    });
}
