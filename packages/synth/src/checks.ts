/** Checks of the values synth's public functions take (internal). */
import {
  describe,
  InvalidValueError,
  NotTextError,
  type NpovInput,
  type Rng,
  requireArray,
  requireNumber,
  requireRecord,
  validateInput,
} from "@npov/core";
import type { ResponsePlan, ResponseStyle } from "./plan.js";

/** A seeded generator from createRng. @throws InvalidValueError */
export function checkRng(value: unknown, path = "rng"): Rng {
  const r = requireRecord(value, path, "a seeded generator (createRng)");
  for (const m of ["next", "int", "shuffle", "sample", "pick"])
    if (typeof r[m] !== "function") throw new InvalidValueError(path, "must be a seeded generator (createRng).");
  return value as Rng;
}

/** A writer style. @throws InvalidValueError */
export function checkStyle(value: unknown, path = "style"): ResponseStyle {
  if (value !== "close" && value !== "free")
    throw new InvalidValueError(path, `must be "close" or "free", got ${describe(value)}.`);
  return value;
}

/** A seed option: a string or a finite number (or absent). @throws InvalidValueError */
export function checkSeed(value: unknown, path = "seed"): void {
  if (value !== undefined && typeof value !== "string" && !(typeof value === "number" && Number.isFinite(value)))
    throw new InvalidValueError(path, `must be a number or a string, got ${describe(value)}.`);
}

/** A writer plan whose items point at arguments of `input`. @throws InvalidValueError, NotTextError */
export function checkPlan(value: unknown, input: NpovInput, path = "plan"): ResponsePlan {
  const plan = requireRecord(value, path, "a response plan {opening, items}");
  if (typeof plan.opening !== "string") throw new NotTextError(`${path}.opening`, plan.opening);
  requireArray(plan.items, `${path}.items`).forEach((it, i) => {
    const at = `${path}.items[${i}]`;
    const item = requireRecord(it, at, "a plan item");
    const k = requireNumber(item.perspectiveIndex, `${at}.perspectiveIndex`, {
      min: 0,
      max: input.perspectives.length - 1,
      integer: true,
    });
    requireNumber(item.argumentIndex, `${at}.argumentIndex`, {
      min: 0,
      max: (input.perspectives[k]?.arguments.length ?? 1) - 1,
      integer: true,
    });
    for (const key of ["connector", "text"])
      if (typeof item[key] !== "string") throw new NotTextError(`${at}.${key}`, item[key]);
  });
  return value as unknown as ResponsePlan;
}

/** An example's input (validated copy); the rest of the example is read field by field by the caller. */
export function exampleInput(example: unknown, path = "example"): NpovInput {
  const e = requireRecord(example, path, "an example {input, response, ...}");
  return validateInput(e.input, `${path}.input`);
}
