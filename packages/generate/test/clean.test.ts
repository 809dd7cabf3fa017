import { cleanGeneratorText } from "@npov/generate";
import fc from "fast-check";
import { describe, expect, it } from "vitest";

describe("cleanGeneratorText (what npov serve sends, streamed or not)", () => {
  it("joins opening and core of the Figure 3 format and drops what follows the core", () => {
    expect(cleanGeneratorText("Opinions differ.} Neutral response core: {Some say X. Others say Y.}</s> junk")).toBe(
      "Opinions differ. Some say X. Others say Y.",
    );
    expect(cleanGeneratorText("  Opinions differ.}Neutral response core:{ truncated core")).toBe(
      "Opinions differ. truncated core",
    );
    expect(cleanGeneratorText("no format at all } here ")).toBe("no format at all } here");
    expect(cleanGeneratorText("} Neutral response core: {only core}")).toBe("only core");
    // While streaming, text from a "}" on waits until the marker is certain.
    expect(cleanGeneratorText("Opinions differ.} Neutral resp", false)).toBe("Opinions differ.");
  });

  it("every streamed prefix is a prefix of the final content", () => {
    const piece = fc.constantFrom(
      "Op",
      "inions",
      " differ.",
      "}",
      " Neutral",
      " response core:",
      " {",
      "Some",
      " say",
      " X.",
      "\n",
      " ",
      "}",
      "x",
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
        const raw = pieces.join("");
        const final = cleanGeneratorText(raw, true);
        let emitted = "";
        let acc = "";
        for (const p of pieces) {
          acc += p;
          const now = cleanGeneratorText(acc, false);
          expect(final.startsWith(now)).toBe(true);
          expect(now.startsWith(emitted) || now.length < emitted.length).toBe(true);
          if (now.length > emitted.length) emitted = now;
        }
      }),
    );
  });
});
