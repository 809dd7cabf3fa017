/**
 * Sampling generator inputs from a topic, as the paper did (Section 4.1): for each perspective, 1, 2 or
 * 3 of its arguments chosen at random.
 */
import { InsufficientArgumentsError, InvalidValueError, TooFewPerspectivesError } from "./errors.js";
import { createRng, type Rng } from "./rng.js";
import type { NpovInput, Perspective, Topic } from "./types.js";

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
    throw new InvalidValueError("perSide", `must be 1, 2, 3 or "random", got ${String(perSide)}.`);
}

function usablePerspectives(topic: Topic): Perspective[] {
  const sides = topic.perspectives.filter((p) => p.arguments.length > 0);
  if (sides.length < 2) throw new TooFewPerspectivesError(`topic "${topic.id}"`, sides.length);
  return sides;
}

/** Draw one input from `topic` with `rng`; arguments keep their knowledge-base order. */
export function sampleInputWith(topic: Topic, rng: Rng, perSide: SampleOptions["perSide"] = "random"): NpovInput {
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

/** Sample one generator input from a topic, deterministically per seed. */
export function sampleInput(topic: Topic, options: SampleOptions = {}): NpovInput {
  return sampleInputWith(topic, createRng(options.seed ?? 0), options.perSide ?? "random");
}

/**
 * Sample up to `count` distinct inputs from a topic (the paper took up to 18 per topic). Stops early
 * when the topic has fewer distinct combinations.
 */
export function sampleInputs(topic: Topic, options: SampleOptions & { count: number }): NpovInput[] {
  if (!Number.isInteger(options.count) || options.count < 1)
    throw new InvalidValueError("count", `must be a positive integer, got ${String(options.count)}.`);
  const rng = createRng(options.seed ?? 0);
  const seen = new Set<string>();
  const out: NpovInput[] = [];
  // Bounded attempts: small topics have few combinations and must not loop forever.
  for (let attempt = 0; attempt < options.count * 20 && out.length < options.count; attempt++) {
    const input = sampleInputWith(topic, rng, options.perSide ?? "random");
    const key = input.perspectives.map((p) => p.arguments.map((a) => a.id ?? a.text).join("|")).join("||");
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(input);
  }
  return out;
}
