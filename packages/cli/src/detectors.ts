/**
 * The detector methods the CLI can run, in one table. Every method builds an `ErrorDetector` (the one
 * detector contract of @npov/core); check, eval, calibrate-guard, guard, train-stacked and serve all go
 * through {@link cliDetector} / {@link cliGuard}, so adding a method is one line in {@link DETECTOR_METHODS}.
 */

import { parseModelDtype } from "@npov/autograd";
import {
  BUILTIN_DETECTOR_METHODS,
  createDetector,
  DEFAULT_DETECTOR_METHOD,
  type DetectorMethods,
  type DetectorSpec,
  defaultSoftMatcher,
  type Guard,
  guardConfigDetectors,
  loadGuard,
  loadGuardConfig,
} from "@npov/classifier";
import type { ErrorDetector, NamedPath } from "@npov/core";
import type { SoftMatcher } from "@npov/rouge";
import { SalienceDetector, type SalienceResult } from "@npov/salience";
import type { Command } from "commander";
import {
  ENDPOINT_DETECTOR_METHODS,
  ENDPOINT_METHOD_OPTIONS,
  isEndpointMethod,
  reportEndpointUsage,
} from "./commands/endpoint.js";
import { addModelFileOptions, modelFileOptions } from "./commands/model.js";
import { checkModelOption, integerOption, modelWarning, UsageError, warnAboutModel } from "./util.js";

/**
 * Every detector method by name. To add one, add a line: `name: (spec) => detector` (spec carries --model,
 * --soft-prompt, --stacked, --variant, and the fields of {@link METHOD_OPTIONS}); options it needs go in
 * {@link METHOD_OPTIONS}, an end-of-run report (e.g. usage) in {@link AFTER_RUN}.
 */
export const DETECTOR_METHODS: DetectorMethods = {
  ...BUILTIN_DETECTOR_METHODS,
  ...ENDPOINT_DETECTOR_METHODS,
};

/**
 * Command-line options of added methods: `add` declares them on a command (check, eval, calibrate-guard),
 * `spec` turns the parsed values into detector-spec fields (e.g. `{ endpoint, endpointModel }`).
 */
export interface MethodOptions {
  add(command: Command): Command;
  spec(opts: Record<string, unknown>): Record<string, unknown>;
}

/** The nli method's run options (its model is --model, the weights file --dtype / --model-file). */
export const NLI_METHOD_OPTIONS: MethodOptions = {
  add: (command) =>
    command
      .option(...integerOption("--nli-batch-size <n>", "nli: sentence pairs per model run (default 16)", { min: 1 }))
      .option(
        ...integerOption("--nli-max-pairs <n>", "nli: most sentence pairs one check may score (default 2000)", {
          min: 1,
        }),
      )
      .option(
        "--nli-truncation <policy>",
        "nli: a pair longer than the model's context is cut and reported (report, the default) or refused (error)",
      ),
  spec: (opts) => {
    const truncation = opts.nliTruncation;
    if (truncation !== undefined && truncation !== "report" && truncation !== "error")
      throw new UsageError(`--nli-truncation must be report or error, got "${String(truncation)}".`);
    return {
      ...(opts.nliBatchSize === undefined ? {} : { nliBatchSize: opts.nliBatchSize }),
      ...(opts.nliMaxPairs === undefined ? {} : { nliMaxPairs: opts.nliMaxPairs }),
      ...(truncation === undefined ? {} : { nliTruncation: truncation }),
    };
  },
};

/** The option groups of added methods, in --help order. */
export const METHOD_OPTIONS: MethodOptions[] = [ENDPOINT_METHOD_OPTIONS, NLI_METHOD_OPTIONS];

/**
 * Run after a command has used its detectors, before they are released (e.g. print an endpoint's usage on
 * stderr). Methods that need it push a hook here.
 */
export const AFTER_RUN: Array<(detectors: readonly ErrorDetector[]) => void | Promise<void>> = [reportEndpointUsage];

/** The method names, in table order (for --help and error messages). */
export const METHOD_NAMES: readonly string[] = Object.keys(DETECTOR_METHODS);

/** The one default detector of every command (@npov/classifier's DEFAULT_DETECTOR_METHOD; docs/results.md). */
export const DEFAULT_METHOD: string = DEFAULT_DETECTOR_METHOD;
/** The guard's default detector: the same one default. */
export const DEFAULT_GUARD_METHOD: string = DEFAULT_METHOD;

/** Which shipped model a method loads when --model is not given, and what the model is used for there. */
const MODEL_USE: Readonly<Record<string, { model: string; use: "salience" | "classifier" }>> = {
  salience: { model: "npov-gen", use: "salience" },
  classifier: { model: "npov-cls", use: "classifier" },
};

/**
 * The models a run of `methods` uses, one line per model-based method ("salience: models/npov-gen
 * (shipped)", "likert: M at http://..."), or one line saying no model-based method ran; and the card
 * warnings of the models that are unusable for their use. For reports, which outlive the terminal.
 */
export function modelsOfRun(
  methods: readonly string[],
  spec: { model?: string | undefined; endpoint?: string | undefined; endpointModel?: string | undefined },
): { description: string; warnings: string[] } {
  const lines: string[] = [];
  const warnings: string[] = [];
  for (const method of methods) {
    const use = MODEL_USE[method];
    if (use !== undefined) {
      lines.push(`${method}: ${spec.model ?? `models/${use.model} (shipped)`}`);
      const warning = modelWarning(spec.model, use.model, use.use);
      if (warning !== undefined && !warnings.includes(warning)) warnings.push(warning);
    } else if (method === "stacked" && spec.model !== undefined) lines.push(`stacked: classifier ${spec.model}`);
    else if (isEndpointMethod(method))
      lines.push(
        `${method}: ${spec.endpointModel ?? spec.model ?? "(no model named)"} at ${spec.endpoint ?? "(no endpoint)"}`,
      );
  }
  return {
    description:
      lines.length > 0 ? lines.join("; ") : `none: no model-based method ran (${methods.join(", ")} read no model)`,
    warnings,
  };
}

/**
 * Check a spec before loading anything: the method exists, --model (a path that does not exist is an
 * error, never a hub download), and say once on stderr when the model's card marks it unusable here.
 */
function checkSpec(spec: DetectorSpec): void {
  if (!Object.hasOwn(DETECTOR_METHODS, spec.method))
    throw new UsageError(`unknown method "${spec.method}"; use one of ${METHOD_NAMES.join(", ")}.`);
  if (spec.model !== undefined) checkModelOption(spec.model, "--model");
  const use = MODEL_USE[spec.method];
  if (use !== undefined) warnAboutModel(spec.model, use.model, use.use);
  else if (spec.method === "stacked" && spec.model !== undefined) warnAboutModel(spec.model, "npov-cls", "classifier");
}

/** The detector for a method name (see {@link DETECTOR_METHODS}). */
export async function cliDetector(spec: DetectorSpec): Promise<ErrorDetector> {
  checkSpec(spec);
  return createDetector(spec, DETECTOR_METHODS);
}

/** The detectors for a list of method names sharing one spec (--model etc.). */
export async function cliDetectors(
  methods: readonly string[],
  spec: Omit<DetectorSpec, "method">,
): Promise<ErrorDetector[]> {
  const detectors: ErrorDetector[] = [];
  for (const method of methods) detectors.push(await cliDetector({ ...spec, method }));
  return detectors;
}

/** Run the {@link AFTER_RUN} hooks, then release every detector's native resources. */
export async function finishDetectors(detectors: readonly ErrorDetector[]): Promise<void> {
  try {
    for (const hook of AFTER_RUN) await hook(detectors);
  } finally {
    for (const d of detectors) await d.dispose?.();
  }
}

/** Add the common detector options and those of {@link METHOD_OPTIONS} to a command. */
export function addDetectorOptions(command: Command): Command {
  command
    .option("--model <path>", "model folder (or hub id) for model-based methods (default: the shipped model)")
    .option(
      "--soft-prompt <file>",
      "soft prompt for the classifier (from npov train-classifier; used for the task it was trained for)",
    )
    .option("--stacked <file>", "stacked model for the stacked method (from npov train-stacked)")
    .option("--variant <name>", "salience variant: grad-x-input | grad-norm", "grad-x-input");
  addModelFileOptions(command);
  for (const group of METHOD_OPTIONS) group.add(command);
  return command;
}

/**
 * The files and folders the detector options name (--model, --soft-prompt, --stacked, --prices,
 * --cache-dir), for the check that no output of the command overwrites them.
 */
export function detectorInputPaths(opts: Record<string, unknown>): NamedPath[] {
  const text = (k: string) => (typeof opts[k] === "string" ? (opts[k] as string) : undefined);
  return [
    { flag: "--model", path: text("model") },
    { flag: "--soft-prompt", path: text("softPrompt") },
    { flag: "--stacked", path: text("stacked") },
    { flag: "--prices", path: text("prices") },
    { flag: "--cache-dir", path: text("cacheDir") },
  ];
}

/** The detector spec (minus the method) from parsed command options. */
export function specFromOptions(opts: Record<string, unknown>): Omit<DetectorSpec, "method"> {
  const text = (k: string) => (typeof opts[k] === "string" ? (opts[k] as string) : undefined);
  const [model, softPrompt, stacked, variant] = [text("model"), text("softPrompt"), text("stacked"), text("variant")];
  const [dtype, modelFile] = [text("dtype"), text("modelFile")];
  return {
    ...Object.assign({}, ...METHOD_OPTIONS.map((group) => group.spec(opts))),
    ...(model === undefined ? {} : { model }),
    ...(softPrompt === undefined ? {} : { softPrompt }),
    ...(stacked === undefined ? {} : { stacked }),
    ...(variant === undefined || variant === "grad-x-input" ? {} : { variant }),
    ...(dtype === undefined ? {} : { dtype: parseModelDtype(dtype) }),
    ...(modelFile === undefined ? {} : { modelFile }),
  };
}

/** A guard from a guard.json file (one detector or a cascade), its detectors built from {@link DETECTOR_METHODS}. */
export async function cliGuard(configFile: string): Promise<Guard> {
  const config = loadGuardConfig(configFile);
  for (const spec of guardConfigDetectors(config)) checkSpec(spec);
  return loadGuard(config, { methods: DETECTOR_METHODS });
}

/** The shared soft matcher (shipped vectors). */
export function defaultMatcher(): SoftMatcher {
  return defaultSoftMatcher();
}

/** The `"salience"` object of `npov salience --json`. */
export function salienceJson(r: SalienceResult) {
  return {
    hallucination: r.hallucination,
    coverage: r.coverage,
    variant: r.variant,
    perspectives: r.perspectives,
    words: {
      response: r.words.response.map((w) => ({
        text: w.text,
        start: w.start,
        end: w.end,
        attribution: w.attribution,
        hallucination: w.hallucination,
      })),
      arguments: r.words.arguments.map((w) => ({
        perspective: w.perspective,
        argument: w.argument,
        text: w.text,
        start: w.start,
        end: w.end,
        contribution: w.contribution,
        coverage: w.coverage,
      })),
    },
  };
}

/**
 * Load the salience detector named by --model (default: the shipped models/npov-gen) for `npov salience`,
 * with the warning said on stderr when the model's card marks it unusable for salience (the heatmap page
 * repeats it).
 */
export async function loadSalience(
  model: string | undefined,
  variant = "grad-x-input",
  files: { dtype?: string; modelFile?: string } = {},
): Promise<{ detector: SalienceDetector; warning: string | undefined }> {
  if (variant !== "grad-x-input" && variant !== "grad-norm")
    throw new UsageError(`--variant must be grad-x-input or grad-norm, got "${variant}".`);
  if (model !== undefined) checkModelOption(model, "--model");
  const warning = warnAboutModel(model, "npov-gen", "salience", { hasMethods: false });
  return { detector: await SalienceDetector.fromPretrained(model, { variant, ...modelFileOptions(files) }), warning };
}
