/**
 * The server under load: a fresh `npov serve --port 0 --guard-config <support guard>` on loopback, and a
 * bounded autocannon run per kind of request to POST /v1/check -- valid checks, malformed JSON, bodies over
 * the limit -- one kind after the other; requests/s, p50/p99 latency, status counts, the server's RSS
 * before and after, and how fast /health answers in the middle of the valid-check load.
 */
import autocannon from "autocannon";
import type { Fixtures } from "./fixtures.js";
import { http, startCli } from "./server.js";

export interface LoadRunFigures {
  label: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  responses: number;
  /** e.g. "200: 4210" or "400: 9000, errors: 3". */
  statuses: string;
}

export interface LoadFigures {
  connections: number;
  seconds: number;
  runs: LoadRunFigures[];
  rssBefore: number;
  rssAfter: number;
  rssSettled: number;
  healthMs: number;
}

interface AutocannonResult {
  requests: { average: number };
  latency: { p50: number; p99: number };
  statusCodeStats?: Record<string, { count: number }>;
  errors: number;
  timeouts: number;
  non2xx: number;
  "1xx": number;
  "2xx": number;
  "3xx": number;
  "4xx": number;
  "5xx": number;
}

function cannon(o: Record<string, unknown>): Promise<AutocannonResult> {
  return new Promise((resolve, reject) => {
    (autocannon as unknown as (o: unknown, cb: (e: Error | null, r: AutocannonResult) => void) => void)(o, (e, r) =>
      e ? reject(e) : resolve(r),
    );
  });
}

export async function loadRun(f: Fixtures, connections = 10, seconds = 5): Promise<LoadFigures> {
  const server = await startCli(["serve", "--port", "0", "--guard-config", f.guard.support], { cwd: f.dir });
  if (server.url === undefined) throw new Error(`npov serve did not start: ${server.result().stderr.slice(0, 300)}`);
  try {
    const url = `${server.url}/v1/check`;
    const valid = JSON.stringify({ input: f.example.input, response: f.example.response });
    // Warm up: the support detector loads its tables on the first check.
    await http(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: valid,
      timeoutMs: 60_000,
    });
    const rssBefore = server.rssMiB() ?? 0;
    const kinds: Array<[string, string]> = [
      ["valid check (uniforms example)", valid],
      ["malformed JSON", '{"input": {"topic": "x", '],
      ["over the body limit (300 KB)", JSON.stringify({ input: f.example.input, response: "x".repeat(300_000) })],
    ];
    const runs: LoadRunFigures[] = [];
    let healthMs = Number.NaN;
    for (const [label, body] of kinds) {
      const running = cannon({
        url,
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
        connections,
        duration: seconds,
      });
      if (runs.length === 0) {
        await new Promise((r) => setTimeout(r, (seconds * 1000) / 2));
        healthMs = (await http(`${server.url}/health`, { timeoutMs: 30_000 })).ms;
      }
      const r = await running;
      const codes = Object.entries(r.statusCodeStats ?? {})
        .map(([code, s]) => `${code}: ${s.count}`)
        .join(", ");
      runs.push({
        label,
        requestsPerSecond: r.requests.average,
        p50: r.latency.p50,
        p99: r.latency.p99,
        responses: r["1xx"] + r["2xx"] + r["3xx"] + r["4xx"] + r["5xx"],
        statuses: [codes, r.errors ? `connection errors: ${r.errors}` : "", r.timeouts ? `timeouts: ${r.timeouts}` : ""]
          .filter(Boolean)
          .join(", "),
      });
    }
    const rssAfter = server.rssMiB() ?? 0;
    await new Promise((r) => setTimeout(r, 5000));
    const rssSettled = server.rssMiB() ?? 0;
    return { connections, seconds, runs, rssBefore, rssAfter, rssSettled, healthMs };
  } finally {
    await server.stop();
  }
}
