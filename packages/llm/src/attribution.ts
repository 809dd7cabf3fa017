/**
 * The attribution judge (AIS, ais.txt), sentence by sentence. Stage 1 shows a response sentence with its
 * context (the question and the sentences before it) but without the source, and asks whether all of its
 * information is interpretable -- the paper found hiding the source crucial for strict interpretability
 * ratings. Stage 2, for interpretable sentences only, shows the source (the question and the given
 * arguments) and asks the "according to" test: is all of the information fully supported? An
 * uninterpretable sentence is not attributable (AIS requires an interpretable explicature), so it scores 1.
 *
 * Scores: per sentence, P(not AIS) = 1 - (1 - P(NO | stage 1)) (1 - P(NO | stage 2)) when stage 1 answers
 * YES (P(NO) < 0.5), else 1; the response's hallucination score is the largest (one unattributable
 * sentence makes the response unattributable, paper 4.1.4). Coverage asks the same "according to" test in
 * the other direction, per given argument against the response; the coverage score is the largest.
 */
import {
  type CheckInput,
  type ErrorDetector,
  type ErrorScores,
  flagEvidence,
  formatArguments,
  maxOf,
  type NpovInput,
  rankUncoveredArguments,
  requireNpovInput,
  type Sentence,
  splitSentences,
  type UnsupportedSpan,
  validateInput,
  validateResponse,
} from "@npov/core";
import type { LlmClient } from "./client.js";
import { askYesNo, type YesNoAnswer, type YesNoQuestionOptions, yesNoDefaults } from "./yesno.js";

const INSTRUCTIONS =
  "The goal of this task is to rate a sentence of a response to a question on a controversial topic.";

/** Stage 1: the sentence in its context, without the source. */
export function interpretabilityPrompt(query: string, earlier: readonly string[], sentence: string): string {
  const parts = [INSTRUCTIONS, `Question:\n\n${query.trim()}\n\n(End of question)`];
  if (earlier.length > 0)
    parts.push(`Earlier sentences of the response:\n\n${earlier.join(" ")}\n\n(End of earlier sentences)`);
  parts.push(`Sentence:\n\n${sentence}\n\n(End of sentence)`);
  parts.push(
    "Is all of the information relayed by the sentence interpretable to you? If some part of it is unclear or hard to interpret (for example a pronoun without a clear antecedent), answer NO. Answer YES or NO.",
  );
  return parts.join("\n\n");
}

function sourceText(input: NpovInput): string {
  return `Question:\n\n${input.query.trim()}\n\n(End of question)\n\nGiven arguments:\n\n${input.perspectives
    .map((p) => formatArguments(p))
    .join("\n")}\n\n(End of given arguments)`;
}

/** Stage 2: the "according to" test of a sentence against the question and the given arguments. */
export function supportPrompt(input: NpovInput, earlier: readonly string[], sentence: string): string {
  const clean = validateInput(input);
  const parts = [INSTRUCTIONS, sourceText(clean)];
  if (earlier.length > 0)
    parts.push(`Earlier sentences of the response:\n\n${earlier.join(" ")}\n\n(End of earlier sentences)`);
  parts.push(`Sentence:\n\n${sentence}\n\n(End of sentence)`);
  parts.push(
    `Is all of the information provided by the sentence fully supported by the question and the given arguments? Ask yourself whether it is accurate to say "according to the given arguments, ${sentence}" If the sentence adds information, misrepresents an argument, or changes even slight details, answer NO. Answer YES or NO.`,
  );
  return parts.join("\n\n");
}

/** Coverage: is a given argument supported by the response? */
export function argumentCoveredPrompt(response: string, label: string, argument: string): string {
  return [
    "The goal of this task is to check whether a response to a question on a controversial topic states a given argument.",
    `Response:\n\n${response.trim()}\n\n(End of response)`,
    `Argument (${label}):\n\n${argument.trim()}\n\n(End of argument)`,
    `Is all of the information of the argument stated by the response? Ask yourself whether it is accurate to say "according to the response, ${argument.trim()}" Answer YES or NO.`,
  ].join("\n\n");
}

/** The verdict on one response sentence. */
export interface SentenceAttribution {
  text: string;
  start: number;
  end: number;
  verdict: "supported" | "unsupported" | "uninterpretable";
  /** P(not AIS) in [0, 1]. */
  score: number;
  interpretable: YesNoAnswer;
  /** Absent when stage 1 found the sentence uninterpretable (stage 2 not asked). */
  supported?: YesNoAnswer;
}

/** The verdict on one given argument (coverage direction). */
export interface ArgumentAttribution {
  perspective: number;
  argument: number;
  text: string;
  /** P(the response does not state it). */
  score: number;
  answer: YesNoAnswer;
}

export interface AttributionResult {
  sentences: SentenceAttribution[];
  arguments: ArgumentAttribution[];
  hallucination: number;
  coverage: number;
}

export class AttributionJudge implements ErrorDetector {
  readonly name = "attribution";
  private readonly options: YesNoQuestionOptions;

  constructor(
    readonly client: LlmClient,
    options: YesNoQuestionOptions = {},
  ) {
    yesNoDefaults(options);
    this.options = options;
  }

  private async sentence(input: NpovInput, all: Sentence[], i: number): Promise<SentenceAttribution> {
    const s = all[i] as Sentence;
    const earlier = all.slice(0, i).map((x) => x.text);
    const interpretable = await askYesNo(
      this.client,
      interpretabilityPrompt(input.query, earlier, s.text),
      this.options,
    );
    const base = { text: s.text, start: s.start, end: s.end, interpretable };
    if (interpretable.pNo >= 0.5) return { ...base, verdict: "uninterpretable", score: 1 };
    const supported = await askYesNo(this.client, supportPrompt(input, earlier, s.text), this.options);
    return {
      ...base,
      supported,
      verdict: supported.pNo >= 0.5 ? "unsupported" : "supported",
      score: 1 - (1 - interpretable.pNo) * (1 - supported.pNo),
    };
  }

  /** Both directions, every sentence and every argument. */
  async judge(input: NpovInput, response: string): Promise<AttributionResult> {
    const clean = validateInput(input);
    const text = validateResponse(response);
    const sentences = splitSentences(text);
    const [perSentence, perArgument] = await Promise.all([
      Promise.all(sentences.map((_, i) => this.sentence(clean, sentences, i))),
      Promise.all(
        clean.perspectives.flatMap((p, k) =>
          p.arguments.map(async (a, j): Promise<ArgumentAttribution> => {
            const answer = await askYesNo(this.client, argumentCoveredPrompt(text, p.label, a.text), this.options);
            return { perspective: k, argument: j, text: a.text, score: answer.pNo, answer };
          }),
        ),
      ),
    ]);
    return {
      sentences: perSentence,
      arguments: perArgument,
      hallucination: maxOf(perSentence.map((s) => s.score)),
      coverage: maxOf(perArgument.map((a) => a.score)),
    };
  }

  async detect(input: CheckInput, response: string): Promise<ErrorScores> {
    const r = await this.judge(requireNpovInput(input, "attribution judge"), response);
    const unsupportedSpans: UnsupportedSpan[] = r.sentences
      .filter((s) => s.verdict !== "supported")
      .map((s) => ({ text: s.text, start: s.start, end: s.end, score: s.score }))
      .sort((a, b) => b.score - a.score);
    const byArgument = new Map(r.arguments.map((a) => [`${a.perspective}/${a.argument}`, a.score]));
    const clean = validateInput(input);
    const uncoveredArguments = rankUncoveredArguments(
      clean.perspectives.map((p, k) => ({
        arguments: p.arguments.map((a, j) => ({ text: a.text, score: byArgument.get(`${k}/${j}`) as number })),
      })),
      (a) => a.score,
    );
    return flagEvidence({
      hallucination: r.hallucination,
      coverage: r.coverage,
      unsupportedSpans,
      uncoveredArguments,
      features: {
        "attribution.sentences": r.sentences.length,
        "attribution.uninterpretable": r.sentences.filter((s) => s.verdict === "uninterpretable").length,
        "attribution.unsupported": r.sentences.filter((s) => s.verdict === "unsupported").length,
      },
    });
  }
}
