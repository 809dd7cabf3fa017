/**
 * Headless Chromium (Debian's /usr/bin/chromium, installed by scripts/setup.sh) through playwright-core,
 * for tests that render npov's HTML pages: measure the layout at a viewport width and save a screenshot.
 */
import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";

/** Where Chromium is, or undefined (tests then fail with a message naming the set-up command). */
export const CHROMIUM = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((p) => existsSync(p));

/** Launch headless Chromium; the caller closes it. */
export async function launchChromium(): Promise<Browser> {
  if (CHROMIUM === undefined) throw new Error("Chromium is missing: run `pnpm run setup` (scripts/setup.sh) first.");
  return chromium.launch({
    executablePath: CHROMIUM,
    // No background connections: this machine's closed network refuses them, many at a time.
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/** A rectangle as the page laid it out (CSS pixels). */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Open `file` at `width` x 900, save a full-page screenshot to `png`, and return the page for inspection
 * (the caller closes it) with the document's scroll width (> width means horizontal overflow).
 */
export async function openAt(browser: Browser, file: string, width: number, png: string) {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  await page.goto(`file://${file}`);
  await page.screenshot({ path: png, fullPage: true });
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  const boxes = async (selector: string): Promise<Box[]> =>
    page.$$eval(selector, (els) =>
      els.map((e) => {
        const r = e.getBoundingClientRect();
        return { x: r.x, y: r.y + window.scrollY, width: r.width, height: r.height };
      }),
    );
  return { page, scrollWidth, boxes };
}
