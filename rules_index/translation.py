"""Word translation from a judge's words to the CR's: how likely a question holds a word given
the words of the rule it asks about (IBM Model 1, learned from the question bank).

The question bank (`rules_index.bank`) pairs each rule with questions in table words ("no cards
in hand", "pump"); the rule says it in the CR's ("grip", "strength"). `fit` learns, by
expectation-maximisation over those pairs, ``t(q | w)``: the chance that a question's word ``q``
stands for a rule's word ``w`` (or for none of them: the empty word, column 0). A question then
scores a rule by how well the rule's words explain each of its words,

    p(q | rule) = MIX * sum_w t(q | w) * share of w in the rule + (1 - MIX) * p(q),

averaged over the question's words as log(p(q | rule) / p(q)), ``p(q)`` being how common the
word is in questions. The learned stage of search reads three such scores per candidate
(`rules_index.ranker`, ``t_*`` features): against the rule's title and text, against the
titles of the rule and the sections above it, and against both.

Unlike word vectors (`rules_index.vectors`), which place words by meaning, this reads which
table word goes with which rule word in this game ("brain" with "core", "hand" with "grip",
"pump" with "strength"), one pair at a time. ``translation.json`` (next to this module) is
package data, like the bank and the vectors, made by ``bench/translation.py`` from the bank and
the rules of CR 26.03 in under a second (EM on whole arrays); ``tests/test_translation.py``
checks that it is what the bank makes. Its words are stems, so it serves every version; each
version's rules are read in their own words. The offline copy carries a cut-down table
(`Table.for_pack`: t(q | w) >= `PACK_FLOOR` in a byte each, `Table.to_pack`), which
``offline-search.js`` reads as `Table.scores` does, and the pack's ranker model is trained on it
(CV MRR@10 of that model 0.861 without the table, 0.870 with it). Measured on the ranker's training questions
(5-fold cross-validated MRR@10, `bench/train_ranker.py`'s folds and loss): the full model 0.875
without these features, 0.883 with them (paired difference +0.0085, standard error 0.0028);
before the training answers were audited, the text reading alone gave +0.005 and the three
together +0.010.
"""

from __future__ import annotations

import base64
import json
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from memo import memo

__all__ = ["TABLE_PATH", "PACK_FLOOR", "Table", "fit", "load"]

TABLE_PATH = Path(__file__).with_name("translation.json")  # written by bench/translation.py
# The choices below, by the same cross-validation (before the audit of the training answers):
ITERATIONS = 8  # EM rounds: 4 and 15 measure within 0.001 of 8
FLOOR = 1e-3  # smaller t(q | w) are dropped (CV: the same to 0.001; 1e-2 loses 0.004)
MIX = 0.8  # the translation's share against how common the word is (0.5: -0.0005, 0.2: -0.003)
NONE = -10.0  # the score when the rule has no words or the table knows none of the question's
# The offline copy's table (`Table.for_pack`): t(q | w) of at least this, each coded in one byte
# on a log scale. On the ranker's training questions (CV, the pack model): +0.008 MRR@10 with it
# as with the whole table; +0.004 at 0.05.
PACK_FLOOR = 0.02


@dataclass(frozen=True)
class Table:
    asked: dict[str, int]  # a question word (stem) -> its row
    said: dict[str, int]  # a rule word (stem) -> its column; column 0 is the empty word
    indptr: np.ndarray  # rows' spans in cols / probs (compressed sparse rows)
    cols: np.ndarray  # int32
    probs: np.ndarray  # float32: t(q | w)
    counts: np.ndarray  # per row: how often the word is in the questions
    background: np.ndarray  # float64, per row: p(q) in questions (`_background` of counts)

    def bag(self, words: Sequence[str]) -> tuple[np.ndarray, np.ndarray] | None:
        """A rule's words as the table reads them: the columns of those it knows and each one's
        share of all the words; None when it knows none."""
        counts = Counter(c for c in (self.said.get(w) for w in words) if c is not None)
        if not counts:
            return None
        cols = np.fromiter(counts.keys(), dtype=np.int64, count=len(counts))
        share = np.fromiter(counts.values(), dtype=np.float64, count=len(counts)) / len(words)
        return cols, share

    def scores(
        self, query: Iterable[str], bags: Sequence[tuple[np.ndarray, np.ndarray] | None]
    ) -> list[float]:
        """For each rule (its `bag`), the mean over the query's words known to the table of
        log(p(q | rule) / p(q)); `NONE` for a rule without a bag, all `NONE` when the table
        knows none of the query's words."""
        rows = [r for r in (self.asked.get(s) for s in query) if r is not None]
        present = [k for k, b in enumerate(bags) if b is not None]
        out = [NONE] * len(bags)
        if not rows or not present:
            return out
        dense = np.zeros((len(rows), len(self.said)), dtype=np.float64)
        for k, r in enumerate(rows):
            lo, hi = self.indptr[r], self.indptr[r + 1]
            dense[k, self.cols[lo:hi]] = self.probs[lo:hi]
        cols = np.concatenate([bags[k][0] for k in present])
        share = np.concatenate([bags[k][1] for k in present])
        starts = np.cumsum([0] + [len(bags[k][0]) for k in present[:-1]])
        p = np.add.reduceat(dense[:, cols] * share, starts, axis=1)  # query words x rules
        bg = self.background[rows][:, None]
        values = np.mean(np.log(MIX * p + (1 - MIX) * bg) - np.log(bg), axis=0)
        for k, v in zip(present, values.tolist(), strict=True):
            out[k] = v
        return out

    def prob(self, q: str, w: str) -> float:
        """t(q | w): 0.0 for words the table does not know (or dropped below `FLOOR`)."""
        r, c = self.asked.get(q), self.said.get(w)
        if r is None or c is None:
            return 0.0
        lo, hi = self.indptr[r], self.indptr[r + 1]
        hit = np.nonzero(self.cols[lo:hi] == c)[0]
        return float(self.probs[lo + hit[0]]) if len(hit) else 0.0

    def for_pack(self) -> Table:
        """The offline copy's table: only t(q | w) >= `PACK_FLOOR`, each rounded to its byte
        (`_code` / `_decode`, what ``offline-search.js`` decodes); the words, their counts and so
        p(q) unchanged. `to_pack` writes it."""
        keep = self.probs >= PACK_FLOOR
        rows = np.repeat(np.arange(len(self.asked)), np.diff(self.indptr))[keep]
        return Table(
            asked=self.asked,
            said=self.said,
            indptr=_indptr(np.bincount(rows, minlength=len(self.asked))),
            cols=self.cols[keep],
            probs=_decode(_code(self.probs[keep])),
            counts=self.counts,
            background=self.background,
        )

    def to_pack(self) -> dict:
        """The table in the offline pack (JSON): words joined by "|", the rows as `to_json`
        writes them, and probabilities as `_code` bytes in base64. Meant for a `for_pack`
        table (its probabilities are already on the byte scale)."""
        return {
            "floor": PACK_FLOOR,
            "mix": MIX,
            "none": NONE,
            "asked": "|".join(_in_order(self.asked)),
            "said": "|".join(_in_order(self.said)),
            **self._rows("the pack"),
            "codes": base64.b64encode(_code(self.probs).tobytes()).decode("ascii"),
        }

    def to_json(self) -> dict:
        """The table as ``translation.json`` holds it (`load` reads it back exactly)."""
        return {
            "asked": _in_order(self.asked),
            "said": _in_order(self.said),
            **self._rows("translation.json"),
            "probs": base64.b64encode(self.probs.astype("<f4").tobytes()).decode("ascii"),
        }

    def _rows(self, where: str) -> dict:
        """Each word's count, each row's size and the columns (little-endian uint16, base64)."""
        if len(self.said) > 1 << 16:
            raise ValueError(f"more rule words than {where}'s 16-bit columns hold")
        return {
            "counts": [int(c) for c in self.counts],
            "sizes": np.diff(self.indptr).tolist(),
            "cols": base64.b64encode(self.cols.astype("<u2").tobytes()).decode("ascii"),
        }


def _in_order(words: dict[str, int]) -> list[str]:
    """A row's or column's words in their numbers' order."""
    return sorted(words, key=words.__getitem__)


def fit(
    pairs: Iterable[tuple[Sequence[str], Sequence[str]]], iterations: int = ITERATIONS, floor: float = FLOOR
) -> Table | None:
    """The table learned from ``(question words, rule words)`` pairs (stems); None when no pair
    has words on both sides. Deterministic: EM from uniform t, in the pairs' order."""
    kept = [(list(q), list(w)) for q, w in pairs if q and w]
    if not kept:
        return None
    asked: dict[str, int] = {}
    said: dict[str, int] = {"": 0}  # the empty word
    for q, w in kept:
        for s in q:
            asked.setdefault(s, len(asked))
        for s in w:
            said.setdefault(s, len(said))
    # Every (question word, rule word) meeting of every pair, flat, so that one EM round is a
    # few whole-array operations: ``word`` numbers each question word of each pair (its
    # posterior over the pair's rule words, the empty one included, sums to 1).
    q_ids, cols_of, widths = [], [], []
    for q, w in kept:
        cols = np.array([0, *(said[s] for s in dict.fromkeys(w))], dtype=np.int64)
        q_ids.extend(asked[s] for s in q)
        cols_of.append(np.tile(cols, len(q)))
        widths.extend([len(cols)] * len(q))
    word = len(q_ids)
    rows = np.repeat(np.array(q_ids, dtype=np.int64), widths)
    cols = np.concatenate(cols_of)
    words = np.repeat(np.arange(word), widths)
    cell = rows * len(said) + cols
    size = len(asked) * len(said)
    t = np.full(size, 1.0 / len(asked))
    for _ in range(iterations):
        part = t[cell]
        posterior = part / np.bincount(words, part, minlength=word)[words]
        counts = np.bincount(cell, posterior, minlength=size).reshape(len(asked), len(said))
        t = (counts / np.maximum(counts.sum(0, keepdims=True), 1e-9)).ravel()
    t = t.reshape(len(asked), len(said))
    t[t < floor] = 0.0
    nz_rows, nz_cols = np.nonzero(t)  # row by row
    counts = np.bincount(q_ids, minlength=len(asked))
    return Table(
        asked=asked,
        said=said,
        indptr=_indptr(np.bincount(nz_rows, minlength=len(asked))),
        cols=nz_cols.astype(np.int32),
        probs=t[nz_rows, nz_cols].astype(np.float32),
        counts=counts,
        background=_background(counts),
    )


def _indptr(sizes: np.ndarray) -> np.ndarray:
    """Each row's start in cols / probs, from how many entries each row has, and the end."""
    return np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)


def _code(probs: np.ndarray) -> np.ndarray:
    """Probabilities in [`PACK_FLOOR`, 1] as bytes on a log scale: 0 is the floor, 255 is 1."""
    scaled = (np.log(np.maximum(probs, PACK_FLOOR)) - np.log(PACK_FLOOR)) / -np.log(PACK_FLOOR)
    return np.clip(np.round(scaled * 255), 0, 255).astype(np.uint8)


def _decode(codes: np.ndarray) -> np.ndarray:
    """The probability each byte stands for (float32, as ``offline-search.js`` rounds it)."""
    return np.exp(np.log(PACK_FLOOR) * (1 - codes.astype(np.float64) / 255)).astype(np.float32)


def _background(counts: np.ndarray) -> np.ndarray:
    """p(q): each word's share of the questions' words, half a count added to each."""
    counts = counts.astype(np.float64)
    return (counts + 0.5) / (counts.sum() + 0.5 * len(counts))


def load(path: Path = TABLE_PATH, pack: bool = False) -> Table | None:
    """The committed table, or None when it is missing or damaged (search then ranks without
    it: every candidate gets the same ``t_*`` values). Read once per file. ``pack``: the
    offline copy's table made from it (`Table.for_pack`)."""
    if pack:
        return _load_pack(str(path))
    return _load(str(path))


@memo("translation.pack")
def _load_pack(path: str) -> Table | None:
    table = _load(path)
    return table.for_pack() if table is not None else None


@memo("translation.table")
def _load(path: str) -> Table | None:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        asked = [str(s) for s in data["asked"]]
        said = [str(s) for s in data["said"]]
        counts = np.array(data["counts"], dtype=np.int64)
        sizes = np.array(data["sizes"], dtype=np.int64)
        cols = np.frombuffer(base64.b64decode(data["cols"], validate=True), dtype="<u2").astype(np.int32)
        probs = np.frombuffer(base64.b64decode(data["probs"], validate=True), dtype="<f4").astype(np.float32)
    except (OSError, ValueError, KeyError, TypeError, OverflowError):
        return None
    well_formed = (
        asked
        and said
        and counts.ndim == sizes.ndim == 1
        and len(counts) == len(sizes) == len(asked)
        and len(set(asked)) == len(asked)
        and len(set(said)) == len(said)
        and bool(np.all(counts >= 0))
        and bool(np.all(sizes >= 0))
        and len(cols) == len(probs) == int(sizes.sum())
        and (not len(cols) or int(cols.max()) < len(said))
        and bool(np.all(np.isfinite(probs) & (probs >= 0) & (probs <= 1)))
    )
    if not well_formed:
        return None
    return Table(
        asked={s: k for k, s in enumerate(asked)},
        said={s: k for k, s in enumerate(said)},
        indptr=_indptr(sizes),
        cols=cols,
        probs=probs,
        counts=counts,
        background=_background(counts),
    )
