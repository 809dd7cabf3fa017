/**
 * The shapes of a writer plan (what the reference writer will say, before it is rendered). They live apart
 * from writer.ts so checks.ts can name them without importing the writer, which imports the checks.
 */

/**
 * `"close"`: arguments copied nearly verbatim (like the paper's generator); `"free"`: light,
 * meaning-preserving rewording (a few word substitutions per argument).
 */
export type ResponseStyle = "close" | "free";

/** One argument as it appears in the response. */
export interface PlanItem {
  perspectiveIndex: number;
  argumentIndex: number;
  /** Words introducing it, e.g. "Supporters argue that". */
  connector: string;
  /** The verbalized argument (no final period). */
  text: string;
}

/** What the writer will say, before it is rendered to text. */
export interface ResponsePlan {
  opening: string;
  items: PlanItem[];
}
