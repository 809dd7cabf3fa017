/**
 * Sentence roles. A response sentence is a **framing** sentence (an opening that restates the question, a
 * discourse sentence such as "Critics raise several objections.", a closing that weighs the sides) when it
 * carries no content beyond the query, the topic and discourse words: its remaining words, weighted by
 * specificity, add up to less than a threshold. Every other sentence -- wherever it stands -- makes a claim
 * (an **argument** sentence) and is checked for support.
 */
import {
  describe,
  InvalidValueError,
  NotTextError,
  porterStem,
  requireArray,
  requireNumber,
  requireRecord,
  type Term,
} from "@npov/core";

/**
 * Words of discourse about a debate rather than of an argument in it: who argues, how, in what order, and
 * words of framing ("complex", "values", "trade-offs", "weigh"). Plain words; matched by stem.
 */
export const DISCOURSE_WORDS: readonly string[] = [
  "accept",
  "acknowledge",
  "add",
  "addition",
  "additionally",
  "address",
  "admittedly",
  "advocate",
  "advocates",
  "affirm",
  "agree",
  "also",
  "alternatively",
  "although",
  "another",
  "answer",
  "approach",
  "argue",
  "argument",
  "aspect",
  "assert",
  "back",
  "backer",
  "backers",
  "balance",
  "basically",
  "believe",
  "broad",
  "broadly",
  "camp",
  "camps",
  "case",
  "champion",
  "champions",
  "cite",
  "claim",
  "clear",
  "come",
  "compelling",
  "complex",
  "concede",
  "concern",
  "conclude",
  "conclusion",
  "consensus",
  "consider",
  "consideration",
  "contend",
  "contest",
  "contested",
  "context",
  "contrary",
  "contrast",
  "controversial",
  "controversy",
  "conversation",
  "convinced",
  "core",
  "counter",
  "counterpoint",
  "couple",
  "critic",
  "critics",
  "debate",
  "debated",
  "decide",
  "defender",
  "defenders",
  "depend",
  "depends",
  "detractor",
  "detractors",
  "differ",
  "different",
  "differently",
  "dimension",
  "disagree",
  "disagreement",
  "discuss",
  "discussion",
  "dispute",
  "divide",
  "divided",
  "down",
  "emphasise",
  "emphasize",
  "end",
  "enthusiastic",
  "especially",
  "example",
  "explain",
  "express",
  "factor",
  "favor",
  "favour",
  "few",
  "final",
  "finally",
  "find",
  "first",
  "focus",
  "follow",
  "following",
  "four",
  "frame",
  "framing",
  "front",
  "fronts",
  "fundamental",
  "fundamentally",
  "furthermore",
  "generally",
  "genuine",
  "genuinely",
  "give",
  "go",
  "highlight",
  "however",
  "idea",
  "important",
  "include",
  "including",
  "indeed",
  "insist",
  "instance",
  "involve",
  "issue",
  "key",
  "kind",
  "land",
  "largely",
  "last",
  "lead",
  "leads",
  "least",
  "like",
  "likewise",
  "look",
  "main",
  "mainly",
  "maintain",
  "major",
  "make",
  "many",
  "matter",
  "matters",
  "maybe",
  "meanwhile",
  "mention",
  "moreover",
  "much",
  "nevertheless",
  "next",
  "note",
  "notice",
  "number",
  "object",
  "objection",
  "objector",
  "observe",
  "offer",
  "often",
  "one",
  "ongoing",
  "open",
  "opponent",
  "opponents",
  "oppose",
  "opposite",
  "other",
  "others",
  "overall",
  "particular",
  "particularly",
  "perhaps",
  "perspective",
  "persuasive",
  "point",
  "position",
  "prefer",
  "present",
  "primarily",
  "prioritise",
  "prioritize",
  "priority",
  "pro",
  "problem",
  "problems",
  "proponent",
  "proponents",
  "push",
  "question",
  "quite",
  "raise",
  "range",
  "rather",
  "reason",
  "reasonable",
  "recognize",
  "regard",
  "remain",
  "reply",
  "respond",
  "rest",
  "said",
  "say",
  "sceptic",
  "second",
  "see",
  "seem",
  "seriously",
  "several",
  "side",
  "sides",
  "simple",
  "simply",
  "skeptic",
  "skeptics",
  "sort",
  "stance",
  "stand",
  "start",
  "still",
  "stress",
  "strongest",
  "suggest",
  "summary",
  "support",
  "supporter",
  "supporters",
  "sure",
  "take",
  "tend",
  "theme",
  "thing",
  "things",
  "think",
  "third",
  "though",
  "thoughtful",
  "three",
  "thus",
  "topic",
  "touch",
  "trade",
  "tradeoff",
  "turn",
  "two",
  "typically",
  "ultimately",
  "unconvinced",
  "underlying",
  "usually",
  "value",
  "values",
  "various",
  "view",
  "viewpoint",
  "views",
  "voice",
  "way",
  "ways",
  "weigh",
  "whether",
  "widely",
  "worth",
  "yes",
  "yet",
];

const DISCOURSE = new Set(DISCOURSE_WORDS.map((w) => porterStem(w)));

/** True when a term is a discourse word (see {@link DISCOURSE_WORDS}). */
export function isDiscourseTerm(term: Term): boolean {
  if (typeof term !== "object" || term === null || typeof term.term !== "string")
    throw new InvalidValueError("term", `must be a term (contentTerms), got ${describe(term)}.`);
  return DISCOURSE.has(term.term);
}

/** The role of a response sentence. */
export type SentenceRole = "framing" | "argument";

/** Options of {@link sentenceRole}. */
export interface RoleOptions {
  /** Specificity mass of the non-discourse, non-query words at which a sentence argues (default 1.0). */
  threshold?: number;
}

/**
 * The role of a sentence from what it says -- never from where it stands: a sentence whose content words
 * other than discourse, query and topic words weigh less than `threshold` in specificity is framing (an
 * opening that restates the question, "Critics raise several objections.", a closing that weighs the sides
 * in general words); any other sentence makes a claim and is checked, first, last or only.
 */
export function sentenceRole(
  words: ReadonlyArray<{ term: Term; weight: number; inQuery: boolean }>,
  options: RoleOptions = {},
): SentenceRole {
  requireArray(words, "words", "an array of {term, weight, inQuery}").forEach((w, i) => {
    const x = requireRecord(w, `words[${i}]`, "a word {term, weight, inQuery}");
    isDiscourseTerm(x.term as Term);
    requireNumber(x.weight, `words[${i}].weight`, { min: 0 });
    if (typeof x.inQuery !== "boolean") throw new InvalidValueError(`words[${i}].inQuery`, "must be true or false.");
  });
  requireRecord(options, "options", "an object of role options");
  if (options.threshold !== undefined) requireNumber(options.threshold, "options.threshold", { min: 0 });
  const threshold = options.threshold ?? 1.0;
  let mass = 0;
  for (const w of words) if (!isDiscourseTerm(w.term) && !w.inQuery) mass += w.weight;
  return mass < threshold ? "framing" : "argument";
}

/**
 * Words that talk about the debate itself rather than argue in it ("is contested", "divides communities",
 * "comes down to", "where one stands depends on"): the mark of a framing sentence by what it says. Plain
 * words; matched by stem.
 */
export const DEBATE_META_WORDS: readonly string[] = [
  "answer",
  "balance",
  "camps",
  "case",
  "comes",
  "complex",
  "concern",
  "consensus",
  "contested",
  "controversial",
  "controversy",
  "debate",
  "debated",
  "depends",
  "disagree",
  "disagreement",
  "divide",
  "divided",
  "divisive",
  "issue",
  "lands",
  "matter",
  "nuanced",
  "opinion",
  "opinions",
  "perspective",
  "perspectives",
  "point",
  "priorities",
  "question",
  "remains",
  "settled",
  "side",
  "sides",
  "split",
  "stake",
  "tension",
  "trade",
  "ultimately",
  "unsettled",
  "values",
  "views",
  "weigh",
];

const DEBATE_META = new Set(DEBATE_META_WORDS.map((w) => porterStem(w)));

/** True when a word talks about the debate itself (see {@link DEBATE_META_WORDS}; any case or inflection). */
export function isDebateMetaWord(word: string): boolean {
  if (typeof word !== "string") throw new NotTextError("word", word);
  return DEBATE_META.has(porterStem(word.toLowerCase()));
}

/** Hedges: a sentence that holds one makes no firm claim of its own ("may", "probably", "depends on"). */
const HEDGE_RE =
  /(?<![\p{L}\p{N}])(?:may|might|probably|perhaps|likely|usually|often|tends?|depends?|varies|vary|remains?|whether|ultimately)(?![\p{L}\p{N}])/iu;

/** True when a sentence hedges (see HEDGE_RE: may, might, probably, perhaps, depends, whether, ...). */
export function isHedged(sentence: string): boolean {
  if (typeof sentence !== "string") throw new NotTextError("sentence", sentence);
  return HEDGE_RE.test(sentence);
}

/** True when a sentence asks rather than asserts (ends with a question mark, closing quotes aside). */
export function isQuestion(sentence: string): boolean {
  if (typeof sentence !== "string") throw new NotTextError("sentence", sentence);
  return /[?？]\s*["'”’»)\]]*\s*$/u.test(sentence);
}

/**
 * Openings that hand the floor to a side ("However, ...", "Critics ...", "Those in favour ...", "On the
 * other hand, ..."): a sentence that starts with one opens a new side block. Chatbot-style responses state
 * each perspective's arguments in one block, so an argument found in another perspective's block marks an
 * argument presented as the other side's (perspective confusion) or an extra one.
 */
export const SIDE_CUES: readonly string[] = [
  "however",
  "but",
  "yet",
  "still",
  "meanwhile",
  "conversely",
  "nevertheless",
  "nonetheless",
  "on the other hand",
  "by contrast",
  "in contrast",
  "on the other side",
  "on the flip side",
  "the other side",
  "the opposing",
  "against this",
  "for their part",
  "from the other",
  "the case against",
  "the case for",
  "critics",
  "opponents",
  "skeptics",
  "sceptics",
  "detractors",
  "supporters",
  "proponents",
  "advocates",
  "defenders",
  "backers",
  "those who",
  "those in favour",
  "those in favor",
  "those against",
  "those opposed",
  "those on",
  "people who",
  "in favour",
  "in favor",
  "others",
  "some",
  "many",
];

const SIDE_CUE_RE = new RegExp(
  `^\\P{L}*(?:${SIDE_CUES.map((c) => c.replace(/ /g, "\\s+")).join("|")})(?![\\p{L}\\p{N}])`,
  "iu",
);

/** True when a sentence opens a side block (starts with one of {@link SIDE_CUES}). */
export function opensSide(sentence: string): boolean {
  if (typeof sentence !== "string") throw new NotTextError("sentence", sentence);
  return SIDE_CUE_RE.test(sentence);
}
