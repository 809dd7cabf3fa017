/**
 * `npov annotate`: the human annotation web app (@npov/annotate) and its admin commands. Thin: parsing,
 * printing and the process lifetime; the store, server and export live in @npov/annotate (imported on
 * use, so other commands never load the web server).
 */
import { closeSync, openSync, readSync } from "node:fs";
import { checkOutputPath, NpovError, refuseOutputOverInput, writeExamples, writeFileAtomic } from "@npov/core";
import { UNDEFINED_ALPHA_NOTE } from "@npov/eval";
import type { Command } from "commander";
import { integerOption, out, outJson, UsageError } from "../util.js";

type Annotate = typeof import("@npov/annotate");

/**
 * --db: a file path. An empty one would open SQLite's private temporary database, silently losing
 * everything imported; it is refused instead.
 */
const dbPath = (value: string): string => {
  if (value.trim().length === 0) throw new UsageError("--db must name a database file, got an empty path.");
  return value;
};

/** Most annotators per example --per-example accepts (the paper used 5). */
const MAX_ANNOTATORS_PER_EXAMPLE = 1000;
const load = (): Promise<Annotate> => import("@npov/annotate");

interface ImportOptions {
  db: string;
  data?: string;
  calibration?: string;
  perExample?: number;
  ais?: boolean;
}

/** The database file and the files SQLite keeps beside it (write-ahead log, shared memory). */
function databaseFiles(db: string) {
  return [
    { flag: "--db", path: db },
    { flag: "--db", path: `${db}-wal` },
    { flag: "--db", path: `${db}-shm` },
    { flag: "--db", path: `${db}-journal` },
  ];
}

/** The first bytes of every SQLite 3 database file. */
const SQLITE_HEADER = "SQLite format 3\u0000";

/** Whether `file` exists and starts like an SQLite database (an annotation database, say). */
function isSqliteFile(file: string): boolean {
  let fd: number | undefined;
  try {
    fd = openSync(file, "r");
    const head = Buffer.alloc(SQLITE_HEADER.length);
    return readSync(fd, head, 0, head.length, 0) === head.length && head.toString("latin1") === SQLITE_HEADER;
  } catch {
    return false; // missing or unreadable: not a database to protect (the write reports its own problem)
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * An export never replaces an SQLite database, whichever database it is: JSON would take the place of every
 * user, token and annotation in it.
 */
function refuseDatabaseTarget(flag: string, file: string | undefined): void {
  if (file !== undefined && isSqliteFile(file))
    throw new NpovError(
      "OUTPUT_IS_INPUT",
      `${flag} ${file} is an SQLite database (an annotation database?): the export would replace it. Give ${flag} a new path, e.g. annotated.jsonl.`,
      { path: flag },
    );
}

/** Open the store and apply --data/--calibration/--per-example/--ais; returns what was imported. */
function prepare(annotate: Annotate, opts: ImportOptions, create: boolean) {
  // The database is written: it must not be one of the files imported into it.
  refuseOutputOverInput(
    [{ flag: "--db", path: opts.db }],
    [
      { flag: "--data", path: opts.data },
      { flag: "--calibration", path: opts.calibration },
    ],
  );
  const store = annotate.AnnotationStore.open(opts.db, { create });
  try {
    if (opts.perExample !== undefined) store.configure({ perExample: opts.perExample });
    if (opts.ais !== undefined) store.configure({ ais: opts.ais });
    const tasks = opts.data === undefined ? undefined : store.importFile(opts.data, "task");
    const calibration = opts.calibration === undefined ? undefined : store.importFile(opts.calibration, "calibration");
    return { store, tasks, calibration };
  } catch (error) {
    store.close();
    throw error;
  }
}

function describeImport(r: ReturnType<typeof prepare>): string {
  const { perExample, ais } = r.store.settings();
  const parts = [];
  if (r.tasks) parts.push(`${r.tasks.added} task example(s) added (${r.tasks.existing} already there)`);
  if (r.calibration)
    parts.push(`${r.calibration.added} calibration example(s) added (${r.calibration.existing} already there)`);
  const p = r.store.progress().overall;
  parts.push(
    `${p.examples} task and ${p.calibrationExamples} calibration example(s) in total, ${perExample} annotator(s) per example, AIS questions ${ais ? "on" : "off"}`,
  );
  return parts.join("; ");
}

const importOptions = (command: Command) =>
  command
    .requiredOption("--db <file>", "the annotation database (SQLite; created if missing)", dbPath)
    .option("--calibration <file>", "examples with known labels (e.g. from npov synth) every annotator does first")
    .option(
      ...integerOption("--per-example <k>", "annotators per example (stored in the database; default 5)", {
        min: 1,
        max: MAX_ANNOTATORS_PER_EXAMPLE,
      }),
    )
    .option("--ais", "ask the two AIS questions (interpretable? supported?) for every response sentence")
    .option("--no-ais", "do not ask the AIS questions");

export function registerAnnotate(program: Command): void {
  const annotate = program
    .command("annotate")
    .description(
      "Human annotation web app: spans per argument, hallucinated spans, uncovered arguments, AIS questions; k annotators per example; export with agreement",
    );

  importOptions(
    annotate
      .command("serve", { isDefault: true })
      .description("import examples and serve the annotation app (default subcommand; Ctrl-C stops)")
      .option("--data <file>", "examples to annotate (dataset JSON Lines; re-importing the same file adds nothing)"),
  )
    .option("--host <host>", "address to listen on", "127.0.0.1")
    .option(...integerOption("--port <n>", "port (0 = any free port)", { min: 0, max: 65535 }, 8080))
    .action(async (opts: ImportOptions & { host: string; port: number }) => {
      const lib = await load();
      const port = opts.port;
      // Serving creates the database only to import new data into it: a mistyped --db is an error.
      const prepared = prepare(lib, opts, opts.data !== undefined || opts.calibration !== undefined);
      const { store } = prepared;
      if (store.progress().overall.examples === 0) {
        store.close();
        throw new UsageError(
          "The database has no examples to annotate: give --data FILE.jsonl (e.g. from npov synth).",
        );
      }
      let server: Awaited<ReturnType<Annotate["startAnnotationServer"]>>;
      try {
        server = await lib.startAnnotationServer({ store, host: opts.host, port });
      } catch (error) {
        store.close();
        throw error;
      }
      out(describeImport(prepared));
      const users = store.users();
      if (!users.some((u) => u.role === "annotator"))
        out(`no annotators yet: npov annotate tokens --db ${opts.db} --add NAME   (prints their token)`);
      out(`annotation app on ${server.url}  (Ctrl-C stops)`);
      await new Promise<void>((resolve) => {
        const stop = () => resolve();
        process.once("SIGINT", stop);
        process.once("SIGTERM", stop);
      });
      await server.close();
      store.close();
      out("stopped");
    });

  importOptions(
    annotate
      .command("import")
      .description("import examples and settings into the database without serving")
      .option("--data <file>", "examples to annotate (dataset JSON Lines)"),
  ).action(async (opts: ImportOptions) => {
    const prepared = prepare(await load(), opts, true);
    out(describeImport(prepared));
    prepared.store.close();
  });

  annotate
    .command("tokens")
    .description("add a user and print their sign-in token (shown once), or list users")
    .requiredOption("--db <file>", "the annotation database", dbPath)
    .option("--add <name>", "user name to add (letters, digits, _ . @ -)")
    .option("--role <role>", "annotator or admin", "annotator")
    .option("--list", "list users and roles (tokens are never stored, only their hashes)")
    .action(async (opts: { db: string; add?: string; role: string; list?: boolean }) => {
      if (opts.add === undefined && !opts.list) throw new UsageError("Give --add NAME (prints a token) or --list.");
      if (opts.role !== "annotator" && opts.role !== "admin")
        throw new UsageError(`--role must be annotator or admin, got "${opts.role}".`);
      const store = (await load()).AnnotationStore.open(opts.db, { create: false });
      try {
        if (opts.add !== undefined) out(store.addUser(opts.add, opts.role));
        if (opts.list) for (const u of store.users()) out(`${u.name}\t${u.role}`);
      } finally {
        store.close();
      }
    });

  annotate
    .command("progress")
    .description("progress per annotator and overall")
    .requiredOption("--db <file>", "the annotation database", dbPath)
    .option("--json", "machine-readable output")
    .action(async (opts: { db: string; json?: boolean }) => {
      const lib = await load();
      const store = lib.AnnotationStore.open(opts.db, { create: false });
      try {
        const p = store.progress();
        if (opts.json) return outJson(p);
        const o = p.overall;
        out(
          `${o.answered}/${o.target} labels (${o.examples} examples x ${o.perExample}); ${o.complete} examples complete; ${o.calibrationExamples} calibration examples`,
        );
        for (const a of p.annotators)
          out(
            `${a.name} (${a.role}): ${a.submitted} submitted, ${a.skipped} skipped, ${a.flagged} flagged, ${a.open} open` +
              (a.role === "annotator" && a.calibration.total > 0
                ? `; calibration ${a.calibration.done}/${a.calibration.total}, ${a.calibration.points} of ${a.calibration.done * lib.MAX_POINTS} points`
                : ""),
          );
      } finally {
        store.close();
      }
    });

  annotate
    .command("export")
    .description(
      "write the annotated examples (majority and word labels, per-annotator labels kept) and the agreement report",
    )
    .requiredOption("--db <file>", "the annotation database", dbPath)
    .requiredOption("--out <file>", "dataset JSON Lines for npov eval")
    .option("--agreement <file>", "agreement report JSON (Krippendorff's alpha per error type; npov eval --agreement)")
    .action(async (opts: { db: string; out: string; agreement?: string }) => {
      const outputs = [
        { flag: "--out", path: opts.out },
        { flag: "--agreement", path: opts.agreement },
      ];
      refuseOutputOverInput(outputs, databaseFiles(opts.db));
      for (const o of outputs) refuseDatabaseTarget(o.flag, o.path);
      checkOutputPath(opts.out);
      if (opts.agreement !== undefined) checkOutputPath(opts.agreement);
      const lib = await load();
      const store = lib.AnnotationStore.open(opts.db, { create: false });
      try {
        const { examples, agreement } = lib.exportAnnotations(store);
        writeExamples(opts.out, examples);
        if (opts.agreement !== undefined) writeFileAtomic(opts.agreement, `${JSON.stringify(agreement, null, 2)}\n`);
        const alpha = (x: number | null) => (x === null ? "undefined" : x.toFixed(3));
        const main = agreement.alpha.filter((r) => r.level === "example" && r.errorType !== "ambiguous");
        out(
          `${examples.length} annotated example(s) written to ${opts.out}` +
            (opts.agreement === undefined ? "" : `; agreement report to ${opts.agreement}`),
        );
        out(`Krippendorff's alpha: ${main.map((r) => `${r.errorType} ${alpha(r.alpha)}`).join(", ")}`);
        if (main.some((r) => r.alpha === null)) out(`(${UNDEFINED_ALPHA_NOTE})`);
        if (agreement.flaggedOnly.length > 0)
          out(
            `${agreement.flaggedOnly.length} example(s) only flagged as broken, not exported: ${agreement.flaggedOnly.join(", ")}`,
          );
      } finally {
        store.close();
      }
    });
}
