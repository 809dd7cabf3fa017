/**
 * Rewording helpers shared by the writers (internal): casing that keeps names, WordNet synonyms, an argument
 * reworded through a knowledge-base paraphrase. Kept in one place so every writer words arguments alike.
 */
import { type Argument, type Rng, resolveStopwords } from "@npov/core";
import { firstSenseSynonyms } from "@npov/rouge";

/** NLTK stopwords: never replaced by a synonym, never counted as content. */
export const STOP = resolveStopwords("nltk");

/** Options of the argument rewording. */
export interface RewordOptions {
  /** Probability of replacing a content word by a WordNet synonym (default 0.3). */
  synonymRate?: number;
  /** Probability of stating an argument through a knowledge-base paraphrase when it has one (default 0.5). */
  paraphraseRate?: number;
}

/**
 * Words written capitalized mid-sentence somewhere in `texts`: names that must stay capitalized ("Daesh",
 * "Europe"). A stopword ("The") is not a name, nor a word written in lower case more often than capitalized
 * mid-sentence ("Free Trade" once beside "free trade" twice is title case).
 */
export function namesIn(texts: Iterable<string>): Set<string> {
  const all = [...texts];
  const lowerCounts = new Map<string, number>();
  for (const text of all)
    for (const m of text.matchAll(/(?<![\p{L}'’-])\p{Ll}[\p{L}'’-]*/gu))
      lowerCounts.set(m[0], (lowerCounts.get(m[0]) ?? 0) + 1);
  const capitalCounts = new Map<string, number>();
  for (const text of all)
    for (const m of text.matchAll(/(?<=[\p{L}\p{N},;:]\s+)\p{Lu}[\p{L}'’-]*/gu))
      if (!STOP.has(m[0].toLowerCase())) capitalCounts.set(m[0], (capitalCounts.get(m[0]) ?? 0) + 1);
  const names = new Set<string>();
  for (const [word, n] of capitalCounts) if (n >= (lowerCounts.get(word.toLowerCase()) ?? 0)) names.add(word);
  return names;
}

/** Lowercase the first word of a text unless it is a name, "I" or an acronym ("Uniforms" -> "uniforms"). */
export function lowercaseInitial(text: string, names: ReadonlySet<string>): string {
  const first = /^[\p{L}'’-]+/u.exec(text)?.[0] ?? "";
  if (first.length === 0 || names.has(first) || first === "I" || /^.\p{Lu}/u.test(first)) return text;
  return text.charAt(0).toLowerCase() + text.slice(1);
}

/** The text with its first character capitalized. */
export function upperFirst(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The text trimmed, without final punctuation. */
export function bare(text: string): string {
  return text.trim().replace(/[\s.!?;:,]+$/u, "");
}

/** Replace some content words by first-sense WordNet synonyms (only uninflected forms, case kept). */
export function synonymize(text: string, rng: Rng, rate: number, keep: ReadonlySet<string>): string {
  const table = firstSenseSynonyms();
  return text.replace(/\p{L}+/gu, (word) => {
    const lower = word.toLowerCase();
    if (lower.length < 4 || STOP.has(lower) || keep.has(lower) || /^\p{Lu}/u.test(word.slice(1))) return word;
    const options = table.get(lower);
    if (options === undefined || rng.next() >= rate) return word;
    const pick = rng.pick(options);
    return /^\p{Lu}/u.test(word) ? pick.charAt(0).toUpperCase() + pick.slice(1) : pick;
  });
}

/** Words of a query and topic, never replaced (a chatbot keeps the debate's own terms). */
export function keptWords(...texts: string[]): Set<string> {
  return new Set(
    texts
      .join(" ")
      .toLowerCase()
      .match(/\p{L}+/gu) ?? [],
  );
}

/** An argument reworded: a paraphrase or the text itself, then synonyms. */
export function rewordArgument(a: Argument, rng: Rng, options: RewordOptions, keep: ReadonlySet<string>): string {
  const base =
    (a.paraphrases?.length ?? 0) > 0 && rng.next() < (options.paraphraseRate ?? 0.5)
      ? rng.pick(a.paraphrases as string[])
      : a.text;
  return bare(synonymize(bare(base), rng, options.synonymRate ?? 0.3, keep));
}
