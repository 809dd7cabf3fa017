// EncoderSalience's contract on the encoder zoo's BERT (random weights: the numbers prove the bookkeeping,
// never what a trained model relies on): words add up their tokens, the NPOV framing puts argument words
// back into their arguments, labels come from id2label, and wrong models and inputs are typed errors.
import { cpSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeTestModel } from "@npov/autograd";
import { EncoderSalience, SalienceDetector } from "@npov/salience";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENCODER_ZOO } from "./encoder-reference.js";

const BERT = join(ENCODER_ZOO, "optimum-bert");
const INPUT = {
  topic: "zoos",
  query: "Should zoos be banned?",
  perspectives: [
    { label: "pro", arguments: [{ text: "Cages harm wild animals." }, { text: "Animals suffer in captivity." }] },
    { label: "con", arguments: [{ text: "Zoos protect endangered species." }] },
  ],
};
const RESPONSE = "Zoos protect species, but cages harm animals.";

let salience: EncoderSalience;
beforeAll(async () => {
  salience = await EncoderSalience.fromPretrained(BERT);
});
afterAll(async () => {
  await salience.dispose();
});

describe("EncoderSalience on a BERT NLI classifier", () => {
  it("word attributions are sums of their tokens', shares sum to 1, special tokens are apart", async () => {
    const map = await salience.score("A man is playing a guitar.", "Somebody plays music.");
    expect(map.labels).toEqual(["entailment", "neutral", "contradiction"]);
    expect(map.labelIndex).toBe(0);
    expect(map.probabilities.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    expect(map.tokens[0]?.segment).toBe("special");
    expect(map.tokens.at(-1)?.segment).toBe("special");
    for (const side of ["premise", "hypothesis"] as const) {
      const text = map[side].text;
      for (const w of map[side].words) {
        expect(text.slice(w.start, w.end)).toBe(w.text);
        const own = map.tokens.filter(
          (t) => t.segment === side && t.end > t.start && t.start < w.end && w.start < t.end,
        );
        expect(own.length).toBeGreaterThan(0);
        expect(w.attribution).toBeCloseTo(
          own.reduce((a, t) => a + t.attribution, 0),
          12,
        );
      }
    }
    const words = [...map.premise.words, ...map.hypothesis.words];
    expect(words.reduce((a, w) => a + w.share, 0)).toBeCloseTo(1, 12);
    expect(map.special).toBeCloseTo(
      map.tokens.filter((t) => t.segment === "special").reduce((a, t) => a + t.attribution, 0),
      12,
    );
    // grad x input of a token is dot(gradient row, embedding row) of the raw gradient.
    const { ids, types } = salience.encode("A man is playing a guitar.", "Somebody plays music.");
    const raw = await salience.tokenGradients(ids, types);
    const k = 2;
    let dot = 0;
    for (let j = 0; j < raw.dim; j++)
      dot += (raw.gradient[k * raw.dim + j] as number) * (raw.embeddings[k * raw.dim + j] as number);
    expect(map.tokens[k]?.attribution).toBeCloseTo(dot, 10);
  });

  it("NPOV framing: arguments are the premise, the response the hypothesis; words go back to their arguments", async () => {
    const r = await salience.scoreInput(INPUT, RESPONSE);
    expect(r.premise.text).toBe(
      "Cages harm wild animals. Animals suffer in captivity. Zoos protect endangered species.",
    );
    expect(r.hypothesis.text).toBe(RESPONSE);
    expect(r.words.response.map((w) => w.text)).toEqual([
      "Zoos",
      "protect",
      "species",
      "but",
      "cages",
      "harm",
      "animals",
    ]);
    for (const w of r.words.arguments) {
      const argument = INPUT.perspectives[w.perspective]?.arguments[w.argument]?.text ?? "";
      expect(argument.slice(w.start, w.end)).toBe(w.text);
    }
    expect(r.words.arguments.filter((w) => w.perspective === 1).map((w) => w.text)).toEqual([
      "Zoos",
      "protect",
      "endangered",
      "species",
    ]);
    const argumentShare = r.words.arguments.reduce((a, w) => a + w.share, 0);
    expect(r.perspectives.reduce((a, p) => a + p.share, 0)).toBeCloseTo(argumentShare, 12);
    expect(r.perspectives[0]?.arguments).toHaveLength(2);
  });

  it("grad-norm: a word is the norm of its tokens' gradient norms; another label is attributed by name", async () => {
    const norm = await EncoderSalience.fromPretrained(BERT, { variant: "grad-norm", label: "CONTRADICTION" });
    try {
      const map = await norm.score("A man is playing a guitar.", "Somebody plays music.");
      expect(map.label).toBe("contradiction");
      expect(map.labelIndex).toBe(2);
      for (const t of map.tokens) expect(t.attribution).toBeGreaterThanOrEqual(0);
      const w = map.premise.words[0];
      const own = map.tokens.filter(
        (t) => t.segment === "premise" && t.start < (w?.end ?? 0) && (w?.start ?? 0) < t.end,
      );
      expect(w?.attribution).toBeCloseTo(Math.sqrt(own.reduce((a, t) => a + t.attribution ** 2, 0)), 12);
    } finally {
      await norm.dispose();
    }
    await expect(EncoderSalience.fromPretrained(BERT, { label: "maybe" })).rejects.toMatchObject({
      code: "LABEL_NOT_FOUND",
      labels: ["entailment", "neutral", "contradiction"],
    });
  });

  it("the model check fails random weights: a sentence does not entail itself more than an unrelated one", async () => {
    const check = await salience.checkModel();
    expect(check.passed).toBe(false);
    expect(Math.abs(check.selfEntailment - check.unrelatedEntailment)).toBeLessThan(0.3);
  });

  it("typed errors: too long, unrepresentable, empty", async () => {
    const long = "guitar ".repeat(130);
    await expect(salience.score(long, "music")).rejects.toMatchObject({ code: "CONTEXT_TOO_LONG", limit: 128 });
    await expect(salience.score("A man plays.", "音楽")).rejects.toMatchObject({ code: "UNREPRESENTABLE_TEXT" });
    await expect(salience.score("A man plays.", "  ")).rejects.toMatchObject({ code: "EMPTY_TEXT" });
    await expect(salience.tokenGradients([2, 99999, 3])).rejects.toMatchObject({ code: "INVALID_VALUE" });
  });
});

describe("model kinds and labels", () => {
  it("a classifier without an entailment label is LABEL_NOT_FOUND naming its labels", async () => {
    const dir = mkdtempSync(join(tmpdir(), "npov-labels-"));
    for (const f of ["tokenizer.json", "tokenizer_config.json", "special_tokens_map.json"])
      cpSync(join(BERT, f), join(dir, f));
    symlinkSync(join(BERT, "onnx"), join(dir, "onnx"));
    const config = JSON.parse(readFileSync(join(BERT, "config.json"), "utf8"));
    config.id2label = { 0: "positive", 2: "negative", 1: "mixed" };
    writeFileSync(join(dir, "config.json"), JSON.stringify(config));
    const error = await EncoderSalience.fromPretrained(dir).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "LABEL_NOT_FOUND", labels: ["positive", "mixed", "negative"] });
    expect((error as Error).message).toMatch(/no entailment label.*"positive", "mixed", "negative"/);
  });

  it("a language model is WRONG_MODEL_KIND for EncoderSalience, a classifier for SalienceDetector", async () => {
    const dir = join(mkdtempSync(join(tmpdir(), "npov-kind-")), "gpt2");
    writeTestModel(dir, "gpt2", { seed: 1 });
    await expect(EncoderSalience.fromPretrained(dir)).rejects.toMatchObject({
      code: "WRONG_MODEL_KIND",
      kind: "causal",
    });
    const error = await SalienceDetector.fromPretrained(BERT).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "WRONG_MODEL_KIND", kind: "sequence-classifier" });
    expect((error as Error).message).toMatch(/sequence classifier.*EncoderSalience/);
  });
});
