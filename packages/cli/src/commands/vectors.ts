import { join } from "node:path";
import { openKnowledgeBase, refuseOutputOverInput, writeFileAtomic, writeFolderAtomic } from "@npov/core";
import { cosine, loadWordNet, saveWordVectors, trainWordVectors, type WordVectors } from "@npov/rouge";
import { vectorCorpus } from "@npov/train";
import type { Command } from "commander";
import { integerOption, knowledgeBasePaths, out, prepareOutputFolder, SEED_RANGE } from "../util.js";

/** Rank of WordNet synonyms among each word's neighbours: a sanity check for the card. */
export function synonymRanks(
  v: WordVectors,
  maxPairs = 300,
): { pairs: number; medianRank: number; meanReciprocalRank: number; randomMedianRank: number } {
  const wn = loadWordNet();
  const words = [...v.index.keys()];
  const ranks: number[] = [];
  for (const w of words) {
    if (ranks.length >= maxPairs) break;
    const synonyms = new Set(
      wn.synsets(w, 1).flatMap((s) => words.filter((x) => x !== w && wn.synsets(x, 3).includes(s))),
    );
    const target = [...synonyms][0];
    if (target === undefined) continue;
    const sim = cosine(v, w, target) as number;
    ranks.push(1 + words.filter((x) => x !== w && x !== target && (cosine(v, w, x) as number) > sim).length);
  }
  const sorted = [...ranks].sort((a, b) => a - b);
  return {
    pairs: ranks.length,
    medianRank: sorted[Math.floor(sorted.length / 2)] ?? 0,
    meanReciprocalRank: ranks.reduce((a, r) => a + 1 / r, 0) / Math.max(ranks.length, 1),
    randomMedianRank: Math.round(words.length / 2),
  };
}

export function registerVectors(program: Command): void {
  program
    .command("train-vectors")
    .description("train npov's word vectors (skip-gram, paraphrase-aware) on train/dev knowledge-base text; seeded")
    .option("--kb <list>", "knowledge bases", "fixtures,perspectrum")
    .requiredOption("--out <dir>", "output folder (vocab.json, vectors.bin, README.md)")
    .option(...integerOption("--dim <n>", "vector size", { min: 1, max: 4096 }, 48))
    .option(...integerOption("--epochs <n>", "passes over the pairs", { min: 1, max: 10_000 }, 5))
    .option(...integerOption("--min-count <n>", "minimum word frequency", { min: 1, max: 1_000_000_000 }, 3))
    .option(...integerOption("--seed <n>", "random seed", SEED_RANGE, 0))
    .action((opts: { kb: string; out: string; dim: number; epochs: number; minCount: number; seed: number }) => {
      refuseOutputOverInput([{ flag: "--out", path: opts.out, folder: true }], knowledgeBasePaths(opts.kb));
      prepareOutputFolder(opts.out);
      const kbNames = (opts.kb as string).split(",").map((k) => k.trim());
      const groups = vectorCorpus(kbNames.map((k) => openKnowledgeBase(k)));
      const started = performance.now();
      const options = { dim: opts.dim, epochs: opts.epochs, minCount: opts.minCount, seed: opts.seed };
      const v = trainWordVectors(groups, options);
      const seconds = (performance.now() - started) / 1000;
      const check = synonymRanks(v);
      const sentences = groups.reduce((a, g) => a + g.length, 0);
      // Written into a copy of the folder and swapped in: a failure leaves the old vectors whole.
      writeFolderAtomic(opts.out, (folder) => {
        saveWordVectors(folder, v);
        writeFileAtomic(
          join(folder, "README.md"),
          `# npov-vectors\n\nWord vectors made by npov for paraphrase-robust matching (@npov/rouge soft matching and alignment).\n\n` +
            `* Method: skip-gram with negative sampling; a word's contexts are its sentence window (4) and every word of the sentence's paraphrases (knowledge-base paraphrase clusters say the same thing), so words used interchangeably across paraphrases move together.\n` +
            `* Data: ${kbNames.join(", ")}, train and dev topics only (test topics held out): ${groups.length} groups, ${sentences} sentences (claims, queries, arguments with their paraphrases, reference responses).\n` +
            `* Size: ${v.index.size} words x ${v.dim} dimensions = ${(v.index.size * v.dim).toLocaleString("en-US")} parameters (float32, ${((v.index.size * v.dim * 4) / 1e6).toFixed(2)} MB).\n` +
            `* Command: \`pnpm npov train-vectors --kb ${opts.kb} --out ${opts.out} --dim ${options.dim} --epochs ${options.epochs} --min-count ${options.minCount} --seed ${options.seed}\` (deterministic; ${seconds.toFixed(0)} s on 2 cores).\n` +
            `* Sanity check (WordNet synonym pairs within the vocabulary, first sense): ${check.pairs} pairs, median rank of the synonym among all ${v.index.size - 1} other words ${check.medianRank} (random: ~${check.randomMedianRank}), mean reciprocal rank ${check.meanReciprocalRank.toFixed(3)}.\n` +
            `* License: derived from Perspectrum (Chen et al., NAACL 2019), CC BY-SA 4.0; these vectors are distributed under CC BY-SA 4.0 with that attribution.\n`,
        );
      });
      out(
        `trained ${v.index.size} x ${v.dim} vectors in ${seconds.toFixed(0)} s; synonym median rank ${check.medianRank} of ${v.index.size - 1} (random ~${check.randomMedianRank}); written to ${opts.out}`,
      );
    });
}
