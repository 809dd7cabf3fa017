import {
  inspectModel,
  modelFileOptions as loaderModelFileOptions,
  MODEL_DTYPES,
  MODEL_FEATURES,
  type ModelFeature,
  type ModelInspection,
} from "@npov/autograd";
import type { Command } from "commander";
import { checkModelOption, out, outJson } from "../util.js";

/** `--dtype` and `--model-file` for every command that takes `--model` (transformers.js naming). */
export function addModelFileOptions(command: Command): Command {
  return command
    .option(
      "--dtype <dtype>",
      `weights variant: ${MODEL_DTYPES.join(" | ")} (default: config.json's transformers.js_config.dtype, else fp32, else the only variant in the folder)`,
    )
    .option(
      "--model-file <name>",
      "decoder file base name, e.g. decoder_model_merged (default: model, then decoder_model, then decoder_model_merged)",
    );
}

/** The load options `--dtype` / `--model-file` ask for, validated (one rule with guard configs). */
export const modelFileOptions = loaderModelFileOptions;

const mark = (ok: boolean) => (ok ? "yes" : "NO");

/** How a model kind is named for a user. */
const KIND_TEXT: Record<ModelInspection["kind"], string> = {
  causal: "causal language model",
  seq2seq: "seq2seq language model",
  "sequence-classifier": "sequence classifier",
};

/** A feature as named in the "not ..." list (what the name stands for, when it is not obvious). */
const FEATURE_TEXT: Record<ModelFeature, string> = {
  generation: "generation",
  scoring: "scoring (the YES/NO prompt classifier)",
  salience: "salience",
  tuning: "tuning (its soft prompt)",
  nli: "nli (needs a sequence classifier with an entailment label)",
};

/**
 * A plain-text summary of an inspection: the model kind and the features that make sense for it, then one
 * block per variant with those features and what blocks each.
 */
export function formatInspection(r: ModelInspection): string {
  const what = [
    ...(r.architectures.length > 0 ? [r.architectures.join(", ")] : []),
    ...(r.labels !== undefined ? [`labels ${r.labels.join(", ")}`] : []),
  ];
  const lines = [
    `${r.dir}: ${r.modelType || "unknown model_type"} (${KIND_TEXT[r.kind]}${what.length > 0 ? `: ${what.join("; ")}` : ""})`,
  ];
  const others = MODEL_FEATURES.filter((f) => !r.applicableFeatures.includes(f));
  lines.push(
    `  features that make sense: ${r.applicableFeatures.join(", ")} -- not ${others.map((f) => FEATURE_TEXT[f]).join(", ")}`,
  );
  for (const v of r.variants) {
    const shown = r.applicableFeatures.map((f) => `${f} ${mark(v.features[f].supported)}`).join("  ");
    lines.push(`  ${v.dtype.padEnd(6)} ${v.files.map((x) => x.file).join(" + ")}  ${shown}`);
    const blockers = new Set(
      r.applicableFeatures.flatMap((name) => v.features[name].blockers.map((b) => `${name}: ${b}`)),
    );
    for (const b of blockers) lines.push(`      ${b}`);
    const contrib = new Set(v.files.flatMap((x) => x.ops.filter((o) => o.includes(":"))));
    if (contrib.size > 0) lines.push(`      contrib ops (rewritten in standard ONNX ops): ${[...contrib].join(", ")}`);
  }
  return lines.join("\n");
}

export function registerModel(program: Command): void {
  const model = program.command("model").description("what npov can do with a model folder");
  model
    .command("inspect")
    .description(
      "what kind of model a folder holds (causal, seq2seq, sequence classifier) and which npov features it supports, per dtype file",
    )
    .requiredOption("--model <dir>", "model folder in the transformers.js layout (config.json, tokenizer.json, onnx/)")
    .option("--deep", "also build each gradient graph and load it in onnxruntime (slower, sees shapes)")
    .option("--json", "machine-readable output")
    .action(async (opts: { model: string; deep?: boolean; json?: boolean }) => {
      checkModelOption(opts.model, "--model");
      const r = await inspectModel(opts.model, { deep: opts.deep === true });
      if (opts.json) return outJson(r);
      out(formatInspection(r));
    });
}
