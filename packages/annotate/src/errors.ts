/**
 * Typed errors of the annotation tool. Each is an {@link NpovError} with a stable `code` and the HTTP
 * status the server answers with, so the web app, the CLI and tests can all switch on the code.
 */
import { NpovError } from "@npov/core";

/** Base class: an {@link NpovError} that also knows its HTTP status. */
export class AnnotateError extends NpovError {
  /** HTTP status the server answers with. */
  readonly status: number;
  constructor(code: string, status: number, message: string, options: { path?: string; cause?: unknown } = {}) {
    super(code, message, options);
    this.status = status;
  }
}

/** No token, or a token that belongs to nobody. */
export class UnauthorizedError extends AnnotateError {
  constructor() {
    super(
      "UNAUTHORIZED",
      401,
      "Unknown or missing token: sign in with the token `npov annotate tokens --add NAME` printed for you.",
    );
  }
}

/** A signed-in user asked for something their role may not do (e.g. an annotator exporting). */
export class ForbiddenError extends AnnotateError {
  constructor(what: string, role: string) {
    super("FORBIDDEN", 403, `Only an admin may ${what}; you are signed in as ${role}.`);
  }
}

/** An example id that is not assigned to the signed-in annotator (or does not exist). */
export class NotAssignedError extends AnnotateError {
  constructor(exampleId: number) {
    super(
      "NOT_ASSIGNED",
      403,
      `Example ${exampleId} is not assigned to you: annotate the example the app shows (GET /api/next).`,
    );
  }
}

/** An answer for an example the annotator already finished. */
export class AlreadyFinishedError extends AnnotateError {
  constructor(exampleId: number, status: string) {
    super("ALREADY_FINISHED", 409, `Example ${exampleId} is already ${status}; go on with the next example.`);
  }
}

/** A span that does not lie inside the response (or is empty or reversed). */
export class SpanOutOfRangeError extends AnnotateError {
  constructor(path: string, start: number, end: number, length: number) {
    super(
      "SPAN_OUT_OF_RANGE",
      400,
      `${path} = [${start}, ${end}) is not a span of the response (0 <= start < end <= ${length}): select text inside the response.`,
      { path },
    );
  }
}

/** An annotation that names an argument, sentence or kind that does not exist, or is inconsistent. */
export class InvalidAnnotationError extends AnnotateError {
  constructor(path: string, problem: string) {
    super("INVALID_ANNOTATION", 400, `${path}: ${problem}`, { path });
  }
}

/** A submission that leaves a question open (an argument neither covered nor uncovered, an AIS answer). */
export class IncompleteAnnotationError extends AnnotateError {
  constructor(problems: string[]) {
    super("INCOMPLETE_ANNOTATION", 400, `The annotation is not finished: ${problems.join("; ")}.`);
  }
}

/** A request body that fails the route's JSON schema (wrong type, missing field, unknown field). */
export class InvalidRequestError extends AnnotateError {
  constructor(problem: string) {
    super("INVALID_REQUEST", 400, `Invalid request: ${problem}.`);
  }
}

/** A request body larger than the server's limit. */
export class PayloadTooLargeError extends AnnotateError {
  constructor(limit: number) {
    super("PAYLOAD_TOO_LARGE", 413, `The request body is larger than ${limit} bytes: send one annotation at a time.`);
  }
}

/** A user name or role the admin command cannot accept. */
export class InvalidUserError extends AnnotateError {
  constructor(problem: string) {
    super("INVALID_USER", 400, problem);
  }
}

/** The installed SQLite driver cannot run on this Node.js (it would crash the process). */
export class SqliteDriverError extends AnnotateError {
  constructor(message: string) {
    super("SQLITE_DRIVER_UNSUPPORTED", 500, message);
  }
}

/** A database file that is not an npov annotation database (or has a newer schema). */
export class DatabaseFormatError extends AnnotateError {
  constructor(file: string, problem: string) {
    super("INVALID_DATABASE", 400, `${file}: ${problem}`);
  }
}

/** The front end could not be bundled (a broken install: web/ or preact missing). */
export class FrontendBuildError extends AnnotateError {
  constructor(problem: string) {
    super("FRONTEND_BUILD_FAILED", 500, `Cannot build the annotation app: ${problem}. Reinstall @npov/annotate.`);
  }
}

/** An agreement report file that is not `npov-agreement/1` JSON. */
export class AgreementFormatError extends AnnotateError {
  constructor(file: string, problem: string) {
    super(
      "INVALID_AGREEMENT",
      400,
      `${file}: ${problem}. Give the agreement.json that \`npov annotate export --agreement\` wrote.`,
    );
  }
}

/** No database where one must already exist (reading commands never create one: a typo would). */
export class DatabaseNotFoundError extends AnnotateError {
  constructor(file: string) {
    super(
      "DATABASE_NOT_FOUND",
      404,
      `${file}: no annotation database there; check the path, or create one with npov annotate import --db ${file} --data FILE.jsonl.`,
    );
  }
}

/**
 * Another process held the database's write lock for longer than the busy timeout (an import while
 * `npov annotate serve` writes, two imports at once). Nothing was changed; try again.
 */
export class DatabaseBusyError extends AnnotateError {
  constructor(file: string, waitedMs: number, cause?: unknown) {
    super(
      "DATABASE_BUSY",
      503,
      `${file}: another process kept the database locked for more than ${waitedMs} ms (e.g. a running npov annotate serve or import on the same file); nothing was changed: try again when it is done.`,
      { cause },
    );
  }
}

/** The database file, its folder or its file system is read-only, so nothing can be saved in it. */
export class DatabaseReadOnlyError extends AnnotateError {
  constructor(file: string, cause?: unknown) {
    super(
      "DATABASE_READ_ONLY",
      503,
      `${file}: the database is read-only (the file, its folder or its file system does not allow writing; SQLite also needs to create ${file}-wal and ${file}-shm beside it): make it writable, or copy it somewhere writable.`,
      { cause },
    );
  }
}
