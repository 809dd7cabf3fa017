/** Presenting an {@link EvaluationResult}: a Table 1 style text table and a self-contained HTML report. */
import { ERROR_TYPES, type EvaluationResult, type EvaluationRow } from "./evaluate.js";

function find(result: EvaluationResult, level: "example" | "word", slice: string, detector: string, errorType: string) {
  return result.rows.find(
    (r) => r.level === level && r.slice === slice && r.detector === detector && r.errorType === errorType,
  );
}

const fmtAuc = (r: EvaluationRow | undefined) =>
  r === undefined ? "-" : r.auc === null ? `n/a (n=${r.n})` : `${r.auc.toFixed(3)} (n=${r.n})`;

/** The header and rows of a Table 1 style grid: rows = slices, columns = error type x detector. */
export function resultGrid(
  result: EvaluationResult,
  level: "example" | "word" = "example",
): { header: string[]; rows: string[][] } {
  const header = ["slice"];
  for (const errorType of ERROR_TYPES)
    for (const d of result.detectors) header.push(`${d} ${errorType === "hallucination" ? "hall" : "cov"}`);
  const rows = result.slices
    .filter((s) => result.rows.some((r) => r.level === level && r.slice === s))
    .map((slice) => [
      slice,
      ...ERROR_TYPES.flatMap((t) => result.detectors.map((d) => fmtAuc(find(result, level, slice, d, t)))),
    ]);
  return { header, rows };
}

/** Plain-text table (aligned columns) of example- or word-level AUCs. */
export function formatResultTable(result: EvaluationResult, level: "example" | "word" = "example"): string {
  const { header, rows } = resultGrid(result, level);
  if (rows.length === 0) return "";
  const widths = header.map((h, k) => Math.max(h.length, ...rows.map((r) => (r[k] ?? "").length)));
  const line = (cells: string[]) =>
    cells.map((c, k) => (k === 0 ? c.padEnd(widths[k] ?? 0) : c.padStart(widths[k] ?? 0))).join("  ");
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}

const escapeHtml = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const PALETTE = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"];

function htmlTable(header: string[], rows: string[][], caption: string, cls: string): string {
  const head = header.map((h) => `<th>${escapeHtml(h)}</th>`).join("");
  const body = rows
    .map(
      (r) =>
        `<tr>${r.map((c, k) => (k === 0 ? `<th scope="row">${escapeHtml(c)}</th>` : `<td>${escapeHtml(c)}</td>`)).join("")}</tr>`,
    )
    .join("\n");
  return `<table class="${cls}"><caption>${escapeHtml(caption)}</caption><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table>`;
}

/** One SVG ROC plot for an error type, a polyline per detector, the chance diagonal dashed. */
function rocSvg(result: EvaluationResult, errorType: string): string {
  const size = 320;
  const pad = 40;
  const inner = size - 2 * pad;
  const x = (fpr: number) => (pad + fpr * inner).toFixed(1);
  const y = (tpr: number) => (size - pad - tpr * inner).toFixed(1);
  const curves = result.curves.filter((c) => c.errorType === errorType);
  const lines = curves
    .map((c, k) => {
      const color = PALETTE[k % PALETTE.length];
      const pts = c.points.map((p) => `${x(p.fpr)},${y(p.tpr)}`).join(" ");
      return `<polyline class="roc-line" data-detector="${escapeHtml(c.detector)}" fill="none" stroke="${color}" stroke-width="2" points="${pts}"/>
<text x="${pad + 10}" y="${pad + 16 + 16 * k}" fill="${color}" font-size="12">${escapeHtml(c.detector)} AUC ${c.auc.toFixed(3)}</text>`;
    })
    .join("\n");
  const ticks = [0, 0.25, 0.5, 0.75, 1]
    .map(
      (t) =>
        `<text x="${x(t)}" y="${size - pad + 14}" font-size="10" text-anchor="middle">${t}</text><text x="${pad - 6}" y="${Number(y(t)) + 3}" font-size="10" text-anchor="end">${t}</text>`,
    )
    .join("");
  return `<figure><svg class="roc" data-error-type="${errorType}" xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}" role="img" aria-label="ROC curves for ${errorType}">
<rect x="${pad}" y="${pad}" width="${inner}" height="${inner}" fill="#fafafa" stroke="#999"/>
<line x1="${x(0)}" y1="${y(0)}" x2="${x(1)}" y2="${y(1)}" stroke="#bbb" stroke-dasharray="4 4"/>
${ticks}
<text x="${size / 2}" y="${size - 6}" font-size="11" text-anchor="middle">false-positive rate</text>
<text x="12" y="${size / 2}" font-size="11" text-anchor="middle" transform="rotate(-90 12 ${size / 2})">true-positive rate</text>
${lines}
</svg><figcaption>ROC curves, ${escapeHtml(errorType)} (all slices pooled)</figcaption></figure>`;
}

/** A self-contained HTML report: AUC tables, ROC curves (inline SVG) and chosen thresholds. */
export function renderReport(result: EvaluationResult, options: { title?: string; notes?: string } = {}): string {
  const title = options.title ?? "npov evaluation";
  const example = resultGrid(result, "example");
  const word = resultGrid(result, "word");
  const thresholdRows = result.thresholds.map((t) => [
    `${t.detector} / ${t.errorType}`,
    t.rule,
    t.metrics.threshold.toFixed(4),
    t.metrics.precision.toFixed(3),
    t.metrics.recall.toFixed(3),
    t.metrics.f1.toFixed(3),
    t.metrics.fpr.toFixed(3),
    `${t.metrics.tp}/${t.metrics.fp}/${t.metrics.tn}/${t.metrics.fn}`,
  ]);
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>
body{font-family:system-ui,sans-serif;margin:2rem;color:#222}
table{border-collapse:collapse;margin:1rem 0}th,td{border:1px solid #ccc;padding:4px 8px;text-align:right}
th[scope=row]{text-align:left}caption{font-weight:600;text-align:left;padding:4px 0}
.curves{display:flex;flex-wrap:wrap;gap:2rem}figure{margin:0}
</style></head><body>
<h1>${escapeHtml(title)}</h1>
${options.notes === undefined ? "" : `<p>${escapeHtml(options.notes)}</p>`}
<h2>Example-level ROC AUC</h2>
${htmlTable(example.header, example.rows, "rows: slices; columns: detector x error type; AUC (n)", "auc-example")}
${word.rows.length > 0 ? `<h2>Word-level ROC AUC</h2>\n${htmlTable(word.header, word.rows, "hallucinated response words / uncovered argument words", "auc-word")}` : ""}
<h2>ROC curves</h2>
<div class="curves">${ERROR_TYPES.map((t) => rocSvg(result, t)).join("\n")}</div>
<h2>Thresholds</h2>
${htmlTable(["detector / error", "rule", "threshold", "precision", "recall", "F1", "FPR", "TP/FP/TN/FN"], thresholdRows, "predict an error when score >= threshold", "thresholds")}
</body></html>
`;
}
