/**
 * Token spans when the tokenizer cannot represent every character (issue 21): `<unk>`, byte fallback,
 * normalizers that change text, special tokens. Hand-worked cases on a toy tokenizer, the shipped
 * tokenizers (models/npov-gen has no "4") and the zoo's, a property test over random text, and word-level
 * salience maps on the shipped model equal to the ones from hand-aligned spans.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { tokenizerFromFiles } from "@npov/autograd";
import { generatorPromptLayout, type NpovInput, validateInput } from "@npov/core";
import {
  alignTokens,
  type DecodingTokenizer,
  postprocessSalience,
  SalienceDetector,
  type TokenSpan,
} from "@npov/salience";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";

const REPO = join(import.meta.dirname, "../../..");
const ZOO = join(REPO, "../shared/models/zoo");

/** A SentencePiece-like tokenizer over a fixed vocabulary: Metaspace "▁", byte fallback, specials. */
class ToyTokenizer implements DecodingTokenizer {
  readonly unk_token_id = 0;
  readonly all_special_ids = [0, 1];
  readonly vocab: string[];
  constructor(pieces: string[]) {
    this.vocab = ["<unk>", "</s>", ...pieces];
  }
  ids(...pieces: string[]): number[] {
    return pieces.map((p) => {
      const id = this.vocab.indexOf(p);
      if (id < 0) throw new Error(`no piece ${p}`);
      return id;
    });
  }
  decode(ids: number[], options: { skip_special_tokens?: boolean } = {}): string {
    let out = "";
    const bytes: number[] = [];
    const flush = () => {
      out += new TextDecoder().decode(Uint8Array.from(bytes));
      bytes.length = 0;
    };
    for (const id of ids) {
      if (options.skip_special_tokens && this.all_special_ids.includes(id)) continue;
      const piece = this.vocab[id] as string;
      const byte = /^<0x([0-9A-F]{2})>$/.exec(piece);
      if (byte) bytes.push(Number.parseInt(byte[1] as string, 16));
      else {
        flush();
        out += piece.replaceAll("▁", " ");
      }
    }
    flush();
    return out.startsWith(" ") ? out.slice(1) : out;
  }
}

const texts = (text: string, spans: TokenSpan[]) => spans.map((s) => text.slice(s.start, s.end));

describe("hand-worked spans on a toy tokenizer", () => {
  it("<unk> takes the characters the tokenizer could not represent; later tokens stay in place", () => {
    const tok = new ToyTokenizer(["▁Pay", "▁", "0", "▁per", "cent"]);
    const text = "Pay 40 percent";
    const spans = alignTokens(tok, tok.ids("▁Pay", "▁", "<unk>", "0", "▁per", "cent"), text);
    expect(spans.map((s) => [s.start, s.end])).toEqual([
      [0, 3],
      [3, 3],
      [4, 5],
      [5, 6],
      [7, 10],
      [10, 14],
    ]);
    expect(texts(text, spans)).toEqual(["Pay", "", "4", "0", "per", "cent"]);
  });

  it("consecutive <unk> tokens take one character each; a fused <unk> takes the whole run", () => {
    const tok = new ToyTokenizer(["▁a", "b"]);
    expect(texts("a€😀b", alignTokens(tok, tok.ids("▁a", "<unk>", "<unk>", "b"), "a€😀b"))).toEqual([
      "a",
      "€",
      "😀",
      "b",
    ]);
    expect(texts("a€😀b", alignTokens(tok, tok.ids("▁a", "<unk>", "b"), "a€😀b"))).toEqual(["a", "€😀", "b"]);
  });

  it("byte-fallback tokens of one character share its span", () => {
    const tok = new ToyTokenizer(["▁5", "▁", "<0xE2>", "<0x82>", "<0xAC>", "▁ok"]);
    const text = "5 € ok";
    const spans = alignTokens(tok, tok.ids("▁5", "▁", "<0xE2>", "<0x82>", "<0xAC>", "▁ok"), text);
    expect(spans.map((s) => [s.start, s.end])).toEqual([
      [0, 1],
      [1, 1],
      [2, 3],
      [2, 3],
      [2, 3],
      [4, 6],
    ]);
  });

  it("normalizers that lowercase and apply NFKC (fullwidth letters, ½ -> 1⁄2)", () => {
    const tok = new ToyTokenizer(["▁hello", "▁1", "2"]);
    const text = "ＨＥＬＬＯ ½!";
    // "⁄" is not in the vocabulary (an <unk>); "!" was dropped by the normalizer: it joins the token before.
    const spans = alignTokens(tok, tok.ids("▁hello", "▁1", "<unk>", "2"), text);
    expect(texts(text, spans)).toEqual(["ＨＥＬＬＯ", "½", "½", "½!"]);
  });

  it("special tokens: their literal when typed in the text, else an empty span", () => {
    const tok = new ToyTokenizer(["▁a", "▁b"]);
    const text = "a </s> b";
    const spans = alignTokens(tok, tok.ids("▁a", "</s>", "▁b", "</s>"), text);
    expect(spans.map((s) => [s.start, s.end])).toEqual([
      [0, 1],
      [2, 6],
      [7, 8],
      [8, 8],
    ]);
  });
});

/** The shipped tokenizers and the zoo's (one per distinct tokenizer.json). */
const TOKENIZERS: Array<{ name: string; dir: string }> = [
  ...["npov-gen", "npov-cls"].map((m) => ({ name: m, dir: join(REPO, "models", m) })),
  ...readdirSync(ZOO, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => ({ name: `zoo ${d.name}`, dir: join(ZOO, d.name) })),
];

describe("the shipped npov-gen tokenizer (no '4' in its alphabet)", () => {
  const tok = tokenizerFromFiles(join(REPO, "models/npov-gen"));
  it("maps every token to its own characters after an <unk> (the issue's 'per' -> '0 pe')", () => {
    const text = "Costs fell 40 percent in 2024, and 4x since.";
    const ids = tok.encode(text, { add_special_tokens: true }) as number[];
    expect(ids.filter((id) => id === tok.unk_token_id).length).toBeGreaterThanOrEqual(3);
    const spans = alignTokens(tok, ids, text);
    ids.forEach((id, k) => {
      const piece = tok.decode([id], { skip_special_tokens: true }).trim();
      const got = text.slice(spans[k]?.start, spans[k]?.end);
      if (id === tok.unk_token_id) expect(got).toBe("4");
      else expect(got).toBe(piece);
    });
    expect(texts(text, spans)).toContain("per");
  });

  it("covers the text exactly once, in order, for any text (no normalizer: spans are the text)", () => {
    // A typed "▁" is a space to a Metaspace tokenizer (it joins a neighbouring token): left out here.
    fc.assert(
      fc.property(
        randomText.filter((t) => !t.includes("\u2581")),
        (text) => {
          const ids = tok.encode(text, { add_special_tokens: false }) as number[];
          const spans = alignTokens(tok, ids, text);
          expect(texts(text, spans).join("").replace(/\s/gu, "")).toBe(text.replace(/\s/gu, ""));
          ids.forEach((id, k) => {
            const piece = tok.decode([id], { skip_special_tokens: false }).trim();
            if (id !== tok.unk_token_id && piece !== "</s>")
              expect(text.slice(spans[k]?.start, spans[k]?.end)).toBe(piece);
          });
        },
      ),
      { numRuns: 150 },
    );
  });
});

const words = fc.stringMatching(/^[A-Za-z0-9.,;:'"?!()-]{1,8}$/u);
const oddities = fc.constantFrom(
  "4",
  "é",
  "e\u0301",
  "€",
  "😀",
  "½",
  "ＡＢ",
  "\u200B",
  "</s>",
  "<unk>",
  "ß",
  "İ",
  "ﬁ",
  "ΣΑΣ",
  "中文",
  "\u0007",
  "▁",
  "##",
  "\uFFFD",
  "a\u00A0b",
);
const randomText = fc
  .array(fc.oneof(words, oddities, fc.constantFrom(" ", " ", "  ", "\n")), { minLength: 1, maxLength: 24 })
  .map((parts) => parts.join(""))
  .filter((t) => /\S/u.test(t));

/** The invariants every alignment keeps (see align.ts). */
function checkInvariants(text: string, spans: TokenSpan[]) {
  const codePointAt = (i: number) => String.fromCodePoint(text.codePointAt(i) as number).length;
  let previous: TokenSpan | undefined;
  for (const s of spans) {
    expect(0 <= s.start && s.start <= s.end && s.end <= text.length).toBe(true);
    if (s.end === s.start) continue;
    if (previous !== undefined) {
      expect(s.start).toBeGreaterThanOrEqual(previous.start);
      expect(s.end).toBeGreaterThanOrEqual(previous.end);
      const identical = s.start === previous.start && s.end === previous.end;
      // Overlap: none, identical spans (one group), or one character split into several tokens.
      if (!identical && s.start < previous.end) expect(previous.end - s.start).toBe(codePointAt(s.start));
    }
    previous = s;
  }
  if (spans.length === 0) return; // the normalizer removed everything (T5 drops a lone U+200B): no tokens
  const covered = new Uint8Array(text.length);
  for (const s of spans) covered.fill(1, s.start, s.end);
  for (let i = 0; i < text.length; i++) if (!/\s/u.test(text.charAt(i))) expect(covered[i]).toBe(1);
}

describe.each(TOKENIZERS)("invariants of the spans: $name", ({ dir }) => {
  const tok = tokenizerFromFiles(dir);
  it("in bounds, ordered, overlapping only within one character or group, every visible character covered", () => {
    fc.assert(
      fc.property(randomText, fc.boolean(), (text, special) => {
        checkInvariants(text, alignTokens(tok, tok.encode(text, { add_special_tokens: special }) as number[], text));
      }),
      { numRuns: 60 },
    );
  });

  it("plain ASCII words: each token's span is its own piece", () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[a-z0-9]{1,7}$/u), { minLength: 1, maxLength: 12 }), (parts) => {
        const text = parts.join(" ");
        const ids = tok.encode(text, { add_special_tokens: false }) as number[];
        const spans = alignTokens(tok, ids, text);
        ids.forEach((id, k) => {
          if (id === tok.unk_token_id) return;
          const piece = tok.decode([id], { skip_special_tokens: true }).replace(/[\s\u2581]/gu, "");
          expect(text.slice(spans[k]?.start, spans[k]?.end)).toBe(piece);
        });
      }),
      { numRuns: 40 },
    );
  });
});

/**
 * Spans aligned by hand for texts where every <unk> stands for exactly one known character: walk the
 * text, each token's piece must come next (after whitespace); an <unk> takes the next visible character.
 */
function handSpans(tok: DecodingTokenizer & { unk_token_id: number }, ids: number[], text: string): TokenSpan[] {
  let cursor = 0;
  return ids.map((id) => {
    const skipSpace = () => {
      while (cursor < text.length && /\s/u.test(text.charAt(cursor))) cursor++;
    };
    const piece = tok.decode([id], { skip_special_tokens: false }).replace(/[\s\u2581]/gu, "");
    if (piece === "</s>") return { id, start: cursor, end: cursor };
    if (piece === "") return { id, start: cursor, end: cursor };
    skipSpace();
    if (id === tok.unk_token_id) {
      expect(text.charAt(cursor)).toBe("4"); // the one character this test's texts miss
      cursor++;
      return { id, start: cursor - 1, end: cursor };
    }
    expect(text.startsWith(piece, cursor)).toBe(true);
    cursor += piece.length;
    return { id, start: cursor - piece.length, end: cursor };
  });
}

/** The alignment before issue 21 (decoding with special tokens skipped), to show the test tells them apart. */
function spansBeforeIssue21(tok: DecodingTokenizer, ids: readonly number[], text: string): TokenSpan[] {
  const positions: number[] = [];
  for (let i = 0; i < text.length; i++) if (!/\s/u.test(text.charAt(i))) positions.push(i);
  let cursor = 0;
  return ids.map((id) => {
    const n = tok.decode([id], { skip_special_tokens: true }).replace(/\s/gu, "").length;
    if (n === 0 || cursor >= positions.length)
      return { id, start: positions[cursor] ?? text.length, end: positions[cursor] ?? text.length };
    const first = positions[cursor] as number;
    const last = positions[Math.min(cursor + n, positions.length) - 1] as number;
    cursor += n;
    return { id, start: first, end: last + 1 };
  });
}

describe("word-level salience with a character outside the shipped model's alphabet", () => {
  const input: NpovInput = {
    topic: "uniforms",
    query: "Should schools require uniforms?",
    perspectives: [
      { label: "pro", arguments: [{ text: "Uniforms cut clothing costs by 40 percent." }] },
      { label: "con", arguments: [{ text: "Uniforms limit how students express themselves." }] },
    ],
  };
  const response = "Uniforms cut clothing costs by 40 percent but limit expression.";
  let detector: SalienceDetector | undefined;
  afterAll(async () => detector?.dispose());

  it("equals the maps computed from hand-aligned spans (and differs from the shifted ones)", async () => {
    // "40" maps to <unk> in the shipped vocabulary, which score() refuses by default (UNREPRESENTABLE_TEXT,
    // see vocabulary.test.ts); this test checks the alignment of the map it would give, so it opts in.
    detector = await SalienceDetector.fromPretrained(join(REPO, "models/npov-gen"), {
      chunkSize: 16,
      unrepresentableText: "score",
    });
    const tok = detector.files.tokenizer as unknown as DecodingTokenizer & { unk_token_id: number };
    const r = await detector.score(input, response);
    const clean = validateInput(input);
    const layout = generatorPromptLayout(clean);
    const promptIds = r.tokens.inputTokens.map((t) => t.id);
    const responseIds = r.tokens.responseTokens.map((t) => t.id);
    expect(responseIds).toContain(tok.unk_token_id);
    expect(promptIds).toContain(tok.unk_token_id);
    const hand = {
      inputTokens: handSpans(tok, promptIds, layout.prompt),
      responseTokens: handSpans(tok, responseIds, response),
    };
    expect(r.tokens.inputTokens).toEqual(hand.inputTokens);
    expect(r.tokens.responseTokens).toEqual(hand.responseTokens);
    const byHand = postprocessSalience(clean, response, layout, { ...r.tokens, ...hand }, "grad-x-input");
    expect(r.words).toEqual(byHand.words);
    expect(Array.from(r.wordMatrix.data)).toEqual(Array.from(byHand.wordMatrix.data));
    expect([r.hallucination, r.coverage]).toEqual([byHand.hallucination, byHand.coverage]);

    const shifted = postprocessSalience(
      clean,
      response,
      layout,
      {
        ...r.tokens,
        inputTokens: spansBeforeIssue21(tok, promptIds, layout.prompt),
        responseTokens: spansBeforeIssue21(tok, responseIds, response),
      },
      "grad-x-input",
    );
    const gap = Math.max(
      ...r.words.response.map((w, k) => Math.abs(w.attribution - (shifted.words.response[k]?.attribution ?? 0))),
      ...r.words.arguments.map((w, k) => Math.abs(w.contribution - (shifted.words.arguments[k]?.contribution ?? 0))),
    );
    expect(gap).toBeGreaterThan(0.01);
  });
});
