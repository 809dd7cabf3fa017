/**
 * Hostile model folders: every corrupt or missing file is a typed error naming the file and what is wrong
 * (MODEL_FILE_INVALID with its `problem`), a path that does not exist is MODEL_NOT_FOUND with the resolved
 * path (never a hub download), a hub id without network is MODEL_DOWNLOAD_FAILED, a tokenizer with ids
 * beyond the embedding table is VOCABULARY_MISMATCH. Also the context rule (exact limits from hand-worked
 * configs) and the bounded tokenization of huge texts (work counted, not timed). The corrupt copies are
 * made from a tiny test model in a temporary folder; the shipped and zoo files are never touched.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import * as transformers from "@huggingface/transformers";
import {
  DataType,
  dequantizeValues,
  embeddingGraph,
  encodeWithin,
  inspectModel,
  loadModel,
  loadPretrained,
  looksLikeModelPath,
  memoryCap,
  modelContext,
  onnx,
  onnxruntimeMessage,
  saveModel,
  tokenizerFromFiles,
  tokenizerJsonSize,
  valueInfo,
  writeTestModel,
} from "@npov/autograd";
import { createRng } from "@npov/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = mkdtempSync(join(tmpdir(), "npov-model-files-"));
const base = join(root, "base");
afterAll(() => rmSync(root, { recursive: true, force: true }));
beforeAll(() => {
  writeTestModel(base, "gpt2", { seed: 3 });
  writeTestModel(join(root, "t5"), "t5", { seed: 3 });
});

let copies = 0;
/** A fresh copy of the tiny GPT-2 test model, changed by `corrupt`. */
function corrupted(corrupt: (dir: string) => void): string {
  const dir = join(root, `copy-${copies++}`);
  cpSync(base, dir, { recursive: true });
  corrupt(dir);
  return dir;
}

async function failure(promise: Promise<unknown>): Promise<Record<string, unknown> & Error> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, "expected a rejection").toBeInstanceOf(Error);
  return error as Record<string, unknown> & Error;
}

const GRAPH = "onnx/model.onnx";

describe("corrupt ONNX graphs: MODEL_FILE_INVALID naming the file and the problem", () => {
  const cases: Array<[string, string, (file: string) => void]> = [
    ["zero bytes", "empty", (f) => writeFileSync(f, new Uint8Array())],
    ["truncated to half", "truncated", (f) => truncateSync(f, Math.floor(readFileSync(f).length / 2))],
    [
      "random bytes (seeded)",
      "not-onnx",
      (f) => {
        const rng = createRng(22);
        writeFileSync(
          f,
          Uint8Array.from({ length: 4096 }, () => Math.floor(rng.next() * 256)),
        );
      },
    ],
    ["text saved as .onnx", "text", (f) => writeFileSync(f, "This is the README, saved under the wrong name.\n")],
    [
      "cut exactly before its opset (decodes, but incomplete)",
      "truncated",
      (f) => {
        const model = loadModel(f);
        model.opsetImport = [];
        saveModel(f, model);
      },
    ],
    [
      "a folder where the file belongs",
      "unreadable",
      (f) => {
        rmSync(f);
        mkdirSync(f);
      },
    ],
  ];
  it.each(cases)("%s -> %s", async (_name, problem, corrupt) => {
    const dir = corrupted((d) => corrupt(join(d, GRAPH)));
    const error = await failure(loadPretrained(dir));
    expect(error).toMatchObject({ code: "MODEL_FILE_INVALID", problem, file: join(dir, GRAPH) });
    expect(error.message).toContain(join(dir, GRAPH));
    expect(error.message).toContain("Replace it");
  });
});

describe("bad config.json, tokenizer.json and tokenizer_config.json", () => {
  const cases: Array<[string, string, string, string, RegExp]> = [
    ["config.json", "{not json", "invalid-json", "config.json", /JSON/],
    ["config.json", "", "empty", "config.json", /0 bytes/],
    ["config.json", "[1, 2]", "not-object", "config.json", /found an array/],
    ["config.json", "{}", "missing-field", "config.json", /neither "model_type"/],
    ["config.json", '{"model_type": "gpt2", "n_positions": "many"}', "wrong-type", "config.json", /"n_positions"/],
    ["config.json", '{"model_type": 7}', "wrong-type", "config.json", /"model_type" must be a non-empty string/],
    ["config.json", '{"model_type": "gpt2", "eos_token_id": -1}', "wrong-type", "config.json", /"eos_token_id"/],
    ["tokenizer.json", "{", "invalid-json", "tokenizer.json", /JSON/],
    ["tokenizer.json", '{"version": "1.0"}', "missing-field", "tokenizer.json", /no "model"/],
    ["tokenizer.json", '{"model": {"type": "BPE", "vocab": "abc"}}', "wrong-type", "tokenizer.json", /model.vocab/],
    ["tokenizer.json", '{"model": {"type": "BPE", "vocab": {"a": -1}}}', "wrong-type", "tokenizer.json", /"a"/],
    ["tokenizer.json", '{"model": {"type": "BPE", "vocab": {}}}', "missing-field", "tokenizer.json", /empty/],
    ["tokenizer_config.json", '{"tokenizer_class": 5}', "wrong-type", "tokenizer_config.json", /tokenizer_class/],
  ];
  it.each(cases)("%s = %j -> %s", async (name, content, problem, file, message) => {
    const dir = corrupted((d) => writeFileSync(join(d, name), content));
    const error = await failure(loadPretrained(dir));
    expect(error).toMatchObject({ code: "MODEL_FILE_INVALID", problem, file: join(dir, file) });
    expect(error.message).toMatch(message);
  });

  it("a tokenizer.json the tokenizer library refuses is MODEL_FILE_INVALID (rejected) with its reason", () => {
    const dir = corrupted((d) => {
      const json = JSON.parse(readFileSync(join(d, "tokenizer.json"), "utf8"));
      json.normalizer = { type: "NoSuchNormalizer" };
      writeFileSync(join(d, "tokenizer.json"), JSON.stringify(json));
    });
    expect(() => tokenizerFromFiles(dir)).toThrow(
      expect.objectContaining({ code: "MODEL_FILE_INVALID", problem: "rejected" }),
    );
    expect(() => tokenizerFromFiles(dir)).toThrow(/NoSuchNormalizer/);
  });

  it("a config.json with a byte-order mark loads (editors add one)", async () => {
    const dir = corrupted((d) => {
      const text = readFileSync(join(d, "config.json"), "utf8");
      writeFileSync(join(d, "config.json"), `\uFEFF${text}`);
    });
    const files = await loadPretrained(dir);
    expect(files.config.n_positions).toBe(128);
  });
});

describe("paths that do not exist are MODEL_NOT_FOUND with the resolved path, never a hub download", () => {
  const env = transformers.env as unknown as { allowRemoteModels: boolean; remoteHost: string; cacheDir: string };
  const saved = { ...env };
  let fetches = 0;
  const realFetch = globalThis.fetch;
  beforeAll(() => {
    env.allowRemoteModels = true;
    globalThis.fetch = ((...args: Parameters<typeof fetch>) => {
      fetches++;
      return realFetch(...args);
    }) as typeof fetch;
  });
  afterAll(() => {
    Object.assign(env, saved);
    globalThis.fetch = realFetch;
  });

  const missing = [
    ["./no-such-model", resolve("no-such-model")],
    ["../no-such-npov-model", resolve("..", "no-such-npov-model")],
    [join(tmpdir(), "no-such-npov-model"), join(tmpdir(), "no-such-npov-model")],
    ["~/no-such-npov-model", join(homedir(), "no-such-npov-model")],
    ["packages/no-such-model", resolve("packages/no-such-model")],
    ["a/b/no-such-model", resolve("a/b/no-such-model")],
    ["C:\\models\\npov", resolve("C:\\models\\npov")],
    ["not a hub id", resolve("not a hub id")],
  ];
  it.each(missing)("%s", async (value, resolved) => {
    const error = await failure(loadPretrained(value));
    expect(error).toMatchObject({ code: "MODEL_NOT_FOUND" });
    expect(error.message).toContain(`no folder at ${resolved}`);
    expect(fetches).toBe(0);
  });

  it("a file given as the model folder says it is a file", async () => {
    const error = await failure(loadPretrained(join(base, "config.json")));
    expect(error).toMatchObject({ code: "MODEL_NOT_FOUND" });
    expect(error.message).toContain(`${join(base, "config.json")} is a file, not a model folder`);
  });

  it("hub ids stay hub ids: name and owner/name whose first segment is not a local folder", () => {
    expect(looksLikeModelPath("t5-small")).toBe(false);
    expect(looksLikeModelPath("Xenova/t5-small")).toBe(false);
    expect(looksLikeModelPath("onnx-community/Qwen2.5-0.5B-Instruct")).toBe(false);
    expect(looksLikeModelPath("packages/t5-small")).toBe(true); // packages/ exists here
    expect(looksLikeModelPath("models/")).toBe(true);
    expect(looksLikeModelPath("D:models")).toBe(true);
  });
});

describe("a hub id without network is MODEL_DOWNLOAD_FAILED saying how to give a local folder", () => {
  const env = transformers.env as unknown as {
    allowRemoteModels: boolean;
    allowLocalModels: boolean;
    remoteHost: string;
    cacheDir: string | null;
  };
  const saved = { ...env };
  beforeAll(() => {
    env.allowRemoteModels = true;
    env.allowLocalModels = false;
    // Port 9 (discard) on loopback: nothing listens, the connection is refused at once -- an offline machine.
    env.remoteHost = "http://127.0.0.1:9/";
    env.cacheDir = join(root, "cache");
  });
  afterAll(() => {
    Object.assign(env, saved);
  });

  it("loadPretrained", async () => {
    const error = await failure(loadPretrained("someone/some-model"));
    expect(error).toMatchObject({ code: "MODEL_DOWNLOAD_FAILED", id: "someone/some-model" });
    expect(error.message).toContain("http://127.0.0.1:9/someone/some-model/resolve/main/config.json");
    expect(error.message).toContain("give its folder as a path");
  });
});

describe("tokenizer ids beyond the embedding table", () => {
  it("tokenizerJsonSize: one more than the largest id of the vocabulary and the added tokens", () => {
    expect(tokenizerJsonSize({ model: { vocab: { a: 0, b: 7 } }, added_tokens: [{ id: 9 }, { id: 3 }] })).toBe(10);
    expect(
      tokenizerJsonSize({
        model: {
          vocab: [
            ["a", 0],
            ["b", -1],
            ["c", -2],
          ],
        },
      }),
    ).toBe(3);
    expect(tokenizerJsonSize({})).toBe(0);
  });

  it("is VOCABULARY_MISMATCH when the embedding graph is built (salience, classifier, tuning)", async () => {
    const dir = corrupted((d) => {
      const json = JSON.parse(readFileSync(join(d, "tokenizer.json"), "utf8"));
      json.added_tokens.push({ id: 5000, content: "<extra>", special: true });
      writeFileSync(join(d, "tokenizer.json"), JSON.stringify(json));
    });
    const files = await loadPretrained(dir);
    const rows = (files.config.vocab_size as number) ?? 0;
    const error = await failure(embeddingGraph(files));
    expect(error).toMatchObject({ code: "VOCABULARY_MISMATCH", tokenizerSize: 5001, embeddingRows: rows });
    expect(error.message).toContain(`ids up to 5000 but the embedding table has ${rows} rows`);
  });
});

describe("the context: the smaller of what the model declares and the attention-memory cap", () => {
  it("memory cap, worked by hand: floor(sqrt(2^31 / (8 x layers x heads)))", () => {
    // 2 + 2 layers, 4 heads: 2^31 / 128 = 2^24 -> 4096.
    expect(memoryCap({ num_layers: 2, num_decoder_layers: 2, num_heads: 4 }).tokens).toBe(4096);
    // Nothing declared: 12 layers x 12 heads: sqrt(2^31 / 1152) = 1365.3.
    expect(memoryCap({}).tokens).toBe(1365);
  });

  it("GPT-2 declares n_positions; T5 only the tokenizer's model_max_length; a huge declaration is capped", async () => {
    const gpt2 = await loadPretrained(base);
    expect(modelContext(gpt2.config, gpt2.tokenizer)).toEqual({ tokens: 128, source: "config.json n_positions" });
    const t5 = await loadPretrained(join(root, "t5"));
    expect(modelContext(t5.config, t5.tokenizer)).toEqual({
      tokens: 512,
      source: "tokenizer_config.json model_max_length",
    });
    // Relative positions and no tokenizer limit: the memory cap (2 + 2 layers, 4 heads).
    expect(modelContext(t5.config).tokens).toBe(4096);
    // A 128K-token declaration on a 32-layer, 32-head model: the cap (sqrt(2^31 / 8192) = 512).
    const big = { max_position_embeddings: 131072, num_hidden_layers: 32, num_attention_heads: 32 };
    expect(modelContext(big).tokens).toBe(512);
    // An explicit context replaces the declared one, still under the cap.
    expect(modelContext(gpt2.config, gpt2.tokenizer, 300)).toEqual({ tokens: 300, source: "the context option" });
    expect(() => modelContext(gpt2.config, gpt2.tokenizer, 0)).toThrow(
      expect.objectContaining({ code: "INVALID_VALUE" }),
    );
  });
});

describe("tokenization of huge texts is bounded by the limit, not the text", () => {
  /** A tokenizer with one token per space-separated word that counts the characters it reads. */
  function countingTokenizer() {
    const seen = { chars: 0, calls: 0 };
    const tokenizer = {
      encode(text: string) {
        seen.chars += text.length;
        seen.calls++;
        return text
          .split(/\s+/)
          .filter((w) => w.length > 0)
          .map((w) => w.length);
      },
    } as unknown as Parameters<typeof encodeWithin>[0];
    return { tokenizer, seen };
  }

  it("a 1 MB text against a 128-token limit reads at most a few chunks", () => {
    const { tokenizer, seen } = countingTokenizer();
    const text = "uniforms reduce costs ".repeat(50_000); // 1.1 M characters, 150,000 words
    const r = encodeWithin(tokenizer, text, 128, false);
    expect(r).toMatchObject({ exact: false });
    expect((r as { atLeast: number }).atLeast).toBeGreaterThan(128);
    // One 4,096-character chunk holds ~680 words: the count passes 128 + margin (16 + 8) in the first chunk.
    expect(seen.calls).toBe(1);
    expect(seen.chars).toBeLessThanOrEqual(4096);
  });

  it("near the limit the decision is exact: 5,000 words fit a 5,000-token limit and not a 4,999-token one", () => {
    const text = "abcd ".repeat(5000); // 25,000 characters: counted in chunks, then tokenized whole
    const fits = encodeWithin(countingTokenizer().tokenizer, text, 5000, false);
    expect((fits as { ids: number[] }).ids).toHaveLength(5000);
    const over = encodeWithin(countingTokenizer().tokenizer, text, 4999, false);
    expect(over).toEqual({ atLeast: 5000, exact: true });
  });

  it("a 400,000-character text with few tokens is refused (INPUT_TOO_LARGE), read in chunks, never whole", () => {
    const { tokenizer, seen } = countingTokenizer();
    // No spaces: one token per 4,096-character chunk for this tokenizer (as a tokenizer that fuses unknown
    // characters into one <unk> would do): 98 tokens fit 512, but the text is 400,000 characters.
    expect(() => encodeWithin(tokenizer, "学".repeat(400_000), 512, false, "response")).toThrow(
      expect.objectContaining({ code: "INPUT_TOO_LARGE", path: "response", actual: 400_000, limit: 65_536 }),
    );
    expect(seen.calls).toBe(Math.ceil(400_000 / 4096));
    expect(seen.chars).toBe(400_000);
  });
});

describe("onnxruntime messages in typed errors", () => {
  it("drop the source location and function signature, keep the reason, on one line", () => {
    const raw = new Error(
      "Load model from /m/encoder_model.onnx failed:/onnxruntime_src/onnxruntime/core/graph/model.cc:187 onnxruntime::Model::Model(onnx::ModelProto&&, const onnxruntime::PathString&, const onnxruntime::IOnnxRuntimeOpSchemaRegistryList*, const onnxruntime::logging::Logger&, const onnxruntime::ModelOptions&) ModelProto does not have a graph.\n",
    );
    expect(onnxruntimeMessage(raw)).toBe(
      "Load model from /m/encoder_model.onnx failed:ModelProto does not have a graph.",
    );
  });
});

describe("external data of a graph", () => {
  /** A graph file whose one initializer keeps its 2 floats in external data (entries as given). */
  function withExternal(entries: Record<string, string>): string {
    const dir = join(root, `ext-${copies++}`);
    mkdirSync(join(dir, "onnx"), { recursive: true });
    writeFileSync(join(dir, "onnx", "w.bin"), Buffer.from(new Float32Array([1.5, -2]).buffer));
    writeFileSync(join(dir, "outside.bin"), Buffer.from(new Float32Array([7, 7]).buffer));
    const model = onnx.ModelProto.create({
      irVersion: 8,
      opsetImport: [{ domain: "", version: 17 }],
      graph: {
        name: "g",
        initializer: [
          {
            name: "w",
            dims: [2],
            dataType: DataType.FLOAT,
            dataLocation: onnx.TensorProto.DataLocation.EXTERNAL,
            externalData: Object.entries(entries).map(([key, value]) => ({ key, value })),
          },
        ],
        output: [valueInfo("w", DataType.FLOAT, [2])],
      },
    });
    const file = join(dir, "onnx", "model.onnx");
    writeFileSync(file, onnx.ModelProto.encode(model).finish());
    return file;
  }

  it("reads data beside the graph; refuses a location outside the folder and offsets that are not byte counts", () => {
    const ok = loadModel(withExternal({ location: "w.bin", offset: "0", length: "8" }));
    expect(
      Array.from(new Float32Array(new Uint8Array(ok.graph?.initializer?.[0]?.rawData ?? []).slice().buffer)),
    ).toEqual([1.5, -2]);
    for (const [entries, text] of [
      [{ location: "../outside.bin" }, "outside the model folder"],
      [{ location: "/etc/passwd" }, "outside the model folder"],
      [{ location: "." }, "outside the model folder"],
      [{ location: "w.bin", offset: "abc" }, 'offset "abc" is not a whole number'],
      [{ location: "w.bin", offset: "-4" }, 'offset "-4" is not a whole number'],
      [{ location: "w.bin", length: "-4" }, 'length "-4" is not a whole number'],
    ] as const)
      expect(() => loadModel(withExternal(entries))).toThrow(
        expect.objectContaining({ code: "INVALID_FILE", message: expect.stringContaining(text) }),
      );
  });
});

describe("review fixes: what a damaged folder is told", () => {
  it("a Git LFS pointer in place of the graph is named as one, not as a truncated file", async () => {
    const dir = corrupted((d) =>
      writeFileSync(
        join(d, GRAPH),
        "version https://git-lfs.github.com/spec/v1\noid sha256:0123456789abcdef\nsize 123456\n",
      ),
    );
    const error = await failure(loadPretrained(dir));
    expect(error).toMatchObject({ code: "MODEL_FILE_INVALID", problem: "text" });
    expect(error.message).toContain("Git LFS pointer");
  });

  it("inspectModel: an onnx that is a file is MODEL_FILE_INVALID; graph files with no loadable name are MODEL_NOT_FOUND", async () => {
    const file = corrupted((d) => {
      rmSync(join(d, "onnx"), { recursive: true });
      writeFileSync(join(d, "onnx"), "not a folder");
    });
    await expect(inspectModel(file)).rejects.toMatchObject({ code: "MODEL_FILE_INVALID", problem: "unreadable" });
    const odd = corrupted((d) => {
      cpSync(join(d, GRAPH), join(d, "onnx", "gpt2.onnx"));
      rmSync(join(d, GRAPH));
    });
    await expect(inspectModel(odd)).rejects.toMatchObject({
      code: "MODEL_NOT_FOUND",
      message: expect.stringContaining("none of its ONNX files (gpt2.onnx)"),
    });
    // A broken graph file: generation's reason is the file, not missing cache inputs.
    const empty = corrupted((d) => writeFileSync(join(d, GRAPH), ""));
    const v = (await inspectModel(empty)).variants.find((x) => x.dtype === "fp32" && x.layout === "model");
    expect(v?.features.generation.blockers[0]).toContain("0 bytes");
  });

  it("dequantizeValues: per-axis scales must cover the axis, zero points the scales", () => {
    expect(Array.from(dequantizeValues([2, 4, 6, 8], [2, 2], [0.5, 2], [0, 1], 1))).toEqual([1, 6, 3, 14]);
    expect(() => dequantizeValues([2, 4, 6, 8], [2, 2], [0.5, 2, 3], undefined, 1)).toThrow(
      expect.objectContaining({ code: "INVALID_VALUE", path: "scale" }),
    );
    expect(() => dequantizeValues([2, 4, 6, 8], [2, 2], [0.5, 2], [0], 1)).toThrow(
      expect.objectContaining({ code: "INVALID_VALUE", path: "zeroPoint" }),
    );
  });
});
