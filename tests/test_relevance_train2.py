"""bench/relevance_train2.json, the second training set for the learned re-ranker: every answer is
a real CR 26.03 rule, and no question repeats one of the earlier training and tuning sets."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import jaccard, near_pairs, words

BENCH = Path(__file__).resolve().parent.parent / "bench"
TYPES = {"question", "situation", "slang"}


def _queries(name: str) -> list[dict]:
    return json.loads((BENCH / name).read_text(encoding="utf-8"))["queries"]


def test_train2_answers_are_rules_of_cr_26_03(doc_latest):
    data = json.loads((BENCH / "relevance_train2.json").read_text(encoding="utf-8"))
    assert data["version"] == doc_latest.version == "26.03"
    kinds = {node.id: node.kind for node in doc_latest.nodes}
    queries = data["queries"]
    assert len(queries) >= 250
    for item in queries:
        assert item["type"] in TYPES, item
        assert item["answers"], item
        for rid in item["answers"]:
            assert kinds.get(rid) not in (None, "example"), (item["q"], rid)


def test_train2_has_no_near_duplicates():
    new = [q["q"] for q in _queries("relevance_train2.json")]
    old = [
        q["q"]
        for f in ("relevance_set.json", "relevance_tuning.json", "relevance_train.json")
        for q in _queries(f)
    ]
    old_words = [words(q) for q in old]
    seen: list[frozenset[str]] = []
    for q in new:
        qw = words(q)
        for other in old_words + seen:
            assert jaccard(qw, other) < 0.6, q
        seen.append(qw)


def test_no_tuning_or_training_question_repeats_a_held_out_query():
    """The sets the ranking is tuned and trained on leak nothing of the held-out sets: no
    question of theirs repeats or nearly repeats (token-set Jaccard >= 0.6) a held-out query.
    (25 such questions were found and removed on 2026-11-24, five of them word for word.)"""
    held = [
        words(q["q"]) for f in ("relevance_questions.json", "relevance_holdout.json") for q in _queries(f)
    ]
    assert len(held) >= 70
    trained = [
        q["q"]
        for f in ("relevance_tuning.json", "relevance_train.json", "relevance_train2.json")
        for q in _queries(f)
    ]
    assert len(trained) >= 800
    # a training question written with a held-out query's words would fail here
    assert max(jaccard(words(q), h) for q in trained[:50] for h in held) > 0.3
    for q in trained:
        qw = words(q)
        assert max(jaccard(qw, h) for h in held) < 0.6, q
    for f in ("relevance_train.json", "relevance_train2.json", "relevance_tuning.json"):
        assert json.loads((BENCH / f).read_text(encoding="utf-8"))["version"] == "26.03"


EARLIER = ("relevance_set.json", "relevance_tuning.json", "relevance_train.json", "relevance_train2.json")
# the later training sets (bank3 helper; four chapter helpers on 2026-11-27), each with the sets
# written before it, which none of its questions may nearly repeat
LATER = {
    "relevance_train3.json": EARLIER,
    "relevance_train4.json": (*EARLIER, "relevance_train3.json"),
    "relevance_train5.json": (*EARLIER, "relevance_train3.json", "relevance_train4.json"),
}


@pytest.mark.parametrize("name", sorted(LATER))
def test_later_training_sets_answers_are_rules_of_cr_26_03(doc_latest, name):
    """Every answer of the third to fifth training sets is a real CR 26.03 rule, not an
    example, and every query has a type."""
    data = json.loads((BENCH / name).read_text(encoding="utf-8"))
    assert data["version"] == doc_latest.version == "26.03"
    kinds = {node.id: node.kind for node in doc_latest.nodes}
    queries = data["queries"]
    assert len(queries) >= 300
    assert {item["type"] for item in queries} == TYPES
    for item in queries:
        assert item["answers"] and len(set(item["answers"])) == len(item["answers"]), item
        for rid in item["answers"]:
            assert kinds.get(rid) not in (None, "example"), (item["q"], rid)


@pytest.mark.parametrize("name", sorted(LATER))
def test_later_training_sets_repeat_no_other_question_nor_a_held_out_query(name):
    """No question of theirs nearly repeats (token-set Jaccard >= 0.6) a question of the sets
    written before it, of itself, or of the held-out sets."""
    new = [words(q["q"]) for q in _queries(name)]
    old = [words(q["q"]) for f in LATER[name] for q in _queries(f)]
    held = [
        words(q["q"]) for f in ("relevance_questions.json", "relevance_holdout.json") for q in _queries(f)
    ]
    assert len(old) >= 800 and len(held) >= 70
    near = near_pairs(new, old + held, 0.6) + [p for p in near_pairs(new, new, 0.6) if p[0] != p[1]]
    assert not near, [_queries(name)[i]["q"] for i, _, _ in near[:10]]
