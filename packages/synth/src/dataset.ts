/**
 * Evaluation datasets (SPEC section 3): per topic of one split, error-free examples written by the
 * reference writer and their synthetic variants, in slices like the paper's Table 7.
 */
import {
  createRng,
  hashSeed,
  InvalidValueError,
  type KnowledgeBase,
  type NpovExample,
  type Split,
  sampleInputs,
  TooFewPerspectivesError,
  type Topic,
} from "@npov/core";
import { AMBIGUOUS_KINDS, addAmbiguousError } from "./ambiguous.js";
import { addSyntheticError, paraphraseInput, type SyntheticErrorKind } from "./errors.js";
import { type ResponseStyle, writeReferenceResponse } from "./writer.js";

/**
 * The slices: error-free examples vs synthetic errors, on unparaphrased inputs, on paraphrased inputs
 * (arguments reworded by their knowledge-base paraphrases, response kept), and vs ambiguous errors.
 */
export type SliceName = "unparaphrased-synthetic" | "paraphrased-synthetic" | "ambiguous-synthetic";
export const SLICES: readonly SliceName[] = ["unparaphrased-synthetic", "paraphrased-synthetic", "ambiguous-synthetic"];

/** Options of {@link buildDataset}. */
export interface DatasetOptions {
  split: Split;
  slices?: readonly SliceName[];
  seed?: number;
  /** Error-free inputs sampled per topic (default 6; the paper sampled up to 18). */
  perTopic?: number;
  /** Response styles to draw from (default both). */
  styles?: readonly ResponseStyle[];
}

const FULL_KINDS: readonly SyntheticErrorKind[] = ["coverage", "hallucination", "both"];

function usable(topic: Topic): boolean {
  return topic.perspectives.filter((p) => p.arguments.length > 0).length >= 2;
}

/**
 * Build the examples of one split. Topics come only from that split, so no topic crosses splits; each
 * topic's examples depend only on (seed, topic id), so adding topics never changes the others.
 * Topics with a single perspective are skipped.
 */
export function buildDataset(kb: KnowledgeBase, options: DatasetOptions): NpovExample[] {
  const slices = options.slices ?? SLICES;
  for (const s of slices)
    if (!SLICES.includes(s)) throw new InvalidValueError("slices", `unknown slice "${s}"; use ${SLICES.join(", ")}.`);
  const styles = options.styles ?? ["close", "free"];
  const perTopic = options.perTopic ?? 6;
  const seed = options.seed ?? 0;
  const examples: NpovExample[] = [];
  for (const topic of kb.split(options.split)) {
    if (!usable(topic)) continue;
    const rng = createRng(hashSeed(seed, topic.id));
    const inputs = sampleInputs(topic, { count: perTopic, seed: hashSeed(seed, topic.id, "inputs") });
    inputs.forEach((input, k) => {
      const style = rng.pick(styles);
      const written = writeReferenceResponse(input, { seed: hashSeed(seed, topic.id, k), style });
      const base: NpovExample = {
        input,
        response: written.response,
        labels: { hallucination: false, coverage: false, ambiguous: false },
        argumentSpans: written.argumentSpans,
        wordLabels: { hallucinatedSpans: [], uncoveredArguments: [] },
        topicId: topic.id,
        split: topic.split,
        meta: { style, variant: "error-free", paraphrased: false },
      };
      const id = (slice: string, variant: string) => `${topic.id}#${k}/${slice}/${variant}`;
      for (const slice of slices) {
        const sliceRng = createRng(hashSeed(seed, topic.id, k, slice));
        if (slice === "unparaphrased-synthetic" || slice === "paraphrased-synthetic") {
          let errorFree = base;
          if (slice === "paraphrased-synthetic") {
            const paraphrased = paraphraseInput(input, sliceRng);
            if (paraphrased === undefined) continue;
            errorFree = { ...base, input: paraphrased, meta: { ...base.meta, paraphrased: true } };
          }
          examples.push({ ...errorFree, id: id(slice, "error-free"), slice });
          for (const kind of FULL_KINDS) {
            const e = addSyntheticError(errorFree, topic, kind, sliceRng, {
              paraphrase: slice === "paraphrased-synthetic",
            });
            if (e !== undefined) examples.push({ ...e, id: id(slice, kind), slice });
          }
        } else {
          examples.push({ ...base, id: id(slice, "error-free"), slice });
          for (const kind of AMBIGUOUS_KINDS) {
            const e = addAmbiguousError(base, written, kind, sliceRng);
            if (e !== undefined) examples.push({ ...e, id: id(slice, kind), slice });
          }
        }
      }
    });
  }
  if (examples.length === 0) throw new TooFewPerspectivesError(`split "${options.split}"`, 0);
  return examples;
}

/** One row of a Table 7 style summary. */
export interface SliceSummary {
  slice: string;
  examples: number;
  errorFree: number;
  hallucinationOnly: number;
  coverageOnly: number;
  both: number;
  /** Of the errorful examples, how many are ambiguous errors. */
  ambiguous: number;
}

/** Count examples per slice like the paper's Table 7 (examples, error-free, hallucination only, coverage only, both). */
export function summarizeDataset(examples: readonly NpovExample[]): SliceSummary[] {
  const rows = new Map<string, SliceSummary>();
  for (const e of examples) {
    const slice = e.slice ?? "(none)";
    let row = rows.get(slice);
    if (row === undefined) {
      row = { slice, examples: 0, errorFree: 0, hallucinationOnly: 0, coverageOnly: 0, both: 0, ambiguous: 0 };
      rows.set(slice, row);
    }
    row.examples++;
    const h = e.labels?.hallucination === true;
    const c = e.labels?.coverage === true;
    if (h && c) row.both++;
    else if (h) row.hallucinationOnly++;
    else if (c) row.coverageOnly++;
    else row.errorFree++;
    if (e.labels?.ambiguous === true) row.ambiguous++;
  }
  // Canonical slice order (as in SLICES), then any other slice names alphabetically.
  const rank = (slice: string) => {
    const i = (SLICES as readonly string[]).indexOf(slice);
    return i < 0 ? SLICES.length : i;
  };
  return [...rows.values()].sort((a, b) => rank(a.slice) - rank(b.slice) || a.slice.localeCompare(b.slice));
}
