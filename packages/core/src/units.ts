/** Sentence units of source documents (the sources input's counterpart of arguments). */
import { splitSentences } from "./text.js";
import type { SourcesInput, SourceUnit } from "./types.js";

/** Characters of a unit below which it joins its neighbour (a heading, "Yes.", a list marker). */
const MIN_UNIT_CHARS = 12;

/**
 * Split each source into sentence units with offsets into its text. Every character of a source's text
 * belongs to one unit, whitespace between units excepted; a unit too short to state anything on its own (a
 * heading, a list marker) joins the next one (or the previous, at the end).
 */
export function sourceUnits(input: SourcesInput): SourceUnit[][] {
  return input.sources.map((s, si) => {
    const merged: Array<{ start: number; end: number }> = [];
    let pending: { start: number; end: number } | undefined;
    for (const sentence of splitSentences(s.text)) {
      const span =
        pending === undefined ? { start: sentence.start, end: sentence.end } : { ...pending, end: sentence.end };
      const text = s.text.slice(span.start, span.end);
      if (text.length < MIN_UNIT_CHARS || !/[\p{L}\p{N}]/u.test(text)) pending = span;
      else {
        merged.push(span);
        pending = undefined;
      }
    }
    if (pending !== undefined) {
      const last = merged.at(-1);
      if (last === undefined) merged.push(pending);
      else last.end = pending.end;
    }
    return merged.map((u, index) => ({
      source: si,
      index,
      start: u.start,
      end: u.end,
      text: s.text.slice(u.start, u.end),
    }));
  });
}
