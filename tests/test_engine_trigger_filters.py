"""Trigger filters: a conditional ability's condition can name what it watches (rule_condition_requirements_part_of_condition: an
ability whose condition is not met does not trigger): "whenever you access an agenda",
"whenever you access a card from R&D", "when a run on HQ ends successfully"."""

from __future__ import annotations

import pytest
from helpers import decision_ids, engine_board, load_doc

import engine


@pytest.fixture(params=["22.12", "24.03", "26.03"])
def doc(request):
    return load_doc(request.param)


def watcher(when: str, flt: dict, amount: int = 1, name: str = "Watcher") -> dict:
    return {
        "name": name,
        "triggers": [
            {"when": when, "filter": flt, "effects": [{"effect": "gain_credits", "amount": amount}]}
        ],
    }


def run_to_end(s):
    while not s.finished:
        ids = decision_ids(s)
        s, _ = engine.apply(s, "pass" if "pass" in ids else "continue" if "continue" in ids else ids[0])
    return s


def pending(s, when: str) -> list[list[str]]:
    return [e.objects["pending"] for e in s.trace if e.objects.get("condition") == when]


AGENDA = {"name": "Hostile Takeover", "type": "agenda", "agenda_points": 1, "steal_cost": 9}


def test_access_an_agenda_fires_for_the_agenda_only(doc):
    """ "Whenever you access an agenda, gain 1[credit]": R&D access 2, the agenda second."""
    w = watcher("accessed", {"card_type": "agenda"})
    b = engine_board(
        corp={"deck": ["Card", AGENDA, "Card"]}, runner={"credits": 0, "rig": {"resources": [w]}}
    )
    s = run_to_end(engine.start(b, "run", doc, {"server": "rd", "additional_access": 1}))
    assert len(s.outcome.accessed) == 2
    assert pending(s, "accessed") == [["resources.watcher.0"]]  # met once, at the agenda
    met = next(e for e in s.trace if e.objects.get("condition") == "accessed")
    before = [
        e for e in s.trace[: s.trace.index(met)] if "rule_accessing" in e.rules and "accesses" in e.text
    ]
    assert "Hostile Takeover" in before[-1].text
    assert s.board["runner"]["credits"] == 1


def test_access_from_rd_does_not_fire_on_hq(doc):
    w = watcher("accessed", {"server": "rd"})
    for server, want in (("rd", 1), ("hq", 0)):
        b = engine_board(
            corp={"deck": ["Card"], "hand": ["Card"]}, runner={"credits": 0, "rig": {"resources": [w]}}
        )
        s = run_to_end(engine.start(b, "run", doc, {"server": server}))
        assert len(s.outcome.accessed) == 1
        assert s.board["runner"]["credits"] == want, server
        assert len(pending(s, "accessed")) == want


def test_run_on_hq_ends_successfully(doc):
    """ "When a run on HQ ends successfully": the server and the result must both match;
    `central` matches any central server."""
    hq_ok = watcher("run_ends", {"server": "hq", "successful": True}, 1, "HQ Success")
    central = watcher("successful_run", {"server": "central"}, 10, "Central")
    remote = watcher("successful_run", {"server": "remote"}, 50, "Remote")
    rig = {"resources": [hq_ok, central, remote]}
    s = run_to_end(
        engine.start(engine_board(runner={"credits": 0, "rig": rig}), "run", doc, {"server": "hq"})
    )
    assert s.outcome.run == "successful" and s.board["runner"]["credits"] == 11
    s = run_to_end(
        engine.start(engine_board(runner={"credits": 0, "rig": rig}), "run", doc, {"server": "rd"})
    )
    assert s.outcome.run == "successful" and s.board["runner"]["credits"] == 10  # not a run on HQ
    # an unsuccessful run on HQ (ended by the ice): the run_ends filter is not met
    wall = {"name": "Wall", "rezzed": True, "rez_cost": 1, "subroutines": ["end_the_run"]}
    b = engine_board(runner={"credits": 0, "rig": rig}, servers={"hq": {"ice": [wall]}})
    s = run_to_end(engine.start(b, "run", doc, {"server": "hq"}))
    assert s.outcome.run == "unsuccessful" and s.board["runner"]["credits"] == 0
    assert pending(s, "run_ends") == []


def test_steal_filter_on_server(doc):
    w = watcher("stolen", {"server": "hq"})
    agenda = {"name": "Project", "type": "agenda", "agenda_points": 1}
    b = engine_board(corp={"deck": [agenda]}, runner={"credits": 0, "rig": {"resources": [w]}})
    s = run_to_end(engine.start(b, "run", doc, {"server": "rd"}))
    assert s.outcome.stolen == ["Project"] and s.board["runner"]["credits"] == 0
    b = engine_board(corp={"hand": [agenda]}, runner={"credits": 0, "rig": {"resources": [w]}})
    s = run_to_end(engine.start(b, "run", doc, {"server": "hq"}))
    assert s.outcome.stolen == ["Project"] and s.board["runner"]["credits"] == 1
    # the stolen agenda's own "when stolen from R&D" is not met from HQ: reported, not resolved
    own = {
        **agenda,
        "triggers": [
            {
                "when": "stolen",
                "filter": {"server": "rd"},
                "effects": [{"effect": "gain_credits", "amount": 5}],
            }
        ],
    }
    b = engine_board(corp={"credits": 0, "hand": [own]}, runner={"credits": 0, "rig": {"resources": [w]}})
    s = run_to_end(engine.start(b, "run", doc, {"server": "hq"}))
    assert s.outcome.stolen == ["Project"] and s.board["corp"]["credits"] == 0
    assert s.board["runner"]["credits"] == 1
    skipped = [e for e in s.trace if e.objects.get("when") == "stolen"]
    assert [e.objects["not_met"] for e in skipped] == [["accessed.project.0"]]
    assert skipped[0].applied is False
    b = engine_board(corp={"credits": 0, "deck": [own]})
    s = run_to_end(engine.start(b, "run", doc, {"server": "rd"}))
    assert s.outcome.stolen == ["Project"] and s.board["corp"]["credits"] == 5


@pytest.mark.parametrize(
    "trigger, fragment",
    [
        ({"when": "accessed", "filter": {"card_type": "program"}}, "card_type"),
        ({"when": "accessed", "filter": {"server": "attic"}}, "server"),
        ({"when": "passed", "filter": {"successful": True}}, "only a trigger on"),
        ({"when": "installed", "filter": {"card_type": "agenda"}}, "card_type"),
        ({"when": "scored", "filter": {"card_type": "program"}}, "card_type"),
        ({"when": "encountered", "filter": {"subtype": ""}}, "subtype"),
        ({"when": "trace_initiated", "filter": {"subtype": "sentry"}}, "only a trigger on"),
        ({"when": "run_ends", "filter": {"successful": "yes"}}, "successful"),
        ({"when": "run_ends", "filter": {"colour": "red"}}, "unknown filter"),
        ({"when": "run_ends", "filter": {}}, "non-empty"),
    ],
)
def test_bad_filters_are_refused(trigger, fragment):
    card = {"name": "W", "triggers": [{**trigger, "effects": [{"effect": "gain_credits", "amount": 1}]}]}
    problems = engine.validate_board(engine_board(runner={"rig": {"resources": [card]}}))
    assert any(fragment in p and "filter" in p for p in problems), problems


# ----- optional triggers ("you may ...", 9.6.9) ---------------------------------------------------
def may(when: str, amount: int, name: str) -> dict:
    return {
        "name": name,
        "triggers": [
            {"when": when, "optional": True, "effects": [{"effect": "gain_credits", "amount": amount}]}
        ],
    }


def to_decision(s, prefix: str):
    for _ in range(60):
        ids = decision_ids(s)
        if any(i.startswith(prefix) for i in ids):
            return s
        s, _ = engine.apply(s, "pass" if "pass" in ids else "continue" if "continue" in ids else ids[0])
    raise AssertionError(f"no {prefix} decision offered")


def test_an_optional_trigger_can_be_declined(doc):
    """ "When a successful run ends, you may gain 2[credit]": the Runner is asked even with one
    pending ability; declining it resolves nothing (9.6.9a)."""
    b = engine_board(runner={"credits": 0, "rig": {"resources": [may("successful_run", 2, "Maybe")]}})
    s = to_decision(engine.start(b, "run", doc, {"server": "archives"}), "decline:")
    assert decision_ids(s) == ["trigger:resources.maybe.0", "decline:resources.maybe.0"]
    assert {d["player"] for d in engine.legal_decisions(s)} == {"runner"}
    declined, ev = engine.apply(s, "decline:resources.maybe.0")
    gone = [e for e in ev if e.objects.get("declined") == "resources.maybe.0"]
    assert gone and gone[0].applied is False and "rule_optional_conditional_ability" in gone[0].rules
    declined = run_to_end(declined)
    assert declined.board["runner"]["credits"] == 0 and declined.outcome.run == "successful"
    taken = run_to_end(engine.apply(s, "trigger:resources.maybe.0")[0])
    assert taken.board["runner"]["credits"] == 2
    # replaying the declined session from JSON gives the same board (decision ids are stable)
    again = engine.Session.from_json(declined.to_json(), doc)
    assert again.board == declined.board


def test_a_mandatory_trigger_beside_an_optional_one_cannot_be_declined(doc):
    must = {
        "name": "Must",
        "triggers": [{"when": "successful_run", "effects": [{"effect": "gain_credits", "amount": 1}]}],
    }
    rig = {"resources": [must, may("successful_run", 2, "Maybe")]}
    b = engine_board(runner={"credits": 0, "rig": rig})
    s = to_decision(engine.start(b, "run", doc, {"server": "archives"}), "decline:")
    ids = decision_ids(s)
    assert "decline:resources.maybe.0" in ids and "decline:resources.must.0" not in ids
    with pytest.raises(engine.IllegalDecision):
        engine.apply(s, "decline:resources.must.0")
    s, _ = engine.apply(s, "decline:resources.maybe.0")
    s = run_to_end(s)  # the mandatory one still resolves (9.6.9b)
    assert s.board["runner"]["credits"] == 1


def test_optional_must_be_a_boolean():
    card = {"name": "W", "triggers": [{"when": "run_ends", "optional": "yes", "effects": []}]}
    problems = engine.validate_board(engine_board(runner={"rig": {"resources": [card]}}))
    assert any("optional" in p for p in problems), problems


# ----- filters on encountered, passed, installed, scored, trace_initiated (9.6.5c) ----------------
def not_met(s, when: str) -> list[list[str]]:
    """The `not_met` keys of the events reporting abilities whose filter was not met."""
    return [e.objects["not_met"] for e in s.trace if e.objects.get("when") == when]


def ice(name: str, subtypes: list[str]) -> dict:
    return {"name": name, "rezzed": True, "subtypes": subtypes, "subroutines": []}


def test_encounter_filter_on_ice_subtype_and_server(doc):
    """ "Whenever you encounter a sentry, gain 1[credit]" and "whenever you encounter a piece of
    ice protecting HQ, gain 10[credit]": a barrier does not meet the first; a run on R&D never
    meets the second. Each unmet filter is an event walked but not applied."""
    rig = {
        "resources": [
            watcher("encountered", {"subtype": "Sentry"}, 1, "Sentry Watch"),
            watcher("encountered", {"server": "hq"}, 10, "HQ Watch"),
        ]
    }
    for server, want in (("hq", 21), ("rd", 1)):
        servers = {server: {"ice": [ice("Wall", ["barrier"]), ice("Guard", ["sentry", "ap"])]}}
        b = engine_board(runner={"credits": 0, "rig": rig}, servers=servers)
        s = run_to_end(engine.start(b, "run", doc, {"server": server}))
        assert s.outcome.run == "successful"
        assert s.board["runner"]["credits"] == want, server
        met = pending(s, "encountered")
        if server == "hq":  # outermost (index 0) first: Wall (barrier), then Guard (sentry)
            assert met == [["resources.hq-watch.0"], ["resources.sentry-watch.0", "resources.hq-watch.0"]]
            assert not_met(s, "encountered") == [["resources.sentry-watch.0"]]
        else:
            assert met == [["resources.sentry-watch.0"]]
            assert not_met(s, "encountered") == [
                ["resources.sentry-watch.0", "resources.hq-watch.0"],
                ["resources.hq-watch.0"],
            ]
        skipped = [e for e in s.trace if e.objects.get("when") == "encountered"]
        assert all(e.applied is False for e in skipped)
        assert all(e.step == "step_encounter_begins" for e in skipped)
        assert all("rule_condition_requirements_part_of_condition" in e.rules for e in skipped)
        assert all(doc.node(r) is not None for e in s.trace for r in e.rules)


def test_the_ice_own_encounter_ability_with_a_server_filter(doc):
    """A piece of ice's own "when encountered" ability filtered by server: the same card
    protecting HQ fires, protecting a remote it does not."""
    toll = {
        **ice("Toll", ["code gate"]),
        "triggers": [
            {
                "when": "encountered",
                "filter": {"server": "central"},
                "effects": [{"effect": "lose_credits", "amount": 3}],
            }
        ],
    }
    for server, want in (("hq", 2), ("remote1", 5)):
        servers = {
            server: {
                "ice": [toll],
                **({"content": {"name": "Asset", "type": "asset"}} if server == "remote1" else {}),
            }
        }
        s = run_to_end(
            engine.start(engine_board(runner={"credits": 5}, servers=servers), "run", doc, {"server": server})
        )
        assert s.board["runner"]["credits"] == want, server
        assert len(not_met(s, "encountered")) == (server == "remote1")


def test_pass_filter_on_server_and_subtype(doc):
    """ "Whenever you pass a barrier protecting R&D": passed, filtered by server and subtype."""
    w = watcher("passed", {"server": "rd", "subtype": "barrier"}, 1, "Pass Watch")
    servers = {"rd": {"ice": [ice("Wall", ["barrier"]), ice("Gate", ["code gate"])]}}
    b = engine_board(runner={"credits": 0, "rig": {"hardware": [w]}}, servers=servers)
    s = run_to_end(engine.start(b, "run", doc, {"server": "rd"}))
    assert s.board["runner"]["credits"] == 1
    assert pending(s, "passed") == [["hardware.pass-watch.0"]]
    assert not_met(s, "passed") == [["hardware.pass-watch.0"]]  # the code gate, passed last
    passed_gate = next(e for e in s.trace if e.objects.get("when") == "passed")
    assert passed_gate.step == "step_pass_ice" and passed_gate.applied is False


def install_turn(doc, hand: list[dict], rig: dict, credits: int = 10):
    b = engine_board(turn="runner", runner={"credits": credits, "clicks": 0, "hand": hand, "rig": rig})
    return engine.start(b, "runner_turn", doc)


def test_install_filter_watches_every_runner_install_of_that_type(doc):
    """ "Whenever you install a program, gain 1[credit]" (a `card_type` filter on `installed`:
    every active card watches each install, the card installed itself too); installing a
    resource meets it not. Without a filter, "when installed" is only the card's own."""
    watch = watcher("installed", {"card_type": "program"}, 1, "Program Watch")
    breaker_watch = watcher(
        "installed", {"card_type": "program", "subtype": "icebreaker"}, 10, "Breaker Watch"
    )
    prog = {
        "name": "Corroder",
        "type": "program",
        "install_cost": 2,
        "subtypes": ["Icebreaker", "Fracter"],
        "strength": 2,
    }
    res = {"name": "Daily Casts", "type": "resource", "install_cost": 3}
    s = install_turn(doc, [prog, res], {"resources": [watch, breaker_watch]})
    while "install:corroder" not in decision_ids(s):
        s, _ = engine.apply(s, decision_ids(s)[0])
    s, ev = engine.apply(s, "install:corroder")
    assert [e.objects["pending"] for e in ev if e.objects.get("condition") == "installed"] == [
        ["resources.program-watch.0", "resources.breaker-watch.0"]
    ]
    while "install:daily-casts" not in decision_ids(s):
        ids = decision_ids(s)
        s, _ = engine.apply(s, next((i for i in ids if i.startswith("trigger:")), ids[0]))
    credits = s.board["runner"]["credits"]
    assert credits == 10 - 2 + 11
    s, ev = engine.apply(s, "install:daily-casts")
    assert s.board["runner"]["credits"] == credits - 3  # the resource meets neither filter
    skipped = [e for e in ev if e.objects.get("when") == "installed"]
    assert [e.objects["not_met"] for e in skipped] == [
        ["resources.program-watch.0", "resources.breaker-watch.0"]
    ]
    assert skipped[0].applied is False


def score_turn(doc, agenda: dict, area: list[dict], rig: dict | None = None):
    b = engine_board(
        corp={"credits": 0, "clicks": 0, "score_area": area},
        runner={"credits": 0, **({"rig": rig} if rig else {})},
        servers={"remote1": {"content": agenda}},
    )
    s = engine.start(b, "corp_turn", doc)
    while "score:remote1" not in decision_ids(s):
        s, _ = engine.apply(s, decision_ids(s)[0])
    return engine.apply(s, "score:remote1")


AGENDA3 = {
    "name": "Project Vitruvius",
    "type": "agenda",
    "agenda_points": 2,
    "advancement_requirement": 3,
    "advancements": 3,
}


def test_score_filter_watches_every_agenda_scored(doc):
    """ "Whenever the Corp scores an agenda" on a Runner card and "whenever you score an agenda"
    on an agenda already in the Corp's score area (active there, 4.5.4) both meet their
    condition when another agenda is scored; an unfiltered "when scored" of the old agenda
    does not (it is its own)."""
    old = {
        "name": "Old Deal",
        "type": "agenda",
        "agenda_points": 1,
        "triggers": [
            {
                "when": "scored",
                "filter": {"card_type": "agenda"},
                "effects": [{"effect": "gain_credits", "amount": 2}],
            },
            {"when": "scored", "effects": [{"effect": "gain_credits", "amount": 50}]},
        ],
    }
    rival = watcher("scored", {"card_type": "agenda", "server": "remote1"}, 1, "Rival")
    s, ev = score_turn(doc, AGENDA3, [old], {"resources": [rival]})
    assert [e.objects["pending"] for e in ev if e.objects.get("condition") == "scored"] == [
        ["resources.rival.0", "score_area.old-deal.0"]
    ]
    # one pending ability each: neither player is asked to order them
    assert s.board["corp"]["credits"] == 2 and s.board["runner"]["credits"] == 1
    fired = [e.objects["trigger"] for e in s.trace if "trigger" in e.objects]
    assert fired == ["score_area.old-deal.0", "resources.rival.0"]  # the Corp's turn: Corp first


def test_trace_initiated_filter_on_the_run_server(doc):
    """ "Whenever a trace is initiated during a run on HQ": `server` on trace_initiated is the
    run's server; a trace outside that run does not meet it."""
    w = watcher("trace_initiated", {"server": "hq"}, 1, "Tap")
    tracer = {
        "name": "Tracer",
        "rezzed": True,
        "subroutines": [{"effect": "trace", "strength": 0, "on_success": [], "on_failure": []}],
    }
    for server, want in (("hq", 1), ("rd", 0)):
        b = engine_board(
            runner={"credits": 0, "rig": {"resources": [w]}}, servers={server: {"ice": [tracer]}}
        )
        s = run_to_end(engine.start(b, "run", doc, {"server": server}))
        assert s.board["runner"]["credits"] == want, server
        assert len(pending(s, "trace_initiated")) == want
        assert len(not_met(s, "trace_initiated")) == 1 - want
