/**
 * The CLI on sequence classifiers (../shared/models/encoder-zoo: random-weight NLI cross-encoders):
 * `npov model inspect` names the kind and only the features that make sense for it, and `npov salience`
 * picks encoder salience by itself -- warning that the random weights fail the NLI sanity check, so the
 * maps are never presented as meaningful.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { npov, REPO } from "./helpers.js";

const ENCODERS = join(REPO, "../shared/models/encoder-zoo");
const noStack = (stderr: string) => expect(stderr).not.toMatch(/^\s+at /m);

const EXAMPLE = {
  input: {
    topic: "zoos",
    query: "Should zoos be banned?",
    perspectives: [
      { label: "pro", arguments: [{ text: "Cages harm wild animals." }, { text: "Animals suffer in captivity." }] },
      { label: "con", arguments: [{ text: "Zoos protect endangered species." }] },
    ],
  },
  response: "Zoos protect species, but cages harm animals.",
};

describe("npov with sequence classifiers", () => {
  it("model inspect calls a DeBERTa-v2 NLI export a sequence classifier with nli and salience, not scoring", () => {
    const r = npov("model", "inspect", "--model", join(ENCODERS, "optimum-deberta-v2"));
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /deberta-v2 \(sequence classifier: DebertaV2ForSequenceClassification; labels entailment, neutral, contradiction\)/,
    );
    expect(r.stdout).toMatch(/features that make sense: nli, salience -- not generation, scoring/);
    expect(r.stdout).toMatch(/fp32 +onnx\/model.onnx +nli yes +salience yes\n/);
    expect(r.stdout).toMatch(/q4f16 +onnx\/model_q4f16.onnx +nli yes +salience yes/);
    expect(r.stdout).not.toMatch(/causal|scoring yes|GatherElements/);
    const json = JSON.parse(npov("model", "inspect", "--model", join(ENCODERS, "optimum-bert"), "--json").stdout);
    expect(json.kind).toBe("sequence-classifier");
    expect(json.applicableFeatures).toEqual(["nli", "salience"]);
    expect(json.labels).toEqual(["entailment", "neutral", "contradiction"]);
    expect(json.variants).toHaveLength(7);
    for (const v of json.variants) {
      expect(v.features.nli.supported).toBe(true);
      expect(v.features.salience.supported).toBe(true);
      expect(v.features.scoring).toMatchObject({ supported: false, applicable: false });
      expect(v.features.generation).toMatchObject({ supported: false, applicable: false });
    }
  });

  it("salience on an NLI model: entailment attributions, and a warning that random weights mean nothing", () => {
    const dir = mkdtempSync(join(tmpdir(), "npov-encoder-cli-"));
    const input = join(dir, "example.json");
    writeFileSync(input, JSON.stringify(EXAMPLE));
    const html = join(dir, "map.html");
    const r = npov("salience", "--input", input, "--model", join(ENCODERS, "optimum-bert"), "--html", html);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /^entailment 0\.\d{3} \(neutral 0\.\d{3}, contradiction 0\.\d{3}\) {2}premise: the arguments \(12 words\), hypothesis: the response \(7 words\)/,
    );
    expect(r.stdout).toMatch(/response words the entailment logit relied on most: /);
    expect(r.stderr).toMatch(/fails the NLI sanity check .*untrained or random, so these maps say nothing/);
    const page = readFileSync(html, "utf8");
    expect(page).toContain("fails the NLI sanity check");
    expect(page).toContain("captivity");

    const json = JSON.parse(
      npov("salience", "--input", input, "--model", join(ENCODERS, "optimum-deberta-v2"), "--json").stdout,
    );
    expect(json.method).toBe("encoder-salience");
    expect(json.modelCheck.passed).toBe(false);
    // DeBERTa-v3's LayerNorm right after the lookup makes gradient x input 0 by construction: flagged.
    expect(json.scaleInvariant).toBe(true);
    expect(json.words.response.map((w: { text: string }) => w.text)).toEqual([
      "Zoos",
      "protect",
      "species",
      "but",
      "cages",
      "harm",
      "animals",
    ]);
    const deberta = npov("salience", "--input", input, "--model", join(ENCODERS, "optimum-deberta-v2"));
    expect(deberta.stderr).toMatch(/use --variant grad-norm/);
  });

  it("a sources input works too; an over-long pair is a one-line CONTEXT_TOO_LONG", () => {
    const dir = mkdtempSync(join(tmpdir(), "npov-encoder-cli-"));
    const sources = join(dir, "sources.json");
    writeFileSync(
      sources,
      JSON.stringify({
        input: { sources: [{ id: "a", text: "Cages harm wild animals. Zoos protect species." }] },
        response: "Cages harm animals.",
      }),
    );
    const r = npov("salience", "--input", sources, "--model", join(ENCODERS, "optimum-distilbert"), "--json");
    expect(r.status, r.stderr).toBe(0);
    const words = JSON.parse(r.stdout).words.arguments as Array<{ text: string; origin: { start: number } }>;
    expect(words.find((w) => w.text === "Zoos")?.origin.start).toBe(25);
    const long = join(dir, "long.json");
    writeFileSync(long, JSON.stringify({ ...EXAMPLE, response: "Zoos protect species. ".repeat(40) }));
    const tooLong = npov("salience", "--input", long, "--model", join(ENCODERS, "optimum-distilbert"));
    expect(tooLong.status).toBe(2);
    expect(tooLong.stderr).toMatch(/CONTEXT_TOO_LONG/);
    noStack(tooLong.stderr);
  });
});
