import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { MODELS_DOC, renderModelsDoc } from "../scripts/models-doc.js";

describe("docs/models.md", () => {
  it("is what `pnpm models-doc` generates from the zoo (regenerate it after changing npov or the zoo)", async () => {
    const text = await renderModelsDoc();
    expect(readFileSync(MODELS_DOC, "utf8")).toBe(text);
    // Every zoo folder and dtype file has a row; every feature works except where the doc says why not.
    const cells = (line: string) => line.split("|").map((c) => c.trim());
    const ortopt = text.split("\n").find((l) => /^\| ortopt-gpt2 .*\| fp32 /.test(l)) ?? "";
    expect(cells(ortopt).slice(4, 11)).toEqual([
      "fp32",
      "`model.onnx`",
      "Attention, EmbedLayerNormalization, FastGelu, SkipLayerNormalization",
      "**no**",
      "yes",
      "yes",
      "yes",
    ]);
    expect(text).toContain("genai-qwen-gqa fp16, generation: onnx/model_fp16.onnx: input_ids is int32");
    expect(text.match(/^\| (optimum|genai|ortopt)/gm)).toHaveLength(30);
  });
});
