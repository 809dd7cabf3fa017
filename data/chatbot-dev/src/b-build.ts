/**
 * Build data/chatbot-dev/part-b.jsonl from the hand-written sources (b-batch-*.ts).
 * Run from the repository root: `npx tsx data/chatbot-dev/src/b-build.ts`.
 *
 * Offsets come from locating each marked substring in the response (it must occur exactly once), so
 * nothing is counted by hand. Argument texts are copied from the Perspectrum knowledge base by id. Every
 * rule of the brief that can be checked mechanically is checked here, and the file is re-read with
 * `readExamples` after the atomic write.
 */
import { fileURLToPath } from "node:url";
import type { NpovExample, Span, Topic } from "../../../packages/core/src/index.ts";
import { openKnowledgeBase, readExamples, writeExamples } from "../../../packages/core/src/index.ts";
import { batch1 } from "./b-batch-1.ts";
import { batch2 } from "./b-batch-2.ts";
import { batch3 } from "./b-batch-3.ts";
import { batch4 } from "./b-batch-4.ts";
import { batch5 } from "./b-batch-5.ts";
import { batch6 } from "./b-batch-6.ts";
import { batch7 } from "./b-batch-7.ts";
import type { HandExampleB, HandKind } from "./b-types.ts";

const OUT = fileURLToPath(new URL("../part-b.jsonl", import.meta.url));
const BATCHES: HandExampleB[][] = [batch1, batch2, batch3, batch4, batch5, batch6, batch7];

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
/** What each kind must carry: [error spans, dropped ids, partial id, extra allowed]. */
const SHAPE: Record<HandKind, { errors: boolean; dropped: boolean; partial: boolean; extra: boolean }> = {
  clean: { errors: false, dropped: false, partial: false, extra: false },
  hallucination: { errors: true, dropped: false, partial: false, extra: true },
  coverage: { errors: false, dropped: true, partial: false, extra: false },
  both: { errors: true, dropped: true, partial: false, extra: true },
  "partial-hallucination": { errors: true, dropped: false, partial: false, extra: false },
  "partial-coverage": { errors: false, dropped: false, partial: true, extra: false },
  repetition: { errors: true, dropped: false, partial: false, extra: false },
  "perspective-confusion": { errors: true, dropped: false, partial: true, extra: false },
};

const byId = (a: Topic, b: Topic) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
const eligible = (t: Topic) => t.perspectives.filter((p) => p.arguments.length >= 2).length >= 2;

/** This writer's topics: odd positions of the id-sorted dev topics, with >= 2 arguments on two sides. */
export function partBTopics(): Topic[] {
  const dev = openKnowledgeBase("perspectrum").split("dev").slice().sort(byId);
  return dev.filter((t, i) => i % 2 === 1 && eligible(t));
}

function locate(response: string, part: string, where: string): Span {
  const start = response.indexOf(part);
  if (part.trim().length === 0 || start < 0) throw new Error(`${where}: substring not in response: "${part}"`);
  if (response.indexOf(part, start + 1) >= 0) throw new Error(`${where}: substring occurs twice: "${part}"`);
  return { start, end: start + part.length };
}

const overlaps = (a: Span, b: Span) => a.start < b.end && b.start < a.end;
const inside = (a: Span, b: Span) => a.start >= b.start && a.end <= b.end;

function build(hand: HandExampleB, index: number, topics: Map<string, Topic>, tuneIds: Set<string>): NpovExample {
  const id = `chatbot-dev/b-${String(index + 1).padStart(3, "0")}`;
  const fail = (message: string): never => {
    throw new Error(`${id} (${hand.topic}, ${hand.kind}): ${message}`);
  };
  const topic = topics.get(hand.topic) ?? fail("topic is not one of part b's topics");
  const perspectives = (["pro", "con"] as const).map((label) => {
    const kbSide = topic.perspectives.find((p) => p.label === label) ?? fail(`no ${label} side`);
    const ids = hand[label];
    if (ids.length < 1 || ids.length > 3) fail(`give 1-3 ${label} arguments, not ${ids.length}`);
    if (new Set(ids).size !== ids.length) fail(`duplicate ${label} argument`);
    return {
      label,
      arguments: ids.map((argId) => {
        const arg = kbSide.arguments.find((a) => a.id === argId) ?? fail(`${argId} is not a ${label} argument`);
        return { id: argId, text: arg.text };
      }),
    };
  });
  const given = perspectives.flatMap((p, k) => p.arguments.map((a, j) => ({ ...a, label: p.label, k, j })));
  const words = hand.response.split(/\s+/).filter((w) => w.length > 0).length;
  if (words < 60 || words > 170) fail(`${words} words (want 60-170)`);

  const shape = SHAPE[hand.kind];
  const dropped = hand.dropped ?? [];
  const errorParts = hand.errorSpans ?? [];
  if (shape.errors !== errorParts.length > 0) fail(`${errorParts.length} error spans`);
  if (shape.dropped !== (dropped.length === 1) || dropped.length > 1) fail(`${dropped.length} dropped`);
  if (shape.partial !== (hand.partial !== undefined)) fail(`partial ${hand.partial}`);
  if (!shape.extra && hand.extra !== undefined) fail("an extra argument on a kind without one");
  if (hand.kind !== "clean" && !hand.note) fail("an errorful example needs a note");
  if (hand.extra !== undefined) {
    const all = topic.perspectives.flatMap((p) => p.arguments.map((a) => a.id));
    if (!all.includes(hand.extra) || given.some((g) => g.id === hand.extra))
      fail(`extra ${hand.extra} must be an unused argument of the topic`);
  }
  for (const d of [...dropped, ...(hand.partial === undefined ? [] : [hand.partial])])
    if (!given.some((g) => g.id === d)) fail(`${d} is not given`);
  for (const g of given) {
    const spoken = hand.spans.filter(([argId]) => argId === g.id).length;
    if (spoken > 0 === dropped.includes(g.id))
      fail(`argument ${g.id} stated ${spoken} times, dropped=${dropped.includes(g.id)}`);
  }

  const argumentSpans = hand.spans.map(([argId, part]) => {
    const g = given.find((x) => x.id === argId) ?? fail(`span for ${argId}, which is not given`);
    return { ...locate(hand.response, part, id), perspective: g.label, argumentId: argId, argumentText: g.text };
  });
  argumentSpans.sort((a, b) => a.start - b.start);
  const hallucinatedSpans = errorParts.map((part) => locate(hand.response, part, id));
  // An extra argument is stated outside every given argument's span; a shifted, repeated or side-swapped
  // part lies inside the span of the argument it distorts.
  const freeStanding = hand.kind === "hallucination" || hand.kind === "both";
  for (const h of hallucinatedSpans) {
    if (freeStanding && argumentSpans.some((a) => overlaps(a, h))) fail("extra-argument span overlaps a given one");
    if (!freeStanding && !argumentSpans.some((a) => inside(h, a))) fail("error span is not inside an argument span");
  }
  if (hand.kind === "repetition" && !given.some((g) => hand.spans.filter(([a]) => a === g.id).length >= 2))
    fail("no argument is stated twice");
  const uncovered = [...dropped, ...(hand.partial === undefined ? [] : [hand.partial])];
  const uncoveredArguments = uncovered.map((d) => {
    const g = given.find((x) => x.id === d) ?? fail(`${d} is not given`);
    return [g.k, g.j] as [number, number];
  });
  const ambiguous = AMBIGUOUS_KINDS.has(hand.kind);
  const example: NpovExample = {
    id,
    topicId: topic.id,
    split: "dev",
    slice: "chatbot-dev",
    input: { topic: topic.title, query: topic.query, perspectives },
    response: hand.response,
    labels: { hallucination: HALLUCINATION_KINDS.has(hand.kind), coverage: COVERAGE_KINDS.has(hand.kind), ambiguous },
    wordLabels: { hallucinatedSpans, uncoveredArguments },
    argumentSpans,
    meta: {
      kind: hand.kind,
      devSplit: tuneIds.has(topic.id) ? "tune" : "heldout",
      writer: "hand",
      extraArgument: hand.extra ?? null,
      droppedArgumentIds: dropped,
      ...(hand.partial === undefined ? {} : { partialArgumentId: hand.partial }),
      note: hand.note ?? "every given argument verbalized, nothing else",
    },
  };
  if (ambiguous) example.ambiguousKind = hand.kind as NonNullable<NpovExample["ambiguousKind"]>;
  return example;
}

function main(): void {
  const topics = partBTopics();
  const tuneIds = new Set(topics.slice(0, Math.ceil(topics.length * 0.6)).map((t) => t.id));
  const byTopic = new Map(topics.map((t) => [t.id, t]));
  const examples = BATCHES.flat().map((h, i) => build(h, i, byTopic, tuneIds));
  const seen = new Set<string>();
  for (const e of examples) {
    if (seen.has(e.response)) throw new Error(`${e.id}: duplicate response`);
    seen.add(e.response);
  }
  writeExamples(OUT, examples);
  const reread = readExamples(OUT);
  const count = (key: (e: NpovExample) => string) => {
    const m = new Map<string, number>();
    for (const e of reread) m.set(key(e), (m.get(key(e)) ?? 0) + 1);
    return JSON.stringify(Object.fromEntries([...m].sort()));
  };
  const wordCounts = reread.map((e) => e.response.split(/\s+/).length);
  process.stdout.write(
    `wrote ${reread.length} examples on ${new Set(reread.map((e) => e.topicId)).size}/${topics.length} topics to ${OUT}\n` +
      `kinds ${count((e) => String(e.meta?.kind))}\nsplits ${count((e) => String(e.meta?.devSplit))}\n` +
      `words min ${Math.min(...wordCounts)} mean ${(wordCounts.reduce((a, b) => a + b, 0) / wordCounts.length).toFixed(1)} max ${Math.max(...wordCounts)}\n`,
  );
}

main();
