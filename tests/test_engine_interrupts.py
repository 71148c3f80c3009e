"""Interrupts other than damage prevention and trace strength (9.9): while an instruction is
imminent, `prevent` abilities can avoid tags (9.9.6a: the number of tags is a value avoiding
lowers), prevent installed cards from being trashed (8.2.2a: a prevented movement does not take
place) and prevent cards from being exposed (1.21.4); offered in the instruction's interrupt
window (9.9.4d) as `prevent:...` decisions, priority passing as in a paid ability window
(9.2.9c). All of it prevented: nothing happens (9.9.7b)."""

from __future__ import annotations

import pytest
from helpers import decision_ids, engine_board, load_doc

import engine


@pytest.fixture(params=["22.12", "24.03", "26.03"])
def doc(request):
    return load_doc(request.param)


DECOY = {
    "name": "Decoy",
    "type": "resource",
    "abilities": [{"kind": "prevent", "event": "tags", "amount": 1, "trash": True}],
}
CONSTRUCT = {
    "name": "Sacrificial Construct",
    "type": "resource",
    "abilities": [
        {
            "kind": "prevent",
            "event": "trash",
            "card_types": ["program", "hardware"],
            "amount": 1,
            "trash": True,
        }
    ],
}
CORRODER = {"name": "Corroder", "type": "program", "strength": 2, "subtypes": ["icebreaker", "fracter"]}
ZAIBATSU = {
    "name": "Zaibatsu Loyalty",
    "type": "asset",
    "rezzed": True,
    "abilities": [{"kind": "prevent", "event": "expose", "amount": 1, "cost": 1}],
}
INTERRUPT = "step_subroutine_interrupt_subroutine_effect"


def ice(*subs) -> dict:
    return {"name": "Gate", "rezzed": True, "subroutines": list(subs)}


def to_interrupt(s, step: str = INTERRUPT):
    for _ in range(80):
        if s.current_step == step and any(i.startswith("prevent:") for i in decision_ids(s)):
            return s
        ids = decision_ids(s)
        s, _ = engine.apply(s, "pass" if "pass" in ids else "continue" if "continue" in ids else ids[0])
    raise AssertionError("no prevent decision offered")


def run_to_end(s):
    while not s.finished:
        ids = decision_ids(s)
        s, _ = engine.apply(s, "pass" if "pass" in ids else "continue" if "continue" in ids else ids[0])
    return s


def test_decoy_avoids_one_of_two_tags(doc):
    """9.9.6a: "give the Runner 2 tags" is imminent; Decoy ([trash]: avoid 1 tag) lowers the
    value to 1, so the Runner takes 1 tag and Decoy is in the heap."""
    b = engine_board(
        runner={"rig": {"resources": [DECOY]}},
        servers={"hq": {"ice": [ice({"effect": "give_tags", "amount": 2})]}},
    )
    s = to_interrupt(engine.start(b, "run", doc, {"server": "hq"}))
    assert decision_ids(s) == ["prevent:resources.decoy.0", "pass"]
    assert {d["player"] for d in engine.legal_decisions(s)} == {"runner"}
    s, ev = engine.apply(s, "prevent:resources.decoy.0")
    used = next(e for e in ev if e.objects.get("card") == "Decoy")
    assert used.objects == {
        "card": "Decoy",
        "zone": "resources",
        "prevented": 1,
        "imminent": 1,
        "event": "tags",
    }
    assert "rule_modifiable_value_tags" in used.rules and "rule_trashing" in used.rules
    assert [c["name"] for c in s.board["runner"]["discard"]][-1] == "Decoy"
    s = run_to_end(s)
    assert s.board["runner"]["tags"] == 1
    assert all(doc.node(r) is not None for e in s.trace for r in e.rules)
    # the same session replays from JSON with the card-named decision id
    again = engine.Session.from_json(s.to_json(), doc)
    assert again.board == s.board


def test_all_tags_avoided_means_none_is_taken(doc):
    b = engine_board(
        runner={"rig": {"resources": [DECOY]}},
        servers={"hq": {"ice": [ice({"effect": "give_tags", "amount": 1})]}},
    )
    s = to_interrupt(engine.start(b, "run", doc, {"server": "hq"}))
    s = run_to_end(engine.apply(s, "prevent:resources.decoy.0")[0])
    assert s.board["runner"]["tags"] == 0
    gone = [e for e in s.trace if e.objects.get("event") == "tags" and e.objects.get("amount") == 0]
    assert len(gone) == 1 and gone[0].applied is False and "rule_modifiable_value_tags" in gone[0].rules


def test_passing_lets_the_tags_through(doc):
    b = engine_board(
        runner={"rig": {"resources": [DECOY]}},
        servers={"hq": {"ice": [ice({"effect": "give_tags", "amount": 2})]}},
    )
    s = run_to_end(engine.start(b, "run", doc, {"server": "hq"}))
    assert s.board["runner"]["tags"] == 2 and s.board["runner"]["rig"]["resources"][0]["name"] == "Decoy"


def test_sacrificial_construct_prevents_a_program_trash(doc):
    """8.2.2a (its example: Rototurret and Sacrificial Construct): the program is not trashed."""
    b = engine_board(
        runner={"rig": {"programs": [CORRODER], "resources": [CONSTRUCT]}},
        servers={"hq": {"ice": [ice({"effect": "trash_program"})]}},
    )
    s = to_interrupt(engine.start(b, "run", doc, {"server": "hq"}))
    assert decision_ids(s) == ["prevent:resources.sacrificial-construct.0", "pass"]
    s, ev = engine.apply(s, "prevent:resources.sacrificial-construct.0")
    used = next(e for e in ev if e.objects.get("card") == "Sacrificial Construct")
    assert "rule_cancelled_movement" in used.rules and used.objects["event"] == "trash"
    s = run_to_end(s)
    assert [c["name"] for c in s.board["runner"]["rig"]["programs"]] == ["Corroder"]
    assert s.outcome.trashed_programs == []
    assert [c["name"] for c in s.board["runner"]["discard"]] == ["Sacrificial Construct"]
    gone = [e for e in s.trace if e.objects.get("event") == "trash" and e.objects.get("amount") == 0]
    assert len(gone) == 1 and gone[0].applied is False
    # without using it the program is trashed
    s = run_to_end(engine.start(b, "run", doc, {"server": "hq"}))
    assert s.outcome.trashed_programs == ["Corroder"]


def test_trash_prevention_is_offered_only_where_relevant(doc):
    """9.9.3a: an interrupt is offered only if it could prevent part of the imminent effect:
    Sacrificial Construct protects programs and hardware, not resources."""
    resource_trash = {"effect": "trash_installed", "amount": 1, "card_types": ["resource"]}
    b = engine_board(
        runner={"rig": {"programs": [CORRODER], "resources": [CONSTRUCT, {"name": "Daily Casts"}]}},
        servers={"hq": {"ice": [ice(resource_trash)]}},
    )
    s = engine.start(b, "run", doc, {"server": "hq"})
    seen = set()
    while not s.finished:
        ids = decision_ids(s)
        seen.update(ids)
        s, _ = engine.apply(s, "pass" if "pass" in ids else "continue" if "continue" in ids else ids[0])
    assert not any(i.startswith("prevent:") for i in seen)
    assert len(s.board["runner"]["rig"]["resources"]) == 1  # the Corp trashed one resource


def test_two_of_three_trashes_remain_after_one_prevention(doc):
    """A prevention lowers the number of cards the instruction trashes by its amount."""
    trash3 = {"effect": "trash_installed", "amount": 3, "card_types": ["program"]}
    progs = [{**CORRODER, "name": f"Breaker {i}"} for i in range(3)]
    b = engine_board(
        runner={"rig": {"programs": progs, "resources": [CONSTRUCT]}},
        servers={"hq": {"ice": [ice(trash3)]}},
    )
    s = to_interrupt(engine.start(b, "run", doc, {"server": "hq"}))
    s = engine.apply(s, "prevent:resources.sacrificial-construct.0")[0]
    s = run_to_end(s)
    assert len(s.board["runner"]["rig"]["programs"]) == 1


def test_the_corp_prevents_an_expose(doc):
    """1.21.4 / 9.9: the Runner's "expose 1 card" is imminent (a Runner card's ability on a
    successful run); the Runner (active) has no interrupt and passes, then the Corp pays 1 for
    Zaibatsu Loyalty's ability and the card is not exposed."""
    spy = {
        "name": "Spy",
        "triggers": [{"when": "successful_run", "effects": [{"effect": "expose", "amount": 1}]}],
    }
    secret = {"name": "Secret Asset", "type": "asset", "rez_cost": 2}
    b = engine_board(
        corp={"credits": 3},
        runner={"rig": {"resources": [spy]}},
        servers={"remote1": {"content": ZAIBATSU}, "remote2": {"content": secret}},
    )
    s = to_interrupt(
        engine.start(b, "run", doc, {"server": "hq"}), "step_conditional_ability_interrupt_window"
    )
    assert decision_ids(s) == ["prevent:remote1.content.0", "pass"]
    assert {d["player"] for d in engine.legal_decisions(s)} == {"corp"}
    s, ev = engine.apply(s, "prevent:remote1.content.0")
    used = next(e for e in ev if e.objects.get("card") == "Zaibatsu Loyalty")
    assert used.objects["server"] == "remote1" and used.objects["event"] == "expose"
    assert "rule_expose" in used.rules and s.board["corp"]["credits"] == 2
    s = run_to_end(s)
    assert not any(e.objects.get("cards") == ["Secret Asset"] for e in s.trace)
    assert all(doc.node(r) is not None for e in s.trace for r in e.rules)
    # when the Corp passes, the card is exposed
    s = run_to_end(engine.start(b, "run", doc, {"server": "hq"}))
    assert any(e.objects.get("cards") == ["Secret Asset"] and "rule_expose" in e.rules for e in s.trace)


@pytest.mark.parametrize(
    "ability, side, fragment",
    [
        ({"kind": "prevent", "event": "expose", "amount": 1}, "runner", "event"),
        ({"kind": "prevent", "event": "tags", "amount": 1, "damage": "net"}, "runner", "damage"),
        (
            {"kind": "prevent", "event": "tags", "amount": 1, "card_types": ["program"]},
            "runner",
            "card_types",
        ),
        (
            {"kind": "prevent", "event": "trash", "amount": 1, "card_types": ["agenda"]},
            "runner",
            "card_types",
        ),
        ({"kind": "prevent", "event": "tags", "amount": 0}, "runner", "amount"),
        ({"kind": "prevent", "event": "tags", "amount": 1}, "corp", "event"),
        ({"kind": "prevent", "event": "expose"}, "corp", "amount"),
    ],
)
def test_bad_prevent_abilities_are_refused(ability, side, fragment):
    if side == "runner":
        b = engine_board(runner={"rig": {"resources": [{"name": "R", "abilities": [ability]}]}})
    else:
        card = {"name": "A", "type": "asset", "abilities": [ability]}
        b = engine_board(servers={"remote1": {"content": card}})
    problems = engine.validate_board(b)
    assert any(fragment in p for p in problems), problems
