/** The soft-prompt file: vectors plus metadata, JSON, written atomically. */
import { FileFormatError, readTextFile, writeFileAtomic } from "@npov/core";

/** A trained soft prompt. */
export interface SoftPrompt {
  /** Row-major [length x dim] float32 vectors. */
  vectors: Float32Array;
  length: number;
  dim: number;
  meta: {
    model: string;
    task: string;
    steps: number;
    devAuc: number | null;
    dataHash: string;
    initTokens: number[];
    hyperparameters: Record<string, number>;
  };
}

/** Save as JSON: `{format, length, dim, vectors (base64 float32 little-endian), meta}`. */
export function saveSoftPrompt(file: string, prompt: SoftPrompt): void {
  const bytes = Buffer.from(prompt.vectors.buffer, prompt.vectors.byteOffset, prompt.vectors.byteLength);
  writeFileAtomic(
    file,
    `${JSON.stringify({ format: "npov-soft-prompt/1", length: prompt.length, dim: prompt.dim, vectors: bytes.toString("base64"), meta: prompt.meta }, null, 2)}\n`,
  );
}

/** Load and validate a soft-prompt file. @throws FileReadError, FileFormatError */
export function loadSoftPrompt(file: string): SoftPrompt {
  const fail = (message: string) => new FileFormatError([{ file, line: undefined, field: "", message }]);
  let value: { format?: string; length?: number; dim?: number; vectors?: string; meta?: SoftPrompt["meta"] };
  try {
    value = JSON.parse(readTextFile(file));
  } catch (e) {
    if (e instanceof SyntaxError) throw fail(`invalid JSON: ${e.message}`);
    throw e;
  }
  if (value === null || typeof value !== "object" || value.format !== "npov-soft-prompt/1")
    throw fail('not a soft-prompt file (format "npov-soft-prompt/1")');
  const { length, dim } = value;
  if (!Number.isInteger(length) || !Number.isInteger(dim) || (length as number) < 1 || (dim as number) < 1)
    throw fail("length and dim must be positive integers");
  if (typeof value.vectors !== "string") throw fail("vectors must be a base64 string");
  const bytes = Buffer.from(value.vectors, "base64");
  if (bytes.length !== (length as number) * (dim as number) * 4)
    throw fail(`vectors hold ${bytes.length} bytes, expected ${(length as number) * (dim as number) * 4}`);
  const vectors = new Float32Array(new Uint8Array(bytes).buffer);
  if (!vectors.every(Number.isFinite)) throw fail("vectors contain non-finite values");
  return { vectors, length: length as number, dim: dim as number, meta: value.meta as SoftPrompt["meta"] };
}
