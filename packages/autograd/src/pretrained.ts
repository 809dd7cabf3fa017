/**
 * Resolving a pretrained model the transformers.js way: a local folder, a folder under
 * `env.localModelPath`, a previously downloaded copy in the cache, or (when `env.allowRemoteModels`)
 * files fetched from the model hub and cached. The tokenizer is built from tokenizer.json and
 * tokenizer_config.json exactly as transformers.js's AutoTokenizer does, without touching its global env.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import * as transformers from "@huggingface/transformers";
import { FileReadError, NpovError, writeFileAtomic } from "@npov/core";
import { dequantizeModel } from "./dequantize.js";
import { loadModel, type ModelProto } from "./proto.js";

/** A model folder that cannot be found locally and may not be downloaded. */
export class ModelNotFoundError extends NpovError {
  constructor(id: string, detail: string) {
    super("MODEL_NOT_FOUND", `Model "${id}" not found: ${detail}`);
  }
}

/** Which weights file to load: fp32 (default), fp16, or a quantized variant (dequantized for gradients). */
export type ModelDtype = "fp32" | "fp16" | "q8" | "int8" | "uint8";
const SUFFIX: Record<ModelDtype, string> = {
  fp32: "",
  fp16: "_fp16",
  q8: "_quantized",
  int8: "_int8",
  uint8: "_uint8",
};

/** A resolved model: its folder, config, tokenizer and fp32 ONNX graphs. */
export interface PretrainedFiles {
  dir: string;
  config: Record<string, unknown>;
  tokenizer: transformers.PreTrainedTokenizer;
  encoderDecoder: boolean;
  /** Causal LM graph, or the encoder and decoder graphs. */
  model?: ModelProto;
  encoder?: ModelProto;
  decoder?: ModelProto;
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

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

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
    throw new ModelNotFoundError(
      id,
      `could not download ${url}: ${(cause as Error).message}${(cause as Error).cause ? ` (${String((cause as Error).cause)})` : ""}`,
    );
  }
  if (response.status === 404) return false;
  if (!response.ok) throw new ModelNotFoundError(id, `${url} answered ${response.status} ${response.statusText}`);
  writeFileAtomic(target, new Uint8Array(await response.arrayBuffer()));
  return true;
}

/** The folder holding `idOrPath`'s files (downloading `files` when allowed and missing). */
async function modelFolder(idOrPath: string, files: string[], revision: string): Promise<string> {
  if (isDir(idOrPath)) return idOrPath;
  // Something written as a path (absolute, ./, ../) is a folder or nothing: never a hub id.
  if (isAbsolute(idOrPath) || /^\.\.?[\\/]/.test(idOrPath)) throw new ModelNotFoundError(idOrPath, "no such folder.");
  const env = transformers.env as unknown as {
    allowLocalModels: boolean;
    localModelPath: string;
    allowRemoteModels: boolean;
    cacheDir: string | null;
  };
  if (env.allowLocalModels && isDir(join(env.localModelPath, idOrPath))) return join(env.localModelPath, idOrPath);
  const cached = join(env.cacheDir ?? join(process.cwd(), ".cache"), idOrPath);
  if (files.every((f) => existsSync(join(cached, f)))) return cached;
  if (!env.allowRemoteModels)
    throw new ModelNotFoundError(
      idOrPath,
      "it is not a folder, not under env.localModelPath, not cached, and env.allowRemoteModels is false. Give a local model folder.",
    );
  for (const f of files) if (!existsSync(join(cached, f))) await download(idOrPath, f, join(cached, f), revision);
  // External data, if the model has it.
  for (const f of files.filter((x) => x.endsWith(".onnx")))
    if (!existsSync(join(cached, `${f}_data`)))
      await download(idOrPath, `${f}_data`, join(cached, `${f}_data`), revision);
  return cached;
}

function readJson(file: string): Record<string, unknown> {
  try {
    return JSON.parse(readFileSync(file, "utf8"));
  } catch (cause) {
    throw new FileReadError(file, cause);
  }
}

/** Build the tokenizer class named in tokenizer_config.json (as AutoTokenizer does). */
export function tokenizerFromFiles(dir: string): transformers.PreTrainedTokenizer {
  const tokenizerJson = readJson(join(dir, "tokenizer.json"));
  const tokenizerConfig = existsSync(join(dir, "tokenizer_config.json"))
    ? readJson(join(dir, "tokenizer_config.json"))
    : {};
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
  return new cls(tokenizerJson, tokenizerConfig);
}

/** Resolve config, tokenizer and ONNX graphs (fp16 and quantized files are converted to fp32). */
export async function loadPretrained(
  idOrPath: string,
  options: { dtype?: ModelDtype; revision?: string } = {},
): Promise<PretrainedFiles> {
  const dtype = options.dtype ?? "fp32";
  const suffix = SUFFIX[dtype];
  if (suffix === undefined)
    throw new ModelNotFoundError(idOrPath, `unsupported dtype "${dtype}"; use fp32, fp16, q8, int8 or uint8.`);
  const revision = options.revision ?? "main";
  const meta = await modelFolder(idOrPath, ["config.json"], revision);
  const config = readJson(join(meta, "config.json"));
  const encoderDecoder = config.is_encoder_decoder === true || SEQ2SEQ_TYPES.has(String(config.model_type));
  const onnxFiles = encoderDecoder
    ? [`onnx/encoder_model${suffix}.onnx`, `onnx/decoder_model${suffix}.onnx`]
    : [`onnx/model${suffix}.onnx`];
  const dir = await modelFolder(idOrPath, ["config.json", "tokenizer.json", ...onnxFiles], revision);
  for (const f of onnxFiles)
    if (!existsSync(join(dir, f))) throw new ModelNotFoundError(idOrPath, `${join(dir, f)} is missing.`);
  const fp32 = (file: string) => {
    const model = loadModel(join(dir, file));
    return dtype === "fp32" ? model : dequantizeModel(model).model;
  };
  const tokenizer = tokenizerFromFiles(dir);
  return encoderDecoder
    ? {
        dir,
        config,
        tokenizer,
        encoderDecoder,
        encoder: fp32(onnxFiles[0] as string),
        decoder: fp32(onnxFiles[1] as string),
      }
    : { dir, config, tokenizer, encoderDecoder, model: fp32(onnxFiles[0] as string) };
}
