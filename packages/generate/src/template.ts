/**
 * The template writer of @npov/synth (`writeReferenceResponse`) as a {@link Generator}: the default
 * generator of `npov generate`, `npov serve` and the demo, because on these machines it is what writes
 * good NPOV text (it states every given argument once, under its perspective, and nothing else), while
 * the small model npov trains (models/npov-gen) does not (see its card). Not a language model: it cannot
 * answer beyond the given arguments, and it ignores `temperature`, `topP` and `instruction`.
 */
import { InvalidValueError, type NpovInput } from "@npov/core";
import { type ResponseStyle, writeReferenceResponse } from "@npov/synth";
import type { GeneratedResponse, GenerateOptions, Generator } from "./generator.js";

/** The `model` name the template writer reports (in responses, /health and server logs). */
export const TEMPLATE_GENERATOR_NAME = "npov-template-writer";

/** Options of {@link TemplateGenerator}. */
export interface TemplateGeneratorOptions {
  /**
   * "close" (default) states the arguments nearly word for word; "free" rewords a few words of each (the
   * reference writer's paraphrase style).
   */
  style?: ResponseStyle;
}

/** The template writer as a Generator; deterministic per `seed` (which picks openings and connectors). */
export class TemplateGenerator implements Generator {
  readonly model = TEMPLATE_GENERATOR_NAME;
  private readonly style: ResponseStyle;

  constructor(options: TemplateGeneratorOptions = {}) {
    const style = options.style ?? "close";
    if (style !== "close" && style !== "free")
      throw new InvalidValueError("style", `must be "close" or "free", got ${String(style)}.`);
    this.style = style;
  }

  /** Write the response; `raw` is the response itself (the writer has no prompt format to parse). */
  async generate(input: NpovInput, options: GenerateOptions = {}): Promise<GeneratedResponse> {
    if (options.signal?.aborted) throw options.signal.reason ?? new Error("aborted");
    const written = writeReferenceResponse(input, { seed: options.seed ?? 0, style: this.style });
    return {
      opening: written.opening,
      core: written.core,
      response: written.response,
      raw: written.response,
      model: this.model,
      finishReason: "stop",
    };
  }

  /** The response in word-sized deltas (each word with the whitespace before it); they concatenate to `raw`. */
  async *stream(input: NpovInput, options: GenerateOptions = {}): AsyncIterable<string> {
    const { raw } = await this.generate(input, options);
    for (const piece of raw.match(/\s*\S+/g) ?? []) yield piece;
  }
}
