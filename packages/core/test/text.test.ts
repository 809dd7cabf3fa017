import { contentTerms, porterStem, resolveStopwords, segmentWords, splitSentences } from "@npov/core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

describe("segmentWords", () => {
  it("splits on whitespace and punctuation and keeps offsets", () => {
    const text = "Abortion bans deny bodily-autonomy, don't they?";
    const words = segmentWords(text);
    expect(words.map((w) => w.text)).toEqual(["Abortion", "bans", "deny", "bodily", "autonomy", "don", "t", "they"]);
    for (const w of words) expect(text.slice(w.start, w.end)).toBe(w.text);
    expect(words[0]?.lower).toBe("abortion");
  });

  it("keeps non-ASCII letters and digits as word characters", () => {
    expect(segmentWords("Müller's naïve café costs 3€ in 東京 2024").map((w) => w.text)).toEqual([
      "Müller",
      "s",
      "naïve",
      "café",
      "costs",
      "3",
      "in",
      "東京",
      "2024",
    ]);
  });

  it("every word points back at its text (property)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 60 }), (text) => {
        let last = 0;
        for (const w of segmentWords(text)) {
          expect(text.slice(w.start, w.end)).toBe(w.text);
          expect(w.start).toBeGreaterThanOrEqual(last);
          last = w.end;
        }
      }),
    );
  });
});

describe("contentTerms", () => {
  it("drops NLTK stop words and Porter-stems", () => {
    expect(contentTerms("The bans are denying the autonomy of women").map((t) => t.term)).toEqual([
      "ban",
      "deni",
      "autonomi",
      "women",
    ]);
    expect(contentTerms("The bans", { stem: false, stopwords: false }).map((t) => t.term)).toEqual(["the", "bans"]);
  });

  it("uses NLTK's 179-word list by default and other lists by code", () => {
    expect(resolveStopwords().size).toBe(179);
    expect(resolveStopwords("deu").has("und")).toBe(true);
    expect(() => resolveStopwords("xx")).toThrow(/unknown stop list/);
  });

  it("stems like the Porter algorithm", () => {
    expect(["caresses", "ponies", "relational", "hopeful", "generalization"].map(porterStem)).toEqual([
      "caress",
      "poni",
      "relat",
      "hope",
      "gener",
    ]);
  });
});

describe("splitSentences", () => {
  it("splits with offsets and drops no text", () => {
    const text = "  Dr. Smith said hi.  It costs $3.5 — naïve Müller! Really?Yes.\nNew line here";
    const sentences = splitSentences(text);
    expect(sentences.map((s) => s.text)).toEqual([
      "Dr. Smith said hi.",
      "It costs $3.5 — naïve Müller!",
      "Really?",
      "Yes.",
      "New line here",
    ]);
    for (const s of sentences) expect(text.slice(s.start, s.end)).toBe(s.text);
    const covered = sentences
      .map((s) => s.text)
      .join("")
      .replace(/\s/g, "");
    expect(covered).toBe(text.replace(/\s/g, ""));
  });

  it("returns nothing for blank text", () => {
    expect(splitSentences("   ")).toEqual([]);
  });
});
