/**
 * Specificity: how much a word says within a debate. A word's weight is its inverse document frequency
 * over a knowledge base (each argument with its paraphrases is one document), so words every debate uses
 * ("people", "government") weigh little and concrete ones ("psychological", "expelled") weigh much; words of
 * the query and topic are discounted further, since every sentence of a response about that debate may use
 * them without stating any argument. A hallucinated sentence built from the debate's own words therefore
 * keeps most of its weight on its unsupported, specific words.
 */
import { existsSync } from "node:fs";
import {
  contentTerms,
  describe,
  FileFormatError,
  InvalidValueError,
  jsonText,
  NotTextError,
  type NpovInput,
  readJsonFile,
  repoPath,
  requireArray,
  requireNumber,
  requireRecord,
  requireText,
  type Term,
  type Topic,
  writeFileAtomic,
} from "@npov/core";

/** Document frequencies of stemmed words. */
export interface SpecificityTable {
  documents: number;
  df: Map<string, number>;
}

/** Check topics as far as {@link buildSpecificityTable} reads them (argument texts and paraphrases). */
function checkTopics(topics: unknown): readonly Topic[] {
  requireArray(topics, "topics", "an array of knowledge-base topics").forEach((t, i) => {
    const topic = requireRecord(t, `topics[${i}]`, "a topic");
    requireArray(topic.perspectives, `topics[${i}].perspectives`).forEach((p, k) => {
      const at = `topics[${i}].perspectives[${k}]`;
      requireArray(requireRecord(p, at, "a perspective").arguments, `${at}.arguments`).forEach((a, j) => {
        const arg = requireRecord(a, `${at}.arguments[${j}]`, "an argument {text, paraphrases?}");
        if (typeof arg.text !== "string") throw new NotTextError(`${at}.arguments[${j}].text`, arg.text);
        if (arg.paraphrases !== undefined)
          requireArray(arg.paraphrases, `${at}.arguments[${j}].paraphrases`).forEach((x, m) => {
            if (typeof x !== "string") throw new NotTextError(`${at}.arguments[${j}].paraphrases[${m}]`, x);
          });
      });
    });
  });
  return topics as readonly Topic[];
}

/** Check a table's shape (not every frequency: {@link Specificity} checks those it reads). */
function checkTable(value: unknown, path: string): SpecificityTable {
  const t = requireRecord(value, path, "a specificity table {documents, df}");
  requireNumber(t.documents, `${path}.documents`, { min: 1, integer: true });
  if (!(t.df instanceof Map)) throw new InvalidValueError(`${path}.df`, "must be a Map from stem to document count.");
  return value as SpecificityTable;
}

function requireTerm(value: unknown, path: string): Term {
  if (typeof value !== "object" || value === null || typeof (value as Term).term !== "string")
    throw new InvalidValueError(path, `must be a term (contentTerms), got ${describe(value)}.`);
  return value as Term;
}

/**
 * Build document frequencies from topics: one document per argument (its text and paraphrases).
 * @throws InvalidValueError, NotTextError for malformed topics or when there is no argument
 */
export function buildSpecificityTable(topics: readonly Topic[]): SpecificityTable {
  checkTopics(topics);
  const df = new Map<string, number>();
  let documents = 0;
  for (const t of topics)
    for (const p of t.perspectives)
      for (const a of p.arguments) {
        documents++;
        const stems = new Set(contentTerms([a.text, ...(a.paraphrases ?? [])].join(" ")).map((x) => x.term));
        for (const s of stems) df.set(s, (df.get(s) ?? 0) + 1);
      }
  if (documents === 0) throw new InvalidValueError("topics", "no arguments to count; give at least one topic.");
  return { documents, df };
}

const FORMAT = "npov-specificity/1";

/** Save as JSON (stems sorted), atomically. @throws NotTextError, InvalidValueError, FileWriteError */
export function saveSpecificityTable(file: string, table: SpecificityTable, meta: Record<string, unknown> = {}): void {
  if (typeof file !== "string") throw new NotTextError("file", file);
  checkTable(table, "table");
  for (const [stem, n] of table.df) {
    if (typeof stem !== "string") throw new InvalidValueError("table.df", "must map stems (strings) to counts.");
    requireNumber(n, `table.df.get(${JSON.stringify(stem)})`, { min: 0, integer: true });
  }
  requireRecord(meta, "meta");
  jsonText(meta, "meta");
  const df = Object.fromEntries([...table.df.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)));
  writeFileAtomic(file, `${JSON.stringify({ format: FORMAT, ...meta, documents: table.documents, df })}\n`);
}

/** Load a table saved by {@link saveSpecificityTable}. @throws NotTextError, FileReadError, FileFormatError */
export function loadSpecificityTable(file: string): SpecificityTable {
  if (typeof file !== "string") throw new NotTextError("file", file);
  const raw = (readJsonFile(file) ?? {}) as { format?: string; documents?: number; df?: Record<string, number> };
  if (
    raw.format !== FORMAT ||
    typeof raw.documents !== "number" ||
    !Number.isInteger(raw.documents) ||
    raw.documents < 1 ||
    typeof raw.df !== "object" ||
    raw.df === null ||
    Array.isArray(raw.df) ||
    Object.values(raw.df).some((n) => typeof n !== "number" || !Number.isInteger(n) || n < 0)
  )
    throw new FileFormatError([
      { file, line: undefined, field: "format", message: `expected "${FORMAT}" with documents and df` },
    ]);
  return { documents: raw.documents, df: new Map(Object.entries(raw.df)) };
}

let shipped: SpecificityTable | null | undefined;
/** The shipped table (models/npov-support/specificity.json), or undefined when absent. */
export function defaultSpecificityTable(): SpecificityTable | undefined {
  if (shipped === undefined) {
    const file = repoPath("models", "npov-support", "specificity.json");
    shipped = existsSync(file) ? loadSpecificityTable(file) : null;
  }
  return shipped ?? undefined;
}

/** Options of {@link Specificity}. */
export interface SpecificityOptions {
  /** Factor applied to query and topic words (default 0.3). */
  queryDiscount?: number;
}

/**
 * Specificity weights in one debate (an input): `weight(term)` in (0, 1], the normalized IDF of the term's
 * stem (unknown stems count as rarest), times `queryDiscount` for stems of the query and topic.
 */
export class Specificity {
  private readonly queryStems: Set<string>;
  private readonly maxIdf: number;
  constructor(
    readonly table: SpecificityTable | undefined,
    input: NpovInput,
    readonly options: SpecificityOptions = {},
  ) {
    if (table !== undefined) checkTable(table, "table");
    // Only the query and topic are read.
    const debate = requireRecord(input, "input", "an input {topic, query, ...}");
    // A sources input may have no query and untitled sources: "" (no words to discount).
    if (typeof debate.query !== "string") requireText(debate.query, "input.query");
    if (typeof debate.topic !== "string") requireText(debate.topic, "input.topic");
    requireRecord(options, "options", "an object {queryDiscount?}");
    if (options.queryDiscount !== undefined) requireNumber(options.queryDiscount, "options.queryDiscount", { min: 0 });
    this.queryStems = new Set(contentTerms(`${input.query} ${input.topic}`).map((t) => t.term));
    this.maxIdf = Math.log((table?.documents ?? 1) + 1);
  }

  /** True when the stem occurs in the query or topic. */
  inQuery(term: Term): boolean {
    return this.queryStems.has(requireTerm(term, "term").term);
  }

  /** Normalized IDF of the stem in [0, 1] (1 when no table is given). */
  idf(term: Term): number {
    requireTerm(term, "term");
    if (this.table === undefined) return 1;
    const df = this.table.df.get(term.term) ?? 0;
    if (typeof df !== "number" || !Number.isFinite(df) || df < 0)
      throw new InvalidValueError(
        `table.df.get(${JSON.stringify(term.term)})`,
        `must be a count >= 0, got ${describe(df)}.`,
      );
    return Math.log((this.table.documents + 1) / (df + 1)) / this.maxIdf;
  }

  /** The term's weight: IDF, discounted for query and topic words; never 0 (floor 0.02). */
  weight(term: Term): number {
    const w = this.idf(term) * (this.inQuery(term) ? (this.options.queryDiscount ?? 0.3) : 1);
    return Math.max(0.02, w);
  }
}
