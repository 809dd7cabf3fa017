/**
 * Tokenizers for ROUGE: each turns a text into terms (comparison keys) that keep their character
 * offsets, so word-level scores point back into the text.
 */
import {
  contentTerms,
  describe,
  InvalidValueError,
  NotTextError,
  porterStem,
  requireRecord,
  resolveStopwords,
  type StopwordOption,
  type Term,
} from "@npov/core";
import { nltkPorterStem } from "./nltk-porter.js";

/** A custom tokenizer: text -> terms with offsets. */
export type TokenizerFunction = (text: string) => Term[];

/**
 * `"default"`: Unicode words (letters, marks, digits of any script), lowercased, NLTK stop words
 * dropped, natural's Porter stemmer -- the paper's ROUGE words.
 * `"rouge-score"`: Google's rouge-score tokenizer -- lowercase, every run of characters outside
 * [a-z0-9] becomes a separator (so non-ASCII letters split words), tokens longer than 3 characters
 * stemmed with NLTK's Porter stemmer.
 */
export type TokenizerName = "default" | "rouge-score";

/** Options shared by the ROUGE functions. */
export interface TokenizeOptions {
  tokenizer?: TokenizerName | TokenizerFunction;
  /** Stem words (default true). */
  stem?: boolean;
  /** Stop words to drop (default `"nltk"`); `false` keeps all. */
  stopwords?: StopwordOption;
}

/** rouge-score's tokenization with offsets into the original text. @throws NotTextError, InvalidValueError */
export function rougeScoreTokenize(text: string, stem: boolean, stopwords: ReadonlySet<string>): Term[] {
  if (typeof text !== "string") throw new NotTextError("text", text);
  if (typeof stem !== "boolean") throw new InvalidValueError("stem", `must be true or false, got ${describe(stem)}.`);
  if (!(stopwords instanceof Set)) throw new InvalidValueError("stopwords", "must be a Set of lowercase stop words.");
  return scoreTokenize(text, stem, stopwords);
}

function scoreTokenize(text: string, stem: boolean, stopwords: ReadonlySet<string>): Term[] {
  // Lowercase character by character so offsets map back (a few characters lowercase to two, e.g.
  // "İ" -> "i̇", whose ASCII "i" rouge-score keeps).
  const terms: Term[] = [];
  let run = "";
  let runStart = -1;
  let runEnd = -1;
  const flush = () => {
    if (run.length > 0) {
      const token = stem && run.length > 3 ? nltkPorterStem(run) : run;
      // rouge-score filters tokens that are not ^[a-z0-9]+$ after stemming; stop words are our option.
      if (/^[a-z0-9]+$/.test(token) && !stopwords.has(run))
        terms.push({ text: text.slice(runStart, runEnd), start: runStart, end: runEnd, lower: run, term: token });
    }
    run = "";
    runStart = -1;
  };
  for (let i = 0; i < text.length; ) {
    const cp = text.codePointAt(i) as number;
    const width = cp > 0xffff ? 2 : 1;
    const lower = String.fromCodePoint(cp).toLowerCase();
    for (const ch of lower) {
      if ((ch >= "a" && ch <= "z") || (ch >= "0" && ch <= "9")) {
        if (runStart < 0) runStart = i;
        run += ch;
        runEnd = i + width;
      } else flush();
    }
    i += width;
  }
  flush();
  return terms;
}

/** Check {@link TokenizeOptions}; return them. @throws InvalidValueError */
export function checkTokenizeOptions(options: unknown, path = "options"): TokenizeOptions {
  const o = requireRecord(options, path, "an object of tokenizer options") as TokenizeOptions;
  const t = o.tokenizer;
  if (t !== undefined && t !== "default" && t !== "rouge-score" && typeof t !== "function")
    throw new InvalidValueError(
      `${path}.tokenizer`,
      `must be "default", "rouge-score" or a function, got ${describe(t)}.`,
    );
  if (o.stem !== undefined && typeof o.stem !== "boolean")
    throw new InvalidValueError(`${path}.stem`, `must be true or false, got ${describe(o.stem)}.`);
  const sw = o.stopwords as unknown;
  if (sw !== undefined && sw !== false && typeof sw !== "string") {
    if (!Array.isArray(sw) || sw.some((w) => typeof w !== "string"))
      throw new InvalidValueError(
        `${path}.stopwords`,
        'must be a list name (e.g. "nltk"), an array of words, or false.',
      );
  }
  return o;
}

/** A custom tokenizer's output, checked: terms with string `term` and offsets. @throws InvalidValueError */
function checkTerms(value: unknown, text: string): Term[] {
  if (!Array.isArray(value)) throw new InvalidValueError("tokenizer", "must return an array of terms.");
  value.forEach((t, i) => {
    const x = t as Partial<Term> | null;
    const ok =
      typeof x === "object" &&
      x !== null &&
      typeof x.term === "string" &&
      typeof x.text === "string" &&
      typeof x.lower === "string" &&
      Number.isInteger(x.start) &&
      Number.isInteger(x.end) &&
      (x.start as number) >= 0 &&
      (x.start as number) <= (x.end as number) &&
      (x.end as number) <= text.length;
    if (!ok)
      throw new InvalidValueError(
        `tokenizer(...)[${i}]`,
        "must be a term {text, start, end, lower, term} with offsets inside the text.",
      );
    // Evidence spans are these offsets: they must cut out the term's own text.
    if (text.slice(x.start as number, x.end as number) !== x.text)
      throw new InvalidValueError(
        `tokenizer(...)[${i}]`,
        `has text ${JSON.stringify(x.text)} but its offsets ${x.start}-${x.end} cut out ${JSON.stringify(text.slice(x.start as number, x.end as number))}.`,
      );
  });
  return value as Term[];
}

/** Tokenize `text` into ROUGE terms according to `options`. @throws NotTextError, InvalidValueError */
export function tokenize(text: string, options: TokenizeOptions = {}): Term[] {
  if (typeof text !== "string") throw new NotTextError("text", text);
  checkTokenizeOptions(options);
  const tokenizer = options.tokenizer ?? "default";
  if (typeof tokenizer === "function") return checkTerms(tokenizer(text), text);
  if (tokenizer === "rouge-score")
    return scoreTokenize(text, options.stem ?? true, resolveStopwords(options.stopwords ?? "nltk"));
  return contentTerms(text, { stem: options.stem ?? true, stopwords: options.stopwords ?? "nltk" });
}

export { porterStem };
