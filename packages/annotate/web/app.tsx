/**
 * The npov annotation app (Preact). Bundled by the server with esbuild when it starts (src/bundle.ts);
 * type-checked with `tsc -p packages/annotate/web`. Screens: sign-in, annotate (spans, uncovered
 * arguments, ambiguous errors, AIS questions), calibration feedback, done, admin (progress and export).
 * Every frequent action has a key; `?` lists them.
 */
import { type ComponentChildren, render } from "preact";
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "preact/hooks";
import type { AgreementReport } from "../src/aggregate.js";
import type { AmbiguousMark, Annotation, SentenceRating } from "../src/annotation.js";
import { type CalibrationFeedback, MAX_POINTS } from "../src/calibration.js";
import type { AnnotatorProgress, ProjectProgress, Role, StoreSettings, WorkItem } from "../src/store.js";

type Span = { start: number; end: number };
type AmbiguousKind = AmbiguousMark["kind"];

const TOKEN_KEY = "npov-annotate-token";

class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

async function api<T>(token: string, path: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
  const response = await fetch(path, {
    method: init.method ?? "GET",
    headers: {
      authorization: `Bearer ${token}`,
      ...(init.body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
  const data = (await response.json().catch(() => ({}))) as { error?: { code: string; message: string } };
  if (!response.ok || data.error !== undefined)
    throw new ApiError(
      response.status,
      data.error?.code ?? "HTTP",
      data.error?.message ?? `The server answered ${response.status}.`,
    );
  return data as T;
}

interface Me {
  name: string;
  role: Role;
  settings: StoreSettings;
}

interface Mine {
  me: AnnotatorProgress | null;
  overall: ProjectProgress["overall"];
}

const AMBIGUOUS: Array<{ kind: AmbiguousKind; key: string; label: string }> = [
  { kind: "partial-hallucination", key: "p", label: "partial hallucination" },
  { kind: "partial-coverage", key: "o", label: "partial coverage" },
  { kind: "repetition", key: "r", label: "repetition" },
  { kind: "perspective-confusion", key: "c", label: "perspective confusion" },
];

const SHORTCUTS: Array<[string, string]> = [
  ["← →", "move the word cursor (Shift: extend the selection)"],
  ["1-9", "the selection covers argument N"],
  ["Shift+1-9", "argument N is not covered (toggle)"],
  ["h", "the selection is hallucinated (states something not given)"],
  ["p o r c", "ambiguous: partial hallucination, partial coverage, repetition, perspective confusion"],
  ["Backspace", "remove marks under the selection"],
  ["z", "undo"],
  ["j k", "next / previous sentence (AIS questions)"],
  ["y n", "answer the current AIS question"],
  ["Enter", "submit (or go on after feedback)"],
  ["s", "skip this example"],
  ["f", "flag this example as broken"],
  ["Esc", "clear the selection, close dialogs"],
  ["?", "show or hide this help"],
];

const overlaps = (a: Span, b: Span) => a.start < b.end && b.start < a.end;

function emptyAnnotation(): Annotation {
  return { argumentSpans: [], hallucinatedSpans: [], uncoveredArguments: [], ambiguous: [], ais: [] };
}

/** At most `max` characters, cut between code points (never half an emoji). */
function excerpt(text: string, max = 60): string {
  const chars = Array.from(text);
  return chars.length > max ? `${chars.slice(0, max - 1).join("")}…` : text;
}

/* ------------------------------------------------------------------ sign-in */

function SignIn(props: { onToken: (token: string) => void; error: string | null }) {
  const [value, setValue] = useState("");
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => ref.current?.focus(), []);
  return (
    <main class="signin">
      <h1>npov annotate</h1>
      <p>
        Label neutral responses to controversial questions: which argument each part covers, what is made up, what is
        left out.
      </p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (value.trim()) props.onToken(value.trim());
        }}
      >
        <label for="token">Your token</label>
        <input
          id="token"
          ref={ref}
          type="password"
          autocomplete="off"
          value={value}
          onInput={(e) => setValue((e.target as HTMLInputElement).value)}
        />
        <button type="submit" id="signin">
          Sign in
        </button>
      </form>
      {props.error && (
        <p class="error" role="alert">
          {props.error}
        </p>
      )}
      <p class="hint">
        The project admin gives you a token (made with <code>npov annotate tokens --add NAME</code>).
      </p>
    </main>
  );
}

/* ------------------------------------------------------------------ header */

function Header(props: { me: Me; mine?: Mine | null; onSignOut: () => void }) {
  const { me, mine } = props;
  const overall = mine?.overall;
  return (
    <header class="top">
      <strong>npov annotate</strong>
      <span class="who">
        {me.name} ({me.role})
      </span>
      {mine?.me && (
        <span class="progress-mine" id="progress-mine">
          you: {mine.me.submitted} done
          {mine.me.calibration.total > 0 &&
            ` · calibration ${mine.me.calibration.done}/${mine.me.calibration.total}, ${mine.me.calibration.points} points`}
        </span>
      )}
      {overall && (
        <span class="progress-overall" id="progress-overall">
          overall: {overall.answered}/{overall.target} labels ({overall.complete}/{overall.examples} examples complete)
        </span>
      )}
      <button type="button" class="link" onClick={props.onSignOut}>
        Sign out
      </button>
    </header>
  );
}

/* ------------------------------------------------------------------ annotate */

interface FlatArgument {
  n: number;
  perspective: number;
  argument: number;
  label: string;
  text: string;
}

/** What the annotator did with an example: what the next screen confirms. */
type FinishAction = "submit" | "skip" | "flag";

function Task(props: {
  token: string;
  item: WorkItem;
  /** Confirms what happened to the previous example (consecutive examples can share a response). */
  notice?: string | null;
  onFinished: (
    result: { status: string; feedback: CalibrationFeedback | null; progress: Mine },
    action: FinishAction,
  ) => void;
}) {
  const { item, token } = props;
  const [ann, setAnn] = useState<Annotation>(() => item.draft ?? emptyAnnotation());
  const [history, setHistory] = useState<Annotation[]>([]);
  const [sel, setSel] = useState<{ a: number; f: number } | null>(null);
  const [sentence, setSentence] = useState(0);
  const [saveState, setSaveState] = useState<"saved" | "saving" | "idle" | "error">(item.draft ? "saved" : "idle");
  const [error, setError] = useState<string | null>(null);
  const [flagging, setFlagging] = useState(false);
  const [reason, setReason] = useState("");
  const [help, setHelp] = useState(false);
  const [busy, setBusy] = useState(false);
  const first = useRef(true);
  const toolbar = useRef<HTMLDivElement>(null);
  const footer = useRef<HTMLElement>(null);

  // A new example starts at the top of the page, where the confirmation of the previous one shows.
  useLayoutEffect(() => {
    window.scrollTo(0, 0);
  }, []);

  // The fixed footer's height, as --footer-h: the page keeps that much room below its content and scrolls
  // with that margin, so the footer (two rows on a phone) never covers the last section or the toolbar.
  useLayoutEffect(() => {
    const el = footer.current;
    if (el === null) return;
    const set = () => document.documentElement.style.setProperty("--footer-h", `${el.offsetHeight}px`);
    set();
    const observer = new ResizeObserver(set);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  const args: FlatArgument[] = useMemo(() => {
    const out: FlatArgument[] = [];
    for (const [pi, p] of item.input.perspectives.entries())
      for (const [ai, a] of p.arguments.entries())
        out.push({ n: out.length + 1, perspective: pi, argument: ai, label: p.label, text: a.text });
    return out;
  }, [item]);

  const rating = (s: number): SentenceRating =>
    ann.ais.find((r) => r.sentence === s) ?? { sentence: s, interpretable: null, supported: null };
  const stage1 = item.ais && item.sentences.some((_, s) => rating(s).interpretable === null);

  const update = useCallback(
    (next: Annotation) => {
      setHistory((h) => [...h.slice(-99), ann]);
      setAnn(next);
    },
    [ann],
  );

  // Save a draft shortly after every change, so a reload resumes here. Saves go one after another: two
  // requests in flight at once may arrive in either order, and an older draft arriving last would
  // overwrite the newer one.
  const saves = useRef<Promise<void>>(Promise.resolve());
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    setSaveState("saving");
    const timer = setTimeout(() => {
      const draft = ann;
      saves.current = saves.current.then(() =>
        api(token, `/api/examples/${item.exampleId}/draft`, { method: "PUT", body: draft })
          .then(() => setSaveState("saved"))
          .catch((e: ApiError) => {
            setSaveState("error");
            setError(e.message);
          }),
      );
    }, 250);
    return () => clearTimeout(timer);
  }, [ann]);

  const selection: Span | null =
    sel === null
      ? null
      : {
          start: (item.words[Math.min(sel.a, sel.f)] as Span).start,
          end: (item.words[Math.max(sel.a, sel.f)] as Span).end,
        };

  // A new selection brings its toolbar into view: on a phone it can open below the screen's edge or behind
  // the footer (the page's scroll-padding keeps the footer's height clear).
  useEffect(() => {
    toolbar.current?.scrollIntoView({ block: "nearest" });
  }, [selection?.start, selection?.end]);

  const coveredBy = (a: FlatArgument) =>
    ann.argumentSpans.filter((m) => m.perspective === a.perspective && m.argument === a.argument);
  const isUncovered = (a: FlatArgument) =>
    ann.uncoveredArguments.some(([p, k]) => p === a.perspective && k === a.argument);

  const needSelection = (): Span | null => {
    if (stage1) {
      setError("First answer, for every sentence, whether it is interpretable on its own.");
      return null;
    }
    if (selection === null) {
      setError("Select some words of the response first (drag with the mouse, or ← → with Shift).");
      return null;
    }
    return selection;
  };

  const markArgument = (a: FlatArgument) => {
    const s = needSelection();
    if (!s) return;
    update({
      ...ann,
      argumentSpans: [...ann.argumentSpans, { ...s, perspective: a.perspective, argument: a.argument }],
      uncoveredArguments: ann.uncoveredArguments.filter(([p, k]) => !(p === a.perspective && k === a.argument)),
    });
    setSel(null);
    setError(null);
  };
  const toggleUncovered = (a: FlatArgument) => {
    if (stage1) return needSelection();
    if (isUncovered(a))
      update({
        ...ann,
        uncoveredArguments: ann.uncoveredArguments.filter(([p, k]) => !(p === a.perspective && k === a.argument)),
      });
    else
      update({
        ...ann,
        argumentSpans: ann.argumentSpans.filter((m) => !(m.perspective === a.perspective && m.argument === a.argument)),
        uncoveredArguments: [...ann.uncoveredArguments, [a.perspective, a.argument]],
      });
    setError(null);
  };
  const markHallucinated = () => {
    const s = needSelection();
    if (!s) return;
    update({ ...ann, hallucinatedSpans: [...ann.hallucinatedSpans, s] });
    setSel(null);
    setError(null);
  };
  const markAmbiguous = (kind: AmbiguousKind) => {
    const s = needSelection();
    if (!s) return;
    update({ ...ann, ambiguous: [...ann.ambiguous, { ...s, kind }] });
    setSel(null);
    setError(null);
  };
  const removeAtSelection = () => {
    if (selection === null) return;
    update({
      ...ann,
      argumentSpans: ann.argumentSpans.filter((m) => !overlaps(m, selection)),
      hallucinatedSpans: ann.hallucinatedSpans.filter((m) => !overlaps(m, selection)),
      ambiguous: ann.ambiguous.filter((m) => !overlaps(m, selection)),
    });
  };
  const undo = () => {
    const previous = history[history.length - 1];
    if (previous === undefined) return;
    setHistory(history.slice(0, -1));
    setAnn(previous);
  };

  const answer = (s: number, value: boolean, question: "interpretable" | "supported") => {
    const current = rating(s);
    const next: SentenceRating =
      question === "interpretable"
        ? { sentence: s, interpretable: value, supported: value ? current.supported : null }
        : { ...current, supported: value };
    update({ ...ann, ais: [...ann.ais.filter((r) => r.sentence !== s), next].sort((a, b) => a.sentence - b.sentence) });
  };
  const answerCurrent = (value: boolean) => {
    if (!item.ais) return;
    const r = rating(sentence);
    if (stage1 || r.interpretable === null) {
      answer(sentence, value, "interpretable");
      const pending = item.sentences.map((_, s) => s).filter((s) => s !== sentence && rating(s).interpretable === null);
      const after = pending.find((s) => s > sentence) ?? pending[0];
      if (after !== undefined) setSentence(after);
      else {
        // Step 2 starts: go to the first interpretable sentence whose support is still open.
        const open = item.sentences.findIndex(
          (_, s) => (s === sentence ? value : rating(s).interpretable === true) && rating(s).supported === null,
        );
        if (open >= 0) setSentence(open);
      }
    } else if (r.interpretable) {
      answer(sentence, value, "supported");
      const after = item.sentences.findIndex(
        (_, s) => s > sentence && rating(s).interpretable === true && rating(s).supported === null,
      );
      if (after >= 0) setSentence(after);
    }
  };

  const undecided = args.filter((a) => coveredBy(a).length === 0 && !isUncovered(a));
  const unanswered = item.ais
    ? item.sentences.filter((_, s) => {
        const r = rating(s);
        return r.interpretable === null || (r.interpretable && r.supported === null);
      }).length
    : 0;
  const complete = undecided.length === 0 && unanswered === 0;

  const finish = async (body: { action: FinishAction } & Record<string, unknown>) => {
    if (busy) return;
    setBusy(true);
    try {
      await saves.current; // a draft save still in flight would otherwise be refused as ALREADY_FINISHED
      const result = await api<{ status: string; feedback: CalibrationFeedback | null; progress: Mine }>(
        token,
        `/api/examples/${item.exampleId}/finish`,
        { method: "POST", body },
      );
      props.onFinished(result, body.action);
    } catch (e) {
      setError((e as Error).message);
      setBusy(false);
    }
  };
  const submit = () => {
    if (!complete) {
      setError(
        undecided.length > 0
          ? `Decide every argument first: mark its span (select, then ${undecided[0]?.n}) or mark it uncovered (Shift+${undecided[0]?.n}).`
          : "Answer the AIS questions for every sentence first.",
      );
      return;
    }
    void finish({ action: "submit", annotation: ann });
  };

  // Keyboard shortcuts. One listener for the component's life calls the handler of the latest render:
  // effects run after paint, so a listener re-registered per render would see stale state for keys
  // pressed in between (fast typists, tests). It is registered before the first paint (layout effect),
  // so a key pressed as soon as the example shows is not lost.
  const keyHandler = useRef<(e: KeyboardEvent) => void>(() => {});
  useLayoutEffect(() => {
    const listener = (e: KeyboardEvent) => keyHandler.current(e);
    document.addEventListener("keydown", listener);
    return () => document.removeEventListener("keydown", listener);
  }, []);
  keyHandler.current = (e: KeyboardEvent) => {
    const target = e.target as HTMLElement;
    if (target.closest("input, textarea")) return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const n = /^(?:Digit|Numpad)([1-9])$/.exec(e.code);
    const words = item.words.length;
    const handled = () => e.preventDefault();
    if (help && e.key !== "?" && e.key !== "Escape") return;
    if (n) {
      const a = args[Number(n[1]) - 1];
      if (a === undefined) return;
      handled();
      if (e.shiftKey) toggleUncovered(a);
      else markArgument(a);
      return;
    }
    switch (e.key) {
      case "ArrowRight":
      case "ArrowLeft": {
        if (words === 0) return;
        handled();
        const step = e.key === "ArrowRight" ? 1 : -1;
        const clamp = (x: number) => Math.max(0, Math.min(words - 1, x));
        if (sel === null) setSel({ a: step > 0 ? 0 : words - 1, f: step > 0 ? 0 : words - 1 });
        else if (e.shiftKey) setSel({ a: sel.a, f: clamp(sel.f + step) });
        else {
          const at = clamp(sel.f + step);
          setSel({ a: at, f: at });
        }
        return;
      }
      case "h":
        handled();
        return markHallucinated();
      case "Backspace":
      case "Delete":
        handled();
        return removeAtSelection();
      case "z":
        handled();
        return undo();
      case "j":
        handled();
        return setSentence((s) => Math.min(item.sentences.length - 1, s + 1));
      case "k":
        handled();
        return setSentence((s) => Math.max(0, s - 1));
      case "y":
      case "n":
        handled();
        return answerCurrent(e.key === "y");
      case "Enter":
        handled();
        return submit();
      case "s":
        handled();
        return void finish({ action: "skip" });
      case "f":
        handled();
        setFlagging(true);
        return;
      case "Escape":
        setSel(null);
        setHelp(false);
        setFlagging(false);
        return;
      case "?":
        handled();
        setHelp((h) => !h);
        return;
    }
    const amb = AMBIGUOUS.find((x) => x.key === e.key);
    if (amb) {
      handled();
      markAmbiguous(amb.kind);
    }
  };

  // Mouse: a text selection inside the response becomes a word selection.
  const responseRef = useRef<HTMLDivElement>(null);
  const onMouseUp = () => {
    const s = window.getSelection();
    if (!s || s.isCollapsed || s.rangeCount === 0) return;
    const range = s.getRangeAt(0);
    if (!responseRef.current?.contains(range.commonAncestorContainer)) return;
    const locate = (node: Node, offset: number, edge: "start" | "end"): number | null => {
      let el: Element | null;
      if (node.nodeType === Node.TEXT_NODE) el = node.parentElement;
      else {
        const child = node.childNodes[Math.min(offset, node.childNodes.length - 1)];
        el = child instanceof Element ? child : (child?.parentElement ?? null);
      }
      const word = el?.closest("[data-w]");
      if (word) {
        const w = Number((word as HTMLElement).dataset.w);
        return edge === "end" && node.nodeType === Node.TEXT_NODE && offset === 0 ? w - 1 : w;
      }
      const gap = el?.closest("[data-g]");
      if (gap) {
        const g = Number((gap as HTMLElement).dataset.g);
        return edge === "start" ? g : g - 1;
      }
      return null;
    };
    const a = locate(range.startContainer, range.startOffset, "start");
    const f = locate(range.endContainer, range.endOffset, "end");
    s.removeAllRanges();
    if (a === null || f === null || f < a) return;
    setSel({ a: Math.min(a, item.words.length - 1), f: Math.max(0, Math.min(f, item.words.length - 1)) });
    setError(null);
  };

  // Words, gaps and the marks on each word.
  const pieces = useMemo(() => {
    const out: Array<{ kind: "word" | "gap"; index: number; text: string; span: Span }> = [];
    let cursor = 0;
    item.words.forEach((w, i) => {
      out.push({
        kind: "gap",
        index: i,
        text: item.response.slice(cursor, w.start),
        span: { start: cursor, end: w.start },
      });
      out.push({ kind: "word", index: i, text: item.response.slice(w.start, w.end), span: w });
      cursor = w.end;
    });
    out.push({
      kind: "gap",
      index: item.words.length,
      text: item.response.slice(cursor),
      span: { start: cursor, end: item.response.length },
    });
    return out;
  }, [item]);
  const sentenceOf = (w: Span) => item.sentences.findIndex((s) => overlaps(s, w));
  const selected = (i: number) => sel !== null && i >= Math.min(sel.a, sel.f) && i <= Math.max(sel.a, sel.f);

  const argNumber = (p: number, k: number) => args.find((a) => a.perspective === p && a.argument === k)?.n ?? 0;
  const marks = [
    ...ann.argumentSpans.map((m) => ({
      span: m as Span,
      label: `covers argument ${argNumber(m.perspective, m.argument)}`,
      cls: `arg-${(argNumber(m.perspective, m.argument) - 1) % 6}`,
      remove: () => update({ ...ann, argumentSpans: ann.argumentSpans.filter((x) => x !== m) }),
    })),
    ...ann.hallucinatedSpans.map((m) => ({
      span: m,
      label: "hallucinated",
      cls: "hal",
      remove: () => update({ ...ann, hallucinatedSpans: ann.hallucinatedSpans.filter((x) => x !== m) }),
    })),
    ...ann.ambiguous.map((m) => ({
      span: m as Span,
      label: `ambiguous: ${m.kind}`,
      cls: "amb",
      remove: () => update({ ...ann, ambiguous: ann.ambiguous.filter((x) => x !== m) }),
    })),
  ].sort((a, b) => a.span.start - b.span.start);

  return (
    <main class="task" data-example={item.exampleId} data-stage={stage1 ? "interpretability" : "main"}>
      {props.notice && (
        <p class="notice" role="status" id="finished-notice">
          {props.notice}
        </p>
      )}
      {item.calibration && (
        <p class="calibration-banner" id="calibration-banner">
          Calibration {item.calibration.index} of {item.calibration.total}: this example has known answers; you get
          points and feedback when you submit.
        </p>
      )}
      <section class="query">
        <h2>User question</h2>
        <p id="query">{item.input.query}</p>
        <p class="topic">Topic: {item.input.topic}</p>
      </section>

      <div class="columns">
        <section class="response-panel">
          <h2>Response</h2>
          {/* biome-ignore lint/a11y/noStaticElementInteractions: mouse text selection; the keyboard selects words with the arrow keys */}
          <div class="response" id="response" ref={responseRef} onMouseUp={onMouseUp}>
            {pieces.map((piece) => {
              if (piece.kind === "gap")
                return piece.text ? (
                  <span data-g={piece.index} key={`g${piece.index}`}>
                    {piece.text}
                  </span>
                ) : null;
              const w = piece.span;
              const on = marks.filter((m) => overlaps(m.span, w));
              const s = sentenceOf(w);
              const cls = [
                "w",
                ...new Set(on.map((m) => m.cls)),
                on.some((m) => m.cls.startsWith("arg-")) ? "cov" : "",
                selected(piece.index) ? "sel" : "",
                item.ais && s === sentence ? "cur-sent" : "",
              ]
                .filter(Boolean)
                .join(" ");
              // Badges at the start of each mark are CSS generated content (data-badge), so the
              // response's text, selection offsets and copy-paste stay exactly the response.
              const badge = marks
                .filter((m) => m.span.start === w.start)
                .map((m) => (m.cls === "hal" ? "H" : m.cls === "amb" ? "A" : m.label.replace(/\D+/g, "")))
                .join("·");
              return (
                <span
                  class={cls}
                  data-w={piece.index}
                  data-badge={badge || undefined}
                  key={`w${piece.index}`}
                  title={on.map((m) => m.label).join(", ")}
                >
                  {piece.text}
                </span>
              );
            })}
          </div>
          {selection && !stage1 && (
            <div class="toolbar" id="toolbar" role="toolbar" aria-label="Mark the selection" ref={toolbar}>
              <span class="sel-text">“{excerpt(item.response.slice(selection.start, selection.end), 50)}”</span>
              {args.map((a) => (
                <button
                  type="button"
                  key={a.n}
                  class={`arg-${(a.n - 1) % 6}`}
                  data-mark-arg={a.n}
                  onClick={() => markArgument(a)}
                >
                  covers {a.n} <kbd>{a.n}</kbd>
                </button>
              ))}
              <button type="button" class="hal" id="mark-hallucinated" onClick={markHallucinated}>
                hallucinated <kbd>h</kbd>
              </button>
              {AMBIGUOUS.map((x) => (
                <button
                  type="button"
                  class="amb"
                  key={x.kind}
                  data-mark-ambiguous={x.kind}
                  onClick={() => markAmbiguous(x.kind)}
                >
                  {x.label} <kbd>{x.key}</kbd>
                </button>
              ))}
              <button type="button" onClick={removeAtSelection}>
                remove marks <kbd>⌫</kbd>
              </button>
            </div>
          )}
          {marks.length > 0 && (
            <ul class="marks" id="marks">
              {marks.map((m, k) => (
                <li key={k} class={m.cls}>
                  <span class="mark-label">{m.label}</span> “
                  {excerpt(item.response.slice(m.span.start, m.span.end), 70)}”
                  <button type="button" class="link" aria-label={`remove ${m.label}`} onClick={m.remove}>
                    ×
                  </button>
                </li>
              ))}
            </ul>
          )}
        </section>

        <section class="arguments-panel" id="arguments">
          <h2>Given arguments</h2>
          {stage1 ? (
            <p class="hidden-note" id="arguments-hidden">
              The arguments appear once you have said, for every sentence, whether it is interpretable on its own (AIS
              step 1: judge the sentence without the source).
            </p>
          ) : (
            item.input.perspectives.map((p, pi) => (
              <div class="perspective" key={pi}>
                <h3>{p.label}</h3>
                <ol>
                  {args
                    .filter((a) => a.perspective === pi)
                    .map((a) => {
                      const spans = coveredBy(a);
                      const uncovered = isUncovered(a);
                      return (
                        <li
                          key={a.n}
                          class={`argument arg-${(a.n - 1) % 6} ${uncovered ? "is-uncovered" : spans.length ? "is-covered" : "is-open"}`}
                          data-arg={a.n}
                        >
                          <span class="num">{a.n}</span>
                          <span class="text">{a.text}</span>
                          <span class="state">
                            {uncovered
                              ? "not covered"
                              : spans.length
                                ? `covered (${spans.length} span${spans.length > 1 ? "s" : ""})`
                                : "open"}
                          </span>
                          <button
                            type="button"
                            class="uncovered-toggle"
                            data-uncovered={a.n}
                            onClick={() => toggleUncovered(a)}
                          >
                            {uncovered ? "undo not covered" : "not covered"} <kbd>⇧{a.n}</kbd>
                          </button>
                        </li>
                      );
                    })}
                </ol>
              </div>
            ))
          )}
        </section>
      </div>

      {item.ais && (
        <section class="ais" id="ais">
          <h2>
            {stage1
              ? "Step 1: is each sentence interpretable on its own?"
              : "Is each sentence supported by the given arguments?"}
          </h2>
          <ol>
            {item.sentences.map((s, k) => {
              const r = rating(k);
              return (
                // biome-ignore lint/a11y/useKeyWithClickEvents: j and k move between sentences from the keyboard
                <li key={k} class={k === sentence ? "current" : ""} data-sentence={k} onClick={() => setSentence(k)}>
                  <span class="sentence-text">{excerpt(item.response.slice(s.start, s.end), 140)}</span>
                  <span class="question">
                    Interpretable on its own?
                    <button
                      type="button"
                      class={r.interpretable === true ? "on" : ""}
                      data-answer="interpretable-yes"
                      onClick={() => answer(k, true, "interpretable")}
                    >
                      yes
                    </button>
                    <button
                      type="button"
                      class={r.interpretable === false ? "on" : ""}
                      data-answer="interpretable-no"
                      onClick={() => answer(k, false, "interpretable")}
                    >
                      no
                    </button>
                  </span>
                  {!stage1 && r.interpretable === true && (
                    <span class="question">
                      Supported by the arguments?
                      <button
                        type="button"
                        class={r.supported === true ? "on" : ""}
                        data-answer="supported-yes"
                        onClick={() => answer(k, true, "supported")}
                      >
                        yes
                      </button>
                      <button
                        type="button"
                        class={r.supported === false ? "on" : ""}
                        data-answer="supported-no"
                        onClick={() => answer(k, false, "supported")}
                      >
                        no
                      </button>
                    </span>
                  )}
                </li>
              );
            })}
          </ol>
        </section>
      )}

      {error && (
        <p class="error" role="alert" id="error">
          {error}
        </p>
      )}

      <footer class="actions" ref={footer}>
        <span class="status" id="status">
          {undecided.length === 0 ? "every argument decided" : `${undecided.length} argument(s) open`}
          {item.ais && ` · ${unanswered} AIS answer(s) open`}
          {" · "}
          <span id="save-state">
            {saveState === "saved"
              ? "draft saved"
              : saveState === "saving"
                ? "saving…"
                : saveState === "error"
                  ? "not saved"
                  : "no changes"}
          </span>
        </span>
        <button type="button" id="skip" onClick={() => void finish({ action: "skip" })} disabled={busy}>
          Skip <kbd>s</kbd>
        </button>
        <button type="button" id="flag" onClick={() => setFlagging(true)} disabled={busy}>
          Flag as broken <kbd>f</kbd>
        </button>
        <button type="button" id="submit" class="primary" onClick={submit} disabled={busy || !complete}>
          Submit <kbd>Enter</kbd>
        </button>
        <button type="button" class="link" onClick={() => setHelp(true)}>
          Shortcuts <kbd>?</kbd>
        </button>
      </footer>

      {flagging && (
        <div class="dialog" role="dialog" aria-label="Flag this example" id="flag-dialog">
          <form
            onSubmit={(e) => {
              e.preventDefault();
              void finish({ action: "flag", reason });
            }}
          >
            <label for="flag-reason">What is broken? (e.g. the response is not about the question)</label>
            <input
              id="flag-reason"
              ref={(el) => el?.focus()}
              value={reason}
              maxLength={2000}
              onInput={(e) => setReason((e.target as HTMLInputElement).value)}
              onKeyDown={(e) => {
                if (e.key === "Escape") setFlagging(false);
              }}
            />
            <button type="submit" id="flag-confirm">
              Flag <kbd>Enter</kbd>
            </button>
            <button type="button" onClick={() => setFlagging(false)}>
              Cancel <kbd>Esc</kbd>
            </button>
          </form>
        </div>
      )}

      {help && (
        <div class="dialog help" role="dialog" aria-label="Keyboard shortcuts" id="help">
          <h2>Keyboard shortcuts</h2>
          <table>
            <tbody>
              {SHORTCUTS.map(([k, what]) => (
                <tr key={k}>
                  <th>
                    <kbd>{k}</kbd>
                  </th>
                  <td>{what}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <button type="button" onClick={() => setHelp(false)}>
            Close <kbd>Esc</kbd>
          </button>
        </div>
      )}
    </main>
  );
}

/* ------------------------------------------------------------------ calibration feedback */

function Feedback(props: { item: WorkItem; feedback: CalibrationFeedback; onNext: () => void }) {
  const { item, feedback } = props;
  const next = useRef(props.onNext);
  next.current = props.onNext;
  useLayoutEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Enter") {
        e.preventDefault();
        next.current();
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);
  const argumentText = ([p, k]: [number, number]) =>
    `${item.input.perspectives[p]?.label}: ${item.input.perspectives[p]?.arguments[k]?.text ?? "?"}`;
  const yesNo = (b: boolean) => (b ? "yes" : "no");
  return (
    <main class="feedback" id="feedback">
      <h1>
        <span id="points">{feedback.points}</span> / {feedback.maxPoints} points
      </h1>
      <p class="message" id="feedback-message">
        {feedback.message}
      </p>
      <div class="table-wrap">
        <table class="truth">
          <thead>
            <tr>
              <th />
              <th>known answer</th>
              <th>yours</th>
              <th />
            </tr>
          </thead>
          <tbody>
            <tr>
              <th>hallucination</th>
              <td>{yesNo(feedback.hallucination.truth)}</td>
              <td>{yesNo(feedback.hallucination.answer)}</td>
              <td>{feedback.hallucination.correct ? "✓" : "✗"}</td>
            </tr>
            <tr>
              <th>coverage error</th>
              <td>{yesNo(feedback.coverage.truth)}</td>
              <td>{yesNo(feedback.coverage.answer)}</td>
              <td>{feedback.coverage.correct ? "✓" : "✗"}</td>
            </tr>
          </tbody>
        </table>
      </div>
      <h2>The response, with the known unsupported text</h2>
      <p class="response">
        {(() => {
          const out: ComponentChildren[] = [];
          let cursor = 0;
          // Spans come in text order; an overlapping one continues where the previous mark ended, so no
          // text is shown twice.
          for (const [k, s] of feedback.trueHallucinatedSpans.entries()) {
            const start = Math.max(cursor, s.start);
            if (s.end <= start) continue;
            out.push(item.response.slice(cursor, start));
            out.push(
              <mark class="hal" key={k}>
                {item.response.slice(start, s.end)}
              </mark>,
            );
            cursor = s.end;
          }
          out.push(item.response.slice(cursor));
          return out;
        })()}
      </p>
      {feedback.trueUncoveredArguments.length > 0 && (
        <>
          <h2>Arguments the response does not cover</h2>
          <ul>
            {feedback.trueUncoveredArguments.map((a, k) => (
              <li key={k}>{argumentText(a)}</li>
            ))}
          </ul>
        </>
      )}
      <button type="button" class="primary" id="next" onClick={props.onNext}>
        Next <kbd>Enter</kbd>
      </button>
    </main>
  );
}

/* ------------------------------------------------------------------ done */

function Done(props: { mine: Mine | null }) {
  const me = props.mine?.me;
  return (
    <main class="done" id="done">
      <h1>All done — thank you!</h1>
      <p>
        There is nothing left for you to annotate{me ? `: you submitted ${me.submitted} example(s)` : ""}
        {me && me.calibration.total > 0
          ? ` and scored ${me.calibration.points} of ${me.calibration.maxPoints} calibration points`
          : ""}
        .
      </p>
      <p>You can close this page; if the admin adds examples, sign in again to continue.</p>
    </main>
  );
}

/* ------------------------------------------------------------------ admin */

function Admin(props: { token: string }) {
  const [progress, setProgress] = useState<ProjectProgress | null>(null);
  const [exported, setExported] = useState<{ jsonl: string; agreement: AgreementReport } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const load = () =>
    api<ProjectProgress>(props.token, "/api/progress")
      .then(setProgress)
      .catch((e: Error) => setError(e.message));
  useEffect(() => {
    void load();
  }, []);
  const doExport = () =>
    api<{ jsonl: string; agreement: AgreementReport }>(props.token, "/api/admin/export")
      .then(setExported)
      .catch((e: Error) => setError(e.message));
  const url = (text: string, type: string) => URL.createObjectURL(new Blob([text], { type }));
  // null in the report: alpha (or an annotator's agreement) is undefined, which is not perfect agreement.
  const fmt = (x: number | null) => (x === null ? "undefined" : x.toFixed(3));
  const o = progress?.overall;
  return (
    <main class="admin" id="admin">
      <h1>Progress</h1>
      {o && (
        <>
          <p id="overall">
            {o.answered} of {o.target} labels ({o.examples} examples × {o.perExample} annotators); {o.complete} examples
            complete{o.calibrationExamples > 0 ? `; ${o.calibrationExamples} calibration examples` : ""}.
          </p>
          <progress max={Math.max(1, o.target)} value={o.answered} />
        </>
      )}
      {progress && (
        <div class="table-wrap">
          <table class="annotators" id="annotators">
            <thead>
              <tr>
                <th>annotator</th>
                <th>role</th>
                <th>calibration points</th>
                <th>submitted</th>
                <th>skipped</th>
                <th>flagged</th>
                <th>open</th>
              </tr>
            </thead>
            <tbody>
              {progress.annotators.map((a) => (
                <tr key={a.name} data-annotator={a.name}>
                  <th scope="row">{a.name}</th>
                  <td data-label="role">{a.role}</td>
                  <td data-label="calibration points">
                    {a.role === "annotator" && a.calibration.total > 0
                      ? `${a.calibration.points} / ${a.calibration.done * MAX_POINTS} (${a.calibration.done}/${a.calibration.total} done)`
                      : "-"}
                  </td>
                  <td data-label="submitted">{a.submitted}</td>
                  <td data-label="skipped">{a.skipped}</td>
                  <td data-label="flagged">{a.flagged}</td>
                  <td data-label="open">{a.open}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p>
        <button type="button" onClick={() => void load()}>
          Refresh
        </button>{" "}
        <button type="button" class="primary" id="export" onClick={() => void doExport()}>
          Export dataset and agreement
        </button>
      </p>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {exported && (
        <section id="export-result">
          <h2>Export</h2>
          <p>
            {exported.agreement.examples} example(s) exported.{" "}
            <a id="download-dataset" href={url(exported.jsonl, "application/x-ndjson")} download="annotations.jsonl">
              annotations.jsonl
            </a>{" "}
            <a
              id="download-agreement"
              href={url(`${JSON.stringify(exported.agreement, null, 2)}\n`, "application/json")}
              download="agreement.json"
            >
              agreement.json
            </a>
          </p>
          <div class="table-wrap">
            <table class="alpha" id="alpha">
              <thead>
                <tr>
                  <th>error type</th>
                  <th>unit</th>
                  <th>Krippendorff's alpha</th>
                  <th>units</th>
                  <th>ratings</th>
                </tr>
              </thead>
              <tbody>
                {exported.agreement.alpha.map((r) => (
                  <tr key={r.errorType} data-error-type={r.errorType}>
                    <th>{r.errorType}</th>
                    <td>{r.level}</td>
                    <td class="alpha-value">{fmt(r.alpha)}</td>
                    <td>{r.units}</td>
                    <td>{r.ratings}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <div class="table-wrap">
            <table class="agreement" id="agreement">
              <thead>
                <tr>
                  <th>annotator</th>
                  <th>agreement with the others' majority</th>
                  <th>labels compared</th>
                </tr>
              </thead>
              <tbody>
                {exported.agreement.annotators.map((a) => (
                  <tr key={a.annotator}>
                    <th>{a.annotator}</th>
                    <td>{fmt(a.agreement)}</td>
                    <td>{a.units}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {(exported.agreement.alpha.some((r) => r.alpha === null) ||
            exported.agreement.annotators.some((a) => a.agreement === null)) && (
            <p class="note" id="alpha-undefined">
              undefined: fewer than two pairable ratings, or every rating the same (e.g. every annotator answered "no":
              alpha is 0/0, not perfect agreement).
            </p>
          )}
        </section>
      )}
    </main>
  );
}

/* ------------------------------------------------------------------ app */

function App() {
  const [token, setToken] = useState<string | null>(() => localStorage.getItem(TOKEN_KEY));
  const [me, setMe] = useState<Me | null>(null);
  const [signInError, setSignInError] = useState<string | null>(null);
  const [item, setItem] = useState<WorkItem | null | undefined>(undefined);
  const [mine, setMine] = useState<Mine | null>(null);
  const [feedback, setFeedback] = useState<{ item: WorkItem; feedback: CalibrationFeedback } | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const signOut = () => {
    localStorage.removeItem(TOKEN_KEY);
    setToken(null);
    setMe(null);
    setItem(undefined);
  };
  const loadNext = (t: string) =>
    api<{ item: WorkItem | null; progress: Mine }>(t, "/api/next")
      .then((r) => {
        setItem(r.item);
        setMine(r.progress);
        setLoadError(null);
      })
      .catch((e: Error) => setLoadError(e.message));

  useEffect(() => {
    if (token === null) return;
    api<Me>(token, "/api/me")
      .then((m) => {
        localStorage.setItem(TOKEN_KEY, token);
        setMe(m);
        setSignInError(null);
        if (m.role === "annotator") void loadNext(token);
      })
      .catch((e: ApiError) => {
        localStorage.removeItem(TOKEN_KEY);
        setToken(null);
        setSignInError(e.message);
      });
  }, [token]);

  if (token === null || me === null)
    return token === null ? <SignIn onToken={setToken} error={signInError} /> : <p class="loading">Signing in…</p>;
  const header = <Header me={me} mine={mine} onSignOut={signOut} />;
  if (me.role === "admin")
    return (
      <>
        {header}
        <Admin token={token} />
      </>
    );
  let body: ComponentChildren;
  if (loadError)
    body = (
      <p class="error" role="alert">
        {loadError}
      </p>
    );
  else if (feedback)
    body = (
      <Feedback
        item={feedback.item}
        feedback={feedback.feedback}
        onNext={() => {
          setFeedback(null);
          void loadNext(token);
        }}
      />
    );
  else if (item === undefined) body = <p class="loading">Loading…</p>;
  else if (item === null) body = <Done mine={mine} />;
  else
    body = (
      <Task
        key={item.exampleId}
        token={token}
        item={item}
        notice={notice}
        onFinished={(r, action) => {
          setMine(r.progress);
          const done = r.progress.me === null ? "" : ` You have done ${r.progress.me.submitted}.`;
          setNotice(
            action === "submit"
              ? `✓ Submitted and saved.${done} The next example is below.`
              : action === "skip"
                ? "Skipped: someone else will label that one. The next example is below."
                : "Flagged as broken, and taken out of the labels. The next example is below.",
          );
          if (r.feedback) setFeedback({ item, feedback: r.feedback });
          else void loadNext(token);
        }}
      />
    );
  return (
    <>
      {header}
      {body}
    </>
  );
}

render(<App />, document.getElementById("app") as HTMLElement);
