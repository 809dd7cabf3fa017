import { mkdtempSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type ErrorDetector, type NpovExample, type NpovInput, openKnowledgeBase } from "@npov/core";
import {
  aucTableNotes,
  type EvaluationRow,
  evaluate,
  formatAucCell,
  formatResultTable,
  renderReport,
} from "@npov/eval";
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

describe("the report's caveats: warnings, what - and n/a mean, a slice's plots kept together", () => {
  const dir = mkdtempSync(join(tmpdir(), "npov-report-caveats-"));
  const file = join(dir, "report.html");
  /** Example-level scores only (no word maps): its word-level cells are "-". */
  const constant: ErrorDetector = { name: "constant", detect: () => ({ hallucination: 0.5, coverage: 0.5 }) };
  const warning =
    "models/npov-gen is not usable for salience: ROC AUC at chance. Use npov check --methods align instead.";
  let browser: Browser;
  let sliceNames: string[] = [];

  beforeAll(async () => {
    const dataset = buildDataset(openKnowledgeBase("fixtures"), { split: "test", seed: 1 });
    const result = await evaluate(dataset, [rougeErrorDetector(), constant], { bootstrap: false });
    sliceNames = [...new Set(result.sliceCurves.map((c) => c.slice))];
    expect(sliceNames.length).toBeGreaterThanOrEqual(3);
    writeFileSync(file, renderReport(result, { title: "caveats", warnings: [warning] }));
    browser = await launchChromium();
  });
  afterAll(async () => browser?.close());

  it("notes say what - and n/a mean, only for the marks a table holds", async () => {
    // Hand data: coverage is one class (every label false), so its AUC is undefined in every slice.
    const hand = await evaluate([example("a", 0.9, true), example("a", 0.1, false)], [fixed], { bootstrap: false });
    expect(aucTableNotes(hand, "example")).toEqual([
      "n/a: AUC undefined: every example of that slice is labelled the same (all with or all without the error), so there is nothing to rank.",
    ]);
    expect(aucTableNotes(hand, "word")).toEqual([]);
    const dataset = buildDataset(openKnowledgeBase("fixtures"), { split: "test", seed: 1, perTopic: 1 });
    const result = await evaluate(dataset, [rougeErrorDetector(), constant], { bootstrap: false });
    expect(aucTableNotes(result, "example")).toEqual([]);
    expect(aucTableNotes(result, "word")).toEqual([
      "-: no word-level scores: constant gives none (only detectors with word maps are scored per word).",
    ]);
    expect(formatResultTable(result, "word")).toMatch(/ - *\n/);
  });

  it.each([420, 1280])(
    "at %i px: the warning leads the page, notes sit under the word table, slices keep their pair",
    async (width) => {
      const { page, scrollWidth, boxes } = await openAt(browser, file, width, join(dir, `caveats-${width}.png`));
      expect(scrollWidth).toBeLessThanOrEqual(width);
      const [shown] = await boxes("p.warning");
      const [firstHeading] = await boxes("h2");
      expect(await page.locator("p.warning").textContent()).toBe(`Warning: ${warning}`);
      expect(shown!.y + shown!.height).toBeLessThanOrEqual(firstHeading!.y);
      expect(await page.locator("#notes-word li").allTextContents()).toEqual([
        "-: no word-level scores: constant gives none (only detectors with word maps are scored per word).",
      ]);
      const [wordTable] = await boxes("table.auc-word");
      const [notes] = await boxes("#notes-word");
      expect(notes!.y).toBeGreaterThanOrEqual(wordTable!.y + wordTable!.height);
      // Per slice, in order: a heading and the slice's hallucination and coverage plots, side by side on a
      // desktop, one above the other on a phone; the next slice starts below the previous one's plots.
      const sections = await page.$$eval("section.slice-plots", (els) =>
        els.map((s) => ({
          slice: s.getAttribute("data-slice"),
          heading: s.querySelector("h3")?.textContent,
          plots: [...s.querySelectorAll("svg.roc-slice")].map((svg) => {
            const r = svg.getBoundingClientRect();
            return {
              type: svg.getAttribute("data-error-type"),
              top: r.top + window.scrollY,
              bottom: r.bottom + window.scrollY,
              left: r.left,
            };
          }),
        })),
      );
      expect(sections.map((s) => s.slice)).toEqual(sliceNames);
      for (const [k, s] of sections.entries()) {
        expect(s.heading).toBe(s.slice);
        expect(s.plots.map((p) => p.type)).toEqual(["hallucination", "coverage"]);
        const [h, c] = s.plots as [(typeof s.plots)[number], (typeof s.plots)[number]];
        if (width === 1280) {
          expect(c.top).toBe(h.top);
          expect(c.left).toBeGreaterThan(h.left);
        } else expect(c.top).toBeGreaterThanOrEqual(h.bottom);
        const next = sections[k + 1];
        if (next !== undefined)
          expect(Math.min(...next.plots.map((p) => p.top))).toBeGreaterThan(Math.max(h.bottom, c.bottom));
      }
      await page.close();
    },
  );
});
