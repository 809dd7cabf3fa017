/**
 * Ask an endpoint a YES/NO question and read P(NO): from the answer token's log-probabilities (see
 * labels.ts for the rule), or -- for endpoints without log-probabilities, when enabled -- from k sampled
 * answers (P(NO) = fraction of readable answers that say NO; k, the seeds and the counts are recorded).
 */
import { InvalidValueError } from "@npov/core";
import type { LlmClient } from "./client.js";
import { EndpointError, LabelLogprobsError, UnparseableAnswersError } from "./errors.js";
import { checkLabels, DEFAULT_LABELS, type Labels, labelOfText, labelProbabilityOf } from "./labels.js";

/** Which protocol to speak: chat completions (a system + user message) or plain completions (the raw prompt). */
export type EndpointApi = "chat" | "completions";

export interface YesNoQuestionOptions {
  /** Default "chat". npov serve answers raw prompts on "completions". */
  api?: EndpointApi;
  /** Alternatives per position (default 20 for chat, 5 for completions: OpenAI's limits). */
  topLogprobs?: number;
  /** Tokens generated per question (default 3: room to skip a leading space or `{`). */
  maxTokens?: number;
  /** The two labels (default YES / NO). */
  labels?: Labels;
  /**
   * The sampling fallback: when > 0 and the endpoint gives no usable log-probabilities, sample this many
   * answers (temperature {@link YesNoQuestionOptions.temperature}, seeds seed, seed+1, ...). Default 0 (off:
   * a typed error instead).
   */
  samples?: number;
  /** First seed of the fallback's samples (default 0). */
  seed?: number;
  /** Sampling temperature of the fallback (default 1). */
  temperature?: number;
  /** Chat only: the system message (default {@link YES_NO_SYSTEM_PROMPT}). */
  systemPrompt?: string;
}

/** The system message of chat questions. */
export const YES_NO_SYSTEM_PROMPT = "Answer the question with YES or NO only.";

/** What one YES/NO question returned. */
export interface YesNoAnswer {
  /** P(NO) in [0, 1]. */
  pNo: number;
  method: "logprobs" | "sampling";
  /** Logprobs: summed probability of the YES and NO tokens in the answer token's top-k. */
  yesMass?: number;
  noMass?: number;
  /** Sampling: k, the seeds used, and how the answers read. */
  samples?: { k: number; seeds: number[]; temperature: number; yes: number; no: number; unparsed: number };
}

/** Validated options with defaults filled in. */
export function yesNoDefaults(o: YesNoQuestionOptions): Required<YesNoQuestionOptions> {
  const api = o.api ?? "chat";
  if (api !== "chat" && api !== "completions") throw new InvalidValueError("api", 'must be "chat" or "completions".');
  const int = (name: string, v: number, min: number) => {
    if (!Number.isInteger(v) || v < min) throw new InvalidValueError(name, `must be an integer >= ${min}, got ${v}.`);
    return v;
  };
  const temperature = o.temperature ?? 1;
  if (!(temperature >= 0 && temperature <= 2)) throw new InvalidValueError("temperature", "must be in [0, 2].");
  return {
    api,
    topLogprobs: int("topLogprobs", o.topLogprobs ?? (api === "chat" ? 20 : 5), 1),
    maxTokens: int("maxTokens", o.maxTokens ?? 3, 1),
    labels: o.labels === undefined ? DEFAULT_LABELS : checkLabels(o.labels),
    samples: int("samples", o.samples ?? 0, 0),
    seed: int("seed", o.seed ?? 0, 0),
    temperature,
    systemPrompt: o.systemPrompt ?? YES_NO_SYSTEM_PROMPT,
  };
}

/** Send one prompt; returns the raw response JSON and its first choice's text. */
async function send(
  client: LlmClient,
  o: Required<YesNoQuestionOptions>,
  prompt: string,
  sampling: { temperature: number; seed: number } | undefined,
): Promise<{ response: unknown; text: string }> {
  const common = {
    max_tokens: o.maxTokens,
    temperature: sampling?.temperature ?? 0,
    seed: sampling?.seed ?? o.seed,
  };
  if (o.api === "chat") {
    const response = await client.chat({
      ...common,
      messages: [
        { role: "system", content: o.systemPrompt },
        { role: "user", content: prompt },
      ],
      ...(sampling === undefined ? { logprobs: true, top_logprobs: o.topLogprobs } : {}),
    });
    return { response, text: response.choices[0]?.message?.content ?? "" };
  }
  const response = await client.complete({
    ...common,
    prompt,
    ...(sampling === undefined ? { logprobs: o.topLogprobs } : {}),
  });
  return { response, text: response.choices[0]?.text ?? "" };
}

/**
 * Ask `prompt` and read P(NO).
 * @throws LabelLogprobsError when the answer has no usable log-probabilities and the fallback is off
 * @throws UnparseableAnswersError when every sampled answer is neither label
 */
export async function askYesNo(
  client: LlmClient,
  prompt: string,
  options: YesNoQuestionOptions = {},
): Promise<YesNoAnswer> {
  const o = yesNoDefaults(options);
  try {
    const { response } = await send(client, o, prompt, undefined);
    const p = labelProbabilityOf(response, o.labels);
    return { pNo: p.pNo, method: "logprobs", yesMass: p.yesMass, noMass: p.noMass };
  } catch (error) {
    // No usable log-probabilities, or an endpoint that refuses the logprobs parameters (400/422).
    const refused = error instanceof EndpointError && (error.status === 400 || error.status === 422);
    if (o.samples === 0 || !(error instanceof LabelLogprobsError || refused)) throw error;
  }
  return sampleYesNo(client, prompt, o);
}

async function sampleYesNo(client: LlmClient, prompt: string, o: Required<YesNoQuestionOptions>): Promise<YesNoAnswer> {
  const seeds = Array.from({ length: o.samples }, (_, i) => o.seed + i);
  const texts = await Promise.all(
    seeds.map(async (seed) => (await send(client, o, prompt, { temperature: o.temperature, seed })).text),
  );
  let yes = 0;
  let no = 0;
  const unreadable: string[] = [];
  for (const text of texts) {
    const label = labelOfText(text, o.labels);
    if (label === "yes") yes++;
    else if (label === "no") no++;
    else unreadable.push(text);
  }
  if (yes + no === 0)
    throw new UnparseableAnswersError(
      `none of the ${o.samples} sampled answers starts with ${o.labels.yes} or ${o.labels.no} (first: ${JSON.stringify(
        (texts[0] ?? "").slice(0, 80),
      )}): check the model follows the instruction, or raise samples.`,
      unreadable,
    );
  return {
    pNo: no / (yes + no),
    method: "sampling",
    samples: { k: o.samples, seeds, temperature: o.temperature, yes, no, unparsed: unreadable.length },
  };
}
