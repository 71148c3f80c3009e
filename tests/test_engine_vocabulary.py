"""The rest of issue 10's effect vocabulary: bypass (6.5.8), derez (8.1.3, 6.2.7c), expose
(1.21.4), gain clicks (1.x) and taking bad publicity. Scenario tests on 22.12, 24.03, 26.03."""

from __future__ import annotations

import json

import jsonschema
import pytest
from helpers import ROOT, decision_ids, engine_board, load_doc

import engine

SCHEMA = json.loads((ROOT / "engine" / "board.schema.json").read_text())
WALL = {"name": "Wall", "rezzed": True, "subroutines": ["end_the_run"]}
TOLL = {"name": "Toll", "rezzed": True, "subroutines": [{"effect": "lose_credits", "amount": 2}]}


@pytest.fixture(params=["22.12", "24.03", "26.03"])
def doc(request):
    return load_doc(request.param)


def finish(s, *prefer: str):
    for _ in range(200):
        if s.finished:
            return s
        ids = decision_ids(s)
        pick = next((p for p in (*prefer, "pass", "continue", "no_trash") if p in ids), ids[0])
        s, _ = engine.apply(s, pick)
    raise AssertionError("did not finish")


def test_a_runner_card_bypasses_the_encountered_ice(doc):
    """ "Whenever you encounter a piece of ice, bypass it" (an `encountered` trigger): the
    Encounter Ice Phase is aborted, no subroutine resolves, the Runner passes the ice (6.5.8a)
    and its "when passed" abilities fire; the run goes on to the next ice and succeeds."""
    cloak = {
        "name": "Cloak",
        "triggers": [
            {"when": "encountered", "effects": ["bypass"]},
            {"when": "passed", "effects": [{"effect": "gain_credits", "amount": 1}]},
        ],
    }
    b = engine_board(
        runner={"credits": 0, "rig": {"hardware": [cloak]}}, servers={"hq": {"ice": [WALL, TOLL]}}
    )
    s = finish(engine.start(b, "run", doc, {"server": "hq"}))
    assert s.outcome.run == "successful"
    by = [e for e in s.trace if "bypasses" in e.text]
    assert [e.objects["card"] for e in by] == ["Wall", "Toll"] and all("rule_bypass" in e.rules for e in by)
    assert not any(e.step == "step_subroutine_resolution" for e in s.trace)
    assert s.board["runner"]["credits"] == 2  # each bypassed ice was passed (6.5.8a)
    assert all(doc.node(r) is not None for e in s.trace for r in e.rules)


def test_bypass_outside_an_encounter_does_nothing(doc):
    s = engine.start(engine_board(), "subroutine", doc, {"subroutine": ["bypass"]})
    s = finish(s)
    ev = next(e for e in s.trace if "bypass" in e.text.lower() and e.step == "step_subroutine_resolution")
    assert ev.applied is False


def test_derez_the_encountered_ice_ends_the_encounter(doc):
    """A Runner's "when encountered" derez of the ice: it turns facedown at no cost (8.1.3) and
    the encounter ends, the run continuing in the Movement Phase (6.2.7c)."""
    shutdown = {
        "name": "Shutdown",
        "triggers": [{"when": "encountered", "effects": [{"effect": "derez", "card_types": ["ice"]}]}],
    }
    b = engine_board(runner={"rig": {"resources": [shutdown]}}, servers={"hq": {"ice": [WALL]}})
    s = finish(engine.start(b, "run", doc, {"server": "hq"}))
    assert s.outcome.run == "successful" and s.board["servers"]["hq"]["ice"][0]["rezzed"] is False
    ev = next(e for e in s.trace if "derezzed" in e.text and e.objects.get("targets"))
    assert ev.objects["targets"] == ["hq.ice.wall"] and ev.changes == {
        "servers.hq.ice.wall.rezzed": [True, False]
    }
    assert any("rule_ice_change_encounter_uninstall_derez" in e.rules for e in s.trace)


def test_derez_chooses_among_rezzed_cards_by_name(doc):
    grid = {"name": "Manta Grid", "type": "upgrade", "rezzed": True}
    off = {"name": "Off", "rezzed": False, "rez_cost": 1}
    b = engine_board(servers={"hq": {"ice": [off, WALL], "root": [grid]}})
    s = engine.start(b, "subroutine", doc, {"subroutine": [{"effect": "derez"}]})
    assert decision_ids(s) == ["derez:hq.ice.wall", "derez:hq.root.manta-grid"]
    assert {d["player"] for d in engine.legal_decisions(s)} == {"corp"}  # the controller chooses
    s, _ = engine.apply(s, "derez:hq.root.manta-grid")
    assert (
        s.board["servers"]["hq"]["root"][0]["rezzed"] is False
        and s.board["servers"]["hq"]["ice"][1]["rezzed"]
    )
    none = engine.start(
        engine_board(servers={"hq": {"ice": [off]}}), "subroutine", doc, {"subroutine": ["derez"]}
    )
    assert any(e.applied is False and "derezzed" in e.text for e in finish(none).trace)


def test_expose_reveals_an_unrezzed_card_and_changes_nothing(doc):
    asset = {"name": "PAD Campaign", "type": "asset", "rez_cost": 2}
    b = engine_board(
        servers={
            "hq": {"ice": [WALL, {**WALL, "name": "Hidden", "rezzed": False}]},
            "remote1": {"content": asset},
        }
    )
    s = engine.start(b, "subroutine", doc, {"subroutine": [{"effect": "expose"}]})
    assert decision_ids(s) == ["expose:hq.ice.hidden", "expose:remote1.content"]
    assert {d["player"] for d in engine.legal_decisions(s)} == {"runner"}  # the Runner exposes (1.21.4)
    before = json.dumps(s.board, sort_keys=True)
    s, ev = engine.apply(s, "expose:remote1.content")
    shown = next(e for e in ev if e.objects.get("cards"))
    assert (
        shown.objects == {"cards": ["PAD Campaign"], "targets": ["remote1.content"]}
        and "rule_expose" in shown.rules
    )
    assert json.dumps(s.board, sort_keys=True) == before


def test_gain_clicks_and_take_bad_publicity(doc):
    op = {
        "name": "Op",
        "type": "operation",
        "effects": [{"effect": "gain_clicks", "amount": 2}, {"effect": "take_bad_publicity", "amount": 1}],
    }
    b = engine_board(turn="corp", corp={"hand": [op], "allotted_clicks": 1, "bad_publicity": 0})
    s = engine.start(b, "corp_turn", doc)
    while "play:op" not in decision_ids(s):
        ids = decision_ids(s)
        s, _ = engine.apply(s, "pass" if "pass" in ids else ids[0])
    clicks = s.board["corp"]["clicks"]
    s, ev = engine.apply(s, "play:op")
    assert s.board["corp"]["clicks"] == clicks - 1 + 2 and s.board["corp"]["bad_publicity"] == 1
    assert any(e.changes.get("corp.clicks") == [clicks - 1, clicks + 1] for e in ev)
    assert any(e.changes.get("corp.bad_publicity") == [0, 1] for e in ev)


def test_the_new_effects_validate():
    ok = engine_board(
        runner={
            "hand": [
                {
                    "name": "Ev",
                    "type": "event",
                    "effects": [
                        "bypass",
                        {"effect": "expose", "amount": 2},
                        {"effect": "gain_clicks", "amount": 1},
                    ],
                }
            ]
        },
        servers={
            "hq": {
                "ice": [
                    {
                        **WALL,
                        "subroutines": [
                            {"effect": "derez", "card_types": ["upgrade"]},
                            {"effect": "take_bad_publicity", "amount": 1},
                        ],
                    }
                ]
            }
        },
    )
    assert engine.validate_board(ok) == []
    jsonschema.validate(ok, SCHEMA)
    bad = engine_board(
        servers={"hq": {"ice": [{**WALL, "subroutines": [{"effect": "derez", "card_types": ["program"]}]}]}}
    )
    assert any("card_types" in p for p in engine.validate_board(bad))
    runner_bp = engine_board(
        runner={
            "hand": [
                {"name": "Ev", "type": "event", "effects": [{"effect": "take_bad_publicity", "amount": 1}]}
            ]
        }
    )
    assert engine.validate_board(runner_bp) != []
