import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { applyBpe, bpeModelTokenizerJson, metaspaceWords, tokenizerFromFiles, trainBpe } from "@npov/autograd";
import { openKnowledgeBase, writeFileAtomic } from "@npov/core";
import { describe, expect, it } from "vitest";

describe("BPE trainer", () => {
  it("learns the most frequent pairs first, on a hand-worked corpus", () => {
    // Words: ▁low x5, ▁lower x2, ▁newest x6, ▁widest x3 (Sennrich et al.'s example, with ▁ prefixes).
    const corpus = [
      "low low low low low",
      "lower lower",
      "newest newest newest newest newest newest",
      "widest widest widest",
    ];
    // Alphabet: ▁ d e i l n o r s t w (11). Pair counts: (e,s) 9 and (s,t) 9 tie -> "e\0s" sorts first;
    // then (es,t) 9; then (▁,l), (l,o), (o,w) tie at 7 -> (l,o) ("▁" is U+2581, after the letters);
    // then (▁,lo) and (lo,w) tie at 7 -> (lo,w).
    const model = trainBpe(corpus, { vocabSize: 4 + 11 + 4, minCharFrequency: 1 });
    expect(model.alphabet).toEqual(["d", "e", "i", "l", "n", "o", "r", "s", "t", "w", "\u2581"]);
    expect(model.merges).toEqual([
      ["e", "s"],
      ["es", "t"],
      ["l", "o"],
      ["lo", "w"],
    ]);
    expect(applyBpe("\u2581newest", model)).toEqual(["\u2581", "n", "e", "w", "est"]);
    expect(applyBpe("\u2581lower", model)).toEqual(["\u2581", "low", "e", "r"]);
  });

  it("is deterministic and trains on the knowledge base; transformers.js encodes as the merges say", () => {
    const kb = openKnowledgeBase("fixtures");
    const corpus = kb.topics.flatMap((t) => [
      t.query,
      ...t.perspectives.flatMap((p) => p.arguments.flatMap((a) => [a.text, ...(a.paraphrases ?? [])])),
    ]);
    const a = trainBpe(corpus, { vocabSize: 400 });
    const b = trainBpe(corpus, { vocabSize: 400 });
    expect(a).toEqual(b);
    expect(4 + a.alphabet.length + a.merges.length).toBe(400);
    const dir = mkdtempSync(join(tmpdir(), "npov-bpe-"));
    writeFileAtomic(join(dir, "tokenizer.json"), JSON.stringify(bpeModelTokenizerJson(a)));
    writeFileAtomic(join(dir, "tokenizer_config.json"), JSON.stringify({ tokenizer_class: "PreTrainedTokenizer" }));
    const tok = tokenizerFromFiles(dir);
    const vocab = (bpeModelTokenizerJson(a).model as { vocab: Record<string, number> }).vocab;
    // Every text of the corpus (a finite set: all of it, not a random sample). Characters rarer than
    // minCharFrequency are outside the alphabet, so they encode as <unk> (id 2) and decode as "<unk>".
    const alphabet = new Set(a.alphabet);
    let unknownChars = 0;
    for (const text of corpus) {
      const expected = metaspaceWords(text)
        .flatMap((w) => applyBpe(w, a))
        .map((s) => vocab[s] ?? 2);
      expect(tok.encode(text, { add_special_tokens: false })).toEqual(expected);
      const normalized = Array.from(text.trim().replace(/\s+/g, " "), (c) => {
        if (c === " " || alphabet.has(c)) return c;
        unknownChars++;
        return "<unk>";
      }).join("");
      expect(tok.decode(expected)).toBe(normalized);
    }
    // The fixtures have rare characters (e.g. a capital G), so the <unk> path is exercised too.
    expect(unknownChars).toBeGreaterThan(0);
  });
});
