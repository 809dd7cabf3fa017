/**
 * Resolving a pretrained model the transformers.js way: a local folder, a folder under
 * `env.localModelPath`, a previously downloaded copy in the cache, or (when `env.allowRemoteModels`)
 * files fetched from the model hub and cached. The tokenizer is built from tokenizer.json and
 * tokenizer_config.json exactly as transformers.js's AutoTokenizer does, without touching its global env.
 */
import { createWriteStream, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import * as transformers from "@huggingface/transformers";
import { FileFormatError, FileReadError, InvalidValueError, NpovError, pushAll } from "@npov/core";
import { ModelDownloadError, ModelFileError, onnxruntimeMessage, UnsupportedModelError } from "./errors.js";
import { type NormalizationReport, normalizeModel } from "./normalize.js";
import { decodeModel, type IModelProto, loadModel, type ModelProto, valueInfoShape } from "./proto.js";
import { tokenizerJsonSize } from "./vocabulary.js";

/** A model folder that cannot be found locally and may not be downloaded. */
export class ModelNotFoundError extends NpovError {
  constructor(id: string, detail: string) {
    super("MODEL_NOT_FOUND", `Model "${id}" not found: ${detail}`);
  }
}

/**
 * Which weights file to load, named as transformers.js names them: fp32 (`model.onnx`), fp16
 * (`model_fp16.onnx`), q8 (`model_quantized.onnx`), int8, uint8, q4, q4f16, bnb4. Every variant is
 * normalised to an fp32 graph for gradients (see `normalizeModel`): fp16 weights are widened, quantized
 * weights dequantized (the straight-through view of quantization).
 */
export type ModelDtype = "fp32" | "fp16" | "q8" | "int8" | "uint8" | "q4" | "q4f16" | "bnb4";

/** File-name suffix of each dtype (transformers.js's DEFAULT_DTYPE_SUFFIX_MAPPING). */
export const DTYPE_SUFFIX: Readonly<Record<ModelDtype, string>> = {
  fp32: "",
  fp16: "_fp16",
  q8: "_quantized",
  int8: "_int8",
  uint8: "_uint8",
  q4: "_q4",
  q4f16: "_q4f16",
  bnb4: "_bnb4",
};

/** Every dtype, in the order a folder holding several is described. */
export const MODEL_DTYPES = Object.keys(DTYPE_SUFFIX) as ModelDtype[];

/** `value` as a ModelDtype, or a typed error listing the valid ones. */
export function parseModelDtype(value: string): ModelDtype {
  if ((MODEL_DTYPES as string[]).includes(value)) return value as ModelDtype;
  throw new InvalidValueError("dtype", `"${value}" is not a model dtype; use one of ${MODEL_DTYPES.join(", ")}.`);
}

/**
 * `dtype` / `modelFile` as given on a command line or in a guard config (strings), as loader options:
 * the dtype validated, the file name passed through.
 * @throws InvalidValueError on an unknown dtype.
 */
export function modelFileOptions(opts: { dtype?: string; modelFile?: string }): {
  dtype?: ModelDtype;
  modelFileName?: string;
} {
  return {
    ...(opts.dtype !== undefined ? { dtype: parseModelDtype(opts.dtype) } : {}),
    ...(opts.modelFile !== undefined ? { modelFileName: opts.modelFile } : {}),
  };
}

/** Options of {@link loadPretrained}. */
export interface PretrainedOptions {
  /**
   * Weights variant. Default ("auto"): `transformers.js_config.dtype` of config.json if set, else fp32 if
   * the folder has it, else the only variant the folder holds.
   */
  dtype?: ModelDtype | "auto";
  revision?: string;
  /**
   * Base name of the decoder (causal: `model`, then the legacy `decoder_model` and `decoder_model_merged`
   * are tried in that order; seq2seq: `decoder_model`, then `decoder_model_merged`), like transformers.js's
   * `model_file_name`.
   */
  modelFileName?: string;
  /** Normalise the graphs for differentiation (default true); false returns the files as exported. */
  normalize?: boolean;
}

/** A resolved model: its folder, config, tokenizer and graphs (normalised unless asked otherwise). */
export interface PretrainedFiles {
  dir: string;
  config: Record<string, unknown>;
  tokenizer: transformers.PreTrainedTokenizer;
  encoderDecoder: boolean;
  /** What the model computes (see {@link modelKind}); set by {@link loadPretrained}. */
  kind?: ModelKind;
  /** The dtype whose files were loaded. */
  dtype: ModelDtype;
  /** ONNX files loaded, relative to `dir` (decoder or causal LM last). */
  onnxFiles: string[];
  /** Causal LM graph, or the encoder and decoder graphs. */
  model?: ModelProto;
  encoder?: ModelProto;
  decoder?: ModelProto;
  /** What normalisation did to each graph (file -> report), when it ran. */
  normalization: Record<string, NormalizationReport>;
}

const SEQ2SEQ_TYPES = new Set([
  "t5",
  "mt5",
  "longt5",
  "bart",
  "mbart",
  "marian",
  "pegasus",
  "m2m_100",
  "blenderbot",
  "blenderbot-small",
]);

/** Whether a config.json describes an encoder-decoder (seq2seq) model. */
export function isEncoderDecoderConfig(config: Record<string, unknown>): boolean {
  return config.is_encoder_decoder === true || SEQ2SEQ_TYPES.has(String(config.model_type));
}

/**
 * What a model computes, as npov uses it: `causal` (a decoder-only language model), `seq2seq` (an
 * encoder-decoder language model) or `sequence-classifier` (an encoder with a classification head, e.g. an
 * NLI cross-encoder: label logits for a text or a text pair).
 */
export type ModelKind = "causal" | "seq2seq" | "sequence-classifier";

/** config.json's `architectures`, when it is a list of strings. */
export function configArchitectures(config: Record<string, unknown>): string[] {
  const a = config.architectures;
  return Array.isArray(a) ? a.filter((x): x is string => typeof x === "string") : [];
}

/**
 * The kind of a model (see {@link ModelKind}): config.json's `architectures` (`...ForSequenceClassification`
 * is a sequence classifier, `...ForCausalLM` / `...LMHeadModel` a causal LM, `...ForConditionalGeneration`
 * a seq2seq model when the config is an encoder-decoder's), else `is_encoder_decoder` / the model type,
 * else -- given the model's graph -- a `logits` output of rank 2 and no key/value-cache input is a sequence
 * classifier ([batch, labels]; a language model's logits are [batch, sequence, vocabulary]); else causal.
 */
export function modelKind(config: Record<string, unknown>, graph?: IModelProto): ModelKind {
  const architectures = configArchitectures(config);
  if (architectures.some((a) => /ForSequenceClassification$/.test(a))) return "sequence-classifier";
  if (isEncoderDecoderConfig(config)) return "seq2seq";
  if (architectures.some((a) => /(ForCausalLM|LMHeadModel)$/.test(a))) return "causal";
  const logits = graph?.graph?.output?.find((o) => o.name === "logits");
  const cache = (graph?.graph?.input ?? []).some((v) => /^past(_|\.|$)/.test(v.name ?? ""));
  if (logits !== undefined && !cache && valueInfoShape(logits).shape?.length === 2) return "sequence-classifier";
  return "causal";
}

/**
 * The kind of the model `idOrPath` names (see {@link modelKind}), cheaply when config.json's
 * `architectures` or model type decide it (a local folder: no graph is read), else from the graph
 * (loaded as {@link loadPretrained} would, without normalising it).
 * @throws as {@link loadPretrained}.
 */
export async function pretrainedModelKind(idOrPath: string, options: PretrainedOptions = {}): Promise<ModelKind> {
  const local = localModelFolder(idOrPath);
  if (local !== undefined && existsSync(join(local, "config.json"))) {
    const config = readModelConfig(join(local, "config.json"));
    const decided = configArchitectures(config).some((a) =>
      /(ForSequenceClassification|ForCausalLM|LMHeadModel|ForConditionalGeneration)$/.test(a),
    );
    if (decided || isEncoderDecoderConfig(config)) return modelKind(config);
  }
  const files = await loadPretrained(idOrPath, { ...options, normalize: false });
  return files.kind ?? modelKind(files.config, files.model);
}

/** The labels of a sequence classifier and the one that means entailment (NLI models). */
export interface ClassifierLabels {
  /** Label names in logit order (config.json `id2label`). */
  labels: string[];
  /** Index of the entailment label (`entailment`, any case; `entails`, `entailed` too), or undefined. */
  entailment: number | undefined;
}

/**
 * The labels of a sequence classifier from config.json's `id2label` (keys 0..n-1, in any order in the
 * file), and which one is entailment.
 * @throws ModelFileError naming config.json when `id2label` is missing or not a map of 0..n-1 to names.
 */
export function classifierLabels(config: Record<string, unknown>, configFile: string): ClassifierLabels {
  const raw = config.id2label;
  if (raw === undefined || raw === null)
    throw new ModelFileError(
      configFile,
      "missing-field",
      'it has no "id2label" (the names of the classifier\'s labels)',
    );
  if (typeof raw !== "object" || Array.isArray(raw))
    throw new ModelFileError(
      configFile,
      "wrong-type",
      `"id2label" must map label ids to names, found ${JSON.stringify(raw)}`,
    );
  const entries = Object.entries(raw as Record<string, unknown>);
  const labels: string[] = new Array(entries.length);
  for (const [key, name] of entries) {
    const id = Number(key);
    if (!/^\d+$/.test(key) || id >= entries.length || typeof name !== "string" || name.trim() === "")
      throw new ModelFileError(
        configFile,
        "wrong-type",
        `"id2label" must map the ids 0..${entries.length - 1} to label names, found ${JSON.stringify(key)}: ${JSON.stringify(name)}`,
      );
    labels[id] = name;
  }
  if (labels.some((l) => l === undefined))
    throw new ModelFileError(configFile, "wrong-type", `"id2label" must map each id 0..${entries.length - 1} once`);
  const entailment = labels.findIndex((l) => /^entail(ment|s|ed)?$/i.test(l.trim()));
  return { labels, entailment: entailment >= 0 ? entailment : undefined };
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Download one file of a hub model to `target`, streamed to disk and renamed into place; false on 404. */
async function download(id: string, file: string, target: string, revision: string): Promise<boolean> {
  const env = transformers.env as unknown as { remoteHost: string; remotePathTemplate: string };
  const url =
    env.remoteHost +
    env.remotePathTemplate.replaceAll("{model}", id).replaceAll("{revision}", encodeURIComponent(revision)) +
    file;
  let response: Response;
  try {
    response = await fetch(url);
  } catch (cause) {
    throw new ModelDownloadError(
      id,
      `could not reach ${url}: ${(cause as Error).message}${(cause as Error).cause ? ` (${String((cause as Error).cause)})` : ""}`,
      cause,
    );
  }
  if (response.status === 404) return false;
  if (!response.ok || response.body === null)
    throw new ModelDownloadError(id, `${url} answered ${response.status} ${response.statusText}`);
  // Weights can be gigabytes: stream to a temporary file beside the target, then rename (atomic).
  mkdirSync(dirname(target), { recursive: true });
  const partial = `${target}.${process.pid}.part`;
  try {
    await pipeline(Readable.fromWeb(response.body as WebReadableStream), createWriteStream(partial));
    renameSync(partial, target);
  } catch (cause) {
    rmSync(partial, { force: true });
    throw new ModelDownloadError(id, `downloading ${url} broke off: ${(cause as Error).message}`, cause);
  }
  return true;
}

/** Where a hub model's files are cached: per id, and per revision other than main. */
function cacheFolder(id: string, revision: string): string {
  const env = transformers.env as unknown as { cacheDir: string | null };
  const base = join(env.cacheDir ?? join(process.cwd(), ".cache"), id);
  return revision === "main" ? base : join(base, "revisions", revision);
}

/** `~` and `~/...` as the shell would expand them (a quoted `--model "~/m"` reaches npov unexpanded). */
function expandHome(path: string): string {
  return path === "~" || path.startsWith("~/") || path.startsWith("~\\") ? join(homedir(), path.slice(1)) : path;
}

/** A model-hub id: `name` or `owner/name` of letters, digits, `-`, `_` and `.`, no part starting with `.`. */
const HUB_ID = /^(?!\.)[\w.-]+(?:\/(?!\.)[\w.-]+)?$/;

/**
 * Whether `idOrPath` names a local folder rather than a model-hub id: absolute or `./`/`../`/`~`-relative
 * paths, Windows drive paths and backslashes, more than one `/`, a trailing `/`, anything that is not a
 * valid hub id, or `first/rest` whose first segment exists here (`models/npov-typo`). Such a value is a
 * folder or nothing: npov never downloads it from the hub.
 */
export function looksLikeModelPath(idOrPath: string): boolean {
  const parts = idOrPath.split("/");
  return (
    isAbsolute(idOrPath) ||
    /^[A-Za-z]:/.test(idOrPath) ||
    idOrPath.startsWith(".") ||
    idOrPath.startsWith("~") ||
    idOrPath.includes("\\") ||
    parts.length > 2 ||
    idOrPath.endsWith("/") ||
    !HUB_ID.test(idOrPath) ||
    (parts.length === 2 && existsSync(parts[0] as string))
  );
}

/**
 * A local folder for `idOrPath` (a path, or an id under `env.localModelPath`), or undefined for a hub id
 * (see {@link looksLikeModelPath}).
 * @throws ModelNotFoundError (with the resolved path) when a path-like value is no folder.
 */
export function localModelFolder(idOrPath: string): string | undefined {
  const path = expandHome(idOrPath);
  if (isDir(path)) return path;
  if (looksLikeModelPath(idOrPath)) {
    const resolved = resolve(path);
    throw new ModelNotFoundError(
      idOrPath,
      `${existsSync(resolved) ? `${resolved} is a file, not a model folder` : `no folder at ${resolved}`}. Give a model folder (config.json, tokenizer.json, onnx/), such as models/npov-gen; a value written as a path is never looked up on the model hub.`,
    );
  }
  const env = transformers.env as unknown as { allowLocalModels: boolean; localModelPath: string };
  if (env.allowLocalModels && isDir(join(env.localModelPath, idOrPath))) return join(env.localModelPath, idOrPath);
  return undefined;
}

/**
 * The cache folder of a hub model, with the missing ones of `files` downloaded when
 * `env.allowRemoteModels` (a 404 leaves a file missing: the caller decides what that means).
 */
async function hubFolder(id: string, files: readonly string[], revision: string): Promise<string> {
  const env = transformers.env as unknown as { allowRemoteModels: boolean };
  const cached = cacheFolder(id, revision);
  const missing = files.filter((f) => !existsSync(join(cached, f)));
  if (missing.length === 0) return cached;
  if (!env.allowRemoteModels) {
    if (existsSync(join(cached, "config.json"))) return cached; // partly cached: the caller says what is missing
    throw new ModelNotFoundError(
      id,
      "it is not a folder, not under env.localModelPath, not cached, and env.allowRemoteModels is false. Give a local model folder.",
    );
  }
  for (const f of missing) await download(id, f, join(cached, f), revision);
  return cached;
}

/** The external-data files an ONNX file names (its `location` entries), read from the graph file. */
function externalDataFiles(onnxFile: string): string[] {
  let model: ModelProto;
  try {
    model = decodeModel(readModelFile(onnxFile), onnxFile);
  } catch (error) {
    throw graphFileError(onnxFile, error);
  }
  const locations = new Set<string>();
  for (const t of model.graph?.initializer ?? [])
    for (const e of t.externalData ?? []) if (e.key === "location" && e.value) locations.add(e.value);
  return [...locations];
}

/** The bytes of a model file, or a typed error naming it. @throws ModelFileError */
function readModelFile(file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (cause) {
    throw new ModelFileError(file, "unreadable", (cause as Error).message, cause);
  }
}

/**
 * A JSON object file of a model folder (config.json, tokenizer.json, ...): a leading BOM is skipped.
 * @throws ModelFileError (`empty`, `invalid-json`, `not-object`, `unreadable`).
 */
export function readJsonObject(file: string): Record<string, unknown> {
  const bytes = readModelFile(file);
  if (bytes.length === 0) throw new ModelFileError(file, "empty", "the file has 0 bytes");
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString("utf8").replace(/^\uFEFF/, ""));
  } catch (cause) {
    throw new ModelFileError(file, "invalid-json", (cause as Error).message, cause);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value))
    throw new ModelFileError(
      file,
      "not-object",
      `expected a JSON object, found ${Array.isArray(value) ? "an array" : value === null ? "null" : typeof value}`,
    );
  return value as Record<string, unknown>;
}
const readJson = readJsonObject;

/** Fields of config.json npov reads, with the type each must have when present. */
const CONFIG_FIELDS: ReadonlyArray<[string, "string" | "boolean" | "count" | "id" | "ids"]> = [
  ["model_type", "string"],
  ["is_encoder_decoder", "boolean"],
  ["vocab_size", "count"],
  ["max_position_embeddings", "count"],
  ["n_positions", "count"],
  ["n_ctx", "count"],
  ["num_layers", "count"],
  ["num_decoder_layers", "count"],
  ["num_hidden_layers", "count"],
  ["n_layer", "count"],
  ["num_heads", "count"],
  ["n_head", "count"],
  ["num_attention_heads", "count"],
  ["decoder_start_token_id", "id"],
  ["pad_token_id", "id"],
  ["bos_token_id", "id"],
  ["eos_token_id", "ids"],
];

/**
 * Read and check config.json: a JSON object whose fields npov reads have the right types (`model_type` a
 * string, sizes positive integers, token ids non-negative integers). Unknown fields pass.
 * @throws ModelFileError (`wrong-type` names the field and what it holds), or as {@link readJsonObject}.
 */
export function readModelConfig(file: string): Record<string, unknown> {
  const config = readJson(file);
  const isId = (v: unknown) => typeof v === "number" && Number.isInteger(v) && v >= 0;
  for (const [key, kind] of CONFIG_FIELDS) {
    const v = config[key];
    if (v === undefined || v === null) continue;
    const ok =
      kind === "string"
        ? typeof v === "string" && v.length > 0
        : kind === "boolean"
          ? typeof v === "boolean"
          : kind === "count"
            ? typeof v === "number" && Number.isInteger(v) && v > 0
            : kind === "id"
              ? isId(v)
              : isId(v) || (Array.isArray(v) && v.length > 0 && v.every(isId));
    if (!ok) {
      const expected = {
        string: "a non-empty string",
        boolean: "true or false",
        count: "a positive integer",
        id: "a token id (an integer >= 0)",
        ids: "a token id or a list of them",
      }[kind];
      throw new ModelFileError(file, "wrong-type", `"${key}" must be ${expected}, found ${JSON.stringify(v)}`);
    }
  }
  return config;
}

/**
 * Check the parts of tokenizer.json a tokenizer is built from, so a broken file is named with what is
 * wrong instead of failing inside the tokenizer library.
 */
function checkTokenizerJson(file: string, json: Record<string, unknown>): void {
  const model = json.model;
  if (model === undefined || model === null)
    throw new ModelFileError(file, "missing-field", 'it has no "model" (the tokenization model: BPE, Unigram, ...)');
  if (typeof model !== "object" || Array.isArray(model))
    throw new ModelFileError(file, "wrong-type", `"model" must be an object, found ${JSON.stringify(model)}`);
  const m = model as Record<string, unknown>;
  const type = m.type ?? (m.merges !== undefined ? "BPE" : undefined);
  if (type !== undefined && typeof type !== "string")
    throw new ModelFileError(file, "wrong-type", `"model.type" must be a string, found ${JSON.stringify(type)}`);
  if (m.vocab === undefined || m.vocab === null)
    throw new ModelFileError(file, "missing-field", 'it has no "model.vocab"');
  if (typeof m.vocab !== "object")
    throw new ModelFileError(file, "wrong-type", `"model.vocab" must be an object or a list, found ${typeof m.vocab}`);
  if (Array.isArray(m.vocab)) {
    const bad = m.vocab.findIndex((e) => !Array.isArray(e) || typeof e[0] !== "string" || typeof e[1] !== "number");
    if (bad >= 0) throw new ModelFileError(file, "wrong-type", `"model.vocab[${bad}]" must be a [piece, score] pair`);
  } else {
    const bad = Object.entries(m.vocab as Record<string, unknown>).find(
      ([, id]) => typeof id !== "number" || !Number.isInteger(id) || id < 0,
    );
    if (bad !== undefined)
      throw new ModelFileError(
        file,
        "wrong-type",
        `"model.vocab" maps ${JSON.stringify(bad[0])} to ${JSON.stringify(bad[1])}, not a token id`,
      );
  }
  if (json.added_tokens !== undefined && !Array.isArray(json.added_tokens))
    throw new ModelFileError(file, "wrong-type", '"added_tokens" must be a list');
  if (tokenizerJsonSize(json) === 0) throw new ModelFileError(file, "missing-field", "its vocabulary is empty");
}

/** Build the tokenizer class named in tokenizer_config.json (as AutoTokenizer does). */
export function tokenizerFromFiles(dir: string): transformers.PreTrainedTokenizer {
  const tokenizerFile = join(dir, "tokenizer.json");
  if (!existsSync(tokenizerFile))
    throw new ModelNotFoundError(dir, "it has no tokenizer.json (npov needs the fast-tokenizer file).");
  const tokenizerJson = readJson(tokenizerFile);
  checkTokenizerJson(tokenizerFile, tokenizerJson);
  const configFile = join(dir, "tokenizer_config.json");
  const tokenizerConfig = existsSync(configFile) ? readJson(configFile) : {};
  if (tokenizerConfig.tokenizer_class !== undefined && typeof tokenizerConfig.tokenizer_class !== "string")
    throw new ModelFileError(
      configFile,
      "wrong-type",
      `"tokenizer_class" must be a string, found ${JSON.stringify(tokenizerConfig.tokenizer_class)}`,
    );
  const name = String(tokenizerConfig.tokenizer_class ?? "PreTrainedTokenizer").replace(/Fast$/, "");
  const all = transformers as unknown as Record<string, unknown>;
  const candidate = all[name];
  const cls = (typeof candidate === "function" &&
  (candidate as { prototype: unknown }).prototype instanceof transformers.PreTrainedTokenizer
    ? candidate
    : transformers.PreTrainedTokenizer) as unknown as new (
    json: unknown,
    config: unknown,
  ) => transformers.PreTrainedTokenizer;
  try {
    return new cls(tokenizerJson, tokenizerConfig);
  } catch (cause) {
    throw new ModelFileError(
      tokenizerFile,
      "rejected",
      `the tokenizer library refused it: ${(cause as Error).message}`,
      cause,
    );
  }
}

function transformersJsDtype(config: Record<string, unknown>, base: string): ModelDtype | undefined {
  const tjs = config["transformers.js_config"] as { dtype?: unknown } | undefined;
  const d = tjs?.dtype;
  const value =
    typeof d === "string" ? d : d && typeof d === "object" ? (d as Record<string, unknown>)[base] : undefined;
  return typeof value === "string" && (MODEL_DTYPES as string[]).includes(value) ? (value as ModelDtype) : undefined;
}

/** The dtypes present for `base` in a local folder. */
export function availableDtypes(dir: string, base: string): ModelDtype[] {
  return MODEL_DTYPES.filter((d) => existsSync(join(dir, "onnx", `${base}${DTYPE_SUFFIX[d]}.onnx`)));
}

/** Base names of the graphs a model of this kind may be stored as, in the order they are tried. */
function decoderCandidates(encoderDecoder: boolean, modelFileName: string | undefined): string[] {
  if (modelFileName !== undefined) return [modelFileName];
  return encoderDecoder
    ? ["decoder_model", "decoder_model_merged"]
    : ["model", "decoder_model", "decoder_model_merged"];
}

/**
 * The decoder base name and dtype to load from a local folder: the first of `candidates` (base names such
 * as "model", "decoder_model_merged") that exists in the asked dtype, or -- none asked -- in config.json's
 * `transformers.js_config.dtype`, else fp32, else the only variant it holds (see
 * {@link PretrainedOptions.dtype}). One rule for every npov loader (salience, classifier, generation).
 * @throws ModelNotFoundError naming the files that do exist.
 */
export function resolveVariant(
  idOrPath: string,
  dir: string,
  config: Record<string, unknown>,
  candidates: readonly string[],
  asked: ModelDtype | undefined,
  encoderDecoder: boolean,
): { base: string; dtype: ModelDtype } {
  for (const base of candidates) {
    const present = availableDtypes(dir, base);
    if (present.length === 0) continue;
    const preferred = asked ?? transformersJsDtype(config, base) ?? (present.includes("fp32") ? "fp32" : undefined);
    if (preferred !== undefined) {
      if (present.includes(preferred)) return { base, dtype: preferred };
      continue;
    }
    if (present.length > 1)
      throw new ModelNotFoundError(
        idOrPath,
        `onnx/${base}*.onnx exists as ${present.join(", ")} but not fp32: choose one with the dtype option (--dtype).`,
      );
    return { base, dtype: present[0] as ModelDtype };
  }
  const found = candidates.flatMap((b) => availableDtypes(dir, b).map((d) => `onnx/${b}${DTYPE_SUFFIX[d]}.onnx`));
  throw new ModelNotFoundError(
    idOrPath,
    asked !== undefined && found.length > 0
      ? `no ${asked} file: the folder has ${found.join(", ")}; pass one of their dtypes.`
      : `no ONNX graph found (looked for onnx/${candidates.join("|")}<dtype suffix>.onnx${encoderDecoder ? " and onnx/encoder_model<dtype suffix>.onnx" : ""}).`,
  );
}

/** Whether bytes look like text (UTF-8 or ASCII without NUL or most control characters), not protobuf. */
function looksLikeText(bytes: Uint8Array): boolean {
  const head = bytes.subarray(0, 512);
  let control = 0;
  for (const b of head) {
    if (b === 0) return false;
    if (b < 9 || (b > 13 && b < 32)) control++;
  }
  return head.length > 0 && control <= head.length / 100;
}

/** The typed error for a graph file that could not be read or decoded (see {@link loadGraphFile}). */
function graphFileError(file: string, error: unknown): NpovError {
  if (error instanceof ModelFileError) return error;
  if (error instanceof FileReadError)
    return new ModelFileError(error.file, "unreadable", (error.cause as Error)?.message ?? error.message, error);
  if (error instanceof FileFormatError) {
    const issue = error.issues[0];
    const message = issue?.message ?? error.message;
    const where = issue?.file ?? file;
    // Text first: a Git LFS pointer or an HTML error page also "ends early" for the protobuf decoder.
    let bytes: Uint8Array = new Uint8Array();
    try {
      bytes = readFileSync(where);
    } catch {
      // Unreadable now: report it with the decoder's message.
    }
    if (looksLikeText(bytes)) {
      const lfs = Buffer.from(bytes.subarray(0, 40)).toString("latin1").startsWith("version https://git-lfs");
      return new ModelFileError(
        where,
        "text",
        lfs
          ? "it is a Git LFS pointer, not the model: fetch the real file (git lfs pull in the model's repository)"
          : "it is a text file, not a binary ONNX model",
        error,
      );
    }
    if (/index out of range|ends at \d+ but the file has/.test(message))
      return new ModelFileError(
        where,
        "truncated",
        `the file ends early (${message.replace(/^not an ONNX model: /, "")})`,
        error,
      );
    return new ModelFileError(
      where,
      "not-onnx",
      `it is not an ONNX model (${message.replace(/^not an ONNX model: /, "")})`,
      error,
    );
  }
  return error instanceof NpovError ? error : new ModelFileError(file, "rejected", String(error), error);
}

/**
 * The typed error for a graph file onnxruntime (or transformers.js) refused to load: what is wrong with the
 * file when npov can tell (`empty`, `truncated`, `text`, `not-onnx`, `no-graph`), else `rejected` with
 * onnxruntime's message. Reads the file only on this failure path.
 */
export function graphFileRejection(file: string, error: unknown): ModelFileError {
  try {
    loadGraphFile(file);
  } catch (problem) {
    if (problem instanceof ModelFileError) return problem;
  }
  return new ModelFileError(file, "rejected", `onnxruntime refused it: ${onnxruntimeMessage(error)}`, error);
}

/**
 * Load an ONNX graph file of a model folder (with its external data), refusing what is not a usable graph.
 * @throws ModelFileError: `empty`, `truncated`, `text`, `not-onnx`, `no-graph`, `unreadable`.
 */
export function loadGraphFile(file: string): ModelProto {
  let size: number;
  try {
    size = statSync(file).size;
  } catch (cause) {
    throw new ModelFileError(file, "unreadable", (cause as Error).message, cause);
  }
  if (size === 0) throw new ModelFileError(file, "empty", "the file has 0 bytes");
  let model: ModelProto;
  try {
    model = loadModel(file);
  } catch (error) {
    throw graphFileError(file, error);
  }
  if (model.graph === undefined || model.graph === null || (model.graph.node ?? []).length === 0)
    throw new ModelFileError(
      file,
      looksLikeText(readFileSync(file)) ? "text" : "no-graph",
      "it decodes as an ONNX message but holds no graph",
    );
  if ((model.opsetImport ?? []).length === 0)
    throw new ModelFileError(
      file,
      "truncated",
      "it declares no opset (ONNX files end with it: the end of the file is probably missing)",
    );
  return model;
}

/** How much larger a dtype's weights become in fp32 (npov differentiates fp32 graphs). */
const WIDENING: Readonly<Record<ModelDtype, number>> = {
  fp32: 1,
  fp16: 2,
  q8: 4,
  int8: 4,
  uint8: 4,
  q4: 8,
  q4f16: 8,
  bnb4: 8,
};

/**
 * npov holds each normalised graph in memory as one protobuf message, which cannot exceed 2 GiB: refuse,
 * with a typed error saying so, a graph whose fp32 weights would not fit (instead of a crash deep inside).
 */
function checkGraphSize(dir: string, onnxFiles: readonly string[], dtype: ModelDtype): void {
  const limit = 2 ** 31 - 2 ** 20;
  for (const f of onnxFiles) {
    const path = join(dir, f);
    let bytes = statSync(path).size;
    for (const x of [`${path}_data`, `${path}.data`]) if (existsSync(x)) bytes += statSync(x).size;
    const estimate = bytes * WIDENING[dtype];
    if (estimate > limit)
      throw new UnsupportedModelError(
        dir,
        [f],
        new Error(
          `its weights would take about ${(estimate / 2 ** 30).toFixed(1)} GiB in fp32, and npov holds a graph as one protobuf message (at most 2 GiB); use a smaller model for salience, scoring and tuning (generation with transformers.js is not limited)`,
        ),
      );
  }
}

/**
 * Resolve config, tokenizer and ONNX graphs the way transformers.js does (folder, `env.localModelPath`,
 * cache, or the hub when `env.allowRemoteModels`), for every dtype and both layouts (single `model.onnx`
 * with past inputs; legacy `decoder_model*.onnx`, the merged one with an `If` on `use_cache_branch`), then
 * normalise each graph for differentiation (`normalizeModel`): one fp32 graph per model part, without
 * cache, contrib ops, quantization or int32 ids.
 * A value written as a path (see {@link looksLikeModelPath}) is a folder or a MODEL_NOT_FOUND error with the
 * resolved path: it is never looked up on the hub.
 * @throws ModelNotFoundError when the folder or no file of the asked (or any) dtype exists;
 * ModelFileError when a file exists but is broken (config.json, tokenizer.json, tokenizer_config.json, a
 * graph: empty, truncated, not ONNX, invalid JSON, wrong field types, ...); ModelDownloadError when a hub
 * id's files cannot be downloaded; InvalidValueError on a bad dtype.
 */
export async function loadPretrained(idOrPath: string, options: PretrainedOptions = {}): Promise<PretrainedFiles> {
  if (options.dtype !== undefined && options.dtype !== "auto") parseModelDtype(options.dtype);
  const revision = options.revision ?? "main";
  const local = localModelFolder(idOrPath);
  const meta = local ?? (await hubFolder(idOrPath, ["config.json"], revision));
  if (!existsSync(join(meta, "config.json")))
    throw new ModelNotFoundError(
      idOrPath,
      "it has no config.json (a model id on the hub, or a folder in the transformers.js layout?).",
    );
  const config = readModelConfig(join(meta, "config.json"));
  if (config.model_type === undefined && config.is_encoder_decoder === undefined)
    throw new ModelFileError(
      join(meta, "config.json"),
      "missing-field",
      'it has neither "model_type" (e.g. "t5", "gpt2", "llama") nor "is_encoder_decoder": npov cannot tell an encoder-decoder from a causal LM',
    );
  const encoderDecoder = isEncoderDecoderConfig(config);
  const candidates = decoderCandidates(encoderDecoder, options.modelFileName);
  const asked = options.dtype === undefined || options.dtype === "auto" ? undefined : options.dtype;
  const filesOf = (base: string, dtype: ModelDtype) => {
    const suffix = DTYPE_SUFFIX[dtype];
    return encoderDecoder
      ? [`onnx/encoder_model${suffix}.onnx`, `onnx/${base}${suffix}.onnx`]
      : [`onnx/${base}${suffix}.onnx`];
  };
  let dir: string;
  let dtype: ModelDtype;
  let onnxFiles: string[];
  if (local !== undefined) {
    // A local folder: pick from what it holds.
    const chosen = resolveVariant(idOrPath, local, config, candidates, asked, encoderDecoder);
    dir = local;
    dtype = chosen.dtype;
    onnxFiles = filesOf(chosen.base, dtype);
  } else {
    // A hub id: the asked dtype (default: config.json's, else fp32); layouts tried in order until one is
    // cached or downloads; then the external-data files the graphs name.
    const tried: string[] = [];
    let found: { dir: string; dtype: ModelDtype; files: string[] } | undefined;
    const wanted = candidates.map((base) => {
      const d = asked ?? transformersJsDtype(config, base) ?? "fp32";
      return { dtype: d, files: filesOf(base, d) };
    });
    // A layout already cached wins (no request); otherwise the layouts are downloaded in order.
    const cache = cacheFolder(idOrPath, revision);
    const cachedLayout = wanted.find((w) => w.files.every((f) => existsSync(join(cache, f))));
    if (cachedLayout !== undefined) found = { dir: cache, ...cachedLayout };
    for (const w of cachedLayout === undefined ? wanted : []) {
      pushAll(tried, w.files);
      const folder = await hubFolder(idOrPath, w.files, revision);
      if (w.files.every((f) => existsSync(join(folder, f)))) {
        found = { dir: folder, ...w };
        break;
      }
    }
    if (found === undefined) throw new ModelNotFoundError(idOrPath, `none of ${tried.join(", ")} could be had.`);
    ({ dir, dtype } = found);
    onnxFiles = found.files;
    const extra = onnxFiles.flatMap((f) => externalDataFiles(join(dir, f)).map((x) => join(dirname(f), x)));
    await hubFolder(idOrPath, ["tokenizer.json", "tokenizer_config.json", ...extra], revision);
    if (!existsSync(join(dir, "tokenizer.json")))
      throw new ModelNotFoundError(idOrPath, "it has no tokenizer.json (npov needs the fast-tokenizer file).");
    for (const x of extra)
      if (!existsSync(join(dir, x))) throw new ModelNotFoundError(idOrPath, `external data ${x} could not be had.`);
  }
  for (const f of onnxFiles)
    if (!existsSync(join(dir, f))) throw new ModelNotFoundError(idOrPath, `${join(dir, f)} is missing.`);
  checkGraphSize(dir, onnxFiles, dtype);
  const normalization: Record<string, NormalizationReport> = {};
  const graph = (file: string) => {
    const model = loadGraphFile(join(dir, file));
    if (options.normalize === false) return model;
    const r = normalizeModel(model, { file: join(dir, file) });
    normalization[file] = r.report;
    return r.model;
  };
  const tokenizer = tokenizerFromFiles(dir);
  const common = { dir, config, tokenizer, encoderDecoder, dtype, onnxFiles, normalization };
  if (encoderDecoder)
    return {
      ...common,
      kind: "seq2seq",
      encoder: graph(onnxFiles[0] as string),
      decoder: graph(onnxFiles[1] as string),
    };
  const model = graph(onnxFiles[0] as string);
  return { ...common, kind: modelKind(config, model), model };
}
