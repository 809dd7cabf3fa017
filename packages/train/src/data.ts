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

/**
 * Generator pairs from the topics of `split`, each input answered in every style. `copyFraction` adds
 * that share of extra pairs whose arguments are random word sequences (drawn from the split's own
 * vocabulary): they can only be verbalized by copying from the prompt, which teaches a small model to
 * copy arguments instead of memorizing the training topics.
 */
export function generatorPairs(
  kbs: readonly KnowledgeBase[],
  split: Split,
  options: { perTopic?: number; seed?: number; copyFraction?: number } = {},
): TextPair[] {
  const seed = options.seed ?? 0;
  const pairs: TextPair[] = [];
  const topics = kbs
    .flatMap((kb) => kb.split(split))
    .filter((t) => t.perspectives.filter((p) => p.arguments.length > 0).length >= 2);
  for (const topic of topics)
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
  const vocabulary = [
    ...new Set(
      topics.flatMap((t) =>
        t.perspectives.flatMap((p) =>
          p.arguments.flatMap((a) => a.text.split(/\s+/u).filter((w) => /^[\p{L}\p{N}'’-]+$/u.test(w))),
        ),
      ),
    ),
  ].sort();
  const rng = createRng(hashSeed(seed, "copy"));
  const extra = Math.round(pairs.length * (options.copyFraction ?? 0));
  for (let k = 0; k < extra && topics.length > 0 && vocabulary.length > 0; k++) {
    const topic = rng.pick(topics);
    const sentence = () => `${Array.from({ length: 3 + rng.int(10) }, () => rng.pick(vocabulary)).join(" ")}.`;
    const input = {
      topic: topic.title,
      query: topic.query,
      perspectives: topic.perspectives
        .filter((p) => p.arguments.length > 0)
        .map((p) => ({
          label: p.label,
          arguments: Array.from({ length: 1 + rng.int(3) }, () => ({ text: sentence() })),
        })),
    };
    const written = writeReferenceResponse(input, { seed: hashSeed(seed, "copy", k), style: "close" });
    pairs.push({
      source: generatorPrompt(input),
      target: generatorTarget(written.opening, written.core),
      topicId: topic.id,
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
