/**
 * @npov/cli: the `npov` command line. Use the `npov` binary; `main` and `buildProgram` are exported for
 * embedding and tests.
 * @packageDocumentation
 */
export { buildProgram, main } from "./cli.js";
