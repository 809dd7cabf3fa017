/**
 * The local (transformers.js) generator on hostile model folders and prompts: every broken file is a
 * typed error naming it (never "unexpected error" with a stack trace, never onnxruntime's own lines on
 * stderr), a path that does not exist is MODEL_NOT_FOUND, a hub id without network MODEL_DOWNLOAD_FAILED,
 * and a prompt over the model's context CONTEXT_TOO_LONG; the token budget is capped by the context.
 * Corrupt copies of tiny test models are made in a temporary folder.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import * as transformers from "@huggingface/transformers";
import { loadModel, saveModel, writeTestModel } from "@npov/autograd";
import { LocalGenerator } from "@npov/generate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const REPO = new URL("../../../", import.meta.url).pathname;
const root = mkdtempSync(join(tmpdir(), "npov-local-model-files-"));
const gpt2 = join(root, "gpt2");
beforeAll(() => writeTestModel(gpt2, "gpt2", { seed: 6 }));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let copies = 0;
function corrupted(corrupt: (dir: string) => void): string {
  const dir = join(root, `copy-${copies++}`);
  cpSync(gpt2, dir, { recursive: true });
  corrupt(dir);
  return dir;
}
const GRAPH = "onnx/model.onnx";

describe("LocalGenerator.fromPretrained on broken folders", () => {
  const cases: Array<[string, (dir: string) => void, Record<string, unknown>]> = [
    ["zero-byte graph", (d) => writeFileSync(join(d, GRAPH), ""), { problem: "empty", file: GRAPH }],
    [
      "graph truncated to half (onnxruntime refuses it; npov says why)",
      (d) => truncateSync(join(d, GRAPH), Math.floor(statSync(join(d, GRAPH)).size / 2)),
      { problem: "truncated", file: GRAPH },
    ],
    ["text saved as the graph", (d) => writeFileSync(join(d, GRAPH), "not a model\n"), { problem: "text" }],
    ["config.json not JSON", (d) => writeFileSync(join(d, "config.json"), "{"), { problem: "invalid-json" }],
    [
      "config.json without model_type",
      (d) => writeFileSync(join(d, "config.json"), '{"n_positions": 128}'),
      { problem: "missing-field", file: "config.json" },
    ],
    [
      "tokenizer.json without its model",
      (d) => writeFileSync(join(d, "tokenizer.json"), "{}"),
      { problem: "missing-field", file: "tokenizer.json" },
    ],
    [
      "generation_config.json not JSON",
      (d) => writeFileSync(join(d, "generation_config.json"), "[oops"),
      { problem: "invalid-json", file: "generation_config.json" },
    ],
  ];
  it.each(cases)("%s -> MODEL_FILE_INVALID", async (_name, corrupt, expected) => {
    const dir = corrupted(corrupt);
    const error = await LocalGenerator.fromPretrained(dir).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: "MODEL_FILE_INVALID",
      ...expected,
      ...(expected.file ? { file: join(dir, expected.file as string) } : {}),
    });
  });

  it("tokenizer ids beyond config.json's vocab_size -> VOCABULARY_MISMATCH", async () => {
    const dir = corrupted((d) => {
      const json = JSON.parse(readFileSync(join(d, "tokenizer.json"), "utf8"));
      json.added_tokens.push({ id: 9000, content: "<far>", special: true });
      writeFileSync(join(d, "tokenizer.json"), JSON.stringify(json));
    });
    await expect(LocalGenerator.fromPretrained(dir)).rejects.toMatchObject({
      code: "VOCABULARY_MISMATCH",
      tokenizerSize: 9001,
    });
  });

  it("a missing path is MODEL_NOT_FOUND with the resolved path", async () => {
    const error = await LocalGenerator.fromPretrained("./no-such-generator").catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "MODEL_NOT_FOUND" });
    expect((error as Error).message).toContain(resolve("no-such-generator"));
  });

  it("a hub id without network is MODEL_DOWNLOAD_FAILED, not `TypeError: fetch failed`", async () => {
    const env = transformers.env as unknown as { remoteHost: string; allowRemoteModels: boolean; cacheDir: string };
    const saved = { ...env };
    env.remoteHost = "http://127.0.0.1:9/";
    env.allowRemoteModels = true;
    env.cacheDir = join(root, "cache");
    try {
      const error = await LocalGenerator.fromPretrained("someone/some-generator").catch((e: unknown) => e);
      expect(error).toMatchObject({ code: "MODEL_DOWNLOAD_FAILED", id: "someone/some-generator" });
      expect((error as Error).message).toContain("give its folder as a path");
    } finally {
      Object.assign(env, saved);
    }
  });
});

describe("the context of a local generator", () => {
  it("refuses a prompt over the model's 128 positions and caps the token budget at the rest", async () => {
    const generator = await LocalGenerator.fromPretrained(gpt2);
    expect(generator.context).toEqual({ tokens: 128, source: "config.json n_positions" });
    const error = await generator.complete("uniforms ".repeat(400)).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "CONTEXT_TOO_LONG", limit: 128 });
    const done = await generator.complete("uniforms reduce costs", { maxNewTokens: 500 });
    // 500 asked, 128 - prompt left: the seeded random model never emits EOS, so it stops at the context.
    expect(done).toMatchObject({ completionTokens: 128 - done.promptTokens, finishReason: "length" });
  });
});

describe("a NaN weight", () => {
  it("stops generation with MODEL_RUN naming the NaN logit, instead of decoding garbage", async () => {
    const dir = corrupted((d) => {
      const model = loadModel(join(d, GRAPH));
      const init = model.graph?.initializer?.find((t) => t.name === "transformer.ln_f.weight");
      const raw = init?.rawData as Uint8Array;
      const floats = new Float32Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength));
      floats.fill(Number.NaN);
      (init as { rawData: Uint8Array }).rawData = new Uint8Array(floats.buffer);
      saveModel(join(d, GRAPH), model);
    });
    const generator = await LocalGenerator.fromPretrained(dir);
    const error = await generator.complete("uniforms reduce costs").catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "MODEL_RUN" });
    expect((error as Error).message).toContain("the model computed a logit of NaN");
  });
});

describe("the CLI on a broken model: one typed line on stderr, exit 2, nothing from onnxruntime", () => {
  const npov = (...args: string[]) =>
    spawnSync(process.execPath, [join(REPO, "packages/cli/dist/bin.js"), ...args], {
      cwd: REPO,
      encoding: "utf8",
      timeout: 60_000,
    });
  it.each([
    ["generate", ["generate", "--generator", "local"]],
    ["salience", ["salience"]],
    ["check --methods classifier", ["check", "--methods", "classifier"]],
  ])("%s with a truncated graph", (_name, command) => {
    const dir = corrupted((d) => truncateSync(join(d, GRAPH), Math.floor(statSync(join(d, GRAPH)).size / 2)));
    const r = npov(...command, "--model", dir, "--input", "fixtures/examples/uniforms.json");
    expect(r.status).toBe(2);
    const lines = r.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^npov: .*onnx\/model\.onnx is not a usable model file \(truncated\).*\[MODEL_FILE_INVALID\]$/,
    );
    expect(r.stderr).not.toMatch(/unexpected error|onnxruntime|at \S+ \(/);
    expect(r.stdout).toBe("");
  });

  it("generate with every weight NaN: one typed line (transformers.js printed 35: its error and every input tensor)", () => {
    // An encoder-decoder: its NaN encoder output reaches a Gather, where onnxruntime fails inside transformers.js.
    const dir = join(root, "t5-all-nan");
    writeTestModel(dir, "t5", { seed: 3 });
    for (const name of readdirSync(join(dir, "onnx")).filter((f) => f.endsWith(".onnx"))) {
      const model = loadModel(join(dir, "onnx", name));
      for (const t of model.graph?.initializer ?? []) {
        if (t.dataType !== 1 || !t.rawData || t.rawData.length === 0) continue;
        const raw = t.rawData;
        const floats = new Float32Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength));
        floats.fill(Number.NaN);
        t.rawData = new Uint8Array(floats.buffer);
      }
      saveModel(join(dir, "onnx", name), model);
    }
    // A short input: the test model's context is 128 positions.
    const input = join(root, "short-input.json");
    writeFileSync(
      input,
      JSON.stringify({
        topic: "t",
        query: "q?",
        perspectives: [
          { label: "pro", arguments: ["a"] },
          { label: "con", arguments: ["b"] },
        ],
      }),
    );
    const r = npov("generate", "--model", dir, "--input", input, "--max-new-tokens", "4");
    expect(r.status).toBe(2);
    const lines = r.stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^npov: .*\[(MODEL_RUN|INVALID_SCORE)\]$/);
    expect(r.stderr).not.toMatch(/An error occurred during model execution|Inputs given to model/);
  });
});
