/**
 * Importer for Perspectrum (Chen et al., NAACL 2019; CC BY-SA 4.0). The text is read at run time from
 * the dataset folder and never copied into this repository.
 *
 * Mapping: claim -> topic (title = claim text, query = the claim phrased as a question); SUPPORT
 * clusters -> "pro" arguments, UNDERMINE clusters -> "con"; the first sentence of a cluster is the
 * argument, the other members are its paraphrases; Perspectrum's own train/dev/test split.
 */
import { join } from "node:path";
import { FileFormatError, type FileIssue } from "./errors.js";
import { readTextFile } from "./io.js";
import { KnowledgeBase } from "./kb.js";
import { repoPath } from "./paths.js";
import type { Argument, Perspective, Split, Topic } from "./types.js";
import { parseSplit } from "./validate.js";

interface RawCluster {
  pids: number[];
  stance_label_3: string;
}
interface RawClaim {
  cId: number;
  text: string;
  perspectives: RawCluster[];
  topics?: string[];
}

// "has"/"have"/"do" are left out: as main verbs they would need "Does X have ...?" rewriting.
const AUXILIARY = /^(.+?)\s+(should|must|can|could|will|would|may|might|shall|is|are|was|were)\s+(.+)$/i;
// Verbs that open imperative claims ("Raise the school leaving age"): phrased as "Should we ...?".
const IMPERATIVE_VERBS = new Set(
  "abandon abolish accept adopt allow ban boycott bring build close fund grant hold institute lift return throw withdraw cap create cut decriminalize decriminalise end enforce extend give impose increase introduce invest keep legalize legalise limit lower make nationalise nationalize outlaw pay privatise privatize prohibit protect raise reduce reform reintroduce remove replace require restrict scrap stop subsidise subsidize support tax teach use".split(
    " ",
  ),
);

function isTitleCase(words: string[]): boolean {
  const long = words.filter((w) => /^\p{L}{4,}/u.test(w));
  if (long.length < 2) return false;
  return long.filter((w) => /^\p{Lu}/u.test(w)).length / long.length >= 0.6;
}

/**
 * Phrase a claim as a yes/no question: "Vaccination must be made compulsory" -> "Should vaccination be
 * made compulsory?".
 *
 * Capitalized words are lowercased (the first word, or every word of a Title Case claim) only when they
 * are common words: when `commonWords` (lowercase forms seen in running text) contains them. Without
 * `commonWords`, the first word is lowercased unless it looks like an acronym. So "Britain should scrap
 * the monarchy" keeps "Britain" when the corpus never writes "britain".
 */
export function claimToQuestion(claim: string, commonWords?: ReadonlySet<string>): string {
  let text = claim
    .trim()
    .replace(/\s+/g, " ")
    .replace(/[.!?]+$/, "");
  const lowerIfCommon = (w: string): string => {
    if (!/^\p{Lu}[\p{Ll}'’-]*$/u.test(w) || w === "I") return w;
    const lower = w.toLowerCase();
    return commonWords === undefined || commonWords.has(lower) ? lower : w;
  };
  let words = text.split(" ");
  if (isTitleCase(words)) {
    // "School Day Should Be Extended" -> "school day should be extended" (acronyms and names stay).
    words = words.map(lowerIfCommon);
    text = words.join(" ");
  }
  const lowerFirst = (s: string): string => {
    const [first = "", ...rest] = s.split(" ");
    return [lowerIfCommon(first), ...rest].join(" ");
  };
  const capitalize = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);
  const m = AUXILIARY.exec(text);
  if (m !== null) {
    const [, subject, aux, rest] = m as unknown as [string, string, string, string];
    const auxLower = aux.toLowerCase();
    // "must"/"shall" read oddly as question openers; the SPEC's example turns "must" into "Should".
    const opener = auxLower === "must" || auxLower === "shall" ? "should" : auxLower;
    if (subject.split(" ").length <= 12) return `${capitalize(opener)} ${lowerFirst(subject)} ${rest}?`;
  }
  const firstWord = (words[0] ?? "").toLowerCase();
  if (IMPERATIVE_VERBS.has(firstWord)) return `Should we ${lowerFirst(text)}?`;
  return `Is it true that ${lowerFirst(text)}?`;
}

function parseJson(file: string): unknown {
  try {
    return JSON.parse(readTextFile(file));
  } catch (e) {
    if (e instanceof SyntaxError)
      throw new FileFormatError([{ file, line: undefined, field: "", message: `invalid JSON: ${e.message}` }]);
    throw e;
  }
}

/** Where the Perspectrum files are: `$NPOV_PERSPECTRUM_DIR`, else `../shared/data/perspectrum` beside the repo. */
export function defaultPerspectrumDir(): string {
  return process.env.NPOV_PERSPECTRUM_DIR ?? repoPath("..", "shared", "data", "perspectrum");
}

/**
 * Import Perspectrum from its folder (`perspectrum_with_answers_v1.0.json`, `perspective_pool_v1.0.json`,
 * `dataset_split_v1.0.json`). Every claim becomes a topic; claims with a single stance keep one
 * perspective (they cannot be sampled as NPOV inputs).
 * @throws FileReadError, FileFormatError
 */
export function importPerspectrum(dir: string = defaultPerspectrumDir()): KnowledgeBase {
  const claimsFile = join(dir, "perspectrum_with_answers_v1.0.json");
  const poolFile = join(dir, "perspective_pool_v1.0.json");
  const splitFile = join(dir, "dataset_split_v1.0.json");
  const claims = parseJson(claimsFile) as RawClaim[];
  const pool = parseJson(poolFile) as Array<{ pId: number; text: string }>;
  const splits = parseJson(splitFile) as Record<string, string>;
  const issues: FileIssue[] = [];
  if (!Array.isArray(claims))
    throw new FileFormatError([
      { file: claimsFile, line: undefined, field: "", message: "expected an array of claims" },
    ]);
  if (!Array.isArray(pool))
    throw new FileFormatError([
      { file: poolFile, line: undefined, field: "", message: "expected an array of perspectives" },
    ]);
  const textById = new Map(pool.map((p) => [p.pId, p.text.trim().replace(/\s+/g, " ")]));
  // Lowercase word forms seen anywhere in the corpus: evidence that a capitalized word is not a name.
  const commonWords = new Set<string>();
  for (const text of [...textById.values(), ...claims.map((c) => c.text)]) {
    for (const m of text.matchAll(/\p{Ll}[\p{L}'’-]*/gu))
      if (m.index === 0 || /[\s(“"‘]/u.test(text.charAt(m.index - 1))) commonWords.add(m[0]);
  }
  const topics: Topic[] = [];
  claims.forEach((claim, k) => {
    const field = `[${k}]`;
    let split: Split;
    try {
      split = parseSplit(splits[String(claim.cId)]);
    } catch {
      issues.push({
        file: splitFile,
        line: undefined,
        field: String(claim.cId),
        message: "claim has no train/dev/test split",
      });
      return;
    }
    const sides: Record<"pro" | "con", Argument[]> = { pro: [], con: [] };
    claim.perspectives.forEach((cluster, j) => {
      const texts = cluster.pids.map((pid) => textById.get(pid));
      const missing = cluster.pids.filter((_, i) => texts[i] === undefined);
      if (missing.length > 0) {
        issues.push({
          file: claimsFile,
          line: undefined,
          field: `${field}.perspectives[${j}].pids`,
          message: `unknown perspective id(s) ${missing.join(", ")}`,
        });
        return;
      }
      const [first, ...rest] = texts as string[];
      const side =
        cluster.stance_label_3 === "SUPPORT" ? "pro" : cluster.stance_label_3 === "UNDERMINE" ? "con" : undefined;
      if (side === undefined || first === undefined) return;
      // Curly braces would break the prompt format; Perspectrum has none, but be safe.
      const clean = (s: string) => s.replace(/[{}]/g, "");
      sides[side].push({ id: `p${cluster.pids[0]}`, text: clean(first), paraphrases: rest.map(clean) });
    });
    const perspectives: Perspective[] = (["pro", "con"] as const)
      .filter((label) => sides[label].length > 0)
      .map((label) => ({ label, arguments: sides[label] }));
    if (perspectives.length === 0) {
      issues.push({ file: claimsFile, line: undefined, field, message: "claim has no SUPPORT or UNDERMINE cluster" });
      return;
    }
    const title = claim.text.trim().replace(/\s+/g, " ");
    topics.push({
      id: `perspectrum-${claim.cId}`,
      title,
      query: claimToQuestion(title, commonWords),
      split,
      perspectives,
      meta: { source: "perspectrum", claimId: claim.cId, categories: claim.topics ?? [], license: "CC BY-SA 4.0" },
    });
  });
  if (issues.length > 0) throw new FileFormatError(issues);
  return new KnowledgeBase(topics);
}
