"""Word vectors: compare a question with a rule by meaning, not only by the words they share.

``word_vectors.json`` (next to this module, written by ``bench/word_vectors.py``) holds one small
vector per stem of the CR's and the question bank's words: the sentence encoder
all-MiniLM-L6-v2 distilled word by word, then fitted so that each question of the bank
(`rules_index.bank`) lies nearest its own rule. A text's vector is the mean of its stems'
vectors, each weighted by how rare the stem is, normalised; stems the table does not know are
left out. The learned stage of search (`rules_index.ranker`) reads the cosine of the query's
vector with each candidate's text and with its questions (``v_*`` features).

Building a text's vector is a few table lookups and one small sum (microseconds), so it stays
within search's latency budget where running the encoder itself (7 to 12 ms a query) would not.
The table is package data, like the bank: part of a build's code fingerprint. A missing or
damaged table is not an error: `load` gives None and search ranks with the model that has no
``v_*`` features (`ranker.load(lite=True)`). The offline copy carries a small table made from
this one (`load(pack=True)`, `PACK_DIM`).
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from memo import memo

__all__ = ["VECTORS_PATH", "PACK_DIM", "Table", "load", "stems", "rule_text", "quantize"]

VECTORS_PATH = Path(__file__).with_name("word_vectors.json")
# The offline copy's table (`load(pack=True)`): the table's first PACK_DIM directions (its
# columns are principal directions, largest first), each stem's rarity weight folded in, coded
# int8. Small enough for the offline pack's size budget; measured on the ranker's training
# questions (5-fold cross-validated MRR@10 / recall@5): 16 dimensions 0.842 / 0.956, 24
# dimensions 0.844 / 0.959, all 96 0.853 / 0.962, none (the lite model) 0.810 / 0.929.
PACK_DIM = 16


@dataclass(frozen=True)
class Table:
    row: dict[str, int]  # stem -> row
    weights: np.ndarray  # per row: a / (a + p(stem))
    vectors: np.ndarray  # rows x dim, float32
    digest: str = ""  # of the file it was read from: what vectors made with it depend on

    @property
    def dim(self) -> int:
        return int(self.vectors.shape[1])

    def embed(self, stems: Iterable[str]) -> np.ndarray | None:
        """The normalised, rarity-weighted mean of the stems' vectors; None when the table
        knows none of them (or they cancel out)."""
        rows = [r for r in (self.row.get(s) for s in stems) if r is not None]
        if not rows:
            return None
        v = self.weights[rows] @ self.vectors[rows]
        norm = float(np.linalg.norm(v))
        return v / norm if norm > 0 else None

    def embed_all(self, texts: Iterable[Iterable[str]]) -> np.ndarray:
        """One row per text (zeros for a text with no known stem)."""
        out = [self.embed(t) for t in texts]
        zero = np.zeros(self.dim, dtype=np.float32)
        return np.array([v if v is not None else zero for v in out], dtype=np.float32).reshape(
            len(out), self.dim
        )


# Inside `stems_once` (a build): text -> its stems, so that the rules and questions embedded for
# the server's pool and again for the offline pack's are analysed once (None: not building).
_ONCE: dict[str, list[str]] | None = None


def stems(text: str) -> list[str]:
    """The stems of ``text`` as the vectors read them (`rules_index.search.VECTOR_ANALYZER`:
    search's stems, stop words kept)."""
    once = _ONCE
    if once is not None:
        got = once.get(text)
        if got is None:
            got = once[text] = _stems(text)
        return list(got)
    return _stems(text)


def _stems(text: str) -> list[str]:
    """`rules_index.search.VECTOR_ANALYZER`'s stems of ``text`` (tokens, lowercased, accents
    folded, irregular forms mapped, Porter-stemmed) without its chain of generators: a plain
    loop, about four times faster, the same words (tests/test_build_speed.py compares them on
    every rule and question)."""
    token, charmap, forms, stem = _chain()
    out = []
    for m in token.finditer(text):
        word = m.group(0).lower().translate(charmap)
        out.append(stem(forms.get(word, word)))
    return out


_CHAIN: tuple | None = None  # the analyzer's parts (`_chain`), fetched on first use


def _chain() -> tuple:
    """The tokenizer, accent map, irregular forms and stemmer of search's analyzers (imported
    on first use: the search module brings Whoosh)."""
    global _CHAIN
    if _CHAIN is None:
        import re

        from whoosh.support.charset import accent_map

        from .search import _TOKEN, WORD_FORMS, _porter

        _CHAIN = (re.compile(_TOKEN, re.UNICODE), accent_map, WORD_FORMS, _porter)
    return _CHAIN


@contextmanager
def stems_once() -> Iterator[None]:
    """Within: each text's stems are made once and kept (a version's build, which embeds every
    rule and question for the server's pool and again for the offline pack; about 20,000
    texts). Not for serving: outside it nothing is kept."""
    global _ONCE
    outer = _ONCE
    _ONCE = {} if outer is None else outer
    try:
        yield
    finally:
        _ONCE = outer


def rule_text(node) -> str:
    """What a rule's vector is made from: its title and its text."""
    return f"{node.title}. {node.text}" if node.title else node.text or ""


def quantize(matrix: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(scale per column, int8 codes): ``codes * scale`` approximates ``matrix``."""
    scale = np.abs(matrix).max(0) / 127
    scale[scale == 0] = 1.0
    return scale.astype(np.float32), np.round(matrix / scale).astype(np.int8)


def load(path: Path = VECTORS_PATH, pack: bool = False) -> Table | None:
    """The committed table, or None when it is missing or damaged. Read once per file.
    ``pack``: the offline copy's small table (`PACK_DIM`), whose weights are folded into its
    vectors (all 1)."""
    if not pack:
        return _load(str(path))
    return _pack(str(path))


@memo("vectors.pack")
def _pack(path: str) -> Table | None:
    table = _load(path)
    if table is None:
        return None
    scale, codes = quantize(table.vectors[:, :PACK_DIM] * table.weights[:, None])
    ones = np.ones(len(table.weights), dtype=np.float32)
    return Table(table.row, ones, codes.astype(np.float32) * scale)


@memo("vectors.table")
def _load(path: str) -> Table | None:
    try:
        raw = Path(path).read_bytes()
        data = json.loads(raw.decode("utf-8"))
        names = [str(s) for s in data["stems"]]
        dim = int(data["dim"])
        weights = np.array(data["weights"], dtype=np.float32)
        scale = np.array(data["scale"], dtype=np.float32)
        coded = np.frombuffer(base64.b64decode(data["vectors"], validate=True), dtype=np.int8)
        vectors = coded.reshape(len(names), dim).astype(np.float32) * scale
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if len(weights) != len(names) or len(scale) != dim or not np.isfinite(vectors).all():
        return None
    return Table({s: i for i, s in enumerate(names)}, weights, vectors, hashlib.sha256(raw).hexdigest()[:16])
