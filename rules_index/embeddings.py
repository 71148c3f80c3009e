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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
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
QUESTIONS_FILE = "embeddings-questions.npy"
META_FILE = "embeddings.json"
CACHE_ENV = "NRRULES_EMBED_CACHE"
CACHE_NAME = ".embed-cache"
# Weighted reciprocal-rank fusion and a rule's nearness, chosen on the real questions' train split
# only (`bench/embedding_stages.py --tune`, 148 questions, rules list recall@5 / MRR@10): without
# embeddings 0.500 / 0.339; MIX 0.3, K 10, SEMANTIC 0.5: 0.561 / 0.366 (MIX 0 or 0.6, K 5-60 and
# SEMANTIC 0.25-0.75 all gave 0.49-0.56 / 0.33-0.37: differences of a few questions).
K = 10.0
LEXICAL = 1.0
SEMANTIC = 0.5
MIX = 0.3  # a rule's nearness: this share its text's, the rest its nearest question's
POOL = 20  # rules nearest by meaning that join the words' candidates
# Whether the order by meaning is still fused in after the learned model that reads the encoder's
# cosines (`ranker.load(embed=True)`) ordered a question's candidates (it brings the `POOL` rules
# nearest by meaning that the words missed)
FUSE_AFTER_MODEL = True
QUERY_MEMO = 512  # questions whose vectors are kept (a repeated question is not embedded again)
_queries: dict[tuple[str, str], np.ndarray] = {}
_queries_lock = threading.Lock()


def forget_queries() -> None:
    """Drop the kept question vectors (`QUERY_MEMO`): a benchmark's repeated question is then
    embedded again, as a new one would be."""
    with _queries_lock:
        _queries.clear()


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


def write_rules(
    doc, search_dir: Path, cache: Path, questions: Mapping[str, Sequence[str]] | None = None
) -> int | None:
    """Embed every searchable rule of ``doc`` and the questions its index holds for it
    (``questions``: rule id -> questions, `bank.for_doc`) through the cache at ``cache``, and
    write them beside its index; how many texts were embedded now (not read from the cache), or
    None without the encoder (`status` says why)."""
    model = encoder.load()
    if model is None:
        return None
    ids, texts = _rule_texts(doc)
    asked = [list(dict.fromkeys((questions or {}).get(i, ()))) for i in ids]
    flat = [q for qs in asked for q in qs]
    matrix, made = Cache(cache, model).embed(texts + flat)
    np.save(Path(search_dir) / MATRIX_FILE, matrix[: len(ids)], allow_pickle=False)
    # the questions' vectors, grouped by rule in the rules' order, half precision (a third of a
    # build's size otherwise); `counts` says how many each rule has
    np.save(Path(search_dir) / QUESTIONS_FILE, matrix[len(ids) :].astype(np.float16), allow_pickle=False)
    meta = {
        "model": model.digest,
        "ids": ids,
        "counts": [len(qs) for qs in asked],
        "max_tokens": encoder.MAX_TOKENS,
    }
    (Path(search_dir) / META_FILE).write_text(json.dumps(meta), encoding="utf-8")
    return made


@dataclass(frozen=True)
class RuleEmbeddings:
    """A version's rule embeddings (text, and the questions each rule answers) and the encoder
    that made them."""

    ids: list[str]
    matrix: np.ndarray  # rules x DIM, unit rows
    model: encoder.Encoder
    questions: np.ndarray | None = None  # all rules' questions x DIM, grouped by rule
    starts: np.ndarray | None = None  # where each rule with questions starts in `questions`
    having: np.ndarray | None = None  # the rules (rows) with questions

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

    def similarities(self, query: np.ndarray, mix: float | None = None) -> np.ndarray:
        """Each rule's nearness to ``query``: ``mix`` x the cosine with its text plus
        1 - ``mix`` x the best cosine with one of its questions (the text's alone for a rule
        with none)."""
        mix = MIX if mix is None else mix
        with encoder.one_blas_thread():  # small products: threads would only wait on each other
            sims = self.matrix @ query
            if self.questions is None or self.starts is None or self.having is None or not len(self.starts):
                return sims
            best = np.maximum.reduceat(self.questions @ query, self.starts)
        out = sims.copy()
        out[self.having] = mix * sims[self.having] + (1.0 - mix) * best
        return out

    @cached_property
    def rows(self) -> dict[str, int]:
        """Rule id -> its row."""
        return {rid: k for k, rid in enumerate(self.ids)}

    def cosines(self, text: str, ids: Sequence[str]) -> list[tuple[float, float]]:
        """Each rule's cosines with the question ``text``: with its text, and with its nearest
        question (its text's for a rule with none; both 0 for a rule not embedded), for the
        learned stage's ``e_*`` features (`ranker.EMBED_FEATURES`)."""
        query = self.query(text)
        with encoder.one_blas_thread():
            sims = self.matrix @ query
            best = sims.copy()
            if (
                self.questions is not None
                and self.starts is not None
                and self.having is not None
                and len(self.starts)
            ):
                best[self.having] = np.maximum.reduceat(self.questions @ query, self.starts)
        out = []
        for rid in ids:
            k = self.rows.get(rid)
            out.append((0.0, 0.0) if k is None else (round(float(sims[k]), 6), round(float(best[k]), 6)))
        return out

    def nearest(self, query: np.ndarray, n: int) -> list[tuple[str, float]]:
        """The ``n`` rules nearest ``query`` (`similarities`), nearest first (ties by position)."""
        sims = self.similarities(query)
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
        sims = self.similarities(self.query(text))
        order = np.argsort(-sims, kind="stable")
        by_meaning = {self.ids[j]: r for r, j in enumerate(order)}
        have = {rid for rid, _ in ranked}
        joined = [(self.ids[j], 0.0) for j in order[:pool] if self.ids[j] not in have]
        every = ranked + joined

        def score(pos: int, rid: str) -> float:
            lex = lexical / (k + pos) if pos < len(ranked) else 0.0
            meaning = by_meaning.get(rid)
            return lex + (semantic / (k + meaning) if meaning is not None else 0.0)

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
    counts = np.array(meta.get("counts", []), dtype=np.int64)
    try:
        questions = np.load(Path(search_dir) / QUESTIONS_FILE, allow_pickle=False).astype(np.float32)
    except (OSError, ValueError):
        return None
    if len(counts) != len(ids) or questions.shape != (int(counts.sum()), encoder.DIM):
        return None
    having = np.flatnonzero(counts)
    starts = (np.cumsum(counts) - counts)[having]
    return RuleEmbeddings(list(ids), matrix, model, questions, starts, having)
