/**
 * Character spans of tokens: where each token of `ids` sits in the text it was encoded from. Tokenizers in
 * JavaScript do not report offsets, so each token's decoded piece is aligned to the text:
 *
 * - pieces and text are compared in a canonical form (NFKD, lower case, no combining marks, no whitespace
 *   or SentencePiece "▁"), with a map from every canonical character back to the text, so normalizers that
 *   lowercase, apply NFKC (T5's "½" -> "1⁄2") or strip accents still match;
 * - the canonical pieces are aligned to the canonical text by a (banded) edit-distance alignment, so text
 *   the tokenizer dropped or changed does not shift later tokens;
 * - `<unk>` stands for characters the tokenizer could not represent: the text characters the alignment has
 *   no piece for at its position go to it (the tokens around it resynchronise on their own pieces);
 * - tokens that only decode together (byte fallback `<0xE2><0x82><0xAC>`, byte-level BPE pieces of one
 *   UTF-8 character) form one group, and every token of a group gets the group's span;
 * - other special tokens get empty spans, unless their literal text is in the text (it was typed there).
 *
 * Every non-whitespace character of the text is covered by some token's span when `ids` has any token:
 * characters no piece accounts for join their neighbouring token. Spans are ordered (starts and ends
 * non-decreasing); two spans overlap only when they belong to one group (identical spans) or share one
 * character the tokenizer split into several tokens.
 */

/** Minimal tokenizer surface used here (transformers.js's PreTrainedTokenizer has it). */
export interface DecodingTokenizer {
  decode(ids: number[], options?: { skip_special_tokens?: boolean }): string;
  /** The unknown token's id, when the tokenizer has one (else special tokens named like "unk" are it). */
  unk_token_id?: number | null;
  /** Ids of special tokens (else: tokens that decode to nothing with `skip_special_tokens`). */
  all_special_ids?: readonly number[];
}

export interface TokenSpan {
  id: number;
  start: number;
  end: number;
}

/** Longest run of bytes one character's tokens can have (UTF-8: 4), with slack for merged pieces. */
const MAX_GROUP = 8;
const REPLACEMENT = "\uFFFD";
const DROPPED = /[\s\u2581\p{M}]/gu;

/**
 * The canonical form pieces and text are compared in (see the module comment), one code point at a time.
 * A visible character with no canonical form (a lone combining mark, a zero-width character) stays
 * itself, so it still takes part; a "▁" does too in the text (`marker`), where it was typed, not a space.
 */
function canonicalPoint(cp: string, marker: boolean): string {
  const c = cp.normalize("NFKD").toLowerCase().normalize("NFKD").replace(/ς/gu, "σ").replace(DROPPED, "");
  return c === "" && !/\s/u.test(cp) && (marker || cp !== "\u2581") ? cp : c;
}

function canonical(s: string): string {
  let out = "";
  for (const cp of s) out += canonicalPoint(cp, false);
  return out;
}

interface Unit {
  /** Token indices (more than one: tokens that only decode together). */
  tokens: number[];
  kind: "text" | "special" | "unk";
  /** Canonical piece (empty for unk). */
  piece: string;
}

/** Group tokens into units and decode each unit's piece in the context of the previous unit. */
function units(tokenizer: DecodingTokenizer, ids: readonly number[]): Unit[] {
  const special = new Set(tokenizer.all_special_ids ?? []);
  const known = tokenizer.all_special_ids !== undefined;
  const skip = (x: number[]) => (x.length === 0 ? "" : tokenizer.decode(x, { skip_special_tokens: true }));
  const isSpecial = (id: number) =>
    known ? special.has(id) : skip([id]) === "" && tokenizer.decode([id], { skip_special_tokens: false }) !== "";
  const out: Unit[] = [];
  let context: number[] = [];
  let k = 0;
  while (k < ids.length) {
    const id = ids[k] as number;
    if (isSpecial(id)) {
      const literal = tokenizer.decode([id], { skip_special_tokens: false });
      const unk =
        tokenizer.unk_token_id !== undefined && tokenizer.unk_token_id !== null
          ? id === tokenizer.unk_token_id
          : /unk/iu.test(literal);
      out.push({ tokens: [k], kind: unk ? "unk" : "special", piece: unk ? "" : canonical(literal) });
      context = [];
      k++;
      continue;
    }
    const before = skip(context);
    // The piece of ids[k .. k + g): what decoding them after the previous unit adds (decoders strip a
    // leading space or "##" only at the start of a decode, so the context keeps pieces as they are in text).
    const piece = (g: number) => {
      const full = skip([...context, ...ids.slice(k, k + g)]);
      let common = 0;
      while (common < before.length && before[common] === full[common]) common++;
      return full.slice(common);
    };
    let size = 1;
    let text = piece(1);
    for (let g = 1; g <= MAX_GROUP && k + g <= ids.length && !isSpecial(ids[k + g - 1] as number); g++) {
      const candidate = g === 1 ? text : piece(g);
      if (!candidate.includes(REPLACEMENT)) {
        size = g;
        text = candidate;
        break;
      }
    }
    const tokens = Array.from({ length: size }, (_, j) => k + j);
    out.push({ tokens, kind: "text", piece: canonical(text) });
    context = ids.slice(k, k + size) as number[];
    k += size;
  }
  return out;
}

/** The canonical text with, per canonical character, the code point of the text it came from. */
function canonicalText(text: string): { chars: string; origin: number[]; points: Array<[number, number]> } {
  let chars = "";
  const origin: number[] = [];
  const points: Array<[number, number]> = [];
  let i = 0;
  for (const cp of text) {
    const c = canonicalPoint(cp, true);
    for (let u = 0; u < c.length; u++) origin.push(points.length);
    chars += c;
    points.push([i, i + cp.length]);
    i += cp.length;
  }
  return { chars, origin, points };
}

const MATCH = 0;
const SUBSTITUTE = 1;
const DELETE = 2; // a piece character the text does not have
const INSERT = 3; // a text character no piece has

/**
 * Edit-distance alignment of `piece` to `text` within a diagonal band: for each text character, the index
 * of the piece character aligned to it, or -1 - (number of piece characters before it) for an insertion.
 * Returns undefined when the best path's cost reaches the band's slack (the band may have cut it off).
 */
function alignBand(piece: string, costs: AlignCosts, text: string, slack: number): Int32Array | undefined {
  const n = piece.length;
  const m = text.length;
  const low = Math.min(0, m - n) - slack;
  const high = Math.max(0, m - n) + slack;
  const width = high - low + 1;
  const moves = new Uint8Array((n + 1) * width);
  let prev = new Float64Array(width).fill(Number.POSITIVE_INFINITY);
  let row = new Float64Array(width).fill(Number.POSITIVE_INFINITY);
  for (let i = 0; i <= n; i++) {
    row.fill(Number.POSITIVE_INFINITY);
    for (let d = low; d <= high; d++) {
      const j = i + d;
      if (j < 0 || j > m) continue;
      const c = d - low;
      if (i === 0 && j === 0) {
        row[c] = 0;
        continue;
      }
      let best = Number.POSITIVE_INFINITY;
      let move = MATCH;
      if (i > 0 && j > 0) {
        const same = piece.charCodeAt(i - 1) === text.charCodeAt(j - 1);
        // A special token's literal matches exactly or not at all: substituting into it costs more than
        // deleting it and inserting the text character.
        best = (prev[c] as number) + (same ? 0 : costs.strict[i - 1] ? 3 : 1);
        move = same ? MATCH : SUBSTITUTE;
      }
      const insert = costs.unkAt[i] ? 0.5 : 1;
      if (j > 0 && c > 0 && (row[c - 1] as number) + insert < best) {
        best = (row[c - 1] as number) + insert;
        move = INSERT;
      }
      if (i > 0 && c + 1 < width && (prev[c + 1] as number) + 1 < best) {
        best = (prev[c + 1] as number) + 1;
        move = DELETE;
      }
      row[c] = best;
      moves[i * width + c] = move;
    }
    [prev, row] = [row, prev];
  }
  const cost = prev[m - n - low] as number;
  if (!(cost < slack)) return undefined;
  const aligned = new Int32Array(m);
  let i = n;
  let j = m;
  while (i > 0 || j > 0) {
    const move = moves[i * width + (j - i - low)];
    if (i > 0 && j > 0 && (move === MATCH || move === SUBSTITUTE)) {
      aligned[--j] = --i;
    } else if (j > 0 && (move === INSERT || i === 0)) {
      aligned[--j] = -1 - i;
    } else i--;
  }
  return aligned;
}

/**
 * Per piece character: `strict` (a special token's literal); per position between piece characters:
 * `unkAt` (an unknown token is there, so text characters missing from the pieces are expected there).
 */
interface AlignCosts {
  strict: Uint8Array;
  unkAt: Uint8Array;
}

function align(piece: string, costs: AlignCosts, text: string): Int32Array {
  // Pieces match the text up to a few characters per unknown or changed character: a narrow band first.
  for (let slack = 64; ; slack *= 4) {
    const full = slack >= piece.length + text.length;
    const aligned = alignBand(piece, costs, text, full ? 3 * (piece.length + text.length) + 1 : slack);
    if (aligned !== undefined) return aligned;
  }
}

/** Spans of `ids` in `text` (see the module comment). */
export function alignTokens(tokenizer: DecodingTokenizer, ids: readonly number[], text: string): TokenSpan[] {
  if (ids.length === 0) return [];
  const groups = units(tokenizer, ids);
  const { chars, origin, points } = canonicalText(text);
  let pieces = "";
  const pieceUnit: number[] = [];
  const unkAt = new Map<number, number[]>(); // piece position -> unk units there, in order
  groups.forEach((u, k) => {
    if (u.kind === "unk") {
      const list = unkAt.get(pieces.length) ?? [];
      list.push(k);
      unkAt.set(pieces.length, list);
    }
    for (let c = 0; c < u.piece.length; c++) pieceUnit.push(k);
    pieces += u.piece;
  });
  const strict = Uint8Array.from(pieceUnit, (k) => (groups[k]?.kind === "special" ? 1 : 0));
  const unkPositions = new Uint8Array(pieces.length + 1);
  for (const position of unkAt.keys()) unkPositions[position] = 1;
  const aligned = align(pieces, { strict, unkAt: unkPositions }, chars);

  // Owner unit of every canonical character (-1: joins its neighbour).
  const owner = new Int32Array(chars.length).fill(-1);
  const unkRun = new Map<number, { point: number; index: number }>(); // per position: current character
  for (let j = 0; j < chars.length; j++) {
    const a = aligned[j] as number;
    if (a >= 0) {
      owner[j] = pieceUnit[a] as number;
      continue;
    }
    const unks = unkAt.get(-1 - a);
    if (unks === undefined) continue;
    // The unk tokens at one position take the characters inserted there one each, the last the rest.
    const point = origin[j] as number;
    let run = unkRun.get(-1 - a);
    if (run === undefined) {
      run = { point, index: 0 };
      unkRun.set(-1 - a, run);
    } else if (run.point !== point) {
      run.point = point;
      run.index++;
    }
    owner[j] = unks[Math.min(run.index, unks.length - 1)] as number;
  }
  // Characters no piece accounts for join the token before them (the first token that owns any, at the start).
  const firstText = groups.findIndex((u) => u.kind !== "special");
  let previous = owner.find((o) => o >= 0) ?? Math.max(firstText, 0);
  for (let j = 0; j < chars.length; j++) {
    if ((owner[j] as number) < 0) owner[j] = previous;
    previous = owner[j] as number;
  }

  const starts = new Array<number>(groups.length).fill(Number.POSITIVE_INFINITY);
  const ends = new Array<number>(groups.length).fill(-1);
  for (let j = 0; j < chars.length; j++) {
    const u = owner[j] as number;
    const [s, e] = points[origin[j] as number] as [number, number];
    starts[u] = Math.min(starts[u] as number, s);
    ends[u] = Math.max(ends[u] as number, e);
  }
  const spans: TokenSpan[] = new Array(ids.length);
  let cursor = 0;
  groups.forEach((u, k) => {
    const empty = (ends[k] as number) < 0;
    const start = empty ? cursor : (starts[k] as number);
    const end = empty ? cursor : (ends[k] as number);
    if (!empty) cursor = end;
    for (const t of u.tokens) spans[t] = { id: ids[t] as number, start, end };
  });
  return spans;
}

/** Token indices overlapping [start, end). */
export function tokensIn(spans: readonly TokenSpan[], start: number, end: number): number[] {
  const out: number[] = [];
  spans.forEach((s, k) => {
    if (s.end > s.start && s.start < end && start < s.end) out.push(k);
  });
  return out;
}
