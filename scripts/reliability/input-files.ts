/**
 * Category "input files (CLI)": hostile but fair input files and options through the real CLI -- texts with
 * nothing to score, sizes that must be bounded, strict numeric options, corrupt fields, byte-level
 * corruption of every kind of file the CLI reads, non-ASCII text, and determinism.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { type Fixtures, longResponse, manyArguments, type NpovInputJson } from "./fixtures.js";
import {
  type Area,
  type Case,
  describeRun,
  fileBytes,
  isUnitScore,
  judgeCheckScores,
  judgeEither,
  judgeError,
  judgeUsage,
  type ProcResult,
  parseJson,
  ROOT,
  randomBytesSeeded,
  runCli,
  runProblems,
  scoreProblems,
} from "./harness.js";

const DATA_FREE = ["rouge", "soft", "align", "support"] as const;
const NOTHING = ["NOTHING_TO_SCORE"];
const TOO_LARGE = ["INPUT_TOO_LARGE"];
const BAD_FILE = ["INVALID_FILE"];
const USAGE = ["USAGE", "INVALID_VALUE"];

function cliCase(
  area: Area,
  name: string,
  expected: string,
  args: () => string[],
  judge: (r: ProcResult) => string | undefined,
  timeoutMs = 30_000,
): Case {
  return {
    category: "input files (CLI)",
    area,
    name,
    expected,
    run: async () => judge(await runCli(args(), { timeoutMs })),
  };
}

/**
 * A guard verdict that blocks because of `codes`: `guard --exit-code` exits 3 with `allow: false` and
 * `reason.code` in `codes`, or the response is refused before the guard with exit 2 and one of `codes`.
 */
export function judgeBlocked(r: ProcResult, codes: readonly string[]): string | undefined {
  const problem = runProblems(r);
  if (problem !== undefined) return problem;
  if (r.code === 2) return judgeError(r, codes);
  if (r.code !== 3) return `${describeRun(r)}${r.code === 0 ? " (allowed)" : ""}`;
  const { value, problem: bad } = parseJson(r.stdout);
  if (bad !== undefined) return `exit 3 but ${bad}`;
  const v = value as { allow?: unknown; reason?: { code?: unknown } };
  if (v.allow !== false) return `exit 3 with allow = ${JSON.stringify(v.allow)}`;
  const code = v.reason?.code;
  if (typeof code !== "string") return "blocked without a reason code";
  if (!codes.includes(code)) return `blocked with reason ${code}`;
  return undefined;
}

/** A guard verdict with finite scores (allowed or flagged by its thresholds), or blocked for one of `codes`. */
function judgeVerdictOr(r: ProcResult, codes: readonly string[]): string | undefined {
  const problem = runProblems(r);
  if (problem !== undefined) return problem;
  if (r.code === 2) return judgeError(r, codes);
  if (r.code !== 0 && r.code !== 3) return describeRun(r);
  const { value, problem: bad } = parseJson(r.stdout);
  if (bad !== undefined) return bad;
  const v = value as { allow?: unknown; reason?: { code?: unknown }; hallucination?: { score?: unknown } };
  if (typeof v.allow !== "boolean") return `verdict without allow: ${JSON.stringify(v).slice(0, 120)}`;
  if (v.reason !== undefined) {
    if (v.allow) return "allowed although the verdict gives an error reason";
    return typeof v.reason.code === "string" && codes.includes(v.reason.code)
      ? undefined
      : `blocked with reason ${String(v.reason.code)}`;
  }
  const h = v.hallucination?.score;
  return isUnitScore(h) ? undefined : `verdict score ${JSON.stringify(h)} without an error reason`;
}

/** check-batch: exit 0 and every output line is finite scores or an error whose code is in `codes`. */
function judgeBatchLines(out: string, codes: readonly string[], mustFail: boolean) {
  return (r: ProcResult): string | undefined => {
    const problem = runProblems(r);
    if (problem !== undefined) return problem;
    if (r.code !== 0) return describeRun(r);
    const text = fileBytes(out)?.toString("utf8");
    if (text === undefined) return "exit 0 but no output file";
    const lines = text.split("\n").filter((l) => l.trim());
    if (lines.length === 0) return "exit 0 with an empty output file";
    for (const [k, line] of lines.entries()) {
      const rec = JSON.parse(line) as { scores?: Record<string, unknown>; error?: { code?: string } };
      if (rec.error !== undefined) {
        if (!codes.includes(rec.error.code ?? "")) return `line ${k + 1}: error ${rec.error.code}`;
        continue;
      }
      if (mustFail) return `line ${k + 1} was scored: ${line.slice(0, 100)}`;
      for (const [m, s] of Object.entries(rec.scores ?? {})) {
        const p = scoreProblems(s, `line ${k + 1} ${m}`);
        if (p !== undefined) return p;
      }
    }
    return undefined;
  };
}

/** The first `n` lines of a JSON Lines file. */
function headLines(file: string, n: number): string[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .slice(0, n);
}

export function inputFileCases(f: Fixtures): Case[] {
  const cases: Case[] = [];
  const base = f.example;
  const exampleWith = (name: string, response: string, input: NpovInputJson = base.input) =>
    f.writeJson(`${name}.json`, { input, response });
  const check = (file: string, methods: readonly string[], extra: string[] = []) => [
    "check",
    "--input",
    file,
    "--methods",
    methods.join(","),
    "--json",
    ...extra,
  ];

  // 1. Responses with no scorable word: every detector refuses, every guard blocks.
  const noWord: Array<[string, string]> = [
    ["emoji only", "😀😀 🎉"],
    ["one emoji", "👍"],
    ["a ZWJ family emoji", "👨‍👩‍👧‍👦"],
    ["flag emoji", "🇺🇳🇫🇷"],
    ["punctuation only", "... !!! ???"],
    ["quotes and dashes only", "“ ” « » — –"],
    ["brackets and symbols only", "{} [] () #$%&*+="],
    ["one zero-width space (U+200B)", "\u200B"],
    ["zero-width spaces", "\u200B\u200B\u200B"],
    ["joiners and a BOM character", "\u200D\uFEFF\u2060"],
    ["emoji and punctuation", "🙂!? 🙃..."],
    ["soft hyphen and ZWSP", "\u00AD\u200B"],
    ["math symbols only", "∑ ∫ √ ≈ ≠"],
    ["arrows only", "→ ← ↑ ↓"],
  ];
  noWord.forEach(([label, text], k) => {
    const method = DATA_FREE[k % DATA_FREE.length] as string;
    cases.push(
      cliCase(
        "D",
        `check --methods ${method}: response of ${label}`,
        "exit 2 [NOTHING_TO_SCORE] (or EMPTY_TEXT for invisible-only text)",
        () => check(exampleWith(`noword-${k}`, text), [method]),
        (r) => judgeError(r, [...NOTHING, "EMPTY_TEXT"]),
      ),
    );
    const guardMethod = (["support", "align", "rouge"] as const)[k % 3] ?? "support";
    cases.push(
      cliCase(
        "A",
        `guard (${guardMethod}) --exit-code: response of ${label}`,
        "blocked: exit 3 with allow false and reason NOTHING_TO_SCORE, or exit 2 [NOTHING_TO_SCORE]",
        () => ["guard", "--config", f.guard[guardMethod], "--input", exampleWith(`noword-g${k}`, text), "--exit-code"],
        (r) => judgeBlocked(r, [...NOTHING, "EMPTY_TEXT"]),
      ),
    );
  });
  const stopOnly: Array<[string, string]> = [
    ["stop words only", "It is what it is."],
    ["stop words only, two sentences", "They were there. And so were we."],
    ["stop words only, capitals", "THE AND OF IT"],
    ["a single stop word", "the"],
  ];
  stopOnly.forEach(([label, text], k) => {
    for (const method of DATA_FREE)
      cases.push(
        cliCase(
          "B",
          `check --methods ${method}: response of ${label}`,
          "exit 2 [NOTHING_TO_SCORE]",
          () => check(exampleWith(`stop-${k}-${method}`, text), [method]),
          (r) => judgeError(r, NOTHING),
        ),
      );
    for (const method of ["support", "align", "rouge"] as const)
      cases.push(
        cliCase(
          "A",
          `guard (${method}) --exit-code: response of ${label}`,
          "blocked: exit 3, allow false, reason NOTHING_TO_SCORE (or exit 2 [NOTHING_TO_SCORE])",
          () => [
            "guard",
            "--config",
            f.guard[method],
            "--input",
            exampleWith(`stop-g${k}-${method}`, text),
            "--exit-code",
          ],
          (r) => judgeBlocked(r, NOTHING),
        ),
      );
  });
  for (const method of DATA_FREE) {
    const out = join(f.sub(`batch-noword-${method}`), "scores.jsonl");
    cases.push(
      cliCase(
        "B",
        `check-batch --methods ${method}: 18 responses with no word or only stop words`,
        "exit 0; every line an error record NOTHING_TO_SCORE (or EMPTY_TEXT), none scored",
        () => {
          const lines = [...noWord, ...stopOnly].map(([, text]) =>
            JSON.stringify({ input: base.input, response: text }),
          );
          const data = f.write(`batch-noword-${method}.jsonl`, `${lines.join("\n")}\n`);
          return ["check-batch", "--data", data, "--out", out, "--methods", method];
        },
        judgeBatchLines(out, [...NOTHING, "EMPTY_TEXT"], true),
      ),
    );
  }
  const withInput = (mutate: (input: { perspectives: Array<{ arguments: Array<{ text: string }> }> }) => void) => {
    const input = structuredClone(base.input) as unknown as {
      perspectives: Array<{ arguments: Array<{ text: string }> }>;
    };
    mutate(input);
    return input as unknown as NpovInputJson;
  };
  cases.push(
    cliCase(
      "D",
      "check --methods rouge: an argument of only emoji",
      "exit 2 [NOTHING_TO_SCORE]",
      () =>
        check(
          exampleWith(
            "arg-emoji",
            base.response,
            withInput((i) => {
              (i.perspectives[1] as { arguments: Array<{ text: string }> }).arguments.push({ text: "🙂🙂" });
            }),
          ),
          ["rouge"],
        ),
      (r) => judgeError(r, NOTHING),
    ),
  );
  for (const method of DATA_FREE)
    cases.push(
      cliCase(
        "B",
        `check --methods ${method}: an argument of only stop words`,
        "exit 2 [NOTHING_TO_SCORE]",
        () =>
          check(
            exampleWith(
              `arg-stop-${method}`,
              base.response,
              withInput((i) => {
                (i.perspectives[1] as { arguments: Array<{ text: string }> }).arguments.push({
                  text: "It is what it is.",
                });
              }),
            ),
            [method],
          ),
        (r) => judgeError(r, NOTHING),
      ),
    );
  for (const method of DATA_FREE)
    cases.push(
      cliCase(
        "B",
        `check --methods ${method}: a normal response with emoji between the sentences`,
        "exit 0, finite scores in [0, 1]",
        () => check(exampleWith(`emoji-mixed-${method}`, base.response.replace(/\. /g, ". 🙂 ")), [method]),
        (r) => judgeCheckScores(r, [method]),
      ),
    );
  cases.push(
    cliCase(
      "D",
      "check --methods rouge: a topic and query of only emoji and punctuation (not scored)",
      "exit 0, finite scores in [0, 1]",
      () => check(exampleWith("topic-emoji", base.response, { ...base.input, topic: "🦁🐘", query: "???" }), ["rouge"]),
      (r) => judgeCheckScores(r, ["rouge"]),
    ),
  );
  for (const [label, text] of [stopOnly[0], noWord[0]] as Array<[string, string]>)
    cases.push(
      cliCase(
        "C",
        `check --methods salience: response of ${label}`,
        label.startsWith("stop") ? "exit 0, finite scores (a model scores stop words)" : "exit 2 [NOTHING_TO_SCORE]",
        () => check(exampleWith(`sal-${label}`, text), ["salience"]),
        (r) => (label.startsWith("stop") ? judgeCheckScores(r, ["salience"]) : judgeError(r, NOTHING)),
        60_000,
      ),
    );

  // 2. Work that grows with input is bounded: a result or INPUT_TOO_LARGE, quickly.
  // Generous per-case limit: the CLI starts in ~1 s, and the run shares the machine; B's tests count work.
  const bounded = "exit 0 with finite scores, or exit 2 [INPUT_TOO_LARGE], within 60 s";
  for (const [label, chars] of [
    ["10 KB", 10_000],
    ["100 KB", 100_000],
    ["1 MB", 1_000_000],
  ] as const)
    for (const method of DATA_FREE)
      cases.push(
        cliCase(
          "B",
          `check --methods ${method}: a ${label} response`,
          bounded,
          () => check(exampleWith(`long-${chars}-${method}`, longResponse(f, chars, chars)), [method]),
          (r) => judgeEither(r, (x) => judgeCheckScores(x, [method]), TOO_LARGE),
          60_000,
        ),
      );
  for (const count of [300, 3_000, 10_000, 200_000])
    for (const method of DATA_FREE)
      cases.push(
        cliCase(
          "B",
          `check --methods ${method}: ${count.toLocaleString("en-US")} arguments`,
          bounded,
          () => check(exampleWith(`args-${count}-${method}`, base.response, manyArguments(f, count)), [method]),
          (r) => judgeEither(r, (x) => judgeCheckScores(x, [method]), TOO_LARGE),
          60_000,
        ),
      );
  for (const method of ["rouge", "align"])
    cases.push(
      cliCase(
        "B",
        `check --methods ${method}: 1,000 perspectives of one argument each`,
        bounded,
        () => check(exampleWith(`persp-1000-${method}`, base.response, manyArguments(f, 1000, 1000)), [method]),
        (r) => judgeEither(r, (x) => judgeCheckScores(x, [method]), TOO_LARGE),
        60_000,
      ),
    );
  for (const method of ["align", "support"])
    cases.push(
      cliCase(
        "B",
        `check --methods ${method}: one argument of 100 KB`,
        bounded,
        () =>
          check(
            exampleWith(
              `arg-100k-${method}`,
              base.response,
              withInput((i) => {
                (i.perspectives[0] as { arguments: Array<{ text: string }> }).arguments.push({
                  text: longResponse(f, 100_000, 7),
                });
              }),
            ),
            [method],
          ),
        (r) => judgeEither(r, (x) => judgeCheckScores(x, [method]), TOO_LARGE),
        60_000,
      ),
    );
  for (const method of ["rouge", "align"])
    cases.push(
      cliCase(
        "B",
        `check --methods ${method}: a response that is one 1 MB word`,
        bounded,
        () => check(exampleWith(`word-1m-${method}`, "a".repeat(1_000_000)), [method]),
        (r) => judgeEither(r, (x) => judgeCheckScores(x, [method]), TOO_LARGE),
        60_000,
      ),
    );
  cases.push(
    cliCase(
      "A",
      "guard (support) --exit-code: 200,000 arguments",
      "a verdict with finite scores, or blocked/refused with INPUT_TOO_LARGE, within 60 s",
      () => [
        "guard",
        "--config",
        f.guard.support,
        "--input",
        exampleWith("guard-200k", base.response, manyArguments(f, 200_000)),
        "--exit-code",
      ],
      (r) => judgeVerdictOr(r, TOO_LARGE),
      60_000,
    ),
  );
  const context = "exit 2 [CONTEXT_TOO_LONG] (or a documented truncation: exit 0, finite scores), within 60 s";
  for (const [method, label, chars] of [
    ["salience", "10 KB", 10_000],
    ["salience", "1 MB", 1_000_000],
    ["classifier", "10 KB", 10_000],
    ["classifier", "1 MB", 1_000_000],
  ] as const)
    cases.push(
      cliCase(
        "C",
        `check --methods ${method}: a ${label} response`,
        context,
        () => check(exampleWith(`ctx-${method}-${chars}`, longResponse(f, chars, 3)), [method]),
        (r) => judgeEither(r, (x) => judgeCheckScores(x, [method]), ["CONTEXT_TOO_LONG", ...TOO_LARGE]),
        60_000,
      ),
    );
  cases.push(
    cliCase(
      "C",
      "salience: 300 arguments",
      context,
      () => ["salience", "--input", exampleWith("ctx-sal-300", base.response, manyArguments(f, 300)), "--json"],
      (r) =>
        judgeEither(r, (x) => scoreProblems(parseJson(x.stdout).value, "salience"), ["CONTEXT_TOO_LONG", ...TOO_LARGE]),
      60_000,
    ),
  );
  {
    const out = join(f.sub("batch-2000"), "scores.jsonl");
    cases.push(
      cliCase(
        "B",
        "check-batch --methods rouge: 2,000 examples",
        "exit 0, 2,000 lines of finite scores, within 60 s",
        () => {
          const lines = headLines(f.testData, 10);
          const data = f.write(
            "batch-2000.jsonl",
            `${Array.from({ length: 2000 }, (_, k) => lines[k % lines.length]).join("\n")}\n`,
          );
          return ["check-batch", "--data", data, "--out", out, "--methods", "rouge"];
        },
        judgeBatchLines(out, [], false),
        60_000,
      ),
    );
  }
  cases.push(
    cliCase(
      "D",
      "check: an input file nested 1,000,000 arrays deep",
      "exit 2 [INVALID_FILE] or another typed error, no crash",
      () => ["check", "--input", f.write("nested.json", `${"[".repeat(1e6)}${"]".repeat(1e6)}`), "--methods", "rouge"],
      (r) => judgeError(r, [...BAD_FILE, "INVALID_VALUE"]),
    ),
  );

  // 3. synth sizes and options.
  for (const value of ["1000000000", "1e9", "10000000", "1000000"])
    cases.push(
      cliCase(
        "D",
        `synth --per-topic ${value}`,
        "exit 2 [INPUT_TOO_LARGE] (or USAGE/INVALID_VALUE) within 20 s, nothing written",
        () => ["synth", "--split", "test", "--per-topic", value, "--out", join(f.sub("synth-big"), "x.jsonl")],
        (r) => judgeError(r, [...TOO_LARGE, ...USAGE, "INSUFFICIENT_ARGUMENTS"]),
        20_000,
      ),
    );
  for (const [option, values] of [
    ["--per-topic", ["0", "-1", "abc", "1.5", "", "NaN", "Infinity"]],
    ["--seed", ["abc", "1.5", "NaN", "Infinity", ""]],
  ] as const)
    for (const value of values)
      cases.push(
        cliCase(
          "D",
          `synth ${option} "${value}"`,
          "exit 2, typed usage error naming the option",
          () => ["synth", "--split", "test", option, value, "--out", join(f.sub("synth-opt"), "x.jsonl")],
          (r) => judgeUsage(r, USAGE) ?? mentions(r, option),
          20_000,
        ),
      );
  cases.push(
    cliCase(
      "D",
      "synth --split holdout",
      "exit 2 [UNKNOWN_SPLIT] (or USAGE)",
      () => ["synth", "--split", "holdout", "--out", join(f.sub("synth-split"), "x.jsonl")],
      (r) => judgeUsage(r, ["UNKNOWN_SPLIT", ...USAGE]),
    ),
    cliCase(
      "D",
      "synth --slices nonsense",
      "exit 2 [USAGE]",
      () => ["synth", "--split", "test", "--slices", "nonsense", "--out", join(f.sub("synth-slices"), "x.jsonl")],
      (r) => judgeUsage(r, USAGE),
    ),
    cliCase(
      "D",
      "synth --kb ./no-such-kb.jsonl",
      "exit 2 [FILE_UNREADABLE]",
      () => [
        "synth",
        "--kb",
        join(f.dir, "no-such-kb.jsonl"),
        "--split",
        "test",
        "--out",
        join(f.sub("synth-kb"), "x.jsonl"),
      ],
      (r) => judgeError(r, ["FILE_UNREADABLE"]),
    ),
  );

  // 4. Strict numeric options on every command that takes them.
  const evalArgs = ["eval", "--data", f.testData, "--methods", "rouge", "--bootstrap", "0", "--json"];
  const numeric: Array<[string, string[], string, string[]]> = [
    ["eval", evalArgs, "--limit", ["-1", "0", "abc", "1.5", "NaN", ""]],
    ["eval", evalArgs, "--sample-per-slice", ["0", "-1", "abc", "2.5"]],
    ["eval", evalArgs, "--bootstrap", ["abc", "-1", "1.5", "NaN", "Infinity"]],
    ["eval", evalArgs, "--seed", ["abc", "1.5", "NaN"]],
    ["eval", evalArgs, "--chunk-size", ["0", "-1", "abc"]],
    ["eval", evalArgs, "--concurrency", ["0", "-1", "abc"]],
    ["eval", evalArgs, "--samples", ["0", "-1", "abc"]],
    ["eval", evalArgs, "--top-logprobs", ["-1", "abc", "1.5"]],
    ["check", check(f.exampleFile, ["rouge"]), "--samples", ["0", "-1", "abc"]],
    ["check", check(f.exampleFile, ["rouge"]), "--concurrency", ["0", "abc"]],
    ["check", check(f.exampleFile, ["rouge"]), "--endpoint-seed", ["abc", "1.5"]],
    [
      "check-batch",
      ["check-batch", "--data", f.testData, "--methods", "rouge"],
      "--chunk-size",
      ["0", "-1", "abc", "1.5"],
    ],
    ["generate", ["generate", "--input", f.exampleFile], "--temperature", ["-1", "abc", "NaN"]],
    ["generate", ["generate", "--input", f.exampleFile], "--top-p", ["0", "1.5", "-0.5", "abc"]],
    ["generate", ["generate", "--input", f.exampleFile], "--seed", ["abc", "1.5"]],
    ["generate", ["generate", "--input", f.exampleFile], "--max-new-tokens", ["0", "-5", "abc", "1.5"]],
    [
      "calibrate-guard",
      ["calibrate-guard", "--data", f.devData, "--method", "rouge"],
      "--target-fpr",
      ["-0.1", "1.5", "abc", "NaN"],
    ],
  ];
  for (const [command, args, option, values] of numeric)
    for (const value of values)
      cases.push(
        cliCase(
          "D",
          `${command} ${option} "${value}"`,
          "exit 2, typed usage error naming the option",
          () => {
            const extra =
              command === "check-batch" || command === "calibrate-guard"
                ? ["--out", join(f.sub(`${command}-opt`), command === "check-batch" ? "o.jsonl" : "g.json")]
                : [];
            return [...args, ...extra, option, value];
          },
          (r) => judgeUsage(r, USAGE) ?? mentions(r, option),
        ),
      );

  // 5. Dataset records with wrong field types, through every command that reads datasets.
  const lines = headLines(f.testData, 6);
  const fieldBugs: Array<[string, (rec: Record<string, unknown>) => void, boolean]> = [
    ['"slice": 5', (r) => (r.slice = 5), false],
    ['"slice": {}', (r) => (r.slice = {}), false],
    ['"slice": ["a"]', (r) => (r.slice = ["a"]), false],
    ['"labels": "yes"', (r) => (r.labels = "yes"), false],
    ['"labels": {"hallucination": "true"}', (r) => (r.labels = { hallucination: "true" }), false],
    ['"split": 3', (r) => (r.split = 3), false],
    ['"response": 5', (r) => (r.response = 5), false],
    ['"response": ""', (r) => (r.response = ""), false],
    ["no input", (r) => delete r.input, false],
    ['"input": []', (r) => (r.input = []), false],
    ['"wordLabels": 5', (r) => (r.wordLabels = 5), true],
    ['"argumentSpans": "x"', (r) => (r.argumentSpans = "x"), true],
  ];
  const readers: Array<[string, (data: string, out: string) => string[], boolean]> = [
    ["eval", (d) => ["eval", "--data", d, "--methods", "rouge", "--bootstrap", "0", "--json"], false],
    ["calibrate-guard", (d, o) => ["calibrate-guard", "--data", d, "--method", "rouge", "--out", o], false],
    ["train-stacked", (d, o) => ["train-stacked", "--train", d, "--out", o], false],
    ["check-batch", (d, o) => ["check-batch", "--data", d, "--out", o, "--methods", "rouge"], true],
  ];
  fieldBugs.forEach(([label, mutate, mayPass], k) => {
    for (const [command, argsOf, perLine] of readers) {
      if (perLine && mayPass) continue;
      const out = join(f.sub(`field-${command}`), command === "check-batch" ? "o.jsonl" : "o.json");
      cases.push(
        cliCase(
          "D",
          `${command}: a dataset line with ${label}`,
          perLine
            ? "exit 2 [INVALID_FILE], or exit 0 with that line an error record"
            : mayPass
              ? "exit 2 [INVALID_FILE] naming file:line:field, or a valid run ignoring the field"
              : "exit 2 [INVALID_FILE] naming file:line:field, nothing written",
          () => {
            const rows = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
            mutate(rows[1] as Record<string, unknown>);
            const data = f.write(`field-${k}-${command}.jsonl`, `${rows.map((x) => JSON.stringify(x)).join("\n")}\n`);
            return argsOf(data, out);
          },
          (r) => {
            if (perLine)
              return r.code === 0
                ? judgeBatchLines(
                    out,
                    ["INVALID_FILE", "INVALID_JSON", "INVALID_VALUE", "NOT_TEXT", "EMPTY_TEXT", "UNKNOWN_SPLIT"],
                    false,
                  )(r)
                : judgeError(r, BAD_FILE);
            const e = r.code === 0 && mayPass ? runProblems(r) : judgeError(r, BAD_FILE);
            if (e !== undefined) return e;
            if (r.code === 2 && fileBytes(out) !== undefined) return "error, but the output file was written";
            if (r.code === 2 && !/:2\b/.test(r.stderr))
              return `message does not name line 2: ${r.stderr.trim().slice(0, 120)}`;
            return undefined;
          },
        ),
      );
    }
  });

  // 6. Byte-level corruption of each kind of file the CLI reads.
  cases.push(...corruptionCases(f));

  // 7. Missing files and wrong shapes of the example JSON.
  const shapes: Array<[string, unknown, string[]]> = [
    ["a JSON array", [], ["INVALID_VALUE", ...BAD_FILE]],
    ["null", null, ["INVALID_VALUE", ...BAD_FILE]],
    ["a number", 5, ["INVALID_VALUE", ...BAD_FILE]],
    ["a string", "text", ["INVALID_VALUE", ...BAD_FILE]],
    ["an empty object", {}, ["INVALID_VALUE", ...BAD_FILE]],
    ["no response", { input: base.input }, ["INVALID_VALUE", ...BAD_FILE, "NOT_TEXT"]],
    ['"response": 5', { input: base.input, response: 5 }, ["NOT_TEXT"]],
    ['"response": []', { input: base.input, response: [] }, ["NOT_TEXT"]],
    ['"response": null', { input: base.input, response: null }, ["NOT_TEXT"]],
    ['"response": ""', { input: base.input, response: "" }, ["EMPTY_TEXT"]],
    ["a whitespace response", { input: base.input, response: " \n\t " }, ["EMPTY_TEXT"]],
    ['"topic": 5', { input: { ...base.input, topic: 5 }, response: base.response }, ["NOT_TEXT"]],
    ['"query": ""', { input: { ...base.input, query: "" }, response: base.response }, ["EMPTY_TEXT"]],
    ['"perspectives": {}', { input: { ...base.input, perspectives: {} }, response: base.response }, ["INVALID_VALUE"]],
    [
      "one perspective",
      {
        input: { ...base.input, perspectives: (base.input.perspectives as unknown[]).slice(0, 1) },
        response: base.response,
      },
      ["TOO_FEW_PERSPECTIVES"],
    ],
    [
      "no perspectives",
      { input: { ...base.input, perspectives: [] }, response: base.response },
      ["TOO_FEW_PERSPECTIVES"],
    ],
    [
      "a perspective with no arguments",
      {
        input: {
          ...base.input,
          perspectives: [
            { label: "pro", arguments: [] },
            { label: "con", arguments: ["x"] },
          ],
        },
        response: base.response,
      },
      ["NO_ARGUMENTS"],
    ],
    [
      "an argument that is a number",
      {
        input: {
          ...base.input,
          perspectives: [
            { label: "pro", arguments: [5] },
            { label: "con", arguments: ["x"] },
          ],
        },
        response: base.response,
      },
      ["INVALID_VALUE"],
    ],
    [
      '"text": null in an argument',
      {
        input: {
          ...base.input,
          perspectives: [
            { label: "pro", arguments: [{ text: null }] },
            { label: "con", arguments: ["x"] },
          ],
        },
        response: base.response,
      },
      ["NOT_TEXT"],
    ],
    [
      "duplicate perspective labels",
      {
        input: {
          ...base.input,
          perspectives: [
            { label: "pro", arguments: ["a b"] },
            { label: "pro", arguments: ["c d"] },
          ],
        },
        response: base.response,
      },
      ["INVALID_VALUE"],
    ],
    [
      "a label with curly braces",
      {
        input: {
          ...base.input,
          perspectives: [
            { label: "{pro}", arguments: ["a b"] },
            { label: "con", arguments: ["c d"] },
          ],
        },
        response: base.response,
      },
      ["INVALID_VALUE"],
    ],
    [
      "an empty label",
      {
        input: {
          ...base.input,
          perspectives: [
            { label: "", arguments: ["a b"] },
            { label: "con", arguments: ["c d"] },
          ],
        },
        response: base.response,
      },
      ["EMPTY_TEXT"],
    ],
    [
      '"paraphrases": "x"',
      {
        input: {
          ...base.input,
          perspectives: [
            { label: "pro", arguments: [{ text: "a b", paraphrases: "x" }] },
            { label: "con", arguments: ["c d"] },
          ],
        },
        response: base.response,
      },
      ["INVALID_VALUE"],
    ],
  ];
  shapes.forEach(([label, value, codes], k) => {
    cases.push(
      cliCase(
        "D",
        `check: an example file holding ${label}`,
        `exit 2 [${codes.join(" | ")}]`,
        () => check(f.writeJson(`shape-${k}.json`, value), ["rouge"]),
        (r) => judgeError(r, codes),
      ),
    );
    if (k >= 11 && k % 2 === 1)
      cases.push(
        cliCase(
          "D",
          `prompt: an input file holding ${label}`,
          `exit 2 [${codes.join(" | ")}]`,
          () => ["prompt", "--input", f.writeJson(`shape-p${k}.json`, value)],
          (r) => judgeError(r, codes),
        ),
      );
    if (k >= 11 && k % 2 === 0)
      cases.push(
        cliCase(
          "D",
          `generate: an input file holding ${label}`,
          `exit 2 [${codes.join(" | ")}]`,
          () => ["generate", "--input", f.writeJson(`shape-g${k}.json`, value)],
          (r) => judgeError(r, codes),
        ),
      );
  });
  cases.push(
    cliCase(
      "D",
      'check: an input with "__proto__" and "constructor" keys',
      "exit 0, finite scores (keys ignored, nothing polluted)",
      () =>
        check(
          f.write(
            "proto.json",
            JSON.stringify({ input: base.input, response: base.response }).replace(
              /^\{/,
              '{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}},',
            ),
          ),
          ["rouge"],
        ),
      (r) => judgeCheckScores(r, ["rouge"]),
    ),
    cliCase(
      "D",
      "check --input a file that does not exist",
      "exit 2 [FILE_UNREADABLE]",
      () => check(join(f.dir, "does-not-exist.json"), ["rouge"]),
      (r) => judgeError(r, ["FILE_UNREADABLE"]),
    ),
    cliCase(
      "D",
      "check --input a directory",
      "exit 2 [FILE_UNREADABLE]",
      () => check(f.sub("a-directory"), ["rouge"]),
      (r) => judgeError(r, ["FILE_UNREADABLE"]),
    ),
    cliCase(
      "D",
      'check --input ""',
      "exit 2 [FILE_UNREADABLE | USAGE]",
      () => check("", ["rouge"]),
      (r) => judgeUsage(r, ["FILE_UNREADABLE", ...USAGE]),
    ),
    cliCase(
      "D",
      "check --input /dev/null",
      "exit 2 [INVALID_FILE]",
      () => check("/dev/null", ["rouge"]),
      (r) => judgeError(r, BAD_FILE),
    ),
    cliCase(
      "D",
      "check without --input",
      "exit 2, one-line usage error",
      () => ["check", "--methods", "rouge"],
      (r) => judgeUsage(r, USAGE),
    ),
    cliCase(
      "D",
      "check --methods nonsense",
      "exit 2 [USAGE]",
      () => check(f.exampleFile, ["nonsense"]),
      (r) => judgeUsage(r, USAGE),
    ),
    cliCase(
      "D",
      "check --methods stacked without --stacked",
      "exit 2, typed error",
      () => check(f.exampleFile, ["stacked"]),
      (r) => judgeUsage(r, [...USAGE]),
    ),
  );

  // 8. Non-ASCII text is text: every data-free method scores it; a verbatim copy covers every argument.
  cases.push(...scriptCases(f));

  // 9. Determinism: the same command twice gives byte-identical output.
  cases.push(...determinismCases(f));
  return cases;
}

/** The message names the option (so the user knows what to fix). */
function mentions(r: ProcResult, option: string): string | undefined {
  const bare = option.replace(/^--/, "");
  return r.stderr.includes(bare) ? undefined : `message does not name ${option}: ${r.stderr.trim().slice(0, 120)}`;
}

/** Seeded corruptions of a file's bytes; `valid` ones must still be read correctly. */
interface Corruption {
  label: string;
  apply(b: Buffer, seed: number): Buffer;
  /** The file stays valid (BOM, CRLF): the command must succeed. */
  valid?: boolean;
  /** The corruption may leave a valid text file (for plain-text kinds). */
  textMayPass?: boolean;
  /** The bytes are not UTF-8: every kind must say INVALID_FILE (never decode them silently). */
  encoding?: boolean;
  /** Nothing left to read: "no examples" (USAGE) is as good an answer as INVALID_FILE. */
  empty?: boolean;
}

const CORRUPTIONS: Corruption[] = [
  { label: "truncated to half", apply: (b) => b.subarray(0, Math.floor(b.length / 2)), textMayPass: true },
  { label: "truncated to 1 byte", apply: (b) => b.subarray(0, 1), textMayPass: true },
  { label: "empty (0 bytes)", apply: () => Buffer.alloc(0), empty: true },
  { label: "only whitespace", apply: () => Buffer.from(" \n\n\t \n"), empty: true },
  { label: "4 KB of random bytes", apply: (_b, seed) => randomBytesSeeded(4096, seed), encoding: true },
  {
    label: "invalid UTF-8 (FF FE) inside a text",
    apply: (b) => insertAt(b, textOffset(b), Buffer.from([0xff, 0xfe])),
    encoding: true,
  },
  {
    label: "an overlong UTF-8 sequence (C0 AF)",
    apply: (b) => insertAt(b, textOffset(b), Buffer.from([0xc0, 0xaf])),
    encoding: true,
  },
  {
    label: "NUL bytes inside a text",
    apply: (b) => insertAt(b, textOffset(b), Buffer.from([0, 0, 0])),
    textMayPass: true,
  },
  {
    label: "a line of NUL bytes between lines",
    apply: (b) => insertAt(b, Math.max(0, b.indexOf(10) + 1), Buffer.from([0, 0, 0, 10])),
    textMayPass: true,
  },
  {
    label: "UTF-16LE with a BOM",
    apply: (b) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(b.toString("utf8"), "utf16le")]),
    encoding: true,
  },
  {
    label: "one 20 MB line of junk",
    apply: (b) => Buffer.concat([Buffer.from("x".repeat(20_000_000)), Buffer.from("\n"), b]),
  },
  { label: "gzip-compressed", apply: (b) => gzip(b), encoding: true },
  {
    label: "trailing garbage after the JSON",
    apply: (b) => Buffer.concat([b, Buffer.from(" }} garbage")]),
    textMayPass: true,
  },
  { label: "a // comment line", apply: (b) => Buffer.concat([Buffer.from("// note\n"), b]), textMayPass: true },
  { label: "a UTF-8 BOM", apply: (b) => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), b]), valid: true },
  { label: "CRLF line endings", apply: (b) => Buffer.from(b.toString("utf8").replace(/\n/g, "\r\n")), valid: true },
  {
    label: "a UTF-8 BOM and CRLF line endings",
    apply: (b) =>
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(b.toString("utf8").replace(/\n/g, "\r\n"))]),
    valid: true,
  },
];

function insertAt(b: Buffer, at: number, bytes: Buffer): Buffer {
  return Buffer.concat([b.subarray(0, at), bytes, b.subarray(at)]);
}

/** An offset inside the first long run of letters (inside a JSON string value, for JSON files). */
function textOffset(b: Buffer): number {
  const m = /[A-Za-z]{6,}/.exec(b.toString("latin1").slice(20));
  return m === null ? Math.floor(b.length / 2) : 20 + m.index + 3;
}

/** gzip at a fixed level: deterministic for a given input. */
function gzip(b: Buffer): Buffer {
  return gzipSync(b, { level: 6 });
}

function corruptionCases(f: Fixtures): Case[] {
  const cases: Case[] = [];
  const dataLines = `${headLines(f.testData, 6).join("\n")}\n`;
  const refs = "The quick brown fox jumps over the lazy dog\nZoos protect endangered species\nUniforms save money\n";
  const preds = f.write("preds.txt", "The quick brown dog jumps on the log.\nZoos save species\nUniforms cost money\n");
  interface Kind {
    label: string;
    base: Buffer;
    json: boolean;
    args(file: string, out: string): string[];
    /** A valid run's output is right. */
    ok(r: ProcResult, out: string): string | undefined;
    perLine?: boolean;
    /** An empty file is a valid (empty) JSON Lines or text file: an empty result is as good as an error. */
    emptyIsValid?: boolean;
  }
  const kinds: Kind[] = [
    {
      label: "check --input (JSON example)",
      base: readFileSync(f.exampleFile),
      json: true,
      args: (file) => ["check", "--input", file, "--methods", "rouge", "--json"],
      ok: (r) => judgeCheckScores(r, ["rouge"]),
    },
    {
      label: "guard --config (JSON)",
      base: readFileSync(f.guard.rouge),
      json: true,
      args: (file) => ["guard", "--config", file, "--input", f.exampleFile],
      ok: (r) => judgeVerdictOr(r, []),
    },
    {
      label: "eval --data (JSON Lines dataset)",
      emptyIsValid: true,
      base: Buffer.from(dataLines),
      json: true,
      args: (file) => ["eval", "--data", file, "--methods", "rouge", "--bootstrap", "0", "--json"],
      ok: (r) => (r.code === 0 ? parseJson(r.stdout).problem : describeRun(r)),
    },
    {
      label: "check-batch --data (JSON Lines)",
      emptyIsValid: true,
      base: Buffer.from(dataLines),
      json: true,
      perLine: true,
      args: (file, out) => ["check-batch", "--data", file, "--out", out, "--methods", "rouge"],
      ok: (r, out) => judgeBatchLines(out, [], false)(r),
    },
    {
      label: "kb list --kb (knowledge-base JSON Lines)",
      emptyIsValid: true,
      base: readFileSync(join(ROOT, "fixtures/kb/topics.jsonl")),
      json: true,
      args: (file) => ["kb", "list", "--kb", file, "--json"],
      ok: (r) => (r.code === 0 ? parseJson(r.stdout).problem : describeRun(r)),
    },
    {
      label: "rouge --target (text lines)",
      emptyIsValid: true,
      base: Buffer.from(refs),
      json: false,
      args: (file) => ["rouge", "--target", file, "--prediction", preds, "--json"],
      ok: (r) => (r.code === 0 ? undefined : describeRun(r)),
    },
  ];
  CORRUPTIONS.forEach((c, k) => {
    kinds.forEach((kind, j) => {
      const ext =
        kind.label.includes("kb list") || kind.perLine || kind.label.includes("eval")
          ? "jsonl"
          : kind.json
            ? "json"
            : "txt";
      const out = join(f.sub(`corrupt-out-${k}-${j}`), "out.jsonl");
      const mayPass =
        c.valid === true || (!kind.json && c.textMayPass === true) || (c.empty === true && kind.emptyIsValid === true);
      // A text file that is not corrupt as text (empty, a junk line) is a usage problem: any typed error.
      const codes = c.encoding ? BAD_FILE : !kind.json ? [] : c.empty ? [...BAD_FILE, ...USAGE] : BAD_FILE;
      const expected = c.valid
        ? "read correctly: exit 0 with a valid result"
        : kind.perLine && !c.encoding
          ? "exit 2 [INVALID_FILE], or exit 0 with the bad lines as error records"
          : mayPass
            ? "exit 0 with a valid result, or exit 2 with a typed error"
            : `exit 2 [${codes.length ? codes.join(" | ") : "any typed code"}]`;
      cases.push(
        cliCase(
          "D",
          `${kind.label}: file ${c.label}`,
          expected,
          () => {
            const file = f.write(`corrupt-${k}-${j}.${ext}`, c.apply(kind.base, 1000 + k));
            return kind.args(file, out);
          },
          (r) => {
            if (c.valid) {
              const p = runProblems(r);
              return p ?? kind.ok(r, out);
            }
            if (kind.perLine && r.code === 0 && !c.encoding)
              return judgeBatchLines(
                out,
                ["INVALID_FILE", "INVALID_JSON", "INVALID_VALUE", "NOT_TEXT", "EMPTY_TEXT"],
                false,
              )(r);
            if (mayPass) return judgeEither(r, (x) => kind.ok(x, out), []);
            return judgeError(r, codes);
          },
        ),
      );
    });
  });
  return cases;
}

/** Scripts other than Latin: scored by every data-free method; a verbatim copy covers every argument. */
export const SCRIPTS: Array<{ label: string; topic: string; pro: string; con: string; extra?: string }> = [
  { label: "Chinese", topic: "动物园", pro: "动物园让濒危物种得以繁衍。", con: "笼养动物会感到痛苦和压力。" },
  { label: "Japanese", topic: "動物園", pro: "動物園は絶滅危惧種を守る。", con: "檻の中の動物は苦しんでいる。" },
  { label: "Korean", topic: "동물원", pro: "동물원은 멸종 위기 종을 보호한다.", con: "갇힌 동물은 고통을 겪는다." },
  {
    label: "Arabic",
    topic: "حدائق الحيوان",
    pro: "تحمي حدائق الحيوان الأنواع المهددة بالانقراض.",
    con: "تعاني الحيوانات في الأقفاص من الضغط.",
  },
  {
    label: "Hebrew",
    topic: "גני חיות",
    pro: "גני חיות מגינים על מינים בסכנת הכחדה.",
    con: "בעלי חיים בכלובים סובלים מלחץ.",
  },
  {
    label: "Russian",
    topic: "зоопарки",
    pro: "Зоопарки спасают исчезающие виды животных.",
    con: "Животные в клетках страдают от стресса.",
  },
  {
    label: "Greek",
    topic: "ζωολογικοί κήποι",
    pro: "Οι ζωολογικοί κήποι προστατεύουν απειλούμενα είδη.",
    con: "Τα ζώα στα κλουβιά υποφέρουν από άγχος.",
  },
  {
    label: "Hindi",
    topic: "चिड़ियाघर",
    pro: "चिड़ियाघर लुप्तप्राय प्रजातियों की रक्षा करते हैं।",
    con: "पिंजरों में जानवर तनाव से पीड़ित होते हैं।",
  },
  { label: "Thai (no spaces)", topic: "สวนสัตว์", pro: "สวนสัตว์ช่วยปกป้องสัตว์ใกล้สูญพันธุ์", con: "สัตว์ในกรงมีความเครียด" },
  {
    label: "decomposed accents (combining marks)",
    topic: "cafe\u0301s",
    pro: "Cafe\u0301s serve cre\u0300me brule\u0301e daily.",
    con: "Re\u0301sume\u0301s list nai\u0308ve claims.",
  },
  {
    label: "full-width Latin",
    topic: "ｚｏｏｓ",
    pro: "Ｚｏｏｓ ｐｒｏｔｅｃｔ ｓｐｅｃｉｅｓ.",
    con: "Ｃａｇｅｓ ｈａｒｍ ａｎｉｍａｌｓ.",
  },
  {
    label: "mathematical bold letters (astral plane)",
    topic: "𝐳𝐨𝐨𝐬",
    pro: "𝐙𝐨𝐨𝐬 𝐩𝐫𝐨𝐭𝐞𝐜𝐭 𝐬𝐩𝐞𝐜𝐢𝐞𝐬.",
    con: "𝐂𝐚𝐠𝐞𝐬 𝐡𝐚𝐫𝐦 𝐚𝐧𝐢𝐦𝐚𝐥𝐬.",
  },
  {
    label: "Turkish dotted and dotless i",
    topic: "İstanbul",
    pro: "İstanbul'da hayvanat bahçeleri türleri korur.",
    con: "Kafesteki hayvanlar ıstırap çeker.",
  },
  {
    label: "German sharp s",
    topic: "Zoos",
    pro: "Große Zoos schützen bedrohte Tierarten.",
    con: "Käfige schaden dem Wohlbefinden der Tiere.",
  },
  {
    label: "bidi override characters inside English",
    topic: "zoos",
    pro: "Zoos \u202Eprotect\u202C endangered species.",
    con: "Cages \u2067harm\u2069 wild animals.",
  },
  {
    label: "English mixed with emoji inside words",
    topic: "zoos",
    pro: "Zoos pro🦁tect endangered species.",
    con: "Cages harm wild an🐘imals.",
  },
];

function scriptCases(f: Fixtures): Case[] {
  const cases: Case[] = [];
  SCRIPTS.forEach((s, k) => {
    const input = {
      topic: s.topic,
      query: `${s.topic}?`,
      perspectives: [
        { label: "pro", arguments: [{ text: s.pro }] },
        { label: "con", arguments: [{ text: s.con }] },
      ],
    };
    // rouge and support on every script; soft and align (the same matcher) on every fourth.
    for (const method of k % 4 === 0 ? DATA_FREE : (["rouge", "support"] as const)) {
      // Only ROUGE's coverage is exact for a verbatim copy: every argument word appears in the response.
      cases.push(
        cliCase(
          "B",
          `check --methods ${method}: ${s.label} input, the response copies the arguments verbatim`,
          method === "rouge" ? "exit 0, finite scores, coverage 0 (every argument copied)" : "exit 0, finite scores",
          () => [
            "check",
            "--input",
            f.writeJson(`script-${k}-${method}.json`, { input, response: `${s.pro} ${s.con}` }),
            "--methods",
            method,
            "--json",
          ],
          (r) => {
            const p = judgeCheckScores(r, [method]);
            if (p !== undefined || method !== "rouge") return p;
            const cov = (parseJson(r.stdout).value as Record<string, { coverage: number }>).rouge?.coverage;
            return cov === 0 ? undefined : `coverage ${cov} for a verbatim copy`;
          },
        ),
      );
    }
  });
  const surrogate = (label: string, escaped: string): Case =>
    cliCase(
      "B",
      `check --methods rouge,align,support: a response with ${label}`,
      "exit 0, finite scores",
      () => [
        "check",
        "--input",
        f.write(
          `surrogate-${label.length}.json`,
          JSON.stringify({ input: f.example.input, response: f.example.response }).replace(
            /"response":"Opinions/,
            `"response":"Opin${escaped}ions`,
          ),
        ),
        "--methods",
        "rouge,align,support",
        "--json",
      ],
      (r) => judgeCheckScores(r, ["rouge", "align", "support"]),
    );
  cases.push(
    surrogate("a lone high surrogate (\\ud800) inside a word", "\\ud800"),
    surrogate("a lone low surrogate (\\udc00) inside a word", "\\udc00"),
    surrogate("a reversed surrogate pair (\\udc00\\ud800)", "\\udc00\\ud800"),
  );
  return cases;
}

function determinismCases(f: Fixtures): Case[] {
  const twice = (name: string, area: Area, args: (k: number) => string[], output?: (k: number) => string): Case => ({
    category: "input files (CLI)",
    area,
    name: `determinism: ${name} twice`,
    expected: "exit 0 both times, byte-identical output",
    run: async () => {
      const a = await runCli(args(0), { timeoutMs: 90_000 });
      const b = await runCli(args(1), { timeoutMs: 90_000 });
      for (const r of [a, b]) {
        const p = runProblems(r) ?? (r.code === 0 ? undefined : describeRun(r));
        if (p !== undefined) return p;
      }
      const x = output ? fileBytes(output(0)) : Buffer.from(a.stdout);
      const y = output ? fileBytes(output(1)) : Buffer.from(b.stdout);
      if (x === undefined || y === undefined) return "no output file";
      if (!x.equals(y)) return "the two outputs differ";
      return undefined;
    },
  });
  const d = f.sub("determinism");
  return [
    twice("check --methods rouge,align,support,soft --json", "B", () => [
      "check",
      "--input",
      f.exampleFile,
      "--methods",
      "rouge,align,support,soft",
      "--json",
    ]),
    twice(
      "synth --split test --per-topic 2 --seed 3",
      "B",
      (k) => ["synth", "--split", "test", "--per-topic", "2", "--seed", "3", "--out", join(d, `synth-${k}.jsonl`)],
      (k) => join(d, `synth-${k}.jsonl`),
    ),
    twice("eval --methods rouge,align --bootstrap 50 --json", "B", () => [
      "eval",
      "--data",
      f.testData,
      "--methods",
      "rouge,align",
      "--bootstrap",
      "50",
      "--json",
    ]),
    twice("eval --sample-per-slice 3 --seed 5 --json", "B", () => [
      "eval",
      "--data",
      f.testData,
      "--methods",
      "rouge",
      "--sample-per-slice",
      "3",
      "--seed",
      "5",
      "--bootstrap",
      "20",
      "--json",
    ]),
    twice("generate --seed 3 --json", "A", () => ["generate", "--input", f.exampleFile, "--seed", "3", "--json"]),
    twice("guard (support)", "A", () => ["guard", "--config", f.guard.support, "--input", f.exampleFile]),
    twice(
      "check-batch --methods rouge,support",
      "B",
      (k) => ["check-batch", "--data", f.testData, "--out", join(d, `batch-${k}.jsonl`), "--methods", "rouge,support"],
      (k) => join(d, `batch-${k}.jsonl`),
    ),
    twice(
      "calibrate-guard --method align",
      "B",
      (k) => ["calibrate-guard", "--data", f.devData, "--method", "align", "--out", join(d, `guard-${k}.json`)],
      (k) => join(d, `guard-${k}.json`),
    ),
    twice("salience --json", "C", () => ["salience", "--input", f.exampleFile, "--json"]),
    twice(
      "salience --html",
      "C",
      (k) => ["salience", "--input", f.exampleFile, "--html", join(d, `map-${k}.html`)],
      (k) => join(d, `map-${k}.html`),
    ),
    twice(
      "synth --kb perspectrum --split dev --per-topic 1 --seed 9",
      "B",
      (k) => [
        "synth",
        "--kb",
        "perspectrum",
        "--split",
        "dev",
        "--per-topic",
        "1",
        "--seed",
        "9",
        "--out",
        join(d, `p-${k}.jsonl`),
      ],
      (k) => join(d, `p-${k}.jsonl`),
    ),
    twice("prompt --kind coverage --json", "D", () => [
      "prompt",
      "--input",
      f.exampleFile,
      "--kind",
      "coverage",
      "--json",
    ]),
    twice("rouge --tokenizer rouge-score --json", "B", () => [
      "rouge",
      "--target",
      f.write("det-refs.txt", "The quick brown fox jumps over the lazy dog\nZoos protect species\n"),
      "--prediction",
      f.write("det-preds.txt", "The quick brown dog jumps on the log.\nZoos save species\n"),
      "--tokenizer",
      "rouge-score",
      "--json",
    ]),
    twice(
      "check-batch --words --methods align",
      "B",
      (k) => [
        "check-batch",
        "--data",
        f.testData,
        "--out",
        join(d, `words-${k}.jsonl`),
        "--methods",
        "align",
        "--words",
      ],
      (k) => join(d, `words-${k}.jsonl`),
    ),
    twice("check --methods classifier --json", "C", () => [
      "check",
      "--input",
      f.exampleFile,
      "--methods",
      "classifier",
      "--json",
    ]),
  ];
}
