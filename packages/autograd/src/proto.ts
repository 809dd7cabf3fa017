/**
 * ONNX protobuf access (onnx-proto's generated protobufjs code): loading and saving models with their
 * external-data files, tensor <-> typed array conversion, attributes and value infos.
 */
import { existsSync, readFileSync } from "node:fs";
import { basename, dirname, isAbsolute, join, resolve, sep } from "node:path";
import { FileFormatError, FileReadError, writeFileAtomic } from "@npov/core";
import onnxProto from "onnx-proto";

export const onnx = onnxProto.onnx;
export type ModelProto = onnxProto.onnx.ModelProto;
export type GraphProto = onnxProto.onnx.GraphProto;
export type NodeProto = onnxProto.onnx.NodeProto;
export type TensorProto = onnxProto.onnx.TensorProto;
export type ValueInfoProto = onnxProto.onnx.ValueInfoProto;
export type AttributeProto = onnxProto.onnx.IAttributeProto;
export type IGraphProto = onnxProto.onnx.IGraphProto;
export type IModelProto = onnxProto.onnx.IModelProto;
export type ITensorProto = onnxProto.onnx.ITensorProto;

/** ONNX element types used here. */
export const DataType = {
  FLOAT: 1,
  UINT8: 2,
  INT8: 3,
  INT32: 6,
  INT64: 7,
  BOOL: 9,
  FLOAT16: 10,
  DOUBLE: 11,
} as const;

/** A long from protobufjs (or a plain number) -> number. */
export function num(value: unknown): number {
  if (typeof value === "number") return value;
  if (typeof value === "bigint") return Number(value);
  if (value !== null && typeof value === "object" && "toNumber" in value)
    return (value as { toNumber(): number }).toNumber();
  return Number(value);
}

/** Typed arrays by element type. */
export type TensorData =
  | Float32Array
  | Float64Array
  | BigInt64Array
  | Int32Array
  | Uint8Array
  | Int8Array
  | Uint16Array;

function fromBytes(dataType: number, bytes: Uint8Array): TensorData {
  const copy = new Uint8Array(bytes); // aligned copy
  const buf = copy.buffer;
  switch (dataType) {
    case DataType.FLOAT:
      return new Float32Array(buf);
    case DataType.DOUBLE:
      return new Float64Array(buf);
    case DataType.INT64:
      return new BigInt64Array(buf);
    case DataType.INT32:
      return new Int32Array(buf);
    case DataType.UINT8:
    case DataType.BOOL:
      return copy;
    case DataType.INT8:
      return new Int8Array(buf);
    case DataType.FLOAT16:
      return new Uint16Array(buf);
    default:
      throw new FileFormatError([
        { file: "(model)", line: undefined, field: "dataType", message: `unsupported tensor element type ${dataType}` },
      ]);
  }
}

/** Shape of a tensor proto. */
export function tensorDims(t: onnxProto.onnx.ITensorProto): number[] {
  return (t.dims ?? []).map(num);
}

/** The values of a tensor proto as a typed array (raw data or typed fields). External data must be loaded. */
export function tensorData(t: onnxProto.onnx.ITensorProto): TensorData {
  const type = t.dataType ?? 0;
  if (t.dataLocation === onnx.TensorProto.DataLocation.EXTERNAL)
    throw new FileFormatError([
      { file: "(model)", line: undefined, field: `initializer ${t.name}`, message: "external data not loaded" },
    ]);
  if (t.rawData && t.rawData.length > 0) return fromBytes(type, t.rawData);
  switch (type) {
    case DataType.FLOAT:
      return Float32Array.from(t.floatData ?? []);
    case DataType.DOUBLE:
      return Float64Array.from(t.doubleData ?? []);
    case DataType.INT64:
      return BigInt64Array.from((t.int64Data ?? []).map((v) => BigInt(num(v))));
    case DataType.INT32:
      return Int32Array.from(t.int32Data ?? []);
    case DataType.INT8:
      return Int8Array.from(t.int32Data ?? []);
    case DataType.UINT8:
    case DataType.BOOL:
      return Uint8Array.from(t.int32Data ?? []);
    case DataType.FLOAT16:
      return Uint16Array.from(t.int32Data ?? []);
    default:
      return fromBytes(type, new Uint8Array(0));
  }
}

function elementType(data: TensorData): number {
  if (data instanceof Float32Array) return DataType.FLOAT;
  if (data instanceof Float64Array) return DataType.DOUBLE;
  if (data instanceof BigInt64Array) return DataType.INT64;
  if (data instanceof Int32Array) return DataType.INT32;
  if (data instanceof Int8Array) return DataType.INT8;
  if (data instanceof Uint16Array) return DataType.FLOAT16;
  return DataType.UINT8;
}

/** Build a tensor proto (raw little-endian data) from a typed array. */
export function makeTensor(
  name: string,
  data: TensorData,
  dims: readonly number[],
  dataType = elementType(data),
): TensorProto {
  return onnx.TensorProto.create({
    name,
    dataType,
    dims: dims.slice(),
    rawData: new Uint8Array(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength)),
  });
}

/** A value info: name, element type and shape (numbers are fixed dims, strings symbolic, undefined unknown). */
export function valueInfo(
  name: string,
  elemType?: number,
  shape?: ReadonlyArray<number | string | undefined>,
): ValueInfoProto {
  if (elemType === undefined) return onnx.ValueInfoProto.create({ name });
  const dims = shape?.map((d) =>
    typeof d === "number" ? { dimValue: d } : typeof d === "string" ? { dimParam: d } : {},
  );
  return onnx.ValueInfoProto.create({
    name,
    type: { tensorType: { elemType, ...(dims ? { shape: { dim: dims } } : {}) } },
  });
}

/** Element type and shape of a value info (symbolic dims as strings, unknown as undefined). */
export function valueInfoShape(v: onnxProto.onnx.IValueInfoProto): {
  elemType: number;
  shape: Array<number | string | undefined> | undefined;
} {
  const t = v.type?.tensorType;
  return {
    elemType: t?.elemType ?? 0,
    shape: t?.shape?.dim?.map((d) =>
      d.dimValue !== undefined && d.dimValue !== null && num(d.dimValue) > 0
        ? num(d.dimValue)
        : d.dimParam || undefined,
    ),
  };
}

/** Read an attribute of a node (ints, floats, strings, tensors), or undefined. */
export function attr(node: onnxProto.onnx.INodeProto, name: string): AttributeProto | undefined {
  return node.attribute?.find((a) => a.name === name);
}

export function attrInt(node: onnxProto.onnx.INodeProto, name: string, fallback: number): number {
  const a = attr(node, name);
  return a === undefined || a.i === undefined || a.i === null ? fallback : num(a.i);
}

export function attrFloat(node: onnxProto.onnx.INodeProto, name: string, fallback: number): number {
  const a = attr(node, name);
  return a === undefined || a.f === undefined || a.f === null ? fallback : a.f;
}

export function attrInts(node: onnxProto.onnx.INodeProto, name: string): number[] | undefined {
  const a = attr(node, name);
  return a === undefined ? undefined : (a.ints ?? []).map(num);
}

/** A string attribute of a node (UTF-8), or `fallback` when absent. */
export function attrString(node: onnxProto.onnx.INodeProto, name: string, fallback: string): string {
  const a = attr(node, name);
  return a?.s === undefined || a.s === null ? fallback : new TextDecoder().decode(a.s);
}

const AttrType = onnx.AttributeProto.AttributeType;

/** Build node attributes from a plain object: numbers (int when integral unless listed in `floats`), arrays, strings, tensors. */
export function makeAttributes(
  values: Record<string, number | number[] | string | TensorProto | { float: number }>,
): AttributeProto[] {
  return Object.entries(values).map(([name, v]) => {
    if (typeof v === "string") return { name, type: AttrType.STRING, s: new TextEncoder().encode(v) };
    if (Array.isArray(v)) return { name, type: AttrType.INTS, ints: v };
    if (typeof v === "number")
      return Number.isInteger(v) ? { name, type: AttrType.INT, i: v } : { name, type: AttrType.FLOAT, f: v };
    if ("float" in v) return { name, type: AttrType.FLOAT, f: v.float };
    return { name, type: AttrType.TENSOR, t: v };
  });
}

/** The default-domain opset version of a model. */
export function opsetVersion(model: onnxProto.onnx.IModelProto): number {
  const entry = model.opsetImport?.find((o) => !o.domain || o.domain === "ai.onnx");
  return entry === undefined ? 0 : num(entry.version);
}

/** Decode model bytes. @throws FileFormatError */
export function decodeModel(bytes: Uint8Array, file = "(bytes)"): ModelProto {
  try {
    return onnx.ModelProto.decode(bytes);
  } catch (e) {
    throw new FileFormatError([
      { file, line: undefined, field: "", message: `not an ONNX model: ${(e as Error).message}` },
    ]);
  }
}

/**
 * Load a model file and its external-data files (`data_location = EXTERNAL`, resolved relative to the
 * model's folder), inlining the data so the model can be transformed and run from memory.
 * @throws FileReadError, FileFormatError
 */
export function loadModel(file: string): ModelProto {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(file);
  } catch (cause) {
    throw new FileReadError(file, cause);
  }
  const model = decodeModel(bytes, file);
  const cache = new Map<string, Uint8Array>();
  for (const t of model.graph?.initializer ?? []) {
    if (t.dataLocation !== onnx.TensorProto.DataLocation.EXTERNAL) continue;
    const entry = (key: string) => t.externalData?.find((e) => e.key === key)?.value ?? undefined;
    const location = entry("location");
    if (location === undefined)
      throw new FileFormatError([
        { file, line: undefined, field: `initializer ${t.name}`, message: "external data without location" },
      ]);
    // As onnxruntime requires: external data lives beside the graph, never outside its folder.
    const folder = resolve(dirname(file));
    const dataFile = resolve(folder, location);
    if (isAbsolute(location) || !dataFile.startsWith(`${folder}${sep}`))
      throw new FileFormatError([
        {
          file,
          line: undefined,
          field: `initializer ${t.name}`,
          message: `external data location ${JSON.stringify(location)} is outside the model folder; it must name a file beside the graph`,
        },
      ]);
    const number = (key: string): number | undefined => {
      const text = entry(key);
      if (text === undefined) return undefined;
      const value = /^\d+$/.test(text) ? Number(text) : Number.NaN;
      if (!Number.isSafeInteger(value))
        throw new FileFormatError([
          {
            file,
            line: undefined,
            field: `initializer ${t.name}`,
            message: `external data ${key} ${JSON.stringify(text)} is not a whole number of bytes >= 0`,
          },
        ]);
      return value;
    };
    const offsetValue = number("offset");
    const lengthValue = number("length");
    let data = cache.get(dataFile);
    if (data === undefined) {
      if (!existsSync(dataFile))
        throw new FileReadError(dataFile, new Error(`external data of initializer ${t.name} is missing`));
      data = readFileSync(dataFile);
      cache.set(dataFile, data);
    }
    const offset = offsetValue ?? 0;
    const length = lengthValue ?? data.length - offset;
    if (offset + length > data.length || length < 0)
      throw new FileFormatError([
        {
          file: dataFile,
          line: undefined,
          field: `initializer ${t.name}`,
          message: `external data ends at ${offset + length} but the file has ${data.length} bytes`,
        },
      ]);
    t.rawData = data.subarray(offset, offset + length);
    t.dataLocation = onnx.TensorProto.DataLocation.DEFAULT;
    t.externalData = [];
  }
  return model;
}

/**
 * A deep copy of a model's structure that shares the initializers' data (each initializer is a new
 * TensorProto whose arrays are copied but whose raw bytes are the original's view). Copying by
 * encode + decode would also copy every weight byte: graph surgery copies a model many times, and the
 * discarded copies of a large model's weights made loading peak at many times the model's size.
 * Callers replace initializer data (assign a new rawData) but never write into it.
 */
export function cloneModel(model: onnxProto.onnx.IModelProto): ModelProto {
  const graph = model.graph ?? {};
  const initializers = graph.initializer ?? [];
  const copy = onnx.ModelProto.decode(encodeModel({ ...model, graph: { ...graph, initializer: [] } }));
  (copy.graph as GraphProto).initializer = initializers.map((t) => {
    const c = onnx.TensorProto.create();
    for (const [key, value] of Object.entries(t))
      (c as unknown as Record<string, unknown>)[key] = Array.isArray(value) ? value.slice() : value;
    return c;
  });
  return copy;
}

/** Serialize a model (all data inline). */
export function encodeModel(model: onnxProto.onnx.IModelProto): Uint8Array {
  return onnx.ModelProto.encode(model).finish();
}

/**
 * Save a model atomically. Initializers of at least `externalDataThreshold` bytes (default: never) go to
 * `<file>.data` beside it, as the ONNX external-data convention describes; the in-memory model is unchanged.
 */
export function saveModel(file: string, model: ModelProto, options: { externalDataThreshold?: number } = {}): void {
  const threshold = options.externalDataThreshold ?? Number.POSITIVE_INFINITY;
  if (!Number.isFinite(threshold)) {
    writeFileAtomic(file, encodeModel(model));
    return;
  }
  const copy = onnx.ModelProto.decode(encodeModel(model));
  const dataName = `${basename(file)}.data`;
  const chunks: Uint8Array[] = [];
  let offset = 0;
  for (const t of copy.graph?.initializer ?? []) {
    const raw =
      t.rawData && t.rawData.length > 0
        ? t.rawData
        : makeTensor("", tensorData(t), tensorDims(t), t.dataType ?? undefined).rawData;
    if (raw.length < threshold) continue;
    const padding = (4096 - (offset % 4096)) % 4096; // page-aligned, as onnx's writer does
    if (padding > 0) chunks.push(new Uint8Array(padding));
    offset += padding;
    chunks.push(raw);
    t.externalData = [
      { key: "location", value: dataName },
      { key: "offset", value: String(offset) },
      { key: "length", value: String(raw.length) },
    ];
    t.dataLocation = onnx.TensorProto.DataLocation.EXTERNAL;
    t.rawData = new Uint8Array(0);
    t.floatData = [];
    offset += raw.length;
  }
  if (chunks.length > 0) {
    const all = new Uint8Array(offset);
    let at = 0;
    for (const c of chunks) {
      all.set(c, at);
      at += c.length;
    }
    writeFileAtomic(join(dirname(file), dataName), all);
  }
  writeFileAtomic(file, encodeModel(copy));
}
