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
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FileWriteError } from "@npov/core";
import * as ort from "onnxruntime-node";
import { encodeModel, type IModelProto, type ITensorProto, onnx } from "./proto.js";

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

/** A temporary external-data file of model weights, and sessions created from it. */
export class WeightFile {
  private fd: number | undefined;
  private size = 0;
  private readonly offsets = new WeakMap<Uint8Array, number>();
  private models = 0;

  private constructor(readonly dir: string) {}

  /** A new, empty weight file in a fresh temporary directory. */
  static create(): WeightFile {
    const prefix = join(tmpdir(), "npov-weights-");
    return new WeightFile(writing(prefix, () => mkdtempSync(prefix)));
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

  /** A copy of `model` (sharing everything but the initializer list) whose large initializers refer to this file. */
  externalize(model: IModelProto): IModelProto {
    const graph = model.graph ?? {};
    const initializer = (graph.initializer ?? []).map((t): ITensorProto => {
      const raw = t.rawData;
      if (raw === undefined || raw === null || raw.length < MIN_EXTERNAL_BYTES) return t;
      const offset = this.place(raw);
      return {
        ...t,
        rawData: new Uint8Array(0),
        dataLocation: onnx.TensorProto.DataLocation.EXTERNAL,
        externalData: [
          { key: "location", value: DATA_FILE },
          { key: "offset", value: String(offset) },
          { key: "length", value: String(raw.length) },
        ],
      };
    });
    return { ...model, graph: { ...graph, initializer } };
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
