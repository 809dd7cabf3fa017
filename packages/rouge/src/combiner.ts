/**
 * The learned combiner of the support detector: one L2-regularized logistic regression per error type over
 * the alignment features ({@link supportFeatures}), fitted by Newton's method (iteratively reweighted least
 * squares) from a seeded initialization, so the same data and seed give bit-identical weights. Outputs are
 * probabilities; {@link calibrationReport} measures how well calibrated they are (Brier score, reliability).
 */
import { existsSync } from "node:fs";
import {
  checkLogisticModel,
  createRng,
  describe,
  FileFormatError,
  InvalidValueError,
  jsonText,
  type LogisticModel,
  logisticProbability,
  NotTextError,
  readJsonFile,
  repoPath,
  requireArray,
  requireNumber,
  requireRecord,
  sigmoid,
  writeFileAtomic,
} from "@npov/core";

/** One logistic model over standardized features (the form shared with the stacked classifier). */
export type { LogisticModel };

/** The stored combiner (`models/npov-support/combiner.json`). */
export interface SupportCombiner {
  format: "npov-support-combiner/2";
  /**
   * Per sentence: the probability that it makes a claim nothing given supports, from what it says
   * (sentenceFeatures). Its largest outputs feed the hallucination model (`support.sentenceMax`, ...).
   */
  sentence?: LogisticModel;
  /** The sentence model for responses checked against plain sources (absent: `sentence` serves both). */
  sourcesSentence?: LogisticModel;
  /**
   * Per sentence (NPOV inputs): the probability that it states a given argument, from what it says. Summed over
   * the response it estimates how many arguments are stated, whatever framing surrounds them.
   */
  stating?: LogisticModel;
  /** Hallucination probability of a response to an NPOV input (curated arguments). */
  hallucination: LogisticModel;
  /** Coverage-error probability of a response to an NPOV input. */
  coverage: LogisticModel;
  /**
   * Hallucination probability of a response checked against plain sources (the NPOV-structure features are 0
   * there, so it is fitted on its own data). Absent: the NPOV model scores sources too.
   */
  sourcesHallucination?: LogisticModel;
  /**
   * NPOV inputs: the hallucination score as an even (or other) blend of the example model and the sentence
   * model's likeliest unsupported claim, recalibrated. Absent: the example model's probability alone. (The
   * sources model reads `support.sentenceMax` with a large weight of its own and needs no blend.)
   */
  blend?: HallucinationBlend;
  /** Provenance: seed, data, command, calibration. */
  meta?: Record<string, unknown>;
}

/**
 * An ensemble that keeps the hallucination score from leaning on one view: the example model reads how a whole
 * response is built (extra argument sentences, orphans) and is fitted mostly to one shape of answer; the
 * sentence model's largest probability (`support.sentenceMax`) reads what one sentence or clause says, wherever
 * it stands. The score is `sigmoid(scale * logit((1 - sentenceShare) * example + sentenceShare * sentenceMax) +
 * bias)`: a blend, then a monotone (Platt) recalibration fitted on the training data, so the result is a
 * probability again and never falls when either part rises.
 */
export interface HallucinationBlend {
  /** Weight of `support.sentenceMax` in the blend, in [0, 1] (the example model has the rest). */
  sentenceShare: number;
  /** Recalibration of the blend's logit; `scale` > 0. */
  npov: { scale: number; bias: number };
}

/**
 * Features each model may read: every one a share or bounded transform in [0, 1], "higher = more likely an
 * error" (see supportFeatures), so weights fitted non-negative keep the score monotone.
 */
export const HALLUCINATION_FEATURES: readonly string[] = [
  "support.exactImprecision",
  "support.worstClause",
  "support.worstClauseMass",
  "support.sentenceMax",
  "support.sentenceSecond",
  "support.imprecision",
  "support.claimImprecision",
  "support.worstSentence",
  "support.secondWorstSentence",
  "support.worstMass",
  "support.badShare",
  "support.unsupportedName",
  "support.worstTopical",
  "support.worstBestArgument",
  "support.orphanShare",
  "support.worstOrphan",
  "support.excessSentences",
  "support.excessClaims",
  "support.statedExcess",
  "support.mixedBlockShare",
];
/** The hallucination features that mean something for a sources input (no NPOV structure). */
export const SOURCES_HALLUCINATION_FEATURES: readonly string[] = [
  "support.exactImprecision",
  "support.worstMassAll",
  "support.worstClause",
  "support.worstClauseMass",
  "support.worstSingle",
  "support.sentenceMax",
  "support.sentenceSecond",
  "support.imprecision",
  "support.claimImprecision",
  "support.worstSentence",
  "support.secondWorstSentence",
  "support.worstMass",
  "support.badShare",
  "support.unsupportedName",
  "support.worstTopical",
];
export const COVERAGE_FEATURES: readonly string[] = [
  "support.uncovered",
  "support.uncoveredLocal",
  "support.secondUncoveredLocal",
  "support.meanUncoveredLocal",
  "support.uncoveredAssigned",
  "support.uncoveredShare",
  "support.weakestClaim",
  "support.statedDeficit",
];

function feature(features: Record<string, number>, name: string): number {
  const v = features[name];
  if (v === undefined || !Number.isFinite(v))
    throw new InvalidValueError(`features.${name}`, "missing or not finite; compute features with supportFeatures.");
  return v;
}

/** Probability of an error under one model. @throws InvalidValueError for a bad model or a missing feature */
export function predictLogistic(model: LogisticModel, features: Record<string, number>): number {
  requireRecord(features, "features", "an object of named features (supportFeatures)");
  return logisticProbability(model, (name) => feature(features, name));
}

/** The sentence model of a combiner for inputs of `kind` (undefined when it has none). */
export function sentenceModelOf(combiner: SupportCombiner, kind: "npov" | "sources"): LogisticModel | undefined {
  return kind === "sources" ? (combiner.sourcesSentence ?? combiner.sentence) : combiner.sentence;
}

/**
 * Both probabilities for a response to an input of `kind` (default "npov"; "sources" uses the sources model when
 * the combiner has one). @throws InvalidValueError for a bad combiner or a missing feature
 */
export function applyCombiner(
  combiner: SupportCombiner,
  features: Record<string, number>,
  kind: "npov" | "sources" = "npov",
): { hallucination: number; coverage: number } {
  checkSupportCombiner(combiner);
  if (kind !== "npov" && kind !== "sources") throw new InvalidValueError("kind", 'must be "npov" or "sources".');
  const hallucination =
    kind === "sources" ? (combiner.sourcesHallucination ?? combiner.hallucination) : combiner.hallucination;
  const example = predictLogistic(hallucination, features);
  const blend = kind === "sources" ? undefined : combiner.blend;
  let sentenceMax = 0;
  if (blend !== undefined) {
    sentenceMax = feature(features, "support.sentenceMax");
    checkBlendInputs(example, sentenceMax);
  }
  return {
    hallucination: blend === undefined ? example : blendProbability(blend, example, sentenceMax),
    coverage: predictLogistic(combiner.coverage, features),
  };
}

/** Keeps a blend strictly inside (0, 1) so its logit is finite. */
const BLEND_EPSILON = 1e-9;

/**
 * The blended, recalibrated hallucination probability ({@link HallucinationBlend}) from the example model's
 * probability and the largest sentence probability. @throws InvalidValueError for a bad blend or inputs
 */
export function blendedHallucination(blend: HallucinationBlend, example: number, sentenceMax: number): number {
  checkBlend(blend);
  checkBlendInputs(example, sentenceMax);
  return blendProbability(blend, example, sentenceMax);
}

/** The blend's logit before recalibration (the input {@link blendedHallucination}'s calibration is fitted on). */
export function blendLogit(sentenceShare: number, example: number, sentenceMax: number): number {
  requireNumber(sentenceShare, "sentenceShare", { min: 0, max: 1 });
  checkBlendInputs(example, sentenceMax);
  return logitOfBlend(sentenceShare, example, sentenceMax);
}

function checkBlendInputs(example: number, sentenceMax: number): void {
  requireNumber(example, "example", { min: 0, max: 1 });
  requireNumber(sentenceMax, "sentenceMax", { min: 0, max: 1 });
}

function logitOfBlend(sentenceShare: number, example: number, sentenceMax: number): number {
  const b = (1 - sentenceShare) * example + sentenceShare * sentenceMax;
  const clamped = Math.min(1 - BLEND_EPSILON, Math.max(BLEND_EPSILON, b));
  return Math.log(clamped / (1 - clamped));
}

/** {@link blendedHallucination} on a checked blend and inputs (applyCombiner has checked the combiner). */
function blendProbability(blend: HallucinationBlend, example: number, sentenceMax: number): number {
  const { scale, bias } = blend.npov;
  return sigmoid(scale * logitOfBlend(blend.sentenceShare, example, sentenceMax) + bias);
}

/** Check a {@link HallucinationBlend}. @throws InvalidValueError */
function checkBlend(value: unknown, path = "blend"): HallucinationBlend {
  const b = requireRecord(value, path, "a blend {sentenceShare, npov: {scale, bias}}");
  requireNumber(b.sentenceShare, `${path}.sentenceShare`, { min: 0, max: 1 });
  const c = requireRecord(b.npov, `${path}.npov`, "a recalibration {scale, bias}");
  // A positive scale keeps the score monotone in both parts of the blend.
  requireNumber(c.scale, `${path}.npov.scale`, { min: 0, above: true });
  requireNumber(c.bias, `${path}.npov.bias`);
  return value as HallucinationBlend;
}

/** Solve the symmetric positive-definite system A x = b (Cholesky); A row-major n x n. */
function solve(a: Float64Array, b: Float64Array, n: number): Float64Array {
  const l = new Float64Array(n * n);
  for (let i = 0; i < n; i++)
    for (let j = 0; j <= i; j++) {
      let s = a[i * n + j] as number;
      for (let k = 0; k < j; k++) s -= (l[i * n + k] as number) * (l[j * n + k] as number);
      l[i * n + j] = i === j ? Math.sqrt(Math.max(s, 1e-12)) : s / (l[j * n + j] as number);
    }
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = b[i] as number;
    for (let k = 0; k < i; k++) s -= (l[i * n + k] as number) * (y[k] as number);
    y[i] = s / (l[i * n + i] as number);
  }
  const x = new Float64Array(n);
  for (let i = n - 1; i >= 0; i--) {
    let s = y[i] as number;
    for (let k = i + 1; k < n; k++) s -= (l[k * n + i] as number) * (x[k] as number);
    x[i] = s / (l[i * n + i] as number);
  }
  return x;
}

/** Options of {@link fitLogistic}. */
export interface FitOptions {
  /** L2 penalty on the weights (not the bias; default 1). */
  l2?: number;
  /** Newton iterations (default 25). */
  iterations?: number;
  seed?: number;
  /** Per-row weights (default 1 each), e.g. to balance hand-labelled rows against synthetic ones. */
  weights?: readonly number[];
  /**
   * Keep every weight >= 0 (default false): with features oriented "higher = worse", the probability then
   * never falls when a feature rises. Fitted by active sets: the most negative weight is fixed at 0 and the
   * rest refitted until none is negative.
   */
  nonNegative?: boolean;
}

/**
 * Fit a logistic regression of `labels` on the named features of `rows`.
 * @throws InvalidValueError when there are no rows, one class only, a feature is missing, or an option is
 * out of range
 */
export function fitLogistic(
  rows: ReadonlyArray<Record<string, number>>,
  labels: readonly boolean[],
  names: readonly string[],
  options: FitOptions = {},
): LogisticModel {
  requireArray(rows, "rows", "an array of feature records").forEach((r, i) => {
    requireRecord(r, `rows[${i}]`, "a record of named features");
  });
  requireBooleans(labels, "labels");
  requireArray(names, "names", "an array of feature names").forEach((n, i) => {
    if (typeof n !== "string") throw new NotTextError(`names[${i}]`, n);
  });
  requireRecord(options, "options", "an object of fit options");
  if (options.l2 !== undefined) requireNumber(options.l2, "options.l2", { min: 0 });
  if (options.iterations !== undefined)
    requireNumber(options.iterations, "options.iterations", { min: 1, max: 10_000, integer: true });
  if (options.seed !== undefined) requireNumber(options.seed, "options.seed", { integer: true });
  if (options.weights !== undefined) requireArray(options.weights, "options.weights", "an array of numbers");
  if (options.nonNegative !== undefined && typeof options.nonNegative !== "boolean")
    throw new InvalidValueError("options.nonNegative", "must be true or false.");
  if (options.nonNegative === true) {
    let active = [...names];
    for (;;) {
      const model = fitLogistic(rows, labels, active, { ...options, nonNegative: false });
      let worst = -1;
      model.weights.forEach((w, i) => {
        if (w < 0 && (worst < 0 || w < (model.weights[worst] as number))) worst = i;
      });
      if (worst < 0) {
        // Features held at 0 keep their place (weight 0, neutral standardization) so the model lists them all.
        const at = new Map(active.map((n, i) => [n, i]));
        const pick = (xs: readonly number[], name: string, fallback: number) => {
          const i = at.get(name);
          return i === undefined ? fallback : (xs[i] as number);
        };
        return {
          features: [...names],
          mean: names.map((n) => pick(model.mean, n, 0)),
          std: names.map((n) => pick(model.std, n, 1)),
          weights: names.map((n) => pick(model.weights, n, 0)),
          bias: model.bias,
        };
      }
      active = active.filter((_, i) => i !== worst);
    }
  }
  if (rows.length === 0 || rows.length !== labels.length)
    throw new InvalidValueError("rows", "need one label per row and at least one row.");
  if (labels.every((l) => l) || labels.every((l) => !l))
    throw new InvalidValueError("labels", "need both error and error-free examples to fit a combiner.");
  const d = names.length;
  const n = rows.length;
  const rowWeights = options.weights ?? rows.map(() => 1);
  if (rowWeights.length !== n || rowWeights.some((w) => !(w >= 0) || !Number.isFinite(w)))
    throw new InvalidValueError("weights", "need one finite weight >= 0 per row.");
  const raw = rows.map((r) => names.map((name) => feature(r, name)));
  const mean = names.map((_, i) => raw.reduce((s, x) => s + (x[i] as number), 0) / n);
  const std = names.map((_, i) => {
    const v = raw.reduce((s, x) => s + ((x[i] as number) - (mean[i] as number)) ** 2, 0) / n;
    return Math.sqrt(v) > 1e-9 ? Math.sqrt(v) : 1;
  });
  const x = raw.map((r) => r.map((v, i) => (v - (mean[i] as number)) / (std[i] as number)));
  const l2 = options.l2 ?? 1;
  const rng = createRng(options.seed ?? 0);
  // Parameters: d weights then the bias; a small seeded start (Newton converges from anywhere here).
  const theta = Float64Array.from({ length: d + 1 }, () => (rng.next() - 0.5) * 0.01);
  const m = d + 1;
  for (let it = 0; it < (options.iterations ?? 25); it++) {
    const grad = new Float64Array(m);
    const hess = new Float64Array(m * m);
    for (let r = 0; r < n; r++) {
      const xr = x[r] as number[];
      let z = theta[d] as number;
      for (let i = 0; i < d; i++) z += (theta[i] as number) * (xr[i] as number);
      const p = sigmoid(z);
      const rw = rowWeights[r] as number;
      const g = rw * (p - (labels[r] ? 1 : 0));
      const w = rw * Math.max(p * (1 - p), 1e-9);
      for (let i = 0; i < m; i++) {
        const xi = i === d ? 1 : (xr[i] as number);
        grad[i] = (grad[i] as number) + g * xi;
        for (let j = 0; j <= i; j++) {
          const xj = j === d ? 1 : (xr[j] as number);
          hess[i * m + j] = (hess[i * m + j] as number) + w * xi * xj;
        }
      }
    }
    for (let i = 0; i < d; i++) {
      grad[i] = (grad[i] as number) + l2 * (theta[i] as number);
      hess[i * m + i] = (hess[i * m + i] as number) + l2;
    }
    for (let i = 0; i < m; i++) for (let j = 0; j < i; j++) hess[j * m + i] = hess[i * m + j] as number;
    const step = solve(hess, grad, m);
    let size = 0;
    for (let i = 0; i < m; i++) {
      theta[i] = (theta[i] as number) - (step[i] as number);
      size = Math.max(size, Math.abs(step[i] as number));
    }
    if (size < 1e-10) break;
  }
  return { features: [...names], mean, std, weights: Array.from(theta.subarray(0, d)), bias: theta[d] as number };
}

/** Options of {@link crossValidateLogistic}. */
export interface CrossValidationOptions {
  /**
   * Group of each row (e.g. its topic): a group's rows share a fold, so no group is both trained on and scored.
   * `undefined` marks a row that is trained on in every fold and never scored (e.g. synthetic data).
   */
  groups: ReadonlyArray<string | undefined>;
  /** Number of folds (default 5; at most the number of groups). */
  folds?: number;
  /** Seed of the group-to-fold assignment and of each fit. */
  seed?: number;
  l2?: number;
  iterations?: number;
  /** Weights of one fold's training rows, given their indices (default 1 each). */
  weights?: (trainingRows: readonly number[]) => readonly number[];
  /** Fit with non-negative weights ({@link FitOptions.nonNegative}). */
  nonNegative?: boolean;
}

/** Out-of-fold predictions of {@link crossValidateLogistic}. */
export interface CrossValidation {
  /** Indices of the scored rows (those with a group), ascending. */
  rows: number[];
  /** Probability of each scored row from the model fitted without its fold. */
  probabilities: number[];
  /** Fold of each scored row. */
  folds: number[];
}

/**
 * Group-wise k-fold cross-validation of {@link fitLogistic}: groups are shuffled by the seed and dealt to
 * folds in turn; each fold is scored by a model fitted on every other row (ungrouped rows always included).
 * Deterministic: the same data, options and seed give bit-identical probabilities.
 * @throws InvalidValueError when the groups do not pair up with the rows, there are fewer groups than folds,
 * or a fold's training rows hold one class only
 */
export function crossValidateLogistic(
  rows: ReadonlyArray<Record<string, number>>,
  labels: readonly boolean[],
  names: readonly string[],
  options: CrossValidationOptions,
): CrossValidation {
  requireRecord(options, "options", "an object of cross-validation options");
  requireArray(options.groups, "options.groups", "one group (or undefined) per row").forEach((g, i) => {
    if (g !== undefined && typeof g !== "string") throw new NotTextError(`options.groups[${i}]`, g);
  });
  const groups = options.groups;
  if (options.weights !== undefined && typeof options.weights !== "function")
    throw new InvalidValueError(
      "options.weights",
      `must be a function from a fold's training rows to their weights, got ${describe(options.weights)}.`,
    );
  if (groups.length !== rows.length)
    throw new InvalidValueError("options.groups", `has ${groups.length} entries for ${rows.length} rows.`);
  const k = options.folds ?? 5;
  requireNumber(k, "options.folds", { min: 2, max: 1000, integer: true });
  const seed = options.seed ?? 0;
  requireNumber(seed, "options.seed", { integer: true });
  const distinct = [...new Set(groups.filter((g): g is string => g !== undefined))].sort();
  if (distinct.length < k)
    throw new InvalidValueError("options.groups", `${distinct.length} groups cannot fill ${k} folds; use fewer folds.`);
  // Sorted groups, shuffled by the seed (Fisher-Yates), dealt round-robin: independent of row order.
  const rng = createRng(seed);
  for (let i = distinct.length - 1; i > 0; i--) {
    const j = Math.floor(rng.next() * (i + 1));
    [distinct[i], distinct[j]] = [distinct[j] as string, distinct[i] as string];
  }
  const foldOf = new Map(distinct.map((g, i) => [g, i % k]));
  const rowFold = groups.map((g) => (g === undefined ? -1 : (foldOf.get(g) as number)));
  const scored = rowFold.flatMap((f, i) => (f >= 0 ? [i] : []));
  const probabilities = new Map<number, number>();
  for (let fold = 0; fold < k; fold++) {
    const train = rowFold.flatMap((f, i) => (f !== fold ? [i] : []));
    const weights = options.weights?.(train);
    const model = fitLogistic(
      train.map((i) => rows[i] as Record<string, number>),
      train.map((i) => labels[i] as boolean),
      names,
      {
        seed,
        ...(options.l2 === undefined ? {} : { l2: options.l2 }),
        ...(options.iterations === undefined ? {} : { iterations: options.iterations }),
        ...(weights === undefined ? {} : { weights }),
        ...(options.nonNegative === undefined ? {} : { nonNegative: options.nonNegative }),
      },
    );
    for (const i of scored)
      if (rowFold[i] === fold) probabilities.set(i, predictLogistic(model, rows[i] as Record<string, number>));
  }
  return {
    rows: scored,
    probabilities: scored.map((i) => probabilities.get(i) as number),
    folds: scored.map((i) => rowFold[i] as number),
  };
}

/** Brier score and a 10-bin reliability table of probabilities against outcomes. */
export interface CalibrationReport {
  n: number;
  brier: number;
  /** Per bin of predicted probability: [lower, upper), count, mean prediction, observed error rate. */
  bins: Array<{ lower: number; upper: number; count: number; predicted: number; observed: number }>;
  /** Expected calibration error: count-weighted |predicted - observed|. */
  ece: number;
}

function requireBooleans(value: unknown, path: string): readonly boolean[] {
  const list = requireArray(value, path, "an array of true/false labels");
  list.forEach((l, i) => {
    if (typeof l !== "boolean")
      throw new InvalidValueError(`${path}[${i}]`, `must be true or false, got ${describe(l)}.`);
  });
  return list as boolean[];
}

/**
 * Calibration of `probabilities` against `labels`.
 * @throws InvalidValueError unless probabilities in [0, 1] and labels pair up, and bins is an integer in [1, 1000]
 */
export function calibrationReport(
  probabilities: readonly number[],
  labels: readonly boolean[],
  bins = 10,
): CalibrationReport {
  requireArray(probabilities, "probabilities", "an array of probabilities").forEach((p, i) => {
    requireNumber(p, `probabilities[${i}]`, { min: 0, max: 1 });
  });
  requireBooleans(labels, "labels");
  if (labels.length !== probabilities.length)
    throw new InvalidValueError(
      "labels",
      `has ${labels.length} entries but probabilities has ${probabilities.length}.`,
    );
  requireNumber(bins, "bins", { min: 1, max: 1000, integer: true });
  const n = probabilities.length;
  const brier = n === 0 ? 0 : probabilities.reduce((s, p, i) => s + (p - (labels[i] ? 1 : 0)) ** 2, 0) / n;
  const table = Array.from({ length: bins }, (_, b) => ({
    lower: b / bins,
    upper: (b + 1) / bins,
    count: 0,
    predicted: 0,
    observed: 0,
  }));
  probabilities.forEach((p, i) => {
    const row = table[Math.min(bins - 1, Math.floor(p * bins))] as (typeof table)[number];
    row.count++;
    row.predicted += p;
    row.observed += labels[i] ? 1 : 0;
  });
  let ece = 0;
  for (const row of table)
    if (row.count > 0) {
      row.predicted /= row.count;
      row.observed /= row.count;
      ece += (row.count / Math.max(1, n)) * Math.abs(row.predicted - row.observed);
    }
  return { n, brier, bins: table, ece };
}

const FORMAT = "npov-support-combiner/2";

/** Save a combiner as JSON, atomically. @throws NotTextError, InvalidValueError, FileWriteError */
export function saveSupportCombiner(file: string, combiner: SupportCombiner): void {
  if (typeof file !== "string") throw new NotTextError("file", file);
  checkSupportCombiner(combiner);
  // The models are checked numbers; only meta can hold what JSON cannot.
  writeFileAtomic(file, `${jsonText(combiner, "combiner.meta", 1)}\n`);
}

function checkModel(m: unknown, file: string, field: string): LogisticModel {
  try {
    return checkLogisticModel(m, field);
  } catch (e) {
    if (!(e instanceof InvalidValueError)) throw e;
    throw new FileFormatError([
      {
        file,
        line: undefined,
        field: e.path ?? field,
        message: `${e.message} (expected features, mean, std, weights and bias of one length)`,
      },
    ]);
  }
}

/**
 * Check an in-memory combiner (two logistic models over known features). @throws InvalidValueError
 */
export function checkSupportCombiner(value: unknown, path = "combiner"): SupportCombiner {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new InvalidValueError(path, "must be a support combiner {format, hallucination, coverage}.");
  const c = value as Partial<SupportCombiner>;
  if (c.format !== FORMAT)
    throw new InvalidValueError(
      `${path}.format`,
      `must be "${FORMAT}"${(c.format as unknown) === "npov-support-combiner/1" ? " (a /1 combiner reads features support no longer computes: retrain it with npov train-support)" : ""}.`,
    );
  checkLogisticModel(c.hallucination, `${path}.hallucination`);
  checkLogisticModel(c.coverage, `${path}.coverage`);
  for (const key of ["sourcesHallucination", "sentence", "sourcesSentence", "stating"] as const)
    if (c[key] !== undefined) checkLogisticModel(c[key], `${path}.${key}`);
  checkBlendPart(c, path);
  return c as SupportCombiner;
}

/** Load a combiner saved by {@link saveSupportCombiner}. @throws NotTextError, FileReadError, FileFormatError */
export function loadSupportCombiner(file: string): SupportCombiner {
  if (typeof file !== "string") throw new NotTextError("file", file);
  const raw = (readJsonFile(file) ?? {}) as Partial<SupportCombiner>;
  if (raw.format !== FORMAT)
    throw new FileFormatError([
      {
        file,
        line: undefined,
        field: "format",
        message: `expected "${FORMAT}"${(raw.format as unknown) === "npov-support-combiner/1" ? " (a /1 combiner reads features support no longer computes: retrain it with npov train-support)" : ""}`,
      },
    ]);
  return {
    format: FORMAT,
    hallucination: checkModel(raw.hallucination, file, "hallucination"),
    coverage: checkModel(raw.coverage, file, "coverage"),
    ...Object.fromEntries(
      (["sourcesHallucination", "sentence", "sourcesSentence", "stating"] as const)
        .filter((key) => raw[key] !== undefined)
        .map((key) => [key, checkModel(raw[key], file, key)]),
    ),
    ...(raw.blend === undefined ? {} : { blend: checkedBlend(raw, file) }),
    ...(raw.meta === undefined ? {} : { meta: raw.meta }),
  };
}

/** A combiner's blend, when it has one: well formed, and a sentence model for it to read. */
function checkBlendPart(c: Partial<SupportCombiner>, path: string): void {
  if (c.blend === undefined) return;
  checkBlend(c.blend, `${path}.blend`);
  if (c.sentence === undefined)
    throw new InvalidValueError(`${path}.blend`, "needs a sentence model (the blend reads support.sentenceMax).");
}

/** A stored combiner's blend, checked; problems are FileFormatErrors naming the file. */
function checkedBlend(raw: Partial<SupportCombiner>, file: string): HallucinationBlend {
  try {
    checkBlendPart(raw, "combiner");
    return raw.blend as HallucinationBlend;
  } catch (e) {
    if (!(e instanceof InvalidValueError)) throw e;
    throw new FileFormatError([{ file, line: undefined, field: e.path ?? "blend", message: e.message }]);
  }
}

let shipped: SupportCombiner | null | undefined;
/** The shipped combiner (models/npov-support/combiner.json), or undefined when absent. */
export function defaultSupportCombiner(): SupportCombiner | undefined {
  if (shipped === undefined) {
    const file = repoPath("models", "npov-support", "combiner.json");
    shipped = existsSync(file) ? loadSupportCombiner(file) : null;
  }
  return shipped ?? undefined;
}
