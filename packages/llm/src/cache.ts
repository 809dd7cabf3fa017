/**
 * A content-addressed response cache: the key is the sha256 of the canonical JSON of the request (keys
 * sorted at every level, so property order never matters), the value the response JSON. Files are written
 * atomically (`writeFileAtomic`), so a crash never leaves half a response; a re-run of an evaluation reads
 * every answer back bit-identically and makes no request.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "@npov/core";
import { CacheError } from "./errors.js";

/** JSON with object keys sorted recursively; `undefined` properties are dropped (as JSON.stringify does). */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value as object).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = sortKeys(v);
    }
    return out;
  }
  return value;
}

/** The cache key of a request: hex sha256 of its canonical JSON. */
export function requestKey(request: unknown): string {
  return createHash("sha256").update(canonicalJson(request)).digest("hex");
}

/** A folder of `<key[0:2]>/<key>.json` files, each `{ request, response }`. */
export class ResponseCache {
  constructor(readonly dir: string) {}

  private file(key: string): string {
    return join(this.dir, key.slice(0, 2), `${key}.json`);
  }

  /** The stored response of `request`, or undefined. @throws CacheError when the file is not a stored response */
  get(request: unknown): unknown {
    const file = this.file(requestKey(request));
    if (!existsSync(file)) return undefined;
    let stored: unknown;
    try {
      stored = JSON.parse(readFileSync(file, "utf8"));
    } catch (cause) {
      throw new CacheError("CACHE_CORRUPT", `${file} is not valid JSON: delete it (or the cache dir) and re-run.`, {
        cause,
      });
    }
    if (stored === null || typeof stored !== "object" || !("response" in stored))
      throw new CacheError("CACHE_CORRUPT", `${file} holds no "response": delete it (or the cache dir) and re-run.`);
    return (stored as { response: unknown }).response;
  }

  /** Store `response` for `request` (atomic write). */
  set(request: unknown, response: unknown): void {
    writeFileAtomic(this.file(requestKey(request)), `${JSON.stringify({ request: sortKeys(request), response })}\n`);
  }
}
