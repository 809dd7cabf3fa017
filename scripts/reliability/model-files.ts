/**
 * Category "model files": corrupt copies of the shipped models and of a zoo model (truncated, zero-byte,
 * random, text or zero-filled .onnx files, bad config.json / tokenizer.json, tokenizer ids beyond the
 * embedding table, NaN weights), model paths that do not exist, and text the model's vocabulary cannot
 * represent -- through salience, the classifier, the local generator, `serve --model`, `model inspect` and
 * a guard config. The shipped and zoo folders are never modified: every case works on a copy.
 */
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadModel, saveModel } from "@npov/autograd";
import type { Fixtures } from "./fixtures.js";
import {
  type Case,
  describeRun,
  judgeCheckScores,
  judgeEither,
  judgeError,
  type ProcResult,
  parseJson,
  ROOT,
  randomBytesSeeded,
  runCli,
  runProblems,
  scoreProblems,
  seeded,
} from "./harness.js";
import { judgeBlocked, SCRIPTS } from "./input-files.js";
import { startCli } from "./server.js";

const ZOO = join(ROOT, "../shared/models/zoo");
const FILE_CODES = ["MODEL_FILE_INVALID", "UNSUPPORTED_MODEL"];
const MISSING_CODES = ["MODEL_NOT_FOUND", ...FILE_CODES];

/** Copy a model folder (the files transformers.js reads; only the fp32 graphs of a zoo folder). */
function copyModel(src: string, dst: string): void {
  mkdirSync(join(dst, "onnx"), { recursive: true });
  for (const name of readdirSync(src)) {
    const from = join(src, name);
    if (statSync(from).isFile() && name !== "card.json") copyFileSync(from, join(dst, name));
  }
  for (const name of readdirSync(join(src, "onnx"))) {
    // fp32 graphs only: the dtype variants carry suffixes.
    if (/_(fp16|quantized|int8|uint8|q4|q4f16|bnb4)\.onnx/.test(name)) continue;
    copyFileSync(join(src, "onnx", name), join(dst, "onnx", name));
  }
}

interface Corruption {
  label: string;
  /** Change the copy in `dir`. */
  apply(dir: string): void;
  codes: string[];
  /** The copy may still be a working model (e.g. a few flipped weight bytes): a valid result also passes. */
  mayWork?: boolean;
}

const onnxFiles = (dir: string) => readdirSync(join(dir, "onnx")).filter((n) => n.endsWith(".onnx"));
const eachOnnx = (dir: string, change: (b: Buffer, k: number) => Buffer) =>
  onnxFiles(dir).forEach((n, k) => {
    const file = join(dir, "onnx", n);
    writeFileSync(file, change(readFileSync(file), k));
  });
const rewriteJson = (file: string, change: (v: Record<string, unknown>) => void) => {
  const v = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
  change(v);
  writeFileSync(file, JSON.stringify(v));
};

/** Every float32 value of the initializers named by `pick` becomes `value` (NaN, Infinity). */
function poisonWeights(dir: string, pick: RegExp, value: number): void {
  for (const n of onnxFiles(dir)) {
    const file = join(dir, "onnx", n);
    const model = loadModel(file);
    let changed = false;
    for (const t of model.graph?.initializer ?? []) {
      if (!pick.test(t.name ?? "") || t.dataType !== 1 || !t.rawData || t.rawData.length === 0) continue;
      const raw = Buffer.from(t.rawData);
      for (let i = 0; i + 4 <= raw.length; i += 4) raw.writeFloatLE(value, i);
      t.rawData = new Uint8Array(raw);
      changed = true;
    }
    if (changed) saveModel(file, model);
  }
}

export const MODEL_CORRUPTIONS: Corruption[] = [
  {
    label: "every .onnx truncated to half",
    apply: (d) => eachOnnx(d, (b) => b.subarray(0, b.length >> 1)),
    codes: FILE_CODES,
  },
  {
    label: "every .onnx truncated to 100 bytes",
    apply: (d) => eachOnnx(d, (b) => b.subarray(0, 100)),
    codes: FILE_CODES,
  },
  { label: "every .onnx zero bytes long", apply: (d) => eachOnnx(d, () => Buffer.alloc(0)), codes: FILE_CODES },
  {
    label: "every .onnx 64 KB of random bytes",
    apply: (d) => eachOnnx(d, (_b, k) => randomBytesSeeded(65536, 77 + k)),
    codes: FILE_CODES,
  },
  {
    label: "every .onnx a text file",
    apply: (d) => eachOnnx(d, () => Buffer.from("this is not an ONNX model\n")),
    codes: FILE_CODES,
  },
  {
    label: "every .onnx all zero bytes (same length)",
    apply: (d) => eachOnnx(d, (b) => Buffer.alloc(b.length)),
    codes: FILE_CODES,
  },
  {
    label: "every .onnx a JSON file",
    apply: (d) => eachOnnx(d, () => Buffer.from('{"model": "onnx"}')),
    codes: FILE_CODES,
  },
  {
    label: "200 random bytes flipped in every .onnx",
    apply: (d) =>
      eachOnnx(d, (b, k) => {
        const out = Buffer.from(b);
        const rand = seeded(500 + k);
        for (let i = 0; i < 200; i++) {
          const at = Math.floor(rand() * out.length);
          out[at] = (out[at] as number) ^ 0xff;
        }
        return out;
      }),
    codes: [...FILE_CODES, "MODEL_RUN", "INVALID_SCORE", "VOCABULARY_MISMATCH"],
    mayWork: true,
  },
  {
    label: "the onnx/ folder emptied",
    apply: (d) => {
      for (const n of onnxFiles(d)) rmSync(join(d, "onnx", n));
    },
    codes: MISSING_CODES,
  },
  {
    label: "config.json invalid JSON",
    apply: (d) => writeFileSync(join(d, "config.json"), '{"model_type": "t5",'),
    codes: FILE_CODES,
  },
  {
    label: "config.json an empty object",
    apply: (d) => writeFileSync(join(d, "config.json"), "{}"),
    codes: FILE_CODES,
    // npov reads the architecture from the graph: a model may still work without its config.
    mayWork: true,
  },
  { label: "config.json a JSON array", apply: (d) => writeFileSync(join(d, "config.json"), "[]"), codes: FILE_CODES },
  { label: "config.json zero bytes", apply: (d) => writeFileSync(join(d, "config.json"), ""), codes: FILE_CODES },
  { label: "config.json missing", apply: (d) => rmSync(join(d, "config.json")), codes: MISSING_CODES },
  {
    label: "config.json with wrong types (vocab_size -1, d_model/n_embd a string)",
    apply: (d) =>
      rewriteJson(join(d, "config.json"), (v) => {
        v.vocab_size = -1;
        if ("d_model" in v) v.d_model = "big";
        if ("n_embd" in v) v.n_embd = "big";
      }),
    codes: FILE_CODES,
  },
  {
    label: "tokenizer.json truncated (invalid JSON)",
    apply: (d) => {
      const b = readFileSync(join(d, "tokenizer.json"));
      writeFileSync(join(d, "tokenizer.json"), b.subarray(0, b.length >> 1));
    },
    codes: FILE_CODES,
  },
  {
    label: "tokenizer.json an empty object",
    apply: (d) => writeFileSync(join(d, "tokenizer.json"), "{}"),
    codes: FILE_CODES,
  },
  { label: "tokenizer.json missing", apply: (d) => rmSync(join(d, "tokenizer.json")), codes: MISSING_CODES },
  {
    label: "tokenizer.json 4 KB of random bytes",
    apply: (d) => writeFileSync(join(d, "tokenizer.json"), randomBytesSeeded(4096, 91)),
    codes: FILE_CODES,
  },
  {
    label: "tokenizer.json with an empty vocabulary",
    apply: (d) => rewriteJson(join(d, "tokenizer.json"), (v) => ((v.model as Record<string, unknown>).vocab = {})),
    // With no vocabulary every word is unrepresentable and YES/NO have no tokens: each is a fair report.
    codes: [...FILE_CODES, "VOCABULARY_MISMATCH", "UNREPRESENTABLE_TEXT", "LABEL_TOKENS"],
  },
  {
    label: "tokenizer ids beyond the embedding table (ids >= 100 moved up by 10,000)",
    apply: (d) =>
      rewriteJson(join(d, "tokenizer.json"), (v) => {
        const vocab = (v.model as { vocab: Record<string, number> }).vocab;
        for (const k of Object.keys(vocab)) if ((vocab[k] as number) >= 100) vocab[k] = (vocab[k] as number) + 10_000;
      }),
    codes: ["VOCABULARY_MISMATCH", ...FILE_CODES],
  },
  {
    label: "tokenizer_config.json invalid JSON",
    apply: (d) => writeFileSync(join(d, "tokenizer_config.json"), "{ not json"),
    codes: FILE_CODES,
  },
  {
    label: "NaN in every LayerNorm weight",
    apply: (d) => poisonWeights(d, /(layer_norm|ln_\d|ln_f|norm)\.weight$/, Number.NaN),
    codes: ["INVALID_SCORE", "MODEL_RUN", ...FILE_CODES],
  },
  {
    label: "Infinity in the embedding table",
    apply: (d) => poisonWeights(d, /^(shared|transformer\.wte|model\.embed_tokens)\.weight$/, Number.POSITIVE_INFINITY),
    codes: ["INVALID_SCORE", "MODEL_RUN", ...FILE_CODES],
  },
];

export function modelFileCases(f: Fixtures): Case[] {
  const cases: Case[] = [];
  const gen = join(ROOT, "models/npov-gen");
  const cls = join(ROOT, "models/npov-cls");
  const gpt2 = join(ZOO, "optimum-gpt2");
  const llama = join(ZOO, "optimum-llama");
  const ex = f.exampleFile;

  /** A case on a corrupt copy of `src` made just before it runs. */
  const onCopy = (
    src: string,
    c: Corruption,
    name: string,
    args: (dir: string) => string[],
    ok: (r: ProcResult) => string | undefined,
    timeoutMs = 60_000,
  ): Case => ({
    category: "model files",
    area: "C",
    name: `${name}: ${c.label}`,
    expected: `exit 2 [${c.codes.join(" | ")}] naming the file, no stack trace or onnxruntime output${c.mayWork ? " (or a valid result, if the model still works)" : ""}`,
    run: async () => {
      const dir = join(f.sub("model"), "m");
      copyModel(src, dir);
      c.apply(dir);
      const r = await runCli(args(dir), { timeoutMs });
      const verdict = c.mayWork ? judgeEither(r, ok, c.codes) : judgeError(r, c.codes);
      rmSync(dir, { recursive: true, force: true });
      return verdict;
    },
  });
  const salienceOk = (r: ProcResult) => scoreProblems(parseJson(r.stdout).value, "salience");
  for (const c of MODEL_CORRUPTIONS) {
    cases.push(
      onCopy(
        gen,
        c,
        "salience --model <copy of npov-gen>",
        (d) => ["salience", "--input", ex, "--model", d, "--json"],
        salienceOk,
      ),
      onCopy(
        cls,
        c,
        "check --methods classifier --model <copy of npov-cls>",
        (d) => ["check", "--input", ex, "--methods", "classifier", "--model", d, "--json"],
        (r) => judgeCheckScores(r, ["classifier"]),
      ),
      onCopy(
        gpt2,
        c,
        "salience --model <copy of zoo optimum-gpt2>",
        (d) => ["salience", "--input", ex, "--model", d, "--json"],
        salienceOk,
      ),
    );
  }
  // The local generator and the server load the same files: the load-time failures, once each.
  for (const c of MODEL_CORRUPTIONS.filter((_, k) => [0, 2, 4, 9, 13, 15, 17, 20, 22].includes(k))) {
    cases.push(
      onCopy(
        gen,
        c,
        "generate --model <copy of npov-gen>",
        (d) => ["generate", "--input", ex, "--model", d, "--max-new-tokens", "8"],
        (r) => (r.code === 0 ? undefined : describeRun(r)),
      ),
    );
  }
  for (const c of MODEL_CORRUPTIONS.filter((_, k) => [0, 4, 9, 15, 20].includes(k)))
    cases.push({
      category: "model files",
      area: "C",
      name: `serve --model <copy of npov-gen>: ${c.label}`,
      expected: `exit 2 [${c.codes.join(" | ")}] at start (or, when the model loads lazily, a typed 4xx/503 for a chat request, never 500)`,
      run: async () => {
        const dir = join(f.sub("model-serve"), "m");
        copyModel(gen, dir);
        c.apply(dir);
        return serveOutcome(["serve", "--port", "0", "--model", dir], c.codes, f);
      },
    });
  for (const c of MODEL_CORRUPTIONS.filter((_, k) => [0, 2, 4, 9, 15].includes(k)))
    cases.push({
      category: "model files",
      area: "C",
      name: `model inspect --model <copy of npov-gen>: ${c.label}`,
      expected: "exit 0 with a report that says the file is unusable, or exit 2 with a typed error; no stack trace",
      run: async () => {
        const dir = join(f.sub("model-inspect"), "m");
        copyModel(gen, dir);
        c.apply(dir);
        const r = await runCli(["model", "inspect", "--model", dir], { timeoutMs: 60_000 });
        return judgeEither(r, () => undefined, [...c.codes, "MODEL_NOT_FOUND"]);
      },
    });
  for (const [method, c] of [
    ["salience", MODEL_CORRUPTIONS[0]],
    ["classifier", MODEL_CORRUPTIONS[9]],
  ] as const) {
    const corruption = c as Corruption;
    cases.push({
      category: "model files",
      area: "C",
      name: `guard with {method: ${method}, model: <copy>}: ${corruption.label}`,
      expected: `exit 2 [${corruption.codes.join(" | ")}] when the guard loads, or blocked with that reason`,
      run: async () => {
        const dir = join(f.sub("model-guard"), "m");
        copyModel(method === "salience" ? gen : cls, dir);
        corruption.apply(dir);
        const config = f.writeJson("guard-model.json", {
          format: "npov-guard/1",
          detector: { method, model: dir },
          thresholds: { hallucination: 0.5, coverage: 0.5 },
        });
        const r = await runCli(["guard", "--config", config, "--input", ex, "--exit-code"], { timeoutMs: 60_000 });
        return judgeBlocked(r, corruption.codes);
      },
    });
  }

  // Model paths that do not exist: never a hub download.
  const missing = [
    ["./no-such-model", "a ./relative folder"],
    [join(f.dir, "no/such/model"), "an absolute folder"],
    ["no-such-dir/model/x", "a relative path with two slashes"],
    ["models/no-such-model", "a missing folder under an existing one"],
    ["~/no-such-model", "a ~ path"],
  ] as const;
  const commands: Array<[string, (m: string) => string[]]> = [
    ["salience", (m) => ["salience", "--input", ex, "--model", m, "--json"]],
    ["check --methods classifier", (m) => ["check", "--input", ex, "--methods", "classifier", "--model", m]],
    ["generate", (m) => ["generate", "--input", ex, "--model", m]],
    ["model inspect", (m) => ["model", "inspect", "--model", m]],
    [
      "train-stacked --methods rouge,classifier",
      (m) => [
        "train-stacked",
        "--train",
        f.testData,
        "--methods",
        "rouge,classifier",
        "--model",
        m,
        "--out",
        join(f.sub("ts"), "s.json"),
      ],
    ],
  ];
  for (const [path, label] of missing)
    for (const [command, args] of commands)
      cases.push({
        category: "model files",
        area: "C",
        name: `${command} --model ${label} that does not exist`,
        expected: "exit 2 [MODEL_NOT_FOUND] naming the path, at once (no download attempt)",
        // From the repository root, where models/ exists: "models/no-such-model" is then a path, not a hub id.
        run: async () =>
          judgeError(await runCli(args(path), { timeoutMs: 30_000, cwd: path.startsWith("models/") ? ROOT : f.dir }), [
            "MODEL_NOT_FOUND",
          ]),
      });
  cases.push(
    {
      category: "model files",
      area: "C",
      name: "serve --model a folder that does not exist",
      expected: "exit 2 [MODEL_NOT_FOUND] at start",
      run: async () => serveOutcome(["serve", "--port", "0", "--model", "./no-such-model"], ["MODEL_NOT_FOUND"], f),
    },
    {
      category: "model files",
      area: "C",
      name: "guard with {method: salience, model: <missing folder>}",
      expected: "exit 2 [MODEL_NOT_FOUND], or blocked with that reason",
      run: async () => {
        const config = f.writeJson("guard-missing.json", {
          format: "npov-guard/1",
          detector: { method: "salience", model: join(f.dir, "no-such-model") },
          thresholds: { hallucination: 0.5, coverage: 0.5 },
        });
        return judgeBlocked(await runCli(["guard", "--config", config, "--input", ex, "--exit-code"]), [
          "MODEL_NOT_FOUND",
        ]);
      },
    },
    {
      category: "model files",
      area: "C",
      name: "salience --model an empty folder",
      expected: "exit 2 [MODEL_NOT_FOUND | MODEL_FILE_INVALID]",
      run: async () =>
        judgeError(await runCli(["salience", "--input", ex, "--model", f.sub("empty-model"), "--json"]), MISSING_CODES),
    },
    {
      category: "model files",
      area: "C",
      name: "salience --model a file, not a folder",
      expected: "exit 2 [MODEL_NOT_FOUND | MODEL_FILE_INVALID]",
      run: async () => judgeError(await runCli(["salience", "--input", ex, "--model", ex, "--json"]), MISSING_CODES),
    },
    {
      category: "model files",
      area: "C",
      name: "salience --model a hub id (someone/some-model) without network",
      expected: "exit 2 [MODEL_DOWNLOAD_FAILED | MODEL_NOT_FOUND] saying how to give a local folder, within 60 s",
      run: async () =>
        judgeError(
          await runCli(["salience", "--input", ex, "--model", "npov-reliability/no-such-model", "--json"], {
            timeoutMs: 60_000,
            cwd: f.dir,
          }),
          ["MODEL_DOWNLOAD_FAILED", "MODEL_NOT_FOUND"],
        ),
    },
  );

  // Vocabulary: the shipped models cannot represent these scripts (no byte fallback) and must say so.
  for (const s of SCRIPTS.filter((x) => !/Latin|accents|bidi|emoji|German|Turkish|mathematical/.test(x.label))) {
    const example = () =>
      f.writeJson(`vocab-${s.label.replace(/\W+/g, "-")}.json`, {
        input: {
          topic: s.topic,
          query: `${s.topic}?`,
          perspectives: [
            { label: "pro", arguments: [{ text: s.pro }] },
            { label: "con", arguments: [{ text: s.con }] },
          ],
        },
        response: `${s.pro} ${s.con}`,
      });
    cases.push(
      {
        category: "model files",
        area: "C",
        name: `salience (shipped npov-gen): ${s.label} text copied verbatim`,
        expected: "exit 2 [UNREPRESENTABLE_TEXT] listing the words (never attribution 0)",
        run: async () =>
          judgeError(await runCli(["salience", "--input", example(), "--json"], { timeoutMs: 60_000 }), [
            "UNREPRESENTABLE_TEXT",
          ]),
      },
      {
        category: "model files",
        area: "C",
        name: `check --methods classifier (shipped npov-cls): ${s.label} text`,
        expected: "exit 2 [UNREPRESENTABLE_TEXT]",
        run: async () =>
          judgeError(
            await runCli(["check", "--input", example(), "--methods", "classifier", "--json"], { timeoutMs: 60_000 }),
            ["UNREPRESENTABLE_TEXT"],
          ),
      },
    );
  }
  for (const s of SCRIPTS.filter((x) => /Chinese|Arabic|Russian|Hindi/.test(x.label)))
    cases.push({
      category: "model files",
      area: "C",
      name: `salience --model zoo optimum-llama (byte fallback): ${s.label} text copied verbatim`,
      expected: "exit 0 with finite scores in [0, 1] (byte fallback represents every character)",
      run: async () => {
        // Short texts: byte fallback spends up to 3 tokens per character, and the model's context is 256.
        const cut = (t: string) => Array.from(t).slice(0, 7).join("");
        const file = f.writeJson(`vocab-llama-${s.label}.json`, {
          input: {
            topic: "zoos",
            query: "zoos?",
            perspectives: [
              { label: "pro", arguments: [{ text: cut(s.pro) }] },
              { label: "con", arguments: [{ text: cut(s.con) }] },
            ],
          },
          response: `${cut(s.pro)} ${cut(s.con)}`,
        });
        const r = await runCli(["salience", "--input", file, "--model", llama, "--dtype", "fp32", "--json"], {
          timeoutMs: 60_000,
        });
        return runProblems(r) ?? (r.code === 0 ? salienceOk(r) : describeRun(r));
      },
    });
  return cases;
}

/**
 * Start `npov serve` with a broken model: it must exit 2 with one of `codes`; if it starts anyway (lazy
 * loading), a chat request must get a typed 4xx/503, never a 500. The server is stopped either way.
 */
async function serveOutcome(args: string[], codes: readonly string[], f: Fixtures): Promise<string | undefined> {
  const server = await startCli(args, { cwd: f.dir, timeoutMs: 60_000 });
  if (server.url === undefined) return judgeError(server.result(), codes);
  try {
    const res = await fetch(`${server.url}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ messages: [{ role: "user", content: JSON.stringify(f.example.input) }] }),
      signal: AbortSignal.timeout(30_000),
    });
    const body = (await res.json().catch(() => ({}))) as { error?: { code?: string } };
    if (res.status === 500) return `started, then 500 for a chat request`;
    if (res.status < 400) return `started and answered ${res.status} with a broken model`;
    return body.error?.code === undefined ? `status ${res.status} without an error code` : undefined;
  } catch (e) {
    return `started, then the chat request failed: ${(e as Error).message}`;
  } finally {
    await server.stop();
  }
}
