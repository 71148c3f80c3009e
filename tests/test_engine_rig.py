"""The Runner's rig: icebreakers with strength and subtypes (CR 3.9.5), pumping for the encounter,
AI breakers, "break up to N", and the new subroutine effects (unless the Runner pays, if tagged,
trash a program, text resolved by hand). Each scenario is set up from the CR text."""

from __future__ import annotations

import pytest
from helpers import CORRODER, load_doc

import engine

GORDIAN = {
    "name": "Gordian Blade",
    "type": "program",
    "memory_cost": 1,
    "strength": 2,
    "subtypes": ["icebreaker", "decoder"],
    "abilities": [{"kind": "break", "cost": 1, "count": 1, "ice_subtype": "code gate"}],
}
CRYPSIS = {
    "name": "Crypsis",
    "type": "program",
    "memory_cost": 1,
    "strength": 0,
    "subtypes": ["icebreaker", "ai"],
    "abilities": [
        {"kind": "break", "cost": 1, "count": 1},
        {"kind": "strength", "cost": 1, "amount": 1},
    ],
}
UP_TO_2 = {
    "name": "Two-Breaker",
    "type": "program",
    "memory_cost": 2,
    "strength": 5,
    "subtypes": ["icebreaker", "killer"],
    "abilities": [{"kind": "break", "cost": 2, "count": 2, "up_to": True, "ice_subtype": "sentry"}],
}


def wall(strength: int = 3, subs=("end_the_run",)) -> dict:
    return {
        "name": "Wall",
        "rezzed": True,
        "rez_cost": 5,
        "strength": strength,
        "subtypes": ["Barrier"],
        "subroutines": list(subs),
    }


def board(ice: list[dict], programs: list[dict], credits: int = 10, **runner) -> dict:
    return {
        "version": 1,
        "corp": {"credits": 5, "hand": 3, "deck": 10},
        "runner": {"credits": credits, "hand": 5, "rig": {"programs": programs}, **runner},
        "servers": {"hq": {"ice": ice}},
    }


def ids(s) -> list[str]:
    return [d["id"] for d in engine.legal_decisions(s)]


@pytest.fixture(params=["24.03", "26.03"])
def doc(request):
    return load_doc(request.param)


def test_breaker_too_weak_pumps_then_breaks(doc):
    s = engine.start(board([wall(3)], [CORRODER]), "run", doc, {"server": "hq"})
    assert s.current_step == "step_encounter_paw"
    # 3.9.5g: strength 2 < 3, so the break ability is not offered; the pump is
    assert "use:corroder.0" not in ids(s) and "use:corroder.1" in ids(s)
    # no generic break_cost shortcut once the Runner has icebreakers and the ice names none
    assert not any(i.startswith("break:") for i in ids(s))
    with pytest.raises(engine.IllegalDecision, match="below Wall's strength 3"):
        engine.apply(s, "use:corroder.0")
    s, ev = engine.apply(s, "use:corroder.1")
    assert s.board["runner"]["rig"]["programs"][0]["boost"] == 1
    assert any("rule_icebreaker_strength_increase_implicit" in e.rules for e in ev)
    assert "use:corroder.0" in ids(s)
    s, ev = engine.apply(s, "use:corroder.0")
    brk = [e for e in ev if "rule_break_subroutine" in e.rules and e.changes]
    assert brk and brk[-1].objects["subroutines"] == [0] and brk[-1].objects["card"] == "Corroder"
    assert any("rule_fully_break" in e.rules for e in ev)
    assert s.board["runner"]["credits"] == 8
    s, _ = engine.apply(s, "continue")
    assert s.finished and s.outcome.run == "successful"
    # the pump lasted the encounter only (3.9.5b)
    assert "boost" not in s.board["runner"]["rig"]["programs"][0]


def test_wrong_subtype_cannot_break(doc):
    gate = {**wall(1), "name": "Enigma", "subtypes": ["code gate"]}
    s = engine.start(board([gate], [CORRODER]), "run", doc, {"server": "hq"})
    assert "use:corroder.0" not in ids(s)
    with pytest.raises(engine.IllegalDecision, match="not a barrier"):
        engine.apply(s, "use:0.0")  # an older, positional id: refused for the same reason
    s, _ = engine.apply(s, "pass")
    assert s.outcome.runs[0].ended_by == "end_the_run"


def test_ai_breaker_breaks_any_subtype(doc):
    gate = {**wall(1), "name": "Enigma", "subtypes": ["code gate"]}
    s = engine.start(board([gate], [GORDIAN, CRYPSIS]), "run", doc, {"server": "hq"})
    # Gordian (strength 2, decoder) and Crypsis after one pump (AI) can both break the code gate
    assert "use:gordian-blade.0" in ids(s) and "use:crypsis.0" not in ids(s)
    s, _ = engine.apply(s, "use:crypsis.1")
    assert "use:crypsis.0" in ids(s)
    s, _ = engine.apply(s, "use:crypsis.0")
    assert s.board["runner"]["credits"] == 8
    s, _ = engine.apply(s, "continue")
    assert s.outcome.run == "successful"


def test_break_up_to_two_chooses_targets(doc):
    sentry = {
        "name": "Sentry",
        "rezzed": True,
        "strength": 4,
        "subtypes": ["sentry"],
        "rez_cost": 3,
        "subroutines": [
            {"effect": "net_damage", "amount": 1},
            {"effect": "give_tags", "amount": 1},
            "end_the_run",
        ],
    }
    s = engine.start(board([sentry], [UP_TO_2]), "run", doc, {"server": "hq"})
    s, _ = engine.apply(s, "use:two-breaker.0")
    assert ids(s) == ["sub:0", "sub:1", "sub:2"]  # 9.8.6: only unbroken subroutines are targets
    s, _ = engine.apply(s, "sub:2")
    assert ids(s) == ["sub:0", "sub:1", "done"]  # "up to": may stop after one
    s, ev = engine.apply(s, "done")
    assert [e.objects.get("subroutines") for e in ev if e.changes and "rule_break_subroutine" in e.rules] == [
        [2]
    ]
    s, _ = engine.apply(s, "use:two-breaker.0")
    s, _ = engine.apply(s, "sub:0")
    s, ev = engine.apply(s, "sub:1")  # second target: the ability's count is reached
    assert any("rule_fully_break" in e.rules for e in ev)
    assert s.board["runner"]["credits"] == 6
    s, _ = engine.apply(s, "continue")
    assert s.outcome.run == "successful" and s.board["runner"]["tags"] == 0


def test_unless_the_runner_pays(doc):
    sub = {"effect": "unless_pays", "amount": 3, "effects": ["end_the_run"]}
    ice = wall(0, [sub])
    s = engine.start(board([ice], []), "run", doc, {"server": "hq"})
    s, _ = engine.apply(s, "pass")
    assert ids(s) == ["pay", "dont_pay"]
    paid, _ = engine.apply(s, "pay")
    assert paid.board["runner"]["credits"] == 7
    paid, _ = engine.apply(paid, "continue")
    assert paid.outcome.run == "successful"
    refused, _ = engine.apply(s, "dont_pay")
    assert refused.finished and refused.outcome.runs[0].ended_by == "end_the_run"
    # a Runner who cannot pay gets no choice: the run ends
    poor = engine.start(board([ice], [], credits=2), "run", doc, {"server": "hq"})
    poor, _ = engine.apply(poor, "pass")
    assert poor.finished and poor.outcome.runs[0].ended_by == "end_the_run"


@pytest.mark.parametrize("tags,ended", [(0, False), (1, True)])
def test_end_the_run_if_tagged(doc, tags, ended):
    ice = wall(0, [{"effect": "if_tagged", "effects": ["end_the_run"]}])
    s = engine.start(board([ice], [], tags=tags), "run", doc, {"server": "hq"})
    s, ev = engine.apply(s, "pass")
    cond = [e for e in ev if "rule_tagged" in e.rules]
    assert cond and cond[0].applied is ended
    assert (
        (s.outcome.runs[0].ended_by == "end_the_run") if ended else s.current_step == "step_jack_out_choice"
    )


def test_trash_program_corp_chooses(doc):
    ice = wall(9, [{"effect": "trash_program", "amount": 1}])
    s = engine.start(board([ice], [CORRODER, GORDIAN]), "run", doc, {"server": "hq"})
    s, _ = engine.apply(s, "pass")
    assert ids(s) == ["trash:corroder", "trash:gordian-blade"]
    assert engine.legal_decisions(s)[0]["player"] == "corp"
    s, _ = engine.apply(s, "trash:gordian-blade")
    assert [c["name"] for c in s.board["runner"]["rig"]["programs"]] == ["Corroder"]
    assert s.board["runner"]["discard"][-1]["name"] == "Gordian Blade"
    assert s.outcome.trashed_programs == ["Gordian Blade"]


def test_text_subroutine_is_resolved_as_written(doc):
    ice = wall(0, [{"effect": "text", "text": "The Runner loses [click] for each hosted card."}])
    s = engine.start(board([ice], []), "run", doc, {"server": "hq"})
    s, _ = engine.apply(s, "pass")
    assert ids(s) == ["resolved"]
    before = s.board
    s, ev = engine.apply(s, "resolved")
    hand = [e for e in ev if e.objects.get("text")]
    assert hand and hand[0].applied is False and s.board["runner"] == before["runner"]


def test_rig_board_validation():
    def problems(runner: dict) -> list[str]:
        return engine.validate_board({"version": 1, "runner": runner})

    big = {**CORRODER, "memory_cost": 3}
    assert any("memory limit is 4" in p for p in problems({"rig": {"programs": [big, big]}}))
    assert problems({"rig": {"programs": [big, big]}, "memory_limit": 6}) == []
    assert (
        problems(
            {"identity": {"name": "Kate", "memory_limit": 6, "base_link": 1}, "rig": {"programs": [big, big]}}
        )
        == []
    )
    brk = {"kind": "break", "cost": 1, "count": 1}
    assert any(
        "only programs have break abilities" in p
        for p in problems({"rig": {"hardware": [{"name": "Box", "strength": 1, "abilities": [brk]}]}})
    )
    # hardware and resources may carry text and prevent abilities (interrupts, 9.9)
    text = {"kind": "text", "text": "x"}
    assert problems({"rig": {"hardware": [{"name": "Box", "abilities": [text]}]}}) == []
    bad = {"kind": "prevent", "damage": "brain", "amount": 0}
    found = problems({"rig": {"resources": [{"name": "R", "abilities": [bad]}]}})
    assert any("damage: must be one of net, meat, core, any" in p for p in found)
    assert any("amount: must be at least 1" in p for p in found)
    nostr = {k: v for k, v in CORRODER.items() if k != "strength"}
    assert any("needs the program's strength" in p for p in problems({"rig": {"programs": [nostr]}}))
    assert any(
        "rig.programs[0].type" in p
        for p in problems({"rig": {"programs": [{"name": "X", "type": "hardware"}]}})
    )
    b = engine.normalise_board({"version": 1, "runner": {"identity": {"name": "Kate", "base_link": 1}}})
    assert b["runner"]["link"] == 1 and b["runner"]["memory_limit"] == 4
    assert engine.validate_board(b) == []
