import {
  classifierPrompt,
  classifierTarget,
  GeneratorOutputError,
  generatorPrompt,
  generatorTarget,
  type NpovInput,
  parseGeneratorOutput,
} from "@npov/core";
import { describe, expect, it } from "vitest";

// The paper's running example (Figures 3 and 4; SPEC section 1).
const abortion: NpovInput = {
  topic: "abortion",
  query: "Should abortion be legal?",
  perspectives: [
    {
      label: "pro",
      arguments: [
        { text: "Abortion bans deny bodily autonomy, creating wide-ranging repercussions." },
        { text: "Abortion is a safe medical procedure that protects lives." },
      ],
    },
    {
      label: "con",
      arguments: [
        { text: "Life begins at conception, making abortion murder." },
        {
          text: "Increased access to birth control, health insurance, and sexual education would make abortion unnecessary.",
        },
      ],
    },
  ],
};

describe("generator prompt (Figure 3)", () => {
  it("equals the paper's input sequence character by character", () => {
    const expected =
      "User question: {Should abortion be legal?} Topic: {abortion} Perspective #1: {pro: Abortion bans deny bodily autonomy, creating wide-ranging repercussions. pro: Abortion is a safe medical procedure that protects lives.} Perspective #2: {con: Life begins at conception, making abortion murder. con: Increased access to birth control, health insurance, and sexual education would make abortion unnecessary.} Neutral response opening: {";
    expect(generatorPrompt(abortion)).toBe(expected);
  });

  it("numbers any number of perspectives", () => {
    const three: NpovInput = {
      ...abortion,
      perspectives: [...abortion.perspectives, { label: "neutral", arguments: [{ text: "It depends." }] }],
    };
    expect(generatorPrompt(three)).toContain("} Perspective #3: {neutral: It depends.} Neutral response opening: {");
  });

  it("builds the target and parses it back", () => {
    const target = generatorTarget("This is a controversial topic.", "Some say A. Others say B.");
    expect(target).toBe("This is a controversial topic.} Neutral response core: {Some say A. Others say B.}");
    expect(parseGeneratorOutput(`${target}</s>`)).toEqual({
      opening: "This is a controversial topic.",
      core: "Some say A. Others say B.",
      response: "This is a controversial topic. Some say A. Others say B.",
    });
  });

  it("rejects malformed generator output with a typed error", () => {
    for (const bad of [
      "no marker here",
      "Opening} Neutral response core: {never closed",
      "} Neutral response core: {x}",
      "Open} Neutral response core: { }",
    ]) {
      expect(() => parseGeneratorOutput(bad)).toThrow(GeneratorOutputError);
    }
    try {
      parseGeneratorOutput("nothing");
    } catch (e) {
      expect((e as GeneratorOutputError).code).toBe("MALFORMED_GENERATOR_OUTPUT");
    }
  });
});

describe("classifier prompts (Figure 4)", () => {
  const response = "This is a controversial topic. Some say A.";
  const args =
    "Given pro arguments: {pro: Abortion bans deny bodily autonomy, creating wide-ranging repercussions. pro: Abortion is a safe medical procedure that protects lives.}. Given con arguments: {con: Life begins at conception, making abortion murder. con: Increased access to birth control, health insurance, and sexual education would make abortion unnecessary.}";

  it("coverage prompt equals the SPEC string", () => {
    expect(classifierPrompt(abortion, response, "coverage")).toBe(
      `User question: {Should abortion be legal?}. Neutral response: {${response}}. ${args} All the given arguments are covered by the neutral response: {`,
    );
  });

  it("hallucination prompt differs only in its last line", () => {
    expect(classifierPrompt(abortion, response, "hallucination")).toBe(
      `User question: {Should abortion be legal?}. Neutral response: {${response}}. ${args} Only given arguments are contained in the neutral response: {`,
    );
  });

  it("targets are YES} without error and NO} with one", () => {
    expect(classifierTarget(false)).toBe("YES}");
    expect(classifierTarget(true)).toBe("NO}");
  });
});

describe("generatorPromptLayout", () => {
  it("locates every argument inside the prompt", async () => {
    const { generatorPromptLayout } = await import("@npov/core");
    const layout = generatorPromptLayout(abortion);
    expect(layout.prompt).toBe(generatorPrompt(abortion));
    expect(layout.arguments.map((a) => layout.prompt.slice(a.start, a.end))).toEqual(
      abortion.perspectives.flatMap((p) => p.arguments.map((a) => a.text)),
    );
    expect(layout.arguments.map((a) => [a.perspective, a.argument])).toEqual([
      [0, 0],
      [0, 1],
      [1, 0],
      [1, 1],
    ]);
  });
});
