"""The meaning of each rule as a sentence embedding (`rules_index.encoder`), made at build time,
and the rules nearest a question by it, fused with the words' ranking at question time.

**Build** (`write_rules`, the build's ``embed`` phase): every searchable rule's text (its title
and text, `vectors.rule_text`, cut at `encoder.MAX_TOKENS` word pieces) is embedded and the
matrix written beside the version's search index (`MATRIX_FILE`, with `META_FILE`: the rules'
ids and the model's digest). Embeddings are cached on disk (`Cache`) keyed by the model's digest
and each text's hash, so a rule whose text is the same in the six CR versions is embedded once,
and a rebuild embeds only texts it has not seen (the cache lives in the build directory, or
where ``NRRULES_EMBED_CACHE`` says: the tests share one).

**Question time** (`RuleEmbeddings.fuse`): a plain-English question (one the learned stage
orders, `ranker.applies`) is embedded (a few ms, `encoder.Encoder.encode_one`), the rules are
ranked by cosine, and that ranking is fused with the words' (BM25F, the hand-written re-rank
and the learned model) by weighted reciprocal rank: ``LEXICAL / (K + rank)`` plus
``SEMANTIC / (K + rank by meaning)``, over the words' candidates and the `POOL` rules nearest
by meaning. The fused list carries the words' score values in its new order
(`ranker.reorder`), so a merged list (`rules_index.unified`) keeps its scale.

Without the encoder's package, or a build made without it, nothing changes: search ranks as
before, and the build says so. The offline copy (``offline-search.js``) never uses the
embeddings: they are server-side only.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import tempfile
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from . import encoder

__all__ = [
    "MATRIX_FILE",
    "META_FILE",
    "Cache",
    "RuleEmbeddings",
    "write_rules",
    "load_rules",
    "cache_dir",
    "status",
]

log = logging.getLogger("nrrules.build")

MATRIX_FILE = "embeddings.npy"
META_FILE = "embeddings.json"
CACHE_ENV = "NRRULES_EMBED_CACHE"
CACHE_NAME = ".embed-cache"
# Weighted reciprocal-rank fusion, chosen on the real questions' train split
# (bench/embedding_stages.py; see its docstring for the figures).
K = 10.0
LEXICAL = 1.0
SEMANTIC = 1.0
POOL = 20  # rules nearest by meaning that join the words' candidates
QUERY_MEMO = 512  # questions whose vectors are kept (a repeated question is not embedded again)
_queries: dict[tuple[str, str], np.ndarray] = {}
_queries_lock = threading.Lock()


def text_key(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()


def cache_dir(build_dir: Path) -> Path:
    """Where a build keeps its embeddings cache: ``NRRULES_EMBED_CACHE``, else inside the
    build directory."""
    env = os.environ.get(CACHE_ENV)
    return Path(env) if env else Path(build_dir) / CACHE_NAME


class Cache:
    """Embeddings on disk, one ``<model digest>.npz`` of (text hashes, vectors); texts not in it
    are embedded and the file rewritten (atomically: a new file renamed over the old)."""

    def __init__(self, path: Path, model: encoder.Encoder) -> None:
        self.path = Path(path)
        self.model = model
        self.file = self.path / f"{model.digest}.npz"

    def _read(self) -> dict[str, np.ndarray]:
        try:
            with np.load(self.file, allow_pickle=False) as data:
                keys, vecs = data["keys"], data["vectors"]
        except (OSError, ValueError, KeyError):
            return {}
        if vecs.ndim != 2 or vecs.shape != (len(keys), encoder.DIM):
            return {}
        return {str(k): v for k, v in zip(keys, vecs, strict=True)}

    def embed(self, texts: Sequence[str]) -> tuple[np.ndarray, int]:
        """(one row per text, how many were embedded now rather than read from the cache)."""
        known = self._read()
        keys = [text_key(t) for t in texts]
        todo: dict[str, str] = {}
        for key, text in zip(keys, texts, strict=True):
            if key not in known:
                todo.setdefault(key, text)
        if todo:
            made = self.model.encode(list(todo.values()))
            known.update(zip(todo, made, strict=True))
            try:
                self.path.mkdir(parents=True, exist_ok=True)
                fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=".npz", dir=self.path)
                with os.fdopen(fd, "wb") as f:
                    np.savez(f, keys=np.array(list(known)), vectors=np.array(list(known.values())))
                os.replace(tmp, self.file)
            except OSError as exc:  # a read-only cache: the build goes on, it only re-embeds next time
                log.warning("could not write the embeddings cache (%s)", type(exc).__name__)
        matrix = np.array([known[k] for k in keys], dtype=np.float32).reshape(len(keys), encoder.DIM)
        return matrix, len(todo)


def _rule_texts(doc) -> tuple[list[str], list[str]]:
    from .search import _searchable
    from .vectors import rule_text

    nodes = _searchable(doc)
    return [n.id for n in nodes], [rule_text(n) for n in nodes]


def status() -> str:
    """What a build says about the embeddings: made, or why not."""
    if encoder.load() is None:
        return f"sentence embeddings: none, {encoder.missing()}; questions are ranked without them"
    return "sentence embeddings: all-MiniLM-L6-v2 (numpy), for the server's search only"


def write_rules(doc, search_dir: Path, cache: Path) -> int | None:
    """Embed every searchable rule of ``doc`` (through the cache at ``cache``) and write the
    matrix beside its index; how many texts were embedded now (not read from the cache), or
    None without the encoder (`status` says why)."""
    model = encoder.load()
    if model is None:
        return None
    ids, texts = _rule_texts(doc)
    matrix, made = Cache(cache, model).embed(texts)
    np.save(Path(search_dir) / MATRIX_FILE, matrix, allow_pickle=False)
    meta = {"model": model.digest, "ids": ids, "max_tokens": encoder.MAX_TOKENS}
    (Path(search_dir) / META_FILE).write_text(json.dumps(meta), encoding="utf-8")
    return made


@dataclass(frozen=True)
class RuleEmbeddings:
    """A version's rule embeddings and the encoder that made them."""

    ids: list[str]
    matrix: np.ndarray  # rules x DIM, unit rows
    model: encoder.Encoder

    def query(self, text: str) -> np.ndarray:
        """The question's unit vector (the last `QUERY_MEMO` questions' are kept)."""
        key = (self.model.digest, text)
        vec = _queries.get(key)
        if vec is None:
            vec = self.model.encode_one(text)
            with _queries_lock:
                _queries[key] = vec
                while len(_queries) > QUERY_MEMO:
                    del _queries[next(iter(_queries))]
        return vec

    def nearest(self, query: np.ndarray, n: int) -> list[tuple[str, float]]:
        """The ``n`` rules nearest ``query`` by cosine, nearest first (ties by position)."""
        sims = self.matrix @ query
        order = np.argsort(-sims, kind="stable")[:n]
        return [(self.ids[k], float(sims[k])) for k in order]

    def fuse(
        self,
        ranked: list[tuple[str, float]],
        text: str,
        k: float | None = None,
        lexical: float | None = None,
        semantic: float | None = None,
        pool: int | None = None,
    ) -> list[tuple[str, float]]:
        """``ranked`` (the words' order, best first) fused with the order by meaning of ``text``
        (weighted reciprocal rank over ``ranked`` and the ``pool`` rules nearest by meaning);
        the score values of ``ranked`` handed out again in the new order (the rules that join
        from the pool take the lowest)."""
        k = K if k is None else k
        lexical = LEXICAL if lexical is None else lexical
        semantic = SEMANTIC if semantic is None else semantic
        pool = POOL if pool is None else pool
        sims = self.matrix @ self.query(text)
        order = np.argsort(-sims, kind="stable")
        by_meaning = {self.ids[j]: r for r, j in enumerate(order)}
        index = {rid: j for j, rid in enumerate(self.ids)}
        have = {rid for rid, _ in ranked}
        joined = [(self.ids[j], 0.0) for j in order[:pool] if self.ids[j] not in have]
        every = ranked + joined
        far = len(self.ids)

        def score(pos: int, rid: str) -> float:
            lex = lexical / (k + pos) if pos < len(ranked) else 0.0
            return lex + semantic / (k + by_meaning.get(rid, far)) if rid in index else lex

        fused = sorted(range(len(every)), key=lambda p: (-score(p, every[p][0]), p))
        values = sorted((s for _, s in every), reverse=True)
        return [(every[p][0], values[i]) for i, p in enumerate(fused)]


def load_rules(search_dir: Path, ids: Sequence[str]) -> RuleEmbeddings | None:
    """The embeddings `write_rules` wrote for these rules, or None when there are none, they
    were made by another model or for other rules, or the encoder is not installed."""
    model = encoder.load()
    if model is None:
        return None
    try:
        meta = json.loads((Path(search_dir) / META_FILE).read_text(encoding="utf-8"))
        matrix = np.load(Path(search_dir) / MATRIX_FILE, allow_pickle=False)
    except (OSError, ValueError):
        return None
    if meta.get("model") != model.digest or meta.get("ids") != list(ids):
        return None
    if matrix.dtype != np.float32 or matrix.shape != (len(ids), encoder.DIM):
        return None
    return RuleEmbeddings(list(ids), matrix, model)
