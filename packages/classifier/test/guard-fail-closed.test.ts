import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  createGuard,
  DetectorFailedError,
  type GuardConfig,
  type GuardErrorVerdict,
  GuardTimeoutError,
  type GuardVerdict,
  loadGuard,
  loadGuardConfig,
  loadStacked,
  saveGuardConfig,
  saveStacked,
} from "@npov/classifier";
import {
  ContextTooLongError,
  type ErrorDetector,
  type ErrorScores,
  InvalidScoreError,
  NothingToScoreError,
  type NpovError,
  type NpovInput,
} from "@npov/core";
import { rougeErrorDetector } from "@npov/rouge";
import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";

const input: NpovInput = {
  topic: "zoos",
  query: "Should zoos be abolished?",
  perspectives: [
    { label: "pro", arguments: [{ text: "Keeping wild animals in enclosures deprives them of natural behaviour." }] },
    { label: "con", arguments: [{ text: "Zoos run breeding programs that save endangered species." }] },
  ],
};
const response = "People disagree. Zoos run breeding programs that save endangered species.";
const thresholds = { hallucination: 0.5, coverage: 0.5 };

/** A detector whose answer the test chooses; `calls` counts how often it was asked. */
function stub(name: string, detect: () => ErrorScores | Promise<ErrorScores>): ErrorDetector & { calls: number } {
  const d = {
    name,
    calls: 0,
    detect() {
      d.calls++;
      return detect();
    },
  };
  return d;
}

function blocked(v: GuardVerdict): GuardErrorVerdict {
  expect(v.allow).toBe(false);
  expect(v.error).toBe(true);
  if (!v.error) throw new Error("expected an error verdict");
  expect(v.reason.message.length).toBeGreaterThan(20);
  return v;
}

afterEach(() => {
  vi.useRealTimers();
});

describe("a guard fails closed", () => {
  it("blocks a detector that returns NaN, naming the field (INVALID_SCORE)", async () => {
    const guard = createGuard({
      detector: stub("nan", () => ({ hallucination: Number.NaN, coverage: 0 })),
      thresholds,
    });
    const v = blocked(await guard.check(input, response));
    expect(v.reason).toMatchObject({ code: "INVALID_SCORE", path: "hallucination" });
    expect(v.reason.message).toContain('Detector "nan" returned hallucination = NaN');
    expect(v.detector).toBe("nan");
    // A verdict is JSON: the reason survives serialisation (NaN would have become null).
    expect(JSON.parse(JSON.stringify(v))).toEqual(v);
  });

  it("blocks every score that is not a finite number in [0, 1], and scores every one that is", async () => {
    const bad = fc.oneof(
      fc.double({ noNaN: true, min: 1.000001, max: 1e300 }),
      fc.double({ noNaN: true, min: -1e300, max: -0.000001 }),
      fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY),
      fc.constantFrom("0.3", null, undefined, true, [0.2], { score: 0.1 }),
    );
    const good = fc.double({ noNaN: true, min: 0, max: 1 });
    await fc.assert(
      fc.asyncProperty(bad, good, fc.boolean(), async (b, g, badFirst) => {
        const scores = (
          badFirst ? { hallucination: b, coverage: g } : { hallucination: g, coverage: b }
        ) as ErrorScores;
        const v = await createGuard({ detector: stub("x", () => scores), thresholds }).check(input, response);
        expect(v).toMatchObject({
          allow: false,
          error: true,
          reason: { code: "INVALID_SCORE", path: badFirst ? "hallucination" : "coverage" },
        });
      }),
      { numRuns: 200 },
    );
    await fc.assert(
      fc.asyncProperty(good, good, async (h, c) => {
        const v = await createGuard({
          detector: stub("x", () => ({ hallucination: h, coverage: c })),
          thresholds,
        }).check(input, response);
        expect(v.error).toBe(false);
        if (v.error) return;
        expect([v.hallucination.score, v.coverage.score]).toEqual([h, c]);
        expect(v.allow).toBe(h < 0.5 && c < 0.5);
      }),
      { numRuns: 200 },
    );
  });

  it("clamps a rounding error just outside [0, 1] instead of blocking", async () => {
    const guard = createGuard({
      detector: stub("sum", () => ({ hallucination: 1 + 1e-12, coverage: -1e-12 })),
      thresholds,
    });
    const v = await guard.check(input, response);
    expect(v).toMatchObject({ error: false, allow: false, hallucination: { score: 1 }, coverage: { score: 0 } });
  });

  it("blocks a detector that throws: its NpovError code, else DETECTOR_FAILED with the cause's message", async () => {
    const plain = createGuard({
      detector: stub("broken", () => {
        throw new TypeError("Cannot read properties of undefined (reading 'dims')");
      }),
      thresholds,
    });
    const v = blocked(await plain.check(input, response));
    expect(v.reason.code).toBe("DETECTOR_FAILED");
    expect(v.reason.message).toContain("TypeError: Cannot read properties of undefined (reading 'dims')");
    const typed = createGuard({
      detector: stub("model", async () => {
        throw new ContextTooLongError("npov-cls", 9000, 512);
      }),
      thresholds,
    });
    expect(blocked(await typed.check(input, response)).reason.code).toBe("CONTEXT_TOO_LONG");
    const stopWords = createGuard({
      detector: stub("rouge", () => {
        throw new NothingToScoreError("response", "only stop words");
      }),
      thresholds,
    });
    expect(blocked(await stopWords.check(input, "It is what it is.")).reason).toMatchObject({
      code: "NOTHING_TO_SCORE",
      path: "response",
    });
  });

  it("blocks a response with nothing to score before asking the detector", async () => {
    const detector = stub("never", () => ({ hallucination: 0, coverage: 0 }));
    const guard = createGuard({ detector, thresholds });
    for (const [text, code] of [
      ["🙂🙂🙂 👍", "NOTHING_TO_SCORE"],
      ["?!... ---", "NOTHING_TO_SCORE"],
      ["\u200b\u200b", "NOTHING_TO_SCORE"],
      ["", "EMPTY_TEXT"],
      [" \n\t", "EMPTY_TEXT"],
    ] as const)
      expect([text, blocked(await guard.check(input, text)).reason.code]).toEqual([text, code]);
    expect(detector.calls).toBe(0);
    // The same with a real detector: ROUGE would have scored an emoji-only response as clean.
    const rouge = createGuard({ detector: rougeErrorDetector(), thresholds: { hallucination: 0.6, coverage: 1.01 } });
    expect(blocked(await rouge.check(input, "🙂🙂🙂")).reason).toMatchObject({
      code: "NOTHING_TO_SCORE",
      path: "response",
    });
    // Non-ASCII words are words: a Chinese response is scored, not refused.
    expect((await rouge.check(input, "动物园拯救濒危物种。")).error).toBe(false);
  });

  it("blocks a detector that does not answer within timeoutMs (GUARD_TIMEOUT); a late failure is swallowed", async () => {
    vi.useFakeTimers();
    let fail: (e: Error) => void = () => undefined;
    const hanging = stub("hang", () => new Promise<ErrorScores>((_, reject) => (fail = reject)));
    const guard = createGuard({ detector: hanging, thresholds, timeoutMs: 200 });
    const pending = guard.check(input, response);
    let settled = false;
    void pending.then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(199);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const v = blocked(await pending);
    expect(v.reason.code).toBe("GUARD_TIMEOUT");
    expect(v.reason.message).toContain("within 200 ms");
    // The abandoned detector fails later: no unhandled rejection (vitest would report one).
    fail(new Error("late"));
    await vi.advanceTimersByTimeAsync(10);
    // A detector that answers in time is scored as usual.
    const slow = stub(
      "slow",
      () => new Promise<ErrorScores>((r) => setTimeout(() => r({ hallucination: 0.1, coverage: 0.2 }), 150)),
    );
    const ok = createGuard({ detector: slow, thresholds, timeoutMs: 200 }).check(input, response);
    await vi.advanceTimersByTimeAsync(150);
    expect(await ok).toMatchObject({
      allow: true,
      error: false,
      hallucination: { score: 0.1 },
      coverage: { score: 0.2 },
    });
  });

  it('onError "throw" rethrows the typed error instead of blocking', async () => {
    const nan = createGuard({
      detector: stub("nan", () => ({ hallucination: 0.2, coverage: Number.NaN })),
      thresholds,
      onError: "throw",
    });
    const e1 = await nan.check(input, response).catch((e: unknown) => e);
    expect(e1).toBeInstanceOf(InvalidScoreError);
    expect(e1).toMatchObject({ code: "INVALID_SCORE", path: "coverage" });
    const broken = createGuard({
      detector: stub("broken", () => {
        throw new RangeError("Invalid typed array length: -4");
      }),
      thresholds,
      onError: "throw",
    });
    const e2 = await broken.check(input, response).catch((e: unknown) => e);
    expect(e2).toBeInstanceOf(DetectorFailedError);
    expect((e2 as Error).cause).toBeInstanceOf(RangeError);
    const emoji = await createGuard({
      detector: stub("x", () => ({ hallucination: 0, coverage: 0 })),
      thresholds,
      onError: "throw",
    })
      .check(input, "👍")
      .catch((e: unknown) => e);
    expect(emoji).toBeInstanceOf(NothingToScoreError);
    vi.useFakeTimers();
    const hang = createGuard({
      detector: stub("hang", () => new Promise<ErrorScores>(() => undefined)),
      thresholds,
      timeoutMs: 5,
      onError: "throw",
    });
    const e3 = hang.check(input, response).catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(5);
    expect(await e3).toBeInstanceOf(GuardTimeoutError);
  });

  it("still throws for a developer error: an invalid curated input or a response that is not a string", async () => {
    for (const onError of ["block", "throw"] as const) {
      const detector = stub("x", () => ({ hallucination: 0, coverage: 0 }));
      const guard = createGuard({ detector, thresholds, onError });
      const oneSide = { ...input, perspectives: input.perspectives.slice(0, 1) };
      await expect(guard.check(oneSide, response)).rejects.toMatchObject({ code: "TOO_FEW_PERSPECTIVES" });
      await expect(guard.check(input, 42 as unknown as string)).rejects.toMatchObject({ code: "NOT_TEXT" });
      await expect(guard.check(input, undefined as unknown as string)).rejects.toMatchObject({ code: "NOT_TEXT" });
      expect(detector.calls).toBe(0);
    }
  });

  it("rejects a bad policy or timeout when the guard is created", () => {
    const detector = stub("x", () => ({ hallucination: 0, coverage: 0 }));
    const make = (o: object) => () => createGuard({ detector, thresholds, ...o });
    expect(make({ onError: "ignore" })).toThrow(expect.objectContaining({ code: "INVALID_VALUE", path: "onError" }));
    for (const timeoutMs of [0, -5, 1.5, Number.NaN, 2 ** 31, "100"])
      expect(make({ timeoutMs })).toThrow(expect.objectContaining({ code: "INVALID_VALUE", path: "timeoutMs" }));
  });
});

describe("guard.json carries the policy", () => {
  const dir = mkdtempSync(join(tmpdir(), "npov-guard-fail-closed-"));
  const write = (name: string, extra: object) => {
    const file = join(dir, name);
    const config: GuardConfig = { format: "npov-guard/1", detector: { method: "nan" }, thresholds };
    writeFileSync(file, JSON.stringify({ ...config, ...extra }));
    return file;
  };
  const methods = { nan: () => stub("nan", () => ({ hallucination: Number.NaN, coverage: 0 })) };

  it("loadGuard reads onError and timeoutMs; options override the file", async () => {
    const file = write("throw.json", { onError: "throw", timeoutMs: 1000 });
    await expect((await loadGuard(file, { methods })).check(input, response)).rejects.toMatchObject({
      code: "INVALID_SCORE",
    });
    const overridden = await loadGuard(file, { methods, onError: "block" });
    expect(blocked(await overridden.check(input, response)).reason.code).toBe("INVALID_SCORE");
    // Default (no onError in the file): block.
    expect(
      blocked(await (await loadGuard(write("default.json", {}), { methods })).check(input, response)).reason.code,
    ).toBe("INVALID_SCORE");
  });

  it("a bad onError or timeoutMs in guard.json is an INVALID_FILE error naming the field, before any model loads", async () => {
    let built = 0;
    const counting = {
      nan: () => {
        built++;
        return stub("nan", () => ({ hallucination: 0, coverage: 0 }));
      },
    };
    for (const [name, extra, field] of [
      ["policy.json", { onError: "allow" }, "onError"],
      ["timeout.json", { timeoutMs: -1 }, "timeoutMs"],
      ["timeout-text.json", { timeoutMs: "5s" }, "timeoutMs"],
    ] as const) {
      const error = (await loadGuard(write(name, extra), { methods: counting }).catch(
        (e: unknown) => e,
      )) as NpovError & {
        issues: Array<{ field: string; message: string }>;
      };
      expect(error.code).toBe("INVALID_FILE");
      expect(error.issues[0]?.field).toBe(field);
      expect(error.message).toContain(field);
    }
    expect(built).toBe(0);
  });
});

describe("createGuard and loadGuardConfig refuse what they cannot use", () => {
  it("a missing detector or missing thresholds is INVALID_VALUE; a config of JSON null is INVALID_FILE", () => {
    const codeOf = (f: () => unknown): unknown => {
      try {
        f();
      } catch (e) {
        return (e as NpovError).code;
      }
      return "no error";
    };
    const detector = rougeErrorDetector();
    expect(codeOf(() => createGuard({ detector } as never))).toBe("INVALID_VALUE");
    expect(codeOf(() => createGuard({ thresholds } as never))).toBe("INVALID_VALUE");
    expect(codeOf(() => createGuard({ detector: {} as ErrorDetector, thresholds }))).toBe("INVALID_VALUE");
    expect(codeOf(() => createGuard(null as never))).toBe("INVALID_VALUE");
    const dir = mkdtempSync(join(tmpdir(), "npov-guard-null-"));
    for (const body of ["null", "[]", "7"]) {
      writeFileSync(join(dir, "g.json"), body);
      expect(codeOf(() => loadGuardConfig(join(dir, "g.json")))).toBe("INVALID_FILE");
    }
  });
});

describe("saveGuardConfig and saveStacked refuse what their loaders would refuse", () => {
  it("an invalid guard config or stacked model is INVALID_VALUE naming the field, and no file is written", async () => {
    const dir = mkdtempSync(join(tmpdir(), "npov-guard-save-"));
    const file = join(dir, "out.json");
    const good = { format: "npov-guard/1", detector: { method: "rouge" }, thresholds } as const;
    for (const [bad, field] of [
      [{ ...good, thresholds: { hallucination: 0.5, coverage: Number.NaN } }, "config.thresholds.coverage"],
      [{ ...good, detector: {} }, "config.detector.method"],
      [{ ...good, onError: "allow" }, "config.onError"],
      [{ ...good, timeoutMs: 0 }, "config.timeoutMs"],
      [{ ...good, calibration: { n: 10n } }, "config"],
      [{ ...good, detector: { method: "rouge", model: 5 } }, "config.detector.model"],
    ] as const) {
      const error = (() => {
        try {
          saveGuardConfig(file, bad as never);
        } catch (e) {
          return e as NpovError & { path?: string };
        }
        return undefined;
      })();
      expect(error?.code).toBe("INVALID_VALUE");
      expect(error?.path).toBe(field);
      expect(existsSync(file)).toBe(false);
    }
    saveGuardConfig(file, good as never);
    expect(loadGuardConfig(file)).toEqual(good);
    // A config object given to loadGuard is checked the same way (it crashed on a missing detector).
    await expect(loadGuard({ format: "npov-guard/1", thresholds } as never)).rejects.toMatchObject({
      code: "INVALID_VALUE",
      path: "config.detector.method",
    });
    const model = { features: ["x"], mean: [0], std: [1], weights: [2], bias: 0.5 };
    const stackedFile = join(dir, "stacked.json");
    expect(() =>
      saveStacked(stackedFile, { format: "npov-stacked/1", hallucination: model, coverage: { ...model, std: [0] } }),
    ).toThrow(expect.objectContaining({ code: "INVALID_VALUE", path: "model.coverage.std[0]" }));
    expect(existsSync(stackedFile)).toBe(false);
    saveStacked(stackedFile, { format: "npov-stacked/1", hallucination: model, coverage: model });
    expect(loadStacked(stackedFile)).toEqual({ format: "npov-stacked/1", hallucination: model, coverage: model });
  });
});
