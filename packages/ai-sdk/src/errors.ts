/** Typed errors of the AI SDK middleware. */
import type { GuardVerdict } from "@npov/classifier";
import { NpovError } from "@npov/core";

/** Why a verdict blocks, in one line: the flagged scores and the worst evidence, or the guard's failure. */
export function verdictReason(verdict: GuardVerdict): string {
  if (verdict.error)
    return `the guard could not check it (${verdict.reason.code}: ${verdict.reason.message}), so it is blocked (fail closed)`;
  const parts: string[] = [];
  const h = verdict.hallucination;
  if (h.flagged) {
    const worst = h.evidence.sentences[0]?.text;
    parts.push(
      `hallucination ${h.score.toFixed(3)} >= ${h.threshold.toFixed(3)}${worst === undefined ? "" : ` (unsupported: "${worst}")`}`,
    );
  }
  const c = verdict.coverage;
  if (c.flagged) {
    const missing = c.evidence.uncoveredArguments[0]?.text;
    parts.push(
      `coverage error ${c.score.toFixed(3)} >= ${c.threshold.toFixed(3)}${missing === undefined ? "" : ` (not covered: "${missing}")`}`,
    );
  }
  return parts.length > 0 ? parts.join("; ") : "allowed";
}

/**
 * The guard did not allow a response (policy "block", or "regenerate" after its last attempt), or could not
 * check it (fail closed). `verdict` holds the scores and evidence (or the failure's `reason`); `text` the
 * response as far as it was produced.
 */
export class ResponseBlockedError extends NpovError {
  readonly verdict: GuardVerdict;
  readonly text: string;
  /** Generation attempts made (1 unless the policy regenerates). */
  readonly attempts: number;
  constructor(verdict: GuardVerdict, text: string, attempts = 1) {
    super(
      "RESPONSE_BLOCKED",
      `The npov guard blocked the response${attempts > 1 ? ` after ${attempts} attempts` : ""}: ${verdictReason(verdict)}.`,
    );
    this.verdict = verdict;
    this.text = text;
    this.attempts = attempts;
  }
}
