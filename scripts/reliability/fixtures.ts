/**
 * Files the hostile cases start from, made once per run in a scratch folder: the uniforms example, small
 * seeded datasets (from `npov synth`), guard configs, and seeded large texts built from the embedded
 * knowledge base's own arguments (so sizes grow with realistic words, not one repeated token).
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describeRun, ROOT, runCli, seeded } from "./harness.js";

export interface NpovInputJson {
  topic: unknown;
  query: unknown;
  perspectives: unknown;
}

export interface Fixtures {
  dir: string;
  /** fixtures/examples/uniforms.json parsed. */
  example: { input: NpovInputJson; response: string };
  exampleFile: string;
  /** `npov synth --split test --per-topic 1 --seed 0` (JSON Lines). */
  testData: string;
  /** `npov synth --split dev --per-topic 1 --seed 0`. */
  devData: string;
  /** Guard configs by detector method (thresholds 0.5/0.5). */
  guard: Record<"support" | "align" | "rouge" | "soft", string>;
  /** Every argument text of fixtures/kb (the vocabulary of large texts). */
  argumentTexts: string[];
  /** A fresh subfolder of the scratch folder. */
  sub(name: string): string;
  /** Write `value` as JSON into the scratch folder; returns the path. */
  writeJson(name: string, value: unknown): string;
  write(name: string, data: string | Uint8Array): string;
}

export async function makeFixtures(): Promise<Fixtures> {
  const dir = mkdtempSync(join(tmpdir(), "npov-reliability-"));
  const exampleFile = join(ROOT, "fixtures/examples/uniforms.json");
  const example = JSON.parse(readFileSync(exampleFile, "utf8"));
  let n = 0;
  const sub = (name: string) => {
    const d = join(dir, `${String(++n).padStart(4, "0")}-${name.replace(/[^\w.-]+/g, "_").slice(0, 60)}`);
    mkdirSync(d, { recursive: true });
    return d;
  };
  const write = (name: string, data: string | Uint8Array) => {
    const file = join(sub("f"), name);
    writeFileSync(file, data);
    return file;
  };
  const writeJson = (name: string, value: unknown) => write(name, JSON.stringify(value));

  const testData = join(dir, "test.jsonl");
  const devData = join(dir, "dev.jsonl");
  for (const [split, file] of [
    ["test", testData],
    ["dev", devData],
  ] as const) {
    const r = await runCli(["synth", "--split", split, "--per-topic", "1", "--seed", "0", "--out", file], {
      timeoutMs: 120_000,
    });
    if (r.code !== 0) throw new Error(`fixture: npov synth --split ${split} failed: ${describeRun(r)}`);
  }
  const guard = Object.fromEntries(
    (["support", "align", "rouge", "soft"] as const).map((method) => {
      const file = join(dir, `guard-${method}.json`);
      writeFileSync(
        file,
        JSON.stringify({
          format: "npov-guard/1",
          detector: { method },
          thresholds: { hallucination: 0.5, coverage: 0.5 },
        }),
      );
      return [method, file];
    }),
  ) as Fixtures["guard"];

  const argumentTexts: string[] = [];
  for (const line of readFileSync(join(ROOT, "fixtures/kb/topics.jsonl"), "utf8").split("\n")) {
    if (!line.trim()) continue;
    const topic = JSON.parse(line) as { perspectives: Array<{ arguments: Array<{ text: string }> }> };
    for (const p of topic.perspectives) for (const a of p.arguments) argumentTexts.push(a.text);
  }
  return { dir, example, exampleFile, testData, devData, guard, argumentTexts, sub, writeJson, write };
}

/** A response of about `chars` characters: seeded sentences made of the knowledge base's arguments. */
export function longResponse(f: Fixtures, chars: number, seed: number): string {
  const rand = seeded(seed);
  const parts: string[] = [];
  let length = 0;
  const openers = ["Some argue that", "Others say", "Critics note that", "Supporters answer that", "It is said that"];
  while (length < chars) {
    const arg = f.argumentTexts[Math.floor(rand() * f.argumentTexts.length)] as string;
    const s = `${openers[Math.floor(rand() * openers.length)]} ${arg.charAt(0).toLowerCase()}${arg.slice(1)}`;
    parts.push(s);
    length += s.length + 1;
  }
  return parts.join(" ").slice(0, chars);
}

/**
 * An input with `count` arguments split over `perspectives` perspectives; argument k is a knowledge-base
 * argument with a distinguishing number, so no two are identical.
 */
export function manyArguments(f: Fixtures, count: number, perspectives = 2): NpovInputJson {
  const per: Array<{ label: string; arguments: Array<{ text: string }> }> = Array.from(
    { length: perspectives },
    (_, k) => ({ label: `side ${k + 1}`, arguments: [] }),
  );
  for (let k = 0; k < count; k++) {
    const text = f.argumentTexts[k % f.argumentTexts.length] as string;
    per[k % perspectives]?.arguments.push({ text: `${text.replace(/\.$/, "")} (point ${k + 1}).` });
  }
  return { topic: "many arguments", query: "What do people say about this?", perspectives: per };
}
