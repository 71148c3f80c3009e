"""A learned second stage for plain-English questions: a linear model over the first stage's
top candidates (learning to rank).

`rules_index.search.Searcher` ranks a question by BM25F and its hand-written re-rank
(coordination, phrase and proximity bonuses, intents, steps); for a question-like query
(`applies`) its top `DEPTH` candidates are then ordered by ``w . features``, the weights learned
by ``bench/train_ranker.py`` from judge questions with answers checked in the CR
(``bench/relevance_train.json``, ``relevance_tuning.json`` and the main set's questions;
never the held-out sets) and stored in ``ranker_weights.json`` next to this module.

A candidate's features (`FEATURES`) are read from the rule's own words and place in the rule
graph, never from the index's statistics beyond the two scores, so that the offline copy
(``webapp/static/offline-search.js``, `NRRanker`) computes the same values from its pack:

* ``base``, ``raw``: log of the hand-ranked and of the plain BM25F score over the best candidate's;
  ``rank``: 1 / (1 + position in the hand-ranked list);
* ``coord``: share of the query's word groups found in the rule's text, title, defined terms,
  section titles or examples; ``f_<field>``: the same share in each of those alone; ``all_text``:
  every group in the text; ``pairs``: share of the query's adjacent word pairs adjacent in the
  text (proximity);
* ``intent``: the rule answers the question's intent (`rules_index.question`); ``naming``: the
  rule only names something (``search.NAME_RULE``);
* ``step``, ``header``, ``subrule``: kind; ``depth``: parts of its number; ``length``: log of
  its text's word count;
* graph: ``cited_by_top`` (share of the other top-`TOP` candidates citing it, capped at 3),
  ``cites_top``, ``parent_of_top``, ``child_of_top`` and ``indegree`` (log of its citing rules).

The model only reorders; the scores of the reordered hits are the same values, handed out again
in the new order, so `SearchHit.norm` keeps its scale and a merged list keeps this order.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from math import log
from pathlib import Path

__all__ = ["FEATURES", "DEPTH", "TOP", "NodeInfo", "Model", "features", "load", "applies", "WEIGHTS_PATH"]

WEIGHTS_PATH = Path(__file__).with_name("ranker_weights.json")
DEPTH = 20  # candidates the model orders (the rest keep their place after them)
TOP = 10  # the "top candidates" of the graph features
MIN_GROUPS = 3  # a question-like query has at least this many distinct word groups
FLOOR = -8.0  # log-ratio features are clamped here (a zero score)
HEADER_KINDS = frozenset({"chapter", "section", "subsection"})
STEP_KINDS = frozenset({"step", "timing_step", "timing_phase"})
FIELDS = ("text", "title", "terms", "section", "examples", "id")
FEATURES: tuple[str, ...] = (
    "base",
    "raw",
    "rank",
    "coord",
    *(f"f_{name}" for name in FIELDS),
    "w_text",
    "w_title",
    "w_id",
    "w_any",
    "all_text",
    "pairs",
    "span",
    "first",
    "intent",
    "naming",
    "step",
    "header",
    "subrule",
    "depth",
    "length",
    "cited_by_top",
    "cites_top",
    "parent_of_top",
    "child_of_top",
    "indegree",
)


@dataclass(frozen=True)
class NodeInfo:
    """What the features read about one rule (built once per rule by the searcher)."""

    id: str
    kind: str
    parent: str | None
    depth: int  # parts of its number ("1.7.2b" -> 4), 0 without a number
    seq: tuple[str, ...]  # its text's analysed words, in order
    # stems of text, title, terms, section titles, examples, id words
    fields: tuple[frozenset[str], ...]
    cites: frozenset[str]  # ids it (or its examples) cites
    indegree: int  # rules citing it
    naming: bool


@dataclass(frozen=True)
class Model:
    names: tuple[str, ...]
    weights: tuple[float, ...]

    def score(self, vector: Sequence[float]) -> float:
        return sum(w * x for w, x in zip(self.weights, vector, strict=True))


def number_depth(number: str | None) -> int:
    """Parts of a rule number: "1.7" -> 2, "1.7.2b" -> 4, "9.5.7e.ii" -> 5."""
    if not number:
        return 0
    parts = number.split(".")
    depth = len(parts)
    if parts[-1][-1:].isalpha() and not parts[-1].isalpha():
        depth += 1
    elif len(parts) >= 3 and parts[2][-1:].isalpha():
        depth += 1
    return depth


def _ratio(value: float, best: float) -> float:
    if value <= 0 or best <= 0:
        return FLOOR
    return max(FLOOR, log(value / best))


def id_words(node_id: str) -> str:
    """The words of a stable id ("rule_hand_secret" -> "hand secret"): the CR's own short name
    for the rule."""
    return " ".join(w for w in node_id.split("_")[1:] if w)


def features(
    groups: Sequence[frozenset[str]],
    pairs: Sequence[tuple[str, str]],
    candidates: Sequence[tuple[NodeInfo, float, float, bool]],
    idfs: Sequence[float] = (),
) -> list[list[float]]:
    """One vector (in `FEATURES` order) per candidate ``(info, hand score, BM25F score, answers
    the intent)``, given best first; ``groups`` are the query's word groups (a word and the CR's
    words for it), ``pairs`` its adjacent distinct stems, ``idfs`` each group's idf."""
    if not candidates:
        return []
    best = max(c[1] for c in candidates)
    best_raw = max(c[2] for c in candidates)
    top = candidates[:TOP]
    top_ids = {c[0].id for c in top}
    top_parents = {c[0].parent for c in top}
    n = max(1, len(groups))
    idfs = list(idfs) if len(idfs) == len(groups) else [1.0] * len(groups)
    mass = sum(idfs) or 1.0
    out = []
    for position, (info, score, raw, intent) in enumerate(candidates):
        per_field = [sum(1 for g in groups if g & f) / n for f in info.fields]
        anywhere = sum(1 for g in groups if any(g & f for f in info.fields)) / n
        text, title, ident = info.fields[0], info.fields[1], info.fields[5]
        w_any = sum(x for g, x in zip(groups, idfs, strict=True) if any(g & f for f in info.fields)) / mass
        seq = info.seq
        hits = [i for i, w in enumerate(seq) if any(w in g for g in groups)]
        found = {k for k, g in enumerate(groups) if g & text}
        span = _span(seq, groups, found) if len(found) >= 2 else 0.0
        adjacent = set(zip(seq, seq[1:], strict=False)) if pairs else set()
        pair_share = sum(1 for p in pairs if p in adjacent) / len(pairs) if pairs else 0.0
        cited_by = sum(1 for c in top if c[0].id != info.id and info.id in c[0].cites)
        out.append(
            [
                _ratio(score, best),
                _ratio(raw, best_raw),
                1.0 / (1 + position),
                anywhere,
                *per_field,
                sum(x for g, x in zip(groups, idfs, strict=True) if g & text) / mass,
                sum(x for g, x in zip(groups, idfs, strict=True) if g & title) / mass,
                sum(x for g, x in zip(groups, idfs, strict=True) if g & ident) / mass,
                w_any,
                1.0 if per_field[0] >= 1.0 else 0.0,
                pair_share,
                span,
                1.0 - hits[0] / len(seq) if hits else 0.0,
                1.0 if intent else 0.0,
                1.0 if info.naming else 0.0,
                1.0 if info.kind in STEP_KINDS else 0.0,
                1.0 if info.kind in HEADER_KINDS else 0.0,
                1.0 if info.kind == "subrule" else 0.0,
                info.depth / 4.0,
                log(1 + len(seq)),
                min(3, cited_by) / 3.0,
                1.0 if any(t in top_ids and t != info.id for t in info.cites) else 0.0,
                1.0 if info.id in top_parents else 0.0,
                1.0 if info.parent in top_ids else 0.0,
                log(1 + info.indegree),
            ]
        )
    return out


def _span(seq: Sequence[str], groups: Sequence[frozenset[str]], found: set[int]) -> float:
    """How closely the text holds the query's words it has: (words found) / (length of the
    shortest stretch of text holding one of each), 1.0 when they stand together."""
    need = len(found)
    where = [(i, k) for i, w in enumerate(seq) for k in found if w in groups[k]]
    best = len(seq) + 1
    count: dict[int, int] = {}
    have = 0
    left = 0
    for right in range(len(where)):
        k = where[right][1]
        count[k] = count.get(k, 0) + 1
        if count[k] == 1:
            have += 1
        while have == need:
            best = min(best, where[right][0] - where[left][0] + 1)
            kl = where[left][1]
            count[kl] -= 1
            if count[kl] == 0:
                have -= 1
            left += 1
    return need / best if best <= len(seq) else 0.0


def applies(groups: Sequence[frozenset[str]], cards: Sequence[str], only_jargon: bool) -> bool:
    """Whether the learned stage orders a query: a question-like one (several word groups),
    naming no card (card queries are answered by their card clause) and not only jargon."""
    return len(groups) >= MIN_GROUPS and not cards and not only_jargon


@lru_cache(maxsize=4)
def load(path: Path = WEIGHTS_PATH) -> Model | None:
    """The committed model, or None when there is none (or it names a feature not computed
    here: a stale weights file must not silently misrank)."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not data.get("use"):
        return None  # cross-validation did not show a gain
    names = tuple(data.get("features", ()))
    weights = tuple(float(w) for w in data.get("weights", ()))
    if not names or names != FEATURES or len(weights) != len(names):
        return None
    return Model(names, weights)


def reorder(order: list[tuple[str, float]], scores: list[float]) -> list[tuple[str, float]]:
    """``order`` (ids) with the same score values handed out again, highest first."""
    values = sorted(scores, reverse=True)
    return [(node_id, values[i]) for i, (node_id, _) in enumerate(order)]
