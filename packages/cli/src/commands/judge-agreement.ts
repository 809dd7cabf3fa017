/**
 * Agreement between the Likert judge and human raters, as llm-evaluation.txt reports it: Krippendorff's
 * alpha (interval) among the LLM's samples and between the LLM's and the humans' per-item means, and
 * Kendall's tau-b between those means. Lives in the CLI because @npov/llm sits below @npov/eval.
 */
import { InvalidValueError, maxOf } from "@npov/core";
import { kendallTauB, krippendorffAlpha } from "@npov/eval";

/** One rated item: the LLM's readable ratings (one per sample; missing = unreadable) and the humans'. */
export interface RatedItem {
  llm: ReadonlyArray<number | undefined>;
  human: readonly number[];
}

export interface RatingAgreement {
  items: number;
  /** Mean over items of the LLM's per-item mean, and of the humans'. */
  llmMean: number;
  humanMean: number;
  /** Alpha between the two rows of per-item means (LLM, human); undefined when every mean is the same (0/0). */
  alphaLlmVsHuman: number | undefined;
  /** Kendall's tau-b between the per-item means (undefined when either side is constant: no ranking). */
  kendallTau: number | undefined;
  /** Alpha among the LLM's samples as raters (undefined with one sample, or when every rating is the same). */
  alphaLlmSamples: number | undefined;
}

const mean = (xs: readonly number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;

/** A statistic that is undefined for these values (e.g. tau of a constant) as `undefined`, not an error. */
function undefinedWhenInvalid(statistic: () => number): number | undefined {
  try {
    return statistic();
  } catch (error) {
    if (error instanceof InvalidValueError) return undefined;
    throw error;
  }
}

/** Items with at least one readable LLM rating and one human rating (what {@link ratingAgreement} uses). */
export function usableItems(items: readonly RatedItem[]): RatedItem[] {
  return items.filter((i) => i.llm.some((x) => x !== undefined) && i.human.length > 0);
}

/**
 * Agreement over items with at least one readable LLM rating and one human rating.
 * @throws InvalidValueError with fewer than two such items
 */
export function ratingAgreement(items: readonly RatedItem[]): RatingAgreement {
  const usable = usableItems(items);
  if (usable.length < 2)
    throw new InvalidValueError("items", `agreement needs at least two items rated by both, got ${usable.length}.`);
  const llmMeans = usable.map((i) => mean(i.llm.filter((x): x is number => x !== undefined)));
  const humanMeans = usable.map((i) => mean(i.human));
  const samples = maxOf(usable.map((i) => i.llm.length));
  const sampleRows = Array.from({ length: samples }, (_, s) => usable.map((i) => i.llm[s] ?? null));
  return {
    items: usable.length,
    llmMean: mean(llmMeans),
    humanMean: mean(humanMeans),
    alphaLlmVsHuman: krippendorffAlpha([llmMeans, humanMeans], "interval"),
    kendallTau: undefinedWhenInvalid(() => kendallTauB(llmMeans, humanMeans)),
    alphaLlmSamples: samples < 2 ? undefined : krippendorffAlpha(sampleRows, "interval"),
  };
}
