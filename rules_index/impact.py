"""BM25F scoring of a small read-only Whoosh index from per-term contribution lists.

Whoosh scores a query by walking a matcher per term and calling a scorer per posting: on
indexes as small as ours (1,900 rules, 2,900 cards and rulings, 40 judge items) that machinery,
not the arithmetic, is most of the cost of a search (about 10 us a posting, and the set-up of
each term's matcher). The index never changes once written, so each ``(field, word)`` is read
once: its document numbers and what the word gives each of them under BM25F,
``idf x tf x (K1 + 1) / (tf + K1 x (1 - B + B x length / average length))`` (the field boost is
in ``tf``: Whoosh applies it when it writes the postings). A query is then the sum of its words'
lists, each times its query boost: the same scores as Whoosh's ``Or`` of ``Term``s with
`rules_index.search._FastBM25F`, in the same order, in pure Python, a few microseconds a word.

The lists are built lazily, shared by every thread (a list is complete before it is published),
and bounded by the index's own vocabulary. Phrases are not handled here (callers score the few
phrase clauses they have with Whoosh and add them).
"""

from __future__ import annotations

import heapq
import threading
from array import array
from collections.abc import Callable, Iterable
from math import log

__all__ = ["Impacts", "top"]

# One (field, word) of the index: its document numbers and their scores, in document order.
Postings = tuple[array, array]
_EMPTY: Postings = (array("i"), array("d"))
ABSENT_MAX = 4096  # (field, word)s known to be missing, kept at most


class Impacts:
    """Per-word BM25F contributions of one open, single-segment, read-only Whoosh index.
    ``reader`` gives the calling thread's reader of that index (each thread and each process
    after a fork reads through its own)."""

    def __init__(self, reader: Callable[[], object], B: float = 0.75, K1: float = 1.2) -> None:
        self.B, self.K1 = B, K1
        self._reader = reader
        self.doc_count = reader().doc_count_all()
        self._lists: dict[tuple[str, str], Postings] = {}
        self._idf: dict[tuple[str, str], float] = {}
        # (field, word)s the index lacks, recently asked: every query asks each word in every
        # field, and most words are missing from some field (a Whoosh term lookup each time).
        # Bounded (what users type is not): emptied when it reaches ABSENT_MAX.
        self._absent: dict[tuple[str, str], None] = {}
        self._lengths: dict[str, array] = {}
        self._avg: dict[str, float] = {}
        self._lock = threading.Lock()

    # ----- statistics ---------------------------------------------------------------------------
    def idf(self, field: str, text: str) -> float:
        """Whoosh's idf, ``log(N / (df + 1)) + 1``; 0.0 for a word the field does not have."""
        key = (field, text)
        value = self._idf.get(key)
        if value is None:
            if key in self._absent:
                return 0.0
            reader = self._reader()
            df = reader.doc_frequency(field, text) if field in reader.schema else 0
            if not df:
                # not in the idf table: what users type is unbounded (100k hostile unique
                # words would each stay); remembered a while in the bounded set
                if len(self._absent) >= ABSENT_MAX:
                    self._absent.clear()
                self._absent[key] = None
                return 0.0
            value = log(self.doc_count / (df + 1)) + 1
            self._idf[key] = value  # bounded by the index's own vocabulary
        return value

    def ideal(self, field: str, text: str, boost: float = 1.0) -> float:
        """The most one clause can give a document: ``idf x (K1 + 1) x boost`` (BM25's limit)."""
        return self.idf(field, text) * (self.K1 + 1) * boost

    def _field_lengths(self, field: str) -> tuple[array, float]:
        lengths = self._lengths.get(field)
        if lengths is None:
            reader = self._reader()
            lengths = array("i", (reader.doc_field_length(d, field, 0) or 0 for d in range(self.doc_count)))
            self._avg[field] = (reader.field_length(field) / (reader.doc_count() or 1)) or 1.0
            self._lengths[field] = lengths
        return lengths, self._avg[field]

    # ----- postings -----------------------------------------------------------------------------
    def postings(self, field: str, text: str) -> Postings:
        """(document numbers, BM25F scores) of a word in a field; empty arrays if it is absent."""
        key = (field, text)
        found = self._lists.get(key)
        if found is not None:
            return found
        if not self.idf(field, text):
            return _EMPTY
        with self._lock:
            found = self._lists.get(key)
            if found is None:
                found = self._read(field, text)
                self._lists[key] = found
        return found

    def _read(self, field: str, text: str) -> Postings:
        lengths, avgfl = self._field_lengths(field)
        k1, b = self.K1, self.B
        a = self.idf(field, text) * (k1 + 1)
        c = k1 * (1 - b)
        d = k1 * b / avgfl
        ids, scores = array("i"), array("d")
        m = self._reader().postings(field, text)
        while m.is_active():
            doc = m.id()
            tf = m.weight()
            ids.append(doc)
            scores.append(a * tf / (tf + c + d * lengths[doc]))
            m.next()
        return ids, scores

    def docs(self, field: str, text: str) -> array:
        """The document numbers having a word in a field."""
        return self.postings(field, text)[0]

    # ----- queries ------------------------------------------------------------------------------
    def scores(self, clauses: Iterable[tuple[str, str, float]]) -> dict[int, float]:
        """Document number -> summed score of ``(field, word, boost)`` clauses (a union: a
        document matching any clause is in it), added in clause order as Whoosh's union does."""
        acc: dict[int, float] = {}
        get = acc.get
        for field, text, boost in clauses:
            ids, parts = self.postings(field, text)
            if boost == 1.0:
                for doc, part in zip(ids, parts, strict=True):
                    acc[doc] = get(doc, 0.0) + part
            else:
                for doc, part in zip(ids, parts, strict=True):
                    acc[doc] = get(doc, 0.0) + part * boost
        return acc


def top(scores: dict[int, float], limit: int | None) -> list[tuple[int, float]]:
    """(document number, score), best first, ties by document number (Whoosh's order);
    ``limit`` None for all."""
    if limit is None or limit >= len(scores):
        return sorted(scores.items(), key=_rank_key)
    if limit <= 0:
        return []
    # The limit-th best score, then a sort of what reaches it (ties at the cut included).
    cut = heapq.nlargest(limit, scores.values())[-1]
    return sorted(((d, s) for d, s in scores.items() if s >= cut), key=_rank_key)[:limit]


def _rank_key(item: tuple[int, float]) -> tuple[float, int]:
    return -item[1], item[0]
