/**
 * `npov calibrate-guard --cascade STAGE1,STAGE2`: score a labelled dev set with both stages, choose stage
 * 1's uncertainty bands and stage 2's thresholds (calibrateCascade of @npov/eval), print the trade-off table
 * and write a npov-guard/2 config. Prices are stated (--stage-costs) or estimated from an endpoint's token
 * usage and --prices; latencies are measured.
 */
import { type CascadeGuardConfig, type DetectorSpec, saveGuardConfig } from "@npov/classifier";
import type { CheckInput, ErrorDetector, NpovExample } from "@npov/core";
import {
  type CascadePrices,
  type CascadeTradeoff,
  calibrateCascade,
  evaluateCascade,
  formatCascadeTable,
  scoreForCascade,
} from "@npov/eval";
import { isEndpointMethod, LlmClient } from "@npov/llm";
import type { Command } from "commander";
import { cliDetector, finishDetectors, specFromOptions } from "../detectors.js";
import { progressBar } from "../progress.js";
import { numberOption, out, readDataset, requireBothOutcomes, UsageError, warn } from "../util.js";

/** The endpoint fields of a detector spec, dropped from stages that do not call an endpoint. */
const ENDPOINT_FIELDS = [
  "endpoint",
  "endpointModel",
  "apiKeyEnv",
  "cacheDir",
  "samples",
  "topLogprobs",
  "api",
  "seed",
  "concurrency",
  "attributes",
  "prices",
];

/** Add the cascade options to calibrate-guard. */
export function addCascadeOptions(command: Command): Command {
  return command
    .option(
      "--cascade <methods>",
      "calibrate a two-stage cascade instead, e.g. support,endpoint-classifier (stage 1 decides outside its band)",
    )
    .option(
      ...numberOption(
        "--target-recall <x>",
        "cascade: recall each error type must reach (within --target-fpr)",
        { min: 0, max: 1, minExclusive: true },
        0.8,
      ),
    )
    .option(
      "--stage-costs <usd,usd>",
      "cascade: USD per check of each stage (default: 0 for methods without an endpoint; an endpoint's is estimated from its token usage and --prices)",
    )
    .option("--heldout <file>", "cascade: also print the trade-off table of the chosen plans on this labelled file");
}

/** Parse --stage-costs. */
function parseCosts(value: string): [number, number] {
  const parts = value.split(",").map((p) => p.trim());
  const costs = parts.map(Number);
  if (parts.length !== 2 || costs.some((c) => !Number.isFinite(c) || c < 0) || parts.some((p) => p === ""))
    throw new UsageError(
      `--stage-costs must be two numbers >= 0 (USD per check of stage 1 and stage 2), e.g. 0,0.0004; got "${value}".`,
    );
  return costs as [number, number];
}

/** USD per check of a detector estimated from its endpoint client's usage, or undefined when unknown. */
function estimatedCost(detector: ErrorDetector, checks: number): number | undefined {
  const client = (detector as { client?: unknown }).client;
  if (!(client instanceof LlmClient)) return undefined;
  const u = client.usage();
  if (u.costUsd === undefined || u.requests === 0) return undefined;
  // Cached answers cost nothing now but would in production: price every request at the network average.
  return ((u.costUsd / u.requests) * (u.requests + u.cacheHits)) / checks;
}

/** Mean tokens per check of a detector's endpoint client so far (network requests only), or undefined. */
function tokensPerCheck(detector: ErrorDetector, checks: number): { prompt: number; completion: number } | undefined {
  const client = (detector as { client?: unknown }).client;
  if (!(client instanceof LlmClient)) return undefined;
  const u = client.usage();
  if (u.requests === 0) return undefined;
  // Per network request, times the requests (network or cached) a check makes.
  const perCheck = (u.requests + u.cacheHits) / checks / u.requests;
  return { prompt: u.promptTokens * perCheck, completion: u.completionTokens * perCheck };
}

/** The calibrate-guard --cascade action. */
export async function calibrateCascadeCommand(
  opts: {
    data: string;
    cascade: string;
    targetFpr: number;
    targetRecall: number;
    stageCosts?: string;
    heldout?: string;
    out: string;
  } & Record<string, unknown>,
): Promise<void> {
  const methods = opts.cascade.split(",").map((m) => m.trim());
  if (methods.length !== 2 || methods.some((m) => m === ""))
    throw new UsageError(
      `--cascade takes two methods, stage 1 then stage 2, e.g. support,endpoint-classifier; got "${opts.cascade}".`,
    );
  const stated = opts.stageCosts === undefined ? undefined : parseCosts(opts.stageCosts);
  const data = readDataset(opts.data);
  requireBothOutcomes(data, opts.data);
  let heldout: NpovExample<CheckInput>[] | undefined;
  if (opts.heldout !== undefined) {
    heldout = readDataset(opts.heldout);
    requireBothOutcomes(heldout, opts.heldout);
  }
  const shared = specFromOptions(opts);
  const specs: DetectorSpec[] = methods.map((method) => {
    const spec: DetectorSpec = { method, ...shared };
    if (!isEndpointMethod(method)) for (const k of ENDPOINT_FIELDS) delete spec[k];
    return spec;
  });
  const detectors: ErrorDetector[] = [];
  try {
    for (const spec of specs) detectors.push(await cliDetector(spec));
    const pair = detectors as [ErrorDetector, ErrorDetector];
    const concurrency = typeof shared.concurrency === "number" ? shared.concurrency : 1;
    const bar = progressBar("scoring");
    const scoring = await scoreForCascade(data, pair, { concurrency, onProgress: (d, t) => bar.update(d, t) }).finally(
      () => bar.stop(),
    );
    // Prices: stated, else estimated from the endpoint's usage (before the held-out run adds to it), else 0
    // for a stage without an endpoint.
    const costUsd = specs.map((spec, k) => {
      const given = stated?.[k];
      if (given !== undefined) return given;
      const estimate = estimatedCost(detectors[k] as ErrorDetector, data.length);
      if (estimate !== undefined) return estimate;
      if (!isEndpointMethod(spec.method)) return 0;
      throw new UsageError(
        `stage ${k + 1} (${spec.method}) has no price: give --stage-costs (USD per check of each stage, e.g. 0,0.0004) or --prices FILE.`,
      );
    }) as [number, number];
    const prices: CascadePrices = { costUsd, latencyMs: scoring.latencyMs };
    const c = calibrateCascade(scoring.scores, { targetRecall: opts.targetRecall, maxFpr: opts.targetFpr, prices });
    const describeCosts = `stage prices: ${costUsd.map((x, k) => `${methods[k]} $${x.toPrecision(3)}/check`).join(", ")}${stated ? " (stated)" : ""}; measured latency ${scoring.latencyMs.map((x, k) => `${methods[k]} ${x.toFixed(1)} ms`).join(", ")} (stage 2 with ${concurrency} check(s) in flight)`;
    out(`trade-off on ${opts.data} (n = ${c.n}; FPR <= ${opts.targetFpr} per error type; ${describeCosts})`);
    out(formatCascadeTable(c.table, prices));
    for (const [k, d] of detectors.entries()) {
      const tokens = tokensPerCheck(d, data.length);
      if (tokens !== undefined)
        out(
          `stage ${k + 1} (${methods[k]}) used ${tokens.prompt.toFixed(0)} prompt + ${tokens.completion.toFixed(1)} completion tokens per check on average: price it with --stage-costs or --prices.`,
        );
    }
    let heldoutRows: CascadeTradeoff[] | undefined;
    if (heldout !== undefined) {
      const bar2 = progressBar("scoring held-out");
      const h = await scoreForCascade(heldout, pair, { concurrency, onProgress: (d, t) => bar2.update(d, t) }).finally(
        () => bar2.stop(),
      );
      const heldoutPrices: CascadePrices = { costUsd, latencyMs: h.latencyMs };
      heldoutRows = c.table.map((row) => ({ ...row, ...evaluateCascade(h.scores, row.plan, heldoutPrices) }));
      out(`\nthe same plans on ${opts.heldout} (n = ${heldout.length}):`);
      out(formatCascadeTable(heldoutRows, heldoutPrices));
    }
    const chosen = c.chosen;
    const config: CascadeGuardConfig = {
      format: "npov-guard/2",
      stages: [
        { detector: specs[0] as DetectorSpec, band: chosen.plan.bands, costUsd: costUsd[0] },
        { detector: specs[1] as DetectorSpec, thresholds: chosen.plan.thresholds, costUsd: costUsd[1] },
      ],
      calibration: {
        rule: `recall>=${opts.targetRecall}, fpr<=${opts.targetFpr}, least cost`,
        data: opts.data,
        n: c.n,
        met: chosen.met,
        escalated: chosen.escalated,
        costPer1000: chosen.costPer1000,
        latencyMs: scoring.latencyMs,
        metrics: chosen.metrics,
        ...(heldoutRows === undefined
          ? {}
          : {
              heldout: {
                data: opts.heldout,
                n: heldout?.length,
                ...summary(heldoutRows.find((r) => r.label === chosen.label) as CascadeTradeoff),
              },
            }),
      },
    };
    saveGuardConfig(opts.out, config);
    const band = (t: "hallucination" | "coverage") =>
      `${t} band [${chosen.plan.bands[t].low.toFixed(4)}, ${chosen.plan.bands[t].high.toFixed(4)}) then ${methods[1]} >= ${chosen.plan.thresholds[t].toFixed(4)}`;
    out(
      `\nchosen (${chosen.label}): ${band("hallucination")}; ${band("coverage")}; ${(100 * chosen.escalated).toFixed(1)}% escalated, $${chosen.costPer1000.toFixed(4)} per 1,000 checks\ncascade guard config written to ${opts.out}`,
    );
    if (!chosen.met)
      warn(
        `no band reaches recall ${opts.targetRecall} for both error types within FPR ${opts.targetFpr} on ${opts.data}; the config keeps the most recall within the FPR budget. Lower --target-recall, raise --target-fpr, or use a stronger stage 2.`,
      );
  } finally {
    await finishDetectors(detectors);
  }
}

function summary(row: CascadeTradeoff) {
  return {
    escalated: row.escalated,
    costPer1000: row.costPer1000,
    latencyMs: row.latencyMs,
    recall: { hallucination: row.metrics.hallucination.recall, coverage: row.metrics.coverage.recall },
    fpr: { hallucination: row.metrics.hallucination.fpr, coverage: row.metrics.coverage.fpr },
  };
}
