import { nltkPorterStem, rougeN, tokenize } from "@npov/rouge";
import { describe, expect, it } from "vitest";

const rougeScore = { tokenizer: "rouge-score", stopwords: false } as const;

describe("rougeN reproduces Google's rouge-score", () => {
  it("README example: rouge1 with stemming", () => {
    // RougeScorer(['rouge1'], use_stemmer=True).score('The quick brown fox jumps over the lazy dog',
    //   'The quick brown dog jumps on the log.') -> precision 0.75, recall 0.6667, fmeasure 0.70588
    const s = rougeN("The quick brown dog jumps on the log.", "The quick brown fox jumps over the lazy dog", {
      ...rougeScore,
      stem: true,
    });
    expect(s.precision).toBe(6 / 8);
    expect(s.recall).toBe(6 / 9);
    expect(s.fmeasure).toBeCloseTo(0.7058823529411765, 15);
  });

  it("rouge2 counts clipped bigrams", () => {
    // target bigrams: the-quick quick-brown brown-fox fox-jump jump-over over-the the-lazi lazi-dog (8)
    // prediction bigrams: the-quick quick-brown brown-dog dog-jump jump-on on-the the-log (7); overlap 2
    const s = rougeN("The quick brown dog jumps on the log.", "The quick brown fox jumps over the lazy dog", {
      ...rougeScore,
      stem: true,
      n: 2,
    });
    expect(s).toEqual({ precision: 2 / 7, recall: 2 / 8, fmeasure: (2 * (2 / 7) * (2 / 8)) / (2 / 7 + 2 / 8) });
  });

  it("clips repeated words and handles empty sides without NaN", () => {
    expect(rougeN("the the the", "the cat", { ...rougeScore, stem: false })).toEqual({
      precision: 1 / 3,
      recall: 1 / 2,
      fmeasure: 0.4,
    });
    expect(rougeN("", "cat", rougeScore)).toEqual({ precision: 0, recall: 0, fmeasure: 0 });
  });

  it("the rouge-score tokenizer splits non-ASCII letters, the default keeps them", () => {
    expect(tokenize("Müller's naïve", { ...rougeScore, stem: false }).map((t) => t.term)).toEqual([
      "m",
      "ller",
      "s",
      "na",
      "ve",
    ]);
    expect(tokenize("Müller's naïve", { stopwords: false, stem: false }).map((t) => t.term)).toEqual([
      "müller",
      "s",
      "naïve",
    ]);
  });

  it("stems only tokens longer than 3 characters, with NLTK's Porter stemmer", () => {
    expect(tokenize("dies dying lazy runs", { ...rougeScore, stem: true }).map((t) => t.term)).toEqual([
      "die",
      "die",
      "lazi",
      "run",
    ]);
    expect(tokenize("ties", { ...rougeScore, stem: true }).map((t) => t.term)).toEqual(["tie"]);
    expect(tokenize("was", { ...rougeScore, stem: true }).map((t) => t.term)).toEqual(["was"]);
  });
});

describe("NLTK Porter stemmer", () => {
  // Porter (1980)'s published examples, which NLTK's default mode reproduces.
  const published: Record<string, string> = {
    caresses: "caress",
    ponies: "poni",
    ties: "tie",
    caress: "caress",
    cats: "cat",
    feed: "feed",
    agreed: "agre",
    plastered: "plaster",
    bled: "bled",
    motoring: "motor",
    sing: "sing",
    conflated: "conflat",
    troubled: "troubl",
    sized: "size",
    hopping: "hop",
    tanned: "tan",
    falling: "fall",
    hissing: "hiss",
    fizzed: "fizz",
    failing: "fail",
    filing: "file",
    happy: "happi",
    sky: "sky",
    relational: "relat",
    conditional: "condit",
    rational: "ration",
    valenci: "valenc",
    hesitanci: "hesit",
    digitizer: "digit",
    conformabli: "conform",
    radicalli: "radic",
    differentli: "differ",
    vileli: "vile",
    analogousli: "analog",
    vietnamization: "vietnam",
    predication: "predic",
    operator: "oper",
    feudalism: "feudal",
    decisiveness: "decis",
    hopefulness: "hope",
    callousness: "callous",
    formaliti: "formal",
    sensitiviti: "sensit",
    sensibiliti: "sensibl",
    triplicate: "triplic",
    formative: "form",
    formalize: "formal",
    electriciti: "electr",
    electrical: "electr",
    hopeful: "hope",
    goodness: "good",
    revival: "reviv",
    allowance: "allow",
    inference: "infer",
    airliner: "airlin",
    gyroscopic: "gyroscop",
    adjustable: "adjust",
    defensible: "defens",
    irritant: "irrit",
    replacement: "replac",
    adjustment: "adjust",
    dependent: "depend",
    adoption: "adopt",
    homologou: "homolog",
    communism: "commun",
    activate: "activ",
    angulariti: "angular",
    homologous: "homolog",
    effective: "effect",
    bowdlerize: "bowdler",
    probate: "probat",
    rate: "rate",
    cease: "ceas",
    controll: "control",
    roll: "roll",
    generalizations: "gener",
    oscillators: "oscil",
  };
  it.each(Object.entries(published))("%s -> %s", (word, stem) => {
    expect(nltkPorterStem(word)).toBe(stem);
  });

  it("applies NLTK's extensions", () => {
    const nltk: Record<string, string> = {
      dying: "die",
      lying: "lie",
      tying: "tie",
      skies: "sky",
      news: "news",
      innings: "inning",
      proceed: "proceed",
      dies: "die",
      died: "die",
      flies: "fli",
      spied: "spi",
      is: "is",
      as: "as",
      generously: "gener",
      geology: "geolog",
      fully: "fulli",
      hopefulli: "hope",
    };
    for (const [word, stem] of Object.entries(nltk)) expect([word, nltkPorterStem(word)]).toEqual([word, stem]);
  });
});

describe("rougeN and tokenize refuse what would mislead or run away", () => {
  it("n goes from 1 to 9 as in rouge-score; a larger n is INVALID_VALUE at once", () => {
    expect(rougeN("a b c d e f g h i j", "a b c d e f g h i j", { ...rougeScore, n: 9 }).fmeasure).toBe(1);
    for (const n of [10, 1000, 0, 1.5])
      expect(() => rougeN("a b", "a b", { n })).toThrow(expect.objectContaining({ code: "INVALID_VALUE", path: "n" }));
  });

  it("a custom tokenizer's terms must cut out their own text (they become evidence spans)", () => {
    const lying = () => [{ text: "zzz", start: 0, end: 1, lower: "zzz", term: "zzz" }];
    expect(() => tokenize("abc", { tokenizer: lying as never })).toThrow(
      expect.objectContaining({ code: "INVALID_VALUE", message: expect.stringContaining('cut out "a"') }),
    );
    const noLower = () => [{ text: "abc", start: 0, end: 3, term: "abc" }];
    expect(() => tokenize("abc", { tokenizer: noLower as never })).toThrow(
      expect.objectContaining({ code: "INVALID_VALUE" }),
    );
  });
});
