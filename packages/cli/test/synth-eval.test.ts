import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { readExamples } from "@npov/core";
import { SHAPES } from "@npov/synth";
import { describe, expect, it } from "vitest";
import { npov, REPO } from "./helpers.js";

const BIN = fileURLToPath(new URL("../dist/bin.js", import.meta.url));

const tmp = mkdtempSync(join(tmpdir(), "npov-cli-synth-"));

describe("npov synth and npov eval", () => {
  const data = join(tmp, "test.jsonl");

  it("synth writes a dataset and prints a Table 7 style summary", () => {
    const r = npov("synth", "--kb", "fixtures", "--split", "test", "--seed", "7", "--out", data);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/slice\s+examples\s+error-free\s+hallucination only\s+coverage only\s+both\s+ambiguous/);
    const examples = readExamples(data);
    expect(r.stdout).toContain(`wrote ${examples.length} examples`);
    expect(examples.every((e) => e.split === "test")).toBe(true);
    // Same seed, same bytes.
    const again = join(tmp, "again.jsonl");
    npov("synth", "--kb", "fixtures", "--split", "test", "--seed", "7", "--out", again);
    expect(readFileSync(again, "utf8")).toBe(readFileSync(data, "utf8"));
  });

  it("synth --slices restricts the slices; bad names are refused", () => {
    const out = join(tmp, "one.jsonl");
    const r = npov("synth", "--split", "dev", "--slices", "ambiguous-synthetic", "--out", out, "--json");
    expect(JSON.parse(r.stdout).slices.map((s: { slice: string }) => s.slice)).toEqual(["ambiguous-synthetic"]);
    const bad = npov("synth", "--split", "dev", "--slices", "organic", "--out", out);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("[USAGE]");
  });

  it("synth --shapes writes clean and hallucinated responses of every shape; not with --slices", () => {
    const out = join(tmp, "shapes.jsonl");
    const r = npov("synth", "--split", "train", "--shapes", "all", "--seed", "3", "--out", out, "--json");
    expect(r.status).toBe(0);
    const summary = JSON.parse(r.stdout) as {
      examples: number;
      slices: Array<{ slice: string; errorFree: number; hallucinationOnly: number }>;
    };
    expect(summary.slices.map((s) => s.slice).sort()).toEqual([...SHAPES].sort());
    for (const s of summary.slices) {
      expect(s.errorFree, s.slice).toBeGreaterThan(0);
      expect(s.hallucinationOnly, s.slice).toBeGreaterThan(0);
    }
    const examples = readExamples(out);
    expect(examples.length).toBe(summary.examples);
    expect(examples.some((e) => "sources" in e.input)).toBe(true);
    const again = join(tmp, "shapes-again.jsonl");
    npov("synth", "--split", "train", "--shapes", "all", "--seed", "3", "--out", again);
    expect(readFileSync(again, "utf8")).toBe(readFileSync(out, "utf8"));
    const two = npov("synth", "--split", "dev", "--shapes", "qa,dialogue", "--per-topic", "2", "--out", out, "--json");
    expect(JSON.parse(two.stdout).slices.map((s: { slice: string }) => s.slice)).toEqual(["dialogue", "qa"]);
    const both = npov("synth", "--split", "dev", "--shapes", "qa", "--slices", "ambiguous-synthetic", "--out", out);
    expect(both.status).toBe(2);
    expect(both.stderr).toContain("give one");
    const bad = npov("synth", "--split", "dev", "--shapes", "essay", "--out", out);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("long-source");
  });

  it("eval prints the table, --json gives the same numbers, --report writes HTML", () => {
    const report = join(tmp, "report.html");
    const text = npov("eval", "--data", data, "--methods", "rouge", "--report", report);
    expect(text.status).toBe(0);
    expect(text.stdout).toMatch(/slice\s+rouge hall\s+rouge cov/);
    const json = JSON.parse(npov("eval", "--data", data, "--methods", "rouge", "--json").stdout);
    const row = json.rows.find(
      (r: { slice: string; errorType: string; level: string }) =>
        r.slice === "unparaphrased-synthetic" && r.errorType === "coverage" && r.level === "example",
    );
    expect(text.stdout).toContain(
      `${row.auc.toFixed(3)} [${row.ci.low.toFixed(3)}, ${row.ci.high.toFixed(3)}] (n=${row.n})`,
    );
    expect(existsSync(report)).toBe(true);
    const html = readFileSync(report, "utf8");
    expect(html).toContain('<svg class="roc"');
    // Run metadata: the command as typed, the data and what was scored.
    expect(html).toContain(`<dt>command</dt><dd>npov eval --data ${data} --methods rouge --report ${report}</dd>`);
    expect(html).toMatch(/<dt>scored<\/dt><dd>\d+ examples: all<\/dd>/);
    // No model-based method ran: the report says so instead of naming models nothing read.
    expect(html).toContain("<dt>models</dt><dd>none: no model-based method ran (rouge read no model)</dd>");
    expect(html).not.toContain("npov-gen");
    expect(html).not.toContain('class="warning"');
  });

  it("eval --report names the models that ran and repeats an unusable model's warning on the page", () => {
    const report = join(tmp, "salience-report.html");
    const r = npov(
      "eval",
      "--data",
      data,
      "--methods",
      "rouge,salience",
      "--limit",
      "2",
      "--bootstrap",
      "0",
      "--report",
      report,
    );
    expect(r.status, r.stderr).toBe(0);
    const warning = r.stderr
      .split("\n")
      .find((l) => l.startsWith("npov: warning: models/npov-gen is not usable for salience"));
    expect(warning).toBeDefined();
    const html = readFileSync(report, "utf8");
    expect(html).toContain("<dt>models</dt><dd>salience: models/npov-gen (shipped)</dd>");
    expect(html).toContain(
      `<p class="warning" role="alert"><b>Warning:</b> ${(warning as string).replace("npov: warning: ", "")}</p>`,
    );
  });

  it("eval --report is reproducible: --no-date gives the same bytes twice, SOURCE_DATE_EPOCH fixes the date", () => {
    const report = join(tmp, "again.html");
    const args = ["eval", "--data", data, "--methods", "rouge", "--bootstrap", "20", "--report", report];
    expect(npov(...args, "--no-date").status).toBe(0);
    const first = readFileSync(report);
    expect(first.toString()).not.toContain("<dt>date</dt>");
    expect(npov(...args, "--no-date").status).toBe(0);
    expect(readFileSync(report).equals(first)).toBe(true);
    const epoch = spawnSync(process.execPath, [BIN, ...args], {
      cwd: REPO,
      encoding: "utf8",
      env: { ...process.env, SOURCE_DATE_EPOCH: "1700000000" },
    });
    expect(epoch.status).toBe(0);
    const dated = readFileSync(report, "utf8");
    expect(dated).toContain("<dt>date</dt><dd>2023-11-14T22:13:20.000Z</dd>");
    // Only the date line (and the command as typed) differ from the report without one.
    expect(dated.replace("<dt>date</dt><dd>2023-11-14T22:13:20.000Z</dd>", "")).toBe(
      first.toString().replace(" --no-date", ""),
    );
    const json = JSON.parse(npov("eval", "--data", data, "--methods", "rouge", "--bootstrap", "0", "--json").stdout);
    expect(json.curves[0].points[0]).toEqual({ threshold: "Infinity", fpr: 0, tpr: 0 });
  });

  it("eval refuses a malformed dataset with the file and line", () => {
    const bad = join(tmp, "bad.jsonl");
    const lines = readFileSync(data, "utf8").split("\n");
    lines[2] = '{"input": {"topic": "t", "query": "", "perspectives": []}, "response": "x"}';
    writeFileSync(bad, lines.join("\n"));
    const r = npov("eval", "--data", bad);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain(`${bad}:3 input.query`);
  });
});
