import { classifierPrompt, type NpovInput } from "@npov/core";
import {
  AttributionJudge,
  EndpointClassifier,
  LabelLogprobsError,
  LikertJudge,
  LlmClient,
  likertPrompt,
  parseLikert,
  UnparseableAnswersError,
  YES_NO_SYSTEM_PROMPT,
} from "@npov/llm";
import { afterEach, describe, expect, it } from "vitest";
import { chatReply, type FakeEndpoint, fakeEndpoint, userMessage } from "./helpers.js";

const input: NpovInput = {
  topic: "zoos",
  query: "Should zoos be abolished?",
  perspectives: [
    { label: "pro", arguments: [{ text: "Animals in zoos cannot live as they would in the wild." }] },
    { label: "con", arguments: [{ text: "Zoos save endangered species." }] },
  ],
};
let endpoints: FakeEndpoint[] = [];
const serve = async (...args: Parameters<typeof fakeEndpoint>) => {
  const e = await fakeEndpoint(...args);
  endpoints.push(e);
  return e;
};
afterEach(async () => {
  await Promise.all(endpoints.map((e) => e.close()));
  endpoints = [];
});

describe("Likert parse rules (llm-evaluation.txt, Appendix D.2.1)", () => {
  it("reads the paper's example answers", () => {
    // Table 8/9 answers quoted in the paper.
    expect(
      parseLikert(
        "I would rate the grammatical correctness of the text of the story fragment as a 4. There are a few minor errors and awkward phrasings, but overall the text is well-constructed and easy to understand.",
      ),
    ).toBe(4);
    expect(
      parseLikert(
        "The text of the story fragment appears to be grammatically correct, with no major errors or awkward phrasing. On a scale of 1-5, with 1 being the lowest, I would rate the grammatical correctness of the text as a 5.",
      ),
    ).toBe(5);
    expect(
      parseLikert(
        "The sentences in the story fragment fit together well, creating a clear and coherent image of the scene. On a scale of 1-5, with 1 being the lowest, I would rate how well the sentences fit together as a 4.",
      ),
    ).toBe(4);
    expect(
      parseLikert(
        "Based on the structure, writing style and plot of the story fragment, I would rate it as 3 in terms of enjoyability.",
      ),
    ).toBe(3);
    // The three removals the paper names, and its half points.
    expect(parseLikert("I give it a score of 2 out of 5.")).toBe(2);
    expect(parseLikert("Rating: 4/5")).toBe(4);
    expect(parseLikert("On a scale of 1-5 I'd say 3")).toBe(3);
    expect(parseLikert("Somewhere around 4.5, I think.")).toBe(4.5);
  });

  it("counts answers without a 1-5 number as unreadable", () => {
    expect(parseLikert("I cannot rate this response.")).toBeUndefined();
    expect(parseLikert("8 out of 10")).toBeUndefined();
    expect(parseLikert("0")).toBeUndefined();
    expect(parseLikert("")).toBeUndefined();
  });
});

describe("LikertJudge", () => {
  it("samples n answers per attribute, parses them, and turns means into error scores", async () => {
    const script: Record<string, string[]> = {
      faithful: ["I would rate it 4 out of 5.", "3/5", "no idea"],
      completely: ["5", "5", "Rating: 4"],
      neutral: ["5", "4", "3"],
      natural: ["2", "2", "2"],
    };
    const api = await serve((r) => {
      const prompt = userMessage(r);
      const key = Object.keys(script).find((k) => prompt.includes(`How ${k}`))!;
      return { body: chatReply(script[key]![r.body.seed as number]!) };
    });
    const judge = new LikertJudge(new LlmClient({ baseURL: api.url, model: "m" }), { seed: 0 });
    const ratings = await judge.rate(input, "Opinions differ. Some say animals in zoos cannot live as in the wild.");
    const faithfulness = ratings.find((r) => r.attribute === "faithfulness")!;
    expect(faithfulness).toMatchObject({ ratings: [4, 3], unparsed: 1, mean: 3.5, seeds: [0, 1, 2] });
    expect(ratings.find((r) => r.attribute === "fluency")!.mean).toBe(2);
    expect(api.requests).toHaveLength(12);
    expect(api.requests.every((r) => r.body.temperature === 1 && r.body.top_p === 0.9)).toBe(true);
    const scores = await judge.detect(input, "Opinions differ. Some say animals in zoos cannot live as in the wild.");
    expect(scores.hallucination).toBe((5 - 3.5) / 4);
    expect(scores.coverage).toBeCloseTo((5 - 14 / 3) / 4, 15);
    expect(scores.features).toMatchObject({ "likert.faithfulness.unparsed": 1, "likert.neutrality.mean": 4 });
  });

  it("gives the rater's material: question and arguments, except for fluency", () => {
    const faithfulness = likertPrompt(input, "A response.", "faithfulness");
    expect(faithfulness).toContain("Question:\n\nShould zoos be abolished?\n\n(End of question)");
    expect(faithfulness).toContain(
      "pro: Animals in zoos cannot live as they would in the wild.\ncon: Zoos save endangered species.",
    );
    expect(faithfulness.endsWith("(on a scale of 1-5, with 1 being the lowest)")).toBe(true);
    const fluency = likertPrompt(input, "A response.", "fluency");
    expect(fluency).not.toContain("Given arguments");
    expect(fluency).toContain("Response:\n\nA response.\n\n(End of response)");
  });

  it("is a typed error when no answer holds a rating", async () => {
    const api = await serve(() => ({ body: chatReply("I'd rather not say.") }));
    const judge = new LikertJudge(new LlmClient({ baseURL: api.url, model: "m" }), { samples: 2 });
    const error = await judge.detect(input, "Opinions differ.").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnparseableAnswersError);
    expect((error as UnparseableAnswersError).answers).toEqual(["I'd rather not say.", "I'd rather not say."]);
    expect(() => new LikertJudge(new LlmClient({ baseURL: api.url, model: "m" }), { samples: 0 })).toThrow(
      expect.objectContaining({ code: "INVALID_VALUE" }),
    );
  });
});

describe("EndpointClassifier", () => {
  it("asks the Figure 4 prompts with logprobs and reads P(NO) per task", async () => {
    const api = await serve((r) =>
      userMessage(r).endsWith("covered by the neutral response: {")
        ? {
            body: chatReply("NO", [
              ["NO", 0.6],
              ["YES", 0.3],
              [" no", 0.1],
            ]),
          }
        : {
            body: chatReply("YES", [
              ["YES", 0.8],
              ["NO", 0.2],
            ]),
          },
    );
    const response = "Opinions differ. Some say zoos save endangered species.";
    const classifier = new EndpointClassifier(new LlmClient({ baseURL: api.url, model: "m" }));
    const scores = await classifier.detect(input, response);
    expect(scores.coverage).toBeCloseTo(0.7, 12);
    expect(scores.hallucination).toBeCloseTo(0.2, 12);
    const sent = api.requests.map((r) => r.body);
    expect(sent[0]).toMatchObject({ logprobs: true, top_logprobs: 20, max_tokens: 3, temperature: 0, model: "m" });
    expect((sent[0]!.messages as Array<{ content: string }>)[0]!.content).toBe(YES_NO_SYSTEM_PROMPT);
    expect(api.requests.map(userMessage).sort()).toEqual(
      [classifierPrompt(input, response, "coverage"), classifierPrompt(input, response, "hallucination")].sort(),
    );
  });

  it("falls back to k seeded samples without logprobs, and records them", async () => {
    const answers = ["YES", "NO", "No.", "maybe", "no"];
    const api = await serve((r) =>
      r.body.logprobs === true
        ? { body: chatReply("NO") } // logprobs: null
        : { body: chatReply(answers[(r.body.seed as number) - 10]!) },
    );
    const client = new LlmClient({ baseURL: api.url, model: "m" });
    const strict = new EndpointClassifier(client, { task: "hallucination" });
    const error = await strict.detect(input, "Opinions differ.").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LabelLogprobsError);
    expect(error).toMatchObject({ code: "NO_LOGPROBS" });
    const sampling = new EndpointClassifier(client, { task: "hallucination", samples: 5, seed: 10 });
    const verdicts = await sampling.classify(input, "Opinions differ.");
    expect(verdicts.hallucination).toEqual({
      pNo: 3 / 4,
      method: "sampling",
      samples: { k: 5, seeds: [10, 11, 12, 13, 14], temperature: 1, yes: 1, no: 3, unparsed: 1 },
    });
    const scores = await sampling.detect(input, "Opinions differ.");
    expect(scores).toMatchObject({ hallucination: 0.75, coverage: 0 });
    expect(scores.features).toMatchObject({
      "endpoint.hallucination.samples": 5,
      "endpoint.hallucination.unparsed": 1,
    });
  });

  it("falls back when the endpoint refuses the logprobs parameters", async () => {
    const api = await serve((r) =>
      r.body.logprobs === true
        ? { status: 400, body: { error: { message: "logprobs is not supported" } } }
        : { body: chatReply("YES") },
    );
    const classifier = new EndpointClassifier(new LlmClient({ baseURL: api.url, model: "m" }), { samples: 2 });
    const scores = await classifier.detect(input, "Opinions differ.");
    expect(scores).toMatchObject({ hallucination: 0, coverage: 0 });
    expect(() => new EndpointClassifier(new LlmClient({ baseURL: api.url, model: "m" }), { topLogprobs: 0 })).toThrow(
      expect.objectContaining({ code: "INVALID_VALUE" }),
    );
  });
});

describe("AttributionJudge (two-stage AIS)", () => {
  const response =
    "Opinions differ on zoos. Some say zoos save endangered species. Zoos are cheap to run. They are bad.";
  it("rates interpretability without the source, then support with it, per sentence", async () => {
    const api = await serve((r) => {
      const prompt = userMessage(r);
      const sentence = /Sentence:\n\n(.*)\n\n\(End of sentence\)/.exec(prompt)?.[1];
      if (prompt.includes("interpretable to you"))
        return {
          body: chatReply(
            "YES",
            sentence === "They are bad."
              ? [
                  ["NO", 0.8],
                  ["YES", 0.2],
                ]
              : [
                  ["YES", 0.9],
                  ["NO", 0.1],
                ],
          ),
        };
      if (prompt.includes("fully supported"))
        return {
          body: chatReply(
            "YES",
            sentence === "Zoos are cheap to run."
              ? [
                  ["NO", 0.7],
                  ["YES", 0.3],
                ]
              : [
                  ["YES", 0.95],
                  ["NO", 0.05],
                ],
          ),
        };
      // Coverage: is the argument stated by the response?
      return {
        body: chatReply(
          "YES",
          prompt.includes("cannot live")
            ? [
                ["NO", 0.9],
                ["YES", 0.1],
              ]
            : [
                ["YES", 0.8],
                ["NO", 0.2],
              ],
        ),
      };
    });
    const judge = new AttributionJudge(new LlmClient({ baseURL: api.url, model: "m" }));
    const result = await judge.judge(input, response);
    expect(result.sentences.map((s) => [s.text, s.verdict])).toEqual([
      ["Opinions differ on zoos.", "supported"],
      ["Some say zoos save endangered species.", "supported"],
      ["Zoos are cheap to run.", "unsupported"],
      ["They are bad.", "uninterpretable"],
    ]);
    // P(not AIS) = 1 - (1 - P(NO, stage 1)) (1 - P(NO, stage 2)); uninterpretable = 1.
    expect(result.sentences.map((s) => s.score)).toEqual([
      expect.closeTo(1 - 0.9 * 0.95, 12),
      expect.closeTo(1 - 0.9 * 0.95, 12),
      expect.closeTo(1 - 0.9 * 0.3, 12),
      1,
    ]);
    expect(result.sentences[3]!.supported).toBeUndefined();
    // 4 stage-1 + 3 stage-2 (none for the uninterpretable sentence) + 2 arguments.
    expect(api.requests).toHaveLength(9);
    const stage1 = api.requests.map(userMessage).filter((p) => p.includes("interpretable to you"));
    expect(stage1.some((p) => p.includes("Given arguments"))).toBe(false);
    expect(stage1.find((p) => p.includes("Sentence:\n\nZoos are cheap"))).toContain(
      "Earlier sentences of the response:\n\nOpinions differ on zoos. Some say zoos save endangered species.",
    );
    const scores = await judge.detect(input, response);
    expect(scores.hallucination).toBe(1);
    expect(scores.coverage).toBeCloseTo(0.9, 12);
    expect(scores.unsupportedSpans!.map((s) => [s.text, response.slice(s.start, s.end)])).toEqual([
      ["They are bad.", "They are bad."],
      ["Zoos are cheap to run.", "Zoos are cheap to run."],
    ]);
    expect(scores.uncoveredArguments!.map((a) => [a.perspective, a.argument])).toEqual([
      [0, 0],
      [1, 0],
    ]);
    expect(scores.uncoveredArguments![1]!.score).toBeCloseTo(0.2, 12);
    expect(scores.features).toEqual({
      "attribution.sentences": 4,
      "attribution.uninterpretable": 1,
      "attribution.unsupported": 1,
    });
  });
});
