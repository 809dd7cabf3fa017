/**
 * A self-contained HTML/SVG view of a salience result, like the paper's Figure 2: a heatmap of argument
 * words (rows) x response words (columns), the contribution (alpha) of each argument word as a bar on
 * the right, the attribution (beta) of each response word as a bar below, and words below the threshold
 * highlighted as uncovered (arguments) or unsupported (response).
 */
import type { SalienceResult } from "./detector.js";
import { at } from "./postprocess.js";

const escapeHtml = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** Options: `threshold` below which alpha/beta mark a word (default 0.1); page title. */
export function renderSalienceHtml(
  result: SalienceResult,
  options: { threshold?: number; title?: string } = {},
): string {
  const threshold = options.threshold ?? 0.1;
  const rows = result.words.arguments;
  const cols = result.words.response;
  const cell = 16;
  const left = 150;
  const top = 110;
  const barWidth = 80;
  const width = left + cols.length * cell + barWidth + 20;
  const height = top + rows.length * cell + barWidth + 20;
  // Color scale relative to the map's maximum so weak random-weight models remain visible.
  let max = 0;
  for (const v of result.wordMatrix.data) max = Math.max(max, v);
  const shade = (v: number) => {
    const x = max > 0 ? v / max : 0;
    const c = Math.round(255 * (1 - x));
    return `rgb(255,${c},${c})`;
  };
  const parts: string[] = [];
  rows.forEach((w, i) => {
    const flagged = w.contribution < threshold;
    parts.push(
      `<text class="row-label${flagged ? " uncovered" : ""}" x="${left - 6}" y="${top + i * cell + 12}" text-anchor="end">${escapeHtml(w.text)}</text>`,
    );
    cols.forEach((_, j) => {
      const v = at(result.wordMatrix, i, j);
      parts.push(
        `<rect class="cell" x="${left + j * cell}" y="${top + i * cell}" width="${cell}" height="${cell}" fill="${shade(v)}"><title>${escapeHtml(w.text)} -> ${escapeHtml(cols[j]?.text ?? "")}: ${v.toFixed(4)}</title></rect>`,
      );
    });
    parts.push(
      `<rect class="alpha" x="${left + cols.length * cell + 6}" y="${top + i * cell + 2}" width="${(barWidth * w.contribution).toFixed(1)}" height="${cell - 4}" fill="${flagged ? "#d62728" : "#1f77b4"}"><title>alpha ${w.contribution.toFixed(4)}</title></rect>`,
    );
  });
  cols.forEach((w, j) => {
    const flagged = w.attribution < threshold;
    const x = left + j * cell + 12;
    parts.push(
      `<text class="col-label${flagged ? " unsupported" : ""}" x="${x}" y="${top - 6}" transform="rotate(-60 ${x} ${top - 6})">${escapeHtml(w.text)}</text>`,
    );
    parts.push(
      `<rect class="beta" x="${left + j * cell + 2}" y="${top + rows.length * cell + 6}" width="${cell - 4}" height="${(barWidth * w.attribution).toFixed(1)}" fill="${flagged ? "#d62728" : "#1f77b4"}"><title>beta ${w.attribution.toFixed(4)}</title></rect>`,
    );
  });
  const title = options.title ?? "npov salience map";
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;margin:1.5rem;color:#222}svg text{font-size:11px}.uncovered,.unsupported{fill:#d62728;font-weight:600}
.scores{margin:.5rem 0}.scores span{margin-right:1.5rem}</style></head><body>
<h1>${escapeHtml(title)}</h1>
<p class="scores"><span>hallucination score <b>${result.hallucination.toFixed(3)}</b></span><span>coverage-error score <b>${result.coverage.toFixed(3)}</b></span><span>variant ${escapeHtml(result.variant)}</span></p>
<p>Rows: argument words; columns: response words; cell = attribution after squaring, column normalization and token-to-word max merging (darker = larger, relative to the map's maximum ${max.toFixed(4)}). Bars: alpha (contribution, right) and beta (attribution, below); red marks values below ${threshold}.</p>
<svg class="salience" xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
${parts.join("\n")}
</svg>
</body></html>
`;
}
