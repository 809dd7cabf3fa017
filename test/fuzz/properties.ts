/**
 * The fuzz properties shared by the CI suite (test/fuzz.test.ts: few runs, fixed seed) and `pnpm fuzz`
 * (scripts/fuzz.ts: many runs, any seed). Every property says the same thing about a public boundary:
 * whatever comes in, the answer is a finite result in [0, 1] or an NpovError with a code -- never another
 * error class, never NaN, never a hang -- and a guard never allows what it could not check.
 *
 * Inputs: generated NPOV inputs and responses (missing fields, wrong types, non-ASCII, lone surrogates,
 * emoji-only and stop-word-only text, long strings within limits) through validateInput/validateResponse,
 * the data-free detectors (rouge, soft, align, support) and the guard; byte-level corruptions (truncation,
 * flipped, zeroed, random or replaced bytes, invalid UTF-8, NUL) of a model folder's files and of dataset,
 * knowledge-base and example files through the functions that read them.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createGuard, defaultSoftMatcher } from "@npov/classifier";
import {
  type ErrorDetector,
  loadKnowledgeBase,
  NpovError,
  type NpovInput,
  readExamples,
  readJsonFile,
  toJsonl,
  validateExample,
  validateInput,
  validateResponse,
} from "@npov/core";
import { alignErrorDetector, rougeErrorDetector, softErrorDetector, supportErrorDetector } from "@npov/rouge";
import { SalienceDetector } from "@npov/salience";
import fc from "fast-check";

export const REPO = join(fileURLToPath(import.meta.url), "../../..");
/** A tiny random-weight LLaMA-like model with a byte-fallback tokenizer (fp32 graph: 0.3 MB). */
export const FUZZ_MODEL = join(REPO, "../shared/models/zoo/optimum-llama");

/** What a call came to: a value, or the NpovError it threw. Anything else is a property failure. */
export type Outcome<T> = { ok: true; value: T } | { ok: false; error: NpovError };

/** Run `call`; an NpovError with a code is an outcome, any other throw fails the property. */
export async function outcome<T>(call: () => T | Promise<T>, what: string): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await call() };
  } catch (e) {
    if (e instanceof NpovError && typeof e.code === "string" && e.code.length > 0) return { ok: false, error: e };
    const name = e instanceof Error ? e.constructor.name : typeof e;
    throw new Error(`${what} threw ${name} instead of an NpovError: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** Throws unless `x` is a finite number in [0, 1]. */
export function assertUnit(x: unknown, what: string): void {
  if (typeof x !== "number" || !Number.isFinite(x) || x < 0 || x > 1)
    throw new Error(`${what} = ${String(x)}, not a finite number in [0, 1]`);
}

// ---------------------------------------------------------------------------------------------- inputs

const STOP_ONLY = ["It is what it is.", "the", "THE AND OF IT", "They were there. And so were we.", "is it not so"];
const NO_WORD = ["😀😀 🎉", "👍", "👨‍👩‍👧‍👦", "🇺🇳", "... !!! ???", "“ ” « »", "\u200B", "\u200D\uFEFF", "∑ ≈ ≠", "→ ←"];
const SCRIPTS = [
  "动物园让濒危物种得以繁衍。",
  "Зоопарки спасают исчезающие виды.",
  "تحمي حدائق الحيوان الأنواع المهددة.",
  "גני חיות מגינים על מינים.",
  "चिड़ियाघर प्रजातियों की रक्षा करते हैं।",
  "Οι ζωολογικοί κήποι προστατεύουν είδη.",
  "สวนสัตว์ช่วยปกป้องสัตว์",
  "Cafe\u0301s serve cre\u0300me brule\u0301e.",
  "𝐙𝐨𝐨𝐬 𝐩𝐫𝐨𝐭𝐞𝐜𝐭 𝐬𝐩𝐞𝐜𝐢𝐞𝐬.",
];
const WORDS = [
  "zoos",
  "protect",
  "endangered",
  "species",
  "animals",
  "suffer",
  "cages",
  "uniforms",
  "reduce",
  "income",
  "students",
  "parents",
  "money",
  "the",
  "and",
  "of",
  "is",
  "not",
  "because",
  "critics",
  "say",
];

/** Sentences of words from a small vocabulary (so responses and arguments overlap, as real ones do). */
const sentence = fc
  .array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 14 })
  .map((ws) => `${ws.join(" ")}.`.replace(/^./, (c) => c.toUpperCase()));

/** Text of every kind a user might send: plain, non-ASCII, lone surrogates, emoji, stop words, long. */
export const anyText: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.array(sentence, { minLength: 1, maxLength: 6 }).map((s) => s.join(" ")) },
  { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) }, // includes lone surrogates
  { weight: 2, arbitrary: fc.constantFrom(...STOP_ONLY) },
  { weight: 2, arbitrary: fc.constantFrom(...NO_WORD) },
  { weight: 2, arbitrary: fc.constantFrom(...SCRIPTS) },
  { weight: 1, arbitrary: fc.constantFrom("", "   ", "\n\t") },
  {
    weight: 1,
    arbitrary: fc
      .tuple(sentence, fc.integer({ min: 50, max: 400 }))
      .map(([s, n]) => Array.from({ length: n }, () => s).join(" ")), // up to ~40 KB
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom(...SCRIPTS), fc.constantFrom(...NO_WORD), sentence)
      .map(([a, b, c]) => `${a} ${b} ${c}`),
  },
);

/** Wrong types where text belongs. */
const junk: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.constant(undefined),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(Number.NaN),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 3 }),
);

/** Mostly text, sometimes a wrong type. */
const field = (text: fc.Arbitrary<string>) => fc.oneof({ weight: 9, arbitrary: text }, { weight: 1, arbitrary: junk });

const argument: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 5, arbitrary: field(anyText) },
  { weight: 4, arbitrary: fc.record({ text: field(anyText) }) },
  {
    weight: 1,
    arbitrary: fc.record(
      {
        text: field(anyText),
        id: field(fc.string({ maxLength: 8 })),
        paraphrases: fc.oneof(fc.array(anyText, { maxLength: 2 }), junk),
      },
      { requiredKeys: ["text"] },
    ),
  },
);

const perspective: fc.Arbitrary<unknown> = fc.oneof(
  {
    weight: 12,
    arbitrary: fc.record({
      label: field(fc.constantFrom("pro", "con", "neutral", "другие", "{x}", "")),
      arguments: fc.array(argument, { minLength: 0, maxLength: 4 }),
    }),
  },
  { weight: 1, arbitrary: junk },
  { weight: 1, arbitrary: fc.record({ label: fc.constant("pro") }) },
);

/** An input that passes validation: two labelled sides of sentences. */
export const validInput: fc.Arbitrary<NpovInput> = fc
  .tuple(
    fc.array(
      fc.array(sentence, { minLength: 1, maxLength: 2 }).map((s) => s.join(" ")),
      { minLength: 1, maxLength: 3 },
    ),
    fc.array(
      fc.array(sentence, { minLength: 1, maxLength: 2 }).map((s) => s.join(" ")),
      { minLength: 1, maxLength: 3 },
    ),
  )
  .map(([pro, con]) => ({
    topic: "zoos",
    query: "Should zoos be banned?",
    perspectives: [
      { label: "pro", arguments: pro.map((text) => ({ text })) },
      { label: "con", arguments: con.map((text) => ({ text })) },
    ],
  }));

/** One change to a valid input: a field replaced (by any text or a wrong type), removed or duplicated. */
type Mutation = {
  at: number;
  kind: "topic" | "query" | "label" | "argument" | "delete" | "add" | "drop" | "duplicate";
  value: unknown;
};

function mutate(input: NpovInput, m: Mutation): unknown {
  const v = structuredClone(input) as unknown as {
    topic?: unknown;
    query?: unknown;
    perspectives: Array<{ label: unknown; arguments: unknown[] }>;
  };
  const p = v.perspectives[m.at % v.perspectives.length] as { label: unknown; arguments: unknown[] };
  switch (m.kind) {
    case "topic":
      v.topic = m.value;
      break;
    case "query":
      v.query = m.value;
      break;
    case "label":
      p.label = m.value;
      break;
    case "argument":
      p.arguments[m.at % p.arguments.length] = m.value;
      break;
    case "delete":
      delete (v as Record<string, unknown>)[["topic", "query", "perspectives"][m.at % 3] as string];
      break;
    case "add":
      v.perspectives.push(m.value as never);
      break;
    case "drop":
      v.perspectives.splice(m.at % v.perspectives.length, 1);
      break;
    case "duplicate":
      v.perspectives.push(structuredClone(p));
      break;
  }
  return v;
}

const mutation: fc.Arbitrary<Mutation> = fc.record({
  at: fc.nat({ max: 100 }),
  kind: fc.constantFrom("topic", "query", "label", "argument", "delete", "add", "drop", "duplicate"),
  value: fc.oneof(field(anyText), argument, perspective),
}) as fc.Arbitrary<Mutation>;

/** NPOV inputs, valid and broken: a valid input with one change (missing fields, wrong types, too few or duplicate perspectives, any text), or junk. */
export const anyInput: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: validInput },
  { weight: 6, arbitrary: fc.tuple(validInput, mutation).map(([i, m]) => mutate(i, m)) },
  {
    weight: 2,
    arbitrary: fc.record(
      {
        topic: field(anyText),
        query: field(anyText),
        perspectives: fc.oneof(
          { weight: 10, arbitrary: fc.array(perspective, { minLength: 0, maxLength: 4 }) },
          { weight: 1, arbitrary: junk },
        ),
      },
      { requiredKeys: [] },
    ),
  },
  { weight: 1, arbitrary: junk },
);

let detectors: ErrorDetector[] | undefined;
/** rouge, soft, align and support, built once (the soft matcher and support tables load once). */
export function dataFreeDetectors(): ErrorDetector[] {
  detectors ??= [
    rougeErrorDetector(),
    softErrorDetector(defaultSoftMatcher()),
    alignErrorDetector(defaultSoftMatcher()),
    supportErrorDetector(),
  ];
  return detectors;
}

/** One (input, response) through validation, every data-free detector and a guard. */
export async function checkOne(rawInput: unknown, rawResponse: unknown): Promise<void> {
  const input = await outcome(() => validateInput(rawInput), "validateInput");
  const response = await outcome(() => validateResponse(rawResponse), "validateResponse");
  for (const detector of dataFreeDetectors()) {
    if (!input.ok || !response.ok) break;
    const r = await outcome(() => detector.detect(input.value, response.value), `${detector.name}.detect`);
    if (r.ok) {
      assertUnit(r.value.hallucination, `${detector.name} hallucination`);
      assertUnit(r.value.coverage, `${detector.name} coverage`);
      for (const a of r.value.uncoveredArguments ?? []) assertUnit(a.score, `${detector.name} argument score`);
      for (const s of r.value.unsupportedSpans ?? []) assertUnit(s.score, `${detector.name} span score`);
    }
  }
  // The guard (over ROUGE) sees the raw values and validates them itself. It must agree with the detector:
  // the detector's scores when it scores, a block with the detector's error code when it refuses -- never
  // an allow for something it could not check.
  const rouge = dataFreeDetectors()[0] as ErrorDetector;
  const direct =
    input.ok && response.ok
      ? await outcome(() => rouge.detect(input.value, response.value), "rouge.detect")
      : undefined;
  const guard = createGuard({ detector: rouge, thresholds: { hallucination: 0.5, coverage: 0.5 } });
  const verdict = await outcome(() => guard.check(rawInput as NpovInput, rawResponse as string), "guard.check");
  if (!verdict.ok) {
    if (direct?.ok) throw new Error(`guard.check threw ${verdict.error.code} where ROUGE scores the response`);
    return;
  }
  const v = verdict.value as unknown as {
    allow: unknown;
    reason?: { code?: unknown };
    hallucination: { score: unknown };
    coverage: { score: unknown };
  };
  if (typeof v.allow !== "boolean") throw new Error(`guard verdict allow = ${String(v.allow)}`);
  const reason = v.reason ?? undefined;
  if (direct === undefined || !direct.ok) {
    // Invalid input or response, or a response ROUGE cannot score: blocked, with the reason.
    if (v.allow !== false || reason === undefined || reason === null)
      throw new Error(
        `the guard answered allow = ${String(v.allow)} without a reason for ${direct ? direct.error.code : "input that does not validate"}`,
      );
    if (direct !== undefined && reason.code !== direct.error.code)
      throw new Error(`the guard blocked with ${String(reason.code)}, ROUGE refused with ${direct.error.code}`);
    return;
  }
  if (reason !== undefined && reason !== null)
    throw new Error(`the guard gave reason ${String(reason.code)} where ROUGE scores`);
  if (v.hallucination.score !== direct.value.hallucination || v.coverage.score !== direct.value.coverage)
    throw new Error("the guard's scores differ from its detector's");
  if (v.allow !== (direct.value.hallucination < 0.5 && direct.value.coverage < 0.5))
    throw new Error(`allow = ${String(v.allow)} disagrees with the scores and thresholds`);
}

/** The input-schema property: any input, any response. */
export function inputSchemaProperty(): fc.IAsyncPropertyWithHooks<[unknown, unknown]> {
  return fc.asyncProperty(anyInput, field(anyText), (input, response) => checkOne(input, response));
}

/** Valid inputs with any response: the detectors themselves see every kind of text. */
export function responseTextProperty(): fc.IAsyncPropertyWithHooks<[NpovInput, string]> {
  return fc.asyncProperty(validInput, anyText, (input, response) => checkOne(input, response));
}

// ----------------------------------------------------------------------------------- byte corruptions

/** One byte-level corruption of a file: what a disk, a download or a wrong tool can do to it. */
export type Corruption =
  | { kind: "truncate"; at: number }
  | { kind: "lines"; at: number }
  | { kind: "flip"; at: number; count: number }
  | { kind: "zero" }
  | { kind: "empty" }
  | { kind: "random"; seed: number; length: number }
  | { kind: "text" }
  | { kind: "invalid-utf8"; at: number }
  | { kind: "nul"; at: number }
  | { kind: "splice"; at: number; seed: number; length: number };

/** A position as a fraction of the file length, in steps of 1/1000 (doubles would crowd at 0 and 1). */
const fraction = fc.integer({ min: 0, max: 1000 }).map((k) => k / 1000);

/** Corruptions; positions are fractions of the file length, so one arbitrary serves every file. */
export const corruption: fc.Arbitrary<Corruption> = fc.oneof(
  fc.record({ kind: fc.constant("truncate" as const), at: fraction }),
  fc.record({ kind: fc.constant("lines" as const), at: fraction }),
  fc.record({
    kind: fc.constant("flip" as const),
    at: fraction,
    count: fc.integer({ min: 1, max: 64 }),
  }),
  fc.constant({ kind: "zero" as const }),
  fc.constant({ kind: "empty" as const }),
  fc.record({
    kind: fc.constant("random" as const),
    seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
    length: fc.integer({ min: 1, max: 4096 }),
  }),
  fc.constant({ kind: "text" as const }),
  fc.record({ kind: fc.constant("invalid-utf8" as const), at: fraction }),
  fc.record({ kind: fc.constant("nul" as const), at: fraction }),
  fc.record({
    kind: fc.constant("splice" as const),
    at: fraction,
    seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
    length: fc.integer({ min: 1, max: 256 }),
  }),
);

function seededBytes(seed: number, n: number): Buffer {
  let a = seed >>> 0;
  const out = Buffer.alloc(n);
  for (let i = 0; i < n; i++) {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    out[i] = ((t ^ (t >>> 14)) >>> 0) & 0xff;
  }
  return out;
}

/** Apply a corruption to file bytes (deterministic: positions and random bytes come from the corruption). */
export function corrupt(bytes: Buffer, c: Corruption): Buffer {
  const pos = (at: number) => Math.min(bytes.length, Math.floor(at * bytes.length));
  switch (c.kind) {
    case "truncate":
      return bytes.subarray(0, pos(c.at));
    case "lines": {
      // Cut after a line break: for JSON Lines, fewer records that are still whole.
      const at = bytes.indexOf(10, pos(c.at));
      return at < 0 ? bytes : bytes.subarray(0, at + 1);
    }
    case "flip": {
      const out = Buffer.from(bytes);
      if (out.length === 0) return out;
      for (let i = 0; i < c.count; i++) {
        const at = (pos(c.at) + i * 7919) % out.length;
        out[at] = (out[at] as number) ^ 0xff;
      }
      return out;
    }
    case "zero":
      return Buffer.alloc(bytes.length);
    case "empty":
      return Buffer.alloc(0);
    case "random":
      return seededBytes(c.seed, c.length);
    case "text":
      return Buffer.from("This is not the file you are looking for.\n");
    case "invalid-utf8":
      return Buffer.concat([
        bytes.subarray(0, pos(c.at)),
        Buffer.from([0xff, 0xfe, 0xc0, 0xaf]),
        bytes.subarray(pos(c.at)),
      ]);
    case "nul":
      return Buffer.concat([bytes.subarray(0, pos(c.at)), Buffer.from([0, 0, 0]), bytes.subarray(pos(c.at))]);
    case "splice": {
      const at = pos(c.at);
      return Buffer.concat([bytes.subarray(0, at), seededBytes(c.seed, c.length), bytes.subarray(at + c.length)]);
    }
  }
}

const MODEL_FILES = [
  "onnx/model.onnx",
  "config.json",
  "tokenizer.json",
  "tokenizer_config.json",
  "generation_config.json",
];

/** A scratch copy of the fuzz model (fp32 graph only). */
export function copyFuzzModel(dir: string): void {
  mkdirSync(join(dir, "onnx"), { recursive: true });
  for (const f of MODEL_FILES) copyFileSync(join(FUZZ_MODEL, f), join(dir, f));
}

/** An example short enough for the fuzz model's 256-token context. */
export const SHORT_EXAMPLE: { input: NpovInput; response: string } = {
  input: {
    topic: "zoos",
    query: "Should zoos be banned?",
    perspectives: [
      { label: "pro", arguments: [{ text: "Zoos protect endangered species." }] },
      { label: "con", arguments: [{ text: "Cages harm wild animals." }] },
    ],
  },
  response: "Zoos protect endangered species, but critics say cages harm wild animals.",
};

/**
 * A corrupt model folder: one of its files corrupted. Loading it and scoring a short example gives finite
 * scores in [0, 1] (a corruption the model survives) or an NpovError; the model is always released.
 */
export function modelFileProperty(scratch: string, example: { input: NpovInput; response: string } = SHORT_EXAMPLE) {
  let run = 0;
  return fc.asyncProperty(fc.constantFrom(...MODEL_FILES), corruption, async (file, c) => {
    const dir = join(scratch, `model-${run++}`);
    copyFuzzModel(dir);
    writeFileSync(join(dir, file), corrupt(readFileSync(join(FUZZ_MODEL, file)), c));
    try {
      const loaded = await outcome(
        () => SalienceDetector.fromPretrained(dir, { dtype: "fp32" }),
        "SalienceDetector.fromPretrained",
      );
      if (!loaded.ok) return;
      try {
        const r = await outcome(() => loaded.value.detect(example.input, example.response), "salience.detect");
        if (r.ok) {
          assertUnit(r.value.hallucination, "salience hallucination");
          assertUnit(r.value.coverage, "salience coverage");
        }
      } finally {
        await loaded.value.dispose();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

/** The files the data readers see, uncorrupted. */
export interface DataFiles {
  /** A dataset (JSON Lines of examples). */
  dataset: Buffer;
  /** A knowledge base (JSON Lines of topics). */
  kb: Buffer;
  /** One example (JSON). */
  example: Buffer;
}

export function dataFiles(example: { input: NpovInput; response: string }): DataFiles {
  const examples = [example, { ...example, response: `${example.response} Zoos also teach children.` }];
  return {
    dataset: Buffer.from(toJsonl(examples)),
    kb: readFileSync(join(REPO, "fixtures/kb/topics.jsonl")),
    example: Buffer.from(JSON.stringify(example, null, 2)),
  };
}

/**
 * Corrupt dataset, knowledge-base and example files: each reader returns valid records or throws an
 * NpovError; an example that still reads is scored by ROUGE with finite scores or an NpovError.
 */
export function dataFileProperty(scratch: string, files: DataFiles) {
  let run = 0;
  return fc.asyncProperty(fc.constantFrom("dataset", "kb", "example" as const), corruption, async (which, c) => {
    const file = join(scratch, `data-${run++}.${which === "example" ? "json" : "jsonl"}`);
    writeFileSync(file, corrupt(files[which as keyof DataFiles], c));
    try {
      if (which === "kb") {
        const kb = await outcome(() => loadKnowledgeBase(file), "loadKnowledgeBase");
        if (kb.ok)
          for (const t of kb.value.topics) if (typeof t.id !== "string") throw new Error("a topic without an id");
        return;
      }
      const examples = await outcome(
        () => (which === "dataset" ? readExamples(file) : [validateExample(readJsonFile(file))]),
        which === "dataset" ? "readExamples" : "readJsonFile + validateExample",
      );
      if (!examples.ok) return;
      for (const e of examples.value.slice(0, 2)) {
        const r = await outcome(() => rougeErrorDetector().detect(e.input, e.response), "rouge.detect");
        if (r.ok) {
          assertUnit(r.value.hallucination, "rouge hallucination");
          assertUnit(r.value.coverage, "rouge coverage");
        }
      }
    } finally {
      rmSync(file, { force: true });
    }
  });
}

/** A scratch folder for one fuzz run. */
export function scratchDir(): string {
  return mkdtempSync(join(tmpdir(), "npov-fuzz-"));
}

/** The uniforms example (fixtures/examples/uniforms.json). */
export function uniformsExample(): { input: NpovInput; response: string } {
  return JSON.parse(readFileSync(join(REPO, "fixtures/examples/uniforms.json"), "utf8"));
}
