"""'For each' amounts (issue 32): "Gain 1[credit] for each tag the Runner has." An amount calculated
"for each" something is counted when the instruction resolves and performed once with the
aggregated value; a value of 0 or less does not take place at all (CR 9.12.2b, in 24.03 and 26.03;
26.03's example: Ritual with 3 [click] remaining is one draw of 3 cards). Real cards by name
(engine.cardtext), stepped through the timing structures."""

from __future__ import annotations

import pytest
from helpers import by_title_fixtures

import engine
from engine.cardtext import BY_HAND, MODELED, parse_effects

card, units, doc = by_title_fixtures()


def ids(s) -> list[str]:
    return [d["id"] for d in engine.legal_decisions(s)]


def step_until(s, done, prefer=("pass", "continue", "no_trash", "decline_steal")):
    for _ in range(120):
        if done(s) or s.finished:
            return s
        legal = ids(s)
        engine.push(s, next((x for x in prefer if x in legal), legal[0]))
    raise AssertionError("never reached")


def events(s, rule: str) -> list:
    return [e for e in s.trace if rule in e.rules]


# ----- translation ---------------------------------------------------------------------------


def test_for_each_sentences_translate_with_what_they_count():
    assert parse_effects("Gain 1[credit] for each tag the Runner has.", "corp") == [
        {"effect": "gain_credits", "amount": 1, "per": "runner_tag"}
    ]
    assert parse_effects("Draw 1 card for each [click] you have remaining.", "runner") == [
        {"effect": "draw_cards", "amount": 1, "per": "remaining_click"}
    ]
    assert parse_effects("The Runner loses 1[credit] for each rezzed piece of harmonic ice.", "corp") == [
        {"effect": "lose_credits", "amount": 1, "per": "rezzed_harmonic_ice"}
    ]
    # what the engine does not count stays by hand: the card types among faceup cards in Archives
    # (Armed Asset Protection), "the Runner has" read on a Runner card, an optional draw
    assert parse_effects("Gain 1[credit] for each card type among faceup cards in Archives.", "corp") is None
    assert parse_effects("Gain 1[credit] for each tag the Runner has.", "runner") is None
    assert parse_effects("You may draw 1 card for each card in HQ.", "corp") is None


@pytest.mark.parametrize("title", ["Capacitor", "Ritual", "Your Digital Life", "Wave", "Pulse"])
def test_the_cards_for_each_units_are_modeled(units, title):
    us = [u for u in units(title) if "for each" in u.text]
    assert us and all(u.status == MODELED for u in us)


def test_armed_asset_protection_stays_by_hand(units):
    assert all(u.status == BY_HAND for u in units("Armed Asset Protection"))


def test_a_bad_per_is_refused_with_its_path():
    b = {
        "version": 2,
        "corp": {
            "hand": [
                {
                    "name": "X",
                    "type": "operation",
                    "effects": [{"effect": "gain_credits", "amount": 1, "per": "tags"}],
                }
            ]
        },
        "runner": {},
    }
    problems = engine.validate_board(b)
    assert any(p.startswith("corp.hand[0].effects[0].per: must be one of runner_tag") for p in problems), (
        problems
    )


# ----- ice subroutines: counted as the subroutine resolves ------------------------------------


def run_board(ice: list[dict], tags: int = 0, credits: int = 10) -> dict:
    return {
        "version": 2,
        "turn": "runner",
        "corp": {"credits": 5, "hand": 3, "deck": 10},
        "runner": {"credits": credits, "clicks": 3, "hand": 5, "deck": 10, "tags": tags},
        "servers": {"hq": {"ice": ice}},
    }


def rezzed(card, title: str) -> dict:
    c = card(title)
    c.pop("text", None)
    return {**c, "rezzed": True}


@pytest.mark.parametrize("tags", [3, 0])
def test_capacitor_gains_one_credit_per_tag_in_one_gain(card, doc, tags):
    s = engine.start(run_board([rezzed(card, "Capacitor")], tags=tags), "run", doc, {"server": "hq"})
    s = step_until(s, lambda s: s.board.get("run") is None)
    corp = s.board["corp"]
    assert corp["credits"] == 5 + tags
    counted = events(s, "rule_calculated_quantity")
    assert len(counted) == 1 and counted[0].objects["count"] == tags
    gains = [e for e in s.trace if "gains" in e.text and "Capacitor" in e.text]
    if tags:
        assert counted[0].applied and len(gains) == 1 and f"gains {tags} credit" in gains[0].text
    else:  # 9.12.2b: a value of 0 does not take place at all
        assert not counted[0].applied and gains == []
        assert "does not take place" in counted[0].text
    assert s.outcome.run == "unsuccessful"  # its second subroutine ends the run


def test_pulse_counts_rezzed_harmonic_ice_itself_included(card, doc):
    """Two rezzed harmonic ice (Pulse and Wave) and an unrezzed one (not counted): the Runner
    loses 2 credits."""
    wave = rezzed(card, "Wave")
    ice = [rezzed(card, "Pulse"), wave, {**rezzed(card, "Echo"), "rezzed": False}]
    s = engine.start(run_board(ice), "run", doc, {"server": "hq"})
    s = step_until(s, lambda s: any("rule_calculated_quantity" in e.rules for e in s.trace))
    counted = events(s, "rule_calculated_quantity")
    assert counted[0].objects["count"] == 2
    assert s.board["runner"]["credits"] == 8


# ----- operations and events: counted when the play ability resolves --------------------------


def turn_board(side: str, hand: list[dict], clicks: int, credits: int = 5) -> dict:
    other = "runner" if side == "corp" else "corp"
    return {
        "version": 2,
        "turn": side,
        side: {"credits": credits, "clicks": clicks, "hand": hand, "deck": 10},
        other: {"credits": 5, "hand": 5, "deck": 10},
        "servers": {},
    }


def to_action(s):
    for _ in range(30):
        if any(i.startswith("play:") for i in ids(s)):
            return s
        legal = ids(s)
        engine.push(s, next((x for x in ("pass", "continue") if x in legal), legal[0]))
    raise AssertionError("no play action")


@pytest.mark.parametrize("clicks", [4, 1])
def test_ritual_draws_one_card_per_click_left_in_one_draw(card, doc, clicks):
    ritual = card("Ritual")
    b = turn_board("runner", [ritual], 0)
    b["runner"]["allotted_clicks"] = clicks  # the turn begins by gaining them (5.2.1)
    s = to_action(engine.start(b, "runner_turn", doc))
    assert s.board["runner"]["clicks"] == clicks
    engine.push(s, "play:ritual")
    s = step_until(s, lambda s: any(c["name"] == "Ritual" for c in s.board["runner"]["discard"]))
    left = clicks - 1  # the play action's click is spent before the ability resolves
    assert len(s.board["runner"]["hand"]) == left
    draws = [e for e in s.trace if "rule_card_draw" in e.rules and e.objects.get("count")]
    assert [e.objects["count"] for e in draws] == ([left] if left else [])


def test_your_digital_life_counts_hq_without_itself(card, doc):
    ydl = card("Your Digital Life")
    others = [{"name": f"Card {i}", "type": "agenda"} for i in range(4)]
    b = turn_board("corp", [ydl, *others], 3, credits=ydl.get("play_cost", 0) + 2)
    s = to_action(engine.start(b, "corp_turn", doc))
    before = s.board["corp"]["credits"]
    n = len(s.board["corp"]["hand"]) - 1  # the four and the mandatory draw's card, not itself
    assert n == 5
    engine.push(s, "play:your-digital-life")
    s = step_until(s, lambda s: any(c["name"] == "Your Digital Life" for c in s.board["corp"]["discard"]))
    assert s.board["corp"]["credits"] == before - ydl.get("play_cost", 0) + n
    assert events(s, "rule_calculated_quantity")[0].objects["count"] == n


# ----- "If you have any [click] remaining, lose [click]." (1.11.3) ------------------------------


@pytest.mark.parametrize("title", ["Creative Commission", "VRcation"])
@pytest.mark.parametrize("clicks", [4, 1])
def test_losing_a_remaining_click(card, units, doc, title, clicks):
    """Played with clicks left, the Runner loses one of them after the rest of the ability; played
    with their last click, nothing is lost."""
    assert [u.status for u in units(title)] == [MODELED]
    c = card(title)
    b = turn_board("runner", [c], 0, credits=10)
    b["runner"]["allotted_clicks"] = clicks
    s = to_action(engine.start(b, "runner_turn", doc))
    before = dict(s.board["runner"], hand=len(s.board["runner"]["hand"]))
    engine.push(s, next(i for i in ids(s) if i.startswith("play:")))
    s = step_until(s, lambda s: any(x["name"] == title for x in s.board["runner"]["discard"]))
    r = s.board["runner"]
    assert r["clicks"] == max(0, clicks - 2)
    lost = [e for e in s.trace if "rule_gain_spend_lose_clicks" in e.rules and title in e.text]
    assert len(lost) == 1 and lost[0].applied == (clicks > 1)
    if title == "VRcation":
        assert len(r["hand"]) == before["hand"] - 1 + 4
    else:
        assert r["credits"] == before["credits"] - c.get("play_cost", 0) + 5


@pytest.mark.parametrize("adv", [3, 0])
def test_ubiquitous_vig_counts_its_own_advancement_counters(card, doc, adv):
    """When the Corp's turn begins: 1 credit for each advancement counter hosted on this asset."""
    vig = {**card("Ubiquitous Vig"), "rezzed": True, "counters": {"advancement": adv} if adv else {}}
    vig.pop("text", None)
    b = {
        "version": 2,
        "corp": {"credits": 5, "clicks": 0, "hand": 3, "deck": 10},
        "runner": {"hand": 3},
        "servers": {"remote1": {"content": vig}},
    }
    s = engine.start(b, "corp_turn", doc)
    s = step_until(
        s,
        lambda s: any("rule_calculated_quantity" in e.rules for e in s.trace),
        prefer=("pass", "continue", "trigger:remote1.content.0"),
    )
    counted = events(s, "rule_calculated_quantity")
    assert counted[0].objects["count"] == adv
    assert s.board["corp"]["credits"] == 5 + adv
