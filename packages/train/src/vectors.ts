/**
 * The corpus for npov's word vectors (see @npov/rouge `trainWordVectors`): knowledge-base texts of the
 * train and dev splits only (test topics are held out, so evaluation paraphrases never leak into the
 * vectors), each argument grouped with its paraphrases, plus reference responses written for train and
 * dev inputs.
 */
import { hashSeed, type KnowledgeBase, sampleInputs } from "@npov/core";
import { writeReferenceResponse } from "@npov/synth";

export function vectorCorpus(
  kbs: readonly KnowledgeBase[],
  options: { responsesPerTopic?: number; seed?: number } = {},
): string[][] {
  const groups: string[][] = [];
  const seed = options.seed ?? 0;
  for (const kb of kbs)
    for (const t of kb.topics) {
      if (t.split === "test") continue;
      groups.push([t.title, t.query]);
      for (const p of t.perspectives) for (const a of p.arguments) groups.push([a.text, ...(a.paraphrases ?? [])]);
      if (t.perspectives.filter((p) => p.arguments.length > 0).length < 2) continue;
      sampleInputs(t, { count: options.responsesPerTopic ?? 2, seed: hashSeed(seed, t.id) }).forEach((input, k) => {
        groups.push([
          writeReferenceResponse(input, { seed: hashSeed(seed, t.id, k), style: k % 2 === 0 ? "free" : "close" })
            .response,
        ]);
      });
    }
  return groups;
}
