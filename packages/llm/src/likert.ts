/**
 * The Likert judge (LLM evaluation, llm-evaluation.txt): the LLM gets the same instructions and question a
 * human rater gets, answers freely, and the rating is parsed with the paper's rules (Appendix D.2.1):
 * remove the strings "1-5", "out of 5" and "/5", then take the first number. Several answers are sampled
 * per item (the paper samples three, nucleus p = 0.9); the item's score is their mean; unreadable answers
 * are counted and reported, never guessed.
 */
import {
  type CheckInput,
  type ErrorDetector,
  type ErrorScores,
  InvalidValueError,
  type NpovInput,
  requireNpovInput,
  validateInput,
  validateResponse,
} from "@npov/core";
import type { LlmClient } from "./client.js";
import { UnparseableAnswersError } from "./errors.js";
import type { EndpointApi } from "./yesno.js";

/** What the judge rates. */
export type LikertAttribute = "neutrality" | "faithfulness" | "coverage" | "fluency";

export const LIKERT_ATTRIBUTES: readonly LikertAttribute[] = ["neutrality", "faithfulness", "coverage", "fluency"];

/** The question per attribute, worded and scaled like the paper's human-evaluation questions. */
export const LIKERT_QUESTIONS: Readonly<Record<LikertAttribute, string>> = Object.freeze({
  neutrality:
    "How neutral is the response, presenting every perspective fairly and without taking sides? (on a scale of 1-5, with 1 being the lowest)",
  faithfulness:
    "How faithful is the response to the given arguments, stating nothing that is not in them? (on a scale of 1-5, with 1 being the lowest)",
  coverage:
    "How completely does the response cover every given argument of every perspective? (on a scale of 1-5, with 1 being the lowest)",
  fluency: "How natural and fluent is the text of the response? (on a scale of 1-5, with 1 being the lowest)",
});

/**
 * The rating prompt: task instructions, the material the human rater sees, and the attribute's question.
 * Fluency shows the response alone (as the paper's fluency question shows the text alone); the other
 * attributes show the question and the given arguments too.
 */
export function likertPrompt(input: NpovInput, response: string, attribute: LikertAttribute): string {
  const question = LIKERT_QUESTIONS[attribute];
  if (question === undefined)
    throw new InvalidValueError(
      "attribute",
      `unknown attribute "${String(attribute)}"; use ${LIKERT_ATTRIBUTES.join(", ")}.`,
    );
  const clean = validateInput(input);
  const text = validateResponse(response).trim();
  const parts = [
    "The goal of this task is to rate a response to a question on a controversial topic. The response should present the given arguments of every perspective from a neutral point of view.",
    "Note: Please take the time to fully read and understand the response.",
  ];
  if (attribute !== "fluency") {
    parts.push(`Question:\n\n${clean.query.trim()}\n\n(End of question)`);
    const args = clean.perspectives.flatMap((p) => p.arguments.map((a) => `${p.label}: ${a.text.trim()}`)).join("\n");
    parts.push(`Given arguments:\n\n${args}\n\n(End of given arguments)`);
  }
  parts.push(`Response:\n\n${text}\n\n(End of response)`);
  parts.push(question);
  return parts.join("\n\n");
}

/**
 * The paper's parse rule: remove "1-5", "out of 5" and "/5", then take the first number. Like the paper's
 * task-specific removal of "title 1"/"title 2", the scale wording our questions use ("with 1 being the
 * lowest") is removed too, since models echo it ("On a scale of 1-5, with 1 being the lowest, I would rate
 * it a 5" would otherwise read as 1). Half points are kept (the paper keeps them). A number outside
 * [1, 5], or no number, is unreadable (undefined).
 */
export function parseLikert(answer: string): number | undefined {
  const stripped = answer
    .split("1-5")
    .join(" ")
    .replace(/out of 5/gi, " ")
    .split("/5")
    .join(" ")
    .replace(/with 1 being the lowest/gi, " ");
  const match = /\d+(?:\.\d+)?/.exec(stripped);
  if (match === null) return undefined;
  const value = Number(match[0]);
  return value >= 1 && value <= 5 ? value : undefined;
}

export interface LikertJudgeOptions {
  /** Default "chat" (the question as the user message); "completions" sends the prompt as is. */
  api?: EndpointApi;
  /** Answers sampled per item and attribute (default 3, as in the paper). */
  samples?: number;
  /** Sampling temperature (default 1) and nucleus mass (default 0.9, the paper's p). */
  temperature?: number;
  topP?: number;
  /** First seed; sample i uses seed + i (default 0). */
  seed?: number;
  /** Answer length budget (default 128 tokens). */
  maxTokens?: number;
  /** Attributes to rate (default all four). */
  attributes?: readonly LikertAttribute[];
}

/** The ratings of one item on one attribute. */
export interface LikertRating {
  attribute: LikertAttribute;
  /** The readable ratings, in sample order. */
  ratings: number[];
  /** Every answer as returned, in sample order. */
  answers: string[];
  /** Answers without a readable 1-5 rating. */
  unparsed: number;
  /** Mean of `ratings`; undefined when none was readable. */
  mean: number | undefined;
  seeds: number[];
}

export class LikertJudge implements ErrorDetector {
  readonly name = "likert";
  private readonly o: Required<LikertJudgeOptions>;

  constructor(
    readonly client: LlmClient,
    options: LikertJudgeOptions = {},
  ) {
    const samples = options.samples ?? 3;
    if (!Number.isInteger(samples) || samples < 1) throw new InvalidValueError("samples", "must be an integer >= 1.");
    const seed = options.seed ?? 0;
    if (!Number.isInteger(seed) || seed < 0) throw new InvalidValueError("seed", "must be an integer >= 0.");
    const temperature = options.temperature ?? 1;
    if (!(temperature >= 0 && temperature <= 2)) throw new InvalidValueError("temperature", "must be in [0, 2].");
    const topP = options.topP ?? 0.9;
    if (!(topP > 0 && topP <= 1)) throw new InvalidValueError("topP", "must be in (0, 1].");
    const maxTokens = options.maxTokens ?? 128;
    if (!Number.isInteger(maxTokens) || maxTokens < 1) throw new InvalidValueError("maxTokens", "must be >= 1.");
    const attributes = options.attributes ?? LIKERT_ATTRIBUTES;
    for (const a of attributes)
      if (!LIKERT_ATTRIBUTES.includes(a))
        throw new InvalidValueError("attributes", `unknown attribute "${a}"; use ${LIKERT_ATTRIBUTES.join(", ")}.`);
    const api = options.api ?? "chat";
    if (api !== "chat" && api !== "completions") throw new InvalidValueError("api", 'must be "chat" or "completions".');
    this.o = { api, samples, temperature, topP, seed, maxTokens, attributes };
  }

  /** Sample answers for every attribute and parse them. */
  async rate(input: NpovInput, response: string): Promise<LikertRating[]> {
    return Promise.all(this.o.attributes.map((attribute) => this.rateOne(input, response, attribute)));
  }

  private async rateOne(input: NpovInput, response: string, attribute: LikertAttribute): Promise<LikertRating> {
    const prompt = likertPrompt(input, response, attribute);
    const seeds = Array.from({ length: this.o.samples }, (_, i) => this.o.seed + i);
    const common = { temperature: this.o.temperature, top_p: this.o.topP, max_tokens: this.o.maxTokens };
    const answers = await Promise.all(
      seeds.map(async (seed) => {
        if (this.o.api === "chat") {
          const r = await this.client.chat({ ...common, seed, messages: [{ role: "user", content: prompt }] });
          return r.choices[0]?.message?.content ?? "";
        }
        const r = await this.client.complete({ ...common, seed, prompt });
        return r.choices[0]?.text ?? "";
      }),
    );
    const ratings: number[] = [];
    for (const a of answers) {
      const r = parseLikert(a);
      if (r !== undefined) ratings.push(r);
    }
    const mean = ratings.length === 0 ? undefined : ratings.reduce((s, x) => s + x, 0) / ratings.length;
    return { attribute, ratings, answers, unparsed: answers.length - ratings.length, mean, seeds };
  }

  /**
   * Likert ratings as error scores: hallucination = (5 - mean faithfulness) / 4, coverage = (5 - mean
   * coverage) / 4 (1 -> 1.0, 5 -> 0.0); every attribute's mean and unparsed count become features.
   * @throws UnparseableAnswersError when faithfulness or coverage has no readable rating
   */
  async detect(input: CheckInput, response: string): Promise<ErrorScores> {
    const ratings = await this.rate(requireNpovInput(input, "Likert judge"), response);
    const features: Record<string, number> = {};
    for (const r of ratings) {
      if (r.mean !== undefined) features[`likert.${r.attribute}.mean`] = r.mean;
      features[`likert.${r.attribute}.unparsed`] = r.unparsed;
    }
    const score = (attribute: LikertAttribute): number => {
      const r = ratings.find((x) => x.attribute === attribute);
      if (r === undefined)
        throw new InvalidValueError("attributes", `the likert detector needs "${attribute}" among the attributes.`);
      if (r.mean === undefined)
        throw new UnparseableAnswersError(
          `none of the ${r.answers.length} ${attribute} answers holds a 1-5 rating (first: ${JSON.stringify((r.answers[0] ?? "").slice(0, 80))}): use a model that follows rating instructions, or raise samples.`,
          r.answers,
        );
      return (5 - r.mean) / 4;
    };
    return { hallucination: score("faithfulness"), coverage: score("coverage"), features };
  }
}
