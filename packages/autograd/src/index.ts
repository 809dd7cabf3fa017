/**
 * @npov/autograd: reverse-mode gradients for ONNX graphs, emitted as standard ONNX ops and run by
 * onnxruntime-node; graph surgery; Adam; tiny test-model builders.
 * @packageDocumentation
 */

export * from "./context.js";
export * from "./contrib/index.js";
export * from "./convert.js";
export * from "./dequantize.js";
export * from "./dims.js";
export * from "./embedding-graph.js";
export * from "./errors.js";
export * from "./gradient.js";
export * from "./graph.js";
export * from "./inspect.js";
export * from "./local-folder.js";
export * from "./models/bpe.js";
export * from "./models/causal.js";
export * from "./models/folder.js";
export * from "./models/llama2c.js";
export * from "./models/net.js";
export * from "./models/t5.js";
export * from "./models/tokenizer.js";
export * from "./normalize.js";
export * from "./op-coverage.js";
export * from "./optim.js";
export * from "./pretrained.js";
export * from "./probe.js";
export * from "./proto.js";
export * from "./rules.js";
export * from "./rules-einsum.js";
export * from "./session.js";
export * from "./split.js";
export * from "./surgery.js";
export * from "./vocabulary.js";
export * from "./weight-file.js";
