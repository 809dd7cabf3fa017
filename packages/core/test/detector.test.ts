import { describe, expect, it } from "vitest";
import { rankUncoveredArguments } from "../src/index.js";

describe("rankUncoveredArguments", () => {
  it("indexes every argument by perspective and position and ranks them worst first (ties keep order)", () => {
    const perspectives = [
      {
        arguments: [
          { text: "a0", recall: 0.9 },
          { text: "a1", recall: 0.25 },
        ],
      },
      { arguments: [{ text: "b0", recall: 0.9 }] },
      { arguments: [] },
      { arguments: [{ text: "d0", recall: 0 }] },
    ];
    const ranked = rankUncoveredArguments(perspectives, (a) => 1 - a.recall);
    expect(ranked.map((a) => [a.perspective, a.argument, a.text])).toEqual([
      [3, 0, "d0"],
      [0, 1, "a1"],
      [0, 0, "a0"],
      [1, 0, "b0"],
    ]);
    expect(ranked.map((a) => a.score)).toEqual([1, 0.75, 1 - 0.9, 1 - 0.9]);
  });
});
