import { existsSync } from "node:fs";
import { join } from "node:path";
import { YesNoClassifier } from "@npov/classifier";
import {
  checkOutputPath,
  FileFormatError,
  type FileIssue,
  forEachJsonLine,
  type KnowledgeBase,
  openKnowledgeBase,
  readJsonFile,
  readTextFile,
  refuseOutputOverInput,
  rocAuc,
  sampleInputs,
  writeFileAtomic,
} from "@npov/core";
import { LocalGenerator } from "@npov/generate";
import { rougeDetector } from "@npov/rouge";
import { buildDataset, writeReferenceResponse } from "@npov/synth";
import type { HistoryEntry } from "@npov/train";
import type { Command } from "commander";
import { integerOption, out, UsageError } from "../util.js";

/** Generator dev metrics: parse rate and ROUGE judgments of greedy generations on held-back dev topics. */
export async function generatorDevMetrics(modelDir: string, kbs: KnowledgeBase[], n: number) {
  const generator = await LocalGenerator.fromPretrained(modelDir);
  const inputs = kbs
    .flatMap((kb) =>
      kb
        .split("dev")
        .filter((t) => t.perspectives.length >= 2)
        .flatMap((t) => sampleInputs(t, { count: 1, seed: 5 })),
    )
    .slice(0, n);
  let parsed = 0;
  let errorFree = 0;
  let refErrorFree = 0;
  const samples: Array<{ query: string; response: string }> = [];
  const precision: number[] = [];
  const recall: number[] = [];
  for (const input of inputs) {
    // "Error-free by ROUGE": every perspective's recall >= 0.75 and precision >= 0.5 (the reference
    // writer's own responses pass this on the same inputs at the rate printed beside it).
    const judge = (response: string) => {
      const r = rougeDetector(input, response);
      return { ok: r.coverage <= 0.25 && r.hallucination <= 0.5, r };
    };
    if (judge(writeReferenceResponse(input, { seed: 5 }).response).ok) refErrorFree++;
    try {
      const g = await generator.generate(input, { maxNewTokens: 192 });
      parsed++;
      const { ok, r } = judge(g.response);
      if (ok) errorFree++;
      precision.push(r.precision);
      recall.push(r.recall);
      if (samples.length < 5) samples.push({ query: input.query, response: g.response });
    } catch {
      // malformed output: counted as not parsed
    }
  }
  const mean = (xs: number[]) => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);
  return {
    n: inputs.length,
    parsed,
    errorFree,
    refErrorFree,
    meanPrecision: mean(precision),
    meanRecall: mean(recall),
    samples,
  };
}

/** Classifier dev metrics: ROC AUC per task on synthetic dev examples. */
export async function classifierDevMetrics(modelDir: string, kbs: KnowledgeBase[], n: number) {
  const classifier = await YesNoClassifier.fromPretrained(modelDir, { task: "both" });
  const dev = kbs
    .flatMap((kb) =>
      buildDataset(kb, {
        split: "dev",
        seed: 5,
        perTopic: 1,
        slices: ["unparaphrased-synthetic", "paraphrased-synthetic"],
      }),
    )
    .slice(0, n);
  const result: Record<string, number> = {};
  for (const task of ["coverage", "hallucination"] as const) {
    const scores = await classifier.scoreBatch(dev, task);
    result[task] = rocAuc(
      scores,
      dev.map((e) => e.labels?.[task] === true),
    );
  }
  await classifier.dispose();
  return { n: dev.length, auc: result };
}

export function registerCard(program: Command): void {
  program
    .command("model-card")
    .description("evaluate a trained model on held-back dev topics and write its README.md model card")
    .requiredOption("--model <dir>", "exported model folder")
    .requiredOption("--work <dir>", "the training work folder (history.jsonl, checkpoint/state.json)")
    .requiredOption("--task <task>", "generate | classify")
    .option("--kb <list>", "knowledge bases", "fixtures,perspectrum")
    .option(...integerOption("--dev-examples <n>", "dev inputs/examples to evaluate", { min: 1, max: 100_000 }, 60))
    .action(async (opts: { model: string; work: string; task: string; kb: string; devExamples: number }) => {
      if (opts.task !== "generate" && opts.task !== "classify")
        throw new UsageError("--task must be generate or classify.");
      if (!existsSync(opts.model)) throw new UsageError(`${opts.model} does not exist.`);
      // The card goes into the model folder (that is its purpose), never over the training records it reads.
      refuseOutputOverInput(
        [{ flag: "--model", path: join(opts.model, "README.md") }],
        [
          { flag: "--work", path: join(opts.work, "history.jsonl") },
          { flag: "--work", path: join(opts.work, "checkpoint", "state.json") },
        ],
      );
      checkOutputPath(join(opts.model, "README.md"));
      const historyFile = join(opts.work, "history.jsonl");
      const history: HistoryEntry[] = [];
      const issues: FileIssue[] = [];
      forEachJsonLine(readTextFile(historyFile), historyFile, issues, (value) => history.push(value as HistoryEntry));
      if (issues.length > 0) throw new FileFormatError(issues);
      const state = readJsonFile(join(opts.work, "checkpoint", "state.json")) as {
        step: number;
        config: Record<string, number>;
        options: Record<string, number>;
        elapsedSeconds: number;
        parameters: Array<{ dims: number[] }>;
      };
      const params = state.parameters.reduce((a, p) => a + p.dims.reduce((x, y) => x * y, 1), 0);
      const kbs = opts.kb.split(",").map((k) => openKnowledgeBase(k.trim()));
      const n = opts.devExamples;
      const curve = history
        .filter((h) => h.devLoss !== undefined)
        .map((h) => `| ${h.step} | ${h.loss.toFixed(3)} | ${h.devLoss?.toFixed(3)} | ${(h.seconds / 60).toFixed(1)} |`);
      let metrics: string;
      if (opts.task === "generate") {
        const m = await generatorDevMetrics(opts.model, kbs, n);
        metrics =
          `Greedy generations for ${m.n} inputs sampled from held-back **dev** topics (never seen in training):\n\n` +
          `* parsed as \`<opening>} Neutral response core: {<core>}\`: ${m.parsed} / ${m.n}\n` +
          `* judged error-free by ROUGE (every perspective's recall >= 0.75 and precision >= 0.5): **${m.errorFree} / ${m.n}** (the reference writer's own responses: ${m.refErrorFree} / ${m.n})\n` +
          `* mean ROUGE precision ${m.meanPrecision.toFixed(3)}, mean min-perspective recall ${m.meanRecall.toFixed(3)}\n\nSample dev generations:\n\n${m.samples.map((s) => `* **${s.query}** ${s.response}`).join("\n")}\n`;
      } else {
        const m = await classifierDevMetrics(opts.model, kbs, n);
        metrics = `P(NO) as the error score on ${m.n} synthetic **dev** examples (unparaphrased and paraphrased slices): ROC AUC coverage **${m.auc.coverage?.toFixed(3)}**, hallucination **${m.auc.hallucination?.toFixed(3)}**.\n`;
      }
      const card =
        `# ${opts.task === "generate" ? "npov-gen" : "npov-cls"}\n\n` +
        `A T5-like encoder-decoder trained from scratch by npov with @npov/autograd (no pretrained weights exist on the project's machines). ` +
        (opts.task === "generate"
          ? "It reads the Figure 3 generator prompt and writes `<opening>} Neutral response core: {<core>}`. It is the default model of `LocalGenerator` and `SalienceDetector`.\n\n"
          : "It reads a Figure 4 classifier prompt (coverage or hallucination) and answers `YES}` (no error) or `NO}`; the error score is P(NO). It is the default model of `YesNoClassifier`.\n\n") +
        `* Size: ${params.toLocaleString("en-US")} parameters (d_model ${state.config.dModel}, ${state.config.numLayers}+${state.config.numDecoderLayers} layers, ${state.config.numHeads} heads, d_ff ${state.config.dFf}, vocabulary ${state.config.vocabSize} from a BPE tokenizer trained on the training texts), fp32.\n` +
        `* Data: ${opts.task === "generate" ? `Figure 3 prompts for inputs sampled from the **train** topics of ${opts.kb} (Perspectrum is CC BY-SA 4.0), answered by the reference writer in both styles, plus 40% extra inputs whose arguments are random word sequences (they can only be verbalized by copying, which teaches copying rather than memorizing topics)` : `Figure 4 prompts (both tasks) for synthetic-error examples (unparaphrased and paraphrased slices) of the **train** topics of ${opts.kb}, targets YES}/NO}`}.\n` +
        `* Training: ${state.step} steps of batch ${state.options.batchSize}, Adam lr ${state.options.lr} with ${state.options.warmupSteps} warm-up steps and linear decay (over ${state.options.steps} planned steps), gradient clipping ${state.options.clipNorm}, seed ${state.options.seed}; ${(state.elapsedSeconds / 60).toFixed(0)} min on 2 CPU cores (shared with other work).\n` +
        `* Reproduce: \`pnpm npov train-model --task ${opts.task} --work WORK --out OUT\` with the options above (resumable: rerun the same command).\n\n` +
        `## Dev metrics\n\n${metrics}\n## Training curve\n\n| step | train loss | dev loss | minutes |\n|---:|---:|---:|---:|\n${curve.join("\n")}\n\n` +
        `## Limitations\n\nA few million parameters trained for an hour on template-written responses: it learns the response format and copies argument text, but it has no world knowledge, no fluency beyond the templates, and it is only as good as the synthetic data. Perspectrum-derived: CC BY-SA 4.0 applies to the weights.\n`;
      writeFileAtomic(join(opts.model, "README.md"), card);
      out(`model card written to ${join(opts.model, "README.md")}`);
    });
}
