/**
 * Writes docs/models.md: the compatibility table of the model zoos (family x exporter x dtype x feature),
 * generated from ../shared/models/zoo (language models) and ../shared/models/encoder-zoo (sequence
 * classifiers) by `inspectModel`, and the op-coverage table of the gradient builder, generated from its
 * rules (`coveredOps`, `ONNX_OP_VERSIONS`) and the cases that check them
 * (packages/autograd/test/op-cases.ts) -- never by hand.
 *
 *   pnpm models-doc            # regenerate docs/models.md
 *   pnpm models-doc --check    # exit 1 if docs/models.md is stale
 *
 * The table is static inspection (normalisation + gradient-path ops); the zoo tests
 * (packages/{salience,classifier,generate}/test/zoo.test.ts, packages/salience/test/encoder-zoo.test.ts)
 * run every feature on every file.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { coveredOps, type FeatureSupport, gradientKind, inspectModel, ONNX_OP_VERSIONS } from "@npov/autograd";
import { writeFileAtomic } from "@npov/core";
import { OP_CASES, OP_CASES_TEST } from "../packages/autograd/test/op-cases.js";

const ROOT = join(fileURLToPath(import.meta.url), "../..");
export const ZOO_DIR = join(ROOT, "../shared/models/zoo");
export const ENCODER_ZOO_DIR = join(ROOT, "../shared/models/encoder-zoo");
export const MODELS_DOC = join(ROOT, "docs/models.md");

interface ZooFolder {
  folder: string;
  kind: string;
  model_type: string;
  exporter: string;
  architecture: string;
}

const yes = (s: FeatureSupport) => (s.applicable === false ? "--" : s.supported ? "yes" : "**no**");
const cell = (s: string) => s.replaceAll("|", "\\|").replaceAll("\n", " ");

/** `text` as the project's formatter (biome, which `pnpm lint` runs) writes Markdown. */
function formatMarkdown(text: string): string {
  const r = spawnSync(join(ROOT, "node_modules/.bin/biome"), ["format", "--stdin-file-path=docs/models.md"], {
    input: text,
    encoding: "utf8",
  });
  if (r.status !== 0) throw new Error(`biome could not format docs/models.md: ${r.stderr}`);
  return r.stdout;
}

/** The Markdown of docs/models.md for the zoos (formatted as `pnpm lint` expects). */
export async function renderModelsDoc(zoo = ZOO_DIR, encoderZoo = ENCODER_ZOO_DIR): Promise<string> {
  return formatMarkdown(await rawModelsDoc(zoo, encoderZoo));
}

/**
 * The op-coverage table: every op the gradient builder handles on a differentiable path, how (a rule, an
 * exact zero gradient, a stop), its ONNX versions, and the opsets and cases that check it.
 */
export function opCoverageRows(): string[] {
  const kinds = { rule: "rule", zero: "zero (exact a.e.)", stop: "stop (integer output)" } as const;
  return coveredOps().map((op) => {
    const cases = OP_CASES.filter((c) => c.op === op);
    const opsets = [...new Set(cases.map((c) => c.opset))].sort((a, b) => a - b);
    const names = [...new Set(cases.map((c) => c.name))];
    const kind = gradientKind(op);
    return `| ${op} | ${kind === undefined ? "--" : kinds[kind]} | ${(ONNX_OP_VERSIONS[op] ?? []).join(", ")} | ${opsets.join(", ")} | ${cell(names.join("; "))} |`;
  });
}

async function rawModelsDoc(zoo: string, encoderZoo: string): Promise<string> {
  const read = (dir: string) => JSON.parse(readFileSync(join(dir, "zoo.json"), "utf8")) as { folders: ZooFolder[] };
  const folders = [
    ...read(zoo).folders.map((f) => ({ ...f, dir: join(zoo, f.folder) })),
    ...read(encoderZoo).folders.map((f) => ({ ...f, dir: join(encoderZoo, f.folder) })),
  ];
  const rows: string[] = [];
  const notes: string[] = [];
  for (const f of folders) {
    const r = await inspectModel(f.dir);
    const exporter = f.exporter.split(" (")[0] ?? f.exporter;
    for (const v of r.variants) {
      const contrib = [
        ...new Set(v.files.flatMap((x) => x.ops.filter((o) => o.includes(":")).map((o) => o.split(":")[1]))),
      ];
      // What normalisation did, summed over the variant's files (encoder + decoder).
      const counts = new Map<string, number>();
      const flags = new Set<string>();
      const add = (what: string, k: number) => {
        if (k > 0) counts.set(what, (counts.get(what) ?? 0) + k);
      };
      for (const n of v.files.map((x) => x.normalization)) {
        if (n === undefined) continue;
        if (n.ifInlined) flags.add("If inlined");
        if (n.pastRemoved.length) flags.add("cache removed");
        if (n.int64Inputs.length) flags.add(`int32 ${n.int64Inputs.join("/")} widened`);
        if (n.opset.from !== n.opset.to) flags.add(`opset ${n.opset.from}->${n.opset.to}`);
        if (n.fp16Converted) flags.add("fp16->fp32");
        add("MatMulInteger dequantized", n.matMulInteger);
        add("DequantizeLinear folded", n.dequantizeLinear);
        add("quantized lookups folded", n.quantizedEmbeddings);
        for (const [op, k] of Object.entries(n.contribOps)) add(`${op} decomposed`, k);
      }
      const normalized = [...flags, ...[...counts].map(([what, k]) => `${k} ${what}`)];
      rows.push(
        `| ${f.folder} | ${r.kind} | ${cell(exporter)} | ${v.dtype} | ${v.files.map((x) => `\`${x.file.replace("onnx/", "")}\``).join(" + ")} | ${contrib.join(", ") || "--"} | ${yes(v.features.generation)} | ${yes(v.features.scoring)} | ${yes(v.features.salience)} | ${yes(v.features.tuning)} | ${yes(v.features.nli)} | ${cell(normalized.join("; "))} |`,
      );
      for (const [feature, s] of Object.entries(v.features)) {
        if (s.applicable === false) continue;
        for (const b of s.blockers) notes.push(`- ${f.folder} ${v.dtype}, ${feature}: ${cell(b)}`);
        for (const n of s.notes ?? []) notes.push(`- ${f.folder} ${v.dtype}, ${feature} (works): ${cell(n)}`);
      }
    }
  }
  return [
    "# Models npov works with",
    "",
    "Generated by `pnpm models-doc` from `../shared/models/zoo` (language models) and",
    "`../shared/models/encoder-zoo` (sequence classifiers: NLI cross-encoders) -- tiny random-weight models",
    "written by the real exporters users' models come from; their READMEs list how each was made -- and from the",
    "gradient rules and the cases that check them (the op-coverage table below). Do not edit by hand:",
    "`pnpm models-doc --check` (run by the tests) fails when this page is stale.",
    "",
    "Kinds: **causal** and **seq2seq** language models; **sequence-classifier** = an encoder with a",
    "classification head (config.json `architectures` `...ForSequenceClassification`, or `logits` of shape",
    "[batch, labels]). Features: **generation** = transformers.js `from_pretrained` + `generate` (npov's",
    "`LocalGenerator`); **scoring** = the YES/NO prompt classifier's forward pass; **salience** = gradient x",
    "input (of the response tokens' losses for a language model, of the entailment logit for a sequence",
    "classifier: `EncoderSalience`); **tuning** = soft-prompt tuning; **nli** = an entailment label in",
    "config.json's `id2label` and `logits` with one column per label (what an NLI detector reads; a static check).",
    "`--` marks a feature that does not apply to the kind (a classifier does not generate, and its label logits",
    "are not the next-token logits the YES/NO classifier reads; a language model has no entailment label).",
    "Salience, scoring and tuning run on npov's normalised graph (`normalizeModel`: one fp32 graph without",
    "cache, `If`, contrib ops, quantization or int32 ids); the last column says what normalisation did. The",
    "same check for any folder: `npov model inspect --model DIR` (add `--deep` to also build the gradient graph).",
    "",
    "Random weights: these rows say what npov can *run*, not that any of these models is useful for NPOV",
    "detection.",
    "",
    "| folder | kind | exporter | dtype | files | contrib ops | generation | scoring | salience | tuning | nli | normalisation |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ...rows,
    "",
    "## What blocks a feature, and what a feature needs",
    "",
    ...(notes.length ? notes : ["Nothing: every feature works on every file."]),
    "",
    "## How each is checked",
    "",
    "- salience: `packages/salience/test/zoo.test.ts` -- token maps against central finite differences on the",
    "  original exported graph run directly in onnxruntime-node (float64 copy: max relative error 1e-4; contrib",
    "  and MatMulNBits graphs in float32: 1e-2; q8/int8/uint8 against the fp32 file: 0.2, the quantization error).",
    "- encoder salience: `packages/salience/test/encoder-zoo.test.ts` -- every encoder-zoo folder x dtype: logits",
    "  equal onnxruntime's on the original file (fp32 and q4 within 1e-5; fp16 and q4f16, computed in float16",
    "  there, 5e-3; q8/int8/uint8, whose activations the original quantizes, 0.1), and the entailment logit's",
    "  gradient x input and gradient coordinates equal central differences of the original graph (fp32 and fp16",
    "  in float64: 1e-4 and 1e-6 relative; q4/q4f16 against the same file in float32: 5e-2 and 1e-2; q8/int8/uint8",
    "  against the fp32 file: 0.3 and 0.5, the quantization noise). DeBERTa-v2/v3 puts a LayerNorm right after",
    "  the word-embedding lookup with no absolute positions, so scaling a word embedding changes nothing and",
    "  gradient x input is about 0 for every token by construction: `EncoderSalience` flags it",
    "  (`scaleInvariant`) and the CLI says to use `--variant grad-norm`.",
    "- scoring and tuning: `packages/classifier/test/zoo.test.ts` -- P(NO) against a softmax of the label logits",
    "  of a direct onnxruntime run (fp32 1e-5, fp16 2e-2, quantized 5e-2); soft-prompt tuning lowers the loss on",
    "  a toy task for every family and its gradient matches finite differences.",
    "- generation: `packages/generate/test/zoo.test.ts` -- transformers.js offline, greedy text equal to a greedy",
    "  decode by direct onnxruntime runs of the same file.",
    "- normalisation: `packages/autograd/test/normalize.test.ts` -- logits of every file unchanged; contrib ops:",
    "  `packages/autograd/test/contrib-*.test.ts` against onnxruntime's own kernels.",
    "",
    "## Op coverage of the gradient builder",
    "",
    "Every op the gradient builder handles on a differentiable path: **rule** (a vector-Jacobian product in",
    "standard ONNX ops), **zero** (piecewise constant: its derivative is 0 wherever it exists, so the path ends",
    "there exactly), **stop** (integer outputs). Any other op on the path from the input embeddings to the",
    "differentiated output is an `UNSUPPORTED_OP` error naming it. ONNX versions are the opsets that changed the",
    "op, as `onnx/defs/operator_sets.h` lists them up to opset 21 (later type-only revisions are not listed).",
    "Each op is checked at its oldest opset (its first version, or 7, the oldest onnxruntime loads) and at 26,",
    "the newest onnxruntime-node 1.30 loads, by a minimal graph whose gradient must equal central finite",
    `differences of the original graph (float64 where onnxruntime has float64 kernels: relative error 1e-6;`,
    `float32 otherwise: 1e-3), in \`${OP_CASES_TEST}\`; the cases are listed in the last column.`,
    "",
    "Graphs below opset 13 are raised to 13 first (`upgradeOpset`: Slice, TopK, Clip and Pad attributes become",
    "inputs, Squeeze/Unsqueeze/ReduceSum axes and Split sizes too, pre-13 Softmax keeps its flattened axes). The",
    "gradients of GatherElements, GatherND and Gather on an axis other than 0 scatter with accumulation",
    '(`ScatterElements`/`ScatterND` `reduction: "add"`), which ONNX has from opset 16 only, and an ONNX model',
    "declares one version per domain: such a graph is raised to 16 as a whole for its gradient (nothing text",
    "models use changed meaning between 13 and 16; RoiAlign keeps its old default). A float64 copy writes Erf",
    "in standard ops (a 40-term Taylor series and erfc's continued fraction, within 1e-15 of erf), since",
    "onnxruntime has no float64 Erf kernel.",
    "",
    "| op | gradient | ONNX versions | checked at opset | cases |",
    "|---|---|---|---|---|",
    ...opCoverageRows(),
    "",
    "## Context, vocabulary and broken files",
    "",
    "- **Context.** Salience, the YES/NO classifier (scoring and tuning) and the local generator read at most the",
    "  model's context (`modelContext` in @npov/autograd): the smaller of config.json's `max_position_embeddings`",
    "  / `n_positions` / `n_ctx`, tokenizer_config.json's `model_max_length`, and a memory cap (the attention",
    "  scores of one forward pass, 8 bytes x layers x heads x tokens^2, within 2 GiB). T5's relative positions",
    "  declare no limit, so the shipped models read 512 tokens, their `model_max_length`. A longer input is a",
    "  typed `CONTEXT_TOO_LONG` error -- npov does not truncate, since a cut response would be scored as if it",
    "  were whole; a long text is counted in chunks and refused after about the limit's worth of tokenization,",
    "  and one of more than 65,536 characters that still fits in tokens is `INPUT_TOO_LARGE`. The generator caps",
    "  its token budget at what is left of the context (finish reason `length`). `YesNoOptions.context`",
    "  replaces a declared context that understates the graph.",
    "- **Vocabulary.** A scored word (letters, marks or digits in an argument or the response) with a character",
    "  the tokenizer maps to its unknown token is a typed `UNREPRESENTABLE_TEXT` error listing the words and",
    "  characters: the model would give such a word attribution 0 even when it is copied verbatim. The shipped",
    "  models' vocabulary is ASCII without the digit 4: no CJK, Arabic, Hebrew, Cyrillic, Greek or Devanagari",
    "  letter, no accented Latin letter. optimum-t5 (T5's SentencePiece) reads Latin accents but not CJK; byte",
    "  fallback (optimum-llama, genai-llama) and byte-level BPE (the GPT-2 and Qwen2 folders) read every script.",
    '  Punctuation, symbols and emoji outside words do not block; `unrepresentableText: "score"` scores anyway.',
    "- **Broken files.** A model file that exists but cannot be used is `MODEL_FILE_INVALID` naming the file and",
    "  its `problem` (empty, truncated, not-onnx, text, no-graph, invalid-json, not-object, missing-field,",
    "  wrong-type, unreadable, rejected); tokenizer ids beyond the embedding rows are `VOCABULARY_MISMATCH`;",
    "  non-finite scores (a NaN weight) are `INVALID_SCORE`. A `--model` written as a path (`./`, `../`, `/`,",
    "  `~`, a drive letter, a backslash, two or more `/`, or a first segment that exists here) is a folder or",
    "  `MODEL_NOT_FOUND` with the resolved path, never a hub download; a hub id that cannot be downloaded is",
    "  `MODEL_DOWNLOAD_FAILED`, saying how to give a local folder. onnxruntime's own logging is off: its",
    "  messages reach the user only inside these errors. Tests: `packages/autograd/test/model-files-hostile.test.ts`,",
    "  `packages/salience/test/vocabulary.test.ts`, `packages/classifier/test/model-limits.test.ts`,",
    "  `packages/generate/test/local-model-files.test.ts`.",
    "",
  ].join("\n");
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const dir of [ZOO_DIR, ENCODER_ZOO_DIR])
    if (!existsSync(dir)) {
      process.stderr.write(`models-doc: ${dir} not found (../shared beside the repository).\n`);
      process.exit(2);
    }
  const text = await renderModelsDoc();
  if (process.argv.includes("--check")) {
    const current = existsSync(MODELS_DOC) ? readFileSync(MODELS_DOC, "utf8") : "";
    if (current !== text) {
      process.stderr.write("docs/models.md is stale: run `pnpm models-doc`.\n");
      process.exit(1);
    }
    process.stdout.write("docs/models.md is up to date.\n");
  } else {
    writeFileAtomic(MODELS_DOC, text);
    process.stdout.write(`wrote ${MODELS_DOC}\n`);
  }
}
