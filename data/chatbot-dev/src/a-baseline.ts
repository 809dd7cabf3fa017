/**
 * Example-level ROC AUC of the ROUGE-1 detector on both parts, per tune/heldout split (the baseline
 * table of data/chatbot-dev/README.md). Run from the repository root:
 * `npx tsx data/chatbot-dev/src/a-baseline.ts`.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { readExamples, rocAuc } from "../../../packages/core/src/index.ts";
import { rougeDetector } from "../../../packages/rouge/src/index.ts";

const lines = ["| part | split | examples | hallucination AUC | coverage AUC |", "| --- | --- | ---: | ---: | ---: |"];
for (const part of ["part-a", "part-b"]) {
  const file = fileURLToPath(new URL(`../${part}.jsonl`, import.meta.url));
  if (!existsSync(file)) continue;
  const examples = readExamples(file);
  for (const split of ["tune", "heldout", "all"]) {
    const chosen = examples.filter((e) => split === "all" || e.meta?.devSplit === split);
    const scores = chosen.map((e) => rougeDetector(e.input, e.response));
    const auc = (key: "hallucination" | "coverage") =>
      rocAuc(
        scores.map((s) => s[key]),
        chosen.map((e) => e.labels?.[key] === true),
      ).toFixed(3);
    lines.push(`| ${part} | ${split} | ${chosen.length} | ${auc("hallucination")} | ${auc("coverage")} |`);
  }
}
process.stdout.write(`${lines.join("\n")}\n`);
