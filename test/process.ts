/**
 * Run a command to completion without blocking the test worker: a long run (an install, a calibration, the
 * promptfoo CLI) would otherwise stall vitest's RPC. Killed with SIGKILL after `timeout` ms.
 */
import { spawn } from "node:child_process";

/** What a finished command printed, and its exit status (null when a signal ended it). */
export interface ProcessResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Spawn `command` with `args` in `cwd` (environment `env`, default this process's); rejects if it cannot start. */
export function runProcess(
  command: string,
  args: readonly string[],
  options: { cwd: string; timeout: number; env?: NodeJS.ProcessEnv },
): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => {
      stdout += d;
    });
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeout);
    child.on("error", reject);
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}
