"""The Corp choosing the cards the Runner accesses from HQ where a card's text gives it that
choice (Dedicated Neural Net; rule_corp_choosing_candidates_breaching_hq): whenever the
Runner chooses to access a candidate from HQ, the Corp chooses which one instead of a random
card; other candidates (an upgrade in the root) are still the Runner's to choose."""

from __future__ import annotations

import pytest
from helpers import decision_ids, engine_board, load_doc

import engine


@pytest.fixture(params=["22.12", "24.03", "26.03"])
def doc(request):
    return load_doc(request.param)


HAND = ["Hedge Fund", {"name": "Hostile Takeover", "type": "agenda", "agenda_points": 1}, "Ice Wall"]


def play(s, corp_pick: str):
    while not s.finished:
        ids = decision_ids(s)
        if corp_pick in ids:
            s, _ = engine.apply(s, corp_pick)
            continue
        s, _ = engine.apply(s, "pass" if "pass" in ids else "continue" if "continue" in ids else ids[0])
    return s


def test_the_corp_chooses_the_hq_card_accessed(doc):
    b = engine_board(corp={"hand": HAND})
    s = engine.start(b, "run", doc, {"server": "hq", "corp_chooses_hq": True})
    while not any(i.startswith("hq:") for i in decision_ids(s)):
        ids = decision_ids(s)
        s, _ = engine.apply(s, "pass" if "pass" in ids else "continue" if "continue" in ids else ids[0])
    offered = engine.legal_decisions(s)
    assert [d["id"] for d in offered] == ["hq:hedge-fund", "hq:hostile-takeover", "hq:ice-wall"]
    assert {d["player"] for d in offered} == {"corp"}
    s, ev = engine.apply(s, "hq:ice-wall")
    assert any(
        "rule_corp_choosing_candidates_breaching_hq" in e.rules and e.objects.get("card") == "Ice Wall"
        for e in ev
    )
    s = play(s, "hq:none")
    assert s.outcome.accessed == ["Ice Wall"] and s.outcome.stolen == []


def test_access_two_corp_chooses_each_without_repeats(doc):
    b = engine_board(corp={"hand": HAND})
    s = engine.start(b, "run", doc, {"server": "hq", "corp_chooses_hq": True, "additional_access": 1})
    seen = []
    while not s.finished:
        ids = decision_ids(s)
        picks = [i for i in ids if i.startswith("hq:")]
        if picks:
            seen.append(picks)
            s, _ = engine.apply(s, picks[-1])
            continue
        s, _ = engine.apply(s, "pass" if "pass" in ids else "continue" if "continue" in ids else ids[0])
    assert seen == [
        ["hq:hedge-fund", "hq:hostile-takeover", "hq:ice-wall"],
        ["hq:hedge-fund", "hq:hostile-takeover"],
    ]
    assert s.outcome.accessed == ["Ice Wall", "Hostile Takeover"] and s.outcome.stolen == ["Hostile Takeover"]


def test_without_the_effect_hq_access_stays_random(doc):
    s = play(engine.start(engine_board(corp={"hand": HAND}), "run", doc, {"server": "hq"}), "hq:none")
    assert len(s.outcome.accessed) == 1
    assert not any("rule_corp_choosing_candidates_breaching_hq" in e.rules for e in s.trace)


def test_dedicated_neural_net_style_trigger_gives_the_corp_the_choice(doc):
    """A rezzed upgrade in HQ's root: "when a successful run on HQ ..., you choose which cards the
    Runner accesses from HQ for the remainder of this run"; the root upgrade is still the
    Runner's candidate."""
    dnn = {
        "name": "DNN Grid",
        "type": "upgrade",
        "rezzed": True,
        "rez_cost": 0,
        "triggers": [
            {"when": "successful_run", "filter": {"server": "hq"}, "effects": ["corp_chooses_hq_access"]}
        ],
    }
    b = engine_board(corp={"hand": HAND}, servers={"hq": {"root": [dnn]}})
    s = engine.start(b, "run", doc, {"server": "hq"})
    while not s.finished and not any(i.startswith("access:") or i.startswith("hq:") for i in decision_ids(s)):
        ids = decision_ids(s)
        s, _ = engine.apply(s, "pass" if "pass" in ids else "continue" if "continue" in ids else ids[0])
    assert set(decision_ids(s)) == {"access:root.dnn-grid", "access:hq"}
    s, _ = engine.apply(s, "access:hq")
    assert decision_ids(s) == ["hq:hedge-fund", "hq:hostile-takeover", "hq:ice-wall"]
    s = play(engine.apply(s, "hq:hedge-fund")[0], "hq:none")
    assert s.outcome.accessed[0] == "Hedge Fund"


def test_corp_chooses_hq_param_is_validated(doc):
    with pytest.raises(engine.BoardError, match="corp_chooses_hq"):
        engine.start(engine_board(), "run", doc, {"server": "hq", "corp_chooses_hq": "yes"})


def test_outside_hq_the_cr_gives_the_corp_no_choice_of_access(doc):
    """7.3.4 (the Runner chooses each candidate), 7.4.1a/c/d and 7.4.7 (R&D from the top down):
    the Corp's choice is HQ's alone (7.3.4b). With the effect active, a breach of R&D, Archives
    or a remote offers the Corp no access decision, and R&D is still accessed from the top."""
    agenda = {"name": "Hostile Takeover", "type": "agenda", "agenda_points": 1}
    grid = {"name": "Manta Grid", "type": "upgrade"}
    corp = {"deck": ["Top Card", agenda, "Third"], "discard": ["Old", "Older"]}
    servers = {
        "rd": {"root": [grid]},
        "remote1": {"root": [{**grid, "name": "Ash"}], "content": {"name": "PAD Campaign", "type": "asset"}},
    }
    for server, extra in (("rd", 1), ("archives", 0), ("remote1", 0)):
        params = {
            "server": server,
            "corp_chooses_hq": True,
            **({"additional_access": extra} if extra else {}),
        }
        s = engine.start(engine_board(corp=corp, servers=servers), "run", doc, params)
        corp_asked = set()
        while not s.finished:
            offered = engine.legal_decisions(s)
            corp_asked |= {d["id"] for d in offered if d["player"] == "corp" and d["id"] != "pass"}
            ids = [d["id"] for d in offered]
            s, _ = engine.apply(s, "pass" if "pass" in ids else "continue" if "continue" in ids else ids[0])
        assert not any(i.startswith(("hq:", "access:")) for i in corp_asked), (server, corp_asked)
        assert not any("rule_corp_choosing_candidates_breaching_hq" in e.rules for e in s.trace), server
        if server == "rd":
            assert [a for a in s.outcome.accessed if a != "Manta Grid"] == ["Top Card", "Hostile Takeover"]
        assert s.outcome.accessed, server
