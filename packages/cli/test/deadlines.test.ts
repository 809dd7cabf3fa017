/**
 * No CLI call waits forever on an endpoint: `--timeout` bounds one endpoint call in all (an endpoint that
 * never answers was given up only after ~250 s: 4 attempts of 60 s), and a Retry-After beyond
 * `--max-retry-after` fails at once with RATE_LIMITED (28 hours was obeyed). The built binary against
 * endpoints served by this test process.
 */
import { spawn } from "node:child_process";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { REPO } from "./helpers.js";

const BIN = fileURLToPath(new URL("../dist/bin.js", import.meta.url));
const example = join(REPO, "fixtures/examples/uniforms.json");
const servers: Server[] = [];
afterAll(async () => {
  for (const s of servers) s.closeAllConnections();
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
});

async function endpoint(handle: (res: ServerResponse) => void): Promise<string> {
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => handle(res));
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

/** Run the built `npov` without blocking this process (its endpoints must keep serving). */
function npov(...args: string[]): Promise<{ status: number | null; stderr: string; ms: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: REPO, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    const killer = setTimeout(() => child.kill("SIGKILL"), 30_000);
    child.on("exit", (status) => {
      clearTimeout(killer);
      resolve({ status, stderr, ms: Date.now() - started });
    });
  });
}

const lastLine = (stderr: string) =>
  stderr
    .trim()
    .split("\n")
    .filter((l) => !l.startsWith("npov: usage") && !l.startsWith("npov: warning"))
    .at(-1) ?? "";

describe("endpoint deadlines in the CLI", () => {
  it("check --timeout 1 gives up on an endpoint that never answers after about a second", async () => {
    const url = await endpoint(() => undefined);
    const r = await npov(
      "check",
      "--input",
      example,
      "--methods",
      "endpoint-classifier",
      "--endpoint",
      url,
      "--endpoint-model",
      "m",
      "--timeout",
      "1",
    );
    expect(r.status).toBe(2);
    expect(lastLine(r.stderr)).toMatch(/1000 ms deadline.*\[TIMEOUT\]$/);
    expect(r.ms).toBeLessThan(10_000);
  });

  it("a 429 asking for 28 hours is RATE_LIMITED at once; --max-retry-after names the limit", async () => {
    const url = await endpoint((res) => {
      res.writeHead(429, { "content-type": "application/json", "retry-after": "100000" });
      res.end(JSON.stringify({ error: { message: "slow down" } }));
    });
    const r = await npov(
      "check",
      "--input",
      example,
      "--methods",
      "endpoint-classifier",
      "--endpoint",
      url,
      "--endpoint-model",
      "m",
      "--max-retry-after",
      "5",
    );
    expect(r.status).toBe(2);
    expect(lastLine(r.stderr)).toMatch(/asks to wait 100000 s.*5000 ms.*\[RATE_LIMITED\]$/);
    expect(r.ms).toBeLessThan(10_000);
  });

  it("generate --endpoint --timeout 1 is bounded too, and a bad --timeout is a usage error", async () => {
    const url = await endpoint(() => undefined);
    const r = await npov("generate", "--input", example, "--endpoint", url, "--endpoint-model", "m", "--timeout", "1");
    expect(r.status).toBe(2);
    expect(lastLine(r.stderr)).toContain("[TIMEOUT]");
    expect(r.ms).toBeLessThan(10_000);
    const bad = await npov(
      "generate",
      "--input",
      example,
      "--endpoint",
      url,
      "--endpoint-model",
      "m",
      "--timeout",
      "0",
    );
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain("--timeout must be a number from 0.001 to 2000000");
  });
});
