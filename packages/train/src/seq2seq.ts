/**
 * Training T5-like encoder-decoders from scratch with @npov/autograd: every weight trainable, Adam with
 * warm-up and linear decay, gradient clipping, resumable checkpoints (weights, optimizer state, step; the
 * batch order is a function of seed and step, so a resumed run continues exactly), and export in the
 * Hugging Face / transformers.js folder layout.
 */
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  Adam,
  appendTokenLoss,
  buildT5,
  encodeModel,
  GradientSession,
  initializersToInputs,
  type ModelProto,
  mergeEncoderDecoder,
  randomInit,
  saveModel,
  type T5Config,
  t5ConfigJson,
  tokenizerFromFiles,
} from "@npov/autograd";
import { createRng, hashSeed, InvalidValueError, maxOf, toJsonl, writeFileAtomic } from "@npov/core";
import * as ort from "onnxruntime-node";
import type { TextPair } from "./data.js";

/** Model sizes: `tiny` for tests, `small` for the shipped models (a few million parameters). */
export const T5_SIZES = {
  tiny: { dModel: 32, dKv: 8, dFf: 64, numLayers: 1, numDecoderLayers: 1, numHeads: 4 },
  small: { dModel: 160, dKv: 32, dFf: 512, numLayers: 3, numDecoderLayers: 3, numHeads: 5 },
} as const;

export interface TrainOptions {
  steps: number;
  batchSize?: number;
  lr?: number;
  warmupSteps?: number;
  clipNorm?: number;
  seed?: number;
  /** Save a checkpoint every this many steps (default 200). */
  checkpointEvery?: number;
  /** Compute the dev loss every this many steps (default 200). */
  evalEvery?: number;
  maxSourceTokens?: number;
  maxTargetTokens?: number;
  /** Dev pairs used for the dev loss (default 64). */
  devSize?: number;
}

export interface TrainState {
  step: number;
  config: T5Config;
  options: Required<TrainOptions>;
  parameters: Array<{ name: string; dims: number[] }>;
  adam: { step: number };
  elapsedSeconds: number;
}

export interface HistoryEntry {
  step: number;
  loss: number;
  lr: number;
  devLoss?: number;
  seconds: number;
}

interface Encoded {
  source: number[];
  target: number[];
}

const json = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;

function fullOptions(o: TrainOptions): Required<TrainOptions> {
  return {
    steps: o.steps,
    batchSize: o.batchSize ?? 16,
    lr: o.lr ?? 1e-3,
    warmupSteps: o.warmupSteps ?? 200,
    clipNorm: o.clipNorm ?? 1,
    seed: o.seed ?? 0,
    checkpointEvery: o.checkpointEvery ?? 200,
    evalEvery: o.evalEvery ?? 200,
    maxSourceTokens: o.maxSourceTokens ?? 256,
    maxTargetTokens: o.maxTargetTokens ?? 192,
    devSize: o.devSize ?? 64,
  };
}

/** A resumable training run in `dir` (checkpoint/, history.jsonl; the exported model goes elsewhere). */
export class Seq2SeqTrainer {
  private constructor(
    readonly dir: string,
    readonly config: T5Config,
    readonly options: Required<TrainOptions>,
    private readonly trainable: ModelProto,
    readonly params: Map<string, Float32Array>,
    private readonly dims: Map<string, number[]>,
    private readonly adam: Adam,
    private readonly tokenizerDir: string,
    public step: number,
    private elapsed: number,
  ) {}

  /** Start a run in `dir` (tokenizer.json/tokenizer_config.json must already be there), or resume it. */
  static async open(dir: string, config: Omit<T5Config, "vocabSize">, options: TrainOptions): Promise<Seq2SeqTrainer> {
    const statePath = join(dir, "checkpoint", "state.json");
    const tokenizer = JSON.parse(readFileSync(join(dir, "tokenizer.json"), "utf8"));
    const vocabSize = Object.keys(tokenizer.model.vocab).length;
    const fullConfig: T5Config = { ...config, vocabSize };
    const opts = fullOptions(options);
    const { encoder, decoder } = buildT5(fullConfig, randomInit(opts.seed, 0.05));
    const merged = await appendTokenLoss(mergeEncoderDecoder(encoder.model, decoder.model));
    const names = (merged.graph?.initializer ?? []).map((t) => t.name ?? "").filter((n) => /weight$/.test(n));
    const { model: trainable, values } = initializersToInputs(merged, names);
    const params = new Map([...values].map(([n, v]) => [n, Float32Array.from(v.data as Float32Array)]));
    const dims = new Map([...values].map(([n, v]) => [n, v.dims]));
    const adam = new Adam(params, {
      lr: opts.lr,
      warmupSteps: opts.warmupSteps,
      totalSteps: opts.steps,
      clipNorm: opts.clipNorm,
    });
    let step = 0;
    let elapsed = 0;
    if (existsSync(statePath)) {
      const state = JSON.parse(readFileSync(statePath, "utf8")) as TrainState;
      if (JSON.stringify(state.config) !== JSON.stringify(fullConfig))
        throw new InvalidValueError(
          "config",
          `the checkpoint in ${dir} was made with another model configuration; use a new folder.`,
        );
      const blob = readFileSync(join(dir, "checkpoint", "tensors.bin"));
      let at = 0;
      const take = (n: number) => {
        const out = new Float32Array(blob.buffer.slice(blob.byteOffset + at, blob.byteOffset + at + n * 4));
        at += n * 4;
        return out;
      };
      const m: Record<string, number[]> = {};
      const v: Record<string, number[]> = {};
      for (const p of state.parameters) {
        const size = p.dims.reduce((a, b) => a * b, 1);
        params.get(p.name)?.set(take(size));
        m[p.name] = Array.from(take(size));
        v[p.name] = Array.from(take(size));
      }
      adam.restore({ step: state.adam.step, m, v });
      step = state.step;
      elapsed = state.elapsedSeconds;
    }
    return new Seq2SeqTrainer(dir, fullConfig, opts, trainable, params, dims, adam, dir, step, elapsed);
  }

  /** Parameter count. */
  get parameterCount(): number {
    let n = 0;
    for (const p of this.params.values()) n += p.length;
    return n;
  }

  private encodeAll(pairs: readonly TextPair[]): Encoded[] {
    const tok = tokenizerFromFiles(this.tokenizerDir);
    const eos = 1;
    return pairs.map((p) => ({
      source: (tok.encode(p.source, { add_special_tokens: false }) as number[])
        .slice(0, this.options.maxSourceTokens - 1)
        .concat(eos),
      target: (tok.encode(p.target, { add_special_tokens: false }) as number[])
        .slice(0, this.options.maxTargetTokens - 1)
        .concat(eos),
    }));
  }

  private feeds(batch: Encoded[]): { feeds: Record<string, ort.Tensor>; tokens: number } {
    const b = batch.length;
    const s = maxOf(batch.map((x) => x.source.length));
    const t = maxOf(batch.map((x) => x.target.length));
    const ids = new BigInt64Array(b * s);
    const mask = new BigInt64Array(b * s);
    const dec = new BigInt64Array(b * t);
    const labels = new BigInt64Array(b * t);
    const labelMask = new Float32Array(b * t);
    let tokens = 0;
    batch.forEach((x, r) => {
      x.source.forEach((id, k) => {
        ids[r * s + k] = BigInt(id);
        mask[r * s + k] = 1n;
      });
      x.target.forEach((id, k) => {
        dec[r * t + k] = BigInt(k === 0 ? 0 : (x.target[k - 1] as number));
        labels[r * t + k] = BigInt(id);
        labelMask[r * t + k] = 1;
        tokens++;
      });
    });
    const feeds: Record<string, ort.Tensor> = {
      input_ids: new ort.Tensor("int64", ids, [b, s]),
      attention_mask: new ort.Tensor("int64", mask, [b, s]),
      decoder_input_ids: new ort.Tensor("int64", dec, [b, t]),
      labels: new ort.Tensor("int64", labels, [b, t]),
      label_mask: new ort.Tensor("float32", labelMask, [b, t]),
    };
    for (let i = 0; i < this.config.numDecoderLayers; i++)
      for (const kv of ["key", "value"])
        feeds[`past_key_values.${i}.decoder.${kv}`] = new ort.Tensor("float32", new Float32Array(0), [
          b,
          this.config.numHeads,
          0,
          this.config.dKv,
        ]);
    for (const [name, p] of this.params) feeds[name] = new ort.Tensor("float32", p, this.dims.get(name) as number[]);
    return { feeds, tokens };
  }

  /** Batch `step` (1-based): a deterministic function of the seed and the step. */
  private batchAt(data: Encoded[], step: number): Encoded[] {
    const b = this.options.batchSize;
    const start = (step - 1) * b;
    const out: Encoded[] = [];
    for (let k = start; k < start + b; k++) {
      const epoch = Math.floor(k / data.length);
      const order = createRng(hashSeed(this.options.seed, "epoch", epoch)).shuffle(data.map((_, i) => i));
      out.push(data[order[k % data.length] as number] as Encoded);
    }
    return out;
  }

  /** Mean token loss on pairs (forward only). */
  async meanLoss(session: ort.InferenceSession, data: Encoded[]): Promise<number> {
    let sum = 0;
    let tokens = 0;
    for (let i = 0; i < data.length; i += this.options.batchSize) {
      const { feeds, tokens: n } = this.feeds(data.slice(i, i + this.options.batchSize));
      const r = await session.run(feeds, ["token_loss"]);
      sum += Array.from(r.token_loss?.data as Float32Array).reduce((a, c) => a + c, 0);
      tokens += n;
    }
    return sum / Math.max(tokens, 1);
  }

  /**
   * Train until `options.steps` (or an earlier `until`, e.g. to pause; the schedule still spans
   * `options.steps`), checkpointing; calls `onStep` after every step.
   */
  async train(
    train: readonly TextPair[],
    dev: readonly TextPair[],
    onStep?: (entry: HistoryEntry) => void,
    until = this.options.steps,
  ): Promise<HistoryEntry[]> {
    if (train.length === 0) throw new InvalidValueError("train", "no training pairs.");
    const data = this.encodeAll(train);
    const devData = this.encodeAll(dev.slice(0, this.options.devSize));
    const session = await GradientSession.create(this.trainable, {
      of: "token_loss",
      wrt: [...this.params.keys()],
      seed: "ones",
    });
    const forward = await ort.InferenceSession.create(encodeModel(this.trainable));
    const history: HistoryEntry[] = [];
    const started = performance.now() / 1000 - this.elapsed;
    const last = Math.min(until, this.options.steps);
    while (this.step < last) {
      this.step++;
      const { feeds, tokens } = this.feeds(this.batchAt(data, this.step));
      const r = await session.run(feeds, { outputs: ["token_loss"] });
      const loss = Array.from(r.outputs.token_loss?.data as Float32Array).reduce((a, c) => a + c, 0) / tokens;
      const grads = new Map<string, Float32Array>();
      for (const [name, g] of Object.entries(r.gradients)) {
        const data32 = g.data as Float32Array;
        for (let i = 0; i < data32.length; i++) data32[i] = (data32[i] as number) / tokens;
        grads.set(name, data32);
      }
      const { lr } = this.adam.update(grads);
      const entry: HistoryEntry = { step: this.step, loss, lr, seconds: performance.now() / 1000 - started };
      if (devData.length > 0 && (this.step % this.options.evalEvery === 0 || this.step === this.options.steps))
        entry.devLoss = await this.meanLoss(forward, devData);
      history.push(entry);
      onStep?.(entry);
      if (this.step % this.options.checkpointEvery === 0 || this.step === last) {
        this.elapsed = entry.seconds;
        this.checkpoint(history);
        history.length = 0;
      }
    }
    await session.release();
    await forward.release();
    return this.history();
  }

  private checkpoint(newEntries: HistoryEntry[]): void {
    const dir = join(this.dir, "checkpoint");
    mkdirSync(dir, { recursive: true });
    const adam = this.adam.state();
    const parts: Buffer[] = [];
    const parameters: TrainState["parameters"] = [];
    for (const [name, p] of this.params) {
      parameters.push({ name, dims: this.dims.get(name) as number[] });
      parts.push(
        Buffer.from(p.buffer, p.byteOffset, p.byteLength),
        Buffer.from(Float32Array.from(adam.m[name] ?? []).buffer),
        Buffer.from(Float32Array.from(adam.v[name] ?? []).buffer),
      );
    }
    writeFileAtomic(join(dir, "tensors.bin"), Buffer.concat(parts));
    const state: TrainState = {
      step: this.step,
      config: this.config,
      options: this.options,
      parameters,
      adam: { step: adam.step },
      elapsedSeconds: this.elapsed,
    };
    writeFileAtomic(join(dir, "state.json"), json(state));
    const historyFile = join(this.dir, "history.jsonl");
    const previous = existsSync(historyFile) ? readFileSync(historyFile, "utf8") : "";
    writeFileAtomic(historyFile, previous + toJsonl(newEntries));
  }

  /** The whole history so far (from history.jsonl). */
  history(): HistoryEntry[] {
    const file = join(this.dir, "history.jsonl");
    if (!existsSync(file)) return [];
    return readFileSync(file, "utf8")
      .split("\n")
      .filter((l) => l.trim())
      .map((l) => JSON.parse(l) as HistoryEntry);
  }

  /** Write the trained model in the transformers.js layout (encoder, decoder, merged decoder, configs, tokenizer). */
  exportModel(out: string, extraConfig: Record<string, unknown> = {}): string[] {
    const init = (name: string) => {
      const v = this.params.get(name) ?? this.params.get(`encoder/${name}`);
      if (v === undefined) throw new RangeError(`no trained weight for ${name}`);
      return Float32Array.from(v);
    };
    const { encoder, decoder } = buildT5(this.config, init);
    mkdirSync(join(out, "onnx"), { recursive: true });
    saveModel(join(out, "onnx/encoder_model.onnx"), encoder.model);
    saveModel(join(out, "onnx/decoder_model.onnx"), decoder.model);
    saveModel(join(out, "onnx/decoder_model_merged.onnx"), decoder.model);
    writeFileAtomic(join(out, "config.json"), json(t5ConfigJson(this.config, extraConfig)));
    writeFileAtomic(
      join(out, "generation_config.json"),
      json({ decoder_start_token_id: 0, eos_token_id: 1, pad_token_id: 0, max_length: this.options.maxTargetTokens }),
    );
    writeFileAtomic(join(out, "tokenizer.json"), readFileSync(join(this.tokenizerDir, "tokenizer.json")));
    writeFileAtomic(join(out, "tokenizer_config.json"), readFileSync(join(this.tokenizerDir, "tokenizer_config.json")));
    return [
      "config.json",
      "generation_config.json",
      "tokenizer.json",
      "tokenizer_config.json",
      "onnx/encoder_model.onnx",
      "onnx/decoder_model.onnx",
      "onnx/decoder_model_merged.onnx",
    ];
  }
}
