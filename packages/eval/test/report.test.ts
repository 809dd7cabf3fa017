import { mkdtempSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ErrorDetector, type NpovExample, type NpovInput, openKnowledgeBase } from "@npov/core";
import { type EvaluationRow, evaluate, formatAucCell, formatResultTable, renderReport } from "@npov/eval";
import { rougeErrorDetector } from "@npov/rouge";
import { buildDataset } from "@npov/synth";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, openAt } from "../../../test/browser.js";

const input: NpovInput = {
  topic: "t",
  query: "Should it?",
  perspectives: [
    { label: "pro", arguments: [{ text: "Yes because a." }] },
    { label: "con", arguments: [{ text: "No because b." }] },
  ],
};

/** A detector that reads its scores from the response text ("h c"), so expected AUCs can be worked by hand. */
const fixed: ErrorDetector = {
  name: "fixed",
  detect: (_input, response) => {
    const [h, c] = response.split(" ").map(Number) as [number, number];
    return { hallucination: h, coverage: c };
  },
};

const example = (slice: string, h: number, hallucination: boolean): NpovExample => ({
  input,
  response: `${h} 0.5`,
  slice,
  labels: { hallucination, coverage: false },
});

describe("per-slice ROC curves and interval formatting", () => {
  it("computes one curve per slice with the slice's own AUC, and the pooled curve", async () => {
    // Slice a: positives 0.9, 0.4; negatives 0.1, 0.5 -> pairs won: 0.9>0.1, 0.9>0.5, 0.4>0.1 = 3 of 4.
    // Slice b: positive 0.2; negatives 0.3, 0.1 -> 1 of 2. Pooled: positives 0.9, 0.4, 0.2 vs negatives
    // 0.1, 0.5, 0.3, 0.1 -> 4 + 3 + 2 = 9 of 12.
    const data = [
      example("a", 0.9, true),
      example("a", 0.4, true),
      example("a", 0.1, false),
      example("a", 0.5, false),
      example("b", 0.2, true),
      example("b", 0.3, false),
      example("b", 0.1, false),
    ];
    const result = await evaluate(data, [fixed], { bootstrap: false });
    const curves = result.sliceCurves.filter((c) => c.errorType === "hallucination");
    expect(curves.map((c) => [c.slice, c.auc])).toEqual([
      ["a", 0.75],
      ["b", 0.5],
    ]);
    expect(result.curves.map((c) => [c.slice, c.errorType, c.auc])).toEqual([["all", "hallucination", 9 / 12]]);
    // Coverage has one class only: no curve anywhere.
    expect(result.sliceCurves.some((c) => c.errorType === "coverage")).toBe(false);
  });

  it("formats an AUC cell with its interval and n", () => {
    const row: EvaluationRow = {
      slice: "s",
      detector: "d",
      errorType: "coverage",
      level: "example",
      auc: 0.81234,
      n: 120,
      positives: 60,
      negatives: 60,
      ci: { low: 0.7512, high: 0.86, level: 0.95 },
    };
    expect(formatAucCell(row)).toBe("0.812 [0.751, 0.860] (n=120)");
    const { ci: _, ...without } = row;
    expect(formatAucCell(without)).toBe("0.812 (n=120)");
    expect(formatAucCell({ ...row, auc: null })).toBe("n/a (n=120)");
    expect(formatAucCell(undefined)).toBe("-");
  });
});

describe("HTML report in headless Chromium at 420 and 1280 px", () => {
  const dir = mkdtempSync(join(tmpdir(), "npov-report-"));
  const file = join(dir, "report.html");
  let browser: Browser;
  let slices = 0;

  beforeAll(async () => {
    const dataset = buildDataset(openKnowledgeBase("fixtures"), { split: "test", seed: 1 });
    const result = await evaluate(
      dataset,
      [rougeErrorDetector(), rougeErrorDetector({ stem: false }, "rouge-nostem")],
      {
        bootstrap: { resamples: 50, seed: 0 },
      },
    );
    slices = new Set(result.sliceCurves.map((c) => `${c.slice}/${c.errorType}`)).size;
    expect(formatResultTable(result)).toMatch(/unparaphrased-synthetic\s+0\.\d{3} \[0\.\d{3}, [01]\.\d{3}\] \(n=\d+\)/);
    writeFileSync(
      file,
      renderReport(result, {
        title: "npov evaluation of /a/rather/long/path/to/perspectrum-test-dataset-file.jsonl",
        metadata: [
          ["command", "npov eval --data /a/rather/long/path/to/perspectrum-test-dataset-file.jsonl --methods rouge"],
          ["date", "2026-01-01T00:00:00.000Z"],
        ],
      }),
    );
    browser = await launchChromium();
  });
  afterAll(async () => browser?.close());

  it.each([420, 1280])(
    "at %i px: no horizontal overflow, every element present, legends outside the plots",
    async (width) => {
      const png = join(dir, `report-${width}.png`);
      const { page, scrollWidth, boxes } = await openAt(browser, file, width, png);
      expect(scrollWidth).toBeLessThanOrEqual(width);
      expect(await page.$$eval(".meta dt", (els) => els.map((e) => e.textContent))).toEqual(["command", "date"]);
      // Intervals in the table: every example-level cell of the pooled row carries "[low, high]".
      const cells = await page.$$eval("table.auc-example td small", (els) => els.map((e) => e.textContent ?? ""));
      expect(cells.length).toBeGreaterThan(0);
      for (const c of cells) expect(c).toMatch(/^\[0\.\d{3}, [01]\.\d{3}\] n=\d+$/);
      // Plots: 2 pooled ROC plots, one per slice x error type with curves, 2 forest plots with whiskers.
      const roc = await boxes("svg.roc");
      expect(roc).toHaveLength(2);
      expect(await boxes("svg.roc-slice")).toHaveLength(slices);
      expect(await page.$$eval("svg.forest line.ci", (els) => els.length)).toBe(
        await page.$$eval("svg.forest circle.auc-dot", (els) => els.length),
      );
      // Plots are legible: at least 300 px wide on a desktop, the full content width (minus padding) on a phone.
      for (const b of roc) {
        expect(b.width).toBeGreaterThanOrEqual(width === 420 ? 380 : 300);
        expect(b.x + b.width).toBeLessThanOrEqual(width);
      }
      // Each pooled plot's legend lists both detectors and sits below its plot, not on it.
      const legends = await page.$$eval("figure.roc-figure", (figs) =>
        figs.slice(0, 2).map((f) => {
          const svg = (f.querySelector("svg") as SVGElement).getBoundingClientRect();
          const legend = (f.querySelector(".legend") as HTMLElement).getBoundingClientRect();
          return { items: f.querySelectorAll(".legend li").length, gap: legend.top - svg.bottom };
        }),
      );
      for (const l of legends) {
        expect(l.items).toBe(2);
        expect(l.gap).toBeGreaterThanOrEqual(0);
      }
      await page.close();
      expect(statSync(png).size).toBeGreaterThan(20_000);
    },
  );
});
