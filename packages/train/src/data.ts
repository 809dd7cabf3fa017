/**
 * Training data for the project's own models: generator pairs (Figure 3 prompt -> target
 * `<opening>} Neutral response core: {<core>}`) written by the reference writer in several styles, and
 * classifier pairs (Figure 4 prompt -> `YES}` / `NO}`) from synthetic-error datasets.
 */
import {
  type ClassifierTask,
  classifierPrompt,
  classifierTarget,
  createRng,
  generatorPrompt,
  generatorTarget,
  hashSeed,
  type KnowledgeBase,
  type NpovExample,
  type Split,
  sampleInputs,
} from "@npov/core";
import { writeReferenceResponse } from "@npov/synth";

/** One (source text, target text) pair. */
export interface TextPair {
  source: string;
  target: string;
  /** Classifier pairs: whether the target says there is an error. */
  error?: boolean;
  topicId?: string;
}

/** Generator pairs from the topics of `split`, each input answered in every style. */
export function generatorPairs(
  kbs: readonly KnowledgeBase[],
  split: Split,
  options: { perTopic?: number; seed?: number } = {},
): TextPair[] {
  const seed = options.seed ?? 0;
  const pairs: TextPair[] = [];
  for (const kb of kbs)
    for (const topic of kb.split(split)) {
      if (topic.perspectives.filter((p) => p.arguments.length > 0).length < 2) continue;
      sampleInputs(topic, { count: options.perTopic ?? 6, seed: hashSeed(seed, topic.id) }).forEach((input, k) => {
        for (const style of ["close", "free"] as const) {
          const written = writeReferenceResponse(input, { seed: hashSeed(seed, topic.id, k, style), style });
          pairs.push({
            source: generatorPrompt(input),
            target: generatorTarget(written.opening, written.core),
            topicId: topic.id,
          });
        }
      });
    }
  return createRng(hashSeed(seed, "shuffle")).shuffle(pairs);
}

/** Classifier pairs for one task or both, from labelled examples. */
export function classifierPairs(
  examples: readonly NpovExample[],
  tasks: readonly ClassifierTask[] = ["coverage", "hallucination"],
  seed = 0,
): TextPair[] {
  const pairs: TextPair[] = [];
  for (const e of examples)
    for (const task of tasks) {
      const label = e.labels?.[task];
      if (label === undefined) continue;
      pairs.push({
        source: classifierPrompt(e.input, e.response, task),
        target: classifierTarget(label),
        error: label,
        ...(e.topicId ? { topicId: e.topicId } : {}),
      });
    }
  return createRng(hashSeed(seed, "shuffle-cls")).shuffle(pairs);
}
