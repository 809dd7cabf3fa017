/** The ROUGE detector as a generic {@link ErrorDetector} with evidence and features. */
import {
  type CheckInput,
  type ErrorDetector,
  type ErrorScores,
  flagEvidence,
  groundingOf,
  InvalidValueError,
  maxOf,
  minOf,
  rankUncoveredArguments,
  requireArray,
  requireNumber,
  requireRecord,
  requireText,
  type WordScores,
  withUnitOrigins,
} from "@npov/core";
import { type RougeDetectorOptions, type RougeResult, rougeDetector } from "./detector.js";
import { checkTokenizeOptions } from "./tokenize.js";

function checkWords(value: unknown, path: string, score: "hallucination" | "coverage"): void {
  requireArray(value, path).forEach((w, i) => {
    const x = requireRecord(w, `${path}[${i}]`, "a word {text, start, end, ...}");
    requireNumber(x.start, `${path}[${i}].start`, { min: 0, integer: true });
    requireNumber(x.end, `${path}[${i}].end`, { min: 0, integer: true });
    if (x[score] !== 0 && x[score] !== 1) throw new InvalidValueError(`${path}[${i}].${score}`, "must be 0 or 1.");
  });
}

/** Check a {@link RougeResult} (as rougeDetector returns it) before reading it. @throws InvalidValueError */
function checkRougeResult(value: unknown): RougeResult {
  const r = requireRecord(value, "result", "a ROUGE result (rougeDetector)");
  for (const key of ["hallucination", "coverage", "precision", "recall"])
    requireNumber(r[key], `result.${key}`, { min: 0, max: 1 });
  checkWords(r.words, "result.words", "hallucination");
  const perspectives = requireArray(r.perspectives, "result.perspectives");
  if (perspectives.length === 0) throw new InvalidValueError("result.perspectives", "must not be empty.");
  perspectives.forEach((p, k) => {
    const at = `result.perspectives[${k}]`;
    const x = requireRecord(p, at, "a perspective recall");
    requireText(x.label, `${at}.label`);
    requireNumber(x.recall, `${at}.recall`, { min: 0, max: 1 });
    const args = requireArray(x.arguments, `${at}.arguments`);
    if (args.length === 0) throw new InvalidValueError(`${at}.arguments`, "must not be empty.");
    args.forEach((a, j) => {
      const y = requireRecord(a, `${at}.arguments[${j}]`, "an argument recall");
      requireText(y.text, `${at}.arguments[${j}].text`);
      requireNumber(y.recall, `${at}.arguments[${j}].recall`, { min: 0, max: 1 });
      checkWords(y.words, `${at}.arguments[${j}].words`, "coverage");
    });
  });
  return value as RougeResult;
}

/** Word-level scores of a ROUGE result: response words (0 or 1) and argument words (0 or 1). @throws InvalidValueError */
export function rougeWordScores(r: RougeResult): WordScores {
  checkRougeResult(r);
  return {
    response: r.words.map((w) => ({ start: w.start, end: w.end, score: w.hallucination })),
    arguments: r.perspectives.flatMap((p, k) =>
      p.arguments.flatMap((a, j) =>
        a.words.map((w) => ({ perspective: k, argument: j, start: w.start, end: w.end, score: w.coverage })),
      ),
    ),
  };
}

/**
 * Example scores, evidence (uncovered arguments, unsupported words), word maps and features of a ROUGE result.
 * @throws InvalidValueError for anything but a ROUGE result
 */
export function rougeErrorScores(r: RougeResult): ErrorScores {
  checkRougeResult(r);
  const uncoveredArguments = rankUncoveredArguments(r.perspectives, (a) => 1 - a.recall);
  const unsupportedSpans = r.words
    .filter((w) => w.hallucination === 1)
    .map((w) => ({ text: w.text, start: w.start, end: w.end, score: 1 }));
  const argRecalls = r.perspectives.flatMap((p) => p.arguments.map((a) => a.recall));
  const features: Record<string, number> = {
    "rouge.precision": r.precision,
    "rouge.recall": r.recall,
    "rouge.maxPerspectiveRecall": maxOf(r.perspectives.map((p) => p.recall)),
    "rouge.minArgumentRecall": minOf(argRecalls),
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

/** ROUGE-1 (SPEC 2.1) as an ErrorDetector named `name` (default "rouge"). @throws InvalidValueError for bad options */
export function rougeErrorDetector(options: RougeDetectorOptions = {}, name = "rouge"): ErrorDetector {
  checkTokenizeOptions(options);
  requireText(name, "name");
  return {
    name,
    detect: (input: CheckInput, response: string) => {
      const g = groundingOf(input);
      return flagEvidence(withUnitOrigins(g, rougeErrorScores(rougeDetector(g, response, options))));
    },
  };
}
