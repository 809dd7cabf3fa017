/**
 * Shape probing: run the forward graph once with onnxruntime, exposing chosen intermediate tensors as
 * outputs, to learn their element types and ranks. Gradient rules need ranks (e.g. to transpose the last
 * two axes); dimensions stay dynamic in the generated graph, computed with Shape at run time.
 */
import * as ort from "onnxruntime-node";
import { evaluateDimExpression } from "./dims.js";
import { cloneModel, type GraphProto, type ModelProto, num, valueInfo, valueInfoShape } from "./proto.js";
import { createWeightFileSession } from "./weight-file.js";

/** What a probe learned about a tensor. */
export interface TensorFacts {
  elemType: number;
  dims: number[];
}

const ORT_TYPE: Record<string, number> = {
  float32: 1,
  uint8: 2,
  int8: 3,
  int32: 6,
  int64: 7,
  bool: 9,
  float16: 10,
  float64: 11,
};

/**
 * Feeds for a model's inputs with symbolic dims set to `dim` (ids 0, masks 1), for probing shapes. Dims
 * named like a cache length ("past_...") are 0: the past is empty, so total lengths equal sequence lengths.
 */
export function sampleFeeds(
  model: ModelProto,
  dim = 3,
  overrides: Record<string, ort.Tensor> = {},
): Record<string, ort.Tensor> {
  const initializers = new Set((model.graph?.initializer ?? []).map((t) => t.name));
  const feeds: Record<string, ort.Tensor> = {};
  for (const input of model.graph?.input ?? []) {
    const name = input.name ?? "";
    if (initializers.has(name)) continue;
    if (overrides[name] !== undefined) {
      feeds[name] = overrides[name] as ort.Tensor;
      continue;
    }
    const { elemType, shape } = valueInfoShape(input);
    // Symbolic dims: cache lengths are 0 (empty past), everything else `dim`; expressions such as
    // "past_sequence_length + 1" are evaluated with those values.
    const value = (name: string) => (/past/i.test(name) ? 0 : dim);
    const dims = (shape ?? []).map((d) =>
      typeof d === "number" ? d : d === undefined ? dim : /[-+*/]/.test(d) ? evaluateDimExpression(d, value) : value(d),
    );
    const size = dims.reduce((a, b) => a * b, 1);
    const isMask = /mask/i.test(name);
    if (elemType === 7) feeds[name] = new ort.Tensor("int64", new BigInt64Array(size).fill(isMask ? 1n : 0n), dims);
    else if (elemType === 6) feeds[name] = new ort.Tensor("int32", new Int32Array(size).fill(isMask ? 1 : 0), dims);
    else if (elemType === 11)
      feeds[name] = new ort.Tensor(
        "float64",
        Float64Array.from({ length: size }, (_, i) => Math.sin(i + 1)),
        dims,
      );
    else if (elemType === 9) feeds[name] = new ort.Tensor("bool", new Uint8Array(size).fill(1), dims);
    else
      feeds[name] = new ort.Tensor(
        "float32",
        Float32Array.from({ length: size }, (_, i) => (isMask ? 1 : Math.sin(i + 1))),
        dims,
      );
  }
  return feeds;
}

/**
 * Run `model` once and report element type and dims of `names` (graph inputs and initializers are
 * answered from the model itself).
 */
export async function probeTensors(
  model: ModelProto,
  names: Iterable<string>,
  feeds: Record<string, ort.Tensor>,
): Promise<Map<string, TensorFacts>> {
  const facts = new Map<string, TensorFacts>();
  const initializers = new Map((model.graph?.initializer ?? []).map((t) => [t.name ?? "", t]));
  const inputs = new Map((model.graph?.input ?? []).map((v) => [v.name ?? "", v]));
  const wanted: string[] = [];
  for (const name of new Set(names)) {
    const init = initializers.get(name);
    if (init !== undefined) {
      facts.set(name, { elemType: init.dataType ?? 0, dims: (init.dims ?? []).map(num) });
      continue;
    }
    const feed = feeds[name];
    if (inputs.has(name) && feed !== undefined) {
      facts.set(name, { elemType: ORT_TYPE[feed.type] ?? 0, dims: feed.dims.slice() });
      continue;
    }
    wanted.push(name);
  }
  if (wanted.length === 0) return facts;
  const entry = probeSession(model, wanted);
  try {
    const result = await (await entry.session).run(feeds, wanted);
    for (const name of wanted) {
      const t = result[name];
      if (t !== undefined) facts.set(name, { elemType: ORT_TYPE[t.type] ?? 0, dims: t.dims.slice() });
    }
  } finally {
    doneWith(entry);
  }
  return facts;
}

interface ProbeSession {
  model: ModelProto;
  key: string;
  session: Promise<ort.InferenceSession>;
  users: number;
  /** Released once unused (a newer probe replaced it). */
  stale: boolean;
  pendingRelease: NodeJS.Immediate | undefined;
}

/**
 * The latest probe's session, kept until the next turn of the event loop: graph cuts and gradient
 * building probe the same model for the same tensors twice in a row (at two lengths), and a second
 * session would parse and plan the whole graph again.
 */
let recent: ProbeSession | undefined;

function probeSession(model: ModelProto, wanted: readonly string[]): ProbeSession {
  // The model's shape in the key too: a caller that edits a model in place between two probes gets a new session.
  const g = model.graph;
  const shape = [
    g?.node?.length,
    g?.initializer?.length,
    g?.node?.at(-1)?.output?.[0],
    ...(g?.input ?? []).map((v) => v.name),
  ];
  const key = [...shape, ...wanted].join("\u0000");
  if (recent !== undefined && recent.model === model && recent.key === key && !recent.stale) {
    if (recent.pendingRelease !== undefined) clearImmediate(recent.pendingRelease);
    recent.pendingRelease = undefined;
    recent.users++;
    return recent;
  }
  if (recent !== undefined) retire(recent);
  const copy = cloneModel(model);
  const graph = copy.graph as GraphProto;
  const existing = new Set(graph.output.map((o) => o.name));
  for (const name of wanted) if (!existing.has(name)) graph.output.push(valueInfo(name));
  // No graph optimizations: fusions may create kernels that only exist for float32, and a probe runs once
  // or twice (no weight prepacking either). The weights come from a weight file (see weight-file.ts): a
  // session made from the model bytes would copy them several times, and glibc keeps much of that after
  // the release.
  const entry: ProbeSession = {
    model,
    key,
    session: createWeightFileSession(copy, {
      graphOptimizationLevel: "disabled",
      intraOpNumThreads: 1,
      interOpNumThreads: 1,
      extra: { session: { disable_prepacking: "1" } },
    }),
    users: 1,
    stale: false,
    pendingRelease: undefined,
  };
  entry.session.catch(() => retire(entry));
  recent = entry;
  return entry;
}

/** One user of `entry` is done: release it on the next turn unless another probe of the same model reuses it. */
function doneWith(entry: ProbeSession): void {
  entry.users--;
  if (entry.users > 0) return;
  if (entry.stale) {
    release(entry);
    return;
  }
  entry.pendingRelease = setImmediate(() => retire(entry));
  entry.pendingRelease.unref();
}

/** `entry` is no longer the reusable probe session: release it now, or when its last user is done. */
function retire(entry: ProbeSession): void {
  if (recent === entry) recent = undefined;
  if (entry.stale) return;
  entry.stale = true;
  if (entry.pendingRelease !== undefined) clearImmediate(entry.pendingRelease);
  entry.pendingRelease = undefined;
  if (entry.users === 0) release(entry);
}

function release(entry: ProbeSession): void {
  // A failed creation was reported to the probe that awaited it; a failed release frees nothing more.
  entry.session.then((s) => s.release()).catch(() => undefined);
}
