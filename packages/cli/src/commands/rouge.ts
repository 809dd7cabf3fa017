import { readTextFile } from "@npov/core";
import { rougeN } from "@npov/rouge";
import { type Command, Option } from "commander";
import { out, table, UsageError, warn } from "../util.js";

function lines(file: string): string[] {
  const text = readTextFile(file);
  const all = text.split(/\r?\n/);
  if (all.length > 0 && all[all.length - 1] === "") all.pop();
  return all;
}

export function registerRouge(program: Command): void {
  program
    .command("rouge")
    .description("ROUGE-1 and ROUGE-2 of each prediction line against the target line with the same number")
    .requiredOption("--target <file>", "reference texts, one per line")
    .requiredOption("--prediction <file>", "predicted texts, one per line")
    .option("--tokenizer <name>", "default | rouge-score (Google's rouge-score tokenization)", "default")
    .option("--keep-stopwords", "keep stop words (required to reproduce rouge-score; default: drop NLTK's)")
    .addOption(new Option("--no-stopwords", "deprecated: use --keep-stopwords").hideHelp())
    .option("--no-stem", "do not Porter-stem")
    .option("--json", "one JSON object per line: {rouge1, rouge2}")
    .action(
      (opts: {
        target: string;
        prediction: string;
        tokenizer: string;
        keepStopwords?: boolean;
        stopwords: boolean;
        stem: boolean;
        json?: boolean;
      }) => {
        // --no-stopwords used to mean "keep stop words" (commander's --no-X negates X): kept as an alias.
        if (!opts.stopwords) warn("--no-stopwords is deprecated and means --keep-stopwords; use --keep-stopwords.");
        const keepStopwords = opts.keepStopwords === true || !opts.stopwords;
        if (opts.tokenizer !== "default" && opts.tokenizer !== "rouge-score")
          throw new UsageError(`--tokenizer must be default or rouge-score, got "${opts.tokenizer}".`);
        const targets = lines(opts.target);
        const predictions = lines(opts.prediction);
        if (targets.length === 0) throw new UsageError(`${opts.target} has no lines: give one target text per line.`);
        if (targets.length !== predictions.length)
          throw new UsageError(
            `${opts.target} has ${targets.length} lines but ${opts.prediction} has ${predictions.length}; give one prediction per target.`,
          );
        const options = {
          tokenizer: opts.tokenizer,
          stem: opts.stem,
          stopwords: keepStopwords ? (false as const) : ("nltk" as const),
        } as const;
        const scores = targets.map((target, i) => ({
          rouge1: rougeN(predictions[i] as string, target, { ...options, n: 1 }),
          rouge2: rougeN(predictions[i] as string, target, { ...options, n: 2 }),
        }));
        if (opts.json) {
          for (const s of scores) out(JSON.stringify(s));
          return;
        }
        const f = (x: number) => x.toFixed(4);
        out(
          table(
            ["line", "R1 P", "R1 R", "R1 F", "R2 P", "R2 R", "R2 F"],
            scores.map((s, i) => [
              String(i + 1),
              f(s.rouge1.precision),
              f(s.rouge1.recall),
              f(s.rouge1.fmeasure),
              f(s.rouge2.precision),
              f(s.rouge2.recall),
              f(s.rouge2.fmeasure),
            ]),
          ),
        );
        const mean = (g: (s: (typeof scores)[number]) => number) =>
          f(scores.reduce((a, s) => a + g(s), 0) / Math.max(scores.length, 1));
        out(
          `\nmean over ${scores.length} lines: ROUGE-1 F ${mean((s) => s.rouge1.fmeasure)}, ROUGE-2 F ${mean((s) => s.rouge2.fmeasure)}`,
        );
      },
    );
}
