/**
 * Stored guard configurations of either format -- one detector (npov-guard/1, guard.ts) or a cascade of stages
 * (npov-guard/2, cascade.ts) -- and building a guard from one: the one module that knows both, so neither of
 * them imports the other.
 */
import {
  type ErrorDetector,
  FileFormatError,
  InvalidValueError,
  jsonText,
  readTextFile,
  writeFileAtomic,
} from "@npov/core";
import { type CascadeGuardConfig, checkCascadeGuardConfig, createCascadeGuard } from "./cascade.js";
import {
  checkErrorPolicy,
  checkGuardConfig,
  checkTimeoutMs,
  createDetector,
  createGuard,
  type DetectorMethods,
  type DetectorSpec,
  type Guard,
  type GuardConfig,
  type GuardErrorPolicy,
  type GuardThresholds,
} from "./guard.js";

/** A stored guard configuration of either format: one detector (npov-guard/1) or a cascade (npov-guard/2). */
export type AnyGuardConfig = GuardConfig | CascadeGuardConfig;

/**
 * Check a guard configuration of either format, by its `format` ({@link checkGuardConfig} or
 * {@link checkCascadeGuardConfig}). @throws InvalidValueError naming the bad field
 */
export function checkAnyGuardConfig(value: unknown, path = "config"): AnyGuardConfig {
  if (typeof value === "object" && value !== null && (value as { format?: unknown }).format === "npov-guard/2")
    return checkCascadeGuardConfig(value, path);
  return checkGuardConfig(value, path);
}

/** Every detector spec of a configuration, in stage order (one for npov-guard/1). */
export function guardConfigDetectors(config: AnyGuardConfig): DetectorSpec[] {
  return config.format === "npov-guard/2" ? config.stages.map((s) => s.detector) : [config.detector];
}

/** The thresholds a guard built from a configuration reports: its own, or a cascade's last stage's. */
export function guardConfigThresholds(config: AnyGuardConfig): GuardThresholds {
  if (config.format !== "npov-guard/2") return { ...config.thresholds };
  return { ...(config.stages.at(-1)?.thresholds as GuardThresholds) };
}

/**
 * Save a guard configuration as JSON, atomically, after {@link checkAnyGuardConfig}.
 * @throws InvalidValueError for an invalid or non-JSON configuration; FileWriteError
 */
export function saveGuardConfig(file: string, config: AnyGuardConfig): void {
  checkAnyGuardConfig(config);
  writeFileAtomic(file, `${jsonText(config, "config", 2)}\n`);
}

/** Load and validate a guard configuration of either format. @throws FileReadError, FileFormatError */
export function loadGuardConfig(file: string): AnyGuardConfig {
  const fail = (field: string, message: string) => new FileFormatError([{ file, line: undefined, field, message }]);
  let value: AnyGuardConfig;
  try {
    value = JSON.parse(readTextFile(file));
  } catch (e) {
    if (e instanceof SyntaxError) throw fail("", `invalid JSON: ${e.message}`);
    throw e;
  }
  try {
    return checkAnyGuardConfig(value, "config");
  } catch (e) {
    if (!(e instanceof InvalidValueError)) throw e;
    // The field relative to the file, and the message without its "config.x: " prefix.
    const field = (e.path ?? "config").replace(/^config\.?/, "");
    throw fail(field, e.message.slice((e.path ?? "").length + 2));
  }
}

/**
 * A guard from a stored configuration: a guard.json path (loaded and validated with
 * {@link loadGuardConfig}) or a config object, of either format -- one detector (npov-guard/1) or a cascade
 * of stages (npov-guard/2, see {@link createCascadeGuard}; its verdicts also carry `stages`, `costUsd` and
 * `ms`). Detectors are built from `methods` (default: the built-in methods; pass an extended table for
 * methods of your own, e.g. the endpoint methods of @npov/llm). `onError` and `timeoutMs` come from the
 * config unless given here.
 * @throws FileReadError, FileFormatError, InvalidValueError
 */
export async function loadGuard(
  config: AnyGuardConfig | string,
  options: { methods?: DetectorMethods; maxEvidence?: number; onError?: GuardErrorPolicy; timeoutMs?: number } = {},
): Promise<Guard> {
  const value = typeof config === "string" ? loadGuardConfig(config) : checkAnyGuardConfig(config);
  const onError = options.onError ?? value.onError;
  const timeoutMs = options.timeoutMs ?? value.timeoutMs;
  // Check the policy before loading models, so a typo fails fast.
  checkErrorPolicy(onError);
  checkTimeoutMs(timeoutMs);
  const common = {
    ...(options.maxEvidence === undefined ? {} : { maxEvidence: options.maxEvidence }),
    ...(onError === undefined ? {} : { onError }),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
  };
  if (value.format === "npov-guard/2") {
    const detectors: ErrorDetector[] = [];
    try {
      for (const stage of value.stages) detectors.push(await createDetector(stage.detector, options.methods));
    } catch (e) {
      for (const d of detectors) await d.dispose?.();
      throw e;
    }
    return createCascadeGuard({
      stages: value.stages.map((s, i) => ({
        detector: detectors[i] as ErrorDetector,
        ...(s.band === undefined ? {} : { band: s.band }),
        ...(s.thresholds === undefined ? {} : { thresholds: s.thresholds }),
        ...(s.costUsd === undefined ? {} : { costUsd: s.costUsd }),
      })),
      ...common,
    });
  }
  const detector = await createDetector(value.detector, options.methods);
  return createGuard({
    detector,
    thresholds: value.thresholds,
    ...(options.maxEvidence === undefined ? {} : { maxEvidence: options.maxEvidence }),
    ...(onError === undefined ? {} : { onError }),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
  });
}
