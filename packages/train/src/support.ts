/**
 * Training the `support` detector's learned parts (models/npov-support): the specificity table and the
 * combiner -- a sentence model (is this sentence a claim nothing given supports?) and example models over
 * scale-free features (hallucination per input kind, coverage) -- on seeded synthetic data of every response
 * shape plus hand-labelled tune examples. Two stages: sentence models first, then example models that read
 * their largest outputs. Every weight is fitted non-negative on features oriented "higher = worse" (the
 * sentence model's inputs excepted: its output enters through a maximum, which no added sentence lowers).
 */
import {
  type CheckInput,
  createRng,
  InvalidValueError,
  type KnowledgeBase,
  type LogisticModel,
  type NpovExample,
  requireNumber,
  rocAuc,
  type Span,
} from "@npov/core";
import {
  blendedHallucination,
  blendLogit,
  buildSpecificityTable,
  COVERAGE_FEATURES,
  calibrationReport,
  fitLogistic,
  HALLUCINATION_FEATURES,
  predictLogistic,
  SENTENCE_FEATURES,
  SOURCES_HALLUCINATION_FEATURES,
  type SpecificityTable,
  STATING_FEATURES,
  type SupportCombiner,
  type SupportResult,
  supportFeatures,
  supportResponse,
} from "@npov/rouge";
import { buildChatbotDataset, buildDataset } from "@npov/synth";

/** Options of {@link trainSupport}. */
export interface SupportTrainingOptions {
  /** Knowledge base: its train topics give the synthetic data, train and dev topics the specificity table. */
  kb: KnowledgeBase;
  seed?: number;
  /** Chatbot-style NPOV inputs per train topic (default 1). */
  perTopic?: number;
  /** Template-style NPOV inputs per train topic for the coverage model (default 1). */
  templatePerTopic?: number;
  /** More synthetic examples of other shapes (e.g. @npov/synth's shape datasets on train topics). */
  extra?: readonly NpovExample<CheckInput>[];
  /** Hand-labelled NPOV examples (the chatbot-dev tune part); grouped by `topicId` for cross-validation. */
  tune?: readonly NpovExample[];
  /** Total weight of the tune examples relative to the synthetic NPOV ones (default 8). */
  tuneWeight?: number;
  /**
   * The same for the unsupported-claim sentence model (default 0: it learns from the span-labelled synthetic
   * shapes only). Weighted like the example models, the hand-written part's framing sentences -- unsupported
   * words that claim nothing -- taught it that a short claim is framing, and an invented clause such as
   * README's "and that uniforms improve school safety" scored 0.02; the example models still learn from it.
   */
  sentenceTuneWeight?: number;
  /**
   * Weight of the sentence model's largest probability in the hallucination score (default 0.5: an even blend
   * with the example model, then recalibrated; 0: the example model alone). See @npov/rouge's HallucinationBlend.
   */
  sentenceShare?: number;
  /** L2 penalty of every fit (default 1). */
  l2?: number;
  /** Topic-grouped cross-validation folds over the tune part (default 5; 0: none). */
  folds?: number;
  /** Feature sets of the models (defaults: @npov/rouge's HALLUCINATION_FEATURES, ...), for experiments. */
  features?: {
    sentence?: readonly string[];
    hallucination?: readonly string[];
    coverage?: readonly string[];
    sourcesHallucination?: readonly string[];
  };
  /** Progress of the feature computation (examples done, total). */
  onProgress?: (done: number, total: number) => void;
}

/** What {@link trainSupport} made and measured. */
export interface SupportTraining {
  specificity: SpecificityTable;
  combiner: SupportCombiner;
  /** Example counts by part. */
  counts: { chatbot: number; template: number; extra: number; tune: number; sources: number };
  /** Out-of-fold ROC AUC on the tune part (sentence models, example models and blend refitted per fold), when folds > 0. */
  crossValidation?: { folds: number; hallucination?: number; coverage?: number };
  /** Calibration on the training data, per model and part. */
  calibration: Record<string, { n: number; brier: number; ece: number; bins: number[][] }>;
}

type Part = "chatbot" | "template" | "extra" | "tune";

interface Row {
  example: NpovExample<CheckInput>;
  part: Part;
  result: SupportResult;
  /** Per sentence, then per clause of each sentence in turn: whether it overlaps a hallucinated span. */
  sentenceLabels: boolean[];
  /** The sentences and their clauses, in the order of `sentenceLabels`. */
  units: Array<{ features: Record<string, number> }>;
  /** Per sentence: whether it overlaps the span of a given argument (argumentSpans). */
  statingLabels: boolean[];
  perspectives: number;
}

const overlaps = (s: { start: number; end: number }, spans: readonly Span[]) =>
  spans.some((x) => x.start < s.end && s.start < x.end);

const round = (x: number) => Math.round(x * 1e4) / 1e4;

/** The sentence models of one fit. */
interface SentenceModels {
  sentence: LogisticModel | undefined;
  stating: LogisticModel | undefined;
}

/** Example features with the sentence models' outputs filled in (as supportResponse computes them). */
function exampleFeatures(row: Row, models: SentenceModels): Record<string, number> {
  const model = models.sentence;
  const sentences = row.result.sentences.map((s) => ({
    ...s,
    ...(model === undefined
      ? {}
      : { probability: Math.max(...[s, ...(s.clauses ?? [])].map((x) => predictLogistic(model, x.features))) }),
    ...(models.stating === undefined || row.result.kind !== "npov"
      ? {}
      : { stating: predictLogistic(models.stating, s.features) }),
  }));
  return supportFeatures(sentences, row.result.arguments, row.perspectives, {
    kind: row.result.kind,
    exactPrecision: 1 - (row.result.features["support.exactImprecision"] as number),
  });
}

/**
 * Train the specificity table and the combiner (see the module comment). Deterministic: the same options give
 * bit-identical models.
 * @throws InvalidValueError for bad options or training data without both outcomes
 */
export function trainSupport(options: SupportTrainingOptions): SupportTraining {
  const seed = options.seed ?? 0;
  requireNumber(seed, "options.seed", { integer: true });
  const l2 = requireNumber(options.l2 ?? 1, "options.l2", { min: 0 });
  const tuneWeight = requireNumber(options.tuneWeight ?? 8, "options.tuneWeight", { min: 0 });
  const sentenceShare = requireNumber(options.sentenceShare ?? 0.5, "options.sentenceShare", { min: 0, max: 1 });
  const sentenceTuneWeight = requireNumber(options.sentenceTuneWeight ?? 0, "options.sentenceTuneWeight", { min: 0 });
  const folds = requireNumber(options.folds ?? 5, "options.folds", { min: 0, max: 100, integer: true });
  if (folds === 1) throw new InvalidValueError("options.folds", "must be 0 (no cross-validation) or at least 2.");
  const kb = options.kb;
  // Specificity from train and dev topics only: test topics stay unseen.
  const specificity = buildSpecificityTable([...kb.split("train"), ...kb.split("dev")]);
  const chatbot = buildChatbotDataset(kb.split("train"), { seed, perTopic: options.perTopic ?? 1 });
  const templatePerTopic = options.templatePerTopic ?? 1;
  const template = templatePerTopic > 0 ? buildDataset(kb, { split: "train", seed, perTopic: templatePerTopic }) : [];
  const parts: Array<[Part, readonly NpovExample<CheckInput>[]]> = [
    ["chatbot", chatbot],
    ["template", template],
    ["extra", options.extra ?? []],
    ["tune", options.tune ?? []],
  ];
  const total = parts.reduce((n, [, xs]) => n + xs.length, 0);
  const rows: Row[] = [];
  for (const [part, examples] of parts)
    for (const example of examples) {
      const result = supportResponse(example.input, example.response, { specificity, combiner: null });
      const spans = example.wordLabels?.hallucinatedSpans ?? [];
      const argumentSpans = example.argumentSpans ?? [];
      rows.push({
        example,
        part,
        result,
        sentenceLabels: result.sentences.flatMap((s) => [s, ...(s.clauses ?? [])].map((x) => overlaps(x, spans))),
        units: result.sentences.flatMap((s) => [s, ...(s.clauses ?? [])]),
        statingLabels: result.sentences.map((s) => overlaps(s, argumentSpans)),
        perspectives: result.arguments.reduce((k, a) => Math.max(k, a.perspective + 1), 0),
      });
      options.onProgress?.(rows.length, total);
    }
  const isSources = (r: Row) => r.result.kind === "sources";
  // Tune rows together weigh tuneWeight x the synthetic rows of the same fit.
  const weightsOf = (members: readonly Row[], unit: (r: Row) => number = () => 1, weight = tuneWeight) => {
    const synthetic = members.filter((r) => r.part !== "tune").reduce((n, r) => n + unit(r), 0);
    const tune = members.filter((r) => r.part === "tune").reduce((n, r) => n + unit(r), 0);
    return members.map((r) => (r.part === "tune" ? (weight * synthetic) / Math.max(1, tune) : 1));
  };

  /**
   * A sentence model over the sentences of `members`: the unsupported-claim model over examples whose spans
   * are known (clean ones, and errors that carry their hallucinated spans), or the stating model over
   * examples with argument spans.
   */
  const fitSentence = (
    members: readonly Row[],
    target: "unsupported" | "stating" = "unsupported",
  ): LogisticModel | undefined => {
    const labelled = members.filter((r) =>
      target === "stating"
        ? (r.example.argumentSpans?.length ?? 0) > 0
        : r.example.labels?.hallucination === false || (r.example.wordLabels?.hallucinatedSpans?.length ?? 0) > 0,
    );
    // The unsupported-claim model learns from sentences and their clauses (it reads both at detection time).
    const unitsOf = (r: Row) => (target === "stating" ? r.result.sentences : r.units);
    const sentenceRows = labelled.flatMap((r) => unitsOf(r).map((s) => s.features));
    const labels = labelled.flatMap((r) => (target === "stating" ? r.statingLabels : r.sentenceLabels));
    if (!labels.includes(true) || !labels.includes(false)) return undefined;
    const perRow = weightsOf(
      labelled,
      (r) => unitsOf(r).length,
      target === "stating" ? tuneWeight : sentenceTuneWeight,
    );
    const weights = labelled.flatMap((r, i) => unitsOf(r).map(() => perRow[i] as number));
    const names = target === "stating" ? STATING_FEATURES : (options.features?.sentence ?? SENTENCE_FEATURES);
    return fitLogistic(sentenceRows, labels, names, { l2, seed, weights });
  };
  /** One example model of `type` over `names`, on `members` labelled for it. */
  const fitExample = (
    members: readonly Row[],
    type: "hallucination" | "coverage",
    names: readonly string[],
    sentence: SentenceModels,
  ) => {
    const labelled = members.filter((r) => r.example.labels?.[type] !== undefined);
    return fitLogistic(
      labelled.map((r) => exampleFeatures(r, sentence)),
      labelled.map((r) => r.example.labels?.[type] === true),
      names,
      { l2, seed, weights: weightsOf(labelled), nonNegative: true },
    );
  };
  // NPOV: hallucination from chatbot-style, other shapes and tune (template responses copy their arguments,
  // which teaches nothing about free wording); coverage from everything NPOV.
  const npovHallucinationRows = (xs: readonly Row[]) => xs.filter((r) => !isSources(r) && r.part !== "template");
  const npovCoverageRows = (xs: readonly Row[]) => xs.filter((r) => !isSources(r));
  const sourcesRows = rows.filter(isSources);
  /**
   * The blend's recalibration on `members` (HallucinationBlend): a one-input logistic fit of the labels on the
   * blend's logit, slope kept positive so the score stays monotone; undefined without a blend.
   */
  const fitBlend = (members: readonly Row[], model: LogisticModel, sentence: SentenceModels) => {
    if (sentenceShare === 0 || sentence.sentence === undefined) return undefined;
    const labelled = members.filter((r) => r.example.labels?.hallucination !== undefined);
    const z = labelled.map((r) => {
      const f = exampleFeatures(r, sentence);
      return { z: blendLogit(sentenceShare, predictLogistic(model, f), f["support.sentenceMax"] as number) };
    });
    const fit = fitLogistic(
      z,
      labelled.map((r) => r.example.labels?.hallucination === true),
      ["z"],
      { l2, seed, weights: weightsOf(labelled), nonNegative: true },
    );
    const slope = (fit.weights[0] as number) / (fit.std[0] as number);
    if (!(slope > 0))
      throw new InvalidValueError(
        "options.sentenceShare",
        "the blend does not rank the training data (its recalibration slope is 0); use 0 to train without a blend.",
      );
    return { scale: slope, bias: fit.bias - slope * (fit.mean[0] as number) };
  };
  const fitAll = (xs: readonly Row[]) => {
    const sentence: SentenceModels = {
      sentence: fitSentence(npovHallucinationRows(xs)),
      stating: fitSentence(npovHallucinationRows(xs), "stating"),
    };
    const hallucination = fitExample(
      npovHallucinationRows(xs),
      "hallucination",
      options.features?.hallucination ?? HALLUCINATION_FEATURES,
      sentence,
    );
    return {
      sentence,
      hallucination,
      blend: fitBlend(npovHallucinationRows(xs), hallucination, sentence),
      coverage: fitExample(npovCoverageRows(xs), "coverage", options.features?.coverage ?? COVERAGE_FEATURES, sentence),
    };
  };
  /** A hallucination probability as the combiner computes it: the example model, blended when there is a blend. */
  const hallucinationOf = (
    row: Row,
    model: LogisticModel,
    sentence: SentenceModels,
    blend: { scale: number; bias: number } | undefined,
  ) => {
    const f = exampleFeatures(row, sentence);
    const example = predictLogistic(model, f);
    return blend === undefined
      ? example
      : blendedHallucination({ sentenceShare, npov: blend }, example, f["support.sentenceMax"] as number);
  };
  const npov = fitAll(rows);
  const sourcesSentence: SentenceModels = {
    sentence: sourcesRows.length > 0 ? fitSentence(sourcesRows) : undefined,
    stating: undefined,
  };
  const sourcesHallucination =
    sourcesRows.some((r) => r.example.labels?.hallucination === true) &&
    sourcesRows.some((r) => r.example.labels?.hallucination === false)
      ? fitExample(
          sourcesRows,
          "hallucination",
          options.features?.sourcesHallucination ?? SOURCES_HALLUCINATION_FEATURES,
          sourcesSentence,
        )
      : undefined;

  // Cross-validation on the tune part: each fold of tune topics is scored by models (every stage) fitted on
  // the synthetic data and the other folds.
  let crossValidation: SupportTraining["crossValidation"];
  const tuneRows = rows.filter((r) => r.part === "tune");
  const topics = [...new Set(tuneRows.map((r) => r.example.topicId ?? r.example.id ?? ""))].sort();
  if (folds > 0 && topics.length >= folds) {
    // Sorted topics, shuffled by the seed (Fisher-Yates), dealt round-robin (as crossValidateLogistic does).
    const rng = createRng(seed);
    for (let i = topics.length - 1; i > 0; i--) {
      const j = Math.floor(rng.next() * (i + 1));
      [topics[i], topics[j]] = [topics[j] as string, topics[i] as string];
    }
    const topicFold = new Map(topics.map((t, i) => [t, i % folds]));
    const foldOf = new Map(tuneRows.map((r) => [r, topicFold.get(r.example.topicId ?? r.example.id ?? "") as number]));
    const scores: Record<"hallucination" | "coverage", Array<[number, boolean]>> = { hallucination: [], coverage: [] };
    for (let fold = 0; fold < folds; fold++) {
      const models = fitAll(rows.filter((r) => r.part !== "tune" || foldOf.get(r) !== fold));
      for (const r of tuneRows.filter((x) => foldOf.get(x) === fold))
        for (const type of ["hallucination", "coverage"] as const) {
          const label = r.example.labels?.[type];
          if (label !== undefined)
            scores[type].push([
              type === "hallucination"
                ? hallucinationOf(r, models.hallucination, models.sentence, models.blend)
                : predictLogistic(models.coverage, exampleFeatures(r, models.sentence)),
              label,
            ]);
        }
    }
    const auc = (xs: Array<[number, boolean]>) =>
      xs.some(([, l]) => l) && xs.some(([, l]) => !l)
        ? round(
            rocAuc(
              xs.map(([s]) => s),
              xs.map(([, l]) => l),
            ),
          )
        : undefined;
    const h = auc(scores.hallucination);
    const c = auc(scores.coverage);
    crossValidation = {
      folds,
      ...(h === undefined ? {} : { hallucination: h }),
      ...(c === undefined ? {} : { coverage: c }),
    };
  }

  // Calibration on the training data, synthetic and tune apart (held-out figures belong in docs/results.md).
  const calibration: SupportTraining["calibration"] = {};
  const calibrate = (
    key: string,
    members: readonly Row[],
    type: "hallucination" | "coverage",
    model: LogisticModel,
    sentence: SentenceModels,
    blend?: { scale: number; bias: number },
  ) => {
    const labelled = members.filter((r) => r.example.labels?.[type] !== undefined);
    if (labelled.length === 0) return;
    const report = calibrationReport(
      labelled.map((r) =>
        type === "hallucination"
          ? hallucinationOf(r, model, sentence, blend)
          : predictLogistic(model, exampleFeatures(r, sentence)),
      ),
      labelled.map((r) => r.example.labels?.[type] === true),
    );
    calibration[key] = {
      n: report.n,
      brier: round(report.brier),
      ece: round(report.ece),
      bins: report.bins
        .filter((b) => b.count > 0)
        .map((b) => [b.lower, b.count, round(b.predicted), round(b.observed)]),
    };
  };
  const npovH = npovHallucinationRows(rows);
  const npovC = npovCoverageRows(rows);
  calibrate(
    "hallucination.synthetic",
    npovH.filter((r) => r.part !== "tune"),
    "hallucination",
    npov.hallucination,
    npov.sentence,
    npov.blend,
  );
  calibrate(
    "hallucination.tune",
    npovH.filter((r) => r.part === "tune"),
    "hallucination",
    npov.hallucination,
    npov.sentence,
    npov.blend,
  );
  calibrate(
    "coverage.synthetic",
    npovC.filter((r) => r.part !== "tune"),
    "coverage",
    npov.coverage,
    npov.sentence,
  );
  calibrate(
    "coverage.tune",
    npovC.filter((r) => r.part === "tune"),
    "coverage",
    npov.coverage,
    npov.sentence,
  );
  if (sourcesHallucination !== undefined)
    calibrate("sourcesHallucination.synthetic", sourcesRows, "hallucination", sourcesHallucination, sourcesSentence);

  const combiner: SupportCombiner = {
    format: "npov-support-combiner/2",
    ...(npov.sentence.sentence === undefined ? {} : { sentence: npov.sentence.sentence }),
    ...(npov.sentence.stating === undefined ? {} : { stating: npov.sentence.stating }),
    ...(sourcesSentence.sentence === undefined ? {} : { sourcesSentence: sourcesSentence.sentence }),
    hallucination: npov.hallucination,
    coverage: npov.coverage,
    ...(sourcesHallucination === undefined ? {} : { sourcesHallucination }),
    ...(npov.blend === undefined
      ? {}
      : {
          blend: { sentenceShare, npov: npov.blend },
        }),
  };
  return {
    specificity,
    combiner,
    counts: {
      chatbot: chatbot.length,
      template: template.length,
      extra: options.extra?.length ?? 0,
      tune: options.tune?.length ?? 0,
      sources: sourcesRows.length,
    },
    ...(crossValidation === undefined ? {} : { crossValidation }),
    calibration,
  };
}

/** The model card (README.md) of a trained support folder. */
export function supportCard(
  training: SupportTraining,
  info: { kb: string; command: string; seconds: number; tuneWeight: number; sentenceTuneWeight?: number },
): string {
  const { counts, crossValidation: cv, calibration } = training;
  const c = training.combiner;
  const cal = (key: string) => {
    const x = calibration[key];
    return x === undefined ? "n/a" : `Brier ${x.brier.toFixed(3)}, ECE ${x.ece.toFixed(3)} (n = ${x.n})`;
  };
  const n = (x: number) => x.toLocaleString("en-US");
  return (
    "# npov-support\n\nThe learned parts of the `support` detector of @npov/rouge, the default detector of npov (`npov check`, guards, serve). Data-free: no language model.\n\n" +
    `* \`specificity.json\`: document frequencies of word stems over the ${n(training.specificity.documents)} arguments (with paraphrases) of the ${info.kb} knowledge base's train and dev topics (test topics unseen); a word's specificity is its normalized IDF, query and topic words x 0.3.\n` +
    `* \`combiner.json\` (npov-support-combiner/2): logistic models fitted by Newton's method from a seeded start (bit-identical on retraining). Two **sentence models** read what one sentence says -- support, unsupported specific mass, how much one argument or source unit explains, discourse and debate-meta words, hedges, questions -- never where it stands: \`sentence\` (${c.sentence?.features.length ?? 0} inputs; P(a claim nothing given supports)) and \`stating\` (P(it states a given argument)), plus \`sourcesSentence\` for responses checked against plain sources. **Example models** with every weight >= 0 over ${c.hallucination.features.length} (hallucination), ${c.coverage.features.length} (coverage) and ${c.sourcesHallucination?.features.length ?? 0} (sources hallucination) features, each a share or bounded transform in [0, 1] oriented "higher = worse" -- the largest sentence probabilities, exact and soft imprecision, unmatched names and numbers, argument-like sentences per given argument, least covered argument, expected stated arguments per given argument -- so the score never falls when an unsupported claim is added or a stated argument removed, and no input grows with the size of the response or the sources.\n` +
    (c.blend === undefined
      ? ""
      : `* **Ensemble (fallback against one shape)**: the hallucination score is not the example model alone. The example model leans on how an NPOV answer is built (argument-like sentences per given argument, orphans) -- what the hand-written tune part rewards -- and scores an invented argument appended as a *clause* (which adds no sentence) near chance; the sentence model sees that clause. So the score blends the two, ${(1 - c.blend.sentenceShare).toFixed(2)} x example model + ${c.blend.sentenceShare.toFixed(2)} x the likeliest unsupported sentence or clause (\`support.sentenceMax\`), and recalibrates the blend's logit (Platt: scale ${c.blend.npov.scale.toFixed(3)}, bias ${c.blend.npov.bias.toFixed(3)}) on the training data, for NPOV inputs. Sources inputs need no blend: their example model gives \`support.sentenceMax\` a large weight of its own. Both parts and the recalibration are monotone, so the score still never falls when a claim is added. The share was chosen on development data (dev topics, FaithDial and HaluEval dev halves), not on the test rows of docs/results.md.\n`) +
    `* Training data (train topics only): ${n(counts.chatbot)} chatbot-style synthetic NPOV answers, ${n(counts.template)} template-style ones (coverage model), ${n(counts.extra)} synthetic examples of other shapes (\`buildShapeDataset\`: NPOV answers with an invented argument first / middle / last, one-sentence and QA answers, dialogue replies, summaries, long noisy sources; ${n(counts.sources)} of them checked against sources), and ${counts.tune} hand-written examples of the chatbot-dev **tune** part, weighted ${info.tuneWeight} : 1 against the synthetic NPOV part in the example and stating models (${info.sentenceTuneWeight ?? 0} : 1 in the unsupported-claim sentence model${(info.sentenceTuneWeight ?? 0) === 0 ? ", which learns from the span-labelled synthetic shapes only: weighted like the others, the hand-written framing sentences taught it that a short claim is framing" : ""}). The heldout part, the test topics and the human-labelled grounding sets (FaithDial, HaluEval) were never trained on.\n` +
    `* Command: \`${info.command}\` (${info.seconds.toFixed(0)} s on 2 cores).\n` +
    (cv === undefined
      ? ""
      : `* Cross-validation: topic-grouped ${cv.folds}-fold on the tune part (every stage refitted per fold): out-of-fold ROC AUC hallucination ${cv.hallucination?.toFixed(3) ?? "n/a"}, coverage ${cv.coverage?.toFixed(3) ?? "n/a"}.\n`) +
    `* Calibration on the training data: NPOV hallucination ${cal("hallucination.synthetic")} synthetic, ${cal("hallucination.tune")} tune; coverage ${cal("coverage.synthetic")} synthetic, ${cal("coverage.tune")} tune; sources hallucination ${cal("sourcesHallucination.synthetic")}. Held-out figures, next to the plain ROUGE-1 baseline on every response shape, are in docs/results.md.\n` +
    "* Coverage of a sources input is not learned: it is the specificity-weighted share of the sources' content the response leaves out (optional for that shape; an answer need not restate every retrieved sentence).\n" +
    "* Limits: English; word matching (WordNet relations and the npov-lexsim embedding), so a freely reworded argument can look dropped and an invented claim built from the sources' own words can look supported -- sentence-level semantics (an NLI model, `--methods nli`) is the next step. Probabilities are under the training mix: calibrate guard thresholds on your data (`npov calibrate-guard`).\n" +
    "* License: the specificity table is derived from Perspectrum (CC BY-SA 4.0) and distributed under CC BY-SA 4.0 with that attribution; the combiner is the project's own.\n"
  );
}
