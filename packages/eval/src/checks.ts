/** Argument checks shared by the metrics (defined in @npov/core). */
export { checkBinary, requireBothClasses } from "@npov/core";
