/** Typed errors of the gradient engine. */
import { NpovError } from "@npov/core";

/** An op on the differentiable path has no gradient rule. */
export class UnsupportedOpError extends NpovError {
  readonly opType: string;
  readonly node: string;
  constructor(opType: string, node: string, detail = "") {
    super(
      "UNSUPPORTED_OP",
      `No gradient rule for ${opType} (node "${node}") on the differentiable path${detail ? `: ${detail}` : ""}. Cut the graph before it, or add a rule.`,
    );
    this.opType = opType;
    this.node = node;
  }
}

/** A graph that cannot be differentiated as asked (unknown tensor, unsupported opset, ...). */
export class GradientGraphError extends NpovError {
  constructor(message: string) {
    super("GRADIENT_GRAPH", message);
  }
}

/**
 * A model npov cannot use for a feature (salience, scoring, tuning): names the model folder, the files and
 * the cause (an op without a gradient rule, a graph onnxruntime rejects, ...), and how to see the rest.
 */
export class UnsupportedModelError extends NpovError {
  readonly dir: string;
  readonly files: readonly string[];
  override readonly cause: unknown;
  constructor(dir: string, files: readonly string[], cause: unknown) {
    const reason = onnxruntimeMessage(cause instanceof Error ? (cause.message.split("\n")[0] ?? "") : String(cause));
    const code = cause instanceof NpovError ? ` [${cause.code}]` : "";
    super(
      "UNSUPPORTED_MODEL",
      `npov cannot use ${files.join(" + ")} of ${dir}: ${reason}${code}. Run \`npov model inspect --model ${dir}\` to see which features each dtype supports.`,
    );
    this.dir = dir;
    this.files = files;
    this.cause = cause;
  }
}

/**
 * onnxruntime failed while running a model npov loaded (most often an input longer than the model's
 * positions). Names the model, the input size and, when config.json declares it, the position limit.
 */
export class ModelRunError extends NpovError {
  override readonly cause: unknown;
  constructor(dir: string, tokens: string, maxPositions: number | undefined, cause: unknown) {
    const reason = onnxruntimeMessage(cause);
    const limit =
      maxPositions === undefined
        ? ""
        : ` config.json declares ${maxPositions} positions: shorten the input if it is longer.`;
    super("MODEL_RUN", `running ${dir} on ${tokens} failed: ${reason}.${limit}`);
    this.cause = cause;
  }
}

/** The position limit a config.json declares, if any (max_position_embeddings, n_positions, n_ctx). */
export function maxPositions(config: Record<string, unknown>): number | undefined {
  for (const key of ["max_position_embeddings", "n_positions", "n_ctx"]) {
    const v = config[key];
    if (typeof v === "number" && Number.isInteger(v) && v > 0) return v;
  }
  return undefined;
}

/**
 * What is wrong with a model file: `empty` (zero bytes), `truncated` (the protobuf ends early), `not-onnx`
 * (random bytes or another format), `text` (a text file where a binary .onnx belongs), `no-graph` (an
 * ONNX message without a graph), `invalid-json`, `not-object` (JSON that is not an object), `missing-field`,
 * `wrong-type` (a field of the wrong type or range), `unreadable` (permissions, a folder), `rejected`
 * (onnxruntime or the tokenizer library refused the file; its message follows).
 */
export type ModelFileProblem =
  | "empty"
  | "truncated"
  | "not-onnx"
  | "text"
  | "no-graph"
  | "invalid-json"
  | "not-object"
  | "missing-field"
  | "wrong-type"
  | "unreadable"
  | "rejected";

/**
 * A file of a model folder (an .onnx graph, config.json, tokenizer.json, ...) that exists but cannot be
 * used: names the file, the kind of problem ({@link ModelFileProblem}) and the detail (onnxruntime's own
 * message when it refused the file), and says to replace the file.
 */
export class ModelFileError extends NpovError {
  readonly file: string;
  readonly problem: ModelFileProblem;
  constructor(file: string, problem: ModelFileProblem, detail: string, cause?: unknown) {
    super(
      "MODEL_FILE_INVALID",
      `${file} is not a usable model file (${problem}): ${detail}. Replace it with an intact copy (download or export the model again).`,
      cause === undefined ? {} : { cause },
    );
    this.file = file;
    this.problem = problem;
  }
}

/**
 * A hub model id whose files could not be downloaded (no network, DNS failure, a server error). Says how to
 * use a local copy instead.
 */
export class ModelDownloadError extends NpovError {
  readonly id: string;
  constructor(id: string, detail: string, cause?: unknown) {
    super(
      "MODEL_DOWNLOAD_FAILED",
      `Downloading model "${id}" failed: ${detail}. "${id}" was read as a model-hub id; to use a model on disk, give its folder as a path (e.g. ./models/my-model, with config.json, tokenizer.json and onnx/), or download the folder where there is network and copy it here.`,
      cause === undefined ? {} : { cause },
    );
    this.id = id;
  }
}

/** A tokenizer that produces ids the model's embedding table has no row for. */
export class VocabularyMismatchError extends NpovError {
  readonly tokenizerSize: number;
  readonly embeddingRows: number;
  constructor(dir: string, tokenizerSize: number, embeddingRows: number, where: string) {
    super(
      "VOCABULARY_MISMATCH",
      `The tokenizer of ${dir} has ids up to ${tokenizerSize - 1} but ${where} has ${embeddingRows} rows (ids 0..${embeddingRows - 1}): tokenizer.json does not belong to this model. Use the tokenizer.json exported with the model.`,
    );
    this.tokenizerSize = tokenizerSize;
    this.embeddingRows = embeddingRows;
  }
}

/** One word a model cannot represent: where it is, the word, and the characters that become unknown tokens. */
export interface UnrepresentableWord {
  /** Field path, e.g. `response` or `perspectives[0].arguments[1]`. */
  path: string;
  word: string;
  start: number;
  end: number;
  /** The characters of the word the tokenizer maps to its unknown token (the whole word when not separable). */
  characters: string[];
}

/**
 * Text a model cannot read: words (letters or digits) with characters its tokenizer maps to the unknown
 * token (no byte fallback). Scoring them would give every such word attribution 0 -- an error that is not
 * in the text -- so npov refuses instead. Lists the words and characters.
 */
export class UnrepresentableTextError extends NpovError {
  readonly words: readonly UnrepresentableWord[];
  constructor(model: string, words: readonly UnrepresentableWord[]) {
    const chars = [...new Set(words.flatMap((w) => w.characters))];
    const shown = words
      .slice(0, 10)
      .map((w) => `"${w.word}" (${w.path})`)
      .join(", ");
    const more = words.length > 10 ? ` and ${words.length - 10} more` : "";
    super(
      "UNREPRESENTABLE_TEXT",
      `${model} cannot represent ${words.length} word(s) of the text: ${shown}${more}; its tokenizer maps ${chars
        .slice(0, 20)
        .map((c) => JSON.stringify(c))
        .join(
          " ",
        )}${chars.length > 20 ? " ..." : ""} to its unknown token and has no byte fallback, so it would score them as unsupported. Use a model whose tokenizer covers this script (byte-level BPE or byte fallback), or a word-overlap method (align, support).`,
      { path: words[0]?.path ?? "" },
    );
    this.words = words;
  }
}

/**
 * onnxruntime's message of an error, without its source-location noise (`/onnxruntime_src/...cc:187
 * onnxruntime::Model::Model(...)`) and stack, on one line: what goes into a typed error's message.
 */
export function onnxruntimeMessage(error: unknown): string {
  const raw = error instanceof Error ? error.message : String(error);
  const line = raw
    .replace(/\/onnxruntime_src\/\S+:\d+ (?:[\w:~<>]+\([^)]*\)\s*)?/g, "")
    .replace(/\s+/g, " ")
    .trim();
  return line.length > 600 ? `${line.slice(0, 600)}...` : line;
}

/** How a model kind is named in messages. */
const KIND_NAMES: Record<string, string> = {
  causal: "causal language model",
  seq2seq: "encoder-decoder (seq2seq) language model",
  "sequence-classifier": "sequence classifier",
};

/**
 * A model of the wrong kind for a feature: e.g. a sequence classifier (an NLI cross-encoder) given to the
 * decoder salience or the YES/NO prompt classifier, which read a language model's next-token logits, or a
 * language model given to the encoder salience. Says what the model is and what to use instead.
 */
export class ModelKindError extends NpovError {
  readonly kind: string;
  readonly expected: readonly string[];
  constructor(dir: string, kind: string, expected: readonly string[], feature: string, instead: string) {
    const what = (k: string) => KIND_NAMES[k] ?? k;
    super(
      "WRONG_MODEL_KIND",
      `${dir} is a ${what(kind)}; ${feature} needs a ${expected.map(what).join(" or ")}. ${instead}`,
    );
    this.kind = kind;
    this.expected = expected;
  }
}

/**
 * A sequence classifier without the label a feature needs (e.g. no `entailment` in config.json's
 * `id2label`): lists the labels it has.
 */
export class LabelNotFoundError extends NpovError {
  readonly labels: readonly string[];
  constructor(dir: string, wanted: string, labels: readonly string[], hint: string) {
    super(
      "LABEL_NOT_FOUND",
      `${dir} has no ${wanted} label: config.json's id2label names ${labels.map((l) => JSON.stringify(l)).join(", ")}. ${hint}`,
    );
    this.labels = labels;
  }
}
