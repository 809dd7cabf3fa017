/** Adapters from npov's detectors to the {@link Detector} interface that {@link evaluate} scores with. */
import { type RougeDetectorOptions, type RougeResult, rougeDetector } from "@npov/rouge";
import type { Detector, DetectorOutput } from "./evaluate.js";

/** Example- and word-level scores of a ROUGE result, in the evaluation format. */
export function rougeOutput(r: RougeResult): DetectorOutput {
  return {
    hallucination: r.hallucination,
    coverage: r.coverage,
    words: {
      response: r.words.map((w) => ({ start: w.start, end: w.end, score: w.hallucination })),
      arguments: r.perspectives.flatMap((p, k) =>
        p.arguments.flatMap((a, j) =>
          a.words.map((w) => ({ perspective: k, argument: j, start: w.start, end: w.end, score: w.coverage })),
        ),
      ),
    },
  };
}

/** The ROUGE-1 detector (SPEC section 2.1) as an evaluation detector named `name` (default "rouge"). */
export function rougeEvalDetector(options: RougeDetectorOptions = {}, name = "rouge"): Detector {
  return { name, score: (input, response) => rougeOutput(rougeDetector(input, response, options)) };
}
