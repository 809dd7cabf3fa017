/** Progress bars for long CLI work, on stderr and only on a terminal (never in pipes or CI logs). */
import cliProgress from "cli-progress";

/** A progress reporter: call `update(done, total)`; `stop()` when finished. */
export interface Progress {
  update(done: number, total: number, payload?: Record<string, string | number>): void;
  stop(): void;
}

/** Create a bar labelled `label`; extra payload fields appear after the counts (e.g. loss). */
export function progressBar(label: string, extra = ""): Progress {
  if (!process.stderr.isTTY) return { update: () => {}, stop: () => {} };
  const bar = new cliProgress.SingleBar(
    {
      stream: process.stderr,
      format: `${label} [{bar}] {value}/{total} {percentage}% eta {eta_formatted}${extra}`,
      hideCursor: true,
      clearOnComplete: true,
    },
    cliProgress.Presets.shades_classic,
  );
  let started = false;
  return {
    update(done, total, payload = {}) {
      if (!started) {
        bar.start(total, 0, payload);
        started = true;
      }
      bar.update(done, payload);
    },
    stop() {
      if (started) bar.stop();
    },
  };
}
