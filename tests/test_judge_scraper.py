"""The judges' document scraper on the real excerpt, a LibreOffice export and bad input."""

from __future__ import annotations

import re

import pytest
from helpers import JUDGE_FIXTURE as FIXTURE
from helpers import JUDGE_PATH

from scraper import ScrapeError
from scraper.judge import JudgeDocument, find_refs, parse_judge

CARDS = ["Hush", "Stavka", "Gatekeeper", "Magnet", "Azef Protocol", "Tucana", "Ob", "Hedge Fund"]


@pytest.fixture(scope="module")
def excerpt() -> JudgeDocument:
    return parse_judge(JUDGE_PATH.read_bytes(), str(JUDGE_PATH), CARDS)


def _reexport(html: str) -> str:
    """What a second export of the same text looks like: other class numbers, other list ids,
    other line breaks in the source."""
    classes = sorted(set(re.findall(r"\bc\d+\b", html)), key=lambda c: int(c[1:]))
    renamed = {c: f"c{100 + i * 7}" for i, c in enumerate(reversed(classes))}
    html = re.sub(r"\bc\d+\b", lambda m: renamed[m.group(0)], html)
    html = re.sub(r"lst-kix_([0-9a-z]+)-", lambda m: f"lst-kix_{m.group(1)[::-1]}x-", html)
    return re.sub(r"\n\s*", "\n", html)


def test_sections_follow_the_heading_path(excerpt):
    ids = [s.id for s in excerpt.sections]
    assert ids[:4] == ["timing-structure-of-a-run", "spectators", "penalties", "repairing-board-states"]
    assert "repairing-board-states.take-backs" in ids
    assert excerpt.section("faq.runner").parent == "faq"
    assert excerpt.section("repairing-board-states.missed-triggers").level == 2
    assert excerpt.section("penalties").level == 1
    assert excerpt.generator == "google-docs"


def test_ids_survive_a_reexport(excerpt):
    again = parse_judge(_reexport(JUDGE_PATH.read_text()).encode(), "re-export.html", CARDS)
    assert [i.id for i in again.items] == [i.id for i in excerpt.items]
    assert [s.id for s in again.sections] == [s.id for s in excerpt.sections]
    assert [i.text for i in again.items] == [i.text for i in excerpt.items]


def test_version_citations_and_cards(excerpt):
    assert excerpt.cr_version == "23.08"
    timing = excerpt.section("timing-structure-of-a-run")
    assert timing.title == "Timing Structure of a Run"
    assert [(r.document, r.number, r.version) for r in timing.refs] == [("CR", "6.9", "23.08")]
    repair = excerpt.section("repairing-board-states")
    assert [(r.document, r.number) for r in repair.refs] == [("OPP", "5")]
    take_back = excerpt.items_in("repairing-board-states.take-backs")[0]
    assert any(r.document == "OPP" and r.inherited for r in take_back.refs)
    hush = excerpt.item("faq.runner.a-hush-is-hosted-on-a")
    assert hush.kind == "faq" and hush.cards == ["Hush", "Magnet"]
    assert hush.answer.startswith("Hosted cards")
    assert [r.text for r in find_refs("see rule 6.9.4c and Section 1.2")] == ["rule 6.9.4c", "Section 1.2"]


def test_lists_split_across_many_ol_are_joined(excerpt):
    movement = excerpt.item("timing-structure-of-a-run.movement-phase")
    labels = [ln.label for ln in movement.lines]
    assert labels == ["4", "4.a", "4.b", "4.c", "4.d", "4.e", "4.f", "4.f.i", "4.f.ii", "4.g", "4.h"]
    assert movement.lines[3].text == "The Runner may jack out."
    drew = excerpt.item("repairing-board-states.revealed-and-surplus-information.if-a-player-draws-too-many")
    assert len(drew.lines) == 3 and "game loss" in drew.lines[2].text


def test_questions_packed_in_one_paragraph_are_separate_items(excerpt):
    corp = excerpt.items_in("faq.corp")
    questions = [i.question for i in corp]
    assert all(q and q.endswith("?") for q in questions)
    assert any(q.startswith("Can the Corp search ice with Tucana") for q in questions)
    azef = next(i for i in corp if i.question.startswith("If the Corp trashes"))
    assert azef.answer == "Yes and yes." and "Ob" in azef.cards


def test_safe_html(excerpt):
    for item in excerpt.items:
        assert 'class="c' not in item.html and '<span class="c' not in item.html
        assert "<script" not in item.html
    hostile = (
        b'<html><body><h2>Calls</h2><p>Fine <script>alert(1)</script><a href="javascript:x">link</a>'
        b"<img src=x onerror=alert(1)> text.</p></body></html>"
    )
    doc = parse_judge(hostile, "hostile.html")
    assert doc.items[0].html == "<p>Fine link text.</p>"


def test_round_trip(excerpt):
    assert JudgeDocument.from_json(excerpt.to_json()) == excerpt


def test_libreoffice_export_parses():
    doc = parse_judge(FIXTURE.read_bytes(), str(FIXTURE), CARDS)
    assert doc.generator == "libreoffice"
    assert doc.title == "Regional floor judge notes"
    assert doc.cr_version == "25.08"
    assert [s.id for s in doc.sections] == [
        "introduction",
        "before-round-one",
        "calls-at-the-table",
        "calls-at-the-table.slow-play",
        "calls-at-the-table.credits-miscounted",
        "questions-players-asked",
    ]
    first = doc.items_in("before-round-one")[0]
    assert [ln.label for ln in first.lines] == ["1", "1.a", "1.b"]
    announce = doc.items_in("before-round-one")[1]
    assert [r.number for r in announce.refs] == ["1.9"]
    faq = doc.items_in("questions-players-asked")
    assert [i.kind for i in faq] == ["faq", "faq"]
    assert faq[1].cards == ["Hedge Fund"]
    assert "<i>caution</i>" in doc.items_in("calls-at-the-table.slow-play")[0].html


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "empty"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00", "binary"),
        (b"just some words, no markup", "not an HTML document"),
        (
            b'<html xmlns:w="urn:schemas-microsoft-com:office:word"><body><h1>Calls</h1>'
            b"<p class=MsoNormal>Text.</p></body></html>",
            "Microsoft Word",
        ),
        (
            b'<html><head><meta name="generator" content="AbiWord"></head><body><h1>A</h1><p>b.</p>'
            b"</body></html>",
            "AbiWord",
        ),
        (
            b"<html><body><p>One long paragraph of text and nothing else at all.</p></body></html>",
            "no headings",
        ),
        (
            b"<html><body><h1 class=Chapter>1. Game</h1><ol><li class=Rule>x</li></ol></body></html>",
            "Comprehensive Rules",
        ),
    ],
)
def test_bad_input_gets_a_clear_message(data, message):
    with pytest.raises(ScrapeError) as err:
        parse_judge(data, "bad.html")
    assert message in str(err.value)
    assert str(err.value).startswith("bad.html: ")
