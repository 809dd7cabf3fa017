/**
 * Logistic models over named, standardized features: the stored form shared by the stacked classifier
 * (@npov/classifier) and the support combiner (@npov/rouge), and the probability they compute. How a
 * model is fitted, and what a missing feature means, stays with each user.
 */
import { describe, InvalidValueError } from "./errors.js";

/** One logistic model: feature names, the training mean and standard deviation of each, weights, bias. */
export interface LogisticModel {
  features: string[];
  mean: number[];
  std: number[];
  weights: number[];
  bias: number;
}

/**
 * Check a logistic model: feature names (strings) and, per feature, a finite mean, a finite non-zero
 * standard deviation and a finite weight; a finite bias. @throws InvalidValueError naming the bad field
 */
export function checkLogisticModel(value: unknown, path = "model"): LogisticModel {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new InvalidValueError(
      path,
      `must be a logistic model {features, mean, std, weights, bias}, got ${describe(value)}.`,
    );
  const m = value as Partial<Record<keyof LogisticModel, unknown>>;
  if (!Array.isArray(m.features) || m.features.some((f) => typeof f !== "string"))
    throw new InvalidValueError(`${path}.features`, "must be an array of feature names.");
  const n = m.features.length;
  for (const key of ["mean", "std", "weights"] as const) {
    const list = m[key];
    if (!Array.isArray(list) || list.length !== n)
      throw new InvalidValueError(`${path}.${key}`, `must be an array of ${n} numbers, one per feature.`);
    list.forEach((v, i) => {
      if (typeof v !== "number" || !Number.isFinite(v) || (key === "std" && v === 0))
        throw new InvalidValueError(
          `${path}.${key}[${i}]`,
          `must be a finite${key === "std" ? ", non-zero" : ""} number, got ${describe(v)}.`,
        );
    });
  }
  if (typeof m.bias !== "number" || !Number.isFinite(m.bias))
    throw new InvalidValueError(`${path}.bias`, `must be a finite number, got ${describe(m.bias)}.`);
  return value as LogisticModel;
}

/** 1 / (1 + e^-z), computed without overflow for large |z|. @throws InvalidValueError for NaN or a non-number */
export function sigmoid(z: number): number {
  if (typeof z !== "number" || Number.isNaN(z))
    throw new InvalidValueError("z", `must be a number, got ${describe(z)}.`);
  return z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z));
}

/**
 * sigmoid(bias + sum_i weight_i * (x_i - mean_i) / std_i), with `value(name, i)` giving feature i's raw
 * value (the caller decides what a missing one is).
 * @throws InvalidValueError for an invalid model or a feature value that is not a finite number
 */
export function logisticProbability(model: LogisticModel, value: (feature: string, index: number) => number): number {
  checkLogisticModel(model);
  if (typeof value !== "function")
    throw new InvalidValueError("value", "must be a function (feature, index) => number.");
  let z = model.bias;
  model.features.forEach((name, i) => {
    const x = value(name, i);
    if (typeof x !== "number" || !Number.isFinite(x))
      throw new InvalidValueError(`features.${name}`, `must be a finite number, got ${describe(x)}.`);
    z += (model.weights[i] as number) * ((x - (model.mean[i] as number)) / (model.std[i] as number));
  });
  return sigmoid(z);
}
