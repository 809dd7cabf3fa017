/**
 * Checks of a local model folder in the transformers.js layout, run before transformers.js reads it (a broken
 * file is then a typed error naming it, not an uncatchable failure inside transformers.js), and the mapping of
 * transformers.js's own load failures to typed errors. Shared by every npov component that loads a folder
 * with transformers.js (the local generator, the NLI cross-encoder); each composes the checks in its order.
 */
import { existsSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import type * as transformers from "@huggingface/transformers";
import { NpovError } from "@npov/core";
import {
  ModelDownloadError,
  ModelFileError,
  onnxruntimeMessage,
  UnsupportedModelError,
  VocabularyMismatchError,
} from "./errors.js";
import { graphFileRejection, ModelNotFoundError, readModelConfig, tokenizerFromFiles } from "./pretrained.js";
import { tokenizerSize } from "./vocabulary.js";

/**
 * config.json of a local folder. @throws ModelNotFoundError naming `label` (default: the folder) when there is
 * none; ModelFileError for a broken one
 */
export function readLocalConfig(dir: string, label = dir): Record<string, unknown> {
  if (!existsSync(join(dir, "config.json")))
    throw new ModelNotFoundError(label, "it has no config.json (a folder in the transformers.js layout?).");
  return readModelConfig(join(dir, "config.json"));
}

/**
 * Refuse a config.json without `model_type` (transformers.js needs it to choose the architecture);
 * `examples` are model types to name in the message (e.g. `"t5", "gpt2", "llama"`). @throws ModelFileError
 */
export function checkModelType(dir: string, config: Record<string, unknown>, examples: string): void {
  if (typeof config.model_type !== "string")
    throw new ModelFileError(
      join(dir, "config.json"),
      "missing-field",
      `it has no "model_type" (e.g. ${examples}): transformers.js needs it to choose the architecture`,
    );
}

/**
 * The folder's tokenizer (tokenizer.json), refused when it has ids the model's embedding table
 * (config.json's `vocab_size`) does not cover. @throws ModelFileError, VocabularyMismatchError
 */
export function checkedTokenizer(dir: string, config: Record<string, unknown>): transformers.PreTrainedTokenizer {
  const tokenizer = tokenizerFromFiles(dir);
  const vocab = config.vocab_size;
  const size = tokenizerSize(tokenizer);
  if (typeof vocab === "number" && size > vocab)
    throw new VocabularyMismatchError(dir, size, vocab, "config.json's vocab_size (the embedding table)");
  return tokenizer;
}

/**
 * How many external-data files transformers.js expects for a graph file: its resolveExternalDataFormat of the
 * config's `use_external_data_format` for the file's full name (`model_q4.onnx`), else its base name
 * (`model`), capped at 1,000.
 */
export function externalDataChunks(config: unknown, fullName: string, fileName: string): number {
  if (!config) return 0;
  const value =
    typeof config === "object"
      ? Object.hasOwn(config, fullName)
        ? (config as Record<string, unknown>)[fullName]
        : Object.hasOwn(config, fileName)
          ? (config as Record<string, unknown>)[fileName]
          : 0
      : config;
  const n = Number(value);
  return Number.isInteger(n) && n > 0 ? Math.min(n, 1000) : 0;
}

/**
 * Check the graph files (paths relative to `dir`, named `<base><suffix>.onnx`) are present and not empty, and
 * so are the external-data files config.json's `transformers.js_config.use_external_data_format` announces for
 * them (<file>_data, <file>_data_1, ...): transformers.js looks for those and, when one is missing, fails in a
 * way no caller can catch (the process exits). @throws ModelNotFoundError, ModelFileError
 */
export function checkGraphFiles(
  dir: string,
  config: Record<string, unknown>,
  graphFiles: readonly string[],
  suffix: string,
): void {
  const external = (config["transformers.js_config"] as { use_external_data_format?: unknown } | undefined)
    ?.use_external_data_format;
  for (const f of graphFiles) {
    const path = join(dir, f);
    if (!existsSync(path)) throw new ModelNotFoundError(dir, `${path} is missing.`);
    if (statSync(path).size === 0) throw new ModelFileError(path, "empty", "the file has 0 bytes");
    const baseName = basename(f);
    const chunks = externalDataChunks(external, baseName, baseName.slice(0, -`${suffix}.onnx`.length));
    for (let i = 0; i < chunks; i++) {
      const data = `${path}_data${i === 0 ? "" : `_${i}`}`;
      if (!existsSync(data)) {
        const genai = existsSync(`${path}.data`)
          ? ` (the folder has ${basename(path)}.data, the onnxruntime-genai name: rename it to ${basename(data)})`
          : "";
        throw new ModelNotFoundError(
          dir,
          `${data} is missing: config.json's transformers.js_config.use_external_data_format says ${f} keeps its weights there${genai}.`,
        );
      }
      if (statSync(data).size === 0) throw new ModelFileError(data, "empty", "the file has 0 bytes");
    }
  }
}

/**
 * A transformers.js load failure as a typed error: a graph onnxruntime refused (named, with what is wrong
 * with it), a download that failed, a file missing from the hub or the cache, or else an
 * {@link UnsupportedModelError} carrying transformers.js's message; an NpovError is returned as it is.
 */
export function transformersLoadFailure(
  idOrPath: string,
  dir: string | undefined,
  files: string[],
  error: unknown,
): NpovError {
  if (error instanceof NpovError) return error;
  const message = error instanceof Error ? error.message : String(error);
  const refused = /Load model from (.+?) failed:/s.exec(message);
  if (refused !== null) return graphFileRejection(refused[1] as string, error);
  const cause = (error as { cause?: { code?: string } } | undefined)?.cause;
  if (/fetch failed/i.test(message) || ["ENOTFOUND", "ECONNREFUSED", "ETIMEDOUT"].includes(cause?.code ?? ""))
    return new ModelDownloadError(idOrPath, `${message}${cause?.code ? ` (${cause.code})` : ""}`, error);
  if (/not found locally|Could not locate file|status code 404/i.test(message))
    return new ModelNotFoundError(idOrPath, onnxruntimeMessage(error));
  return new UnsupportedModelError(dir ?? idOrPath, files, error);
}
