/**
 * onnxruntime sessions that read their large weights from an external-data file instead of the model bytes.
 *
 * Created from a buffer, a session parses the whole model (a copy of every weight), builds its own tensors
 * (another copy) and frees the parse; glibc keeps much of what is freed, so one session of an 8 MB weight
 * cost 32-48 MB of RSS (bench/salience; 16 MB with a fixed mmap threshold). Created from a file whose
 * weights are ONNX external data at page-aligned offsets, onnxruntime maps them from the file: the same
 * session cost 8 MB, and a build that probes a model in a dozen throwaway sessions no longer leaves each
 * probe's copies behind. A {@link WeightFile} writes each weight once (keyed by its bytes' identity:
 * `cloneModel` copies share them) and serves every session created from it; deleting the file after the
 * sessions exist is safe on POSIX systems (a mapping keeps the file's data alive).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { closeSync, mkdtempSync, openSync, readdirSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { MessageChannel } from "node:worker_threads";
import { FileWriteError } from "@npov/core";
import * as ort from "onnxruntime-node";
import { encodeModel, type IGraphProto, type IModelProto, type ITensorProto, onnx } from "./proto.js";

type onnxSparse = NonNullable<IGraphProto["sparseInitializer"]>[number];

/** Initializers smaller than this stay inside the model bytes (page alignment would waste more than they hold). */
const MIN_EXTERNAL_BYTES = 16 * 1024;
/** Offsets are multiples of 64 KiB (any page size divides it), so onnxruntime can map the data instead of copying it. */
const ALIGNMENT = 65536;
const DATA_FILE = "weights.bin";

/**
 * Run a write to the temporary weight file; a failure the user can fix (disk full, file-size limit, read-only
 * or unwritable temporary directory) becomes a {@link FileWriteError} naming the file and TMPDIR.
 */
function writing<T>(file: string, write: () => T): T {
  try {
    return write();
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (typeof code !== "string") throw error;
    throw new FileWriteError(
      file,
      `${code} while writing model weights to a temporary file (set TMPDIR to a writable folder with room, and a file-size limit above the model's size)`,
      error,
    );
  }
}

/** Floating-point element types (FLOAT, FLOAT16, DOUBLE, BFLOAT16): what {@link WeightFile.moveWeights} moves. */
const FLOAT_TYPES = new Set([1, 10, 11, 16]);

/** A copy of `bytes` that shares no buffer with anything else (a view into a file's buffer keeps all of it). */
function own(bytes: Uint8Array): Uint8Array {
  return bytes.byteLength === bytes.buffer.byteLength ? bytes : new Uint8Array(bytes);
}

/** Whether a byte field holds bytes (an empty one is left alone: assigning it would make it present). */
const filled = (bytes: Uint8Array | null | undefined): bytes is Uint8Array =>
  bytes !== undefined && bytes !== null && bytes.length > 0;

/** A byte field's bytes -> the bytes to store there (the same ones to leave it as it is). */
type ByteMap = (bytes: Uint8Array) => Uint8Array;

function mapTensorBytes(t: ITensorProto | null | undefined, f: ByteMap): void {
  if (t === undefined || t === null) return;
  if (filled(t.rawData)) t.rawData = f(t.rawData);
  if (t.stringData !== undefined && t.stringData !== null && t.stringData.length > 0)
    t.stringData = t.stringData.map(f);
}

function mapSparseBytes(t: onnxSparse | null | undefined, f: ByteMap): void {
  mapTensorBytes(t?.values, f);
  mapTensorBytes(t?.indices, f);
}

/** Pass every non-empty byte field of `graph` (initializers, constants, attributes, subgraphs) through `f`. */
function mapGraphBytes(graph: IGraphProto | null | undefined, f: ByteMap): void {
  if (graph === undefined || graph === null) return;
  for (const t of graph.initializer ?? []) mapTensorBytes(t, f);
  for (const t of graph.sparseInitializer ?? []) mapSparseBytes(t, f);
  for (const n of graph.node ?? [])
    for (const a of n.attribute ?? []) {
      mapTensorBytes(a.t, f);
      for (const t of a.tensors ?? []) mapTensorBytes(t, f);
      mapSparseBytes(a.sparseTensor, f);
      for (const t of a.sparseTensors ?? []) mapSparseBytes(t, f);
      if (filled(a.s)) a.s = f(a.s);
      if (a.strings !== undefined && a.strings !== null && a.strings.length > 0) a.strings = a.strings.map(f);
      mapGraphBytes(a.g, f);
      for (const g of a.graphs ?? []) mapGraphBytes(g, f);
    }
}

/** {@link mapGraphBytes} over a model's graph and its local functions. */
function mapModelBytes(model: IModelProto | undefined, f: ByteMap): void {
  mapGraphBytes(model?.graph, f);
  for (const fn of model?.functions ?? []) mapGraphBytes({ node: fn.node ?? [] }, f);
}

/** Every buffer a model's byte fields view (its graph's and its local functions'). */
function modelBuffers(model: IModelProto | undefined, into: Set<ArrayBufferLike>): Set<ArrayBufferLike> {
  mapModelBytes(model, (bytes) => {
    into.add(bytes.buffer);
    return bytes;
  });
  return into;
}

/** Buffers smaller than this are never released: Node's and protobufjs's shared pools are far smaller. */
const MIN_RELEASED_BYTES = 1024 * 1024;

/**
 * Free, now, the memory of the buffers `models` were decoded from (the files' bytes, external data
 * included), except those in `keep` (buffers, or models still in use: every buffer they view is kept).
 * Call it once their weights live elsewhere (moved with {@link WeightFile.moveWeights} into a model whose
 * bytes are its own) and nothing reads `models` again: the released buffers become empty, so `models`'
 * tensors read as empty afterwards.
 *
 * Why: a decoded model's tensors are views into its file's buffer, and V8 frees such a buffer only at a
 * full garbage collection, which may not come before the peak it would have lowered (bench/salience: the
 * 22-47 MB of a test model's files were still allocated after its build and first run). Transferring a
 * buffer through a closed MessageChannel detaches it and frees its memory at once. Returns the bytes freed.
 */
export function releaseModelBuffers(
  models: readonly (IModelProto | undefined)[],
  keep: readonly (ArrayBufferLike | IModelProto)[] = [],
): number {
  const buffers = new Set<ArrayBufferLike>();
  for (const m of models) modelBuffers(m, buffers);
  for (const k of keep) {
    if (k instanceof ArrayBuffer || (typeof SharedArrayBuffer !== "undefined" && k instanceof SharedArrayBuffer))
      buffers.delete(k);
    else for (const b of modelBuffers(k as IModelProto, new Set())) buffers.delete(b);
  }
  const { port1, port2 } = new MessageChannel();
  let freed = 0;
  for (const b of buffers) {
    if (!(b instanceof ArrayBuffer) || b.byteLength < MIN_RELEASED_BYTES) continue;
    const bytes = b.byteLength;
    try {
      port1.postMessage(null, [b]);
      freed += bytes;
    } catch {
      // An untransferable buffer (marked so by its owner) stays to the garbage collector.
    }
  }
  port1.close();
  port2.close();
  return freed;
}

let orphansChecked = false;
/**
 * This machine's name in weight directory names: a temporary folder shared with other machines or PID
 * namespaces (containers) holds other hosts' pids, which must not be judged by this host's processes.
 */
const HOST =
  hostname()
    .replace(/[^A-Za-z0-9]/g, "")
    .slice(0, 32) || "host";

/**
 * Remove the weight directories (`npov-weights-<host>-<pid>-*`) of this host's processes that no longer
 * exist, once per process.
 */
function removeOrphans(): void {
  if (orphansChecked) return;
  orphansChecked = true;
  let entries: string[];
  try {
    entries = readdirSync(tmpdir());
  } catch {
    return;
  }
  for (const name of entries) {
    const pid = new RegExp(`^npov-weights-${HOST}-(\\d+)-`).exec(name)?.[1];
    if (pid === undefined || Number(pid) === process.pid) continue;
    try {
      process.kill(Number(pid), 0); // throws ESRCH when no such process exists
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ESRCH") continue; // alive (EPERM: another user's)
      try {
        rmSync(join(tmpdir(), name), { recursive: true, force: true });
      } catch {
        // Not ours to remove after all (permissions): leave it.
      }
    }
  }
}

/** Weight files not yet disposed: removed when the process exits normally, whoever forgot to dispose them. */
const live = new Set<WeightFile>();
let exitHookInstalled = false;

function track(file: WeightFile): void {
  live.add(file);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once("exit", () => {
    for (const f of [...live]) f.dispose();
  });
}

/** A temporary external-data file of model weights, and sessions created from it. */
export class WeightFile {
  private fd: number | undefined;
  private size = 0;
  private readonly offsets = new WeakMap<Uint8Array, number>();
  private models = 0;

  private constructor(readonly dir: string) {
    track(this);
  }

  /**
   * A new, empty weight file in a fresh temporary directory, named after this process. A process killed
   * before it disposed its files (a signal skips exit handlers) leaves them behind: the first file a process
   * creates removes those of processes that no longer exist.
   */
  static create(): WeightFile {
    removeOrphans();
    const prefix = join(tmpdir(), `npov-weights-${HOST}-${process.pid}-`);
    return new WeightFile(writing(prefix, () => mkdtempSync(prefix)));
  }

  /** Bytes written so far (weights and alignment padding). */
  get bytes(): number {
    return this.size;
  }

  /** Offset of `bytes` in the file, appended (aligned) the first time they are seen. */
  private place(bytes: Uint8Array): number {
    const known = this.offsets.get(bytes);
    if (known !== undefined) return known;
    const file = join(this.dir, DATA_FILE);
    this.fd ??= writing(file, () => openSync(file, "w"));
    const fd = this.fd;
    const offset = Math.ceil(this.size / ALIGNMENT) * ALIGNMENT;
    let written = 0;
    while (written < bytes.length)
      written += writing(file, () => writeSync(fd, bytes, written, bytes.length - written, offset + written));
    this.size = offset + bytes.length;
    this.offsets.set(bytes, offset);
    return offset;
  }

  /** The fields that make a tensor of `raw.length` bytes at `offset` refer to this file instead. */
  private reference(raw: Uint8Array): Pick<ITensorProto, "rawData" | "dataLocation" | "externalData"> {
    const offset = this.place(raw);
    return {
      rawData: new Uint8Array(0),
      dataLocation: onnx.TensorProto.DataLocation.EXTERNAL,
      externalData: [
        { key: "location", value: DATA_FILE },
        { key: "offset", value: String(offset) },
        { key: "length", value: String(raw.length) },
      ],
    };
  }

  /**
   * A copy of `model` (sharing everything but the initializer list) whose large initializers refer to this
   * file. Initializers already referring to it (see {@link moveWeights}) pass through.
   */
  externalize(model: IModelProto): IModelProto {
    const graph = model.graph ?? {};
    const initializer = (graph.initializer ?? []).map((t): ITensorProto => {
      const raw = t.rawData;
      if (raw === undefined || raw === null || raw.length < MIN_EXTERNAL_BYTES) return t;
      return { ...t, ...this.reference(raw) };
    });
    return { ...model, graph: { ...graph, initializer } };
  }

  /**
   * Move `model`'s large initializers into this file, in place: each keeps its name, type and dims but its
   * bytes are replaced by a reference to the file, so the model no longer holds them and sessions created
   * from this file (inside {@link useWeightFile}) read them from the file. Only floating-point tensors
   * move (the weights); integer ones stay, since gradient building reads their values. The model is then
   * usable only while this file exists, and only for graph work that does not read floating-point weight
   * values (graph surgery, gradient building, sessions). Returns the number of bytes moved.
   */
  moveWeights(model: IModelProto): number {
    let moved = 0;
    for (const t of model.graph?.initializer ?? []) {
      const raw = t.rawData;
      if (raw === undefined || raw === null || raw.length < MIN_EXTERNAL_BYTES) continue;
      // Weights only: integer tensors (positions, shapes, indices) stay, since graph work reads their values.
      if (!FLOAT_TYPES.has(t.dataType ?? 0)) continue;
      Object.assign(t, this.reference(raw));
      moved += raw.length;
    }
    // A decoded model's byte fields are views into the file it was decoded from: one 4-byte constant
    // left as such a view keeps the whole file's buffer (every weight) alive.
    mapModelBytes(model, own);
    return moved;
  }

  /** An onnxruntime session of `model` whose large weights come from this file. */
  async createSession(
    model: IModelProto,
    options: ort.InferenceSession.SessionOptions = {},
  ): Promise<ort.InferenceSession> {
    const file = join(this.dir, `model-${this.models++}.onnx`);
    const bytes = encodeModel(this.externalize(model));
    writing(file, () => writeFileSync(file, bytes));
    try {
      return await ort.InferenceSession.create(file, options);
    } finally {
      rmSync(file, { force: true });
    }
  }

  /** Close and delete the file (sessions created from it keep working: they hold their weights). */
  dispose(): void {
    live.delete(this);
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    try {
      rmSync(this.dir, { recursive: true, force: true });
    } catch {
      // A system that cannot delete a file its sessions still map (Windows) keeps it in the temporary folder.
    }
  }
}

const ambient = new AsyncLocalStorage<WeightFile>();

/**
 * Run `work` with one weight file shared by every {@link createWeightFileSession} inside it (each weight
 * written once however many probe sessions read it); the file is deleted when `work` settles.
 */
export async function withWeightFile<T>(work: () => Promise<T>): Promise<T> {
  if (ambient.getStore() !== undefined) return work();
  const file = WeightFile.create();
  try {
    return await ambient.run(file, work);
  } finally {
    file.dispose();
  }
}

/**
 * Run `work` with `file` serving every {@link createWeightFileSession} inside it (also inside nested
 * {@link withWeightFile} calls); the file stays: its owner disposes it.
 */
export function useWeightFile<T>(file: WeightFile, work: () => Promise<T>): Promise<T> {
  return ambient.run(file, work);
}

/**
 * An onnxruntime session of `model` with its large weights read from a weight file: the surrounding
 * {@link withWeightFile}'s, else one written for this session and deleted once it exists.
 */
export async function createWeightFileSession(
  model: IModelProto,
  options: ort.InferenceSession.SessionOptions = {},
): Promise<ort.InferenceSession> {
  const shared = ambient.getStore();
  if (shared !== undefined) return shared.createSession(model, options);
  const own = WeightFile.create();
  try {
    return await own.createSession(model, options);
  } finally {
    own.dispose();
  }
}
