/** Plain ROUGE-N between two texts, reproducing Google's rouge-score with `tokenizer: "rouge-score"`. */
import {
  type CheckInput,
  describe,
  type ErrorDetector,
  type ErrorScores,
  groundingOf,
  InvalidValueError,
  NotTextError,
  validateResponse,
} from "@npov/core";
import {
  clippedOverlapUnchecked,
  countTermsUnchecked,
  ngramsUnchecked,
  type PrecisionRecallF,
  scoreCountsUnchecked,
} from "./score.js";
import { checkTokenizeOptions, type TokenizeOptions, tokenize } from "./tokenize.js";

/** Options of {@link rougeN}. */
export interface RougeNOptions extends TokenizeOptions {
  /** n-gram order (default 1). */
  n?: number;
}

/** The largest n of {@link rougeN} (as rouge-score: rouge1 ... rouge9). */
export const MAX_ROUGE_N = 9;

/**
 * ROUGE-N of `prediction` against `target`: precision = overlap / prediction n-grams, recall = overlap /
 * target n-grams, clipped counts. With `{tokenizer: "rouge-score", stopwords: false}` this equals
 * rouge-score's `RougeScorer(["rougeN"], use_stemmer=stem).score(target, prediction)`.
 */
export function rougeN(prediction: string, target: string, options: RougeNOptions = {}): PrecisionRecallF {
  if (typeof prediction !== "string") throw new NotTextError("prediction", prediction);
  if (typeof target !== "string") throw new NotTextError("target", target);
  checkTokenizeOptions(options);
  const n = options.n ?? 1;
  // rouge-score's ROUGE-N goes up to 9 (rouge1 ... rouge9); a larger n would cost tokens x n per side.
  if (!Number.isInteger(n) || n < 1 || n > MAX_ROUGE_N)
    throw new InvalidValueError("n", `must be an integer from 1 to ${MAX_ROUGE_N}, got ${describe(n)}.`);
  const pred = ngramsUnchecked(
    tokenize(prediction, options).map((t) => t.term),
    n,
  );
  const tgt = ngramsUnchecked(
    tokenize(target, options).map((t) => t.term),
    n,
  );
  return scoreCountsUnchecked(
    clippedOverlapUnchecked(countTermsUnchecked(pred), countTermsUnchecked(tgt)),
    pred.length,
    tgt.length,
  );
}

/**
 * The plain ROUGE-1 baseline as an ErrorDetector (`"rouge1-precision"`): hallucination = 1 - ROUGE-1 precision
 * and coverage = 1 - ROUGE-1 recall of the response against all given arguments (or all sources) as one text,
 * rouge-score's tokenizer with its Porter stemmer and every word kept -- what a plain ROUGE script computes. The
 * yardstick every detector must beat on every response shape (docs/results.md); no evidence, no word maps.
 */
export function rouge1PrecisionDetector(): ErrorDetector {
  return {
    name: "rouge1-precision",
    detect(input: CheckInput, response: string): ErrorScores {
      const g = groundingOf(input);
      const text = validateResponse(response);
      const target = g.perspectives.flatMap((p) => p.arguments.map((a) => a.text)).join("\n");
      const r = rougeN(text, target, { tokenizer: "rouge-score", stopwords: false });
      return {
        hallucination: 1 - r.precision,
        coverage: 1 - r.recall,
        features: { "rouge1.precision": r.precision, "rouge1.recall": r.recall },
      };
    },
  };
}
