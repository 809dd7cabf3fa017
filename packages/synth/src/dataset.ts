/**
 * Evaluation datasets (SPEC section 3): per topic of one split, error-free examples written by the
 * reference writer and their synthetic variants, in slices like the paper's Table 7.
 */
import {
  type CheckInput,
  createRng,
  describe,
  hashSeed,
  InputTooLargeError,
  InvalidValueError,
  KnowledgeBase,
  NpovError,
  type NpovExample,
  parseSplit,
  requireArray,
  requireNumber,
  requireRecord,
  type Split,
  sampleInputs,
  type Topic,
} from "@npov/core";
import { AMBIGUOUS_KINDS, addAmbiguousError } from "./ambiguous.js";
import { checkSeed } from "./checks.js";
import { addSyntheticError, paraphraseInput, type SyntheticErrorKind } from "./errors.js";
import { type ResponseStyle, writeReferenceResponse } from "./writer.js";

/**
 * The slices: error-free examples vs synthetic errors, on unparaphrased inputs, on paraphrased inputs
 * (arguments reworded by their knowledge-base paraphrases, response kept), and vs ambiguous errors.
 */
export type SliceName = "unparaphrased-synthetic" | "paraphrased-synthetic" | "ambiguous-synthetic";
export const SLICES: readonly SliceName[] = ["unparaphrased-synthetic", "paraphrased-synthetic", "ambiguous-synthetic"];

/**
 * No dataset can be built from a split: it has no topics, or none of them has two perspectives with
 * arguments (code `NO_USABLE_TOPICS`), or its usable topics gave no example for the chosen slices (code
 * `NO_EXAMPLES`). The message names the topics and what each lacks.
 */
export class NoUsableTopicsError extends NpovError {}

/** Most topics a {@link NoUsableTopicsError} names one by one. */
const NAMED_TOPICS = 10;

/** Why no example can come from `topics` (split `split` of `kb`), in words. */
function noTopicsError(kb: KnowledgeBase, split: Split, topics: readonly Topic[]): NoUsableTopicsError {
  if (topics.length === 0) {
    const counts = kb.splitCounts();
    return new NoUsableTopicsError(
      "NO_USABLE_TOPICS",
      `the knowledge base has no topics in split "${split}" (it has ${counts.train} train, ${counts.dev} dev and ${counts.test} test topics): choose a split that has topics, or give each topic its "split".`,
    );
  }
  const named = topics.slice(0, NAMED_TOPICS).map((t) => {
    const sides = t.perspectives.filter((p) => p.arguments.length > 0).map((p) => JSON.stringify(p.label));
    return `"${t.id}" (${sides.length === 0 ? "no perspective" : `only ${sides.join(", ")}`} with arguments)`;
  });
  const more = topics.length > NAMED_TOPICS ? `, and ${topics.length - NAMED_TOPICS} more` : "";
  return new NoUsableTopicsError(
    "NO_USABLE_TOPICS",
    `none of the ${topics.length} topic(s) of split "${split}" has two perspectives with arguments, so no NPOV input can be sampled: ${named.join(", ")}${more}. Give each topic at least two perspectives with arguments.`,
  );
}

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

/** Most inputs sampled per topic by {@link buildDataset} and buildChatbotDataset (the paper took up to 18). */
export const MAX_PER_TOPIC = 1_000;
/**
 * Most inputs in one dataset (per topic x usable topics): each input makes up to ~12 examples, so this keeps a
 * dataset to a few hundred MB. A topic with fewer distinct inputs than asked gives what it has.
 */
export const MAX_DATASET_INPUTS = 20_000;

/** Check a per-topic count. @throws InvalidValueError, InputTooLargeError */
export function checkPerTopic(value: unknown, path = "perTopic"): number {
  const n = requireNumber(value, path, { min: 1, integer: true });
  if (n > MAX_PER_TOPIC)
    throw new InputTooLargeError(
      path,
      n,
      MAX_PER_TOPIC,
      "inputs per topic",
      "Ask for fewer inputs per topic (the paper sampled up to 18).",
    );
  return n;
}

/** Refuse a dataset of more than {@link MAX_DATASET_INPUTS} inputs before building any. @throws InputTooLargeError */
export function checkDatasetSize(perTopic: number, topics: number): void {
  if (perTopic * topics > MAX_DATASET_INPUTS)
    throw new InputTooLargeError(
      "perTopic",
      perTopic * topics,
      MAX_DATASET_INPUTS,
      `inputs (${perTopic} per topic x ${topics} topics)`,
      "Ask for fewer inputs per topic, or build the splits or topics in parts.",
    );
}

function usable(topic: Topic): boolean {
  return topic.perspectives.filter((p) => p.arguments.length > 0).length >= 2;
}

/**
 * Build the examples of one split. Topics come only from that split, so no topic crosses splits; each
 * topic's examples depend only on (seed, topic id), so adding topics never changes the others.
 * Topics with a single perspective are skipped.
 * @throws NpovError for bad options; InputTooLargeError for more than {@link MAX_PER_TOPIC} inputs per topic
 * or {@link MAX_DATASET_INPUTS} in all (refused before any work)
 */
export function buildDataset(kb: KnowledgeBase, options: DatasetOptions): NpovExample[] {
  if (!(kb instanceof KnowledgeBase)) throw new InvalidValueError("kb", "must be a KnowledgeBase (openKnowledgeBase).");
  requireRecord(options, "options", "an object {split, slices?, seed?, perTopic?, styles?}");
  const split = parseSplit(options.split);
  const slices = options.slices ?? SLICES;
  requireArray(slices, "options.slices", "an array of slice names").forEach((s, i) => {
    if (!SLICES.includes(s as SliceName))
      throw new InvalidValueError(`options.slices[${i}]`, `unknown slice ${describe(s)}; use ${SLICES.join(", ")}.`);
  });
  const styles = options.styles ?? ["close", "free"];
  requireArray(styles, "options.styles", 'a non-empty array of "close" | "free"').forEach((s, i) => {
    if (s !== "close" && s !== "free")
      throw new InvalidValueError(`options.styles[${i}]`, `must be "close" or "free", got ${describe(s)}.`);
  });
  if (styles.length === 0)
    throw new InvalidValueError("options.styles", 'must name at least one style ("close" or "free").');
  checkSeed(options.seed, "options.seed");
  const perTopic = checkPerTopic(options.perTopic ?? 6, "options.perTopic");
  const topics = kb.split(split);
  if (!topics.some(usable)) throw noTopicsError(kb, split, topics);
  checkDatasetSize(perTopic, topics.filter(usable).length);
  const seed = options.seed ?? 0;
  const examples: NpovExample[] = [];
  for (const topic of topics) {
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
  if (examples.length === 0)
    throw new NoUsableTopicsError(
      "NO_EXAMPLES",
      `the ${topics.filter(usable).length} usable topic(s) of split "${split}" gave no example for the slices ${slices.join(", ")}: the paraphrased slice needs arguments with paraphrases; add slices or paraphrases.`,
    );
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

/**
 * Count examples per slice like the paper's Table 7 (examples, error-free, hallucination only, coverage only, both).
 * @throws InvalidValueError for anything but an array of examples with string slices and object labels
 */
export function summarizeDataset(examples: readonly NpovExample<CheckInput>[]): SliceSummary[] {
  requireArray(examples, "examples", "an array of examples").forEach((e, i) => {
    const x = requireRecord(e, `examples[${i}]`, "an example");
    if (x.slice !== undefined && typeof x.slice !== "string")
      throw new InvalidValueError(`examples[${i}].slice`, `must be a slice name, got ${describe(x.slice)}.`);
    if (x.labels !== undefined) requireRecord(x.labels, `examples[${i}].labels`, "an object of true/false labels");
  });
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
