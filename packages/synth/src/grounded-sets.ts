/**
 * Importers of public human-labelled grounding sets (npov's `../shared/data/grounding-dev`), as datasets of
 * sources-input examples: a response checked against its source text, labelled for hallucination. They are
 * development data of shapes other than NPOV debate answers (knowledge-grounded dialogue, QA answers).
 *
 * * FaithDial's audit (Dziri et al., 2022; `data-audit/`, MIT): per file, a knowledge snippet, the previous
 *   turn and one reply (the benchmark's gold reply, or GPT-2's, DoHA's, CTRL's), labelled with BEGIN
 *   categories. **Hallucination** = the label names hallucination (full or partial: a reply that adds
 *   anything the knowledge does not say, personal experiences and opinions stated as facts included);
 *   **faithful** = entailment, generic (a reply that states nothing: "Do you like football?") and uncooperative
 *   (entailed but unhelpful). The previous turn becomes the query: its words frame the reply but support no
 *   new claim. Rows without a label or a reply are skipped and counted.
 * * HaluEval QA (Li et al., 2023; `qa_one-turn_data.json`, MIT): per record, knowledge, a question, a right
 *   answer (faithful) and a hallucinated answer.
 *
 * Every example gets `meta.devSplit`: "dev" or "heldout", alternating by row within each file, so a method can
 * be developed on one half and reported on the other.
 */
import { readdirSync } from "node:fs";
import { basename, join } from "node:path";
import {
  FileFormatError,
  type FileIssue,
  type NpovExample,
  readTextFile,
  type SourcesInput,
  validateCheckInput,
  validateResponse,
} from "@npov/core";
import { parse } from "csv-parse/sync";

/** What an importer made and what it left out (and why). */
export interface ImportedSet {
  examples: NpovExample<SourcesInput>[];
  /** Rows left out, by reason (e.g. `{ "no label": 792 }`). */
  skipped: Record<string, number>;
}

const devSplit = (row: number) => (row % 2 === 0 ? "dev" : "heldout");

function skip(skipped: Record<string, number>, reason: string): void {
  skipped[reason] = (skipped[reason] ?? 0) + 1;
}

/** A FaithDial BEGIN label as hallucination (true), faithful (false), or undefined when missing or unknown. */
export function faithDialHallucination(label: string): boolean | undefined {
  const parts = label
    .toLowerCase()
    .split(/[,.;]/)
    .map((p) => p.trim())
    .filter((p) => p.length > 0);
  if (parts.length === 0) return undefined;
  if (parts.some((p) => p.startsWith("hallucinat") || p === "partial hallucination")) return true;
  if (parts.every((p) => /^(entailment?t?|generic|uncooperative)$/.test(p))) return false;
  return undefined;
}

/**
 * Read FaithDial's audit folder (the 12 CSV files of `data-audit/`): one example per labelled reply.
 * Slices are `faithdial <responder> <benchmark>` (responder gold, GPT2, DoHA or CTRL; benchmark wow, cmu,
 * topical).
 * @throws FileReadError for an unreadable folder or file; FileFormatError for a CSV without the expected columns
 */
export function importFaithDial(dir: string): ImportedSet {
  let files: string[];
  try {
    files = readdirSync(dir)
      .filter((f) => f.endsWith(".csv"))
      .sort();
  } catch (e) {
    // readTextFile types the error (missing folder, permissions) the same way as for files.
    readTextFile(dir);
    throw e;
  }
  const examples: NpovExample<SourcesInput>[] = [];
  const skipped: Record<string, number> = {};
  const issues: FileIssue[] = [];
  for (const file of files) {
    const path = join(dir, file);
    const rows = parse(readTextFile(path), { columns: true, skip_empty_lines: true, relax_quotes: true }) as Array<
      Record<string, string>
    >;
    const columns = Object.keys(rows[0] ?? {});
    // Files name their columns differently: knowledge|evidence, history, <model>|response, begin_label|BEGIN.
    const knowledgeColumn = columns.find((c) => c === "knowledge" || c === "evidence");
    const labelColumn = columns.find((c) => c === "begin_label" || c === "BEGIN");
    const responseColumn = columns[2];
    if (knowledgeColumn === undefined || labelColumn === undefined || responseColumn === undefined) {
      issues.push({
        file: path,
        line: undefined,
        field: "header",
        message: `unexpected columns ${columns.join(", ")}`,
      });
      continue;
    }
    const [responder = "unknown", rest = ""] = basename(file, ".csv").split("__");
    const benchmark = /wow/.test(rest) ? "wow" : /cmu/.test(rest) ? "cmu" : /topical/.test(rest) ? "topical" : rest;
    for (const [i, row] of rows.entries()) {
      const label = faithDialHallucination(row[labelColumn] ?? "");
      const knowledge = (row[knowledgeColumn] ?? "").trim();
      const response = (row[responseColumn] ?? "").trim();
      if (label === undefined) {
        skip(skipped, (row[labelColumn] ?? "").trim() === "" ? "no label" : "unknown label");
        continue;
      }
      if (!/[\p{L}\p{N}]/u.test(knowledge)) {
        skip(skipped, "no knowledge");
        continue;
      }
      if (!/[\p{L}\p{N}]/u.test(response)) {
        skip(skipped, "no reply");
        continue;
      }
      const history = (row.history ?? "").trim();
      // The history column holds "[]" for an opening turn in some files.
      const query = history === "[]" ? "" : history;
      const input = validateCheckInput({
        ...(/[\p{L}\p{N}]/u.test(query) ? { query } : {}),
        sources: [{ id: "knowledge", text: knowledge }],
      }) as SourcesInput;
      examples.push({
        id: `faithdial/${basename(file, ".csv")}/${i + 1}`,
        input,
        response: validateResponse(response),
        labels: { hallucination: label },
        slice: `faithdial ${responder.toLowerCase()} ${benchmark}`,
        meta: {
          set: "faithdial",
          responder: responder.toLowerCase(),
          benchmark,
          begin: row[labelColumn],
          devSplit: devSplit(i),
        },
      });
    }
  }
  if (issues.length > 0) throw new FileFormatError(issues);
  return { examples, skipped };
}

/**
 * Read HaluEval's QA file (`qa_one-turn_data.json`, JSON Lines of {knowledge, question, right_answer,
 * hallucinated_answer}): two examples per record, slice `halueval qa`.
 * @throws FileReadError; FileFormatError listing bad lines
 */
export function importHaluEval(file: string): ImportedSet {
  const examples: NpovExample<SourcesInput>[] = [];
  const skipped: Record<string, number> = {};
  const issues: FileIssue[] = [];
  readTextFile(file)
    .split("\n")
    .forEach((line, i) => {
      if (line.trim().length === 0) return;
      let record: Record<string, unknown>;
      try {
        record = JSON.parse(line) as Record<string, unknown>;
      } catch (e) {
        issues.push({ file, line: i + 1, field: "", message: `not JSON: ${(e as Error).message}` });
        return;
      }
      const { knowledge, question, right_answer: right, hallucinated_answer: wrong } = record;
      if ([knowledge, question, right, wrong].some((v) => typeof v !== "string")) {
        issues.push({
          file,
          line: i + 1,
          field: "",
          message: "needs knowledge, question, right_answer and hallucinated_answer strings",
        });
        return;
      }
      const input = validateCheckInput({
        query: question,
        sources: [{ id: "knowledge", text: knowledge }],
      }) as SourcesInput;
      for (const [kind, answer, hallucination] of [
        ["right", right, false],
        ["hallucinated", wrong, true],
      ] as const) {
        if (!/[\p{L}\p{N}]/u.test(answer as string)) {
          skip(skipped, "no answer");
          continue;
        }
        examples.push({
          id: `halueval/qa/${i + 1}/${kind}`,
          input,
          response: validateResponse(answer),
          labels: { hallucination },
          slice: "halueval qa",
          meta: { set: "halueval", answer: kind, devSplit: devSplit(i) },
        });
      }
    });
  if (issues.length > 0) throw new FileFormatError(issues);
  return { examples, skipped };
}
