/**
 * The response-shape report of docs/results.md: every detector's ROC AUC with bootstrap intervals on every data
 * shape npov has -- the hand-written chatbot-dev set, the Perspectrum test synthetic slices, chatbot-style
 * answers, the synthetic shapes on test topics (claim first / middle / last, one-sentence, QA, dialogue,
 * summaries, long noisy sources) and the human-labelled grounding sets (FaithDial, HaluEval). Nothing here was
 * trained on: the combiner sees train topics and the tune part only; test topics, the heldout part and the
 * grounding sets are held out (each grounding set's "dev" half informed design choices and is reported apart).
 */
import { join } from "node:path";
import {
  type CheckInput,
  type ErrorDetector,
  InvalidValueError,
  type KnowledgeBase,
  type NpovExample,
  requireNumber,
} from "@npov/core";
import { type EvaluationResult, type EvaluationRow, evaluate } from "@npov/eval";
import { buildChatbotDataset, buildDataset, buildShapeDataset, importFaithDial, importHaluEval } from "@npov/synth";

/** Options of {@link shapeReportData}. */
export interface ShapeReportDataOptions {
  kb: KnowledgeBase;
  seed?: number;
  /** Inputs per test topic of the Perspectrum synthetic slices (default 1). */
  perTopic?: number;
  /** The chatbot-dev examples (meta.devSplit tune | heldout). */
  dev?: readonly NpovExample<CheckInput>[];
  /** npov's `../shared/data/grounding-dev` folder (faithdial-audit/, halueval-qa/), when present. */
  groundingDev?: string;
}

/** Slice order of the report: hand-written first, then synthetic NPOV, shapes, grounding sets. */
export const SHAPE_REPORT_ORDER: readonly string[] = [
  "chatbot-dev heldout",
  "chatbot-dev tune (tuned on)",
  "perspectrum test: unparaphrased-synthetic",
  "perspectrum test: paraphrased-synthetic",
  "perspectrum test: ambiguous-synthetic",
  "chatbot-style synthetic (test topics)",
];

/**
 * The report's examples, each with its slice (see the module comment).
 * @throws NpovError for a bad knowledge base, dev example or grounding folder
 */
export function shapeReportData(options: ShapeReportDataOptions): NpovExample<CheckInput>[] {
  const seed = options.seed ?? 0;
  requireNumber(seed, "options.seed", { integer: true });
  const perTopic = requireNumber(options.perTopic ?? 1, "options.perTopic", { min: 1, integer: true });
  const kb = options.kb;
  const data: NpovExample<CheckInput>[] = [];
  for (const e of options.dev ?? []) {
    const part = e.meta?.devSplit;
    if (part !== "tune" && part !== "heldout")
      throw new InvalidValueError(`${e.id ?? "a dev example"}.meta.devSplit`, 'must be "tune" or "heldout".');
    data.push({ ...e, slice: part === "tune" ? "chatbot-dev tune (tuned on)" : "chatbot-dev heldout" });
  }
  for (const e of buildDataset(kb, { split: "test", seed, perTopic }))
    data.push({ ...e, slice: `perspectrum test: ${e.slice}` });
  for (const e of buildChatbotDataset(kb.split("test"), { seed, perTopic: 1 }))
    data.push({ ...e, slice: "chatbot-style synthetic (test topics)" });
  for (const e of buildShapeDataset(kb.split("test"), { seed, perTopic: 1 }))
    data.push({ ...e, slice: `shape (test topics): ${e.slice}` });
  if (options.groundingDev !== undefined) {
    const half = (e: NpovExample<CheckInput>) => (e.meta?.devSplit === "dev" ? "dev half" : "heldout half");
    for (const e of importFaithDial(join(options.groundingDev, "faithdial-audit")).examples)
      data.push({
        ...e,
        slice: `FaithDial ${e.meta?.responder === "gold" ? "gold replies" : "model replies"} (${half(e)})`,
      });
    for (const e of importHaluEval(join(options.groundingDev, "halueval-qa", "generation__qa__qa_one-turn_data.json"))
      .examples)
      data.push({ ...e, slice: `HaluEval QA (${half(e)})` });
  }
  return data;
}

const cellText = (r: EvaluationRow | undefined) =>
  r?.auc === null || r?.auc === undefined
    ? "--"
    : `${r.auc.toFixed(3)}${r.ci === undefined ? "" : ` [${r.ci.low.toFixed(3)}, ${r.ci.high.toFixed(3)}]`}`;

/** The report as a markdown table: one row per slice and error type, one column per detector. */
export function shapeReportTable(result: EvaluationResult): string {
  const names = result.detectors;
  const lines = [
    `| slice | n | error | ${names.join(" | ")} |`,
    `| --- | ---: | --- | ${names.map(() => "---").join(" | ")} |`,
  ];
  for (const slice of result.slices)
    for (const errorType of ["hallucination", "coverage"] as const) {
      const rows = names.map((d) =>
        result.rows.find(
          (r) => r.slice === slice && r.detector === d && r.errorType === errorType && r.level === "example",
        ),
      );
      if (rows.every((r) => r?.auc === null || r?.auc === undefined)) continue;
      lines.push(`| ${slice} | ${rows[0]?.n ?? 0} | ${errorType} | ${rows.map(cellText).join(" | ")} |`);
    }
  return lines.join("\n");
}

/**
 * Evaluate `detectors` on {@link shapeReportData}'s examples (bootstrap 95% intervals).
 * @throws what shapeReportData and evaluate throw
 */
export async function shapeReport(
  options: ShapeReportDataOptions & {
    detectors: readonly ErrorDetector[];
    resamples?: number;
    onProgress?: (done: number, total: number) => void;
  },
): Promise<{ result: EvaluationResult; table: string; data: NpovExample<CheckInput>[] }> {
  const data = shapeReportData(options);
  const result = await evaluate(data, options.detectors, {
    bootstrap: { resamples: options.resamples ?? 200, seed: options.seed ?? 0 },
    pooled: false,
    sliceOrder: SHAPE_REPORT_ORDER,
    ...(options.onProgress === undefined ? {} : { onProgress: options.onProgress }),
  });
  return { result, table: shapeReportTable(result), data };
}
