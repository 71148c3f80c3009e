"""The Corp's identity on the board (`corp.identity`, issue 32/33): real Corp identities picked by
name (engine.cardtext.board_card from the NetrunnerDB snapshot) with their abilities run by the
engine's trigger and ability machinery. Identities are always active (CR 4.6.4a, 1.8.3d): no
rez, no server. A paragraph the engine cannot apply is surfaced by hand where its condition is
met, or shown on the board, never dropped."""

from __future__ import annotations

import pytest
from helpers import by_title_fixtures

import engine
from engine.cardtext import BY_HAND, MODELED, NOT_APPLICABLE, SHOWN
from engine.machine import max_hand
from webapp import create_app
from webapp.board_picture import board_picture

card, units, doc = by_title_fixtures()


def remote_agenda_board(identity: dict, agenda: dict, **runner) -> dict:
    return {
        "version": 2,
        "corp": {"credits": 5, "hand": 3, "deck": 10, "identity": identity},
        "runner": {"credits": 5, "clicks": 3, "hand": 5, **runner},
        "servers": {"remote1": {"content": agenda}},
    }


def ids(s) -> list[str]:
    return [d["id"] for d in engine.legal_decisions(s)]


def until(s, wanted: str, limit: int = 60):
    """Take the first offered decision (passing, continuing, stealing) until `wanted` is offered."""
    for _ in range(limit):
        legal = ids(s)
        if wanted in legal:
            return s
        assert not s.finished, f"finished before {wanted}: {s.decisions}"
        pick = next((x for x in ("steal", "continue", "pass") if x in legal), legal[0])
        engine.push(s, pick)
    raise AssertionError(f"{wanted} never offered")


def test_thule_subsea_units_and_board_object(card, units):
    th = card("Thule Subsea: Safety Below")
    assert "type" not in th  # an identity, not a card installed anywhere
    (u,) = units("Thule Subsea: Safety Below")
    assert u.status == MODELED and u.at == "stolen"
    assert th["triggers"] == [
        {
            "when": "stolen",
            "effects": [
                {
                    "effect": "unless_pays",
                    "amount": 2,
                    "clicks": 1,
                    "effects": [{"effect": "core_damage", "amount": 1}],
                }
            ],
        }
    ]
    assert engine.validate_board(remote_agenda_board(th, card("Hostile Takeover"))) == []


@pytest.mark.parametrize("pay", [True, False])
def test_thule_subsea_when_the_runner_steals(card, doc, pay):
    # "Whenever the Runner steals an agenda, do 1 core damage unless they spend [click] and
    # 2[credit]." The identity is active (4.6.4a); the ability triggers when the agenda is stolen
    # (7.2.3 via the stolen condition) and the Runner chooses to pay the whole cost or not.
    b = remote_agenda_board(card("Thule Subsea: Safety Below"), card("Hostile Takeover"))
    s = engine.start(b, "run", doc, {"server": "remote1"})
    until(s, "pay")
    assert "dont_pay" in ids(s)
    assert any("Thule Subsea" in e.text for e in s.trace if "become pending" in e.text)
    clicks, credits = s.board["runner"]["clicks"], s.board["runner"]["credits"]
    engine.push(s, "pay" if pay else "dont_pay")
    r = s.board["runner"]
    if pay:
        assert (r["clicks"], r["credits"], r["core_damage"]) == (clicks - 1, credits - 2, 0)
    else:
        assert (r["clicks"], r["credits"], r["core_damage"]) == (clicks, credits, 1)


def test_thule_subsea_cannot_pay_without_a_click(card, doc):
    # the cost is the click and the credits together: with no click left it cannot be paid, the
    # damage is done
    b = remote_agenda_board(card("Thule Subsea: Safety Below"), card("Hostile Takeover"), clicks=0)
    s = engine.start(b, "run", doc, {"server": "remote1"})
    for _ in range(60):
        if s.finished:
            break
        legal = ids(s)
        assert "pay" not in legal
        engine.push(s, next((x for x in ("steal", "continue", "pass") if x in legal), legal[0]))
    assert s.board["runner"]["core_damage"] == 1


def test_no_identity_trigger_without_a_steal(card, doc):
    # a run on a server with nothing to steal: the stolen condition is never met
    b = remote_agenda_board(card("Thule Subsea: Safety Below"), {"name": "PAD Campaign", "type": "asset"})
    s = engine.start(b, "run", doc, {"server": "remote1"})
    while not s.finished:
        legal = ids(s)
        assert "pay" not in legal
        engine.push(s, next((x for x in ("no_trash", "continue", "pass") if x in legal), legal[0]))
    assert s.board["runner"]["core_damage"] == 0


def test_haas_bioroid_hand_size_and_by_hand_score_trigger(card, units):
    # "You get +1 maximum hand size." (a constant ability, 4.3.6 / 5.5.3); "Whenever you score an
    # agenda, you may add 1 card from Archives to HQ." is surfaced by hand when an agenda is scored
    hb = card("Haas-Bioroid: Precision Design")
    got = {u.text: (u.status, u.at) for u in units("Haas-Bioroid: Precision Design")}
    assert got["You get +1 maximum hand size."] == (MODELED, None)
    assert got["Whenever you score an agenda, you may add 1 card from Archives to HQ."] == (BY_HAND, "scored")
    b = engine.normalise_board({"version": 2, "corp": {"identity": hb}})
    assert max_hand(b, "corp") == 6
    assert max_hand(engine.normalise_board({"version": 2}), "corp") == 5
    (tr,) = hb["triggers"]
    assert tr["when"] == "scored" and tr["filter"] == {"card_type": "agenda"}
    assert tr["effects"][0]["effect"] == "text"


def test_haas_bioroid_discard_phase_keeps_six(card, doc):
    # 5.5.4c: the Corp discards down to its maximum hand size, 6 with the identity
    hb = card("Haas-Bioroid: Precision Design")
    b = {"version": 2, "turn": "corp", "corp": {"clicks": 3, "hand": 8, "deck": 10, "identity": hb}}
    s = engine.start(b, "corp_turn", doc)
    for _ in range(80):
        if s.finished:
            break
        legal = ids(s)
        pick = next((x for x in legal if x.startswith("discard:")), None)
        pick = pick or next((x for x in ("credit", "pass", "continue", "done") if x in legal), legal[0])
        engine.push(s, pick)
    assert s.finished
    assert len(s.board["corp"]["hand"]) == 6


def test_earth_station_click_ability_by_hand(card, units, doc):
    # "[click]: Flip this identity." an action (5.2.6a) the engine offers in the Corp's action
    # window; its effect (flipping) is resolved by hand. The other paragraphs: "Limit 1 remote
    # server." and the additional cost to run HQ are shown on the board for the judge.
    es = card("Earth Station: SEA Headquarters")
    got = {u.text: u.status for u in units("Earth Station: SEA Headquarters")}
    assert got["[click]: Flip this identity."] == BY_HAND
    assert got["Limit 1 remote server."] == SHOWN
    assert got["As an additional cost to run HQ, the Runner must pay 1[credit]."] == SHOWN
    assert "As an additional cost to run HQ, the Runner must pay 1[credit]." in es["unmodeled"]
    b = {"version": 2, "turn": "corp", "corp": {"clicks": 0, "hand": 3, "deck": 10, "identity": es}}
    s = engine.start(b, "corp_turn", doc)
    aid = "ability:corp_identity.earth-station-sea-headquarters.0"
    until(s, aid)
    clicks = s.board["corp"]["clicks"]
    engine.push(s, aid)
    assert s.board["corp"]["clicks"] == clicks - 1
    assert "resolved" in ids(s)  # the flip, by hand


def test_pravdivost_first_successful_run_by_hand(card, doc):
    # "The first time each turn the Runner makes a successful run, ..." the engine keeps no
    # once-per-turn limit on triggers: surfaced by hand at the successful run (6.9.5a)
    pc = card("Pravdivost Consulting: Political Solutions")
    b = {"version": 2, "corp": {"identity": pc}, "runner": {"clicks": 3}}
    s = engine.start(b, "run", doc, {"server": "hq"})
    until(s, "resolved")
    assert s.current_step is not None
    assert any("Pravdivost" in e.text for e in s.trace if "become pending" in e.text)


def test_deckbuilding_text_is_not_applicable(units):
    got = {u.text: u.status for u in units("Ampère: Cybernetics For Anyone")}
    assert set(got.values()) == {NOT_APPLICABLE}


def test_corp_identity_validation_names_each_problem():
    problems = engine.validate_board(
        {
            "version": 2,
            "corp": {
                "identity": {
                    "name": "X",
                    "hand_size": -1,
                    "base_link": 1,
                    "triggers": [{"when": "never", "effects": []}],
                    "abilities": [{"kind": "break", "cost": 1}],
                }
            },
        }
    )
    text = "\n".join(problems)
    assert "corp.identity.hand_size: must be a non-negative integer" in text
    assert "corp.identity.base_link: unknown field" in text
    assert "corp.identity.triggers[0]: must be an object with 'when'" in text
    assert "corp.identity.abilities[0]" in text
    assert engine.validate_board({"version": 2, "corp": {"identity": 3}}) == [
        "corp.identity: must be an identity name or an object"
    ]
    # a name alone is an identity with no abilities
    b = engine.normalise_board({"version": 2, "corp": {"identity": "Weyland Consortium: Built to Last"}})
    assert b["corp"]["identity"] == {"name": "Weyland Consortium: Built to Last"}


def test_board_picture_shows_the_corp_identity(card):
    # like the Runner's identity: its name by the Corp's, its abilities and the by-hand text
    pic = board_picture({"version": 2, "corp": {"identity": card("Earth Station: SEA Headquarters")}})
    ident = pic["corp"]["identity"]
    assert ident["name"] == "Earth Station: SEA Headquarters"
    assert ident["by_hand"] == 3  # the [click] ability resolved by hand and the two shown paragraphs
    assert any("Flip this identity" in a for a in ident["abilities"])
    notes = [n["text"] for n in ident["notes"]]
    assert "As an additional cost to run HQ, the Runner must pay 1[credit]." in notes
    hb = board_picture({"version": 2, "corp": {"identity": card("Haas-Bioroid: Precision Design")}})
    assert hb["corp"]["identity"]["notes"][0] == {"text": "+1 maximum hand size", "by_hand": False}
    assert board_picture({"version": 2})["corp"]["identity"] is None


def test_stepper_page_draws_the_corp_identity(card, build_dir):
    app = create_app({"TESTING": True, "BUILD_DIR": str(build_dir), "SECRET_KEY": "corp-identity-key" * 2})
    client = app.test_client()
    board = remote_agenda_board(card("Thule Subsea: Safety Below"), card("Hostile Takeover"))
    d = client.post(
        "/api/engine/sessions", json={"board": board, "structure": "run", "params": {"server": "remote1"}}
    ).get_json()
    html = client.get(d["url"]).get_data(as_text=True)
    corp = html[html.index('<div class="bp-side bp-corp">') :]
    corp = corp[: corp.index('<div class="bp-side bp-runner">')]
    assert "<small>Thule Subsea: Safety Below</small>" in corp
    assert "When stolen:" in corp and "core damage" in corp


def test_card_board_api_gives_the_corp_identity_object(cards_built):
    # the editor's path: /api/cards/<card>/board gives the identity's board object and units
    app = create_app({"TESTING": True, "BUILD_DIR": str(cards_built), "SECRET_KEY": "corp-identity-key" * 2})
    p = app.test_client().get("/api/cards/thule_subsea_safety_below/board").get_json()
    obj = p["card"]
    assert obj["name"] == "Thule Subsea: Safety Below" and "type" not in obj
    assert obj["triggers"][0]["when"] == "stolen"
    assert [u["status"] for u in p["units"]] == ["modeled"] and p["by_hand"] == 0
    assert engine.validate_board({"version": 2, "corp": {"identity": obj}}) == []


def test_jinteki_personal_evolution_on_steal(card, doc):
    # "Whenever an agenda is scored or stolen, do 1 net damage." one printed ability, two trigger
    # conditions (scored: any agenda the Corp scores; stolen): the steal does 1 net damage, a
    # card of the grip trashed at random
    pe = card("Jinteki: Personal Evolution")
    assert [t["when"] for t in pe["triggers"]] == ["scored", "stolen"]
    b = remote_agenda_board(pe, card("Hostile Takeover"))
    s = engine.start(b, "run", doc, {"server": "remote1"})
    while not s.finished:
        legal = ids(s)
        engine.push(s, next((x for x in ("steal", "continue", "pass") if x in legal), legal[0]))
    r = s.board["runner"]
    assert len(r["hand"]) == 4 and len(r["discard"]) == 1
    assert any("Jinteki: Personal Evolution" in e.text for e in s.trace if "become pending" in e.text)
