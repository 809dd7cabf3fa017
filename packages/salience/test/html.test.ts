import { mkdtempSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  matrix,
  renderEncoderSalienceHtml,
  renderSalienceHtml,
  type SalienceResult,
  salienceColor,
  signedSalienceColor,
} from "@npov/salience";
import fc from "fast-check";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, openAt } from "../../../test/browser.js";

/** A salience result built by hand: 2 perspectives x 2 arguments x 3 words, `n` response words. */
function handResult(n: number): SalienceResult {
  const argumentWords = [0, 1].flatMap((p) =>
    [0, 1].flatMap((a) =>
      [0, 1, 2].map((k) => ({
        perspective: p,
        argument: a,
        text: `w${p}${a}${k}`,
        start: k * 5,
        end: k * 5 + 4,
        contribution: (p + a + k) / 5,
        coverage: 1 - (p + a + k) / 5,
      })),
    ),
  );
  const responseWords = Array.from({ length: n }, (_, j) => ({
    text: `r${j}`,
    start: j * 4,
    end: j * 4 + 2,
    attribution: (j % 7) / 7,
    hallucination: 1 - (j % 7) / 7,
  }));
  const values = Array.from({ length: argumentWords.length * n }, (_, i) => (i % 11) / 10);
  return {
    method: "salience",
    variant: "grad-x-input",
    hallucination: 0.4,
    coverage: 0.6,
    perspectives: [
      { label: "pro", contribution: 0.3, arguments: [] },
      { label: "con", contribution: 0.5, arguments: [] },
    ],
    words: { arguments: argumentWords, response: responseWords },
    wordMatrix: matrix(argumentWords.length, n, values),
    tokens: {} as SalienceResult["tokens"],
    prompt: "",
    epsilon: 1e-6,
  };
}

describe("salience colour scale", () => {
  it("runs from white at 0 to dark blue at 1, each channel non-increasing", () => {
    expect(salienceColor(0)).toBe("rgb(255,255,255)");
    expect(salienceColor(1)).toBe("rgb(8,48,107)");
    expect(salienceColor(2)).toBe("rgb(8,48,107)");
    const channels = (c: string) => (c.match(/\d+/g) ?? []).map(Number);
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), (a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        const x = channels(salienceColor(lo));
        const y = channels(salienceColor(hi));
        return x.every((v, k) => v >= (y[k] as number));
      }),
    );
  });
});

describe("salience heatmap in headless Chromium at 420 and 1280 px", () => {
  const dir = mkdtempSync(join(tmpdir(), "npov-heatmap-"));
  const file = join(dir, "map.html");
  const n = 30;
  const result = handResult(n);
  // Response words 20..24 lie inside the hallucinated span [80, 98); argument (con, 2) is uncovered.
  const gold = { hallucinatedSpans: [{ start: 80, end: 98 }], uncoveredArguments: [[1, 1]] as Array<[number, number]> };
  let browser: Browser;

  beforeAll(async () => {
    writeFileSync(file, renderSalienceHtml(result, { title: "hand-made map", gold }));
    browser = await launchChromium();
  });
  afterAll(async () => browser?.close());

  it("marks gold labels and groups rows by perspective and argument", () => {
    const html = renderSalienceHtml(result, { gold });
    expect((html.match(/class="cell"/g) ?? []).length).toBe(12 * n);
    expect((html.match(/<g class="group/g) ?? []).length).toBe(4);
    expect((html.match(/gold-uncovered/g) ?? []).length).toBe(1);
    expect(html).toContain("con · argument 2 · gold: uncovered");
    expect((html.match(/class="gold-row"/g) ?? []).length).toBe(3);
    expect((html.match(/class="gold-column"/g) ?? []).length).toBe(5);
    // Without gold labels nothing is red.
    const plain = renderSalienceHtml(result);
    expect(plain).not.toMatch(/gold-(row|column|uncovered)/);
    expect(plain).toContain("The example has no gold word labels.");
  });

  it("long words are cut to fit with their full text in a tooltip; the page allows no scripts", async () => {
    const long = "pneumonoultramicroscopicsilicovolcanoconiosis";
    const r = handResult(4);
    r.words.arguments[0] = { ...(r.words.arguments[0] as (typeof r.words.arguments)[number]), text: long };
    r.words.response[0] = { ...(r.words.response[0] as (typeof r.words.response)[number]), text: `😀${long}` };
    const html = renderSalienceHtml(r);
    expect(html).toContain(`<title>${long}</title>pneumonoultramic…`);
    expect(html).toContain(`<title>😀${long}</title>😀pneumonoultrami…`);
    expect(html).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src 'none'/);
    const longFile = join(dir, "long.html");
    writeFileSync(longFile, html);
    const { page } = await openAt(browser, longFile, 1280, join(dir, "long.png"));
    // Every label lies inside its SVG (nothing cut off at the left or top edge).
    const outside = await page.$$eval(
      "svg text.row-label, svg text.col-label",
      (labels) =>
        labels.filter((t) => {
          const box = (t as SVGGraphicsElement).getBoundingClientRect();
          const svg = (t.ownerSVGElement as SVGSVGElement).getBoundingClientRect();
          return box.left < svg.left - 0.5 || box.top < svg.top - 0.5;
        }).length,
    );
    expect(outside).toBe(0);
    await page.close();
  });

  it.each([420, 1280])("at %i px: no page overflow, a colour scale, legible cells", async (width) => {
    const png = join(dir, `map-${width}.png`);
    const { page, scrollWidth, boxes } = await openAt(browser, file, width, png);
    expect(scrollWidth).toBeLessThanOrEqual(width);
    const [scale] = await boxes("svg.color-scale");
    expect(scale?.width).toBeGreaterThanOrEqual(100);
    const cells = await boxes("rect.cell");
    expect(cells).toHaveLength(12 * n);
    for (const c of cells.slice(0, 5)) expect(c.width).toBeGreaterThanOrEqual(12);
    // The map fits a desktop screen; on a phone it scrolls inside its own box, not the page.
    const wrap = await page.$eval(".map-wrap", (e) => ({ scroll: e.scrollWidth, client: e.clientWidth }));
    if (width === 1280) expect(wrap.scroll).toBeLessThanOrEqual(wrap.client);
    else expect(wrap.client).toBeLessThanOrEqual(width);
    await page.close();
    expect(statSync(png).size).toBeGreaterThan(10_000);
  });

  it.each([420, 1280])("at %i px: a model's warning leads the page, above the scores it qualifies", async (width) => {
    const warning =
      "models/npov-gen is not usable for salience: ROC AUC at chance <0.56>. Use npov check --methods align instead.";
    const warned = join(dir, "warned.html");
    writeFileSync(warned, renderSalienceHtml(result, { title: "hand-made map", gold, warning }));
    expect(renderSalienceHtml(result, { gold })).not.toContain('class="warning"');
    const { page, scrollWidth, boxes } = await openAt(browser, warned, width, join(dir, `warned-${width}.png`));
    expect(scrollWidth).toBeLessThanOrEqual(width);
    expect(await page.locator("p.warning").textContent()).toBe(
      `Warning: ${warning} The scores and the map below are shown for inspection, not as evidence.`,
    );
    expect(await page.locator("p.warning").isVisible()).toBe(true);
    const [box] = await boxes("p.warning");
    const [scores] = await boxes("p.scores");
    expect(box!.y + box!.height).toBeLessThanOrEqual(scores!.y);
    expect(box!.y).toBeLessThan(900); // on the first screen
    await page.close();
  });
});

describe("renderEncoderSalienceHtml", () => {
  const word = (text: string, start: number, attribution: number, share: number) => ({
    text,
    start,
    end: start + text.length,
    attribution,
    share,
  });
  const result = {
    method: "encoder-salience" as const,
    variant: "grad-x-input" as const,
    label: "entailment",
    labelIndex: 0,
    labels: ["entailment", "neutral", "contradiction"],
    logits: [1, 0, -1],
    probabilities: [0.665, 0.245, 0.09],
    premise: { text: "Cages <harm> animals.", words: [] },
    hypothesis: { text: "Zoos & cages.", words: [] },
    tokens: [],
    special: 0,
    scaleSensitivity: 0.5,
    scaleInvariant: false,
    words: {
      arguments: [
        { ...word("Cages", 0, 0.2, 0.4), perspective: 0, argument: 0 },
        { ...word("harm", 7, -0.1, 0.2), perspective: 0, argument: 0 },
      ],
      response: [word("Zoos", 0, 0.1, 0.2), word("cages", 7, -0.05, 0.2)],
    },
    perspectives: [{ label: "pro <1>", share: 0.6, arguments: [{ text: "Cages <harm> animals.", share: 0.6 }] }],
  };

  it("shades words by signed attribution, escapes text, and shows the warning", () => {
    const page = renderEncoderSalienceHtml(result, { warning: "fails the <NLI> check" });
    expect(page).toContain("fails the &lt;NLI&gt; check");
    expect(page).toContain("pro &lt;1&gt;");
    expect(page).toContain("&lt;<span"); // "<" before the word is escaped, the word itself wrapped
    expect(page).toContain("Zoos</span> &amp; ");
    // The largest |attribution| (0.2) is the darkest blue; -0.1 is half-way to red.
    expect(page).toContain(`background:${signedSalienceColor(1)}`);
    expect(page).toContain(`background:${signedSalienceColor(-0.5)}`);
    expect(signedSalienceColor(0)).toBe("rgb(255,255,255)");
    expect(signedSalienceColor(-1)).toBe("rgb(165,15,21)");
  });
});
