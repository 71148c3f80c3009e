"""The scraper against the six real CR documents."""

from __future__ import annotations

import re

import pytest
from helpers import VERSIONS, cr_path, load_doc

from scraper import Document, parse_html, verify
from scraper.model import CHAPTER, EXAMPLE, KINDS, SECTION, STEP
from scraper.parse import LINK_NUMBER

PRINTED = ["24.03", "25.04", "25.08", "26.03"]
COUNTED = ["22.12", "23.08"]
NUMBER_SHAPE = re.compile(r"^\d{1,2}(\.\d{1,3}){0,2}[a-z]{0,2}(\.[ivx]+)?$")


@pytest.mark.parametrize("version", VERSIONS)
def test_every_version_builds_cleanly(documents, version):
    doc = documents[version]
    assert doc.version == version
    assert verify(doc) == []
    assert len(doc.nodes) > 1700
    kinds = {n.kind for n in doc.nodes}
    assert kinds <= set(KINDS)
    assert {CHAPTER, SECTION, STEP, EXAMPLE} <= kinds


@pytest.mark.parametrize("version", PRINTED)
def test_printed_numbers_equal_computed(documents, version):
    doc = documents[version]
    printed = [n for n in doc.nodes if n.printed_number is not None]
    # every chapter, section, rule and sub-rule prints its number in these versions
    numbered_rules = [n for n in doc.nodes if n.kind not in (EXAMPLE, "timing_phase", "timing_step")]
    assert len(printed) == len(numbered_rules)
    mismatches = [(n.id, n.printed_number, n.number) for n in printed if n.printed_number != n.number]
    assert mismatches == []


@pytest.mark.parametrize("version", COUNTED)
def test_counted_numbers_agree_with_every_numbered_link(documents, version):
    doc = documents[version]
    assert doc.layout == "counted"
    checked = 0
    for n in doc.nodes:
        for ref in n.refs:
            m = LINK_NUMBER.search(ref.text)
            if m:
                assert doc.node(ref.target).number == m.group(1), (n.id, ref)
                checked += 1
    assert checked > 400  # the check really ran over the document's links


def test_verify_reports_a_wrong_number(documents):
    doc = Document.from_json(documents["22.12"].to_json())
    target = doc.node("rule_sec_run_run_ends_phase")
    target.number = "6.9.7"
    problems = verify(doc)
    assert any("step 6.9.6" in p and "6.9.7" in p for p in problems)


def test_numbers_have_citation_shape(documents):
    for doc in documents.values():
        for n in doc.numbered():
            assert NUMBER_SHAPE.match(n.number), (doc.version, n.id, n.number)
        numbers = [n.number for n in doc.numbered()]
        assert len(numbers) == len(set(numbers)), doc.version


@pytest.mark.parametrize("version", ["24.03", "25.04", "25.08", "26.03"])
def test_jack_out_choice_is_6_9_4c(documents, version):
    assert documents[version].node("step_jack_out_choice").number == "6.9.4c"


@pytest.mark.parametrize("version", VERSIONS)
def test_initiation_paw_from_25_04_on(documents, version):
    present = documents[version].node("step_initiation_paw") is not None
    assert present == (version >= "25.04")


@pytest.mark.parametrize("version", VERSIONS)
def test_card_precedence_is_1_2_1(documents, version):
    node = documents[version].node("rule_card_precedence")
    assert node.number == "1.2.1"
    assert "text of a card directly contradicts" in node.text


def test_26_03_has_11_chapters(documents):
    chapters = documents["26.03"].chapters()
    assert len(chapters) == 11
    assert [c.number for c in chapters] == [str(i) for i in range(1, 12)]
    assert [c.order for c in chapters] == list(range(11))
    assert chapters[0].title == "Game Concepts"


@pytest.mark.parametrize("version", VERSIONS)
def test_every_reference_resolves(documents, version):
    doc = documents[version]
    refs = [(n.id, r) for n in doc.nodes for r in n.refs]
    assert len(refs) > 400
    assert [r for _, r in refs if doc.node(r.target) is None] == []
    for change in doc.changes:
        assert all(t in doc for t in change.targets)


@pytest.mark.parametrize("version", ["25.08", "26.03"])
def test_card_mentions_carry_codes(documents, version):
    cards = [c for n in documents[version].nodes for c in n.cards]
    assert len(cards) > 300
    assert all(c.code and c.code.isalnum() for c in cards)
    hive = [c for n in documents[version].nodes for c in n.cards if c.name == "Hive"]
    assert hive and hive[0].code == "20087"


def test_structure_of_a_run_in_26_03(doc_latest):
    doc = doc_latest
    movement = doc.node("rule_sec_run_movement_phase")
    assert movement.number == "6.9.4" and movement.title == "Movement Phase"
    steps = doc.children("rule_sec_run_movement_phase")
    assert [s.number for s in steps][:3] == ["6.9.4a", "6.9.4b", "6.9.4c"]
    jack = doc.node("step_jack_out_choice")
    assert jack.parent == "rule_sec_run_movement_phase" and jack.order == 2
    assert [a.number for a in doc.ancestors("step_jack_out_choice")] == ["6", "6.9", "6.9.4"]
    assert jack.refs[0].target == "rule_sec_run_run_ends_phase" and jack.refs[0].text == "step 6.9.6"
    assert '<a class="ref" data-id="rule_sec_run_run_ends_phase"' in jack.html


def test_examples_get_derived_ids(documents):
    doc = documents["22.12"]
    rule = doc.node("rule_partially_cannot")
    assert rule.examples == ["rule_partially_cannot.ex1"]
    ex = doc.node("rule_partially_cannot.ex1")
    assert ex.kind == EXAMPLE and ex.parent == rule.id and ex.text.startswith("Example:")
    assert "2[credit]" in ex.text  # the old "[c]" symbol is normalised
    assert {c.name for c in ex.cards} >= {"Lockdown", "Diesel", "Process Automation"}


def test_symbols_become_bracketed_names(doc_latest):
    recurring = doc_latest.node("rule_recurring_credits")
    assert "([recurring])" in recurring.text
    assert 'class="sym sym-recurring"' in recurring.html
    texts = " ".join(n.text for n in doc_latest.nodes)
    for sym in ("[click]", "[credit]", "[mu]", "[sub]", "[trash]", "[interrupt]", "[link]"):
        assert sym in texts


def test_terms_and_subsections(doc_latest):
    node = doc_latest.node("rule_recurring_credits")
    assert "recurring credits" in node.terms
    sub = doc_latest.node("rule_sec_recurring")
    assert sub.kind == "subsection" and sub.title == "Recurring Credits" and sub.number == "1.10.5"
    rnd = doc_latest.node("subsec_rnd")
    assert rnd.title == "R&D" and "Research and Development" in rnd.text


def test_nested_list_inside_text_span_is_attached_to_its_rule(documents):
    """25.08 puts <ol class="SubRules"> inside the rule's text <span>: parse by meaning."""
    doc = documents["25.08"]
    rule = doc.node("rule_influence_limit")
    kids = [c.id for c in doc.children(rule.id)]
    assert "rule_influence_by_copy" in kids
    assert "counted by copy" not in rule.text  # the sub-rule's text is not folded into its parent
    assert doc.node("rule_influence_by_copy").number == rule.number + "a"


def test_appendix_timing_lists(doc_latest):
    sec = doc_latest.node("sec_appendix_timing_structure_of_a_run")
    assert sec.number == "11.4"
    phases = doc_latest.children(sec.id)
    assert phases and all(p.kind == "timing_phase" for p in phases)
    assert phases[0].number == "11.4.1" and phases[0].title
    steps = doc_latest.children(phases[0].id)
    assert steps[0].number == "11.4.1a" and steps[0].kind == "timing_step"


def test_metadata_and_summary_of_changes(documents):
    assert documents["26.03"].effective_date == "2026-03-02"
    assert documents["25.08"].effective_date == "2025-08-01"
    assert documents["25.04"].effective_date == "2025-04-28"
    assert documents["24.03"].effective_date == "2024-03-30"
    assert documents["22.12"].effective_date is None
    changes = documents["26.03"].changes
    assert len(changes) >= 10
    first = changes[0]
    assert first.targets == ["rule_melies_u_detail"] and "1.5.2b" in first.text


@pytest.mark.parametrize("version", VERSIONS)
def test_json_round_trip_is_lossless(documents, version):
    doc = documents[version]
    again = Document.from_json(doc.to_json())
    assert again == doc
    assert again.to_json() == doc.to_json()


def test_version_comes_from_caller_or_file_name(cr_dir):
    data = cr_path("22.12").read_bytes()
    assert parse_html(data, "some/where/cr-22.12.html").version == "22.12"
    assert parse_html(data, "anything.html", version="22.12").version == "22.12"
    # a document that states its version keeps it
    assert load_doc("26.03").version == "26.03"


def test_xml_prolog_is_accepted(doc_latest, cr_dir):
    assert cr_path("26.03").read_bytes().startswith(b"<?xml")
    assert len(doc_latest.chapters()) == 11
