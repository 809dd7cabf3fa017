/**
 * Logistic models over named, standardized features: the stored form shared by the stacked classifier
 * (@npov/classifier) and the support combiner (@npov/rouge), and the probability they compute. How a
 * model is fitted, and what a missing feature means, stays with each user.
 */

/** One logistic model: feature names, the training mean and standard deviation of each, weights, bias. */
export interface LogisticModel {
  features: string[];
  mean: number[];
  std: number[];
  weights: number[];
  bias: number;
}

/** 1 / (1 + e^-z), computed without overflow for large |z|. */
export function sigmoid(z: number): number {
  return z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z));
}

/**
 * sigmoid(bias + sum_i weight_i * (x_i - mean_i) / std_i), with `value(name, i)` giving feature i's raw
 * value (the caller decides what a missing one is).
 */
export function logisticProbability(model: LogisticModel, value: (feature: string, index: number) => number): number {
  let z = model.bias;
  model.features.forEach((name, i) => {
    z += (model.weights[i] as number) * ((value(name, i) - (model.mean[i] as number)) / (model.std[i] as number));
  });
  return sigmoid(z);
}
