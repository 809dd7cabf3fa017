/**
 * Ambiguous errors (paper Section 3), which the paper found only organically: partial hallucination, partial
 * coverage, repetition and perspective confusion. Unlike full synthetic errors they change the response
 * (the arguments stay), by editing one item of the writer's plan and rendering it again, so the rest of
 * the response is unchanged.
 *
 * Labels: partial hallucination and repetition count as hallucinations, partial coverage as a coverage
 * error, perspective confusion as both (the argument is missing where it belongs and stated where it
 * was not given); all carry `ambiguous: true` and their kind.
 */
import {
  type AmbiguousKind,
  describe,
  InvalidValueError,
  type NpovExample,
  type NpovInput,
  type Rng,
  requireRecord,
  type Span,
} from "@npov/core";
import { checkPlan, checkRng, checkStyle, exampleInput } from "./checks.js";
import { FIRST_CONNECTORS, MEANING_SWAPS } from "./wording.js";
import { type PlanItem, type ReferenceResponse, type ResponsePlan, renderPlan } from "./writer.js";

export const AMBIGUOUS_KINDS: readonly AmbiguousKind[] = [
  "partial-hallucination",
  "partial-coverage",
  "repetition",
  "perspective-confusion",
];

const REPEAT_CONNECTORS = ["To repeat, they say that", "Again, it is argued that", "As mentioned, some say that"];

interface Edit {
  plan: ResponsePlan;
  /** Index of the edited item in the new plan, and the character range inside its text (for spans). */
  item: number;
  range?: Span;
  uncovered?: [number, number];
}

function withItems(plan: ResponsePlan, items: PlanItem[]): ResponsePlan {
  return { opening: plan.opening, items };
}

function partialHallucination(plan: ResponsePlan, rng: Rng): Edit | undefined {
  const options: Array<{ item: number; index: number; word: string }> = [];
  plan.items.forEach((it, i) => {
    for (const m of it.text.matchAll(/\p{L}+/gu))
      if (MEANING_SWAPS[m[0].toLowerCase()] !== undefined) options.push({ item: i, index: m.index, word: m[0] });
  });
  if (options.length === 0) return undefined;
  const { item, index, word } = rng.pick(options);
  let swap = MEANING_SWAPS[word.toLowerCase()] as string;
  if (/^\p{Lu}/u.test(word)) swap = swap.charAt(0).toUpperCase() + swap.slice(1);
  const items = plan.items.slice();
  const old = items[item] as PlanItem;
  items[item] = { ...old, text: old.text.slice(0, index) + swap + old.text.slice(index + word.length) };
  return { plan: withItems(plan, items), item, range: { start: index, end: index + swap.length } };
}

function partialCoverage(plan: ResponsePlan, rng: Rng): Edit | undefined {
  const long = plan.items.map((it, i) => [i, [...it.text.matchAll(/\S+/gu)]] as const).filter(([, w]) => w.length >= 4);
  if (long.length === 0) return undefined;
  const [item, words] = rng.pick(long);
  const old = plan.items[item] as PlanItem;
  // Keep the first 40-60% of the words; drop the rest (a dangling comma goes too).
  const keep = Math.max(2, Math.round(words.length * (0.4 + 0.2 * rng.next())));
  const last = words[keep - 1] as RegExpMatchArray;
  const text = old.text.slice(0, (last.index as number) + last[0].length).replace(/[,;:]+$/u, "");
  const items = plan.items.slice();
  items[item] = { ...old, text };
  return { plan: withItems(plan, items), item, uncovered: [old.perspectiveIndex, old.argumentIndex] };
}

function repetition(plan: ResponsePlan, rng: Rng): Edit | undefined {
  if (plan.items.length === 0) return undefined;
  const item = rng.int(plan.items.length);
  const old = plan.items[item] as PlanItem;
  const items = plan.items.slice();
  items.splice(item + 1, 0, { ...old, connector: rng.pick(REPEAT_CONNECTORS) });
  return { plan: withItems(plan, items), item: item + 1, range: { start: 0, end: old.text.length } };
}

function perspectiveConfusion(plan: ResponsePlan, input: NpovInput, rng: Rng): Edit | undefined {
  if (input.perspectives.length < 2 || plan.items.length < 2) return undefined;
  const item = rng.int(plan.items.length);
  const moved = plan.items[item] as PlanItem;
  const targets = input.perspectives.map((_, k) => k).filter((k) => k !== moved.perspectiveIndex);
  const target = rng.pick(targets);
  const label = input.perspectives[target]?.label ?? "";
  const items = plan.items.filter((_, i) => i !== item);
  // If it opened its perspective's block, the next argument of that perspective inherits the
  // introduction, so the remaining text still reads as that side's case.
  const successor = items.findIndex((it, i) => i >= item && it.perspectiveIndex === moved.perspectiveIndex);
  const wasFirst = !plan.items.some((it, i) => i < item && it.perspectiveIndex === moved.perspectiveIndex);
  if (wasFirst && successor >= 0) items[successor] = { ...(items[successor] as PlanItem), connector: moved.connector };
  // Place it after the target perspective's last item, introduced as that side's argument.
  let at = -1;
  items.forEach((it, i) => {
    if (it.perspectiveIndex === target) at = i;
  });
  const firsts = FIRST_CONNECTORS[label] ?? (FIRST_CONNECTORS.default as readonly string[]);
  const connector = at < 0 ? rng.pick(firsts).replaceAll("{label}", () => label) : "They also say that";
  items.splice(at + 1, 0, { ...moved, connector });
  return {
    plan: withItems(plan, items),
    item: at + 1,
    range: { start: 0, end: moved.text.length },
    uncovered: [moved.perspectiveIndex, moved.argumentIndex],
  };
}

/**
 * Derive an ambiguous error of `kind` from an error-free example and the writer output it came from.
 * Returns `undefined` when the kind does not apply (e.g. no word with a meaning-changing swap).
 * @throws NpovError for a bad example, writer output, kind or generator
 */
export function addAmbiguousError(
  example: NpovExample,
  written: ReferenceResponse,
  kind: AmbiguousKind,
  rng: Rng,
): NpovExample | undefined {
  const input = exampleInput(example);
  const w = requireRecord(written, "written", "the writer's output (writeReferenceResponse)");
  checkPlan(w.plan, input, "written.plan");
  checkStyle(w.style, "written.style");
  if (!AMBIGUOUS_KINDS.includes(kind))
    throw new InvalidValueError("kind", `must be one of ${AMBIGUOUS_KINDS.join(", ")}, got ${describe(kind)}.`);
  checkRng(rng);
  const plan = written.plan;
  const edit =
    kind === "partial-hallucination"
      ? partialHallucination(plan, rng)
      : kind === "partial-coverage"
        ? partialCoverage(plan, rng)
        : kind === "repetition"
          ? repetition(plan, rng)
          : perspectiveConfusion(plan, example.input, rng);
  if (edit === undefined) return undefined;
  const rendered = renderPlan(example.input, edit.plan, written.style);
  const itemSpan = rendered.argumentSpans[edit.item] as Span;
  const hallucinatedSpans: Span[] =
    edit.range === undefined
      ? []
      : [{ start: itemSpan.start + edit.range.start, end: itemSpan.start + edit.range.end }];
  const hallucination = kind !== "partial-coverage";
  const coverage = kind === "partial-coverage" || kind === "perspective-confusion";
  return {
    ...example,
    response: rendered.response,
    argumentSpans: rendered.argumentSpans,
    labels: { hallucination, coverage, ambiguous: true },
    ambiguousKind: kind,
    wordLabels: { hallucinatedSpans, uncoveredArguments: edit.uncovered === undefined ? [] : [edit.uncovered] },
    meta: { ...example.meta, variant: kind },
  };
}
