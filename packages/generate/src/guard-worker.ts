/**
 * One worker thread of a {@link GuardPool}: loads its own guard with the pool's loader (a module export
 * called with the guard config -- functions cannot cross threads), says "ready", then answers checks one at
 * a time. Errors go back as `{code, message, path}` so the pool can rebuild a typed error.
 */
import { parentPort, workerData } from "node:worker_threads";
import type { Guard } from "@npov/classifier";
import { NpovError, type NpovInput } from "@npov/core";
import type { GuardWorkerData, SerializedError, WorkerReply, WorkerRequest, WorkerSetup } from "./guard-pool.js";

function serialize(error: unknown): SerializedError {
  if (error instanceof NpovError)
    return {
      code: error.code,
      message: error.message,
      name: error.name,
      ...(error.path === undefined ? {} : { path: error.path }),
    };
  const reason = error instanceof Error ? `${error.name}: ${error.message.split("\n")[0]}` : String(error);
  return { code: "GUARD_WORKER_FAILED", message: `the guard worker failed: ${reason}.`, name: "GuardWorkerError" };
}

async function load(data: GuardWorkerData): Promise<Guard> {
  const module = (await import(data.module)) as Record<string, unknown>;
  const loader = module[data.export];
  if (typeof loader !== "function")
    throw new NpovError(
      "INVALID_VALUE",
      `loader: ${data.module} has no function export "${data.export}" (it must take a guard config and return a guard).`,
    );
  const guard = (await loader(data.config)) as Partial<Guard> | undefined;
  if (typeof guard?.check !== "function")
    throw new NpovError("INVALID_VALUE", `loader: ${data.module}'s "${data.export}" did not return a guard.`);
  return guard as Guard;
}

/**
 * A first check on a fixed example: detectors load some data on first use (word vectors, lexicons), which
 * can take seconds. Done before "ready", so the first real check is not slow -- and not cut off by the
 * pool's timeout, which would end the worker and make the next one start cold again.
 */
const WARM_UP: { input: NpovInput; response: string } = {
  input: {
    topic: "school uniforms",
    query: "Should schools require uniforms?",
    perspectives: [
      { label: "pro", arguments: [{ text: "Uniforms reduce visible differences in family income." }] },
      { label: "con", arguments: [{ text: "Uniforms limit how students express their identity." }] },
    ],
  },
  response: "Opinions differ. Some say uniforms reduce visible differences in family income.",
};

const port = parentPort;
if (port === null) throw new Error("guard-worker.js runs as a worker thread of GuardPool.");
try {
  const guard = await load(workerData as GuardWorkerData);
  // Its verdict does not matter, nor does a failure: real checks report their own.
  await guard.check(WARM_UP.input, WARM_UP.response).catch(() => undefined);
  port.on("message", (request: WorkerRequest) => {
    guard.check(request.input, request.response).then(
      (verdict) => port.postMessage({ id: request.id, verdict } satisfies WorkerReply),
      (error: unknown) => port.postMessage({ id: request.id, error: serialize(error) } satisfies WorkerReply),
    );
  });
  port.postMessage({ ready: true } satisfies WorkerSetup);
} catch (error) {
  port.postMessage({ ready: false, error: serialize(error) } satisfies WorkerSetup);
}
