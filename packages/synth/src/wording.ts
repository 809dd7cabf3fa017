/**
 * Word lists of the reference writer: connectors, openings, meaning-preserving rewordings (free style)
 * and meaning-changing swaps (partial hallucinations). Small and hand-written on purpose: the writer is
 * a template system, and every substitution here must be safe in any sentence.
 */

/**
 * Openings that bridge from the query; `{topic}` and `{query}` are filled in. Openings naming the topic
 * are used only for short topic names ("abortion"), not for topics that are whole claims.
 */
export const OPENINGS: readonly string[] = [
  "This is a controversial topic and people hold different perspectives on it.",
  "The question \u201c{query}\u201d divides opinion.",
  "Whether the answer is yes or no is disputed, and there are arguments on both sides.",
  "People disagree about {topic}, and there are several arguments to consider.",
  "There is no consensus on {topic}; here are the main arguments.",
  "Views on {topic} differ, and each side has its reasons.",
];

/** Introductions of the first argument of a perspective, by label; `default` for other labels. */
export const FIRST_CONNECTORS: Readonly<Record<string, readonly string[]>> = {
  pro: [
    "Supporters argue that",
    "Those in favour point out that",
    "Proponents say that",
    "On the one hand, some argue that",
  ],
  con: [
    "On the other hand, critics argue that",
    "Opponents counter that",
    "Those against it say that",
    "Others object that",
  ],
  default: ["Those who hold the {label} view argue that", "From the {label} perspective, people say that"],
};

/** Introductions of further arguments of the same perspective. */
export const NEXT_CONNECTORS: readonly string[] = [
  "They also say that",
  "In addition, they note that",
  "Another argument is that",
  "They further point out that",
];

/**
 * Free-style rewordings: surface form -> replacement with the same meaning in any context (inflections
 * listed separately so no morphology is guessed).
 */
export const REWORDINGS: Readonly<Record<string, string>> = {
  reduce: "lower",
  reduces: "lowers",
  reduced: "lowered",
  reducing: "lowering",
  help: "assist",
  helps: "assists",
  helped: "assisted",
  many: "numerous",
  important: "significant",
  children: "kids",
  kids: "children",
  people: "individuals",
  large: "big",
  big: "large",
  often: "frequently",
  frequently: "often",
  improve: "enhance",
  improves: "enhances",
  improved: "enhanced",
  show: "demonstrate",
  shows: "demonstrates",
  allow: "permit",
  allows: "permits",
  protect: "safeguard",
  protects: "safeguards",
  cost: "expense",
  costly: "expensive",
  expensive: "costly",
  dangerous: "hazardous",
  hazardous: "dangerous",
  difficult: "hard",
  hard: "difficult",
  quickly: "rapidly",
  rapidly: "quickly",
  enough: "sufficient",
  begin: "start",
  begins: "starts",
  need: "require",
  needs: "requires",
  require: "need",
  requires: "needs",
  buy: "purchase",
  government: "state",
  governments: "states",
  students: "pupils",
  pupils: "students",
  increase: "rise",
  main: "primary",
  whole: "entire",
  entire: "whole",
  almost: "nearly",
  nearly: "almost",
};

/** Meaning-changing swaps for partial hallucinations ("consensus" -> "unanimity" in the paper). */
export const MEANING_SWAPS: Readonly<Record<string, string>> = {
  reduce: "increase",
  reduces: "increases",
  reduced: "increased",
  increase: "reduce",
  increases: "reduces",
  more: "less",
  less: "more",
  fewer: "more",
  most: "few",
  many: "few",
  few: "many",
  safe: "dangerous",
  dangerous: "safe",
  low: "high",
  high: "low",
  lower: "higher",
  higher: "lower",
  little: "much",
  better: "worse",
  worse: "better",
  easy: "hard",
  easier: "harder",
  harder: "easier",
  cheap: "expensive",
  expensive: "cheap",
  always: "never",
  never: "always",
  often: "rarely",
  improve: "worsen",
  improves: "worsens",
  help: "harm",
  helps: "harms",
  protect: "endanger",
  protects: "endangers",
  save: "waste",
  saves: "wastes",
  strong: "weak",
  weak: "strong",
  large: "small",
  small: "large",
  long: "short",
  short: "long",
  good: "bad",
  bad: "good",
  consensus: "unanimity",
  all: "some",
  every: "some",
  everyone: "nobody",
  must: "may",
  can: "cannot",
  should: "should not",
  rise: "fall",
  rises: "falls",
  gain: "lose",
  benefit: "harm",
  steady: "unstable",
  essential: "optional",
};
