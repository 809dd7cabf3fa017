/**
 * The library API cases (library-cases.ts) as harness cases: each runs in a worker thread with a timeout;
 * a case that hangs is reported as a hang and its worker is replaced.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import type { Fixtures } from "./fixtures.js";
import type { Case } from "./harness.js";
import { ROOT } from "./harness.js";
import { type LibraryContext, libraryCaseTable } from "./library-cases.js";

interface Pending {
  resolve(got: string | undefined): void;
}

class CaseWorker {
  private worker: Worker | undefined;
  private ready: Promise<void> | undefined;
  private pending: Pending | undefined;

  constructor(private readonly ctx: LibraryContext) {}

  private start(): Promise<void> {
    // The worker is TypeScript too: a small bootstrap loads it through tsx's API, as this script is loaded.
    const api = import.meta.resolve("tsx/esm/api");
    const entry = new URL("./library-worker.ts", import.meta.url).href;
    const bootstrap = `import(${JSON.stringify(api)}).then((m) => m.tsImport(${JSON.stringify(entry)}, ${JSON.stringify(import.meta.url)}));`;
    const worker = new Worker(bootstrap, { eval: true, workerData: this.ctx });
    this.worker = worker;
    this.ready = new Promise((resolve, reject) => {
      worker.on("message", (m: { ready?: boolean; got?: string }) => {
        if (m.ready) return resolve();
        const p = this.pending;
        this.pending = undefined;
        p?.resolve(m.got);
      });
      worker.on("error", (e) => {
        const p = this.pending;
        this.pending = undefined;
        this.worker = undefined;
        reject(e);
        p?.resolve(`uncaught in the worker: ${e.constructor.name}: ${e.message}`);
      });
      worker.on("exit", (code) => {
        if (this.worker === worker) this.worker = undefined;
        reject(new Error(`the worker exited with code ${code}`));
        const p = this.pending;
        this.pending = undefined;
        p?.resolve(`the worker exited (code ${code}) during the case`);
      });
    });
    return this.ready;
  }

  async run(index: number, timeoutMs: number): Promise<string | undefined> {
    try {
      if (this.worker === undefined) await this.start();
      else await this.ready;
    } catch (e) {
      this.worker = undefined;
      return `harness: the library worker failed to start: ${(e as Error).message}`;
    }
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.pending = undefined;
        void this.worker?.terminate();
        this.worker = undefined;
        resolve(`hang: no answer within ${timeoutMs / 1000} s`);
      }, timeoutMs);
      this.pending = {
        resolve: (got) => {
          clearTimeout(timer);
          resolve(got);
        },
      };
      this.worker?.postMessage(index);
    });
  }

  async stop(): Promise<void> {
    await this.worker?.terminate();
    this.worker = undefined;
  }
}

let shared: CaseWorker | undefined;

/** Stop the library worker. */
export async function stopLibraryWorker(): Promise<void> {
  await shared?.stop();
  shared = undefined;
}

export function libraryCases(f: Fixtures): Case[] {
  const dir = join(f.dir, "library");
  mkdirSync(dir, { recursive: true });
  const ctx: LibraryContext = { dir, example: f.example as LibraryContext["example"], repo: ROOT };
  return libraryCaseTable().map((c, index) => ({
    category: "library API",
    area: c.area,
    name: c.name,
    expected: c.expected,
    run: async () => {
      shared ??= new CaseWorker(ctx);
      return shared.run(index, c.timeoutMs ?? 20_000);
    },
  }));
}
