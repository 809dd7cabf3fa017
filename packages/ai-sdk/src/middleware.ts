/**
 * npov as AI SDK language-model middleware (`wrapLanguageModel({ model, middleware })`, specification v4,
 * AI SDK 7): every generated or streamed answer is checked by an npov guard against the NPOV input or the
 * sources the caller gives for the call, then passed on with the verdict in its provider metadata (`npov`),
 * blocked with a typed error, or regenerated with a new seed and the evidence fed back.
 *
 * Streams pass through while the text is buffered; each time a sentence is known to be complete (the next
 * one has begun) the text so far is checked for hallucination, so an unsupported sentence can be cut before
 * the rest streams; the whole text is checked at the end (hallucination and coverage). A detector may judge
 * the last sentence of a text apart from the others (`support` reads it as a possible closing remark), so a
 * sentence is only sure to be judged as a body sentence by the check after it: with such a detector a cut
 * can come one sentence late, and `streamRelease: "checked"` holds text back until a check has seen the
 * sentence after it (or the final check passed). A guard that cannot check blocks (fail closed) under
 * "block" and "regenerate".
 */
import type {
  JSONObject,
  LanguageModelV4CallOptions,
  LanguageModelV4GenerateResult,
  LanguageModelV4Middleware,
  LanguageModelV4Prompt,
  LanguageModelV4StreamPart,
  LanguageModelV4Usage,
  SharedV4ProviderOptions,
} from "@ai-sdk/provider";
import type { Guard, GuardVerdict } from "@npov/classifier";
import {
  type CheckInput,
  describe,
  InvalidValueError,
  isSourcesInput,
  requireNumber,
  splitSentences,
  validateCheckInput,
} from "@npov/core";
import { ResponseBlockedError } from "./errors.js";

/** What the middleware does with an answer the guard does not allow. */
export type GuardPolicy = "flag" | "block" | "regenerate";
const POLICIES: readonly GuardPolicy[] = ["flag", "block", "regenerate"];

/** The provider-options key the middleware reads (`providerOptions.npov.input`) and the metadata key it writes. */
export const NPOV_KEY = "npov";

/** Options of {@link npovGuardMiddleware}. */
export interface NpovGuardMiddlewareOptions {
  /** A loaded guard (`loadGuard` of @npov/classifier): one detector or a cascade. */
  guard: Guard;
  /**
   * The input a call's answer is checked against, when the call gives none in `providerOptions.npov.input`:
   * a function of the call's parameters (e.g. the retrieved sources of a RAG app) returning an NPOV input
   * `{topic, query, perspectives}` or a sources input `{query?, sources: [{id?, title?, text}]}`.
   */
  input?: (params: LanguageModelV4CallOptions) => CheckInput | undefined | Promise<CheckInput | undefined>;
  /**
   * "flag": pass every answer on, with the verdict in its provider metadata; "block" (default): throw
   * {@link ResponseBlockedError} (a stream ends with an error part); "regenerate": generate again up to
   * `maxAttempts` times (streams: as "block", since streamed text cannot be taken back).
   */
  policy?: GuardPolicy;
  /** "regenerate": attempts in all, the first included (default 3, at most 20). */
  maxAttempts?: number;
  /** "regenerate": the temperature of retries (default: the call's own). */
  retryTemperature?: number;
  /** "regenerate": when no attempt is allowed, "block" (default: throw with the best attempt's verdict) or "flag" (return the best attempt). */
  onExhausted?: "block" | "flag";
  /** Streams: "sentence" (default) checks the text so far after each completed sentence, "end" only at the end. */
  streamCheck?: "sentence" | "end";
  /**
   * Streams: "immediate" (default) passes text on as it arrives (a flagged sentence has been shown when it
   * is cut); "checked" holds a sentence back until a check that also saw the sentence after it passed, or
   * the final check did (up to two sentences of delay; the client never sees a flagged sentence).
   */
  streamRelease?: "immediate" | "checked";
}

/** A check made during a stream: the text up to `end` and whether the guard allowed its hallucination score. */
export interface StreamCheck {
  /** End offset (exclusive) of the checked text in the streamed text. */
  end: number;
  allow: boolean;
  /** The hallucination score of the text so far, or undefined when the guard could not check. */
  hallucination?: number;
}

/** One generation attempt of the "regenerate" policy. */
export interface GuardAttempt {
  attempt: number;
  /** The seed sent with this attempt (undefined: the call's own, unset). */
  seed?: number;
  /** The feedback sent with this attempt (none for the first). */
  feedback?: string;
  verdict: GuardVerdict;
}

/** What the middleware writes to `providerMetadata.npov` of a result (generate) or of the `finish` part (stream). */
export interface NpovGuardMetadata {
  /** Whether the returned answer was allowed. */
  allowed: boolean;
  policy: GuardPolicy;
  /** The verdict on the returned answer (undefined when it was not checked: see `skipped`). */
  verdict?: GuardVerdict;
  /** Every attempt (policy "regenerate"). */
  attempts?: GuardAttempt[];
  /** Checks made while streaming, in order (streams with `streamCheck: "sentence"`). */
  checks?: StreamCheck[];
  /** Why the answer was not checked, e.g. "tool calls only". */
  skipped?: string;
}

/**
 * Provider options carrying the input to check a call's answer against:
 * `generateText({ model, prompt, providerOptions: npovProviderOptions(input) })`.
 * @throws the errors of validateCheckInput for an invalid input
 */
export function npovProviderOptions(input: CheckInput): SharedV4ProviderOptions {
  return { [NPOV_KEY]: { input: validateCheckInput(input) as unknown as JSONObject } };
}

/** The npov metadata of a result's (or a finish part's) provider metadata, or undefined when there is none. */
export function npovMetadata(providerMetadata: unknown): NpovGuardMetadata | undefined {
  const m = (providerMetadata as Record<string, unknown> | undefined)?.[NPOV_KEY];
  return typeof m === "object" && m !== null ? (m as unknown as NpovGuardMetadata) : undefined;
}

/** The instruction fed back for a regeneration, from the verdict's evidence (none for an unscored answer). */
export function feedbackInstruction(verdict: GuardVerdict, kind: "npov" | "sources"): string | undefined {
  if (verdict.error) return undefined;
  const parts: string[] = [];
  const missing = verdict.coverage.evidence.uncoveredArguments.map((a) => `"${a.text}"`);
  if (verdict.coverage.flagged && missing.length > 0)
    parts.push(
      kind === "sources"
        ? `Make sure to cover these points of the sources: ${missing.join("; ")}.`
        : `Make sure to state these given arguments: ${missing.join("; ")}.`,
    );
  const extra = verdict.hallucination.evidence.sentences.map((s) => `"${s.text}"`);
  if (verdict.hallucination.flagged) {
    if (extra.length === 0)
      parts.push(
        kind === "sources" ? "Say nothing the sources do not support." : "Add nothing beyond the given arguments.",
      );
    else
      parts.push(
        kind === "sources"
          ? `Remove claims the sources do not support, such as: ${extra.join("; ")}.`
          : `Remove content that is not among the given arguments, such as: ${extra.join("; ")}.`,
      );
  }
  return parts.length > 0 ? `Revise your previous answer. ${parts.join(" ")}` : undefined;
}

/** How far a verdict is over its thresholds (<= 0 when allowed); an unscored answer is the worst. */
function excess(v: GuardVerdict): number {
  if (v.error) return Number.POSITIVE_INFINITY;
  return Math.max(v.hallucination.score - v.hallucination.threshold, v.coverage.score - v.coverage.threshold);
}

/** The answer text of a generate result: its text parts, in order (reasoning and tool calls excluded). */
function resultText(result: LanguageModelV4GenerateResult): string {
  return result.content
    .filter((c): c is Extract<typeof c, { type: "text" }> => c.type === "text")
    .map((c) => c.text)
    .join("");
}

/** Sum two usages field by field (a field unknown in either stays unknown). */
function addUsage(a: LanguageModelV4Usage, b: LanguageModelV4Usage): LanguageModelV4Usage {
  const add = (x: number | undefined, y: number | undefined) =>
    x === undefined || y === undefined ? undefined : x + y;
  return {
    ...a,
    inputTokens: {
      total: add(a.inputTokens.total, b.inputTokens.total),
      noCache: add(a.inputTokens.noCache, b.inputTokens.noCache),
      cacheRead: add(a.inputTokens.cacheRead, b.inputTokens.cacheRead),
      cacheWrite: add(a.inputTokens.cacheWrite, b.inputTokens.cacheWrite),
    },
    outputTokens: {
      ...a.outputTokens,
      total: add(a.outputTokens.total, b.outputTokens.total),
      text: add(a.outputTokens.text, b.outputTokens.text),
      reasoning: add(a.outputTokens.reasoning, b.outputTokens.reasoning),
    },
  };
}

function withMetadata<T extends { providerMetadata?: Record<string, JSONObject> }>(
  value: T,
  meta: NpovGuardMetadata,
): T {
  return { ...value, providerMetadata: { ...value.providerMetadata, [NPOV_KEY]: meta as unknown as JSONObject } };
}

/** Reject with the signal's reason as soon as it aborts; `work` otherwise. */
function abortable<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (signal === undefined) return work;
  if (signal.aborted) return Promise.reject(signal.reason);
  work.catch(() => undefined);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(
      (v) => {
        signal.removeEventListener("abort", onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener("abort", onAbort);
        reject(e);
      },
    );
  });
}

// A sentence can only have ended before a following one begins: end punctuation or a line break, then more text.
const MAY_END_SENTENCE = /[.!?\u2026\u3002\uff01\uff1f\n]["'\u201d\u2019)\]]*\s+\S/u;

/**
 * The end offset of the text's last complete sentence at or after `from` (a sentence boundary): the end of
 * the sentence before the last one wink-nlp finds in `text.slice(from)`; `from` when none is complete yet.
 */
function completedThrough(text: string, from: number): number {
  const tail = text.slice(from);
  if (!MAY_END_SENTENCE.test(tail)) return from;
  const sentences = splitSentences(tail);
  if (sentences.length < 2) return from;
  return from + (sentences[sentences.length - 2] as { end: number }).end;
}

function checkOptions(options: NpovGuardMiddlewareOptions) {
  if (typeof options !== "object" || options === null)
    throw new InvalidValueError("options", "give npovGuardMiddleware {guard, policy?, input?, ...}.");
  if (typeof options.guard?.check !== "function")
    throw new InvalidValueError("guard", "give a loaded guard (loadGuard of @npov/classifier).");
  const policy = options.policy ?? "block";
  if (!POLICIES.includes(policy))
    throw new InvalidValueError("policy", `must be "flag", "block" or "regenerate", got ${describe(policy)}.`);
  if (options.input !== undefined && typeof options.input !== "function")
    throw new InvalidValueError("input", "must be a function of the call's parameters returning the input.");
  const maxAttempts = requireNumber(options.maxAttempts ?? 3, "maxAttempts", { min: 1, max: 20, integer: true });
  if (options.retryTemperature !== undefined) requireNumber(options.retryTemperature, "retryTemperature", { min: 0 });
  const choice = <T extends string>(value: T | undefined, path: string, allowed: readonly T[], fallback: T): T => {
    const v = value ?? fallback;
    if (!allowed.includes(v))
      throw new InvalidValueError(path, `must be ${allowed.map((a) => `"${a}"`).join(" or ")}, got ${describe(v)}.`);
    return v;
  };
  return {
    guard: options.guard,
    policy,
    maxAttempts,
    retryTemperature: options.retryTemperature,
    onExhausted: choice(options.onExhausted, "onExhausted", ["block", "flag"] as const, "block"),
    streamCheck: choice(options.streamCheck, "streamCheck", ["sentence", "end"] as const, "sentence"),
    streamRelease: choice(options.streamRelease, "streamRelease", ["immediate", "checked"] as const, "immediate"),
    input: options.input,
  };
}

/**
 * The npov guard as AI SDK middleware (see the module comment):
 * `wrapLanguageModel({ model, middleware: npovGuardMiddleware({ guard, policy: "block" }) })`, then pass
 * each call's input with `providerOptions: npovProviderOptions(input)` (or give `input` here).
 * @throws InvalidValueError for bad options. Calls throw InvalidValueError when no input is given, the
 *   errors of validateCheckInput for an invalid one, ResponseBlockedError when blocked, and the abort
 *   reason when the call's abortSignal fires.
 */
export function npovGuardMiddleware(options: NpovGuardMiddlewareOptions): LanguageModelV4Middleware {
  const o = checkOptions(options);

  const inputOf = async (params: LanguageModelV4CallOptions): Promise<CheckInput> => {
    const given = params.providerOptions?.[NPOV_KEY]?.input;
    if (given !== undefined) return validateCheckInput(given, `providerOptions.${NPOV_KEY}.input`);
    const computed = o.input === undefined ? undefined : await o.input(params);
    if (computed === undefined)
      throw new InvalidValueError(
        `providerOptions.${NPOV_KEY}.input`,
        "give the NPOV input or sources this call's answer is checked against (providerOptions: npovProviderOptions(input)), or an input function in npovGuardMiddleware's options.",
      );
    return validateCheckInput(computed, "input");
  };

  const check = (input: CheckInput, text: string, signal: AbortSignal | undefined) =>
    abortable(o.guard.check(input, text), signal);

  return {
    specificationVersion: "v4",

    async wrapGenerate({ doGenerate, params, model }) {
      const signal = params.abortSignal;
      const input = await inputOf(params);
      const kind = isSourcesInput(input) ? "sources" : "npov";
      let result = await doGenerate();
      let text = resultText(result);
      if (text.trim() === "" && result.content.some((c) => c.type === "tool-call"))
        return withMetadata(result, { allowed: true, policy: o.policy, skipped: "tool calls only" });
      let verdict = await check(input, text, signal);
      if (o.policy !== "regenerate") {
        if (!verdict.allow && o.policy === "block") throw new ResponseBlockedError(verdict, text);
        return withMetadata(result, { allowed: verdict.allow, policy: o.policy, verdict });
      }
      const attempts: GuardAttempt[] = [
        { attempt: 1, ...(params.seed === undefined ? {} : { seed: params.seed }), verdict },
      ];
      let best = { result, text, verdict };
      let usage = result.usage;
      for (let k = 1; k < o.maxAttempts && !verdict.allow; k++) {
        signal?.throwIfAborted();
        const feedback = feedbackInstruction(verdict, kind);
        const prompt: LanguageModelV4Prompt = feedback
          ? [
              ...params.prompt,
              { role: "assistant", content: [{ type: "text", text }] },
              { role: "user", content: [{ type: "text", text: feedback }] },
            ]
          : params.prompt;
        const seed = (params.seed ?? 0) + k;
        result = await model.doGenerate({
          ...params,
          prompt,
          seed,
          ...(o.retryTemperature === undefined ? {} : { temperature: o.retryTemperature }),
        });
        usage = addUsage(usage, result.usage);
        text = resultText(result);
        verdict = await check(input, text, signal);
        attempts.push({ attempt: k + 1, seed, ...(feedback === undefined ? {} : { feedback }), verdict });
        if (excess(verdict) < excess(best.verdict)) best = { result, text, verdict };
      }
      const chosen = verdict.allow ? { result, text, verdict } : best;
      if (!chosen.verdict.allow && o.onExhausted === "block")
        throw new ResponseBlockedError(chosen.verdict, chosen.text, attempts.length);
      // Usage counts every attempt: that is what the calls cost.
      return withMetadata(
        { ...chosen.result, usage },
        { allowed: chosen.verdict.allow, policy: o.policy, verdict: chosen.verdict, attempts },
      );
    },

    async wrapStream({ doStream, params }) {
      const signal = params.abortSignal;
      const input = await inputOf(params);
      const { stream, ...rest } = await doStream();
      const checks: StreamCheck[] = [];
      const held: Array<{ part: LanguageModelV4StreamPart; end: number }> = [];
      let text = "";
      let checkedThrough = 0;
      let sawToolCall = false;
      let done = false;
      const immediate = o.streamRelease === "immediate";

      /** Pass on held parts whose text ends at or before `through` (all of them for Infinity). */
      const release = (controller: TransformStreamDefaultController<LanguageModelV4StreamPart>, through: number) => {
        while (held.length > 0 && (held[0] as { end: number }).end <= through)
          controller.enqueue((held.shift() as { part: LanguageModelV4StreamPart }).part);
        // A text part straddling the checked end: pass on its checked head, keep its tail.
        const first = held[0];
        if (first !== undefined && first.part.type === "text-delta" && Number.isFinite(through)) {
          const start = first.end - first.part.delta.length;
          if (start < through) {
            controller.enqueue({ ...first.part, delta: first.part.delta.slice(0, through - start) });
            first.part = { ...first.part, delta: first.part.delta.slice(through - start) };
          }
        }
      };
      const block = (
        controller: TransformStreamDefaultController<LanguageModelV4StreamPart>,
        verdict: GuardVerdict,
      ): void => {
        done = true;
        controller.enqueue({ type: "error", error: new ResponseBlockedError(verdict, text) });
        // Ends the readable side and cancels the model's stream: no more tokens are paid for.
        controller.terminate();
      };
      /** The final check, before the finish part (or at the end of a stream without one). */
      const finish = async (
        controller: TransformStreamDefaultController<LanguageModelV4StreamPart>,
        finishPart?: Extract<LanguageModelV4StreamPart, { type: "finish" }>,
      ) => {
        done = true;
        const meta: NpovGuardMetadata = { allowed: true, policy: o.policy };
        if (o.streamCheck === "sentence") meta.checks = checks;
        if (text.trim() === "" && sawToolCall) meta.skipped = "tool calls only";
        else {
          const verdict = await check(input, text, signal);
          meta.verdict = verdict;
          meta.allowed = verdict.allow;
          if (!verdict.allow && o.policy !== "flag") return block(controller, verdict);
        }
        release(controller, Number.POSITIVE_INFINITY);
        if (finishPart !== undefined) controller.enqueue(withMetadata(finishPart, meta));
      };

      const guarded = new TransformStream<LanguageModelV4StreamPart, LanguageModelV4StreamPart>({
        async transform(part, controller) {
          if (done) return;
          signal?.throwIfAborted();
          if (part.type === "finish") return finish(controller, part);
          if (part.type !== "text-delta") {
            if (part.type === "tool-call" || part.type === "tool-input-start") sawToolCall = true;
            if (immediate || held.length === 0) controller.enqueue(part);
            else held.push({ part, end: text.length });
            return;
          }
          text += part.delta;
          if (immediate) controller.enqueue(part);
          else held.push({ part, end: text.length });
          if (o.streamCheck !== "sentence") return;
          const through = completedThrough(text, checkedThrough);
          if (through <= checkedThrough) return;
          const verdict = await check(input, text.slice(0, through), signal);
          const allow = !verdict.error && !verdict.hallucination.flagged;
          checks.push({
            end: through,
            allow,
            ...(verdict.error ? {} : { hallucination: verdict.hallucination.score }),
          });
          // Mid-stream only hallucination can be judged: coverage needs the whole answer.
          if (!allow && o.policy !== "flag") return block(controller, verdict);
          // A detector may judge a text's last sentence apart (support reads it as a possible closing
          // remark), so a sentence counts as checked once a check has also seen the sentence after it.
          if (!immediate) release(controller, checkedThrough);
          checkedThrough = through;
        },
        async flush(controller) {
          if (done) return;
          signal?.throwIfAborted();
          await finish(controller);
        },
      });
      return { ...rest, stream: stream.pipeThrough(guarded, signal === undefined ? {} : { signal }) };
    },
  };
}
