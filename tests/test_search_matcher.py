"""Scoring from per-word score lists (`rules_index.impact`) must rank exactly as Whoosh's own
``Or`` of the same clauses does: rules (terms and phrases), cards and rulings, judge items."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from whoosh.query import Or, Term
from whoosh.scoring import BM25F
from whoosh.searching import Searcher

from rules_index.impact import ABSENT_MAX, Impacts, top
from rules_index.search import _STOP, _FastBM25F

BENCH = Path(__file__).resolve().parent.parent / "bench"
QUERIES = [
    q["q"]
    for name in ("set", "tuning")
    for q in json.loads((BENCH / f"relevance_{name}.json").read_text())["queries"]
]


def _rounded(pairs):
    return [(doc, round(score, 9)) for doc, score in pairs]


@pytest.mark.parametrize("version", ["22.12", "26.03"])
def test_rule_candidates_score_and_order_exactly_like_whoosh(library, version):
    searcher = library.searcher(version)
    whoosh = searcher._searcher()
    compared = 0
    for q in QUERIES:
        query, _, info = searcher._plan(q)
        if query is None:
            continue
        terms = [(f, t, b) for (f, t), b in info["weights"].items()]
        ours = searcher.candidates(terms, info["phrase_clauses"], 30)
        theirs = [(hit.docnum, hit.score) for hit in whoosh.search(query, limit=30, optimize=False)]
        assert _rounded(ours) == _rounded(theirs), q
        compared += len(ours)
    assert len(QUERIES) >= 100
    assert compared > 1500  # the comparison covered real result lists
    assert any(info["phrase_clauses"] for info in (searcher._plan(q)[2] for q in QUERIES))


def test_card_ranking_scores_like_whoosh(cards_built):
    from rules_index.cards import CARD_BM25_B, CARD_BM25_K1, SEARCH_FIELDS, CardStore

    store = CardStore.open(cards_built)
    impacts, schema, docs, _ = store._ranking()
    whoosh = store._searcher()
    plain = whoosh.reader()
    compared = 0
    for q in [
        "take the tag",
        "bypass funhouse",
        "can the runner trash an agenda",
        "net damage hand",
        "Snare!",
    ]:
        ranked, ideal = store.rank(q, limit=5)
        clauses = dict.fromkeys(
            (f, t.text)
            for f in SEARCH_FIELDS
            for t in schema[f].analyzer(q)
            if t.text not in _STOP and plain.doc_frequency(f, t.text)
        )
        with Searcher(plain, weighting=_FastBM25F(B=CARD_BM25_B, K1=CARD_BM25_K1), closereader=False) as s:
            results = s.search(Or([Term(f, t) for f, t in clauses]), limit=None, optimize=False)
            expected: dict[str, list[tuple]] = {"cards": [], "rulings": []}
            for hit in results:
                source, cid, ruling = docs[hit.docnum]
                if len(expected[source]) < 5:
                    expected[source].append((cid, ruling, round(hit.score, 9)))
        for source in ("cards", "rulings"):
            got = [(r.card_id, r.ruling, round(r.score, 9)) for r in ranked[source]]
            assert got == expected[source], (q, source)
            compared += len(got)
        assert ideal > 0
    assert compared >= 30


def test_judge_scores_like_whoosh_bm25f(judge_library):
    judge = judge_library.judge()
    whoosh = judge._searcher()
    impacts = Impacts(lambda: whoosh.reader())
    for words in [("draw", "card"), ("reveal", "r&d"), ("warn",), ("penalti", "game", "loss")]:
        clauses = [(f, w, 1.0) for w in words for f in ("title", "text", "section")]
        ours = top(impacts.scores(clauses), 20)
        with judge._ix.searcher(weighting=BM25F()) as s:  # the judge store's own weighting
            theirs = [
                (h.docnum, h.score)
                for h in s.search(Or([Term(f, w) for f, w, _ in clauses]), limit=20, optimize=False)
            ]
        assert theirs, words
        assert [d for d, _ in ours] == [d for d, _ in theirs]
        assert [round(x, 6) for _, x in ours] == [round(x, 6) for _, x in theirs]


def test_card_names_by_prefix_are_those_of_a_full_scan(cards_built):
    from rules_index.cards import EXACT_SCORE, PREFIX_SCORE, CardStore, name_key

    store = CardStore.open(cards_built)
    matcher = store.matcher
    names = {**matcher.parts, **matcher.names}  # whole names, and the parts of identities' names
    for typed in ["corr", "Snare!", "ice", "the", "su", "Hermes", "zz"]:
        key = name_key(typed)
        scan: dict[str, float] = {cid: EXACT_SCORE for cid in names.get(key, [])}
        starts = sorted((k for k in names if k.startswith(key) and k != key), key=lambda k: (len(k), k))
        for rank, k in enumerate(starts[:10]):
            for cid in names[k]:
                scan.setdefault(cid, PREFIX_SCORE - rank)
        expected = sorted(scan.items(), key=lambda kv: -kv[1])[:10]
        assert [(m.card_id, m.score) for m in store.named(typed, 10)] == expected, typed
    assert store.named("corr", 10) and store.named("Snare!", 10)[0].score == EXACT_SCORE


def test_words_the_index_lacks_are_not_kept(judge_library):
    """What users type is unbounded: a word no document has scores nothing and leaves no
    entry behind, so unique hostile queries cannot grow the per-word tables (issue 16 item 8)."""
    whoosh = judge_library.judge()._searcher()
    impacts = Impacts(lambda: whoosh.reader())
    assert impacts.idf("text", "draw") > 0 and impacts.postings("text", "draw")[0]
    kept = (len(impacts._idf), len(impacts._lists))
    for i in range(2000):
        word = f"zq{i}xv"
        assert impacts.idf("text", word) == 0.0
        assert len(impacts.postings("text", word)[0]) == 0
    assert (len(impacts._idf), len(impacts._lists)) == kept


def test_words_the_index_lacks_are_remembered_within_a_bound(judge_library):
    """A word a field lacks is looked up in the term index once, not on every query, and
    however many unique words arrive the set of them stays bounded (issue 15, issue 16 item 8)."""
    whoosh = judge_library.judge()._searcher()
    impacts = Impacts(lambda: whoosh.reader())
    assert impacts.idf("text", "zqmissing") == 0.0
    assert ("text", "zqmissing") in impacts._absent
    assert ("text", "draw") not in impacts._absent and impacts.idf("text", "draw") > 0
    for i in range(3 * ABSENT_MAX):
        assert impacts.idf("text", f"zq{i}xv") == 0.0
        assert len(impacts._absent) <= ABSENT_MAX
