/** Detectors the CLI can run, with their JSON shapes and adapters to @npov/eval. */
import type { NpovInput } from "@npov/core";
import type { Detector, DetectorOutput } from "@npov/eval";
import { SalienceDetector, type SalienceResult } from "@npov/salience";
import { UsageError } from "./util.js";

/** The `"salience"` object of `npov check --json`. */
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

/** Load the salience detector named by --model (required). */
export async function loadSalience(model: string | undefined, variant = "grad-x-input"): Promise<SalienceDetector> {
  if (model === undefined)
    throw new UsageError("salience needs --model PATH (a model folder in the transformers.js layout).");
  if (variant !== "grad-x-input" && variant !== "grad-norm")
    throw new UsageError(`--variant must be grad-x-input or grad-norm, got "${variant}".`);
  return SalienceDetector.fromPretrained(model, { variant });
}

/** Salience as an evaluation detector (example- and word-level scores). */
export function salienceEvalDetector(detector: SalienceDetector): Detector {
  return {
    name: "salience",
    async score(input: NpovInput, response: string): Promise<DetectorOutput> {
      const r = await detector.score(input, response);
      return {
        hallucination: r.hallucination,
        coverage: r.coverage,
        words: {
          response: r.words.response.map((w) => ({ start: w.start, end: w.end, score: w.hallucination })),
          arguments: r.words.arguments.map((w) => ({
            perspective: w.perspective,
            argument: w.argument,
            start: w.start,
            end: w.end,
            score: w.coverage,
          })),
        },
      };
    },
  };
}
