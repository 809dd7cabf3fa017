/**
 * Synthetic errors exactly as in the paper (Section 4.2, SPEC section 3): keep the response, change the
 * given arguments.
 * - coverage error: add one unused argument of the same topic (either perspective) -> not covered;
 * - hallucination: remove one given argument -> the response still states it;
 * - both: remove one and add one.
 */
import {
  type Argument,
  describe,
  InvalidValueError,
  type NpovExample,
  type NpovInput,
  type Rng,
  requireArray,
  requireRecord,
  type Span,
  type Topic,
  validateInput,
  validateTopic,
} from "@npov/core";
import { checkRng, exampleInput } from "./checks.js";

/** The three full synthetic error kinds. */
export type SyntheticErrorKind = "coverage" | "hallucination" | "both";

function argumentKey(a: Argument): string {
  return a.id ?? a.text;
}

function cloneInput(input: NpovInput): NpovInput {
  return {
    topic: input.topic,
    query: input.query,
    perspectives: input.perspectives.map((p) => ({ label: p.label, arguments: p.arguments.map((a) => ({ ...a })) })),
  };
}

/** Topic arguments the input does not use (matched by id, else by text or paraphrase). @throws NpovError for a bad input or topic */
export function unusedArguments(input: NpovInput, topic: Topic): Array<{ label: string; argument: Argument }> {
  validateInput(input);
  validateTopic(topic);
  return unused(input, topic);
}

function unused(input: NpovInput, topic: Topic): Array<{ label: string; argument: Argument }> {
  const used = new Set<string>();
  for (const p of input.perspectives)
    for (const a of p.arguments) {
      used.add(argumentKey(a));
      used.add(a.text);
    }
  const out: Array<{ label: string; argument: Argument }> = [];
  for (const p of topic.perspectives)
    for (const a of p.arguments) {
      const texts = [a.text, ...(a.paraphrases ?? [])];
      if (used.has(argumentKey(a)) || texts.some((t) => used.has(t))) continue;
      if (input.perspectives.some((q) => q.label === p.label)) out.push({ label: p.label, argument: a });
    }
  return out;
}

/** The response span that verbalizes argument `a` of perspective `label`, if recorded. */
function spanOf(example: NpovExample, label: string, a: Argument): Span | undefined {
  const s = example.argumentSpans?.find(
    (x) => x.perspective === label && (a.id !== undefined ? x.argumentId === a.id : x.argumentText === a.text),
  );
  return s === undefined ? undefined : { start: s.start, end: s.end };
}

/**
 * Add a synthetic error to an error-free example. Returns `undefined` when the kind is impossible for
 * this example: no unused argument left (coverage), or every perspective has a single argument so none
 * can be removed without leaving a perspective empty (hallucination).
 *
 * `paraphrase`: when true, an added argument is worded by one of its paraphrases (for paraphrased slices).
 * @throws NpovError for a bad example, topic, kind, generator or option
 */
export function addSyntheticError(
  example: NpovExample,
  topic: Topic,
  kind: SyntheticErrorKind,
  rng: Rng,
  options: { paraphrase?: boolean } = {},
): NpovExample | undefined {
  exampleInput(example);
  validateTopic(topic);
  if (kind !== "coverage" && kind !== "hallucination" && kind !== "both")
    throw new InvalidValueError("kind", `must be "coverage", "hallucination" or "both", got ${describe(kind)}.`);
  checkRng(rng);
  requireRecord(options, "options", "an object {paraphrase?}");
  if (options.paraphrase !== undefined && typeof options.paraphrase !== "boolean")
    throw new InvalidValueError("options.paraphrase", "must be true or false.");
  if (example.argumentSpans !== undefined)
    requireArray(example.argumentSpans, "example.argumentSpans").forEach((a, i) => {
      requireRecord(a, `example.argumentSpans[${i}]`, "an argument span {perspective, start, end, ...}");
    });
  const input = cloneInput(example.input);
  const hallucinatedSpans: Span[] = [];
  let uncovered: [number, number] | undefined;

  if (kind === "hallucination" || kind === "both") {
    const removable: Array<[number, number]> = [];
    input.perspectives.forEach((p, k) => {
      if (p.arguments.length < 2) return;
      for (let j = 0; j < p.arguments.length; j++) removable.push([k, j]);
    });
    if (removable.length === 0) return undefined;
    const [k, j] = rng.pick(removable);
    const perspective = input.perspectives[k] as NpovInput["perspectives"][number];
    const [removed] = perspective.arguments.splice(j, 1) as [Argument];
    const span = spanOf(example, perspective.label, removed);
    if (span !== undefined) hallucinatedSpans.push(span);
  }

  if (kind === "coverage" || kind === "both") {
    // Unused relative to the original input, so "both" never re-adds the removed argument.
    const candidates = unused(example.input, topic);
    if (candidates.length === 0) return undefined;
    const { label, argument } = rng.pick(candidates);
    const k = input.perspectives.findIndex((p) => p.label === label);
    const perspective = input.perspectives[k] as NpovInput["perspectives"][number];
    const j = rng.int(perspective.arguments.length + 1);
    const added: Argument = { ...argument };
    if (options.paraphrase && (argument.paraphrases?.length ?? 0) > 0)
      added.text = rng.pick(argument.paraphrases as string[]);
    perspective.arguments.splice(j, 0, added);
    uncovered = [k, j];
  }

  const result: NpovExample = {
    ...example,
    input,
    labels: { hallucination: kind !== "coverage", coverage: kind !== "hallucination", ambiguous: false },
    wordLabels: {
      hallucinatedSpans,
      uncoveredArguments: uncovered === undefined ? [] : [uncovered],
    },
    meta: { ...example.meta, variant: kind },
  };
  return result;
}

/**
 * Replace every given argument by one of its paraphrases (the knowledge base's other wordings), keeping
 * the response. Returns `undefined` when some argument has no paraphrase.
 * @throws NpovError for a bad input or generator
 */
export function paraphraseInput(input: NpovInput, rng: Rng): NpovInput | undefined {
  validateInput(input);
  checkRng(rng);
  const out = cloneInput(input);
  for (const p of out.perspectives)
    for (const a of p.arguments) {
      if ((a.paraphrases?.length ?? 0) === 0) return undefined;
      a.text = rng.pick(a.paraphrases as string[]);
    }
  return out;
}
