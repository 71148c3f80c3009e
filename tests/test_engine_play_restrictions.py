"""Play restrictions (CR 9.3.3, 9.3.3b: "Play only if ..." constrains when a card can be played)
on real operations and events picked by name (engine.cardtext -> `play_if`). One evaluation
(engine.turns.play_blocked) decides: the action window offers `play:CARD` only when the
restriction is met, and the refusal of the same card gives its reason. The facts a restriction
reads are the board's: tags, the threat level, agenda points, and what the board says of the
Runner's last turn (`runner.last_turn`; the Digital Rights Management ruling: with no such turn
the restriction is not met)."""

from __future__ import annotations

import pytest
from helpers import by_title_fixtures

import engine
from engine.cardtext import BY_HAND, MODELED

card, units, doc = by_title_fixtures()


def ids(s) -> list[str]:
    return [d["id"] for d in engine.legal_decisions(s)]


def to_action_window(s, side: str):
    for _ in range(30):
        if s.current_step == f"step_{side}_turn_action":
            return s
        legal = ids(s)
        engine.push(s, next((x for x in ("pass", "continue") if x in legal), legal[0]))
    raise AssertionError(f"no {side} action window: {s.current_step}")


def corp_turn(doc, hand: list[dict], tags: int = 0, **runner):
    b = {
        "version": 2,
        "turn": "corp",
        "corp": {"credits": 10, "clicks": 0, "hand": hand, "deck": 10},
        "runner": {"tags": tags, **runner},
    }
    return to_action_window(engine.start(b, "corp_turn", doc), "corp")


def refusal(s, did: str) -> engine.Refusal | None:
    return next((r for r in engine.refused_decisions(s) if r.id == did), None)


def test_hypoxia_units_and_board_object(card, units):
    hx = card("Hypoxia")
    assert hx["play_if"] == {"runner_tagged": True}
    got = {u.text: u.status for u in units("Hypoxia")}
    assert got["Play only if the Runner is tagged."] == MODELED
    # the rest of the play ability is resolved by hand, without the restriction in its text
    assert got["Do 1 core damage. The Runner gets -1 allotted [click] for their next turn."] == BY_HAND
    assert "Play only" not in hx["effects"][0]["text"]


@pytest.mark.parametrize("tags", [0, 1])
def test_hypoxia_play_only_if_the_runner_is_tagged(card, doc, tags):
    s = corp_turn(doc, [card("Hypoxia")], tags=tags)
    r = refusal(s, "play:hypoxia")
    if tags:
        assert "play:hypoxia" in ids(s) and r is None
        engine.push(s, "play:hypoxia")
        assert s.board["corp"]["credits"] == 10 - card("Hypoxia")["play_cost"]
    else:
        assert "play:hypoxia" not in ids(s)
        assert r is not None and "play only if the Runner is tagged" in r.reason
        assert r.rule in ("rule_act_restriction", "rule_card_precedence")
        with pytest.raises(engine.IllegalDecision, match="play only if the Runner is tagged"):
            engine.apply(s, "play:hypoxia")


def test_shipment_from_vladisibirsk_needs_two_tags(card, doc):
    assert card("Shipment from Vladisibirsk")["play_if"] == {"runner_min_tags": 2}
    one = corp_turn(doc, [card("Shipment from Vladisibirsk")], tags=1)
    assert "play:shipment-from-vladisibirsk" not in ids(one)
    assert "at least 2 tags; they have 1" in refusal(one, "play:shipment-from-vladisibirsk").reason
    two = corp_turn(doc, [card("Shipment from Vladisibirsk")], tags=2)
    assert "play:shipment-from-vladisibirsk" in ids(two)


@pytest.mark.parametrize(
    ("last_turn", "playable"),
    [([], False), (["successful_run"], True), (["stole_agenda"], False)],
)
def test_public_trail_reads_the_runners_last_turn(card, doc, last_turn, playable):
    assert card("Public Trail")["play_if"] == {"runner_last_turn": "successful_run"}
    s = corp_turn(doc, [card("Public Trail")], last_turn=last_turn)
    assert ("play:public-trail" in ids(s)) == playable
    assert (refusal(s, "play:public-trail") is None) == playable


@pytest.mark.parametrize(
    ("last_turn", "playable"), [(["trashed_corp_card"], True), (["successful_run"], False)]
)
def test_oppo_research_stole_or_trashed(card, doc, last_turn, playable):
    s = corp_turn(doc, [card("Oppo Research")], last_turn=last_turn)
    assert ("play:oppo-research" in ids(s)) == playable


def test_measured_response_needs_both_conditions(card, doc):
    mr = card("Measured Response")
    assert mr["play_if"] == {"threat_level": 4, "runner_last_turn": "successful_run"}
    agenda = {"name": "Agenda", "type": "agenda", "agenda_points": 4}
    low = corp_turn(doc, [mr], last_turn=["successful_run"])
    assert "threat level is 4 or greater; it is 0" in refusal(low, "play:measured-response").reason
    high = corp_turn(doc, [mr], last_turn=["successful_run"], score_area=[agenda])
    assert "play:measured-response" in ids(high)


def test_eye_for_an_eye_play_only_if_the_runner_is_not_tagged(card, doc):
    ey = card("Eye for an Eye")
    assert ey["play_if"] == {"runner_tagged": False}
    for tags in (0, 1):
        b = {
            "version": 2,
            "turn": "runner",
            "runner": {"credits": 10, "clicks": 0, "tags": tags, "hand": [ey], "deck": 5},
        }
        s = to_action_window(engine.start(b, "runner_turn", doc), "runner")
        assert ("play:eye-for-an-eye" in ids(s)) == (tags == 0)
        r = refusal(s, "play:eye-for-an-eye")
        assert (r is None) == (tags == 0)
        if tags:
            assert "play only if the Runner is not tagged; the Runner has 1 tag(s)" in r.reason


def test_play_if_validation():
    bad = {
        "version": 2,
        "corp": {"hand": [{"name": "X", "type": "operation", "play_if": {"runner_last_turn": "napped"}}]},
        "runner": {"last_turn": ["won"], "hand": [{"name": "Y", "type": "event", "play_if": {}}]},
    }
    text = "\n".join(engine.validate_board(bad))
    assert "corp.hand[0].play_if.runner_last_turn: must be one of" in text
    assert "runner.last_turn[0]: must be one of successful_run, stole_agenda, trashed_corp_card" in text
    assert "runner.hand[0].play_if: must be a non-empty object" in text
