// End to end over loopback: npov's server runs a real model (stories260K, imported from llama2.c) and the
// endpoint classifier talks to it through the openai SDK. Its P(NO) must equal the label-token softmax of
// a direct onnxruntime-node run of the same model on the same prompt.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { AutoTokenizer, env } from "@huggingface/transformers";
import { importLlama2c } from "@npov/autograd";
import { classifierPrompt, generatorPrompt, type NpovInput } from "@npov/core";
import { cleanGeneratorText, createServer, LocalGenerator, listen } from "@npov/generate";
import { EndpointClassifier, LlmClient } from "@npov/llm";
import * as ort from "onnxruntime-node";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const shared = fileURLToPath(new URL("../../../../shared/models/stories260K/", import.meta.url));
const root = mkdtempSync(join(tmpdir(), "npov-endpoint-"));
const dir = join(root, "stories260K");
importLlama2c(join(shared, "stories260K.bin"), join(shared, "tok512.bin"), dir);

const input: NpovInput = {
  topic: "zoos",
  query: "Should zoos be abolished?",
  perspectives: [
    { label: "pro", arguments: [{ text: "Animals in zoos cannot live as they would in the wild." }] },
    { label: "con", arguments: [{ text: "Zoos save endangered species through breeding programs." }] },
  ],
};
const response = "People disagree about zoos. Some say animals in zoos cannot live as they would in the wild.";

// The label tokens of this 512-piece vocabulary, found by hand: "YES" is encoded Y+E+S and "NO" as N+O,
// so the first answer token is a single letter; the rule also counts every casing and space-prefixed form.
// Independent of the library's label rule: each string below was checked against the vocabulary.
const YES_FORMS = new Set(["Y", "y", "Ye", "ye", "YE", "Yes", "yes", "YES"]);
const NO_FORMS = new Set(["N", "n", "No", "no", "NO"]);

let session: ort.InferenceSession;
let tokenizer: Awaited<ReturnType<typeof AutoTokenizer.from_pretrained>>;

/** Logits of the last position of `ids`, straight from onnxruntime-node. */
async function lastLogits(ids: number[]): Promise<Float32Array> {
  const i64 = (xs: number[]) => new ort.Tensor("int64", BigInt64Array.from(xs.map(BigInt)), [1, xs.length]);
  const feeds: Record<string, ort.Tensor> = {};
  for (const name of session.inputNames) {
    if (name === "input_ids") feeds[name] = i64(ids);
    else if (name === "attention_mask") feeds[name] = i64(ids.map(() => 1));
    else if (name === "position_ids") feeds[name] = i64(ids.map((_, k) => k));
    else if (name.startsWith("past_key_values"))
      feeds[name] = new ort.Tensor("float32", new Float32Array(0), [1, 4, 0, 8]);
  }
  const out = await session.run(feeds);
  const logits = out.logits as ort.Tensor;
  const vocab = logits.dims[2] as number;
  return (logits.data as Float32Array).slice((ids.length - 1) * vocab, ids.length * vocab);
}

describe("endpoint classifier against npov's server running stories260K", () => {
  let app: ReturnType<typeof createServer>;
  let base: string;
  let generator: LocalGenerator;
  beforeAll(async () => {
    session = await ort.InferenceSession.create(join(dir, "onnx/model.onnx"));
    env.allowRemoteModels = false;
    env.localModelPath = `${root}/`;
    tokenizer = await AutoTokenizer.from_pretrained("stories260K");
    generator = await LocalGenerator.fromPretrained(dir);
    app = createServer({ generator });
    base = await listen(app, { host: "127.0.0.1", port: 0 });
  });
  afterAll(async () => {
    await app.close();
  });

  it("P(NO) over /v1/completions equals the softmax of the label logits of a direct onnxruntime run", async () => {
    const client = new LlmClient({ baseURL: `${base}/v1`, model: "stories260K" });
    const classifier = new EndpointClassifier(client, { api: "completions", topLogprobs: 512, maxTokens: 1 });
    const verdicts = await classifier.classify(input, response);
    const vocab = 512;
    const yesIds: number[] = [];
    const noIds: number[] = [];
    for (let id = 0; id < vocab; id++) {
      const text = tokenizer.decode([id], { skip_special_tokens: false }).trim();
      if (YES_FORMS.has(text)) yesIds.push(id);
      if (NO_FORMS.has(text)) noIds.push(id);
    }
    // The vocabulary really holds single-letter label tokens (Y = 452, N = 458 begin "YES}" / "NO}").
    expect(yesIds).toContain(452);
    expect(noIds).toContain(458);
    for (const task of ["hallucination", "coverage"] as const) {
      const ids = tokenizer.encode(classifierPrompt(input, response, task)) as number[];
      const logits = await lastLogits(ids);
      const max = Math.max(...logits);
      const mass = (xs: number[]) => xs.reduce((s, id) => s + Math.exp((logits[id] as number) - max), 0);
      const expected = mass(noIds) / (mass(yesIds) + mass(noIds));
      const v = verdicts[task]!;
      expect(v.method).toBe("logprobs");
      expect(Math.abs(v.pNo - expected)).toBeLessThan(1e-5);
    }
    const scores = await classifier.detect(input, response);
    expect(scores.hallucination).toBe(verdicts.hallucination!.pNo);
    expect(scores.coverage).toBe(verdicts.coverage!.pNo);
    // classify and detect asked both tasks, without a cache: 4 requests, each reporting usage.
    expect(client.usage()).toMatchObject({ requests: 4, cacheHits: 0, requestsWithoutUsage: 0 });
    expect(client.usage().promptTokens).toBe(
      2 *
        (["hallucination", "coverage"] as const)
          .map((t) => (tokenizer.encode(classifierPrompt(input, response, t)) as number[]).length)
          .reduce((a, b) => a + b, 0),
    );
    expect(client.usage().completionTokens).toBe(4);
  });

  it("chat completions carry teacher-forced logprobs, real usage, length finish and n choices", async () => {
    const sdk = new OpenAI({ baseURL: `${base}/v1`, apiKey: "unused" });
    const promptIds = tokenizer.encode(generatorPrompt(input)) as number[];
    const chat = await sdk.chat.completions.create({
      model: "stories260K",
      messages: [{ role: "user", content: JSON.stringify(input) }],
      max_tokens: 3,
      logprobs: true,
      top_logprobs: 5,
    });
    const choice = chat.choices[0]!;
    expect(choice.finish_reason).toBe("length");
    expect(chat.usage).toMatchObject({
      prompt_tokens: promptIds.length,
      completion_tokens: 3,
      total_tokens: promptIds.length + 3,
    });
    const first = choice.logprobs!.content![0]!;
    const logits = await lastLogits(promptIds);
    const max = Math.max(...logits);
    const logZ = max + Math.log(logits.reduce((s, x) => s + Math.exp(x - max), 0));
    const best = logits.indexOf(max); // greedy picks the argmax
    expect(first.token).toBe(tokenizer.decode([best], { skip_special_tokens: false }));
    expect(Math.abs(first.logprob - ((logits[best] as number) - logZ))).toBeLessThan(1e-5);
    expect(first.top_logprobs).toHaveLength(5);
    expect(first.top_logprobs[0]!.logprob).toBeCloseTo(first.logprob, 10);
    for (let k = 1; k < 5; k++)
      expect(first.top_logprobs[k]!.logprob).toBeLessThanOrEqual(first.top_logprobs[k - 1]!.logprob);

    const sampled = await sdk.chat.completions.create({
      model: "stories260K",
      messages: [{ role: "user", content: JSON.stringify(input) }],
      max_tokens: 6,
      n: 2,
      temperature: 1,
      seed: 5,
    });
    expect(sampled.choices.map((c) => c.index)).toEqual([0, 1]);
    expect(sampled.usage!.completion_tokens).toBeLessThanOrEqual(12);
    // Choice i uses seed + i: choice 1 of seed 5 is choice 0 of seed 6.
    const seed6 = await sdk.chat.completions.create({
      model: "stories260K",
      messages: [{ role: "user", content: JSON.stringify(input) }],
      max_tokens: 6,
      temperature: 1,
      seed: 6,
    });
    expect(seed6.choices[0]!.message.content).toBe(sampled.choices[1]!.message.content);
  });

  it("streams the same cleaned content it returns, and honours stop strings", async () => {
    const sdk = new OpenAI({ baseURL: `${base}/v1`, apiKey: "unused" });
    const ask = {
      model: "stories260K",
      messages: [{ role: "user" as const, content: JSON.stringify(input) }],
      max_tokens: 24,
    };
    const plain = await sdk.chat.completions.create(ask);
    const raw = await generator.complete(generatorPrompt(input), { maxNewTokens: 24 });
    expect(plain.choices[0]!.message.content).toBe(cleanGeneratorText(raw.text));
    const stream = await sdk.chat.completions.create({ ...ask, stream: true });
    let text = "";
    let finish: string | null | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? "";
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect(text).toBe(plain.choices[0]!.message.content);
    expect(finish).toBe(plain.choices[0]!.finish_reason);

    // A stop string taken from the greedy text itself: the text ends right before it.
    const words = raw.text.trim().split(/\s+/);
    const stop = words.length > 2 ? (words[2] as string) : undefined;
    if (stop === undefined)
      throw new Error(`the greedy text is too short for a stop test: ${JSON.stringify(raw.text)}`);
    const completion = await sdk.completions.create({
      model: "stories260K",
      prompt: generatorPrompt(input),
      max_tokens: 24,
      stop: [stop],
    });
    expect(completion.choices[0]!.text).toBe(raw.text.slice(0, raw.text.indexOf(stop)));
    expect(completion.choices[0]!.finish_reason).toBe("stop");
  });

  it("lists its model, and a busy port is a typed one-line error", async () => {
    const models = await new OpenAI({ baseURL: `${base}/v1`, apiKey: "unused" }).models.list();
    expect(models.data.map((m) => m.id)).toEqual([generator.model]);
    const port = Number(new URL(base).port);
    const second = createServer({ generator });
    const error = await listen(second, { host: "127.0.0.1", port }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "PORT_IN_USE" });
    expect((error as Error).message).toContain(`port ${port} on 127.0.0.1 is already in use`);
    await second.close();
  });
});

// The same over a real `npov serve` process (the built CLI), as a guardrail pipeline would run it.
describe("endpoint classifier against a real `npov serve` process", () => {
  const bin = fileURLToPath(new URL("../../cli/dist/bin.js", import.meta.url));
  let child: ChildProcess;
  let base: string;
  beforeAll(async () => {
    session ??= await ort.InferenceSession.create(join(dir, "onnx/model.onnx"));
    env.allowRemoteModels = false;
    env.localModelPath = `${root}/`;
    tokenizer ??= await AutoTokenizer.from_pretrained("stories260K");
    child = spawn(process.execPath, [bin, "serve", "--generator", "local", "--model", dir, "--port", "0"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    base = await new Promise<string>((resolve, reject) => {
      let stdout = "";
      let stderr = "";
      child.stdout!.on("data", (chunk) => {
        stdout += chunk;
        const m = / at (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
        if (m) resolve(m[1] as string);
      });
      child.stderr!.on("data", (chunk) => {
        stderr += chunk;
      });
      child.on("exit", (code) => reject(new Error(`npov serve exited with ${code}: ${stderr}`)));
    });
  });
  afterAll(async () => {
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
    }
  });

  it("binds to 127.0.0.1 and answers with the same P(NO) as onnxruntime", async () => {
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const client = new LlmClient({ baseURL: `${base}/v1`, model: "stories260K" });
    const classifier = new EndpointClassifier(client, {
      api: "completions",
      topLogprobs: 512,
      maxTokens: 1,
      task: "coverage",
    });
    const scores = await classifier.detect(input, response);
    const ids = tokenizer.encode(classifierPrompt(input, response, "coverage")) as number[];
    const logits = await lastLogits(ids);
    const max = Math.max(...logits);
    const mass = (xs: number[]) => xs.reduce((s, id) => s + Math.exp((logits[id] as number) - max), 0);
    const forms = (set: Set<string>) =>
      Array.from({ length: 512 }, (_, id) => id).filter((id) =>
        set.has(tokenizer.decode([id], { skip_special_tokens: false }).trim()),
      );
    const expected = mass(forms(NO_FORMS)) / (mass(forms(YES_FORMS)) + mass(forms(NO_FORMS)));
    expect(Math.abs(scores.coverage - expected)).toBeLessThan(1e-5);
  });
});
