import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generatorPrompt, importPerspectrum, loadKnowledgeBase } from "@npov/core";
import { describe, expect, it } from "vitest";
import { npov, REPO } from "./helpers.js";

const tmp = mkdtempSync(join(tmpdir(), "npov-cli-"));
const example = join(REPO, "fixtures/examples/uniforms.json");

describe("npov CLI", () => {
  it("demo prints a prompt for a sampled fixtures input", () => {
    const r = npov("demo");
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(
      /User question: \{.*\} Topic: \{.*\} Perspective #1: \{pro: .*Neutral response opening: \{/,
    );
  });

  it("--help works on every command", () => {
    for (const args of [
      ["--help"],
      ["kb", "--help"],
      ["kb", "list", "--help"],
      ["prompt", "--help"],
      ["check", "--help"],
      ["rouge", "--help"],
    ]) {
      const r = npov(...args);
      expect(r.status, args.join(" ")).toBe(0);
      expect(r.stdout).toContain("Usage: npov");
    }
  });

  it("kb list --json lists the fixtures topics", () => {
    const r = npov("kb", "list", "--json", "--split", "test");
    expect(r.status).toBe(0);
    const topics = JSON.parse(r.stdout) as Array<{ id: string; split: string }>;
    expect(topics.map((t) => t.id)).toEqual(["universal-basic-income", "zoos", "remote-work"]);
  });

  it("kb show prints every argument and paraphrase", () => {
    const r = npov("kb", "show", "zoos", "--json");
    expect(JSON.parse(r.stdout).perspectives[1].arguments[0].paraphrases.length).toBeGreaterThan(0);
  });

  it("kb import-perspectrum writes a loadable knowledge base", () => {
    const out = join(tmp, "perspectrum.jsonl");
    const r = npov("kb", "import-perspectrum", "--out", out, "--json");
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ topics: 860, train: 513, dev: 129, test: 218 });
    const loaded = loadKnowledgeBase(out);
    expect(loaded.topics).toEqual(importPerspectrum().topics);
  });

  it("prompt prints the generator and classifier prompts", () => {
    const input = JSON.parse(readFileSync(example, "utf8"));
    expect(npov("prompt", "--input", example).stdout.trim()).toBe(generatorPrompt(input.input));
    const cov = npov("prompt", "--input", example, "--kind", "coverage");
    expect(cov.stdout.trim()).toMatch(
      /^User question: \{.*\}\. Neutral response: \{.*\}\. Given pro arguments: \{pro: .*\}\. Given con arguments: \{con: .*\} All the given arguments are covered by the neutral response: \{$/,
    );
  });

  it("check --methods rouge,align --json prints each detector's ErrorScores", () => {
    const r = npov("check", "--input", example, "--methods", "rouge,align", "--json");
    expect(r.status).toBe(0);
    const { rouge, align } = JSON.parse(r.stdout);
    expect(Object.keys(rouge)).toEqual([
      "hallucination",
      "coverage",
      "uncoveredArguments",
      "unsupportedSpans",
      "features",
      "words",
    ]);
    expect(rouge.hallucination).toBeCloseTo(1 - rouge.features["rouge.precision"], 12);
    expect(rouge.uncoveredArguments[0]).toMatchObject({ perspective: expect.any(Number), text: expect.any(String) });
    // Word maps: one entry per response content word, each a 0/1 ROUGE score with offsets into the response.
    const response = JSON.parse(readFileSync(example, "utf8")).response as string;
    expect(rouge.words.response.length).toBeGreaterThan(10);
    for (const w of rouge.words.response) {
      expect([0, 1]).toContain(w.score);
      expect(response.slice(w.start, w.end)).toMatch(/^[\p{L}\p{N}]/u);
    }
    expect(align.hallucination).toBeGreaterThanOrEqual(0);
    expect(align.coverage).toBeLessThanOrEqual(1);
  });

  it("rouge --json scores line i against line i", () => {
    const t = join(tmp, "t.txt");
    const p = join(tmp, "p.txt");
    writeFileSync(t, "The quick brown fox jumps over the lazy dog\nthe cat\n");
    writeFileSync(p, "The quick brown dog jumps on the log.\nthe the the\n");
    const r = npov(
      "rouge",
      "--target",
      t,
      "--prediction",
      p,
      "--tokenizer",
      "rouge-score",
      "--keep-stopwords",
      "--json",
    );
    const lines = r.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines[0].rouge1).toEqual({ precision: 0.75, recall: 6 / 9, fmeasure: 0.7058823529411765 });
    expect(lines[1].rouge1).toEqual({ precision: 1 / 3, recall: 0.5, fmeasure: 0.4 });
    expect(lines[1].rouge2).toEqual({ precision: 0, recall: 0, fmeasure: 0 });
  });

  it.each([
    [["kb", "show", "nope"], "INVALID_VALUE"],
    [["kb", "list", "--split", "validation"], "UNKNOWN_SPLIT"],
    [["prompt", "--input", "/no/such/file.json"], "FILE_UNREADABLE"],
    [["check", "--input", example, "--methods", "bleu"], "USAGE"],
    [["kb", "list", "--kb", "/no/such/kb.jsonl"], "FILE_UNREADABLE"],
  ])("bad input %j exits 2 with a one-line reason", (args, code) => {
    const r = npov(...args);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain(`[${code}]`);
  });

  it("an input with one perspective is refused with its typed error", () => {
    const bad = join(tmp, "bad.json");
    writeFileSync(
      bad,
      JSON.stringify({
        input: { topic: "t", query: "q?", perspectives: [{ label: "pro", arguments: ["a"] }] },
        response: "r",
      }),
    );
    const r = npov("check", "--input", bad);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("TOO_FEW_PERSPECTIVES");
  });
});
