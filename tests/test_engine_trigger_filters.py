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


@pytest.mark.parametrize(
    "trigger, fragment",
    [
        ({"when": "accessed", "filter": {"card_type": "program"}}, "card_type"),
        ({"when": "accessed", "filter": {"server": "attic"}}, "server"),
        ({"when": "passed", "filter": {"server": "hq"}}, "only a trigger on"),
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
