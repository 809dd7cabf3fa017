/**
 * Presenting an {@link EvaluationResult}: a Table 1 style text table and a self-contained HTML report
 * (run metadata, AUC tables and a forest plot with bootstrap intervals, pooled and per-slice ROC curves,
 * thresholds) that reads on a phone (420 px) and a desktop (1280 px): plots scale with the page, wide
 * tables scroll inside their own box, legends sit outside the plot area so they never hide a curve.
 */
import { InvalidValueError, maxOf, NotTextError, requireArray, requireRecord, truncateText } from "@npov/core";
import { checkAgreement, checkEvaluationResult, checkRow } from "./checks.js";
import { ERROR_TYPES, type EvaluationResult, type EvaluationRow, type RocCurveResult } from "./evaluate.js";

function checkLevel(level: unknown): void {
  if (level !== "example" && level !== "word") throw new InvalidValueError("level", 'must be "example" or "word".');
}

function find(result: EvaluationResult, level: "example" | "word", slice: string, detector: string, errorType: string) {
  return result.rows.find(
    (r) => r.level === level && r.slice === slice && r.detector === detector && r.errorType === errorType,
  );
}

/** "0.812 [0.780, 0.840] (n=120)": the AUC, its bootstrap interval when computed, and the sample size. */
export function formatAucCell(r: EvaluationRow | undefined): string {
  if (r === undefined) return "-";
  checkRow(r, "row");
  if (r.auc === null) return `n/a (n=${r.n})`;
  const ci = r.ci === undefined ? "" : ` [${r.ci.low.toFixed(3)}, ${r.ci.high.toFixed(3)}]`;
  return `${r.auc.toFixed(3)}${ci} (n=${r.n})`;
}

/** The header and rows of a Table 1 style grid: rows = slices, columns = error type x detector. */
export function resultGrid(
  result: EvaluationResult,
  level: "example" | "word" = "example",
): { header: string[]; rows: string[][] } {
  checkEvaluationResult(result);
  checkLevel(level);
  const header = ["slice"];
  for (const errorType of ERROR_TYPES)
    for (const d of result.detectors) header.push(`${d} ${errorType === "hallucination" ? "hall" : "cov"}`);
  const rows = result.slices
    .filter((s) => result.rows.some((r) => r.level === level && r.slice === s))
    .map((slice) => [
      slice,
      ...ERROR_TYPES.flatMap((t) => result.detectors.map((d) => formatAucCell(find(result, level, slice, d, t)))),
    ]);
  return { header, rows };
}

/** Plain-text table (aligned columns) of example- or word-level AUCs, with intervals where computed. */
export function formatResultTable(result: EvaluationResult, level: "example" | "word" = "example"): string {
  const { header, rows } = resultGrid(result, level);
  if (rows.length === 0) return "";
  const widths = header.map((h, k) =>
    maxOf(
      rows.map((r) => (r[k] ?? "").length),
      h.length,
    ),
  );
  const line = (cells: string[]) =>
    cells.map((c, k) => (k === 0 ? c.padEnd(widths[k] ?? 0) : c.padStart(widths[k] ?? 0))).join("  ");
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}

const escapeHtml = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
/** Colour-blind-safe palette (Okabe-Ito), one colour per detector in `result.detectors` order. */
const PALETTE = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442"];
const colorOf = (result: EvaluationResult, detector: string) =>
  PALETTE[Math.max(0, result.detectors.indexOf(detector)) % PALETTE.length] as string;

/** A table in a box that scrolls sideways on narrow screens; the caption sits outside so it always wraps. */
function tableHtml(cls: string, caption: string, head: string, body: string): string {
  return `<p class="caption">${escapeHtml(caption)}</p><div class="table-wrap"><table class="${cls}" aria-label="${escapeHtml(caption)}"><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table></div>`;
}

function htmlTable(header: string[], rows: string[][], caption: string, cls: string): string {
  const head = header.map((h) => `<th scope="col">${escapeHtml(h)}</th>`).join("");
  const body = rows
    .map(
      (r) =>
        `<tr>${r.map((c, k) => (k === 0 ? `<th scope="row">${escapeHtml(c)}</th>` : `<td>${escapeHtml(c)}</td>`)).join("")}</tr>`,
    )
    .join("\n");
  return tableHtml(cls, caption, head, body);
}

/** AUC table cells: the AUC on the first line, the interval and n in small print below. */
function aucTable(result: EvaluationResult, level: "example" | "word", caption: string, cls: string): string {
  const { header } = resultGrid(result, level);
  const slices = result.slices.filter((s) => result.rows.some((r) => r.level === level && r.slice === s));
  const body = slices
    .map((slice) => {
      const cells = ERROR_TYPES.flatMap((t) =>
        result.detectors.map((d) => {
          const r = find(result, level, slice, d, t);
          if (r === undefined) return "<td>-</td>";
          if (r.auc === null) return `<td>n/a<small>n=${r.n}</small></td>`;
          const ci = r.ci === undefined ? "" : `[${r.ci.low.toFixed(3)}, ${r.ci.high.toFixed(3)}] `;
          return `<td data-auc="${r.auc.toFixed(6)}">${r.auc.toFixed(3)}<small>${ci}n=${r.n}</small></td>`;
        }),
      );
      return `<tr><th scope="row">${escapeHtml(slice)}</th>${cells.join("")}</tr>`;
    })
    .join("\n");
  const head = header.map((h) => `<th scope="col">${escapeHtml(h)}</th>`).join("");
  return tableHtml(cls, caption, head, body);
}

/** One SVG ROC plot: a polyline per curve, the chance diagonal dashed; scales with its container. */
function rocSvg(result: EvaluationResult, curves: readonly RocCurveResult[], label: string, cls: string): string {
  const size = 320;
  const pad = 40;
  const inner = size - 2 * pad;
  const x = (fpr: number) => (pad + fpr * inner).toFixed(1);
  const y = (tpr: number) => (size - pad - tpr * inner).toFixed(1);
  const lines = curves
    .map((c) => {
      const pts = c.points.map((p) => `${x(p.fpr)},${y(p.tpr)}`).join(" ");
      return `<polyline class="roc-line" data-detector="${escapeHtml(c.detector)}" fill="none" stroke="${colorOf(result, c.detector)}" stroke-width="2" points="${pts}"/>`;
    })
    .join("\n");
  const ticks = [0, 0.25, 0.5, 0.75, 1]
    .map(
      (t) =>
        `<text x="${x(t)}" y="${size - pad + 14}" font-size="10" text-anchor="middle">${t}</text><text x="${pad - 6}" y="${Number(y(t)) + 3}" font-size="10" text-anchor="end">${t}</text>`,
    )
    .join("");
  return `<svg class="${cls}" data-error-type="${escapeHtml(curves[0]?.errorType ?? "")}" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${size} ${size}" role="img" aria-label="${escapeHtml(label)}">
<rect x="${pad}" y="${pad}" width="${inner}" height="${inner}" fill="#fafafa" stroke="#999"/>
<line x1="${x(0)}" y1="${y(0)}" x2="${x(1)}" y2="${y(1)}" stroke="#bbb" stroke-dasharray="4 4"/>
${ticks}
<text x="${size / 2}" y="${size - 6}" font-size="11" text-anchor="middle">false-positive rate</text>
<text x="12" y="${size / 2}" font-size="11" text-anchor="middle" transform="rotate(-90 12 ${size / 2})">true-positive rate</text>
${lines}
</svg>`;
}

/** The legend of a ROC plot, as HTML below it: colour, detector, AUC and its interval (from the rows). */
function legend(result: EvaluationResult, curves: readonly RocCurveResult[]): string {
  const items = curves.map((c) => {
    const row = find(result, "example", c.slice, c.detector, c.errorType);
    const ci = row?.ci === undefined ? "" : ` [${row.ci.low.toFixed(3)}, ${row.ci.high.toFixed(3)}]`;
    return `<li><span class="swatch" style="background:${colorOf(result, c.detector)}"></span>${escapeHtml(c.detector)} AUC ${c.auc.toFixed(3)}${ci}</li>`;
  });
  return `<ul class="legend">${items.join("")}</ul>`;
}

/** The colour of each detector (forest plots). */
function detectorLegend(result: EvaluationResult): string {
  return `<ul class="legend">${result.detectors.map((d) => `<li><span class="swatch" style="background:${colorOf(result, d)}"></span>${escapeHtml(d)}</li>`).join("")}</ul>`;
}

function rocFigure(result: EvaluationResult, curves: readonly RocCurveResult[], caption: string, cls: string) {
  return `<figure class="roc-figure">${rocSvg(result, curves, caption, cls)}${legend(result, curves)}<figcaption>${escapeHtml(caption)}</figcaption></figure>`;
}

/**
 * A forest plot of example-level AUCs: one row per slice x detector, a dot at the AUC and a whisker over
 * its bootstrap interval, chance (0.5) dashed.
 */
function forestSvg(result: EvaluationResult, errorType: string): string {
  const rows = result.slices.flatMap((slice) =>
    result.detectors.flatMap((d) => {
      const r = find(result, "example", slice, d, errorType);
      return r === undefined || r.auc === null ? [] : [{ slice, detector: d, row: r, auc: r.auc }];
    }),
  );
  const width = 360;
  const left = 12;
  const right = 16;
  const rowH = 16;
  const top = 22;
  const inner = width - left - right;
  const x = (v: number) => (left + v * inner).toFixed(1);
  const parts: string[] = [];
  let y = top;
  let previous = "";
  for (const { slice, detector, row, auc } of rows) {
    if (slice !== previous) {
      parts.push(
        `<text x="${left}" y="${y + 2}" font-size="10" fill="#555"><title>${escapeHtml(slice)}</title>${escapeHtml(truncateText(slice, 62))}</text>`,
        `<line x1="${left}" x2="${width - right}" y1="${y - 10}" y2="${y - 10}" stroke="#eee"/>`,
      );
      y += 12;
      previous = slice;
    }
    const color = colorOf(result, detector);
    const cy = y;
    if (row.ci !== undefined)
      parts.push(
        `<line class="ci" data-detector="${escapeHtml(detector)}" x1="${x(row.ci.low)}" x2="${x(row.ci.high)}" y1="${cy}" y2="${cy}" stroke="${color}" stroke-width="2"/>`,
      );
    parts.push(
      `<circle class="auc-dot" data-detector="${escapeHtml(detector)}" cx="${x(auc)}" cy="${cy}" r="4" fill="${color}"><title>${escapeHtml(`${slice} / ${detector}: ${formatAucCell(row)}`)}</title></circle>`,
    );
    y += rowH;
  }
  const total = y + 30; // room below the axis title's baseline for its descenders
  const ticks = [0, 0.25, 0.5, 0.75, 1]
    .map(
      (t) =>
        `<line x1="${x(t)}" x2="${x(t)}" y1="${top - 12}" y2="${y}" stroke="${t === 0.5 ? "#999" : "#eee"}" ${t === 0.5 ? 'stroke-dasharray="4 4"' : ""}/><text x="${x(t)}" y="${y + 12}" font-size="10" text-anchor="middle">${t}</text>`,
    )
    .join("");
  return `<svg class="forest" data-error-type="${errorType}" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${total}" role="img" aria-label="ROC AUC with bootstrap intervals, ${errorType}">
${ticks}
<text x="${width / 2}" y="${y + 24}" font-size="11" text-anchor="middle">ROC AUC (dashed: chance)</text>
${parts.join("\n")}
</svg>`;
}

/**
 * Human agreement on the dataset's labels (the agreement report `npov annotate export` writes): shown
 * beside the detectors' AUCs so a reader can tell how well-defined the labels are.
 */
export interface ReportAgreement {
  /** Krippendorff's alpha per error type (null when undefined); `level` says what a unit is. */
  alpha: ReadonlyArray<{ errorType: string; level?: string; alpha: number | null; units: number; ratings: number }>;
  /** Each annotator's agreement with the majority of the others. */
  annotators?: ReadonlyArray<{ annotator: string; agreement: number | null; units: number }>;
}

/**
 * What an undefined alpha (null in an agreement report, "undefined" in text and HTML) means: shown under
 * the numbers whenever one is undefined.
 */
export const UNDEFINED_ALPHA_NOTE =
  'undefined: fewer than two pairable ratings, or every rating the same (e.g. every annotator answered "no": alpha is 0/0, not perfect agreement).';

/** An agreement value as text and HTML show it: 3 decimals, or "undefined". */
const agreementValue = (x: number | null) => (x === null ? "undefined" : x.toFixed(3));

/**
 * Plain-text lines of an agreement report, e.g. "hallucination (example): alpha 0.600 (120 units, 600
 * ratings)", and {@link UNDEFINED_ALPHA_NOTE} when a value is undefined.
 */
export function formatAgreement(agreement: ReportAgreement): string {
  checkAgreement(agreement);
  const alpha = agreementValue;
  const lines = agreement.alpha.map(
    (r) =>
      `${r.errorType}${r.level === undefined ? "" : ` (${r.level})`}: alpha ${alpha(r.alpha)} (${r.units} units, ${r.ratings} ratings)`,
  );
  for (const a of agreement.annotators ?? [])
    lines.push(`${a.annotator}: agreement with the others' majority ${alpha(a.agreement)} (${a.units} labels)`);
  if (hasUndefinedAlpha(agreement)) lines.push(`(${UNDEFINED_ALPHA_NOTE})`);
  return lines.join("\n");
}

function hasUndefinedAlpha(agreement: ReportAgreement): boolean {
  return (
    agreement.alpha.some((r) => r.alpha === null) || (agreement.annotators ?? []).some((a) => a.agreement === null)
  );
}

/** Options of {@link renderReport}. */
export interface ReportOptions {
  title?: string;
  notes?: string;
  /** Run metadata shown under the title, in order: e.g. `[["command", "npov eval ..."], ["date", "..."]]`. */
  metadata?: ReadonlyArray<readonly [string, string]>;
  /** Annotator agreement on the labels, shown as its own section. */
  agreement?: ReportAgreement;
  /**
   * Caveats shown at the top of the page, e.g. that a model a method used is not usable for it (its card's
   * verdict): a report read without the terminal that made it must still say so.
   */
  warnings?: readonly string[];
}

/**
 * What the marks in an AUC table mean, one line each, for the marks the table holds: "-" (no score at
 * this level: the detector gives no word scores, or scored nothing here) and "n/a" (AUC undefined: one class).
 */
export function aucTableNotes(result: EvaluationResult, level: "example" | "word" = "example"): string[] {
  checkEvaluationResult(result);
  checkLevel(level);
  const slices = result.slices.filter((s) => result.rows.some((r) => r.level === level && r.slice === s));
  const notes: string[] = [];
  const missing = result.detectors.filter((d) =>
    slices.some((s) => ERROR_TYPES.some((t) => find(result, level, s, d, t) === undefined)),
  );
  if (missing.length > 0) {
    const none = missing.filter((d) => !result.rows.some((r) => r.level === level && r.detector === d));
    notes.push(
      level === "word" && none.length === missing.length
        ? `-: no word-level scores: ${none.join(", ")} ${none.length === 1 ? "gives" : "give"} none (only detectors with word maps are scored per word).`
        : `-: not computed: ${missing.join(", ")} gave no ${level}-level scores with labels for that slice and error type.`,
    );
  }
  if (result.rows.some((r) => r.level === level && r.auc === null))
    notes.push(
      `n/a: AUC undefined: every ${level === "word" ? "word" : "example"} of that slice is labelled the same (all with or all without the error), so there is nothing to rank.`,
    );
  return notes;
}

/** {@link aucTableNotes} as HTML, under the table. */
function aucNotesHtml(result: EvaluationResult, level: "example" | "word"): string {
  const notes = aucTableNotes(result, level);
  return notes.length === 0
    ? ""
    : `\n<ul class="notes" id="notes-${level}">${notes.map((n) => `<li>${escapeHtml(n)}</li>`).join("")}</ul>`;
}

/** The agreement section: alpha per error type, then each annotator's agreement with the others. */
function agreementHtml(agreement: ReportAgreement): string {
  const alpha = agreementValue;
  const rows = agreement.alpha.map((r) => [
    r.errorType,
    r.level ?? "",
    alpha(r.alpha),
    String(r.units),
    String(r.ratings),
  ]);
  const people = (agreement.annotators ?? []).map((a) => [a.annotator, alpha(a.agreement), String(a.units)]);
  return `<h2>Annotator agreement</h2>
${htmlTable(["error type", "unit", "Krippendorff's alpha", "units", "ratings"], rows, "nominal alpha over the annotators' labels", "agreement-alpha")}
${people.length === 0 ? "" : htmlTable(["annotator", "agreement", "labels"], people, "each annotator against the majority of the others", "agreement-annotators")}${hasUndefinedAlpha(agreement) ? `\n<p class="note" id="agreement-undefined">${escapeHtml(UNDEFINED_ALPHA_NOTE)}</p>` : ""}`;
}

/**
 * A self-contained HTML report: run metadata, AUC tables and forest plots with bootstrap intervals,
 * pooled and per-slice ROC curves (inline SVG, legends outside the plots) and chosen thresholds.
 * @throws InvalidValueError / NotTextError for a malformed result or option
 */
export function renderReport(result: EvaluationResult, options: ReportOptions = {}): string {
  checkEvaluationResult(result);
  requireRecord(options, "options", "an object of report options");
  for (const key of ["title", "notes"] as const)
    if (options[key] !== undefined && typeof options[key] !== "string")
      throw new NotTextError(`options.${key}`, options[key]);
  if (options.metadata !== undefined)
    requireArray(options.metadata, "options.metadata", "an array of [name, value] pairs").forEach((m, i) => {
      if (!Array.isArray(m) || m.length !== 2 || typeof m[0] !== "string" || typeof m[1] !== "string")
        throw new InvalidValueError(`options.metadata[${i}]`, "must be a [name, value] pair of strings.");
    });
  if (options.agreement !== undefined) checkAgreement(options.agreement, "options.agreement");
  const warnings = options.warnings ?? [];
  requireArray(warnings, "options.warnings", "an array of warnings").forEach((w, i) => {
    if (typeof w !== "string") throw new NotTextError(`options.warnings[${i}]`, w);
  });
  const title = options.title ?? "npov evaluation";
  const word = resultGrid(result, "word");
  const hasCi = result.rows.some((r) => r.ci !== undefined);
  const level = result.rows.find((r) => r.ci !== undefined)?.ci?.level ?? 0.95;
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
  const metadata = options.metadata ?? [];
  const meta =
    metadata.length === 0
      ? ""
      : `<dl class="meta">${metadata.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`).join("")}</dl>`;
  const pooled = ERROR_TYPES.map((t) =>
    rocFigure(
      result,
      result.curves.filter((c) => c.errorType === t),
      `${t}, all slices pooled`,
      "roc",
    ),
  ).join("\n");
  // One row per slice: its hallucination and coverage plots side by side (stacked on a phone), so a
  // slice's pair never splits across the grid's rows.
  const slices = [...new Set(result.sliceCurves.map((c) => c.slice))];
  const perSlice = slices
    .map((s) => {
      const figures = ERROR_TYPES.map((t) => {
        const curves = result.sliceCurves.filter((c) => c.slice === s && c.errorType === t);
        return curves.length === 0
          ? `<p class="no-curve">${escapeHtml(t)}: no curve (every example of the slice is labelled the same)</p>`
          : rocFigure(result, curves, `${t}, ${s}`, "roc-slice");
      });
      return `<section class="slice-plots" data-slice="${escapeHtml(s)}"><h3>${escapeHtml(s)}</h3><div class="pair">${figures.join("\n")}</div></section>`;
    })
    .join("\n");
  const ciNote = hasCi
    ? `brackets: ${Math.round(level * 100)}% percentile bootstrap interval`
    : "no bootstrap intervals computed";
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:"><title>${escapeHtml(title)}</title>
<style>
*{box-sizing:border-box}
body{font-family:system-ui,sans-serif;margin:0 auto;padding:1rem;max-width:1200px;color:#222;line-height:1.4}
h1{font-size:1.4rem;overflow-wrap:anywhere}h2{font-size:1.15rem;margin-top:1.6rem}
.meta{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;font-size:.85rem;margin:.5rem 0}
.meta dt{font-weight:600}.meta dd{margin:0;overflow-wrap:anywhere;font-family:ui-monospace,monospace}
.table-wrap{max-width:100%;overflow-x:auto}
table{border-collapse:collapse;margin:.5rem 0;font-size:.85rem}th,td{border:1px solid #ccc;padding:3px 6px;text-align:right;vertical-align:top}
th[scope=row]{text-align:left;white-space:nowrap}.caption{font-weight:600;margin:.6rem 0 .2rem;font-size:.9rem}
td small{display:block;color:#666;font-size:.75rem;white-space:nowrap}
.plots{display:grid;grid-template-columns:repeat(auto-fill,minmax(min(100%,300px),1fr));gap:1rem}
figure{margin:0;min-width:0}svg{display:block;width:100%;height:auto;max-width:420px}
.legend{list-style:none;padding:0;margin:.3rem 0;font-size:.8rem}.legend li{margin:1px 0}
.swatch{display:inline-block;width:.9em;height:.9em;margin-right:.4em;vertical-align:-.1em;border-radius:2px}
figcaption{font-size:.8rem;color:#555}
.slice-plots h3{font-size:1rem;margin:1rem 0 .3rem}.pair{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,300px),420px));gap:1rem}
.no-curve{font-size:.85rem;color:#555}.notes{font-size:.8rem;color:#444;margin:.2rem 0 .8rem;padding-left:1.2rem}.note{font-size:.85rem;color:#444}
.warning{border:2px solid #b35900;background:#fff4e5;color:#5c2e00;padding:.5rem .75rem;border-radius:4px}
</style></head><body>
<h1>${escapeHtml(title)}</h1>
${warnings.map((w) => `<p class="warning" role="alert"><b>Warning:</b> ${escapeHtml(w)}</p>`).join("\n")}
${meta}
${options.notes === undefined ? "" : `<p>${escapeHtml(options.notes)}</p>`}
<h2>Example-level ROC AUC</h2>
${aucTable(result, "example", `rows: slices; columns: detector x error type; AUC, ${ciNote}, n examples`, "auc-example")}${aucNotesHtml(result, "example")}
<div class="plots">${ERROR_TYPES.map((t) => `<figure class="forest-figure">${forestSvg(result, t)}${detectorLegend(result)}<figcaption>ROC AUC with intervals, ${escapeHtml(t)}</figcaption></figure>`).join("\n")}</div>
${word.rows.length > 0 ? `<h2>Word-level ROC AUC</h2>\n${aucTable(result, "word", "hallucinated response words / uncovered argument words; n words", "auc-word")}${aucNotesHtml(result, "word")}` : ""}
<h2>ROC curves</h2>
<div class="plots">${pooled}</div>
${perSlice === "" ? "" : `<h2>ROC curves per slice</h2>\n${perSlice}`}
${options.agreement === undefined ? "" : agreementHtml(options.agreement)}
<h2>Thresholds</h2>
${htmlTable(["detector / error", "rule", "threshold", "precision", "recall", "F1", "FPR", "TP/FP/TN/FN"], thresholdRows, "predict an error when score >= threshold (chosen on all slices pooled)", "thresholds")}
</body></html>
`;
}
