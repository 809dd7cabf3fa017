/**
 * A self-contained HTML/SVG view of a salience result, like the paper's Figure 2: a heatmap of argument
 * words (rows, grouped by perspective and argument) x response words (columns) with a colour scale, the
 * contribution (alpha) of each argument word as a bar on the right and the attribution (beta) of each
 * response word as a bar below. Gold labels, when the example has them (`wordLabels`), are marked in red:
 * hallucinated response spans above their columns, uncovered arguments beside their rows. Words whose
 * alpha/beta fall below the threshold are shown in grey italics (red is kept for gold labels only).
 * Cells scale with the number of words; a map wider than the screen scrolls inside its own box.
 */
import { truncateText, type WordLabels } from "@npov/core";
import type { SalienceResult } from "./detector.js";
import type { EncoderInputSalience } from "./encoder.js";
import { at } from "./postprocess.js";

const escapeHtml = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** Options of {@link renderSalienceHtml}. */
export interface SalienceHtmlOptions {
  /** alpha/beta below which a word label is shown as weak (grey italics); default 0.1. */
  threshold?: number;
  /** Page title. */
  title?: string;
  /** Gold word labels of the example (hallucinated response spans, uncovered arguments) to mark. */
  gold?: WordLabels;
  /**
   * A caveat shown above the scores, e.g. that the model is not usable for salience (its card's verdict):
   * a page read without the terminal that made it must still say so.
   */
  warning?: string;
}

/** Sequential colour scale from white (0) to dark blue (1): perceptually ordered, readable in greyscale. */
export function salienceColor(x: number): string {
  const t = Math.min(1, Math.max(0, x));
  const mix = (a: number, b: number) => Math.round(a + (b - a) * t);
  return `rgb(${mix(255, 8)},${mix(255, 48)},${mix(255, 107)})`;
}

/** Longest word label (characters) that fits the 120 px label room at 11 px; longer ones end in "…". */
const LABEL_CHARS = 17;

/** The heatmap page of `result` (see the module comment). */
export function renderSalienceHtml(result: SalienceResult, options: SalienceHtmlOptions = {}): string {
  const threshold = options.threshold ?? 0.1;
  const rows = result.words.arguments;
  const cols = result.words.response;
  // Cells fill about 900 px at most and never shrink below 12 px (labels stay legible).
  const cell = Math.max(12, Math.min(24, Math.floor(900 / Math.max(1, cols.length))));
  const groupWidth = 14; // room for the gold bar; group names sit on their header lines
  const labelWidth = 120;
  const left = groupWidth + labelWidth;
  const top = 120;
  const barWidth = 70;
  const headerHeight = 16;
  const spans = options.gold?.hallucinatedSpans ?? [];
  const uncovered = new Set((options.gold?.uncoveredArguments ?? []).map(([p, a]) => `${p}/${a}`));
  const goldColumn = cols.map((w) => spans.some((s) => w.start < s.end && s.start < w.end));

  // Row layout: a header line before each argument's words; a wider gap between perspectives.
  const layout: Array<
    { kind: "header"; perspective: number; argument: number; y: number } | { kind: "row"; i: number; y: number }
  > = [];
  let y = top;
  let previous: string | undefined;
  let previousPerspective: number | undefined;
  rows.forEach((w, i) => {
    const key = `${w.perspective}/${w.argument}`;
    if (key !== previous) {
      if (previousPerspective !== undefined && previousPerspective !== w.perspective) y += 8;
      layout.push({ kind: "header", perspective: w.perspective, argument: w.argument, y });
      y += headerHeight;
      previous = key;
      previousPerspective = w.perspective;
    }
    layout.push({ kind: "row", i, y });
    y += cell;
  });
  const mapBottom = y;
  const width = left + cols.length * cell + barWidth + 24;
  const height = mapBottom + barWidth + 24;
  // Colour scale relative to the map's maximum so weak (e.g. random-weight) models remain visible.
  let max = 0;
  for (const v of result.wordMatrix.data) max = Math.max(max, v);
  const shade = (v: number) => salienceColor(max > 0 ? v / max : 0);

  const parts: string[] = [];
  for (const item of layout) {
    if (item.kind === "header") {
      const label = result.perspectives[item.perspective]?.label ?? `perspective ${item.perspective + 1}`;
      const gold = uncovered.has(`${item.perspective}/${item.argument}`);
      parts.push(
        `<g class="group${gold ? " gold-uncovered" : ""}" data-perspective="${item.perspective}" data-argument="${item.argument}"><line x1="0" x2="${left + cols.length * cell}" y1="${item.y}" y2="${item.y}" stroke="${gold ? "#c0392b" : "#888"}"/><text class="group-label" x="2" y="${item.y + 12}"${gold ? ' fill="#c0392b" font-weight="600"' : ""}>${escapeHtml(label)} · argument ${item.argument + 1}${gold ? " · gold: uncovered" : ""}</text></g>`,
      );
      continue;
    }
    const w = rows[item.i]!;
    const weak = w.contribution < threshold;
    if (uncovered.has(`${w.perspective}/${w.argument}`))
      parts.push(
        `<rect class="gold-row" x="${groupWidth - 10}" y="${item.y}" width="4" height="${cell}" fill="#c0392b"/>`,
      );
    parts.push(
      `<text class="row-label${weak ? " weak" : ""}" x="${left - 6}" y="${item.y + cell / 2 + 4}" text-anchor="end"><title>${escapeHtml(w.text)}</title>${escapeHtml(truncateText(w.text, LABEL_CHARS))}</text>`,
    );
    cols.forEach((c, j) => {
      const v = at(result.wordMatrix, item.i, j);
      parts.push(
        `<rect class="cell" x="${left + j * cell}" y="${item.y}" width="${cell}" height="${cell}" fill="${shade(v)}"><title>${escapeHtml(w.text)} -> ${escapeHtml(c.text)}: ${v.toFixed(4)}</title></rect>`,
      );
    });
    parts.push(
      `<rect class="alpha" x="${left + cols.length * cell + 6}" y="${item.y + 2}" width="${(barWidth * w.contribution).toFixed(1)}" height="${cell - 4}" fill="#4a6fa5"><title>alpha ${w.contribution.toFixed(4)}</title></rect>`,
    );
  }
  cols.forEach((w, j) => {
    const weak = w.attribution < threshold;
    const x = left + j * cell + cell / 2 + 3;
    if (goldColumn[j])
      parts.push(
        `<rect class="gold-column" x="${left + j * cell}" y="${top - 6}" width="${cell}" height="4" fill="#c0392b"><title>gold: hallucinated</title></rect>`,
      );
    parts.push(
      `<text class="col-label${weak ? " weak" : ""}${goldColumn[j] ? " gold" : ""}" x="${x}" y="${top - 10}" transform="rotate(-60 ${x} ${top - 10})"><title>${escapeHtml(w.text)}</title>${escapeHtml(truncateText(w.text, LABEL_CHARS))}</text>`,
    );
    parts.push(
      `<rect class="beta" x="${left + j * cell + 2}" y="${mapBottom + 6}" width="${cell - 4}" height="${(barWidth * w.attribution).toFixed(1)}" fill="#4a6fa5"><title>beta ${w.attribution.toFixed(4)}</title></rect>`,
    );
  });
  const title = options.title ?? "npov salience map";
  const stops = [0, 0.25, 0.5, 0.75, 1].map((t) => `<stop offset="${t}" stop-color="${salienceColor(t)}"/>`).join("");
  const goldNote =
    options.gold === undefined
      ? "The example has no gold word labels."
      : `Gold labels: <span class="gold">red bar above a response word</span> = inside a hallucinated span; <span class="gold">red bar beside an argument</span> = an argument the response does not cover.`;
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:"><title>${escapeHtml(title)}</title>
<style>*{box-sizing:border-box}body{font-family:system-ui,sans-serif;margin:0 auto;padding:1rem;max-width:1280px;color:#222;line-height:1.4}
h1{font-size:1.3rem;overflow-wrap:anywhere}svg text{font-size:11px}.weak{fill:#888;font-style:italic}.gold{color:#c0392b;fill:#c0392b;font-weight:600}
.group-label{font-size:10px;fill:#444}.scores{display:flex;flex-wrap:wrap;gap:.3rem 1.5rem;margin:.5rem 0}
.map-wrap{max-width:100%;overflow-x:auto;border:1px solid #eee}.map-wrap svg{display:block}
.scale{display:flex;align-items:center;gap:.5rem;flex-wrap:wrap;font-size:.85rem;margin:.5rem 0}.scale svg{width:200px;height:14px}
.warning{border:2px solid #b35900;background:#fff4e5;color:#5c2e00;padding:.5rem .75rem;border-radius:4px}
p{overflow-wrap:anywhere}</style></head><body>
<h1>${escapeHtml(title)}</h1>
${options.warning === undefined ? "" : `<p class="warning" role="alert"><b>Warning:</b> ${escapeHtml(options.warning)} The scores and the map below are shown for inspection, not as evidence.</p>\n`}<p class="scores"><span>hallucination score <b>${result.hallucination.toFixed(3)}</b></span><span>coverage-error score <b>${result.coverage.toFixed(3)}</b></span><span>variant ${escapeHtml(result.variant)}</span></p>
<div class="scale"><span>cell colour: attribution</span><span>0</span><svg class="color-scale" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 200 14" preserveAspectRatio="none"><defs><linearGradient id="salience-scale">${stops}</linearGradient></defs><rect width="200" height="14" fill="url(#salience-scale)" stroke="#999"/></svg><span>${max.toFixed(4)} (the map's maximum)</span></div>
<p>Rows: argument words, grouped by perspective and argument; columns: response words. A cell is the attribution after squaring, column normalization and token-to-word max merging. Bars: alpha (contribution, right) and beta (attribution, below); grey italics mark words with alpha or beta below ${threshold}. ${goldNote}</p>
<div class="map-wrap"><svg class="salience" xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
${parts.join("\n")}
</svg></div>
</body></html>
`;
}

/** Options of {@link renderEncoderSalienceHtml}. */
export interface EncoderSalienceHtmlOptions {
  title?: string;
  /** Shown above the text (e.g. that the model failed the sanity check: the maps mean nothing then). */
  warning?: string;
}

/** Diverging scale for signed attributions: red (-1), white (0), blue (+1). */
export function signedSalienceColor(x: number): string {
  const t = Math.min(1, Math.max(-1, x));
  if (t >= 0) return salienceColor(t);
  const mix = (a: number, b: number) => Math.round(a + (b - a) * -t);
  return `rgb(${mix(255, 165)},${mix(255, 15)},${mix(255, 21)})`;
}

/**
 * A self-contained page of an encoder salience result: the arguments (grouped by perspective) and the
 * response as running text, each word shaded by its attribution to the label's logit relative to the
 * largest |attribution| (blue raises the logit, red lowers it; grad-norm: blue only), with the value and
 * share on hover, and the label probabilities.
 */
export function renderEncoderSalienceHtml(
  result: EncoderInputSalience,
  options: EncoderSalienceHtmlOptions = {},
): string {
  const words = [...result.words.arguments, ...result.words.response];
  const max = Math.max(0, ...words.map((w) => Math.abs(w.attribution)));
  const shade = (v: number) =>
    result.variant === "grad-norm" ? salienceColor(max > 0 ? v / max : 0) : signedSalienceColor(max > 0 ? v / max : 0);
  const marked = (
    text: string,
    ws: ReadonlyArray<{ start: number; end: number; attribution: number; share: number }>,
  ) => {
    let out = "";
    let at = 0;
    for (const w of [...ws].sort((a, b) => a.start - b.start)) {
      if (w.start < at) continue;
      out += escapeHtml(text.slice(at, w.start));
      out += `<span class="w" style="background:${shade(w.attribution)}" title="${w.attribution.toExponential(3)} (share ${(100 * w.share).toFixed(1)}%)">${escapeHtml(text.slice(w.start, w.end))}</span>`;
      at = w.end;
    }
    return out + escapeHtml(text.slice(at));
  };
  const argumentsHtml = result.perspectives
    .map((p, k) => {
      const items = p.arguments
        .map((a, j) => {
          const own = result.words.arguments.filter((w) => w.perspective === k && w.argument === j);
          return `<li>${marked(a.text, own)} <small>(${(100 * a.share).toFixed(1)}%)</small></li>`;
        })
        .join("");
      return `<h3>${escapeHtml(p.label)} <small>(${(100 * p.share).toFixed(1)}%)</small></h3><ul>${items}</ul>`;
    })
    .join("\n");
  const title = options.title ?? "npov encoder salience";
  const probabilities = result.labels
    .map((l, k) => `<span>${escapeHtml(l)} <b>${(result.probabilities[k] as number).toFixed(3)}</b></span>`)
    .join("");
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;margin:0 auto;padding:1rem;max-width:960px;color:#222;line-height:1.7}
h1{font-size:1.3rem;overflow-wrap:anywhere}h3{margin:.6rem 0 .2rem;font-size:1rem}.w{padding:0 .1rem;border-radius:2px}
.scores{display:flex;flex-wrap:wrap;gap:.3rem 1.5rem}.warning{border-left:4px solid #c0392b;padding:.3rem .6rem;background:#fdf2f0}
p,li{overflow-wrap:anywhere}</style></head><body>
<h1>${escapeHtml(title)}</h1>
${options.warning ? `<p class="warning">${escapeHtml(options.warning)}</p>` : ""}
<p class="scores">${probabilities}<span>attributed: <b>${escapeHtml(result.label)}</b> logit, ${escapeHtml(result.variant)}</span></p>
<p>Premise: the arguments; hypothesis: the response. A word's shade is its attribution relative to the largest (${max.toExponential(3)})${result.variant === "grad-norm" ? "" : ": blue raised the logit, red lowered it"}; hover for the value and its share of all words' |attribution|.${result.scaleInvariant ? " This model normalizes the scale of its word embeddings away, so gradient x input is about 0 for every word by construction: use the grad-norm variant." : ""}</p>
<h2>Arguments</h2>
${argumentsHtml}
<h2>Response</h2>
<p>${marked(result.hypothesis.text, result.words.response)}</p>
</body></html>
`;
}
