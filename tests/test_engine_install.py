"""Installing as a basic action (5.2.6d, 5.2.7d; 8.5): ice install cost is one credit per ice
already protecting the server (1.16.6b, 8.5.11a) and new ice goes outermost (4.6.9d); agendas and
assets go to remotes (new ones created); the Runner pays install costs and must trash programs
to stay within the memory limit (3.9.3b, 8.5.6c)."""

from __future__ import annotations

import pytest
from helpers import load_doc

import engine

ICE = {
    "name": "Ice Wall",
    "type": "ice",
    "rez_cost": 1,
    "strength": 1,
    "subtypes": ["barrier"],
    "subroutines": ["end_the_run"],
}


def ids(s) -> list[str]:
    return [d["id"] for d in engine.legal_decisions(s)]


def to_actions(s):
    """Pass paid ability windows until the action decisions are offered."""
    for _ in range(50):
        if "credit" in ids(s):
            return s
        s, _ = engine.apply(s, "pass" if "pass" in ids(s) else ids(s)[0])
    raise AssertionError("no action offered")


@pytest.fixture(params=["24.03", "26.03"])
def doc(request):
    return load_doc(request.param)


def corp_board(hand, credits=5, servers=None):
    return {
        "version": 1,
        "turn": "corp",
        "corp": {"credits": credits, "hand": hand, "deck": 5},
        "runner": {"hand": 3},
        "servers": servers or {},
    }


def test_third_ice_costs_two(doc):
    wall = {"name": "Old Wall", "rezzed": True, "rez_cost": 1}
    b = corp_board([ICE], servers={"hq": {"ice": [dict(wall), {**wall, "name": "Inner Wall"}]}})
    s = to_actions(engine.start(b, "corp_turn", doc))
    label = next(d["label"] for d in engine.legal_decisions(s) if d["id"] == "install:ice-wall@hq")
    assert "2 credits" in label
    s, ev = engine.apply(s, "install:ice-wall@hq")
    corp = s.board["corp"]
    assert corp["credits"] == 3 and corp["clicks"] == 2
    assert [c["name"] for c in s.board["servers"]["hq"]["ice"]] == ["Ice Wall", "Old Wall", "Inner Wall"]
    assert s.board["servers"]["hq"]["ice"][0]["rezzed"] is False
    assert any("rule_install_cost_ice" in e.rules for e in ev)


def test_ice_install_cost_not_offered_when_unaffordable(doc):
    walls = [{"name": f"W{i}", "rezzed": True} for i in range(3)]
    b = corp_board([ICE], credits=2, servers={"rd": {"ice": walls}})
    s = to_actions(engine.start(b, "corp_turn", doc))
    assert "install:ice-wall@rd" not in ids(s) and "install:ice-wall@hq" in ids(s)


def test_agenda_into_a_new_remote(doc):
    agenda = {"name": "Project Atlas", "type": "agenda", "agenda_points": 2, "advancement_requirement": 3}
    b = corp_board([agenda], servers={"remote1": {"content": {"name": "PAD", "type": "asset"}}})
    s = to_actions(engine.start(b, "corp_turn", doc))
    assert "install:project-atlas@remote1" not in ids(s)  # remote1 already holds an asset (3.2.1)
    s, _ = engine.apply(s, "install:project-atlas@new")
    assert s.board["servers"]["remote2"]["content"]["name"] == "Project Atlas"
    assert s.board["corp"]["credits"] == 5  # no install cost (1.16.6c)
    assert engine.validate_board(s.board) == []


def runner_board(hand, programs, credits=5):
    return {
        "version": 1,
        "turn": "runner",
        "corp": {"hand": 3, "deck": 5},
        "runner": {"credits": credits, "hand": hand, "deck": 5, "rig": {"programs": programs}},
        "servers": {},
    }


def test_memory_limit_exceeded_trashes_programs(doc):
    old = [{"name": "A", "memory_cost": 2}, {"name": "B", "memory_cost": 1}]
    new = {"name": "Big", "type": "program", "install_cost": 3, "memory_cost": 2}
    s = to_actions(engine.start(runner_board([new, "Sure Gamble"], old), "runner_turn", doc))
    s, _ = engine.apply(s, "install:big")
    assert ids(s) == ["trash:a", "trash:b"]  # 3 + 2 > 4: the Runner must trash (3.9.3b)
    s, ev = engine.apply(s, "trash:b")  # trash B (1 mu): 2 + 2 = 4 fits
    # now within the limit, the Runner still may trash more (8.5.6c) or stop
    assert ids(s) == ["trash:a", "done"]
    assert s.board["runner"]["credits"] == 5  # nothing paid yet: 8.5.16c before 8.5.16d
    s, ev2 = engine.apply(s, "done")
    ev = ev + ev2
    rig = s.board["runner"]["rig"]["programs"]
    assert [c["name"] for c in rig] == ["A", "Big"]
    assert s.board["runner"]["credits"] == 2
    assert [c["name"] for c in s.board["runner"]["discard"]] == ["B"]
    assert any("rule_install_trash_programs" in e.rules for e in ev)
    assert s.outcome.to_dict()["runner"]["memory"] == {"used": 4, "limit": 4}


def test_program_bigger_than_the_memory_limit_is_not_offered(doc):
    huge = {"name": "Huge", "type": "program", "install_cost": 0, "memory_cost": 5}
    hw = {"name": "Box", "type": "hardware", "install_cost": 9}
    res = {"name": "Job", "type": "resource", "install_cost": 1}
    s = to_actions(engine.start(runner_board([huge, hw, res], []), "runner_turn", doc))
    assert "install:huge" not in ids(s) and "install:box" not in ids(s)  # too big / too expensive
    s, _ = engine.apply(s, "install:job")
    assert s.board["runner"]["rig"]["resources"][0]["name"] == "Job"


def test_the_runner_may_trash_programs_when_not_over_the_limit(doc):
    """8.5.6c (the official Scavenge ruling): installing a program, the Runner MAY first trash any
    number of installed programs, not only to make room."""
    old = [{"name": "A", "memory_cost": 1}]
    new = {"name": "New", "type": "program", "install_cost": 1, "memory_cost": 1}
    s = to_actions(engine.start(runner_board([new], old), "runner_turn", doc))
    s, _ = engine.apply(s, "install:new")
    assert ids(s) == ["trash:a", "done"]
    s, ev = engine.apply(s, "trash:a")
    assert [c["name"] for c in s.board["runner"]["discard"]] == ["A"]
    assert any("rule_steps_installing_trash_like_cards" in e.rules for e in ev)
    assert [c["name"] for c in s.board["runner"]["rig"]["programs"]] == ["New"]


def test_hosted_credits_cannot_pay_after_their_card_is_trashed_for_memory(doc):
    """The official Cezve ruling: the install cost is paid after programs are trashed (8.5.16c
    then d), so credits hosted on a program trashed to make room cannot pay for the install.
    The action's cost is its click alone (5.2.7d); a Runner who then cannot pay does not install
    the card, which goes back to the grip (1.16.4b)."""
    cezve = {"name": "Cezve", "memory_cost": 2, "recurring": 2, "counters": {"credits": 2}}
    new = {"name": "Big", "type": "program", "install_cost": 2, "memory_cost": 3}
    s = to_actions(engine.start(runner_board([new], [cezve], credits=0), "runner_turn", doc))
    assert "install:big" in ids(s)  # affordable with Cezve's hosted credits, as offered
    clicks = s.board["runner"]["clicks"]
    s, _ = engine.apply(s, "install:big")
    assert ids(s) == ["trash:cezve"]  # 2 + 3 > 4: Cezve must go first
    s, ev = engine.apply(s, "trash:cezve")
    assert s.board["runner"]["rig"]["programs"] == []
    assert [c["name"] for c in s.board["runner"]["hand"]] == ["Big"]
    assert s.board["runner"]["clicks"] == clicks - 1
    failed = [e for e in ev if "cannot pay the install cost" in e.text]
    assert failed and "rule_steps_installing_pay_install_cost" in failed[0].rules
