/**
 * EndpointClassifier: the paper's classifier (SPEC 2.3) on any OpenAI-compatible endpoint. The LLM reads
 * the Figure 4 prompt of each task and the error score is P(NO), read from the answer token's top
 * log-probabilities with the label rule of labels.ts, or from k sampled answers when the endpoint has no
 * log-probabilities and the fallback is enabled.
 */
import {
  type CheckInput,
  type ClassifierTask,
  classifierPrompt,
  type ErrorDetector,
  type ErrorScores,
  InvalidValueError,
  type NpovInput,
  requireNpovInput,
} from "@npov/core";
import type { LlmClient } from "./client.js";
import { askYesNo, type YesNoAnswer, type YesNoQuestionOptions, yesNoDefaults } from "./yesno.js";

export interface EndpointClassifierOptions extends YesNoQuestionOptions {
  /** Which prompt(s) to ask (default both). A task not asked scores 0 in `detect`, as in YesNoClassifier. */
  task?: ClassifierTask | "both";
}

/** The endpoint classifier's reading of one (input, response) pair, per task asked. */
export type EndpointVerdicts = Partial<Record<ClassifierTask, YesNoAnswer>>;

export class EndpointClassifier implements ErrorDetector {
  readonly name = "endpoint-classifier";
  readonly tasks: readonly ClassifierTask[];
  private readonly options: YesNoQuestionOptions;

  constructor(
    readonly client: LlmClient,
    options: EndpointClassifierOptions = {},
  ) {
    const { task = "both", ...question } = options;
    if (task !== "both" && task !== "coverage" && task !== "hallucination")
      throw new InvalidValueError("task", 'must be "coverage", "hallucination" or "both".');
    this.tasks = task === "both" ? ["hallucination", "coverage"] : [task];
    yesNoDefaults(question); // validate now, not on the first call
    this.options = question;
  }

  /** Ask the Figure 4 question of every task. */
  async classify(input: NpovInput, response: string): Promise<EndpointVerdicts> {
    const answers = await Promise.all(
      this.tasks.map((task) => askYesNo(this.client, classifierPrompt(input, response, task), this.options)),
    );
    return Object.fromEntries(this.tasks.map((task, i) => [task, answers[i]])) as EndpointVerdicts;
  }

  async detect(input: CheckInput, response: string): Promise<ErrorScores> {
    const verdicts = await this.classify(requireNpovInput(input, "endpoint classifier (Figure 4 prompt)"), response);
    const features: Record<string, number> = {};
    for (const [task, v] of Object.entries(verdicts) as Array<[ClassifierTask, YesNoAnswer]>) {
      features[`endpoint.${task}.pNo`] = v.pNo;
      if (v.yesMass !== undefined) features[`endpoint.${task}.labelMass`] = v.yesMass + (v.noMass ?? 0);
      if (v.samples !== undefined) {
        features[`endpoint.${task}.samples`] = v.samples.k;
        features[`endpoint.${task}.unparsed`] = v.samples.unparsed;
      }
    }
    return {
      hallucination: verdicts.hallucination?.pNo ?? 0,
      coverage: verdicts.coverage?.pNo ?? 0,
      features,
    };
  }
}
