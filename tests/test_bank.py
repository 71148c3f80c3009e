"""The question bank (`rules_index.bank`): questions judges ask, rule by rule, as document
expansion. Its data must name real rules, cover the CR, and stay apart from every query the
benchmarks score (else the relevance figures would measure the bank repeating them)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from helpers import LATEST, jaccard, near_pairs, words

from rules_index import bank
from rules_index.search import Searcher, build_index

BENCH = Path(__file__).resolve().parent.parent / "bench"


def test_every_question_names_a_rule_of_cr_26_03_and_the_bank_covers_it(doc_latest):
    questions = bank.load()
    rules = {n.id: n for n in doc_latest.nodes if n.kind != "example"}
    assert set(questions) <= set(rules), sorted(set(questions) - set(rules))[:5]
    # Every rule of the current CR has questions (a few lost theirs to the held-out check below).
    assert len(questions) >= 0.99 * len(rules)
    total = sum(len(qs) for qs in questions.values())
    assert total >= 4000
    for rule_id, qs in questions.items():
        assert 1 <= len(qs) <= bank.MAX_QUESTIONS, rule_id
        for q in qs:
            assert 3 <= len(q.split()) <= 25, (rule_id, q)
            assert not re.search(r"\b\d+\.\d+", q), (rule_id, q)  # no rule numbers


def test_no_question_is_asked_of_two_rules():
    seen: dict[str, str] = {}
    for rule_id, qs in bank.load().items():
        for q in qs:
            assert seen.setdefault(q.lower(), rule_id) == rule_id, q


def test_no_bank_question_repeats_a_benchmark_query():
    """The bank was written from the CR text without reading the benchmark sets; questions that
    happened to repeat or nearly repeat (token-set Jaccard >= 0.6) one of their queries, held-out
    or training, were removed (471 of 4,720 on 2026-11-26), so that the relevance and
    cross-validation figures measure generalisation, not a copy."""
    queries = [
        words(q["q"])
        for path in sorted(BENCH.glob("relevance_*.json"))
        for q in json.loads(path.read_text(encoding="utf-8"))["queries"]
    ]
    assert len(queries) > 1500
    asked = [q for qs in bank.load().values() for q in qs]
    asked_words = [words(q) for q in asked]
    # The check can fail: the bank shares words with the sets (same rules, same game).
    assert any(similarity > 0.3 for _, _, similarity in near_pairs(asked_words[:300], queries, 0.3))
    # every pair at Jaccard >= 0.6, as comparing all 13,000 x 2,500 pairs finds them
    near = near_pairs(asked_words, queries, 0.6)
    assert not near, [asked[i] for i, _, _ in near[:10]]


def test_near_pairs_finds_the_pairs_comparing_all_of_them_finds():
    """The checks above use `helpers.near_pairs` (prefix filtering) instead of comparing every
    pair: on a slice of the real bank and every benchmark query, both give the same pairs at
    each threshold (on 2026-11-27 the whole bank x every query gave the same 29,762 pairs at
    0.3, 1,242 at 0.5 and none at 0.6 both ways)."""
    queries = [
        words(q["q"])
        for path in sorted(BENCH.glob("relevance_*.json"))
        for q in json.loads(path.read_text(encoding="utf-8"))["queries"]
    ]
    asked = [words(q) for qs in bank.load().values() for q in qs][::150]
    every = [(i, j, jaccard(a, b)) for i, a in enumerate(asked) for j, b in enumerate(queries)]
    for threshold in (0.3, 0.5, 0.6):
        assert near_pairs(asked, queries, threshold) == [p for p in every if p[2] >= threshold]
    assert any(p[2] >= 0.5 for p in every)  # the comparison compares something
    copy = [queries[5], frozenset(), queries[7] | {"zzz"}]
    assert [(i, j) for i, j, _ in near_pairs(copy, queries, 0.6) if j in (5, 7)] == [(0, 5), (2, 7)]


def test_a_damaged_bank_file_is_skipped_not_fatal(tmp_path):
    (tmp_path / "a.json").write_text('{"rule_one": ["is this a question", 7, "", "  is this  a question "]}')
    (tmp_path / "b.json").write_text("{not json")
    (tmp_path / "c.json").write_text('["a list, not an object"]')
    (tmp_path / "d.json").write_text('{"rule_two": "not a list", "rule_three": ["' + "x " * 300 + '"]}')
    loaded = bank.load(tmp_path)
    assert loaded["rule_one"] == ("is this a question",)
    assert "rule_two" not in loaded
    assert len(loaded["rule_three"][0]) == bank.MAX_CHARS


@pytest.fixture(scope="module")
def two_indexes(doc_latest, tmp_path_factory):
    """The same CR indexed with the bank and without it."""
    out = {}
    for name, asked in (("with", None), ("without", {})):
        path = tmp_path_factory.mktemp(f"bank-{name}")
        build_index(doc_latest, path, asked=asked)
        out[name] = Searcher(path, doc_latest)
    yield out
    for s in out.values():
        s.close()


def test_the_index_holds_each_rules_questions(two_indexes, doc_latest):
    expected = bank.for_doc(doc_latest, labelled=bank.labelled())
    with_bank, without = two_indexes["with"], two_indexes["without"]
    assert with_bank.asked("rule_not_required_to_score") == expected["rule_not_required_to_score"]
    assert without.asked("rule_not_required_to_score") == ()
    assert sum(1 for n in doc_latest.nodes if with_bank.asked(n.id)) == len(expected)


def test_a_judges_words_find_the_rule_through_its_questions(two_indexes):
    """Words the rule's own text does not use, but a question about it does: "no cards in
    hand" and "net damage" find the flatline rule with the bank."""
    query = "runner has zero cards left in hand and takes more net damage"
    flatline = {"rule_flatline", "rule_flatline_damage_reference"}
    ids_with = [h.id for h in two_indexes["with"].search(query, 10)]
    ids_without = [h.id for h in two_indexes["without"].search(query, 10)]
    first_with = next((i for i, x in enumerate(ids_with) if x in flatline), 99)
    first_without = next((i for i, x in enumerate(ids_without) if x in flatline), 99)
    assert first_with < 5
    assert first_with <= first_without


HELD_OUT = ("relevance_holdout.json", "relevance_questions.json")


def _queries(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["queries"]


def test_the_labelled_questions_are_the_training_sets_and_none_is_near_a_held_out_query(doc_latest):
    """`bank.labelled` (``labelled.json``, written by bench/train_ranker.py): each training set's
    question under every rule its answers name, and no question sharing half its words with a
    held-out query, so that the held-out figures never score a copy of themselves."""
    labelled = bank.labelled()
    held = [words(q["q"]) for name in HELD_OUT for q in _queries(BENCH / name)]
    training: dict[str, set[str]] = {}
    for path in sorted(BENCH.glob("relevance_*.json")):
        if path.name not in HELD_OUT:
            for q in _queries(path):
                training.setdefault(q["q"], set()).update(q["answers"])
    pairs = [(rule_id, q) for rule_id, qs in labelled.items() for q in qs]
    assert len(pairs) > 2000
    for rule_id, q in pairs:
        assert rule_id in training.get(q, ()), q
        assert doc_latest.node(rule_id) is not None, rule_id
    too_near = near_pairs([words(q) for _, q in pairs], held, 0.5)
    assert not too_near, [pairs[i][1] for i, _, _ in too_near[:10]]
    # every question of the training sets proper is there, unless it is near a held-out one
    trained = [q for path in sorted(BENCH.glob("relevance_train*.json")) for q in _queries(path)]
    near_held = {i for i, _, _ in near_pairs([words(q["q"]) for q in trained], held, 0.5)}
    for i, q in enumerate(trained):
        if i in near_held:
            assert all(q["q"] not in qs for qs in labelled.values()), q["q"]
            continue
        for a in q["answers"]:
            if doc_latest.node(a) is not None:
                assert q["q"] in labelled.get(a, ()), (q["q"], a)
    assert 0 < len(near_held) < 100


def test_a_missing_or_damaged_labelled_file_gives_no_questions(tmp_path):
    assert bank.labelled(tmp_path / "none.json") == {}
    for i, text in enumerate(("{not json", "[1, 2]", '{"questions": "no"}')):
        (tmp_path / f"{i}.json").write_text(text)
        assert bank.labelled(tmp_path / f"{i}.json") == {}
    (tmp_path / "ok.json").write_text(
        '{"questions": {"rule_a": ["why  is this", 3, "", "why is this"], "rule_b": 1}}'
    )
    assert bank.labelled(tmp_path / "ok.json") == {"rule_a": ("why is this",)}


def test_the_products_index_holds_the_labelled_questions_after_the_banks(library):
    """The product's build (`rules_index.store`) indexes them in the asked field, after the
    bank's own questions, where the ranker's features read them."""
    searcher = library.searcher(LATEST)
    labelled = bank.labelled()
    own = bank.load()
    checked = 0
    for rule_id in sorted(labelled)[::40]:
        asked = searcher.asked(rule_id)
        assert set(labelled[rule_id]) <= set(asked), rule_id
        assert asked[: len(own.get(rule_id, ()))] == own.get(rule_id, ())
        checked += 1
    assert checked >= 20
