/**
 * A free-style writer that imitates today's chatbots, for training and testing detectors on responses
 * that do not copy their arguments: an opening that reframes the question, discourse sentences that carry
 * no argument ("Critics raise several objections."), every argument reworded (a knowledge-base paraphrase
 * and/or WordNet synonyms of its content words, a varied lead-in), arguments reordered, sometimes two merged
 * into one sentence or one split in two, and an optional closing. Errors are made the way a chatbot makes
 * them: an extra argument from the same debate (hallucination), a given argument left out (coverage), or
 * both; plus the ambiguous kinds (partial hallucination by a meaning swap, partial coverage, repetition,
 * perspective confusion). Deterministic per seed; records the truth at word level.
 */
import {
  type AmbiguousKind,
  type Argument,
  type ArgumentSpan,
  createRng,
  describe,
  hashSeed,
  InvalidValueError,
  KnowledgeBase,
  type NpovExample,
  type NpovInput,
  type Rng,
  requireArray,
  requireNumber,
  requireRecord,
  type Span,
  sampleInputs,
  type Topic,
  validateInput,
  validateTopic,
} from "@npov/core";
import { checkSeed } from "./checks.js";
import { checkDatasetSize, checkPerTopic } from "./dataset.js";
import { unusedArguments } from "./errors.js";
import { bare, keptWords, lowercaseInitial, namesIn, rewordArgument, upperFirst } from "./rewording.js";
import { MEANING_SWAPS } from "./wording.js";

/** The kinds of example the chatbot-style writer makes (`meta.kind`, as in the hand-written dev set). */
export type ChatbotKind = "clean" | "hallucination" | "coverage" | "both" | AmbiguousKind;
export const CHATBOT_KINDS: readonly ChatbotKind[] = [
  "clean",
  "hallucination",
  "coverage",
  "both",
  "partial-hallucination",
  "partial-coverage",
  "repetition",
  "perspective-confusion",
];

/** Openings that reframe the question; `{topic}` is the topic, `{q}` the query without its question mark. */
const OPENINGS: readonly string[] = [
  "This is a genuinely contested question, and thoughtful people come down on different sides.",
  "There is no simple yes-or-no answer here; it depends largely on which values and trade-offs one prioritizes.",
  "The debate over {topic} is less about facts alone than about how to weigh competing concerns.",
  "Reasonable people disagree on this, and the disagreement usually comes down to priorities.",
  "Whether the answer is yes depends on what one takes to matter most, and both camps make serious points.",
  "This question touches on values as much as evidence, so it helps to look at the strongest case on each side.",
  "It is a complex issue with no settled consensus, and the discussion tends to circle around a few core points.",
  "Asking “{q}?” opens a long-running debate in which each side has its reasons.",
];

/** Discourse sentences that introduce a side and carry no argument. */
const SIDE_INTROS: Readonly<Record<string, readonly string[]>> = {
  pro: [
    "Supporters make several points.",
    "Those in favor offer a few main arguments.",
    "Advocates tend to emphasize the following considerations.",
    "The case in favor rests on a couple of ideas.",
  ],
  con: [
    "Critics raise several objections.",
    "Opponents see things quite differently.",
    "On the other side, skeptics voice a number of concerns.",
    "Those against it push back in a few ways.",
  ],
  default: ["The {label} side sees it differently.", "From the {label} perspective, several points come up."],
};

/** Lead-ins of an argument sentence (the argument follows, lowercased unless a name). */
const LEADS: readonly string[] = [
  "",
  "First, ",
  "For one thing, ",
  "They argue that ",
  "Many point out that ",
  "A common point is that ",
  "They also note that ",
  "Another consideration is that ",
  "In addition, ",
  "Some stress that ",
  "It is often said that ",
  "Moreover, ",
];

const CLOSINGS: readonly string[] = [
  "Ultimately, where one lands depends on how these considerations are weighed.",
  "In the end, the answer turns on which of these concerns one finds most compelling.",
  "Both sides raise points worth taking seriously.",
  "How to balance these views remains a matter of ongoing debate.",
];

/** Options of {@link writeChatbotResponse}. */
export interface ChatbotOptions {
  seed?: number | string;
  /** Probability of replacing a content word by a WordNet synonym (default 0.3). */
  synonymRate?: number;
  /** Probability of stating an argument through a knowledge-base paraphrase when it has one (default 0.5). */
  paraphraseRate?: number;
  /**
   * Words to keep capitalized at the start of a reworded argument, besides the names the input shows (words
   * capitalized mid-sentence in its query, arguments or paraphrases): e.g. the names of the whole topic.
   */
  names?: readonly string[];
}

interface Piece {
  text: string;
  /** The argument this piece states (index into the input), when it states one. */
  argument?: [number, number];
  /** A stated argument that was not given. */
  extra?: boolean;
}

/** What a sentence of a chatbot-style response does. */
export type ChatbotSentenceRole = "opening" | "side-intro" | "argument" | "closing";

interface Sentence {
  role: ChatbotSentenceRole;
  pieces: Piece[];
}

/** A written chatbot-style response with its word-level truth. */
export interface ChatbotResponse {
  response: string;
  argumentSpans: ArgumentSpan[];
  hallucinatedSpans: Span[];
  /**
   * Where each sentence the writer composed stands in `response`, and what it does (an argument split in two
   * sentences, "X. The idea is that Y.", counts as one), in order; sentences are joined by one space.
   */
  sentences: Array<Span & { role: ChatbotSentenceRole }>;
}

function render(sentences: readonly Sentence[], input: NpovInput): ChatbotResponse {
  let response = "";
  const argumentSpans: ArgumentSpan[] = [];
  const hallucinatedSpans: Span[] = [];
  const spans: ChatbotResponse["sentences"] = [];
  for (const s of sentences) {
    if (response.length > 0) response += " ";
    const sentenceStart = response.length;
    for (const p of s.pieces) {
      const start = response.length;
      response += p.text;
      if (p.argument === undefined) continue;
      const span = { start, end: response.length };
      if (p.extra) {
        hallucinatedSpans.push(span);
        continue;
      }
      const perspective = input.perspectives[p.argument[0]];
      const argument = perspective?.arguments[p.argument[1]];
      if (perspective === undefined || argument === undefined) continue;
      argumentSpans.push({
        ...span,
        perspective: perspective.label,
        argumentText: argument.text,
        ...(argument.id === undefined ? {} : { argumentId: argument.id }),
      });
    }
    spans.push({ start: sentenceStart, end: response.length, role: s.role });
  }
  return { response, argumentSpans, hallucinatedSpans, sentences: spans };
}

/** Names in an input (see {@link namesIn}): its query, argument texts and paraphrases, and `extra`. */
function inputNames(input: NpovInput, extra: readonly string[] = []): Set<string> {
  const names = namesIn([
    input.query,
    ...input.perspectives.flatMap((p) => p.arguments.flatMap((a) => [a.text, ...(a.paraphrases ?? [])])),
  ]);
  for (const name of extra) names.add(name);
  return names;
}

function fillTemplate(template: string, input: NpovInput, label = "", names = inputNames(input)): string {
  // One pass, values inserted verbatim: a "$&" or "{label}" inside the query stays as written.
  const values: Record<string, string> = {
    topic: lowercaseInitial(bare(input.topic), names),
    q: bare(input.query),
    label,
  };
  return template.replace(/\{(topic|q|label)\}/g, (_, key: string) => values[key] as string);
}

/** What to state: per perspective, its arguments (given or extra) in response order. */
interface Plan {
  sides: Array<{ perspective: number; items: Array<{ argument: Argument; ref: [number, number]; extra: boolean }> }>;
}

/** Turn a plan into sentences: intros, lead-ins, merges and splits, opening and closing. */
function compose(input: NpovInput, plan: Plan, rng: Rng, options: ChatbotOptions): Sentence[] {
  const keep = keptWords(input.query, input.topic);
  const names = inputNames(input, options.names);
  const lowerFirst = (text: string) => lowercaseInitial(text, names);
  const sentences: Sentence[] = [];
  const shortTopic = input.topic.trim().split(/\s+/).length <= 4;
  const openings = OPENINGS.filter((o) => shortTopic || !o.includes("{topic}"));
  sentences.push({ role: "opening", pieces: [{ text: fillTemplate(rng.pick(openings), input, "", names) }] });
  for (const side of plan.sides) {
    const label = input.perspectives[side.perspective]?.label ?? "";
    if (rng.next() < 0.7) {
      const intros = SIDE_INTROS[label] ?? (SIDE_INTROS.default as readonly string[]);
      sentences.push({ role: "side-intro", pieces: [{ text: fillTemplate(rng.pick(intros), input, label, names) }] });
    }
    const leads = rng.shuffle(LEADS);
    for (let i = 0; i < side.items.length; i++) {
      const item = side.items[i] as Plan["sides"][number]["items"][number];
      const text = rewordArgument(item.argument, rng, options, keep);
      const lead = leads[i % leads.length] as string;
      const next = side.items[i + 1];
      if (next !== undefined && rng.next() < 0.2) {
        // Two arguments merged into one sentence.
        const second = rewordArgument(next.argument, rng, options, keep);
        sentences.push({
          role: "argument",
          pieces: [
            { text: lead === "" ? "" : lead },
            { text: lead === "" ? upperFirst(text) : lowerFirst(text), argument: item.ref, extra: item.extra },
            { text: rng.pick([", and ", "; they add that ", ", while also noting that "]) },
            { text: lowerFirst(second), argument: next.ref, extra: next.extra },
            { text: "." },
          ].filter((p) => p.text.length > 0),
        });
        i++;
        continue;
      }
      const cut = / because |, since |, which /u.exec(text);
      if (cut !== null && cut.index > 10 && rng.next() < 0.5) {
        // One argument split in two sentences.
        const head = text.slice(0, cut.index);
        const tail = text.slice(cut.index + cut[0].length);
        sentences.push({
          role: "argument",
          pieces: [
            ...(lead === "" ? [] : [{ text: lead }]),
            { text: lead === "" ? upperFirst(head) : lowerFirst(head), argument: item.ref, extra: item.extra },
            { text: `. ${rng.pick(["The reason given is that ", "The idea is that ", "In their view, "])}` },
            { text: lowerFirst(tail), argument: item.ref, extra: item.extra },
            { text: "." },
          ],
        });
        continue;
      }
      sentences.push({
        role: "argument",
        pieces: [
          ...(lead === "" ? [] : [{ text: lead }]),
          { text: lead === "" ? upperFirst(text) : lowerFirst(text), argument: item.ref, extra: item.extra },
          { text: "." },
        ],
      });
    }
  }
  if (rng.next() < 0.6) sentences.push({ role: "closing", pieces: [{ text: rng.pick(CLOSINGS) }] });
  return sentences;
}

function basePlan(input: NpovInput, rng: Rng): Plan {
  const sides = input.perspectives.map((p, k) => ({
    perspective: k,
    items: (rng.next() < 0.5 ? rng.shuffle(p.arguments.map((_, j) => j)) : p.arguments.map((_, j) => j)).map((j) => ({
      argument: p.arguments[j] as Argument,
      ref: [k, j] as [number, number],
      extra: false,
    })),
  }));
  return { sides: rng.next() < 0.3 ? [...sides].reverse() : sides };
}

/**
 * Write an error-free chatbot-style response for `input` (every given argument stated, reworded, nothing
 * else argued), deterministically per seed.
 */
export function writeChatbotResponse(input: NpovInput, options: ChatbotOptions = {}): ChatbotResponse {
  const clean = validateInput(input);
  checkChatbotOptions(options);
  const rng = createRng(options.seed ?? 0);
  return render(compose(clean, basePlan(clean, rng), rng, options), clean);
}

function canSwapMeaning(text: string): boolean {
  return [...text.matchAll(/\p{L}+/gu)].some((m) => MEANING_SWAPS[m[0].toLowerCase()] !== undefined);
}

/** Swap one meaning-bearing word of `text` ("reduce" -> "increase"); undefined when none applies. */
function swapMeaning(text: string, rng: Rng): string | undefined {
  const hits = [...text.matchAll(/\p{L}+/gu)].filter((m) => MEANING_SWAPS[m[0].toLowerCase()] !== undefined);
  if (hits.length === 0) return undefined;
  const m = rng.pick(hits);
  return text.slice(0, m.index) + (MEANING_SWAPS[m[0].toLowerCase()] as string) + text.slice(m.index + m[0].length);
}

/**
 * One chatbot-style example of `kind` for `input` from `topic` (extra arguments come from the topic's
 * unused ones). Returns undefined when the kind is impossible for this input (no unused argument, a single
 * argument to drop, no word to swap).
 * @throws NpovError for a bad input, topic, kind or options
 */
export function chatbotExample(
  input: NpovInput,
  topic: Topic,
  kind: ChatbotKind,
  options: ChatbotOptions = {},
): NpovExample | undefined {
  if (!CHATBOT_KINDS.includes(kind))
    throw new InvalidValueError("kind", `unknown kind ${describe(kind)}; use ${CHATBOT_KINDS.join(", ")}.`);
  const clean = validateInput(input);
  validateTopic(topic);
  checkChatbotOptions(options);
  const rng = createRng(options.seed ?? 0);
  const plan = basePlan(clean, rng);
  const uncovered: Array<[number, number]> = [];
  let hallucination = false;
  let coverage = false;
  const ambiguous = !["clean", "hallucination", "coverage", "both"].includes(kind);
  const items = plan.sides.flatMap((s) => s.items);
  if (kind === "coverage" || kind === "both") {
    // Drop from a side that keeps an argument, so the response still presents both sides.
    const sides = plan.sides.filter((s) => s.items.length >= 2);
    if (items.length < 3 || sides.length === 0) return undefined;
    const side = rng.pick(sides);
    const [dropped] = side.items.splice(rng.int(side.items.length), 1);
    if (dropped === undefined) return undefined;
    uncovered.push(dropped.ref);
    coverage = true;
  }
  if (kind === "hallucination" || kind === "both") {
    const unused = unusedArguments(clean, topic);
    if (unused.length === 0) return undefined;
    const pick = rng.pick(unused);
    const side = plan.sides.find((s) => clean.perspectives[s.perspective]?.label === pick.label) ?? plan.sides[0];
    side?.items.splice(rng.int(side.items.length + 1), 0, { argument: pick.argument, ref: [-1, -1], extra: true });
    hallucination = true;
  }
  let afterCompose: ((sentences: Sentence[]) => Sentence[] | undefined) | undefined;
  if (kind === "partial-hallucination") {
    // A meaning swap inside one stated argument: the span is the argument, now saying something else.
    afterCompose = (sentences) => {
      const candidates = sentences.flatMap((s) =>
        s.pieces.filter((p) => p.argument !== undefined && canSwapMeaning(p.text)),
      );
      if (candidates.length === 0) return undefined;
      const piece = rng.pick(candidates);
      piece.text = swapMeaning(piece.text, rng) as string;
      piece.extra = true;
      return sentences;
    };
    hallucination = true;
  } else if (kind === "partial-coverage") {
    afterCompose = (sentences) => {
      const candidates = sentences.flatMap((s) =>
        s.pieces.filter((p) => p.argument !== undefined && p.text.split(" ").length >= 6),
      );
      if (candidates.length === 0) return undefined;
      const piece = rng.pick(candidates);
      const words = piece.text.split(" ");
      piece.text = words.slice(0, Math.ceil(words.length * (0.4 + 0.2 * rng.next()))).join(" ");
      uncovered.push(piece.argument as [number, number]);
      return sentences;
    };
    coverage = true;
  } else if (kind === "repetition") {
    const sides = plan.sides.filter((s) => s.items.length > 0);
    if (sides.length === 0) return undefined;
    const side = rng.pick(sides);
    const item = rng.pick(side.items);
    side.items.push({ ...item, extra: true });
    hallucination = true;
  } else if (kind === "perspective-confusion") {
    const sources = plan.sides.filter((s) => s.items.length >= 2);
    if (sources.length === 0) return undefined;
    const from = rng.pick(sources);
    const to = plan.sides.find((s) => s !== from) as Plan["sides"][number];
    const [moved] = from.items.splice(rng.int(from.items.length), 1);
    if (moved === undefined) return undefined;
    to.items.push({ ...moved, extra: true });
    hallucination = true;
    coverage = true;
    uncovered.push(moved.ref);
  }
  let sentences: Sentence[] | undefined = compose(clean, plan, rng, options);
  if (afterCompose !== undefined) sentences = afterCompose(sentences);
  if (sentences === undefined) return undefined;
  const written = render(sentences, clean);
  return {
    input: clean,
    response: written.response,
    labels: { hallucination, coverage, ambiguous },
    ...(ambiguous ? { ambiguousKind: kind as AmbiguousKind } : {}),
    argumentSpans: written.argumentSpans,
    wordLabels: { hallucinatedSpans: written.hallucinatedSpans, uncoveredArguments: uncovered },
    meta: { style: "chatbot", kind },
  };
}

/** Options of {@link buildChatbotDataset}. */
export interface ChatbotDatasetOptions extends ChatbotOptions {
  /** Inputs sampled per topic (default 2). */
  perTopic?: number;
  /** Kinds to make per input (default all). */
  kinds?: readonly ChatbotKind[];
  /** Slice name of the examples (default "chatbot-synthetic"). */
  slice?: string;
}

/** Check {@link ChatbotOptions}. @throws InvalidValueError */
function checkChatbotOptions(options: unknown): ChatbotOptions {
  const o = requireRecord(options, "options", "an object of chatbot-writer options") as ChatbotOptions;
  checkSeed(o.seed, "options.seed");
  for (const key of ["synonymRate", "paraphraseRate"] as const)
    if (o[key] !== undefined) requireNumber(o[key], `options.${key}`, { min: 0, max: 1 });
  if (o.names !== undefined)
    requireArray(o.names, "options.names", "an array of words").forEach((w, i) => {
      if (typeof w !== "string")
        throw new InvalidValueError(`options.names[${i}]`, `must be a word, got ${describe(w)}.`);
    });
  return o;
}

/**
 * Chatbot-style examples over `topics` (one split's): per topic, `perTopic` sampled inputs, each written in
 * every kind that is possible for it. Each topic's examples depend only on (seed, topic id).
 * @throws NpovError for bad topics or options; InputTooLargeError beyond the dataset limits of dataset.ts
 */
export function buildChatbotDataset(topics: readonly Topic[], options: ChatbotDatasetOptions = {}): NpovExample[] {
  new KnowledgeBase(topics); // validates every topic
  checkChatbotOptions(options);
  if (options.kinds !== undefined)
    requireArray(options.kinds, "options.kinds", "an array of kinds").forEach((k, i) => {
      if (!CHATBOT_KINDS.includes(k as ChatbotKind))
        throw new InvalidValueError(
          `options.kinds[${i}]`,
          `unknown kind ${describe(k)}; use ${CHATBOT_KINDS.join(", ")}.`,
        );
    });
  if (options.slice !== undefined && (typeof options.slice !== "string" || options.slice.trim().length === 0))
    throw new InvalidValueError("options.slice", "must be a non-empty string.");
  const perTopic = checkPerTopic(options.perTopic ?? 2, "options.perTopic");
  checkDatasetSize(
    perTopic,
    topics.filter((t) => t.perspectives.filter((p) => p.arguments.length > 0).length >= 2).length,
  );
  const seed = options.seed ?? 0;
  const kinds = options.kinds ?? CHATBOT_KINDS;
  const out: NpovExample[] = [];
  for (const topic of topics) {
    if (topic.perspectives.filter((p) => p.arguments.length > 0).length < 2) continue;
    const inputs = sampleInputs(topic, { count: perTopic, seed: hashSeed(seed, topic.id, "chatbot") });
    inputs.forEach((input, k) => {
      for (const kind of kinds) {
        const e = chatbotExample(input, topic, kind, { ...options, seed: hashSeed(seed, topic.id, k, kind) });
        if (e === undefined) continue;
        out.push({
          ...e,
          id: `${topic.id}#${k}/chatbot/${kind}`,
          slice: options.slice ?? "chatbot-synthetic",
          topicId: topic.id,
          split: topic.split,
        });
      }
    });
  }
  return out;
}
