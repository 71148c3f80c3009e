"""More printed formulas translated into what the engine already runs (issue 33), over REAL
cards of the NetrunnerDB snapshot: Corp paid and [click] abilities, Runner prevent and trace
interrupts, trace bonuses, "scored or stolen" agendas, subroutine formulas of the older wording
and formulas naming a player. Each row gives the board object a card's text must become; the
scenarios put those real cards on a board and step them on real CR documents."""

from __future__ import annotations

import pytest
from helpers import decision_ids, engine_board, load_doc

import engine
from engine.cardtext import BY_HAND, MODELED, SHOWN, board_card, card_units, parse_effects
from scraper.nrdb import load


@pytest.fixture(scope="module")
def data(nrdb_dir):
    return load(str(nrdb_dir))


@pytest.fixture(scope="module")
def names(data):
    return {k: v.name for k, v in data.card_subtypes.items()}


@pytest.fixture(scope="module")
def card(data, names):
    def make(card_id: str, **extra) -> dict:
        return {**board_card(data.cards[card_id], names), **extra}

    return make


@pytest.fixture(params=["24.03", "26.03"])
def doc(request):
    return load_doc(request.param)


def units(data, names, card_id: str) -> list[tuple[str, str | None]]:
    return [(u.status, u.at) for u in card_units(data.cards[card_id], names)]


# ----------------------------------------------------------------------------------------------
# Per formula: the card's board object
# ----------------------------------------------------------------------------------------------

CORP_ABILITIES = [
    # modeled: the cost and the effects
    (
        "capital_investors",
        [
            {
                "kind": "click",
                "cost": 0,
                "trash": False,
                "clicks": 1,
                "effects": [{"effect": "gain_credits", "amount": 2}],
            }
        ],
    ),
    (
        "melange_mining_corp",
        [
            {
                "kind": "click",
                "cost": 0,
                "trash": False,
                "clicks": 3,
                "effects": [{"effect": "gain_credits", "amount": 7}],
            }
        ],
    ),
    (
        "bass_ch1r180g4",
        [
            {
                "kind": "click",
                "cost": 0,
                "trash": True,
                "clicks": 1,
                "effects": [{"effect": "gain_clicks", "amount": 2}],
            }
        ],
    ),
    (
        "zealous_judge",
        [
            {
                "kind": "click",
                "cost": 1,
                "trash": False,
                "clicks": 1,
                "effects": [{"effect": "give_tags", "amount": 1}],
            }
        ],
    ),
    (
        "jackson_howard",
        [
            {
                "kind": "click",
                "cost": 0,
                "trash": False,
                "clicks": 1,
                "effects": [{"effect": "draw_cards", "amount": 2}],
            }
        ],
    ),
    (
        "regolith_mining_license",  # "[click]: Take 3[credit] from this asset." (1.10.4a)
        [
            {
                "kind": "click",
                "cost": 0,
                "trash": False,
                "clicks": 1,
                "effects": [{"effect": "take_credits", "amount": 3}],
            }
        ],
    ),
]


@pytest.mark.parametrize(("card_id", "abilities"), CORP_ABILITIES)
def test_corp_abilities_modeled(data, names, card, card_id, abilities):
    obj = card(card_id)
    assert obj["abilities"][: len(abilities)] == abilities
    assert units(data, names, card_id).count((MODELED, None)) >= 1


@pytest.mark.parametrize(
    ("card_id", "line", "kind", "clicks", "cost", "trash", "at"),
    [
        # the cost is modeled, the effects are one by-hand text the judge resolves when it is used
        (
            "humanoid_resources",
            "[click][click][click], [trash]: Gain 4[credit] and draw 3 cards. Install up to 2 cards from HQ. "
            "You may play 1 operation from HQ.",
            "click",
            3,
            0,
            True,
            "action window",
        ),
        (
            "roughneck_repair_squad",
            "[click][click][click]: Gain 6[credit]. You may remove 1 bad publicity.",
            "click",
            3,
            0,
            False,
            "action window",
        ),
        ("mavirus", "[trash]: Purge virus counters.", "paid", None, 0, True, "paid ability window"),
        ("himitsu_bako", "1[credit]: Add Himitsu-Bako to HQ.", "paid", None, 1, False, "paid ability window"),
    ],
)
def test_corp_abilities_by_hand_keep_their_cost(
    data, names, card, card_id, line, kind, clicks, cost, trash, at
):
    ab = next(a for a in card(card_id)["abilities"] if a["effects"] == [{"effect": "text", "text": line}])
    assert ab["kind"] == kind and ab.get("clicks") == clicks and ab["cost"] == cost and ab["trash"] is trash
    assert (BY_HAND, at) in units(data, names, card_id)


@pytest.mark.parametrize(
    "card_id",
    [
        "m_i_c",  # "Use this ability only during a run on this server": a restriction the engine would not check
        "charlotte_cacador",  # "[trash], hosted advancement counter: ..."
        "ansel_1_0",  # "Lose [click]: Break 1 subroutine on this ice. Only the Runner can use this ability."
    ],
)
def test_corp_abilities_the_engine_would_misread_stay_shown(data, names, card, card_id):
    obj = card(card_id)
    assert not any(a.get("kind") in ("paid", "click") for a in obj.get("abilities", []))
    got = units(data, names, card_id)
    # shown on the card, or (ice text about breaking its subroutines) asked at the encounter
    assert SHOWN in [s for s, _ in got] or ("by_hand", "encountered") in got, got


RUNNER_INTERRUPTS = [
    ("decoy", {"kind": "prevent", "event": "tags", "amount": 1, "cost": 0, "trash": True}),
    ("new_angeles_city_hall", {"kind": "prevent", "event": "tags", "amount": 1, "cost": 2, "trash": False}),
    ("biometric_spoofing", {"kind": "prevent", "damage": "any", "amount": 2, "cost": 0, "trash": True}),
    ("crash_space", {"kind": "prevent", "damage": "meat", "amount": 3, "cost": 0, "trash": True}),
    (
        "sacrificial_construct",
        {
            "kind": "prevent",
            "event": "trash",
            "amount": 1,
            "card_types": ["program", "hardware"],
            "cost": 0,
            "trash": True,
        },
    ),
    ("disrupter", {"kind": "trace", "set": 0, "cost": 0, "trash": True}),
    ("deus_x", {"kind": "prevent", "damage": "net", "amount": 99, "cost": 0, "trash": True}),
]


@pytest.mark.parametrize(("card_id", "ability"), RUNNER_INTERRUPTS)
def test_runner_interrupts(card, card_id, ability):
    assert ability in card(card_id)["abilities"]


def test_feedback_filter_has_both_prevent_abilities(data, names, card):
    assert card("feedback_filter")["abilities"] == [
        {"kind": "prevent", "damage": "net", "amount": 1, "cost": 3, "trash": False},
        {"kind": "prevent", "damage": "core", "amount": 2, "cost": 0, "trash": True},
    ]
    assert units(data, names, "feedback_filter") == [(MODELED, None), (MODELED, None)]


def test_a_card_used_only_at_some_times_keeps_its_interrupt_by_hand(data, names, card):
    """Flip Switch: "Use this hardware only during your turn." is not checked by the engine, so
    its trace interrupt (which a Corp's trace on its own turn would offer) stays by hand."""
    abl = card("flip_switch")["abilities"]
    assert all(a["kind"] == "text" for a in abl)
    assert "[interrupt] → [trash]: Reduce the base trace strength of a trace to 0." in [
        a["text"] for a in abl
    ]


def test_trace_bonuses(card):
    assert card("rutherford_grid")["trace_bonus"] == {"amount": 2, "only": "run_on_server"}
    assert card("improved_tracers")["trace_bonus"] == {"amount": 1, "only": "subroutine"}


def test_scored_or_stolen_is_a_trigger_on_each(data, names, card):
    tags = [{"effect": "give_tags", "amount": 1}]
    assert card("tomorrows_headline")["triggers"] == [
        {"when": "scored", "effects": tags},
        {"when": "stolen", "effects": tags},
    ]
    net = [{"effect": "net_damage", "amount": 2}]
    assert [t["effects"] for t in card("fujii_asset_retrieval")["triggers"]] == [net, net]
    assert units(data, names, "fujii_asset_retrieval") == [(MODELED, "scored or stolen")]
    # a body the engine cannot run: both triggers are the judge's, by hand
    nbt = card("next_big_thing")["triggers"]
    assert [t["when"] for t in nbt] == ["scored", "stolen"] and all(
        t["effects"][0]["effect"] == "text" for t in nbt
    )
    assert (BY_HAND, "scored or stolen") in units(data, names, "next_big_thing")


SUBROUTINES = [
    ("cobra", 0, {"effect": "trash_program", "amount": 1}),
    ("machicolation_a", 2, {"effect": "trash_installed", "amount": 1, "card_types": ["hardware"]}),
    ("machicolation_b", 0, {"effect": "trash_installed", "amount": 1, "card_types": ["resource"]}),
    ("authenticator", 0, {"effect": "gain_credits", "amount": 2}),
    (
        "errand_boy",
        0,
        {
            "effect": "choose",
            "options": [[{"effect": "gain_credits", "amount": 1}], [{"effect": "draw_cards", "amount": 1}]],
        },
    ),
    ("hourglass", 0, {"effect": "lose_clicks", "amount": 1}),
    (
        "chetana",
        0,
        [{"effect": "gain_credits", "amount": 2}, {"effect": "opponent_gains_credits", "amount": 2}],
    ),
    (
        "bulwark",
        0,
        {"effect": "trash_installed", "amount": 1, "card_types": ["program"], "chooser": "runner"},
    ),
    ("data_mine", 0, [{"effect": "net_damage", "amount": 1}, "trash_this_ice"]),
    ("special_offer", 0, [{"effect": "gain_credits", "amount": 5}, "trash_this_ice"]),
    (
        "caduceus",
        0,
        {"effect": "trace", "strength": 3, "on_success": [{"effect": "gain_credits", "amount": 3}]},
    ),
]


@pytest.mark.parametrize(("card_id", "i", "expected"), SUBROUTINES)
def test_subroutines(card, card_id, i, expected):
    assert card(card_id)["subroutines"][i] == expected


def test_formulas_naming_a_player_are_read_per_side():
    # on a Corp card "The Corp gains" is the controller's gain; on a Runner card it is not
    assert parse_effects("The Corp gains 2[credit].", "corp") == [{"effect": "gain_credits", "amount": 2}]
    assert parse_effects("The Corp gains 2[credit].", "runner") is None
    assert parse_effects("The Corp gains 2[credit].") is None
    assert parse_effects("Give them 1 tag.", "corp") == [{"effect": "give_tags", "amount": 1}]
    assert parse_effects("Give them 1 tag.", "runner") is None


def test_the_name_of_another_card_is_not_this_ice(card):
    """Only the card's own name reads as "this ice": a subroutine trashing another card stays
    by hand."""
    assert card("data_mine", name="x")["subroutines"][0][1] == "trash_this_ice"
    assert parse_effects("Do 1 net damage. Trash Data Mine.", "corp") is None


def test_operations_and_events(data, names, card):
    assert card("nanomanagement")["effects"] == [{"effect": "gain_clicks", "amount": 2}]
    # the play ability is modeled; "when this event is trashed from your grip" is shown
    assert card("strike_fund")["effects"] == [{"effect": "gain_credits", "amount": 4}]
    assert units(data, names, "strike_fund") == [(MODELED, None), (SHOWN, None)]
    assert card("strike_fund")["unmodeled"] == [
        "When this event is trashed from your grip or stack, you may gain 2[credit]."
    ]
    assert card("steelskin_scarring")["effects"] == [{"effect": "draw_cards", "amount": 3}]


# ----------------------------------------------------------------------------------------------
# Scenarios: the real cards on a board, stepped
# ----------------------------------------------------------------------------------------------


def corp_action(b, doc):
    s = engine.start(b, "corp_turn", doc)
    for _ in range(20):
        if s.current_step == "step_corp_turn_action":
            return s
        ids = decision_ids(s)
        s, _ = engine.apply(s, "pass" if "pass" in ids else ids[0])
    raise AssertionError(s.current_step)


def test_capital_investors_click_gains_2(doc, card):
    b = engine_board(
        turn="corp",
        corp={"credits": 0, "allotted_clicks": 3},
        servers={"remote1": {"content": card("capital_investors", rezzed=True)}},
    )
    s = corp_action(b, doc)
    clicks = s.board["corp"]["clicks"]
    s, ev = engine.apply(s, "ability:remote1.content.0")
    assert s.board["corp"]["credits"] == 2 and s.board["corp"]["clicks"] == clicks - 1
    assert any(e.step == "step_paid_ability_resolution" and "gains 2" in e.text for e in ev)


def test_bass_trashes_itself_for_two_clicks(doc, card):
    b = engine_board(
        turn="corp",
        corp={"credits": 0, "allotted_clicks": 3},
        servers={"remote1": {"content": card("bass_ch1r180g4", rezzed=True)}},
    )
    s = corp_action(b, doc)
    clicks = s.board["corp"]["clicks"]
    s, _ = engine.apply(s, "ability:remote1.content.0")
    assert s.board["corp"]["clicks"] == clicks - 1 + 2
    assert s.board["corp"]["discard"][-1]["name"] == "Bass CH1R180G4"


def test_an_unrezzed_asset_offers_nothing(doc, card):
    b = engine_board(
        turn="corp",
        corp={"credits": 0, "allotted_clicks": 3},
        servers={"remote1": {"content": card("capital_investors")}},
    )
    assert not any(i.startswith("ability:") for i in decision_ids(corp_action(b, doc)))


def test_humanoid_resources_by_hand_pays_its_cost_and_waits_for_the_judge(doc, card):
    b = engine_board(
        turn="corp",
        corp={"credits": 0, "allotted_clicks": 3},
        servers={"remote1": {"content": card("humanoid_resources", rezzed=True)}},
    )
    s = corp_action(b, doc)
    clicks = s.board["corp"]["clicks"]
    s, _ = engine.apply(s, "ability:remote1.content.0")
    assert s.board["corp"]["clicks"] == clicks - 3
    assert s.board["corp"]["discard"][-1]["name"] == "Humanoid Resources"  # [trash] is part of the cost
    ids = decision_ids(s)
    assert "resolved" in ids  # the by-hand resolution of "Gain 4[credit] and draw 3 cards. ..."
    s, _ = engine.apply(s, "resolved:corp.credits=4")
    assert s.board["corp"]["credits"] == 4


def step(s, wanted: str):
    """Pass / continue (taking the Corp's first option otherwise) until `wanted` is offered."""
    for _ in range(80):
        ids = decision_ids(s)
        if wanted in ids:
            return s
        assert not s.finished, f"finished before {wanted}"
        s, _ = engine.apply(s, next((w for w in ("pass", "continue") if w in ids), ids[0]))
    raise AssertionError(f"{wanted} never offered")


def finish(s):
    for _ in range(80):
        if s.finished:
            return s
        ids = decision_ids(s)
        s, _ = engine.apply(
            s, next((w for w in ("pass", "continue", "steal", "no_trash") if w in ids), ids[0])
        )
    raise AssertionError("did not finish")


def test_decoy_prevents_the_tag_of_a_real_subroutine(doc, card):
    """Jaguarundi's "Give the Runner 1 tag." is imminent: Decoy's interrupt (9.9) trashes it and
    prevents the tag; the subroutine resolves and gives none."""
    b = engine_board(
        runner={"credits": 0, "rig": {"resources": [card("decoy")]}},
        servers={"hq": {"ice": [card("jaguarundi", rezzed=True)]}},
    )
    s = step(engine.start(b, "run", doc, {"server": "hq"}), "prevent:resources.decoy.0")
    s, _ = engine.apply(s, "prevent:resources.decoy.0")
    s = finish(s)
    assert s.board["runner"]["tags"] == 0
    assert s.board["runner"]["discard"][-1]["name"] == "Decoy"
    assert s.board["runner"]["rig"]["resources"] == []


def test_without_decoy_the_runner_takes_the_tag(doc, card):
    b = engine_board(runner={"credits": 0}, servers={"hq": {"ice": [card("jaguarundi", rezzed=True)]}})
    s = finish(engine.start(b, "run", doc, {"server": "hq"}))
    assert s.board["runner"]["tags"] >= 1


def test_feedback_filter_pays_3_to_prevent_1_net_damage_of_a_real_subroutine(doc, card):
    b = engine_board(
        runner={"credits": 3, "hand": 5, "rig": {"hardware": [card("feedback_filter")]}},
        servers={"hq": {"ice": [card("cobra", rezzed=True)]}},
    )
    # Cobra: "Trash 1 program." then "Do 2 net damage."; the Runner has no program to lose
    s = step(engine.start(b, "run", doc, {"server": "hq"}), "prevent:hardware.feedback-filter.0")
    s, _ = engine.apply(s, "prevent:hardware.feedback-filter.0")
    s = finish(s)
    assert s.board["runner"]["credits"] == 0
    assert len(s.board["runner"]["hand"]) == 4  # 2 net damage, 1 prevented


def test_fujii_does_2_net_damage_when_stolen(doc, card):
    b = engine_board(runner={"hand": 5}, servers={"remote1": {"content": card("fujii_asset_retrieval")}})
    s = finish(engine.start(b, "run", doc, {"server": "remote1"}))
    assert [c["name"] for c in s.board["runner"]["score_area"]] == ["Fujii Asset Retrieval"]
    assert len(s.board["runner"]["hand"]) == 3


TWO_WAY = [
    # (card, [(when, filter)], modeled?)
    ("salvo_testing", [("scored", {"card_type": "agenda"})], True),
    ("djupstad_grid", [("scored", {"card_type": "agenda", "server": "this"})], True),
    ("fencer_fueno", [("turn_begins", None), ("stolen", None)], False),
    ("botulus", [("installed", None), ("turn_begins", None)], True),  # counters on itself (issue 32)
    ("pantograph", [("scored", {"card_type": "agenda"}), ("stolen", None)], False),
]


@pytest.mark.parametrize(("card_id", "conditions", "modeled"), TWO_WAY)
def test_one_ability_on_several_conditions(data, names, card, card_id, conditions, modeled):
    """A trigger on each condition, the same effects, one unit."""
    triggers = card(card_id)["triggers"][: len(conditions)]
    assert [(t["when"], t.get("filter")) for t in triggers] == conditions
    assert all(t["effects"] == triggers[0]["effects"] for t in triggers)
    by_hand = triggers[0]["effects"][0] in (
        {"effect": "text", "text": u.text} for u in card_units(data.cards[card_id], names)
    )
    assert by_hand is not modeled
    status = [u.status for u in card_units(data.cards[card_id], names) if u.kind == "trigger"][0]
    assert status == (MODELED if modeled else BY_HAND)


def test_pantograph_is_surfaced_when_the_runner_steals(doc, card):
    """Pantograph's "Whenever an agenda is scored or stolen, gain 1[credit]. Then, you may
    install 1 card from your grip." is by hand: when the Runner steals, the judge is asked."""
    b = engine_board(
        runner={"credits": 0, "rig": {"hardware": [card("pantograph")]}},
        servers={"remote1": {"content": card("hostile_takeover")}},
    )
    s = engine.start(b, "run", doc, {"server": "remote1"})
    seen: list[str] = []
    for _ in range(80):
        if s.finished:
            break
        ids = decision_ids(s)
        seen += ids
        if "resolved" in ids:
            s, _ = engine.apply(s, "resolved:runner.credits=1")
            continue
        s, _ = engine.apply(s, next((w for w in ("steal", "pass", "continue") if w in ids), ids[0]))
    assert "resolved" in seen
    assert [c["name"] for c in s.board["runner"]["score_area"]] == ["Hostile Takeover"]
    assert s.board["runner"]["credits"] == 1


@pytest.mark.parametrize(
    ("card_id", "triggers"),
    [
        ("fly_on_the_wall", [{"when": "scored", "effects": [{"effect": "give_tags", "amount": 1}]}]),
        (
            "vulcan_coverup",
            [
                {"when": "scored", "effects": [{"effect": "meat_damage", "amount": 2}]},
                {"when": "stolen", "effects": [{"effect": "take_bad_publicity", "amount": 1}]},
            ],
        ),
    ],
)
def test_the_older_wording_names_the_card_itself(card, card_id, triggers):
    """ "When you score Fly on the Wall, ..." is "When you score this agenda, ..."."""
    assert card(card_id)["triggers"] == triggers


def test_a_by_hand_trigger_keeps_the_printed_name(data, names, card):
    (tr,) = card("corporate_sales_team")["triggers"]
    assert tr == {
        "when": "scored",
        "effects": [
            {"effect": "text", "text": "When you score Corporate Sales Team, place 10[credit] on it."}
        ],
    }
    assert (BY_HAND, "scored") in units(data, names, "corporate_sales_team")


def test_a_threat_gated_trigger_resolves_only_at_that_threat(card):
    """Jaguarundi: "Threat 4 → When the Runner encounters this ice, give them 1 tag unless they
    spend [click]." (9.3.6f: active at threat level 4 or more)."""
    (tr,) = card("jaguarundi")["triggers"]
    assert tr == {
        "when": "encountered",
        "effects": [
            {
                "effect": "if_threat_level",
                "amount": 4,
                "effects": [
                    {
                        "effect": "unless_pays",
                        "amount": 0,
                        "clicks": 1,
                        "effects": [{"effect": "give_tags", "amount": 1}],
                    }
                ],
            }
        ],
    }
    # a body the engine cannot run keeps the whole printed paragraph, threat included
    (knight,) = card("starlit_knight")["triggers"]
    assert knight["effects"][0]["text"].startswith("Threat 4 → When the Runner encounters this ice")


def test_daily_quest_gives_the_runner_2_on_a_successful_run_on_its_server(doc, card):
    assert card("daily_quest")["triggers"][0] == {
        "when": "successful_run",
        "filter": {"server": "this"},
        "effects": [{"effect": "opponent_gains_credits", "amount": 2}],
    }
    b = engine_board(
        runner={"credits": 0}, servers={"remote1": {"content": card("daily_quest", rezzed=True)}}
    )
    s = finish(engine.start(b, "run", doc, {"server": "remote1"}))
    assert s.board["runner"]["credits"] == 2
    b = engine_board(
        runner={"credits": 0},
        servers={
            "remote1": {"content": card("daily_quest", rezzed=True)},
            "remote2": {"content": card("pad_campaign")},
        },
    )
    s = finish(engine.start(b, "run", doc, {"server": "remote2"}))
    assert s.board["runner"]["credits"] == 0  # a run on another server: not met


@pytest.mark.parametrize(
    ("card_id", "when", "flt", "modeled"),
    [
        ("lilypad", "installed", {"card_type": "program"}, True),
        ("masterwork_v37", "installed", {"card_type": "hardware"}, True),
        (
            "cookbook",
            "installed",
            {"card_type": "program", "subtype": "virus"},
            False,
        ),  # "on it": the program
        ("zenit_chip_jz_2mj", "successful_run", {"server": "central"}, True),
        ("pan_weave", "successful_run", {"server": "hq"}, False),  # "If they do, ..."
        ("john_masanori", "successful_run", None, True),
    ],
)
def test_first_time_each_turn_at_its_condition(data, names, card, card_id, when, flt, modeled):
    """ "The first time each turn ...": a trigger met only by the turn's first such event
    (`first_each`, issue 32) when its effects are understood; else the judge's each time its
    condition is met (the printed "The first time each turn" is in the text they resolve)."""
    tr = next(t for t in card(card_id)["triggers"] if t["when"] == when and t.get("filter") == flt)
    units = [(u.status, u.at) for u in card_units(data.cards[card_id], names)]
    if modeled:
        assert tr["first_each"] == "turn" and tr["effects"][0]["effect"] != "text"
        assert (MODELED, when) in units
        return
    (effect,) = tr["effects"]
    assert effect["effect"] == "text" and "first_each" not in tr
    assert (BY_HAND, when) in [
        (u.status, u.at) for u in card_units(data.cards[card_id], names) if u.text == effect["text"]
    ]


def test_john_masanori_draws_on_the_first_successful_run_only(doc, card):
    """John Masanori: "The first time you make a successful run each turn, draw 1 card." Two
    successful runs on Archives in one Runner turn: one card drawn, nothing asked of the judge."""
    rig = {"resources": [card("john_masanori")]}
    b = engine_board(turn="runner", runner={"clicks": 0, "allotted_clicks": 2, "hand": 0, "rig": rig})
    s = engine.start(b, "runner_turn", doc)
    runs = 0
    for _ in range(200):
        ids = decision_ids(s)
        if s.finished or (
            runs == 2 and "run:archives" not in ids and s.current_step == "step_runner_turn_action"
        ):
            break
        assert "resolved" not in ids
        if "run:archives" in ids:
            runs += 1
            s, _ = engine.apply(s, "run:archives")
            continue
        s, _ = engine.apply(s, next((w for w in ("pass", "continue") if w in ids), ids[0]))
    assert runs == 2
    assert len([e for e in s.trace if e.objects.get("trigger") == "resources.john-masanori.0"]) == 1
    assert len(s.board["runner"]["hand"]) == 1
