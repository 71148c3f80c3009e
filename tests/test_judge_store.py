"""Judges' documents in the build: stable ids, search, CR citations and the run timing map."""

from __future__ import annotations

import json
import shutil

import pytest
from helpers import JUDGE_FIXTURE, JUDGE_PATH

from rules_index.integrity import clean_leftovers
from rules_index.judge import JudgeStore, build_judge
from scraper import ScrapeError


@pytest.fixture(scope="module")
def store(judge_library) -> JudgeStore:
    found = judge_library.judge()
    assert found is not None
    return found


def test_ids_identical_across_two_builds(tmp_path, store):
    first = build_judge(str(JUDGE_PATH), tmp_path)
    ids_first = [i.id for i in JudgeStore.open(tmp_path).items()]
    again = build_judge(str(JUDGE_PATH), tmp_path)
    assert (first.status, again.status) == ("built", "unchanged")
    forced = build_judge(str(JUDGE_PATH), tmp_path, force=True)
    assert forced.status == "built"
    ids_forced = [i.id for i in JudgeStore.open(tmp_path).items()]
    assert ids_first == ids_forced == [i.id for i in store.items()]
    assert len(ids_first) == len(set(ids_first)) == first.items
    # the replaced build is kept for running servers until a later build's clean-up
    assert len(list((tmp_path / ".j").iterdir())) == 2
    clean_leftovers(tmp_path, min_age=0)
    assert len(list((tmp_path / ".j").iterdir())) == 1


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        (
            "player drew too many cards",
            "repairing-board-states.revealed-and-surplus-information.if-a-player-draws-too-many",
        ),
        (
            "revealed top of R&D",
            "repairing-board-states.revealed-and-surplus-information.if-a-player-reveals-a-card",
        ),
        ("three warnings", "penalties.warning"),
        ("take back", "repairing-board-states.take-backs.if-the-player-requesting-a-take"),
        ("Hush hosted on Magnet", "faq.runner.a-hush-is-hosted-on-a"),
    ],
)
def test_judge_queries_find_the_item_first(store, query, expected):
    hits = store.search(query, limit=5)
    assert hits and hits[0].id == expected
    assert hits[0].source == "judge"
    assert "<mark>" in hits[0].snippet


def test_search_takes_any_string(store):
    for q in ["", "   ", "the of and", "\x00\x01", "x" * 5000, "(((", "R&D"]:
        assert isinstance(store.search(q), list)


def test_cr_citation_resolves(judge_library, store):
    res = store.resolved(judge_library)
    cites = res.refs["timing-structure-of-a-run.movement-phase"]
    cr = [c for c in cites if c["document"] == "CR"]
    assert cr and cr[0]["number"] == "6.9" and cr[0]["version"] == "23.08"
    node = judge_library.document("23.08").node(cr[0]["id"])
    assert node is not None and node.number == "6.9"
    opp = [
        c
        for c in res.refs["repairing-board-states.take-backs.if-the-player-requesting-a-take"]
        if c["document"] == "OPP"
    ]
    assert opp and opp[0]["id"] is None  # another document: shown, not resolved to a rule


def test_timing_structure_maps_onto_the_23_08_steps(judge_library, store):
    res = store.resolved(judge_library)
    movement = {ln["label"]: ln for ln in res.timing["timing-structure-of-a-run.movement-phase"]}
    assert movement["4"]["id"] == "rule_sec_run_movement_phase"
    assert movement["4.c"]["id"] == "step_jack_out_choice" and movement["4.c"]["number"] == "6.9.4c"
    assert movement["4.h"]["how"] == "flow"
    assert movement["4.f.i"]["id"] == movement["4.f"]["id"]
    doc = judge_library.document("23.08")
    lines = [ln for item in res.timing.values() for ln in item]
    assert len(res.timing) == 6
    for ln in lines:
        assert ln["version"] == "23.08"
        if ln["id"]:
            assert doc.node(ln["id"]).number == ln["number"]
    assert sum(1 for ln in lines if ln["id"]) >= 0.9 * len(lines)
    # rule pages list the judge items citing them
    assert [i.id for i in store.citing("step_jack_out_choice", judge_library)] == [
        "timing-structure-of-a-run.movement-phase"
    ]


def test_cards_named_come_from_the_cr(store):
    hush = store.item("faq.runner.a-hush-is-hosted-on-a")
    assert "Hush" in hush.cards


def test_folder_with_two_documents(tmp_path, judge_library):
    folder = tmp_path / "docs"
    folder.mkdir()
    shutil.copy(JUDGE_PATH, folder / "a.html")
    shutil.copy(JUDGE_FIXTURE, folder / "b.html")
    result = build_judge(str(folder), tmp_path / "build")
    assert result.documents == 2
    both = JudgeStore.open(tmp_path / "build")
    ids = [i.id for i in both.items()]
    assert len(ids) == len(set(ids))
    assert both.item("penalties.warning") is not None
    assert (
        both.search("slow play reminder")[0].id
        == "calls-at-the-table.slow-play.a-player-who-takes-longer-than"
    )


def test_bad_source_keeps_the_previous_build(tmp_path):
    build_judge(str(JUDGE_PATH), tmp_path)
    before = json.loads((tmp_path / "judge" / "meta.json").read_text())
    bad = tmp_path / "notes.html"
    bad.write_text("<html><body><p>Only a paragraph of words, no headings.</p></body></html>")
    with pytest.raises(ScrapeError, match="no headings"):
        build_judge(str(bad), tmp_path)
    assert json.loads((tmp_path / "judge" / "meta.json").read_text()) == before
    with pytest.raises(ScrapeError, match="no such file"):
        build_judge(str(tmp_path / "missing.html"), tmp_path)
