/**
 * Category "input files (CLI)", the waits: no call waits forever -- an endpoint that never answers, one
 * that asks to wait 28 hours, one that trickles a valid reply a byte at a time; a database another process
 * holds locked, or that is read-only; a worker stopped while Redis is down, or given a wrong password; a
 * guard over a 4 MB response. And the messages of this round: a reproducible eval report, a split with no
 * usable topic, a model whose every weight is NaN (category "model files").
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { createServer, type Server, type ServerResponse } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { loadModel, saveModel, writeTestModel } from "@npov/autograd";
import { freePort, startRedisServer } from "@npov/queue";
import { type Fixtures, longResponse } from "./fixtures.js";
import {
  BIN,
  type Case,
  childEnv,
  describeRun,
  judgeError,
  type ProcResult,
  ROOT,
  runCli,
  runProblems,
  runProcess,
} from "./harness.js";

/** A local endpoint whose every request `handle` answers (or not); closed when the case ends. */
async function withEndpoint<T>(handle: (res: ServerResponse) => void, use: (url: string) => Promise<T>): Promise<T> {
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on("end", () => handle(res));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  try {
    return await use(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`);
  } finally {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
}

/** Run the CLI without blocking the harness (its own endpoint must keep answering). */
const cliAsync = (args: string[], timeoutMs: number): Promise<ProcResult> => runCli(args, { timeoutMs });

/** A typed error with `code` within `withinMs`. */
function typedWithin(r: ProcResult, codes: string[], withinMs: number): string | undefined {
  const e = judgeError(r, codes);
  if (e !== undefined) return e;
  return r.ms > withinMs ? `took ${(r.ms / 1000).toFixed(1)} s (limit ${withinMs / 1000} s)` : undefined;
}

export function waitCases(f: Fixtures): Case[] {
  const cases: Case[] = [];
  const add = (area: Case["area"], name: string, expected: string, run: () => Promise<string | undefined>) =>
    cases.push({ category: "input files (CLI)", area, name, expected, run });
  const endpointCheck = (url: string, extra: string[]) => [
    "check",
    "--input",
    f.exampleFile,
    "--methods",
    "endpoint-classifier",
    "--endpoint",
    url,
    "--endpoint-model",
    "m",
    ...extra,
  ];

  // Endpoints.
  add(
    "B",
    "check --methods endpoint-classifier --timeout 2: an endpoint that never answers",
    "exit 2 [TIMEOUT] within 10 s (it took ~250 s)",
    () =>
      withEndpoint(
        () => undefined,
        async (url) => typedWithin(await cliAsync(endpointCheck(url, ["--timeout", "2"]), 60_000), ["TIMEOUT"], 10_000),
      ),
  );
  add(
    "B",
    "check --methods endpoint-classifier: a 429 with Retry-After: 100000 (28 hours)",
    "exit 2 [RATE_LIMITED] within 10 s (it was obeyed)",
    () =>
      withEndpoint(
        (res) => {
          res.writeHead(429, { "content-type": "application/json", "retry-after": "100000" });
          res.end('{"error": {"message": "slow down"}}');
        },
        async (url) => typedWithin(await cliAsync(endpointCheck(url, []), 60_000), ["RATE_LIMITED"], 10_000),
      ),
  );
  add(
    "B",
    "check --methods endpoint-classifier --timeout 3: a valid reply sent one byte every 100 ms",
    "exit 2 [TIMEOUT] within 10 s (per-chunk timeouts never cut it)",
    () =>
      withEndpoint(
        (res) => {
          const body = JSON.stringify({
            id: "x",
            object: "chat.completion",
            created: 0,
            model: "m",
            choices: [{ index: 0, message: { role: "assistant", content: "YES}" }, finish_reason: "stop" }],
          });
          res.writeHead(200, { "content-type": "application/json" });
          let sent = 0;
          const timer = setInterval(() => {
            if (res.destroyed || sent >= body.length) return clearInterval(timer);
            res.write(body[sent++] as string);
          }, 100);
          res.on("close", () => clearInterval(timer));
        },
        async (url) => typedWithin(await cliAsync(endpointCheck(url, ["--timeout", "3"]), 60_000), ["TIMEOUT"], 10_000),
      ),
  );
  add("B", "generate --endpoint --timeout 2: an endpoint that never answers", "exit 2 [TIMEOUT] within 10 s", () =>
    withEndpoint(
      () => undefined,
      async (url) =>
        typedWithin(
          await cliAsync(
            ["generate", "--input", f.exampleFile, "--endpoint", url, "--endpoint-model", "m", "--timeout", "2"],
            60_000,
          ),
          ["TIMEOUT"],
          10_000,
        ),
    ),
  );

  // The annotation database.
  add(
    "D",
    "annotate import while another process holds the database's write lock",
    "exit 2 [DATABASE_BUSY] after the 5 s busy timeout (it was INTERNAL_ERROR 'database is locked'), nothing changed",
    async () => {
      const dir = f.sub("db-busy");
      const db = join(dir, "a.sqlite");
      const made = await runCli(["annotate", "import", "--db", db, "--data", f.testData], { timeoutMs: 60_000 });
      if (made.code !== 0) return `harness: annotate import failed: ${describeRun(made)}`;
      const before = readFileSync(db);
      // Another process takes the write lock and keeps it for 20 s.
      const holder: ChildProcess = spawn(
        process.execPath,
        [
          "-e",
          `const D = require(${JSON.stringify(betterSqlite3())}); const d = new D(process.argv[1]); d.exec("BEGIN IMMEDIATE"); console.log("locked"); setTimeout(() => {}, 20000);`,
          db,
        ],
        { stdio: ["ignore", "pipe", "inherit"] },
      );
      try {
        await new Promise<void>((resolve) => holder.stdout?.once("data", () => resolve()));
        const r = await runCli(["annotate", "import", "--db", db, "--data", f.devData], { timeoutMs: 60_000 });
        return (
          typedWithin(r, ["DATABASE_BUSY"], 20_000) ??
          (readFileSync(db).equals(before) ? undefined : "the database changed")
        );
      } finally {
        holder.kill("SIGKILL");
      }
    },
  );
  add(
    "D",
    "annotate import into a database on a read-only file system (private bind mount, ro)",
    "exit 2 [DATABASE_READ_ONLY] (it said 'not an npov annotation database')",
    async () => {
      const dir = f.sub("db-ro");
      const db = join(dir, "a.sqlite");
      const made = await runCli(["annotate", "import", "--db", db, "--data", f.testData], { timeoutMs: 60_000 });
      if (made.code !== 0) return `harness: annotate import failed: ${describeRun(made)}`;
      const script = 'mount --bind "$1" "$1" && mount -o remount,ro,bind "$1" && shift && exec "$@"';
      const r = await runProcess(
        "unshare",
        ["-m", "--propagation", "private", "sh", "-c", script, "sh", dir, process.execPath, BIN].concat([
          "annotate",
          "import",
          "--db",
          db,
          "--data",
          f.devData,
        ]),
        { timeoutMs: 60_000 },
      );
      return judgeError(r, ["DATABASE_READ_ONLY"]);
    },
  );

  // The queue worker.
  add(
    "A",
    "worker given SIGTERM while its Redis is down",
    "exits (code 0) within 3 s of the signal (it kept reconnecting, alive after 60 s)",
    async () => {
      const redis = await startRedisServer();
      const child = spawn(process.execPath, [BIN, "worker", "--queue", redis.url], {
        env: childEnv(),
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stderr = "";
      child.stderr?.on("data", (d) => {
        stderr += d;
      });
      const exited = new Promise<number | null>((r) => child.once("exit", (code) => r(code)));
      try {
        const started = Date.now();
        while (!stderr.includes("waiting for jobs")) {
          if (Date.now() - started > 30_000) return `harness: the worker did not start: ${stderr.slice(0, 200)}`;
          await new Promise((r) => setTimeout(r, 50));
        }
        await redis.kill();
        await new Promise((r) => setTimeout(r, 1000));
        const signalled = Date.now();
        child.kill("SIGTERM");
        const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r("alive"), 10_000))]);
        if (code === "alive") return "still alive 10 s after SIGTERM";
        const ms = Date.now() - signalled;
        if (code !== 0) return `exit ${code}: ${stderr.trim().split("\n").at(-1)}`;
        return ms > 3000 ? `exited after ${(ms / 1000).toFixed(1)} s` : undefined;
      } finally {
        child.kill("SIGKILL");
        await redis.dispose();
      }
    },
  );
  add(
    "A",
    "worker --queue redis://:wrong@... (a Redis with another password)",
    "exit 2 [QUEUE_AUTH_FAILED] within 5 s (it said 'cannot reach Redis')",
    async () => {
      const port = await freePort();
      const server = spawn(
        "redis-server",
        ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--requirepass", "right"],
        {
          stdio: ["ignore", "pipe", "ignore"],
        },
      );
      try {
        await new Promise<void>((resolve) => {
          let log = "";
          server.stdout?.on("data", (d) => {
            log += d;
            if (log.includes("Ready to accept")) resolve();
          });
        });
        const r = await runCli(["worker", "--queue", `redis://:wrong@127.0.0.1:${port}/0`], { timeoutMs: 30_000 });
        return typedWithin(r, ["QUEUE_AUTH_FAILED"], 5000);
      } finally {
        server.kill("SIGKILL");
      }
    },
  );

  // Work that was quadratic: the guard's evidence on responses of 1, 2 and 4 MB.
  for (const mb of [1, 2, 4])
    add(
      "A",
      `guard (rouge, flagged) --exit-code: a ${mb} MB response`,
      "exit 3 with sentence evidence, within 60 s (4 MB took 162 s)",
      async () => {
        const config = f.writeJson(`guard-rouge-0-${mb}.json`, {
          format: "npov-guard/1",
          detector: { method: "rouge" },
          thresholds: { hallucination: 0, coverage: 0 },
        });
        const input = f.writeJson(`big-${mb}.json`, {
          input: f.example.input,
          response: longResponse(f, mb * 1_000_000, 33),
        });
        const r = await runCli(["guard", "--config", config, "--input", input, "--exit-code"], { timeoutMs: 60_000 });
        const problem = runProblems(r);
        if (problem !== undefined) return problem;
        if (r.code !== 3) return describeRun(r);
        const verdict = JSON.parse(r.stdout) as { hallucination?: { evidence?: { sentences?: unknown[] } } };
        return (verdict.hallucination?.evidence?.sentences?.length ?? 0) > 0 ? undefined : "no sentence evidence";
      },
    );

  // Reproducible reports, and the messages of this round.
  add(
    "B",
    "eval --report twice with --no-date, and twice with SOURCE_DATE_EPOCH",
    "byte-identical pages each time (the page embedded the time)",
    async () => {
      const dir = f.sub("report");
      const out = join(dir, "r.html");
      const args = ["eval", "--data", f.testData, "--methods", "rouge", "--bootstrap", "20", "--report", out];
      const pages: Buffer[] = [];
      for (const [extra, env] of [
        [["--no-date"], {}],
        [["--no-date"], {}],
        [[], { SOURCE_DATE_EPOCH: "1700000000" }],
        [[], { SOURCE_DATE_EPOCH: "1700000000" }],
      ] as const) {
        const r = await runCli([...args, ...extra], { timeoutMs: 60_000, env });
        if (r.code !== 0) return describeRun(r);
        pages.push(readFileSync(out));
      }
      if (!(pages[0] as Buffer).equals(pages[1] as Buffer)) return "two --no-date runs differ";
      if (!(pages[2] as Buffer).equals(pages[3] as Buffer)) return "two SOURCE_DATE_EPOCH runs differ";
      return (pages[2] as Buffer).toString().includes("2023-11-14T22:13:20.000Z")
        ? undefined
        : "the date is not SOURCE_DATE_EPOCH";
    },
  );
  add(
    "B",
    "synth --kb <a base whose test topics have one perspective each> --split test",
    "exit 2 [NO_USABLE_TOPICS] naming the topics (it said '0 perspective(s)')",
    async () => {
      const topic = (id: string) =>
        JSON.stringify({
          id,
          title: id,
          query: `${id}?`,
          split: "test",
          perspectives: [{ label: "pro", arguments: [{ text: "It helps." }] }],
        });
      const kb = f.write("one-sided.jsonl", `${topic("alpha")}\n${topic("beta")}\n`);
      const r = await runCli(["synth", "--kb", kb, "--split", "test", "--out", join(f.sub("synth"), "out.jsonl")], {
        timeoutMs: 60_000,
      });
      const e = judgeError(r, ["NO_USABLE_TOPICS"]);
      if (e !== undefined) return e;
      return r.stderr.includes('"alpha"') && r.stderr.includes('"beta"')
        ? undefined
        : `the topics are not named: ${r.stderr.trim()}`;
    },
  );
  add(
    "B",
    "synth --kb <a base with only test topics> --split dev",
    "exit 2 [NO_USABLE_TOPICS] saying the split has no topics and how many the others have",
    async () => {
      const topic = JSON.stringify({
        id: "only-test",
        title: "t",
        query: "t?",
        split: "test",
        perspectives: [
          { label: "pro", arguments: [{ text: "It helps." }] },
          { label: "con", arguments: [{ text: "It hurts." }] },
        ],
      });
      const kb = f.write("test-only.jsonl", `${topic}\n`);
      const r = await runCli(["synth", "--kb", kb, "--split", "dev", "--out", join(f.sub("synth"), "o.jsonl")], {
        timeoutMs: 60_000,
      });
      return (
        judgeError(r, ["NO_USABLE_TOPICS"]) ??
        (r.stderr.includes('no topics in split "dev" (it has 0 train, 0 dev and 1 test topics)')
          ? undefined
          : `unclear message: ${r.stderr.trim()}`)
      );
    },
  );

  cases.push({
    category: "model files",
    area: "C",
    name: "generate --model <a t5 test model whose every weight is NaN>",
    expected: "exit 2 with one typed line on stderr [MODEL_RUN | INVALID_SCORE] (transformers.js printed 35)",
    run: async () => {
      const dir = join(f.sub("nan-t5"), "m");
      writeTestModel(dir, "t5", { seed: 3 });
      for (const name of readdirSync(join(dir, "onnx")).filter((n) => n.endsWith(".onnx"))) {
        const model = loadModel(join(dir, "onnx", name));
        for (const t of model.graph?.initializer ?? []) {
          if (t.dataType !== 1 || !t.rawData || t.rawData.length === 0) continue;
          const floats = new Float32Array(t.rawData.length / 4).fill(Number.NaN);
          t.rawData = new Uint8Array(floats.buffer);
        }
        saveModel(join(dir, "onnx", name), model);
      }
      const input = f.writeJson("short-input.json", {
        topic: "t",
        query: "q?",
        perspectives: [
          { label: "pro", arguments: ["a"] },
          { label: "con", arguments: ["b"] },
        ],
      });
      const r = await runCli(["generate", "--model", dir, "--input", input, "--max-new-tokens", "4"], {
        timeoutMs: 60_000,
      });
      const e = judgeError(r, ["MODEL_RUN", "INVALID_SCORE"]);
      if (e !== undefined) return e;
      const lines = r.stderr.trim().split("\n");
      return lines.length === 1 ? undefined : `${lines.length} lines on stderr`;
    },
  });
  return cases;
}

/** The better-sqlite3 the annotation store loads (for a second process that holds its lock). */
function betterSqlite3(): string {
  return createRequire(join(ROOT, "packages/annotate/package.json")).resolve("better-sqlite3");
}
