/**
 * Argument checks shared by the metrics (checkBinary, requireBothClasses: defined in @npov/core) and the
 * checks of detector outputs, datasets and evaluation results at this package's public boundaries.
 */
import {
  type CheckInput,
  type ErrorDetector,
  type ErrorScores,
  InvalidScoreError,
  InvalidValueError,
  NotTextError,
  type NpovExample,
  requireArray,
  requireNumber,
  requireRecord,
} from "@npov/core";

export { checkBinary, requireBothClasses } from "@npov/core";

const isScore = (x: unknown): x is number => typeof x === "number" && Number.isFinite(x) && x >= 0 && x <= 1;

/** Check detectors: objects with a unique non-empty `name` and a `detect` function. @throws InvalidValueError */
export function checkDetectors(value: unknown, path = "detectors"): readonly ErrorDetector[] {
  const names = new Set<string>();
  requireArray(value, path, "an array of detectors").forEach((d, i) => {
    const x = requireRecord(d, `${path}[${i}]`, "a detector {name, detect}");
    if (typeof x.name !== "string" || x.name.trim().length === 0)
      throw new InvalidValueError(`${path}[${i}].name`, "must be a non-empty string.");
    if (typeof x.detect !== "function") throw new InvalidValueError(`${path}[${i}].detect`, "must be a function.");
    if (names.has(x.name)) throw new InvalidValueError(`${path}[${i}].name`, `duplicate detector name "${x.name}".`);
    names.add(x.name);
  });
  return value as readonly ErrorDetector[];
}

/**
 * Check what a detector returned: example scores finite in [0, 1], word-map scores finite.
 * @throws InvalidScoreError naming the detector and the field
 */
export function checkScores(detector: string, value: unknown): ErrorScores {
  if (typeof value !== "object" || value === null) throw new InvalidScoreError(detector, "result", value);
  const r = value as Partial<ErrorScores>;
  for (const field of ["hallucination", "coverage"] as const)
    if (!isScore(r[field])) throw new InvalidScoreError(detector, field, r[field]);
  if (r.words !== undefined) {
    const words = r.words as unknown as Record<string, unknown>;
    for (const side of ["response", "arguments"]) {
      const list = words?.[side];
      if (!Array.isArray(list)) throw new InvalidScoreError(detector, `words.${side}`, list);
      list.forEach((w: { score?: unknown; start?: unknown; end?: unknown }, i) => {
        if (typeof w !== "object" || w === null || typeof w.score !== "number" || !Number.isFinite(w.score))
          throw new InvalidScoreError(detector, `words.${side}[${i}].score`, w?.score);
        if (!Number.isInteger(w.start) || !Number.isInteger(w.end))
          throw new InvalidScoreError(detector, `words.${side}[${i}].start/end`, w.start);
      });
    }
  }
  return value as ErrorScores;
}

function checkSpans(value: unknown, path: string): void {
  requireArray(value, path, "an array of {start, end} spans").forEach((s, i) => {
    const x = requireRecord(s, `${path}[${i}]`, "a span {start, end}");
    requireNumber(x.start, `${path}[${i}].start`, { min: 0, integer: true });
    requireNumber(x.end, `${path}[${i}].end`, { min: 0, integer: true });
  });
}

/**
 * Check the fields of labelled examples that evaluation reads (slice, id, labels, word labels); the input and
 * response are checked by each detector. @throws InvalidValueError naming the example and field
 */
export function checkDataset(value: unknown, path = "dataset"): readonly NpovExample<CheckInput>[] {
  requireArray(value, path, "an array of examples").forEach((e, i) => {
    const at = `${path}[${i}]`;
    const x = requireRecord(e, at, "an example {input, response, labels?}");
    if (x.slice !== undefined && (typeof x.slice !== "string" || x.slice.trim().length === 0))
      throw new InvalidValueError(`${at}.slice`, "must be a non-empty string.");
    if (x.id !== undefined && typeof x.id !== "string" && !(typeof x.id === "number" && Number.isFinite(x.id)))
      throw new NotTextError(`${at}.id`, x.id);
    if (x.labels !== undefined) {
      const labels = requireRecord(x.labels, `${at}.labels`, "an object of true/false labels");
      for (const key of ["hallucination", "coverage"])
        if (labels[key] !== undefined && typeof labels[key] !== "boolean")
          throw new InvalidValueError(`${at}.labels.${key}`, "must be true or false.");
    }
    if (x.wordLabels !== undefined) {
      const w = requireRecord(x.wordLabels, `${at}.wordLabels`, "{hallucinatedSpans?, uncoveredArguments?}");
      if (w.hallucinatedSpans !== undefined) checkSpans(w.hallucinatedSpans, `${at}.wordLabels.hallucinatedSpans`);
      if (w.uncoveredArguments !== undefined)
        requireArray(w.uncoveredArguments, `${at}.wordLabels.uncoveredArguments`).forEach((pair, j) => {
          const p = requireArray(
            pair,
            `${at}.wordLabels.uncoveredArguments[${j}]`,
            "a pair [perspective, argument] (or [source, unit])",
          );
          if (p.length !== 2 || !p.every((n) => Number.isInteger(n) && (n as number) >= 0))
            throw new InvalidValueError(
              `${at}.wordLabels.uncoveredArguments[${j}]`,
              "must be [perspective, argument] (or [source, unit]) indices.",
            );
        });
    }
  });
  return value as readonly NpovExample<CheckInput>[];
}

const text = (value: unknown, path: string): void => {
  if (typeof value !== "string") throw new NotTextError(path, value);
};
const optionalUnit = (value: unknown, path: string): void => {
  if (value !== null) requireNumber(value, path, { min: 0, max: 1 });
};

/** Check one result row (as evaluate returns it). @throws InvalidValueError */
export function checkRow(value: unknown, path: string): void {
  const r = requireRecord(value, path, "an evaluation row");
  for (const key of ["slice", "detector", "errorType"]) text(r[key], `${path}.${key}`);
  if (r.level !== "example" && r.level !== "word")
    throw new InvalidValueError(`${path}.level`, 'must be "example" or "word".');
  optionalUnit(r.auc, `${path}.auc`);
  for (const key of ["n", "positives", "negatives"]) requireNumber(r[key], `${path}.${key}`, { min: 0, integer: true });
  if (r.ci !== undefined) {
    const ci = requireRecord(r.ci, `${path}.ci`, "{low, high, level}");
    requireNumber(ci.low, `${path}.ci.low`, { min: 0, max: 1 });
    requireNumber(ci.high, `${path}.ci.high`, { min: 0, max: 1 });
    requireNumber(ci.level, `${path}.ci.level`, { min: 0, max: 1 });
  }
}

function checkCurves(value: unknown, path: string): void {
  requireArray(value, path, "an array of ROC curves").forEach((c, i) => {
    const at = `${path}[${i}]`;
    const x = requireRecord(c, at, "a ROC curve");
    for (const key of ["slice", "detector", "errorType"]) text(x[key], `${at}.${key}`);
    requireNumber(x.auc, `${at}.auc`, { min: 0, max: 1 });
    requireArray(x.points, `${at}.points`).forEach((p, j) => {
      const pt = requireRecord(p, `${at}.points[${j}]`, "a ROC point {threshold, fpr, tpr}");
      requireNumber(pt.fpr, `${at}.points[${j}].fpr`, { min: 0, max: 1 });
      requireNumber(pt.tpr, `${at}.points[${j}].tpr`, { min: 0, max: 1 });
    });
  });
}

/**
 * Check an evaluation result (as evaluate returns it) before a report reads it.
 * @throws InvalidValueError naming the first bad field
 */
export function checkEvaluationResult(value: unknown): void {
  const r = requireRecord(value, "result", "an evaluation result (evaluate)");
  for (const key of ["slices", "detectors"])
    requireArray(r[key], `result.${key}`).forEach((s, i) => {
      text(s, `result.${key}[${i}]`);
    });
  requireArray(r.rows, "result.rows").forEach((row, i) => {
    checkRow(row, `result.rows[${i}]`);
  });
  checkCurves(r.curves, "result.curves");
  checkCurves(r.sliceCurves, "result.sliceCurves");
  requireArray(r.thresholds, "result.thresholds").forEach((t, i) => {
    const at = `result.thresholds[${i}]`;
    const x = requireRecord(t, at, "a threshold result");
    for (const key of ["detector", "errorType", "rule"]) text(x[key], `${at}.${key}`);
    const m = requireRecord(x.metrics, `${at}.metrics`, "threshold metrics");
    requireNumber(m.threshold, `${at}.metrics.threshold`);
    for (const key of ["precision", "recall", "f1", "fpr"])
      requireNumber(m[key], `${at}.metrics.${key}`, { min: 0, max: 1 });
    for (const key of ["tp", "fp", "tn", "fn"])
      requireNumber(m[key], `${at}.metrics.${key}`, { min: 0, integer: true });
  });
}

/** Check an agreement report (formatAgreement, renderReport). @throws InvalidValueError */
export function checkAgreement(value: unknown, path = "agreement"): void {
  const a = requireRecord(value, path, "an agreement report {alpha, annotators?}");
  requireArray(a.alpha, `${path}.alpha`).forEach((r, i) => {
    const at = `${path}.alpha[${i}]`;
    const x = requireRecord(r, at, "{errorType, level?, alpha, units, ratings}");
    text(x.errorType, `${at}.errorType`);
    if (x.level !== undefined) text(x.level, `${at}.level`);
    if (x.alpha !== null) requireNumber(x.alpha, `${at}.alpha`, { min: -1e6, max: 1 });
    requireNumber(x.units, `${at}.units`, { min: 0, integer: true });
    requireNumber(x.ratings, `${at}.ratings`, { min: 0, integer: true });
  });
  if (a.annotators !== undefined)
    requireArray(a.annotators, `${path}.annotators`).forEach((r, i) => {
      const at = `${path}.annotators[${i}]`;
      const x = requireRecord(r, at, "{annotator, agreement, units}");
      text(x.annotator, `${at}.annotator`);
      if (x.agreement !== null) requireNumber(x.agreement, `${at}.agreement`, { min: -1e6, max: 1 });
      requireNumber(x.units, `${at}.units`, { min: 0, integer: true });
    });
}
