/**
 * Loading by model id from a hub: a real HTTP server on loopback serves zoo folders in the Hugging Face
 * URL layout (`{host}{owner}/{name}/resolve/{revision}/{file}`), and transformers.js's env points at it, as
 * a user's environment would point at huggingface.co or a mirror. Checks the layout fallback (legacy
 * folders have no onnx/model*.onnx), external data, the cache (a second load asks nothing) and typed errors.
 */
import { createReadStream, existsSync, mkdtempSync, statSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as transformers from "@huggingface/transformers";
import { loadPretrained } from "@npov/autograd";
import { NpovError } from "@npov/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZOO } from "./zoo-reference.js";

const env = transformers.env as unknown as {
  remoteHost: string;
  remotePathTemplate: string;
  allowRemoteModels: boolean;
  allowLocalModels: boolean;
  cacheDir: string | null;
};

describe("loadPretrained by hub id", () => {
  const requests: Array<{ path: string; status: number }> = [];
  let server: Server;
  const saved = { ...env };
  let failing = false;
  beforeAll(async () => {
    server = createServer((req, res) => {
      const m = /^\/zoo\/([\w-]+)\/resolve\/main\/(.+)$/.exec(req.url ?? "");
      const file = m ? join(ZOO, m[1] as string, decodeURIComponent(m[2] as string)) : "";
      const status = failing ? 500 : m && existsSync(file) && statSync(file).isFile() ? 200 : 404;
      requests.push({ path: req.url ?? "", status });
      if (status !== 200) {
        res.writeHead(status).end();
        return;
      }
      res.writeHead(200, { "content-length": statSync(file).size });
      createReadStream(file).pipe(res);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address() as { port: number };
    env.remoteHost = `http://127.0.0.1:${address.port}/`;
    env.remotePathTemplate = "{model}/resolve/{revision}/";
    env.allowRemoteModels = true;
    env.allowLocalModels = false;
    env.cacheDir = mkdtempSync(join(tmpdir(), "npov-hub-cache-"));
  });
  afterAll(async () => {
    Object.assign(env, saved);
    await new Promise((resolve) => server.close(resolve));
  });

  it("falls back to the legacy layout, downloads once, then loads from the cache", async () => {
    const files = await loadPretrained("zoo/optimum-gpt2-legacy", { dtype: "q8" });
    expect(files.onnxFiles).toEqual(["onnx/decoder_model_quantized.onnx"]);
    expect(files.dtype).toBe("q8");
    expect(requests).toContainEqual({
      path: "/zoo/optimum-gpt2-legacy/resolve/main/onnx/model_quantized.onnx",
      status: 404,
    });
    expect(requests).toContainEqual({
      path: "/zoo/optimum-gpt2-legacy/resolve/main/onnx/decoder_model_quantized.onnx",
      status: 200,
    });
    expect(files.model?.graph?.input?.map((v) => v.name)).toEqual(["input_ids", "attention_mask"]);
    const before = requests.length;
    const again = await loadPretrained("zoo/optimum-gpt2-legacy", { dtype: "q8" });
    expect(again.onnxFiles).toEqual(files.onnxFiles);
    expect(requests.length).toBe(before);
  });

  it("a second dtype of a cached model is downloaded, not refused", async () => {
    const fp32 = await loadPretrained("zoo/optimum-llama");
    expect(fp32.onnxFiles).toEqual(["onnx/model.onnx"]);
    const q8 = await loadPretrained("zoo/optimum-llama", { dtype: "q8" });
    expect(q8.onnxFiles).toEqual(["onnx/model_quantized.onnx"]);
    expect(q8.dir).toBe(fp32.dir);
  });

  it("downloads the external data the graph names", async () => {
    const files = await loadPretrained("zoo/genai-llama");
    expect(files.onnxFiles).toEqual(["onnx/model.onnx"]);
    expect(requests).toContainEqual({ path: "/zoo/genai-llama/resolve/main/onnx/model.onnx_data", status: 200 });
    expect(files.normalization["onnx/model.onnx"]?.contribOps.GroupQueryAttention).toBe(2);
  });

  it("a model that does not exist, or a failing server, is a typed MODEL_NOT_FOUND error", async () => {
    await expect(loadPretrained("zoo/no-such-model")).rejects.toMatchObject({ code: "MODEL_NOT_FOUND" });
    failing = true;
    try {
      const error = await loadPretrained("zoo/ortopt-gpt2").catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NpovError);
      expect((error as Error).message).toMatch(/answered 500/);
    } finally {
      failing = false;
    }
  });
});
