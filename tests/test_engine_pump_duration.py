"""Pumps that last as the card says (CR 3.9.5b-c): an icebreaker strength ability lasts the
encounter by default; "for the remainder of this run" (Gordian Blade) carries into the next
ice's encounter and expires when the run is complete (6.9.6d); "for the remainder of the turn"
expires when the turn is complete."""

from __future__ import annotations

import pytest
from conftest import load_doc

import engine


def breaker(lasts: str | None) -> dict:
    pump = {"kind": "strength", "cost": 1, "amount": 1}
    if lasts:
        pump["lasts"] = lasts
    return {
        "name": "Blade",
        "type": "program",
        "memory_cost": 1,
        "strength": 2,
        "subtypes": ["icebreaker", "fracter"],
        "abilities": [{"kind": "break", "cost": 1, "count": 1, "ice_subtype": "barrier"}, pump],
    }


def wall(name: str) -> dict:
    return {
        "name": name,
        "rezzed": True,
        "rez_cost": 5,
        "strength": 3,
        "subtypes": ["barrier"],
        "subroutines": ["end_the_run"],
    }


def board(lasts: str | None, **extra) -> dict:
    return {
        "version": 1,
        "corp": {"credits": 5, "hand": 3, "deck": 10},
        "runner": {"credits": 10, "hand": 5, "deck": 5, "rig": {"programs": [breaker(lasts)]}},
        "servers": {"hq": {"ice": [wall("Inner"), wall("Outer")]}},
        **extra,
    }


def ids(s) -> list[str]:
    return [d["id"] for d in engine.legal_decisions(s)]


@pytest.fixture(params=["22.12", "24.03", "26.03"])
def doc(request):
    return load_doc(request.param)


def next_encounter(s):
    """Step on (continue / pass) until the next Encounter Ice Phase window with the Runner's abilities."""
    s, _ = engine.apply(s, "continue")
    for _ in range(40):
        if s.finished or ("use:blade.1" in ids(s) and s.current_step == "step_encounter_paw"):
            return s
        s, _ = engine.apply(
            s, "continue" if "continue" in ids(s) else "pass" if "pass" in ids(s) else ids(s)[0]
        )
    raise AssertionError("no next encounter")


def test_run_long_pump_carries_into_next_encounter(doc):
    s = engine.start(board("run"), "run", doc, {"server": "hq"})
    assert s.current_step == "step_encounter_paw"
    assert "use:blade.0" not in ids(s)  # strength 2 < 3 (3.9.5g)
    s, ev = engine.apply(s, "use:blade.1")
    prog = s.board["runner"]["rig"]["programs"][0]
    assert prog["boost_run"] == 1 and prog["boost"] == 1  # the part of the pump that lasts the run
    pump = [e for e in ev if "rule_icebreaker_strength_increase_specified" in e.rules]
    assert pump and pump[-1].objects["lasts"] == "run"
    assert "remainder of the run" in pump[-1].text
    s, _ = engine.apply(s, "use:blade.0")
    s = next_encounter(s)
    # the second (inner) ice: still strength 3, so the break is offered without pumping again
    prog = s.board["runner"]["rig"]["programs"][0]
    assert not s.finished and prog["boost_run"] == 1 and prog["boost"] == 1
    assert "use:blade.0" in ids(s)
    s, _ = engine.apply(s, "use:blade.0")
    credits = s.board["runner"]["credits"]
    assert credits == 10 - 3  # one pump, two breaks
    for _ in range(40):
        if s.finished:
            break
        s, _ = engine.apply(
            s, "continue" if "continue" in ids(s) else "pass" if "pass" in ids(s) else ids(s)[0]
        )
    assert s.finished
    # durations until the end of the run expire at 6.9.6d
    assert not {"boost", "boost_run"} & set(s.board["runner"]["rig"]["programs"][0])
    done = [e for e in s.trace if "rule_run_ends_condition" in e.rules]
    assert done and "remainder of the run ends" in done[-1].text


def test_default_pump_expires_with_the_encounter(doc):
    s = engine.start(board(None), "run", doc, {"server": "hq"})
    s, ev = engine.apply(s, "use:blade.1")
    assert s.board["runner"]["rig"]["programs"][0]["boost"] == 1
    assert any("rule_icebreaker_strength_increase_implicit" in e.rules for e in ev)
    s, _ = engine.apply(s, "use:blade.0")
    s = next_encounter(s)
    prog = s.board["runner"]["rig"]["programs"][0]
    assert not s.finished and "boost" not in prog and "boost_run" not in prog
    assert "use:blade.0" not in ids(s)  # back to strength 2: must pump again


def test_turn_long_pump_outlasts_the_run_until_the_turn_ends(doc):
    b = board("turn", turn="runner")
    b["runner"]["clicks"] = 1
    s = engine.start(b, "runner_turn", doc)
    for _ in range(20):
        if "run:hq" in ids(s):
            break
        s, _ = engine.apply(s, "pass" if "pass" in ids(s) else ids(s)[0])
    s, _ = engine.apply(s, "run:hq")
    for _ in range(40):
        if "use:blade.1" in ids(s):
            break
        s, _ = engine.apply(
            s, "continue" if "continue" in ids(s) else "pass" if "pass" in ids(s) else ids(s)[0]
        )
    s, _ = engine.apply(s, "use:blade.1")
    s, _ = engine.apply(s, "use:blade.0")
    prog = s.board["runner"]["rig"]["programs"][0]
    assert prog["boost_turn"] == 1
    after_run = None
    for _ in range(200):
        if s.finished:
            break
        if after_run is None and any(
            "rule_run_ends_phase" in e.rules and "is complete" in e.text for e in s.trace
        ):
            after_run = dict(s.board["runner"]["rig"]["programs"][0])
        s, _ = engine.apply(
            s, "continue" if "continue" in ids(s) else "pass" if "pass" in ids(s) else ids(s)[0]
        )
    assert s.finished
    # the run is over but the turn is not: the pump still lasts
    assert after_run is not None and after_run.get("boost_turn") == 1
    assert not {"boost", "boost_turn"} & set(s.board["runner"]["rig"]["programs"][0])
    ends = [e for e in s.trace if "rule_begin_end_turn_step" in e.rules]
    assert ends and "remainder of the turn ends" in ends[-1].text


def test_lasts_is_validated():
    b = board("forever")
    assert any("lasts" in p and "encounter, run, turn" in p for p in engine.validate_board(b))
    assert engine.validate_board(board("run")) == []
    b = board("run")
    b["runner"]["rig"]["programs"][0]["boost_run"] = 2  # a part of `boost` larger than it
    assert any("boost" in p and "boost_run" in p for p in engine.validate_board(b))
    b["runner"]["rig"]["programs"][0]["boost"] = 2
    assert engine.validate_board(b) == []


def test_encounter_and_run_pumps_together(doc):
    """A run pump and an encounter pump on the same breaker: at the end of the encounter only
    the encounter's part ends (3.9.5b-c)."""
    prog = breaker("run")
    prog["abilities"].append({"kind": "strength", "cost": 1, "amount": 2})
    b = board(None)
    b["runner"]["rig"]["programs"] = [prog]
    s = engine.start(b, "run", doc, {"server": "hq"})
    s, _ = engine.apply(s, "use:blade.1")
    s, _ = engine.apply(s, "use:blade.2")
    p = s.board["runner"]["rig"]["programs"][0]
    assert (p["boost"], p["boost_run"]) == (3, 1)
    s, _ = engine.apply(s, "use:blade.0")
    s = next_encounter(s)
    p = s.board["runner"]["rig"]["programs"][0]
    assert (p["boost"], p["boost_run"]) == (1, 1) and "use:blade.0" in ids(s)
