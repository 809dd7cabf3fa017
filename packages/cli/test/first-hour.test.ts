import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { readExamples } from "@npov/core";
import { writeReferenceResponse } from "@npov/synth";
import { describe, expect, it } from "vitest";
import { npov, REPO } from "./helpers.js";

const tmp = mkdtempSync(join(tmpdir(), "npov-cli-first-hour-"));
const example = join(REPO, "fixtures", "examples", "uniforms.json");
const BIN = fileURLToPath(new URL("../dist/bin.js", import.meta.url));

describe("a new user's first hour with the CLI", () => {
  it("stops quietly when the reader closes the pipe early (no EPIPE stack trace)", async () => {
    // A knowledge base of 200 copies of the fixtures: `kb list --json` prints ~750 KB, far more than a pipe
    // buffer (64 KiB), so the CLI is still writing when the reader goes away.
    const topics = readFileSync(join(REPO, "fixtures", "kb", "topics.jsonl"), "utf8")
      .trim()
      .split("\n");
    const kb = join(tmp, "big-kb.jsonl");
    writeFileSync(
      kb,
      Array.from({ length: 200 }, (_, k) =>
        topics.map((line) => {
          const topic = JSON.parse(line);
          return JSON.stringify({ ...topic, id: `${topic.id}-${k}` });
        }),
      )
        .flat()
        .join("\n"),
    );
    const child = spawn(process.execPath, [BIN, "kb", "list", "--kb", kb, "--json"], { cwd: REPO });
    let stderr = "";
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    let received = 0;
    child.stdout.once("data", (d: Buffer) => {
      received = d.length;
      child.stdout.destroy();
    });
    const status = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(received).toBeGreaterThan(0);
    expect(stderr).not.toMatch(/EPIPE|at .+:\d+:\d+/);
    expect(status).toBe(0);
  });

  it("eval reads a dataset given as a JSON array, and explains a pretty-printed object", () => {
    const jsonl = join(tmp, "small.jsonl");
    expect(npov("synth", "--split", "dev", "--per-topic", "2", "--out", jsonl).status).toBe(0);
    const array = join(tmp, "small.json");
    writeFileSync(array, JSON.stringify(readExamples(jsonl), null, 2));
    const fromLines = JSON.parse(npov("eval", "--data", jsonl, "--json", "--bootstrap", "0").stdout);
    const fromArray = JSON.parse(npov("eval", "--data", array, "--json", "--bootstrap", "0").stdout);
    expect(fromArray.rows).toEqual(fromLines.rows);

    const pretty = join(tmp, "one.json");
    writeFileSync(pretty, JSON.stringify(readExamples(jsonl)[0], null, 2));
    const r = npov("eval", "--data", pretty);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toContain("1 problem(s)");
    expect(r.stderr).toContain("JSON Lines");
    expect(r.stderr).toContain("[INVALID_FILE]");

    const badArray = join(tmp, "bad.json");
    writeFileSync(badArray, JSON.stringify([readExamples(jsonl)[0], { input: {}, response: "x" }]));
    const bad = npov("eval", "--data", badArray);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("[1]");
  });

  it.each([
    ["path/to/model", "no such folder", ["check", "--input", example, "--methods", "salience"]],
    ["./nowhere", "no such folder", ["generate", "--input", example]],
    ["fixtures/examples/uniforms.json", "not a folder", ["salience", "--input", example]],
  ])("--model %s is a folder error at once, never a hub download", (model, problem, args) => {
    const r = npov(...args, "--model", model);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`--model ${model}: ${problem}`);
    expect(r.stderr).toContain("[MODEL_NOT_FOUND]");
  });

  it("--keep-stopwords keeps stop words; --no-stopwords is its deprecated alias and says so", () => {
    const t = join(tmp, "t.txt");
    const p = join(tmp, "p.txt");
    writeFileSync(t, "the cat sat on the mat\n");
    writeFileSync(p, "the cat is on a mat\n");
    const keep = npov(
      "rouge",
      "--target",
      t,
      "--prediction",
      p,
      "--tokenizer",
      "rouge-score",
      "--keep-stopwords",
      "--json",
    );
    const old = npov(
      "rouge",
      "--target",
      t,
      "--prediction",
      p,
      "--tokenizer",
      "rouge-score",
      "--no-stopwords",
      "--json",
    );
    const drop = npov("rouge", "--target", t, "--prediction", p, "--tokenizer", "rouge-score", "--json");
    // Kept: "the cat on mat" of 6 target tokens match in 6 predicted -> P = R = 4/6. Dropped: cat, mat vs
    // cat, sat, mat -> P = 1, R = 2/3.
    expect(JSON.parse(keep.stdout).rouge1).toMatchObject({ precision: 4 / 6, recall: 4 / 6 });
    expect(JSON.parse(drop.stdout).rouge1).toMatchObject({ precision: 1, recall: 2 / 3 });
    expect(old.stdout).toBe(keep.stdout);
    expect(keep.stderr).toBe("");
    expect(old.stderr).toContain("--no-stopwords is deprecated");
  });

  it("generate uses the template writer by default: the reference response, word for word", () => {
    const r = npov("generate", "--input", example, "--seed", "3", "--json");
    expect(r.status).toBe(0);
    const input = JSON.parse(readFileSync(example, "utf8")).input;
    const expected = writeReferenceResponse(input, { seed: 3 });
    expect(JSON.parse(r.stdout)).toMatchObject({
      model: "npov-template-writer",
      response: expected.response,
      opening: expected.opening,
      core: expected.core,
    });
    expect(r.stderr).toBe("");
  });

  it("the shipped generator, asked for, says once that it is not usable and what to use instead", () => {
    const r = npov("generate", "--input", example, "--generator", "local", "--max-new-tokens", "4");
    const warnings = r.stderr.split("\n").filter((l) => l.startsWith("npov: warning:"));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain("models/npov-gen is not usable for generate");
    expect(warnings[0]).toContain("Use the template writer");
  });

  it("calibrate-guard defaults to support, reports recall, and warns exactly when recall < 0.5", () => {
    const dev = join(tmp, "dev.jsonl");
    expect(npov("synth", "--split", "dev", "--per-topic", "1", "--out", dev).status).toBe(0);
    for (const fpr of ["0.05", "0.6"]) {
      const config = join(tmp, `guard-${fpr}.json`);
      const r = npov("calibrate-guard", "--data", dev, "--target-fpr", fpr, "--out", config);
      expect(r.status).toBe(0);
      const saved = JSON.parse(readFileSync(config, "utf8"));
      expect(saved.detector).toEqual({ method: "support" });
      for (const t of ["hallucination", "coverage"] as const) {
        const recall = saved.calibration.metrics[t].recall as number;
        expect(r.stdout).toContain(`recall ${recall.toFixed(3)}`);
        expect(r.stderr.includes(`of ${t} errors`)).toBe(recall < 0.5);
      }
    }
  });

  it("demo writes with the template writer and explains the error-free response's ROUGE hallucination score", () => {
    const r = npov("demo", "--seed", "1");
    expect(r.status).toBe(0);
    expect(r.stdout).toContain("Response written by npov-template-writer");
    const score = Number(/ROUGE: hallucination (\d\.\d{3})/.exec(r.stdout)?.[1]);
    const [unsupported, total] = (/found in no given argument: (\d+) of (\d+) here/.exec(r.stdout) ?? [])
      .slice(1)
      .map(Number);
    // The explanation's count is the score: hallucination = unsupported / content words.
    expect(score).toBeGreaterThan(0);
    expect(score.toFixed(3)).toBe(((unsupported as number) / (total as number)).toFixed(3));
    expect(r.stdout).toContain("even an error-free response scores above 0");
    expect(r.stderr).toBe("");
  });

  it("serve answers chat completions with the template writer by default", async () => {
    const server = spawn(process.execPath, [BIN, "serve", "--port", "0"], { cwd: REPO });
    try {
      const base = await new Promise<string>((resolve, reject) => {
        let stdout = "";
        server.stdout.on("data", (chunk) => {
          stdout += chunk;
          const m = / at (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
          if (m) resolve(m[1] as string);
        });
        server.on("exit", (code) => reject(new Error(`npov serve exited with ${code}`)));
      });
      const { input } = JSON.parse(readFileSync(example, "utf8"));
      const reply = await fetch(`${base}/v1/chat/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model: "npov", seed: 4, messages: [{ role: "user", content: JSON.stringify(input) }] }),
      }).then((res) => res.json());
      expect(reply.choices[0].message.content).toBe(writeReferenceResponse(input, { seed: 4 }).response);
    } finally {
      const exited = new Promise((resolve) => server.once("exit", resolve));
      server.kill("SIGTERM");
      await exited;
    }
  });
});
