"""Conditional abilities of agendas in the Corp's score area (4.5.4: active there; inactive in
the Runner's) meeting their trigger condition on later events (9.6.5), pending with the other
abilities meeting theirs at the same time and ordered as they are (9.2.8: the active player's
first, each player choosing the order of their own)."""

from __future__ import annotations

import pytest
from helpers import decision_ids, engine_board, load_doc

import engine


@pytest.fixture(params=["22.12", "24.03", "26.03"])
def doc(request):
    return load_doc(request.param)


def trig(when: str, effect: str, amount: int, flt: dict | None = None) -> dict:
    return {
        "when": when,
        "effects": [{"effect": effect, "amount": amount}],
        **({"filter": flt} if flt else {}),
    }


def agenda(name: str, *triggers: dict) -> dict:
    return {"name": name, "type": "agenda", "agenda_points": 1, "triggers": list(triggers)}


def to_triggers(s):
    for _ in range(80):
        if any(i.startswith("trigger:") for i in decision_ids(s)):
            return s
        ids = decision_ids(s)
        s, _ = engine.apply(s, "pass" if "pass" in ids else "continue" if "continue" in ids else ids[0])
    raise AssertionError("never asked to order triggers")


def run_to_end(s):
    while not s.finished:
        ids = decision_ids(s)
        s, _ = engine.apply(s, "pass" if "pass" in ids else "continue" if "continue" in ids else ids[0])
    return s


def test_scored_agendas_trigger_on_a_successful_run_runner_first(doc):
    """Two scored agendas ("whenever the Runner makes a successful run on HQ, gain 1[credit]" /
    "... the Runner loses 1[credit]") and two Runner resources meet their condition together at
    6.9.5a. It is the Runner's turn: the Runner orders theirs first (9.2.8d), then the Corp is
    asked to order its two (9.2.8b)."""
    area = [
        agenda("Gain Deal", trig("successful_run", "gain_credits", 1, {"server": "hq"})),
        agenda("Toll Deal", trig("successful_run", "lose_credits", 1, {"server": "central"})),
        agenda("Remote Deal", trig("successful_run", "gain_credits", 50, {"server": "remote"})),
    ]
    rig = {
        "resources": [
            {"name": "Kati", "triggers": [trig("successful_run", "gain_credits", 2)]},
            {"name": "Diary", "triggers": [trig("successful_run", "gain_credits", 3)]},
        ]
    }
    b = engine_board(corp={"credits": 0, "score_area": area}, runner={"credits": 0, "rig": rig})
    s = to_triggers(engine.start(b, "run", doc, {"server": "hq"}))
    met = [e for e in s.trace if e.objects.get("condition") == "successful_run"]
    assert met[-1].objects["pending"] == [
        "resources.kati.0",
        "resources.diary.0",
        "score_area.gain-deal.0",
        "score_area.toll-deal.0",
    ]
    assert [e.objects["not_met"] for e in s.trace if e.objects.get("when") == "successful_run"] == [
        ["score_area.remote-deal.0"]
    ]
    assert decision_ids(s) == ["trigger:resources.kati.0", "trigger:resources.diary.0"]
    s, _ = engine.apply(s, "trigger:resources.diary.0")
    ids = decision_ids(s)
    assert ids == ["trigger:score_area.gain-deal.0", "trigger:score_area.toll-deal.0"]
    assert {d["player"] for d in engine.legal_decisions(s)} == {"corp"}
    s, _ = engine.apply(s, "trigger:score_area.toll-deal.0")
    fired = [e.objects["trigger"] for e in s.trace if "trigger" in e.objects]
    assert fired == [
        "resources.diary.0",
        "resources.kati.0",
        "score_area.toll-deal.0",
        "score_area.gain-deal.0",
    ]
    assert s.board["runner"]["credits"] == 2 + 3 - 1
    assert s.board["corp"]["credits"] == 1
    assert all(doc.node(r) is not None for e in s.trace for r in e.rules)


def test_a_scored_agenda_triggers_when_the_runner_steals(doc):
    """ "Whenever the Runner steals an agenda, do 1 net damage" on a scored agenda: pending after
    the checkpoint that follows the steal, beside the stolen agenda's own "when stolen"."""
    area = [agenda("Grudge", trig("stolen", "net_damage", 1))]
    stolen = {
        "name": "Project",
        "type": "agenda",
        "agenda_points": 1,
        "triggers": [trig("stolen", "opponent_gains_credits", 0)],
    }
    b = engine_board(corp={"score_area": area, "hand": [stolen]}, runner={"hand": 3})
    s = run_to_end(engine.start(b, "run", doc, {"server": "hq"}))
    assert s.outcome.stolen == ["Project"]
    met = next(e for e in s.trace if e.objects.get("condition") == "stolen")
    assert met.objects["pending"] == ["score_area.grudge.0", "accessed.project.0"]
    assert len(s.board["runner"]["hand"]) == 2  # 1 net damage
    assert s.board["runner"]["discard"] and s.outcome.run == "successful"


def test_agendas_in_the_runner_score_area_are_inactive(doc):
    """4.5.4: the same agenda in the Runner's score area meets nothing."""
    stolen = agenda("Gain Deal", trig("successful_run", "gain_credits", 1))
    b = engine_board(corp={"credits": 0}, runner={"score_area": [stolen]})
    s = run_to_end(engine.start(b, "run", doc, {"server": "hq"}))
    assert s.outcome.run == "successful" and s.board["corp"]["credits"] == 0
    assert not [e for e in s.trace if e.objects.get("condition") == "successful_run"]
    b = engine_board(corp={"credits": 0, "score_area": [stolen]})
    s = run_to_end(engine.start(b, "run", doc, {"server": "hq"}))
    assert s.board["corp"]["credits"] == 1


def test_a_scored_agenda_triggers_on_a_trace_and_a_run_end(doc):
    """ "Whenever a trace is initiated" and "when a run ends unsuccessfully" on scored agendas."""
    area = [
        agenda("Tracer Deal", trig("trace_initiated", "gain_credits", 2)),
        agenda("Loss Deal", trig("run_ends", "give_tags", 1, {"successful": False})),
    ]
    tracer = {
        "name": "Tracer",
        "rezzed": True,
        "subroutines": [
            {"effect": "trace", "strength": 9, "on_success": ["end_the_run"], "on_failure": []},
        ],
    }
    b = engine_board(corp={"credits": 0, "score_area": area}, servers={"rd": {"ice": [tracer]}})
    s = run_to_end(engine.start(b, "run", doc, {"server": "rd"}))
    assert s.outcome.run == "unsuccessful"
    assert s.board["runner"]["tags"] == 1
    fired = [e.objects["trigger"] for e in s.trace if "trigger" in e.objects]
    assert fired == ["score_area.tracer-deal.0", "score_area.loss-deal.0"]
