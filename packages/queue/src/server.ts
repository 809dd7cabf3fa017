/**
 * A local redis-server for tests, benchmarks and examples: Debian's `redis-server` binary on a free
 * loopback port, in its own folder, stoppable, killable and restartable on the same port (with
 * `persist`, its append-only file keeps the jobs across a restart).
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createConnection, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { NpovError } from "@npov/core";

/** The redis-server binary is not installed (or not on PATH). */
export class RedisServerMissingError extends NpovError {
  constructor(binary: string) {
    super(
      "REDIS_SERVER_MISSING",
      `${binary} was not found. Install Redis: apt-get install -y redis-server (Debian/Ubuntu; bash scripts/setup.sh does it as root).`,
    );
  }
}

/** redis-server did not start answering in time. */
export class RedisServerStartError extends NpovError {
  constructor(port: number, detail: string) {
    super("REDIS_SERVER_START_FAILED", `redis-server on port ${port} did not start: ${detail}`);
  }
}

/** Options of {@link startRedisServer}. */
export interface RedisServerOptions {
  /** Port on 127.0.0.1 (default: a free one). */
  port?: number;
  /** Working folder for its files (default: a new temporary folder). */
  dir?: string;
  /** Append-only file on, so queued jobs survive a restart (default false: nothing written to disk). */
  persist?: boolean;
  /** The binary (default `redis-server` on PATH). */
  binary?: string;
  /** How long to wait for it to answer PING (default 10000 ms). */
  startTimeoutMs?: number;
}

/** A running (or stopped, restartable) local redis-server. */
export interface RedisServer {
  /** `redis://127.0.0.1:PORT/0`. */
  readonly url: string;
  readonly port: number;
  readonly dir: string;
  /** Whether the process is running. */
  readonly running: boolean;
  /** Start it again on the same port and folder (after {@link RedisServer.stop} or {@link RedisServer.kill}). */
  start(): Promise<void>;
  /** Shut down cleanly (SIGTERM: the append-only file is flushed). */
  stop(): Promise<void>;
  /** Die at once (SIGKILL), as in a crash. */
  kill(): Promise<void>;
  /** Stop it for good and delete its folder when startRedisServer made that folder (no `dir` given). */
  dispose(): Promise<void>;
}

/** A free TCP port on 127.0.0.1. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Whether a Redis on `port` answers PING. */
function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: "127.0.0.1", port });
    let reply = "";
    const finish = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(500, () => finish(false));
    socket.once("error", () => finish(false));
    socket.once("connect", () => socket.write("PING\r\n"));
    socket.on("data", (data) => {
      reply += data.toString();
      if (reply.includes("\r\n")) finish(reply.startsWith("+PONG"));
    });
  });
}

/**
 * Start a redis-server bound to 127.0.0.1 and wait until it answers.
 * @throws RedisServerMissingError, RedisServerStartError
 */
export async function startRedisServer(options: RedisServerOptions = {}): Promise<RedisServer> {
  const binary = options.binary ?? "redis-server";
  const probe = spawnSync(binary, ["--version"], { encoding: "utf8" });
  if (probe.error !== undefined || probe.status !== 0) throw new RedisServerMissingError(binary);
  const port = options.port ?? (await freePort());
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), "npov-redis-"));
  const timeoutMs = options.startTimeoutMs ?? 10_000;
  const args = [
    "--port",
    String(port),
    "--bind",
    "127.0.0.1",
    "--dir",
    dir,
    "--save",
    "",
    "--appendonly",
    options.persist ? "yes" : "no",
    "--daemonize",
    "no",
    "--logfile",
    "",
  ];
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();

  const start = async () => {
    if (child !== undefined) return;
    let output = "";
    const proc = spawn(binary, args, { stdio: ["ignore", "pipe", "pipe"] });
    proc.stdout?.on("data", (d) => {
      output = (output + d.toString()).slice(-2000);
    });
    proc.stderr?.on("data", (d) => {
      output = (output + d.toString()).slice(-2000);
    });
    child = proc;
    exited = new Promise((resolve) =>
      proc.once("exit", () => {
        if (child === proc) child = undefined;
        resolve();
      }),
    );
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (child !== proc) throw new RedisServerStartError(port, `it exited: ${output.trim().split("\n").at(-1)}`);
      if (await ping(port)) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    proc.kill("SIGKILL");
    throw new RedisServerStartError(port, `no answer to PING within ${timeoutMs} ms`);
  };
  const signal = async (name: NodeJS.Signals) => {
    if (child === undefined) return;
    child.kill(name);
    await exited;
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}/0`,
    port,
    dir,
    get running() {
      return child !== undefined;
    },
    start,
    stop: () => signal("SIGTERM"),
    kill: () => signal("SIGKILL"),
    async dispose() {
      await signal("SIGTERM");
      if (options.dir === undefined) rmSync(dir, { recursive: true, force: true });
    },
  };
}
