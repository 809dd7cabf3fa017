/**
 * The reference writer: a deterministic template system (not a language model) that composes an
 * error-free NPOV response -- an opening that bridges from the query, then every given argument
 * verbalized once under its perspective -- and records which span of the response verbalizes which
 * argument. Synthetic errors start from its output.
 */
import {
  type ArgumentSpan,
  createRng,
  describe,
  InvalidValueError,
  type NpovInput,
  type Rng,
  requireArray,
  requireRecord,
  resolveStopwords,
  segmentWords,
  validateInput,
} from "@npov/core";
import { checkPlan, checkSeed, checkStyle } from "./checks.js";
import type { PlanItem, ResponsePlan, ResponseStyle } from "./plan.js";
import { lowercaseInitial, namesIn } from "./rewording.js";
import { FIRST_CONNECTORS, NEXT_CONNECTORS, OPENINGS, REWORDINGS } from "./wording.js";

export type { PlanItem, ResponsePlan, ResponseStyle };

/** Options of {@link writeReferenceResponse}. */
export interface WriterOptions {
  seed?: number | string;
  style?: ResponseStyle;
  /**
   * Words to keep capitalized at the start of an argument, besides the names the input shows (words
   * capitalized mid-sentence in its query or arguments): e.g. the names of the whole topic.
   */
  names?: readonly string[];
}

/** A written response and where each argument is verbalized. */
export interface ReferenceResponse {
  response: string;
  opening: string;
  core: string;
  style: ResponseStyle;
  /** Spans of `response` that verbalize each given argument (perspective label, argument id/text). */
  argumentSpans: ArgumentSpan[];
  /** The plan that was rendered (used to derive ambiguous errors). */
  plan: ResponsePlan;
}

function fill(template: string, input: NpovInput, label = ""): string {
  // One pass, values inserted verbatim: a "$&" or "{label}" inside the query stays as written.
  const values: Record<string, string> = { topic: input.topic.trim(), query: input.query.trim(), label };
  return template.replace(/\{(topic|query|label)\}/g, (_, key: string) => values[key] as string);
}

/** Names in the input (see {@link namesIn}): words capitalized mid-sentence in its query or arguments. */
function properNouns(input: NpovInput): Set<string> {
  return namesIn([input.query, ...input.perspectives.flatMap((p) => p.arguments.map((a) => a.text))]);
}

function contentWordCount(text: string): number {
  const stop = resolveStopwords("nltk");
  return segmentWords(text).filter((w) => !stop.has(w.lower)).length;
}

/** Apply up to `max` meaning-preserving word substitutions, keeping case. */
function reword(text: string, rng: Rng, max: number): string {
  const candidates = [...text.matchAll(/\p{L}+/gu)].filter((m) => REWORDINGS[m[0].toLowerCase()] !== undefined);
  const chosen = new Set(
    rng.sample(
      candidates.map((_, i) => i),
      Math.min(max, candidates.length),
    ),
  );
  let out = "";
  let last = 0;
  candidates.forEach((m, i) => {
    if (!chosen.has(i)) return;
    const word = m[0];
    let replacement = REWORDINGS[word.toLowerCase()] as string;
    if (/^\p{Lu}/u.test(word)) replacement = replacement.charAt(0).toUpperCase() + replacement.slice(1);
    out += text.slice(last, m.index) + replacement;
    last = m.index + word.length;
  });
  return out + text.slice(last);
}

/** Check {@link WriterOptions}. @throws InvalidValueError */
function checkWriterOptions(options: unknown): WriterOptions {
  const o = requireRecord(options, "options", "an object {seed?, style?, names?}") as WriterOptions;
  checkSeed(o.seed, "options.seed");
  if (o.style !== undefined) checkStyle(o.style, "options.style");
  if (o.names !== undefined)
    requireArray(o.names, "options.names", "an array of words").forEach((w, i) => {
      if (typeof w !== "string")
        throw new InvalidValueError(`options.names[${i}]`, `must be a word, got ${describe(w)}.`);
    });
  return o;
}

/**
 * Plan a response: opening, then each perspective's arguments in order with varied connectors.
 * @throws NpovError for an invalid input or options
 */
export function planResponse(input: NpovInput, options: WriterOptions = {}): ResponsePlan {
  const clean = validateInput(input);
  checkWriterOptions(options);
  const style = options.style ?? "close";
  const rng = createRng(options.seed ?? 0);
  const names = properNouns(clean);
  for (const name of options.names ?? []) names.add(name);
  const shortTopic = clean.topic.trim().split(/\s+/).length <= 4;
  const opening = fill(rng.pick(shortTopic ? OPENINGS : OPENINGS.filter((o) => !o.includes("{topic}"))), clean);
  const items: PlanItem[] = [];
  clean.perspectives.forEach((p, k) => {
    const firsts = FIRST_CONNECTORS[p.label] ?? (FIRST_CONNECTORS.default as readonly string[]);
    const nexts = rng.shuffle(NEXT_CONNECTORS);
    p.arguments.forEach((a, j) => {
      const connector = j === 0 ? fill(rng.pick(firsts), clean, p.label) : (nexts[(j - 1) % nexts.length] as string);
      let text = a.text.trim().replace(/[\s.!?;:]+$/u, "");
      // At most one substitution per three content words (and two in all), so every argument keeps
      // most of its words and the response still reads as error-free to word-overlap detectors.
      if (style === "free") text = reword(text, rng, Math.min(2, Math.floor(contentWordCount(text) / 3)));
      items.push({ perspectiveIndex: k, argumentIndex: j, connector, text: lowercaseInitial(text, names) });
    });
  });
  return { opening, items };
}

/** Render a plan to text, recording the span of each item's argument text. @throws NpovError for a bad input, plan or style */
export function renderPlan(input: NpovInput, plan: ResponsePlan, style: ResponseStyle = "close"): ReferenceResponse {
  input = validateInput(input);
  checkPlan(plan, input);
  checkStyle(style);
  let response = plan.opening;
  const argumentSpans: ArgumentSpan[] = [];
  for (const item of plan.items) {
    response += ` ${item.connector} `;
    const start = response.length;
    response += item.text;
    const end = response.length;
    response += ".";
    const perspective = input.perspectives[item.perspectiveIndex];
    const argument = perspective?.arguments[item.argumentIndex];
    const span: ArgumentSpan = {
      start,
      end,
      perspective: perspective?.label ?? "",
      argumentText: argument?.text ?? item.text,
    };
    if (argument?.id !== undefined) span.argumentId = argument.id;
    argumentSpans.push(span);
  }
  const core = response.slice(plan.opening.length + 1);
  return { response, opening: plan.opening, core, style, argumentSpans, plan };
}

/**
 * Write an error-free NPOV response for `input`, deterministically per seed. A template writer, not a
 * language model: it states each given argument once, under its perspective, and nothing else.
 */
export function writeReferenceResponse(input: NpovInput, options: WriterOptions = {}): ReferenceResponse {
  const clean = validateInput(input);
  checkWriterOptions(options);
  return renderPlan(clean, planResponse(clean, options), options.style ?? "close");
}
