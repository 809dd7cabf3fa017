/**
 * @npov/promptfoo: npov in promptfoo suites. `npovAssertion` is a promptfoo `javascript` assertion function:
 * it scores an output with any npov method or guard against the test's NPOV input or sources and passes or
 * fails on thresholds, with the evidence in the reason.
 * @packageDocumentation
 */
export * from "./assertion.js";
