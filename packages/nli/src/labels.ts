/**
 * Which output of a sequence classifier means entailment: read from config.json's `id2label`, in any order
 * and any case ("entailment", "ENTAILMENT", "Entailment"). Generic names ("LABEL_0") say nothing, so a model
 * without an entailment label is refused with the labels it has, rather than guessed at.
 */
import { describe, NpovError } from "@npov/core";

/** A model whose config.json names no entailment output (or names its outputs badly). */
export class NliLabelError extends NpovError {
  /** The labels found, in output order (empty when id2label is missing or unreadable). */
  readonly labels: readonly string[];
  constructor(model: string, labels: readonly string[], problem: string) {
    super(
      "NLI_LABELS",
      `${model} cannot be used as an NLI model: ${problem}. The nli method needs a sequence classifier whose config.json id2label names an entailment output (e.g. {"0": "entailment", "1": "neutral", "2": "contradiction"}): use an NLI model (MNLI/ANLI-trained cross-encoder), or fix id2label if the model is one and its labels are known.`,
    );
    this.labels = labels;
  }
}

/** The outputs of an NLI model by meaning: indices into its logits. */
export interface NliLabels {
  /** Label names in output order, as config.json writes them. */
  names: string[];
  entailment: number;
  /** Absent when the model has no such output (e.g. two-way entailment / not_entailment models). */
  neutral?: number;
  contradiction?: number;
}

// Names an output may carry for each meaning, lowercased, after `_`/`-`/space are dropped.
const ENTAILMENT = new Set(["entailment", "entailed", "entails", "entail"]);
const NEUTRAL = new Set(["neutral"]);
const CONTRADICTION = new Set(["contradiction", "contradicts", "contradict", "contradicted"]);

const canonical = (label: string) =>
  label
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, "");

/**
 * The label layout of a config.json (`model` names it in errors).
 * @throws NliLabelError when id2label is missing, not an object of 0..n-1 to strings, names a meaning twice,
 * or has no entailment label (the message lists the labels found).
 */
export function nliLabels(config: Record<string, unknown>, model: string): NliLabels {
  const raw = config.id2label;
  if (raw === undefined || raw === null)
    throw new NliLabelError(model, [], "its config.json has no id2label (which output is entailment is unknown)");
  if (typeof raw !== "object" || Array.isArray(raw))
    throw new NliLabelError(
      model,
      [],
      `its config.json id2label must be an object {"0": "...", ...}, got ${describe(raw)}`,
    );
  const entries = Object.entries(raw as Record<string, unknown>);
  const names: string[] = new Array(entries.length);
  for (const [key, value] of entries) {
    const index = Number(key);
    if (!/^\d+$/.test(key) || index >= entries.length)
      throw new NliLabelError(
        model,
        [],
        `its config.json id2label has key "${key}"; the keys must be the output indices 0..${entries.length - 1}`,
      );
    if (typeof value !== "string" || value.trim() === "")
      throw new NliLabelError(model, [], `its config.json id2label["${key}"] is ${describe(value)}, not a label name`);
    names[index] = value;
  }
  if (names.length < 2)
    throw new NliLabelError(
      model,
      names,
      `its config.json id2label has ${names.length} label(s); NLI needs at least two`,
    );
  const find = (set: ReadonlySet<string>, meaning: string): number | undefined => {
    const hits = names.flatMap((n, i) => (set.has(canonical(n)) ? [i] : []));
    if (hits.length > 1)
      throw new NliLabelError(
        model,
        names,
        `its config.json id2label names ${meaning} ${hits.length} times (${hits.map((i) => `${i}: "${names[i]}"`).join(", ")})`,
      );
    return hits[0];
  };
  const entailment = find(ENTAILMENT, "entailment");
  const neutral = find(NEUTRAL, "neutral");
  const contradiction = find(CONTRADICTION, "contradiction");
  if (entailment === undefined)
    throw new NliLabelError(
      model,
      names,
      `its config.json id2label has no entailment label (found ${names.map((n, i) => `${i}: "${n}"`).join(", ")})`,
    );
  return {
    names,
    entailment,
    ...(neutral === undefined ? {} : { neutral }),
    ...(contradiction === undefined ? {} : { contradiction }),
  };
}
