/** The ROUGE detector as a generic {@link ErrorDetector} with evidence and features. */
import {
  type ErrorDetector,
  type ErrorScores,
  type NpovInput,
  rankUncoveredArguments,
  type WordScores,
} from "@npov/core";
import { type RougeDetectorOptions, type RougeResult, rougeDetector } from "./detector.js";

/** Word-level scores of a ROUGE result: response words (0 or 1) and argument words (0 or 1). */
export function rougeWordScores(r: RougeResult): WordScores {
  return {
    response: r.words.map((w) => ({ start: w.start, end: w.end, score: w.hallucination })),
    arguments: r.perspectives.flatMap((p, k) =>
      p.arguments.flatMap((a, j) =>
        a.words.map((w) => ({ perspective: k, argument: j, start: w.start, end: w.end, score: w.coverage })),
      ),
    ),
  };
}

/** Example scores, evidence (uncovered arguments, unsupported words), word maps and features of a ROUGE result. */
export function rougeErrorScores(r: RougeResult): ErrorScores {
  const uncoveredArguments = rankUncoveredArguments(r.perspectives, (a) => 1 - a.recall);
  const unsupportedSpans = r.words
    .filter((w) => w.hallucination === 1)
    .map((w) => ({ text: w.text, start: w.start, end: w.end, score: 1 }));
  const argRecalls = r.perspectives.flatMap((p) => p.arguments.map((a) => a.recall));
  const features: Record<string, number> = {
    "rouge.precision": r.precision,
    "rouge.recall": r.recall,
    "rouge.maxPerspectiveRecall": Math.max(...r.perspectives.map((p) => p.recall)),
    "rouge.minArgumentRecall": Math.min(...argRecalls),
    "rouge.meanArgumentRecall": argRecalls.reduce((a, b) => a + b, 0) / argRecalls.length,
    "rouge.uncoveredArguments": argRecalls.filter((x) => x < 0.5).length,
    "rouge.responseWords": r.words.length,
  };
  return {
    hallucination: r.hallucination,
    coverage: r.coverage,
    uncoveredArguments,
    unsupportedSpans,
    features,
    words: rougeWordScores(r),
  };
}

/** ROUGE-1 (SPEC 2.1) as an ErrorDetector named `name` (default "rouge"). */
export function rougeErrorDetector(options: RougeDetectorOptions = {}, name = "rouge"): ErrorDetector {
  return {
    name,
    detect: (input: NpovInput, response: string) => rougeErrorScores(rougeDetector(input, response, options)),
  };
}
