"""Cards of HQ chosen by the Corp as an effect (issue 32): Hansei Review, "Gain 10[credit]. If there are any
cards in HQ, trash 1 of them." The Corp, whose card it is, chooses the card (no choice with one
card left; nothing with none); it goes to Archives facedown (4.4.6b). Real cards by name, on CR
24.03 and 26.03; the shared HQ choice keeps "You may trash 1 card from HQ to ..." (Boto) working."""

from __future__ import annotations

from helpers import by_title_fixtures

import engine
from engine.cardtext import MODELED

card, _, doc = by_title_fixtures()


def ids(s) -> list[str]:
    return [d["id"] for d in engine.legal_decisions(s)]


def corp_turn(doc, hand: list, credits: int = 5):
    b = {
        "version": 2,
        "turn": "corp",
        "corp": {"credits": credits, "clicks": 0, "hand": hand, "deck": [{"name": "Drawn", "type": "asset"}]},
        "runner": {"hand": 3},
        "servers": {},
    }
    s = engine.start(b, "corp_turn", doc)
    for _ in range(30):
        if any(i.startswith("play:") for i in ids(s)):
            return s
        legal = ids(s)
        engine.push(s, next((x for x in ("pass", "continue") if x in legal), legal[0]))
    raise AssertionError("no play")


def played(s, title: str) -> bool:
    return any(c["name"] == title for c in s.board["corp"]["discard"])


def test_hansei_review_is_modeled(titled):
    assert [u.status for u in titled.units("Hansei Review")] == [MODELED]
    assert titled.card("Hansei Review")["effects"] == [
        {"effect": "gain_credits", "amount": 10},
        {"effect": "trash_from_hq", "amount": 1},
    ]


def test_the_corp_chooses_the_card_it_trashes(card, doc):
    hr = card("Hansei Review")
    s = corp_turn(doc, [hr, {"name": "Hedge Fund", "type": "operation"}], credits=hr.get("play_cost", 0))
    engine.push(s, "play:hansei-review")
    for _ in range(20):
        if any(i.startswith("hq:") for i in ids(s)):
            break
        engine.push(s, "pass" if "pass" in ids(s) else ids(s)[0])
    assert sorted(ids(s)) == ["hq:drawn", "hq:hedge-fund"]  # the mandatory draw's card too; no "don't"
    assert all(d["player"] == "corp" for d in engine.legal_decisions(s))
    engine.push(s, "hq:hedge-fund")
    for _ in range(20):
        if played(s, "Hansei Review"):
            break
        engine.push(s, "pass" if "pass" in ids(s) else ids(s)[0])
    corp = s.board["corp"]
    assert [c["name"] for c in corp["hand"]] == ["Drawn"]
    assert corp["discard"][0]["name"] == "Hedge Fund" and corp["discard"][0]["faceup"] is False
    assert corp["credits"] == 10


def test_with_one_card_left_there_is_no_choice(card, doc):
    hr = card("Hansei Review")
    s = corp_turn(doc, [hr], credits=hr.get("play_cost", 0))  # HQ: the mandatory draw's card only
    engine.push(s, "play:hansei-review")
    for _ in range(20):
        if played(s, "Hansei Review"):
            break
        assert not any(i.startswith("hq:") for i in ids(s))
        engine.push(s, "pass" if "pass" in ids(s) else ids(s)[0])
    assert s.board["corp"]["hand"] == []
    assert [c["name"] for c in s.board["corp"]["discard"]] == ["Drawn", "Hansei Review"]


def test_sprint_shuffles_the_two_chosen_cards_into_rd(card, doc):
    """Sprint: "Draw 3 cards. Shuffle 2 cards from HQ into R&D." The Corp picks 2 of HQ; they
    leave HQ and R&D holds them (shuffled, the seeded randomness of the session)."""
    sp = card("Sprint")
    b = {
        "version": 2,
        "turn": "corp",
        "corp": {
            "credits": sp.get("play_cost", 0),
            "clicks": 0,
            "hand": [sp, {"name": "Keep", "type": "asset"}],
            "deck": [{"name": f"R{i}", "type": "asset"} for i in range(6)],
        },
        "runner": {"hand": 3},
        "servers": {},
    }
    s = engine.start(b, "corp_turn", doc)
    for _ in range(30):
        if "play:sprint" in ids(s):
            break
        engine.push(s, "pass" if "pass" in ids(s) else ids(s)[0])
    engine.push(s, "play:sprint")
    for _ in range(20):
        if any(i.startswith("hq:") for i in ids(s)):
            break
        engine.push(s, "pass" if "pass" in ids(s) else ids(s)[0])
    hq = [c["name"] for c in s.board["corp"]["hand"]]
    assert sorted(hq) == ["Keep", "R0", "R1", "R2", "R3"]  # the mandatory draw and Sprint's 3
    assert sorted(ids(s)) == sorted(f"hq:{n.lower()}" for n in hq)
    engine.push(s, "hq:keep")
    engine.push(s, "hq:r0")
    for _ in range(20):
        if played(s, "Sprint"):
            break
        engine.push(s, "pass" if "pass" in ids(s) else ids(s)[0])
    corp = s.board["corp"]
    assert sorted(c["name"] for c in corp["hand"]) == ["R1", "R2", "R3"]
    assert sorted(c["name"] for c in corp["deck"]) == ["Keep", "R0", "R4", "R5"]
    assert any("shuffles Keep, R0" in e.text or "shuffles R0, Keep" in e.text for e in s.trace)
