/**
 * The sources input: check a response against plain documents (a RAG answer against what was retrieved, a
 * summary against its article, a dialogue reply against its knowledge snippet) instead of curated arguments
 * per perspective. Detectors see both inputs through one NPOV-shaped view, {@link Grounding}: each source is a
 * group ("perspective") whose units ("arguments") are its sentences, with offsets into the source kept, so the
 * alignment machinery, evidence and word maps work unchanged and point back into the documents.
 */

import type { ErrorScores } from "./detector.js";
import { UnsupportedInputError } from "./errors.js";
import type { Argument, CheckInput, Grounding, NpovExample, NpovInput, Source, SourceUnit } from "./types.js";
import { sourceUnits } from "./units.js";
import { isSourcesInput, validateCheckInput } from "./validate.js";

/** Label of source `i` in a {@link Grounding}: its id, else `source N` (1-based). */
export function sourceLabel(source: Source, i: number): string {
  return source.id ?? `source ${i + 1}`;
}

// Groundings this module built (and nobody else could forge): passing one back skips validation and splitting.
const built = new WeakSet<object>();

/**
 * The NPOV-shaped view of either input (see {@link Grounding}), validated; a grounding this function returned
 * is returned as it is (do not modify one).
 * @throws the errors of {@link validateCheckInput}
 */
export function groundingOf(input: unknown, path = "input"): Grounding {
  if (typeof input === "object" && input !== null && built.has(input)) return input as Grounding;
  const g = buildGrounding(input, path);
  built.add(g);
  return g;
}

function buildGrounding(input: unknown, path: string): Grounding {
  const clean = validateCheckInput(input, path);
  if (!isSourcesInput(clean)) return { ...clean, kind: "npov" };
  const units = sourceUnits(clean);
  const labels = new Set<string>();
  const perspectives = clean.sources.map((s, i) => {
    let label = sourceLabel(s, i);
    // An id may collide with another source's default label ("source 2"); keep labels unique.
    while (labels.has(label)) label = `${label}'`;
    labels.add(label);
    const args: Argument[] = (units[i] as SourceUnit[]).map((u) => ({ text: u.text, id: `${label}#${u.index + 1}` }));
    return { label, arguments: args };
  });
  return {
    kind: "sources",
    topic: clean.sources
      .map((s) => s.title)
      .filter((t): t is string => t !== undefined)
      .join(" / "),
    query: clean.query ?? "",
    perspectives,
    sources: clean.sources,
    units,
  };
}

/** The text a unit of a grounding came from: `{source, start, end}` for sources, undefined for arguments. */
export function unitOrigin(
  g: Grounding,
  perspective: number,
  argument: number,
): { source: number; sourceId?: string; start: number; end: number } | undefined {
  const u = g.units?.[perspective]?.[argument];
  if (u === undefined) return undefined;
  const id = g.sources?.[perspective]?.id;
  return { source: u.source, ...(id === undefined ? {} : { sourceId: id }), start: u.start, end: u.end };
}

/**
 * An NPOV input, for code that needs arguments per perspective (prompts, the annotation app, training on
 * NPOV data). @throws UnsupportedInputError naming `what` for a sources input
 */
export function requireNpovInput(input: CheckInput, what: string): NpovInput {
  if (isSourcesInput(input))
    throw new UnsupportedInputError(
      what,
      "sources",
      "It needs {topic, query, perspectives} (arguments per perspective); check sources with a data-free method (rouge, soft, align, support).",
    );
  return input;
}

/** Examples with NPOV inputs only (see {@link requireNpovInput}). @throws UnsupportedInputError */
export function requireNpovExamples(examples: readonly NpovExample<CheckInput>[], what: string): NpovExample[] {
  for (const e of examples) requireNpovInput(e.input, what);
  return examples as NpovExample[];
}

/**
 * `scores` with each uncovered argument's {@link UncoveredArgument.origin} set from the grounding (sources
 * inputs; NPOV evidence is returned unchanged).
 */
export function withUnitOrigins(g: Grounding, scores: ErrorScores): ErrorScores {
  if (g.kind !== "sources" || scores.uncoveredArguments === undefined) return scores;
  return {
    ...scores,
    uncoveredArguments: scores.uncoveredArguments.map((a) => {
      const origin = unitOrigin(g, a.perspective, a.argument);
      return origin === undefined ? a : { ...a, origin };
    }),
  };
}
