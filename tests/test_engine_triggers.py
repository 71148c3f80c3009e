"""Conditional abilities beyond "when the run is successful" (9.6): "when encountered" (6.9.3a,
9.6.14a), "when passed" (6.9.4a), "when the run ends" (6.9.6d, 6.8.5), "when installed"
(8.5.15f, 9.6.14b) and "when scored" (9.6.14c). An ability fires only when its own condition is met; abilities met together
resolve the active player's first, each player choosing the order of their own (9.2.8)."""

from __future__ import annotations

import pytest
from helpers import decision_ids, engine_board, load_doc

import engine


@pytest.fixture(params=["22.12", "24.03", "26.03"])
def doc(request):
    return load_doc(request.param)


def trig(when: str, effect: str, amount: int) -> list[dict]:
    return [{"when": when, "effects": [{"effect": effect, "amount": amount}]}]


def run_to_end(s, prefer: str = "pass"):
    while not s.finished:
        ids = decision_ids(s)
        s, _ = engine.apply(s, prefer if prefer in ids else "continue" if "continue" in ids else ids[0])
    return s


def became_pending(s, when: str) -> list[list[str]]:
    return [e.objects["pending"] for e in s.trace if e.objects.get("condition") == when]


def test_when_encountered_fires_for_its_own_ice_only(doc):
    """Tollbooth-like: "When the Runner encounters this ice, they lose 3 credits." The other ice
    encountered in the same run, and the unrezzed one that is never encountered, do not fire."""
    toll = {"name": "Toll", "rezzed": True, "triggers": trig("encountered", "lose_credits", 3)}
    wall = {"name": "Wall", "rezzed": True, "subroutines": []}
    dark = {
        "name": "Dark",
        "rezzed": False,
        "rez_cost": 99,
        "triggers": trig("encountered", "lose_credits", 1),
    }
    b = engine_board(runner={"credits": 5}, servers={"hq": {"ice": [dark, wall, toll]}})
    s = run_to_end(engine.start(b, "run", doc, {"server": "hq"}))
    assert s.outcome.run == "successful"
    assert became_pending(s, "encountered") == [["hq.ice.toll.0"]]
    assert s.board["runner"]["credits"] == 2
    pend = next(e for e in s.trace if e.objects.get("condition") == "encountered")
    assert pend.step == "step_encounter_begins"
    assert ("rule_when_encountered" in pend.rules) == (doc.node("rule_when_encountered") is not None)
    assert all(doc.node(r) is not None for e in s.trace for r in e.rules)


def test_when_passed_fires_for_each_ice_passed_and_the_run_end_once(doc):
    """A Runner card's "whenever you pass a piece of ice" meets its condition for every ice
    passed; "when the run ends" is met once, at 6.9.6d, even for an unsuccessful run."""
    walls = [{"name": f"Wall {i}", "rezzed": True, "subroutines": []} for i in range(2)]
    rig = {
        "hardware": [{"name": "Counter", "triggers": trig("passed", "gain_credits", 1)}],
        "resources": [{"name": "Diary", "triggers": trig("run_ends", "gain_credits", 2)}],
    }
    b = engine_board(runner={"credits": 0, "rig": rig}, servers={"hq": {"ice": walls}})
    s = run_to_end(engine.start(b, "run", doc, {"server": "hq"}))
    assert became_pending(s, "passed") == [["hardware.counter.0"], ["hardware.counter.0"]]
    assert became_pending(s, "run_ends") == [["resources.diary.0"]]
    assert s.board["runner"]["credits"] == 4
    ends = next(e for e in s.trace if e.objects.get("condition") == "run_ends")
    assert ends.step == "step_run_complete" and "rule_run_ends_condition" in ends.rules
    # the run's record is kept once although the step is re-entered after the reaction window
    assert len(s.outcome.runs) == 1


def test_run_end_abilities_active_player_first_each_in_their_own_order(doc):
    """9.2.8: the Runner (active) resolves theirs first, in the order they choose (9.2.8d), then
    the Corp theirs (9.2.8b)."""
    rig = {
        "resources": [
            {"name": "Kati", "triggers": trig("run_ends", "gain_credits", 2)},
            {"name": "Diary", "triggers": trig("run_ends", "gain_credits", 1)},
        ]
    }
    grid = {
        "name": "Grid",
        "type": "upgrade",
        "rezzed": True,
        "triggers": trig("run_ends", "lose_credits", 1),
    }
    wall = {"name": "Wall", "rezzed": True, "subroutines": ["end_the_run"]}
    b = engine_board(runner={"credits": 0, "rig": rig}, servers={"hq": {"ice": [wall], "root": [grid]}})
    s = engine.start(b, "run", doc, {"server": "hq"})
    while s.current_step != "step_run_complete":
        s, _ = engine.apply(s, "pass" if "pass" in decision_ids(s) else decision_ids(s)[0])
    assert decision_ids(s) == ["trigger:resources.kati.0", "trigger:resources.diary.0"]
    assert {d["player"] for d in engine.legal_decisions(s)} == {"runner"}
    s, _ = engine.apply(s, "trigger:resources.diary.0")
    s = run_to_end(s)
    fired = [e.objects["card"] for e in s.trace if "trigger" in e.objects]
    assert fired == ["Diary", "Kati", "Grid"]
    assert s.outcome.run == "unsuccessful" and s.board["runner"]["credits"] == 2


def test_when_installed_fires_for_the_installed_card_only(doc):
    """8.5.15f: "when installed" abilities of the card being installed meet their condition; the
    same ability on a card already installed does not."""
    fresh = {
        "name": "Fresh",
        "type": "resource",
        "install_cost": 1,
        "triggers": trig("installed", "gain_credits", 3),
    }
    old = {"name": "Old", "triggers": trig("installed", "gain_credits", 5)}
    b = engine_board(
        turn="runner", runner={"credits": 2, "clicks": 0, "hand": [fresh], "rig": {"resources": [old]}}
    )
    s = engine.start(b, "runner_turn", doc)
    while "install:fresh" not in decision_ids(s):
        s, _ = engine.apply(s, decision_ids(s)[0])
    s, ev = engine.apply(s, "install:fresh")
    assert [e.objects["pending"] for e in ev if e.objects.get("condition") == "installed"] == [
        ["resources.fresh.0"]
    ]
    assert s.board["runner"]["credits"] == 2 - 1 + 3
    assert [c["name"] for c in s.board["runner"]["rig"]["resources"]] == ["Old", "Fresh"]


def test_new_conditions_validate_and_unknown_ones_are_refused():
    for when in ("encountered", "passed", "run_ends", "installed", "scored"):
        ice = {"name": "X", "rezzed": True, "triggers": trig(when, "gain_credits", 1)}
        assert engine.validate_board(engine_board(servers={"hq": {"ice": [ice]}})) == []
    bad = {"name": "X", "triggers": [{"when": "accessed_twice", "effects": []}]}
    assert any("when" in p for p in engine.validate_board(engine_board(runner={"rig": {"hardware": [bad]}})))


def test_when_scored_fires_for_the_agenda_scored(doc):
    """9.6.14c: "when scored" abilities of the agenda the Corp scores meet their condition (in
    its paid ability window); another agenda already in the score area does not fire."""
    agenda = {
        "name": "Braintrust",
        "type": "agenda",
        "agenda_points": 2,
        "advancement_requirement": 3,
        "advancements": 3,
        "triggers": trig("scored", "gain_credits", 2) + trig("scored", "give_tags", 1),
    }
    old = {
        "name": "Old Deal",
        "type": "agenda",
        "agenda_points": 1,
        "triggers": trig("scored", "gain_credits", 9),
    }
    b = engine_board(
        corp={"credits": 0, "clicks": 0, "score_area": [old]}, servers={"remote1": {"content": agenda}}
    )
    s = engine.start(b, "corp_turn", doc)
    while "score:remote1" not in decision_ids(s):
        s, _ = engine.apply(s, decision_ids(s)[0])
    s, ev = engine.apply(s, "score:remote1")
    assert [e.objects["pending"] for e in ev if e.objects.get("condition") == "scored"] == [
        ["score_area.braintrust.0", "score_area.braintrust.1"]
    ]
    # two of the Corp's abilities are pending together: the Corp orders them (9.2.8d)
    assert decision_ids(s) == ["trigger:score_area.braintrust.0", "trigger:score_area.braintrust.1"]
    s, _ = engine.apply(s, "trigger:score_area.braintrust.1")
    assert s.board["runner"]["tags"] == 1 and s.board["corp"]["credits"] == 2
    fired = [e.objects["trigger"] for e in s.trace if "trigger" in e.objects]
    assert fired == ["score_area.braintrust.1", "score_area.braintrust.0"]
    assert "score:remote1" not in decision_ids(s)


# ----- "whenever you access a card" / "when stolen" (7.2.1, 7.2.3) ----------------------------------
SNARE = {
    "name": "Snare!",
    "type": "asset",
    "on_access": [
        {
            "effect": "if_accessed_from",
            "zones": ["hq", "rd"],
            "effects": [
                {"effect": "may_pay", "amount": 4, "effects": [{"effect": "net_damage", "amount": 3}]}
            ],
        }
    ],
}


def access_run(b, doc, server="rd", extra=0, prefer="pass"):
    params = {"server": server, **({"additional_access": extra} if extra else {})}
    return run_to_end(engine.start(b, "run", doc, params), prefer)


def test_a_runner_card_triggers_on_each_card_accessed(doc):
    """ "Whenever you access a card, gain 1[credit]": met at 7.2.1 for each of the 2 R&D cards."""
    bhagat = {"name": "Bhagat", "triggers": trig("accessed", "gain_credits", 1)}
    b = engine_board(runner={"credits": 0, "rig": {"resources": [bhagat]}}, corp={"deck": 5})
    s = access_run(b, doc, extra=1)
    assert became_pending(s, "accessed") == [["resources.bhagat.0"]] * 2
    assert {e.step for e in s.trace if e.objects.get("condition") == "accessed"} == {"step_card_accessed"}
    assert s.board["runner"]["credits"] == 2 and len(s.outcome.accessed) == 2


def test_no_card_accessed_no_access_trigger(doc):
    """A breach of an empty Archives accesses nothing: the condition is never met."""
    bhagat = {"name": "Bhagat", "triggers": trig("accessed", "gain_credits", 1)}
    b = engine_board(runner={"credits": 0, "rig": {"resources": [bhagat]}}, corp={"discard": []})
    s = access_run(b, doc, server="archives")
    assert s.outcome.run == "successful" and s.outcome.accessed == []
    assert became_pending(s, "accessed") == [] and s.board["runner"]["credits"] == 0


def test_access_triggers_and_the_cards_own_resolve_active_player_first(doc):
    """Snare! ("when accessed") and the Runner's "whenever you access a card" meet their
    conditions together at 7.2.1: the Runner (active) resolves theirs first, then the Corp;
    Snare! still knows where it was accessed from (9.6.15)."""
    bhagat = {"name": "Bhagat", "triggers": trig("accessed", "gain_credits", 1)}
    b = engine_board(
        corp={"credits": 4, "deck": [SNARE, "Card"]},
        runner={"credits": 0, "hand": 5, "rig": {"resources": [bhagat]}},
    )
    s = access_run(b, doc, prefer="pay")
    assert became_pending(s, "accessed") == [["resources.bhagat.0", "accessed.snare.0"]]
    order = [e.objects["card"] for e in s.trace if e.objects.get("trigger")]
    assert order == ["Bhagat", "Snare!"]
    handover = [e for e in s.trace if e.objects.get("priority") == "corp" and e.step == "step_card_accessed"]
    assert len(handover) == 1
    assert s.board["runner"]["credits"] == 1 and len(s.board["runner"]["hand"]) == 2
    # from Archives Snare!'s condition fails: walked, not applied; the Runner's still fires
    b = engine_board(
        corp={"credits": 4, "discard": [{**SNARE, "faceup": True}]},
        runner={"credits": 0, "hand": 5, "rig": {"resources": [bhagat]}},
    )
    s = access_run(b, doc, server="archives", prefer="pay")
    assert s.board["runner"]["credits"] == 1 and len(s.board["runner"]["hand"]) == 5
    assert any(e.applied is False and e.objects.get("accessed_from") == "archives" for e in s.trace)


def test_the_runner_orders_their_own_access_triggers(doc):
    one = {"name": "One", "triggers": trig("accessed", "gain_credits", 1)}
    two = {"name": "Two", "triggers": trig("accessed", "gain_credits", 2)}
    b = engine_board(runner={"credits": 0, "rig": {"resources": [one, two]}}, corp={"deck": 3})
    s = engine.start(b, "run", doc, {"server": "rd"})
    while "trigger:resources.two.0" not in decision_ids(s):
        ids = decision_ids(s)
        s, _ = engine.apply(s, "pass" if "pass" in ids else "continue" if "continue" in ids else ids[0])
    assert set(decision_ids(s)) == {"trigger:resources.one.0", "trigger:resources.two.0"}
    assert {d["player"] for d in engine.legal_decisions(s)} == {"runner"}
    s = run_to_end(engine.apply(s, "trigger:resources.two.0")[0])
    assert [e.objects["card"] for e in s.trace if e.objects.get("trigger")] == ["Two", "One"]
    assert s.board["runner"]["credits"] == 3


def test_steal_triggers_fire_after_the_checkpoint_active_player_first(doc):
    """ "Whenever you steal an agenda" on a Runner card and the agenda's own "when stolen"
    meet their conditions at 7.2.3: the Runner's resolves first, then the Corp's."""
    notoriety = {"name": "Notoriety", "triggers": trig("stolen", "gain_credits", 2)}
    fetal = {
        "name": "Fetal AI",
        "type": "agenda",
        "agenda_points": 2,
        "triggers": trig("stolen", "net_damage", 1),
    }
    b = engine_board(
        corp={"deck": [fetal]}, runner={"credits": 0, "hand": 3, "rig": {"resources": [notoriety]}}
    )
    s = access_run(b, doc)
    assert s.outcome.stolen == ["Fetal AI"]
    assert became_pending(s, "stolen") == [["resources.notoriety.0", "accessed.fetal-ai.0"]]
    assert [e.objects["card"] for e in s.trace if e.objects.get("trigger")] == ["Notoriety", "Fetal AI"]
    assert s.board["runner"]["credits"] == 2 and len(s.board["runner"]["hand"]) == 2
    steps = [e.step for e in s.trace]
    pend = next(i for i, e in enumerate(s.trace) if e.objects.get("condition") == "stolen")
    first = next(i for i, e in enumerate(s.trace) if e.objects.get("trigger"))
    assert s.trace[pend].step == "step_access_agenda"
    assert any("checkpoint" in st for st in steps[pend:first])  # 10.3.1 before the window


def test_no_steal_no_steal_trigger(doc):
    """Declining an agenda's steal cost, or accessing a card that is not an agenda: the
    condition is not met."""
    notoriety = {"name": "Notoriety", "triggers": trig("stolen", "gain_credits", 2)}
    costly = {
        "name": "Costly",
        "type": "agenda",
        "agenda_points": 1,
        "steal_cost": 3,
        "triggers": trig("stolen", "give_tags", 1),
    }
    b = engine_board(
        corp={"deck": [costly, "Card"]}, runner={"credits": 5, "rig": {"resources": [notoriety]}}
    )
    s = access_run(b, doc, extra=1, prefer="decline_steal")
    assert s.outcome.stolen == [] and len(s.outcome.accessed) == 2
    assert became_pending(s, "stolen") == []
    assert s.board["runner"]["credits"] == 5 and s.board["runner"]["tags"] == 0


def test_a_winning_steal_ends_the_game_before_steal_triggers(doc):
    notoriety = {"name": "Notoriety", "triggers": trig("stolen", "gain_credits", 2)}
    big = {"name": "Big", "type": "agenda", "agenda_points": 3}
    b = engine_board(
        corp={"deck": [big]},
        runner={
            "credits": 0,
            "score_area": [{"name": "Old", "type": "agenda", "agenda_points": 4}],
            "rig": {"resources": [notoriety]},
        },
    )
    s = access_run(b, doc)
    assert s.outcome.winner == "runner"
    assert became_pending(s, "stolen") == [["resources.notoriety.0"]]
    assert s.board["runner"]["credits"] == 0  # the pending ability never resolved


def test_access_and_steal_conditions_validate():
    ok = engine_board(
        runner={"rig": {"hardware": [{"name": "H", "triggers": trig("accessed", "gain_credits", 1)}]}},
        corp={"deck": [{"name": "A", "type": "agenda", "triggers": trig("stolen", "give_tags", 1)}]},
    )
    assert engine.validate_board(ok) == []
    bad = engine_board(
        runner={"rig": {"hardware": [{"name": "H", "triggers": trig("looked_at", "gain_credits", 1)}]}}
    )
    assert any("stolen" in p and "accessed" in p for p in engine.validate_board(bad))
