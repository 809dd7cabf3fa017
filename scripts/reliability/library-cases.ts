/**
 * Category "library API": the public functions of the npov packages called with what an application might
 * pass by mistake (null, NaN, ragged arrays, wrong types, missing or corrupt files) and the guard with
 * broken detectors. Each must return a finite result or throw an NpovError with the expected code --
 * never a TypeError, a SyntaxError, a raw fs error, NaN, a hang -- and a guard must never allow what it
 * could not check. Loaded by the reliability worker (library-worker.ts), which runs one case at a time.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { inspectModel, loadModel } from "@npov/autograd";
import {
  createDetector,
  createGuard,
  fitLogistic as fitStacked,
  loadGuard,
  loadGuardConfig,
  loadStacked,
} from "@npov/classifier";
import {
  contentTerms,
  type ErrorDetector,
  type ErrorScores,
  generatorPrompt,
  loadKnowledgeBase,
  NpovError,
  type NpovInput,
  openKnowledgeBase,
  parseExamplesJsonl,
  parseGeneratorOutput,
  rankUncoveredArguments,
  readExamples,
  readJsonFile,
  readTextFile,
  rocAuc,
  sampleInput,
  segmentWords,
  splitSentences,
  validateInput,
  validateResponse,
  writeExamples,
  writeFileAtomic,
} from "@npov/core";
import {
  averagePrecision,
  bootstrapCi,
  chooseThreshold,
  evaluate,
  kendallTauB,
  krippendorffAlpha,
  metricsAt,
  rocCurve,
  rocPointsJson,
} from "@npov/eval";
import { parseChatReply } from "@npov/generate";
import {
  alignResponse,
  loadWordVectors,
  maxWeightMatching,
  rougeDetector,
  rougeErrorDetector,
  rougeN,
  SoftMatcher,
  softRouge,
  supportResponse,
  tokenize,
} from "@npov/rouge";
import { SalienceDetector } from "@npov/salience";
import { buildDataset, writeReferenceResponse } from "@npov/synth";
import type { Area } from "./harness.js";

export interface LibraryContext {
  /** A scratch folder of this worker. */
  dir: string;
  example: { input: NpovInput; response: string };
  repo: string;
}

export interface LibraryCase {
  name: string;
  expected: string;
  area: Area;
  timeoutMs?: number;
  body(ctx: LibraryContext): Promise<string | undefined>;
}

function show(value: unknown): string {
  if (typeof value === "number") return String(value);
  if (value === undefined) return "undefined";
  try {
    const s = JSON.stringify(value);
    return s === undefined ? String(value) : s.length > 100 ? `${s.slice(0, 100)}...` : s;
  } catch {
    return String(value);
  }
}

/** What a thrown value is, in one line. */
function thrown(e: unknown): string {
  if (e instanceof NpovError) return `NpovError [${e.code}] ${e.message.split("\n")[0]?.slice(0, 120)}`;
  if (e instanceof Error) return `${e.constructor.name}: ${e.message.split("\n")[0]?.slice(0, 140)}`;
  return `threw ${show(e)}`;
}

/** The call must throw an NpovError with a code in `codes` (any code when empty). */
async function throwsCode(call: () => unknown, codes: readonly string[]): Promise<string | undefined> {
  try {
    const value = await call();
    return `returned ${show(value)}`;
  } catch (e) {
    if (e instanceof NpovError && (codes.length === 0 || codes.includes(e.code))) return undefined;
    return thrown(e);
  }
}

/** The call must return a value `ok` accepts, or throw an NpovError with a code in `codes`. */
async function finiteOr(
  call: () => unknown,
  ok: (value: unknown) => boolean,
  codes: readonly string[],
): Promise<string | undefined> {
  try {
    const value = await call();
    return ok(value) ? undefined : `returned ${show(value)}`;
  } catch (e) {
    if (e instanceof NpovError && (codes.length === 0 || codes.includes(e.code))) return undefined;
    return thrown(e);
  }
}

const finite = (v: unknown) => typeof v === "number" && Number.isFinite(v);
const unit = (v: unknown) => finite(v) && (v as number) >= 0 && (v as number) <= 1;

/** A guard verdict must block with a reason code in `codes`. */
function blocked(verdict: unknown, codes: readonly string[]): string | undefined {
  const v = verdict as { allow?: unknown; reason?: { code?: unknown } };
  if (v?.allow !== false) return `allow = ${show(v?.allow)}: the guard fails open`;
  const code = v.reason?.code;
  if (typeof code !== "string") return "blocked without reason.code";
  return codes.length === 0 || codes.includes(code) ? undefined : `blocked with reason ${code}`;
}

/** A detector that returns fixed scores (or whatever `make` gives). */
function fake(name: string, make: () => unknown): ErrorDetector {
  return { name, detect: async () => make() as ErrorScores } as ErrorDetector;
}

const THRESHOLDS = { hallucination: 0.5, coverage: 0.5 };

/** The guard with a broken detector must block, with a reason. */
function guardCase(
  label: string,
  detector: () => ErrorDetector,
  codes: string[],
  extra: Record<string, unknown> = {},
): LibraryCase {
  return {
    name: `guard.check with a detector that ${label}`,
    expected: `allow false with reason.code ${codes.length ? codes.join(" | ") : "(a code)"}`,
    area: "A",
    body: async (ctx) => {
      try {
        const guard = createGuard({ detector: detector(), thresholds: THRESHOLDS, ...extra } as Parameters<
          typeof createGuard
        >[0]);
        return blocked(await guard.check(ctx.example.input, ctx.example.response), codes);
      } catch (e) {
        return `check threw: ${thrown(e)}`;
      }
    },
  };
}

const garbage: Array<[string, unknown]> = [
  ["null", null],
  ["undefined", undefined],
  ["a number", 42],
  ["an object", { text: "x" }],
  ["an array", ["a", "b"]],
];

export function libraryCaseTable(): LibraryCase[] {
  const cases: LibraryCase[] = [];
  const add = (c: LibraryCase) => cases.push(c);

  // core text functions: text must be a string.
  for (const [fn, call] of [
    ["segmentWords", (x: unknown) => segmentWords(x as string)],
    ["splitSentences", (x: unknown) => splitSentences(x as string)],
    ["contentTerms", (x: unknown) => contentTerms(x as string)],
    ["tokenize (rouge)", (x: unknown) => tokenize(x as string)],
  ] as const)
    for (const [label, value] of garbage)
      add({
        name: `${fn}(${label})`,
        expected: "throws NpovError [NOT_TEXT]",
        area: "B",
        body: async () => throwsCode(() => call(value), ["NOT_TEXT"]),
      });
  add({
    name: "segmentWords of a lone surrogate and emoji",
    expected: "returns an array (no throw)",
    area: "B",
    body: async () => finiteOr(() => segmentWords("a\ud800b 😀 c"), Array.isArray, []),
  });
  add({
    name: "validateInput(null)",
    expected: "throws NpovError [INVALID_VALUE]",
    area: "D",
    body: async () => throwsCode(() => validateInput(null), ["INVALID_VALUE"]),
  });
  add({
    name: 'validateInput({topic, query, perspectives: "x"})',
    expected: "throws NpovError [INVALID_VALUE]",
    area: "D",
    body: async () => throwsCode(() => validateInput({ topic: "t", query: "q", perspectives: "x" }), ["INVALID_VALUE"]),
  });
  add({
    name: "validateResponse of a Symbol",
    expected: "throws NpovError [NOT_TEXT]",
    area: "D",
    body: async () => throwsCode(() => validateResponse(Symbol("x")), ["NOT_TEXT"]),
  });
  add({
    name: "validateResponse of emoji only",
    expected: "throws NpovError [NOTHING_TO_SCORE]",
    area: "D",
    body: async () => throwsCode(() => validateResponse("🙂🙂"), ["NOTHING_TO_SCORE"]),
  });

  // rouge detectors.
  for (const [fn, call] of [
    ["rougeDetector", (i: unknown, r: unknown) => rougeDetector(i as NpovInput, r as string)],
    ["softRouge", (i: unknown, r: unknown) => softRouge(i as NpovInput, r as string)],
    ["alignResponse", (i: unknown, r: unknown) => alignResponse(i as NpovInput, r as string)],
    ["supportResponse", (i: unknown, r: unknown) => supportResponse(i as NpovInput, r as string)],
  ] as const) {
    add({
      name: `${fn}(null, response)`,
      expected: "throws NpovError (INVALID_VALUE)",
      area: "B",
      body: async (ctx) => throwsCode(() => call(null, ctx.example.response), ["INVALID_VALUE"]),
    });
    add({
      name: `${fn}(input, null)`,
      expected: "throws NpovError [NOT_TEXT]",
      area: "B",
      body: async (ctx) => throwsCode(() => call(ctx.example.input, null), ["NOT_TEXT"]),
    });
    add({
      name: `${fn}(input, stop words only)`,
      expected: "throws NpovError [NOTHING_TO_SCORE]",
      area: "B",
      body: async (ctx) => throwsCode(() => call(ctx.example.input, "It is what it is."), ["NOTHING_TO_SCORE"]),
    });
    add({
      name: `${fn}(input with a perspective of 50,000 arguments, response)`,
      expected: "a result or NpovError [INPUT_TOO_LARGE], within 30 s",
      area: "B",
      timeoutMs: 30_000,
      body: async (ctx) => {
        const input = structuredClone(ctx.example.input);
        (input.perspectives[0] as { arguments: Array<{ text: string }> }).arguments = Array.from(
          { length: 50_000 },
          (_, k) => ({
            text: `Argument number ${k} about school uniforms and costs ${k % 97}.`,
          }),
        );
        return finiteOr(
          () => call(input, ctx.example.response),
          (v) => v !== null && typeof v === "object",
          ["INPUT_TOO_LARGE"],
        );
      },
    });
  }
  add({
    name: "rougeErrorDetector().detect with a response of emoji only",
    expected: "throws NpovError [NOTHING_TO_SCORE]",
    area: "B",
    body: async (ctx) => throwsCode(() => rougeErrorDetector().detect(ctx.example.input, "🙂🙂"), ["NOTHING_TO_SCORE"]),
  });
  add({
    name: "rougeN(null, text)",
    expected: "throws NpovError [NOT_TEXT]",
    area: "B",
    body: async () => throwsCode(() => rougeN(null as unknown as string, "the cat"), ["NOT_TEXT"]),
  });
  add({
    name: "new SoftMatcher({vectorThreshold: NaN})",
    expected: "throws NpovError [INVALID_VALUE]",
    area: "B",
    body: async () => throwsCode(() => new SoftMatcher({ vectorThreshold: Number.NaN }), ["INVALID_VALUE"]),
  });
  add({
    name: "loadWordVectors of a missing folder",
    expected: "throws NpovError [FILE_UNREADABLE]",
    area: "B",
    body: async (ctx) => throwsCode(() => loadWordVectors(join(ctx.dir, "no-vectors")), ["FILE_UNREADABLE"]),
  });
  add({
    name: "loadWordVectors of a folder with corrupt files",
    expected: "throws NpovError [INVALID_FILE]",
    area: "B",
    body: async (ctx) => {
      const d = join(ctx.dir, "bad-vectors");
      mkdirSync(d, { recursive: true });
      writeFileSync(join(d, "vocab.json"), "{ not json");
      writeFileSync(join(d, "vectors.bin"), Buffer.from([1, 2, 3]));
      return throwsCode(() => loadWordVectors(d), ["INVALID_FILE"]);
    },
  });

  // maxWeightMatching: bounded, typed on bad matrices.
  for (const [label, weights, ok] of [
    ["[[NaN]]", [[Number.NaN]], false],
    [
      "[[NaN, 1], [1, NaN]]",
      [
        [Number.NaN, 1],
        [1, Number.NaN],
      ],
      false,
    ],
    ["[[Infinity]]", [[Number.POSITIVE_INFINITY]], false],
    ["ragged rows [[1, 2], [3]]", [[1, 2], [3]], false],
    ["a row that is not an array", [[1], null], false],
    ["null", null, false],
    ["[] (no rows)", [], true],
    ["[[0.5]]", [[0.5]], true],
    [
      "a 200 x 200 matrix",
      Array.from({ length: 200 }, (_, i) => Array.from({ length: 200 }, (_, j) => ((i * 31 + j * 17) % 101) / 101)),
      true,
    ],
  ] as Array<[string, unknown, boolean]>)
    add({
      name: `maxWeightMatching(${label})`,
      expected: ok ? "returns an assignment" : "throws NpovError [INVALID_VALUE] at once (never loops)",
      area: "B",
      timeoutMs: 15_000,
      body: async () =>
        ok
          ? finiteOr(() => maxWeightMatching(weights as number[][]), Array.isArray, [])
          : throwsCode(() => maxWeightMatching(weights as number[][]), ["INVALID_VALUE"]),
    });

  // eval metrics.
  for (const [label, data, level] of [
    [
      "with a NaN rating",
      [
        [1, 2, Number.NaN],
        [1, 2, 3],
      ],
      "interval",
    ],
    [
      "with an Infinity rating",
      [
        [1, 2, Number.POSITIVE_INFINITY],
        [1, 2, 3],
      ],
      "interval",
    ],
    ["of one rater", [[1, 2, 3]], "nominal"],
    [
      "of ragged rows",
      [
        [1, 2, 3],
        [1, 2],
      ],
      "nominal",
    ],
    ["of null", null, "nominal"],
    [
      'with level "bogus"',
      [
        [1, 2],
        [1, 2],
      ],
      "bogus",
    ],
  ] as Array<[string, unknown, string]>)
    add({
      name: `krippendorffAlpha ${label}`,
      expected: "throws NpovError [INVALID_VALUE]",
      area: "B",
      body: async () => throwsCode(() => krippendorffAlpha(data as number[][], level as "nominal"), ["INVALID_VALUE"]),
    });
  add({
    name: "krippendorffAlpha of two agreeing raters",
    expected: "returns a finite number",
    area: "B",
    body: async () =>
      finiteOr(
        () =>
          krippendorffAlpha([
            [1, 2, 3, 1],
            [1, 2, 3, 2],
          ]),
        finite,
        [],
      ),
  });
  for (const [fn, call] of [
    ["rocAuc", (s: unknown, l: unknown) => rocAuc(s as number[], l as boolean[])],
    ["rocCurve", (s: unknown, l: unknown) => rocCurve(s as number[], l as boolean[])],
    ["averagePrecision", (s: unknown, l: unknown) => averagePrecision(s as number[], l as boolean[])],
    ["metricsAt(0.5)", (s: unknown, l: unknown) => metricsAt(s as number[], l as boolean[], 0.5)],
    [
      "chooseThreshold(fpr 0.1)",
      (s: unknown, l: unknown) => chooseThreshold(s as number[], l as boolean[], { rule: "fpr", target: 0.1 }),
    ],
    ["kendallTauB", (s: unknown, l: unknown) => kendallTauB(s as number[], l as number[])],
  ] as const) {
    add({
      name: `${fn} with a NaN score`,
      expected: "throws NpovError [INVALID_VALUE]",
      area: "B",
      body: async () =>
        throwsCode(() => call([0.1, Number.NaN, 0.3, 0.9], [true, false, true, false]), ["INVALID_VALUE"]),
    });
    add({
      name: `${fn} with scores and labels of different lengths`,
      expected: "throws NpovError [INVALID_VALUE]",
      area: "B",
      body: async () => throwsCode(() => call([0.1, 0.2, 0.3], [true, false]), ["INVALID_VALUE"]),
    });
    add({
      name: `${fn}(null, null)`,
      expected: "throws NpovError [INVALID_VALUE]",
      area: "B",
      body: async () => throwsCode(() => call(null, null), ["INVALID_VALUE"]),
    });
  }
  add({
    name: "bootstrapCi with resamples -1",
    expected: "throws NpovError [INVALID_VALUE]",
    area: "B",
    body: async () =>
      throwsCode(() => bootstrapCi(rocAuc, [0.1, 0.9], [false, true], { resamples: -1 }), ["INVALID_VALUE"]),
  });
  add({
    name: "bootstrapCi with resamples 1e12",
    expected: "throws NpovError [INVALID_VALUE | INPUT_TOO_LARGE] at once",
    area: "B",
    timeoutMs: 15_000,
    body: async () =>
      throwsCode(
        () => bootstrapCi(rocAuc, [0.1, 0.9], [false, true], { resamples: 1e12 }),
        ["INVALID_VALUE", "INPUT_TOO_LARGE"],
      ),
  });
  add({
    name: "evaluate with a detector that returns NaN",
    expected: "throws NpovError [INVALID_SCORE | INVALID_VALUE] (never an AUC computed from NaN)",
    area: "B",
    body: async (ctx) => {
      const data = [
        { input: ctx.example.input, response: ctx.example.response, labels: { hallucination: true, coverage: false } },
        {
          input: ctx.example.input,
          response: `${ctx.example.response} Extra.`,
          labels: { hallucination: false, coverage: true },
        },
      ];
      return throwsCode(
        () =>
          evaluate(data, [fake("nan", () => ({ hallucination: Number.NaN, coverage: Number.NaN }))], {
            bootstrap: null,
          } as never),
        ["INVALID_SCORE", "INVALID_VALUE"],
      );
    },
  });
  add({
    name: "evaluate of an empty dataset",
    expected: "an empty result (no rows) or a typed NpovError",
    area: "B",
    body: async () =>
      finiteOr(
        () => evaluate([], [rougeErrorDetector()]),
        (v) => Array.isArray((v as { rows?: unknown }).rows) && (v as { rows: unknown[] }).rows.length === 0,
        [],
      ),
  });

  // core: sampling, prompts, knowledge bases, files.
  add({
    name: "sampleInput(null)",
    expected: "throws NpovError [INVALID_VALUE]",
    area: "B",
    body: async () => throwsCode(() => sampleInput(null as never, { seed: 1 }), ["INVALID_VALUE"]),
  });
  add({
    name: "sampleInput(topic, {seed: NaN})",
    expected: "throws NpovError [INVALID_VALUE]",
    area: "B",
    body: async () => {
      const topic = openKnowledgeBase("fixtures").topics[0];
      return throwsCode(() => sampleInput(topic as never, { seed: Number.NaN }), ["INVALID_VALUE"]);
    },
  });
  add({
    name: "generatorPrompt(null)",
    expected: "throws NpovError [INVALID_VALUE]",
    area: "B",
    body: async () => throwsCode(() => generatorPrompt(null as never), ["INVALID_VALUE"]),
  });
  add({
    name: "parseGeneratorOutput(5)",
    expected: "throws NpovError [NOT_TEXT | MALFORMED_GENERATOR_OUTPUT]",
    area: "B",
    body: async () => throwsCode(() => parseGeneratorOutput(5 as never), ["NOT_TEXT", "MALFORMED_GENERATOR_OUTPUT"]),
  });
  add({
    name: "buildDataset(kb, {perTopic: 1e9})",
    expected: "throws NpovError [INPUT_TOO_LARGE] at once",
    area: "B",
    timeoutMs: 15_000,
    body: async () =>
      throwsCode(
        () => buildDataset(openKnowledgeBase("fixtures"), { split: "test", perTopic: 1e9 }),
        ["INPUT_TOO_LARGE", "INVALID_VALUE"],
      ),
  });
  add({
    name: "buildDataset(kb, {perTopic: -1})",
    expected: "throws NpovError [INVALID_VALUE]",
    area: "B",
    body: async () =>
      throwsCode(() => buildDataset(openKnowledgeBase("fixtures"), { split: "test", perTopic: -1 }), ["INVALID_VALUE"]),
  });
  add({
    name: 'buildDataset(kb, {split: "holdout"})',
    expected: "throws NpovError [UNKNOWN_SPLIT]",
    area: "B",
    body: async () =>
      throwsCode(() => buildDataset(openKnowledgeBase("fixtures"), { split: "holdout" as never }), ["UNKNOWN_SPLIT"]),
  });
  add({
    name: "buildDataset(null, {split: test})",
    expected: "throws NpovError [INVALID_VALUE]",
    area: "B",
    body: async () => throwsCode(() => buildDataset(null as never, { split: "test" }), ["INVALID_VALUE"]),
  });
  add({
    name: "writeReferenceResponse(null)",
    expected: "throws NpovError [INVALID_VALUE]",
    area: "B",
    body: async () => throwsCode(() => writeReferenceResponse(null as never), ["INVALID_VALUE"]),
  });
  add({
    name: "loadKnowledgeBase of a missing file",
    expected: "throws NpovError [FILE_UNREADABLE]",
    area: "B",
    body: async (ctx) => throwsCode(() => loadKnowledgeBase(join(ctx.dir, "missing.jsonl")), ["FILE_UNREADABLE"]),
  });
  add({
    name: "loadKnowledgeBase of invalid UTF-8",
    expected: "throws NpovError [INVALID_FILE]",
    area: "B",
    body: async (ctx) => {
      const file = join(ctx.dir, "bad-kb.jsonl");
      writeFileSync(file, Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d, 0x0a]));
      return throwsCode(() => loadKnowledgeBase(file), ["INVALID_FILE"]);
    },
  });
  add({
    name: "openKnowledgeBase(5)",
    expected: "throws NpovError",
    area: "B",
    body: async () => throwsCode(() => openKnowledgeBase(5 as never), []),
  });
  add({
    name: "readJsonFile of a directory",
    expected: "throws NpovError [FILE_UNREADABLE]",
    area: "D",
    body: async (ctx) => throwsCode(() => readJsonFile(ctx.dir), ["FILE_UNREADABLE"]),
  });
  add({
    name: "readJsonFile of invalid JSON",
    expected: "throws NpovError [INVALID_FILE]",
    area: "D",
    body: async (ctx) => {
      const file = join(ctx.dir, "bad.json");
      writeFileSync(file, '{"a": ');
      return throwsCode(() => readJsonFile(file), ["INVALID_FILE"]);
    },
  });
  add({
    name: "readJsonFile of JSON with a UTF-8 BOM",
    expected: "returns the value",
    area: "D",
    body: async (ctx) => {
      const file = join(ctx.dir, "bom.json");
      writeFileSync(file, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a": 1}')]));
      return finiteOr(
        () => readJsonFile(file),
        (v) => (v as { a?: number })?.a === 1,
        [],
      );
    },
  });
  add({
    name: "readTextFile of invalid UTF-8",
    expected: "throws NpovError [INVALID_FILE]",
    area: "D",
    body: async (ctx) => {
      const file = join(ctx.dir, "bad.txt");
      writeFileSync(file, Buffer.from([0x61, 0xc0, 0xaf, 0x62]));
      return throwsCode(() => readTextFile(file), ["INVALID_FILE"]);
    },
  });
  add({
    name: "readExamples of random bytes",
    expected: "throws NpovError [INVALID_FILE]",
    area: "D",
    body: async (ctx) => {
      const file = join(ctx.dir, "random.jsonl");
      writeFileSync(file, Buffer.from(Array.from({ length: 2048 }, (_, k) => (k * 73 + 41) % 256)));
      return throwsCode(() => readExamples(file), ["INVALID_FILE"]);
    },
  });
  for (const [label, path] of [
    ["a directory", (d: string) => d],
    ['""', () => ""],
    ["a path under a file", (d: string) => join(d, "bad.json", "x.json")],
    ["/proc/npov-x", () => "/proc/npov-x"],
  ] as Array<[string, (d: string) => string]>)
    add({
      name: `writeFileAtomic to ${label}`,
      expected: "throws NpovError [FILE_UNWRITABLE] within 10 s",
      area: "D",
      timeoutMs: 10_000,
      body: async (ctx) => {
        writeFileSync(join(ctx.dir, "bad.json"), "{}");
        return throwsCode(() => writeFileAtomic(path(ctx.dir), "data"), ["FILE_UNWRITABLE"]);
      },
    });

  // The guard fails closed.
  guardFailsClosed(add);

  // Guard configuration and detector factories.
  add({
    name: "createGuard with thresholds {hallucination: NaN}",
    expected: "throws NpovError [INVALID_VALUE]",
    area: "A",
    body: async () =>
      throwsCode(
        () => createGuard({ detector: rougeErrorDetector(), thresholds: { hallucination: Number.NaN, coverage: 0.5 } }),
        ["INVALID_VALUE"],
      ),
  });
  add({
    name: "createGuard without thresholds",
    expected: "throws NpovError [INVALID_VALUE]",
    area: "A",
    body: async () => throwsCode(() => createGuard({ detector: rougeErrorDetector() } as never), ["INVALID_VALUE"]),
  });
  add({
    name: "createGuard without a detector",
    expected: "throws NpovError [INVALID_VALUE]",
    area: "A",
    body: async () => throwsCode(() => createGuard({ thresholds: THRESHOLDS } as never), ["INVALID_VALUE"]),
  });
  for (const method of ["nope", "__proto__", "constructor", "toString"])
    add({
      name: `loadGuard with detector method "${method}"`,
      expected: "throws NpovError [INVALID_VALUE]",
      area: "A",
      body: async () =>
        throwsCode(
          () => loadGuard({ format: "npov-guard/1", detector: { method }, thresholds: THRESHOLDS }),
          ["INVALID_VALUE"],
        ),
    });
  add({
    name: "loadGuardConfig of a missing file",
    expected: "throws NpovError [FILE_UNREADABLE]",
    area: "A",
    body: async (ctx) => throwsCode(() => loadGuardConfig(join(ctx.dir, "missing-guard.json")), ["FILE_UNREADABLE"]),
  });
  add({
    name: "loadGuardConfig of JSON null",
    expected: "throws NpovError [INVALID_FILE]",
    area: "A",
    body: async (ctx) => {
      const file = join(ctx.dir, "null-guard.json");
      writeFileSync(file, "null");
      return throwsCode(() => loadGuardConfig(file), ["INVALID_FILE"]);
    },
  });
  add({
    name: "loadStacked of a file that is not a stacked model",
    expected: "throws NpovError [INVALID_FILE]",
    area: "C",
    body: async (ctx) => {
      const file = join(ctx.dir, "not-stacked.json");
      writeFileSync(file, '{"format": "something-else"}');
      return throwsCode(() => loadStacked(file), ["INVALID_FILE"]);
    },
  });
  add({
    name: 'createDetector({method: "salience", model: <missing folder>})',
    expected: "throws NpovError [MODEL_NOT_FOUND] (no download)",
    area: "C",
    timeoutMs: 30_000,
    body: async (ctx) =>
      throwsCode(() => createDetector({ method: "salience", model: join(ctx.dir, "no-model") }), ["MODEL_NOT_FOUND"]),
  });
  add({
    name: 'SalienceDetector.fromPretrained("./no-such-model")',
    expected: "throws NpovError [MODEL_NOT_FOUND] (no download)",
    area: "C",
    timeoutMs: 30_000,
    body: async () => throwsCode(() => SalienceDetector.fromPretrained("./no-such-model"), ["MODEL_NOT_FOUND"]),
  });
  add({
    name: "inspectModel of a missing folder",
    expected: "throws NpovError [MODEL_NOT_FOUND]",
    area: "C",
    body: async (ctx) => throwsCode(() => inspectModel(join(ctx.dir, "no-model")), ["MODEL_NOT_FOUND"]),
  });
  add({
    name: "loadModel of a text file",
    expected: "throws NpovError [MODEL_FILE_INVALID | INVALID_FILE]",
    area: "C",
    body: async (ctx) => {
      const file = join(ctx.dir, "text.onnx");
      writeFileSync(file, "not a model\n");
      return throwsCode(() => loadModel(file), ["MODEL_FILE_INVALID", "INVALID_FILE"]);
    },
  });
  add({
    name: "salience tokenMap of a 1 MB response (shipped npov-gen)",
    expected: "throws NpovError [CONTEXT_TOO_LONG] before running the model",
    area: "C",
    timeoutMs: 60_000,
    body: async (ctx) => {
      const detector = await SalienceDetector.fromPretrained(undefined);
      try {
        return await throwsCode(
          () => detector.tokenMap(generatorPrompt(ctx.example.input), "word ".repeat(200_000)),
          ["CONTEXT_TOO_LONG"],
        );
      } finally {
        await detector.dispose();
      }
    },
  });
  issue33Cases(add);
  return cases;
}

/** This round's library cases: option errors a catch swallowed, and null where a TypeError came out. */
function issue33Cases(add: (c: LibraryCase) => void): void {
  for (const resamples of [-1, 1.5, "x", Number.NaN])
    add({
      name: `evaluate(dataset, [rouge], {bootstrap: {resamples: ${show(resamples)}}})`,
      expected: "throws NpovError [INVALID_VALUE] (it returned results without intervals)",
      area: "B",
      body: async (ctx) =>
        throwsCode(
          () =>
            evaluate(
              [
                { ...ctx.example, labels: { hallucination: true, coverage: false } },
                { ...ctx.example, labels: { hallucination: false, coverage: true } },
              ] as never,
              [rougeErrorDetector()],
              { bootstrap: { resamples } as never },
            ),
          ["INVALID_VALUE"],
        ),
    });
  add({
    name: "rocPointsJson(rocCurve(...)) through JSON",
    expected: 'the first threshold is "Infinity" (JSON.stringify wrote null)',
    area: "B",
    body: async () => {
      const json = JSON.parse(JSON.stringify(rocPointsJson(rocCurve([0.2, 0.8], [false, true]))));
      return json[0]?.threshold === "Infinity" ? undefined : `first threshold ${show(json[0]?.threshold)}`;
    },
  });
  const nulls: Array<[string, () => unknown, string[]]> = [
    ["parseExamplesJsonl(null, file)", () => parseExamplesJsonl(null as never, "d.jsonl"), ["NOT_TEXT"]],
    [
      "writeExamples(file, null)",
      () => writeExamples("/tmp/npov-reliability-never-written.jsonl", null as never),
      ["INVALID_VALUE"],
    ],
    ["rankUncoveredArguments(null, score)", () => rankUncoveredArguments(null as never, () => 1), ["INVALID_VALUE"]],
    ["fitLogistic (stacked)([[NaN]], [true], [f])", () => fitStacked([[Number.NaN]], [true], ["f"]), ["INVALID_VALUE"]],
    ["fitLogistic (stacked)(null, [true], [f])", () => fitStacked(null as never, [true], ["f"]), ["INVALID_VALUE"]],
    ["parseChatReply(null)", () => parseChatReply(null as never), ["NOT_TEXT"]],
  ];
  for (const [name, call, codes] of nulls)
    add({
      name,
      expected: `throws NpovError [${codes.join(" | ")}] (it threw a TypeError)`,
      area: "B",
      body: async () => throwsCode(call, codes),
    });
}

function guardFailsClosed(add: (c: LibraryCase) => void): void {
  const fixed = (h: unknown, c: unknown) => () => fake("fixed", () => ({ hallucination: h, coverage: c }));
  add(guardCase("returns NaN", fixed(Number.NaN, Number.NaN), ["INVALID_SCORE"]));
  add(guardCase("returns NaN for hallucination only", fixed(Number.NaN, 0), ["INVALID_SCORE"]));
  add(guardCase("returns 1.5", fixed(1.5, 0), ["INVALID_SCORE"]));
  add(guardCase("returns -0.1", fixed(-0.1, 0), ["INVALID_SCORE"]));
  add(guardCase("returns Infinity", fixed(0, Number.POSITIVE_INFINITY), ["INVALID_SCORE"]));
  add(guardCase("returns scores as strings", fixed("0.1", "0.1"), ["INVALID_SCORE"]));
  add(guardCase("returns no scores ({})", () => fake("empty", () => ({})), ["INVALID_SCORE"]));
  add(guardCase("returns null", () => fake("null", () => null), ["INVALID_SCORE"]));
  add(
    guardCase(
      "throws a TypeError",
      () =>
        fake("throws", () => {
          throw new TypeError("boom");
        }),
      [],
    ),
  );
  add(
    guardCase(
      "throws an NpovError [MODEL_RUN]",
      () =>
        fake("throws", () => {
          throw new NpovError("MODEL_RUN", "the model failed");
        }),
      ["MODEL_RUN"],
    ),
  );
  add(
    guardCase(
      "rejects asynchronously",
      () => ({ name: "rejects", detect: () => Promise.reject(new Error("late")) }) as ErrorDetector,
      [],
    ),
  );
  add(
    guardCase(
      "never answers (timeoutMs 200)",
      () => ({ name: "hangs", detect: () => new Promise<never>(() => {}) }) as ErrorDetector,
      [],
      { timeoutMs: 200 },
    ),
  );
  add({
    name: "guard.check with a response of emoji only (rouge detector)",
    expected: "allow false with reason.code NOTHING_TO_SCORE",
    area: "A",
    body: async (ctx) => {
      try {
        const guard = createGuard({ detector: rougeErrorDetector(), thresholds: THRESHOLDS });
        return blocked(await guard.check(ctx.example.input, "😀😀"), ["NOTHING_TO_SCORE"]);
      } catch (e) {
        return `check threw: ${thrown(e)}`;
      }
    },
  });
  add({
    name: "guard.check with a response of stop words only (rouge detector)",
    expected: "allow false with reason.code NOTHING_TO_SCORE",
    area: "A",
    body: async (ctx) => {
      try {
        const guard = createGuard({ detector: rougeErrorDetector(), thresholds: THRESHOLDS });
        return blocked(await guard.check(ctx.example.input, "It is what it is."), ["NOTHING_TO_SCORE"]);
      } catch (e) {
        return `check threw: ${thrown(e)}`;
      }
    },
  });
  add({
    name: 'guard with onError "throw" and a detector that returns NaN',
    expected: "check throws NpovError [INVALID_SCORE]",
    area: "A",
    body: async (ctx) => {
      let guard: { check(i: NpovInput, r: string): Promise<unknown> };
      try {
        guard = createGuard({ detector: fixed(Number.NaN, 0)(), thresholds: THRESHOLDS, onError: "throw" } as never);
      } catch (e) {
        return `createGuard threw: ${thrown(e)}`;
      }
      return throwsCode(() => guard.check(ctx.example.input, ctx.example.response), ["INVALID_SCORE"]);
    },
  });
  add({
    name: "guard.check with a valid response (rouge detector)",
    expected: "a verdict with finite scores in [0, 1] and no error reason",
    area: "A",
    body: async (ctx) => {
      const guard = createGuard({ detector: rougeErrorDetector(), thresholds: THRESHOLDS });
      const v = (await guard.check(ctx.example.input, ctx.example.response)) as unknown as {
        allow: unknown;
        reason?: unknown;
        hallucination: { score: unknown };
        coverage: { score: unknown };
      };
      if (typeof v.allow !== "boolean") return `allow = ${show(v.allow)}`;
      if (v.reason !== undefined && v.reason !== null) return `error reason ${show(v.reason)}`;
      return unit(v.hallucination.score) && unit(v.coverage.score) ? undefined : `scores ${show(v)}`;
    },
  });
  add({
    name: "guard.check(null input, response)",
    expected: "throws NpovError [INVALID_VALUE] (a developer error) or blocks with that reason",
    area: "A",
    body: async (ctx) => {
      const guard = createGuard({ detector: rougeErrorDetector(), thresholds: THRESHOLDS });
      try {
        return blocked(await guard.check(null as never, ctx.example.response), ["INVALID_VALUE"]);
      } catch (e) {
        return e instanceof NpovError && e.code === "INVALID_VALUE" ? undefined : thrown(e);
      }
    },
  });
  add({
    name: "guard detector scores checked per call: a detector whose second answer is NaN",
    expected: "the first verdict has scores, the second blocks with INVALID_SCORE",
    area: "A",
    body: async (ctx) => {
      let n = 0;
      const guard = createGuard({
        detector: fake("flaky", () =>
          ++n === 1 ? { hallucination: 0.1, coverage: 0.1 } : { hallucination: Number.NaN, coverage: 0.1 },
        ),
        thresholds: THRESHOLDS,
      });
      const first = (await guard.check(ctx.example.input, ctx.example.response)) as unknown as { allow: unknown };
      if (first.allow !== true) return `first verdict allow = ${show(first.allow)}`;
      return blocked(await guard.check(ctx.example.input, ctx.example.response), ["INVALID_SCORE"]);
    },
  });
}
