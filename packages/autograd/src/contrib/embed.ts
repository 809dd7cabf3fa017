/**
 * `EmbedLayerNormalization` (BERT/GPT-2 embeddings fused by ORT's transformer optimizer):
 * embedding_sum = word[input_ids] + position[position_ids or 0..S-1] (+ segment[segment_ids]),
 * output = LayerNorm(embedding_sum) * gamma + beta, mask_index = number of ones per row of `mask`
 * (zeros without a mask). The word lookup stays a plain `Gather(word_embedding, input_ids)`, so the
 * embedding can be found and cut like any other. float16 tables are summed and normalized in float32.
 */
import { DataType, makeTensor, type NodeProto } from "../proto.js";
import { attrFloat, attrInt, type Emitter, unsupported } from "./context.js";
import { computeType, down, normalize, up } from "./norm.js";

export function embedLayerNormalization(e: Emitter, node: NodeProto): Array<string | undefined> {
  const [ids, segmentIds, word, position, segment, gamma, beta, mask, positionIds] = node.input.map(
    (x) => x || undefined,
  ) as Array<string | undefined>;
  if (!ids || !word || !position || !gamma)
    unsupported(node, "inputs", "input_ids, word/position embeddings and gamma are required");
  if (!!segmentIds !== !!segment) unsupported(node, "segment_ids/segment_embedding", "one without the other");
  const type = e.elemType(node, word);
  const ct = computeType(type);
  const eps = attrFloat(node, "epsilon", 1e-12);
  const wordRows = e.op("Gather", [word, ids]);
  let positions = positionIds;
  if (!positions) {
    const s = e.op("Reshape", [e.dim(ids, 1), e.ints([], [0])]);
    positions = e.op("Range", [e.ints([0], []), s, e.ints([1], [])]);
  }
  let sum = e.op("Add", [up(e, wordRows, type), up(e, e.op("Gather", [position, positions]), type)]);
  if (segmentIds && segment) sum = e.op("Add", [sum, up(e, e.op("Gather", [segment, segmentIds]), type)]);
  const n = normalize(e, sum, up(e, gamma, type), beta ? up(e, beta, type) : undefined, [-1], eps, ct, false);
  let maskIndex: string | undefined;
  if (node.output[1] && attrInt(node, "mask_index_type", 1) !== 0) {
    maskIndex = mask
      ? e.op("ReduceSum", [e.cast(mask, DataType.INT32), e.ints([1])], { keepdims: 0 })
      : e.op("ConstantOfShape", [e.dim(ids, 0)], {
          value: makeTensor("value", Int32Array.of(0), [1], DataType.INT32),
        });
  }
  return [down(e, n.y, type), maskIndex, down(e, sum, type)];
}
