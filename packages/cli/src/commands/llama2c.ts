import { importLlama2c } from "@npov/autograd";
import { refuseOutputOverInput, writeFolderAtomic } from "@npov/core";
import type { Command } from "commander";
import { out, outJson, prepareOutputFolder } from "../util.js";

export function registerLlama2c(program: Command): void {
  program
    .command("import-llama2c")
    .description(
      "convert a llama2.c checkpoint and tokenizer into a Hugging Face-style folder (ONNX LLaMA, tokenizer.json)",
    )
    .requiredOption("--model <file>", "llama2.c model .bin (e.g. stories260K.bin)")
    .requiredOption("--tokenizer <file>", "llama2.c tokenizer .bin (e.g. tok512.bin)")
    .requiredOption("--out <dir>", "output folder")
    .option("--json", "print the summary as JSON")
    .action((opts: { model: string; tokenizer: string; out: string; json?: boolean }) => {
      refuseOutputOverInput(
        [{ flag: "--out", path: opts.out, folder: true }],
        [
          { flag: "--model", path: opts.model },
          { flag: "--tokenizer", path: opts.tokenizer },
        ],
      );
      prepareOutputFolder(opts.out);
      // Converted into a copy of the folder and swapped in: a failure leaves the old model whole.
      const info = writeFolderAtomic(opts.out, (folder) => importLlama2c(opts.model, opts.tokenizer, folder));
      if (opts.json) return outJson({ out: opts.out, ...info });
      const h = info.header;
      out(
        `imported ${info.parameters.toLocaleString("en-US")} parameters (dim ${h.dim}, ${h.nLayers} layers, ${h.nHeads} heads / ${h.nKvHeads} kv heads, vocabulary ${h.vocabSize}) into ${opts.out}: ${info.files.join(", ")}`,
      );
    });
}
