/**
 * NLTK's Porter stemmer in its default mode (`PorterStemmer()` = NLTK_EXTENSIONS), which Google's
 * rouge-score uses. It differs from the original algorithm (and from natural's stemmer) in a few
 * places: irregular forms (dying -> die, skies -> sky), words of 1-2 letters are left alone, "ies"/"ied"
 * on 4-letter words, "alli" handled before "bli", "fulli" and "logi" rules. Written from the published
 * algorithm and NLTK's documented extensions; checked against Porter's published examples.
 */
import { NotTextError } from "@npov/core";

const IRREGULAR: ReadonlyMap<string, string> = new Map(
  Object.entries({
    sky: ["sky", "skies"],
    die: ["dying"],
    lie: ["lying"],
    tie: ["tying"],
    news: ["news"],
    inning: ["innings", "inning"],
    outing: ["outings", "outing"],
    canning: ["cannings", "canning"],
    howe: ["howe"],
    proceed: ["proceed"],
    exceed: ["exceed"],
    succeed: ["succeed"],
  }).flatMap(([stem, forms]) => forms.map((f) => [f, stem] as [string, string])),
);

const isVowelLetter = (c: string | undefined) => c === "a" || c === "e" || c === "i" || c === "o" || c === "u";

/** Whether letter i is a consonant given whether letter i - 1 is ("y" after a consonant is a vowel). */
function consonantAfter(c: string | undefined, i: number, previous: boolean): boolean {
  if (isVowelLetter(c)) return false;
  if (c === "y") return i === 0 ? true : !previous;
  return true;
}

/**
 * Porter's consonant test. A "y" is a consonant unless it follows a consonant, so a run of "y"s alternates:
 * walk back to the run's start (a loop, not recursion -- a word of 100,000 "y"s is text too).
 */
function isConsonant(word: string, i: number): boolean {
  let k = i;
  while (k > 0 && word[k] === "y") k--;
  let consonant = word[k] === "y" ? true : !isVowelLetter(word[k]);
  for (let j = k + 1; j <= i; j++) consonant = !consonant;
  return consonant;
}

/** Porter's measure m: the number of vowel-consonant sequences. */
function measure(stem: string): number {
  let m = 0;
  let prevVowel = false;
  let consonant = false;
  for (let i = 0; i < stem.length; i++) {
    consonant = consonantAfter(stem[i], i, consonant);
    if (consonant && prevVowel) m++;
    prevVowel = !consonant;
  }
  return m;
}

const positive = (stem: string) => measure(stem) > 0;
const above1 = (stem: string) => measure(stem) > 1;

function containsVowel(stem: string): boolean {
  let consonant = false;
  for (let i = 0; i < stem.length; i++) {
    consonant = consonantAfter(stem[i], i, consonant);
    if (!consonant) return true;
  }
  return false;
}

function endsDoubleConsonant(word: string): boolean {
  const n = word.length;
  return n >= 2 && word[n - 1] === word[n - 2] && isConsonant(word, n - 1);
}

function endsCvc(word: string): boolean {
  const n = word.length;
  if (n >= 3) {
    const last = word[n - 1] as string;
    if (isConsonant(word, n - 3) && !isConsonant(word, n - 2) && isConsonant(word, n - 1) && !"wxy".includes(last))
      return true;
  }
  // NLTK extension: a two-letter vowel-consonant word counts as *o.
  return n === 2 && !isConsonant(word, 0) && isConsonant(word, 1);
}

type Rule = [suffix: string, replacement: string, condition: ((stem: string) => boolean) | null];

/** Apply the first rule whose suffix matches; a failed condition stops the list. */
function applyRules(word: string, rules: Rule[]): string {
  for (const [suffix, replacement, condition] of rules) {
    if (suffix === "*d") {
      if (endsDoubleConsonant(word)) {
        const stem = word.slice(0, -2);
        return condition === null || condition(stem) ? stem + replacement : word;
      }
      continue;
    }
    if (word.endsWith(suffix)) {
      const stem = suffix.length === 0 ? word : word.slice(0, -suffix.length);
      return condition === null || condition(stem) ? stem + replacement : word;
    }
  }
  return word;
}

function step1a(word: string): string {
  if (word.endsWith("ies") && word.length === 4) return `${word.slice(0, -3)}ie`;
  return applyRules(word, [
    ["sses", "ss", null],
    ["ies", "i", null],
    ["ss", "ss", null],
    ["s", "", null],
  ]);
}

function step1b(word: string): string {
  if (word.endsWith("ied")) return word.length === 4 ? `${word.slice(0, -3)}ie` : `${word.slice(0, -3)}i`;
  if (word.endsWith("eed")) {
    const stem = word.slice(0, -3);
    return measure(stem) > 0 ? `${stem}ee` : word;
  }
  let stem: string | undefined;
  for (const suffix of ["ed", "ing"]) {
    if (word.endsWith(suffix)) {
      const candidate = word.slice(0, -suffix.length);
      if (containsVowel(candidate)) {
        stem = candidate;
        break;
      }
    }
  }
  if (stem === undefined) return word;
  const last = stem[stem.length - 1] as string;
  return applyRules(stem, [
    ["at", "ate", null],
    ["bl", "ble", null],
    ["iz", "ize", null],
    ["*d", last, () => !"lsz".includes(last)],
    ["", "e", (s) => measure(s) === 1 && endsCvc(s)],
  ]);
}

function step1c(word: string): string {
  return applyRules(word, [["y", "i", (stem) => stem.length > 1 && isConsonant(stem, stem.length - 1)]]);
}

function step2(word: string): string {
  if (word.endsWith("alli") && positive(word.slice(0, -4))) return step2(`${word.slice(0, -4)}al`);
  return applyRules(word, [
    ["ational", "ate", positive],
    ["tional", "tion", positive],
    ["enci", "ence", positive],
    ["anci", "ance", positive],
    ["izer", "ize", positive],
    ["bli", "ble", positive],
    ["alli", "al", positive],
    ["entli", "ent", positive],
    ["eli", "e", positive],
    ["ousli", "ous", positive],
    ["ization", "ize", positive],
    ["ation", "ate", positive],
    ["ator", "ate", positive],
    ["alism", "al", positive],
    ["iveness", "ive", positive],
    ["fulness", "ful", positive],
    ["ousness", "ous", positive],
    ["aliti", "al", positive],
    ["iviti", "ive", positive],
    ["biliti", "ble", positive],
    ["fulli", "ful", positive],
    // The "l" of "logi" stays with the stem so short stems (geo-, theo-) work.
    ["logi", "log", () => positive(word.slice(0, -3))],
  ]);
}

function step3(word: string): string {
  return applyRules(word, [
    ["icate", "ic", positive],
    ["ative", "", positive],
    ["alize", "al", positive],
    ["iciti", "ic", positive],
    ["ical", "ic", positive],
    ["ful", "", positive],
    ["ness", "", positive],
  ]);
}

function step4(word: string): string {
  return applyRules(word, [
    ["al", "", above1],
    ["ance", "", above1],
    ["ence", "", above1],
    ["er", "", above1],
    ["ic", "", above1],
    ["able", "", above1],
    ["ible", "", above1],
    ["ant", "", above1],
    ["ement", "", above1],
    ["ment", "", above1],
    ["ent", "", above1],
    ["ion", "", (stem) => measure(stem) > 1 && (stem.endsWith("s") || stem.endsWith("t"))],
    ["ou", "", above1],
    ["ism", "", above1],
    ["ate", "", above1],
    ["iti", "", above1],
    ["ous", "", above1],
    ["ive", "", above1],
    ["ize", "", above1],
  ]);
}

function step5a(word: string): string {
  if (word.endsWith("e")) {
    const stem = word.slice(0, -1);
    const m = measure(stem);
    if (m > 1 || (m === 1 && !endsCvc(stem))) return stem;
  }
  return word;
}

function step5b(word: string): string {
  return applyRules(word, [["ll", "l", () => measure(word.slice(0, -1)) > 1]]);
}

/** Stem a word exactly as NLTK's `PorterStemmer().stem(word)` does (lowercasing first). @throws NotTextError */
export function nltkPorterStem(word: string): string {
  if (typeof word !== "string") throw new NotTextError("word", word);
  const lower = word.toLowerCase();
  const irregular = IRREGULAR.get(word);
  if (irregular !== undefined) return irregular;
  if (word.length <= 2) return lower;
  return step5b(step5a(step4(step3(step2(step1c(step1b(step1a(lower))))))));
}
