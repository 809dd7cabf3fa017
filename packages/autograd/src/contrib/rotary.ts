/**
 * Rotary position embedding (`RotaryEmbedding`, and the fused rotary of `GroupQueryAttention`):
 * for the first `rotary_dim` channels of each head, pairs (x1, x2) become (x1 cos - x2 sin, x2 cos + x1 sin)
 * -- pairs are (i, i + rotary_dim/2) by default, (2i, 2i + 1) when interleaved; the remaining channels pass
 * through. cos/sin come from the caches, gathered at the position ids.
 *
 * RotaryEmbedding covers 3-D (batch, seq, heads*head_size) and 4-D (batch, heads, seq, head_size) inputs,
 * position_ids of shape (batch, seq) or (1) (an offset) and 2-D caches (max_position, rotary_dim/2).
 * `is_packed_batching`, a `scale` other than 1 and 3-D caches (newer ORT, no position_ids) raise a typed
 * error.
 */
import { DataType, type NodeProto } from "../proto.js";
import { attrFloat, attrInt, type Emitter, unsupported } from "./context.js";
import { down, up } from "./norm.js";

/**
 * Rotate x (rank 4, head channels last, compute type) with cos/sin broadcastable to x[..., :half].
 * `half` is a 1-D int64 tensor holding rotary_dim / 2.
 */
export function rotate(e: Emitter, x: string, cos: string, sin: string, half: string, interleaved: boolean): string {
  const rot = e.op("Mul", [half, e.ints([2])]);
  const xr = e.slice(x, -1, 0, rot);
  const rest = e.slice(x, -1, rot, Number.MAX_SAFE_INTEGER);
  let rotated: string;
  if (interleaved) {
    const pairs = e.op("Reshape", [xr, e.ints([0, 0, 0, -1, 2])]);
    const [xe, xo] = e.split(pairs, 4, [1, 1], 2) as [string, string];
    const c = e.unsqueeze(cos, [-1]);
    const s = e.unsqueeze(sin, [-1]);
    const re = e.op("Sub", [e.op("Mul", [xe, c]), e.op("Mul", [xo, s])]);
    const ro = e.op("Add", [e.op("Mul", [xo, c]), e.op("Mul", [xe, s])]);
    rotated = e.op("Reshape", [e.op("Concat", [re, ro], { axis: 4 }), e.ints([0, 0, 0, -1])]);
  } else {
    const x1 = e.slice(x, -1, 0, half);
    const x2 = e.slice(x, -1, half, rot);
    const r1 = e.op("Sub", [e.op("Mul", [x1, cos]), e.op("Mul", [x2, sin])]);
    const r2 = e.op("Add", [e.op("Mul", [x2, cos]), e.op("Mul", [x1, sin])]);
    rotated = e.op("Concat", [r1, r2], { axis: -1 });
  }
  return e.op("Concat", [rotated, rest], { axis: -1 });
}

/** cos/sin rows for int64 positions [B, S] from 2-D caches, cast to the compute type: [B, S, half]. */
export function gatherCaches(e: Emitter, cosCache: string, sinCache: string, positions: string, type: number) {
  return {
    cos: up(e, e.op("Gather", [cosCache, positions]), type),
    sin: up(e, e.op("Gather", [sinCache, positions]), type),
  };
}

export function rotaryEmbedding(e: Emitter, node: NodeProto): string[] {
  const [input, positionIds, cosCache, sinCache] = node.input as [string, string | undefined, string, string];
  if (attrInt(node, "is_packed_batching", 0) !== 0) unsupported(node, "is_packed_batching", "packed batching");
  if (attrFloat(node, "scale", 1) !== 1) unsupported(node, "scale", "a scale other than 1");
  const interleaved = attrInt(node, "interleaved", 0) !== 0;
  const numHeads = attrInt(node, "num_heads", 0);
  const rotaryDim = attrInt(node, "rotary_embedding_dim", 0);
  const type = e.elemType(node, input);
  const rank = e.rank(node, input);
  if (rank !== 3 && rank !== 4) unsupported(node, "input", `rank ${rank} (3 or 4 is covered)`);
  const half = rotaryDim > 0 ? e.ints([rotaryDim / 2]) : e.dim(cosCache, -1);
  const x = up(e, input, type);
  // Work in a 4-D layout with head channels last: [B, S, N, H] for 3-D input, [B, N, S, H] for 4-D.
  let x4 = x;
  if (rank === 3) {
    if (rotaryDim > 0 && numHeads <= 0)
      unsupported(node, "num_heads", "rotary_embedding_dim is set, so num_heads is required for 3-D input");
    const shape =
      numHeads > 0
        ? e.ints([0, 0, numHeads, -1])
        : e.op("Concat", [e.ints([0, 0, -1]), e.op("Mul", [e.dim(cosCache, -1), e.ints([2])])], { axis: 0 });
    x4 = e.op("Reshape", [x, shape]);
  }
  if (e.rank(node, cosCache) !== 2)
    unsupported(node, "cos_cache", "only 2-D caches gathered by position_ids are covered");
  if (!positionIds) unsupported(node, "position_ids", "2-D caches need position_ids");
  let positions = e.cast(positionIds, DataType.INT64);
  if (e.rank(node, positionIds) === 1) {
    // An offset: positions offset + [0, S) for every batch row.
    const seqAxis = rank === 3 ? 1 : 2;
    const s = e.op("Squeeze", [e.dim(input, seqAxis), e.ints([0])]);
    const range = e.op("Range", [e.ints([0], []), s, e.ints([1], [])]);
    positions = e.unsqueeze(e.op("Add", [range, positions]), [0]);
  }
  const { cos, sin } = gatherCaches(e, cosCache, sinCache, positions, type);
  // [B, S, half] -> broadcast over heads.
  const axis = rank === 3 ? 2 : 1;
  const y4 = rotate(e, x4, e.unsqueeze(cos, [axis]), e.unsqueeze(sin, [axis]), half, interleaved);
  const y = rank === 3 ? e.op("Reshape", [y4, e.op("Shape", [input])]) : y4;
  return [down(e, y, type)];
}
