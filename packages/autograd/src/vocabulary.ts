/**
 * What a model's vocabulary can represent: the largest id its tokenizer produces (checked against the
 * embedding rows), and the words of a text whose characters its tokenizer maps to the unknown token.
 *
 * Policy (npov's model methods -- salience, the YES/NO classifier): a scored word (a run of letters, marks
 * or digits in an argument or the response) with a character that becomes the unknown token is refused with
 * a typed `UNREPRESENTABLE_TEXT` error listing the words and characters. Such a word reaches the model as
 * `<unk>`: salience would give it attribution 0 (a hallucination that is not there) even when copied
 * verbatim from an argument, and the classifier would judge text it never saw. Punctuation, symbols and
 * emoji outside words do not block. Tokenizers with byte fallback (LLaMA, stories260K) or byte-level BPE
 * (GPT-2, Qwen2) never produce the unknown token and read every script; the shipped npov models' ASCII-only
 * vocabularies cannot read CJK, and most Arabic, Hebrew, Cyrillic, Greek or Devanagari words (or accented
 * Latin letters such as "é").
 */
import type * as transformers from "@huggingface/transformers";
import { segmentWords } from "@npov/core";
import { UnrepresentableTextError, type UnrepresentableWord } from "./errors.js";

type TokenizerJson = {
  model?: { vocab?: unknown };
  added_tokens?: Array<{ id?: unknown }>;
};

/**
 * One more than the largest token id a tokenizer.json can produce (its model's vocabulary and its added
 * tokens): the embedding rows a model needs for it.
 */
export function tokenizerJsonSize(json: unknown): number {
  const j = (json ?? {}) as TokenizerJson;
  let max = -1;
  const vocab = j.model?.vocab;
  if (Array.isArray(vocab)) max = vocab.length - 1;
  else if (vocab !== null && typeof vocab === "object")
    for (const id of Object.values(vocab as Record<string, unknown>)) if (typeof id === "number" && id > max) max = id;
  for (const t of j.added_tokens ?? []) if (typeof t.id === "number" && t.id > max) max = t.id;
  return max + 1;
}

/** {@link tokenizerJsonSize} of a loaded tokenizer (transformers.js keeps the JSON it was built from). */
export function tokenizerSize(tokenizer: transformers.PreTrainedTokenizer): number {
  return tokenizerJsonSize((tokenizer as unknown as { _tokenizerJSON?: unknown })._tokenizerJSON);
}

/** Per tokenizer: word -> the characters that become the unknown token (empty: representable). */
const wordCache = new WeakMap<object, Map<string, string[]>>();
const WORD_CACHE_LIMIT = 100_000;

function unknownCharacters(tokenizer: transformers.PreTrainedTokenizer, word: string): string[] {
  const unk = (tokenizer as { unk_token_id?: number | null }).unk_token_id;
  const encode = (s: string) => tokenizer.encode(s, { add_special_tokens: false }) as number[];
  let cache = wordCache.get(tokenizer);
  if (cache === undefined) {
    cache = new Map();
    wordCache.set(tokenizer, cache);
  }
  const known = cache.get(word);
  if (known !== undefined) return known;
  const ids = encode(word);
  let chars: string[] = [];
  const hasUnk = (xs: number[]) => typeof unk === "number" && xs.includes(unk);
  if (hasUnk(ids) || ids.length === 0) {
    chars = [...new Set(Array.from(word).filter((c) => hasUnk(encode(c))))];
    // A word dropped whole, or unknown only in combination: report the word itself.
    if (chars.length === 0) chars = [word];
  }
  if (cache.size >= WORD_CACHE_LIMIT) cache.clear();
  cache.set(word, chars);
  return chars;
}

/**
 * The words of `texts` (runs of letters, marks and digits) with characters the tokenizer maps to its
 * unknown token, or that it drops entirely; empty for tokenizers with byte fallback or byte-level BPE.
 */
export function unrepresentableWords(
  tokenizer: transformers.PreTrainedTokenizer,
  texts: ReadonlyArray<{ path: string; text: string }>,
): UnrepresentableWord[] {
  const out: UnrepresentableWord[] = [];
  for (const { path, text } of texts)
    for (const w of segmentWords(text)) {
      const characters = unknownCharacters(tokenizer, w.text);
      if (characters.length > 0) out.push({ path, word: w.text, start: w.start, end: w.end, characters });
    }
  return out;
}

/**
 * Refuse text a model cannot represent (see the module comment).
 * @throws UnrepresentableTextError listing the words and characters.
 */
export function requireRepresentable(
  model: string,
  tokenizer: transformers.PreTrainedTokenizer,
  texts: ReadonlyArray<{ path: string; text: string }>,
): void {
  const words = unrepresentableWords(tokenizer, texts);
  if (words.length > 0) throw new UnrepresentableTextError(model, words);
}
