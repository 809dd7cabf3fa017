/** The encoder zoo (tiny random-weight NLI classifiers) and direct transformers.js runs to compare against. */
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as transformers from "@huggingface/transformers";
import type { ModelDtype } from "@npov/autograd";

export const ENCODER_ZOO = join(import.meta.dirname, "../../../../shared/models/encoder-zoo");
export const FOLDERS = ["optimum-bert", "optimum-distilbert", "optimum-deberta-v2"] as const;
export const DTYPES: ModelDtype[] = ["fp32", "fp16", "q8", "int8", "uint8", "q4", "q4f16"];
/** transformers.js's quantizer makes these with DynamicQuantizeLinear (activation scale over the batch). */
export const DYNAMIC: ReadonlySet<ModelDtype> = new Set(["q8", "int8", "uint8"]);

/** Pairs of different lengths (so a batch pads), in words the zoo's ASCII vocabularies hold. */
export const PAIRS = [
  { premise: "A man is playing a guitar on the stage.", hypothesis: "A person is making music." },
  { premise: "Zoos protect endangered species from extinction.", hypothesis: "Zoos save animals." },
  { premise: "x", hypothesis: "y z" },
  {
    premise: "School uniforms reduce bullying because nobody can be teased for wearing cheap or unfashionable clothes.",
    hypothesis: "Uniforms make students express themselves less.",
  },
];

/** A direct transformers.js run: tokenizer + AutoModelForSequenceClassification, one pair at a time. */
export async function directLogits(
  folder: string,
  dtype: ModelDtype,
  pairs: ReadonlyArray<{ premise: string; hypothesis: string }>,
): Promise<{ logits: number[][]; ids: number[][]; types: Array<number[] | undefined> }> {
  const tokenizer = await transformers.AutoTokenizer.from_pretrained(folder, { local_files_only: true });
  const model = await transformers.AutoModelForSequenceClassification.from_pretrained(folder, {
    dtype,
    local_files_only: true,
    session_options: { logSeverityLevel: 4 },
  } as Record<string, unknown>);
  const logits: number[][] = [];
  const ids: number[][] = [];
  const types: Array<number[] | undefined> = [];
  try {
    for (const p of pairs) {
      const enc = tokenizer(p.premise, { text_pair: p.hypothesis }) as unknown as Record<
        string,
        { tolist(): bigint[][] }
      >;
      const out = (await model(enc as never)) as { logits: { data: Float32Array } };
      logits.push(Array.from(out.logits.data));
      ids.push((enc.input_ids as { tolist(): bigint[][] }).tolist()[0]?.map(Number) as number[]);
      types.push(enc.token_type_ids?.tolist()[0]?.map(Number));
    }
  } finally {
    await model.dispose();
  }
  return { logits, ids, types };
}

export function softmax(xs: readonly number[]): number[] {
  const max = Math.max(...xs);
  const e = xs.map((x) => Math.exp(x - max));
  const sum = e.reduce((a, b) => a + b, 0);
  return e.map((x) => x / sum);
}

/** A temporary copy of a zoo folder with the fp32 graph only, its config.json edited by `edit`. */
export function copyWithConfig(folder: string, edit: (config: Record<string, unknown>) => void): string {
  const dir = join(mkdtempSync(join(tmpdir(), "npov-nli-")), folder);
  mkdirSync(join(dir, "onnx"), { recursive: true });
  for (const f of [
    "config.json",
    "tokenizer.json",
    "tokenizer_config.json",
    "special_tokens_map.json",
    "onnx/model.onnx",
  ]) {
    // The zoo's files are read-only; the copies must be writable (tests corrupt some of them).
    cpSync(join(ENCODER_ZOO, folder, f), join(dir, f));
    chmodSync(join(dir, f), 0o644);
  }
  const config = JSON.parse(readFileSync(join(dir, "config.json"), "utf8"));
  edit(config);
  writeFileSync(join(dir, "config.json"), JSON.stringify(config, null, 2));
  return dir;
}
