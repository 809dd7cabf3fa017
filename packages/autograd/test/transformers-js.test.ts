import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AutoModelForCausalLM, AutoModelForSeq2SeqLM, AutoTokenizer, env } from "@huggingface/transformers";
import { encodeModel, loadModel, writeTestModel } from "@npov/autograd";
import * as ort from "onnxruntime-node";
import { describe, expect, it } from "vitest";

const root = mkdtempSync(join(tmpdir(), "npov-tjs-"));
env.allowRemoteModels = false;
env.localModelPath = root;

const int64 = (values: number[]) => new ort.Tensor("int64", BigInt64Array.from(values.map(BigInt)), [1, values.length]);
const argmaxLast = (logits: ort.Tensor): number => {
  const [, s, v] = logits.dims as [number, number, number];
  const data = logits.data as Float32Array;
  let best = 0;
  for (let k = 1; k < v; k++) if ((data[(s - 1) * v + k] as number) > (data[(s - 1) * v + best] as number)) best = k;
  return best;
};
const emptyPast = (session: ort.InferenceSession, prefix: string) =>
  Object.fromEntries(
    session.inputNames
      .filter((n) => n.startsWith(prefix))
      .map((n) => {
        const meta = (session.inputMetadata as unknown as Array<{ name: string; shape: Array<number | string> }>).find(
          (m) => m.name === n,
        )!;
        const dims = meta.shape.map((d) => (typeof d === "number" ? d : d === "batch_size" ? 1 : 0));
        return [n, new ort.Tensor("float32", new Float32Array(0), dims)];
      }),
  );

describe("transformers.js loads the generated models offline and runs them", () => {
  for (const arch of ["gpt2", "llama"] as const) {
    it(`${arch}: greedy generation equals argmax decoding with onnxruntime`, async () => {
      writeTestModel(join(root, arch), arch, { seed: 11 });
      const tokenizer = await AutoTokenizer.from_pretrained(arch);
      const model = await AutoModelForCausalLM.from_pretrained(arch, { dtype: "fp32" });
      const inputs = tokenizer("abc def", { return_tensors: "pt" });
      const out = await model.generate({ ...inputs, max_new_tokens: 6, do_sample: false, eos_token_id: -1 });
      const generated = Array.from(out.data as BigInt64Array, Number);

      const session = await ort.InferenceSession.create(encodeModel(loadModel(join(root, arch, "onnx/model.onnx"))));
      const ids = Array.from(inputs.input_ids.data as BigInt64Array, Number);
      for (let step = 0; step < 6; step++) {
        const r = await session.run({
          input_ids: int64(ids),
          attention_mask: int64(ids.map(() => 1)),
          position_ids: int64(ids.map((_, i) => i)),
          ...emptyPast(session, "past_key_values"),
        });
        ids.push(argmaxLast(r.logits as ort.Tensor));
      }
      expect(generated).toEqual(ids);
      await session.release();
    });
  }

  it("t5: greedy generation equals argmax decoding with onnxruntime", async () => {
    writeTestModel(join(root, "t5"), "t5", { seed: 12 });
    const tokenizer = await AutoTokenizer.from_pretrained("t5");
    const model = await AutoModelForSeq2SeqLM.from_pretrained("t5", { dtype: "fp32" });
    const inputs = tokenizer("abc def", { return_tensors: "pt" });
    const out = await model.generate({ ...inputs, max_new_tokens: 5, do_sample: false, eos_token_id: -1 });
    const generated = Array.from(out.data as BigInt64Array, Number);

    const encoder = await ort.InferenceSession.create(
      encodeModel(loadModel(join(root, "t5", "onnx/encoder_model.onnx"))),
    );
    const decoder = await ort.InferenceSession.create(
      encodeModel(loadModel(join(root, "t5", "onnx/decoder_model.onnx"))),
    );
    const src = Array.from(inputs.input_ids.data as BigInt64Array, Number);
    const enc = await encoder.run({ input_ids: int64(src), attention_mask: int64(src.map(() => 1)) });
    const ids = [0];
    for (let step = 0; step < 5; step++) {
      const r = await decoder.run({
        input_ids: int64(ids),
        encoder_attention_mask: int64(src.map(() => 1)),
        encoder_hidden_states: enc.last_hidden_state as ort.Tensor,
        ...emptyPast(decoder, "past_key_values"),
      });
      ids.push(argmaxLast(r.logits as ort.Tensor));
    }
    expect(generated).toEqual(ids);
  });
});
