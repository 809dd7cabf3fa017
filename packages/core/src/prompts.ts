/**
 * Prompt formats of the paper (SPEC section 1), byte-exact, generalized to any number of perspectives.
 */
import { describe, GeneratorOutputError, InvalidValueError, NotTextError } from "./errors.js";
import type { NpovInput, Perspective } from "./types.js";
import { validateInput, validatePerspective, validateResponse } from "./validate.js";

/** `pro: <a> pro: <b>`: a perspective's arguments, each prefixed by its label. @throws NpovError for a bad perspective */
export function formatArguments(perspective: Perspective): string {
  const p = validatePerspective(perspective, "perspective");
  return p.arguments.map((a) => `${p.label}: ${a.text.trim()}`).join(" ");
}

/** Where each given argument's text sits inside a prompt. */
export interface PromptArgumentSpan {
  perspective: number;
  argument: number;
  start: number;
  end: number;
}

/** A prompt and the character spans of the argument texts inside it. */
export interface PromptLayout {
  prompt: string;
  arguments: PromptArgumentSpan[];
}

/**
 * The generator prompt (paper Figure 3) with the span of every argument text inside it:
 * `User question: {Q} Topic: {T} Perspective #1: {pro: a pro: b} Perspective #2: {con: c} Neutral response opening: {`
 */
export function generatorPromptLayout(input: NpovInput): PromptLayout {
  const clean = validateInput(input);
  let prompt = `User question: {${clean.query.trim()}} Topic: {${clean.topic.trim()}}`;
  const spans: PromptArgumentSpan[] = [];
  clean.perspectives.forEach((p, k) => {
    prompt += ` Perspective #${k + 1}: {`;
    p.arguments.forEach((a, j) => {
      prompt += `${j === 0 ? "" : " "}${p.label}: `;
      const text = a.text.trim();
      spans.push({ perspective: k, argument: j, start: prompt.length, end: prompt.length + text.length });
      prompt += text;
    });
    prompt += "}";
  });
  prompt += " Neutral response opening: {";
  return { prompt, arguments: spans };
}

/** The generator prompt (paper Figure 3); see {@link generatorPromptLayout} for argument spans. */
export function generatorPrompt(input: NpovInput): string {
  return generatorPromptLayout(input).prompt;
}

/** The generator's target sequence: `<opening>} Neutral response core: {<core>}`. @throws NotTextError */
export function generatorTarget(opening: string, core: string): string {
  if (typeof opening !== "string") throw new NotTextError("opening", opening);
  if (typeof core !== "string") throw new NotTextError("core", core);
  return `${opening.trim()}} Neutral response core: {${core.trim()}}`;
}

/** Which classifier prompt to build. */
export type ClassifierTask = "coverage" | "hallucination";

/** The last line of each classifier prompt (paper Figure 4). */
export const CLASSIFIER_QUESTIONS: Readonly<Record<ClassifierTask, string>> = Object.freeze({
  coverage: "All the given arguments are covered by the neutral response: {",
  hallucination: "Only given arguments are contained in the neutral response: {",
});

/**
 * The classifier prompt (paper Figure 4):
 * `User question: {Q}. Neutral response: {R}. Given pro arguments: {pro: a pro: b}. Given con arguments: {con: c} <question>`
 * The target is `YES}` when the response has no full error of that kind, `NO}` otherwise.
 */
export function classifierPrompt(input: NpovInput, response: string, task: ClassifierTask): string {
  const clean = validateInput(input);
  const text = validateResponse(response);
  if (task !== "coverage" && task !== "hallucination")
    throw new InvalidValueError("task", `must be "coverage" or "hallucination", got ${describe(task)}.`);
  const question = CLASSIFIER_QUESTIONS[task];
  const given = clean.perspectives.map((p) => `Given ${p.label} arguments: {${formatArguments(p)}}`).join(". ");
  return `User question: {${clean.query.trim()}}. Neutral response: {${text.trim()}}. ${given} ${question}`;
}

/** The classifier target: `YES}` (no error) or `NO}` (error). @throws InvalidValueError unless a boolean */
export function classifierTarget(hasError: boolean): string {
  if (typeof hasError !== "boolean")
    throw new InvalidValueError("hasError", `must be true or false, got ${describe(hasError)}.`);
  return hasError ? "NO}" : "YES}";
}

/** A parsed generator output. */
export interface GeneratorOutput {
  opening: string;
  core: string;
  /** `opening + " " + core`: the response shown to users and given to detectors. */
  response: string;
}

const CORE_MARKER = /\}\s*Neutral response core:\s*\{/;

/**
 * Parse what the generator writes after `Neutral response opening: {` into opening and core.
 * Text after the closing brace of the core (e.g. an end-of-sequence marker) is ignored.
 * @throws GeneratorOutputError when the core marker or closing brace is missing or a part is empty.
 */
export function parseGeneratorOutput(output: string): GeneratorOutput {
  if (typeof output !== "string") throw new GeneratorOutputError("expected a string.");
  const marker = CORE_MARKER.exec(output);
  if (marker === null) throw new GeneratorOutputError('missing "} Neutral response core: {" after the opening.');
  const opening = output.slice(0, marker.index).trim();
  const rest = output.slice(marker.index + marker[0].length);
  const close = rest.indexOf("}");
  if (close < 0) throw new GeneratorOutputError('the core is not closed with "}" (output truncated?).');
  const core = rest.slice(0, close).trim();
  if (opening.length === 0) throw new GeneratorOutputError("the opening is empty.");
  if (core.length === 0) throw new GeneratorOutputError("the core is empty.");
  return { opening, core, response: `${opening} ${core}` };
}
