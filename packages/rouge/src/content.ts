/** Checks, groupings and file reading shared inside @npov/rouge (not exported from the package). */
import { readFileSync } from "node:fs";
import { FileReadError, NothingToScoreError, type Term } from "@npov/core";

/** Read a binary file; every failure is a FileReadError. */
export function readBinary(file: string): Buffer {
  try {
    return readFileSync(file);
  } catch (cause) {
    throw new FileReadError(file, cause);
  }
}

/** What a text without content words has, for {@link NothingToScoreError}. */
export const ONLY_STOP_WORDS = "only stop words (no content word a word-overlap detector can match)";

/**
 * Word-overlap detectors cannot score a response or argument without content words (only stop words): refuse
 * it rather than call it clean. @throws NothingToScoreError
 */
export function requireContent<T>(terms: T[], path: string, what = ONLY_STOP_WORDS): T[] {
  if (terms.length === 0) throw new NothingToScoreError(path, what);
  return terms;
}

/**
 * For each sentence, the terms inside it (start >= sentence start, end <= sentence end), in one pass over both
 * lists: terms and sentences are in text order. Replaces a filter of every term per sentence (quadratic).
 */
export function termsBySentence<T>(
  terms: readonly T[],
  sentences: ReadonlyArray<{ start: number; end: number }>,
  span: (term: T) => { start: number; end: number } = (term) => term as { start: number; end: number },
): T[][] {
  let first = 0;
  return sentences.map((s) => {
    while (first < terms.length && span(terms[first] as T).start < s.start) first++;
    const inside: T[] = [];
    for (let k = first; k < terms.length && span(terms[k] as T).start < s.end; k++)
      if (span(terms[k] as T).end <= s.end) inside.push(terms[k] as T);
    return inside;
  });
}

/**
 * The similarities of one check's (response word, argument word) pairs: each distinct pair of words (same
 * comparison key and form) is weighed once, on first use, and every later lookup is an array read instead
 * of a string-keyed memo lookup. `weigh` must be symmetric, as the matchers' weights are.
 */
export class PairTable {
  private readonly rowOf = new Map<Term, number>();
  private readonly colOf = new Map<Term, number>();
  private readonly rowTerms: Term[] = [];
  private readonly colTerms: Term[] = [];
  private readonly cells: Float64Array;

  constructor(
    private readonly weigh: (response: Term, argument: Term) => number,
    response: readonly Term[],
    args: readonly Term[],
  ) {
    PairTable.group(response, this.rowOf, this.rowTerms);
    PairTable.group(args, this.colOf, this.colTerms);
    this.cells = new Float64Array(this.rowTerms.length * this.colTerms.length).fill(-1);
  }

  private static group(terms: readonly Term[], ids: Map<Term, number>, representatives: Term[]): void {
    const byKey = new Map<string, number>();
    for (const t of terms) {
      const key = `${t.term}\u0000${t.lower}`;
      let id = byKey.get(key);
      if (id === undefined) {
        id = representatives.length;
        byKey.set(key, id);
        representatives.push(t);
      }
      ids.set(t, id);
    }
  }

  /** Whether both lists are this check's words (response words one side, argument words the other). */
  covers(from: readonly Term[], to: readonly Term[]): boolean {
    const f = from[0];
    const t = to[0];
    if (f === undefined || t === undefined) return false;
    const [rows, cols] = this.rowOf.has(f) ? [from, to] : [to, from];
    return rows.every((x) => this.rowOf.has(x)) && cols.every((x) => this.colOf.has(x));
  }

  private cell(r: number, c: number): number {
    const at = r * this.colTerms.length + c;
    let w = this.cells[at] as number;
    if (w < 0) {
      w = this.weigh(this.rowTerms[r] as Term, this.colTerms[c] as Term);
      this.cells[at] = w;
    }
    return w;
  }

  /** Similarity of a response word and an argument word, in either order. */
  readonly get = (x: Term, y: Term): number => {
    const r = this.rowOf.get(x);
    return r === undefined
      ? this.cell(this.rowOf.get(y) as number, this.colOf.get(x) as number)
      : this.cell(r, this.colOf.get(y) as number);
  };

  /** The weight matrix of two lists that {@link covers} accepted: one row per `from` word. */
  matrix(from: readonly Term[], to: readonly Term[]): Float64Array[] {
    const fromRows = this.rowOf.has(from[0] as Term);
    const fromIds = from.map((t) => (fromRows ? this.rowOf : this.colOf).get(t) as number);
    const toIds = Int32Array.from(to, (t) => (fromRows ? this.colOf : this.rowOf).get(t) as number);
    return fromIds.map((i) => {
      const row = new Float64Array(to.length);
      for (let k = 0; k < to.length; k++)
        row[k] = fromRows ? this.cell(i, toIds[k] as number) : this.cell(toIds[k] as number, i);
      return row;
    });
  }
}
