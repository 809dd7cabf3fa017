/** The Generator interface: NPOV input in, a parsed neutral response out. */
import type { NpovInput } from "@npov/core";

export interface GenerateOptions {
  /** 0 (default) = greedy; > 0 samples. */
  temperature?: number;
  /** Nucleus sampling mass (default 1). */
  topP?: number;
  /** Seed of sampling (default 0). */
  seed?: number;
  /** Token budget of the response (default 256). */
  maxNewTokens?: number;
  /**
   * An extra instruction (the guard loop names missing or extra arguments). Instruction-following
   * generators add it to their prompt; the local Figure 3 model has no place for it and ignores it.
   */
  instruction?: string;
  signal?: AbortSignal;
}

export interface GeneratedResponse {
  opening: string;
  core: string;
  /** `opening + " " + core`. */
  response: string;
  /** The generator's raw text. */
  raw: string;
  model: string;
  finishReason: "stop" | "length";
}

export interface Generator {
  readonly model: string;
  generate(input: NpovInput, options?: GenerateOptions): Promise<GeneratedResponse>;
  /** Text deltas as they are produced; the concatenation equals `raw` of `generate`. */
  stream(input: NpovInput, options?: GenerateOptions): AsyncIterable<string>;
}
