/** Run `npov` in the test's own process through `main`, capturing what it writes (no build of the bin needed). */
import { main } from "@npov/cli";
import { vi } from "vitest";

/** `npov args` in this process: its exit code and what it wrote on stdout and stderr. */
export async function runMain(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const stdout = vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
    out.push(String(chunk));
    return true;
  });
  const stderr = vi.spyOn(process.stderr, "write").mockImplementation((chunk) => {
    err.push(String(chunk));
    return true;
  });
  process.exitCode = undefined;
  try {
    const code = await main(args);
    return { code, stdout: out.join(""), stderr: err.join("") };
  } finally {
    stdout.mockRestore();
    stderr.mockRestore();
    process.exitCode = undefined;
  }
}
