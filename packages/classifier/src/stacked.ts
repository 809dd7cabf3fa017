/**
 * A stacked classifier: logistic regression (ml-matrix) over numeric features of other detectors (ROUGE
 * precision and recalls, salience statistics, YES/NO probabilities), one model per error type, trained
 * on labelled (synthetic) examples and saved as a small JSON file.
 */
import {
  type ErrorDetector,
  type ErrorScores,
  FileFormatError,
  InvalidValueError,
  type LogisticModel,
  logisticProbability,
  type NpovExample,
  type NpovInput,
  readTextFile,
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
  input: NpovInput,
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
  examples: readonly NpovExample[],
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

/** The stacked classifier as an ErrorDetector over its feature sources. */
export function stackedDetector(model: StackedModel, sources: readonly ErrorDetector[]): ErrorDetector {
  return {
    name: "stacked",
    async detect(input: NpovInput, response: string): Promise<ErrorScores> {
      const features = await collectFeatures(sources, input, response);
      // Evidence comes from the first source that has it (e.g. ROUGE's uncovered arguments).
      const first = await sources[0]?.detect(input, response);
      return {
        hallucination: predictLogistic(model.hallucination, features),
        coverage: predictLogistic(model.coverage, features),
        ...(first?.uncoveredArguments ? { uncoveredArguments: first.uncoveredArguments } : {}),
        ...(first?.unsupportedSpans ? { unsupportedSpans: first.unsupportedSpans } : {}),
        features,
      };
    },
  };
}

export function saveStacked(file: string, model: StackedModel): void {
  writeFileAtomic(file, `${JSON.stringify(model, null, 2)}\n`);
}

export function loadStacked(file: string): StackedModel {
  let value: StackedModel;
  try {
    value = JSON.parse(readTextFile(file));
  } catch (e) {
    if (e instanceof SyntaxError)
      throw new FileFormatError([{ file, line: undefined, field: "", message: `invalid JSON: ${e.message}` }]);
    throw e;
  }
  if (value.format !== "npov-stacked/1")
    throw new FileFormatError([{ file, line: undefined, field: "format", message: 'expected "npov-stacked/1"' }]);
  return value;
}
