"""Our dense union matcher must rank exactly as Whoosh's own Or does."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from whoosh.query import Or

import rules_index.search as search_mod

QUERIES = [
    q.get("q") or q.get("query") or q.get("text")
    for q in (lambda d: d["queries"] if isinstance(d, dict) else d)(
        json.loads((Path(__file__).resolve().parent.parent / "bench" / "relevance_set.json").read_text())
    )
]


def _results(searcher):
    return [[(h.id, round(h.score, 9)) for h in searcher.search(q, limit=20)] for q in QUERIES]


@pytest.mark.parametrize("version", ["22.12", "26.03"])
def test_dense_union_ranks_exactly_like_whoosh(library, version, monkeypatch):
    searcher = library.searcher(version)
    ours = _results(searcher)
    monkeypatch.setattr(search_mod, "_DenseOr", Or)
    theirs = _results(searcher)
    assert len(QUERIES) >= 60
    assert sum(len(r) for r in ours) > 500  # the comparison covered real result lists
    assert ours == theirs


def test_the_query_builder_uses_the_dense_union(library):
    q = library.searcher("26.03").build_query("jack out of a run after passing ice")
    assert isinstance(q, search_mod._DenseOr)
