/**
 * A small byte-pair-encoding trainer producing tokenizer.json files that transformers.js loads
 * (SentencePiece-style: each whitespace-separated word is prefixed with "▁"; Metaspace pre-tokenizer and
 * decoder). Deterministic: ties between equally frequent pairs go to the lexicographically smallest.
 */
import { InvalidValueError } from "@npov/core";
import { bpeTokenizerJson } from "./tokenizer.js";

export interface BpeTrainOptions {
  /** Target vocabulary size including the 4 special tokens and the alphabet (default 4000). */
  vocabSize?: number;
  /** Characters seen fewer times are left out of the alphabet (they become <unk>; default 2). */
  minCharFrequency?: number;
  /** Pairs seen fewer times are not merged (default 2). */
  minPairFrequency?: number;
}

export interface BpeModel {
  alphabet: string[];
  merges: Array<[string, string]>;
}

const SPACE = "\u2581";

/** Words of a text as the Metaspace pre-tokenizer sees them: "▁" + each whitespace-separated run. */
export function metaspaceWords(text: string): string[] {
  return text
    .normalize("NFC")
    .split(/\s+/u)
    .filter((w) => w.length > 0)
    .map((w) => SPACE + w);
}

/** Train merges on a corpus of texts. */
export function trainBpe(corpus: Iterable<string>, options: BpeTrainOptions = {}): BpeModel {
  const vocabSize = options.vocabSize ?? 4000;
  const minChar = options.minCharFrequency ?? 2;
  const minPair = options.minPairFrequency ?? 2;
  if (!Number.isInteger(vocabSize) || vocabSize < 8)
    throw new InvalidValueError("vocabSize", "must be an integer >= 8.");
  const wordCounts = new Map<string, number>();
  for (const text of corpus) for (const w of metaspaceWords(text)) wordCounts.set(w, (wordCounts.get(w) ?? 0) + 1);
  const charCounts = new Map<string, number>();
  for (const [w, c] of wordCounts) for (const ch of w) charCounts.set(ch, (charCounts.get(ch) ?? 0) + c);
  const alphabet = [...charCounts.entries()]
    .filter(([ch, c]) => c >= minChar || ch === SPACE)
    .map(([ch]) => ch)
    .sort();
  if (!alphabet.includes(SPACE)) alphabet.unshift(SPACE);
  const known = new Set(alphabet);

  // Words as symbol arrays (unknown characters stay as their own symbol but never merge).
  const words = [...wordCounts.entries()]
    .sort((a, b) => (a[0] < b[0] ? -1 : 1))
    .map(([w, c]) => ({ symbols: [...w], count: c }));
  const pairKey = (a: string, b: string) => `${a}\u0000${b}`;
  const pairCounts = new Map<string, number>();
  const pairWords = new Map<string, Set<number>>();
  const addPairs = (i: number, sign: number) => {
    const { symbols, count } = words[i] as { symbols: string[]; count: number };
    for (let k = 0; k + 1 < symbols.length; k++) {
      const a = symbols[k] as string;
      const b = symbols[k + 1] as string;
      if (!known.has(a) || !known.has(b)) continue;
      const key = pairKey(a, b);
      pairCounts.set(key, (pairCounts.get(key) ?? 0) + sign * count);
      if (sign > 0) {
        let set = pairWords.get(key);
        if (set === undefined) {
          set = new Set();
          pairWords.set(key, set);
        }
        set.add(i);
      }
    }
  };
  for (let i = 0; i < words.length; i++) addPairs(i, 1);

  const merges: Array<[string, string]> = [];
  const target = vocabSize - 4 - alphabet.length;
  while (merges.length < target) {
    let best: string | undefined;
    let bestCount = 0;
    for (const [key, c] of pairCounts)
      if (c > bestCount || (c === bestCount && best !== undefined && key < best)) {
        best = key;
        bestCount = c;
      }
    if (best === undefined || bestCount < minPair) break;
    const [a, b] = best.split("\u0000") as [string, string];
    const merged = a + b;
    merges.push([a, b]);
    known.add(merged);
    for (const i of pairWords.get(best) ?? []) {
      addPairs(i, -1);
      const w = words[i] as { symbols: string[]; count: number };
      const next: string[] = [];
      for (let k = 0; k < w.symbols.length; k++) {
        if (k + 1 < w.symbols.length && w.symbols[k] === a && w.symbols[k + 1] === b) {
          next.push(merged);
          k++;
        } else next.push(w.symbols[k] as string);
      }
      w.symbols = next;
      addPairs(i, 1);
    }
    pairCounts.delete(best);
    pairWords.delete(best);
    for (const [key, c] of pairCounts) if (c <= 0) pairCounts.delete(key);
  }
  return { alphabet, merges };
}

/** Apply merges to one word the way BPE encoders do: repeatedly merge the adjacent pair of lowest rank. */
export function applyBpe(word: string, model: BpeModel): string[] {
  const ranks = new Map(model.merges.map(([a, b], r) => [`${a}\u0000${b}`, r]));
  let symbols = [...word];
  for (;;) {
    let bestRank = Number.POSITIVE_INFINITY;
    let at = -1;
    for (let k = 0; k + 1 < symbols.length; k++) {
      const r = ranks.get(`${symbols[k]}\u0000${symbols[k + 1]}`);
      if (r !== undefined && r < bestRank) {
        bestRank = r;
        at = k;
      }
    }
    if (at < 0) return symbols;
    symbols = [
      ...symbols.slice(0, at),
      (symbols[at] as string) + (symbols[at + 1] as string),
      ...symbols.slice(at + 2),
    ];
  }
}

/** tokenizer.json (object) for a trained model. */
export function bpeModelTokenizerJson(model: BpeModel, options: { appendEos?: boolean } = {}): Record<string, unknown> {
  return bpeTokenizerJson(model.alphabet, model.merges, options);
}
