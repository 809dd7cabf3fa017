/**
 * @npov/salience: gradient x input salience (SPEC 2.2) from a local ONNX language model -- token maps,
 * word maps, argument-word contributions and response-word attributions, and an HTML heatmap.
 * @packageDocumentation
 */

export {
  loadPretrained,
  type ModelDtype,
  ModelNotFoundError,
  type PretrainedFiles,
  tokenizerFromFiles,
} from "@npov/autograd";
export * from "./align.js";
export * from "./detector.js";
export * from "./encoder.js";
export * from "./html.js";
export * from "./postprocess.js";
