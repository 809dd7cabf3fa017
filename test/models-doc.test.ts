import { readFileSync } from "node:fs";
import { coveredOps } from "@npov/autograd";
import { beforeAll, describe, expect, it } from "vitest";
import { MODELS_DOC, renderModelsDoc } from "../scripts/models-doc.js";

describe("docs/models.md", () => {
  // Rendering inspects every zoo file: once for both tests.
  let text: string;
  beforeAll(async () => {
    text = await renderModelsDoc();
  });

  it("is what `pnpm models-doc` generates from the zoos and the gradient rules (regenerate it after changing them)", () => {
    expect(readFileSync(MODELS_DOC, "utf8")).toBe(text);
    // Every zoo folder and dtype file has a row; every feature works except where the doc says why not.
    const cells = (line: string) => line.split("|").map((c) => c.trim());
    const ortopt = text.split("\n").find((l) => /^\| ortopt-gpt2 .*\| fp32 /.test(l)) ?? "";
    expect(cells(ortopt).slice(2, 13)).toEqual([
      "causal",
      expect.stringContaining("GPT-2 optimizer"),
      "fp32",
      "`model.onnx`",
      "Attention, EmbedLayerNormalization, FastGelu, SkipLayerNormalization",
      "**no**",
      "yes",
      "yes",
      "yes",
      "--",
      expect.stringContaining("opset 11->13"),
    ]);
    expect(text).toContain("genai-qwen-gqa fp16, generation: onnx/model_fp16.onnx: input_ids is int32");
    // 30 language-model files and 21 sequence-classifier files (3 encoder folders x 7 dtypes).
    expect(text.match(/^\| (optimum|genai|ortopt)/gm)).toHaveLength(51);
    const deberta = text.split("\n").find((l) => /^\| optimum-deberta-v2 .*\| fp32 /.test(l)) ?? "";
    expect(cells(deberta).slice(2, 3)).toEqual(["sequence-classifier"]);
    // generation, scoring and tuning do not apply to a classifier; nli and salience work.
    expect(cells(deberta).slice(7, 12)).toEqual(["--", "--", "yes", "--", "yes"]);
  });

  it("has an op-coverage row for every op with a rule, checked at the oldest opset and at 26", () => {
    const rows = new Map(
      text
        .split("\n")
        .filter((l) => /^\| [A-Z]\w+ +\| (rule|zero|stop)/.test(l))
        .map((l) => {
          const c = l.split("|").map((x) => x.trim());
          return [c[1] as string, c];
        }),
    );
    expect([...rows.keys()].sort()).toEqual(coveredOps());
    expect(rows.get("GatherElements")?.slice(2, 5)).toEqual(["rule", "11, 13", "11, 26"]);
    expect(rows.get("Gather")?.[4]).toBe("7, 11, 26");
    expect(rows.get("Floor")?.[2]).toBe("zero (exact a.e.)");
    expect(rows.get("ArgMax")?.[2]).toBe("stop (integer output)");
    expect(rows.get("Max")?.[5]).toContain("attention-mask floor");
  });
});
