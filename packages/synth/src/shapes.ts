/**
 * Synthetic data of every response shape a guard meets, for training and measuring a detector beyond debate
 * answers: NPOV answers with an invented argument first, in the middle or last (and without any framing
 * sentence), one-sentence answers, QA answers, dialogue replies, multi-sentence summaries with the invented
 * sentence at each position, and answers over long, noisy retrieval results. Sources are made of a topic's
 * arguments (reworded sentences of both sides); a clean response restates source sentences (synonyms, a
 * knowledge-base paraphrase of the same argument) and a hallucinated one adds exactly one invented span: an
 * argument of the SAME topic that no source states (topical, the hard case), or in dialogue a first-person
 * experience. Every random choice is seeded per (seed, topic id, shape, k).
 */
import {
  type Argument,
  type CheckInput,
  createRng,
  describe,
  hashSeed,
  InputTooLargeError,
  InsufficientArgumentsError,
  InvalidValueError,
  KnowledgeBase,
  type NpovExample,
  type NpovInput,
  porterStem,
  type Rng,
  requireArray,
  requireRecord,
  type Source,
  type SourcesInput,
  type Span,
  sampleInputs,
  type Topic,
} from "@npov/core";
import { writeChatbotResponse } from "./chatbot-style.js";
import { checkSeed } from "./checks.js";
import { checkPerTopic } from "./dataset.js";
import { unusedArguments } from "./errors.js";
import { bare, keptWords, lowercaseInitial, namesIn, STOP, synonymize, upperFirst } from "./rewording.js";
import { writeReferenceResponse } from "./writer.js";

/**
 * The response shapes of {@link buildShapeDataset}:
 * - `npov-claim-first` / `-middle` / `-last`: an NPOV input, a chatbot-style answer, and its twin with one
 *   invented argument as the first sentence, between argument sentences, or after everything (the closing too).
 *   The three are paired: for a topic and k they share the input, the answer and the invented argument, and
 *   differ only in where it stands (and its lead-in), so comparing them measures position and nothing else;
 * - `npov-claim-clause`: the invented argument appended as a clause to a sentence that states a given one
 *   ("..., and that uniforms improve school safety."), the way a chatbot slips an extra claim in;
 * - `npov-plain`: a template answer with no framing sentence, the invented argument at a random position;
 * - `one-sentence`: one source document, a one-sentence answer;
 * - `qa`: one source document and the question, a short answer (or one that only restates the question);
 * - `dialogue`: a knowledge snippet, a conversational reply (backchannel, restated fact, follow-up question);
 * - `summary-claim-first` / `-middle` / `-last`: one or two documents of 6-14 sentences, a 2-6 sentence summary,
 *   the invented sentence first, in the middle or last;
 * - `long-source`: up to 80 sentence units in 2-4 documents, most of them unrelated (other topics), a 1-4
 *   sentence answer.
 */
export type Shape =
  | "npov-claim-first"
  | "npov-claim-middle"
  | "npov-claim-last"
  | "npov-claim-clause"
  | "npov-plain"
  | "one-sentence"
  | "qa"
  | "dialogue"
  | "summary-claim-first"
  | "summary-claim-middle"
  | "summary-claim-last"
  | "long-source";

/** Every {@link Shape}, in the order {@link buildShapeDataset} writes them. */
export const SHAPES: readonly Shape[] = [
  "npov-claim-first",
  "npov-claim-middle",
  "npov-claim-last",
  "npov-claim-clause",
  "npov-plain",
  "one-sentence",
  "qa",
  "dialogue",
  "summary-claim-first",
  "summary-claim-middle",
  "summary-claim-last",
  "long-source",
];

/**
 * What an example of {@link buildShapeDataset} is (`meta.kind`): `clean` restates its input only;
 * `restates-query` (qa) only restates the question, also clean; `invented-claim` adds a sentence stating an
 * argument no source gives; `invented-clause` joins one to a restated sentence ("X, and Y"); `invented-only`
 * states nothing but an invented argument (qa, dialogue: it replaces the restated fact);
 * `personal-experience` (dialogue) adds a first-person experience the knowledge does not hold.
 */
export type ShapeKind =
  | "clean"
  | "restates-query"
  | "invented-claim"
  | "invented-clause"
  | "invented-only"
  | "personal-experience";

/**
 * Where the invented content stands among the response's sentences (`meta.position`): `first`, `middle`,
 * `last`, `only` (a one-sentence response), or `none` for a clean example.
 */
export type ClaimPosition = "first" | "middle" | "last" | "only" | "none";

/**
 * Where a response span's content came from (`meta.provenance` of sources-shaped examples): the source
 * sentences it restates, as `[start, end)` offsets into `input.sources[source].text`, with the argument id.
 */
export interface ShapeProvenance extends Span {
  sources: Array<{ source: number; start: number; end: number; argumentId?: string }>;
}

/** Options of {@link buildShapeDataset}. */
export interface ShapeDatasetOptions {
  /** Shapes to make (default all, {@link SHAPES}). */
  shapes?: readonly Shape[];
  /** Seed of every random choice (default 0). */
  seed?: number | string;
  /** Inputs per topic and shape (default 1). */
  perTopic?: number;
  /** Prepended to the shape to name the slice (default none: the slice is the shape, e.g. `"qa"`). */
  slicePrefix?: string;
}

/** Most (topic, shape, k) inputs in one shape dataset (about 2.3 examples each, long sources ~6 kB). */
export const MAX_SHAPE_INPUTS = 100_000;

// ---------------------------------------------------------------------------------------------------------
// Wording tables. Lead-ins end with a space and take a clause whose first word is lower-cased (names kept).

const CLAIM_LEADS: Readonly<Record<"first" | "middle" | "last", readonly string[]>> = {
  first: ["", "Some argue that ", "It is often said that ", "One view is that "],
  middle: [
    "",
    "Some also point out that ",
    "Others add that ",
    "Another point raised is that ",
    "It is also argued that ",
  ],
  last: [
    "",
    "Some also point out that ",
    "Others add that ",
    "It is also worth noting that ",
    "Finally, some argue that ",
  ],
};

/** Connectors of an extra argument in a template (npov-plain) answer, in the writer's register. */
const PLAIN_CLAIM_LEADS: Readonly<Record<"first" | "next", readonly string[]>> = {
  first: ["Some argue that ", "It is argued that ", "One argument is that "],
  next: ["Some also point out that ", "Others add that ", "It is also argued that ", "Another argument is that "],
};

const ONE_SENTENCE_LEADS: readonly string[] = [
  "",
  "",
  "",
  "Some argue that ",
  "It is said that ",
  "One point made is that ",
];

const QA_LEADS: readonly string[] = ["According to the source, ", "The source says that ", "", "The text notes that "];
const QA_ADDED_LEADS: readonly string[] = ["", "Also, ", "In addition, ", "It also notes that "];
const QA_JOINS: readonly string[] = [", and ", ", and also ", "; moreover, "];
const QA_RESTATEMENTS: readonly string[] = [
  "That is the question of whether {claim}.",
  "The question is whether {claim}.",
  "You are asking whether {claim}.",
];

const BACKCHANNELS: readonly string[] = [
  "Oh, interesting!",
  "Yeah, I agree.",
  "Good question.",
  "Hmm, that's a tricky one.",
  "I see what you mean.",
  "That's a fair point.",
];
const DIALOGUE_LEADS: readonly string[] = ["", "", "Well, ", "Apparently, ", "Actually, ", "It seems that "];
const DIALOGUE_ADDED_LEADS: readonly string[] = ["Also, ", "Plus, ", "And ", "On top of that, "];
const FOLLOW_UPS: readonly string[] = [
  "Have you thought about that?",
  "What do you think?",
  "Do you agree?",
  "Does that sound right to you?",
  "Have you ever looked into it?",
  "Would you agree with that?",
];
/** First-person experiences: content no knowledge snippet holds (FaithDial labels them hallucinations). */
const PERSONAL_EXPERIENCES: readonly string[] = [
  "I saw this firsthand when I was living abroad a few years ago.",
  "My cousin went through exactly this last year.",
  "I actually wrote a paper on this back in college.",
  "A friend of mine works in that area and told me the same thing.",
  "I have seen it happen in my own town more than once.",
  "When I was in school, we argued about this for a whole semester.",
  "I remember my dad telling me about this when I was a kid.",
  "I visited a place like that last summer and saw it for myself.",
];

/** Lead-ins of summary sentences, for one source or several. */
const SUMMARY_LEADS: Readonly<Record<"one" | "many", readonly string[]>> = {
  one: [
    "",
    "",
    "",
    "The article argues that ",
    "It notes that ",
    "According to the text, ",
    "The author also points out that ",
    "It adds that ",
    "Some argue that ",
    "Others argue that ",
  ],
  many: [
    "",
    "",
    "",
    "The sources argue that ",
    "One source notes that ",
    "According to the documents, ",
    "Another point made is that ",
    "It is also noted that ",
    "Some argue that ",
    "Others argue that ",
  ],
};
const MERGE_JOINS: readonly string[] = [", and ", ", while ", "; also, "];

// ---------------------------------------------------------------------------------------------------------
// Arguments as sentences.

/** An argument's text as a clause (no final punctuation), or undefined when it is not one plain sentence. */
function clauseOf(text: string): string | undefined {
  if (/\?\s*$/u.test(text)) return undefined; // a question is no statement to restate
  const t = bare(text.replace(/^\s*argument\s*\d+\s*[:.-]\s*/iu, "").replace(/\s+/gu, " "));
  if (t.length < 12 || t.split(" ").length < 4) return undefined; // "Protection of Minors": a heading, no claim
  // A headline in title case ("Violent Video Games Cause Social Problems") reads oddly restated in a sentence.
  const rest = (t.match(/\p{L}[\p{L}'’-]*/gu) ?? []).slice(1).filter((w) => !STOP.has(w.toLowerCase()));
  if (rest.length >= 3 && rest.filter((w) => /^\p{Lu}/u.test(w)).length > rest.length / 2) return undefined;
  // More than one sentence (or an abbreviation the sentence splitter may cut at): not one unit.
  if (/[.!?;]["”’)]?\s+\S/u.test(t) || /[\n\r]/u.test(t)) return undefined;
  return t;
}

/** A topic's argument with its usable wordings (its text first when usable, then paraphrases). */
interface Usable {
  argument: Argument;
  label: string;
  wordings: string[];
}

function usableArguments(topic: Topic): Usable[] {
  const out: Usable[] = [];
  for (const p of topic.perspectives)
    for (const a of p.arguments) {
      const wordings = [a.text, ...(a.paraphrases ?? [])]
        .map(clauseOf)
        .filter((w): w is string => w !== undefined)
        .filter((w, i, all) => all.indexOf(w) === i);
      if (wordings.length > 0) out.push({ argument: a, label: p.label, wordings });
    }
  return out;
}

/** Stems of the content words of a text (stopwords and words under 3 letters left out). */
function stems(text: string): Set<string> {
  const out = new Set<string>();
  for (const w of text.toLowerCase().match(/\p{L}+/gu) ?? []) if (w.length >= 3 && !STOP.has(w)) out.add(porterStem(w));
  return out;
}

/** Content stems of a text beyond the topic's own (its title and query). */
function ownStems(text: string, frame: ReadonlySet<string>): string[] {
  return [...stems(text)].filter((s) => !frame.has(s));
}

/**
 * Whether an argument says something the sources do not: none of its wordings (text, paraphrases) has more
 * than half of its own content words in the sources, and the chosen wording has at least two. Perspectrum
 * holds near-duplicate arguments in different clusters (even one argument's paraphrase as another's text);
 * one of those restates a source, it invents nothing.
 */
function novel(u: Usable, wording: string, sourceStems: ReadonlySet<string>, frame: ReadonlySet<string>): boolean {
  if (ownStems(wording, frame).length < 2) return false;
  return [u.argument.text, ...(u.argument.paraphrases ?? [])].every((w) => {
    const words = ownStems(w, frame);
    return words.filter((s) => sourceStems.has(s)).length <= words.length / 2;
  });
}

/** Per topic: what every shape reads. */
interface TopicContext {
  topic: Topic;
  usable: Usable[];
  names: Set<string>;
  keep: Set<string>;
  frame: Set<string>;
}

function topicContext(topic: Topic): TopicContext {
  const texts = [topic.title, topic.query];
  for (const p of topic.perspectives) for (const a of p.arguments) texts.push(a.text, ...(a.paraphrases ?? []));
  return {
    topic,
    usable: usableArguments(topic),
    names: namesIn(texts),
    keep: keptWords(topic.query, topic.title),
    frame: stems(`${topic.title} ${topic.query}`),
  };
}

/** A sentence as it starts a response sentence, or after a lead-in. */
function placed(lead: string, clause: string, names: ReadonlySet<string>): string {
  return lead === "" ? upperFirst(clause) : lowercaseInitial(clause, names);
}

/** An invented claim for sources made of `chosen`: an unused argument none of whose wordings the sources state. */
function inventAbsentClaim(
  ctx: TopicContext,
  chosen: readonly Usable[],
  sources: readonly Source[],
  rng: Rng,
): { usable: Usable; text: string } | undefined {
  return inventClaim(
    ctx,
    ctx.usable.filter((u) => !chosen.includes(u)),
    sourceStemsOf(sources),
    rng,
  );
}

/** An invented argument: one of `candidates`, reworded (a paraphrase half the time, synonyms), and novel. */
function inventClaim(
  ctx: TopicContext,
  candidates: readonly Usable[],
  sourceStems: ReadonlySet<string>,
  rng: Rng,
): { usable: Usable; text: string } | undefined {
  for (const u of rng.shuffle(candidates)) {
    const base = u.wordings.length > 1 && rng.next() < 0.5 ? rng.pick(u.wordings.slice(1)) : (u.wordings[0] as string);
    const text = bare(synonymize(base, rng, 0.3, ctx.keep));
    if (novel(u, text, sourceStems, ctx.frame)) return { usable: u, text };
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------------------
// Sources and responses over them.

/** A source sentence stating an argument of the topic. */
interface Origin {
  usable: Usable;
  /** The wording the source uses. */
  wording: string;
  source: number;
  start: number;
  end: number;
}

interface DocSentence {
  text: string;
  usable?: Usable;
  wording?: string;
}

interface DocPlan {
  id?: string;
  title?: string;
  paragraphs: DocSentence[][];
}

function assemble(docs: readonly DocPlan[]): { sources: Source[]; origins: Origin[] } {
  const sources: Source[] = [];
  const origins: Origin[] = [];
  docs.forEach((d, si) => {
    let text = "";
    d.paragraphs.forEach((para, pi) => {
      if (pi > 0) text += "\n\n";
      para.forEach((s, i) => {
        if (i > 0) text += " ";
        const start = text.length;
        text += s.text;
        if (s.usable !== undefined && s.wording !== undefined)
          origins.push({ usable: s.usable, wording: s.wording, source: si, start, end: text.length });
      });
    });
    sources.push({
      ...(d.id === undefined ? {} : { id: d.id }),
      ...(d.title === undefined ? {} : { title: d.title }),
      text,
    });
  });
  return { sources, origins };
}

/** A sentence of the source stating `u`: its text most of the time, a paraphrase sometimes. */
function sourceSentence(u: Usable, rng: Rng): DocSentence {
  const wording = u.wordings.length > 1 && rng.next() < 0.3 ? rng.pick(u.wordings.slice(1)) : (u.wordings[0] as string);
  return { text: `${upperFirst(wording)}.`, usable: u, wording };
}

/**
 * `n` arguments for the sources (both sides when the topic has both), leaving at least one unused for the
 * invented claim; undefined when fewer than `min` can be given.
 */
function pickSourceArguments(ctx: TopicContext, rng: Rng, lo: number, hi: number, min: number): Usable[] | undefined {
  const n = Math.min(lo + rng.int(hi - lo + 1), ctx.usable.length - 1);
  if (n < min) return undefined;
  const order = rng.shuffle(ctx.usable);
  const chosen = order.slice(0, n);
  const labels = new Set(chosen.map((u) => u.label));
  if (n >= 2 && labels.size === 1) {
    const other = order.slice(n).find((u) => !labels.has(u.label));
    if (other !== undefined) chosen[n - 1] = other;
  }
  return chosen;
}

/** A restatement of a source sentence: its own wording or another wording of its argument, then synonyms. */
function restate(o: Origin, ctx: TopicContext, rng: Rng): string {
  let base = o.wording;
  if (rng.next() < 0.3) {
    // Another knowledge-base wording of the same argument, when it still shares content with the source's.
    const sourceWords = stems(o.wording);
    const others = o.usable.wordings.filter((w) => {
      if (w === o.wording) return false;
      const words = [...stems(w)].filter((s) => !ctx.frame.has(s));
      return words.length > 0 && words.filter((s) => sourceWords.has(s)).length >= words.length / 3;
    });
    if (others.length > 0) base = rng.pick(others);
  }
  return bare(synonymize(base, rng, 0.3, ctx.keep));
}

/** A piece of a response sentence: framing text, a restatement of source sentences, or invented content. */
interface Piece {
  text: string;
  restates?: Origin[];
  invented?: { argumentId?: string; perspective?: string; personal?: boolean };
}

interface Rendered {
  response: string;
  hallucinatedSpans: Span[];
  provenance: ShapeProvenance[];
  position: ClaimPosition;
  invented?: { text: string; argumentId?: string; perspective?: string; personal?: boolean };
}

/** Join sentences with single spaces, recording restated and invented spans. */
function renderSentences(sentences: readonly Piece[][]): Rendered {
  let response = "";
  const hallucinatedSpans: Span[] = [];
  const provenance: ShapeProvenance[] = [];
  let position: ClaimPosition = "none";
  let invented: Rendered["invented"];
  sentences.forEach((pieces, i) => {
    if (i > 0) response += " ";
    for (const p of pieces) {
      const start = response.length;
      response += p.text;
      const end = response.length;
      if (p.restates !== undefined)
        provenance.push({
          start,
          end,
          sources: p.restates.map((o) => ({
            source: o.source,
            start: o.start,
            end: o.end,
            ...(o.usable.argument.id === undefined ? {} : { argumentId: o.usable.argument.id }),
          })),
        });
      if (p.invented !== undefined) {
        hallucinatedSpans.push({ start, end });
        invented = { text: p.text, ...p.invented };
        position = sentences.length === 1 ? "only" : i === 0 ? "first" : i === sentences.length - 1 ? "last" : "middle";
      }
    }
  });
  return { response, hallucinatedSpans, provenance, position, ...(invented === undefined ? {} : { invented }) };
}

/** A sentence restating one or two source sentences after `lead` ("X, and Y." when two). */
function restatedSentence(lead: string, origins: readonly Origin[], ctx: TopicContext, rng: Rng): Piece[] {
  const [first, second] = origins as [Origin, Origin | undefined];
  const pieces: Piece[] = [];
  if (lead !== "") pieces.push({ text: lead });
  pieces.push({ text: placed(lead, restate(first, ctx, rng), ctx.names), restates: [first] });
  if (second !== undefined) {
    pieces.push({ text: rng.pick(MERGE_JOINS) });
    pieces.push({ text: lowercaseInitial(restate(second, ctx, rng), ctx.names), restates: [second] });
  }
  pieces.push({ text: "." });
  return pieces;
}

function claimPiece(claim: { usable: Usable; text: string }, text: string): Piece {
  return {
    text,
    invented: {
      ...(claim.usable.argument.id === undefined ? {} : { argumentId: claim.usable.argument.id }),
      perspective: claim.usable.label,
    },
  };
}

/** A sentence stating the invented claim after `lead`. */
function claimSentence(lead: string, claim: { usable: Usable; text: string }, ctx: TopicContext): Piece[] {
  return [
    ...(lead === "" ? [] : [{ text: lead }]),
    claimPiece(claim, placed(lead, claim.text, ctx.names)),
    { text: "." },
  ];
}

/** Whether a lead-in can open a response ("It adds that" and "Others argue that" follow something). */
function opensText(lead: string): boolean {
  return !/\b(also|adds?|another|others|finally)\b/iu.test(lead);
}

/** One example made by a shape, before ids and slices are set. */
interface Made {
  kind: ShapeKind;
  input: CheckInput;
  rendered: Rendered;
  labels: { hallucination: boolean; coverage?: boolean };
  extra?: Record<string, unknown>;
  argumentSpans?: NpovExample["argumentSpans"];
}

function sourceStemsOf(sources: readonly Source[]): Set<string> {
  return stems(sources.map((s) => s.text).join(" "));
}

/** One document of the chosen arguments, mixed sides, titled with the topic. */
function singleDocument(ctx: TopicContext, chosen: readonly Usable[], rng: Rng, titled = true): DocPlan {
  return {
    ...(titled ? { title: ctx.topic.title } : {}),
    paragraphs: [chosen.map((u) => sourceSentence(u, rng))],
  };
}

function isYesNoQuestion(query: string): boolean {
  return /^(is|are|was|were|should|can|could|does|do|did|will|would|has|have|must|may|might|shall)\b/iu.test(
    query.trim(),
  );
}

function makeOneSentence(ctx: TopicContext, rng: Rng): Made[] | undefined {
  const chosen = pickSourceArguments(ctx, rng, 3, 8, 2);
  if (chosen === undefined) return undefined;
  const { sources, origins } = assemble([singleDocument(ctx, chosen, rng)]);
  const input: SourcesInput = { query: ctx.topic.query, sources };
  const claim = inventAbsentClaim(ctx, chosen, sources, rng);
  if (claim === undefined) return undefined;
  const clean = renderSentences([restatedSentence(rng.pick(ONE_SENTENCE_LEADS), [rng.pick(origins)], ctx, rng)]);
  const bad = renderSentences([claimSentence(rng.pick(ONE_SENTENCE_LEADS), claim, ctx)]);
  return [
    { kind: "clean", input, rendered: clean, labels: { hallucination: false } },
    { kind: "invented-claim", input, rendered: bad, labels: { hallucination: true } },
  ];
}

function makeQa(ctx: TopicContext, rng: Rng): Made[] | undefined {
  const chosen = pickSourceArguments(ctx, rng, 3, 8, 2);
  if (chosen === undefined) return undefined;
  const { sources, origins } = assemble([singleDocument(ctx, chosen, rng)]);
  const input: SourcesInput = { query: ctx.topic.query, sources };
  const claim = inventAbsentClaim(ctx, chosen, sources, rng);
  if (claim === undefined) return undefined;
  const used = rng.sample(origins, rng.next() < 0.3 ? 2 : 1);
  const yesNo = isYesNoQuestion(ctx.topic.query);
  /** The answer's lead: a yes/no when every stated argument is on one side of a yes/no question. */
  const leadFor = (labels: readonly string[]): string => {
    if (yesNo && rng.next() < 0.35) {
      if (labels.every((l) => l === "pro")) return "Yes, ";
      if (labels.every((l) => l === "con")) return "No, ";
    }
    return rng.pick(QA_LEADS);
  };
  const lead = leadFor(used.map((o) => o.usable.label));
  const answer = restatedSentence(lead, used, ctx, rng);
  const out: Made[] = [{ kind: "clean", input, rendered: renderSentences([answer]), labels: { hallucination: false } }];
  const variant = rng.int(3);
  if (variant === 0) {
    // The answer with an invented clause joined: "..., and <claim>."
    const withClause = [
      ...answer.slice(0, -1),
      { text: rng.pick(QA_JOINS) },
      claimPiece(claim, lowercaseInitial(claim.text, ctx.names)),
      { text: "." },
    ];
    out.push({
      kind: "invented-clause",
      input,
      rendered: renderSentences([withClause]),
      labels: { hallucination: true },
    });
  } else if (variant === 1) {
    const added = claimSentence(rng.pick(QA_ADDED_LEADS), claim, ctx);
    out.push({
      kind: "invented-claim",
      input,
      rendered: renderSentences([answer, added]),
      labels: { hallucination: true },
    });
  } else {
    const only = claimSentence(leadFor([claim.usable.label]), claim, ctx);
    out.push({ kind: "invented-only", input, rendered: renderSentences([only]), labels: { hallucination: true } });
  }
  if (rng.next() < 0.25 && !/\?/u.test(ctx.topic.title)) {
    const text = rng.pick(QA_RESTATEMENTS).replace("{claim}", () => lowercaseInitial(bare(ctx.topic.title), ctx.names));
    out.push({
      kind: "restates-query",
      input,
      rendered: renderSentences([[{ text }]]),
      labels: { hallucination: false },
      extra: { restates: "query" },
    });
  }
  return out;
}

function makeDialogue(ctx: TopicContext, rng: Rng): Made[] | undefined {
  const chosen = pickSourceArguments(ctx, rng, 1, 3, 1);
  if (chosen === undefined) return undefined;
  const { sources, origins } = assemble([singleDocument(ctx, chosen, rng, rng.next() < 0.6)]);
  const input: SourcesInput = { ...(rng.next() < 0.5 ? { query: ctx.topic.query } : {}), sources };
  const claim = inventAbsentClaim(ctx, chosen, sources, rng);
  if (claim === undefined) return undefined;
  const backchannel: Piece[] | undefined = rng.next() < 0.5 ? [{ text: rng.pick(BACKCHANNELS) }] : undefined;
  const followUp: Piece[] | undefined = rng.next() < 0.5 ? [{ text: rng.pick(FOLLOW_UPS) }] : undefined;
  const lead = rng.pick(DIALOGUE_LEADS);
  const fact = restatedSentence(lead, [rng.pick(origins)], ctx, rng);
  const reply = (...middle: Piece[][]): Rendered =>
    renderSentences([
      ...(backchannel === undefined ? [] : [backchannel]),
      ...middle,
      ...(followUp === undefined ? [] : [followUp]),
    ]);
  const out: Made[] = [{ kind: "clean", input, rendered: reply(fact), labels: { hallucination: false } }];
  const variant = rng.int(3);
  if (variant === 0) {
    out.push({
      kind: "invented-only",
      input,
      rendered: reply(claimSentence(lead, claim, ctx)),
      labels: { hallucination: true },
    });
  } else if (variant === 1) {
    const added = claimSentence(rng.pick(DIALOGUE_ADDED_LEADS), claim, ctx);
    out.push({ kind: "invented-claim", input, rendered: reply(fact, added), labels: { hallucination: true } });
  } else {
    const personal: Piece[] = [{ text: rng.pick(PERSONAL_EXPERIENCES), invented: { personal: true } }];
    const rendered = rng.next() < 0.5 ? reply(personal, fact) : reply(fact, personal);
    out.push({ kind: "personal-experience", input, rendered, labels: { hallucination: true } });
  }
  return out;
}

/**
 * The documents of a summary: the chosen arguments over one or two documents; a second document sometimes
 * restates a first-document argument in other words (articles on one subject overlap).
 */
function summaryDocuments(ctx: TopicContext, chosen: readonly Usable[], rng: Rng, two: boolean): DocPlan[] {
  if (!two || chosen.length < 2)
    return [{ id: "doc1", title: ctx.topic.title, paragraphs: [chosen.map((u) => sourceSentence(u, rng))] }];
  const cut = 1 + rng.int(chosen.length - 1);
  const first = chosen.slice(0, cut).map((u) => sourceSentence(u, rng));
  const second = chosen.slice(cut).map((u) => sourceSentence(u, rng));
  for (const s of first) {
    const other = s.usable?.wordings.filter((w) => w !== s.wording) ?? [];
    if (other.length > 0 && (first.length + second.length < 6 || rng.next() < 0.2)) {
      const wording = rng.pick(other);
      second.splice(rng.int(second.length + 1), 0, { text: `${upperFirst(wording)}.`, usable: s.usable, wording });
    }
  }
  return [
    { id: "doc1", title: ctx.topic.title, paragraphs: [first] },
    { id: "doc2", title: ctx.topic.title, paragraphs: [second] },
  ];
}

/**
 * 2-6 (long sources: 1-4) restating sentences, each of one or two source sentences (distinct arguments), in
 * source order or not.
 */
function summarySentences(
  ctx: TopicContext,
  origins: readonly Origin[],
  rng: Rng,
  lo: number,
  hi: number,
  leads: readonly string[],
): Piece[][] | undefined {
  // One origin per argument (a second document may restate one): restating it twice says nothing new.
  const distinct = origins.filter((o, i) => origins.findIndex((x) => x.usable === o.usable) === i);
  if (distinct.length < lo) return undefined;
  const m = lo + rng.int(Math.min(hi, distinct.length) - lo + 1);
  let picked = rng.sample(distinct, m);
  if (rng.next() < 0.6) picked = [...picked].sort((a, b) => a.source - b.source || a.start - b.start);
  const groups: Origin[][] = [];
  for (let i = 0; i < picked.length; i++) {
    const next = picked[i + 1];
    if (next !== undefined && picked.length - groups.length > lo && rng.next() < 0.2) {
      groups.push([picked[i] as Origin, next]);
      i++;
    } else groups.push([picked[i] as Origin]);
  }
  const order = rng.shuffle(leads);
  return groups.map((g, i) => {
    const lead = order[i % order.length] as string;
    return restatedSentence(i === 0 && !opensText(lead) ? "" : lead, g, ctx, rng);
  });
}

function makeSummary(ctx: TopicContext, rng: Rng, where: "first" | "middle" | "last"): Made[] | undefined {
  const chosen = pickSourceArguments(ctx, rng, 6, 14, 3);
  if (chosen === undefined) return undefined;
  const two = chosen.length < 6 || rng.next() < 0.5;
  const docs = summaryDocuments(ctx, chosen, rng, two);
  const { sources, origins } = assemble(docs);
  const input: SourcesInput = { sources };
  const claim = inventAbsentClaim(ctx, chosen, sources, rng);
  if (claim === undefined) return undefined;
  const leads = SUMMARY_LEADS[docs.length > 1 ? "many" : "one"];
  const sentences = summarySentences(ctx, origins, rng, 2, 6, leads);
  if (sentences === undefined) return undefined;
  const at = where === "first" ? 0 : where === "last" ? sentences.length : 1 + rng.int(sentences.length - 1);
  const withClaim = [...sentences];
  const claimLead = rng.pick(leads);
  withClaim.splice(at, 0, claimSentence(at === 0 && !opensText(claimLead) ? "" : claimLead, claim, ctx));
  return [
    { kind: "clean", input, rendered: renderSentences(sentences), labels: { hallucination: false, coverage: false } },
    {
      kind: "invented-claim",
      input,
      rendered: renderSentences(withClaim),
      labels: { hallucination: true, coverage: false },
    },
  ];
}

/** Per dataset: other topics' usable arguments and frame words, for the unrelated documents of long sources. */
interface NoisePool {
  contexts: TopicContext[];
}

/** Roughly how many sentence units a document plan holds. */
function unitCount(docs: readonly DocPlan[]): number {
  return docs.reduce((n, d) => n + d.paragraphs.reduce((m, p) => m + p.length, 0), 0);
}

function makeLongSource(ctx: TopicContext, rng: Rng, pool: NoisePool): Made[] | undefined {
  const chosen = pickSourceArguments(ctx, rng, 3, 14, 2);
  if (chosen === undefined) return undefined;
  const docCount = 2 + rng.int(3);
  const relevant = summaryDocuments(ctx, chosen, rng, docCount >= 3 && rng.next() < 0.5);
  const target = Math.max(unitCount(relevant) + 4, 20 + rng.int(61));
  const noiseDocs: DocPlan[] = [];
  const noiseCount = docCount - relevant.length;
  // Unrelated topics: no content word of their title or query is one of this topic's.
  const unrelated = rng
    .shuffle(pool.contexts)
    .filter((c) => c.topic.id !== ctx.topic.id && c.usable.length >= 2 && ![...c.frame].some((s) => ctx.frame.has(s)));
  let next = 0;
  for (let d = 0; d < noiseCount; d++) noiseDocs.push({ paragraphs: [] });
  let units = unitCount(relevant);
  for (let d = 0; noiseCount > 0 && units < target && next < unrelated.length; d = (d + 1) % noiseCount) {
    const other = unrelated[next++] as TopicContext;
    const room = Math.min(80 - units, 2 + rng.int(7), other.usable.length);
    if (room < 1) break;
    const doc = noiseDocs[d] as DocPlan;
    // Titled by its topic while it holds one; a document drifting over several topics has no one title.
    doc.title = doc.paragraphs.length === 0 ? other.topic.title : undefined;
    doc.paragraphs.push(
      rng.sample(other.usable, room).map((u) => ({ text: `${upperFirst(u.wordings[0] as string)}.` })),
    );
    units += room;
  }
  const docs = rng
    .shuffle([...relevant, ...noiseDocs.filter((d) => d.paragraphs.length > 0)])
    .map((d, i) => ({ ...d, id: `doc${i + 1}` }));
  const { sources, origins } = assemble(docs);
  const input: SourcesInput = { query: ctx.topic.query, sources };
  const claim = inventAbsentClaim(ctx, chosen, sources, rng);
  if (claim === undefined) return undefined;
  const leads = SUMMARY_LEADS.many;
  const sentences = summarySentences(ctx, origins, rng, 1, 4, leads);
  if (sentences === undefined) return undefined;
  const withClaim = [...sentences];
  const at = rng.int(sentences.length + 1);
  const claimLead = rng.pick(leads);
  withClaim.splice(at, 0, claimSentence(at === 0 && !opensText(claimLead) ? "" : claimLead, claim, ctx));
  return [
    { kind: "clean", input, rendered: renderSentences(sentences), labels: { hallucination: false } },
    { kind: "invented-claim", input, rendered: renderSentences(withClaim), labels: { hallucination: true } },
  ];
}

// ---------------------------------------------------------------------------------------------------------
// NPOV shapes.

/** An input of the topic with at least one unused argument (one dropped from a side of two or more if need be). */
function npovInputWithUnused(input: NpovInput, topic: Topic, rng: Rng): NpovInput | undefined {
  if (unusedArguments(input, topic).length > 0) return input;
  const sides = input.perspectives.map((p, k) => [p, k] as const).filter(([p]) => p.arguments.length >= 2);
  if (sides.length === 0) return undefined;
  const [side, k] = rng.pick(sides);
  const dropped = rng.int(side.arguments.length);
  return {
    ...input,
    perspectives: input.perspectives.map((p, i) =>
      i === k ? { ...p, arguments: p.arguments.filter((_, j) => j !== dropped) } : p,
    ),
  };
}

/** Insert a sentence at `at` into a response whose sentences are `spans`, shifting spans that follow. */
function insertSentence(
  response: string,
  spans: readonly Span[],
  at: number,
  sentence: string,
): { response: string; offset: number; shift: (s: number) => number } {
  if (at >= spans.length) return { response: `${response} ${sentence}`, offset: response.length + 1, shift: (s) => s };
  const cut = (spans[at] as Span).start;
  return {
    response: `${response.slice(0, cut)}${sentence} ${response.slice(cut)}`,
    offset: cut,
    shift: (s) => (s >= cut ? s + sentence.length + 1 : s),
  };
}

function npovClaim(
  ctx: TopicContext,
  input: NpovInput,
  response: string,
  rng: Rng,
  plain: boolean,
): { usable: Usable; text: string } | undefined {
  const unused = unusedArguments(input, ctx.topic);
  const ids = new Set(unused.map((u) => u.argument.id ?? u.argument.text));
  const candidates = ctx.usable.filter((u) => ids.has(u.argument.id ?? u.argument.text));
  const given = input.perspectives.flatMap((p) => p.arguments.flatMap((a) => [a.text, ...(a.paraphrases ?? [])]));
  const known = stems(`${response} ${given.join(" ")}`);
  if (!plain) return inventClaim(ctx, candidates, known, rng);
  // Template answers state arguments nearly verbatim: so does the invented one.
  for (const u of rng.shuffle(candidates)) {
    const text = u.wordings[0] as string;
    if (novel(u, text, known, ctx.frame)) return { usable: u, text };
  }
  return undefined;
}

/**
 * An NPOV answer and its twin with one invented argument (`claim`, worded as `text`, at `start` in the twin's
 * `response`); `shift` maps an offset of the clean answer into the twin, so its argument spans follow.
 */
function npovTwins(
  input: NpovInput,
  clean: { response: string; argumentSpans: NonNullable<Made["argumentSpans"]> },
  twin: {
    kind: ShapeKind;
    response: string;
    start: number;
    text: string;
    claim: { usable: Usable };
    position: ClaimPosition;
    shift: (offset: number) => number;
  },
  extra?: Record<string, unknown>,
): Made[] {
  const { usable } = twin.claim;
  return [
    {
      kind: "clean",
      input,
      rendered: { response: clean.response, hallucinatedSpans: [], provenance: [], position: "none" },
      labels: { hallucination: false, coverage: false },
      argumentSpans: [...clean.argumentSpans],
      ...(extra === undefined ? {} : { extra }),
    },
    {
      kind: twin.kind,
      input,
      rendered: {
        response: twin.response,
        hallucinatedSpans: [{ start: twin.start, end: twin.start + twin.text.length }],
        provenance: [],
        position: twin.position,
        invented: {
          text: twin.text,
          ...(usable.argument.id === undefined ? {} : { argumentId: usable.argument.id }),
          perspective: usable.label,
        },
      },
      labels: { hallucination: true, coverage: false },
      argumentSpans: clean.argumentSpans.map((s) => ({ ...s, start: twin.shift(s.start), end: twin.shift(s.end) })),
      ...(extra === undefined ? {} : { extra }),
    },
  ];
}

function makeNpovClaim(
  ctx: TopicContext,
  input: NpovInput,
  rng: Rng,
  where: "first" | "middle" | "last",
): Made[] | undefined {
  const written = writeChatbotResponse(input, { seed: rng.int(2 ** 31), names: [...ctx.names] });
  const claim = npovClaim(ctx, input, written.response, rng, false);
  if (claim === undefined) return undefined;
  const lead = rng.pick(CLAIM_LEADS[where]);
  const claimText = placed(lead, claim.text, ctx.names);
  const sentence = `${lead}${claimText}.`;
  const n = written.sentences.length;
  let at = where === "first" ? 0 : n;
  if (where === "middle") {
    const args = written.sentences.flatMap((s, i) => (s.role === "argument" ? [i] : []));
    const lo = args.length >= 2 ? (args[0] as number) + 1 : 1;
    const hi = args.length >= 2 ? (args.at(-1) as number) : n - 1;
    at = lo + rng.int(hi - lo + 1);
  }
  const inserted = insertSentence(written.response, written.sentences, at, sentence);
  return npovTwins(input, written, {
    kind: "invented-claim",
    response: inserted.response,
    start: inserted.offset + lead.length,
    text: claimText,
    claim,
    position: where,
    shift: inserted.shift,
  });
}

/** Clause leads of an appended claim: `, and that ` joins it to the sentence of a given argument. */
const CLAUSE_LEADS: readonly string[] = [", and that ", ", and also that ", ", adding that ", "; they add that "];

function makeNpovClause(ctx: TopicContext, input: NpovInput, rng: Rng): Made[] | undefined {
  const written = writeChatbotResponse(input, { seed: rng.int(2 ** 31), names: [...ctx.names] });
  const claim = npovClaim(ctx, input, written.response, rng, false);
  if (claim === undefined) return undefined;
  const targets = written.sentences.flatMap((s, i) => (s.role === "argument" ? [i] : []));
  if (targets.length === 0) return undefined;
  const i = rng.pick(targets);
  const target = written.sentences[i] as { start: number; end: number };
  const text = written.response.slice(target.start, target.end);
  // Before the sentence's closing punctuation.
  const cut = target.start + text.replace(/[.!?]+["'\u201d\u2019)]*\s*$/u, "").length;
  const lead = rng.pick(CLAUSE_LEADS);
  const claimText = lowercaseInitial(claim.text.replace(/[.!?]+$/u, ""), ctx.names);
  const added = `${lead}${claimText}`;
  const response = `${written.response.slice(0, cut)}${added}${written.response.slice(cut)}`;
  const shift = (x: number) => (x >= cut ? x + added.length : x);
  const start = cut + lead.length;
  const n = written.sentences.length;
  const position: ClaimPosition = n === 1 ? "only" : i === 0 ? "first" : i === n - 1 ? "last" : "middle";
  return npovTwins(input, written, {
    kind: "invented-clause",
    response,
    start,
    text: claimText,
    claim,
    position,
    shift,
  });
}

function makeNpovPlain(ctx: TopicContext, input: NpovInput, rng: Rng): Made[] | undefined {
  const style = rng.next() < 0.5 ? "close" : "free";
  const written = writeReferenceResponse(input, { seed: rng.int(2 ** 31), style, names: [...ctx.names] });
  // Arguments only: the core without the opening; each sentence is "<connector> <argument>."
  const shift = written.opening.length + 1;
  const response = written.core;
  const argumentSpans = written.argumentSpans.map((s) => ({ ...s, start: s.start - shift, end: s.end - shift }));
  const sentences = written.plan.items.map((item, i) => {
    const span = argumentSpans[i] as Span;
    return { start: span.start - item.connector.length - 1, end: span.end + 1 };
  });
  const claim = npovClaim(ctx, input, response, rng, true);
  if (claim === undefined) return undefined;
  const at = rng.int(sentences.length + 1);
  const lead = rng.pick(PLAIN_CLAIM_LEADS[at === 0 ? "first" : "next"]);
  const claimText = lowercaseInitial(claim.text, ctx.names);
  const inserted = insertSentence(response, sentences, at, `${lead}${claimText}.`);
  const position: ClaimPosition = at === 0 ? "first" : at === sentences.length ? "last" : "middle";
  return npovTwins(
    input,
    { response, argumentSpans },
    {
      kind: "invented-claim",
      response: inserted.response,
      start: inserted.offset + lead.length,
      text: claimText,
      claim,
      position,
      shift: inserted.shift,
    },
    { style },
  );
}

// ---------------------------------------------------------------------------------------------------------

function checkShapeOptions(options: unknown): {
  shapes: readonly Shape[];
  seed: number | string;
  perTopic: number;
  slicePrefix: string;
} {
  const o = requireRecord(
    options,
    "options",
    "an object {shapes?, seed?, perTopic?, slicePrefix?}",
  ) as ShapeDatasetOptions;
  checkSeed(o.seed, "options.seed");
  const shapes = o.shapes ?? SHAPES;
  requireArray(shapes, "options.shapes", "an array of shape names").forEach((s, i) => {
    if (!SHAPES.includes(s as Shape))
      throw new InvalidValueError(`options.shapes[${i}]`, `unknown shape ${describe(s)}; use ${SHAPES.join(", ")}.`);
  });
  if (shapes.length === 0)
    throw new InvalidValueError("options.shapes", `must name at least one of ${SHAPES.join(", ")}.`);
  if (o.slicePrefix !== undefined && typeof o.slicePrefix !== "string")
    throw new InvalidValueError("options.slicePrefix", `must be a string, got ${describe(o.slicePrefix)}.`);
  return {
    shapes: [...new Set(shapes)],
    seed: o.seed ?? 0,
    perTopic: checkPerTopic(o.perTopic ?? 1, "options.perTopic"),
    slicePrefix: o.slicePrefix ?? "",
  };
}

/**
 * Seeded synthetic examples of every response shape ({@link SHAPES}) over `topics` (one split's), for training
 * and measuring hallucination detectors beyond debate answers. Per topic, shape and k < `perTopic`: a clean
 * example and a hallucinated one (qa sometimes adds a second clean answer that only restates the question).
 *
 * - Inputs: NPOV shapes sample arguments from the topic; sources shapes build documents of the topic's
 *   arguments (both sides, a knowledge-base paraphrase instead of the text sometimes), titled with the topic;
 *   `long-source` adds documents of other, unrelated topics in `topics` (so its noise depends on that list).
 * - Clean responses restate their input only: every content sentence restates one or two source sentences
 *   (`meta.provenance` holds where, as offsets into the sources) or, for NPOV shapes, every given argument
 *   (`argumentSpans`).
 * - Hallucinated responses hold exactly one invented span, `wordLabels.hallucinatedSpans[0]`, equal to
 *   `meta.invented.text`: an argument of the same topic that no source or given argument states (checked:
 *   at most half of its content words beyond the topic's own occur in the input), or in `dialogue` a
 *   first-person experience. `meta.position` says where it stands (first, middle, last, only).
 * - `labels.hallucination` always; `labels.coverage` false for NPOV shapes and summaries (nothing given is
 *   left out of a summary's claim, and no coverage error is labelled), absent for the other sources shapes.
 * - `slice` = `slicePrefix` + shape; `topicId` and `split` from the topic; `id` = `topic#k/shape/kind`.
 *
 * Each example depends only on (seed, topic id, shape, k) -- the three `npov-claim-` positions on (seed, topic
 * id, k), see above -- and for `long-source` on the topics list. A topic too small for a shape (NPOV shapes need
 * two sides and an argument to spare, sources shapes 2-4 usable arguments) gives no example of it.
 * @throws NpovError for bad topics or options; InputTooLargeError beyond {@link MAX_SHAPE_INPUTS} inputs;
 *   InsufficientArgumentsError when no topic is large enough for any asked shape
 */
export function buildShapeDataset(
  topics: readonly Topic[],
  options: ShapeDatasetOptions = {},
): NpovExample<CheckInput>[] {
  const kb = new KnowledgeBase(topics); // validates every topic and fills default argument ids
  const { shapes, seed, perTopic, slicePrefix } = checkShapeOptions(options);
  const inputs = perTopic * kb.topics.length * shapes.length;
  if (inputs > MAX_SHAPE_INPUTS)
    throw new InputTooLargeError(
      "perTopic",
      inputs,
      MAX_SHAPE_INPUTS,
      `inputs (${perTopic} per topic x ${kb.topics.length} topics x ${shapes.length} shapes)`,
      "Ask for fewer inputs per topic or fewer shapes, or build the topics in parts.",
    );
  const contexts = kb.topics.map(topicContext);
  const pool: NoisePool = { contexts };
  const out: NpovExample<CheckInput>[] = [];
  for (const ctx of contexts) {
    const topic = ctx.topic;
    const twoSided = topic.perspectives.filter((p) => p.arguments.length > 0).length >= 2;
    for (const shape of shapes) {
      const npov = shape.startsWith("npov-");
      if (npov && !twoSided) continue;
      // The claim positions draw from one stream: the same input, answer and claim at each position.
      const key =
        shape === "npov-claim-first" || shape === "npov-claim-middle" || shape === "npov-claim-last"
          ? "npov-claim"
          : shape;
      const sampled = npov ? sampleInputs(topic, { count: perTopic, seed: hashSeed(seed, topic.id, key) }) : [];
      for (let k = 0; k < perTopic; k++) {
        const rng = createRng(hashSeed(seed, topic.id, key, k));
        let made: Made[] | undefined;
        if (npov) {
          const base = sampled[k];
          const input = base === undefined ? undefined : npovInputWithUnused(base, topic, rng);
          if (input === undefined) continue;
          made =
            shape === "npov-plain"
              ? makeNpovPlain(ctx, input, rng)
              : shape === "npov-claim-clause"
                ? makeNpovClause(ctx, input, rng)
                : makeNpovClaim(ctx, input, rng, shape.slice("npov-claim-".length) as "first" | "middle" | "last");
        } else if (shape === "one-sentence") made = makeOneSentence(ctx, rng);
        else if (shape === "qa") made = makeQa(ctx, rng);
        else if (shape === "dialogue") made = makeDialogue(ctx, rng);
        else if (shape === "long-source") made = makeLongSource(ctx, rng, pool);
        else made = makeSummary(ctx, rng, shape.slice("summary-claim-".length) as "first" | "middle" | "last");
        for (const m of made ?? []) out.push(toExample(m, topic, shape, k, slicePrefix));
      }
    }
  }
  if (out.length === 0)
    throw new InsufficientArgumentsError(
      `No topic is large enough for ${shapes.join(", ")}: NPOV shapes need two sides and an argument to spare, sources shapes 2-4 arguments that are plain sentences. Give more or larger topics.`,
    );
  return out;
}

function toExample(m: Made, topic: Topic, shape: Shape, k: number, slicePrefix: string): NpovExample<CheckInput> {
  const r = m.rendered;
  const npov = shape.startsWith("npov-");
  return {
    id: `${topic.id}#${k}/${shape}/${m.kind}`,
    input: m.input,
    response: r.response,
    labels: { ...m.labels, ambiguous: false },
    ...(m.argumentSpans === undefined ? {} : { argumentSpans: m.argumentSpans }),
    wordLabels: { hallucinatedSpans: r.hallucinatedSpans, ...(npov ? { uncoveredArguments: [] } : {}) },
    slice: `${slicePrefix}${shape}`,
    topicId: topic.id,
    split: topic.split,
    meta: {
      shape,
      kind: m.kind,
      position: r.position,
      ...(npov ? {} : { provenance: r.provenance }),
      ...(r.invented === undefined ? {} : { invented: r.invented }),
      ...m.extra,
    },
  };
}
