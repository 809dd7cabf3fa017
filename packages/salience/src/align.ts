/**
 * Character spans of tokens: where each token of `ids` sits in the text it was encoded from. Tokenizers in
 * JavaScript do not report offsets, so non-whitespace characters of the decoded tokens are matched, in
 * order, to the non-whitespace characters of the text (robust to Metaspace "▁", byte-level "Ġ" and
 * whitespace normalization). Special tokens get empty spans.
 */

/** Minimal tokenizer surface used here (transformers.js's PreTrainedTokenizer has it). */
export interface DecodingTokenizer {
  decode(ids: number[], options?: { skip_special_tokens?: boolean }): string;
}

export interface TokenSpan {
  id: number;
  start: number;
  end: number;
}

const nonWhitespaceLength = (s: string) => s.replace(/\s/gu, "").length;

/** Spans of `ids` in `text`. Tokens whose characters cannot be matched get empty spans at the end of text. */
export function alignTokens(tokenizer: DecodingTokenizer, ids: readonly number[], text: string): TokenSpan[] {
  const positions: number[] = [];
  for (let i = 0; i < text.length; i++) if (!/\s/u.test(text.charAt(i))) positions.push(i);
  let counts = ids.map((id) => nonWhitespaceLength(tokenizer.decode([id], { skip_special_tokens: true })));
  if (counts.reduce((a, b) => a + b, 0) !== positions.length) {
    // Pieces that only decode correctly together (byte fallback, merged UTF-8): use prefix decodings.
    let previous = 0;
    counts = ids.map((_, k) => {
      const length = nonWhitespaceLength(
        tokenizer.decode(ids.slice(0, k + 1) as number[], { skip_special_tokens: true }),
      );
      const n = Math.max(0, length - previous);
      previous = Math.max(previous, length);
      return n;
    });
  }
  let cursor = 0;
  return ids.map((id, k) => {
    const n = counts[k] as number;
    if (n === 0 || cursor >= positions.length)
      return { id, start: positions[cursor] ?? text.length, end: positions[cursor] ?? text.length };
    const first = positions[cursor] as number;
    const last = positions[Math.min(cursor + n, positions.length) - 1] as number;
    cursor += n;
    return { id, start: first, end: last + 1 };
  });
}

/** Token indices overlapping [start, end). */
export function tokensIn(spans: readonly TokenSpan[], start: number, end: number): number[] {
  const out: number[] = [];
  spans.forEach((s, k) => {
    if (s.end > s.start && s.start < end && start < s.end) out.push(k);
  });
  return out;
}
