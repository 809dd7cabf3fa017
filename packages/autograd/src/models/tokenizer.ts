/**
 * A character-level BPE tokenizer in Hugging Face's tokenizer.json format (Metaspace pre-tokenizer and
 * decoder, as SentencePiece-style models use), for the project's test models. Any text tokenizes:
 * characters outside the alphabet map to <unk>.
 */

/** Special tokens and their ids (T5 conventions: pad 0, eos 1, unk 2; bos 3). */
export const SPECIAL_TOKENS = { pad: "<pad>", eos: "</s>", unk: "<unk>", bos: "<s>" } as const;
export const SPECIAL_IDS = { pad: 0, eos: 1, unk: 2, bos: 3 } as const;

/** The default alphabet: the metaspace symbol and printable ASCII. */
export function asciiAlphabet(): string[] {
  return ["\u2581", ...Array.from({ length: 94 }, (_, i) => String.fromCharCode(33 + i))];
}

/** One `added_tokens` entry of tokenizer.json: a special token matched verbatim, never normalized or split. */
export function specialAddedToken(id: number, content: string): Record<string, unknown> {
  return { id, content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true };
}

/** tokenizer.json (as an object) for a BPE model over `alphabet` plus `merges` (pairs, in priority order). */
export function bpeTokenizerJson(
  alphabet: readonly string[] = asciiAlphabet(),
  merges: ReadonlyArray<[string, string]> = [],
  options: { appendEos?: boolean } = {},
): Record<string, unknown> {
  const vocab: Record<string, number> = {};
  const specials = [SPECIAL_TOKENS.pad, SPECIAL_TOKENS.eos, SPECIAL_TOKENS.unk, SPECIAL_TOKENS.bos];
  specials.forEach((t, i) => {
    vocab[t] = i;
  });
  for (const ch of alphabet) if (vocab[ch] === undefined) vocab[ch] = Object.keys(vocab).length;
  for (const [a, b] of merges) if (vocab[a + b] === undefined) vocab[a + b] = Object.keys(vocab).length;
  const metaspace = { type: "Metaspace", replacement: "\u2581", prepend_scheme: "always", split: true };
  return {
    version: "1.0",
    truncation: null,
    padding: null,
    added_tokens: specials.map((content, id) => specialAddedToken(id, content)),
    normalizer: null,
    pre_tokenizer: metaspace,
    post_processor: options.appendEos
      ? {
          type: "TemplateProcessing",
          single: [{ Sequence: { id: "A", type_id: 0 } }, { SpecialToken: { id: SPECIAL_TOKENS.eos, type_id: 0 } }],
          pair: [
            { Sequence: { id: "A", type_id: 0 } },
            { Sequence: { id: "B", type_id: 0 } },
            { SpecialToken: { id: SPECIAL_TOKENS.eos, type_id: 0 } },
          ],
          special_tokens: {
            [SPECIAL_TOKENS.eos]: { id: SPECIAL_TOKENS.eos, ids: [SPECIAL_IDS.eos], tokens: [SPECIAL_TOKENS.eos] },
          },
        }
      : null,
    decoder: metaspace,
    model: {
      type: "BPE",
      dropout: null,
      unk_token: SPECIAL_TOKENS.unk,
      continuing_subword_prefix: null,
      end_of_word_suffix: null,
      fuse_unk: false,
      byte_fallback: false,
      ignore_merges: false,
      vocab,
      merges: merges.map(([a, b]) => [a, b]),
    },
  };
}

/** Size of the vocabulary a tokenizer.json object defines. */
export function vocabSize(tokenizer: Record<string, unknown>): number {
  return Object.keys((tokenizer.model as { vocab: Record<string, number> }).vocab).length;
}
