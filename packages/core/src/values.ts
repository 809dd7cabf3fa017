/**
 * Loops over arrays of any length. `Math.min(...xs)` and `target.push(...xs)` pass every element as a call
 * argument, which overflows the stack at around 100,000 elements (200,000 arguments crashed `npov check`);
 * these helpers never do.
 */
import { describe, InvalidValueError } from "./errors.js";

function extreme(values: Iterable<number>, start: number | undefined, pick: (a: number, b: number) => number): number {
  if (values === null || typeof (values as Partial<Iterable<number>>)[Symbol.iterator] !== "function")
    throw new InvalidValueError("values", `must be an array of numbers, got ${describe(values)}.`);
  if (start !== undefined && (typeof start !== "number" || Number.isNaN(start)))
    throw new InvalidValueError("empty", `must be a number, got ${describe(start)}.`);
  let best = start;
  let i = 0;
  for (const v of values) {
    if (typeof v !== "number" || Number.isNaN(v))
      throw new InvalidValueError(`values[${i}]`, `must be a number, got ${describe(v)}.`);
    best = best === undefined ? v : pick(best, v);
    i++;
  }
  if (best === undefined)
    throw new InvalidValueError("values", "is empty: give at least one number, or a value for empty.");
  return best;
}

/**
 * The smallest of `values` (as `Math.min(...values)`), or -- with `empty` given -- of `empty` and `values`
 * (as `Math.min(empty, ...values)`). @throws InvalidValueError for NaN or a non-number, or no values and no `empty`
 */
export function minOf(values: Iterable<number>, empty?: number): number {
  return extreme(values, empty, Math.min);
}

/**
 * The largest of `values` (as `Math.max(...values)`), or -- with `empty` given -- of `empty` and `values`
 * (as `Math.max(empty, ...values)`). @throws InvalidValueError for NaN or a non-number, or no values and no `empty`
 */
export function maxOf(values: Iterable<number>, empty?: number): number {
  return extreme(values, empty, Math.max);
}

/** Append every item of `items` to `target` (like `target.push(...items)`, for any length); returns `target`. */
export function pushAll<T>(target: T[], items: Iterable<T>): T[] {
  if (!Array.isArray(target)) throw new InvalidValueError("target", `must be an array, got ${describe(target)}.`);
  if (items === null || typeof (items as Partial<Iterable<T>>)[Symbol.iterator] !== "function")
    throw new InvalidValueError("items", `must be an array, got ${describe(items)}.`);
  for (const item of items) target.push(item);
  return target;
}

/**
 * Check that `values` is an array (or typed array) of finite numbers; return it unchanged.
 * @throws InvalidValueError naming the first bad entry
 */
export function requireFiniteNumbers(values: unknown, path: string): ArrayLike<number> {
  if (!Array.isArray(values) && !(ArrayBuffer.isView(values) && !(values instanceof DataView)))
    throw new InvalidValueError(path, `must be an array of numbers, got ${describe(values)}.`);
  const list = values as ArrayLike<unknown>;
  for (let i = 0; i < list.length; i++) {
    const v = list[i];
    if (typeof v !== "number" || !Number.isFinite(v))
      throw new InvalidValueError(`${path}[${i}]`, `must be a finite number, got ${describe(v)}.`);
  }
  return list as ArrayLike<number>;
}

/** Check that `value` is a plain object (not null, not an array); return it. @throws InvalidValueError */
export function requireRecord(value: unknown, path: string, what = "an object"): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new InvalidValueError(path, `must be ${what}, got ${describe(value)}.`);
  return value as Record<string, unknown>;
}

/** Check that `value` is an array; return it. @throws InvalidValueError */
export function requireArray(value: unknown, path: string, what = "an array"): unknown[] {
  if (!Array.isArray(value)) throw new InvalidValueError(path, `must be ${what}, got ${describe(value)}.`);
  return value;
}

/** Range of {@link requireNumber}. */
export interface NumberRange {
  /** Smallest allowed value (inclusive; default -Infinity). */
  min?: number;
  /** Largest allowed value (inclusive; default Infinity). */
  max?: number;
  /** Whether the value must be an integer. */
  integer?: boolean;
  /** Whether `min` itself is excluded. */
  above?: boolean;
}

/**
 * Check that `value` is a finite number in a range; return it.
 * @throws InvalidValueError saying what range is allowed
 */
export function requireNumber(value: unknown, path: string, range: NumberRange = {}): number {
  if (typeof range !== "object" || range === null)
    throw new InvalidValueError("range", "must be {min?, max?, integer?, above?}.");
  for (const key of ["min", "max"] as const)
    if (range[key] !== undefined && (typeof range[key] !== "number" || Number.isNaN(range[key])))
      throw new InvalidValueError(`range.${key}`, `must be a number, got ${describe(range[key])}.`);
  const { min = Number.NEGATIVE_INFINITY, max = Number.POSITIVE_INFINITY, integer = false, above = false } = range;
  const ok =
    typeof value === "number" &&
    Number.isFinite(value) &&
    (above ? value > min : value >= min) &&
    value <= max &&
    (!integer || Number.isInteger(value));
  if (!ok) {
    const kind = integer ? "an integer" : "a finite number";
    const bounds = [
      Number.isFinite(min) ? `${above ? ">" : ">="} ${min}` : "",
      Number.isFinite(max) ? `<= ${max}` : "",
    ].filter(Boolean);
    throw new InvalidValueError(
      path,
      `must be ${kind}${bounds.length > 0 ? ` ${bounds.join(" and ")}` : ""}, got ${describe(value)}.`,
    );
  }
  return value as number;
}

/** Check that `value` is a function; return it. @throws InvalidValueError */
export function requireFunction<F extends (...args: never[]) => unknown>(
  value: unknown,
  path: string,
  what: string,
): F {
  if (typeof value !== "function") throw new InvalidValueError(path, `must be ${what}, got ${describe(value)}.`);
  return value as F;
}
