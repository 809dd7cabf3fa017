/**
 * The graph salience and soft-prompt tuning differentiate: a normalised language model (causal, or an
 * encoder-decoder merged into one graph) with a per-token loss, cut at its word-embedding lookups so that
 * `inputs_embeds` (and for encoder-decoders optionally `decoder_inputs_embeds`) are inputs.
 */

import { NpovError } from "@npov/core";
import * as ort from "onnxruntime-node";
import { convertFloatType } from "./convert.js";
import { UnsupportedModelError, VocabularyMismatchError } from "./errors.js";
import type { PretrainedFiles } from "./pretrained.js";
import { probeTensors, sampleFeeds } from "./probe.js";
import { DataType, type ModelProto } from "./proto.js";
import { appendTokenLoss, cutAtTensor, embeddingTable, findEmbeddingOutput, mergeEncoderDecoder } from "./surgery.js";
import { tokenizerSize } from "./vocabulary.js";

/** A word-embedding table: row `id` is `data[id * dim .. (id + 1) * dim)`. */
export interface EmbeddingTable {
  data: Float32Array | Float64Array;
  dim: number;
}

/** What {@link embeddingGraph} returns. */
export interface EmbeddingGraph {
  /** Inputs: `inputs_embeds` (+ `decoder_inputs_embeds` when cut), ids, masks, labels, label_mask. */
  model: ModelProto;
  /** The table `inputs_embeds` rows come from (the encoder's, for encoder-decoders). */
  table: EmbeddingTable;
  /** The decoder's table (encoder-decoders; equals `table` for causal LMs). */
  decoderTable: EmbeddingTable;
  /** Names of the graph's inputs, to feed exactly those. */
  inputNames: ReadonlySet<string>;
  precision: "float32" | "float64";
}

/**
 * Build the embeddings-in, token-loss-out graph of a loaded model (see the module comment).
 * `decoderEmbeds`: for encoder-decoders, also cut the decoder's lookup (salience attributes to response
 * tokens too). `precision: "float64"` computes the same function in double (for gradient checks): every
 * float becomes double except index arithmetic such as T5's relative-position buckets, which stays float32
 * so the indices are the float32 model's (see {@link convertFloatType}).
 */
export async function embeddingGraph(
  files: PretrainedFiles,
  options: { decoderEmbeds?: boolean; precision?: "float32" | "float64" } = {},
): Promise<EmbeddingGraph> {
  return withModelContext(files, () => buildEmbeddingGraph(files, options));
}

/** Codes of errors {@link withModelContext} rethrows as they are. */
const PASS_THROUGH = new Set([
  "UNSUPPORTED_MODEL",
  "MODEL_FILE_INVALID",
  "VOCABULARY_MISMATCH",
  "CONTEXT_TOO_LONG",
  "UNREPRESENTABLE_TEXT",
  "INVALID_SCORE",
  "FILE_UNWRITABLE",
  "WRONG_MODEL_KIND",
  "LABEL_NOT_FOUND",
]);

/**
 * Run `build` and turn any failure into an {@link UnsupportedModelError} naming the model's folder and
 * files (the cause is kept), so a user learns which model and file could not be used, never a stack trace.
 * Typed errors that already name the model or file (a broken file, a tokenizer that does not fit, an
 * input over the context) pass through unchanged.
 */
export async function withModelContext<T>(
  files: Pick<PretrainedFiles, "dir" | "onnxFiles">,
  build: () => Promise<T>,
): Promise<T> {
  try {
    return await build();
  } catch (error) {
    if (error instanceof NpovError && PASS_THROUGH.has(error.code)) throw error;
    throw new UnsupportedModelError(files.dir, files.onnxFiles, error);
  }
}

async function buildEmbeddingGraph(
  files: PretrainedFiles,
  options: { decoderEmbeds?: boolean; precision?: "float32" | "float64" },
): Promise<EmbeddingGraph> {
  const precision = options.precision ?? "float32";
  let base = files.encoderDecoder
    ? mergeEncoderDecoder(files.encoder as ModelProto, files.decoder as ModelProto)
    : (files.model as ModelProto);
  if (precision === "float64") base = convertFloatType(base, DataType.FLOAT, DataType.DOUBLE);
  const withLoss = await appendTokenLoss(base);
  const table = embeddingTable(withLoss, "input_ids");
  checkVocabulary(files, table, files.encoderDecoder ? "the encoder's embedding table" : "the embedding table");
  let model = await cutAtTensor(withLoss, table.gather, "inputs_embeds");
  let decoderTable: EmbeddingTable = table;
  if (files.encoderDecoder) {
    const dec = embeddingTable(model, "decoder_input_ids");
    checkVocabulary(files, dec, "the decoder's embedding table");
    // T5 ties the decoder's table to the encoder's (each exported file has a copy): keep one in memory.
    const tied =
      dec.dim === table.dim && dec.data.length === table.data.length && dec.data.every((v, i) => v === table.data[i]);
    decoderTable = tied ? table : { data: dec.data, dim: dec.dim };
    if (options.decoderEmbeds)
      model = await cutAtTensor(model, findEmbeddingOutput(model, "decoder_input_ids"), "decoder_inputs_embeds");
  }
  return {
    model,
    table: { data: table.data, dim: table.dim },
    decoderTable,
    inputNames: new Set((model.graph?.input ?? []).map((v) => v.name ?? "")),
    precision,
  };
}

/** What {@link classifierEmbeddingGraph} returns. */
export interface ClassifierEmbeddingGraph {
  /** Inputs: `inputs_embeds` and whatever else the classifier reads (ids for shapes, mask, token types); output `logits`. */
  model: ModelProto;
  /** The word-embedding table `inputs_embeds` rows come from. */
  table: EmbeddingTable;
  /** Names of the graph's inputs, to feed exactly those. */
  inputNames: ReadonlySet<string>;
  /** Width of `logits` (the number of labels). */
  labels: number;
  precision: "float32" | "float64";
}

/**
 * The embeddings-in, label-logits-out graph of a loaded sequence classifier (an NLI cross-encoder): the
 * normalised graph cut at its word-embedding lookup, so `inputs_embeds` is an input and the gradient of a
 * label's logit with respect to it can be taken (gradient x input salience). Position and token-type
 * embeddings stay inside the graph. `precision: "float64"` computes the same function in double.
 * @throws UnsupportedModelError (naming the folder and files) when the graph has no word-embedding lookup or
 * no `logits` output of rank 2; VocabularyMismatchError.
 */
export async function classifierEmbeddingGraph(
  files: PretrainedFiles,
  options: { precision?: "float32" | "float64" } = {},
): Promise<ClassifierEmbeddingGraph> {
  return withModelContext(files, async () => {
    const precision = options.precision ?? "float32";
    if (files.model === undefined)
      throw new UnsupportedModelError(files.dir, files.onnxFiles, new Error("no classifier graph is loaded"));
    let base = files.model;
    if (precision === "float64") base = convertFloatType(base, DataType.FLOAT, DataType.DOUBLE);
    const feeds = sampleFeeds(base, 3);
    const logits = (await probeTensors(base, ["logits"], feeds)).get("logits");
    if (logits === undefined || logits.dims.length !== 2)
      throw new Error(
        `its graph has no "logits" output of shape [batch, labels]${logits ? ` (found ${logits.dims.length} dimensions)` : ""}: it is not a sequence classifier`,
      );
    const table = embeddingTable(base, "input_ids");
    checkVocabulary(files, table, "the embedding table");
    const model = await cutAtTensor(base, table.gather, "inputs_embeds");
    return {
      model,
      table: { data: table.data, dim: table.dim },
      inputNames: new Set((model.graph?.input ?? []).map((v) => v.name ?? "")),
      labels: logits.dims[1] as number,
      precision,
    };
  });
}

/**
 * Every id the tokenizer can produce must have a row in the embedding table: otherwise a lookup reads
 * past the table (onnxruntime fails, or a copied row comes out empty and the scores are meaningless).
 * @throws VocabularyMismatchError
 */
function checkVocabulary(
  files: Pick<PretrainedFiles, "dir" | "tokenizer">,
  table: { data: ArrayLike<number>; dim: number },
  where: string,
): void {
  const rows = Math.floor(table.data.length / table.dim);
  const size = tokenizerSize(files.tokenizer);
  if (size > rows) throw new VocabularyMismatchError(files.dir, size, rows, where);
}

/** Only the feeds the graph takes (models differ in whether they read ids, masks or positions). */
export function feedsFor(
  graph: Pick<EmbeddingGraph, "inputNames">,
  feeds: Record<string, ort.Tensor | undefined>,
): Record<string, ort.Tensor> {
  const out: Record<string, ort.Tensor> = {};
  for (const [name, tensor] of Object.entries(feeds))
    if (tensor !== undefined && graph.inputNames.has(name)) out[name] = tensor;
  return out;
}

/** An int64 tensor from numbers. */
export function int64Tensor(values: readonly number[], dims: readonly number[]): ort.Tensor {
  return new ort.Tensor(
    "int64",
    BigInt64Array.from(values, (v) => BigInt(v)),
    dims,
  );
}
