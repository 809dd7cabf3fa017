// The detector's weights after its build: moved into one temporary external-data file that every session
// maps (the loaded graphs released), deleted by dispose; a detector used again after dispose loads the
// folder again and computes the same maps, bit for bit, with either schedule and across thread counts.
import { mkdtempSync, readdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { writeTestModel } from "@npov/autograd";
import { repoPath } from "@npov/core";
import { SalienceDetector } from "@npov/salience";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = mkdtempSync(join(tmpdir(), "npov-salience-weights-"));
// A TMPDIR of the test's own, so the weight files this test makes can be counted.
const scratch = mkdtempSync(join(root, "tmp-"));
let saved: string | undefined;
beforeAll(() => {
  saved = process.env.TMPDIR;
  process.env.TMPDIR = scratch; // os.tmpdir() reads it on every call
});
afterAll(() => {
  if (saved === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = saved;
});
/** Bytes of the shipped T5's encoder and decoder files (what the detector loads). */
const detectorOnnxBytes = () =>
  ["encoder_model.onnx", "decoder_model.onnx"].reduce(
    (n, f) => n + statSync(repoPath("models", "npov-gen", "onnx", f)).size,
    0,
  );
const weightDirs = () => readdirSync(scratch).filter((d) => d.startsWith("npov-weights-"));

describe("the detector's weight file", () => {
  // The shipped T5 (13 MB of weights, each table and matrix over the 16 KiB that go to the file) and a tiny
  // random llama (every weight small enough to stay inside its graph: the file stays empty).
  for (const [arch, schedule] of [
    ["npov-gen", "split"],
    ["npov-gen", "recompute"],
    ["llama", "split"],
  ] as const)
    it(`${arch}, ${schedule}: one file while built, none after dispose; the same map after rebuilding`, async () => {
      let detector: SalienceDetector;
      if (arch === "npov-gen") detector = await SalienceDetector.fromPretrained(undefined, { schedule, threads: 1 });
      else {
        const dir = join(root, `${arch}-${schedule}`);
        writeTestModel(dir, arch, { seed: 31 });
        detector = await SalienceDetector.fromPretrained(dir, { schedule, threads: 1 });
      }
      const loaded = arch === "npov-gen" ? detector.files.encoder : detector.files.model;
      expect(loaded?.graph?.initializer?.length).toBeGreaterThan(0);
      expect(weightDirs()).toEqual([]);

      const first = await detector.tokenMap("ab cd ef", "xy zw q");
      expect(first.schedule?.mode).toBe(schedule);
      // Built: the graphs are released and the weights live in one file, whatever sessions were made.
      expect([detector.files.model, detector.files.encoder, detector.files.decoder]).toEqual([
        undefined,
        undefined,
        undefined,
      ]);
      expect(weightDirs().length).toBe(1);
      const files = readdirSync(join(scratch, weightDirs()[0] as string));
      if (arch === "npov-gen") {
        expect(files).toEqual(["weights.bin"]);
        // Every large weight once: the embedding table the encoder and decoder share is written once, so the
        // file is smaller than the two graph files together.
        const size = statSync(join(scratch, weightDirs()[0] as string, "weights.bin")).size;
        const onnxBytes = detectorOnnxBytes();
        expect(size).toBeGreaterThan(onnxBytes / 2);
        expect(size).toBeLessThan(onnxBytes);
      } else expect(files).toEqual([]);
      // A second map reuses the sessions.
      const again = await detector.tokenMap("ab cd ef", "xy zw q");
      expect(Array.from(again.attributions.data)).toEqual(Array.from(first.attributions.data));

      await detector.dispose();
      expect(weightDirs()).toEqual([]);
      // Used after dispose: the folder is loaded again, a new file made, the same map computed.
      const rebuilt = await detector.tokenMap("ab cd ef", "xy zw q");
      expect(Array.from(rebuilt.attributions.data)).toEqual(Array.from(first.attributions.data));
      expect(weightDirs().length).toBe(1);
      await detector.dispose();
      expect(weightDirs()).toEqual([]);
    });

  it("dispose during a map waits for it: the map completes, then the file goes", async () => {
    const detector = await SalienceDetector.fromPretrained(undefined, { threads: 1 });
    // Disposed while the first map is still building, then while a second map runs on built sessions.
    const first = detector.tokenMap("ab cd ef", "xy zw q");
    const [a] = await Promise.all([first, detector.dispose()]);
    expect(weightDirs()).toEqual([]);
    await detector.tokenMap("ab cd ef", "xy zw q");
    const second = detector.tokenMap("ab cd ef", "xy zw q");
    const [b] = await Promise.all([second, detector.dispose()]);
    expect(Array.from(b.attributions.data)).toEqual(Array.from(a.attributions.data));
    expect(weightDirs()).toEqual([]);
  });

  it("sessions for a second thread count read the same file and give the same map", async () => {
    const one = await SalienceDetector.fromPretrained(undefined, { threads: 1 });
    const a = await one.tokenMap("ab cd ef", "xy zw q");
    // Same detector, sessions with 2 threads made after the build (the graphs were already released).
    const options = one.options as { threads: number | "auto" };
    options.threads = 2;
    const b = await one.tokenMap("ab cd ef", "xy zw q");
    expect(weightDirs().length).toBe(1);
    const scale = Math.max(...Array.from(a.attributions.data, Math.abs));
    for (let i = 0; i < a.attributions.data.length; i++)
      expect(Math.abs((b.attributions.data[i] as number) - (a.attributions.data[i] as number))).toBeLessThan(
        1e-5 * scale,
      );
    await one.dispose();
    expect(weightDirs()).toEqual([]);
  });
});
