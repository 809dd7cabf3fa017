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
  FileFormatError,
  InvalidValueError,
  type NpovInput,
  readJsonFile,
  repoPath,
  type Term,
  type Topic,
  writeFileAtomic,
} from "@npov/core";

/** Document frequencies of stemmed words. */
export interface SpecificityTable {
  documents: number;
  df: Map<string, number>;
}

/** Build document frequencies from topics: one document per argument (its text and paraphrases). */
export function buildSpecificityTable(topics: readonly Topic[]): SpecificityTable {
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

/** Save as JSON (stems sorted), atomically. */
export function saveSpecificityTable(file: string, table: SpecificityTable, meta: Record<string, unknown> = {}): void {
  const df = Object.fromEntries([...table.df.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)));
  writeFileAtomic(file, `${JSON.stringify({ format: FORMAT, ...meta, documents: table.documents, df })}\n`);
}

/** Load a table saved by {@link saveSpecificityTable}. @throws FileReadError, FileFormatError */
export function loadSpecificityTable(file: string): SpecificityTable {
  const raw = (readJsonFile(file) ?? {}) as { format?: string; documents?: number; df?: Record<string, number> };
  if (raw.format !== FORMAT || typeof raw.documents !== "number" || typeof raw.df !== "object" || raw.df === null)
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
    this.queryStems = new Set(contentTerms(`${input.query} ${input.topic}`).map((t) => t.term));
    this.maxIdf = Math.log((table?.documents ?? 1) + 1);
  }

  /** True when the stem occurs in the query or topic. */
  inQuery(term: Term): boolean {
    return this.queryStems.has(term.term);
  }

  /** Normalized IDF of the stem in [0, 1] (1 when no table is given). */
  idf(term: Term): number {
    if (this.table === undefined) return 1;
    const df = this.table.df.get(term.term) ?? 0;
    return Math.log((this.table.documents + 1) / (df + 1)) / this.maxIdf;
  }

  /** The term's weight: IDF, discounted for query and topic words; never 0 (floor 0.02). */
  weight(term: Term): number {
    const w = this.idf(term) * (this.inQuery(term) ? (this.options.queryDiscount ?? 0.3) : 1);
    return Math.max(0.02, w);
  }
}
