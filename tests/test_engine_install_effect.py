"""Install as an effect (issue 32): "You may install 1 card from HQ." (Scatter Field), "Install up to 2
cards from HQ." (Top-Down Solutions), "... from Archives or HQ, ignoring all costs." (Drafter,
Mycoweb). The Corp chooses the card and where it goes among the places the install action allows
(8.5.16; new ice outermost, 8.5.11a, at one credit per ice already protecting the server,
1.16.6b), pays no cost when told to ignore all costs (1.16.5c), and the card is installed unrezzed.
Ice installed on the server of the run in progress goes outward of the Runner, who stays at the
same ice. Real cards by name, on CR 24.03 and 26.03."""

from __future__ import annotations

import pytest
from helpers import load_doc

import engine
from engine.cardtext import MODELED, parse_effects


@pytest.fixture(scope="module")
def card(titled):
    def make(title: str, **extra) -> dict:
        c = titled.card(title)
        c.pop("text", None)
        return {**c, **extra}

    return make


@pytest.fixture(scope="module")
def units(titled):
    return titled.units


@pytest.fixture(params=["24.03", "26.03"])
def doc(request):
    return load_doc(request.param)


def ids(s) -> list[str]:
    return [d["id"] for d in engine.legal_decisions(s)]


def step_until(s, done, prefer=("pass", "continue")):
    for _ in range(80):
        if done(s) or s.finished:
            return s
        legal = ids(s)
        engine.push(s, next((x for x in prefer if x in legal), legal[0]))
    raise AssertionError("never reached")


def offered(s) -> bool:
    return any(i.startswith("install:") for i in ids(s))


def test_translations(units):
    assert parse_effects("Install up to 2 cards from HQ.", "corp") == [
        {"effect": "install", "amount": 2, "up_to": True}
    ]
    assert parse_effects("You may install 1 piece of ice from Archives, ignoring all costs.", "corp") == [
        {
            "effect": "install",
            "amount": 1,
            "from": ["archives"],
            "card_types": ["ice"],
            "optional": True,
            "ignore_costs": True,
        }
    ]
    # the Runner's installs and installs with a place the engine does not offer stay by hand
    assert parse_effects("You may install 1 program or piece of hardware from your grip.", "runner") is None
    assert parse_effects("You may install 1 card from HQ in the root of a remote server.", "corp") is None
    for title in ("Top-Down Solutions", "The Powers That Be"):
        assert all(u.status == MODELED for u in units(title))
    assert [u.status for u in units("Scatter Field")] == [MODELED] * 3


def run_board(ice: list[dict], hand: list, credits: int = 5, discard: list | None = None) -> dict:
    return {
        "version": 2,
        "turn": "runner",
        "corp": {"credits": credits, "hand": hand, "deck": 10, "discard": discard or []},
        "runner": {"credits": 5, "clicks": 3, "hand": 3, "deck": 10},
        "servers": {"hq": {"ice": ice}, "remote1": {"content": {"name": "Asset", "type": "asset"}}},
    }


def test_scatter_field_installs_ice_on_the_attacked_server_and_the_runner_stays(card, doc):
    """Scatter Field's first subroutine installs Ice Wall protecting HQ (1 credit: one ice there);
    its second subroutine is still Scatter Field's and ends the run."""
    b = run_board([card("Scatter Field", rezzed=True)], [card("Ice Wall"), card("Hedge Fund")])
    s = step_until(engine.start(b, "run", doc, {"server": "hq"}), offered)
    legal = ids(s)
    # every server and a new remote for the ice; the operation is not installable; "you may"
    assert {"install:ice-wall@hq", "install:ice-wall@rd", "install:ice-wall@archives"} <= set(legal)
    assert "install:ice-wall@new" in legal and "done" in legal
    assert not any("hedge-fund" in i for i in legal)
    assert all(d["player"] == "corp" for d in engine.legal_decisions(s))
    engine.push(s, "install:ice-wall@hq")
    assert [c["name"] for c in s.board["servers"]["hq"]["ice"]] == ["Ice Wall", "Scatter Field"]
    assert s.board["servers"]["hq"]["ice"][0]["rezzed"] is False
    assert s.board["corp"]["credits"] == 4
    # still at Scatter Field, now the second ice from outside: its second subroutine resolves
    second = [e for e in s.trace if "resolves unbroken subroutine 2" in e.text]
    assert second and "Scatter Field" in second[0].text
    s = step_until(s, lambda s: not any(f.s == "run" for f in s.frames))
    assert s.outcome.run == "unsuccessful"
    installs = [e for e in s.trace if "rule_installing" in e.rules and "installs Ice Wall" in e.text]
    assert installs and "rule_corp_basic_action_install" not in installs[0].rules


def test_ice_the_corp_cannot_pay_for_is_not_offered_and_declining_installs_nothing(card, doc):
    b = run_board([card("Scatter Field", rezzed=True)], [card("Ice Wall")], credits=0)
    s = step_until(engine.start(b, "run", doc, {"server": "hq"}), offered)
    legal = ids(s)
    assert "install:ice-wall@hq" not in legal and "install:ice-wall@new" in legal  # 0 credits: no ice there
    engine.push(s, "done")
    assert [c["name"] for c in s.board["corp"]["hand"]] == ["Ice Wall"]


def test_drafter_installs_from_archives_ignoring_all_costs(card, doc):
    wall = card("Ice Wall", faceup=True)
    b = run_board([card("Drafter", rezzed=True)], [], credits=0, discard=[wall])
    s = engine.start(b, "run", doc, {"server": "hq"})
    s = step_until(s, lambda s: "install:archives.ice-wall@hq" in ids(s), prefer=("continue", "done", "pass"))
    engine.push(s, "install:archives.ice-wall@hq")  # one ice protects HQ: cost ignored
    assert s.board["corp"]["credits"] == 0 and s.board["corp"]["discard"] == []
    installed = s.board["servers"]["hq"]["ice"][0]
    assert installed["name"] == "Ice Wall" and installed["rezzed"] is False and "faceup" not in installed


def test_top_down_solutions_installs_up_to_two_one_at_a_time(card, doc):
    tds = card("Top-Down Solutions")
    hand = [tds, card("Ice Wall"), card("PAD Campaign"), card("Hedge Fund")]
    b = {
        "version": 2,
        "turn": "corp",
        "corp": {"credits": 10, "clicks": 0, "hand": hand, "deck": 10},
        "runner": {"hand": 3},
        "servers": {},
    }
    s = step_until(engine.start(b, "corp_turn", doc), lambda s: "play:top-down-solutions" in ids(s))
    engine.push(s, "play:top-down-solutions")
    s = step_until(s, offered)
    assert len(s.board["corp"]["hand"]) == 3 + 1 + 2  # the mandatory draw, then its 2 cards
    engine.push(s, "install:pad-campaign@new")
    assert s.board["servers"]["remote1"]["content"]["name"] == "PAD Campaign"
    assert offered(s) and "done" in ids(s)  # up to 2: a second, or stop
    assert "install:pad-campaign@new" not in ids(s)
    engine.push(s, "install:ice-wall@remote1")
    assert not offered(s)  # two installed: no more
    assert [c["name"] for c in s.board["servers"]["remote1"]["ice"]] == ["Ice Wall"]
    s = step_until(s, lambda s: any(c["name"] == "Top-Down Solutions" for c in s.board["corp"]["discard"]))
    assert s.board["corp"]["credits"] == 10 - tds.get("play_cost", 0)  # ice on an empty server: 0


def test_a_bad_install_effect_is_refused_with_its_path():
    op = {"name": "X", "type": "operation", "effects": [{"effect": "install", "from": ["stack"]}]}
    problems = engine.validate_board({"version": 2, "corp": {"hand": [op]}, "runner": {}})
    assert any(p.startswith("corp.hand[0].effects[0].from[0]: must be one of hq") for p in problems), problems
    ev = {"name": "Y", "type": "event", "effects": [{"effect": "install"}]}
    problems = engine.validate_board({"version": 2, "runner": {"hand": [ev]}, "corp": {}})
    assert any("can only be used on Corp cards" in p for p in problems), problems


def test_poetri_installs_after_a_steal_in_a_new_server_the_breach_does_not_see(card, doc):
    """Poétrï: "Whenever an agenda is stolen, you may install 1 non-agenda card from HQ." The
    Runner steals the only card of remote1, which ceases to exist (4.6.8e); the new remote the
    Corp installs in is another server (remote2), not a card of the breach in progress."""
    ident = card("Poétrï Luxury Brands: All the Rage")
    agenda = {"name": "Agenda", "type": "agenda", "agenda_points": 2, "advancement_requirement": 3}
    b = {
        "version": 2,
        "turn": "runner",
        "corp": {"credits": 5, "hand": [card("PAD Campaign"), card("Hostile Takeover")], "deck": 10},
        "runner": {"credits": 5, "clicks": 3, "hand": 3, "deck": 10},
        "servers": {"remote1": {"content": agenda}},
    }
    b["corp"]["identity"] = ident
    s = engine.start(b, "run", doc, {"server": "remote1"})
    s = step_until(
        s, lambda s: any(i.startswith("trigger:corp_identity") for i in ids(s)), ("steal", "pass", "continue")
    )
    engine.push(s, next(i for i in ids(s) if i.startswith("trigger:corp_identity")))
    s = step_until(s, offered)
    assert "install:pad-campaign@new" in ids(s)
    assert not any("hostile-takeover" in i for i in ids(s))  # non-agenda only
    engine.push(s, "install:pad-campaign@new")
    s = step_until(s, lambda s: s.finished)
    assert s.board["servers"]["remote2"]["content"]["name"] == "PAD Campaign"
    assert not any("accesses PAD Campaign" in e.text for e in s.trace)
