/**
 * `npov train-support` and `npov support-report` through the built binary: retraining is bit-identical with
 * non-negative example weights, cross-validation is reported, and the report's cells are the ROC AUCs the
 * library gives.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readExamples, rocAuc } from "@npov/core";
import { COVERAGE_FEATURES, HALLUCINATION_FEATURES, loadSupportCombiner, supportErrorDetector } from "@npov/rouge";
import { describe, expect, it } from "vitest";
import { npov, REPO } from "./helpers.js";

describe("npov train-support and support-report", () => {
  it("trains the combiner bit-identically from a seed, on chatbot-style, template and shape data", () => {
    const dir = mkdtempSync(join(tmpdir(), "npov-train-support-"));
    const outputs = ["a", "b"].map((name) => {
      const out = join(dir, name);
      const r = npov(
        "train-support",
        "--kb",
        "fixtures",
        "--out",
        out,
        "--per-topic",
        "1",
        "--template-per-topic",
        "1",
        "--shapes-per-topic",
        "1",
        "--seed",
        "3",
      );
      expect(r.stderr).toBe("");
      expect(r.status).toBe(0);
      expect(r.stdout).toMatch(/trained the support combiner on \d+ synthetic \+ 0 tune examples/);
      return out;
    });
    // The same weights to the bit; only the recorded command differs (it names the output folder).
    const [combiner, again] = outputs.map((out) => loadSupportCombiner(join(out as string, "combiner.json")));
    if (combiner === undefined || again === undefined) throw new Error("no combiner");
    expect({ ...again, meta: undefined }).toEqual({ ...combiner, meta: undefined });
    expect({ ...again.meta, command: "" }).toEqual({ ...combiner.meta, command: "" });
    expect(combiner.coverage.features).toEqual(COVERAGE_FEATURES);
    expect(combiner.hallucination.features).toEqual(HALLUCINATION_FEATURES);
    // Every example weight is non-negative: the score never falls when a "higher = worse" feature rises.
    for (const m of [combiner.hallucination, combiner.coverage, combiner.sourcesHallucination])
      for (const w of m?.weights ?? []) expect(w).toBeGreaterThanOrEqual(0);
    const meta = combiner.meta as { counts: { template: number; extra: number; sources: number }; command: string };
    expect(meta.counts.template).toBeGreaterThan(0);
    expect(meta.counts.sources).toBeGreaterThan(0);
    expect(meta.command).toContain("--template-per-topic 1 --shapes-per-topic 1");
    const readme = readFileSync(join(outputs[0] as string, "README.md"), "utf8");
    expect(readme).toContain(`${meta.counts.template.toLocaleString("en-US")} template-style ones`);
    // The NPOV hallucination score is an even blend, recalibrated with a positive slope (monotone), and the card
    // says so with the fitted numbers.
    expect(combiner.blend?.sentenceShare).toBe(0.5);
    expect(combiner.blend?.npov.scale).toBeGreaterThan(0);
    expect(readme).toContain(
      `scale ${combiner.blend?.npov.scale.toFixed(3)}, bias ${combiner.blend?.npov.bias.toFixed(3)}`,
    );
    const r = npov(
      "train-support",
      "--kb",
      "fixtures",
      "--out",
      join(dir, "c"),
      "--sentence-share",
      "0",
      "--seed",
      "3",
    );
    expect(r.status).toBe(0);
    const plain = loadSupportCombiner(join(dir, "c", "combiner.json"));
    expect(plain.blend).toBeUndefined();
    expect(plain.meta?.command).toContain("--sentence-share 0 ");
    expect(npov("train-support", "--kb", "fixtures", "--out", join(dir, "d"), "--sentence-share", "1.5").status).toBe(
      2,
    );
  });

  it("reports topic-grouped cross-validation on the tune part in its summary, card and metadata", () => {
    const out = mkdtempSync(join(tmpdir(), "npov-train-support-cv-"));
    const dev = join(REPO, "data", "chatbot-dev", "part-b.jsonl");
    const r = npov("train-support", "--kb", "fixtures", "--out", out, "--dev", dev, "--cv-folds", "2", "--seed", "1");
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    const combiner = loadSupportCombiner(join(out, "combiner.json"));
    const meta = combiner.meta as {
      command: string;
      crossValidation: { folds: number; hallucination: number; coverage: number };
    };
    expect(meta.command).toContain("--cv-folds 2 --seed 1");
    expect(meta.crossValidation.folds).toBe(2);
    const { hallucination, coverage } = meta.crossValidation;
    expect(r.stdout).toContain(
      `tune-part 2-fold cross-validation ROC AUC: hallucination ${hallucination.toFixed(3)}, coverage ${coverage.toFixed(3)}`,
    );
    expect(readFileSync(join(out, "README.md"), "utf8")).toContain(
      `out-of-fold ROC AUC hallucination ${hallucination.toFixed(3)}, coverage ${coverage.toFixed(3)}`,
    );
    // Out-of-fold scores of hand-written responses by a combiner that never saw their topics: better than chance.
    expect(hallucination).toBeGreaterThan(0.6);
    expect(coverage).toBeGreaterThan(0.6);
    const one = npov("train-support", "--kb", "fixtures", "--out", out, "--dev", dev, "--cv-folds", "1");
    expect(one.status).toBe(2);
    expect(one.stderr).toContain("--cv-folds must be 0 (no cross-validation) or at least 2");
  });

  it("refuses a non-integer template count with a usage error", () => {
    const r = npov("train-support", "--kb", "fixtures", "--out", tmpdir(), "--template-per-topic", "many");
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("--template-per-topic must be an integer");
  });

  it("reports per-slice ROC AUCs equal to the library's on the same examples", async () => {
    const dev = join(REPO, "data", "chatbot-dev", "part-b.jsonl");
    const r = npov("support-report", "--kb", "fixtures", "--dev", dev, "--resamples", "20", "--seed", "0");
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    const heldout = readExamples(dev).filter((e) => e.meta?.devSplit === "heldout");
    const detector = supportErrorDetector();
    const scores = await Promise.all(heldout.map((e) => detector.detect(e.input, e.response)));
    for (const type of ["hallucination", "coverage"] as const) {
      const expected = rocAuc(
        scores.map((s) => s[type]),
        heldout.map((e) => e.labels?.[type] === true),
      );
      const row = r.stdout
        .split("\n")
        .find((line) => line.startsWith(`| chatbot-dev heldout | ${heldout.length} | ${type} |`));
      expect(row, `${type} row`).toBeDefined();
      const cells = (row as string).split("|").map((c) => c.trim());
      // Columns: slice, n, error, rouge1-precision, rouge, align, support.
      expect(cells[7]?.split(" ")[0]).toBe(expected.toFixed(3));
    }
    // The shapes are rows too, with the plain baseline beside the default.
    expect(r.stdout).toMatch(/\| shape \(test topics\): npov-claim-last \| \d+ \| hallucination \|/);
  });
});
