/** Hand-made examples whose words, sentences and errors are known, shared by the annotate tests. */
import type { NpovExample, Span } from "@npov/core";
import { segmentWords } from "@npov/core";

/** Three sentences; both arguments covered; no error. */
export const ZOOS: NpovExample = {
  id: "zoos-1",
  input: {
    topic: "zoos",
    query: "Should zoos be abolished?",
    perspectives: [
      { label: "pro", arguments: [{ id: "zoos/pro/0", text: "Zoos keep animals in small cages." }] },
      { label: "con", arguments: [{ id: "zoos/con/0", text: "Zoos protect endangered species." }] },
    ],
  },
  response:
    "Zoos are a contested topic. Critics say zoos keep animals in small cages. Supporters say zoos protect endangered species.",
};

/** Pro argument 2 is dropped (coverage error) and "cost teachers their jobs" is made up (hallucination). */
export const UNIFORMS: NpovExample = {
  id: "uniforms-1",
  input: {
    topic: "school uniforms",
    query: "Should students wear uniforms?",
    perspectives: [
      {
        label: "pro",
        arguments: [{ text: "Uniforms reduce bullying." }, { text: "Uniforms save families money." }],
      },
      { label: "con", arguments: [{ text: "Uniforms limit self-expression." }] },
    ],
  },
  response:
    "School uniforms divide opinion. Some argue uniforms reduce bullying. Others say uniforms limit self-expression and cost teachers their jobs.",
};

/** No error; non-ASCII text on purpose. */
export const VEGETARIAN: NpovExample = {
  id: "veg-1",
  input: {
    topic: "vegetarianism",
    query: "Should people become vegetarian?",
    perspectives: [
      { label: "pro", arguments: [{ text: "A vegetarian diet lowers the risk of disease." }] },
      { label: "con", arguments: [{ text: "Meat is an important source of protein." }] },
    ],
  },
  response:
    "People disagree about vegetarianism — even in Zürich. A vegetarian diet may lower the risk of disease. Meat, however, is an important source of protein.",
};

/** A calibration example with a known hallucination in its second sentence (index 1). */
export const CALIBRATION_HALLUCINATION: NpovExample = {
  id: "cal-1",
  input: ZOOS.input,
  response:
    "Zoos are a contested topic. Critics say zoos keep animals in small cages and that zoo keepers are underpaid. Supporters say zoos protect endangered species.",
  labels: { hallucination: true, coverage: false },
  wordLabels: { hallucinatedSpans: [], uncoveredArguments: [] },
  slice: "unparaphrased-synthetic",
};
{
  const r = CALIBRATION_HALLUCINATION.response;
  const start = r.indexOf("zoo keepers are underpaid");
  (CALIBRATION_HALLUCINATION.wordLabels as { hallucinatedSpans: Span[] }).hallucinatedSpans = [
    { start, end: start + "zoo keepers are underpaid".length },
  ];
}

/** The character span of `phrase` in `text` (first occurrence). */
export function spanOf(text: string, phrase: string): Span {
  const start = text.indexOf(phrase);
  if (start < 0) throw new Error(`"${phrase}" is not in "${text}"`);
  return { start, end: start + phrase.length };
}

/** Indices of the first and last word of `phrase` in `text` (core's word segmentation). */
export function wordRange(text: string, phrase: string): [number, number] {
  const span = spanOf(text, phrase);
  const words = segmentWords(text);
  const first = words.findIndex((w) => w.start >= span.start);
  let last = first;
  while (last + 1 < words.length && (words[last + 1] as { end: number }).end <= span.end) last++;
  return [first, last];
}
