/**
 * The endpoint detectors (endpoint-classifier, likert, attribution): their CLI options, their entries in
 * the detector-method table (so check, eval and guard.json configs can name them), one shared LlmClient
 * per endpoint, and the usage/cost line printed at the end of a run.
 *
 * A spec (CLI options or a guard.json `detector`) names the endpoint with `endpoint` (base URL) and the
 * model with `endpointModel`, or `model` when no local model is involved:
 * `{"method": "endpoint-classifier", "endpoint": "http://127.0.0.1:8000/v1", "model": "llama3.1",
 *   "apiKeyEnv": "MY_KEY", "cacheDir": ".cache/llm", "samples": 5, "api": "chat"}`.
 */

import type { ErrorDetector } from "@npov/core";
import {
  AttributionJudge,
  canonicalJson,
  DEFAULT_DEADLINE_MS,
  DEFAULT_MAX_RETRY_AFTER_MS,
  type EndpointApi,
  EndpointClassifier,
  formatUsage,
  LIKERT_ATTRIBUTES,
  type LikertAttribute,
  LikertJudge,
  LlmClient,
  type PriceTable,
} from "@npov/llm";
import type { Command } from "commander";
import { integerOption, numberOption, parseList, readJsonFile, SEED_RANGE, UsageError } from "../util.js";

/** Detector methods that call an OpenAI-compatible endpoint. */
export const ENDPOINT_METHODS = ["endpoint-classifier", "likert", "attribution"] as const;
export type EndpointMethod = (typeof ENDPOINT_METHODS)[number];

export function isEndpointMethod(method: string): method is EndpointMethod {
  return (ENDPOINT_METHODS as readonly string[]).includes(method);
}

/** The endpoint fields of a detector spec. */
export interface EndpointSpec {
  method?: string;
  endpoint?: string;
  endpointModel?: string;
  model?: string;
  apiKeyEnv?: string;
  cacheDir?: string;
  samples?: number;
  topLogprobs?: number;
  api?: EndpointApi;
  seed?: number;
  concurrency?: number;
  attributes?: LikertAttribute[];
  prices?: PriceTable;
  /** Total deadline of one endpoint call, retries included (LlmClient `deadlineMs`). */
  deadlineMs?: number;
  /** Longest Retry-After obeyed (LlmClient `maxRetryAfterMs`). */
  maxRetryAfterMs?: number;
}

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

// One client per endpoint and settings, so the detectors of a run share its concurrency limit and usage.
const clients = new Map<string, LlmClient>();

/** The shared client of a spec. @throws UsageError when the endpoint or its model is missing */
export function endpointClient(spec: EndpointSpec): LlmClient {
  const method = spec.method ?? "endpoint methods";
  if (spec.endpoint === undefined)
    throw new UsageError(`${method} needs --endpoint URL (an OpenAI-compatible /v1 base URL).`);
  const model = spec.endpointModel ?? spec.model;
  if (model === undefined)
    throw new UsageError(`${method} needs --endpoint-model NAME (the model the endpoint serves).`);
  const options = {
    baseURL: spec.endpoint,
    model,
    ...(spec.apiKeyEnv === undefined ? {} : { apiKeyEnv: spec.apiKeyEnv }),
    ...(spec.cacheDir === undefined ? {} : { cacheDir: spec.cacheDir }),
    ...(spec.concurrency === undefined ? {} : { concurrency: spec.concurrency }),
    ...(spec.prices === undefined ? {} : { prices: spec.prices }),
    ...(spec.deadlineMs === undefined ? {} : { deadlineMs: spec.deadlineMs }),
    ...(spec.maxRetryAfterMs === undefined ? {} : { maxRetryAfterMs: spec.maxRetryAfterMs }),
  };
  const key = canonicalJson(options);
  let client = clients.get(key);
  if (client === undefined) {
    client = new LlmClient(options);
    clients.set(key, client);
  }
  return client;
}

/** The endpoint detector of a spec. */
export function endpointDetector(method: EndpointMethod, spec: EndpointSpec): ErrorDetector {
  const client = endpointClient({ ...spec, method });
  const common = {
    ...(spec.api === undefined ? {} : { api: spec.api }),
    ...(spec.seed === undefined ? {} : { seed: spec.seed }),
    ...(spec.samples === undefined ? {} : { samples: spec.samples }),
  };
  if (method === "likert")
    return new LikertJudge(client, {
      ...common,
      ...(spec.attributes === undefined ? {} : { attributes: spec.attributes }),
    });
  const question = { ...common, ...(spec.topLogprobs === undefined ? {} : { topLogprobs: spec.topLogprobs }) };
  return method === "attribution" ? new AttributionJudge(client, question) : new EndpointClassifier(client, question);
}

/** Entries for the detector-method table: `{...ENDPOINT_DETECTOR_METHODS}`. */
export const ENDPOINT_DETECTOR_METHODS: Readonly<Record<EndpointMethod, (spec: object) => ErrorDetector>> = {
  "endpoint-classifier": (spec) => endpointDetector("endpoint-classifier", spec as EndpointSpec),
  likert: (spec) => endpointDetector("likert", spec as EndpointSpec),
  attribution: (spec) => endpointDetector("attribution", spec as EndpointSpec),
};

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
