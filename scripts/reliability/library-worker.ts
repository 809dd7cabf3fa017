/**
 * Runs library cases in a worker thread, one at a time, so the main thread can stop a case that hangs
 * (worker.terminate() ends even a synchronous endless loop) and start a fresh worker for the rest.
 */
import { parentPort, workerData } from "node:worker_threads";
import { type LibraryContext, libraryCaseTable } from "./library-cases.js";

const table = libraryCaseTable();
const ctx = workerData as LibraryContext;
parentPort?.on("message", async (index: number) => {
  const c = table[index];
  let got: string | undefined;
  try {
    got = c === undefined ? `harness: no library case ${index}` : await c.body(ctx);
  } catch (e) {
    got = `harness: the case threw ${e instanceof Error ? `${e.constructor.name}: ${e.message}` : String(e)}`;
  }
  parentPort?.postMessage({ index, got });
});
parentPort?.postMessage({ ready: true });
