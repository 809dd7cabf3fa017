/**
 * YES/NO label-logit classifiers (SPEC 2.3): a language model reads the Figure 4 prompt and the error
 * score is P(NO) from a softmax over the logits of the two label tokens at the answer position.
 *
 * Label tokens: "YES}" and "NO}" (the paper's targets) are tokenized as the model would see them (alone for
 * an encoder-decoder's decoder, after the prompt for a causal LM); their common prefix (e.g. a
 * SentencePiece "▁") is teacher-forced, and the first token where they differ is read. Labels whose first
 * differing tokens coincide raise a typed error.
 */
import {
  embeddingGraph,
  encodeForContext,
  encodeModel,
  feedsFor,
  loadPretrained,
  type ModelContext,
  type ModelDtype,
  type ModelProto,
  ModelRunError,
  maxPositions,
  modelContext,
  type PretrainedFiles,
  requireRepresentable,
  withModelContext,
} from "@npov/autograd";
import {
  type CheckInput,
  type ClassifierTask,
  ContextTooLongError,
  classifierPrompt,
  type ErrorDetector,
  type ErrorScores,
  InvalidScoreError,
  InvalidValueError,
  maxOf,
  NpovError,
  type NpovInput,
  repoPath,
  requireNpovInput,
  validateInput,
  validateResponse,
} from "@npov/core";
import * as ort from "onnxruntime-node";
import { loadSoftPrompt, type SoftPrompt } from "./softprompt-file.js";

/** The tokenizer cannot tell the labels apart at any position. */
export class LabelTokenError extends NpovError {
  constructor(message: string) {
    super("LABEL_TOKENS", message);
  }
}

export interface YesNoOptions {
  /** Which prompt(s) to score: one task, or both (default). */
  task?: ClassifierTask | "both";
  /**
   * Soft prompt(s): one per task, or a single file path or loaded prompt -- used for the task it was tuned
   * for (`meta.task`), or for every task when it names none.
   */
  softPrompt?: string | SoftPrompt | Partial<Record<ClassifierTask, string | SoftPrompt>>;
  /** Weights variant (transformers.js naming); default "auto" (see `loadPretrained` in @npov/autograd). */
  dtype?: ModelDtype | "auto";
  /** Decoder file base name, e.g. "decoder_model_merged" (transformers.js's `model_file_name`). */
  modelFileName?: string;
  /** Prompts per batch (default 8). */
  batchSize?: number;
  /** Label strings (default "YES}" and "NO}"). */
  labels?: { yes: string; no: string };
  /** onnxruntime session options (threads, execution providers, ...). */
  sessionOptions?: ort.InferenceSession.SessionOptions;
  /**
   * Argument or response words the tokenizer cannot represent (characters it maps to its unknown token,
   * no byte fallback). `"error"` (default): `detect` and `scoreBatch` throw a typed `UNREPRESENTABLE_TEXT`
   * error listing them, since the model would judge text it never saw; `"score"`: score anyway.
   */
  unrepresentableText?: "error" | "score";
  /**
   * Most tokens one row may hold, replacing the context config.json and tokenizer_config.json declare
   * (for a model whose files understate what its graph reads); the attention-memory cap still applies.
   * Default: the declared context (see @npov/autograd `modelContext`).
   */
  context?: number;
}

/** The label tokens and their teacher-forced common prefix. */
export interface LabelTokens {
  prefix: number[];
  yes: number;
  no: number;
}

/** The model pieces shared by scoring and tuning: a graph taking inputs_embeds, and the embedding table. */
export interface EmbeddingModel {
  files: PretrainedFiles;
  /** Graph with input `inputs_embeds` (and, for encoder-decoders, decoder_input_ids) plus a token loss. */
  model: ModelProto;
  table: { data: Float32Array; dim: number };
  labels: LabelTokens;
  /** The graph's input names (models differ in whether they read masks or positions). */
  inputNames: ReadonlySet<string>;
  /**
   * The most tokens one row may hold (see @npov/autograd `modelContext`): soft prompt + prompt on the
   * encoder side of an encoder-decoder; soft prompt + prompt + label prefix for a causal LM.
   */
  context: ModelContext;
}

function commonPrefix(a: number[], b: number[]): number {
  let k = 0;
  while (k < a.length && k < b.length && a[k] === b[k]) k++;
  return k;
}

/** Find the label tokens for a tokenizer (see the module comment). */
export function labelTokens(files: PretrainedFiles, labels = { yes: "YES}", no: "NO}" }): LabelTokens {
  const tok = files.tokenizer;
  const encode = (s: string) => tok.encode(s, { add_special_tokens: false }) as number[];
  let yes: number[];
  let no: number[];
  if (files.encoderDecoder) {
    yes = encode(labels.yes);
    no = encode(labels.no);
  } else {
    // In context: what follows the prompt's final "{".
    const context = encode(": {");
    const after = (s: string) => {
      const full = encode(`: {${s}`);
      return commonPrefix(context, full) === context.length ? full.slice(context.length) : encode(s);
    };
    yes = after(labels.yes);
    no = after(labels.no);
  }
  const k = commonPrefix(yes, no);
  if (k >= yes.length || k >= no.length)
    throw new LabelTokenError(
      `the tokenizer encodes "${labels.yes}" and "${labels.no}" without a differing token; choose other labels.`,
    );
  return { prefix: yes.slice(0, k), yes: yes[k] as number, no: no[k] as number };
}

/** Load a model and prepare the inputs_embeds graph with a per-token loss (used by scoring and tuning). */
export async function loadEmbeddingModel(
  idOrPath: string,
  options: {
    dtype?: ModelDtype | "auto";
    modelFileName?: string;
    labels?: { yes: string; no: string };
    /** See {@link YesNoOptions.context}. */
    context?: number;
  } = {},
): Promise<EmbeddingModel> {
  const files = await loadPretrained(idOrPath, {
    dtype: options.dtype ?? "auto",
    ...(options.modelFileName !== undefined ? { modelFileName: options.modelFileName } : {}),
  });
  const graph = await embeddingGraph(files);
  // Every dtype is normalised to fp32 (fp16 and quantized weights are converted), so the table is float32.
  return {
    files,
    model: graph.model,
    table: { data: graph.table.data as Float32Array, dim: graph.table.dim },
    labels: labelTokens(files, options.labels),
    inputNames: graph.inputNames,
    context: modelContext(files.config, files.tokenizer, options.context),
  };
}

/** Tokens a row holds besides the prompt: the soft prompt, and for a causal LM the label prefix. */
function overhead(em: EmbeddingModel, softLength: number): number {
  return softLength + (em.files.encoderDecoder ? 0 : em.labels.prefix.length);
}

/**
 * The token ids of a classifier prompt, refused before any long tokenization when the row (with
 * `softLength` soft-prompt vectors) would exceed the model's context.
 * @throws ContextTooLongError
 */
export function encodePrompt(em: EmbeddingModel, prompt: string, softLength = 0): number[] {
  const { tokens, source } = em.context;
  return encodeForContext(em.files.tokenizer, prompt, {
    limit: tokens,
    reserved: overhead(em, softLength),
    addSpecialTokens: true,
    model: em.files.dir,
    what: "the classifier prompt",
    source,
  });
}

/** A batch of prompts, padded, with optional soft-prompt vectors prepended to each. */
export interface PreparedBatch {
  feeds: Record<string, ort.Tensor>;
  /** Per row: position whose logits (and loss) answer the question. */
  answer: number[];
  /** Sequence length of the decoder (encoder-decoder) or the whole input (causal). */
  width: number;
}

/**
 * Feeds for a batch: prompt ids embedded (soft prompt first), right-padded; the teacher-forced label
 * prefix; labels (the yes/no token at the answer position, when `targets` are given).
 */
export function prepareBatch(
  em: EmbeddingModel,
  promptIds: readonly number[][],
  soft: Float32Array | undefined,
  targets?: number[],
): PreparedBatch {
  const { files, table, labels } = em;
  const d = table.dim;
  const p = soft === undefined ? 0 : soft.length / d;
  const rowsOfTable = Math.floor(table.data.length / d);
  promptIds.forEach((ids, r) => {
    const length = ids.length + overhead(em, p);
    if (length > em.context.tokens)
      throw new ContextTooLongError(
        files.dir,
        length,
        em.context.tokens,
        `row ${r} is too long (the limit comes from ${em.context.source}); shorten the prompt`,
      );
    const bad = ids.findIndex((id) => !Number.isInteger(id) || id < 0 || id >= rowsOfTable);
    if (bad >= 0)
      throw new InvalidValueError(
        `promptIds[${r}][${bad}]`,
        `token id ${ids[bad]} is not in the model's vocabulary (0..${rowsOfTable - 1}).`,
      );
  });
  const pad = Number(files.config.pad_token_id ?? 0);
  const b = promptIds.length;
  const i64 = (values: number[], dims: number[]) =>
    new ort.Tensor("int64", BigInt64Array.from(values.map(BigInt)), dims);
  const embedRows = (rows: readonly number[][], width: number) => {
    const out = new Float32Array(b * width * d);
    rows.forEach((ids, r) => {
      if (soft !== undefined) out.set(soft, r * width * d);
      ids.forEach((id, k) => {
        out.set(table.data.subarray(id * d, (id + 1) * d), (r * width + p + k) * d);
      });
    });
    return out;
  };
  if (files.encoderDecoder) {
    const width = p + maxOf(promptIds.map((x) => x.length));
    const ids = promptIds.flatMap((x) => [
      ...new Array(p).fill(pad),
      ...x,
      ...new Array(width - p - x.length).fill(pad),
    ]);
    const mask = promptIds.flatMap((x) => [
      ...new Array(p + x.length).fill(1),
      ...new Array(width - p - x.length).fill(0),
    ]);
    const start = Number(files.config.decoder_start_token_id ?? pad);
    const dec = [start, ...labels.prefix];
    const t = dec.length;
    const labelRow = (target: number) => [...labels.prefix, target];
    return {
      feeds: feedsFor(em, {
        input_ids: i64(ids, [b, width]),
        attention_mask: i64(mask, [b, width]),
        inputs_embeds: new ort.Tensor("float32", embedRows(promptIds, width), [b, width, d]),
        decoder_input_ids: i64(Array.from({ length: b }, () => dec).flat(), [b, t]),
        labels: i64((targets ?? new Array(b).fill(labels.yes)).flatMap(labelRow), [b, t]),
        label_mask: new ort.Tensor(
          "float32",
          Float32Array.from({ length: b * t }, (_, k) => (k % t === t - 1 ? 1 : 0)),
          [b, t],
        ),
      }),
      answer: new Array(b).fill(t - 1),
      width: t,
    };
  }
  // Causal: [soft prompt] prompt ids + label prefix, right-padded; the answer is read after the last real token.
  const rows = promptIds.map((x) => [...x, ...labels.prefix]);
  const width = p + maxOf(rows.map((x) => x.length));
  const ids = rows.flatMap((x) => [...new Array(p).fill(pad), ...x, ...new Array(width - p - x.length).fill(pad)]);
  const mask = rows.flatMap((x) => [...new Array(p + x.length).fill(1), ...new Array(width - p - x.length).fill(0)]);
  const answer = rows.map((x) => p + x.length - 1);
  const labelIds = new Array(b * width).fill(0);
  const labelMask = new Float32Array(b * width);
  answer.forEach((a, r) => {
    labelIds[r * width + a] = targets?.[r] ?? labels.yes;
    labelMask[r * width + a] = 1;
  });
  return {
    feeds: feedsFor(em, {
      input_ids: i64(ids, [b, width]),
      attention_mask: i64(mask, [b, width]),
      position_ids: i64(
        Array.from({ length: b * width }, (_, k) => k % width),
        [b, width],
      ),
      inputs_embeds: new ort.Tensor("float32", embedRows(rows, width), [b, width, d]),
      labels: i64(labelIds, [b, width]),
      label_mask: new ort.Tensor("float32", labelMask, [b, width]),
    }),
    answer,
    width,
  };
}

/**
 * The YES and NO logits at the answer position of each prompt (token ids), run forward in batches with an
 * optional soft prompt; shared by scoring and by tuning's dev evaluation. onnxruntime failures become a
 * typed {@link ModelRunError}.
 */
export async function answerLogits(
  session: ort.InferenceSession,
  em: EmbeddingModel,
  prompts: readonly number[][],
  soft: Float32Array | undefined,
  batchSize: number,
): Promise<Array<{ yes: number; no: number }>> {
  const out: Array<{ yes: number; no: number }> = [];
  for (let i = 0; i < prompts.length; i += batchSize) {
    const batch = prepareBatch(em, prompts.slice(i, i + batchSize), soft);
    const r = await runModel(em, () => session.run(batch.feeds, ["logits"]), batch.feeds);
    const logits = r.logits as ort.Tensor;
    const v = logits.dims[2] as number;
    const data = logits.data as Float32Array;
    batch.answer.forEach((a, row) => {
      const base = (row * batch.width + a) * v;
      out.push({ yes: data[base + em.labels.yes] as number, no: data[base + em.labels.no] as number });
    });
  }
  return out;
}

/** Run `run`; an onnxruntime failure becomes a {@link ModelRunError} naming the model and the batch width. */
export async function runModel<T>(
  em: EmbeddingModel,
  run: () => Promise<T>,
  feeds: Record<string, ort.Tensor>,
): Promise<T> {
  try {
    return await run();
  } catch (error) {
    const tokens = `${feeds.input_ids?.dims[1] ?? "?"} tokens`;
    throw new ModelRunError(em.files.dir, tokens, maxPositions(em.files.config), error);
  }
}

/** P(NO) = softmax([logit(YES), logit(NO)])[1], computed stably. */
export function probabilityNo(logitYes: number, logitNo: number): number {
  // An infinite logit (an fp16 overflow) decides the answer; Inf - Inf below would be NaN.
  if (logitYes === Number.POSITIVE_INFINITY || logitNo === Number.POSITIVE_INFINITY)
    return logitYes === logitNo ? Number.NaN : logitNo === Number.POSITIVE_INFINITY ? 1 : 0;
  const m = Math.max(logitYes, logitNo);
  const y = Math.exp(logitYes - m);
  const n = Math.exp(logitNo - m);
  return n / (y + n);
}

function resolveSoft(option: string | SoftPrompt | undefined): SoftPrompt | undefined {
  if (option === undefined) return undefined;
  return typeof option === "string" ? loadSoftPrompt(option) : option;
}

/** YES/NO classifiers for coverage and/or hallucination errors. */
export class YesNoClassifier implements ErrorDetector {
  readonly name = "classifier";
  private constructor(
    readonly em: EmbeddingModel,
    private readonly session: ort.InferenceSession,
    readonly tasks: ClassifierTask[],
    private readonly soft: Partial<Record<ClassifierTask, SoftPrompt>>,
    private readonly batchSize: number,
    private readonly unrepresentableText: "error" | "score",
  ) {}

  /** Load a model folder or id (default: the shipped models/npov-cls). */
  static async fromPretrained(
    idOrPath: string = repoPath("models", "npov-cls"),
    options: YesNoOptions = {},
  ): Promise<YesNoClassifier> {
    const task = options.task ?? "both";
    if (task !== "both" && task !== "coverage" && task !== "hallucination")
      throw new InvalidValueError("task", 'must be "coverage", "hallucination" or "both".');
    const tasks: ClassifierTask[] = task === "both" ? ["coverage", "hallucination"] : [task];
    const batchSize = options.batchSize ?? 8;
    if (!Number.isInteger(batchSize) || batchSize < 1)
      throw new InvalidValueError("batchSize", "must be a positive integer.");
    const unrepresentableText = options.unrepresentableText ?? "error";
    if (unrepresentableText !== "error" && unrepresentableText !== "score")
      throw new InvalidValueError("unrepresentableText", 'must be "error" or "score".');
    const em = await loadEmbeddingModel(idOrPath, options);
    const soft: Partial<Record<ClassifierTask, SoftPrompt>> = {};
    const option = options.softPrompt;
    if (typeof option === "string" || (option !== undefined && "vectors" in option)) {
      const sp = resolveSoft(option as string | SoftPrompt) as SoftPrompt;
      // A prompt tuned for one task (npov tune-prompt records it) serves that task only; the other runs
      // with the plain prompt. One without a known task serves every task.
      const tuned = sp.meta?.task;
      if (tuned === "coverage" || tuned === "hallucination") {
        if (!tasks.includes(tuned))
          throw new InvalidValueError(
            "softPrompt",
            `was tuned for the ${tuned} task, but this classifier scores ${tasks.join(" and ")} only: give a prompt tuned for it, or task "both".`,
          );
        soft[tuned] = sp;
      } else for (const t of tasks) soft[t] = sp;
    } else if (option !== undefined) {
      for (const t of tasks) {
        const sp = resolveSoft((option as Partial<Record<ClassifierTask, string | SoftPrompt>>)[t]);
        if (sp !== undefined) soft[t] = sp;
      }
    }
    for (const sp of Object.values(soft))
      if (sp !== undefined && sp.dim !== em.table.dim)
        throw new InvalidValueError(
          "softPrompt",
          `has vectors of size ${sp.dim}, the model's embeddings have ${em.table.dim}.`,
        );
    const session = await withModelContext(em.files, () =>
      // onnxruntime logs kernel failures to stderr itself; npov rethrows them as typed errors instead.
      ort.InferenceSession.create(encodeModel(em.model), { logSeverityLevel: 4, ...options.sessionOptions }),
    );
    return new YesNoClassifier(em, session, tasks, soft, batchSize, unrepresentableText);
  }

  /**
   * Logits of YES and NO for prompts (batched, padded); `soft` prepends soft-prompt vectors.
   * @throws ContextTooLongError when a prompt exceeds the model's context (`em.context`).
   */
  async labelLogits(prompts: string[], soft?: Float32Array): Promise<Array<{ yes: number; no: number }>> {
    const softLength = soft === undefined ? 0 : soft.length / this.em.table.dim;
    const ids = prompts.map((p) => encodePrompt(this.em, p, softLength));
    return answerLogits(this.session, this.em, ids, soft, this.batchSize);
  }

  /**
   * P(NO) for each example and task.
   * @throws ContextTooLongError (a prompt over the model's context), UnrepresentableTextError (argument or
   * response words the tokenizer maps to its unknown token; see {@link YesNoOptions.unrepresentableText}),
   * InvalidScoreError (a non-finite probability: the model computes NaN, e.g. from a NaN weight).
   */
  async scoreBatch(
    examples: ReadonlyArray<{ input: NpovInput; response: string }>,
    task: ClassifierTask,
  ): Promise<number[]> {
    const clean = examples.map((e, i) => ({
      input: validateInput(e.input, examples.length === 1 ? "input" : `examples[${i}].input`),
      response: validateResponse(e.response, examples.length === 1 ? "response" : `examples[${i}].response`),
    }));
    const prompts = clean.map((e) => classifierPrompt(e.input, e.response, task));
    const soft = this.soft[task]?.vectors;
    const softLength = soft === undefined ? 0 : soft.length / this.em.table.dim;
    // Lengths first (bounded work on huge texts), then what the tokenizer cannot represent.
    const ids = prompts.map((p) => encodePrompt(this.em, p, softLength));
    if (this.unrepresentableText === "error")
      clean.forEach((e, i) => {
        const at = examples.length === 1 ? "" : `examples[${i}].`;
        requireRepresentable(this.em.files.dir, this.em.files.tokenizer, [
          ...e.input.perspectives.flatMap((p, k) =>
            p.arguments.map((a, j) => ({ path: `${at}perspectives[${k}].arguments[${j}]`, text: a.text })),
          ),
          { path: `${at}response`, text: e.response },
        ]);
      });
    const logits = await answerLogits(this.session, this.em, ids, soft, this.batchSize);
    return logits.map((l, i) => {
      const p = probabilityNo(l.yes, l.no);
      if (!Number.isFinite(p))
        throw new InvalidScoreError(this.name, examples.length === 1 ? task : `examples[${i}].${task}`, p);
      return p;
    });
  }

  /** Error scores of one example; a task this classifier does not run scores NaN-free 0 and says so in features. */
  async detect(input: CheckInput, response: string): Promise<ErrorScores> {
    const npov = requireNpovInput(input, "classifier (YES/NO prompt)");
    const scores: Partial<Record<ClassifierTask, number>> = {};
    for (const task of this.tasks)
      scores[task] = (await this.scoreBatch([{ input: npov, response }], task))[0] as number;
    const features: Record<string, number> = {};
    for (const [t, s] of Object.entries(scores)) features[`classifier.${t}.pNo`] = s as number;
    return { hallucination: scores.hallucination ?? 0, coverage: scores.coverage ?? 0, features };
  }

  async dispose(): Promise<void> {
    await this.session.release();
  }
}
