"""Lookup by number, id and deep link, on the real CR documents."""

from __future__ import annotations

import hypothesis
import pytest

from rules_index.lookup import lookup as do_lookup
from rules_index.lookup import number_key, parse_query

# Every form people type or paste for 6.9.4c (step_jack_out_choice in all six versions).
JACK_OUT_FORMS = [
    "6.9.4c",
    "6.9.4.c",
    "6.9.4 c",
    "6.9.4C",
    "6.9.4(c)",
    "6.9.4c.",
    "rule 6.9.4c",
    "Rule 6.9.4.c",
    "step 6.9.4c",
    "CR 6.9.4c",
    "cr6.9.4c",
    "§6.9.4c",
    "  6.9.4c  ",
    '"6.9.4c"',
    "(6.9.4c)",
    "[6.9.4c]",
    "subrule 6.9.4c",
    "r. 6.9.4c",
    "step_jack_out_choice",
    "https://rules.nullsignal.games/?r=step_jack_out_choice",
    "rules.nullsignal.games/?r=step_jack_out_choice".join(["https://", ""]),
    "https://rules.nullsignal.games/#step_jack_out_choice",
    "/id/step_jack_out_choice",
]


@pytest.mark.parametrize("text", JACK_OUT_FORMS)
def test_every_form_finds_the_rule(doc_latest, text):
    result = do_lookup(doc_latest, text)
    assert result.error is None, result.error
    assert [n.id for n in result.nodes] == ["step_jack_out_choice"]


@pytest.mark.parametrize(
    "text, node_id",
    [
        ("step 6.9.3b", "step_encounter_paw"),
        ("CR 1.2.1", "rule_card_precedence"),
        ("section 6.9", "sec_steps_of_a_run"),
        ("rules 6.9", "sec_steps_of_a_run"),
        ("§ 6.9", "sec_steps_of_a_run"),
        ("6.9", "sec_steps_of_a_run"),
        ("6", "chpt_runs"),
        ("chapter 6", "chpt_runs"),
        ("1.10", "sec_credits"),
        ("1.1", "sec_concepts_general"),
        ("11.2.2b.ii", "sec_appendix_timing_structure_corps_turn.t2.b.ii"),
        ("11.2.2b ii", "sec_appendix_timing_structure_corps_turn.t2.b.ii"),
        ("11.2.2.b.ii", "sec_appendix_timing_structure_corps_turn.t2.b.ii"),
        ("https://rules.nullsignal.games/?r=rule_card_precedence", "rule_card_precedence"),
        ("rule_identity_hq", "rule_identity_HQ"),  # ids are matched case-insensitively as a fallback
        ("rule_54+", "rule_54+"),  # a real id ending in "+" is not "with children"
    ],
)
def test_forms(doc_latest, text, node_id):
    result = do_lookup(doc_latest, text)
    assert result.node is not None, result.error
    assert result.node.id == node_id
    assert len(result.nodes) == 1


def test_matching_is_exact(doc_latest):
    # 6.1 is the section, never 6.10 or 6.1.1; 1.1 is never 1.10 or 1.11.
    assert do_lookup(doc_latest, "6.1").node.id == "sec_run_general"
    assert do_lookup(doc_latest, "1.1").node.number == "1.1"
    assert do_lookup(doc_latest, "1.10").node.number == "1.10"
    assert do_lookup(doc_latest, "6.9.4").node.number == "6.9.4"
    assert do_lookup(doc_latest, "6.9.4").node.kind != "step"  # the rule, not its first step


@pytest.mark.parametrize("text", ["6.9.9", "6.9.4z", "99", "6.99", "1.2.1a", "11.2.2b.iv"])
def test_unknown_numbers_are_reported_with_suggestions(doc_latest, text):
    result = do_lookup(doc_latest, text)
    assert result.nodes == []
    assert result.error == f"no rule {parse_query(text).value} in CR 26.03"
    assert result.suggestions, "an unknown number gets the nearest existing numbers"
    numbers = {n.number for n in doc_latest.nodes}
    assert set(result.suggestions) <= numbers


def test_suggestions_are_the_neighbours(doc_latest):
    result = do_lookup(doc_latest, "6.9.9")
    assert result.error == "no rule 6.9.9 in CR 26.03"
    assert "6.9.6" in result.suggestions  # the last rule of section 6.9
    assert "6.9" in result.suggestions  # and the section itself
    assert result.suggestions == sorted(result.suggestions, key=number_key)


def test_unknown_id_is_reported(doc_latest):
    result = do_lookup(doc_latest, "step_jack_out_choise")
    assert result.nodes == []
    assert result.error == "no rule with id 'step_jack_out_choise' in CR 26.03"
    assert "6.9.4c" in result.suggestions


@pytest.mark.parametrize(
    "text",
    ["jack out", "6.9 c", "6 i", "rule of thumb", "", "   ", "6..9", "6.9.4cc", "1.2.3.4", "x_", "a.b.c"],
)
def test_near_misses_and_words_are_not_references(doc_latest, text):
    result = do_lookup(doc_latest, text)
    assert result.nodes == []
    assert result.error


def test_with_children(doc_latest):
    plain = do_lookup(doc_latest, "6.9.4")
    plus = do_lookup(doc_latest, "6.9.4+")
    flag = do_lookup(doc_latest, "6.9.4", with_children=True)
    expected = ["rule_sec_run_movement_phase"] + [
        n.id for n in doc_latest.descendants("rule_sec_run_movement_phase")
    ]
    assert [n.id for n in plain.nodes] == ["rule_sec_run_movement_phase"]
    assert [n.id for n in plus.nodes] == expected
    assert [n.id for n in flag.nodes] == expected
    assert {n.number for n in plus.nodes[1:]} >= {"6.9.4a", "6.9.4c", "6.9.4h"}
    assert parse_query("6.9.4 +").with_children


def test_parse_query_forms():
    assert parse_query("6.9.4.c").value == "6.9.4c"
    assert parse_query("Step 6.9.3B").value == "6.9.3b"
    assert parse_query("section 06.09").value == "6.9"
    assert parse_query("https://rules.nullsignal.games/?r=rule_card_precedence").kind == "id"
    assert parse_query("step_jack_out_choice").value == "step_jack_out_choice"
    assert parse_query("jack out") is None
    assert parse_query("paid ability window") is None
    assert parse_query(None) is None  # type: ignore[arg-type]


def test_number_key_orders_like_the_document():
    numbers = ["6.10", "6.9.4b.ii", "6.9", "6.9.4", "6.9.4a", "6.9.10", "6.9.4b", "6"]
    assert sorted(numbers, key=number_key) == [
        "6",
        "6.9",
        "6.9.4",
        "6.9.4a",
        "6.9.4b",
        "6.9.4b.ii",
        "6.9.10",
        "6.10",
    ]


@pytest.mark.parametrize(
    "text", ["\x00\x01", "6.9.4c\x00", "?" * 10_000, "6." * 5000, "https://", "#", "?r=", "%%%"]
)
def test_odd_input_never_raises(doc_latest, text):
    result = do_lookup(doc_latest, text)
    assert isinstance(result.nodes, list)


def test_every_numbered_node_round_trips_in_every_version(documents):
    """Each version: every printed number, and every id, finds exactly its node."""
    for version, doc in documents.items():
        for node in doc.nodes:
            if node.number:
                found = do_lookup(doc, node.number)
                assert found.node is node, (version, node.number, found.error)
            assert do_lookup(doc, node.id).node is node, (version, node.id)


def test_versions_differ_by_number(documents):
    """Numbers are per-version labels: rule_symbol_credits is 1.3.3 in 22.12 and 1.3.2 in 26.03."""
    assert do_lookup(documents["22.12"], "1.3.3").node.id == "rule_symbol_credits"
    assert do_lookup(documents["26.03"], "1.3.2").node.id == "rule_symbol_credits"
    missing = do_lookup(documents["22.12"], "rule_game_numbers")
    assert missing.nodes == [] and missing.error == "no rule with id 'rule_game_numbers' in CR 22.12"


def test_random_text_never_raises_and_hits_are_exact(doc_latest):
    from hypothesis import strategies as st

    numbers = [n.number for n in doc_latest.nodes if n.number]

    @hypothesis.settings(max_examples=300, deadline=None, database=None)
    @hypothesis.given(st.one_of(st.text(max_size=40), st.sampled_from(numbers).map(lambda n: f" rule {n}. ")))
    def check(text):
        result = do_lookup(doc_latest, text)
        assert (result.error is None) == bool(result.nodes)
        if result.nodes and result.ref.kind == "number":
            assert result.nodes[0].number == result.ref.value

    check()
