/**
 * The graph salience and soft-prompt tuning differentiate: a normalised language model (causal, or an
 * encoder-decoder merged into one graph) with a per-token loss, cut at its word-embedding lookups so that
 * `inputs_embeds` (and for encoder-decoders optionally `decoder_inputs_embeds`) are inputs.
 */
import * as ort from "onnxruntime-node";
import { convertFloatType } from "./convert.js";
import { UnsupportedModelError } from "./errors.js";
import type { PretrainedFiles } from "./pretrained.js";
import { DataType, type ModelProto } from "./proto.js";
import { appendTokenLoss, cutAtTensor, embeddingTable, findEmbeddingOutput, mergeEncoderDecoder } from "./surgery.js";

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

/**
 * Run `build` and turn any failure into an {@link UnsupportedModelError} naming the model's folder and
 * files (the cause is kept), so a user learns which model and file could not be used, never a stack trace.
 */
export async function withModelContext<T>(
  files: Pick<PretrainedFiles, "dir" | "onnxFiles">,
  build: () => Promise<T>,
): Promise<T> {
  try {
    return await build();
  } catch (error) {
    if (error instanceof UnsupportedModelError) throw error;
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
  let model = await cutAtTensor(withLoss, table.gather, "inputs_embeds");
  let decoderTable: EmbeddingTable = table;
  if (files.encoderDecoder) {
    const dec = embeddingTable(model, "decoder_input_ids");
    decoderTable = { data: dec.data, dim: dec.dim };
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
