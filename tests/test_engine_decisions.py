"""Typed decisions (engine.decision): ids are parsed once into a `Decision`, name cards rather
than list positions (so an id keeps naming the same card when other cards move), and the
positional ids of older sessions and tokens still replay."""

from __future__ import annotations

import json

import pytest
from helpers import decision_ids, engine_board, load_doc

import engine
from engine.decision import Decision, card_ref, find_card

CORRODER = {
    "name": "Corroder",
    "type": "program",
    "strength": 2,
    "abilities": [{"kind": "break", "cost": 1, "count": 1, "ice_subtype": "barrier"}],
}
GORDIAN = {
    "name": "Gordian Blade",
    "type": "program",
    "strength": 2,
    "abilities": [{"kind": "break", "cost": 1, "count": 1, "ice_subtype": "code gate"}],
}


@pytest.fixture(scope="module")
def doc():
    return load_doc("26.03")


@pytest.mark.parametrize(
    "text",
    [
        "pass",
        "rez",
        "spend:3",
        "break:2",
        "run:remote3",
        "rez:hq.root.manta-grid",
        "rez:remote1.content",
        "use:corroder_2.1",
        "prevent:hardware.carapace.0",
        "trigger:resources.kati.0",
        "trigger:remote1.content.0",
        "trigger:rd.ice.ice-wall.0",
        "trash_resource:daily-casts",
        "play:hedge-fund",
        "install:ice-wall@new",
        "install:corroder",
        "access:archives.op_2",
        "use:2.0",
        "install:0@hq",
        "access:root.1",
        "interrupt:programs.disrupter.0",
        "interrupt:hq.root.booth.1",
        "trigger:accessed.snare.0",
        "hq:hedge-fund",
        "hq:2",
        "trash:programs.corroder_2",
        "trash:facedown.0",
        "grip:resources.daily-casts",
        "trash:corroder",
        "use:hardware.box.0",
        "use:resources.kati-jones_2.1",
        "derez:hq.ice.ice-wall",
        "expose:remote1.content",
    ],
)
def test_ids_parse_into_fields_and_back(text):
    d = Decision.from_id(text)
    assert d.id == text
    assert d.legacy == (text in ("use:2.0", "install:0@hq", "access:root.1", "hq:2", "trash:facedown.0"))


def test_parsed_fields():
    d = Decision.from_id("prevent:hardware.carapace.1")
    assert (d.kind, d.zone, d.card, d.index, d.pos) == ("prevent", "hardware", "carapace", 1, None)
    d = Decision.from_id("install:ice-wall@remote2")
    assert (d.kind, d.card, d.server) == ("install", "ice-wall", "remote2")
    assert Decision.from_id("spend:4").amount == 4
    old = Decision.from_id("use:2.0")
    assert (old.card, old.pos, old.index) == (None, 2, 0)
    assert old.named([CORRODER, GORDIAN, {"name": "Mr. Li"}]) == Decision.from_id("use:mr-li.0")


@pytest.mark.parametrize(
    "bad", ["", "use:", "spend:x", "run:nowhere", "rez:hq.attic.x", "access:deck.1", "x:y"]
)
def test_bad_ids_are_refused_with_a_reason(bad, doc):
    with pytest.raises(ValueError, match="not a decision id"):
        Decision.from_id(bad)
    s = engine.start(
        engine_board(servers={"hq": {"ice": [{"name": "Wall", "rezzed": True}]}}),
        "run",
        doc,
        {"server": "hq"},
    )
    with pytest.raises(engine.IllegalDecision, match="not a decision id"):
        engine.apply(s, bad)


def test_card_references_are_url_safe_and_tell_copies_apart():
    cards = [{"name": "Mr. Li"}, {"name": "Corroder"}, {"name": "Corroder"}, {"name": "404"}, {"name": "Æon"}]
    refs = [card_ref(cards, i) for i in range(len(cards))]
    assert refs == ["mr-li", "corroder", "corroder_2", "404_1", "on"]
    assert [find_card(cards, r) for r in refs] == [0, 1, 2, 3, 4]
    assert find_card(cards, "corroder_3") is None


def test_an_id_keeps_naming_its_card_when_another_card_moves(doc):
    """The Corp trashes Corroder mid-run (a subroutine): Gordian Blade moves from position 1 to 0
    of the rig, and its ability keeps the id it had ("use:1.0" would have become "use:0.0")."""
    trap = {
        "name": "Trap",
        "rezzed": True,
        "strength": 0,
        "subroutines": [{"effect": "trash_program", "amount": 1}],
    }
    gate = {
        "name": "Enigma",
        "rezzed": True,
        "strength": 1,
        "subtypes": ["code gate"],
        "subroutines": ["end_the_run"],
    }
    b = engine_board(runner={"rig": {"programs": [CORRODER, GORDIAN]}}, servers={"hq": {"ice": [trap, gate]}})
    s = engine.start(b, "run", doc, {"server": "hq"})
    # no breaker fits Trap: its subroutine resolves, and the Corp chooses the program to trash
    assert s.board["runner"]["rig"]["programs"][1]["name"] == "Gordian Blade"
    assert decision_ids(s) == ["trash:corroder", "trash:gordian-blade"]
    s, _ = engine.apply(s, "trash:corroder")
    while s.current_step != "step_encounter_paw":
        s, _ = engine.apply(s, "continue" if "continue" in decision_ids(s) else decision_ids(s)[0])
    assert [c["name"] for c in s.board["runner"]["rig"]["programs"]] == ["Gordian Blade"]
    assert "use:gordian-blade.0" in decision_ids(s)
    s, ev = engine.apply(s, "use:gordian-blade.0")
    assert any(e.objects.get("card") == "Gordian Blade" and e.objects.get("subroutines") == [0] for e in ev)


def test_positional_ids_of_older_sessions_still_replay(doc):
    """A session saved with positional ids ("rez:hq.root.1", "use:0.0", "access:root.0") loads; the decisions are
    recorded under the card-named ids, and the result is the same."""
    grids = [
        {"name": "Ash", "type": "upgrade", "rez_cost": 1},
        {"name": "Manta Grid", "type": "upgrade", "rez_cost": 1},
    ]
    wall = {
        "name": "Wall",
        "rezzed": True,
        "strength": 1,
        "subtypes": ["barrier"],
        "subroutines": ["end_the_run"],
    }
    b = engine_board(
        corp={"credits": 5},
        runner={"rig": {"programs": [CORRODER]}},
        servers={"hq": {"ice": [wall], "root": grids}},
    )
    old = ["rez:hq.root.1", "pass", "pass", "use:0.0", "continue", "pass", "access:root.0"]
    spec = engine.SessionSpec("26.03", "run", b, {"server": "hq"}, 0, old)
    s = engine.Session.from_json(spec.to_json(), doc)
    assert s.decisions == [
        "rez:hq.root.manta-grid",
        "pass",
        "pass",
        "use:corroder.0",
        "continue",
        "pass",
        "access:root.ash",
    ]
    assert s.outcome.accessed == ["Ash"]
    assert [g["rezzed"] for g in s.board["servers"]["hq"]["root"]] == [False, True]
    again = engine.replay(b, "run", doc, {"server": "hq"}, 0, s.decisions)
    assert again.board == s.board and again.current_step == s.current_step
    with pytest.raises(engine.IllegalDecision):
        engine.replay(b, "run", doc, {"server": "hq"}, 0, ["rez:hq.root.2"])  # no third card


def test_the_outcome_is_typed_and_serialises_to_the_documented_shape(doc):
    wall = {"name": "Wall", "rezzed": True, "subroutines": ["end_the_run"]}
    s = engine.start(engine_board(servers={"hq": {"ice": [wall]}}), "run", doc, {"server": "hq"})
    while not s.finished:
        s, _ = engine.apply(s, "pass" if "pass" in decision_ids(s) else decision_ids(s)[0])
    o = s.outcome
    assert o.run == "unsuccessful" and o.runs[0].ended_by == "end_the_run" and o.runs[0].server == "hq"
    data = json.loads(json.dumps(o.to_dict()))
    assert data["runs"] == [{"server": "hq", "result": "unsuccessful", "ended_by": "end_the_run"}]
    assert set(data) == {
        "run",
        "runs",
        "accessed",
        "stolen",
        "trashed",
        "trashed_programs",
        "scored",
        "winner",
        "win_reason",
        "corp",
        "runner",
        "archives_faceup",
    }
    assert data["runner"]["memory"] == {"used": 0, "limit": s.board["runner"]["memory_limit"]}


def test_choices_inside_an_effect_name_cards_and_accept_old_positions(doc):
    """ "Trash 2 installed programs" (the Runner chooses) and "You may trash 1 card from HQ": the
    choices name cards (`trash:programs.corroder_2`, `hq:hedge-fund`), copies told apart; the
    positional ids of older tokens (`trash:programs.0`, `hq:1`) replay and are recorded named."""
    sub = [{"effect": "trash_installed", "amount": 2, "card_types": ["program"], "chooser": "runner"}]
    progs = [CORRODER, GORDIAN, CORRODER]
    b = engine_board(runner={"rig": {"programs": progs}})
    s = engine.start(b, "subroutine", doc, {"subroutine": sub})
    assert decision_ids(s) == [
        "trash:programs.corroder",
        "trash:programs.gordian-blade",
        "trash:programs.corroder_2",
    ]
    s, _ = engine.apply(s, "trash:programs.corroder_2")
    assert decision_ids(s) == ["trash:programs.corroder", "trash:programs.gordian-blade"]
    s, ev = engine.apply(s, "trash:programs.gordian-blade")
    assert [c["name"] for c in s.board["runner"]["rig"]["programs"]] == ["Corroder"]
    done = next(e for e in ev if e.objects.get("targets"))
    assert done.objects["targets"] == ["programs.gordian-blade", "programs.corroder_2"]
    # the same choices as an older token wrote them (positions): same result, named record
    old = engine.replay(
        b, "subroutine", doc, {"subroutine": sub}, 0, ["trash:programs.2", "trash:programs.1"]
    )
    assert old.board == s.board and old.decisions == s.decisions
    assert old.decisions == ["trash:programs.corroder_2", "trash:programs.gordian-blade"]

    boto = [{"effect": "may_trash_from_hand", "amount": 1, "effects": ["end_the_run"]}]
    hb = engine_board(corp={"hand": ["Hedge Fund", "Ice Wall", "Hedge Fund"]})
    s = engine.start(hb, "subroutine", doc, {"subroutine": boto})
    assert decision_ids(s) == ["hq:hedge-fund", "hq:ice-wall", "hq:hedge-fund_2", "dont_trash"]
    s, ev = engine.apply(s, "hq:ice-wall")
    assert [c["name"] for c in s.board["corp"]["hand"]] == ["Hedge Fund", "Hedge Fund"]
    assert next(e for e in ev if e.objects.get("cards")).objects["hq"] == [1]
    old = engine.replay(hb, "subroutine", doc, {"subroutine": boto}, 0, ["hq:1"])
    assert old.decisions == ["hq:ice-wall"] and old.board == s.board
