/**
 * Word vectors the project makes: skip-gram with negative sampling (SGNS) trained on the text available
 * here, where each sentence's context also includes the words of its paraphrases (knowledge-base
 * paraphrase clusters are sentences that say the same thing), so words used interchangeably across
 * paraphrases get close vectors. Seeded and deterministic; stored as vocab.json + vectors.bin (float32).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import {
  createRng,
  FileFormatError,
  InvalidValueError,
  NotTextError,
  readJsonFile,
  repoPath,
  requireArray,
  requireNumber,
  requireRecord,
  segmentWords,
  writeFileAtomic,
} from "@npov/core";
import { readBinary } from "./content.js";

/** Unit-length word vectors. */
export interface WordVectors {
  dim: number;
  index: Map<string, number>;
  /** Row-major [words x dim], each row L2-normalized. */
  data: Float32Array;
}

/**
 * Check the shape of word vectors (dim, an index Map, data of words x dim floats); cheap (no pass over the
 * words). @throws InvalidValueError
 */
export function checkWordVectors(value: unknown, path = "vectors"): WordVectors {
  const v = requireRecord(value, path, "word vectors {dim, index, data}");
  const dim = requireNumber(v.dim, `${path}.dim`, { min: 1, integer: true });
  if (!(v.index instanceof Map)) throw new InvalidValueError(`${path}.index`, "must be a Map from word to row.");
  if (!(v.data instanceof Float32Array) || v.data.length !== v.index.size * dim)
    throw new InvalidValueError(`${path}.data`, `must be a Float32Array of ${v.index.size} words x ${dim} values.`);
  // Similarities are dot products, so rows must be unit length (checked once per data array).
  if (!unitRows.has(v.data)) {
    for (let r = 0; r < v.index.size; r++) {
      let norm = 0;
      for (let k = 0; k < dim; k++) norm += (v.data[r * dim + k] as number) ** 2;
      if (!(Math.abs(Math.sqrt(norm) - 1) <= 1e-3))
        throw new InvalidValueError(
          `${path}.data`,
          `row ${r} has length ${Math.sqrt(norm)}; every word vector must have length 1 (divide each row by its norm).`,
        );
    }
    unitRows.add(v.data);
  }
  return value as WordVectors;
}

/** Data arrays whose rows were checked to be unit length. */
const unitRows = new WeakSet<Float32Array>();

/** The row of a word, or undefined; a corrupt index entry is an error, never a NaN similarity. */
function rowOf(v: WordVectors, word: string): number | undefined {
  const i = v.index.get(word);
  if (i === undefined) return undefined;
  if (!Number.isInteger(i) || i < 0 || i >= v.index.size)
    throw new InvalidValueError(`vectors.index.get(${JSON.stringify(word)})`, `must be a row in [0, ${v.index.size}).`);
  return i;
}

/** Cosine similarity of two words, or undefined when either is unknown. @throws InvalidValueError, NotTextError */
export function cosine(v: WordVectors, a: string, b: string): number | undefined {
  checkWordVectors(v);
  if (typeof a !== "string") throw new NotTextError("a", a);
  if (typeof b !== "string") throw new NotTextError("b", b);
  return cosineUnchecked(v, a, b);
}

/** {@link cosine} without the checks of `v`'s shape and the words' types (inner loops). @internal */
export function cosineUnchecked(v: WordVectors, a: string, b: string): number | undefined {
  const i = rowOf(v, a);
  const j = rowOf(v, b);
  if (i === undefined || j === undefined) return undefined;
  let s = 0;
  for (let k = 0; k < v.dim; k++) s += (v.data[i * v.dim + k] as number) * (v.data[j * v.dim + k] as number);
  // Unit rows give [-1, 1] up to rounding; never let rounding make a similarity exceed 1.
  return Math.max(-1, Math.min(1, s));
}

/** The `k` nearest words of `word` (excluding itself), most similar first. @throws InvalidValueError, NotTextError */
export function nearest(v: WordVectors, word: string, k = 10): Array<{ word: string; similarity: number }> {
  checkWordVectors(v);
  if (typeof word !== "string") throw new NotTextError("word", word);
  requireNumber(k, "k", { min: 0, integer: true });
  const words = [...v.index.keys()];
  return words
    .filter((w) => w !== word)
    .map((w) => ({ word: w, similarity: cosine(v, word, w) ?? -1 }))
    .sort((a, b) => b.similarity - a.similarity || (a.word < b.word ? -1 : 1))
    .slice(0, k);
}

export interface VectorTrainingOptions {
  dim?: number;
  window?: number;
  negative?: number;
  epochs?: number;
  minCount?: number;
  lr?: number;
  seed?: number;
}

const lower = (text: string) => segmentWords(text).map((w) => w.lower);

/**
 * Train SGNS vectors. `groups`: sets of sentences that say the same thing (a single sentence is a group of
 * one); pairs (word, context) come from the sentence's window and, across paraphrases, from every word of
 * the other sentences of the group.
 * @throws InvalidValueError for bad groups or options, or when no word occurs `minCount` times
 */
export function trainWordVectors(
  groups: ReadonlyArray<readonly string[]>,
  options: VectorTrainingOptions = {},
): WordVectors {
  requireArray(groups, "groups", "an array of sentence groups (arrays of strings)").forEach((g, i) => {
    requireArray(g, `groups[${i}]`, "an array of sentences").forEach((t, j) => {
      if (typeof t !== "string") throw new NotTextError(`groups[${i}][${j}]`, t);
    });
  });
  const o = requireRecord(options, "options", "an object of training options") as VectorTrainingOptions;
  const dim = requireNumber(o.dim ?? 48, "options.dim", { min: 1, max: 1024, integer: true });
  const window = requireNumber(o.window ?? 4, "options.window", { min: 0, max: 1000, integer: true });
  const negative = requireNumber(o.negative ?? 5, "options.negative", { min: 0, max: 100, integer: true });
  const epochs = requireNumber(o.epochs ?? 5, "options.epochs", { min: 1, max: 1000, integer: true });
  const minCount = requireNumber(o.minCount ?? 3, "options.minCount", { min: 1, integer: true });
  const lr0 = requireNumber(o.lr ?? 0.025, "options.lr", { min: 0, max: 10, above: true });
  if (o.seed !== undefined) requireNumber(o.seed, "options.seed", { integer: true });
  const rng = createRng(o.seed ?? 0);
  const tokenized = groups.map((g) => g.map(lower));
  const counts = new Map<string, number>();
  for (const g of tokenized) for (const s of g) for (const w of s) counts.set(w, (counts.get(w) ?? 0) + 1);
  const vocab = [...counts.entries()]
    .filter(([, c]) => c >= minCount)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .map(([w]) => w);
  if (vocab.length === 0)
    throw new InvalidValueError(
      "groups",
      `no word occurs ${minCount} times or more: give more text or lower minCount.`,
    );
  const index = new Map(vocab.map((w, i) => [w, i]));
  // Unigram^0.75 table for negative sampling.
  const table: number[] = [];
  const total = vocab.reduce((a, w) => a + (counts.get(w) as number) ** 0.75, 0);
  vocab.forEach((w, i) => {
    const n = Math.max(1, Math.round(((counts.get(w) as number) ** 0.75 / total) * 1e6));
    for (let k = 0; k < n; k++) table.push(i);
  });
  const V = vocab.length;
  const input = Float32Array.from({ length: V * dim }, () => (rng.next() - 0.5) / dim);
  const output = new Float32Array(V * dim);
  const pairs: Array<[number, number]> = [];
  for (const g of tokenized) {
    const ids = g.map((s) => s.map((w) => index.get(w)).filter((i): i is number => i !== undefined));
    ids.forEach((s, si) => {
      s.forEach((w, k) => {
        for (let c = Math.max(0, k - window); c <= Math.min(s.length - 1, k + window); c++)
          if (c !== k) pairs.push([w, s[c] as number]);
        // Across paraphrases: every word of the other sentences of the group is a context.
        ids.forEach((other, oi) => {
          if (oi !== si) for (const c of other) if (c !== w) pairs.push([w, c]);
        });
      });
    });
  }
  const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));
  const grad = new Float32Array(dim);
  const steps = epochs * pairs.length;
  let step = 0;
  for (let e = 0; e < epochs; e++) {
    for (const [w, c] of rng.shuffle(pairs)) {
      const lr = lr0 * Math.max(1e-4, 1 - step++ / steps);
      grad.fill(0);
      for (let n = 0; n <= negative; n++) {
        const target = n === 0 ? c : (table[rng.int(table.length)] as number);
        if (n > 0 && target === c) continue;
        const label = n === 0 ? 1 : 0;
        let dot = 0;
        for (let k = 0; k < dim; k++) dot += (input[w * dim + k] as number) * (output[target * dim + k] as number);
        const g = (label - sigmoid(dot)) * lr;
        for (let k = 0; k < dim; k++) {
          grad[k] = (grad[k] as number) + g * (output[target * dim + k] as number);
          output[target * dim + k] = (output[target * dim + k] as number) + g * (input[w * dim + k] as number);
        }
      }
      for (let k = 0; k < dim; k++) input[w * dim + k] = (input[w * dim + k] as number) + (grad[k] as number);
    }
  }
  for (let i = 0; i < V; i++) {
    let n = 0;
    for (let k = 0; k < dim; k++) n += (input[i * dim + k] as number) ** 2;
    n = Math.sqrt(n) || 1;
    for (let k = 0; k < dim; k++) input[i * dim + k] = (input[i * dim + k] as number) / n;
  }
  return { dim, index, data: input };
}

/** Save as `vocab.json` (words in row order) and `vectors.bin` (float32 little-endian), atomically. */
export function saveWordVectors(dir: string, v: WordVectors): void {
  if (typeof dir !== "string") throw new NotTextError("dir", dir);
  checkWordVectors(v);
  writeFileAtomic(
    join(dir, "vocab.json"),
    `${JSON.stringify({ format: "npov-vectors/1", dim: v.dim, words: [...v.index.keys()] })}\n`,
  );
  writeFileAtomic(join(dir, "vectors.bin"), new Uint8Array(v.data.buffer, v.data.byteOffset, v.data.byteLength));
}

/** Load vectors saved by {@link saveWordVectors}. @throws NotTextError, FileReadError, FileFormatError */
export function loadWordVectors(dir: string): WordVectors {
  if (typeof dir !== "string") throw new NotTextError("dir", dir);
  const file = join(dir, "vocab.json");
  const meta = (readJsonFile(file) ?? {}) as { format?: string; dim: number; words: string[] };
  if (
    meta.format !== "npov-vectors/1" ||
    !Number.isInteger(meta.dim) ||
    meta.dim < 1 ||
    !Array.isArray(meta.words) ||
    meta.words.some((w) => typeof w !== "string")
  )
    throw new FileFormatError([
      { file, line: undefined, field: "format", message: 'expected "npov-vectors/1" with an integer dim and words' },
    ]);
  const bytes = readBinary(join(dir, "vectors.bin"));
  if (bytes.length !== meta.words.length * meta.dim * 4)
    throw new FileFormatError([
      {
        file: join(dir, "vectors.bin"),
        line: undefined,
        field: "",
        message: `expected ${meta.words.length * meta.dim * 4} bytes, found ${bytes.length}`,
      },
    ]);
  return {
    dim: meta.dim,
    index: new Map(meta.words.map((w, i) => [w, i])),
    data: new Float32Array(new Uint8Array(bytes).buffer),
  };
}

/** The project's shipped vectors (models/npov-vectors), or undefined when they are not present. */
export function defaultWordVectors(): WordVectors | undefined {
  const dir = repoPath("models", "npov-vectors");
  return existsSync(join(dir, "vocab.json")) ? loadWordVectors(dir) : undefined;
}
