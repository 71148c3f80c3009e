"""Corp paid abilities (9.2.7, 9.5.7): a rezzed asset, upgrade or piece of ice with a paid
ability ("X[credit]: ...", "[trash]: ...") is offered to the Corp whenever it has priority in a
paid ability window and can pay; it walks the paid ability structure and keeps priority (9.2.4c)."""

from __future__ import annotations

import pytest
from helpers import decision_ids, engine_board, load_doc

import engine

BOMB = {
    "name": "Bomb Grid",
    "type": "upgrade",
    "rezzed": True,
    "abilities": [{"kind": "paid", "trash": True, "effects": [{"effect": "net_damage", "amount": 2}]}],
}
BANK = {
    "name": "Bank",
    "type": "asset",
    "rezzed": True,
    "abilities": [{"kind": "paid", "cost": 2, "effects": [{"effect": "give_tags", "amount": 1}]}],
}


@pytest.fixture(params=["22.12", "24.03", "26.03"])
def doc(request):
    return load_doc(request.param)


def corp_turn_at_paw(b, doc):
    s = engine.start(b, "corp_turn", doc)
    assert s.current_step == "step_corp_turn_draw_phase_paw", s.current_step
    return s


def test_a_trash_ability_in_a_run_pays_trashes_and_resolves(doc):
    wall = {"name": "Wall", "rezzed": True, "subroutines": []}
    b = engine_board(runner={"hand": 5}, servers={"hq": {"ice": [wall], "root": [BOMB]}})
    s = engine.start(b, "run", doc, {"server": "hq"})
    while "ability:hq.root.bomb-grid.0" not in decision_ids(s):
        assert not s.finished
        s, _ = engine.apply(s, "pass" if "pass" in decision_ids(s) else decision_ids(s)[0])
    assert {d["player"] for d in engine.legal_decisions(s)} == {"corp"}
    s, ev = engine.apply(s, "ability:hq.root.bomb-grid.0")
    assert s.board["servers"]["hq"]["root"] == []
    trashed = s.board["corp"]["discard"][-1]
    assert trashed["name"] == "Bomb Grid" and trashed["faceup"] is True
    assert len(s.board["runner"]["hand"]) == 3
    steps = [e.step for e in ev]
    assert "step_paid_ability_announce" in steps and "step_paid_ability_resolution" in steps
    assert any("rule_trashing" in e.rules for e in ev if e.step == "step_paid_ability_condition")
    assert "ability:hq.root.bomb-grid.0" not in decision_ids(s)  # gone with the card
    assert all(doc.node(r) is not None for e in s.trace for r in e.rules)


def test_offered_only_when_rezzed_and_affordable(doc):
    s = corp_turn_at_paw(
        engine_board(corp={"credits": 4, "clicks": 0}, servers={"remote1": {"content": BANK}}), doc
    )
    assert "ability:remote1.content.0" in decision_ids(s)
    s, _ = engine.apply(s, "ability:remote1.content.0")
    # the Corp acted, so it keeps priority (9.2.4c) and may use the ability again
    assert {d["player"] for d in engine.legal_decisions(s)} == {"corp"}
    assert "ability:remote1.content.0" in decision_ids(s)
    s, _ = engine.apply(s, "ability:remote1.content.0")
    assert s.board["corp"]["credits"] == 0 and s.board["runner"]["tags"] == 2
    assert "ability:remote1.content.0" not in decision_ids(s)  # the 2 credits are no longer there
    unrezzed = {**BANK, "rezzed": False, "rez_cost": 0}
    s = engine.start(
        engine_board(corp={"credits": 5, "clicks": 0}, servers={"remote1": {"content": unrezzed}}),
        "corp_turn",
        doc,
    )
    assert not any(i.startswith("ability:") for i in decision_ids(s))


def test_paid_abilities_validate():
    ok = engine_board(servers={"remote1": {"content": BANK}})
    assert engine.validate_board(ok) == []
    bad = {**BANK, "abilities": [{"kind": "paid", "cost": 1}]}
    probs = engine.validate_board(engine_board(servers={"remote1": {"content": bad}}))
    assert any("effects" in p for p in probs)
    wrong = {**BANK, "abilities": [{"kind": "break", "cost": 1, "count": 1}]}
    assert any(
        "'paid'" in p for p in engine.validate_board(engine_board(servers={"remote1": {"content": wrong}}))
    )
    agenda = {"name": "A", "type": "agenda", "abilities": BANK["abilities"]}
    assert engine.validate_board(engine_board(servers={"remote1": {"content": agenda}})) != []


# ----- [click] abilities: actions on Corp cards (5.2.1, 9.5.2a) --------------------------------------
LAB = {
    "name": "Launch Campaign Lab",
    "type": "asset",
    "rezzed": True,
    "abilities": [
        {"kind": "click", "cost": 1, "effects": [{"effect": "gain_credits", "amount": 3}]},
        {"kind": "click", "clicks": 2, "trash": True, "effects": [{"effect": "give_tags", "amount": 1}]},
    ],
}


def corp_action(b, doc):
    s = engine.start(b, "corp_turn", doc)
    for _ in range(20):
        if s.current_step == "step_corp_turn_action":
            return s
        ids = decision_ids(s)
        s, _ = engine.apply(s, "pass" if "pass" in ids else ids[0])
    raise AssertionError(s.current_step)


def test_a_click_ability_is_an_action_in_the_action_phase(doc):
    b = engine_board(
        turn="corp", corp={"credits": 1, "allotted_clicks": 3}, servers={"remote1": {"content": LAB}}
    )
    s = corp_action(b, doc)
    ids = decision_ids(s)
    assert "ability:remote1.content.0" in ids and "ability:remote1.content.1" in ids
    clicks, credits = s.board["corp"]["clicks"], s.board["corp"]["credits"]
    s, ev = engine.apply(s, "ability:remote1.content.0")
    take = next(e for e in ev if e.step == "step_corp_turn_action")
    assert take.objects["card"] == "Launch Campaign Lab" and "rule_basic_actions" not in take.rules
    pay = next(e for e in ev if e.step == "step_paid_ability_condition")
    assert pay.changes["corp.clicks"] == [clicks, clicks - 1] and pay.changes["corp.credits"] == [credits, 0]
    assert "rule_action_definition" in pay.rules
    assert s.board["corp"]["credits"] == credits - 1 + 3
    assert any(e.step == "step_paid_ability_resolution" and "gains 3" in e.text for e in ev)
    assert all(doc.node(r) is not None for e in s.trace for r in e.rules)


def test_a_click_ability_needs_its_clicks_and_credits_and_a_rezzed_card(doc):
    b = engine_board(
        turn="corp", corp={"credits": 0, "allotted_clicks": 1}, servers={"remote1": {"content": LAB}}
    )
    s = corp_action(b, doc)
    # 1 click: the [click][click] ability is not offered; 0 credits: nor the 1-credit one
    assert not any(i.startswith("ability:") for i in decision_ids(s))
    off = engine_board(
        turn="corp",
        corp={"credits": 9, "allotted_clicks": 3},
        servers={"remote1": {"content": {**LAB, "rezzed": False, "rez_cost": 9}}},
    )
    s = corp_action(off, doc)
    assert not any(i.startswith("ability:") for i in decision_ids(s))


def test_a_click_ability_with_a_trash_cost_trashes_the_card(doc):
    b = engine_board(
        turn="corp", corp={"credits": 0, "allotted_clicks": 3}, servers={"remote1": {"content": LAB}}
    )
    s = corp_action(b, doc)
    s, ev = engine.apply(s, "ability:remote1.content.1")
    assert s.board["runner"]["tags"] == 1
    assert s.board["corp"]["clicks"] == 1
    assert "remote1" not in s.board["servers"] or s.board["servers"]["remote1"]["content"] is None
    assert s.board["corp"]["discard"][-1]["name"] == "Launch Campaign Lab"
    assert s.board["corp"]["discard"][-1]["faceup"] is True


def test_click_abilities_are_not_paid_ability_window_options(doc):
    # in a run (the Runner's turn) a [click] ability is never offered (9.2.7b: actions only in
    # the action window); a paid ability on the same card is
    both = {**LAB, "abilities": [*LAB["abilities"], BANK["abilities"][0]]}
    wall = {"name": "Wall", "rezzed": True, "subroutines": []}
    b = engine_board(
        corp={"credits": 5, "clicks": 3}, servers={"hq": {"ice": [wall]}, "remote1": {"content": both}}
    )
    s = engine.start(b, "run", doc, {"server": "hq"})
    seen = set()
    while not s.finished:
        ids = decision_ids(s)
        seen.update(ids)
        s, _ = engine.apply(s, next(i for i in ("pass", "continue", "no_trash", "access:hq") if i in ids))
    assert "ability:remote1.content.2" in seen
    assert "ability:remote1.content.0" not in seen and "ability:remote1.content.1" not in seen


def test_click_abilities_validate():
    ok = engine_board(servers={"remote1": {"content": LAB}})
    assert engine.validate_board(ok) == []
    zero = {**LAB, "abilities": [{"kind": "click", "clicks": 0, "effects": ["end_the_run"]}]}
    assert any(
        "clicks" in p for p in engine.validate_board(engine_board(servers={"remote1": {"content": zero}}))
    )
    noeff = {**LAB, "abilities": [{"kind": "click"}]}
    assert any(
        "effects" in p for p in engine.validate_board(engine_board(servers={"remote1": {"content": noeff}}))
    )


def test_refused_click_abilities_say_why(doc):
    b = engine_board(
        turn="corp",
        corp={"credits": 0, "allotted_clicks": 1},
        servers={
            "remote1": {"content": LAB},
            "remote2": {"content": {**LAB, "name": "Off Lab", "rezzed": False, "rez_cost": 9}},
        },
    )
    s = corp_action(b, doc)
    why = {r.id: r.to_dict() for r in engine.refused_decisions(s)}
    assert "[click][click]" in why["ability:remote1.content.1"]["reason"]
    assert "1 credits" in why["ability:remote1.content.0"]["reason"]
    assert "unrezzed" in why["ability:remote2.content.0"]["reason"]
    assert why["ability:remote2.content.0"]["rule"] == "rule_corp_become_active"
    with pytest.raises(engine.IllegalDecision, match="costs \\[click\\]\\[click\\]"):
        engine.apply(s, "ability:remote1.content.1")


def test_a_corp_abilitys_damage_can_be_prevented_and_each_instruction_has_its_window(doc):
    """9.5.7d: an interrupt window opens for each imminent instruction of a paid ability (9.5.7g
    returns to (d)); the Runner may prevent the net damage of a Corp card's ability there."""
    two = {
        **BOMB,
        "abilities": [
            {
                "kind": "paid",
                "trash": True,
                "effects": [{"effect": "gain_credits", "amount": 1}, {"effect": "net_damage", "amount": 2}],
            }
        ],
    }
    shield = {"name": "Shield", "abilities": [{"kind": "prevent", "damage": "net", "amount": 1}]}
    wall = {"name": "Wall", "rezzed": True, "subroutines": []}
    b = engine_board(
        runner={"hand": 5, "rig": {"hardware": [shield]}}, servers={"hq": {"ice": [wall], "root": [two]}}
    )
    s = engine.start(b, "run", doc, {"server": "hq"})
    while "ability:hq.root.bomb-grid.0" not in decision_ids(s):
        s, _ = engine.apply(s, "pass" if "pass" in decision_ids(s) else decision_ids(s)[0])
    s, ev = engine.apply(s, "ability:hq.root.bomb-grid.0")
    assert sum(e.step == "step_paid_ability_interrupt_window" for e in ev) == 1  # the gain's window
    assert "prevent:hardware.shield.0" in decision_ids(s)
    assert s.current_step == "step_paid_ability_interrupt_window"
    s, ev = engine.apply(s, "prevent:hardware.shield.0")
    while s.current_step == "step_paid_ability_interrupt_window":
        s, ev2 = engine.apply(s, "pass")
        ev += ev2
    assert len(s.board["runner"]["hand"]) == 4  # 2 net damage, 1 prevented
    assert s.board["corp"]["credits"] == 6
