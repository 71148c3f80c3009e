"""Run events (issue 32): "Run R&D. If successful, draw 5 cards." Playing the event (8.6) resolves
its play ability, which initiates a run on the named server (a nested run: the event stays in the
play area until the run is complete, the Jailbreak ruling); its "If successful" ability is a
conditional ability whose trigger condition is "after the run created this way becomes
successful" (6.7.4), pending with the other abilities meeting that condition; "instead of
breaching" replaces the breach (6.7.4b); "access N additional cards when you breach" adds to the
breach (7.3.5b). Real events by name (engine.cardtext), and the board vocabulary ("run")."""

from __future__ import annotations

import pytest
from helpers import by_title_fixtures

import engine
from engine.cardtext import MODELED, run_event

card, units, doc = by_title_fixtures()


def ids(s) -> list[str]:
    return [d["id"] for d in engine.legal_decisions(s)]


def runner_turn(doc, event: dict, servers: dict | None = None, **runner):
    b = {
        "version": 2,
        "turn": "runner",
        "corp": {"credits": 5, "hand": 3, "deck": 10},
        "runner": {"credits": 10, "clicks": 0, "hand": [event], "deck": 10, **runner},
        "servers": servers or {},
    }
    s = engine.start(b, "runner_turn", doc)
    for _ in range(30):
        if s.current_step == "step_runner_turn_action":
            return s
        legal = ids(s)
        engine.push(s, next((x for x in ("pass", "continue") if x in legal), legal[0]))
    raise AssertionError(s.current_step)


def walk_run(s, prefer=("no_trash", "decline_steal", "continue", "pass")):
    """Step until the run the event initiated is complete (back in the play ability / the turn)."""
    for _ in range(200):
        if not any(f.s == "run" for f in s.frames):
            return s
        legal = ids(s)
        engine.push(s, next((x for x in prefer if x in legal), legal[0]))
    raise AssertionError("the run did not end")


def test_joy_ride_translation(card, units):
    jr = card("Joy Ride")
    assert jr["effects"] == [
        {"effect": "run", "server": "rd", "if_successful": [{"effect": "draw_cards", "amount": 5}]}
    ]
    assert [u.status for u in units("Joy Ride")] == [MODELED]


def test_joy_ride_successful_run_draws_five(card, doc):
    s = runner_turn(doc, card("Joy Ride"))
    engine.push(s, "play:joy-ride")
    assert any(f.s == "run" for f in s.frames)
    assert s.board["runner"]["set_aside"][0]["name"] == "Joy Ride"  # in the play area during the run
    walk_run(s)
    r = s.board["runner"]
    assert len(r["hand"]) == 5  # the event left the grip, then 5 drawn
    assert len(r["deck"]) == 5
    assert [c["name"] for c in r["discard"]] == ["Joy Ride"]  # trashed once the run is complete
    rules = {rid for e in s.trace for rid in e.rules}
    assert "rule_if_successful" in rules


def test_joy_ride_unsuccessful_run_draws_nothing(card, doc):
    # an Ice Wall nobody can break (no break_cost in version 2, no icebreaker): the run ends at
    # the ice, unsuccessful; the "If successful" ability never becomes pending
    wall = {"name": "Ice Wall", "rezzed": True, "strength": 1, "subroutines": ["end_the_run"]}
    s = runner_turn(doc, card("Joy Ride"), servers={"rd": {"ice": [wall]}})
    engine.push(s, "play:joy-ride")
    walk_run(s)
    assert s.board["runner"]["hand"] == [] and len(s.board["runner"]["deck"]) == 10


def test_clean_getaway_any_server_chosen_when_played(card, doc):
    cg = card("Clean Getaway")
    assert cg["effects"][0]["server"] == "any"
    s = runner_turn(doc, cg)
    engine.push(s, "play:clean-getaway")
    assert {"run:hq", "run:rd", "run:archives"} <= set(ids(s))
    credits = s.board["runner"]["credits"]
    engine.push(s, "run:archives")
    assert next(f for f in s.frames if f.s == "run").v["server"] == "archives"
    walk_run(s)
    assert s.board["runner"]["credits"] == credits + 6


def test_if_successful_is_ordered_with_other_successful_run_abilities(doc):
    # 6.7.4 / 9.2.8d: pending together with a resource's "whenever you make a successful run";
    # the Runner chooses the order (trigger:play_area.CARD.0 names the event's ability)
    ev = {
        "name": "Test Run",
        "type": "event",
        "effects": [
            {"effect": "run", "server": "hq", "if_successful": [{"effect": "gain_credits", "amount": 3}]}
        ],
    }
    res = {
        "name": "Watcher",
        "triggers": [{"when": "successful_run", "effects": [{"effect": "gain_credits", "amount": 1}]}],
    }
    s = runner_turn(doc, ev, rig={"resources": [res]})
    engine.push(s, "play:test-run")
    for _ in range(60):
        if "trigger:play_area.test-run.0" in ids(s):
            break
        legal = ids(s)
        engine.push(s, next((x for x in ("continue", "pass") if x in legal), legal[0]))
    assert {"trigger:play_area.test-run.0", "trigger:resources.watcher.0"} <= set(ids(s))
    credits = s.board["runner"]["credits"]
    engine.push(s, "trigger:play_area.test-run.0")
    walk_run(s)
    assert s.board["runner"]["credits"] == credits + 4


def test_instead_of_breaching_replaces_the_breach(doc):
    ev = {
        "name": "Swap",
        "type": "event",
        "effects": [
            {
                "effect": "run",
                "server": "hq",
                "instead_of_breach": True,
                "if_successful": [{"effect": "gain_credits", "amount": 2}],
            }
        ],
    }
    s = runner_turn(doc, ev)
    engine.push(s, "play:swap")
    walk_run(s)
    assert not any(e.text.startswith("The Runner breaches") for e in s.trace)
    assert any("rule_if_successful_lingering_effect" in e.rules for e in s.trace)
    assert s.board["runner"]["credits"] == 12


def test_additional_access_when_breaching(doc):
    ev = {
        "name": "Deep Dig",
        "type": "event",
        "effects": [{"effect": "run", "server": "rd", "additional_access": 2}],
    }
    s = runner_turn(doc, ev)
    engine.push(s, "play:deep-dig")
    walk_run(s)
    accessed = [e.text for e in s.trace if e.text.startswith("The Runner accesses R&D card")]
    assert "The random access limit is 3 (1 by default, +2 from the run)." in [e.text for e in s.trace]
    assert len(accessed) == 3  # 1 + 2 additional (7.3.5b)


@pytest.mark.parametrize(
    "text",
    [
        "Run HQ. If successful, instead of breaching R&D, gain 2[credit].",  # another server
        "Run Archives. If successful, access 2 additional cards when you breach the attacked server.",
        "Run HQ. If successful, take 1 tag.",  # not an effect of the Runner's vocabulary
        "Run a central server.",
    ],
)
def test_run_event_translation_refuses_what_it_cannot_do_exactly(text):
    assert run_event(text) is None


def test_run_effect_validation():
    bad = {
        "version": 2,
        "corp": {
            "hand": [{"name": "Op", "type": "operation", "effects": [{"effect": "run", "server": "hq"}]}]
        },
        "runner": {
            "hand": [{"name": "Ev", "type": "event", "effects": [{"effect": "run", "server": "moon"}]}]
        },
    }
    text = "\n".join(engine.validate_board(bad))
    assert "corp.hand[0].effects[0].effect: 'run' can only be used on Runner cards" in text
    assert "runner.hand[0].effects[0].server: must be one of hq, rd, archives, any" in text
    (p,) = engine.validate_board(
        {"version": 2, "runner": {"hand": [{"name": "E", "type": "event", "effects": ["run"]}]}}
    )
    assert p == "runner.hand[0].effects[0].server: is required: one of hq, rd, archives, any"
