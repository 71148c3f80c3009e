"""Issue 32's rules bug: the ice-level `break_cost` shortcut (`break:i`) was offered to a Runner
with no icebreaker at all. Board format version 2 offers it only on ice that names a `break_cost`;
boards, session tokens and shared links written in version 1 still load and behave as before
(the implicit shortcut stays theirs), and `upgrade_board` rewrites a version 1 board as version 2
only when the meaning is kept exactly.

CR: a subroutine is broken by a card ability (an icebreaker's interface, 3.9.5 / 6.9.3b); a
Runner without one cannot break it, and the unbroken "End the run." resolves (6.9.3d)."""

from __future__ import annotations

import pytest
from helpers import CORRODER, load_doc

import engine
from engine.board import FORMAT_VERSION, upgrade_board
from webapp.tokens import decoder, encoder


def ice_wall(**extra) -> dict:
    # Ice Wall's printed subroutine: "[subroutine] End the run." (no break cost printed: a card
    # picked by name comes without one)
    return {
        "name": "Ice Wall",
        "rezzed": True,
        "rez_cost": 1,
        "strength": 1,
        "subtypes": ["barrier"],
        "subroutines": ["end_the_run"],
        **extra,
    }


def board(version: int, ice: dict, programs=(), **runner) -> dict:
    return {
        "version": version,
        "corp": {"credits": 5, "hand": 3, "deck": 10},
        "runner": {"credits": 6, "hand": 5, "rig": {"programs": list(programs)}, **runner},
        "servers": {"hq": {"ice": [ice]}},
    }


@pytest.fixture(scope="module")
def doc():
    return load_doc("26.03")


def to_encounter(b: dict, doc) -> engine.Session:
    s = engine.start(b, "run", doc, {"server": "hq"})
    while s.current_step != "step_encounter_paw":
        assert not s.finished, s.current_step
        engine.push(s, engine.legal_decisions(s)[0]["id"])
    return s


def ids(s) -> list[str]:
    return [d["id"] for d in engine.legal_decisions(s)]


def test_the_current_format_is_version_2():
    assert FORMAT_VERSION == 2
    assert engine.validate_board({"version": 2}) == []
    assert engine.validate_board({"version": 1}) == []
    (problem,) = engine.validate_board({"version": 3})
    assert problem.startswith("version: unsupported board format version 3")


def test_v2_no_icebreaker_no_shortcut_and_the_run_ends(doc):
    # nothing to decide in the encounter: the Runner cannot break, the unbroken subroutine
    # resolves (6.9.3d) and the run ends
    s = engine.start(board(2, ice_wall()), "run", doc, {"server": "hq"})
    assert s.finished and s.outcome.run == "unsuccessful"
    assert not any(d.startswith("break:") for d in s.decisions)
    # the same board in version 1: the shortcut is offered, breaking it the run goes on
    s1 = to_encounter(board(1, ice_wall()), doc)
    assert "break:0" in ids(s1)


def test_v2_refusal_and_offer_read_one_evaluation(doc):
    # with Corroder installed the encounter stops for its break ability; the shortcut is not
    # offered and the refusal says why (engine.rig.break_shortcut, read by both)
    s = to_encounter(board(2, ice_wall(), [CORRODER]), doc)
    assert "use:corroder.0" in ids(s) and not any(i.startswith("break:") for i in ids(s))
    why = {r.id: r.reason for r in engine.refused_decisions(s)}
    assert "names no break_cost" in why["break:0"]
    with pytest.raises(engine.IllegalDecision, match="names no break_cost"):
        engine.apply(s, "break:0")


def test_v2_ice_naming_a_break_cost_keeps_the_shortcut(doc):
    s = to_encounter(board(2, ice_wall(break_cost=2)), doc)
    assert "break:0" in ids(s)
    engine.push(s, "break:0")
    assert s.board["runner"]["credits"] == 4


def test_v1_board_keeps_the_implicit_shortcut(doc):
    s = to_encounter(board(1, ice_wall()), doc)
    assert "break:0" in ids(s)
    assert s.board["version"] == 1  # the normalised board remembers which rule it follows
    engine.push(s, "break:0")
    assert s.board["runner"]["credits"] == 5  # version 1's default: 1 credit


def test_v1_board_with_an_icebreaker_as_before(doc):
    # version 1 already withheld the implicit shortcut from a Runner with icebreaker abilities
    s = to_encounter(board(1, ice_wall(), [CORRODER]), doc)
    assert not any(i.startswith("break:") for i in ids(s))
    assert "use:corroder.0" in ids(s)


def test_v1_session_token_replays_unchanged(doc):
    s = to_encounter(board(1, ice_wall()), doc)
    engine.push(s, "break:0")
    key = "k" * 32
    token = encoder(key)(s.spec())  # the signed token a shared link carries
    spec = decoder(key)(token)
    assert spec.board["version"] == 1 and spec.decisions == s.decisions
    back = engine.Session.from_json(spec.to_json(), doc)
    assert back.decisions == s.decisions and back.board == s.board
    assert back.board["runner"]["credits"] == 5


def _walk_first(b: dict, doc) -> list[tuple[str | None, list[str]]]:
    s = engine.start(b, "run", doc, {"server": "hq"})
    seen = []
    while not s.finished:
        offered = ids(s)
        seen.append((s.current_step, offered))
        engine.push(s, offered[0])
    return seen


def test_upgrade_board_keeps_the_meaning(doc):
    old = board(1, ice_wall())
    new = upgrade_board(old)
    assert new["version"] == 2 and new["servers"]["hq"]["ice"][0]["break_cost"] == 1
    assert old["version"] == 1 and "break_cost" not in old["servers"]["hq"]["ice"][0]  # not changed
    assert engine.validate_board(new) == []
    assert _walk_first(new, doc) == _walk_first(old, doc)
    # a Runner with an icebreaker somewhere (here in the grip) could install it mid-session and so
    # change what version 1 offers: such a board stays version 1, read as it is
    grip = board(1, ice_wall(), hand=[CORRODER])
    assert upgrade_board(grip) == grip
    # every piece of ice already names its break cost: only the version changes
    named = board(1, ice_wall(break_cost=3), [CORRODER])
    assert upgrade_board(named) == {**named, "version": 2}
