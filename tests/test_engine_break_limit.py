"""Ice that limits how many of its subroutines are broken, on real cards picked by name
(`engine.cardtext.board_card`, what `/api/cards/<card>/board` answers): Hammer ("the Runner
cannot break more than 1 of its printed subroutines except using killers"), Afshar (while it
protects HQ) and Akhet (while it hosts 3 or more advancement counters, with +3 strength). The
card's own text overrides the rules' default that any number may be broken (1.2.1, 6.2.2); the
limit is one evaluation (`engine.rig.break_allowance`) read by the offered decisions, the
break targets and the refusals."""

from __future__ import annotations

import pytest
from helpers import decision_ids, load_doc

import engine

# a hand-made AI icebreaker strong enough for every ice here: any subtype, 1[credit] a subroutine
AI = {
    "name": "Any-Breaker",
    "type": "program",
    "subtypes": ["icebreaker", "ai"],
    "strength": 9,
    "memory_cost": 1,
    "abilities": [{"kind": "break", "cost": 1, "count": 1}, {"kind": "break", "cost": 2, "count": 2}],
}


@pytest.fixture(params=["24.03", "26.03"])
def doc(request):
    return load_doc(request.param)


def run_on(server: str, ice: dict, programs: list[dict], credits: int = 10) -> dict:
    return {
        "version": 2,
        "corp": {"credits": 5, "hand": 3, "deck": 10},
        "runner": {"credits": credits, "clicks": 4, "hand": 5, "rig": {"programs": programs}},
        "servers": {server: {"ice": [ice]}},
    }


def to_encounter(s):
    for _ in range(40):
        if s.current_step == "step_encounter_paw" and any(i.startswith("use:") for i in decision_ids(s)):
            return s
        ids = decision_ids(s)
        assert not s.finished
        s, _ = engine.apply(s, "continue" if "continue" in ids else "pass" if "pass" in ids else ids[0])
    raise AssertionError(f"no encounter window; offered {decision_ids(s)}")


def break_sub(s, use: str, subs: list[int]):
    """Use the break ability `use`, targeting `subs`, back to the encounter's window."""
    s, _ = engine.apply(s, use)
    for _ in range(20):
        ids = decision_ids(s)
        want = [f"sub:{i}" for i in subs if f"sub:{i}" in ids]
        if want:
            s, _ = engine.apply(s, want[0])
            continue
        if s.current_step == "step_encounter_paw" or s.finished or not ids:
            return s  # back in the window (or the ice fully broken and the run walked on)
        s, _ = engine.apply(s, "continue" if "continue" in ids else ids[0])
    raise AssertionError(decision_ids(s))


def refused(s) -> dict[str, str]:
    return {r.id: r.reason for r in engine.refused_decisions(s)}


def broken(s) -> list[bool]:
    return s.frames[[f.v.get("enc") is not None for f in s.frames].index(True)].v["enc"]["broken"]


def test_the_paragraphs_are_modeled(card):
    """Each limit paragraph is one modeled unit, read into `break_limit` (and Akhet's +3 strength
    under the same condition); nothing of it is left by hand."""
    assert card("hammer")["break_limit"] == {"max": 1, "except_subtype": "killer"}
    assert card("afshar")["break_limit"] == {"max": 1, "while": "protecting_hq"}
    akhet = card("akhet")
    assert akhet["break_limit"] == {"max": 1, "while": "advanced_3"}
    assert akhet["strength_mods"] == [{"amount": 3, "while": "advanced_3"}]
    for cid in ("hammer", "afshar", "akhet"):
        units = [u for u in card.units(cid) if "cannot break more than" in u.text]
        assert [u.status for u in units] == ["modeled"], cid


def test_hammer_one_subroutine_then_only_killers(card, doc):
    """Hammer: after one subroutine broken by a non-killer, no non-killer break is offered; it is
    refused with the card's words; a killer (Mimic, pumped by the board to strength 4) still
    breaks the others."""
    mimic = card("mimic", strength=4)
    s = to_encounter(engine.start(run_on("hq", card("hammer"), [AI, mimic]), "run", doc, {"server": "hq"}))
    ai = [i for i in decision_ids(s) if i.startswith("use:") and "mimic" not in i]
    assert len(ai) == 2  # both AI breaks are offered before any subroutine is broken
    s = break_sub(s, ai[0], [0])
    assert broken(s) == [True, False, False]
    offered, why = set(decision_ids(s)), refused(s)
    for use in ai:
        assert use not in offered
        assert "cannot break more than 1 of its printed subroutines" in why[use]
        assert "except using killers" in why[use]
    assert "use:mimic.0" in offered
    s = break_sub(s, "use:mimic.0", [1])
    assert broken(s) == [True, True, False]
    s = break_sub(s, "use:mimic.0", [2])
    assert any("Hammer is fully broken" in e.text for e in s.trace)


def resolved_subs(s) -> list[str]:
    return [e.text for e in s.trace if e.text.startswith("The Corp resolves unbroken subroutine")]


def test_hammer_a_break_two_ability_targets_only_one(card, doc):
    """A "break 2" non-killer ability on a fresh Hammer targets 1 subroutine only (the ice lets it
    break 1); with nothing else to break with, the window closes and the other two resolve."""
    s = to_encounter(engine.start(run_on("hq", card("hammer"), [AI]), "run", doc, {"server": "hq"}))
    two = [i for i in decision_ids(s) if i.startswith("use:") and i.endswith(".1")][0]
    s = break_sub(s, two, [1, 2])
    assert any("breaks subroutine(s) 2 of Hammer" in e.text for e in s.trace)
    assert [t[:44] for t in resolved_subs(s)] == ["The Corp resolves unbroken subroutine 1 of H"] + [
        "The Corp resolves unbroken subroutine 3 of H"
    ]


def test_afshar_limits_only_while_protecting_hq(card, doc):
    """Afshar on HQ: one subroutine broken, then "End the run" resolves; on R&D: both broken (its
    condition does not hold) and the run goes on."""
    for server, most in (("hq", 1), ("rd", 2)):
        s = to_encounter(engine.start(run_on(server, card("afshar"), [AI]), "run", doc, {"server": server}))
        one = [i for i in decision_ids(s) if i.startswith("use:") and i.endswith(".0")][0]
        s = break_sub(s, one, [0])
        if most == 1:
            assert [t[:39] for t in resolved_subs(s)] == ["The Corp resolves unbroken subroutine 2"]
            assert any("run ends" in e.text.lower() for e in s.trace)
        else:
            assert one in decision_ids(s) and one not in refused(s)
            s = break_sub(s, one, [1])
            assert resolved_subs(s) == [] and any("Afshar is fully broken" in e.text for e in s.trace)


@pytest.mark.parametrize("advanced", [2, 3])
def test_akhet_with_three_advancement_counters(card, doc, advanced):
    """Akhet with 3 hosted advancement counters: strength 2 + 3 and one subroutine at most;
    with 2: strength 2 and no limit."""
    akhet = card("akhet", counters={"advancement": advanced})
    assert engine.rig.ice_strength(run_on("hq", akhet, []), "hq", akhet) == (5 if advanced == 3 else 2)
    s = to_encounter(engine.start(run_on("hq", akhet, [AI]), "run", doc, {"server": "hq"}))
    one = [i for i in decision_ids(s) if i.startswith("use:") and i.endswith(".0")][0]
    s = break_sub(s, one, [1])
    # limited: the window closed and "End the run" resolved; unlimited: the break is offered again
    assert (one in decision_ids(s)) == (advanced == 2)
    assert len(resolved_subs(s)) == (1 if advanced == 3 else 0)


def test_the_board_field_is_checked():
    """`break_limit` is validated with its field paths."""
    bad = run_on("hq", {"name": "I", "type": "ice", "rezzed": True, "subroutines": ["end_the_run"]}, [])
    bad["servers"]["hq"]["ice"][0]["break_limit"] = {"max": 0, "while": "moon", "x": 1}
    text = "\n".join(engine.validate_board(bad))
    assert "servers.hq.ice[0].break_limit.max: must be at least 1" in text
    assert "servers.hq.ice[0].break_limit.while: must be one of" in text
    assert "servers.hq.ice[0].break_limit.x" in text
