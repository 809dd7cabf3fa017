import { alignResponse, type RougeResult, rougeDetector, softRouge } from "@npov/rouge";
import type { Command } from "commander";
import { defaultMatcher, loadClassifier, loadSalience, salienceJson } from "../detectors.js";
import { out, outJson, parseList, readExample } from "../util.js";

export const CHECK_METHODS = ["rouge", "soft", "align", "salience", "classifier"] as const;

/** The JSON shape of a ROUGE result in `npov check` output. */
export function rougeJson(r: RougeResult) {
  return {
    hallucination: r.hallucination,
    coverage: r.coverage,
    precision: r.precision,
    recall: r.recall,
    perspectives: r.perspectives.map((p) => ({
      label: p.label,
      recall: p.recall,
      arguments: p.arguments.map((a) => ({
        text: a.text,
        ...(a.id === undefined ? {} : { id: a.id }),
        recall: a.recall,
      })),
    })),
    words: {
      response: r.words.map((w) => ({ text: w.text, start: w.start, end: w.end, hallucination: w.hallucination })),
      arguments: r.perspectives.flatMap((p, k) =>
        p.arguments.flatMap((a, j) =>
          a.words.map((w) => ({
            perspective: k,
            argument: j,
            text: w.text,
            start: w.start,
            end: w.end,
            coverage: w.coverage,
          })),
        ),
      ),
    },
  };
}

export function registerCheck(program: Command): void {
  program
    .command("check")
    .description("score one example {input, response} for hallucination and coverage errors")
    .requiredOption("--input <file>", 'JSON file {"input": {...}, "response": "..."}')
    .option("--methods <list>", `comma-separated detectors: ${CHECK_METHODS.join(", ")}`, "rouge")
    .option("--model <path>", "model folder (or id) for model-based methods (salience, classifier)")
    .option("--soft-prompt <file>", "soft prompt for the classifier (from npov train-classifier)")
    .option("--variant <name>", "salience variant: grad-x-input | grad-norm", "grad-x-input")
    .option("--json", "machine-readable output")
    .action(
      async (opts: {
        input: string;
        methods: string;
        model?: string;
        softPrompt?: string;
        variant: string;
        json?: boolean;
      }) => {
        const methods = parseList(opts.methods, CHECK_METHODS, "--methods");
        const example = readExample(opts.input);
        const result: Record<string, unknown> = {};
        if (methods.includes("rouge")) result.rouge = rougeJson(rougeDetector(example.input, example.response));
        if (methods.includes("soft") || methods.includes("align")) {
          const matcher = defaultMatcher();
          if (methods.includes("soft")) result.soft = softRouge(example.input, example.response, matcher);
          if (methods.includes("align")) result.align = alignResponse(example.input, example.response, matcher);
        }
        if (methods.includes("salience")) {
          const detector = await loadSalience(opts.model, opts.variant);
          result.salience = salienceJson(await detector.score(example.input, example.response));
          await detector.dispose();
        }
        if (methods.includes("classifier")) {
          const classifier = await loadClassifier(opts.model, opts.softPrompt);
          const r = await classifier.detect(example.input, example.response);
          result.classifier = { hallucination: r.hallucination, coverage: r.coverage };
          await classifier.dispose();
        }
        if (opts.json) return outJson(result);
        const rouge = result.rouge as ReturnType<typeof rougeJson> | undefined;
        if (rouge !== undefined) {
          out(`rouge  hallucination ${rouge.hallucination.toFixed(3)}  coverage ${rouge.coverage.toFixed(3)}`);
          for (const p of rouge.perspectives) {
            out(`  ${p.label}: recall ${p.recall.toFixed(3)}`);
            for (const a of p.arguments) out(`    ${a.recall.toFixed(2)}  ${a.text}`);
          }
          const unsupported = rouge.words.response.filter((w) => w.hallucination === 1).map((w) => w.text);
          out(`  response words not in any argument: ${unsupported.join(", ") || "(none)"}`);
        }
        const salience = result.salience as ReturnType<typeof salienceJson> | undefined;
        if (salience !== undefined) {
          out(`salience  hallucination ${salience.hallucination.toFixed(3)}  coverage ${salience.coverage.toFixed(3)}`);
          for (const p of salience.perspectives) out(`  ${p.label}: contribution ${p.contribution.toFixed(3)}`);
        }
        for (const name of ["soft", "align"] as const) {
          const r = result[name] as { hallucination: number; coverage: number } | undefined;
          if (r !== undefined)
            out(`${name}  hallucination ${r.hallucination.toFixed(3)}  coverage ${r.coverage.toFixed(3)}`);
        }
        const classifier = result.classifier as { hallucination: number; coverage: number } | undefined;
        if (classifier !== undefined)
          out(
            `classifier  P(NO) hallucination ${classifier.hallucination.toFixed(3)}  coverage ${classifier.coverage.toFixed(3)}`,
          );
      },
    );
}
