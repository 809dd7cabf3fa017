/**
 * The CLI on the models users bring (../shared/models/zoo): `npov model inspect`, `--dtype` and
 * `--model-file` on the commands that take `--model`, and one-line typed failures (exit 2, no stack trace).
 * Zoo models have random weights: the scores are checked for shape and range, never for meaning.
 */
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadModel, saveModel } from "@npov/autograd";
import { describe, expect, it } from "vitest";
import { npov, REPO } from "./helpers.js";

const ZOO = join(REPO, "../shared/models/zoo");
const example = join(REPO, "fixtures/examples/uniforms.json");
const noStack = (stderr: string) => expect(stderr).not.toMatch(/^\s+at /m);

describe("npov with exported models", () => {
  it("model inspect says what each dtype file supports, and why not", () => {
    const r = npov("model", "inspect", "--model", join(ZOO, "ortopt-gpt2"));
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/fp32 +onnx\/model.onnx +generation NO +scoring yes +salience yes +tuning yes/);
    expect(r.stdout).toContain('cache input "past_0" is not in the past_key_values.N.key/value layout');
    expect(r.stdout).toContain("contrib ops (rewritten in standard ONNX ops): com.microsoft:Attention");
    const json = JSON.parse(npov("model", "inspect", "--model", join(ZOO, "optimum-t5"), "--json").stdout);
    expect(json.kind).toBe("seq2seq");
    expect(json.variants.map((v: { dtype: string }) => v.dtype)).toEqual([
      "fp32",
      "fp16",
      "q8",
      "int8",
      "uint8",
      "q4",
      "q4f16",
    ]);
    const missing = npov("model", "inspect", "--model", join(REPO, "no-such-folder"));
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/MODEL_NOT_FOUND/);
  });

  it("salience and check take --dtype; an fp16-only folder needs no flag", () => {
    const q4 = npov(
      "check",
      "--input",
      example,
      "--methods",
      "salience",
      "--model",
      join(ZOO, "optimum-gpt2"),
      "--dtype",
      "q4",
      "--json",
    );
    expect(q4.status, q4.stderr).toBe(0);
    const s = JSON.parse(q4.stdout).salience;
    for (const v of [s.hallucination, s.coverage]) expect(v).toBeGreaterThanOrEqual(0);
    for (const v of [s.hallucination, s.coverage]) expect(v).toBeLessThanOrEqual(1);
    // genai-qwen-gqa's config.json declares 128 positions (uniforms.json's prompt has 163 tokens:
    // CONTEXT_TOO_LONG), so this check reads a shorter example.
    const short = join(mkdtempSync(join(tmpdir(), "npov-model-cli-")), "short.json");
    writeFileSync(
      short,
      JSON.stringify({
        input: {
          topic: "uniforms",
          query: "Uniforms?",
          perspectives: [
            { label: "pro", arguments: [{ text: "Uniforms cut costs." }] },
            { label: "con", arguments: [{ text: "Uniforms limit style." }] },
          ],
        },
        response: "Uniforms cut costs, limit style, help kids, save cash, end fights.",
      }),
    );
    const fp16 = npov("salience", "--input", short, "--model", join(ZOO, "genai-qwen-gqa"), "--json");
    expect(fp16.status, fp16.stderr).toBe(0);
    expect(JSON.parse(fp16.stdout).words.response.length).toBeGreaterThan(10);
    const legacy = npov(
      "salience",
      "--input",
      example,
      "--model",
      join(ZOO, "optimum-gpt2-legacy"),
      "--model-file",
      "decoder_model_merged",
      "--dtype",
      "q8",
      "--json",
    );
    expect(legacy.status, legacy.stderr).toBe(0);
  });

  it("a bad dtype, a dtype the folder lacks and an undifferentiable model fail in one line with exit 2", () => {
    const bad = npov("salience", "--input", example, "--model", join(ZOO, "optimum-gpt2"), "--dtype", "fp8");
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/"fp8" is not a model dtype; use one of fp32, fp16, q8, int8, uint8, q4, q4f16, bnb4/);
    const absent = npov("salience", "--input", example, "--model", join(ZOO, "genai-qwen-gqa"), "--dtype", "q4");
    expect(absent.status).toBe(2);
    expect(absent.stderr).toMatch(/no q4 file: the folder has onnx\/model_fp16.onnx/);
    const dir = mkdtempSync(join(tmpdir(), "npov-cli-unsupported-"));
    mkdirSync(join(dir, "onnx"));
    for (const f of ["config.json", "tokenizer.json", "tokenizer_config.json"])
      copyFileSync(join(ZOO, "optimum-gpt2", f), join(dir, f));
    const m = loadModel(join(ZOO, "optimum-gpt2", "onnx", "model.onnx"));
    const tanh = m.graph?.node?.find((n) => n.opType === "Tanh");
    if (tanh) tanh.opType = "Softsign";
    saveModel(join(dir, "onnx", "model.onnx"), m);
    const r = npov("salience", "--input", example, "--model", dir);
    expect(r.status).toBe(2);
    expect(
      r.stderr
        .trim()
        .split("\n")
        .filter((l) => l.startsWith("npov:")),
    ).toHaveLength(1);
    expect(r.stderr).toMatch(/npov cannot use onnx\/model.onnx .*Softsign.*\[UNSUPPORTED_MODEL\]/);
    for (const out of [bad, absent, r]) noStack(out.stderr);
  });
});
