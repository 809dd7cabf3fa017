import {
  inspectModel,
  modelFileOptions as loaderModelFileOptions,
  MODEL_DTYPES,
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

/** A plain-text summary of an inspection: one block per variant, blockers under each feature. */
export function formatInspection(r: ModelInspection): string {
  const lines = [`${r.dir}: ${r.modelType || "unknown model_type"} (${r.kind})`];
  for (const v of r.variants) {
    const f = v.features;
    lines.push(
      `  ${v.dtype.padEnd(6)} ${v.files.map((x) => x.file).join(" + ")}  generation ${mark(f.generation.supported)}  scoring ${mark(f.scoring.supported)}  salience ${mark(f.salience.supported)}  tuning ${mark(f.tuning.supported)}`,
    );
    const blockers = new Set(Object.entries(f).flatMap(([name, s]) => s.blockers.map((b) => `${name}: ${b}`)));
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
    .description("which npov features (generation, scoring, salience, tuning) a model folder supports, per dtype file")
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
