/** Paths inside the npov repository (fixtures, shipped models), resolved from this package's location. */
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

// This file lives in packages/core/src (tests) or packages/core/dist (built); both are three levels
// below the repository root.
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

/** A path relative to the repository root. */
export function repoPath(...parts: string[]): string {
  return join(ROOT, ...parts);
}

/** The embedded default knowledge base (`fixtures/kb`). */
export function fixturesKnowledgeBasePath(): string {
  return repoPath("fixtures", "kb");
}
