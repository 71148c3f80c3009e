"""An event's additional cost that trashes the Runner's installed cards (issue 32): "As an additional
cost to play this event, trash 1 installed resource." (Isolation, Spec Work; 1.16.10). The event is
offered only while the whole cost can be paid, and refused with the reason otherwise; the Runner
chooses which card as the cost is paid (no choice when only one fits); the card is trashed with
the click and the play cost, all at once (1.16.10b), as a cost that no interrupt modifies
(1.16.1a); then the play ability resolves. Real cards by name, on CR 24.03 and 26.03."""

from __future__ import annotations

from helpers import by_title_fixtures

import engine
from engine.cardtext import MODELED

card, units, doc = by_title_fixtures()


def ids(s) -> list[str]:
    return [d["id"] for d in engine.legal_decisions(s)]


def runner_turn(doc, hand: list[dict], rig: dict, credits: int = 5):
    b = {
        "version": 2,
        "turn": "runner",
        "corp": {"credits": 5, "hand": 3, "deck": 10},
        "runner": {"credits": credits, "clicks": 0, "hand": hand, "deck": 10, "rig": rig},
        "servers": {},
    }
    s = engine.start(b, "runner_turn", doc)
    for _ in range(30):
        if s.current_step == "step_runner_turn_action":
            return s
        legal = ids(s)
        engine.push(s, next((x for x in ("pass", "continue") if x in legal), legal[0]))
    raise AssertionError(s.current_step)


def until_played(s, title: str):
    for _ in range(40):
        if any(c["name"] == title for c in s.board["runner"]["discard"]):
            return s
        legal = ids(s)
        engine.push(s, next((x for x in ("pass", "continue") if x in legal), legal[0]))
    raise AssertionError("not played")


RESOURCES = [{"name": "Daily Casting"}, {"name": "Liberated Account"}]


def test_translation(card, units):
    assert card("Isolation")["additional_cost"] == {"trash_resource": 1}
    assert card("Spec Work")["additional_cost"] == {"trash_program": 1}
    assert all(u.status == MODELED for t in ("Isolation", "Spec Work") for u in units(t))


def test_isolation_refused_without_an_installed_resource(card, doc):
    s = runner_turn(doc, [card("Isolation")], {"programs": [{"name": "Corroder"}]})
    assert not any(i.startswith("play:") for i in ids(s))
    why = [r for r in engine.refused_decisions(s) if r.id == "play:isolation"]
    assert why and "trashing 1 installed resource" in why[0].reason and why[0].rule == "rule_additional_cost"


def test_isolation_the_runner_chooses_the_resource_as_the_cost_is_paid(card, doc):
    iso = card("Isolation")
    s = runner_turn(doc, [iso], {"resources": [dict(c) for c in RESOURCES]})
    credits, clicks = s.board["runner"]["credits"], s.board["runner"]["clicks"]
    engine.push(s, "play:isolation")
    for _ in range(10):
        if any(i.startswith("trash:") for i in ids(s)):
            break
        engine.push(s, "pass" if "pass" in ids(s) else ids(s)[0])
    assert sorted(ids(s)) == ["trash:resources.daily-casting", "trash:resources.liberated-account"]
    assert all(d["player"] == "runner" for d in engine.legal_decisions(s))
    assert s.board["runner"]["credits"] == credits  # nothing is paid before the whole cost is chosen
    _, evs = engine.apply(s, "trash:resources.liberated-account")
    engine.push(s, "trash:resources.liberated-account")
    paid = next(e for e in evs if "rule_additional_cost" in e.rules)
    assert "Liberated Account" in paid.text and "rule_additonal_cost_simultaenous" in paid.rules
    # the click, the play cost and the resource in one payment
    assert paid.changes["runner.clicks"] == [clicks, clicks - 1]
    assert "runner.rig.resources" in paid.changes
    s = until_played(s, "Isolation")
    r = s.board["runner"]
    assert [c["name"] for c in r["rig"]["resources"]] == ["Daily Casting"]
    assert [c["name"] for c in r["discard"]] == ["Liberated Account", "Isolation"]
    assert r["credits"] == credits - iso.get("play_cost", 0) + 7


def test_spec_work_with_one_program_has_no_choice(card, doc):
    sw = card("Spec Work")
    s = runner_turn(doc, [sw], {"programs": [{"name": "Corroder", "memory_cost": 1}]})
    credits, hand = s.board["runner"]["credits"], len(s.board["runner"]["hand"])
    engine.push(s, "play:spec-work")
    assert not any(i.startswith("trash:") for i in ids(s))
    s = until_played(s, "Spec Work")
    r = s.board["runner"]
    assert r["rig"]["programs"] == []
    assert r["credits"] == credits - sw.get("play_cost", 0) + 4
    assert len(r["hand"]) == hand - 1 + 2


def test_a_trash_cost_on_an_operation_is_refused_by_the_validator():
    op = {"name": "X", "type": "operation", "additional_cost": {"trash_program": 1}}
    problems = engine.validate_board({"version": 2, "corp": {"hand": [op]}, "runner": {}})
    assert any(p.startswith("corp.hand[0].additional_cost.trash_program") for p in problems), problems
