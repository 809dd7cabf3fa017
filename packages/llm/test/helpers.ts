// A real HTTP server on 127.0.0.1 that plays an OpenAI-compatible endpoint from a handler, recording every
// request (path, headers, JSON body) and how many were in flight at once.
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface Recorded {
  path: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
  at: number;
}

export interface Answer {
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** Wait this long before answering. */
  delayMs?: number;
  /** Never answer (to test timeouts). */
  hang?: boolean;
}

export interface FakeEndpoint {
  url: string;
  requests: Recorded[];
  maxInFlight: number;
  close(): Promise<void>;
}

export function fakeEndpoint(handler: (request: Recorded, index: number) => Answer): Promise<FakeEndpoint> {
  const state = { requests: [] as Recorded[], inFlight: 0, maxInFlight: 0 };
  const server: Server = createServer((req, res) => {
    let data = "";
    req.on("data", (c) => {
      data += c;
    });
    req.on("end", () => {
      const recorded: Recorded = {
        path: req.url ?? "",
        headers: req.headers,
        body: data ? (JSON.parse(data) as Record<string, unknown>) : {},
        at: Date.now(),
      };
      const index = state.requests.push(recorded) - 1;
      let answer: Answer;
      try {
        answer = handler(recorded, index);
      } catch (error) {
        // A broken test script answers 500 (and fails the test) instead of hanging the request.
        answer = { status: 500, body: { error: { message: `test handler failed: ${String(error)}` } } };
      }
      if (answer.hang) return;
      state.inFlight++;
      state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
      setTimeout(() => {
        state.inFlight--;
        res.writeHead(answer.status ?? 200, { "content-type": "application/json", ...(answer.headers ?? {}) });
        res.end(JSON.stringify(answer.body ?? { error: { message: `status ${answer.status}` } }));
      }, answer.delayMs ?? 0);
    });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
        requests: state.requests,
        get maxInFlight() {
          return state.maxInFlight;
        },
        close: () =>
          new Promise<void>((r) => {
            server.closeAllConnections();
            server.close(() => r());
          }),
      }),
    ),
  );
}

/** A chat completion answering `content`, with optional top log-probabilities for the first token. */
export function chatReply(
  content: string,
  top?: Array<[string, number]>,
  usage = { prompt_tokens: 10, completion_tokens: 1 },
): unknown {
  return {
    id: "chatcmpl-test",
    object: "chat.completion",
    created: 0,
    model: "m",
    choices: [
      {
        index: 0,
        message: { role: "assistant", content },
        finish_reason: "stop",
        logprobs:
          top === undefined
            ? null
            : {
                content: [
                  {
                    token: top[0]![0],
                    logprob: Math.log(top[0]![1]),
                    top_logprobs: top.map(([token, p]) => ({ token, logprob: Math.log(p) })),
                  },
                ],
              },
      },
    ],
    usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
  };
}

/** The user message of a recorded chat request. */
export function userMessage(r: Recorded): string {
  const messages = r.body.messages as Array<{ role: string; content: string }>;
  return messages.filter((m) => m.role === "user").at(-1)?.content ?? "";
}
