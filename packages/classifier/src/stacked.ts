/**
 * A stacked classifier: logistic regression (ml-matrix) over numeric features of other detectors (ROUGE
 * precision and recalls, salience statistics, YES/NO probabilities), one model per error type, trained
 * on labelled (synthetic) examples and saved as a small JSON file.
 */
import {
  type CheckInput,
  checkLogisticModel,
  describe,
  type ErrorDetector,
  type ErrorScores,
  FileFormatError,
  InvalidScoreError,
  InvalidValueError,
  type LogisticModel,
  logisticProbability,
  NotTextError,
  type NpovExample,
  readTextFile,
  requireArray,
  requireNumber,
  requireRecord,
  sigmoid,
  writeFileAtomic,
} from "@npov/core";
import { Matrix } from "ml-matrix";

/** One trained logistic model (the form shared with the support combiner). */
export type { LogisticModel };

export interface StackedModel {
  format: "npov-stacked/1";
  hallucination: LogisticModel;
  coverage: LogisticModel;
}

/**
 * Fit logistic regression by full-batch gradient descent on standardized features with L2 penalty `l2`
 * (default 1e-3), `iterations` steps (default 2000) of size `lr` (default 0.5). Deterministic.
 */
export function fitLogistic(
  rows: number[][],
  labels: boolean[],
  features: string[],
  options: { l2?: number; iterations?: number; lr?: number } = {},
): LogisticModel {
  requireArray(features, "features", "an array of feature names").forEach((f, j) => {
    if (typeof f !== "string") throw new NotTextError(`features[${j}]`, f);
  });
  requireArray(rows, "rows", "an array of feature rows (arrays of numbers)").forEach((r, i) => {
    const row = requireArray(r, `rows[${i}]`, "an array of numbers");
    if (row.length !== features.length)
      throw new InvalidValueError(`rows[${i}]`, `has ${row.length} values for ${features.length} features.`);
    row.forEach((x, j) => {
      requireNumber(x, `rows[${i}][${j}]`);
    });
  });
  requireArray(labels, "labels", "an array of booleans").forEach((l, i) => {
    if (typeof l !== "boolean")
      throw new InvalidValueError(`labels[${i}]`, `must be true or false, got ${describe(l)}.`);
  });
  requireRecord(options, "options", "an object {l2?, iterations?, lr?}");
  if (options.l2 !== undefined) requireNumber(options.l2, "options.l2", { min: 0 });
  if (options.iterations !== undefined)
    requireNumber(options.iterations, "options.iterations", { min: 1, max: 1_000_000, integer: true });
  if (options.lr !== undefined) requireNumber(options.lr, "options.lr", { min: 0, above: true });
  if (rows.length !== labels.length || rows.length === 0)
    throw new InvalidValueError("rows", "need as many label as feature rows, at least one.");
  const n = rows.length;
  const k = features.length;
  const X = new Matrix(rows);
  const mean = Array.from({ length: k }, (_, j) => X.getColumn(j).reduce((a, b) => a + b, 0) / n);
  const std = Array.from({ length: k }, (_, j) => {
    const v = X.getColumn(j).reduce((a, b) => a + (b - (mean[j] as number)) ** 2, 0) / n;
    return v > 1e-12 ? Math.sqrt(v) : 1;
  });
  const Z = new Matrix(rows.map((r) => r.map((x, j) => (x - (mean[j] as number)) / (std[j] as number))));
  const y = Matrix.columnVector(labels.map((l) => (l ? 1 : 0)));
  let w = Matrix.zeros(k, 1);
  let b = 0;
  const l2 = options.l2 ?? 1e-3;
  const lr = options.lr ?? 0.5;
  for (let it = 0; it < (options.iterations ?? 2000); it++) {
    const p = Matrix.columnVector(
      Z.mmul(w)
        .getColumn(0)
        .map((z) => sigmoid(z + b)),
    );
    const err = Matrix.sub(p, y);
    const gw = Z.transpose().mmul(err).div(n).add(Matrix.mul(w, l2));
    const gb = err.sum() / n;
    w = Matrix.sub(w, gw.mul(lr));
    b -= lr * gb;
  }
  return { features, mean, std, weights: w.getColumn(0), bias: b };
}

/** P(error) of a feature vector (named features; missing ones count as the training mean). */
export function predictLogistic(model: LogisticModel, features: Record<string, number>): number {
  return logisticProbability(model, (f, j) => features[f] ?? (model.mean[j] as number));
}

/** Collect the union of features of `sources` for each example. */
export async function collectFeatures(
  sources: readonly ErrorDetector[],
  input: CheckInput,
  response: string,
): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const s of sources) {
    const r = await s.detect(input, response);
    Object.assign(out, r.features ?? {});
    out[`${s.name}.hallucination`] = r.hallucination;
    out[`${s.name}.coverage`] = r.coverage;
  }
  return out;
}

/** Train hallucination and coverage models on labelled examples. */
export async function trainStacked(
  sources: readonly ErrorDetector[],
  examples: readonly NpovExample<CheckInput>[],
  options: { l2?: number; iterations?: number } = {},
): Promise<StackedModel> {
  const feats: Array<Record<string, number>> = [];
  for (const e of examples) feats.push(await collectFeatures(sources, e.input, e.response));
  const names = [...new Set(feats.flatMap((f) => Object.keys(f)))].sort();
  const fit = (type: "hallucination" | "coverage") => {
    const idx = examples.map((e, i) => (e.labels?.[type] === undefined ? -1 : i)).filter((i) => i >= 0);
    const labels = idx.map((i) => examples[i]?.labels?.[type] === true);
    if (!labels.some(Boolean) || labels.every(Boolean))
      throw new InvalidValueError("examples", `need both classes for ${type}.`);
    return fitLogistic(
      idx.map((i) => names.map((n) => feats[i]?.[n] ?? 0)),
      labels,
      names,
      options,
    );
  };
  return { format: "npov-stacked/1", hallucination: fit("hallucination"), coverage: fit("coverage") };
}

/**
 * The stacked classifier as an ErrorDetector over its feature sources.
 * @throws InvalidScoreError when a source gives a non-finite feature or the model a non-finite probability
 * (never a NaN score, which a threshold would read as "no error").
 */
export function stackedDetector(model: StackedModel, sources: readonly ErrorDetector[]): ErrorDetector {
  return {
    name: "stacked",
    async detect(input: CheckInput, response: string): Promise<ErrorScores> {
      const features = await collectFeatures(sources, input, response);
      for (const [name, value] of Object.entries(features))
        if (!Number.isFinite(value)) throw new InvalidScoreError("stacked", `feature ${name}`, value);
      // A feature the model was trained on but no source gives would silently become its training mean.
      for (const m of [model.hallucination, model.coverage]) {
        const missing = m.features.filter((f) => !(f in features));
        if (missing.length > 0)
          throw new InvalidValueError(
            "sources",
            `the stacked model reads ${missing.slice(0, 3).join(", ")}${missing.length > 3 ? ", ..." : ""}, which none of its ${sources.length} source detector(s) (${sources.map((x) => x.name).join(", ")}) gives: build it with the detectors it was trained on.`,
          );
      }
      // Evidence comes from the first source that has it (e.g. ROUGE's uncovered arguments).
      const first = await sources[0]?.detect(input, response);
      const hallucination = predictLogistic(model.hallucination, features);
      const coverage = predictLogistic(model.coverage, features);
      if (!Number.isFinite(hallucination)) throw new InvalidScoreError("stacked", "hallucination", hallucination);
      if (!Number.isFinite(coverage)) throw new InvalidScoreError("stacked", "coverage", coverage);
      return {
        hallucination,
        coverage,
        ...(first?.uncoveredArguments ? { uncoveredArguments: first.uncoveredArguments } : {}),
        ...(first?.unsupportedSpans ? { unsupportedSpans: first.unsupportedSpans } : {}),
        features,
      };
    },
  };
}

/**
 * Save a stacked model as JSON, atomically, after checking it as {@link loadStacked} will.
 * @throws InvalidValueError for a model that is not `{format: "npov-stacked/1", hallucination, coverage}` with
 * two valid logistic models; FileWriteError
 */
export function saveStacked(file: string, model: StackedModel): void {
  if (typeof model !== "object" || model === null || Array.isArray(model))
    throw new InvalidValueError("model", "must be a stacked model {format, hallucination, coverage}.");
  if (model.format !== "npov-stacked/1") throw new InvalidValueError("model.format", 'must be "npov-stacked/1".');
  checkLogisticModel(model.hallucination, "model.hallucination");
  checkLogisticModel(model.coverage, "model.coverage");
  writeFileAtomic(
    file,
    `${JSON.stringify({ format: model.format, hallucination: model.hallucination, coverage: model.coverage }, null, 2)}\n`,
  );
}

/**
 * Load and check a stacked-model file: both logistic models must list their features (strings) with as
 * many finite means, positive standard deviations and finite weights, and a finite bias.
 * @throws FileReadError, FileFormatError (every problem found, with its field)
 */
export function loadStacked(file: string): StackedModel {
  let value: StackedModel;
  try {
    value = JSON.parse(readTextFile(file).replace(/^\uFEFF/, ""));
  } catch (e) {
    if (e instanceof SyntaxError)
      throw new FileFormatError([{ file, line: undefined, field: "", message: `invalid JSON: ${e.message}` }]);
    throw e;
  }
  if (value === null || typeof value !== "object" || (value as { format?: unknown }).format !== "npov-stacked/1")
    throw new FileFormatError([{ file, line: undefined, field: "format", message: 'expected "npov-stacked/1"' }]);
  const issues: Array<{ file: string; line: undefined; field: string; message: string }> = [];
  const issue = (field: string, message: string) => issues.push({ file, line: undefined, field, message });
  for (const type of ["hallucination", "coverage"] as const) {
    const m = (value as unknown as Record<string, unknown>)[type] as Record<string, unknown> | undefined;
    if (m === null || typeof m !== "object") {
      issue(type, "missing: expected a logistic model {features, mean, std, weights, bias}");
      continue;
    }
    const features = m.features;
    if (!Array.isArray(features) || !features.every((f) => typeof f === "string")) {
      issue(`${type}.features`, "expected a list of feature names");
      continue;
    }
    const numbers = (key: string, ok: (x: number) => boolean, what: string) => {
      const xs = m[key];
      if (!Array.isArray(xs) || xs.length !== features.length)
        issue(`${type}.${key}`, `expected ${features.length} numbers (one per feature)`);
      else {
        const bad = xs.findIndex((x) => typeof x !== "number" || !ok(x));
        if (bad >= 0) issue(`${type}.${key}[${bad}]`, `expected ${what}, found ${JSON.stringify(xs[bad])}`);
      }
    };
    numbers("mean", Number.isFinite, "a finite number");
    numbers("std", (x) => Number.isFinite(x) && x > 0, "a positive number");
    numbers("weights", Number.isFinite, "a finite number");
    if (typeof m.bias !== "number" || !Number.isFinite(m.bias))
      issue(`${type}.bias`, `expected a finite number, found ${JSON.stringify(m.bias)}`);
  }
  if (issues.length > 0) throw new FileFormatError(issues);
  return value;
}
