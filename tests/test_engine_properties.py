"""Property-based tests: from random valid boards, random legal decision sequences always
terminate, never raise, keep the board valid, and never create or lose cards or credits outside
what the rules move (every credit change is recorded by an event at a step that moves credits)."""

from __future__ import annotations

from helpers import load_doc
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engine
from engine.board import count_cards, normalise_board

MAX_DECISIONS = 400

amount = st.integers(0, 3)
simple_effect = st.one_of(
    st.just("end_the_run"),
    st.builds(
        lambda e, a: {"effect": e, "amount": a},
        st.sampled_from(
            [
                "lose_clicks",
                "gain_credits",
                "lose_credits",
                "net_damage",
                "meat_damage",
                "core_damage",
                "give_tags",
            ]
        ),
        amount,
    ),
)
effect = st.one_of(
    simple_effect,
    st.builds(
        lambda a, inner: {"effect": "unless_pays", "amount": a, "effects": inner},
        amount,
        st.lists(simple_effect, min_size=1, max_size=2),
    ),
    st.builds(
        lambda inner: {"effect": "if_tagged", "effects": inner},
        st.lists(simple_effect, min_size=1, max_size=2),
    ),
    st.builds(lambda a: {"effect": "trash_program", "amount": a}, st.integers(1, 2)),
    st.just({"effect": "text", "text": "Do something the engine does not model."}),
    st.builds(
        lambda s, ok, ko: {"effect": "trace", "strength": s, "on_success": ok, "on_failure": ko},
        st.integers(0, 4),
        st.lists(simple_effect, max_size=2),
        st.lists(simple_effect, max_size=1),
    ),
    # the effects real cards' text translates to (engine.cardtext)
    st.builds(
        lambda a, types, unless, runner: {
            "effect": "trash_installed",
            "amount": a,
            **({"card_types": types} if types else {}),
            **({"except_subtypes": unless} if unless else {}),
            **({"chooser": "runner"} if runner else {}),
        },
        st.integers(0, 2),
        st.lists(st.sampled_from(["program", "hardware", "resource"]), max_size=2, unique=True),
        st.lists(st.sampled_from(["icebreaker", "decoder"]), max_size=1),
        st.booleans(),
    ),
    st.builds(
        lambda opts: {"effect": "choose", "options": opts},
        st.lists(st.lists(simple_effect, min_size=1, max_size=2), min_size=2, max_size=3),
    ),
    st.builds(lambda a: {"effect": "opponent_gains_credits", "amount": a}, amount),
    st.builds(
        lambda a, opt, up: {"effect": "draw_cards", "amount": a, "optional": opt, "up_to": up},
        amount,
        st.booleans(),
        st.booleans(),
    ),
    st.just("trash_this_ice"),
    st.just("runner_may_jack_out"),
    st.builds(lambda a: {"effect": "add_installed_to_grip", "amount": a}, st.integers(0, 2)),
    st.builds(
        lambda sub, inner: {"effect": "if_ice_subtype", "subtype": sub, "effects": inner},
        st.sampled_from(["barrier", "code gate", "sentry"]),
        st.lists(simple_effect, min_size=1, max_size=2),
    ),
    st.builds(
        lambda name, a, inner: {"effect": name, "amount": a, "effects": inner},
        st.sampled_from(["if_threat_level", "if_runner_credits_at_most", "may_trash_from_hand"]),
        st.integers(0, 6),
        st.lists(simple_effect, min_size=1, max_size=2),
    ),
    st.builds(
        lambda n, inner: {"effect": "if_tagged", "min_tags": n, "effects": inner},
        st.integers(1, 3),
        st.lists(simple_effect, min_size=1, max_size=2),
    ),
    st.builds(
        lambda a, c, inner: {"effect": "unless_pays", "amount": a, "clicks": c, "effects": inner},
        amount,
        st.integers(0, 2),
        st.lists(simple_effect, min_size=1, max_size=2),
    ),
    # issue 10's remaining vocabulary: bypass, derez, expose, gain clicks, bad publicity
    st.just("bypass"),
    st.just("corp_chooses_hq_access"),
    st.builds(
        lambda name, a, types: {"effect": name, "amount": a, **({"card_types": types} if types else {})},
        st.sampled_from(["derez", "expose"]),
        st.integers(0, 2),
        st.lists(st.sampled_from(["ice", "asset", "upgrade"]), max_size=2, unique=True),
    ),
    st.builds(
        lambda name, a: {"effect": name, "amount": a},
        st.sampled_from(["gain_clicks", "take_bad_publicity"]),
        amount,
    ),
)
# conditional abilities (engine.triggers): every condition the board format knows
WHENS = [
    "successful_run",
    "encountered",
    "passed",
    "run_ends",
    "installed",
    "scored",
    "trace_initiated",
    "accessed",
    "stolen",
]
# a trigger's filter (only where its condition allows one) and "you may" (optional)
FILTER_CHOICES = {
    "accessed": [{"card_type": "agenda"}, {"server": "rd"}, {"server": "central", "card_type": "asset"}],
    "stolen": [{"server": "hq"}, {"server": "remote"}],
    "successful_run": [{"server": "hq"}, {"server": "remote1"}],
    "run_ends": [{"successful": True}, {"server": "hq", "successful": False}],
    "encountered": [{"subtype": "sentry"}, {"server": "hq"}, {"server": "remote", "subtype": "barrier"}],
    "passed": [{"server": "central"}, {"subtype": "code gate"}],
    "installed": [{"card_type": "program"}, {"card_type": "resource", "subtype": "icebreaker"}],
    "scored": [{"card_type": "agenda"}, {"card_type": "agenda", "server": "remote1"}],
    "trace_initiated": [{"server": "hq"}, {"server": "remote"}],
}


def _trigger(when: str, effects: list, flt: int, optional: bool) -> dict:
    out: dict = {"when": when, "effects": effects}
    choices = FILTER_CHOICES.get(when, [])
    if flt and choices:
        out["filter"] = choices[(flt - 1) % len(choices)]
    if optional:
        out["optional"] = True
    return out


trigger = st.builds(
    _trigger,
    st.sampled_from(WHENS),
    st.lists(simple_effect, min_size=1, max_size=2),
    st.integers(0, 3),
    st.booleans(),
)
runner_trigger = st.one_of(
    st.builds(
        lambda when, a, flt, opt: _trigger(when, [{"effect": "gain_credits", "amount": a}], flt, opt),
        st.sampled_from(WHENS),
        amount,
        st.integers(0, 3),
        st.booleans(),
    ),
    st.builds(lambda eff: {"when": "encountered", "effects": [eff]}, st.sampled_from(["bypass", "derez"])),
)
ice = st.builds(
    lambda n, rez, cost, brk, subs, strength, sub, trig: {
        "name": f"Ice {n}",
        "rezzed": rez,
        "rez_cost": cost,
        **({} if brk is None else {"break_cost": brk}),
        "subroutines": subs,
        "strength": strength,
        "subtypes": [sub],
        **({"triggers": trig} if trig else {}),
    },
    st.integers(1, 99),
    st.booleans(),
    st.integers(0, 5),
    st.one_of(st.none(), st.integers(0, 3)),
    st.lists(effect, max_size=3),
    st.integers(0, 4),
    st.sampled_from(["barrier", "code gate", "sentry"]),
    st.lists(trigger, max_size=1),
)
limits = st.builds(
    lambda once, only, threat: {
        **({"once_per": once} if once else {}),
        **({"only_if": "Use this ability only if you made a run this turn."} if only else {}),
        **({"threat": threat} if threat else {}),
    },
    st.sampled_from([None, None, "turn", "run", "encounter"]),
    st.booleans(),
    st.sampled_from([0, 0, 1, 3]),
)
ability = st.one_of(
    st.builds(
        lambda c, n, up, sub, lim: {
            "kind": "break",
            "cost": c,
            "count": n,
            "up_to": up,
            **({"ice_subtype": sub} if sub else {}),
            **lim,
        },
        st.integers(0, 2),
        st.integers(1, 3),
        st.booleans(),
        st.sampled_from([None, "barrier", "code gate", "sentry"]),
        limits,
    ),
    st.builds(
        lambda c, a, lim, lasts: {
            "kind": "strength",
            "cost": c,
            "amount": a,
            **lim,
            **({"lasts": lasts} if lasts else {}),
        },
        st.integers(0, 2),
        st.integers(1, 3),
        limits,
        st.sampled_from([None, "encounter", "run", "turn"]),
    ),
    st.just({"kind": "text", "text": "Install a virus counter."}),
)
program = st.builds(
    lambda n, mu, strength, abl, trig: {
        "name": f"Breaker {n}",
        "memory_cost": mu,
        "strength": strength,
        "subtypes": ["icebreaker"],
        "abilities": abl,
        **({"triggers": trig} if trig else {}),
    },
    st.integers(1, 9),
    st.integers(0, 1),
    st.integers(0, 3),
    st.lists(ability, max_size=3),
    st.lists(runner_trigger, max_size=1),
)
agenda = st.builds(
    lambda pts, req, adv, steal, trig: {
        "name": "Agenda",
        "type": "agenda",
        "agenda_points": pts,
        "advancement_requirement": req,
        "advancements": adv,
        **({"steal_cost": steal} if steal else {}),
        **({"triggers": trig} if trig else {}),
    },
    st.integers(0, 3),
    st.integers(0, 3),
    st.integers(0, 3),
    st.integers(0, 2),
    st.lists(trigger, max_size=1),
)
asset = st.builds(
    lambda rez, cost, trash, acc: {
        "name": "Asset",
        "type": "asset",
        "rezzed": rez,
        "rez_cost": cost,
        "trash_cost": trash,
        **({"on_access": acc} if acc else {}),
    },
    st.booleans(),
    st.integers(0, 4),
    st.integers(0, 5),
    st.one_of(
        st.lists(simple_effect, max_size=2),
        st.builds(
            lambda zones, a, inner: [
                {
                    "effect": "if_accessed_from",
                    "zones": zones,
                    "effects": [{"effect": "may_pay", "amount": a, "effects": inner}],
                }
            ],
            st.lists(st.sampled_from(["hq", "rd", "archives", "installed"]), min_size=1, max_size=2),
            st.integers(0, 4),
            st.lists(simple_effect, min_size=1, max_size=2),
        ),
    ),
)
# a Corp card's paid ability (engine.windows.corp_abilities): "X[credit], [trash]: effects";
# a [click] ability (an action, engine.windows.corp_click_abilities); a trace interrupt
# (engine.trace.window): "[interrupt] X[credit]: +N base trace strength"
corp_paid = st.one_of(
    st.builds(
        lambda c, t, eff: {"kind": "paid", "cost": c, "trash": t, "effects": eff},
        st.integers(0, 3),
        st.booleans(),
        st.lists(simple_effect, min_size=1, max_size=2),
    ),
    st.builds(
        lambda n, c, t, eff: {"kind": "click", "clicks": n, "cost": c, "trash": t, "effects": eff},
        st.integers(1, 2),
        st.integers(0, 2),
        st.booleans(),
        st.lists(simple_effect, min_size=1, max_size=2),
    ),
    st.builds(
        lambda c, t, a: {"kind": "trace", "cost": c, "trash": t, "amount": a},
        st.integers(0, 2),
        st.booleans(),
        st.integers(1, 3),
    ),
    # an expose interrupt (engine.prevention): "1[credit] or [trash]: prevent 1 card from being exposed"
    st.builds(
        lambda c, t: {"kind": "prevent", "event": "expose", "amount": 1, "cost": c, "trash": t},
        st.integers(0, 1),
        st.booleans(),
    ),
)
# a constant "+N base trace strength" (engine.trace.bonuses)
trace_bonus = st.one_of(
    st.none(),
    st.builds(
        lambda a, only: {"amount": a, **({"only": only} if only else {})},
        st.integers(0, 3),
        st.sampled_from([None, "run_on_server", "subroutine"]),
    ),
)
upgrade = st.builds(
    lambda rez, cost, trash, abl, tb: {
        "name": "Upgrade",
        "type": "upgrade",
        "rezzed": rez,
        "rez_cost": cost,
        "trash_cost": trash,
        **({"abilities": abl} if abl else {}),
        **({"trace_bonus": tb} if tb else {}),
    },
    st.booleans(),
    st.integers(0, 4),
    st.integers(0, 5),
    st.lists(corp_paid, max_size=1),
    trace_bonus,
)
# a "Play only if ..." restriction (engine.restrictions) on some operations and events
play_if = st.one_of(
    st.none(),
    st.sampled_from(
        [
            {"runner_tagged": True},
            {"runner_min_tags": 2},
            {"runner_last_turn": "successful_run"},
            {"threat_level": 2, "runner_last_turn": "stole_or_trashed"},
        ]
    ),
)
operation = st.builds(
    lambda cost, eff, pi: {
        "name": "Op",
        "type": "operation",
        "play_cost": cost,
        "effects": eff,
        **({"play_if": pi} if pi else {}),
    },
    st.integers(0, 3),
    st.lists(st.builds(lambda a: {"effect": "gain_credits", "amount": a}, amount), min_size=1, max_size=2),
    play_if,
)
# a run event (engine.effects "run"): the server, an "If successful" ability, instead of breaching
run_event = st.builds(
    lambda server, eff, instead, more, tagged: {
        "name": "Run Event",
        "type": "event",
        "play_cost": 0,
        "effects": [
            {
                "effect": "run",
                "server": server,
                **({"if_successful": eff} if eff else {}),
                **({"instead_of_breach": True} if instead and eff else {}),
                **({"additional_access": more} if more else {}),
            }
        ],
        **({"play_if": {"runner_tagged": False}} if tagged else {}),
    },
    st.sampled_from(["hq", "rd", "archives", "any"]),
    st.one_of(
        st.just([]),
        st.lists(st.builds(lambda a: {"effect": "gain_credits", "amount": a}, amount), max_size=1),
    ),
    st.booleans(),
    st.integers(0, 1),
    st.booleans(),
)
# the Corp's identity (corp.identity): a trigger and a paid ability, always active
corp_identity = st.one_of(
    st.none(),
    st.builds(
        lambda tr, eff: {
            "name": "Corp ID",
            "triggers": [tr],
            "abilities": [{"kind": "paid", "cost": 1, "effects": eff}],
            "hand_size": 1,
        },
        st.deferred(lambda: trigger),
        st.lists(simple_effect, min_size=1, max_size=1),
    ),
)
hand_ice = st.builds(
    lambda st_, sub: {"name": "New Ice", "type": "ice", "rez_cost": 1, "strength": st_, "subroutines": [sub]},
    st.integers(0, 3),
    simple_effect,
)
corp_card = st.one_of(st.just("Card"), agenda, asset, operation, hand_ice)
runner_hand_card = st.one_of(
    st.just("Grip card"),
    st.builds(
        lambda c, mu: {"name": "New Program", "type": "program", "install_cost": c, "memory_cost": mu},
        st.integers(0, 3),
        st.integers(0, 3),
    ),
    st.just({"name": "Gear", "type": "hardware", "install_cost": 1, "access_bonus": {"rd": 1}}),
    run_event,
)
central = st.builds(
    lambda i, r: {"ice": i, "root": r}, st.lists(ice, max_size=2), st.lists(upgrade, max_size=1)
)
remote = st.builds(
    lambda i, r, c: {"ice": i, "root": r, "content": c},
    st.lists(ice, max_size=2),
    st.lists(upgrade, max_size=1),
    st.one_of(agenda, asset),
)


@st.composite
def boards(draw):
    servers = {"hq": draw(central), "rd": draw(central), "archives": draw(central)}
    for i in range(draw(st.integers(0, 2))):
        servers[f"remote{i + 1}"] = draw(remote)
    ident = draw(corp_identity)
    return {
        "version": draw(st.sampled_from([1, 2])),  # version 1's implicit break shortcut, and 2's rule
        "turn": draw(st.sampled_from(["corp", "runner"])),
        "corp": {
            "credits": draw(st.integers(0, 12)),
            "clicks": draw(st.integers(0, 1)),
            "allotted_clicks": draw(st.integers(0, 3)),
            "bad_publicity": draw(st.integers(0, 3)),
            "hand": draw(st.one_of(st.integers(0, 7), st.lists(corp_card, max_size=7))),
            "deck": draw(st.one_of(st.integers(0, 4), st.lists(corp_card, max_size=4))),
            "discard": draw(st.lists(st.one_of(agenda, asset, st.just("Old")), max_size=3)),
            "score_area": draw(st.lists(agenda, max_size=2)),
            **({"identity": ident} if ident else {}),
        },
        "runner": {
            "last_turn": draw(
                st.lists(
                    st.sampled_from(["successful_run", "stole_agenda", "trashed_corp_card"]),
                    max_size=2,
                    unique=True,
                )
            ),
            "credits": draw(st.integers(0, 12)),
            "clicks": draw(st.integers(0, 2)),
            "allotted_clicks": draw(st.integers(0, 3)),
            "hand": draw(st.one_of(st.integers(0, 7), st.lists(runner_hand_card, max_size=5))),
            "deck": draw(st.integers(0, 3)),
            "tags": draw(st.integers(0, 2)),
            "core_damage": draw(st.integers(0, 6)),
            "link": draw(st.integers(0, 2)),
            "score_area": draw(st.lists(agenda, max_size=2)),
            "rig": {
                "programs": draw(st.lists(program, max_size=4)),
                "hardware": draw(
                    st.lists(
                        st.sampled_from(
                            [
                                "Box",
                                {
                                    "name": "Tool",
                                    "abilities": [{"kind": "text", "text": "1[credit]: Do a thing."}],
                                },
                                {
                                    "name": "Flip Switch",
                                    "abilities": [{"kind": "trace", "set": 0, "trash": True}],
                                },
                            ]
                        ),
                        max_size=1,
                    )
                ),
                "resources": draw(
                    st.lists(
                        st.sampled_from(
                            [
                                "Contact",
                                {
                                    "name": "Decoy",
                                    "abilities": [
                                        {"kind": "prevent", "event": "tags", "amount": 1, "trash": True}
                                    ],
                                },
                                {
                                    "name": "Sacrificial Construct",
                                    "abilities": [
                                        {
                                            "kind": "prevent",
                                            "event": "trash",
                                            "card_types": ["program", "hardware"],
                                            "amount": 1,
                                            "trash": True,
                                        }
                                    ],
                                },
                            ]
                        ),
                        max_size=2,
                    )
                ),
                "facedown": draw(st.lists(st.just("Facedown card"), max_size=1)),
            },
        },
        "servers": servers,
    }


@st.composite
def starts(draw):
    b = draw(boards())
    structure = draw(
        st.sampled_from(["run", "run", "run", "runner_turn", "corp_turn", "breach", "trace", "draw"])
    )
    params: dict = {}
    if structure in ("run", "breach"):
        params["server"] = draw(st.sampled_from(sorted(b["servers"])))
        if draw(st.booleans()):
            params["additional_access"] = draw(st.integers(0, 3))
        if draw(st.booleans()):
            params["corp_chooses_hq"] = True  # Dedicated Neural Net: the Corp picks HQ accesses
    elif structure == "trace":
        params = {
            "strength": draw(st.integers(0, 5)),
            "on_success": draw(st.lists(simple_effect, max_size=2)),
        }
    elif structure == "draw":
        params = {"player": draw(st.sampled_from(["corp", "runner"])), "count": draw(st.integers(0, 3))}
    return b, structure, params


# Steps where a player's credit pool may grow (a credit gained) and where the fund fills.
GAIN_STEPS = {
    "step_paid_ability_resolution",  # [click]: gain 1 credit
    "step_subroutine_resolution",  # gain_credits (Corp)
    "step_conditional_ability_resolution",
    "step_play_ability_interrupt_resolution",
}


def _credits(board: dict) -> tuple[int, int, int]:
    return board["corp"]["credits"], board["runner"]["credits"], board["runner"]["bad_publicity_fund"]


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)
@given(start=starts(), data=st.data(), version=st.sampled_from(["22.12", "24.03", "26.03"]))
def test_random_legal_play_terminates_and_conserves(start, data, version):
    doc = load_doc(version)
    board, structure, params = start
    assert engine.validate_board(board) == []
    s = engine.start(board, structure, doc, params, seed=data.draw(st.integers(0, 5)))
    cards = count_cards(s.board)
    initial = _credits(normalise_board(board))  # before the first event
    for _ in range(MAX_DECISIONS):
        assert count_cards(s.board) == cards
        assert min(_credits(s.board)) >= 0
        assert s.board["runner"]["clicks"] >= 0 and s.board["corp"]["clicks"] >= 0
        if s.finished:
            break
        legal = engine.legal_decisions(s)
        assert legal, "an unfinished session must offer a decision"
        choice = data.draw(st.sampled_from([d["id"] for d in legal]))
        s, _ = engine.apply(s, choice)
    else:
        raise AssertionError("did not terminate")
    assert s.current_step is None
    problems = engine.validate_board(s.board)
    if s.outcome.winner:
        # A win ends the game at once (10.3.1): a remote emptied by the winning steal is never
        # removed, because the checkpoint stops at the win.
        problems = [p for p in problems if "remote server with no cards" not in p]
    assert problems == []
    # every credit that moved was recorded by an event; gains only at steps that gain credits
    totals = {"corp.credits": 0, "runner.credits": 0, "runner.bad_publicity_fund": 0}
    for e in s.trace:
        for key in totals:
            if key in e.changes:
                old, new = e.changes[key]
                totals[key] += new - old
                if new > old and key != "runner.bad_publicity_fund":
                    assert e.step in GAIN_STEPS, (e.step, e.text)
                if new > old and key == "runner.bad_publicity_fund":
                    assert e.step == "step_initiation_bad_publicity"
    final = _credits(s.board)
    assert (final[0] - initial[0], final[1] - initial[1], final[2] - initial[2]) == tuple(totals.values())
    # the bad publicity fund never outlives a run
    if structure == "run" and s.outcome.winner is None:
        assert s.board["runner"]["bad_publicity_fund"] == 0
    # and the whole session resumes exactly from its JSON
    back = engine.Session.from_json(s.to_json(), doc)
    assert back.board == s.board and back.outcome == s.outcome


@settings(max_examples=100, deadline=None)
@given(
    board=st.one_of(
        st.none(),
        st.integers(),
        st.text(max_size=5),
        st.dictionaries(
            st.sampled_from(["version", "corp", "runner", "servers", "turn", "x"]),
            st.one_of(
                st.integers(-2, 2),
                st.text(max_size=3),
                st.lists(st.integers(), max_size=2),
                st.dictionaries(st.text(max_size=6), st.integers(-1, 1), max_size=3),
            ),
            max_size=5,
        ),
    )
)
def test_garbage_boards_give_problems_not_exceptions(board):
    problems = engine.validate_board(board)
    assert isinstance(problems, list)
    try:
        engine.start(board, "run", load_doc("26.03"), {"server": "hq"})
    except engine.BoardError as exc:
        assert exc.problems and all(isinstance(p, str) and ": " in p for p in exc.problems)


@settings(max_examples=150, deadline=None)
@given(
    structure=st.one_of(
        st.sampled_from(["run", "breach", "access", "trace", "draw", "subroutine", "checkpoint", "x"]),
        st.integers(),
        st.lists(st.integers(), max_size=1),
    ),
    params=st.dictionaries(
        st.sampled_from(
            ["server", "card", "strength", "on_success", "on_failure", "player", "count", "subroutine", "zz"]
        ),
        st.one_of(
            st.none(),
            st.integers(-3, 200),
            st.text(max_size=8),
            st.sampled_from(["hq", "rd", "archives", "remote1"]),
            st.lists(st.integers(), max_size=2),
            st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
        ),
        max_size=4,
    ),
)
def test_garbage_params_give_board_errors(structure, params):
    board = {"version": 1, "servers": {"remote1": {"content": {"name": "PAD", "type": "asset"}}}}
    try:
        s = engine.start(board, structure, load_doc("26.03"), params)
    except engine.BoardError as exc:
        assert exc.problems
    else:
        assert s.current_step is not None or s.finished
