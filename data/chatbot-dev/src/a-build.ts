/**
 * Build data/chatbot-dev/part-a.jsonl from the hand-written sources (a-batch-*.ts).
 * Run from the repository root: `npx tsx data/chatbot-dev/src/a-build.ts`.
 *
 * Offsets come from locating each marked substring in the response (it must occur exactly once), so
 * nothing is counted by hand. Argument texts are copied from the Perspectrum knowledge base by id.
 */
import { fileURLToPath } from "node:url";
import type { NpovExample, Topic } from "../../../packages/core/src/index.ts";
import { openKnowledgeBase, readExamples, writeFileAtomic } from "../../../packages/core/src/index.ts";
import { batch1 } from "./a-batch-1.ts";
import { batch2 } from "./a-batch-2.ts";
import { batch3 } from "./a-batch-3.ts";
import { batch4 } from "./a-batch-4.ts";
import { batch5 } from "./a-batch-5.ts";
import { batch6 } from "./a-batch-6.ts";
import { batch7 } from "./a-batch-7.ts";
import { batch8 } from "./a-batch-8.ts";
import type { HandExample, HandKind } from "./a-types.ts";

const OUT = fileURLToPath(new URL("../part-a.jsonl", import.meta.url));
const HALLUCINATION_KINDS = new Set<HandKind>([
  "hallucination",
  "both",
  "partial-hallucination",
  "repetition",
  "perspective-confusion",
]);
const COVERAGE_KINDS = new Set<HandKind>(["coverage", "both", "partial-coverage", "perspective-confusion"]);
const AMBIGUOUS_KINDS = new Set<HandKind>([
  "partial-hallucination",
  "partial-coverage",
  "repetition",
  "perspective-confusion",
]);

const byId = (a: Topic, b: Topic) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
const eligible = (t: Topic) => t.perspectives.filter((p) => p.arguments.length >= 2).length >= 2;

/** This writer's topics: even positions of the sorted dev topics, with >= 2 arguments on two sides. */
export function partATopics(): Topic[] {
  const kb = openKnowledgeBase("perspectrum");
  const dev = kb.split("dev").slice().sort(byId);
  return dev.filter((t, i) => i % 2 === 0 && eligible(t));
}

function locate(response: string, part: string, where: string): { start: number; end: number } {
  const start = response.indexOf(part);
  if (part.length === 0 || start < 0) throw new Error(`${where}: substring not in response: "${part}"`);
  if (response.indexOf(part, start + 1) >= 0) throw new Error(`${where}: substring occurs twice: "${part}"`);
  return { start, end: start + part.length };
}

function build(hand: HandExample, index: number, topics: Map<string, Topic>, tuneIds: Set<string>): NpovExample {
  const id = `chatbot-dev/a-${String(index + 1).padStart(3, "0")}`;
  const topic = topics.get(hand.topic);
  if (topic === undefined) throw new Error(`${id}: topic ${hand.topic} is not one of part a's topics`);
  const perspectives = (["pro", "con"] as const).map((label) => {
    const kbSide = topic.perspectives.find((p) => p.label === label);
    const ids = hand[label];
    if (kbSide === undefined || ids.length < 1 || ids.length > 3) throw new Error(`${id}: 1-3 ${label} arguments`);
    return {
      label,
      arguments: ids.map((argId) => {
        const arg = kbSide.arguments.find((a) => a.id === argId);
        if (arg === undefined) throw new Error(`${id}: ${argId} is not a ${label} argument of ${topic.id}`);
        return { id: argId, text: arg.text };
      }),
    };
  });
  const given = perspectives.flatMap((p, k) => p.arguments.map((a, j) => ({ ...a, label: p.label, k, j })));
  const words = hand.response.split(/\s+/).filter((w) => w.length > 0).length;
  if (words < 60 || words > 170) throw new Error(`${id}: ${words} words (want 60-170)`);
  const dropped = hand.dropped ?? [];
  const errorSpans = hand.errorSpans ?? [];
  for (const d of dropped) if (!given.some((g) => g.id === d)) throw new Error(`${id}: dropped ${d} not given`);
  const wantDropped = hand.kind === "coverage" || hand.kind === "both" || hand.kind === "partial-coverage";
  if (wantDropped !== (dropped.length === 1) && hand.kind !== "perspective-confusion")
    throw new Error(`${id}: kind ${hand.kind} with ${dropped.length} dropped`);
  if (HALLUCINATION_KINDS.has(hand.kind) !== errorSpans.length > 0 && hand.kind !== "partial-coverage")
    throw new Error(`${id}: kind ${hand.kind} with ${errorSpans.length} error spans`);
  if (hand.extra !== undefined) {
    const all = topic.perspectives.flatMap((p) => p.arguments.map((a) => a.id));
    if (!all.includes(hand.extra) || given.some((g) => g.id === hand.extra))
      throw new Error(`${id}: extra ${hand.extra} must be an unused argument of the topic`);
  }
  for (const g of given) {
    const spoken = hand.spans.some(([argId]) => argId === g.id);
    const isDropped = dropped.includes(g.id) && hand.kind !== "partial-coverage";
    if (spoken === isDropped) throw new Error(`${id}: argument ${g.id} spoken=${spoken} dropped=${isDropped}`);
  }
  // A side-swapped or repeated argument is still stated: its error span is also a span of that argument
  // (under its true perspective), as in part b.
  const restated: Array<[string, string]> = [];
  if (hand.kind === "perspective-confusion")
    restated.push(...errorSpans.map((p): [string, string] => [dropped[0]!, p]));
  if (hand.kind === "repetition") {
    if (hand.repeated === undefined) throw new Error(`${id}: repetition needs the repeated argument id`);
    restated.push(...errorSpans.map((p): [string, string] => [hand.repeated!, p]));
  }
  const argumentSpans = [...hand.spans, ...restated].map(([argId, part]) => {
    const g = given.find((x) => x.id === argId);
    if (g === undefined) throw new Error(`${id}: span for ${argId}, which is not given`);
    return { ...locate(hand.response, part, id), perspective: g.label, argumentId: argId, argumentText: g.text };
  });
  argumentSpans.sort((a, b) => a.start - b.start);
  const hallucinatedSpans = errorSpans.map((part) => locate(hand.response, part, id));
  const uncoveredArguments = dropped.map((d) => {
    const g = given.find((x) => x.id === d)!;
    return [g.k, g.j] as [number, number];
  });
  const ambiguous = AMBIGUOUS_KINDS.has(hand.kind);
  const partialKind = hand.kind === "partial-coverage" || hand.kind === "perspective-confusion";
  const example: NpovExample = {
    id,
    topicId: topic.id,
    split: "dev",
    slice: "chatbot-dev",
    input: { topic: topic.title, query: topic.query, perspectives },
    response: hand.response,
    labels: {
      hallucination: HALLUCINATION_KINDS.has(hand.kind),
      coverage: COVERAGE_KINDS.has(hand.kind),
      ambiguous,
    },
    wordLabels: { hallucinatedSpans, uncoveredArguments },
    argumentSpans,
    meta: {
      kind: hand.kind,
      devSplit: tuneIds.has(topic.id) ? "tune" : "heldout",
      writer: "hand",
      extraArgument: hand.extra ?? null,
      droppedArgumentIds: partialKind ? [] : dropped,
      ...(partialKind ? { partialArgumentId: dropped[0] } : {}),
      note: hand.note ?? (hand.kind === "clean" ? "every given argument verbalized, nothing else" : ""),
    },
  };
  if (ambiguous) example.ambiguousKind = hand.kind as NonNullable<NpovExample["ambiguousKind"]>;
  if (hand.kind !== "clean" && !hand.note) throw new Error(`${id}: errorful example needs a note`);
  return example;
}

function main(): void {
  const topics = partATopics();
  const tuneCount = Math.ceil(topics.length * 0.6);
  const tuneIds = new Set(topics.slice(0, tuneCount).map((t) => t.id));
  const byTopic = new Map(topics.map((t) => [t.id, t]));
  const hand = [...batch1, ...batch2, ...batch3, ...batch4, ...batch5, ...batch6, ...batch7, ...batch8];
  const examples = hand.map((h, i) => build(h, i, byTopic, tuneIds));
  writeFileAtomic(OUT, examples.map((e) => JSON.stringify(e)).join("\n") + "\n");
  const reread = readExamples(OUT);
  const kinds = new Map<string, number>();
  for (const e of reread) kinds.set(String(e.meta?.kind), (kinds.get(String(e.meta?.kind)) ?? 0) + 1);
  const used = new Set(reread.map((e) => e.topicId));
  process.stdout.write(
    `wrote ${reread.length} examples on ${used.size} topics to ${OUT}\n${JSON.stringify(Object.fromEntries(kinds))}\n`,
  );
}

main();
