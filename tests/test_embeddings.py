"""The rules' sentence embeddings (`rules_index.embeddings`): the cache by text, what a build
writes for each version, and the fusion of the words' order with the order by meaning."""

from __future__ import annotations

import numpy as np
import pytest

from rules_index import embeddings, encoder
from rules_index.search import _searchable


@pytest.fixture(scope="module")
def model() -> encoder.Encoder:
    found = encoder.load()
    assert found is not None, encoder.missing()
    return found


def test_cache_embeds_each_text_once(tmp_path, model):
    texts = ["The Runner may jack out.", "The Corp draws a card.", "The Runner may jack out."]
    first, made = embeddings.Cache(tmp_path, model).embed(texts)
    assert made == 2  # the repeated text is embedded once
    assert np.array_equal(first[0], first[2])
    again, made = embeddings.Cache(tmp_path, model).embed(["The Corp draws a card.", "Rez the ice."])
    assert made == 1  # only the new text: the other is read from the file
    assert np.array_equal(again[0], first[1])
    assert np.abs(again[1] - model.encode_one("Rez the ice.")).max() < 1e-6


def test_a_damaged_cache_is_remade(tmp_path, model):
    cache = embeddings.Cache(tmp_path, model)
    cache.file.write_bytes(b"not a numpy archive")
    vecs, made = cache.embed(["Purge virus counters."])
    assert made == 1 and np.isfinite(vecs).all()
    assert embeddings.Cache(tmp_path, model).embed(["Purge virus counters."])[1] == 0


def test_the_build_writes_each_versions_embeddings(library):
    made = {}
    for version in library.available_versions():
        searcher = library.searcher(version)
        meaning = searcher.rule_embeddings()
        assert meaning is not None, version
        ids = [n.id for n in _searchable(library.document(version))]
        assert meaning.ids == ids
        assert np.allclose(np.linalg.norm(meaning.matrix, axis=1), 1.0, atol=1e-4)
        # each rule's questions as its index holds them, embedded in order
        assert meaning.questions is not None
        counts = [len(dict.fromkeys(searcher.asked(i))) for i in ids]
        assert meaning.questions.shape == (sum(counts), encoder.DIM)
        made[version] = dict(zip(ids, meaning.matrix, strict=True))
    # a rule whose text two versions share has the same vector in both (from the cache)
    old, new = made["25.08"], made["26.03"]
    docs = library.document("25.08"), library.document("26.03")
    same = [
        i
        for i in set(old) & set(new)
        if docs[0].node(i) is not None
        and docs[0].node(i).text == docs[1].node(i).text
        and docs[0].node(i).title == docs[1].node(i).title
    ]
    assert len(same) > 1000
    assert all(np.array_equal(old[i], new[i]) for i in same)


def test_fusion(library):
    meaning = library.searcher("26.03").rule_embeddings()
    text = "can the runner leave the run before approaching the next ice"
    by_meaning = [i for i, _ in meaning.nearest(meaning.query(text), 40)]
    words = list(reversed(by_meaning[:30]))  # the words' order: the reverse of the meaning's
    ranked = [(rid, 30.0 - k) for k, rid in enumerate(words)]
    # no weight on meaning: the words' order, unchanged, and no rule joins
    assert meaning.fuse(ranked, text, semantic=0.0, pool=10) == ranked
    # no weight on the words: the order by meaning, the pool's rules after the words' (score 0)
    only = meaning.fuse(ranked, text, lexical=0.0, pool=40)
    assert [i for i, _ in only] == by_meaning[:40]
    # the words' score values handed out again, highest first
    assert [s for _, s in only] == sorted([s for _, s in ranked] + [0.0] * 10, reverse=True)
    # both, equal weights (K 10): 1/(10 + rank by words) + 1/(10 + rank by meaning) is highest
    # for the two rules each order puts first, lowest for those both put in the middle
    both = [i for i, _ in meaning.fuse(ranked, text, k=10.0, lexical=1.0, semantic=1.0, pool=0)]
    assert sorted(both) == sorted(words)
    assert both[:2] == [words[0], words[29]]  # a tie: the words' order decides
    assert both[-1] == words[15]
