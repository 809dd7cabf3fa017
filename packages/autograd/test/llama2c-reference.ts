// Test-only reference implementations written from ../shared/models/stories260K/README.md (not from the
// importer): a float64 forward pass of a llama2.c checkpoint and llama2.c's tokenizer encoding.
import type { Llama2cCheckpoint, Llama2cVocab } from "@npov/autograd";

/** Per-position logits for `tokens` (llama2.c forward, one position at a time with a KV cache). */
export function referenceLogits(ckpt: Llama2cCheckpoint, tokens: number[]): Float64Array[] {
  const { dim, hiddenDim, nLayers, nHeads, nKvHeads, vocabSize, sharedClassifier } = ckpt.header;
  const hs = dim / nHeads;
  const kvDim = (dim * nKvHeads) / nHeads;
  const kvMul = nHeads / nKvHeads;
  const w = (n: string) => ckpt.tensors.get(n) as Float32Array;
  const matmul = (x: Float64Array, W: Float32Array, offset: number, n: number, d: number) => {
    const out = new Float64Array(d);
    for (let i = 0; i < d; i++) {
      let s = 0;
      for (let j = 0; j < n; j++) s += (W[offset + i * n + j] as number) * (x[j] as number);
      out[i] = s;
    }
    return out;
  };
  const rmsnorm = (x: Float64Array, W: Float32Array, offset: number) => {
    let ss = 0;
    for (const v of x) ss += v * v;
    const scale = 1 / Math.sqrt(ss / x.length + 1e-5);
    return x.map((v, i) => (W[offset + i] as number) * v * scale);
  };
  const keys: Float64Array[][] = Array.from({ length: nLayers }, () => []);
  const values: Float64Array[][] = Array.from({ length: nLayers }, () => []);
  const result: Float64Array[] = [];
  tokens.forEach((token, pos) => {
    let x = Float64Array.from(w("token_embedding").subarray(token * dim, (token + 1) * dim));
    for (let l = 0; l < nLayers; l++) {
      const xb = rmsnorm(x, w("rms_att"), l * dim);
      const q = matmul(xb, w("wq"), l * dim * dim, dim, dim);
      const k = matmul(xb, w("wk"), l * kvDim * dim, dim, kvDim);
      const v = matmul(xb, w("wv"), l * kvDim * dim, dim, kvDim);
      // RoPE on pairs (2i, 2i+1) with frequency 10000^(-2i/head_size) (README).
      for (let i = 0; i < dim; i += 2) {
        const freq = 1 / 10000 ** ((i % hs) / hs);
        const c = Math.cos(pos * freq);
        const s = Math.sin(pos * freq);
        for (const vec of i < kvDim ? [q, k] : [q]) {
          const a = vec[i] as number;
          const b = vec[i + 1] as number;
          vec[i] = a * c - b * s;
          vec[i + 1] = a * s + b * c;
        }
      }
      keys[l]!.push(k);
      values[l]!.push(v);
      const att = new Float64Array(dim);
      for (let h = 0; h < nHeads; h++) {
        const kvh = Math.floor(h / kvMul);
        const scores = keys[l]!.map((kk) => {
          let s = 0;
          for (let i = 0; i < hs; i++) s += (q[h * hs + i] as number) * (kk[kvh * hs + i] as number);
          return s / Math.sqrt(hs);
        });
        const m = Math.max(...scores);
        const e = scores.map((s) => Math.exp(s - m));
        const z = e.reduce((a, b) => a + b, 0);
        e.forEach((p, t) => {
          for (let i = 0; i < hs; i++)
            att[h * hs + i] = (att[h * hs + i] as number) + (p / z) * (values[l]![t]![kvh * hs + i] as number);
        });
      }
      const o = matmul(att, w("wo"), l * dim * dim, dim, dim);
      x = x.map((v, i) => v + (o[i] as number));
      const xf = rmsnorm(x, w("rms_ffn"), l * dim);
      const h1 = matmul(xf, w("w1"), l * hiddenDim * dim, dim, hiddenDim);
      const h3 = matmul(xf, w("w3"), l * hiddenDim * dim, dim, hiddenDim);
      const g = h1.map((a, i) => (a / (1 + Math.exp(-a))) * (h3[i] as number));
      const down = matmul(g, w("w2"), l * dim * hiddenDim, hiddenDim, dim);
      x = x.map((v, i) => v + (down[i] as number));
    }
    x = rmsnorm(x, w("rms_final"), 0);
    result.push(matmul(x, sharedClassifier ? w("token_embedding") : w("wcls"), 0, dim, vocabSize));
  });
  return result;
}

/** llama2.c's encode: dummy prefix space, characters (or their UTF-8 bytes + 3), greedy best-score merges. */
export function referenceEncode(vocab: Llama2cVocab, text: string, bos = true): number[] {
  const index = new Map<string, number>();
  vocab.tokens.forEach((t, i) => {
    if (!index.has(t)) index.set(t, i);
  });
  const ids: number[] = [];
  if (bos) ids.push(1);
  if (text.length > 0) ids.push(index.get(" ") as number);
  for (const ch of text) {
    const id = index.get(ch);
    if (id !== undefined) ids.push(id);
    else for (const byte of new TextEncoder().encode(ch)) ids.push(byte + 3);
  }
  for (;;) {
    let best = Number.NEGATIVE_INFINITY;
    let at = -1;
    let merged = -1;
    for (let i = bos ? 1 : 0; i + 1 < ids.length; i++) {
      const id = index.get((vocab.tokens[ids[i] as number] as string) + (vocab.tokens[ids[i + 1] as number] as string));
      if (id !== undefined && (vocab.scores[id] as number) > best) {
        best = vocab.scores[id] as number;
        at = i;
        merged = id;
      }
    }
    if (at < 0) break;
    ids.splice(at, 2, merged);
  }
  return ids;
}
