/**
 * `MatMulNBits` (weight-only block quantization, 2/4/8 bits) becomes a plain `MatMul` with the
 * dequantized float32 weight as an initializer: W[k, n] = (q[n, k] - zero_point[n, g]) * scale[n, g],
 * with block g = k / block_size; zero points packed (uint8, same bit packing as B), unpacked floats, or
 * the default 2^(bits-1). Exact up to the float32 rounding of each weight. The deprecated `g_idx` input
 * is not covered: ORT's CPU kernel does not treat it as a plain block index (even g_idx[k] = k / block_size
 * changes its output), so a graph with g_idx gets a typed error rather than a guess.
 * float16 models cast A to float32 around the MatMul (ORT's CPU kernel also computes in float32).
 *
 * `FusedMatMul` (alpha, transA, transB) becomes Transpose/MatMul/Mul; transBatchA/transBatchB are not
 * covered (typed error).
 */
import { DataType, type NodeProto, tensorData } from "../proto.js";
import { attrFloat, attrInt, type Emitter, numbersOf, unsupported } from "./context.js";
import { down, up } from "./norm.js";

/** Dequantize MatMulNBits weights to a row-major [K, N] float32 array (each weight rounded once). */
export function dequantizeNBits(options: {
  k: number;
  n: number;
  bits: number;
  blockSize: number;
  packed: Uint8Array;
  scales: ArrayLike<number>;
  zeroPoints?: { packed: Uint8Array } | { values: ArrayLike<number> };
}): Float32Array {
  const { k: K, n: N, bits, blockSize, packed, scales, zeroPoints } = options;
  const blocks = Math.ceil(K / blockSize);
  const blob = (blockSize * bits) / 8;
  const mask = (1 << bits) - 1;
  const zpRow = Math.ceil((blocks * bits) / 8);
  const out = new Float32Array(K * N);
  const defaultZp = 2 ** (bits - 1);
  for (let n = 0; n < N; n++) {
    for (let k = 0; k < K; k++) {
      const block = Math.floor(k / blockSize);
      const inBlock = k - block * blockSize;
      const bit = inBlock * bits;
      const byte = packed[n * blocks * blob + block * blob + (bit >> 3)] as number;
      const q = (byte >> (bit & 7)) & mask;
      const g = block;
      let zp = defaultZp;
      if (zeroPoints !== undefined && "packed" in zeroPoints) {
        const zbit = g * bits;
        zp = ((zeroPoints.packed[n * zpRow + (zbit >> 3)] as number) >> (zbit & 7)) & mask;
      } else if (zeroPoints !== undefined) zp = zeroPoints.values[n * blocks + g] as number;
      out[k * N + n] = (q - zp) * (scales[n * blocks + g] as number);
    }
  }
  return out;
}

export function matMulNBits(e: Emitter, node: NodeProto): string[] {
  const [a, bName, scalesName, zpName, gIdxName, biasName] = node.input as Array<string | undefined>;
  const K = attrInt(node, "K", 0);
  const N = attrInt(node, "N", 0);
  const bits = attrInt(node, "bits", 4);
  const blockSize = attrInt(node, "block_size", 0);
  if (![2, 4, 8].includes(bits)) unsupported(node, "bits", `${bits} bits (2, 4 and 8 are covered)`);
  if (attrInt(node, "weight_prepacked", 0) !== 0)
    unsupported(node, "weight_prepacked", "EP-specific prepacked weights");
  if (K <= 0 || N <= 0 || blockSize <= 0) unsupported(node, "K/N/block_size", "missing or non-positive");
  const b = bName ? e.initializer(bName) : undefined;
  const scales = scalesName ? e.initializer(scalesName) : undefined;
  if (b === undefined || scales === undefined)
    unsupported(node, "B/scales", "the quantized weight and scales must be initializers");
  const blocks = Math.ceil(K / blockSize);
  const bytes = tensorData(b);
  if (!(bytes instanceof Uint8Array)) unsupported(node, "B", "must be uint8");
  if (bytes.length !== N * blocks * ((blockSize * bits) / 8))
    unsupported(
      node,
      "B",
      `has ${bytes.length} bytes, expected N * k_blocks * blob_size = ${N * blocks * ((blockSize * bits) / 8)}`,
    );
  let zeroPoints: { packed: Uint8Array } | { values: number[] } | undefined;
  if (zpName) {
    const zp = e.initializer(zpName);
    if (zp === undefined) unsupported(node, "zero_points", "must be an initializer");
    zeroPoints =
      zp.dataType === DataType.UINT8 ? { packed: Uint8Array.from(numbersOf(zp)) } : { values: numbersOf(zp) };
  }
  if (gIdxName) unsupported(node, "g_idx", "the deprecated g_idx input is not covered");
  // A short scales or zero-point tensor would be read past its end: NaN weights, NaN scores.
  const scaleValues = numbersOf(scales);
  if (scaleValues.length !== N * blocks)
    unsupported(node, "scales", `has ${scaleValues.length} values, expected N * k_blocks = ${N * blocks}`);
  if (zeroPoints !== undefined) {
    const expected = "packed" in zeroPoints ? N * Math.ceil((blocks * bits) / 8) : N * blocks;
    const got = "packed" in zeroPoints ? zeroPoints.packed.length : zeroPoints.values.length;
    if (got !== expected) unsupported(node, "zero_points", `has ${got} values, expected ${expected}`);
  }
  const w = dequantizeNBits({
    k: K,
    n: N,
    bits,
    blockSize,
    packed: bytes,
    scales: scaleValues,
    zeroPoints,
  });
  const weight = e.floats(`${node.name || "MatMulNBits"}/weight`, w, [K, N], DataType.FLOAT);
  const type = scales.dataType ?? DataType.FLOAT;
  let y = e.op("MatMul", [up(e, a as string, type), weight]);
  if (biasName) y = e.op("Add", [y, up(e, biasName, type)]);
  return [down(e, y, type)];
}

/** FusedMatMul(A, B) = alpha * op(A) @ op(B), op = transpose of the last two axes when transA/transB. */
export function fusedMatMul(e: Emitter, node: NodeProto): string[] {
  const [a, b] = node.input as [string, string];
  if (attrInt(node, "transBatchA", 0) !== 0) unsupported(node, "transBatchA", "batch transposition");
  if (attrInt(node, "transBatchB", 0) !== 0) unsupported(node, "transBatchB", "batch transposition");
  const swap = (x: string) => {
    const r = e.rank(node, x);
    if (r < 2) unsupported(node, "transA/transB", `input "${x}" has rank ${r}`);
    const perm = Array.from({ length: r }, (_, i) => i);
    perm[r - 1] = r - 2;
    perm[r - 2] = r - 1;
    return e.op("Transpose", [x], { perm });
  };
  const a2 = attrInt(node, "transA", 0) ? swap(a) : a;
  const b2 = attrInt(node, "transB", 0) ? swap(b) : b;
  let y = e.op("MatMul", [a2, b2]);
  const alpha = attrFloat(node, "alpha", 1);
  if (alpha !== 1) y = e.op("Mul", [y, e.scalar(alpha, e.elemType(node, a))]);
  return [y];
}
