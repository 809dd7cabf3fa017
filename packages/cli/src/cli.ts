/** The `npov` command: builds the commander program and turns typed errors into one-line failures. */

import { NpovError } from "@npov/core";
import { Command, CommanderError } from "commander";
import { registerAnnotate } from "./commands/annotate.js";
import { registerCard } from "./commands/card.js";
import { registerCheck } from "./commands/check.js";
import { registerCheckBatch } from "./commands/check-batch.js";
import { registerClassifier } from "./commands/classifier.js";
import { registerDemo } from "./commands/demo.js";
import { registerEval } from "./commands/eval.js";
import { registerGenerate } from "./commands/generate.js";
import { registerJudge } from "./commands/judge.js";
import { registerKb } from "./commands/kb.js";
import { registerLlama2c } from "./commands/llama2c.js";
import { registerModel } from "./commands/model.js";
import { registerPrompt } from "./commands/prompt.js";
import { registerRouge } from "./commands/rouge.js";
import { registerSalience } from "./commands/salience.js";
import { registerSupport } from "./commands/support.js";
import { registerSynth } from "./commands/synth.js";
import { registerTrain } from "./commands/train.js";
import { registerVectors } from "./commands/vectors.js";
import { registerWorker } from "./commands/worker.js";
import { errorLine } from "./error-line.js";
import { describeUnexpected, EXIT_CODES } from "./unexpected.js";

export { describeUnexpected, EXIT_CODES };

/** Build the program (exported so tests can inspect commands). */
export function buildProgram(): Command {
  const program = new Command();
  program
    .name("npov")
    .description("Detect hallucinations and coverage errors in neutral-point-of-view (NPOV) responses.")
    .version("0.1.0")
    .exitOverride()
    .showHelpAfterError(false);
  registerDemo(program);
  registerKb(program);
  registerPrompt(program);
  registerCheck(program);
  registerCheckBatch(program);
  registerRouge(program);
  registerSynth(program);
  registerEval(program);
  registerAnnotate(program);
  registerWorker(program);
  registerJudge(program);
  registerSalience(program);
  registerModel(program);
  registerClassifier(program);
  registerLlama2c(program);
  registerTrain(program);
  registerVectors(program);
  registerSupport(program);
  registerGenerate(program);
  registerCard(program);
  const configure = (command: Command, path: string) => {
    command.exitOverride();
    command.configureOutput({ outputError: (text, write) => write(commanderErrorLine(text, path)) });
    for (const sub of command.commands) configure(sub, `${path} ${sub.name()}`);
  };
  configure(program, "npov");
  return program;
}

/**
 * Commander's own errors (an unknown option or command, a missing required option or argument) in the
 * one-line form of every other usage error: `npov: MESSAGE See `npov CMD --help`. [USAGE]`.
 */
export function commanderErrorLine(text: string, command: string): string {
  let message = text
    .replace(/^error: /, "")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "")
    .join(" ");
  if (!/[.?!]$/.test(message)) message += ".";
  return `npov: ${message} See \`${command} --help\`. [USAGE]\n`;
}

/**
 * Run the CLI; returns the process exit code: 0 ok, 1 unexpected internal error, 2 bad input or usage
 * (see {@link EXIT_CODES}); a command may choose others (`guard --exit-code` 3, Ctrl-C 130).
 */
export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv, { from: "user" });
    // A command may choose its exit code (e.g. `npov guard --exit-code` returns 3 when not allowed).
    return typeof process.exitCode === "number" ? process.exitCode : 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version exit with code 0; otherwise commanderErrorLine already printed the reason.
      return error.exitCode === 0 ? EXIT_CODES.ok : EXIT_CODES.usage;
    }
    if (error instanceof NpovError) {
      process.stderr.write(errorLine(error));
      return EXIT_CODES.usage;
    }
    process.stderr.write(describeUnexpected(error));
    return EXIT_CODES.internal;
  }
}
