/**
 * `inspectModel(dir)`: what kind of model a folder holds -- a causal or seq2seq language model, or a
 * sequence classifier (an NLI cross-encoder) -- and which npov features make sense for it and work, per
 * dtype file, with the ops each graph uses and what blocks each feature. Language models: generation
 * (transformers.js), scoring (the YES/NO prompt classifier's forward pass), salience (gradients w.r.t. input
 * embeddings) and soft-prompt tuning. Sequence classifiers: `nli` (entailment probabilities; needs an
 * entailment label in config.json's id2label) and salience (gradient of the entailment logit); generation,
 * scoring and tuning do not apply to them, and `nli` does not apply to language models.
 *
 * The static check normalises every graph (`normalizeModel`), finds the word-embedding lookup and looks
 * for ops without a gradient rule on the path from it to the logits; `deep: true` also builds the
 * gradient graph and loads it in onnxruntime, as salience and tuning will (slower on large models, and
 * the only check that sees shapes).
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { classifierEmbeddingGraph, embeddingGraph } from "./embedding-graph.js";
import { ModelFileError } from "./errors.js";
import { isPastInput, type NormalizationReport, normalizeModel } from "./normalize.js";
import {
  availableDtypes,
  classifierLabels,
  configArchitectures,
  DTYPE_SUFFIX,
  isEncoderDecoderConfig,
  loadGraphFile,
  MODEL_DTYPES,
  type ModelDtype,
  type ModelKind,
  ModelNotFoundError,
  modelKind,
  type PretrainedFiles,
  readModelConfig,
  tokenizerFromFiles,
} from "./pretrained.js";
import { DataType, type IGraphProto, type ModelProto, valueInfoShape } from "./proto.js";
import { NON_DIFFERENTIABLE, RULES } from "./rules.js";
import { GradientSession } from "./session.js";
import { findEmbeddingOutput } from "./surgery.js";

/** The npov features {@link inspectModel} reports on. */
export type ModelFeature = "generation" | "scoring" | "salience" | "tuning" | "nli";

/** Every feature, in the order they are reported. */
export const MODEL_FEATURES: readonly ModelFeature[] = ["generation", "scoring", "salience", "tuning", "nli"];

/** The features that make sense for each kind of model. */
export const FEATURES_OF_KIND: Readonly<Record<ModelKind, readonly ModelFeature[]>> = {
  causal: ["generation", "scoring", "salience", "tuning"],
  seq2seq: ["generation", "scoring", "salience", "tuning"],
  "sequence-classifier": ["nli", "salience"],
};

/** Why a feature does not apply to a kind of model (the `blockers` of a {@link FeatureSupport} with `applicable: false`). */
const NOT_APPLICABLE: Readonly<Record<ModelFeature, string>> = {
  generation: "a sequence classifier does not generate text",
  scoring:
    "the YES/NO prompt classifier reads a language model's next-token logits; a sequence classifier gives label logits (use the nli detector)",
  tuning: "soft-prompt tuning trains the YES/NO prompt classifier, which needs a language model",
  salience: "",
  nli: "the nli detector needs a sequence classifier with entailment/neutral/contradiction labels (an NLI cross-encoder)",
};

/** Whether a feature works, and if not, why. */
export interface FeatureSupport {
  supported: boolean;
  /** What blocks it (empty when supported; why it does not apply, when it does not). */
  blockers: string[];
  /** What a user must do for it to work (e.g. name the file), when that is not a blocker. */
  notes?: string[];
  /** `false` when the feature makes no sense for this kind of model (absent: it applies). */
  applicable?: false;
}

/** One ONNX file of the folder. */
export interface InspectedFile {
  file: string;
  dtype: ModelDtype;
  bytes: number;
  externalData: boolean;
  /** Op types as `domain:Op` (default domain without prefix), sorted. */
  ops: string[];
  inputs: Array<{ name: string; type: string; shape: Array<number | string | undefined> }>;
  /** The graph's outputs as declared (shape entries: numbers, dim names, or undefined). */
  outputs: Array<{ name: string; type: string; shape: Array<number | string | undefined> }>;
  /** What normalisation did, or the error it raised. */
  normalization?: NormalizationReport;
  error?: string;
}

/** Everything `inspectModel` found. */
export interface ModelInspection {
  dir: string;
  modelType: string;
  /** What the model computes (see `modelKind`: config.json's architectures, else the graph's outputs). */
  kind: ModelKind;
  /** config.json's architectures, e.g. `["DebertaV2ForSequenceClassification"]` (empty when absent). */
  architectures: string[];
  /** A sequence classifier's labels in logit order (config.json id2label), when it has readable ones. */
  labels?: string[];
  /** The features that make sense for this kind of model ({@link FEATURES_OF_KIND}). */
  applicableFeatures: ModelFeature[];
  /** dtype -> the files of that variant, and feature support. */
  variants: Array<{
    dtype: ModelDtype;
    /** Graph layout: `model` (single file; with past for a causal LM), `decoder_model`, `decoder_model_merged` (If). */
    layout: string;
    files: InspectedFile[];
    /** Every feature: those that do not apply to the kind have `applicable: false` and say why. */
    features: Record<ModelFeature, FeatureSupport>;
  }>;
}

const TYPE_NAMES: Record<number, string> = {
  [DataType.FLOAT]: "float32",
  [DataType.FLOAT16]: "float16",
  [DataType.DOUBLE]: "float64",
  [DataType.INT64]: "int64",
  [DataType.INT32]: "int32",
  [DataType.BOOL]: "bool",
  [DataType.UINT8]: "uint8",
  [DataType.INT8]: "int8",
};

function opsOf(model: ModelProto): string[] {
  const ops = new Set<string>();
  const walk = (nodes: IGraphProto["node"]) => {
    for (const n of nodes ?? []) {
      ops.add(n.domain && n.domain !== "ai.onnx" ? `${n.domain}:${n.opType}` : (n.opType ?? ""));
      for (const a of n.attribute ?? []) {
        if (a.g) walk(a.g.node);
        for (const g of a.graphs ?? []) walk(g.node);
      }
    }
  };
  walk(model.graph?.node);
  return [...ops].sort();
}

/**
 * Ops without a gradient rule on the path from `from` (e.g. the word-embedding output) to `to` (logits):
 * the ops that would stop salience or tuning. Ops off that path (position buckets, masks) do not count.
 */
export function opsWithoutGradient(model: ModelProto, from: string[], to: string[] = ["logits"]): string[] {
  const nodes = model.graph?.node ?? [];
  const active = new Set(from);
  const activeNodes: number[] = [];
  nodes.forEach((n, i) => {
    if (!(n.input ?? []).some((x) => x && active.has(x))) return;
    const op = n.opType ?? "";
    if (NON_DIFFERENTIABLE.has(op)) return;
    if (op === "Cast" && !isFloatType(Number(n.attribute?.find((a) => a.name === "to")?.i ?? 0))) return;
    activeNodes.push(i);
    for (const o of n.output ?? []) active.add(o);
  });
  // Keep the active nodes whose outputs lead to `to`.
  const needed = new Set(to);
  const missing = new Set<string>();
  for (let k = activeNodes.length - 1; k >= 0; k--) {
    const n = nodes[activeNodes[k] as number];
    if (n === undefined || !(n.output ?? []).some((o) => needed.has(o))) continue;
    for (const x of n.input ?? []) if (x) needed.add(x);
    const op = n.opType ?? "";
    const foreign = n.domain && n.domain !== "ai.onnx";
    if (foreign || RULES[op] === undefined) missing.add(foreign ? `${n.domain}:${op}` : op);
  }
  return [...missing].sort();
}

function isFloatType(t: number): boolean {
  return t === DataType.FLOAT || t === DataType.FLOAT16 || t === DataType.DOUBLE || t === 16;
}

function inspectFile(dir: string, file: string, dtype: ModelDtype): { info: InspectedFile; normalized?: ModelProto } {
  const path = join(dir, file);
  const external = existsSync(`${path}_data`) || existsSync(`${path}.data`);
  const bytes =
    statSync(path).size +
    (existsSync(`${path}_data`) ? statSync(`${path}_data`).size : 0) +
    (existsSync(`${path}.data`) ? statSync(`${path}.data`).size : 0);
  const info: InspectedFile = { file, dtype, bytes, externalData: external, ops: [], inputs: [], outputs: [] };
  let raw: ModelProto;
  try {
    raw = loadGraphFile(path);
  } catch (e) {
    info.error = (e as Error).message;
    return { info };
  }
  info.ops = opsOf(raw);
  const described = (v: NonNullable<IGraphProto["input"]>[number]) => {
    const { elemType, shape } = valueInfoShape(v);
    return { name: v.name ?? "", type: TYPE_NAMES[elemType] ?? `type ${elemType}`, shape: shape ?? [] };
  };
  info.inputs = (raw.graph?.input ?? []).map(described);
  info.outputs = (raw.graph?.output ?? []).map(described);
  try {
    const r = normalizeModel(raw, { file: path });
    info.normalization = r.report;
    return { info, normalized: r.model };
  } catch (e) {
    info.error = (e as Error).message;
    return { info };
  }
}

/** A feature that does not apply to the model's kind, with the reason. */
function notApplicable(feature: ModelFeature): FeatureSupport {
  return { supported: false, blockers: [NOT_APPLICABLE[feature]], applicable: false };
}

function supported(blockers: string[]): FeatureSupport {
  return { supported: blockers.length === 0, blockers };
}

/**
 * Why transformers.js (`from_pretrained` + `generate`) cannot generate with these graphs, from their inputs
 * (the decoder last): int32 ids (it feeds int64), a cache not named past_key_values.N.key/value, a decoder
 * without a cache (it decodes one token per step from the cache). Used on files (`npov model inspect`) and on
 * loaded sessions (the local generator).
 */
export function generationBlockers(
  graphs: ReadonlyArray<{ file: string; inputs: ReadonlyArray<{ name: string; type: string }> }>,
): string[] {
  const blockers: string[] = [];
  for (const f of graphs) {
    for (const input of f.inputs) {
      if (/^(input_ids|decoder_input_ids|attention_mask|position_ids)$/.test(input.name) && input.type === "int32")
        blockers.push(`${f.file}: ${input.name} is int32 (transformers.js feeds int64)`);
      if (isPastInput(input.name) && !input.name.startsWith("past_key_values."))
        blockers.push(`${f.file}: cache input "${input.name}" is not in the past_key_values.N.key/value layout`);
    }
  }
  const decoder = graphs[graphs.length - 1];
  if (decoder !== undefined && !decoder.inputs.some((i) => isPastInput(i.name)))
    blockers.push(
      `${decoder.file} has no key/value cache inputs (transformers.js decodes one token per step with the cache)`,
    );
  return blockers;
}

/** Whether transformers.js (`from_pretrained` + `generate`) can generate with these files, and how. */
function generationSupport(kind: "causal" | "seq2seq", layout: string, files: InspectedFile[]): FeatureSupport {
  const blockers = generationBlockers(files);
  const notes: string[] = [];
  if (kind === "causal" && layout !== "model" && blockers.length === 0)
    notes.push(
      `transformers.js loads onnx/model*.onnx by default: pass model_file_name "${layout}" (npov: --model-file ${layout})`,
    );
  return { supported: blockers.length === 0, blockers, ...(notes.length > 0 ? { notes } : {}) };
}

/** Support of `nli` for one variant of a sequence classifier: labels with entailment, `logits` of that width. */
function nliSupport(
  common: string[],
  labels: { labels: string[]; entailment: number | undefined } | string,
  inspected: ReadonlyArray<{ info: InspectedFile; normalized?: ModelProto }>,
): FeatureSupport {
  const blockers = [...common];
  if (typeof labels === "string") blockers.push(labels);
  else if (labels.entailment === undefined)
    blockers.push(
      `config.json's id2label has no entailment label (${labels.labels.map((l) => JSON.stringify(l)).join(", ")})`,
    );
  for (const x of inspected) {
    const logits = x.info.outputs.find((o) => o.name === "logits");
    if (logits === undefined) blockers.push(`${x.info.file}: no "logits" output`);
    else if (logits.shape.length !== 2)
      blockers.push(`${x.info.file}: "logits" has ${logits.shape.length} dimensions, not [batch, labels]`);
    else if (
      typeof labels !== "string" &&
      typeof logits.shape[1] === "number" &&
      logits.shape[1] !== labels.labels.length
    )
      blockers.push(`${x.info.file}: "logits" has ${logits.shape[1]} columns for ${labels.labels.length} labels`);
  }
  return supported(blockers);
}

/**
 * Inspect a model folder in the transformers.js layout (see the module comment).
 * @throws NpovError subclasses when the folder has no config.json or no ONNX graph.
 */
export async function inspectModel(dir: string, options: { deep?: boolean } = {}): Promise<ModelInspection> {
  if (!existsSync(join(dir, "config.json")))
    throw new ModelNotFoundError(dir, "it has no config.json: give a model folder (transformers.js layout).");
  const configFile = join(dir, "config.json");
  const config = readModelConfig(configFile);
  const seq2seq = isEncoderDecoderConfig(config);
  const onnxDir = join(dir, "onnx");
  let graphs: string[] = [];
  if (existsSync(onnxDir))
    try {
      graphs = readdirSync(onnxDir).filter((f) => f.endsWith(".onnx"));
    } catch (cause) {
      // A file named onnx, or a folder this user may not list.
      throw new ModelFileError(onnxDir, "unreadable", (cause as Error).message, cause);
    }
  if (graphs.length === 0) throw new ModelNotFoundError(dir, "it has no onnx/*.onnx files.");
  const layouts = seq2seq
    ? ["decoder_model", "decoder_model_merged"]
    : ["model", "decoder_model", "decoder_model_merged"];
  const tokenizerOk = existsSync(join(dir, "tokenizer.json"));
  // The kind: config.json decides when it can; else the first readable graph (a classifier's logits are 2-D).
  let kind: ModelKind | undefined = seq2seq ? "seq2seq" : undefined;
  const architectures = configArchitectures(config);
  if (kind === undefined && architectures.some((a) => /(ForSequenceClassification|ForCausalLM|LMHeadModel)$/.test(a)))
    kind = modelKind(config);
  if (kind === undefined) {
    // One graph file is read for this (the variants are inspected one at a time below, never all at once).
    const first = layouts.flatMap((l) => availableDtypes(dir, l).map((d) => `onnx/${l}${DTYPE_SUFFIX[d]}.onnx`))[0];
    try {
      if (first !== undefined) kind = modelKind(config, loadGraphFile(join(dir, first)));
    } catch {
      // An unreadable graph is reported with its variant below.
    }
  }
  let labels: { labels: string[]; entailment: number | undefined } | string | undefined;
  const resolvedKind: ModelKind = kind ?? "causal";
  if (resolvedKind === "sequence-classifier")
    try {
      labels = classifierLabels(config, configFile);
    } catch (e) {
      labels = (e as Error).message;
    }
  const inspection: ModelInspection = {
    dir,
    modelType: String(config.model_type ?? ""),
    kind: resolvedKind,
    architectures,
    ...(labels !== undefined && typeof labels !== "string" ? { labels: labels.labels } : {}),
    applicableFeatures: [...FEATURES_OF_KIND[resolvedKind]],
    variants: [],
  };
  const classifier = resolvedKind === "sequence-classifier";
  for (const layout of layouts) {
    // A sequence classifier is one model*.onnx file; decoder layouts do not apply to it.
    if (classifier && layout !== "model") continue;
    for (const dtype of availableDtypes(dir, layout)) {
      const suffix = DTYPE_SUFFIX[dtype];
      const names = seq2seq
        ? [`onnx/encoder_model${suffix}.onnx`, `onnx/${layout}${suffix}.onnx`]
        : [`onnx/${layout}${suffix}.onnx`];
      const missing = names.filter((f) => !existsSync(join(dir, f)));
      const inspected = names.filter((f) => existsSync(join(dir, f))).map((f) => inspectFile(dir, f, dtype));
      const files = inspected.map((x) => x.info);
      const common: string[] = [
        ...missing.map((f) => `${f} is missing`),
        ...files.filter((f) => f.error).map((f) => `${f.file}: ${f.error}`),
        ...(tokenizerOk ? [] : ["tokenizer.json is missing"]),
      ];
      const scoring = [...common];
      const gradients = [...common];
      for (const x of inspected) {
        if (x.normalized === undefined) continue;
        if (
          !(x.normalized.graph?.output ?? []).some((o) => o.name === "logits") &&
          !x.info.file.includes("encoder_model")
        )
          scoring.push(`${x.info.file}: no "logits" output`);
        const isEncoder = x.info.file.includes("encoder_model");
        try {
          const embeds = findEmbeddingOutput(x.normalized, "input_ids");
          const noRule = opsWithoutGradient(x.normalized, [embeds], [isEncoder ? "last_hidden_state" : "logits"]);
          if (noRule.length > 0) gradients.push(`${x.info.file}: no gradient rule for ${noRule.join(", ")}`);
        } catch (e) {
          gradients.push(`${x.info.file}: ${(e as Error).message}`);
          scoring.push(`${x.info.file}: ${(e as Error).message}`);
        }
      }
      if (options.deep && gradients.length === 0 && (classifier || scoring.length === 0)) {
        try {
          const normalized = inspected.map((x) => x.normalized as ModelProto);
          const pretrained: PretrainedFiles = {
            dir,
            config,
            tokenizer: tokenizerFromFiles(dir),
            encoderDecoder: seq2seq,
            kind: resolvedKind,
            dtype,
            onnxFiles: names,
            normalization: {},
            ...(seq2seq ? { encoder: normalized[0], decoder: normalized[1] } : { model: normalized[0] }),
          };
          if (classifier) {
            const graph = await classifierEmbeddingGraph(pretrained);
            const session = await GradientSession.create(graph.model, {
              of: "logits",
              wrt: ["inputs_embeds"],
              seed: "input",
            });
            await session.release();
          } else {
            const graph = await embeddingGraph(pretrained, { decoderEmbeds: seq2seq });
            const session = await GradientSession.create(graph.model, {
              of: "token_loss",
              wrt: seq2seq ? ["inputs_embeds", "decoder_inputs_embeds"] : ["inputs_embeds"],
              seed: "ones",
            });
            await session.release();
          }
        } catch (e) {
          gradients.push(`gradient graph: ${(e as Error).message}`);
        }
      }
      const features: Record<ModelFeature, FeatureSupport> = classifier
        ? {
            generation: notApplicable("generation"),
            scoring: notApplicable("scoring"),
            salience: supported(gradients),
            tuning: notApplicable("tuning"),
            nli: nliSupport(common, labels ?? "config.json has no id2label", inspected),
          }
        : {
            // A file that could not be read or parsed is the reason, not what its absent inputs would imply.
            generation:
              common.length > 0
                ? supported(common)
                : generationSupport(resolvedKind === "seq2seq" ? "seq2seq" : "causal", layout, files),
            scoring: supported(scoring),
            salience: supported(gradients),
            tuning: supported(gradients),
            nli: notApplicable("nli"),
          };
      inspection.variants.push({ dtype, layout, files, features });
    }
  }
  if (inspection.variants.length === 0)
    throw new ModelNotFoundError(
      dir,
      `none of its ONNX files (${graphs.slice(0, 5).join(", ")}${graphs.length > 5 ? ", ..." : ""}) has a name transformers.js loads for a ${resolvedKind} model (${layouts.map((l) => `${l}[_dtype].onnx`).join(", ")}${seq2seq ? " with encoder_model[_dtype].onnx" : ""}).`,
    );
  inspection.variants.sort((a, b) => MODEL_DTYPES.indexOf(a.dtype) - MODEL_DTYPES.indexOf(b.dtype));
  return inspection;
}
