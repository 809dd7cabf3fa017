/**
 * Soft-prompt tuning (SPEC 2.3, the paper's prompt tuning): trainable vectors prepended to the input
 * embeddings of a frozen model, trained with the cross-entropy of the YES/NO target at the answer
 * position. Defaults are the paper's: 5 vectors initialised from embeddings of tokens sampled among the 5K
 * most frequent (counted on the training prompts), lr 0.1, 500 warm-up steps then linear decay, batch 16,
 * up to 20K steps, with periodic dev ROC AUC and early stopping on it.
 */
import { createHash } from "node:crypto";
import { Adam, encodeModel, GradientSession, requireRepresentable, withModelContext } from "@npov/autograd";
import {
  type ClassifierTask,
  classifierPrompt,
  createRng,
  InvalidScoreError,
  InvalidValueError,
  type NpovExample,
  rocAuc,
} from "@npov/core";
import * as ort from "onnxruntime-node";
import type { SoftPrompt } from "./softprompt-file.js";
import { answerLogits, type EmbeddingModel, encodePrompt, prepareBatch, probabilityNo, runModel } from "./yesno.js";

export interface TuneOptions {
  task: ClassifierTask;
  /** Soft-prompt length (default 5). */
  length?: number;
  /** Maximum steps (default 20,000). */
  steps?: number;
  /** Peak learning rate (default 0.1). */
  lr?: number;
  /** Linear warm-up steps (default 500, capped at a tenth of `steps`). */
  warmupSteps?: number;
  /** Examples per step (default 16). */
  batchSize?: number;
  /** Initialization pool: the most frequent token ids in the training prompts (default 5,000). */
  vocabTop?: number;
  /** Evaluate dev ROC AUC every this many steps (default 200). */
  evalEvery?: number;
  /** Stop after this many evaluations without improvement (default 5). */
  patience?: number;
  seed?: number;
  /** Called after every step (evaluation steps carry devAuc). */
  onProgress?: (p: { step: number; steps: number; loss: number; lr: number; devAuc?: number }) => void;
  /** Model id or path, recorded in the file's metadata. */
  modelName?: string;
  /**
   * Examples whose argument or response words the tokenizer cannot represent (see `YesNoOptions`):
   * `"error"` (default) refuses them with a typed `UNREPRESENTABLE_TEXT` error naming the example;
   * `"score"` trains on them anyway.
   */
  unrepresentableText?: "error" | "score";
}

export interface TuneResult {
  prompt: SoftPrompt;
  /** Loss per step and dev AUC at evaluation steps; step 0 holds the initialization's dev AUC (loss NaN). */
  history: Array<{ step: number; loss: number; devAuc?: number }>;
  stoppedEarly: boolean;
}

interface Item {
  ids: number[];
  target: number;
  error: boolean;
}

/**
 * The labelled examples as token ids, each checked before training starts: its prompt (with `softLength`
 * soft-prompt vectors) fits the model's context, and -- unless `unrepresentable` is "score" -- the
 * tokenizer represents its argument and response words.
 * @throws ContextTooLongError, UnrepresentableTextError
 */
function items(
  em: EmbeddingModel,
  examples: readonly NpovExample[],
  task: ClassifierTask,
  softLength: number,
  set: string,
  unrepresentable: "error" | "score",
): Item[] {
  const out: Item[] = [];
  examples.forEach((e, i) => {
    const label = e.labels?.[task];
    if (label === undefined) return;
    const ids = encodePrompt(em, classifierPrompt(e.input, e.response, task), softLength);
    if (unrepresentable === "error")
      requireRepresentable(em.files.dir, em.files.tokenizer, [
        ...e.input.perspectives.flatMap((p, k) =>
          p.arguments.map((a, j) => ({ path: `${set}[${i}].input.perspectives[${k}].arguments[${j}]`, text: a.text })),
        ),
        { path: `${set}[${i}].response`, text: e.response },
      ]);
    out.push({ ids, target: label ? em.labels.no : em.labels.yes, error: label });
  });
  return out;
}

/** P(NO) of `items` with soft prompt `soft` (forward only). */
async function devScores(
  session: ort.InferenceSession,
  em: EmbeddingModel,
  list: Item[],
  soft: Float32Array,
  batchSize: number,
): Promise<number[]> {
  const logits = await answerLogits(
    session,
    em,
    list.map((x) => x.ids),
    soft,
    batchSize,
  );
  return logits.map((l) => probabilityNo(l.yes, l.no));
}

/** The gradient of the mean token loss w.r.t. the soft-prompt vectors, and that loss, for one batch. */
export async function softPromptGradient(
  session: GradientSession,
  em: EmbeddingModel,
  batchIds: number[][],
  targets: number[],
  soft: Float32Array,
): Promise<{ loss: number; gradient: Float32Array }> {
  const batch = prepareBatch(em, batchIds, soft, targets);
  const r = await runModel(em, () => session.run(batch.feeds, { outputs: ["token_loss"] }), batch.feeds);
  const loss = Array.from(r.outputs.token_loss?.data as Float32Array).reduce((a, b) => a + b, 0) / batchIds.length;
  const g = r.gradients.inputs_embeds as ort.Tensor;
  const [b, width, d] = g.dims as [number, number, number];
  const gradient = new Float32Array(soft.length);
  const data = g.data as Float32Array;
  for (let row = 0; row < b; row++)
    for (let k = 0; k < soft.length; k++)
      gradient[k] = (gradient[k] as number) + (data[row * width * d + k] as number) / b;
  return { loss, gradient };
}

/** Tune a soft prompt on `train`, selecting the best dev ROC AUC. Deterministic per seed. */
export async function tuneSoftPrompt(
  em: EmbeddingModel,
  train: readonly NpovExample[],
  dev: readonly NpovExample[],
  options: TuneOptions,
): Promise<TuneResult> {
  const length = options.length ?? 5;
  const steps = options.steps ?? 20_000;
  const batchSize = options.batchSize ?? 16;
  const evalEvery = options.evalEvery ?? 200;
  const patience = options.patience ?? 5;
  const lr = options.lr ?? 0.1;
  const warmupSteps = Math.min(options.warmupSteps ?? 500, Math.floor(steps / 10));
  for (const [name, v] of Object.entries({ length, steps, batchSize, evalEvery, patience }))
    if (!Number.isInteger(v) || v < 1) throw new InvalidValueError(name, "must be a positive integer.");
  const unrepresentable = options.unrepresentableText ?? "error";
  if (unrepresentable !== "error" && unrepresentable !== "score")
    throw new InvalidValueError("unrepresentableText", 'must be "error" or "score".');
  const trainItems = items(em, train, options.task, length, "train", unrepresentable);
  const devItems = items(em, dev, options.task, length, "dev", unrepresentable);
  if (trainItems.length === 0) throw new InvalidValueError("train", `no examples labelled for ${options.task}.`);
  const rng = createRng(options.seed ?? 0);

  // Initialization: embeddings of tokens drawn from the most frequent ones in the training prompts.
  const counts = new Map<number, number>();
  for (const it of trainItems) for (const id of it.ids) counts.set(id, (counts.get(id) ?? 0) + 1);
  const frequent = [...counts.entries()]
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, options.vocabTop ?? 5000)
    .map(([id]) => id);
  const initTokens = Array.from({ length }, () => rng.pick(frequent));
  const d = em.table.dim;
  const soft = new Float32Array(length * d);
  initTokens.forEach((id, k) => {
    soft.set(em.table.data.subarray(id * d, (id + 1) * d), k * d);
  });

  // onnxruntime logs kernel failures to stderr itself; npov rethrows them as typed errors (runModel).
  const sessionOptions = { logSeverityLevel: 4 as const };
  const session = await withModelContext(em.files, () =>
    GradientSession.create(em.model, { of: "token_loss", wrt: ["inputs_embeds"], seed: "ones", sessionOptions }),
  );
  const forward = await withModelContext(em.files, () =>
    ort.InferenceSession.create(encodeModel(em.model), sessionOptions),
  );
  const adam = new Adam(new Map([["soft", soft]]), { lr, warmupSteps, totalSteps: steps });
  const history: TuneResult["history"] = [];
  let best = { auc: Number.NEGATIVE_INFINITY, vectors: Float32Array.from(soft), step: 0 };
  let sinceBest = 0;
  let order: Item[] = [];
  let stoppedEarly = false;
  const devLabels = devItems.map((x) => x.error);
  const canEvaluate = devLabels.some(Boolean) && devLabels.some((x) => !x);
  if (canEvaluate) {
    // Step 0: the initialization's dev AUC, the baseline tuning must beat.
    const auc = rocAuc(await devScores(forward, em, devItems, soft, batchSize), devLabels);
    history.push({ step: 0, loss: Number.NaN, devAuc: auc });
    best = { auc, vectors: Float32Array.from(soft), step: 0 };
  }
  for (let step = 1; step <= steps; step++) {
    if (order.length < batchSize) order = [...order, ...rng.shuffle(trainItems)];
    const batch = order.splice(0, batchSize);
    const { loss, gradient } = await softPromptGradient(
      session,
      em,
      batch.map((x) => x.ids),
      batch.map((x) => x.target),
      soft,
    );
    // A NaN loss (a NaN weight, an overflow) would turn every vector NaN: stop with a typed error instead.
    if (!Number.isFinite(loss)) throw new InvalidScoreError("soft-prompt tuning", `loss at step ${step}`, loss);
    const { lr: used } = adam.update(new Map([["soft", gradient]]));
    const entry: TuneResult["history"][number] = { step, loss };
    if (canEvaluate && (step % evalEvery === 0 || step === steps)) {
      const auc = rocAuc(await devScores(forward, em, devItems, soft, batchSize), devLabels);
      entry.devAuc = auc;
      if (auc > best.auc) {
        best = { auc, vectors: Float32Array.from(soft), step };
        sinceBest = 0;
      } else if (++sinceBest >= patience) {
        history.push(entry);
        options.onProgress?.({ step, steps, loss, lr: used, devAuc: auc });
        stoppedEarly = true;
        break;
      }
    }
    history.push(entry);
    options.onProgress?.({
      step,
      steps,
      loss,
      lr: used,
      ...(entry.devAuc === undefined ? {} : { devAuc: entry.devAuc }),
    });
  }
  await session.release();
  await forward.release();
  const vectors = canEvaluate ? best.vectors : Float32Array.from(soft);
  const dataHash = createHash("sha256")
    .update(JSON.stringify(trainItems.map((x) => [x.ids, x.target])))
    .digest("hex");
  return {
    prompt: {
      vectors,
      length,
      dim: d,
      meta: {
        model: options.modelName ?? em.files.dir,
        task: options.task,
        steps: canEvaluate ? best.step : history.length,
        devAuc: canEvaluate ? best.auc : null,
        dataHash,
        initTokens,
        hyperparameters: { lr, warmupSteps, batchSize, maxSteps: steps, evalEvery, patience, seed: options.seed ?? 0 },
      },
    },
    history,
    stoppedEarly,
  };
}
