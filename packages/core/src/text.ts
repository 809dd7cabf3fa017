/**
 * Text processing shared by every detector: word segmentation with character offsets, lowercasing,
 * stop words, Porter stemming and sentence splitting. Word-level results always point back into the
 * original text through `start`/`end` (UTF-16 offsets, as JavaScript strings index).
 */
import { createRequire } from "node:module";
import { describe, InvalidValueError, NotTextError } from "./errors.js";
import { resolveStopwords, type StopwordOption } from "./stopwords.js";

/** A word of a text: a maximal run of Unicode letters, marks and digits. */
export interface Word {
  /** The word as written. */
  text: string;
  /** Offset of the first character in the original text. */
  start: number;
  /** Offset after the last character. */
  end: number;
  /** Lowercased, NFC-normalized form. */
  lower: string;
}

/** A word kept for matching, with its comparison key. */
export interface Term extends Word {
  /** The comparison key: `lower`, stemmed when stemming is on. */
  term: string;
}

// Letters, combining marks and digits of any script are word characters: "Müller", "naïve" and
// "東京" survive; apostrophes, hyphens and other punctuation separate words (as in the paper).
const WORD_RE = /[\p{L}\p{M}\p{N}]+/gu;

// Any character outside 7-bit ASCII (written as a negated range so no control character appears).
const NON_ASCII_RE = /[^ -~\t\n\r]/;

/** Lowercase (and NFC-normalize non-ASCII) a word; ASCII skips the costly normalization. */
function lowerWord(word: string): string {
  return !NON_ASCII_RE.test(word) ? word.toLowerCase() : word.normalize("NFC").toLowerCase();
}

/**
 * `text` shortened to at most `max` characters, counted and cut between code points (never half a surrogate
 * pair), ending in "…" when cut: for labels with a fixed room (plot axes, lists).
 * @throws InvalidValueError unless max is an integer >= 1
 */
export function truncateText(text: string, max: number): string {
  if (typeof text !== "string") throw new NotTextError("text", text);
  if (!Number.isInteger(max) || max < 1)
    throw new InvalidValueError("max", `must be an integer >= 1, got ${describe(max)}.`);
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join("")}…`;
}

/** Split a text into words with character offsets. @throws NotTextError unless `text` is a string */
export function segmentWords(text: string): Word[] {
  if (typeof text !== "string") throw new NotTextError("text", text);
  const words: Word[] = [];
  const re = new RegExp(WORD_RE.source, "gu");
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const start = m.index;
    words.push({ text: m[0], start, end: start + m[0].length, lower: lowerWord(m[0]) });
  }
  return words;
}

const require = createRequire(import.meta.url);
// Import the stemmer module alone: natural's index loads dotenv (which prints to stdout) and many
// unrelated modules, costing ~0.4 s at start-up.
const porter = require("natural/lib/natural/stemmers/porter_stemmer.js") as { stem(word: string): string };
const stemCache = new Map<string, string>();
const STEM_CACHE_LIMIT = 200_000;

/** Porter-stem a lowercase word (natural's implementation of the original algorithm), memoized. @throws NotTextError */
export function porterStem(word: string): string {
  if (typeof word !== "string") throw new NotTextError("word", word);
  let stem = stemCache.get(word);
  if (stem === undefined) {
    stem = porter.stem(word);
    if (stemCache.size >= STEM_CACHE_LIMIT) stemCache.clear();
    stemCache.set(word, stem);
  }
  return stem;
}

/** Options for turning a text into comparable terms. */
export interface TermOptions {
  /** Porter-stem each word (default true). */
  stem?: boolean;
  /** Which stop words to drop (default `"nltk"`); `false` keeps all words. */
  stopwords?: StopwordOption;
}

/**
 * Words of `text` minus stop words, each with its (stemmed) comparison key: the paper's ROUGE words.
 * @throws NotTextError unless `text` is a string; InvalidValueError for bad options
 */
export function contentTerms(text: string, options: TermOptions = {}): Term[] {
  if (typeof text !== "string") throw new NotTextError("text", text);
  if (typeof options !== "object" || options === null || Array.isArray(options))
    throw new InvalidValueError("options", "must be an object {stem?, stopwords?}.");
  if (options.stem !== undefined && typeof options.stem !== "boolean")
    throw new InvalidValueError("options.stem", "must be true or false.");
  const sw = options.stopwords as unknown;
  if (
    sw !== undefined &&
    sw !== false &&
    typeof sw !== "string" &&
    !(Array.isArray(sw) && sw.every((w) => typeof w === "string"))
  )
    throw new InvalidValueError("options.stopwords", 'must be a list name (e.g. "nltk"), an array of words, or false.');
  const stem = options.stem ?? true;
  const stop = resolveStopwords(options.stopwords ?? "nltk");
  const terms: Term[] = [];
  // Fused segmentation + filtering: this is the hot loop of every detector, so no intermediate Word
  // objects are built for stop words.
  const re = TERM_RE;
  re.lastIndex = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const raw = m[0];
    const lower = lowerWord(raw);
    if (stop.has(lower)) continue;
    terms.push({ text: raw, start: m.index, end: m.index + raw.length, lower, term: stem ? porterStem(lower) : lower });
  }
  return terms;
}

// Module-level sticky state is safe: contentTerms runs synchronously and resets lastIndex.
const TERM_RE = new RegExp(WORD_RE.source, "gu");

/** A sentence with its offsets. */
export interface Sentence {
  text: string;
  start: number;
  end: number;
}

type WinkDoc = {
  sentences(): { each(f: (s: { tokens(): { each(g: (t: { out(): string }) => void): void } }) => void): void };
};
let nlp: { readDoc(text: string): WinkDoc } | undefined;

function winkNlp(): { readDoc(text: string): WinkDoc } {
  if (nlp === undefined) {
    // Loaded on first use: the model costs ~100 ms and most callers never split sentences.
    const winkNLP = require("wink-nlp") as (model: unknown) => { readDoc(text: string): WinkDoc };
    const model = require("wink-eng-lite-web-model");
    nlp = winkNLP(model);
  }
  return nlp;
}

/**
 * Split a text into sentences (wink-nlp), each with character offsets into `text`. Whitespace between
 * sentences belongs to none; every non-space character belongs to exactly one sentence.
 */
export function splitSentences(text: string): Sentence[] {
  if (typeof text !== "string") throw new NotTextError("text", text);
  if (text.trim().length === 0) return [];
  const sentences: Sentence[] = [];
  let cursor = 0;
  winkNlp()
    .readDoc(text)
    .sentences()
    .each((s) => {
      let start = -1;
      let end = -1;
      s.tokens().each((t) => {
        const value = t.out();
        if (value.trim().length === 0) return;
        const at = text.indexOf(value, cursor);
        if (at < 0) return; // wink normalizes a few characters; those tokens keep the running span
        if (start < 0) start = at;
        end = at + value.length;
        cursor = end;
      });
      if (start >= 0) sentences.push({ text: text.slice(start, end), start, end });
    });
  // Stitch any text wink skipped (rare normalization differences) onto the neighbouring sentence,
  // so no text is silently dropped.
  if (sentences.length === 0) {
    const start = text.search(/\S/);
    const end = text.trimEnd().length;
    return [{ text: text.slice(start, end), start, end }];
  }
  const first = sentences[0] as Sentence;
  const lead = text.search(/\S/);
  if (lead < first.start) {
    first.start = lead;
    first.text = text.slice(first.start, first.end);
  }
  for (let i = 0; i < sentences.length; i++) {
    const cur = sentences[i] as Sentence;
    const nextStart = i + 1 < sentences.length ? (sentences[i + 1] as Sentence).start : text.length;
    const gap = text.slice(cur.end, nextStart);
    const trimmed = gap.trimEnd().length;
    if (trimmed > 0 && gap.slice(0, trimmed).trim().length > 0) {
      cur.end += trimmed;
      cur.text = text.slice(cur.start, cur.end);
    }
  }
  return sentences;
}
