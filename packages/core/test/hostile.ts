/**
 * A hostile caller for property tests of public functions: garbage arguments (null, NaN, numbers where text
 * belongs, nested junk, empty and long arrays, non-ASCII and lone surrogates) and valid arguments with one
 * nested field replaced by garbage. A public function must return a result without NaN or infinities, or
 * throw an NpovError -- never another error class. Sizes stay small, so nothing here can run long.
 */
import { NpovError } from "@npov/core";
import fc from "fast-check";
import { expect } from "vitest";

/** Values no public function should accept where something else is expected. */
export function garbage(): fc.Arbitrary<unknown> {
  const leaf = fc.oneof(
    fc.constantFrom(
      null,
      undefined,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      Number.NEGATIVE_INFINITY,
      -1,
      0,
      1e308,
      -0,
      "",
      "   ",
      "null",
      "\uD800",
      "a\uDC00b",
      "東京 Müller naïve",
      "the of and",
      "🙂🙂",
      "\u200B",
      true,
      false,
      10n,
    ),
    fc.double(),
    fc.integer(),
    fc.string({ maxLength: 12 }),
    fc.string({ unit: "binary", maxLength: 8 }),
  );
  const { tree } = fc.letrec<{ tree: unknown }>((tie) => ({
    tree: fc.oneof(
      { depthSize: "small", withCrossShrink: true },
      leaf,
      fc.array(tie("tree"), { maxLength: 4 }),
      fc.dictionary(
        fc.constantFrom("text", "label", "arguments", "perspectives", "topic", "query", "id", "slice", "labels", "x"),
        tie("tree"),
        { maxKeys: 4 },
      ),
    ),
  }));
  return fc.oneof(
    { weight: 4, arbitrary: tree },
    { weight: 1, arbitrary: fc.constantFrom([], [[]], new Array(300).fill(0), new Array(300).fill(null)) },
    { weight: 1, arbitrary: fc.constant(() => Number.NaN) },
  );
}

/** Deep copy of JSON-like data (arrays, plain objects, typed arrays stay shared). */
function clone(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(clone);
  if (value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, clone(v)]));
  return value;
}

/** Every nested slot (container, key) of JSON-like data, in depth-first order. */
function slots(value: unknown, out: Array<[Record<string, unknown> | unknown[], string | number]> = []) {
  if (Array.isArray(value))
    value.forEach((v, i) => {
      out.push([value, i]);
      slots(v, out);
    });
  else if (value !== null && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype)
    for (const [k, v] of Object.entries(value)) {
      out.push([value as Record<string, unknown>, k]);
      slots(v, out);
    }
  return out;
}

/** `value` with the `at`-th nested slot (mod the slot count) replaced by `junk`; the value itself when it has none. */
export function mutate(value: unknown, at: number, junk: unknown): unknown {
  const copy = clone(value);
  const all = slots(copy);
  if (all.length === 0) return junk;
  const [container, key] = all[at % all.length] as [Record<string | number, unknown>, string | number];
  container[key] = junk;
  return copy;
}

/** Arguments for one call: each is the valid one, garbage, or the valid one with a nested field replaced. */
export function hostileArgs(valid: readonly unknown[], extra = 1): fc.Arbitrary<unknown[]> {
  const one = (v: unknown) =>
    fc.oneof(
      { weight: 2, arbitrary: fc.constant(v).map(clone) },
      { weight: 2, arbitrary: garbage() },
      { weight: 3, arbitrary: fc.tuple(fc.nat(), garbage()).map(([at, junk]) => mutate(v, at, junk)) },
    );
  return fc
    .tuple(...valid.map(one), fc.array(garbage(), { maxLength: extra }))
    .map((parts) => [...(parts.slice(0, valid.length) as unknown[]), ...(parts[valid.length] as unknown[])]);
}

/** Paths of the non-finite numbers inside a result (cycles and class instances other than arrays skipped). */
export function nonFinite(value: unknown, path = "result", seen = new Set<unknown>(), allowInfinity = false): string[] {
  if (typeof value === "number")
    return Number.isNaN(value) || (!allowInfinity && !Number.isFinite(value)) ? [`${path} = ${value}`] : [];
  if (value === null || typeof value !== "object" || seen.has(value)) return [];
  seen.add(value);
  if (ArrayBuffer.isView(value) && !(value instanceof DataView))
    return nonFinite(Array.from(value as unknown as ArrayLike<number>), path, seen, allowInfinity);
  if (value instanceof Map)
    return [...value.entries()].flatMap(([k, v]) => nonFinite(v, `${path}.get(${String(k)})`, seen, allowInfinity));
  if (Array.isArray(value)) return value.flatMap((v, i) => nonFinite(v, `${path}[${i}]`, seen, allowInfinity));
  if (Object.getPrototypeOf(value) !== Object.prototype) return [];
  return Object.entries(value).flatMap(([k, v]) => nonFinite(v, `${path}.${k}`, seen, allowInfinity));
}

/** What one hostile call did: "ok", "npov" (typed error) or a description of the failure. */
export async function outcome(call: () => unknown, allowInfinity = false): Promise<string> {
  try {
    const result = await call();
    const bad = nonFinite(result, "result", new Set(), allowInfinity);
    return bad.length === 0 ? "ok" : `non-finite ${bad.slice(0, 3).join(", ")}`;
  } catch (e) {
    if (e instanceof NpovError) return "npov";
    return `${(e as Error)?.constructor?.name ?? typeof e}: ${String((e as Error)?.message ?? e).slice(0, 200)}`;
  }
}

/** A public function under attack: its name, a call, and valid arguments to start from. */
export interface Target {
  name: string;
  call: (...args: unknown[]) => unknown;
  valid: readonly unknown[];
  /** Results may hold +-Infinity by design (e.g. the first ROC point's threshold). */
  allowInfinity?: boolean;
  /** Runs (default 60). */
  runs?: number;
}

/**
 * Throw hostile arguments at each target; fail listing every call that returned NaN/Infinity or threw
 * something other than an NpovError, and check that each target also succeeds on its valid arguments.
 */
export async function attack(targets: readonly Target[], runsDefault = 60): Promise<void> {
  const failures: string[] = [];
  for (const t of targets) {
    if (process.env.HOSTILE_TRACE) process.stderr.write(`hostile: ${t.name}\n`);
    const valid = await outcome(() => t.call(...t.valid), t.allowInfinity);
    if (valid !== "ok") failures.push(`${t.name}(valid args): ${valid}`);
    await fc.assert(
      fc.asyncProperty(hostileArgs(t.valid), async (args) => {
        const o = await outcome(() => t.call(...args), t.allowInfinity);
        if (o !== "ok" && o !== "npov" && failures.length < 200) failures.push(`${t.name}: ${o}`);
      }),
      { numRuns: t.runs ?? runsDefault },
    );
  }
  expect(failures).toEqual([]);
}
