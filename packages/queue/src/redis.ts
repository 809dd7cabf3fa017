/**
 * Redis connections for BullMQ. BullMQ 6 talks to Redis through a client instance the caller passes; the
 * client here is node-redis (`redis`), which reconnects on its own (backoff capped at one second) and queues
 * commands while disconnected, so a restarted Redis resumes a run instead of failing it.
 */
import { InvalidValueError, NpovError } from "@npov/core";
import { createClient } from "redis";
import { QueueAuthError, QueueNameError, QueueUnreachableError, QueueUrlError, redactUrl } from "./errors.js";

/** The part of a node-redis client npov uses (BullMQ uses more; it wraps the same instance). */
export interface RedisClient {
  readonly isReady: boolean;
  connect(): Promise<unknown>;
  close?(): Promise<void>;
  quit?(): Promise<unknown>;
  destroy(): void;
  on(event: string, listener: (...args: unknown[]) => void): unknown;
  off?(event: string, listener: (...args: unknown[]) => void): unknown;
  hSet(key: string, field: string, value: string): Promise<number>;
  hLen(key: string): Promise<number>;
  hKeys(key: string): Promise<string[]>;
  hmGet(key: string, fields: string[]): Promise<Array<string | null | undefined>>;
  hExists(key: string, field: string): Promise<boolean | number>;
  expire(key: string, seconds: number): Promise<unknown>;
  del(keys: string | string[]): Promise<number>;
  multi(): RedisMulti;
  /** A new client to the same server (BullMQ makes its blocking connection this way). */
  duplicate?(...args: unknown[]): RedisClient;
}

/**
 * Record every client made from `client` by `duplicate()` (BullMQ's blocking connection, and theirs in
 * turn); the returned function destroys them all at once. A polite close of a duplicate waits for Redis to
 * answer QUIT -- forever while Redis is down, reconnecting meanwhile -- so a worker stopping without Redis
 * ends them this way.
 */
export function trackDuplicates(client: RedisClient): () => void {
  const made: RedisClient[] = [];
  const track = (c: RedisClient) => {
    const original = c.duplicate;
    if (original === undefined) return;
    c.duplicate = (...args: unknown[]) => {
      const copy = original.apply(c, args);
      made.push(copy);
      track(copy);
      return copy;
    };
  };
  track(client);
  return () => {
    for (const c of made)
      try {
        c.destroy();
      } catch {
        // already closed
      }
  };
}

/** A node-redis transaction (MULTI ... EXEC), chained. */
export interface RedisMulti {
  hSet(key: string, field: string, value: string): RedisMulti;
  expire(key: string, seconds: number): RedisMulti;
  exec(): Promise<unknown>;
}

/** A parsed --queue URL. */
export interface QueueUrl {
  /** The URL as given (normalised: default port 6379 and database 0 filled in). */
  url: string;
  host: string;
  port: number;
  db: number;
  tls: boolean;
}

/**
 * Parse `redis://[user:password@]HOST[:PORT][/DB]` (or `rediss://` for TLS).
 * @throws QueueUrlError naming what is wrong
 */
export function parseQueueUrl(url: string): QueueUrl {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new QueueUrlError(url, "not a URL");
  }
  if (parsed.protocol !== "redis:" && parsed.protocol !== "rediss:")
    throw new QueueUrlError(url, `the scheme is "${parsed.protocol.replace(/:$/, "")}", not redis or rediss`);
  if (parsed.hostname === "") throw new QueueUrlError(url, "no host");
  const port = parsed.port === "" ? 6379 : Number(parsed.port);
  const dbText = parsed.pathname.replace(/^\//, "");
  const db = dbText === "" ? 0 : Number(dbText);
  if (!/^\d*$/.test(dbText) || !Number.isInteger(db) || db < 0)
    throw new QueueUrlError(url, `the database "${dbText}" is not a number (redis://HOST:PORT/N)`);
  if (parsed.search !== "" || parsed.hash !== "") throw new QueueUrlError(url, "query strings are not supported");
  const auth = parsed.username || parsed.password ? `${parsed.username}:${parsed.password}@` : "";
  return {
    url: `${parsed.protocol}//${auth}${parsed.hostname}:${port}/${db}`,
    host: parsed.hostname,
    port,
    db,
    tls: parsed.protocol === "rediss:",
  };
}

/** Options of {@link connectRedis}. */
export interface ConnectOptions {
  /** Fail with {@link QueueUnreachableError} when Redis does not answer this soon (default 5000 ms). */
  connectTimeoutMs?: number;
  /** Longest wait between reconnection attempts after the connection drops (default 1000 ms). */
  maxReconnectDelayMs?: number;
  /** Connection errors after the first connect (Redis restarting, network); the client keeps reconnecting. */
  onError?: (error: Error) => void;
  /** Gives up connecting when aborted (the client is destroyed; the promise rejects with the signal's reason). */
  signal?: AbortSignal;
}

/**
 * Check a queue name before BullMQ sees it (it throws plain errors for these, after connecting).
 * @throws QueueNameError
 */
export function checkQueueName(name: unknown): string {
  if (typeof name !== "string" || name.length === 0) throw new QueueNameError(name, "must be a non-empty name");
  if (name.length > 200) throw new QueueNameError(name, "is longer than 200 characters");
  if (name.includes(":")) throw new QueueNameError(name, 'may not contain ":" (BullMQ uses it in its keys)');
  return name;
}

/**
 * Connect a node-redis client to `url` and wait until it is ready. After that it reconnects by itself for
 * as long as it lives (commands wait meanwhile). @throws QueueUrlError, QueueUnreachableError
 */
export async function connectRedis(url: string, options: ConnectOptions = {}): Promise<RedisClient> {
  const parsed = parseQueueUrl(url);
  const timeoutMs = options.connectTimeoutMs ?? 5000;
  const maxDelay = options.maxReconnectDelayMs ?? 1000;
  const client = createClient({
    url: parsed.url,
    socket: {
      connectTimeout: Math.min(timeoutMs, 10_000),
      reconnectStrategy: (retries: number) => Math.min(50 * 2 ** Math.min(retries, 10), maxDelay),
    },
  });
  let lastError: unknown;
  // A refused password comes back as an error of the connection handshake, and node-redis then retries it
  // for ever: it ends the wait at once instead (retrying cannot fix a password).
  let refused: unknown;
  let refusedAuth: ((error: unknown) => void) | undefined;
  const authRefused = new Promise<"auth">((resolve) => {
    refusedAuth = (error) => {
      refused = error;
      resolve("auth");
    };
  });
  // node-redis emits an error per failed attempt; without a listener Node would throw it.
  client.on("error", (error) => {
    lastError = error;
    if (!connected && isAuthError(error)) refusedAuth?.(error);
    if (client.isReady || connected) options.onError?.(error as Error);
  });
  let connected = false;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), timeoutMs);
  });
  const signal = options.signal;
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<"aborted">((resolve) => {
    onAbort = () => resolve("aborted");
    if (signal?.aborted) onAbort();
    else signal?.addEventListener("abort", onAbort, { once: true });
  });
  // Connected is not ready: a server that needs a password accepts the connection and refuses every
  // command, so one PING (within the same timeout) proves npov can work with it.
  const ready = async () => {
    await client.connect();
    try {
      await client.ping();
    } catch (error) {
      refused = error;
      throw error;
    }
    return "ok" as const;
  };
  const outcome = await Promise.race([ready(), timeout, aborted, authRefused]).catch((e: unknown) => {
    lastError = e;
    if (isAuthError(e)) refused = e;
    return "failed" as const;
  });
  clearTimeout(timer);
  if (onAbort !== undefined) signal?.removeEventListener("abort", onAbort);
  if (outcome !== "ok") {
    client.destroy();
    if (outcome === "aborted") throw signal?.reason ?? new Error("connecting to Redis was aborted");
    if (refused !== undefined && isAuthError(refused)) throw new QueueAuthError(parsed.url, refused);
    throw new QueueUnreachableError(redactUrl(parsed.url), timeoutMs, lastError);
  }
  connected = true;
  return client;
}

/** Whether Redis refused the credentials (or their rights): a wrong password, none, or a user without rights. */
function isAuthError(error: unknown): boolean {
  return /NOAUTH|WRONGPASS|NOPERM|invalid password|invalid username-password/i.test(
    String((error as Error | undefined)?.message ?? error),
  );
}

/** @internal At most `ms` of waiting for a promise that may hang while Redis is away (its failure ignored). */
export const atMost = (promise: Promise<unknown>, ms: number): Promise<unknown> =>
  Promise.race([promise.catch(() => {}), new Promise((resolve) => setTimeout(resolve, ms).unref())]);

/**
 * @internal Build a BullMQ queue or worker on `client`; when BullMQ refuses the options (a plain Error), close
 * the client (or the process would never exit) and throw a typed error. @throws InvalidValueError
 */
export async function refusedOptions<T>(client: RedisClient, build: () => T): Promise<T> {
  try {
    return build();
  } catch (error) {
    await closeRedis(client);
    if (error instanceof NpovError) throw error;
    throw new InvalidValueError("options", `BullMQ refused them: ${(error as Error).message}`);
  }
}

/** Close a client: politely when Redis answers, at once when it does not. */
export async function closeRedis(client: RedisClient): Promise<void> {
  try {
    if (!client.isReady) throw new Error("not connected");
    const closing = client.close !== undefined ? client.close() : client.quit?.();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error("timeout")), 1000);
    });
    try {
      await Promise.race([closing, timeout]);
    } finally {
      clearTimeout(timer);
    }
  } catch {
    try {
      client.destroy();
    } catch {
      // already closed
    }
  }
}
