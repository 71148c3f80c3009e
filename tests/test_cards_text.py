"""Card text -> engine vocabulary, over REAL card texts from the NetrunnerDB snapshot.

Each row names a real card and the position of a subroutine or paid-ability line in its printed
text, and what the line must translate to; rows expecting ``TEXT`` are formulas that look close
to a recognised one but say more (a condition, a restriction, "instead") and must stay text."""

from __future__ import annotations

import pytest

from engine.cardtext import (
    ability_lines,
    board_card,
    parse_ability,
    parse_effects,
    parse_subroutine,
    plain,
    subroutine_lines,
)
from scraper.nrdb import load

TEXT = "text"  # the line must stay text


@pytest.fixture(scope="module")
def data(nrdb_dir):
    return load(str(nrdb_dir))


def _dmg(kind: str, n: int) -> dict:
    return {"effect": f"{kind}_damage", "amount": n}


def _trash(kinds: list[str]) -> dict:
    return {"effect": "trash_installed", "amount": 1, "card_types": kinds}


SUBROUTINES = [
    ("ice_wall", 0, "end_the_run"),
    ("enigma", 0, {"effect": "lose_clicks", "amount": 1}),
    ("enigma", 1, "end_the_run"),
    ("empiricist", "Give the Runner", [_dmg("net", 1), {"effect": "give_tags", "amount": 1}]),
    ("attini", "unless", {"effect": "unless_pays", "amount": 2, "effects": [_dmg("net", 1)]}),
    ("loot_box", "unless", {"effect": "unless_pays", "amount": 2, "effects": ["end_the_run"]}),
    (
        "funhouse",
        "unless",
        {"effect": "unless_pays", "amount": 4, "effects": [{"effect": "give_tags", "amount": 1}]},
    ),
    ("data_ward", "tagged", {"effect": "if_tagged", "effects": ["end_the_run"]}),
    ("jaguarundi", 1, {"effect": "if_tagged", "effects": [_dmg("core", 1)]}),
    ("jaguarundi", 0, {"effect": "give_tags", "amount": 1}),
    (
        "winchester",
        0,
        {"effect": "trace", "strength": 4, "on_success": [{"effect": "trash_program", "amount": 1}]},
    ),
    ("anvil", "loses", [{"effect": "gain_credits", "amount": 1}, {"effect": "lose_credits", "amount": 1}]),
    ("seraph", "loses", {"effect": "lose_credits", "amount": 3}),
    ("bulwark", "Gain 2", [{"effect": "gain_credits", "amount": 2}, "end_the_run"]),
    # added by the cards helper (EFFECTS.md "Added by cards")
    ("winchester", 1, {"effect": "trace", "strength": 3, "on_success": [_trash(["hardware"])]}),
    ("hammer", "that is not", {**_trash(["program"]), "except_subtypes": ["decoder", "fracter", "killer"]}),
    ("hammer", "resource or", _trash(["resource", "hardware"])),
    (
        "ballista",
        " or end",
        {"effect": "choose", "options": [[{"effect": "trash_program", "amount": 1}], ["end_the_run"]]},
    ),
    ("biawak", "resource or end", {"effect": "choose", "options": [[_trash(["resource"])], ["end_the_run"]]}),
    (
        "tyr",
        "Runner card",
        [{"effect": "trash_installed", "amount": 1}, {"effect": "gain_credits", "amount": 3}],
    ),
    ("anvil", "trashes 1 of their", {"effect": "trash_installed", "amount": 1, "chooser": "runner"}),
    ("doomscroll", "at least", {"effect": "if_tagged", "min_tags": 2, "effects": [_dmg("net", 2)]}),
    ("karuna", "jack out", [_dmg("net", 2), "runner_may_jack_out"]),
    (
        "congratulations",
        "The Runner gains",
        [{"effect": "gain_credits", "amount": 2}, {"effect": "opponent_gains_credits", "amount": 1}],
    ),
    (
        "lycian_multi_munition",
        "barrier",
        {
            "effect": "if_ice_subtype",
            "subtype": "barrier",
            "effects": [{"effect": "gain_credits", "amount": 1}, "end_the_run"],
        },
    ),
    ("n_pot", "4 or greater", {"effect": "if_threat_level", "amount": 4, "effects": ["end_the_run"]}),
    (
        "whitespace",
        "or less",
        {"effect": "if_runner_credits_at_most", "amount": 6, "effects": ["end_the_run"]},
    ),
    ("vampyronassa", "draw", {"effect": "draw_cards", "amount": 2, "optional": True, "up_to": True}),
    ("boto", "from HQ", {"effect": "may_trash_from_hand", "amount": 1, "effects": ["end_the_run"]}),
    ("turing", "spends", {"effect": "unless_pays", "amount": 0, "clicks": 3, "effects": ["end_the_run"]}),
    ("f2p", "to the grip", {"effect": "add_installed_to_grip", "amount": 1}),
    ("envelopment", "Trash this ice", "trash_this_ice"),
    ("its_a_trap", 0, [{"effect": "trash_installed", "amount": 1, "chooser": "runner"}, "trash_this_ice"]),
    # close to a formula, but not one: must stay text
    # a "for each" amount counted as it resolves (9.12.2b)
    ("capacitor", "for each tag", {"effect": "gain_credits", "amount": 1, "per": "runner_tag"}),
    ("piranhas", "more cards in HQ", TEXT),  # a condition the board does not state
    ("semak_samun", "suffers", TEXT),  # "End the run unless the Runner suffers 3 net damage." (not a payment)
    ("colossus", "tag. If there", TEXT),  # "Give the Runner 1 tag. If there are 3 or more ..., instead ..."
    ("diviner", "odd", TEXT),  # "Do 1 net damage. If you trash a card this way ..., end the run."
    ("hydra", 0, TEXT),  # "... if the Runner is tagged; otherwise, ..."
    # issue 32 set A: counters placed on this ice (its trace: Data Raven)
    (
        "data_raven",
        0,
        {
            "effect": "trace",
            "strength": 3,
            "on_success": [{"effect": "place_counters", "counter": "power", "amount": 1}],
        },
    ),
    ("akhet", 0, TEXT),  # "Place 1 advancement counter on an installed card.": not this card
]


def _line(card, where: int | str) -> str:
    """A subroutine line by position, or the one line containing some words."""
    lines = subroutine_lines(card.text)
    if isinstance(where, int):
        return lines[where]
    found = [x for x in lines if where in x]
    assert len(set(found)) == 1, (card.id, where, lines)  # one line (possibly printed twice)
    return found[0]


@pytest.mark.parametrize(("card_id", "where", "expected"), SUBROUTINES)
def test_subroutines_of_real_ice(data, card_id, where, expected):
    line = _line(data.cards[card_id], where)
    got = parse_subroutine(line)
    if expected == TEXT:
        assert isinstance(got, dict) and got["effect"] == "text", (line, got)
        assert got["text"] == plain(line.replace("[subroutine]", "")), got
    else:
        assert got == expected, line


ABILITIES = [
    ("corroder", 0, {"kind": "break", "cost": 1, "count": 1, "up_to": False, "ice_subtype": "barrier"}),
    ("corroder", 1, {"kind": "strength", "cost": 1, "amount": 1}),
    ("buzzsaw", 0, {"kind": "break", "cost": 1, "count": 2, "up_to": True, "ice_subtype": "code gate"}),
    ("buzzsaw", 1, {"kind": "strength", "cost": 3, "amount": 1}),
    ("nanuq", 0, {"kind": "break", "cost": 2, "count": 2, "up_to": True}),  # AI: any ice
    ("nanuq", 1, {"kind": "strength", "cost": 1, "amount": 1}),  # printed without <strong>
    ("orca", 0, {"kind": "break", "cost": 2, "count": 20, "up_to": True, "ice_subtype": "sentry"}),
    (
        "euler",
        0,
        {
            "kind": "break",
            "cost": 0,
            "count": 1,
            "up_to": False,
            "ice_subtype": "code gate",
            "only_if": "Use this ability only if this program was installed this turn.",
        },
    ),
    (
        "afterimage",
        1,
        {
            "kind": "strength",
            "cost": 1,
            "amount": 2,
            "only_if": "Use this ability only by spending a credit from a stealth card.",
        },
    ),
    # "Threat 4 → 2[credit]: +9 strength. Use this ability only once per run." (9.3.6f)
    ("pressure_spike", 2, {"kind": "strength", "cost": 2, "amount": 9, "once_per": "run", "threat": 4}),
    # must stay text
    (
        "slap_vandal",
        0,
        TEXT,
    ),  # "Interface → 1[credit]: Break 1 subroutine on host ice. Use ... once per encounter."
    ("utae", 0, TEXT),  # "X[credit]: Break X code gate subroutines. Use this ability only once per run."
    ("marjanah", 0, TEXT),  # "... If you made a successful run this turn, this ability costs 1[credit] less"
    ("hantu", 1, TEXT),  # "Hosted virus counter: +2 strength." (not a credit cost)
    ("mayfly", 0, TEXT),  # "Break 1 subroutine. When this run ends, trash this program."
    ("banner", 0, TEXT),  # "Subroutines on the barrier ... cannot end the run ..."
    ("lobisomem", 1, TEXT),  # "X[credit], hosted power counter: Break X barrier subroutines."
]


@pytest.mark.parametrize(("card_id", "index", "expected"), ABILITIES)
def test_abilities_of_real_icebreakers(data, card_id, index, expected):
    line = ability_lines(data.cards[card_id].text)[index]
    got = parse_ability(line)
    if expected == TEXT:
        assert got == {"kind": "text", "text": plain(line)}, line
    else:
        assert got == expected, line


def test_ability_lines_are_only_paid_abilities(data):
    abaasy = ability_lines(data.cards["abaasy"].text)
    assert len(abaasy) == 2 and all(":" in plain(x) for x in abaasy)
    assert ability_lines(data.cards["ice_wall"].text) == []


def test_whole_cards(data):
    names = {k: v.name for k, v in data.card_subtypes.items()}
    ice = board_card(data.cards["enigma"], names)
    assert ice["type"] == "ice" and ice["rez_cost"] == data.cards["enigma"].cost
    assert ice["subtypes"] == ["code gate"] and ice["strength"] == data.cards["enigma"].strength
    assert len(ice["subroutines"]) == 2 and ice["card_id"] == "enigma"
    breaker = board_card(data.cards["corroder"], names)
    assert (breaker["install_cost"], breaker["memory_cost"]) == (2, 1)
    assert [a["kind"] for a in breaker["abilities"]] == ["break", "strength"]
    agenda = board_card(data.cards["hostile_takeover"], names)
    assert (agenda["agenda_points"], agenda["advancement_requirement"]) == (1, 2)
    assert board_card(data.cards["sure_gamble"])["effects"] == [{"effect": "gain_credits", "amount": 9}]
    # an event whose text is outside the vocabulary keeps it, to be resolved by hand
    dirty = board_card(data.cards["dirty_laundry"])
    assert dirty["effects"][0]["effect"] == "text"
    assert "\n" not in board_card(data.cards["ice_wall"])["subroutines"][0]
    with pytest.raises(ValueError):
        board_card({"id": "x", "title": "X", "card_type_id": "mystery"})


def test_every_standard_card_becomes_a_board_card(data):
    """Every card translates without error and within the board format's limits."""
    for card in data.cards.values():
        obj = board_card(card)
        assert len(obj.get("text", "")) <= 1000
        assert len(obj.get("subroutines", ())) <= 20
        for sub in obj.get("subroutines", ()):
            assert isinstance(sub, str | dict | list)


@pytest.mark.parametrize(
    "text",
    ["", "End the run and more", "Do X net damage.", "Gain 1[click].", "Trace. If successful, end the run."],
)
def test_near_misses_are_not_effects(text):
    assert parse_effects(text) is None


def test_board_cards_hold_only_what_this_engine_accepts(data):
    """Effects added to the vocabulary before the engine implements them stay text on the
    board (so a board built from real cards is never refused); once the engine knows them,
    they pass through."""
    from engine.board import EFFECTS
    from engine.cardtext import engine_accepts

    names = {k: v.name for k, v in data.card_subtypes.items()}
    ballista = board_card(data.cards["ballista"], names)
    choice = parse_subroutine(_line(data.cards["ballista"], " or end"))
    first = ballista["subroutines"][0]
    assert (first == choice) == ("choose" in EFFECTS and engine_accepts(choice))
    if first != choice:
        assert first == {"effect": "text", "text": "Trash 1 installed program or end the run."}
    for card_id in ("ballista", "hammer", "doomscroll", "euler", "corroder", "ice_wall"):
        obj = board_card(data.cards[card_id], names)
        for sub in obj.get("subroutines", ()):
            assert engine_accepts(sub), (card_id, sub)
        for ability in obj.get("abilities", ()):
            assert engine_accepts(ability, ability=True), (card_id, ability)


def test_the_engine_runs_every_recognised_standard_line(nrdb_dir):
    """bench/cards_text.py's "runs as engine effects": each recognised Standard subroutine and
    icebreaker ability, stepped through a run under CR 26.03, is resolved by the engine with
    nothing left to the judge (the benchmark's count would drop if one were not)."""
    import importlib.util
    from pathlib import Path

    from helpers import cr_path

    path = Path(__file__).resolve().parent.parent / "bench" / "cards_text.py"
    spec = importlib.util.spec_from_file_location("bench_cards_text", path)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    r = bench.measure(str(nrdb_dir), False, str(cr_path("26.03")))
    recognised = r["subs"][0] + r["abilities"][0]
    assert recognised >= 189 and r["runs"] == r["accepted"] == recognised, r["not_run"]
