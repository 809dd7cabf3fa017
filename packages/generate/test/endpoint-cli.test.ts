// The endpoint methods through the built CLI (packages/cli/dist/bin.js): `npov check` and `npov eval` against
// a real `npov serve` process running stories260K, `npov judge` against a scripted endpoint, and the one-line
// errors (busy port, missing --endpoint).
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { importLlama2c } from "@npov/autograd";
import { type NpovInput, repoPath } from "@npov/core";
import { EndpointClassifier, LlmClient } from "@npov/llm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatReply, fakeEndpoint, userMessage } from "../../llm/test/helpers.js";

const bin = fileURLToPath(new URL("../../cli/dist/bin.js", import.meta.url));
const shared = fileURLToPath(new URL("../../../../shared/models/stories260K/", import.meta.url));
const root = mkdtempSync(join(tmpdir(), "npov-endpoint-cli-"));
const dir = join(root, "stories260K");
importLlama2c(join(shared, "stories260K.bin"), join(shared, "tok512.bin"), dir);

/** Run the CLI without blocking this process (an in-process endpoint must keep answering). */
function npov(...args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd: repoPath(), stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (c) => {
      stdout += c;
    });
    child.stderr.on("data", (c) => {
      stderr += c;
    });
    child.on("exit", (code) => resolve({ status: code ?? -1, stdout, stderr }));
  });
}

describe("endpoint methods in the CLI, against a real npov serve", () => {
  let server: ChildProcess;
  let base: string;
  const example = repoPath("fixtures", "examples", "uniforms.json");
  beforeAll(async () => {
    server = spawn(process.execPath, [bin, "serve", "--generator", "local", "--model", dir, "--port", "0"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    base = await new Promise<string>((resolve, reject) => {
      let stdout = "";
      server.stdout!.on("data", (chunk) => {
        stdout += chunk;
        const m = / at (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
        if (m) resolve(m[1] as string);
      });
      server.on("exit", (code) => reject(new Error(`npov serve exited with ${code}`)));
    });
  });
  afterAll(async () => {
    if (server.exitCode === null) {
      const exited = new Promise((r) => server.once("exit", r));
      server.kill("SIGTERM");
      await exited;
    }
  });

  const endpointArgs = () => [
    "--endpoint",
    `${base}/v1`,
    "--endpoint-model",
    "stories260K",
    "--api",
    "completions",
    "--top-logprobs",
    "512",
  ];

  it("npov check scores with the endpoint beside a local method, and prints usage on stderr", async () => {
    const r = await npov(
      "check",
      "--input",
      example,
      "--methods",
      "rouge,endpoint-classifier",
      ...endpointArgs(),
      "--json",
    );
    expect([r.status, r.stderr]).toEqual([0, expect.stringContaining("usage (stories260K): 2 requests (0 cached)")]);
    const json = JSON.parse(r.stdout) as Record<string, { hallucination: number; coverage: number }>;
    expect(Object.keys(json).sort()).toEqual(["endpoint-classifier", "rouge"]);
    const { input, response } = JSON.parse(readFileSync(example, "utf8")) as { input: NpovInput; response: string };
    const direct = await new EndpointClassifier(new LlmClient({ baseURL: `${base}/v1`, model: "stories260K" }), {
      api: "completions",
      topLogprobs: 512,
    }).detect(input, response);
    expect(json["endpoint-classifier"]).toMatchObject({
      hallucination: direct.hallucination,
      coverage: direct.coverage,
    });
  });

  it("npov check reports per method: a chat request to npov serve names --api completions, a long prompt's context message is whole, the methods that worked print", async () => {
    // The flow: endpoint methods against npov serve without --api completions (its chat route takes
    // NPOV inputs, not raw prompts), beside a local method that works.
    const chat = await npov(
      "check",
      "--input",
      example,
      "--methods",
      "rouge,endpoint-classifier,likert",
      "--endpoint",
      `${base}/v1`,
      "--endpoint-model",
      "stories260K",
      "--json",
    );
    expect(chat.status).toBe(2);
    expect(Object.keys(JSON.parse(chat.stdout))).toEqual(["rouge"]);
    const failures = chat.stderr.split("\n").filter((l) => / \[[A-Z_]+\]$/.test(l));
    expect(failures.map((l) => /^npov: ([a-z-]+): /.exec(l)?.[1])).toEqual(["endpoint-classifier", "likert"]);
    for (const line of failures) {
      expect(line).toContain(
        "use POST /v1/completions: npov check, eval, judge and guard ask it with --api completions",
      );
      expect(line).toMatch(/^npov: [a-z-]+: 400 from http:\/\/127\.0\.0\.1:\d+\/v1: the user message must be/);
      expect(line).toMatch(/\[HTTP_ERROR\]$/);
    }

    // A prompt longer than stories260K's 512 tokens: the server's refusal arrives whole (it ends with the fix).
    const { input, response } = JSON.parse(readFileSync(example, "utf8")) as { input: NpovInput; response: string };
    const long = join(root, "long.json");
    writeFileSync(long, JSON.stringify({ input, response: Array(40).fill(response).join(" ") }));
    const tooLong = await npov("check", "--input", long, "--methods", "likert", ...endpointArgs(), "--samples", "1");
    expect(tooLong.status).toBe(2);
    const line = tooLong.stderr.split("\n").find((l) => l.includes("CONTEXT") || l.includes("more than its context"));
    expect(line).toMatch(
      /^npov: 400 from http:\/\/127\.0\.0\.1:\d+\/v1: The prompt for .*stories260K is \d+ tokens, more than its context of 512: .*since a cut text would be scored as if it were whole\. \[HTTP_ERROR\]$/,
    );
  });

  it("npov eval re-runs from the cache for free, with identical results", async () => {
    const data = join(root, "data.jsonl");
    const synth = await npov("synth", "--kb", "fixtures", "--split", "test", "--out", data);
    expect(synth.status).toBe(0);
    // stories260K reads 512 tokens (max_position_embeddings); longer classifier prompts are refused with a
    // typed CONTEXT_TOO_LONG (400), so keep the three shortest examples.
    const lines = readFileSync(data, "utf8").trim().split("\n");
    writeFileSync(
      data,
      `${lines
        .sort((a, b) => a.length - b.length || (a < b ? -1 : 1))
        .slice(0, 3)
        .join("\n")}\n`,
    );
    const cache = join(root, "cache");
    const args = ["eval", "--data", data, "--limit", "3", "--methods", "endpoint-classifier", ...endpointArgs()];
    const first = await npov(...args, "--cache-dir", cache, "--bootstrap", "0", "--json");
    expect(first.status).toBe(0);
    expect(first.stderr).toContain("usage (stories260K): 6 requests (0 cached)");
    const second = await npov(...args, "--cache-dir", cache, "--bootstrap", "0", "--json");
    expect(second.stderr).toContain("usage (stories260K): 0 requests (6 cached), 0 prompt + 0 completion tokens");
    expect(second.stdout).toBe(first.stdout);
  });

  it("a guard config can name an endpoint detector", async () => {
    const config = join(root, "guard.json");
    writeFileSync(
      config,
      JSON.stringify({
        format: "npov-guard/1",
        detector: {
          method: "endpoint-classifier",
          endpoint: `${base}/v1`,
          model: "stories260K",
          api: "completions",
          topLogprobs: 512,
        },
        thresholds: { hallucination: 0.5, coverage: 0.99 },
      }),
    );
    const r = await npov("guard", "--config", config, "--input", example);
    expect(r.status).toBe(0);
    const verdict = JSON.parse(r.stdout) as { allow: boolean; hallucination: { score: number } };
    const { input, response } = JSON.parse(readFileSync(example, "utf8")) as { input: NpovInput; response: string };
    const direct = await new EndpointClassifier(new LlmClient({ baseURL: `${base}/v1`, model: "stories260K" }), {
      api: "completions",
      topLogprobs: 512,
    }).detect(input, response);
    expect(verdict.hallucination.score).toBe(direct.hallucination);
    expect(verdict.allow).toBe(direct.hallucination < 0.5 && direct.coverage < 0.99);
  });

  it("a busy port and a missing --endpoint are one-line errors with exit code 2", async () => {
    const port = new URL(base).port;
    const busy = await npov("serve", "--generator", "local", "--model", dir, "--port", port);
    expect(busy.status).toBe(2);
    expect(busy.stderr.trim().split("\n")).toEqual([
      `npov: port ${port} on 127.0.0.1 is already in use: stop the other server or choose another --port (0 = any free port). [PORT_IN_USE]`,
    ]);
    const missing = await npov("check", "--input", example, "--methods", "endpoint-classifier");
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain("needs --endpoint URL");
  });
});

describe("npov judge", () => {
  it("rates records with the Likert judge and reports agreement with human ratings", async () => {
    // Scripted endpoint: the rating is the number of "a" words in the response (1..4), whatever the seed.
    const api = await fakeEndpoint((r) => {
      const response = /Response:\n\n(.*)\n\n\(End of response\)/s.exec(userMessage(r))?.[1] ?? "";
      const rating = response.split(" ").filter((w) => w === "a").length;
      return { body: chatReply(`I would rate it ${rating} out of 5.`) };
    });
    try {
      const input = {
        topic: "zoos",
        query: "Should zoos be abolished?",
        perspectives: [
          { label: "pro", arguments: [{ text: "Zoos confine animals." }] },
          { label: "con", arguments: [{ text: "Zoos protect species." }] },
        ],
      };
      // LLM ratings 1, 2, 3, 4; human means 1, 3, 2, 4 -> tau 2/3, alpha 0.825 (hand-computed in
      // packages/llm/test/agreement.test.ts).
      const humans = [[1], [3], [2], [4]];
      const lines = [1, 2, 3, 4].map((k, i) =>
        JSON.stringify({
          input,
          response: `Views differ. ${Array(k).fill("a").join(" ")} point.`,
          ratings: { fluency: humans[i] },
        }),
      );
      const data = join(root, "judge.jsonl");
      writeFileSync(data, `${lines.join("\n")}\n`);
      const r = await npov(
        "judge",
        "--data",
        data,
        "--endpoint",
        api.url,
        "--model",
        "m",
        "--attributes",
        "fluency",
        "--samples",
        "2",
        "--json",
      );
      expect([r.status, r.stderr]).toEqual([0, expect.stringContaining("usage (m): 8 requests")]);
      const json = JSON.parse(r.stdout) as {
        attributes: Array<{ attribute: string; llmMean: number; unparsed: number; agreement: Record<string, number> }>;
      };
      expect(json.attributes[0]).toMatchObject({ attribute: "fluency", llmMean: 2.5, unparsed: 0 });
      expect(json.attributes[0]!.agreement.kendallTau).toBeCloseTo(2 / 3, 12);
      expect(json.attributes[0]!.agreement.alphaLlmVsHuman).toBeCloseTo(0.825, 12);
      expect(json.attributes[0]!.agreement.alphaLlmSamples).toBe(1);
    } finally {
      await api.close();
    }
  });
});

describe("npov judge and the endpoint methods say what to do in the CLI's terms", () => {
  const input = {
    topic: "zoos",
    query: "Should zoos be abolished?",
    perspectives: [
      { label: "pro", arguments: [{ text: "Zoos confine animals." }] },
      { label: "con", arguments: [{ text: "Zoos protect species." }] },
    ],
  };

  it("judge: without two usable items it says agreement needs them, and quotes a few unreadable answers", async () => {
    // The record humans rated gets only unreadable answers (one per seed); the other one gets "4".
    const api = await fakeEndpoint((r) => {
      const rated = userMessage(r).includes("Views differ.\n");
      return { body: chatReply(!rated ? "4" : r.body.seed === 0 ? "I cannot tell." : "Hard to say, sorry.") };
    });
    try {
      const data = join(root, "judge-unusable.jsonl");
      writeFileSync(
        data,
        [
          JSON.stringify({ input, response: "Views differ.", ratings: { fluency: [4, 5] } }),
          JSON.stringify({ input, response: "Views differ a lot." }),
        ].join("\n"),
      );
      const args = ["judge", "--data", data, "--endpoint", api.url, "--model", "m", "--attributes", "fluency"];
      const text = await npov(...args, "--samples", "2");
      expect(text.status).toBe(0);
      const lines = text.stdout.trim().split("\n");
      expect(lines[0]).toMatch(/^attribute\s+items\s+LLM mean\s+unparsed$/); // no empty agreement columns
      expect(lines[2]).toMatch(/^fluency\s+2\s+4\.000\s+2\/4$/);
      expect(lines).toContain(
        "fluency: agreement with humans (human mean, alpha, tau) needs two usable items, rated by humans and with a readable LLM answer; 0 of 2 are (1 with human ratings, 1 with a readable LLM answer).",
      );
      expect(lines).toContain(
        'fluency: 2 of 4 answers hold no readable 1-5 rating; the first 2: "I cannot tell.", "Hard to say, sorry."',
      );
      const json = JSON.parse((await npov(...args, "--samples", "2", "--json")).stdout) as {
        attributes: Array<Record<string, unknown>>;
      };
      expect(json.attributes[0]).toMatchObject({
        usableItems: 0,
        withHumanRatings: 1,
        withReadableLlmRating: 1,
        unparsedExamples: ["I cannot tell.", "Hard to say, sorry."],
      });
      expect(json.attributes[0]).not.toHaveProperty("agreement");
    } finally {
      await api.close();
    }
  });

  it("label and sampling advice names --top-logprobs and --samples, never the API's option names", async () => {
    const example = join(root, "zoos.json");
    writeFileSync(example, JSON.stringify({ input, response: "Zoos confine animals, critics say." }));
    const scripts: Array<[string, (k: number) => unknown, string[], RegExp]> = [
      [
        "NO_LABEL_LOGPROBS",
        () =>
          chatReply("Maybe", [
            ["Maybe", 0.6],
            ["Perhaps", 0.4],
          ]),
        [],
        /: raise --top-logprobs \(e\.g\. --top-logprobs 20\), add --samples K \(read K sampled answers instead\), or use a model that answers YES\/NO\. \[NO_LABEL_LOGPROBS\]$/,
      ],
      [
        "NO_LOGPROBS",
        () => chatReply("YES"),
        [],
        /\(add --samples K: read K sampled answers instead\)\. \[NO_LOGPROBS\]$/,
      ],
      [
        "UNPARSEABLE_ANSWERS",
        () => chatReply("Hard to say."),
        ["--samples", "2"],
        /, or raise --samples\. \[UNPARSEABLE_ANSWERS\]$/,
      ],
    ];
    for (const [code, reply, extra, advice] of scripts) {
      const api = await fakeEndpoint((_r, k) => ({ body: reply(k) }));
      try {
        const r = await npov(
          "check",
          "--input",
          example,
          "--methods",
          "endpoint-classifier",
          "--endpoint",
          api.url,
          "--endpoint-model",
          "m",
          ...extra,
        );
        const line = r.stderr.split("\n").find((l) => l.endsWith(`[${code}]`));
        expect(line, r.stderr).toMatch(advice);
        expect(line).not.toMatch(/topLogprobs|(?<!--)samples\b/);
        expect(r.status).toBe(2);
      } finally {
        await api.close();
      }
    }
  });
});
