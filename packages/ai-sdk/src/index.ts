/**
 * @npov/ai-sdk: npov as Vercel AI SDK middleware. Wrap any model with `npovGuardMiddleware({ guard })` and
 * every generated or streamed answer is checked against the call's NPOV input or sources: flagged in its
 * provider metadata, blocked with a typed error, or regenerated with the evidence fed back.
 * @packageDocumentation
 */
export * from "./errors.js";
export * from "./middleware.js";
