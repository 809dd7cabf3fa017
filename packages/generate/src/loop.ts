/**
 * The guard loop: generate, check with a guard, and on a flagged error regenerate (new seed, sampling,
 * and an instruction naming the missing or extra content) up to `maxAttempts`; return the best response
 * with every attempt's verdict.
 */
import type { Guard, GuardVerdict } from "@npov/classifier";
import { NpovError, type NpovInput, requireNumber, requireRecord } from "@npov/core";
import type { GeneratedResponse, Generator } from "./generator.js";

export interface Attempt {
  attempt: number;
  seed: number;
  temperature: number;
  instruction?: string;
  response?: GeneratedResponse;
  verdict?: GuardVerdict;
  /** A generation that failed (e.g. malformed model output), with its typed error code. */
  error?: { code: string; message: string };
}

export interface CheckedGeneration {
  allowed: boolean;
  best: Attempt | undefined;
  attempts: Attempt[];
}

/** How far a verdict is over its thresholds (<= 0 when allowed); lower is better; unscored is worst. */
function excess(v: GuardVerdict): number {
  if (v.error) return Number.POSITIVE_INFINITY;
  return Math.max(v.hallucination.score - v.hallucination.threshold, v.coverage.score - v.coverage.threshold);
}

/**
 * The instruction for the next attempt, from what the guard flagged; none for a response the guard could
 * not score (the next attempt just uses a new seed).
 */
export function correctionInstruction(v: GuardVerdict): string | undefined {
  if (v.error) return undefined;
  const parts: string[] = [];
  const missing = v.coverage.evidence.uncoveredArguments.map((a) => `"${a.text}"`);
  if (v.coverage.flagged && missing.length > 0)
    parts.push(`Make sure to state these given arguments: ${missing.join("; ")}.`);
  const extra = v.hallucination.evidence.sentences.map((s) => `"${s.text}"`);
  if (v.hallucination.flagged)
    parts.push(
      extra.length > 0
        ? `Remove content that is not among the given arguments, such as: ${extra.join("; ")}.`
        : "Add nothing beyond the given arguments.",
    );
  return parts.length > 0 ? parts.join(" ") : undefined;
}

export async function generateChecked(
  input: NpovInput,
  options: {
    generator: Generator;
    guard: Guard;
    maxAttempts?: number;
    seed?: number;
    temperature?: number;
    retryTemperature?: number;
    maxNewTokens?: number;
  },
): Promise<CheckedGeneration> {
  requireRecord(options, "options", "{generator, guard, maxAttempts?, seed?, ...}");
  const maxAttempts = requireNumber(options.maxAttempts ?? 3, "options.maxAttempts", {
    min: 1,
    max: 1000,
    integer: true,
  });
  if (options.seed !== undefined) requireNumber(options.seed, "options.seed", { integer: true });
  for (const key of ["temperature", "retryTemperature"] as const)
    if (options[key] !== undefined) requireNumber(options[key], `options.${key}`, { min: 0 });
  if (options.maxNewTokens !== undefined)
    requireNumber(options.maxNewTokens, "options.maxNewTokens", { min: 1, integer: true });
  const attempts: Attempt[] = [];
  let instruction: string | undefined;
  for (let k = 0; k < maxAttempts; k++) {
    const seed = (options.seed ?? 0) + k;
    const temperature = k === 0 ? (options.temperature ?? 0) : (options.retryTemperature ?? 0.7);
    const attempt: Attempt = { attempt: k + 1, seed, temperature, ...(instruction ? { instruction } : {}) };
    attempts.push(attempt);
    try {
      attempt.response = await options.generator.generate(input, {
        seed,
        temperature,
        ...(instruction ? { instruction } : {}),
        ...(options.maxNewTokens ? { maxNewTokens: options.maxNewTokens } : {}),
      });
    } catch (e) {
      if (!(e instanceof NpovError)) throw e;
      attempt.error = { code: e.code, message: e.message };
      continue;
    }
    attempt.verdict = await options.guard.check(input, attempt.response.response);
    if (attempt.verdict.allow) return { allowed: true, best: attempt, attempts };
    instruction = correctionInstruction(attempt.verdict);
  }
  const judged = attempts.filter((a) => a.verdict !== undefined);
  const best = judged.sort((a, b) => excess(a.verdict as GuardVerdict) - excess(b.verdict as GuardVerdict))[0];
  return { allowed: false, best, attempts };
}
