/**
 * npov as a promptfoo assertion. promptfoo's `javascript` assertions load a file that exports a function
 * `(output, context) => boolean | number | GradingResult`; the assertion's `config` arrives as
 * `context.config` and the test's variables as `context.vars`. {@link npovAssertion} is such a function:
 *
 * ```yaml
 * assert:
 *   - type: javascript
 *     value: file://npov-assert.mjs      # export { npovAssertion as default } from "@npov/promptfoo";
 *     config: { method: support, thresholds: { hallucination: 0.6, coverage: 0.6 } }
 * ```
 *
 * It scores the output with any npov detector method (or a stored guard, cascades included) against the
 * test's NPOV input (`vars.input`) or sources (`vars.sources`, `vars.query`), passes when no checked error
 * type reaches its threshold, and names the evidence in the reason: the unsupported sentences, the uncovered
 * arguments. A guard that cannot score the output fails the assertion with its reason (fail closed).
 */
import {
  BUILTIN_DETECTOR_METHODS,
  createDetector,
  createGuard,
  type DetectorMethods,
  type DetectorSpec,
  type Guard,
  type GuardVerdict,
  loadGuard,
} from "@npov/classifier";
import {
  type CheckInput,
  describe,
  InvalidValueError,
  isSourcesInput,
  sourceLabel,
  validateCheckInput,
} from "@npov/core";
import { ENDPOINT_DETECTOR_METHODS } from "@npov/llm";

/** The error types an assertion can check. */
export type NpovErrorType = "hallucination" | "coverage";
const TYPES: readonly NpovErrorType[] = ["hallucination", "coverage"];

/** The assertion's `config` in a promptfoo test. */
export interface NpovAssertionConfig {
  /** A detector method, e.g. "support", "align", "rouge", "endpoint-classifier" (shorthand for `detector: {method}`). */
  method?: string;
  /** A full detector spec (the `detector` object of a guard config), e.g. with `endpoint` and `model`. */
  detector?: DetectorSpec;
  /** A guard config file (npov calibrate-guard; either format), instead of a method and thresholds. */
  guard?: string;
  /** Fail when an error type's score is at or above its threshold (with `method`/`detector`; calibrate them on labelled data). */
  thresholds?: Partial<Record<NpovErrorType, number>>;
  /** Which error types decide pass or fail (default: both; with `method`, those with a threshold). */
  checks?: NpovErrorType[];
  /** The test variable holding the NPOV input or a sources input (default "input"). */
  inputVar?: string;
  /** The test variable holding the sources (default "sources"): a text, or a list of texts or {id?, title?, text}. */
  sourcesVar?: string;
  /** The test variable holding the user query of a sources input (default "query"). */
  queryVar?: string;
  /** Evidence items named in the reason per error type (default 3). */
  maxEvidence?: number;
}

/** What promptfoo passes as the second argument of a javascript assertion (the fields npov reads). */
export interface AssertionContext {
  vars?: Record<string, unknown>;
  config?: NpovAssertionConfig;
  prompt?: string;
}

/** promptfoo's grading result. */
export interface GradingResult {
  pass: boolean;
  /** 1 - the highest checked error score (higher is better, as promptfoo scores are). */
  score: number;
  reason: string;
  /** The error scores, averaged per prompt in promptfoo's summary. */
  namedScores?: Record<string, number>;
  /** One result per checked error type. */
  componentResults?: GradingResult[];
}

/** Detector methods the assertion can name: npov's built-in ones and the endpoint methods. */
export const ASSERTION_METHODS: DetectorMethods = { ...BUILTIN_DETECTOR_METHODS, ...ENDPOINT_DETECTOR_METHODS };

// Guards by configuration: promptfoo calls the assertion once per test, and detectors load data once.
const guards = new Map<string, Promise<Guard>>();

function checkConfig(
  value: unknown,
): Required<Pick<NpovAssertionConfig, "inputVar" | "sourcesVar" | "queryVar">> &
  NpovAssertionConfig & { checks: NpovErrorType[]; maxEvidence: number } {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new InvalidValueError(
      "config",
      "give the npov assertion a config: {method, thresholds} or {guard} (see @npov/promptfoo).",
    );
  const c = value as NpovAssertionConfig;
  const ways = [c.method, c.detector, c.guard].filter((x) => x !== undefined).length;
  if (ways !== 1)
    throw new InvalidValueError(
      "config",
      "name exactly one of method (e.g. support), detector ({method, ...}) or guard (a guard config file).",
    );
  if (c.method !== undefined && typeof c.method !== "string")
    throw new InvalidValueError("config.method", `must be a method name, got ${describe(c.method)}.`);
  if (c.guard !== undefined && typeof c.guard !== "string")
    throw new InvalidValueError("config.guard", `must be a file path, got ${describe(c.guard)}.`);
  if (c.detector !== undefined && typeof c.detector?.method !== "string")
    throw new InvalidValueError("config.detector.method", 'is missing: name a detector method, e.g. "support".');
  if (c.thresholds !== undefined && (typeof c.thresholds !== "object" || c.thresholds === null))
    throw new InvalidValueError("config.thresholds", "must be {hallucination?, coverage?} (numbers).");
  for (const t of TYPES) {
    const v = c.thresholds?.[t];
    if (v !== undefined && (typeof v !== "number" || !Number.isFinite(v)))
      throw new InvalidValueError(`config.thresholds.${t}`, `must be a finite number, got ${describe(v)}.`);
  }
  const withThreshold = TYPES.filter((t) => c.thresholds?.[t] !== undefined);
  const checks = c.checks ?? (c.guard === undefined ? withThreshold : [...TYPES]);
  if (!Array.isArray(checks) || checks.length === 0 || checks.some((t) => !TYPES.includes(t)))
    throw new InvalidValueError(
      "config.checks",
      `must list "hallucination" and/or "coverage"${c.guard === undefined ? ", each with a threshold in config.thresholds" : ""}, got ${describe(checks)}.`,
    );
  if (c.guard === undefined) {
    for (const t of checks)
      if (c.thresholds?.[t] === undefined)
        throw new InvalidValueError(
          `config.thresholds.${t}`,
          "is missing: give a threshold for each checked error type (calibrate it with npov calibrate-guard), or a guard file.",
        );
  } else if (c.thresholds !== undefined)
    throw new InvalidValueError(
      "config.thresholds",
      "comes from the guard file; drop it, or use method instead of guard.",
    );
  const maxEvidence = c.maxEvidence ?? 3;
  if (!Number.isInteger(maxEvidence) || maxEvidence < 0 || maxEvidence > 100)
    throw new InvalidValueError(
      "config.maxEvidence",
      `must be a whole number from 0 to 100, got ${describe(maxEvidence)}.`,
    );
  for (const key of ["inputVar", "sourcesVar", "queryVar"] as const)
    if (c[key] !== undefined && typeof c[key] !== "string")
      throw new InvalidValueError(`config.${key}`, `must be a variable name, got ${describe(c[key])}.`);
  return {
    ...c,
    checks: [...new Set(checks)],
    maxEvidence,
    inputVar: c.inputVar ?? "input",
    sourcesVar: c.sourcesVar ?? "sources",
    queryVar: c.queryVar ?? "query",
  };
}

/** A variable's value, parsed when it is JSON text (promptfoo vars from CSV files or `file://` are text). */
function parsed(value: unknown, path: string): unknown {
  if (typeof value !== "string") return value;
  const text = value.trim();
  if (!text.startsWith("{") && !text.startsWith("[")) return value;
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new InvalidValueError(path, `looks like JSON but does not parse: ${(e as Error).message}.`);
  }
}

/** The test's input: `vars[inputVar]`, else a sources input from `vars[sourcesVar]` and `vars[queryVar]`. */
function inputOf(vars: Record<string, unknown>, c: ReturnType<typeof checkConfig>): CheckInput {
  const given = vars[c.inputVar];
  if (given !== undefined) return validateCheckInput(parsed(given, `vars.${c.inputVar}`), `vars.${c.inputVar}`);
  const sources = vars[c.sourcesVar];
  if (sources !== undefined) {
    const list = parsed(sources, `vars.${c.sourcesVar}`);
    const docs = (Array.isArray(list) ? list : [list]).map((s) => (typeof s === "string" ? { text: s } : s));
    const query = vars[c.queryVar];
    return validateCheckInput({ ...(query === undefined ? {} : { query }), sources: docs }, `vars.${c.sourcesVar}`);
  }
  throw new InvalidValueError(
    `vars.${c.inputVar}`,
    `is missing: give the test an NPOV input (vars.${c.inputVar}: {topic, query, perspectives}) or sources (vars.${c.sourcesVar}, and vars.${c.queryVar}).`,
  );
}

function guardOf(c: ReturnType<typeof checkConfig>): Promise<Guard> {
  const key = JSON.stringify({
    guard: c.guard,
    method: c.method,
    detector: c.detector,
    thresholds: c.thresholds,
    checks: c.checks,
    cwd: process.cwd(),
  });
  let guard = guards.get(key);
  if (guard === undefined) {
    guard =
      c.guard !== undefined
        ? loadGuard(c.guard, { methods: ASSERTION_METHODS, maxEvidence: c.maxEvidence })
        : createDetector(c.detector ?? { method: c.method as string }, ASSERTION_METHODS).then((detector) =>
            createGuard({
              detector,
              // An unchecked type gets a threshold no score reaches: it never fails the test.
              thresholds: {
                hallucination: c.checks.includes("hallucination") ? (c.thresholds?.hallucination as number) : 2,
                coverage: c.checks.includes("coverage") ? (c.thresholds?.coverage as number) : 2,
              },
              maxEvidence: c.maxEvidence,
            }),
          );
    // A failed load is not cached: the next test tries again (and reports the same error).
    guard.catch(() => guards.delete(key));
    guards.set(key, guard);
  }
  return guard;
}

const quote = (s: string) => `"${s.replace(/\s+/g, " ").trim()}"`;

/** One error type's result, with its evidence. */
function typeResult(
  verdict: Exclude<GuardVerdict, { error: true }>,
  t: NpovErrorType,
  max: number,
  input: CheckInput,
): GradingResult {
  const sources = isSourcesInput(input) ? input.sources : undefined;
  const part = verdict[t];
  const relation = part.flagged ? ">=" : "<";
  let evidence = "";
  if (part.flagged && max > 0) {
    if (t === "hallucination") {
      const { sentences, words: spans } = verdict.hallucination.evidence;
      const items = sentences.slice(0, max).map((s) => quote(s.text));
      const words = spans.slice(0, max).map((w) => quote(w.text));
      evidence =
        items.length > 0
          ? `; unsupported: ${items.join("; ")}`
          : words.length > 0
            ? `; unsupported words: ${words.join(", ")}`
            : "";
    } else {
      const items = verdict.coverage.evidence.uncoveredArguments.slice(0, max).map((a) => {
        // For a sources input each source is one group ("perspective") of units, in order.
        const index = a.origin?.source ?? a.perspective;
        const source = sources?.[index];
        return `${quote(a.text)}${source === undefined ? "" : ` (${sourceLabel(source, index)})`}`;
      });
      if (items.length > 0)
        evidence = `; not covered${sources === undefined ? "" : " (from the sources)"}: ${items.join("; ")}`;
    }
  }
  return {
    pass: !part.flagged,
    score: 1 - part.score,
    reason: `${t} ${part.score.toFixed(3)} ${relation} ${part.threshold.toFixed(3)}${evidence}`,
    namedScores: { [`npov ${t}`]: part.score },
  };
}

/**
 * The promptfoo assertion (see the module comment). Throws (promptfoo then fails the assertion with the
 * message as its reason) for a bad config or test input; an output npov cannot score fails with the reason.
 */
export async function npovAssertion(output: unknown, context: AssertionContext = {}): Promise<GradingResult> {
  const c = checkConfig(context.config);
  const input = inputOf(context.vars ?? {}, c);
  if (typeof output !== "string")
    return {
      pass: false,
      score: 0,
      reason: `npov checks text, but the output is ${describe(output)}: return text from the provider (or transform the output to text).`,
    };
  const guard = await guardOf(c);
  const verdict = await guard.check(input, output);
  const by = `npov ${verdict.detector}`;
  if (verdict.error)
    return {
      pass: false,
      score: 0,
      reason: `${by} could not score the output (${verdict.reason.code}: ${verdict.reason.message}); failing closed.`,
    };
  const parts = c.checks.map((t) => typeResult(verdict, t, c.maxEvidence, input));
  const pass = parts.every((p) => p.pass);
  const failing = parts.filter((p) => !p.pass);
  return {
    pass,
    score: Math.min(...parts.map((p) => p.score)),
    reason: `${by}: ${(pass ? parts : failing).map((p) => p.reason).join(" | ")}`,
    namedScores: Object.assign({}, ...parts.map((p) => p.namedScores)),
    componentResults: parts,
  };
}
