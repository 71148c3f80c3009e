"""Every entry of the curated jargon table finds its rule, on a real index of CR 26.03."""

from __future__ import annotations

import pytest

from rules_index.jargon import JARGON, PHRASINGS, expand, find_jargon
from rules_index.search import Searcher, build_index

CASES = [(phrase, entry) for entry in JARGON if entry.rule for phrase in entry.phrases]


@pytest.fixture(scope="module")
def searcher(doc_latest, tmp_path_factory) -> Searcher:
    path = tmp_path_factory.mktemp("jargon-index")
    build_index(doc_latest, path)
    return Searcher(path, doc_latest)


def test_table_names_real_rules(doc_latest):
    for entry in JARGON:
        assert entry.rule in doc_latest or (entry.rule is None and entry in PHRASINGS), entry
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


@pytest.mark.parametrize(
    "query, rule",
    [
        ("what if both players win at the same time", "rule_simultaneous_win"),
        ("does the corp have to score an agenda right away", "rule_not_required_to_score"),
        ("can the runner refuse to steal an agenda", "rule_decline_to_steal"),
    ],
)
def test_everyday_phrasings_translate_to_the_cr_words(searcher, query, rule):
    """A phrasing ("at the same time", "have to", "refuse") has no rule of its own: it adds the
    CR's word for it ("simultaneously", "required", "decline") to a question."""
    hits = searcher.search(query, limit=5)
    assert rule in [h.id for h in hits], [h.id for h in hits]
    assert all(h.match == "text" for h in hits)
    assert searcher.search("at the same time", limit=3)[0].match == "text"  # no best bet


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
