/**
 * Seeded pseudo-random numbers. Every random choice in npov takes a seed and goes through here, so the
 * same seed gives bit-identical results on every platform (integer arithmetic only, no Math.random).
 */
import { describe, InvalidValueError } from "./errors.js";

/** A seeded random source. */
export interface Rng {
  /** Uniform float in [0, 1). */
  next(): number;
  /** Uniform integer in [0, n). */
  int(n: number): number;
  /** Fisher-Yates shuffle of a copy. */
  shuffle<T>(items: readonly T[]): T[];
  /** `k` distinct items, in random order. */
  sample<T>(items: readonly T[], k: number): T[];
  /** One item. */
  pick<T>(items: readonly T[]): T;
}

function requireSeedPart(part: unknown, path: string): void {
  if (typeof part !== "string" && !(typeof part === "number" && Number.isFinite(part)))
    throw new InvalidValueError(path, `must be a string or a finite number, got ${describe(part)}.`);
}

/**
 * Hash strings and numbers into a 32-bit seed (FNV-1a), so seeds can be derived from names.
 * @throws InvalidValueError for a part that is neither a string nor a finite number
 */
export function hashSeed(...parts: Array<string | number>): number {
  parts.forEach((part, i) => {
    requireSeedPart(part, `parts[${i}]`);
  });
  let h = 0x811c9dc5;
  for (const part of parts) {
    const s = `${String(part)}\u0000`;
    for (let i = 0; i < s.length; i++) {
      h ^= s.charCodeAt(i);
      h = Math.imul(h, 0x01000193);
    }
  }
  return h >>> 0;
}

/**
 * Create a seeded generator (sfc32 seeded through splitmix32; period about 2^128).
 * @throws InvalidValueError for a seed that is neither a string nor a finite number
 */
export function createRng(seed: number | string): Rng {
  requireSeedPart(seed, "seed");
  let s = typeof seed === "number" && Number.isInteger(seed) ? seed >>> 0 : hashSeed(seed);
  const splitmix = (): number => {
    s = (s + 0x9e3779b9) | 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
  let a = splitmix();
  let b = splitmix();
  let c = splitmix();
  let d = splitmix();
  const next32 = (): number => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
  for (let i = 0; i < 12; i++) next32();
  const rng: Rng = {
    next: () => next32() / 4294967296,
    int: (n) => {
      if (!Number.isInteger(n) || n <= 0)
        throw new InvalidValueError("n", `Rng.int needs a positive integer, got ${describe(n)}.`);
      return Math.floor(rng.next() * n);
    },
    shuffle: (items) => {
      if (!Array.isArray(items)) throw new InvalidValueError("items", `must be an array, got ${describe(items)}.`);
      const out = items.slice();
      for (let i = out.length - 1; i > 0; i--) {
        const j = rng.int(i + 1);
        const tmp = out[i] as (typeof out)[number];
        out[i] = out[j] as (typeof out)[number];
        out[j] = tmp;
      }
      return out;
    },
    sample: (items, k) => {
      if (!Number.isInteger(k) || k < 0)
        throw new InvalidValueError("k", `Rng.sample needs a count >= 0, got ${describe(k)}.`);
      return rng.shuffle(items).slice(0, k);
    },
    pick: (items) => {
      if (!Array.isArray(items)) throw new InvalidValueError("items", `must be an array, got ${describe(items)}.`);
      if (items.length === 0) throw new InvalidValueError("items", "Rng.pick needs at least one item to pick from.");
      return items[rng.int(items.length)] as (typeof items)[number];
    },
  };
  return rng;
}
