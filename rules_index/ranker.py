"""A learned second stage for plain-English questions: a linear model over the first stage's
top candidates (learning to rank).

`rules_index.search.Searcher` ranks a question by BM25F and its hand-written re-rank
(coordination, phrase and proximity bonuses, intents, steps); for a question-like query
(`applies`) its top `DEPTH` candidates, and the `VECTOR_POOL` rules nearest it by word vectors
that BM25 missed, are then ordered by ``w . features``, the weights learned
by ``bench/train_ranker.py`` from judge questions with answers checked in the CR
(every ``bench/relevance_train*.json``, ``relevance_tuning.json`` and the main set's
questions; never the held-out sets) and stored in ``ranker_weights.json`` next to this module.

A candidate's features (`FEATURES`) are read from the rule's own words and place in the rule
graph, never from the index's statistics beyond the two scores, so that the offline copy
(``webapp/static/offline-search.js``, `NRRanker`) computes the same values from its pack:

* ``base``, ``raw``: log of the hand-ranked and of the plain BM25F score over the best candidate's;
  ``rank``: 1 / (1 + position in the hand-ranked list);
* ``coord``: share of the query's word groups found in the rule's text, title, defined terms,
  section titles, examples or questions; ``f_<field>``: the same share in each of those alone; ``all_text``:
  every group in the text; ``pairs``: share of the query's adjacent word pairs adjacent in the
  text (proximity);
* ``intent``: the rule answers the question's intent (`rules_index.question`); ``naming``: the
  rule only names something (``search.NAME_RULE``);
* ``step``, ``header``, ``subrule``: kind; ``depth``: parts of its number; ``length``: log of
  its text's word count;
* graph: ``cited_by_top`` (share of the other top-`TOP` candidates citing it, capped at 3),
  ``cites_top``, ``parent_of_top``, ``child_of_top`` and ``indegree`` (log of its citing rules).
* question bank (`rules_index.bank`): ``f_asked`` and ``w_asked``, the share of the query's word
  groups in the rule's questions; ``q_best``, the idf-weighted share one question of the rule
  has at best (its nearest question), and ``q_jac``, the best overlap of groups and a question's
  words over their union. Measured on the training questions (5-fold cross-validated MRR@10 /
  recall@5): 0.632 / 0.785 without the bank, 0.766 / 0.902 with its first round, 0.811 / 0.929
  with all three rounds; the three question features add about 0.008 MRR over the field alone.
* word vectors (`rules_index.vectors`, the searcher computes them): ``v_text``, ``v_asked`` and
  ``v_mean``, the cosine of the query's vector with the rule's text, its nearest question and
  the mean of its questions, each with a ``_rel`` twin (less the best candidate's). These read
  meaning where the words differ ("hand" for "grip"). The weights file holds three models: the
  full one; a ``lite`` one without these features, trained the same way, which a searcher
  without vectors uses; and the offline copy's ``pack`` one (`PACK_FEATURES`: ``v_text`` and
  ``v_mean`` by the pack's small table).
* translation (`rules_index.translation`): ``t_text``, ``t_titles``, ``t_all``, how well the
  rule's words explain the query's by the table of which table word goes with which CR word,
  learned from the bank: against its title and text, its section titles, and both. The full
  model reads the whole table, the ``pack`` one the offline copy's cut-down table
  (`rules_index.translation.Table.for_pack`); the lite model neither.

The model only reorders; the scores of the reordered hits are the same values, handed out again
in the new order, so `SearchHit.norm` keeps its scale and a merged list keeps this order.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from math import log
from operator import mul
from pathlib import Path

from memo import memo

__all__ = [
    "FEATURES",
    "LITE_FEATURES",
    "VECTOR_FEATURES",
    "TRANSLATION_FEATURES",
    "PACK_FEATURES",
    "EMBED_FEATURES",
    "EMBED_MODEL_FEATURES",
    "PACK_COLUMNS",
    "DEPTH",
    "VECTOR_POOL",
    "TOP",
    "NodeInfo",
    "Model",
    "features",
    "load",
    "applies",
    "WEIGHTS_PATH",
]

WEIGHTS_PATH = Path(__file__).with_name("ranker_weights.json")
# Candidates the model orders (the rest keep their place after them): the first stage's whole
# pool (search.RERANK_DEPTH). Measured when relevance_train2.json had its first 219 questions:
# for the 571 question-like training queries then, the right rule is in
# the hand-ranked top 20 for 0.919 of them, top 40 for 0.967, top 80 for 0.979; 5-fold
# cross-validated MRR@10 0.673 and recall@5 0.837 at 40 against 0.667 / 0.830 at 20, for about
# +0.4 ms CPU per question.
DEPTH = 40
# Candidates the word vectors add after the first stage's pool: the rules nearest the question by
# meaning (the text's vector and the mean of the rule's bank questions, weighted POOL_MIX and
# 1 - POOL_MIX; the offline copy, by the pack's rule vectors, which fold in its model's two vector
# weights) that BM25 did not put in its top DEPTH. They enter with no BM25 score, so only the
# model's other features can lift them. Measured on the 1,398 longer training questions (5-fold
# cross-validated, paired with the same queries without them): the answer is among the
# candidates for 98.7 % of them without, 99.9 % with 10 more; MRR@10 +0.004 (SE 0.0022) and
# recall@5 0.971 -> 0.982 (5 more: +0.003; 20 more: +0.004; a mix of 0.5: the same). Retrained
# with them (`bench/train_ranker.py`, 1,485 queries): full model 0.881 / 0.972 -> 0.885 / 0.982,
# the offline copy's 0.874 / 0.970 -> 0.878 / 0.978. About +0.5 ms a question (bench/search.py).
VECTOR_POOL = 10
POOL_MIX = 0.3
TOP = 10  # the "top candidates" of the graph features
MIN_GROUPS = 3  # a query not phrased as a question is question-like with this many word groups
FLOOR = -8.0  # log-ratio features are clamped here (a zero score)
HEADER_KINDS = frozenset({"chapter", "section", "subsection"})
STEP_KINDS = frozenset({"step", "timing_step", "timing_phase"})
FIELDS = ("text", "title", "terms", "section", "examples", "id", "asked")
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
    "w_asked",
    "q_best",
    "q_jac",
)
# Word vectors (`rules_index.vectors`): the cosine of the query's vector with the rule's text, with
# its nearest question in the bank and with the mean of its questions, each also less the best
# of the candidates'. Last, so that the model without them (`load(lite=True)`) scores the same
# vectors' first features.
VECTOR_FEATURES: tuple[str, ...] = ("v_text", "v_text_rel", "v_asked", "v_asked_rel", "v_mean", "v_mean_rel")
# The translation table (`rules_index.translation`): how well the rule's words explain the
# query's, read against the rule's title and text, the titles of it and the sections above it,
# and both. The offline copy reads them by a cut-down table (`PACK_FEATURES`).
TRANSLATION_FEATURES: tuple[str, ...] = ("t_text", "t_titles", "t_all")
LITE_FEATURES = FEATURES
FEATURES = FEATURES + VECTOR_FEATURES + TRANSLATION_FEATURES
# The offline copy's model (`load(pack=True)`): the lite features and two cosines by the pack's
# small table (`rules_index.vectors.load(pack=True)`), with the rule's text and with the mean of
# its questions. Linear in the query's vector, so the pack carries one vector per rule, those
# two weights folded in (`Searcher.pack_vectors`), and the browser adds its dot product with
# the query's vector to the lite features' sum. (The ``_rel`` twins would change no order: a
# linear model adds the same amount to every candidate of a query for them.) Then the three
# translation features, read by the pack's cut-down table (`rules_index.translation.load(pack=True)`).
PACK_VECTOR_FEATURES: tuple[str, ...] = ("v_text", "v_mean")
PACK_FEATURES = LITE_FEATURES + PACK_VECTOR_FEATURES + TRANSLATION_FEATURES
# The sentence encoder's cosines (`rules_index.embeddings`, server side only): of the question with
# the rule's text and with its nearest question, each also less the best of the candidates'. The
# ``embed`` model (`load(embed=True)`) reads every feature and these after them, for a searcher
# whose build has the rules' embeddings; the full model scores the same vectors' first features.
EMBED_FEATURES: tuple[str, ...] = ("e_text", "e_text_rel", "e_asked", "e_asked_rel")
EMBED_MODEL_FEATURES = FEATURES + EMBED_FEATURES
PACK_COLUMNS: tuple[int, ...] = (
    *range(len(LITE_FEATURES)),
    *(FEATURES.index(name) for name in PACK_VECTOR_FEATURES + TRANSLATION_FEATURES),
)


@dataclass(frozen=True)
class NodeInfo:
    """What the features read about one rule (built once per rule by the searcher)."""

    id: str
    kind: str
    parent: str | None
    depth: int  # parts of its number ("1.7.2b" -> 4), 0 without a number
    seq: tuple[str, ...]  # its text's analysed words, in order
    bigrams: frozenset[tuple[str, str]]  # its text's adjacent word pairs
    # stems of text, title, terms, section titles, examples, id words, the bank's questions
    fields: tuple[frozenset[str], ...]
    cites: frozenset[str]  # ids it (or its examples) cites
    indegree: int  # rules citing it
    naming: bool
    asked: tuple[frozenset[str], ...] = ()  # stems of each of its questions in the bank


@dataclass(frozen=True)
class Model:
    names: tuple[str, ...]
    weights: tuple[float, ...]

    def score(self, vector: Sequence[float]) -> float:
        return sum(map(mul, self.weights, vector))  # in feature order, as the offline copy sums


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
    sims: Sequence[tuple[float, float, float]] | None = None,
    translated: Sequence[tuple[float, float, float]] | None = None,
    embedded: Sequence[tuple[float, float]] | None = None,
) -> list[list[float]]:
    """One vector (in `FEATURES` order) per candidate ``(info, hand score, BM25F score, answers
    the intent)``, given best first; ``groups`` are the query's word groups (a word and the CR's
    words for it), ``pairs`` its adjacent distinct stems, ``idfs`` each group's idf, ``sims``
    each candidate's cosines with the query by word vectors (text, nearest question, mean of its
    questions; zeros without them), ``translated`` each candidate's scores by the translation
    table (`rules_index.translation`; zeros without it), ``embedded`` each candidate's cosines
    with the query by the sentence encoder (text, nearest question: the `EMBED_FEATURES`
    appended, none without them). ``lite`` vectors (the `LITE_FEATURES`) are the first features
    of each, and the `FEATURES` the first of an ``embedded`` one."""
    if not candidates:
        return []
    if sims is None or len(sims) != len(candidates):
        sims = [(0.0, 0.0, 0.0)] * len(candidates)
    if translated is None or len(translated) != len(candidates):
        translated = [(0.0, 0.0, 0.0)] * len(candidates)
    best_sims = [max(s[k] for s in sims) for k in range(3)]
    best = max(c[1] for c in candidates)
    best_raw = max(c[2] for c in candidates)
    top = candidates[:TOP]
    top_ids = {c[0].id for c in top}
    top_parents = {c[0].parent for c in top}
    n = max(1, len(groups))
    idfs = list(idfs) if len(idfs) == len(groups) else [1.0] * len(groups)
    mass = sum(idfs) or 1.0
    member: dict[str, list[int]] = {}  # stem -> the groups it belongs to
    for k, g in enumerate(groups):
        for stem in g:
            member.setdefault(stem, []).append(k)

    shares: dict[frozenset[int], float] = {}  # the same sets of groups recur across candidates

    def share(ks: set[int]) -> float:  # idf-weighted, summed in group order
        key = frozenset(ks)
        value = shares.get(key)
        if value is None:
            value = shares[key] = sum(idfs[k] for k in sorted(ks)) / mass
        return value

    out = []
    for position, (info, score, raw, intent) in enumerate(candidates):
        matched = []
        for f in info.fields:
            ks: set[int] = set()
            for stem, where in member.items():
                if stem in f:
                    ks.update(where)
            matched.append(ks)
        anywhere = set().union(*matched)
        per_field = [len(ks) / n for ks in matched]
        seq = info.seq
        first = next((i for i, w in enumerate(seq) if w in member), None)
        found = matched[0]
        span = _span(seq, member, found) if len(found) >= 2 else 0.0
        pair_share = sum(1 for p in pairs if p in info.bigrams) / len(pairs) if pairs else 0.0
        cited_by = sum(1 for c in top if c[0].id != info.id and info.id in c[0].cites)
        out.append(
            [
                _ratio(score, best),
                _ratio(raw, best_raw),
                1.0 / (1 + position),
                len(anywhere) / n,
                *per_field,
                share(found),
                share(matched[1]),
                share(matched[5]),
                share(anywhere),
                1.0 if per_field[0] >= 1.0 else 0.0,
                pair_share,
                span,
                1.0 - first / len(seq) if first is not None else 0.0,
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
                share(matched[6]),
                *_nearest_question(info.asked, member, share, n),
                *(x for k in range(3) for x in (sims[position][k], sims[position][k] - best_sims[k])),
                *translated[position],
            ]
        )
    if embedded is not None and len(embedded) == len(candidates):
        best_e = [max(e[k] for e in embedded) for k in range(2)]
        for row, e in zip(out, embedded, strict=True):
            row.extend(x for k in range(2) for x in (e[k], e[k] - best_e[k]))
    return out


def _nearest_question(
    asked: Sequence[frozenset[str]], member: dict[str, list[int]], share, n: int
) -> tuple[float, float]:
    """How well the query matches the rule's closest question in the bank (`rules_index.bank`):
    the largest idf-weighted share of the query's word groups one question has (``q_best``), and
    the largest overlap of groups and question words over their union (``q_jac``)."""
    best = jac = 0.0
    stems = member.keys()
    for q in asked:
        hits = stems & q  # most of a question's stems are not the query's: skip them in C
        if not hits:
            continue
        ks: set[int] = set()
        for stem in hits:
            ks.update(member[stem])
        best = max(best, share(ks))
        jac = max(jac, len(ks) / (n + len(q) - len(ks)))
    return best, jac


def _span(seq: Sequence[str], member: dict[str, list[int]], found: set[int]) -> float:
    """How closely the text holds the query's word groups it has (``found``; ``member``: stem
    -> its groups): groups found / length of the shortest stretch of text holding one word of
    each, 1.0 when they stand together."""
    need = len(found)
    where = [(i, k) for i, w in enumerate(seq) if w in member for k in member[w] if k in found]
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


def applies(
    groups: Sequence[frozenset[str]],
    cards: Sequence[str],
    only_jargon: bool,
    names_term: bool = False,
    asks: bool = False,
) -> bool:
    """Whether the learned stage orders a query: one naming no card (card queries are answered
    by their card clause) and not only jargon, that is phrased as a question (``asks``,
    `rules_index.question.ASKS`: "what is a nested cost", "who owns a card") or has several word
    groups and is not just a term the CR defines (``names_term``: "paid ability window" is
    answered by the rule defining it, which the hand-written ranking puts first).

    Short questions were left to the hand-written order until 2026-11-27. On the 1,515 training
    queries (5-fold cross-validated, `bench/train_ranker.py`'s folds), the 86 short or
    term-naming questions this now takes went from MRR@10 0.780 to 0.904; all queries together
    +0.0067 (SE 0.0024) paired. Held out (`bench/relevance.py`, totals only): the older 22
    queries 0.936 -> 0.966, the 54 questions unchanged at 0.842. Bare keyword queries of two
    groups ("oof influence", "bypas ice") stay with the hand-written order: the learned stage
    put their answer second."""
    if cards or only_jargon or not groups:
        return False
    if asks:
        return True
    return len(groups) >= MIN_GROUPS and not names_term


def load(
    path: Path = WEIGHTS_PATH, lite: bool = False, pack: bool = False, embed: bool = False
) -> Model | None:
    """The committed model, or None when there is none, when cross-validation did not show a
    gain, or when it names a feature not computed here (a stale weights file must not silently
    misrank). ``lite``: the model without the word-vector features (the file's ``lite`` part),
    for a searcher without vectors; ``pack``: the offline copy's (`PACK_FEATURES`, the file's
    ``pack`` part); ``embed``: the server's with the sentence encoder's cosines
    (`EMBED_MODEL_FEATURES`, the file's ``embed`` part). Read once per file."""
    return _load(str(path), "lite" if lite else "pack" if pack else "embed" if embed else "")


_PARTS = {"": FEATURES, "lite": LITE_FEATURES, "pack": PACK_FEATURES, "embed": EMBED_MODEL_FEATURES}


@memo("ranker.model")
def _load(path: str, part: str) -> Model | None:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        if part:
            data = data.get(part) or {}
        names = tuple(data.get("features", ()))
        weights = tuple(float(w) for w in data.get("weights", ()))
    except (OSError, ValueError, TypeError, AttributeError):
        return None
    if not data.get("use"):
        return None  # cross-validation did not show a gain
    if not names or names != _PARTS.get(part) or len(weights) != len(names):
        return None
    return Model(names, weights)


def reorder(order: list[tuple[str, float]], scores: list[float]) -> list[tuple[str, float]]:
    """``order`` (ids) with the same score values handed out again, highest first."""
    values = sorted(scores, reverse=True)
    return [(node_id, values[i]) for i, (node_id, _) in enumerate(order)]
