/**
 * The annotation app on a phone (420 px) and a desktop (1280 px), in headless Chromium: nothing wider than
 * the screen, the fixed footer never covering the selection's toolbar or the end of the page, a visible
 * confirmation after Submit (the next example may show the same response), and argument colours far
 * enough apart to tell apart -- also under simulated red-green colour blindness. Screenshots of every
 * screen go to NPOV_SCREENSHOTS (or a temp folder).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { AnnotationStore, emptyAnnotation, type RunningServer, startAnnotationServer } from "@npov/annotate";
import type { NpovExample } from "@npov/core";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../../../test/browser.js";
import { ZOOS } from "./fixtures.js";

const CSS = readFileSync(fileURLToPath(new URL("../web/app.css", import.meta.url)), "utf8");

/** Six arguments and a response long enough to run past a phone's screen. */
const REMOTE: NpovExample = {
  id: "remote-1",
  input: {
    topic: "remote work",
    query: "Should offices go remote?",
    perspectives: [
      {
        label: "pro",
        arguments: [
          { text: "Remote work saves commuting time." },
          { text: "Remote work widens hiring." },
          { text: "Remote work cuts office costs." },
        ],
      },
      {
        label: "con",
        arguments: [
          { text: "Remote work weakens team bonds." },
          { text: "Remote work blurs work and home." },
          { text: "Remote work hinders mentoring." },
        ],
      },
    ],
  },
  response: `Views differ. Remote work saves commuting time and widens hiring. It cuts office costs. But it weakens team bonds, blurs work and home, and hinders mentoring. ${"Some add that the debate is old and that the evidence is mixed across firms and countries. ".repeat(4).trim()}`,
};
/** The same response as ZOOS under another id: after submitting one, the other looks identical. */
const ZOOS_AGAIN: NpovExample = { ...ZOOS, id: "zoos-again" };

let dir: string;
let shots: string;
let store: AnnotationStore;
let server: RunningServer;
let browser: Browser;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "npov-annotate-mobile-"));
  shots = process.env.NPOV_SCREENSHOTS ?? join(dir, "shots");
  mkdirSync(shots, { recursive: true });
  store = AnnotationStore.open(join(dir, "annotations.sqlite"));
  store.configure({ perExample: 3, ais: false });
  store.importExamples([REMOTE, ZOOS, ZOOS_AGAIN]);
  for (const [name, role] of [
    ["phone", "annotator"],
    ["desk", "annotator"],
    ["an-annotator-with-a-rather-long-name", "annotator"],
    ["admin", "admin"],
  ] as const)
    tokens[name] = store.addUser(name, role);
  // Two submitted examples, so the admin's export has rows.
  const other = store.users().find((u) => u.name === "an-annotator-with-a-rather-long-name")!;
  for (let item = store.next(other); item !== null; item = store.next(other))
    store.finish(other, item.exampleId, {
      action: "submit",
      annotation: {
        ...emptyAnnotation(),
        uncoveredArguments: item.input.perspectives.flatMap((p, pi) =>
          p.arguments.map((_, ai) => [pi, ai] as [number, number]),
        ),
      },
    });
  server = await startAnnotationServer({ store });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  store?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function signedIn(user: string, width: number): Promise<Page> {
  const page = await (await browser.newContext({ viewport: { width, height: 800 } })).newPage();
  await page.goto(server.url);
  await page.locator("#token").fill(tokens[user] as string);
  await page.locator("#signin").click();
  return page;
}

/** Whether what the page shows at the centre of each element matching `selector` is that element. */
const uncovered = (page: Page, selector: string) =>
  page.$$eval(selector, (els) =>
    els.map((e) => {
      const r = e.getBoundingClientRect();
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      return hit !== null && (hit === e || e.contains(hit));
    }),
  );

describe.each([420, 1280])("annotation app at %i px", (width) => {
  const annotator = width === 420 ? "phone" : "desk";

  it("the selection's toolbar opens in view and clear of the footer, even at the end of a long response", async () => {
    const page = await signedIn(annotator, width);
    await expect.poll(() => page.locator("#response").textContent()).toBe(REMOTE.response);
    // Select the last three words with the keyboard (no scrolling by hand).
    const words = await page.locator("#response [data-w]").count();
    await page.keyboard.press("Escape");
    for (let k = 0; k <= words - 3; k++) await page.keyboard.press("ArrowRight");
    for (let k = 0; k < 2; k++) await page.keyboard.press("Shift+ArrowRight");
    await page.locator("#toolbar").waitFor();
    await expect.poll(() => page.locator("#toolbar .sel-text").textContent()).toBe("“firms and countries”");
    await page.waitForFunction(() => {
      const t = document.getElementById("toolbar")?.getBoundingClientRect();
      return t !== undefined && t.bottom <= innerHeight;
    });
    const footer = (await page.locator("footer.actions").boundingBox())!;
    const toolbar = (await page.locator("#toolbar").boundingBox())!;
    expect(toolbar.y + toolbar.height).toBeLessThanOrEqual(footer.y);
    expect(await uncovered(page, "#toolbar button")).not.toContain(false);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await page.screenshot({ path: join(shots, `toolbar-${width}.png`) });

    // Scrolled to the very end, the last argument is above the footer, not under it.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    const last = (await page.locator(".argument").last().boundingBox())!;
    expect(last.y + last.height).toBeLessThanOrEqual((await page.locator("footer.actions").boundingBox())!.y);
    expect(await uncovered(page, "footer.actions button")).not.toContain(false);
    await page.screenshot({ path: join(shots, `end-${width}.png`) });
    await page.context().close();
  });

  it("Submit says it worked, also when the next example shows the same response", async () => {
    const page = await signedIn(annotator, width);
    const decideAll = async (n: number) => {
      for (let k = 1; k <= n; k++) await page.keyboard.press(`Shift+Digit${k}`);
    };
    await expect.poll(() => page.locator("#response").textContent()).toBe(REMOTE.response);
    expect(await page.locator("#finished-notice").count()).toBe(0);
    await decideAll(6);
    await page.locator("#submit").click();
    await expect.poll(() => page.locator("#response").textContent()).toBe(ZOOS.response);
    await decideAll(2);
    await page.locator("#submit").click();
    // The next example has the very same response: only the confirmation shows that the submit went through.
    await expect
      .poll(() => page.locator("#finished-notice").textContent())
      .toBe("✓ Submitted and saved. You have done 2. The next example is below.");
    expect(await page.locator("#response").textContent()).toBe(ZOOS_AGAIN.response);
    const notice = (await page.locator("#finished-notice").boundingBox())!;
    expect(notice.y).toBeGreaterThanOrEqual(0);
    expect(notice.y + notice.height).toBeLessThanOrEqual(800);
    expect(await page.locator("#progress-mine").textContent()).toBe("you: 2 done");
    await page.screenshot({ path: join(shots, `submitted-${width}.png`) });
    await page.context().close();
  });

  it("the admin page fits the screen: no table wider than the page, even with long names", async () => {
    const page = await signedIn("admin", width);
    await page.locator("#annotators").waitFor();
    await page.locator("#export").click();
    await page.locator("#alpha").waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    // Every table fits its box too (nothing hides behind a sideways scroll).
    const boxes = await page.$$eval(".table-wrap", (els) => els.map((e) => e.scrollWidth - e.clientWidth));
    expect(boxes).toHaveLength(3);
    for (const extra of boxes) expect(extra).toBeLessThanOrEqual(0);
    // Each annotator's numbers are still there, labelled, on a phone.
    const row = (await page.locator('[data-annotator="an-annotator-with-a-rather-long-name"] td').allTextContents())!;
    expect(row).toEqual(["annotator", "-", "3", "0", "0", "0"]);
    await page.screenshot({ path: join(shots, `admin-${width}.png`), fullPage: true });
    await page.context().close();
  });
});

/* Colour distance: CIEDE2000 between sRGB colours, as seen with normal vision and simulated protanopia and
   deuteranopia (Machado, Oliveira and Fernandes 2009, severity 1, in linear RGB). */
const SIMULATIONS: Record<string, number[][]> = {
  normal: [
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
  ],
  protanopia: [
    [0.152286, 1.052583, -0.204868],
    [0.114503, 0.786281, 0.099216],
    [-0.003882, -0.048116, 1.051998],
  ],
  deuteranopia: [
    [0.367322, 0.860646, -0.227968],
    [0.280085, 0.672501, 0.047413],
    [-0.01182, 0.04294, 0.968881],
  ],
};
const linear = (c: number) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);

function labOf(hex: string, simulation: number[][]): [number, number, number] {
  const rgb = [1, 3, 5].map((i) => linear(Number.parseInt(hex.slice(i, i + 2), 16) / 255));
  const [r, g, b] = simulation.map((row) =>
    Math.min(
      1,
      Math.max(
        0,
        row.reduce((s, m, k) => s + m * (rgb[k] as number), 0),
      ),
    ),
  ) as [number, number, number];
  const f = (t: number) => (t > 216 / 24389 ? Math.cbrt(t) : ((24389 / 27) * t + 16) / 116);
  const x = f((0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047);
  const y = f(0.2126 * r + 0.7152 * g + 0.0722 * b);
  const z = f((0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883);
  return [116 * y - 16, 500 * (x - y), 200 * (y - z)];
}

/** CIEDE2000 colour difference (Sharma, Wu and Dalal 2005). */
function deltaE2000([L1, a1, b1]: number[], [L2, a2, b2]: number[]): number {
  const rad = Math.PI / 180;
  const C1 = Math.hypot(a1 as number, b1 as number);
  const C2 = Math.hypot(a2 as number, b2 as number);
  const Cm = (C1 + C2) / 2;
  const G = 0.5 * (1 - Math.sqrt(Cm ** 7 / (Cm ** 7 + 25 ** 7)));
  const a1p = (a1 as number) * (1 + G);
  const a2p = (a2 as number) * (1 + G);
  const C1p = Math.hypot(a1p, b1 as number);
  const C2p = Math.hypot(a2p, b2 as number);
  const hue = (b: number, a: number) => (a === 0 && b === 0 ? 0 : (Math.atan2(b, a) / rad + 360) % 360);
  const h1p = hue(b1 as number, a1p);
  const h2p = hue(b2 as number, a2p);
  let dh = 0;
  if (C1p * C2p !== 0) {
    dh = h2p - h1p;
    if (dh > 180) dh -= 360;
    else if (dh < -180) dh += 360;
  }
  const dL = (L2 as number) - (L1 as number);
  const dC = C2p - C1p;
  const dH = 2 * Math.sqrt(C1p * C2p) * Math.sin((dh * rad) / 2);
  const Lm = ((L1 as number) + (L2 as number)) / 2;
  const Cmp = (C1p + C2p) / 2;
  let hm = h1p + h2p;
  if (C1p * C2p !== 0) {
    if (Math.abs(h1p - h2p) > 180) hm += hm < 360 ? 360 : -360;
    hm /= 2;
  }
  const T =
    1 -
    0.17 * Math.cos((hm - 30) * rad) +
    0.24 * Math.cos(2 * hm * rad) +
    0.32 * Math.cos((3 * hm + 6) * rad) -
    0.2 * Math.cos((4 * hm - 63) * rad);
  const dTheta = 30 * Math.exp(-(((hm - 275) / 25) ** 2));
  const RC = 2 * Math.sqrt(Cmp ** 7 / (Cmp ** 7 + 25 ** 7));
  const SL = 1 + (0.015 * (Lm - 50) ** 2) / Math.sqrt(20 + (Lm - 50) ** 2);
  const SC = 1 + 0.045 * Cmp;
  const SH = 1 + 0.015 * Cmp * T;
  const RT = -Math.sin(2 * dTheta * rad) * RC;
  return Math.sqrt((dL / SL) ** 2 + (dC / SC) ** 2 + (dH / SH) ** 2 + RT * (dC / SC) * (dH / SH));
}

describe("argument colours", () => {
  it("CIEDE2000 matches Sharma et al.'s published test pairs", () => {
    // Pairs 1, 7 and 17 of the CIEDE2000 test data (Sharma, Wu and Dalal 2005, table 1).
    expect(deltaE2000([50, 2.6772, -79.7751], [50, 0, -82.7485])).toBeCloseTo(2.0425, 4);
    expect(deltaE2000([50, 0, 0], [50, -1, 2])).toBeCloseTo(2.3669, 4);
    expect(deltaE2000([50, 2.5, 0], [56, -27, -3])).toBeCloseTo(31.903, 3);
  });

  const palette = [0, 1, 2, 3, 4, 5].map((k) => {
    const m = new RegExp(`--a${k}:\\s*(#[0-9a-f]{6});`, "i").exec(CSS);
    if (m === null) throw new Error(`app.css defines no --a${k}`);
    return m[1] as string;
  });

  it.each(Object.keys(SIMULATIONS))("every pair of the six is far apart (%s)", (vision) => {
    // Normal vision: at least 25 (argument 1's blue and argument 4's sky blue were 22); simulated
    // dichromacy shrinks every distance, so there at least 12.
    const least = vision === "normal" ? 25 : 12;
    const lab = palette.map((c) => labOf(c, SIMULATIONS[vision] as number[][]));
    for (let i = 0; i < 6; i++)
      for (let j = i + 1; j < 6; j++)
        expect(
          deltaE2000(lab[i] as number[], lab[j] as number[]),
          `arguments ${i + 1} and ${j + 1}: ${palette[i]} vs ${palette[j]}`,
        ).toBeGreaterThanOrEqual(least);
  });
});
