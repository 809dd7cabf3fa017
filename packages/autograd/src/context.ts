/**
 * How many tokens npov feeds a model, and tokenization that refuses early when a text exceeds it.
 *
 * The limit is the smaller of what the model declares -- config.json's `max_position_embeddings`,
 * `n_positions` or `n_ctx`, and tokenizer_config.json's `model_max_length` -- and a memory cap: the
 * attention scores of one forward pass (layers x heads x tokens^2, 8 bytes per entry for the scores and
 * their softmax) must fit in {@link ATTENTION_MEMORY_BUDGET}. Relative-position models such as T5 declare
 * no position limit; for them only `model_max_length` (512 for the shipped models) and the memory cap
 * apply. npov never truncates: a text over the limit is a typed `CONTEXT_TOO_LONG` error, because a cut
 * text would be scored as if it were whole.
 */
import type * as transformers from "@huggingface/transformers";
import { ContextTooLongError, InputTooLargeError, InvalidValueError } from "@npov/core";
import { maxPositions } from "./errors.js";

/** Bytes the attention scores of one forward pass may take; caps the tokens of models that declare no (or a huge) context. */
export const ATTENTION_MEMORY_BUDGET = 2 ** 31;

/** Layers and heads assumed when config.json does not say (a 12-layer, 12-head transformer). */
const DEFAULT_LAYERS = 12;
const DEFAULT_HEADS = 12;

/** The token limit of a model and where it comes from. */
export interface ModelContext {
  /** Most tokens npov feeds one sequence of the model (encoder and decoder sides each, for encoder-decoders). */
  tokens: number;
  /** Where the limit comes from, e.g. `config.json n_positions` or `memory cap (12 layers x 12 heads in 2 GiB)`. */
  source: string;
}

function positiveInteger(value: unknown): number | undefined {
  return typeof value === "number" && Number.isInteger(value) && value > 0 ? value : undefined;
}

/** The tokenizer's `model_max_length` when it is a real limit (Hugging Face writes 1e30 for "none"). */
function tokenizerMaxLength(tokenizer: transformers.PreTrainedTokenizer | undefined): number | undefined {
  const value = positiveInteger((tokenizer as { model_max_length?: unknown } | undefined)?.model_max_length);
  return value !== undefined && value < 10_000_000 ? value : undefined;
}

/** The attention-memory cap of a config (see the module comment). */
export function memoryCap(config: Record<string, unknown>): ModelContext {
  const firstOf = (keys: string[]) => keys.map((k) => positiveInteger(config[k])).find((v) => v !== undefined);
  const encoderLayers = firstOf(["num_layers", "n_layer", "num_hidden_layers", "encoder_layers"]);
  const decoderLayers = firstOf(["num_decoder_layers", "decoder_layers"]);
  const layers = (encoderLayers ?? DEFAULT_LAYERS) + (decoderLayers ?? 0);
  const heads = firstOf(["num_heads", "n_head", "num_attention_heads", "encoder_attention_heads"]) ?? DEFAULT_HEADS;
  const tokens = Math.floor(Math.sqrt(ATTENTION_MEMORY_BUDGET / (8 * layers * heads)));
  return {
    tokens,
    source: `memory cap (attention of ${layers} layers x ${heads} heads within ${ATTENTION_MEMORY_BUDGET / 2 ** 30} GiB)`,
  };
}

/**
 * The token limit of a model (see the module comment). `declared` replaces what config.json and the
 * tokenizer declare (for a model whose files understate what its graph reads, e.g. rotary or
 * position-free attention); the memory cap still applies.
 */
export function modelContext(
  config: Record<string, unknown>,
  tokenizer?: transformers.PreTrainedTokenizer,
  declared?: number,
): ModelContext {
  const candidates: ModelContext[] = [memoryCap(config)];
  if (declared !== undefined) {
    if (!Number.isInteger(declared) || declared < 1)
      throw new InvalidValueError("context", `must be a positive integer number of tokens, got ${declared}.`);
    candidates.push({ tokens: declared, source: "the context option" });
    return candidates.reduce((a, b) => (b.tokens < a.tokens ? b : a));
  }
  const positions = maxPositions(config);
  if (positions !== undefined) {
    const key = ["max_position_embeddings", "n_positions", "n_ctx"].find((k) => config[k] === positions);
    candidates.push({ tokens: positions, source: `config.json ${key}` });
  }
  const maxLength = tokenizerMaxLength(tokenizer);
  if (maxLength !== undefined) candidates.push({ tokens: maxLength, source: "tokenizer_config.json model_max_length" });
  return candidates.reduce((a, b) => (b.tokens < a.tokens ? b : a));
}

/** Characters per chunk when a long text is counted piecewise. */
const CHUNK_CHARS = 4096;
/** Texts up to this many characters are tokenized whole at once. */
const WHOLE_CHARS = 4 * CHUNK_CHARS;
/**
 * Most characters of one text a model method tokenizes whole: a text this long that still fits the
 * context in tokens is mostly whitespace, unknown characters or very long tokens (a legitimate 512-token
 * text has ~2,500 characters), and tokenizing it whole can overflow the stack (transformers.js spreads
 * per-word token lists). Such a text is refused with a typed INPUT_TOO_LARGE error.
 */
export const MAX_TEXT_CHARACTERS = 65_536;

/** Where to cut a chunk starting at `start`: after the last whitespace in its second half, never inside a surrogate pair. */
function chunkEnd(text: string, start: number): number {
  const hard = Math.min(text.length, start + CHUNK_CHARS);
  if (hard === text.length) return hard;
  for (let i = hard; i > start + CHUNK_CHARS / 2; i--) if (/\s/.test(text[i - 1] as string)) return i;
  const code = text.charCodeAt(hard);
  return code >= 0xdc00 && code <= 0xdfff ? hard - 1 : hard;
}

/**
 * The token ids of `text`, or -- when they would exceed `limit` -- their number (`exact: false`: a lower
 * bound, counting stopped early). Long texts are first counted chunk by chunk (cut at whitespace) and the
 * count stops once it is clearly over the limit, so a 1 MB text costs about a limit's worth of
 * tokenization, not the whole (tokenizers are slow, and some overflow the stack on a 400,000-character
 * word). `what` names the text in errors.
 * @throws InputTooLargeError when the text has more than {@link MAX_TEXT_CHARACTERS} characters but fits
 * the limit in tokens.
 */
export function encodeWithin(
  tokenizer: transformers.PreTrainedTokenizer,
  text: string,
  limit: number,
  addSpecialTokens: boolean,
  what = "text",
): { ids: number[] } | { atLeast: number; exact: boolean } {
  const encode = (s: string, special: boolean) => tokenizer.encode(s, { add_special_tokens: special }) as number[];
  if (text.length > WHOLE_CHARS) {
    // Chunk counts differ from the whole text's by a token or so per chunk boundary: stop only when
    // clearly over, and decide near the limit on the exact count below.
    const margin = 16 + Math.ceil(limit / 16);
    let counted = 0;
    for (let start = 0; start < text.length; ) {
      const end = chunkEnd(text, start);
      counted += encode(text.slice(start, end), false).length;
      if (counted > limit + margin) return { atLeast: counted, exact: false };
      start = end;
    }
    if (text.length > MAX_TEXT_CHARACTERS)
      throw new InputTooLargeError(
        what,
        text.length,
        MAX_TEXT_CHARACTERS,
        "characters",
        `It has about ${counted} tokens, so it is mostly whitespace, unknown characters or very long tokens: model methods read at most ${MAX_TEXT_CHARACTERS} characters of one text. Remove the filler.`,
      );
  }
  const ids = encode(text, addSpecialTokens);
  return ids.length > limit ? { atLeast: ids.length, exact: true } : { ids };
}

/**
 * {@link encodeWithin} that throws: the token ids of `text`, at most `limit - reserved` of them
 * (`reserved`: tokens the same sequence spends on other parts, such as a soft prompt or a prompt before a
 * response; default 0).
 * @throws ContextTooLongError naming `model`, `what` was tokenized, the sequence's token count (a lower
 * bound when counting stopped early), the limit and its source; InputTooLargeError (see {@link encodeWithin}).
 */
export function encodeForContext(
  tokenizer: transformers.PreTrainedTokenizer,
  text: string,
  options: {
    limit: number;
    reserved?: number;
    addSpecialTokens: boolean;
    model: string;
    what: string;
    source: string;
  },
): number[] {
  const reserved = options.reserved ?? 0;
  const r = encodeWithin(
    tokenizer,
    text,
    Math.max(0, options.limit - reserved),
    options.addSpecialTokens,
    options.what,
  );
  if ("ids" in r) return r.ids;
  const besides = reserved > 0 ? ` besides ${reserved} for the rest of the sequence` : "";
  throw new ContextTooLongError(
    options.model,
    reserved + r.atLeast,
    options.limit,
    `${options.what} has ${r.exact ? "" : "at least "}${r.atLeast} tokens${besides} (the limit comes from ${options.source}); shorten it -- npov does not truncate, since a cut text would be scored as if it were whole`,
  );
}
