/**
 * The real app in headless Chromium (playwright-core + Debian's Chromium): alice labels with the mouse,
 * bob with the keyboard only, both do a calibration example first (RoFT points), alice reloads mid-task
 * and resumes, the admin exports, and the export runs through `npov eval --agreement`. Every screen is
 * photographed and checked for its elements; NPOV_SCREENSHOTS=docs/annotate writes the pictures for the docs.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { AnnotationStore, type RunningServer, startAnnotationServer } from "@npov/annotate";
import type { NpovExample } from "@npov/core";
import { UNDEFINED_ALPHA_NOTE } from "@npov/eval";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "../../../test/browser.js";
import { CALIBRATION_HALLUCINATION, spanOf, UNIFORMS, VEGETARIAN, wordRange, ZOOS } from "./fixtures.js";

const REPO = fileURLToPath(new URL("../../../", import.meta.url));
const BIN = join(REPO, "packages/cli/dist/bin.js");

let dir: string;
let shots: string;
let store: AnnotationStore;
let server: RunningServer;
let browser: Browser;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "npov-annotate-browser-"));
  shots = process.env.NPOV_SCREENSHOTS ?? join(dir, "shots");
  mkdirSync(shots, { recursive: true });
  store = AnnotationStore.open(join(dir, "annotations.sqlite"));
  store.configure({ perExample: 2, ais: true });
  store.importExamples([ZOOS, UNIFORMS, VEGETARIAN]);
  store.importExamples([CALIBRATION_HALLUCINATION], "calibration");
  for (const [name, role] of [
    ["alice", "annotator"],
    ["bob", "annotator"],
    ["admin", "admin"],
  ] as const)
    tokens[name] = store.addUser(name, role);
  server = await startAnnotationServer({ store });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  store?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function newPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1000, height: 760 }, acceptDownloads: true });
  return context.newPage();
}

async function shot(page: Page, name: string, selectors: string[]): Promise<void> {
  for (const s of selectors) await page.locator(s).first().waitFor({ state: "visible" });
  await page.screenshot({ path: join(shots, `${name}.png`) });
}

async function signIn(page: Page, token: string, by: "mouse" | "keyboard"): Promise<void> {
  await page.goto(server.url);
  await page.locator("#token").fill(token);
  if (by === "mouse") await page.locator("#signin").click();
  else await page.keyboard.press("Enter");
}

/** The example on screen must be `example` (found by its response). */
async function expectExample(page: Page, example: NpovExample): Promise<void> {
  await expect.poll(() => page.locator("#response").textContent()).toBe(example.response);
}

/** Drag the mouse from the first to the last word of `phrase`. */
async function drag(page: Page, example: NpovExample, phrase: string): Promise<void> {
  const [first, last] = wordRange(example.response, phrase);
  const a = (await page.locator(`[data-w="${first}"]`).boundingBox())!;
  const b = (await page.locator(`[data-w="${last}"]`).boundingBox())!;
  await page.mouse.move(a.x + 1, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(b.x + b.width - 1, b.y + b.height / 2, { steps: 6 });
  await page.mouse.up();
  await page.locator("#toolbar").waitFor();
}

/** Select the words of `phrase` with the arrow keys (Escape, then → to the first word, Shift+→ to the last). */
async function keySelect(page: Page, example: NpovExample, phrase: string): Promise<void> {
  const [first, last] = wordRange(example.response, phrase);
  await page.keyboard.press("Escape");
  await page.keyboard.press("ArrowRight");
  for (let i = 0; i < first; i++) await page.keyboard.press("ArrowRight");
  for (let i = first; i < last; i++) await page.keyboard.press("Shift+ArrowRight");
}

async function clickAnswers(page: Page, question: "interpretable" | "supported", answers: boolean[]) {
  for (const [s, yes] of answers.entries())
    await page.locator(`[data-sentence="${s}"] [data-answer="${question}-${yes ? "yes" : "no"}"]`).click();
}

async function keys(page: Page, ...presses: string[]) {
  for (const k of presses) await page.keyboard.press(k);
}

describe("annotation app in Chromium", () => {
  it("alice labels with the mouse, reloads mid-task and resumes", async () => {
    const page = await newPage();
    await page.goto(server.url);
    await shot(page, "signin", ["#token", "#signin"]);
    await signIn(page, "wrong-token", "mouse");
    await expect.poll(() => page.locator(".error").textContent()).toContain("Unknown or missing token");
    await signIn(page, tokens.alice as string, "mouse");

    // Calibration first; AIS step 1 hides the arguments.
    await expectExample(page, CALIBRATION_HALLUCINATION);
    await shot(page, "ais-step1", ["#calibration-banner", "#arguments-hidden", '[data-answer="interpretable-yes"]']);
    await clickAnswers(page, "interpretable", [true, true, true]);
    await page.locator('[data-arg="1"]').waitFor();
    const cal = CALIBRATION_HALLUCINATION;
    await drag(page, cal, "zoos keep animals in small cages");
    await page.locator('[data-mark-arg="1"]').click();
    await drag(page, cal, "zoo keepers are underpaid");
    await shot(page, "annotate-selection", ["#toolbar", "#mark-hallucinated", '[data-mark-arg="2"]']);
    await page.locator("#mark-hallucinated").click();
    await drag(page, cal, "zoos protect endangered species");
    await page.locator('[data-mark-arg="2"]').click();
    await clickAnswers(page, "supported", [true, false, true]);
    await expect.poll(() => page.locator("#marks li").count()).toBe(3);
    await shot(page, "annotate", ["#marks", "#arguments .is-covered", "#ais", "#submit:not([disabled])"]);
    await page.locator("#submit").click();
    await shot(page, "feedback", ["#feedback", "#points", "#next"]);
    expect(await page.locator("#points").textContent()).toBe("5");
    expect(await page.locator("#feedback-message").textContent()).toBe(
      "Exact: the first unsupported sentence is sentence 2. 5 points.",
    );
    await page.locator("#next").click();

    // Task 1: zoos, no error.
    await expectExample(page, ZOOS);
    await clickAnswers(page, "interpretable", [true, true, true]);
    await drag(page, ZOOS, "zoos keep animals in small cages");
    await page.locator('[data-mark-arg="1"]').click();
    await drag(page, ZOOS, "zoos protect endangered species");
    await page.locator('[data-mark-arg="2"]').click();
    await clickAnswers(page, "supported", [true, true, true]);
    await page.locator("#submit").click();

    // Task 2: uniforms; reload after the first mark and resume.
    await expectExample(page, UNIFORMS);
    const exampleId = await page.locator("main.task").getAttribute("data-example");
    await clickAnswers(page, "interpretable", [true, true, true]);
    await drag(page, UNIFORMS, "uniforms reduce bullying");
    await page.locator('[data-mark-arg="1"]').click();
    await expect.poll(() => page.locator("#save-state").textContent()).toBe("draft saved");
    await page.reload();
    await expectExample(page, UNIFORMS);
    expect(await page.locator("main.task").getAttribute("data-example")).toBe(exampleId);
    expect(await page.locator("main.task").getAttribute("data-stage")).toBe("main");
    expect(await page.locator("#marks li").allTextContents()).toEqual([
      "covers argument 1 “uniforms reduce bullying”×",
    ]);
    await page.locator('[data-uncovered="2"]').click();
    await drag(page, UNIFORMS, "uniforms limit self-expression");
    await page.locator('[data-mark-arg="3"]').click();
    await drag(page, UNIFORMS, "cost teachers their jobs");
    await page.locator("#mark-hallucinated").click();
    await clickAnswers(page, "supported", [true, true, false]);
    await page.locator("#submit").click();

    // Task 3: vegetarianism, no error.
    await expectExample(page, VEGETARIAN);
    await clickAnswers(page, "interpretable", [true, true, true]);
    await drag(page, VEGETARIAN, "lower the risk of disease");
    await page.locator('[data-mark-arg="1"]').click();
    await drag(page, VEGETARIAN, "an important source of protein");
    await page.locator('[data-mark-arg="2"]').click();
    await clickAnswers(page, "supported", [true, true, true]);
    await page.locator("#submit").click();
    await shot(page, "done", ["#done", "#progress-mine"]);
    expect(await page.locator("#progress-mine").textContent()).toBe("you: 3 done · calibration 1/1, 5 points");
    await page.context().close();
  });

  it("bob labels with the keyboard only", async () => {
    const page = await newPage();
    await signIn(page, tokens.bob as string, "keyboard");
    const cal = CALIBRATION_HALLUCINATION;
    await expectExample(page, cal);
    await keys(page, "y", "y", "y");
    await page.locator('[data-arg="1"]').waitFor();
    await keySelect(page, cal, "zoos keep animals in small cages");
    await keys(page, "1");
    await keySelect(page, cal, "zoos protect endangered species");
    await keys(page, "2");
    await keySelect(page, cal, "endangered species"); // one sentence late: 4 points
    await keys(page, "h", "y", "y", "y", "?");
    await shot(page, "help", ["#help"]);
    await keys(page, "Escape", "Enter");
    await page.locator("#feedback").waitFor();
    expect(await page.locator("#points").textContent()).toBe("4");
    await keys(page, "Enter");

    await expectExample(page, ZOOS);
    await keys(page, "y", "y", "y");
    await keySelect(page, ZOOS, "zoos keep animals in small cages");
    await keys(page, "1");
    await keySelect(page, ZOOS, "zoos protect endangered species");
    await keys(page, "2");
    await keySelect(page, ZOOS, "contested topic"); // bob disagrees with alice here
    await keys(page, "h", "y", "y", "y", "Enter");

    await expectExample(page, UNIFORMS);
    await keys(page, "y", "y", "y");
    await keySelect(page, UNIFORMS, "uniforms reduce bullying");
    await keys(page, "1", "Shift+Digit2");
    await keySelect(page, UNIFORMS, "uniforms limit self-expression");
    await keys(page, "3");
    await keySelect(page, UNIFORMS, "cost teachers their jobs");
    await keys(page, "h", "y", "y", "n", "Enter");

    await expectExample(page, VEGETARIAN);
    await keys(page, "y", "y", "y");
    await keySelect(page, VEGETARIAN, "lower the risk of disease");
    await keys(page, "1");
    await keySelect(page, VEGETARIAN, "an important source of protein");
    await keys(page, "2", "y", "y", "y", "Enter");
    await page.locator("#done").waitFor();
    await page.context().close();
  });

  it("the admin sees progress and exports; the export runs through npov eval with the agreement", async () => {
    const page = await newPage();
    await signIn(page, tokens.admin as string, "mouse");
    await page.locator("#annotators").waitFor();
    const row = async (name: string) => page.locator(`[data-annotator="${name}"] td`).allTextContents();
    expect(await row("alice")).toEqual(["annotator", "5 / 5 (1/1 done)", "3", "0", "0", "0"]);
    expect(await row("bob")).toEqual(["annotator", "4 / 5 (1/1 done)", "3", "0", "0", "0"]);
    expect(await page.locator("#overall").textContent()).toBe(
      "6 of 6 labels (3 examples × 2 annotators); 3 examples complete; 1 calibration examples.",
    );
    await page.locator("#export").click();
    // Hallucination, hand-worked: units (n,y), (y,y), (n,n): o_yn = o_ny = 1, o_yy = 2, o_nn = 2, n = 6:
    // alpha = 1 - 5 * 2 / (3 * 3 + 3 * 3) = 4/9. Coverage: both agree on every example: alpha = 1.
    const alpha = (t: string) => page.locator(`#alpha [data-error-type="${t}"] .alpha-value`).textContent();
    expect(await alpha("hallucination")).toBe((4 / 9).toFixed(3));
    expect(await alpha("coverage")).toBe("1.000");
    // Nobody marked anything ambiguous: every rating "no", alpha 0/0 -- undefined, not perfect agreement.
    expect(await alpha("ambiguous")).toBe("undefined");
    expect(await page.locator("#alpha-undefined").textContent()).toContain("not perfect agreement");
    await shot(page, "admin", ["#annotators", "#alpha", "#download-dataset", "#download-agreement"]);

    const save = async (selector: string, file: string) => {
      const [download] = await Promise.all([page.waitForEvent("download"), page.locator(selector).click()]);
      const path = join(dir, file);
      await download.saveAs(path);
      return path;
    };
    const data = await save("#download-dataset", "annotations.jsonl");
    const agreementFile = await save("#download-agreement", "agreement.json");
    await page.context().close();

    const examples = readFileSync(data, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as NpovExample);
    expect(examples.map((e) => [e.id, e.labels?.hallucination, e.labels?.coverage])).toEqual([
      ["zoos-1", false, false], // 1 of 2 saw a hallucination: a tie is no majority
      ["uniforms-1", true, true],
      ["veg-1", false, false],
    ]);
    // Both marked the same words, alice by dragging and bob with the arrow keys.
    expect(examples[1]?.wordLabels).toEqual({
      hallucinatedSpans: [spanOf(UNIFORMS.response, "cost teachers their jobs")],
      uncoveredArguments: [[0, 1]],
    });
    const meta = examples[0]?.meta?.annotation as { ties: string[]; annotators: Array<{ annotator: string }> };
    expect(meta.ties).toEqual(["hallucination"]);
    expect(meta.annotators.map((a) => a.annotator)).toEqual(["alice", "bob"]);

    const report = join(dir, "report.html");
    const run = spawnSync(
      process.execPath,
      [
        BIN,
        "eval",
        "--data",
        data,
        "--methods",
        "rouge",
        "--agreement",
        agreementFile,
        "--bootstrap",
        "0",
        "--report",
        report,
      ],
      { encoding: "utf8", cwd: REPO, timeout: 120_000 },
    );
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(`hallucination (example): alpha ${(4 / 9).toFixed(3)} (3 units, 6 ratings)`);
    expect(run.stdout).toContain("coverage (example): alpha 1.000 (3 units, 6 ratings)");
    expect(run.stdout).toContain("ambiguous (example): alpha undefined (3 units, 6 ratings)");
    expect(run.stdout).toContain(`(${UNDEFINED_ALPHA_NOTE})`);
    expect(JSON.parse(readFileSync(agreementFile, "utf8")).alpha).toContainEqual({
      errorType: "ambiguous",
      level: "example",
      alpha: null,
      units: 3,
      ratings: 6,
    });
    expect(run.stdout).toContain("alice: agreement with the others' majority 0.833 (6 labels)");
    const html = readFileSync(report, "utf8");
    expect(html).toContain("<h2>Annotator agreement</h2>");
    expect(html).toContain(`<td>${(4 / 9).toFixed(3)}</td>`);
    expect(html).toContain("<td>undefined</td>");
    expect(html).toContain(`<p class="note" id="agreement-undefined">`);
  });
});

describe("long sentences with emoji in the app", () => {
  it("sentence excerpts are cut between characters: no half emoji (lone surrogate) on screen", async () => {
    const own = join(dir, "emoji.sqlite");
    const emojiStore = AnnotationStore.open(own);
    emojiStore.configure({ perExample: 1, ais: true });
    // The first sentence is cut for its excerpt exactly where the emoji's two UTF-16 units are.
    const response = `${"a".repeat(138)}😀 tail words here. Second sentence about café 😀 and zoos.`;
    emojiStore.importExamples([{ ...ZOOS, id: "emoji", response }]);
    const token = emojiStore.addUser("erin", "annotator");
    const emojiServer = await startAnnotationServer({ store: emojiStore });
    try {
      const context = await browser.newContext({ viewport: { width: 1000, height: 760 } });
      const page = await context.newPage();
      await page.goto(emojiServer.url);
      await page.locator("#token").fill(token);
      await page.locator("#signin").click();
      await page.locator(".sentence-text").first().waitFor();
      const texts = await page.$$eval(".sentence-text", (els) => els.map((e) => e.textContent ?? ""));
      expect(texts.length).toBeGreaterThan(0);
      for (const t of texts)
        expect(t).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
      expect(texts[0]).toMatch(/…$/);
      await context.close();
    } finally {
      await emojiServer.close();
      emojiStore.close();
    }
  }, 60_000);
});
