"""A fixed suite of scenarios written from the CR text.

Used by the tests (tests/test_engine_scenarios.py checks their outcomes) and by the coverage
report (`nrrules engine-coverage`), which runs them to collect the step ids they walk.

Each scenario: a board, a structure, params, and `decisions`: ids taken in order ("*" = the first
legal decision); once the list is used up, the first legal decision is taken until the structure
finishes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from scraper import Document

from .errors import EngineError
from .session import Session, apply, legal_decisions, start

MAX_AUTO = 2000


def _board(**kw: Any) -> dict:
    b: dict[str, Any] = {
        "format": "nrrules-board",
        "version": 1,
        "turn": "runner",
        "corp": {"credits": 5, "hand": 3, "deck": 10},
        "runner": {"credits": 5, "clicks": 4, "hand": 5, "deck": 10},
        "servers": {},
    }
    for k, v in kw.items():
        if isinstance(v, dict) and isinstance(b.get(k), dict):
            b[k] = {**b[k], **v}
        else:
            b[k] = v
    return b


ICE_WALL = {"name": "Ice Wall", "rezzed": True, "rez_cost": 1, "subroutines": ["end_the_run"]}
ENIGMA = {
    "name": "Enigma",
    "rezzed": False,
    "rez_cost": 3,
    "subroutines": [{"effect": "lose_clicks", "amount": 1}, "end_the_run"],
}
NEURAL_KATANA = {
    "name": "Neural Katana",
    "rezzed": True,
    "rez_cost": 4,
    "subroutines": [{"effect": "net_damage", "amount": 3}],
}
DATA_RAVEN = {
    "name": "Data Raven",
    "rezzed": True,
    "rez_cost": 4,
    "subroutines": [{"effect": "trace", "strength": 3, "on_success": [{"effect": "give_tags", "amount": 1}]}],
}
BARRIER = {
    "name": "Wall of Static",
    "rezzed": True,
    "rez_cost": 3,
    "break_cost": 2,
    "subroutines": ["end_the_run"],
}
HOSTILE = {"name": "Hostile Takeover", "type": "agenda", "agenda_points": 2, "advancement_requirement": 2}
UPGRADE = {"name": "Manta Grid", "type": "upgrade", "rez_cost": 3, "trash_cost": 3}
ASSET = {"name": "PAD Campaign", "type": "asset", "rez_cost": 2, "trash_cost": 4}
SNARE = {
    "name": "Snare!",
    "type": "asset",
    "trash_cost": 0,
    "on_access": [{"effect": "net_damage", "amount": 1}, {"effect": "give_tags", "amount": 1}],
}


@dataclass(frozen=True)
class Scenario:
    name: str
    summary: str
    board: dict
    structure: str
    params: dict = field(default_factory=dict)
    decisions: tuple[str, ...] = ()
    seed: int = 0


SCENARIOS: tuple[Scenario, ...] = (
    Scenario(
        "etr_hq",
        "A run on HQ into a rezzed Ice Wall; the Runner breaks nothing and the subroutine ends the run.",
        _board(servers={"hq": {"ice": [ICE_WALL]}}),
        "run",
        {"server": "hq"},
        ("pass",),
    ),
    Scenario(
        "remote_full",
        "A run on a remote through two ice (the Corp rezzes Enigma on approach), breaking everything, "
        "then a breach with a root upgrade (trashed) and an agenda (stolen).",
        _board(
            corp={"credits": 8},
            runner={"credits": 12},
            servers={
                "remote1": {
                    "ice": [ENIGMA, ICE_WALL],
                    "root": [{**UPGRADE, "rezzed": True}],
                    "content": HOSTILE,
                }
            },
        ),
        "run",
        {"server": "remote1"},
        ("rez", "break:0", "break:1", "continue", "break:0", "continue", "access:root.0", "pay_trash"),
    ),
    Scenario(
        "jack_out",
        "The Runner passes unrezzed ice and jacks out at the first opportunity.",
        _board(servers={"rd": {"ice": [{**ENIGMA, "rez_cost": 9}]}}),
        "run",
        {"server": "rd"},
        ("jack_out",),
    ),
    Scenario(
        "archives",
        "A run on unprotected Archives: facedown cards turn faceup, an agenda there is stolen.",
        _board(
            corp={
                "discard": [
                    {"name": "Hedge Fund", "type": "operation"},
                    {**HOSTILE, "faceup": False},
                    {**ASSET, "faceup": False},
                ]
            }
        ),
        "run",
        {"server": "archives"},
        ("continue", "access:archives.1"),
    ),
    Scenario(
        "rd_steal_cost",
        "R&D's top card is an agenda with an additional cost to steal; the Runner declines.",
        _board(corp={"deck": [{**HOSTILE, "steal_cost": 2}, "Hedge Fund"]}),
        "run",
        {"server": "rd"},
        ("continue", "decline_steal"),
    ),
    Scenario(
        "bad_publicity",
        "The Corp has 2 bad publicity: the Runner breaks a 2-credit subroutine with bad publicity credits only.",
        _board(corp={"bad_publicity": 2}, runner={"credits": 0}, servers={"hq": {"ice": [BARRIER]}}),
        "run",
        {"server": "hq"},
        ("break:0", "continue"),
    ),
    Scenario(
        "trace_tag",
        "Data Raven's trace subroutine: the Corp boosts, the Runner does not match; 1 tag.",
        _board(corp={"credits": 3}, runner={"credits": 2, "link": 1}, servers={"hq": {"ice": [DATA_RAVEN]}}),
        "run",
        {"server": "hq"},
        ("pass", "spend:1", "spend:0", "continue"),
    ),
    Scenario(
        "flatline",
        "Neural Katana does 3 net damage to a Runner holding 2 cards: flatline, the Corp wins.",
        _board(runner={"hand": 2}, servers={"hq": {"ice": [NEURAL_KATANA]}}),
        "run",
        {"server": "hq"},
        ("pass",),
    ),
    Scenario(
        "snare",
        "Accessing Snare! fires its conditional ability (1 net damage, 1 tag); trashing it empties the "
        "remote, which ceases to exist at the next checkpoint.",
        _board(servers={"remote1": {"content": SNARE}}),
        "run",
        {"server": "remote1"},
        ("continue", "pay_trash"),
    ),
    Scenario(
        "no_sub_ice",
        "Ice with no subroutines is fully broken when the encounter window closes.",
        _board(servers={"hq": {"ice": [{"name": "Paper Wall", "rezzed": True, "subroutines": []}]}}),
        "run",
        {"server": "hq"},
        ("continue",),
    ),
    Scenario(
        "seven_points",
        "The Runner at 5 points steals a 2-point agenda from a remote: wins at the checkpoint.",
        _board(
            runner={"score_area": [{"name": "Project Vitruvius", "type": "agenda", "agenda_points": 5}]},
            servers={"remote1": {"content": HOSTILE}},
        ),
        "run",
        {"server": "remote1"},
        ("continue",),
    ),
    Scenario(
        "corp_turn",
        "A Corp turn: mandatory draw, advance twice and score, play Hedge Fund, discard down to 5.",
        _board(
            turn="corp",
            corp={
                "credits": 6,
                "hand": [
                    {
                        "name": "Hedge Fund",
                        "type": "operation",
                        "play_cost": 5,
                        "effects": [{"effect": "gain_credits", "amount": 9}],
                    },
                    "A",
                    "B",
                    "C",
                    "D",
                    "E",
                ],
                "deck": ["F", "G"],
            },
            servers={
                "remote1": {"content": {**HOSTILE, "advancements": 1}},
                "remote2": {"content": {**ASSET, "rezzed": True}},
            },
        ),
        "corp_turn",
        {},
        ("advance:remote1", "score:remote1", "play:0", "credit", "discard:0"),
    ),
    Scenario(
        "corp_turn_empty_rd",
        "The Corp must draw from an empty R&D at the start of their turn: the Runner wins.",
        _board(turn="corp", corp={"deck": 0}),
        "corp_turn",
    ),
    Scenario(
        "runner_turn",
        "A Runner turn: remove a tag, run HQ and access a random card, draw, click for credit; "
        "then discard down to a hand size reduced by core damage.",
        _board(
            runner={
                "credits": 3,
                "clicks": 0,
                "tags": 1,
                "core_damage": 2,
                "hand": [
                    {
                        "name": "Sure Gamble",
                        "type": "event",
                        "play_cost": 5,
                        "effects": [{"effect": "gain_credits", "amount": 9}],
                    },
                    "X",
                    "Y",
                    "Z",
                    "W",
                ],
                "deck": ["V"],
            },
            corp={"hand": [HOSTILE, "Hedge Fund"]},
            servers={"remote1": {"content": {**ASSET, "rezzed": True}}},
        ),
        "runner_turn",
        {},
        ("remove_tag", "run:hq", "continue", "draw", "credit", "discard:0", "discard:0", "discard:0"),
    ),
    Scenario(
        "runner_turn_zero_hand",
        "A Runner with 6 core damage has maximum hand size -1 at the discard step: flatlined.",
        _board(runner={"core_damage": 6, "clicks": 0, "allotted_clicks": 1}),
        "runner_turn",
        {},
        ("credit",),
    ),
    Scenario(
        "trace_structure",
        "A standalone Trace 2 with effects on success and failure.",
        _board(corp={"credits": 2}, runner={"credits": 4}),
        "trace",
        {
            "strength": 2,
            "on_success": [{"effect": "meat_damage", "amount": 1}],
            "on_failure": [{"effect": "gain_credits", "amount": 1}],
        },
        ("spend:0", "spend:3"),
    ),
    Scenario(
        "subroutine_outside_run",
        "A subroutine resolved outside a run: core damage resolves; end the run has no effect.",
        _board(),
        "subroutine",
        {"subroutine": [{"effect": "core_damage", "amount": 1}, "end_the_run"]},
    ),
    Scenario(
        "remote_ceases",
        "Trashing the only card in an unprotected remote: the server ceases to exist at the checkpoint "
        "after the Runner's next paid ability.",
        _board(runner={"credits": 9}, servers={"remote1": {"content": {**ASSET, "rezzed": True}}}),
        "runner_turn",
        {},
        ("run:remote1", "continue", "pay_trash"),
    ),
    Scenario(
        "rez_upgrade",
        "The Corp rezzes an upgrade in an initiation or approach window, then the Runner is stopped.",
        _board(
            corp={"credits": 10}, servers={"hq": {"ice": [{**ICE_WALL, "rezzed": False}], "root": [UPGRADE]}}
        ),
        "run",
        {"server": "hq"},
        ("rez:hq.root.0", "rez", "pass"),
    ),
    Scenario(
        "draw",
        "The Runner draws 2 cards.",
        _board(runner={"deck": ["A", "B", "C"]}),
        "draw",
        {"player": "runner", "count": 2},
    ),
    Scenario(
        "checkpoint",
        "A bare checkpoint with the Corp at 7 points.",
        _board(corp={"score_area": [{"name": "Agenda", "type": "agenda", "agenda_points": 7}]}),
        "checkpoint",
    ),
    Scenario(
        "access_hq",
        "Accessing a random card from HQ outside a breach.",
        _board(corp={"hand": [HOSTILE, "Hedge Fund", "Ice Wall"]}),
        "access",
        {"server": "hq", "card": "hq"},
        seed=3,
    ),
    Scenario(
        "breach_hq_root",
        "Breaching HQ with a root upgrade: the Runner chooses the order of candidates.",
        _board(runner={"credits": 1}, corp={"hand": ["Hedge Fund"]}, servers={"hq": {"root": [UPGRADE]}}),
        "breach",
        {"server": "hq"},
        ("access:hq", "no_trash"),
    ),
)


def run_scenario(sc: Scenario, doc: Document) -> Session:
    """Play a scenario to the end. Raises IllegalDecision if a listed decision is not legal."""
    s = start(sc.board, sc.structure, doc, sc.params, sc.seed)
    todo = list(sc.decisions)
    for _ in range(MAX_AUTO):
        if s.finished:
            return s
        legal = legal_decisions(s)
        d = todo.pop(0) if todo else "*"
        if d == "*":
            d = legal[0]["id"]
        s, _ = apply(s, d)
    raise RuntimeError(f"scenario {sc.name} did not finish")  # pragma: no cover


def walked_steps(doc: Document, changed: set[str] | None = None) -> tuple[set[str], dict[str, str]]:
    """Step ids walked by the suite on `doc`, and {scenario: error} for scenarios that failed.
    `changed`, when given, receives the steps at which some event changed the board."""
    walked: set[str] = set()
    failed: dict[str, str] = {}
    for sc in SCENARIOS:
        try:
            s = run_scenario(sc, doc)
        except (EngineError, RuntimeError) as exc:
            failed[sc.name] = str(exc)
            continue
        walked.update(e.step for e in s.trace)
        if changed is not None:
            changed.update(e.step for e in s.trace if e.changes)
    return walked, failed
