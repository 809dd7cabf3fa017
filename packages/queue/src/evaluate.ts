/**
 * Evaluation of a scored run with @npov/eval's own `evaluate`: the recorded scores are replayed through
 * detectors that return them, so AUCs, curves and thresholds come from the same code as an evaluation that
 * runs the detectors directly, and are bit-identical to it.
 */
import type { CheckInput, ErrorDetector, ErrorScores, NpovExample } from "@npov/core";
import { type EvaluateOptions, type EvaluationResult, evaluate } from "@npov/eval";
import { AllExamplesFailedError } from "./errors.js";
import type { ScoredRun } from "./run.js";
import { type FailedItem, isFailedItem, type ScoredItem, type ScoreField } from "./score.js";

/**
 * Detectors that hand back recorded scores in order: `recorded[d][k]` is what detector d returns on its
 * k-th call; each call must be for the recorded response (else they throw: a replay out of step is a bug).
 */
export function replayDetectors(
  names: readonly string[],
  recorded: ReadonlyArray<ReadonlyArray<{ response: string; scores: ErrorScores }>>,
): ErrorDetector[] {
  return names.map((name, d) => {
    const calls = recorded[d] ?? [];
    let next = 0;
    return {
      name,
      detect(_input, response) {
        const call = calls[next++];
        if (call === undefined || call.response !== response)
          throw new Error(`internal: replay of ${name} out of step at call ${next - 1}`);
        return call.scores;
      },
    };
  });
}

/** The evidence fields an evaluation of `dataset` needs: word maps only when some example has word labels. */
export function evaluationFields(dataset: readonly NpovExample<CheckInput>[]): ScoreField[] {
  return dataset.some((e) => e.wordLabels !== undefined) ? ["words"] : [];
}

/** An evaluation of the scored examples, and the examples that failed (left out of every metric). */
export interface ScoredEvaluation {
  result: EvaluationResult;
  failed: FailedItem[];
}

/**
 * `evaluate(dataset, detectors, options)` from a run's recorded scores (`run.items[i]` belongs to
 * `dataset[i]`). Failed examples are left out and returned. @throws AllExamplesFailedError
 */
export async function evaluateScored(
  dataset: readonly NpovExample<CheckInput>[],
  run: ScoredRun,
  options: EvaluateOptions = {},
): Promise<ScoredEvaluation> {
  if (run.items.length !== dataset.length)
    throw new RangeError(`the run has ${run.items.length} results for ${dataset.length} examples`);
  const failed = run.items.filter(isFailedItem);
  const scored = run.items.filter((i): i is ScoredItem => !isFailedItem(i));
  const first = failed[0];
  if (scored.length === 0 && first !== undefined) throw new AllExamplesFailedError(failed.length, first.error);
  const examples = scored.map((i) => dataset[i.index] as NpovExample<CheckInput>);
  const detectors = replayDetectors(
    run.detectors,
    run.detectors.map((_, d) =>
      scored.map((i) => ({
        response: (dataset[i.index] as NpovExample<CheckInput>).response,
        scores: i.scores[d] as ErrorScores,
      })),
    ),
  );
  return { result: await evaluate(examples, detectors, options), failed };
}
