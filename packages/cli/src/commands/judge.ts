/**
 * `npov judge`: the Likert judge (LLM evaluation) over a file of responses, with agreement against human
 * ratings when the records carry them: `{"input": {...}, "response": "...", "ratings": {"neutrality": [4, 5, 4]}}`.
 */
import {
  FileFormatError,
  type FileIssue,
  forEachJsonLine,
  jsonDepth,
  MAX_JSON_DEPTH,
  type NpovInput,
  readTextFile,
  truncateText,
  validateInput,
  validateResponse,
} from "@npov/core";
import {
  formatUsage,
  LIKERT_ATTRIBUTES,
  type LikertAttribute,
  LikertJudge,
  type LikertRating,
  parseLikert,
} from "@npov/llm";
import type { Command } from "commander";
import { integerOption, out, outJson, table } from "../util.js";
import { addEndpointOptions, type EndpointCliOptions, endpointClient, endpointSpec } from "./endpoint.js";
import { type RatedItem, type RatingAgreement, ratingAgreement, usableItems } from "./judge-agreement.js";

/** How many unreadable answers per attribute the output quotes. */
const SHOWN_UNPARSED = 3;

/** One record to rate. */
export interface JudgeRecord {
  input: NpovInput;
  response: string;
  /** Human ratings per attribute (any number of raters). */
  ratings: Partial<Record<LikertAttribute, number[]>>;
}

/** Read records from JSON Lines or a JSON array. @throws FileFormatError listing every bad record */
export function readJudgeRecords(file: string): JudgeRecord[] {
  const text = readTextFile(file);
  const issues: FileIssue[] = [];
  const records: JudgeRecord[] = [];
  const accept = (value: unknown, line: number | undefined) => {
    const v = value as { input?: unknown; response?: unknown; ratings?: unknown };
    try {
      if (value === null || typeof value !== "object" || Array.isArray(value))
        throw new Error('a record must be an object {"input", "response", "ratings"?}');
      const ratings: JudgeRecord["ratings"] = {};
      if (v.ratings !== undefined) {
        if (v.ratings === null || typeof v.ratings !== "object") throw new Error("ratings must be an object");
        for (const [attribute, list] of Object.entries(v.ratings)) {
          if (!LIKERT_ATTRIBUTES.includes(attribute as LikertAttribute))
            throw new Error(`ratings.${attribute}: unknown attribute (use ${LIKERT_ATTRIBUTES.join(", ")})`);
          if (!Array.isArray(list) || !list.every((x) => typeof x === "number" && x >= 1 && x <= 5))
            throw new Error(`ratings.${attribute} must be an array of numbers in [1, 5]`);
          ratings[attribute as LikertAttribute] = list as number[];
        }
      }
      records.push({
        input: validateInput(v.input, "input"),
        response: validateResponse(v.response, "response"),
        ratings,
      });
    } catch (e) {
      issues.push({ file, line, field: "", message: (e as Error).message });
    }
  };
  if (text.trimStart().startsWith("[")) {
    let array: unknown;
    try {
      array = JSON.parse(text);
    } catch (e) {
      throw new FileFormatError([
        { file, line: undefined, field: "", message: `invalid JSON: ${(e as Error).message}` },
      ]);
    }
    if (!Array.isArray(array) || jsonDepth(array) > MAX_JSON_DEPTH)
      throw new FileFormatError([
        {
          file,
          line: undefined,
          field: "",
          message: `must be JSON Lines or one JSON array nested at most ${MAX_JSON_DEPTH} levels deep`,
        },
      ]);
    array.forEach((value, k) => {
      accept(value, k + 1);
    });
  } else forEachJsonLine(text, file, issues, accept);
  if (issues.length > 0) throw new FileFormatError(issues);
  if (records.length === 0)
    throw new FileFormatError([{ file, line: undefined, field: "", message: "no records: the file is empty." }]);
  return records;
}

export function registerJudge(program: Command): void {
  addEndpointOptions(
    program
      .command("judge")
      .description("rate responses 1-5 with an LLM (the Likert judge); agreement with human ratings when given")
      .requiredOption("--data <file>", 'JSON Lines of {"input", "response", "ratings"?: {"neutrality": [4, 5]}}')
      .option("--model <name>", "the endpoint's model name (same as --endpoint-model)")
      .option(...integerOption("--limit <n>", "rate only the first n records", { min: 1 }))
      .option("--json", "machine-readable output"),
  ).action(async (opts: EndpointCliOptions & { data: string; limit?: number; json?: boolean }) => {
    const all = readJudgeRecords(opts.data);
    const records = opts.limit === undefined ? all : all.slice(0, opts.limit);
    const spec = { ...endpointSpec(opts), ...(opts.model === undefined ? {} : { model: opts.model }), method: "judge" };
    const attributes = spec.attributes ?? [...LIKERT_ATTRIBUTES];
    const client = endpointClient(spec);
    const judge = new LikertJudge(client, {
      attributes,
      ...(spec.api === undefined ? {} : { api: spec.api }),
      ...(spec.seed === undefined ? {} : { seed: spec.seed }),
      ...(spec.samples === undefined ? {} : { samples: spec.samples }),
    });
    const rated: LikertRating[][] = [];
    for (const r of records) rated.push(await judge.rate(r.input, r.response));
    const summary = attributes.map((attribute) => {
      const per = rated.map((ratings) => ratings.find((x) => x.attribute === attribute)!);
      const means = per.map((p) => p.mean).filter((m): m is number => m !== undefined);
      const items: RatedItem[] = records.map((rec, k) => ({
        // One value per sample, in sample order; an unreadable answer is a missing rating.
        llm: per[k]!.answers.map(parseLikert),
        human: rec.ratings[attribute] ?? [],
      }));
      // Agreement needs two items the LLM and the humans both rated; with fewer it is left out, the output
      // says why, and the ratings paid for are still reported.
      const usable = usableItems(items).length;
      const agreement: RatingAgreement | undefined = usable >= 2 ? ratingAgreement(items) : undefined;
      const unparsedAnswers = per.flatMap((p) => p.answers.filter((a) => parseLikert(a) === undefined));
      return {
        attribute,
        items: records.length,
        llmMean: means.length === 0 ? undefined : means.reduce((s, x) => s + x, 0) / means.length,
        unparsed: per.reduce((s, p) => s + p.unparsed, 0),
        answers: per.reduce((s, p) => s + p.answers.length, 0),
        // Items rated by humans and with a readable LLM answer: agreement needs two.
        usableItems: usable,
        withHumanRatings: items.filter((i) => i.human.length > 0).length,
        withReadableLlmRating: items.filter((i) => i.llm.some((x) => x !== undefined)).length,
        // The first few unreadable answers as the endpoint gave them (up to 200 characters each).
        unparsedExamples: unparsedAnswers.slice(0, SHOWN_UNPARSED).map((a) => truncateText(a, 200)),
        agreement,
      };
    });
    process.stderr.write(`npov: ${formatUsage(client.usage())}\n`);
    // An undefined statistic is null in JSON (present and undefined), never left out or shown as a number.
    const orNull = (a: RatingAgreement) => ({
      ...a,
      alphaLlmVsHuman: a.alphaLlmVsHuman ?? null,
      kendallTau: a.kendallTau ?? null,
      alphaLlmSamples: a.alphaLlmSamples ?? null,
    });
    if (opts.json)
      return outJson({
        attributes: summary.map((s) => (s.agreement === undefined ? s : { ...s, agreement: orNull(s.agreement) })),
        usage: client.usage(),
      });
    const f = (x: number | undefined) => (x === undefined ? "-" : x.toFixed(3));
    // A statistic computed over usable items that is undefined there (alpha 0/0, tau of a constant).
    const defined = (x: number | undefined) => (x === undefined ? "undefined" : x.toFixed(3));
    // Agreement columns only when some attribute has agreement; a row without it says why below the table.
    const withAgreement = summary.some((s) => s.agreement !== undefined);
    out(
      table(
        ["attribute", "items", "LLM mean", "unparsed", ...(withAgreement ? ["human mean", "alpha", "tau"] : [])],
        summary.map((s) => [
          s.attribute,
          String(s.items),
          f(s.llmMean),
          `${s.unparsed}/${s.answers}`,
          ...(withAgreement
            ? s.agreement === undefined
              ? ["-", "-", "-"]
              : [f(s.agreement.humanMean), defined(s.agreement.alphaLlmVsHuman), defined(s.agreement.kendallTau)]
            : []),
        ]),
      ),
    );
    const notes: string[] = [];
    const statistics = summary.flatMap((s) => (s.agreement === undefined ? [] : [s.agreement]));
    if (statistics.some((a) => a.alphaLlmVsHuman === undefined || a.kendallTau === undefined))
      notes.push(
        "undefined under alpha: every per-item mean is the same (0/0, not perfect agreement); under tau: one side rates every item the same (no ranking).",
      );
    if (summary.some((s) => s.llmMean === undefined))
      notes.push('"-" under LLM mean: no answer for that attribute held a readable 1-5 rating.');
    for (const s of summary) {
      if (s.agreement === undefined)
        notes.push(
          `${s.attribute}: agreement with humans (human mean, alpha, tau) needs two usable items, rated by humans and with a readable LLM answer; ${s.usableItems} of ${s.items} are (${s.withHumanRatings} with human ratings, ${s.withReadableLlmRating} with a readable LLM answer).`,
        );
      if (s.unparsedExamples.length > 0)
        notes.push(
          `${s.attribute}: ${s.unparsed} of ${s.answers} answers hold no readable 1-5 rating; the first ${s.unparsedExamples.length === 1 ? "one" : s.unparsedExamples.length}: ${s.unparsedExamples.map((a) => JSON.stringify(truncateText(a, 100))).join(", ")}`,
        );
    }
    if (notes.length > 0) out(`\n${notes.join("\n")}`);
  });
}
