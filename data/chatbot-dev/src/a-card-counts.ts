/**
 * Print the counts table of data/chatbot-dev/README.md (examples per kind and tune/heldout split, both
 * parts). Run from the repository root: `npx tsx data/chatbot-dev/src/a-card-counts.ts`.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { NpovExample } from "../../../packages/core/src/index.ts";
import { readExamples } from "../../../packages/core/src/index.ts";

const KINDS = [
  "clean",
  "hallucination",
  "coverage",
  "both",
  "partial-hallucination",
  "partial-coverage",
  "repetition",
  "perspective-confusion",
];
const parts = ["part-a", "part-b"].map((p) => fileURLToPath(new URL(`../${p}.jsonl`, import.meta.url)));
const examples: NpovExample[] = parts.filter((f) => existsSync(f)).flatMap((f) => readExamples(f));
const columns: Array<[string, (e: NpovExample) => boolean]> = [
  ["part a tune", (e) => e.id!.includes("/a-") && e.meta?.devSplit === "tune"],
  ["part a heldout", (e) => e.id!.includes("/a-") && e.meta?.devSplit === "heldout"],
  ["part b tune", (e) => e.id!.includes("/b-") && e.meta?.devSplit === "tune"],
  ["part b heldout", (e) => e.id!.includes("/b-") && e.meta?.devSplit === "heldout"],
  ["tune", (e) => e.meta?.devSplit === "tune"],
  ["heldout", (e) => e.meta?.devSplit === "heldout"],
  ["all", () => true],
];
const count = (pick: (e: NpovExample) => boolean) => examples.filter(pick).length;
const topics = (pick: (e: NpovExample) => boolean) => new Set(examples.filter(pick).map((e) => e.topicId)).size;
const lines = [
  `| kind | ${columns.map(([name]) => name).join(" | ")} | share |`,
  `| --- | ${columns.map(() => "---:").join(" | ")} | ---: |`,
];
for (const kind of KINDS) {
  const ofKind = (e: NpovExample) => e.meta?.kind === kind;
  const cells = columns.map(([, pick]) => count((e) => pick(e) && ofKind(e)));
  lines.push(`| ${kind} | ${cells.join(" | ")} | ${((100 * count(ofKind)) / examples.length).toFixed(1)}% |`);
}
lines.push(`| **total** | ${columns.map(([, pick]) => count(pick)).join(" | ")} | 100% |`);
lines.push(`| topics | ${columns.map(([, pick]) => topics(pick)).join(" | ")} | |`);
process.stdout.write(`${lines.join("\n")}\n`);
