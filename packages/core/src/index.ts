/**
 * @npov/core: types, the knowledge base, prompt formats, text processing and typed errors shared by
 * every npov package.
 * @packageDocumentation
 */

export * from "./auc.js";
export * from "./dataset.js";
export * from "./detector.js";
export * from "./errors.js";
export * from "./io.js";
export * from "./kb.js";
export * from "./logistic.js";
export * from "./outputs.js";
export * from "./paths.js";
export * from "./perspectrum.js";
export * from "./prompts.js";
export * from "./rng.js";
export * from "./sample.js";
export * from "./sources.js";
export * from "./stopwords.js";
export * from "./text.js";
export type * from "./types.js";
export { SPLITS } from "./types.js";
export * from "./units.js";
export * from "./validate.js";
export * from "./values.js";

import { type KnowledgeBase, loadKnowledgeBase } from "./kb.js";
import { fixturesKnowledgeBasePath } from "./paths.js";
import { importPerspectrum } from "./perspectrum.js";

/**
 * Open a knowledge base by name or path: `"fixtures"` (the embedded default, `fixtures/kb`),
 * `"perspectrum"` (imported at run time from `../shared/data/perspectrum` or `$NPOV_PERSPECTRUM_DIR`),
 * or a path to a `.jsonl` file or folder.
 */
export function openKnowledgeBase(spec = "fixtures"): KnowledgeBase {
  if (spec === "fixtures") return loadKnowledgeBase(fixturesKnowledgeBasePath());
  if (spec === "perspectrum") return importPerspectrum();
  return loadKnowledgeBase(spec);
}
