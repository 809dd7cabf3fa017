/**
 * Reading YES/NO label probabilities from the log-probabilities an endpoint returns.
 *
 * The label rule (SPEC 2.3 for endpoints): take the **first answer token** -- the first generated token
 * whose text is not empty after normalization (so a leading space, newline, `{` or `**` is skipped; if every
 * token is empty, the first one) -- and its top-k alternatives. Normalize each alternative's text: drop
 * whitespace and tokenizer space markers (`▁`, `Ġ`, `Ċ`) and punctuation, brackets, quotes and `*` at both
 * ends, then uppercase. A token counts for a label when its normalized text is a non-empty prefix of that
 * label and not of the other one: "YES", " YES", "Yes", "yes", "YES}", "**Yes" and a tokenizer's lone "Y"
 * (when it splits "YES" as Y+ES) all count for YES; "NO}", " No", "no", "N" for NO; "Nope", "NOT", "None"
 * count for neither. P(NO) = (probability mass of the NO tokens) / (mass of the YES tokens + mass of the NO
 * tokens). A label absent from the top-k contributes no mass; both absent is a {@link LabelLogprobsError}
 * (never a silent 0.5).
 */
import { describe, InvalidValueError } from "@npov/core";
import { LabelLogprobsError } from "./errors.js";

/** The two answer labels (default YES / NO, the paper's Figure 4 targets without the brace). */
export interface Labels {
  yes: string;
  no: string;
}

export const DEFAULT_LABELS: Readonly<Labels> = Object.freeze({ yes: "YES", no: "NO" });

/** A candidate token and its log-probability. */
export interface TokenLogprob {
  token: string;
  logprob: number;
}

/** One generated position: the chosen token and its top-k alternatives. */
export interface TokenPosition {
  token: string;
  logprob: number | undefined;
  top: TokenLogprob[];
}

const EDGE = /^[\s\u2581\u0120\u010a"'`*_{}()[\]<>.,:;!?|\\/-]+|[\s\u2581\u0120\u010a"'`*_{}()[\]<>.,:;!?|\\/-]+$/gu;

/** A token's text with space markers, whitespace and edge punctuation removed, uppercased. */
export function normalizeLabelToken(token: string): string {
  return token.replace(EDGE, "").toUpperCase();
}

/**
 * Check a label pair: two strings, non-empty after {@link normalizeLabelToken}, neither a prefix of the other
 * (a token that starts both could never count for either).
 * @throws InvalidValueError naming the bad label
 */
export function checkLabels(value: unknown, path = "labels"): Labels {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new InvalidValueError(path, `must be an object {yes, no} of two label words, got ${describe(value)}.`);
  const labels = value as Partial<Labels>;
  for (const key of ["yes", "no"] as const) {
    const label = labels[key];
    if (typeof label !== "string" || normalizeLabelToken(label) === "")
      throw new InvalidValueError(
        `${path}.${key}`,
        `must be a word with letters or digits (e.g. ${DEFAULT_LABELS[key]}), got ${describe(label)}.`,
      );
  }
  const yes = normalizeLabelToken(labels.yes as string);
  const no = normalizeLabelToken(labels.no as string);
  if (yes.startsWith(no) || no.startsWith(yes))
    throw new InvalidValueError(
      path,
      `${JSON.stringify(labels.yes)} and ${JSON.stringify(labels.no)} read the same or one starts the other (case and punctuation aside): choose two labels that differ from their first letters on.`,
    );
  return labels as Labels;
}

/** Which label a token counts for under the label rule, if any. */
export function labelOf(token: string, labels: Labels = DEFAULT_LABELS): "yes" | "no" | undefined {
  const n = normalizeLabelToken(token);
  if (n === "") return undefined;
  const yes = normalizeLabelToken(labels.yes).startsWith(n);
  const no = normalizeLabelToken(labels.no).startsWith(n);
  if (yes === no) return undefined; // neither, or a prefix of both (ambiguous)
  return yes ? "yes" : "no";
}

/** What the label rule read from one position's top-k. */
export interface LabelProbability {
  /** P(NO) = noMass / (yesMass + noMass). */
  pNo: number;
  /** Summed probability of the YES tokens in the top-k. */
  yesMass: number;
  /** Summed probability of the NO tokens in the top-k. */
  noMass: number;
  /** The tokens that counted, as returned. */
  yesTokens: string[];
  noTokens: string[];
}

/** Apply the label rule to one position's top-k. @throws LabelLogprobsError when neither label is present */
export function labelProbability(top: readonly TokenLogprob[], labels: Labels = DEFAULT_LABELS): LabelProbability {
  checkLabels(labels);
  let yesMass = 0;
  let noMass = 0;
  const yesTokens: string[] = [];
  const noTokens: string[] = [];
  let invalid = 0;
  for (const { token, logprob } of top) {
    // A log-probability is <= 0; rounding may push a certain token a hair above. Anything larger is not one.
    if (typeof token !== "string" || typeof logprob !== "number" || !(logprob <= 1e-3)) {
      invalid++;
      continue;
    }
    const label = labelOf(token, labels);
    if (label === "yes") {
      yesMass += Math.exp(Math.min(0, logprob));
      yesTokens.push(token);
    } else if (label === "no") {
      noMass += Math.exp(Math.min(0, logprob));
      noTokens.push(token);
    }
  }
  if (yesMass + noMass === 0)
    throw new LabelLogprobsError(
      "NO_LABEL_LOGPROBS",
      `neither ${labels.yes} nor ${labels.no} is among the ${top.length} top tokens of the answer${invalid > 0 ? ` with a usable log-probability (${invalid} had no number <= 0 and were ignored)` : ""} (${top
        .slice(0, 5)
        .map((t) => JSON.stringify(t.token))
        .join(
          ", ",
        )}): raise topLogprobs, enable the sampling fallback (samples), or use a model that answers ${labels.yes}/${labels.no}.`,
    );
  return { pNo: noMass / (yesMass + noMass), yesMass, noMass, yesTokens, noTokens };
}

/** The position the label rule reads: the first whose chosen token is not empty after normalization. */
export function answerPosition(positions: readonly TokenPosition[]): TokenPosition | undefined {
  return positions.find((p) => normalizeLabelToken(p.token) !== "") ?? positions[0];
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => v !== null && typeof v === "object" && !Array.isArray(v);
const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
const str = (v: unknown): string => (typeof v === "string" ? v : "");
/** A probability as a log-probability (llama.cpp's post-sampling `prob` fields). */
const logOf = (p: unknown): number | undefined => {
  const x = num(p);
  return x === undefined ? undefined : x > 0 ? Math.log(x) : Number.NEGATIVE_INFINITY;
};

function topList(list: unknown): TokenLogprob[] {
  if (!Array.isArray(list)) return [];
  const out: TokenLogprob[] = [];
  for (const item of list) {
    if (!isObject(item)) continue;
    const token = str(item.token ?? item.tok_str);
    const logprob = num(item.logprob) ?? logOf(item.prob);
    if (logprob !== undefined) out.push({ token, logprob });
  }
  return out;
}

/**
 * Every generated position with its top-k, from any log-probability shape endpoints return:
 * OpenAI-style chat (`choices[0].logprobs.content`, also vLLM, LM Studio, llama.cpp and Ollama under /v1),
 * OpenAI-style completions (`choices[0].logprobs.{tokens, token_logprobs, top_logprobs}`), llama.cpp's
 * native `/completion` (`completion_probabilities` with `top_logprobs`, post-sampling `top_probs`, or the
 * legacy `probs`/`tok_str`), and Ollama's native `/api/generate` and `/api/chat` (top-level `logprobs`).
 * Undefined when the response carries no log-probabilities.
 */
export function tokenPositions(response: unknown): TokenPosition[] | undefined {
  if (!isObject(response)) return undefined;
  const choice = Array.isArray(response.choices) ? response.choices[0] : undefined;
  if (isObject(choice) && isObject(choice.logprobs)) {
    const lp = choice.logprobs;
    if (Array.isArray(lp.content))
      return lp.content.filter(isObject).map((c) => ({
        token: str(c.token),
        logprob: num(c.logprob),
        top: topList(c.top_logprobs),
      }));
    if (Array.isArray(lp.tokens)) {
      const tokens = lp.tokens as unknown[];
      const logprobs = Array.isArray(lp.token_logprobs) ? (lp.token_logprobs as unknown[]) : [];
      const tops = Array.isArray(lp.top_logprobs) ? (lp.top_logprobs as unknown[]) : [];
      return tokens.map((t, i) => {
        const dict = tops[i];
        const top: TokenLogprob[] = isObject(dict)
          ? Object.entries(dict).flatMap(([token, logprob]) => {
              const x = num(logprob);
              return x === undefined ? [] : [{ token, logprob: x }];
            })
          : [];
        return { token: str(t), logprob: num(logprobs[i]), top };
      });
    }
  }
  const native = response.completion_probabilities ?? response.logprobs;
  if (Array.isArray(native) && native.length > 0 && native.every(isObject))
    return (native as Json[]).map((p) => ({
      token: str(p.token ?? p.content ?? p.text),
      logprob: num(p.logprob) ?? logOf(p.prob),
      top: topList(p.top_logprobs ?? p.top_probs ?? p.probs),
    }));
  return undefined;
}

/**
 * The label rule on a whole response: its answer position's top-k -> P(NO).
 * @throws LabelLogprobsError `NO_LOGPROBS` when the response has no log-probabilities, `NO_LABEL_LOGPROBS`
 * when neither label is in the answer token's top-k
 */
export function labelProbabilityOf(response: unknown, labels: Labels = DEFAULT_LABELS): LabelProbability {
  const positions = tokenPositions(response);
  const position = positions === undefined ? undefined : answerPosition(positions);
  if (position === undefined)
    throw new LabelLogprobsError(
      "NO_LOGPROBS",
      "the endpoint returned no log-probabilities: it may not support them (enable the sampling fallback with samples > 0).",
    );
  return labelProbability(position.top, labels);
}

/**
 * The label of a sampled text answer: its first word (letters only), uppercased, must equal a label
 * exactly ("Yes." and "no, because" count; "Nope" and "Y" do not). Undefined when it is neither.
 */
export function labelOfText(text: string, labels: Labels = DEFAULT_LABELS): "yes" | "no" | undefined {
  checkLabels(labels);
  const word = /\p{L}+/u.exec(text)?.[0]?.toUpperCase();
  if (word === undefined) return undefined;
  if (word === normalizeLabelToken(labels.yes)) return "yes";
  if (word === normalizeLabelToken(labels.no)) return "no";
  return undefined;
}
