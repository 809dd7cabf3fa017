import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type Annotation,
  AnnotationStore,
  emptyAnnotation,
  type RunningServer,
  startAnnotationServer,
  type WorkItem,
} from "@npov/annotate";
import type { NpovExample } from "@npov/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spanOf, UNIFORMS, VEGETARIAN, ZOOS } from "./fixtures.js";

let dir: string;
let store: AnnotationStore;
let server: RunningServer;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "npov-annotate-server-"));
  store = AnnotationStore.open(join(dir, "a.sqlite"));
  store.configure({ perExample: 2 });
  // Six examples: the three fixtures and three copies with other ids.
  const copies: NpovExample[] = [ZOOS, UNIFORMS, VEGETARIAN].map((e) => ({ ...e, id: `${e.id}-copy` }));
  store.importExamples([ZOOS, UNIFORMS, VEGETARIAN, ...copies]);
  for (const [name, role] of [
    ["alice", "annotator"],
    ["bob", "annotator"],
    ["root", "admin"],
  ] as const)
    tokens[name] = store.addUser(name, role);
  server = await startAnnotationServer({ store, bodyLimit: 64 * 1024 });
});

afterAll(async () => {
  await server?.close();
  store?.close();
  rmSync(dir, { recursive: true, force: true });
});

async function call(
  token: string | undefined,
  method: string,
  path: string,
  body?: unknown,
  raw?: string,
): Promise<{ status: number; json: { error?: { code: string; message: string } } & Record<string, unknown> }> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
      ...(body === undefined && raw === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(raw !== undefined ? { body: raw } : body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, json: (await response.json()) as never };
}

/** A complete annotation for a fixture: every argument covered by the words that state it. */
function complete(item: WorkItem): Annotation {
  const a = emptyAnnotation();
  const phrases: Record<string, string[][]> = {
    zoos: [["zoos keep animals in small cages"], ["zoos protect endangered species"]],
    "school uniforms": [["uniforms reduce bullying", ""], ["uniforms limit self-expression"]],
    vegetarianism: [["lower the risk of disease"], ["an important source of protein"]],
  };
  for (const [p, args] of (phrases[item.input.topic] as string[][]).entries())
    for (const [k, phrase] of args.entries()) {
      if (phrase === "") a.uncoveredArguments.push([p, k]);
      else a.argumentSpans.push({ ...spanOf(item.response, phrase), perspective: p, argument: k });
    }
  return a;
}

describe("annotation server: bad input and abuse", () => {
  it("serves the app with a strict content security policy", async () => {
    const page = await fetch(server.url);
    expect(page.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect(await page.text()).toContain('<script type="module" src="/app.js">');
    const js = await fetch(`${server.url}/app.js`);
    expect(js.headers.get("content-type")).toContain("text/javascript");
    expect((await js.text()).length).toBeGreaterThan(5000);
  });

  it("refuses a wrong token, another annotator's example, a span outside the response and a huge payload, writing nothing", async () => {
    const next = await call(tokens.alice, "GET", "/api/next");
    expect(next.status).toBe(200);
    const item = next.json.item as WorkItem;
    const before = store.counts();

    const wrong = await call("not-a-token", "GET", "/api/next");
    expect([wrong.status, wrong.json.error?.code]).toEqual([401, "UNAUTHORIZED"]);
    const none = await call(undefined, "PUT", `/api/examples/${item.exampleId}/draft`, emptyAnnotation());
    expect([none.status, none.json.error?.code]).toEqual([401, "UNAUTHORIZED"]);
    // The token is checked before the body is read: a huge body with a wrong token is still a 401.
    const hugeWrong = await call(
      "not-a-token",
      "PUT",
      `/api/examples/${item.exampleId}/draft`,
      undefined,
      "x".repeat(100_000),
    );
    expect([hugeWrong.status, hugeWrong.json.error?.code]).toEqual([401, "UNAUTHORIZED"]);
    // The router decodes "%61" to "a": the check follows the matched route, so the body (not even JSON
    // here) is still never parsed without a token.
    const encoded = await call(undefined, "PUT", `/%61pi/examples/${item.exampleId}/draft`, undefined, "{ nope");
    expect([encoded.status, encoded.json.error?.code]).toEqual([401, "UNAUTHORIZED"]);

    // Bob has no assignment yet; alice's example id is not his.
    const other = await call(tokens.bob, "POST", `/api/examples/${item.exampleId}/finish`, { action: "skip" });
    expect([other.status, other.json.error?.code]).toEqual([403, "NOT_ASSIGNED"]);
    expect(other.json.error?.message).toContain(`Example ${item.exampleId} is not assigned to you`);

    const outside = await call(tokens.alice, "PUT", `/api/examples/${item.exampleId}/draft`, {
      ...emptyAnnotation(),
      hallucinatedSpans: [{ start: 10, end: item.response.length + 1 }],
    });
    expect([outside.status, outside.json.error?.code]).toEqual([400, "SPAN_OUT_OF_RANGE"]);

    const huge = await call(tokens.alice, "PUT", `/api/examples/${item.exampleId}/draft`, {
      ...emptyAnnotation(),
      hallucinatedSpans: Array.from({ length: 5000 }, () => ({ start: 0, end: 4 })),
    });
    expect([huge.status, huge.json.error?.code]).toEqual([413, "PAYLOAD_TOO_LARGE"]);

    const typed = await call(tokens.alice, "PUT", `/api/examples/${item.exampleId}/draft`, {
      ...emptyAnnotation(),
      hallucinatedSpans: [{ start: "0", end: 4 }],
    });
    expect([typed.status, typed.json.error?.code]).toEqual([400, "INVALID_REQUEST"]);
    const unknownField = await call(tokens.alice, "PUT", `/api/examples/${item.exampleId}/draft`, {
      ...emptyAnnotation(),
      sneaky: true,
    });
    expect([unknownField.status, unknownField.json.error?.code]).toEqual([400, "INVALID_REQUEST"]);
    const notJson = await call(tokens.alice, "PUT", `/api/examples/${item.exampleId}/draft`, undefined, "{ nope");
    expect(notJson.status).toBe(400);
    const badId = await call(tokens.alice, "POST", "/api/examples/abc/finish", { action: "skip" });
    expect([badId.status, badId.json.error?.code]).toEqual([400, "INVALID_REQUEST"]);
    const incomplete = await call(tokens.alice, "POST", `/api/examples/${item.exampleId}/finish`, {
      action: "submit",
      annotation: emptyAnnotation(),
    });
    expect([incomplete.status, incomplete.json.error?.code]).toEqual([400, "INCOMPLETE_ANNOTATION"]);

    const exportByAnnotator = await call(tokens.alice, "GET", "/api/admin/export");
    expect([exportByAnnotator.status, exportByAnnotator.json.error?.code]).toEqual([403, "FORBIDDEN"]);
    const adminAnnotates = await call(tokens.root, "GET", "/api/next");
    expect([adminAnnotates.status, adminAnnotates.json.error?.code]).toEqual([403, "FORBIDDEN"]);

    expect(store.counts()).toEqual(before);
    // The server survived all of it and alice still resumes her example, with no draft.
    const again = await call(tokens.alice, "GET", "/api/next");
    expect((again.json.item as WorkItem).exampleId).toBe(item.exampleId);
    expect((again.json.item as WorkItem).draft).toBeNull();
  });

  it("refuses a port out of range, a port in use and an address not on this machine", async () => {
    const error = async (options: { host?: string; port?: number }) => {
      try {
        const started = await startAnnotationServer({ store, ...options });
        await started.close();
        return "started";
      } catch (e) {
        return (e as { code?: string }).code;
      }
    };
    expect(await error({ port: 70_000 })).toBe("INVALID_VALUE");
    expect(await error({ port: Number(new URL(server.url).port) })).toBe("PORT_IN_USE");
    expect(await error({ host: "no-such-host.invalid" })).toBe("LISTEN_FAILED");
  });

  it("loses nothing when two annotators work at once", async () => {
    const work = async (name: string) => {
      const done: number[] = [];
      for (;;) {
        const next = await call(tokens[name], "GET", "/api/next");
        const item = next.json.item as WorkItem | null;
        if (item === null) return done;
        const answer = complete(item);
        // A burst of parallel draft saves, as a fast annotator's app sends them.
        const drafts = await Promise.all(
          answer.argumentSpans.flatMap((_, k) =>
            Array.from({ length: 5 }, () =>
              call(tokens[name], "PUT", `/api/examples/${item.exampleId}/draft`, {
                ...answer,
                argumentSpans: answer.argumentSpans.slice(0, k + 1),
                uncoveredArguments: [],
              }),
            ),
          ),
        );
        expect(drafts.filter((d) => d.status !== 200).map((d) => d.json)).toEqual([]);
        const finish = await call(tokens[name], "POST", `/api/examples/${item.exampleId}/finish`, {
          action: "submit",
          annotation: answer,
        });
        expect(finish.status).toBe(200);
        done.push(item.exampleId);
      }
    };
    const [alice, bob] = await Promise.all([work("alice"), work("bob")]);
    expect([alice.length, bob.length]).toEqual([6, 6]);
    const answers = store.answers("task");
    expect(answers.filter((a) => a.status === "submitted")).toHaveLength(12);
    expect(store.progress().overall).toMatchObject({ answered: 12, complete: 6, target: 12 });
    expect(store.counts().drafts).toBe(0);

    const exported = await call(tokens.root, "GET", "/api/admin/export");
    expect(exported.status).toBe(200);
    const lines = (exported.json.jsonl as string).trim().split("\n");
    expect(lines).toHaveLength(6);
    const uniforms = JSON.parse(lines[1] as string) as NpovExample;
    expect(uniforms.labels).toEqual({ hallucination: false, coverage: true, ambiguous: false });
  });
});
