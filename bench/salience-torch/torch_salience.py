"""PyTorch reference for bench/salience: GPT-2-style and T5-style models in plain PyTorch.

Two commands (run with Debian's /usr/bin/python3, which has python3-torch):

  export ARCH DIR            build the model (fixed seed), write DIR in the transformers.js layout
                             (config.json, a word-level tokenizer.json, onnx/*.onnx via torch.onnx.export,
                             opset 14, dynamic batch and sequence axes) and DIR/weights.pt
  map ARCH DIR IDS OUT THREADS [SCHEDULE]
                             the salience token map of the example in IDS (JSON {"prompt": [...],
                             "response": [...]}) computed with PyTorch: one forward pass, then one
                             torch.autograd.grad(loss_t, embeddings, retain_graph=True) per response token
                             (SCHEDULE "natural", default), or the LM-head seeds once and one backward from
                             the head input per token ("head"); writes the float32 map to OUT and prints
                             JSON {seconds, maxrss_mb, ...}. Run once per process: ru_maxrss is the peak.

Token map (as npov's): rows = prompt tokens then response tokens, columns = response tokens; entry =
dot(d loss_t / d embedding_i, embedding_i) with embedding_i the word-embedding lookup (before positions).
"""

import json
import math
import os
import resource
import sys
import time

import torch
import torch.nn.functional as F
from torch import nn

VOCAB = 8192
GPT2_CONFIG = dict(d=256, layers=4, heads=4, positions=1024)
T5_CONFIG = dict(d=256, d_kv=64, heads=4, d_ff=1024, layers=3, buckets=32, max_distance=128)
# Deeper or wider variants for the long-input runs of docs/benchmarks.md, e.g.
# NPOV_BENCH_GPT2_CONFIG='{"layers": 12, "heads": 8}' (export and map must see the same value).
GPT2_CONFIG.update(json.loads(os.environ.get("NPOV_BENCH_GPT2_CONFIG", "{}")))
T5_CONFIG.update(json.loads(os.environ.get("NPOV_BENCH_T5_CONFIG", "{}")))
SEED = 0


def layer_norm(x, w, b, eps=1e-5):
    mean = x.mean(-1, keepdim=True)
    var = ((x - mean) ** 2).mean(-1, keepdim=True)
    return (x - mean) / torch.sqrt(var + eps) * w + b


class Gpt2Block(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.heads = heads
        self.ln1_w = nn.Parameter(torch.ones(d) + 0.05 * torch.randn(d))
        self.ln1_b = nn.Parameter(0.05 * torch.randn(d))
        self.attn = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.ln2_w = nn.Parameter(torch.ones(d) + 0.05 * torch.randn(d))
        self.ln2_b = nn.Parameter(0.05 * torch.randn(d))
        self.fc = nn.Linear(d, 4 * d)
        self.out = nn.Linear(4 * d, d)

    def forward(self, x, mask):
        b, s, d = x.shape
        hd = d // self.heads
        q, k, v = self.attn(layer_norm(x, self.ln1_w, self.ln1_b)).split(d, dim=-1)
        q = q.view(b, s, self.heads, hd).transpose(1, 2)
        k = k.view(b, s, self.heads, hd).transpose(1, 2)
        v = v.view(b, s, self.heads, hd).transpose(1, 2)
        scores = (q @ k.transpose(-1, -2)) / math.sqrt(hd)
        scores = scores.masked_fill(mask, -1e9)
        a = torch.softmax(scores, dim=-1) @ v
        x = x + self.proj(a.transpose(1, 2).reshape(b, s, d))
        return x + self.out(F.gelu(self.fc(layer_norm(x, self.ln2_w, self.ln2_b)), approximate="tanh"))


class Gpt2(nn.Module):
    """Causal LM: learned positions, pre-norm blocks, tied LM head."""

    def __init__(self, d, layers, heads, positions):
        super().__init__()
        self.wte = nn.Embedding(VOCAB, d)
        self.wpe = nn.Embedding(positions, d)
        nn.init.normal_(self.wte.weight, std=0.2)
        nn.init.normal_(self.wpe.weight, std=0.05)
        self.blocks = nn.ModuleList([Gpt2Block(d, heads) for _ in range(layers)])
        self.lnf_w = nn.Parameter(torch.ones(d) + 0.05 * torch.randn(d))
        self.lnf_b = nn.Parameter(0.05 * torch.randn(d))
        self.register_buffer("causal", torch.ones(positions, positions, dtype=torch.bool).triu(1), persistent=False)

    def hidden(self, emb):
        s = emb.shape[1]
        x = emb + self.wpe(torch.arange(s, device=emb.device)).unsqueeze(0)
        mask = self.causal[:s, :s]
        for blk in self.blocks:
            x = blk(x, mask)
        return layer_norm(x, self.lnf_w, self.lnf_b)

    def head(self, h):
        return F.linear(h, self.wte.weight)

    def forward(self, input_ids):
        return self.head(self.hidden(self.wte(input_ids)))


def rms_norm(x, w, eps=1e-6):
    return x * torch.rsqrt((x * x).mean(-1, keepdim=True) + eps) * w


def relative_bucket(rel, bidirectional, buckets, max_distance):
    n = buckets
    ret = torch.zeros_like(rel)
    if bidirectional:
        n //= 2
        ret = ret + (rel > 0).long() * n
        rel = rel.abs()
    else:
        rel = -torch.min(rel, torch.zeros_like(rel))
    max_exact = n // 2
    small = rel < max_exact
    large = max_exact + (
        torch.log(rel.float() / max_exact + 1e-6) / math.log(max_distance / max_exact) * (n - max_exact)
    ).long()
    large = torch.min(large, torch.full_like(large, n - 1))
    return ret + torch.where(small, rel, large)


class T5Attention(nn.Module):
    def __init__(self, d, d_kv, heads, bias_buckets=None, bidirectional=True, max_distance=128):
        super().__init__()
        self.heads, self.d_kv = heads, d_kv
        self.q = nn.Linear(d, heads * d_kv, bias=False)
        self.k = nn.Linear(d, heads * d_kv, bias=False)
        self.v = nn.Linear(d, heads * d_kv, bias=False)
        self.o = nn.Linear(heads * d_kv, d, bias=False)
        self.bidirectional, self.max_distance = bidirectional, max_distance
        self.rel = nn.Embedding(bias_buckets, heads) if bias_buckets else None

    def position_bias(self, q_len, k_len):
        ctx = torch.arange(q_len)[:, None]
        mem = torch.arange(k_len)[None, :]
        buckets = relative_bucket(mem - ctx, self.bidirectional, self.rel.num_embeddings, self.max_distance)
        return self.rel(buckets).permute(2, 0, 1).unsqueeze(0)

    def forward(self, x, kv, bias):
        b, s, _ = x.shape
        t = kv.shape[1]
        q = self.q(x).view(b, s, self.heads, self.d_kv).transpose(1, 2)
        k = self.k(kv).view(b, t, self.heads, self.d_kv).transpose(1, 2)
        v = self.v(kv).view(b, t, self.heads, self.d_kv).transpose(1, 2)
        a = torch.softmax(q @ k.transpose(-1, -2) + bias, dim=-1) @ v
        return self.o(a.transpose(1, 2).reshape(b, s, self.heads * self.d_kv))


def norm_weight(d):
    return nn.Parameter(torch.ones(d) + 0.05 * torch.randn(d))


class T5Layer(nn.Module):
    def __init__(self, c, decoder, has_bias):
        super().__init__()
        d = c["d"]
        buckets = c["buckets"] if has_bias else None
        self.n1 = norm_weight(d)
        self.self_attn = T5Attention(d, c["d_kv"], c["heads"], buckets, not decoder, c["max_distance"])
        self.cross = T5Attention(d, c["d_kv"], c["heads"]) if decoder else None
        self.n2 = norm_weight(d) if decoder else None
        self.n3 = norm_weight(d)
        self.wi = nn.Linear(d, c["d_ff"], bias=False)
        self.wo = nn.Linear(c["d_ff"], d, bias=False)

    def forward(self, x, bias, enc=None, cross_bias=None):
        h = rms_norm(x, self.n1)
        x = x + self.self_attn(h, h, bias)
        if self.cross is not None:
            x = x + self.cross(rms_norm(x, self.n2), enc, cross_bias)
        return x + self.wo(F.relu(self.wi(rms_norm(x, self.n3))))


class T5(nn.Module):
    """Encoder-decoder: RMS norms, relative position buckets (first layer's bias shared), ReLU FF,
    T5's tied head (hidden scaled by d ** -0.5)."""

    def __init__(self, c):
        super().__init__()
        self.c = c
        self.shared = nn.Embedding(VOCAB, c["d"])
        nn.init.normal_(self.shared.weight, std=1.0)
        self.enc = nn.ModuleList([T5Layer(c, False, i == 0) for i in range(c["layers"])])
        self.dec = nn.ModuleList([T5Layer(c, True, i == 0) for i in range(c["layers"])])
        self.enc_norm = norm_weight(c["d"])
        self.dec_norm = norm_weight(c["d"])

    def encode(self, emb, mask):
        s = emb.shape[1]
        bias = self.enc[0].self_attn.position_bias(s, s) + (1.0 - mask[:, None, None, :].float()) * -1e9
        x = emb
        for layer in self.enc:
            x = layer(x, bias)
        return rms_norm(x, self.enc_norm)

    def decode_hidden(self, emb, enc, enc_mask):
        s = emb.shape[1]
        causal = torch.ones(s, s, dtype=torch.bool).triu(1)
        bias = self.dec[0].self_attn.position_bias(s, s).masked_fill(causal, -1e9)
        cross_bias = (1.0 - enc_mask[:, None, None, :].float()) * -1e9
        x = emb
        for layer in self.dec:
            x = layer(x, bias, enc, cross_bias)
        return rms_norm(x, self.dec_norm) * (self.c["d"] ** -0.5)

    def head(self, h):
        return F.linear(h, self.shared.weight)


class T5Encoder(nn.Module):
    def __init__(self, m):
        super().__init__()
        self.m = m

    def forward(self, input_ids, attention_mask):
        return self.m.encode(self.m.shared(input_ids), attention_mask)


class T5Decoder(nn.Module):
    def __init__(self, m):
        super().__init__()
        self.m = m

    def forward(self, input_ids, encoder_hidden_states, encoder_attention_mask):
        h = self.m.decode_hidden(self.m.shared(input_ids), encoder_hidden_states, encoder_attention_mask)
        return self.m.head(h)


def build(arch):
    torch.manual_seed(SEED)
    model = Gpt2(**GPT2_CONFIG) if arch == "gpt2" else T5(T5_CONFIG)
    model.eval()
    return model


def tokenizer_json():
    return {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": [],
        "normalizer": None,
        "pre_tokenizer": {"type": "WhitespaceSplit"},
        "post_processor": None,
        "decoder": None,
        "model": {"type": "WordLevel", "vocab": {f"t{i}": i for i in range(VOCAB)}, "unk_token": "t0"},
    }


def export(arch, out):
    model = build(arch)
    os.makedirs(os.path.join(out, "onnx"), exist_ok=True)
    torch.save(model.state_dict(), os.path.join(out, "weights.pt"))
    ids = torch.arange(1, 9).unsqueeze(0)
    mask = torch.ones_like(ids)
    if arch == "gpt2":
        config = {
            "model_type": "gpt2",
            "architectures": ["GPT2LMHeadModel"],
            "vocab_size": VOCAB,
            "n_embd": GPT2_CONFIG["d"],
            "n_layer": GPT2_CONFIG["layers"],
            "n_head": GPT2_CONFIG["heads"],
            "n_positions": GPT2_CONFIG["positions"],
            "bos_token_id": 0,
            "eos_token_id": 0,
        }
        torch.onnx.export(
            model,
            (ids,),
            os.path.join(out, "onnx", "model.onnx"),
            input_names=["input_ids"],
            output_names=["logits"],
            dynamic_axes={"input_ids": {0: "batch_size", 1: "sequence_length"}, "logits": {0: "batch_size", 1: "sequence_length"}},
            opset_version=14,
            do_constant_folding=True,
        )
    else:
        config = {
            "model_type": "t5",
            "architectures": ["T5ForConditionalGeneration"],
            "is_encoder_decoder": True,
            "vocab_size": VOCAB,
            "d_model": T5_CONFIG["d"],
            "d_kv": T5_CONFIG["d_kv"],
            "d_ff": T5_CONFIG["d_ff"],
            "num_layers": T5_CONFIG["layers"],
            "num_decoder_layers": T5_CONFIG["layers"],
            "num_heads": T5_CONFIG["heads"],
            "relative_attention_num_buckets": T5_CONFIG["buckets"],
            "relative_attention_max_distance": T5_CONFIG["max_distance"],
            "decoder_start_token_id": 0,
            "pad_token_id": 0,
            "eos_token_id": 1,
        }
        batch_seq = {0: "batch_size", 1: "encoder_sequence_length"}
        torch.onnx.export(
            T5Encoder(model),
            (ids, mask),
            os.path.join(out, "onnx", "encoder_model.onnx"),
            input_names=["input_ids", "attention_mask"],
            output_names=["last_hidden_state"],
            dynamic_axes={"input_ids": batch_seq, "attention_mask": batch_seq, "last_hidden_state": batch_seq},
            opset_version=14,
            do_constant_folding=True,
        )
        enc = T5Encoder(model)(ids, mask).detach()
        dec_seq = {0: "batch_size", 1: "decoder_sequence_length"}
        torch.onnx.export(
            T5Decoder(model),
            (ids[:, :5], enc, mask),
            os.path.join(out, "onnx", "decoder_model.onnx"),
            input_names=["input_ids", "encoder_hidden_states", "encoder_attention_mask"],
            output_names=["logits"],
            dynamic_axes={
                "input_ids": dec_seq,
                "encoder_hidden_states": batch_seq,
                "encoder_attention_mask": batch_seq,
                "logits": dec_seq,
            },
            opset_version=14,
            do_constant_folding=True,
        )
    with open(os.path.join(out, "config.json"), "w") as f:
        json.dump(config, f, indent=2)
    with open(os.path.join(out, "tokenizer.json"), "w") as f:
        json.dump(tokenizer_json(), f)
    with open(os.path.join(out, "tokenizer_config.json"), "w") as f:
        json.dump({"tokenizer_class": "PreTrainedTokenizer", "model_max_length": 4096}, f)
    print(json.dumps({"parameters": sum(p.numel() for p in model.parameters())}))


def token_map(arch, model, prompt, response, schedule):
    """One forward pass, then the l columns (see the module docstring)."""
    m, l = len(prompt), len(response)
    att = torch.zeros(m + l, l)
    if arch == "gpt2":
        ids = torch.tensor([prompt + response])
        emb = model.wte(ids).detach().requires_grad_(True)
        h = model.hidden(emb)
        logp = torch.log_softmax(model.head(h)[0], dim=-1)
        positions = [m + t - 1 for t in range(l)]
        losses = -logp[torch.tensor(positions), torch.tensor(response)]
        rows = [(emb, p, p) for p in range(m + l)]
        inputs = [emb]
    else:
        enc_ids = torch.tensor([prompt])
        dec_ids = torch.tensor([[0] + response[:-1]])
        enc_emb = model.shared(enc_ids).detach().requires_grad_(True)
        dec_emb = model.shared(dec_ids).detach().requires_grad_(True)
        mask = torch.ones_like(enc_ids)
        h = model.decode_hidden(dec_emb, model.encode(enc_emb, mask), mask)
        logp = torch.log_softmax(model.head(h)[0], dim=-1)
        positions = list(range(l))
        losses = -logp[torch.tensor(positions), torch.tensor(response)]
        rows = [(enc_emb, i, i) for i in range(m)] + [(dec_emb, r + 1, m + r) for r in range(l - 1)]
        inputs = [enc_emb, dec_emb]
    if schedule == "head":
        # The LM head acts per position: d loss_t / d h is row t of d (sum of losses) / d h.
        (gh,) = torch.autograd.grad(losses.sum(), h, retain_graph=True)
    for t in range(l):
        if schedule == "head":
            seed = torch.zeros_like(h)
            seed[0, positions[t]] = gh[0, positions[t]]
            grads = torch.autograd.grad(h, inputs, grad_outputs=seed, retain_graph=True, allow_unused=True)
        else:
            grads = torch.autograd.grad(losses[t], inputs, retain_graph=True, allow_unused=True)
        by_tensor = {id(x): g for x, g in zip(inputs, grads)}
        for tensor, index, row in rows:
            g = by_tensor[id(tensor)]
            if g is not None:
                att[row, t] = (g[0, index] * tensor[0, index]).sum().detach()
    return att


def run_map(arch, folder, ids_file, out, threads, schedule="natural"):
    torch.set_num_threads(int(threads))
    torch.set_num_interop_threads(1)
    model = build(arch)
    model.load_state_dict(torch.load(os.path.join(folder, "weights.pt")))
    for p in model.parameters():
        p.requires_grad_(False)
    with open(ids_file) as f:
        ex = json.load(f)
    token_map(arch, model, ex["prompt"][:8], ex["response"][:4], schedule)  # warm-up (allocator, kernels)
    start = time.perf_counter()
    att = token_map(arch, model, ex["prompt"], ex["response"], schedule)
    seconds = time.perf_counter() - start
    att.numpy().astype("float32").tofile(out)
    maxrss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"seconds": seconds, "maxrss_mb": maxrss, "threads": int(threads), "torch": torch.__version__}))


if __name__ == "__main__":
    if sys.argv[1] == "export":
        export(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == "map":
        run_map(*sys.argv[2:])
    else:
        sys.exit(f"unknown command {sys.argv[1]}")
