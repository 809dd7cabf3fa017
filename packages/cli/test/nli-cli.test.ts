/**
 * The nli method from the command line (built binary): check with --model/--dtype and the nli options,
 * eval, calibrate-guard and guard. Encoder-zoo models have random weights: these prove the wiring only.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readExamples } from "@npov/core";
import { NliDetector } from "@npov/nli";
import { describe, expect, it } from "vitest";
import { npov, REPO } from "./helpers.js";

const MODEL = "../shared/models/encoder-zoo/optimum-bert";
const tmp = mkdtempSync(join(tmpdir(), "npov-cli-nli-"));
const EXAMPLE = "fixtures/examples/uniforms.json";

describe("npov ... --methods nli --model <NLI model>", () => {
  it("check prints the library's scores; the nli options reach the detector", async () => {
    const r = npov("check", "--input", EXAMPLE, "--methods", "nli", "--model", MODEL, "--dtype", "q4", "--json");
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    const example = JSON.parse(readFileSync(join(REPO, EXAMPLE), "utf8"));
    const detector = await NliDetector.fromPretrained(join(REPO, MODEL), { dtype: "q4" });
    expect(JSON.parse(r.stdout).nli).toEqual(await detector.detect(example.input, example.response));
    await detector.dispose();
    const bound = npov("check", "--input", EXAMPLE, "--methods", "nli", "--model", MODEL, "--nli-max-pairs", "5");
    expect(bound.status).toBe(2);
    expect(bound.stderr).toMatch(/the limit is 5\. .*\[INPUT_TOO_LARGE\]/);
    const noModel = npov("check", "--input", EXAMPLE, "--methods", "nli");
    expect(noModel.stderr).toContain("the nli method needs an NLI model");
    expect(
      npov("check", "--input", EXAMPLE, "--methods", "nli", "--model", MODEL, "--nli-truncation", "cut").stderr,
    ).toContain("--nli-truncation must be report or error");
  });

  it("eval, calibrate-guard and guard run the nli method", () => {
    const data = join(tmp, "dev.jsonl");
    const heldout = readFileSync(join(REPO, "data/chatbot-dev/part-a.jsonl"), "utf8")
      .split("\n")
      .filter((l) => l.includes('"heldout"'));
    writeFileSync(data, `${heldout.slice(0, 12).join("\n")}\n`);
    const labels = readExamples(data).map((e) => e.labels);
    expect(labels.some((l) => l?.hallucination) && labels.some((l) => !l?.hallucination)).toBe(true);
    const evaluation = npov("eval", "--data", data, "--methods", "nli", "--model", MODEL, "--bootstrap", "0", "--json");
    expect(evaluation.status).toBe(0);
    const rows = JSON.parse(evaluation.stdout).rows as Array<{ detector: string; level: string; n: number }>;
    const examples = rows.filter((row) => row.level === "example");
    expect(examples.map((row) => [row.detector, row.n])).toEqual([
      ["nli", 12],
      ["nli", 12],
    ]);
    const config = join(tmp, "guard.json");
    const calibrated = npov(
      "calibrate-guard",
      "--data",
      data,
      "--method",
      "nli",
      "--model",
      MODEL,
      "--target-fpr",
      "0.5",
      "--out",
      config,
    );
    expect(calibrated.status).toBe(0);
    expect(JSON.parse(readFileSync(config, "utf8")).detector).toEqual({ method: "nli", model: MODEL });
    const verdict = npov("guard", "--config", config, "--input", EXAMPLE);
    expect(verdict.status).toBe(0);
    expect(JSON.parse(verdict.stdout).detector).toBe("nli");
  });
});
