import { pretrainedModelKind } from "@npov/autograd";
import { type CheckInput, checkOutputPath, refuseOutputOverInput, requireNpovInput, writeFileAtomic } from "@npov/core";
import {
  type EncoderInputSalience,
  type EncoderModelCheck,
  EncoderSalience,
  type EncoderWord,
  renderEncoderSalienceHtml,
  renderSalienceHtml,
} from "@npov/salience";
import type { Command } from "commander";
import { loadSalience, salienceJson } from "../detectors.js";
import { checkModelOption, out, outJson, readExample, UsageError, warn, warnAboutModel } from "../util.js";
import { addModelFileOptions, modelFileOptions } from "./model.js";

/** Words with the largest shares, for the summary lines. */
function strongest(words: readonly EncoderWord[], n = 5): string {
  return [...words]
    .sort((a, b) => b.share - a.share)
    .slice(0, n)
    .map((w) => `${w.text} (${w.attribution.toExponential(2)}, ${(100 * w.share).toFixed(0)}%)`)
    .join(", ");
}

/** The `npov salience --json` object of an encoder (sequence classifier) result. */
export function encoderSalienceJson(r: EncoderInputSalience, check: EncoderModelCheck | undefined) {
  return {
    method: r.method,
    variant: r.variant,
    label: r.label,
    labels: r.labels,
    probabilities: r.probabilities,
    scaleInvariant: r.scaleInvariant,
    ...(check !== undefined ? { modelCheck: check } : {}),
    perspectives: r.perspectives,
    words: r.words,
  };
}

/**
 * Salience of a sequence classifier (an NLI cross-encoder): the entailment logit's gradient x input for
 * the arguments (premise) and the response (hypothesis). Says on stderr when the model fails the
 * self-entailment check (random or untrained weights: the maps then mean nothing) or normalizes the
 * embeddings' scale away (gradient x input is 0 by construction).
 */
async function encoderSalience(
  opts: { model: string; variant: string; html?: string; json?: boolean; dtype?: string; modelFile?: string },
  input: CheckInput,
  response: string,
): Promise<void> {
  if (opts.variant !== "grad-x-input" && opts.variant !== "grad-norm")
    throw new UsageError(`--variant must be grad-x-input or grad-norm, got "${opts.variant}".`);
  warnAboutModel(opts.model, "npov-gen", "salience");
  const salience = await EncoderSalience.fromPretrained(opts.model, {
    variant: opts.variant,
    ...modelFileOptions(opts),
  });
  let result: EncoderInputSalience;
  let check: EncoderModelCheck | undefined;
  try {
    check = salience.entailmentIndex === undefined ? undefined : await salience.checkModel();
    result = await salience.scoreInput(input, response);
  } finally {
    await salience.dispose();
  }
  const warnings: string[] = [];
  if (check !== undefined && !check.passed)
    warnings.push(
      `${opts.model} fails the NLI sanity check (entailment ${check.selfEntailment.toFixed(2)} for a sentence with itself, ${check.unrelatedEntailment.toFixed(2)} with an unrelated one): its weights look untrained or random, so these maps say nothing about what a trained model relies on.`,
    );
  if (result.scaleInvariant && result.variant === "grad-x-input")
    warnings.push(
      `${opts.model} normalizes the scale of its word embeddings away (LayerNorm before any position embedding, as DeBERTa-v2/v3 does): gradient x input is about 0 for every word by construction; use --variant grad-norm.`,
    );
  for (const w of warnings) warn(w);
  if (opts.html !== undefined)
    writeFileAtomic(
      opts.html,
      renderEncoderSalienceHtml(result, {
        title: `encoder salience: ${result.label} (${opts.model})`,
        ...(warnings.length > 0 ? { warning: warnings.join(" ") } : {}),
      }),
    );
  if (opts.json) return outJson(encoderSalienceJson(result, check));
  const others = result.labels
    .map((l, k) => (k === result.labelIndex ? "" : `${l} ${(result.probabilities[k] as number).toFixed(3)}`))
    .filter((x) => x !== "");
  out(
    `${result.label} ${(result.probabilities[result.labelIndex] as number).toFixed(3)} (${others.join(", ")})  premise: the arguments (${result.words.arguments.length} words), hypothesis: the response (${result.words.response.length} words)`,
  );
  out(`response words the ${result.label} logit relied on most: ${strongest(result.words.response)}`);
  out(`argument words it relied on most: ${strongest(result.words.arguments)}`);
  if (opts.html !== undefined) out(`heatmap written to ${opts.html}`);
}

export function registerSalience(program: Command): void {
  const command = program
    .command("salience")
    .description(
      "gradient x input salience of one example (SPEC 2.2) -- or, for a sequence classifier (NLI cross-encoder), of its entailment logit over argument and response words -- optionally as an HTML page",
    )
    .requiredOption("--input <file>", 'JSON file {"input": {...}, "response": "..."}')
    .option(
      "--model <path>",
      "model folder (or hub id) in the transformers.js layout: a language model, or a sequence classifier with an entailment label (default: the shipped models/npov-gen)",
    )
    .option("--variant <name>", "grad-x-input | grad-norm", "grad-x-input")
    .option("--html <file>", "write the map as a self-contained page (a heatmap of argument x response words)")
    .option("--json", "machine-readable output");
  addModelFileOptions(command).action(
    async (opts: {
      input: string;
      model?: string;
      variant: string;
      html?: string;
      json?: boolean;
      dtype?: string;
      modelFile?: string;
    }) => {
      const example = readExample(opts.input);
      refuseOutputOverInput(
        [{ flag: "--html", path: opts.html }],
        [
          { flag: "--input", path: opts.input },
          { flag: "--model", path: opts.model },
        ],
      );
      if (opts.html !== undefined) checkOutputPath(opts.html);
      if (opts.model !== undefined) {
        checkModelOption(opts.model, "--model");
        if ((await pretrainedModelKind(opts.model, modelFileOptions(opts))) === "sequence-classifier")
          return encoderSalience({ ...opts, model: opts.model }, example.input, example.response);
      }
      const { detector, warning } = await loadSalience(opts.model, opts.variant, opts);
      const result = await detector.score(requireNpovInput(example.input, "salience"), example.response);
      await detector.dispose();
      if (opts.html !== undefined)
        writeFileAtomic(
          opts.html,
          renderSalienceHtml(result, {
            title: `salience: ${example.input.query}`,
            ...(warning === undefined ? {} : { warning }),
            ...(example.wordLabels === undefined ? {} : { gold: example.wordLabels }),
          }),
        );
      if (opts.json) return outJson(salienceJson(result));
      out(
        `hallucination ${result.hallucination.toFixed(3)}  coverage ${result.coverage.toFixed(3)}  (${result.words.arguments.length} argument words x ${result.words.response.length} response words)`,
      );
      const weakest = [...result.words.response].sort((a, b) => a.attribution - b.attribution).slice(0, 5);
      out(
        `least supported response words: ${weakest.map((w) => `${w.text} (${w.attribution.toFixed(3)})`).join(", ")}`,
      );
      if (opts.html !== undefined) out(`heatmap written to ${opts.html}`);
    },
  );
}
