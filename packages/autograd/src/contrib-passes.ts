/** TEMPORARY identity passes until the contrib module lands (replaced by a re-export). */
import type { ModelProto } from "./proto.js";
export function decomposeContribOps(model: ModelProto): { model: ModelProto; report: Record<string, number> } {
  return { model, report: {} };
}
export function upgradeOpset(model: ModelProto, _version: number): ModelProto {
  return model;
}
