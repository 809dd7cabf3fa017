/**
 * What a user meets in their second hour (issue 31): help that describes the output as it is, hints that
 * name options the command takes, commander's own errors in the one-line `npov: ... [USAGE]` form, and the
 * salience heatmap page carrying the warning that the terminal showed.
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildProgram } from "@npov/cli";
import type { Command } from "commander";
import { describe, expect, it } from "vitest";
import { npov, REPO } from "./helpers.js";
import { runMain as run } from "./in-process.js";

const tmp = mkdtempSync(join(tmpdir(), "npov-second-hour-"));
const example = join(REPO, "fixtures/examples/uniforms.json");

/** Every command and subcommand, as its words after `npov` (e.g. ["kb", "list"]). */
function commandPaths(command: Command, path: string[] = []): string[][] {
  return command.commands.flatMap((sub) => [[...path, sub.name()], ...commandPaths(sub, [...path, sub.name()])]);
}

const findCommand = (path: readonly string[]): Command =>
  path.reduce<Command>((c, name) => c.commands.find((s) => s.name() === name) as Command, buildProgram());

describe("commander's errors read like every other usage error", () => {
  it("an unknown option of salience is one line naming the command's help", async () => {
    const r = await run("salience", "--input", example, "--methods", "align");
    expect(r).toEqual({
      code: 2,
      stdout: "",
      stderr: "npov: unknown option '--methods'. See `npov salience --help`. [USAGE]\n",
    });
  });

  it("a misspelt option keeps commander's suggestion", async () => {
    const r = await run("salience", "--input", example, "--modle", "x");
    expect(r.stderr).toBe(
      "npov: unknown option '--modle' (Did you mean --model?). See `npov salience --help`. [USAGE]\n",
    );
  });

  const paths = commandPaths(buildProgram());
  it.each(paths.map((p) => [p.join(" "), p] as const))(
    "npov %s with an unknown option: one line `npov: ... [USAGE]`, exit code 2",
    async (_name, path) => {
      const r = await run(...path, "--no-such-option");
      expect(r.code).toBe(2);
      expect(r.stdout).toBe("");
      // An unknown option, or a required option checked first: the same one-line form either way.
      expect(r.stderr).toMatch(
        /^npov: (unknown option '--no-such-option'|required option '.+' not specified)\. See `npov( [a-z0-9-]+)+ --help`\. \[USAGE\]\n$/,
      );
    },
  );

  it("an unknown command and a missing argument are one line too", async () => {
    expect((await run("chek")).stderr).toBe(
      "npov: unknown command 'chek' (Did you mean check?). See `npov --help`. [USAGE]\n",
    );
    expect((await run("kb", "show")).stderr).toBe(
      "npov: missing required argument 'id'. See `npov kb show --help`. [USAGE]\n",
    );
  });
});

describe("npov check --help describes the JSON it prints", () => {
  it("names exactly the fields the data-free methods' results have", async () => {
    const help = findCommand(["check"]).helpInformation().replace(/\s+/g, " ");
    const described = /\{METHOD: \{([^}]*)\}\}/.exec(help)?.[1]?.split(", ");
    expect(described).toBeDefined();
    const r = await run("check", "--input", example, "--methods", "rouge,align,support", "--json");
    expect(r.code, r.stderr).toBe(0);
    const results = JSON.parse(r.stdout) as Record<string, Record<string, unknown>>;
    const fields = new Set(Object.values(results).flatMap((x) => Object.keys(x)));
    expect([...fields].sort()).toEqual([...(described as string[])].sort());
    expect(help).toContain("higher = more likely an error");
  });
});

describe("npov salience with an unusable model", () => {
  it("its warning names only options salience takes (or a whole other command), and the heatmap page shows it", () => {
    const html = join(tmp, "map.html");
    const r = npov("salience", "--input", example, "--html", html);
    expect(r.status).toBe(0);
    const warning = r.stderr.split("\n").find((l) => l.startsWith("npov: warning: models/npov-gen is not usable"));
    expect(warning).toBeDefined();
    // Each --option in the advice is salience's own, or follows a command (`npov check --methods`) that has it.
    const salience = findCommand(["salience"]);
    for (const m of (warning as string).matchAll(/(?:npov ([a-z-]+) )?(--[a-z-]+)/g)) {
      const [, other, flag] = m;
      const command = other === undefined ? salience : findCommand([other]);
      expect(
        command.options.map((o) => o.long),
        `${flag} in: ${warning}`,
      ).toContain(flag);
    }
    expect(warning).toContain("Use npov check --methods align");
    const page = readFileSync(html, "utf8");
    const shown = (warning as string).replace("npov: warning: ", "");
    expect(page).toContain(`<p class="warning" role="alert"><b>Warning:</b> ${shown}`);
  });
});
