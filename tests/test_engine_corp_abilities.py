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
