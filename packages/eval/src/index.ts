/**
 * @npov/eval: metrics over plain arrays (ROC AUC, ROC curves, average precision, bootstrap intervals,
 * Krippendorff's alpha, Kendall's tau-b, thresholds), `evaluate(dataset, detectors)` and reports.
 * @packageDocumentation
 */

export * from "./agreement.js";
export * from "./bootstrap.js";
export * from "./calibrate.js";
export * from "./cascade.js";
export * from "./evaluate.js";
export * from "./report.js";
export * from "./roc.js";
export * from "./thresholds.js";
