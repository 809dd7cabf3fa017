/**
 * Issue 29 from the command line (built binary): a RAG answer checked against plain sources end to end --
 * check (text and JSON), guard, check-batch, eval and calibrate-guard on a sources dataset -- with the
 * invented sentence as the flagged evidence.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { npov, REPO } from "./helpers.js";

const tmp = mkdtempSync(join(tmpdir(), "npov-cli-sources-"));
const RAG = "fixtures/examples/rag.json";
const example = JSON.parse(readFileSync(join(REPO, RAG), "utf8"));

describe("npov with a sources input (docs/rag.md)", () => {
  it("check flags the invented sentence and points uncovered units back into their sources", () => {
    const text = npov("check", "--input", RAG);
    expect(text.status).toBe(0);
    expect(text.stdout).toMatch(/^scores in \[0, 1\], higher = more likely an error/);
    expect(text.stdout).toMatch(/unsupported \(flagged, [0-9.]+\): It was withdrawn in 1958/);
    const json = npov("check", "--input", RAG, "--methods", "support,rouge1-precision,rouge,align", "--json");
    expect(json.status).toBe(0);
    const r = JSON.parse(json.stdout);
    expect(Object.keys(r)).toEqual(["support", "rouge1-precision", "rouge", "align"]);
    expect(r.support.unsupportedSpans[0]).toMatchObject({ flagged: true });
    expect(r.support.unsupportedSpans[0].text).toContain("derailment");
    for (const a of r.support.uncoveredArguments) {
      const source = example.input.sources[a.origin.source];
      expect(a.origin.sourceId).toBe(source.id);
      expect(source.text.slice(a.origin.start, a.origin.end)).toBe(a.text);
    }
  });

  it("guard blocks the answer (exit 3) and lets the faithful part through", () => {
    const config = join(tmp, "rag-guard.json");
    writeFileSync(
      config,
      JSON.stringify({
        format: "npov-guard/1",
        detector: { method: "support" },
        thresholds: { hallucination: 0.5, coverage: 2 },
      }),
    );
    const blocked = npov("guard", "--config", config, "--input", RAG, "--exit-code");
    expect(blocked.status).toBe(3);
    expect(JSON.parse(blocked.stdout).hallucination.evidence.sentences[0].text).toContain("derailment");
    const faithfulFile = join(tmp, "faithful.json");
    const faithful = example.response.split(" It was withdrawn")[0];
    writeFileSync(faithfulFile, JSON.stringify({ ...example, response: faithful }));
    const ok = npov("guard", "--config", config, "--input", faithfulFile, "--exit-code");
    expect(ok.status).toBe(0);
    expect(JSON.parse(ok.stdout).allow).toBe(true);
  });

  it("check-batch, eval and calibrate-guard take a sources dataset", () => {
    const data = join(tmp, "rag.jsonl");
    const faithful = example.response.split(" It was withdrawn")[0];
    const rows = [
      { ...example, id: "bad", labels: { hallucination: true } },
      { ...example, id: "good", response: faithful, labels: { hallucination: false } },
      {
        id: "good2",
        input: example.input,
        response: "The Baltimore and Ohio Railroad was chartered in 1827.",
        labels: { hallucination: false },
      },
      {
        id: "bad2",
        input: example.input,
        response: "The Baltimore and Ohio Railroad was chartered in 1827 by the king of Spain.",
        labels: { hallucination: true },
      },
    ];
    writeFileSync(data, `${rows.map((r) => JSON.stringify(r)).join("\n")}\n`);
    const out = join(tmp, "scores.jsonl");
    expect(npov("check-batch", "--data", data, "--out", out).status).toBe(0);
    const scored = readFileSync(out, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(scored).toHaveLength(4);
    const evaluation = npov("eval", "--data", data, "--methods", "support,rouge1-precision", "--json");
    expect(evaluation.status).toBe(0);
    const rowsOut = JSON.parse(evaluation.stdout).rows.filter(
      (r: { errorType: string; level: string }) => r.errorType === "hallucination" && r.level === "example",
    );
    expect(rowsOut.find((r: { detector: string }) => r.detector === "support").auc).toBe(1);
    const guard = join(tmp, "calibrated.json");
    const calibrated = npov("calibrate-guard", "--data", data, "--target-fpr", "0.5", "--out", guard);
    expect(calibrated.stderr).not.toMatch(/\[INTERNAL/);
    expect(JSON.parse(readFileSync(guard, "utf8")).detector.method).toBe("support");
  });
});
