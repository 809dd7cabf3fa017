import {
  checkOutputPath,
  defaultPerspectrumDir,
  importPerspectrum,
  openKnowledgeBase,
  parseSplit,
  refuseOutputOverInput,
  writeKnowledgeBase,
} from "@npov/core";
import type { Command } from "commander";
import { out, outJson, table } from "../util.js";

export function registerKb(program: Command): void {
  const kb = program.command("kb").description("inspect and import knowledge bases");
  kb.command("list")
    .description("list the topics of a knowledge base")
    .option("--kb <spec>", 'knowledge base: "fixtures", "perspectrum" or a path to a .jsonl file/folder', "fixtures")
    .option("--split <split>", "only topics of this split (train, dev, test)")
    .option("--json", "machine-readable output")
    .action((opts: { kb: string; split?: string; json?: boolean }) => {
      const base = openKnowledgeBase(opts.kb);
      const topics = opts.split === undefined ? base.topics : base.split(parseSplit(opts.split));
      if (opts.json) {
        outJson(
          topics.map((t) => ({
            id: t.id,
            title: t.title,
            query: t.query,
            split: t.split,
            perspectives: t.perspectives.map((p) => ({ label: p.label, arguments: p.arguments.length })),
          })),
        );
        return;
      }
      out(
        table(
          ["id", "split", "arguments", "query"],
          topics.map((t) => [
            t.id,
            t.split,
            t.perspectives.map((p) => `${p.label} ${p.arguments.length}`).join(", "),
            t.query,
          ]),
        ),
      );
      const counts = base.splitCounts();
      out(
        `\n${topics.length} topics (train ${counts.train}, dev ${counts.dev}, test ${counts.test} in the whole base)`,
      );
    });
  kb.command("show")
    .description("show one topic with all its arguments")
    .argument("<id>", "topic id")
    .option("--kb <spec>", 'knowledge base: "fixtures", "perspectrum" or a path', "fixtures")
    .option("--json", "machine-readable output")
    .action((id: string, opts: { kb: string; json?: boolean }) => {
      const topic = openKnowledgeBase(opts.kb).get(id);
      if (opts.json) return outJson(topic);
      out(`${topic.id} (${topic.split})\ntitle: ${topic.title}\nquery: ${topic.query}`);
      for (const p of topic.perspectives) {
        out(`\n${p.label}:`);
        for (const a of p.arguments) {
          out(`  - ${a.text}  [${a.id ?? ""}]`);
          for (const para of a.paraphrases ?? []) out(`      ~ ${para}`);
        }
      }
    });
  kb.command("import-perspectrum")
    .description("convert Perspectrum (CC BY-SA 4.0) into an npov knowledge-base JSONL file")
    .option("--dir <dir>", "Perspectrum data folder", defaultPerspectrumDir())
    .requiredOption("--out <file>", "output .jsonl file (written atomically)")
    .option("--json", "print the summary as JSON")
    .action((opts: { dir: string; out: string; json?: boolean }) => {
      refuseOutputOverInput([{ flag: "--out", path: opts.out }], [{ flag: "--dir", path: opts.dir }]);
      checkOutputPath(opts.out);
      const base = importPerspectrum(opts.dir);
      writeKnowledgeBase(opts.out, base.topics);
      const counts = base.splitCounts();
      const summary = {
        topics: base.topics.length,
        ...counts,
        out: opts.out,
        license: "CC BY-SA 4.0 (Perspectrum, Chen et al. 2019)",
      };
      if (opts.json) outJson(summary);
      else
        out(
          `wrote ${summary.topics} topics (train ${counts.train}, dev ${counts.dev}, test ${counts.test}) to ${opts.out}\nlicense: ${summary.license}`,
        );
    });
}
