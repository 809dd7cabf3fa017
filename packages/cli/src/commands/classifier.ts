import {
  loadEmbeddingModel,
  saveGuardConfig,
  saveSoftPrompt,
  saveStacked,
  trainStacked,
  tuneSoftPrompt,
} from "@npov/classifier";
import { checkOutputPath, refuseOutputOverInput, requireNpovExamples } from "@npov/core";
import { calibrateThresholds } from "@npov/eval";
import type { Command } from "commander";
import {
  addDetectorOptions,
  cliDetector,
  cliDetectors,
  cliGuard,
  DEFAULT_GUARD_METHOD,
  detectorInputPaths,
  finishDetectors,
  METHOD_NAMES,
  specFromOptions,
} from "../detectors.js";
import { progressBar } from "../progress.js";
import {
  checkModelOption,
  integerOption,
  numberOption,
  out,
  outJson,
  parseList,
  readDataset,
  readExample,
  requireBothOutcomes,
  SEED_RANGE,
  UsageError,
  warn,
} from "../util.js";
import { addCascadeOptions, calibrateCascadeCommand } from "./cascade.js";
import { modelFileOptions } from "./model.js";

/** Training loops: most steps and largest batch the options accept. */
const MAX_STEPS = 10_000_000;
const MAX_BATCH = 4096;

/** The numeric options of train-classifier, as the option parsers return them. */
interface TrainClassifierNumbers {
  steps: number;
  lr: number;
  warmup: number;
  batchSize: number;
  evalEvery: number;
  patience: number;
  seed: number;
}

/** Below this recall at the chosen threshold, calibrate-guard warns that the guard lets most errors through. */
export const LOW_RECALL = 0.5;

export function registerClassifier(program: Command): void {
  program
    .command("train-classifier")
    .description("soft-prompt tune a YES/NO classifier (SPEC 2.3; defaults are the paper's hyperparameters)")
    .requiredOption("--task <task>", "coverage | hallucination")
    .requiredOption("--model <path>", "model folder (transformers.js layout)")
    .requiredOption("--train <file>", "training dataset JSONL (e.g. from npov synth --split train)")
    .requiredOption("--dev <file>", "dev dataset JSONL for ROC AUC and early stopping")
    .requiredOption("--out <file>", "soft-prompt file to write")
    .option(...integerOption("--steps <n>", "maximum steps", { min: 1, max: MAX_STEPS }, 20000))
    .option(...numberOption("--lr <x>", "peak learning rate", { min: 0, minExclusive: true, max: 100 }, 0.1))
    .option(...integerOption("--warmup <n>", "warm-up steps", { min: 0, max: MAX_STEPS }, 500))
    .option(...integerOption("--batch-size <n>", "examples per step", { min: 1, max: MAX_BATCH }, 16))
    .option(...integerOption("--eval-every <n>", "dev evaluation interval", { min: 1, max: MAX_STEPS }, 200))
    .option(
      ...integerOption(
        "--patience <n>",
        "evaluations without improvement before stopping",
        { min: 1, max: MAX_STEPS },
        5,
      ),
    )
    .option(...integerOption("--seed <n>", "random seed", SEED_RANGE, 0))
    .option("--json", "print the summary as JSON")
    .option("--dtype <dtype>", "weights variant of --model: fp32 | fp16 | q8 | int8 | uint8 | q4 | q4f16 | bnb4")
    .option("--model-file <name>", "decoder file base name, e.g. decoder_model_merged")
    .action(async (opts: Record<string, string> & TrainClassifierNumbers & { json?: boolean }) => {
      const task = opts.task;
      if (task !== "coverage" && task !== "hallucination")
        throw new UsageError(`--task must be coverage or hallucination, got "${task}".`);
      refuseOutputOverInput(
        [{ flag: "--out", path: opts.out }],
        [
          { flag: "--model", path: opts.model },
          { flag: "--train", path: opts.train },
          { flag: "--dev", path: opts.dev },
        ],
      );
      checkOutputPath(opts.out as string);
      checkModelOption(opts.model as string, "--model");
      const em = await loadEmbeddingModel(
        opts.model as string,
        modelFileOptions({
          ...(opts.dtype ? { dtype: opts.dtype } : {}),
          ...(opts.modelFile ? { modelFile: opts.modelFile } : {}),
        }),
      );
      const bar = progressBar("tuning", " loss {loss} dev AUC {auc}");
      let auc = "-";
      const result = await tuneSoftPrompt(
        em,
        requireNpovExamples(readDataset(opts.train as string), "train-classifier"),
        requireNpovExamples(readDataset(opts.dev as string), "train-classifier"),
        {
          task,
          steps: opts.steps,
          lr: opts.lr,
          warmupSteps: opts.warmup,
          batchSize: opts.batchSize,
          evalEvery: opts.evalEvery,
          patience: opts.patience,
          seed: opts.seed,
          modelName: opts.model as string,
          onProgress: (p) => {
            if (p.devAuc !== undefined) auc = p.devAuc.toFixed(3);
            bar.update(p.step, p.steps, { loss: p.loss.toFixed(3), auc });
          },
        },
      );
      bar.stop();
      saveSoftPrompt(opts.out as string, result.prompt);
      const summary = {
        out: opts.out,
        task,
        steps: result.history.length - 1,
        bestStep: result.prompt.meta.steps,
        devAuc: result.prompt.meta.devAuc,
        stoppedEarly: result.stoppedEarly,
        initialDevAuc: result.history[0]?.devAuc ?? null,
      };
      if (opts.json) return outJson(summary);
      out(
        `trained ${summary.steps} steps (best dev ROC AUC ${summary.devAuc?.toFixed(3) ?? "n/a"} at step ${summary.bestStep}; initial ${summary.initialDevAuc?.toFixed(3) ?? "n/a"})${result.stoppedEarly ? ", stopped early" : ""}\nsoft prompt written to ${opts.out}`,
      );
    });

  program
    .command("train-stacked")
    .description("train the stacked logistic-regression classifier over detector features")
    .requiredOption("--train <file>", "labelled dataset JSONL")
    .option("--methods <list>", "feature sources: rouge[,classifier]", "rouge")
    .option("--model <path>", "model folder for the classifier source")
    .requiredOption("--out <file>", "stacked model JSON to write")
    .option("--dtype <dtype>", "weights variant of --model")
    .option("--model-file <name>", "decoder file base name of --model")
    .action(
      async (opts: {
        train: string;
        methods: string;
        model?: string;
        out: string;
        dtype?: string;
        modelFile?: string;
      }) => {
        const methods = parseList(opts.methods, ["rouge", "classifier"] as const, "--methods");
        refuseOutputOverInput(
          [{ flag: "--out", path: opts.out }],
          [
            { flag: "--train", path: opts.train },
            { flag: "--model", path: opts.model },
          ],
        );
        checkOutputPath(opts.out);
        const train = readDataset(opts.train);
        requireBothOutcomes(train, opts.train);
        const sources = await cliDetectors(methods, {
          ...(opts.model === undefined ? {} : { model: opts.model }),
          ...(opts.dtype === undefined ? {} : { dtype: opts.dtype }),
          ...(opts.modelFile === undefined ? {} : { modelFile: opts.modelFile }),
        });
        const model = await trainStacked(sources, train).finally(() => finishDetectors(sources));
        saveStacked(opts.out, model);
        out(`stacked classifier over ${model.hallucination.features.length} features written to ${opts.out}`);
      },
    );

  const calibrateGuard = addDetectorOptions(
    program
      .command("calibrate-guard")
      .description(
        "choose guard thresholds on a labelled dev set (target false-positive rate) and write the guard config",
      )
      .requiredOption("--data <file>", "labelled dev dataset JSONL")
      .option("--method <name>", `detector: ${METHOD_NAMES.join(" | ")}`, DEFAULT_GUARD_METHOD),
  )
    .option(
      ...numberOption(
        "--target-fpr <x>",
        "largest tolerated false-positive rate per error type",
        { min: 0, max: 1 },
        0.05,
      ),
    )
    .requiredOption("--out <file>", "guard config JSON to write");
  addCascadeOptions(calibrateGuard).action(
    async (opts: { data: string; method: string; targetFpr: number; out: string } & Record<string, unknown>) => {
      if (typeof opts.cascade === "string")
        return calibrateCascadeCommand({ ...opts, cascade: opts.cascade, targetRecall: opts.targetRecall as number });
      const target = opts.targetFpr;
      refuseOutputOverInput(
        [{ flag: "--out", path: opts.out }],
        [{ flag: "--data", path: opts.data }, ...detectorInputPaths(opts)],
      );
      checkOutputPath(opts.out);
      const data = readDataset(opts.data);
      // Sources answers usually carry no coverage labels: that type is then left unchecked (threshold 2).
      requireBothOutcomes(data, opts.data, { allowUnlabelled: true });
      const spec = { method: opts.method, ...specFromOptions(opts) };
      const detector = await cliDetector(spec);
      const bar = progressBar("calibrating");
      const c = await calibrateThresholds(data, detector, {
        rule: { rule: "fpr", target },
        onProgress: (d, t) => bar.update(d, t),
      }).finally(() => {
        bar.stop();
        return finishDetectors([detector]);
      });
      saveGuardConfig(opts.out, {
        format: "npov-guard/1",
        detector: spec,
        thresholds: c.thresholds,
        calibration: { rule: c.rule, data: opts.data, n: c.n, metrics: c.metrics },
      });
      const unchecked = new Set(c.unchecked ?? []);
      const part = (t: "hallucination" | "coverage") =>
        unchecked.has(t)
          ? `${t} not checked (no example labels it; threshold ${c.thresholds[t]} never flags)`
          : `${t} ${c.thresholds[t].toFixed(4)} (recall ${c.metrics[t].recall.toFixed(3)}, FPR ${c.metrics[t].fpr.toFixed(3)})`;
      out(
        `thresholds (${opts.method}): ${part("hallucination")}, ${part("coverage")}\nguard config written to ${opts.out}`,
      );
      for (const t of (["hallucination", "coverage"] as const).filter((x) => !unchecked.has(x))) {
        const recall = c.metrics[t].recall;
        if (recall < LOW_RECALL)
          warn(
            `at FPR <= ${target} the guard catches only ${(100 * recall).toFixed(0)}% of ${t} errors on ${opts.data} (recall ${recall.toFixed(3)} < ${LOW_RECALL}); raise --target-fpr or use a stronger --method (see npov eval).`,
          );
      }
    },
  );

  program
    .command("guard")
    .description("check one example with a guard config: allow or not, with scores, thresholds and evidence (JSON)")
    .requiredOption("--config <file>", "guard config JSON (from npov calibrate-guard)")
    .requiredOption("--input <file>", 'JSON file {"input": {...}, "response": "..."}')
    .option("--exit-code", "exit with 3 when the response is not allowed")
    .action(async (opts: { config: string; input: string; exitCode?: boolean }) => {
      const guard = await cliGuard(opts.config);
      const example = readExample(opts.input);
      const verdict = await guard.check(example.input, example.response);
      outJson(verdict);
      if (opts.exitCode && !verdict.allow) process.exitCode = 3;
    });
}
