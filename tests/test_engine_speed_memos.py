"""The engine's memos for speed (issue 10) keep what the engine does: a started session reused
for the same inputs, quiet checkpoints reused by what their handlers read, and an encounter's
ability options reused per program. Each test sets up the case where a stale memo would give a
wrong answer."""

from __future__ import annotations

import copy

import pytest
from helpers import CORRODER, LATEST, load_doc

import engine
from engine.structures import tables


def _wall(subs: int) -> dict:
    return {
        "name": "Wall",
        "rezzed": True,
        "rez_cost": 5,
        "strength": 3,
        "subtypes": ["barrier"],
        "subroutines": ["end_the_run"] * subs,
    }


def _board(credits: int = 10, score_area: list | None = None, subs: int = 1) -> dict:
    runner = {"credits": credits, "hand": 5, "rig": {"programs": [copy.deepcopy(CORRODER)]}}
    if score_area is not None:
        runner["score_area"] = score_area
    return {
        "version": 1,
        "turn": "runner",
        "corp": {
            "credits": 5,
            "hand": 3,
            "deck": [{"name": "Hostile Takeover", "type": "agenda", "agenda_points": 2}, "Hedge Fund"],
        },
        "runner": runner,
        "servers": {"rd": {"ice": [_wall(subs)]}},
    }


def _ids(s: engine.Session) -> list[str]:
    return [d["id"] for d in engine.legal_decisions(s)]


def _state(s: engine.Session) -> tuple:
    return (
        [e.to_dict() for e in s.trace],
        engine.legal_decisions(s),
        copy.deepcopy(s.board),
        [(f.s, f.at, copy.deepcopy(f.v)) for f in s.frames],
    )


def test_a_second_start_is_the_same_session_and_independent_of_the_first():
    doc = load_doc(LATEST)
    b = _board()
    first = engine.start(b, "run", doc, {"server": "rd"})
    before = _state(first)
    # stepping and even tampering with the first session leaves the next start untouched
    engine.push(first, "use:corroder.1")
    first.board["runner"]["credits"] = -99
    first.frames[-1].v["tampered"] = True
    second = engine.start(b, "run", doc, {"server": "rd"})
    assert _state(second) == before
    assert second.board is not first.board
    assert second.initial == b


def test_a_start_on_other_inputs_is_not_the_memoised_one():
    doc = load_doc(LATEST)
    rich = engine.start(_board(credits=10), "run", doc, {"server": "rd"})
    poor = engine.start(_board(credits=0), "run", doc, {"server": "rd"})
    assert rich.board["runner"]["credits"] == 10 and poor.board["runner"]["credits"] == 0
    assert any(i.startswith("use:") for i in _ids(rich))
    assert not any(i.startswith("use:") for i in _ids(poor))
    other_seed = engine.start(_board(), "run", doc, {"server": "rd"}, seed=7)
    assert other_seed.seed == 7 and other_seed.to_json() != rich.to_json()


@pytest.mark.parametrize("params", [{"server": "remote9"}, {"server": "rd", "additional_access": -1}])
def test_bad_inputs_still_raise_after_good_starts(params):
    doc = load_doc(LATEST)
    engine.start(_board(), "run", doc, {"server": "rd"})
    with pytest.raises(engine.BoardError, match="params"):
        engine.start(_board(), "run", doc, params)
    with pytest.raises(engine.BoardError, match="params"):  # a failed start is not memoised
        engine.start(_board(), "run", doc, params)


def _run_through(s: engine.Session) -> engine.Session:
    """Pump, break and continue through the wall, then steal what is accessed."""
    while not s.finished:
        ids = _ids(s)
        pick = next((i for i in ids if i in ("use:corroder.0", "steal")), None)
        if pick is None:
            pick = (
                "use:corroder.1" if "use:corroder.1" in ids else ("continue" if "continue" in ids else ids[0])
            )
        engine.push(s, pick)
    return s


def test_a_checkpoint_that_sees_new_scores_is_walked_and_ends_the_game():
    doc = load_doc(LATEST)
    # many quiet checkpoints at 0 points (memoised), then the steal brings the Runner to 2
    quiet = _run_through(engine.start(_board(), "run", doc, {"server": "rd"}))
    assert quiet.outcome.winner is None and quiet.outcome.stolen == ["Hostile Takeover"]
    assert tables(doc).checkpoints, "quiet checkpoints are memoised"
    # the same run from 5 points: the steal brings the Runner to 7 and the checkpoint ends the game
    five = [{"name": "Old Agenda", "type": "agenda", "agenda_points": 5}]
    won = _run_through(engine.start(_board(score_area=five), "run", doc, {"server": "rd"}))
    assert won.outcome.winner == "runner"
    assert any("7 agenda points" in e.text for e in won.trace)


@pytest.mark.parametrize("version", ["22.12", LATEST])
def test_every_checkpoint_handler_declares_what_it_reads(version):
    assert tables(load_doc(version)).checkpoint_inputs  # else every checkpoint is walked


def test_options_follow_credits_strength_and_broken_subroutines_within_an_encounter():
    doc = load_doc(LATEST)
    # 2 credits against two subroutines: pump (2 -> 3 strength), break one, and none is left
    s = engine.start(_board(credits=2, subs=2), "run", doc, {"server": "rd"})
    assert _ids(s) == ["use:corroder.1", "pass"]  # too weak to break: only the pump
    engine.push(s, "use:corroder.1")
    assert _ids(s)[:2] == ["use:corroder.0", "use:corroder.1"]  # strong enough now
    assert "(strength 3)" in engine.legal_decisions(s)[0]["label"]
    engine.push(s, "use:corroder.0")
    engine.push(s, "sub:0")
    # same strength, a subroutine still unbroken, but no credit left: no ability is offered, so
    # the window closes at once and the unbroken "end the run" resolves
    assert _ids(s) == [] and s.outcome.run == "unsuccessful"
    rich = engine.start(_board(credits=10), "run", doc, {"server": "rd"})
    engine.push(rich, "use:corroder.1")
    engine.push(rich, "use:corroder.0")
    # every subroutine broken: nothing is left to use an icebreaker on
    assert not any(i.startswith("use:") for i in _ids(rich)) and "continue" in _ids(rich)


def test_a_shared_event_is_not_tagged_with_another_sessions_subroutine():
    """Plain events are values shared by every session on a document; the subroutine an event
    resolved in (server, ice, subroutine objects) is added to a copy, never to the shared one."""
    doc = load_doc(LATEST)
    guard = {
        "name": "Guard",
        "rezzed": True,
        "rez_cost": 1,
        "strength": 1,
        "subtypes": ["sentry"],
        "subroutines": [{"effect": "trash_program"}],
    }
    b = _board()
    b["runner"]["rig"] = {"programs": []}
    b["servers"] = {"rd": {"ice": [copy.deepcopy(guard)]}, "hq": {"ice": [copy.deepcopy(guard)]}}
    seen = {}
    for server in ("rd", "hq"):
        s = engine.start(b, "run", doc, {"server": server})
        while not s.finished:  # the Runner breaks nothing: the subroutine resolves
            ids = _ids(s)
            engine.push(s, next((i for i in ("pass", "continue") if i in ids), ids[0]))
        told = [e for e in s.trace if "no installed program to trash" in e.text]
        assert len(told) == 1
        seen[server] = told[0].objects
    assert seen["rd"]["server"] == "rd" and seen["hq"]["server"] == "hq"
    assert not any(e.objects for e in tables(doc).events.values())


def test_the_per_document_memos_are_bounded_in_bytes_not_only_in_entries():
    """Boards of 40 KB of card names (the API takes 256 KB) started 100 times on one document:
    the started-session and prepared-board memos hold at most their byte bounds by their own
    counters, and those counters equal what they hold (issue 16 item 8). With entry bounds
    alone, 128 such boards would hold about 25 MB per CR version."""
    from engine.structures import MEMO_BOUNDS

    doc = load_doc(LATEST)
    t = tables(doc)
    for i in range(100):
        b = _board()
        for zone in ("hand", "discard"):
            b["corp"][zone] = [f"Card {i}.{zone}.{k} " + "x" * 80 for k in range(200)]
        s = engine.start(b, "run", doc, {"server": "rd"})
        assert _ids(s)
    for name in ("started", "prepared", "events", "checkpoints"):
        memo = getattr(t, name)
        entries, max_bytes = MEMO_BOUNDS[name]
        assert len(memo) <= entries and memo.weight <= max_bytes, name
        assert memo.weight == memo.held(), name
    # the big boards did fill the started memo up to its byte bound: older starts left
    assert t.started.weight > MEMO_BOUNDS["started"][1] // 2
    assert len(t.started) < 100
