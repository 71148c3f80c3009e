"""Every entry of the curated jargon table finds its rule, on a real index of CR 26.03."""

from __future__ import annotations

import pytest

from rules_index.jargon import JARGON, expand, find_jargon
from rules_index.search import Searcher, build_index

CASES = [(phrase, entry) for entry in JARGON for phrase in entry.phrases]


@pytest.fixture(scope="module")
def searcher(doc_latest, tmp_path_factory) -> Searcher:
    path = tmp_path_factory.mktemp("jargon-index")
    build_index(doc_latest, path)
    return Searcher(path, doc_latest)


def test_table_names_real_rules(doc_latest):
    for entry in JARGON:
        assert entry.rule in doc_latest, entry
        assert entry.phrases and all(p == p.lower() for p in entry.phrases), entry
    phrases = [p for entry in JARGON for p in entry.phrases]
    assert len(phrases) == len(set(phrases)), "a phrase belongs to one entry"


def test_no_jargon_phrase_is_a_card_name(doc_latest):
    cards = {c.name.lower() for n in doc_latest.nodes for c in n.cards}
    assert not cards & {p for entry in JARGON for p in entry.phrases}


@pytest.mark.parametrize("phrase, entry", CASES, ids=[p for p, _ in CASES])
def test_each_jargon_phrase_finds_its_rule_first(searcher, phrase, entry):
    for typed in (phrase, phrase.upper()):
        hits = searcher.search(typed, limit=5)
        assert hits and hits[0].id == entry.rule, (typed, [h.id for h in hits])
        assert hits[0].match == "jargon"


@pytest.mark.parametrize(
    "query, rules",
    [
        ("can I use a PAW to rez ice", {"rule_rez_ice_restriction", "rule_rez_in_paw", "step_approach_paw"}),
        ("ETR subroutine during a forced encounter", {"rule_forced_encounter_during_run"}),
        (
            "BP fund at the end of the run",
            {"rule_run_ends_lose_bad_pub_credits", "step_run_ends_bad_publicity"},
        ),
        ("brain damage reduces hand size", {"rule_core_damage"}),
    ],
)
def test_jargon_inside_a_longer_query_expands_to_the_cr_words(searcher, query, rules):
    hits = searcher.search(query, limit=5)
    assert rules & {h.id for h in hits}, [h.id for h in hits]
    assert all(h.match == "text" for h in hits)  # a longer query is not a best bet


def test_find_and_expand():
    found = find_jargon("is a PAW open after ETR?")
    assert [(text, entry.expansion) for text, entry in found] == [
        ("PAW", "paid ability window"),
        ("ETR", "end the run"),
    ]
    rest, entries = expand("brain damage from a trap")
    assert rest.split() == ["from", "a", "trap"]
    assert [e.rule for e in entries] == ["rule_core_damage"]
    assert find_jargon("subroutine breakerz paws-ish") == []  # whole words only
    assert find_jargon("R&D")[0][1].rule == "rule_rnd_name"
