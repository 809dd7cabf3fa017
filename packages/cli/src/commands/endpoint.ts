/**
 * The endpoint detectors (endpoint-classifier, likert, attribution) on the command line: their CLI options
 * and the usage/cost line printed at the end of a run. Their detector methods (so check, eval and guard.json
 * configs can name them) and shared clients live in @npov/llm (`ENDPOINT_DETECTOR_METHODS`, `endpointClient`).
 */

import type { ErrorDetector } from "@npov/core";
import {
  DEFAULT_DEADLINE_MS,
  DEFAULT_MAX_RETRY_AFTER_MS,
  type EndpointSpec,
  formatUsage,
  LIKERT_ATTRIBUTES,
  LlmClient,
  type PriceTable,
} from "@npov/llm";
import type { Command } from "commander";
import { integerOption, numberOption, parseList, readJsonFile, SEED_RANGE, UsageError } from "../util.js";

export {
  ENDPOINT_DETECTOR_METHODS,
  ENDPOINT_METHODS,
  type EndpointMethod,
  type EndpointSpec,
  endpointClient,
  endpointDetector,
  isEndpointMethod,
} from "@npov/llm";

/** The options {@link addEndpointOptions} adds (commander's camel-cased names, as strings). */
export interface EndpointCliOptions {
  endpoint?: string;
  endpointModel?: string;
  model?: string;
  apiKeyEnv?: string;
  cacheDir?: string;
  samples?: number;
  topLogprobs?: number;
  api?: string;
  endpointSeed?: number;
  concurrency?: number;
  prices?: string;
  attributes?: string;
  timeout?: number;
  maxRetryAfter?: number;
}

/** The largest --timeout / --max-retry-after in seconds (a Node timer takes at most 2^31 - 1 ms). */
export const MAX_WAIT_SECONDS = 2_000_000;

/** The --timeout option of commands that call an endpoint: the total deadline of one call, in seconds. */
export const TIMEOUT_OPTION = numberOption(
  "--timeout <seconds>",
  `give up one endpoint call after this long in all: every attempt, retry wait and the whole reply (default ${DEFAULT_DEADLINE_MS / 1000})`,
  { min: 0.001, max: MAX_WAIT_SECONDS },
);

/** Seconds from an option, as the whole milliseconds LlmClient takes (at least 1). */
export const secondsToMs = (seconds: number): number => Math.max(1, Math.round(seconds * 1000));

/** Add the endpoint options to a command. */
export function addEndpointOptions(command: Command): Command {
  return command
    .option("--endpoint <url>", "OpenAI-compatible base URL for endpoint methods, e.g. http://127.0.0.1:8080/v1")
    .option("--endpoint-model <name>", "the endpoint's model name (--model works too when no local model is involved)")
    .option(
      "--api-key-env <name>",
      "environment variable holding the API key (default NPOV_API_KEY, then OPENAI_API_KEY)",
    )
    .option("--cache-dir <dir>", "cache endpoint responses here: a re-run is free and bit-identical")
    .option(
      ...integerOption(
        "--samples <k>",
        "endpoint-classifier/attribution: k sampled answers when logprobs are missing; likert: answers per item",
        { min: 1, max: 1000 },
      ),
    )
    .option(
      ...integerOption("--top-logprobs <k>", "alternatives per answer token (default 20 for chat, 5 for completions)", {
        min: 1,
        max: 1_000_000,
      }),
    )
    .option("--api <kind>", "chat (default) or completions (raw prompts: what npov serve answers)", "chat")
    .option(...integerOption("--endpoint-seed <n>", "first seed of sampled answers", SEED_RANGE, 0))
    .option(...integerOption("--concurrency <n>", "endpoint requests in flight at once", { min: 1, max: 1000 }, 4))
    .option("--prices <file>", 'price table {"model": {"input": USD per 1M tokens, "output": ...}} for the cost line')
    .option(...TIMEOUT_OPTION)
    .option(
      ...numberOption(
        "--max-retry-after <seconds>",
        `longest Retry-After to wait for; a server asking for more fails the call with RATE_LIMITED (default ${DEFAULT_MAX_RETRY_AFTER_MS / 1000})`,
        { min: 0, max: MAX_WAIT_SECONDS },
      ),
    )
    .option("--attributes <list>", `likert attributes: ${LIKERT_ATTRIBUTES.join(", ")}`, LIKERT_ATTRIBUTES.join(","));
}

/** Parse the CLI options into spec fields (only those given). */
export function endpointSpec(opts: EndpointCliOptions): EndpointSpec {
  const api = opts.api ?? "chat";
  if (api !== "chat" && api !== "completions") throw new UsageError(`--api must be chat or completions, got "${api}".`);
  return {
    ...(opts.endpoint === undefined ? {} : { endpoint: opts.endpoint }),
    ...(opts.endpointModel === undefined ? {} : { endpointModel: opts.endpointModel }),
    ...(opts.apiKeyEnv === undefined ? {} : { apiKeyEnv: opts.apiKeyEnv }),
    ...(opts.cacheDir === undefined ? {} : { cacheDir: opts.cacheDir }),
    ...(opts.samples === undefined ? {} : { samples: opts.samples }),
    ...(opts.topLogprobs === undefined ? {} : { topLogprobs: opts.topLogprobs }),
    api,
    seed: opts.endpointSeed ?? 0,
    concurrency: opts.concurrency ?? 4,
    ...(opts.prices === undefined ? {} : { prices: readJsonFile(opts.prices) as PriceTable }),
    ...(opts.timeout === undefined ? {} : { deadlineMs: secondsToMs(opts.timeout) }),
    ...(opts.maxRetryAfter === undefined ? {} : { maxRetryAfterMs: Math.round(opts.maxRetryAfter * 1000) }),
    attributes: parseList(opts.attributes ?? LIKERT_ATTRIBUTES.join(","), LIKERT_ATTRIBUTES, "--attributes"),
  };
}

/** Say on stderr what the endpoint calls of a run cost, once per endpoint (stdout stays machine-readable). */
export function reportEndpointUsage(detectors: readonly ErrorDetector[]): void {
  const seen = new Set<LlmClient>();
  for (const d of detectors) {
    const client = (d as { client?: unknown }).client;
    if (client instanceof LlmClient && !seen.has(client)) {
      seen.add(client);
      process.stderr.write(`npov: ${formatUsage(client.usage())}\n`);
    }
  }
}

/**
 * The option group of the endpoint methods for the CLI's method table: declares the options on a command
 * and turns them into spec fields (none unless --endpoint is given, so other methods' specs and stored
 * guard configs stay clean).
 */
export const ENDPOINT_METHOD_OPTIONS = {
  add: addEndpointOptions,
  spec(opts: Record<string, unknown>): Record<string, unknown> {
    const o = opts as EndpointCliOptions;
    return o.endpoint === undefined ? {} : { ...endpointSpec(o) };
  },
};
