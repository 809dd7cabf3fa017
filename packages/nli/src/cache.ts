/**
 * A bounded least-recently-used cache of pair scores, keyed by model + premise + hypothesis. A response is
 * scored against the same arguments sentence by sentence, and a guard or an evaluation sees the same
 * arguments (and often the same sentences) again and again: each pair is run through the model once.
 * Keys are SHA-256 digests, so a cache entry costs the same whatever the texts' lengths.
 */
import { createHash } from "node:crypto";
import { InvalidValueError } from "@npov/core";

/** What the cache keeps of a scored pair: the model's probabilities and logits, and how the pair was cut. */
export interface CachedPairScore {
  /** Softmax over the model's outputs, in output order. */
  probabilities: Float64Array;
  logits: Float32Array;
  /** Tokens of the whole pair (with special tokens), before any truncation. */
  tokens: number;
  /** Tokens removed from the premise and from the hypothesis to fit the model (0 and 0 when it fit). */
  truncated: { premise: number; hypothesis: number };
}

/** Default number of pairs a {@link PairScoreCache} holds (about 1 MB of entries). */
export const DEFAULT_PAIR_CACHE_SIZE = 8192;

/** A bounded LRU map from (model, premise, hypothesis) to a pair score; share one between models freely. */
export class PairScoreCache {
  private readonly entries = new Map<string, CachedPairScore>();
  private hitCount = 0;
  private missCount = 0;

  /** @throws InvalidValueError unless `capacity` is an integer >= 0 (0 = cache nothing) */
  constructor(readonly capacity = DEFAULT_PAIR_CACHE_SIZE) {
    if (!Number.isInteger(capacity) || capacity < 0)
      throw new InvalidValueError("cacheSize", `must be an integer >= 0 (0 turns the cache off), got ${capacity}.`);
  }

  /** The key of a pair under a model (its resolved folder or hub id and the weights file it runs). */
  static key(model: string, premise: string, hypothesis: string): string {
    // Lengths first: no two different (model, premise, hypothesis) triples hash the same byte string.
    return createHash("sha256")
      .update(`${model.length}:${premise.length}:${hypothesis.length}:`)
      .update(model)
      .update(premise)
      .update(hypothesis)
      .digest("base64");
  }

  /** The entry under `key`, now the most recently used; undefined when absent. */
  get(key: string): CachedPairScore | undefined {
    const hit = this.entries.get(key);
    if (hit === undefined) {
      this.missCount++;
      return undefined;
    }
    this.hitCount++;
    this.entries.delete(key);
    this.entries.set(key, hit);
    return hit;
  }

  /** Store an entry, dropping the least recently used one beyond the capacity. */
  set(key: string, value: CachedPairScore): void {
    if (this.capacity === 0) return;
    this.entries.delete(key);
    this.entries.set(key, value);
    while (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }

  /** Entries held now. */
  get size(): number {
    return this.entries.size;
  }

  /** Lookups answered and not answered since the cache was made. */
  get stats(): { hits: number; misses: number } {
    return { hits: this.hitCount, misses: this.missCount };
  }

  clear(): void {
    this.entries.clear();
  }
}
