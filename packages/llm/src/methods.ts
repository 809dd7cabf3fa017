/**
 * The endpoint detectors as detector methods: entries for a detector-method table (`loadGuard`'s `methods`,
 * the CLI's table, the promptfoo assertion), so a guard.json or any config can name them. A spec names the
 * endpoint with `endpoint` (base URL) and the model with `endpointModel`, or `model` when no local model is
 * involved: `{"method": "endpoint-classifier", "endpoint": "http://127.0.0.1:8000/v1", "model": "llama3.1",
 * "apiKeyEnv": "MY_KEY", "cacheDir": ".cache/llm", "samples": 5, "api": "chat"}`. Detectors built from
 * equal settings share one {@link LlmClient} (its concurrency limit and usage tally).
 */
import { type ErrorDetector, InvalidValueError } from "@npov/core";
import { AttributionJudge } from "./attribution.js";
import { canonicalJson } from "./cache.js";
import { EndpointClassifier } from "./classifier.js";
import { LlmClient, type PriceTable } from "./client.js";
import { type LikertAttribute, LikertJudge } from "./likert.js";
import type { EndpointApi } from "./yesno.js";

/** Detector methods that call an OpenAI-compatible endpoint. */
export const ENDPOINT_METHODS = ["endpoint-classifier", "likert", "attribution"] as const;
export type EndpointMethod = (typeof ENDPOINT_METHODS)[number];

/** Whether a method name is one of {@link ENDPOINT_METHODS}. */
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

// One client per endpoint and settings, so the detectors of a process share its concurrency limit and usage.
const clients = new Map<string, LlmClient>();

/**
 * The shared client of a spec.
 * @throws InvalidValueError when the endpoint or its model is missing
 */
export function endpointClient(spec: EndpointSpec): LlmClient {
  const method = spec.method ?? "endpoint methods";
  if (spec.endpoint === undefined)
    throw new InvalidValueError(
      "endpoint",
      `${method} needs --endpoint URL (an OpenAI-compatible /v1 base URL; "endpoint" in a config).`,
    );
  const model = spec.endpointModel ?? spec.model;
  if (model === undefined)
    throw new InvalidValueError(
      "endpointModel",
      `${method} needs --endpoint-model NAME (the model the endpoint serves; "endpointModel" or "model" in a config).`,
    );
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

/** The endpoint detector of a spec. @throws InvalidValueError (see {@link endpointClient}) */
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

/**
 * Entries for a detector-method table: `{...BUILTIN_DETECTOR_METHODS, ...ENDPOINT_DETECTOR_METHODS}` (the
 * first from @npov/classifier), e.g. `loadGuard(config, { methods })`.
 */
export const ENDPOINT_DETECTOR_METHODS: Readonly<Record<EndpointMethod, (spec: object) => ErrorDetector>> = {
  "endpoint-classifier": (spec) => endpointDetector("endpoint-classifier", spec as EndpointSpec),
  likert: (spec) => endpointDetector("likert", spec as EndpointSpec),
  attribution: (spec) => endpointDetector("attribution", spec as EndpointSpec),
};
