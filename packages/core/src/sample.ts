/**
 * Sampling generator inputs from a topic, as the paper did (Section 4.1): for each perspective, 1, 2 or
 * 3 of its arguments chosen at random.
 */
import {
  describe,
  InputTooLargeError,
  InsufficientArgumentsError,
  InvalidValueError,
  NotTextError,
  TooFewPerspectivesError,
} from "./errors.js";
import { createRng, type Rng } from "./rng.js";
import type { NpovInput, Perspective, Topic } from "./types.js";
import { requireArray, requireRecord } from "./values.js";

/** Most inputs {@link sampleInputs} draws from one topic (the paper drew up to 18). */
export const MAX_INPUTS_PER_TOPIC = 10_000;

/** How many arguments to take per perspective. */
export interface SampleOptions {
  /**
   * A fixed count (1-3) for every perspective, or `"random"` (default): 1, 2 or 3 drawn uniformly per
   * perspective, capped at what the perspective has.
   */
  perSide?: 1 | 2 | 3 | "random";
  /** Seed of every random choice (default 0). */
  seed?: number | string;
}

function checkPerSide(perSide: unknown): void {
  if (perSide !== "random" && perSide !== 1 && perSide !== 2 && perSide !== 3)
    throw new InvalidValueError("perSide", `must be 1, 2, 3 or "random", got ${describe(perSide)}.`);
}

/** Check a topic as far as sampling reads it: an id, a title, a query and perspectives of argument texts. */
function checkTopic(value: unknown): Topic {
  const t = requireRecord(value, "topic", "a knowledge-base topic");
  for (const key of ["id", "title", "query"])
    if (typeof t[key] !== "string") throw new NotTextError(`topic.${key}`, t[key]);
  requireArray(t.perspectives, "topic.perspectives").forEach((p, k) => {
    const at = `topic.perspectives[${k}]`;
    const x = requireRecord(p, at, "a perspective {label, arguments}");
    if (typeof x.label !== "string") throw new NotTextError(`${at}.label`, x.label);
    requireArray(x.arguments, `${at}.arguments`).forEach((a, j) => {
      const arg = requireRecord(a, `${at}.arguments[${j}]`, "an argument {text}");
      if (typeof arg.text !== "string") throw new NotTextError(`${at}.arguments[${j}].text`, arg.text);
    });
  });
  return value as Topic;
}

function checkRng(value: unknown): Rng {
  const r = requireRecord(value, "rng", "a seeded generator (createRng)");
  for (const m of ["next", "int", "shuffle", "sample", "pick"])
    if (typeof r[m] !== "function") throw new InvalidValueError("rng", "must be a seeded generator (createRng).");
  return value as Rng;
}

function usablePerspectives(topic: Topic): Perspective[] {
  const sides = topic.perspectives.filter((p) => p.arguments.length > 0);
  if (sides.length < 2) throw new TooFewPerspectivesError(`topic "${topic.id}"`, sides.length);
  return sides;
}

/** Draw one input from `topic` with `rng`; arguments keep their knowledge-base order. */
export function sampleInputWith(topic: Topic, rng: Rng, perSide: SampleOptions["perSide"] = "random"): NpovInput {
  checkTopic(topic);
  checkRng(rng);
  checkPerSide(perSide);
  const perspectives = usablePerspectives(topic).map((p) => {
    const available = p.arguments.length;
    let k: number;
    if (perSide === "random") k = Math.min(1 + rng.int(3), available);
    else {
      if (perSide > available)
        throw new InsufficientArgumentsError(
          `topic "${topic.id}" has ${available} "${p.label}" argument(s); cannot sample ${perSide}. Use a smaller perSide or "random".`,
        );
      k = perSide;
    }
    const chosen = rng.sample([...p.arguments.keys()], k).sort((a, b) => a - b);
    return {
      label: p.label,
      arguments: chosen.map((i) => ({ ...(p.arguments[i] as Perspective["arguments"][number]) })),
    };
  });
  return { topic: topic.title, query: topic.query, perspectives };
}

/** Sample one generator input from a topic, deterministically per seed. @throws NpovError for a bad topic or options */
export function sampleInput(topic: Topic, options: SampleOptions = {}): NpovInput {
  requireRecord(options, "options", "an object {perSide?, seed?}");
  return sampleInputWith(topic, createRng(options.seed ?? 0), options.perSide ?? "random");
}

/** How many different inputs sampling can draw from a topic (argument subsets per usable perspective). */
function combinations(topic: Topic, perSide: SampleOptions["perSide"]): number {
  const choose = (n: number, k: number) => {
    let c = 1;
    for (let i = 0; i < k; i++) c = (c * (n - i)) / (i + 1);
    return c;
  };
  let total = 1;
  for (const p of topic.perspectives) {
    const n = p.arguments.length;
    if (n === 0) continue;
    const ways =
      perSide === "random" || perSide === undefined ? choose(n, 1) + choose(n, 2) + choose(n, 3) : choose(n, perSide);
    total *= ways;
  }
  return total;
}

/**
 * Sample up to `count` distinct inputs from a topic (the paper took up to 18 per topic). Stops early
 * when the topic has fewer distinct combinations.
 * @throws InputTooLargeError for a count over {@link MAX_INPUTS_PER_TOPIC}; NpovError for a bad topic or options
 */
export function sampleInputs(topic: Topic, options: SampleOptions & { count: number }): NpovInput[] {
  requireRecord(options, "options", "an object {count, perSide?, seed?}");
  if (!Number.isInteger(options.count) || options.count < 1)
    throw new InvalidValueError("count", `must be a positive integer, got ${describe(options.count)}.`);
  if (options.count > MAX_INPUTS_PER_TOPIC)
    throw new InputTooLargeError(
      "count",
      options.count,
      MAX_INPUTS_PER_TOPIC,
      "inputs per topic",
      "Ask for fewer inputs per topic (the paper sampled up to 18).",
    );
  checkTopic(topic);
  checkPerSide(options.perSide ?? "random");
  const rng = createRng(options.seed ?? 0);
  const seen = new Set<string>();
  const out: NpovInput[] = [];
  // Once every combination has been drawn no new input can come: stop (same inputs as drawing on). With
  // none possible (a side too small for perSide), the first draw throws the reason.
  const possible = combinations(topic, options.perSide ?? "random");
  // Bounded attempts: small topics have few combinations and must not loop forever.
  for (
    let attempt = 0;
    attempt < options.count * 20 && out.length < options.count && (possible === 0 || out.length < possible);
    attempt++
  ) {
    const input = sampleInputWith(topic, rng, options.perSide ?? "random");
    const key = input.perspectives.map((p) => p.arguments.map((a) => a.id ?? a.text).join("|")).join("||");
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(input);
  }
  return out;
}
