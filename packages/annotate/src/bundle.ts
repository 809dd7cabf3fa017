/**
 * The web front end (Preact TSX under web/) is bundled with esbuild's JS API when the server starts and
 * kept in memory: no build step, no generated files, and the app always matches the installed server.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { FrontendBuildError } from "./errors.js";

/** The bundled app: one ES module and one stylesheet. */
export interface Frontend {
  js: string;
  css: string;
}

/** web/ beside src/ and dist/ (both one level below the package root). */
const WEB = fileURLToPath(new URL("../web/", import.meta.url));

let cached: Promise<Frontend> | undefined;

/** The preact the bundle uses (the copy installed beside this package), named in the bundle's banner. */
function preactVersion(): string {
  try {
    const require = createRequire(import.meta.url);
    return (require("preact/package.json") as { version: string }).version;
  } catch (cause) {
    throw new FrontendBuildError(`preact is not installed beside @npov/annotate (${(cause as Error).message})`);
  }
}

async function bundle(): Promise<Frontend> {
  const version = preactVersion();
  let css: string;
  try {
    css = readFileSync(`${WEB}app.css`, "utf8");
  } catch (cause) {
    throw new FrontendBuildError(`cannot read ${WEB}app.css (${(cause as Error).message})`);
  }
  try {
    const result = await build({
      entryPoints: [`${WEB}app.tsx`],
      bundle: true,
      write: false,
      format: "esm",
      platform: "browser",
      target: "es2020",
      jsx: "automatic",
      jsxImportSource: "preact",
      minify: true,
      legalComments: "none",
      logLevel: "silent",
      banner: { js: `/* npov annotate; preact ${version} */` },
    });
    const js = result.outputFiles[0]?.text;
    if (js === undefined) throw new Error("esbuild produced no output");
    return { js, css };
  } catch (cause) {
    throw new FrontendBuildError((cause as Error).message.split("\n")[0] ?? "esbuild failed");
  }
}

/** Bundle the front end once per process (later calls share the first build). */
export function frontend(): Promise<Frontend> {
  if (cached === undefined) {
    cached = bundle();
    cached.catch(() => {
      cached = undefined; // a failed build is retried on the next request rather than cached forever
    });
  }
  return cached;
}
