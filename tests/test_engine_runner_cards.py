"""The Runner's installed cards on real cards picked by name (`engine.cardtext.board_card`, what
`/api/cards/<card>/board` answers): paid abilities of hardware and resources without [click] in
their cost ("[trash]: Gain 3[credit].", 9.2.7), usable in any paid ability window, the card trashed
as part of the cost (1.16, 1.16.10b); "Remove 1 tag." on a Runner card; and the damage a Runner
card does to its own player ("When you install this hardware, suffer 1 core damage.": damage, so
it can be prevented, 9.9.6b). What is offered and what is refused are one evaluation."""

from __future__ import annotations

import pytest
from helpers import cites_known_rules, decision_ids, engine_board, load_doc, until_offered

import engine


@pytest.fixture(params=["24.03", "26.03"])
def doc(request):
    return load_doc(request.param)


NFL_CREDITS = "use:resources.no-free-lunch.0"
NFL_TAG = "use:resources.no-free-lunch.1"


# ----- the translation -----------------------------------------------------------------------------


def board(**kw) -> dict:
    return engine_board(**{"version": 2, **kw})


def test_trash_abilities_and_install_damage_are_modeled_and_restricted_ones_are_not(card):
    """ "[trash]: Gain 3[credit]." is a paid ability of the resource with [trash] as its cost;
    "[click], [trash]: Gain 5[credit] and remove 1 tag." an action; "When you install this
    hardware, suffer 1 core damage." a trigger the Runner suffers. Flip Switch's "[trash]: Remove 1
    tag." stays by hand: "Use this hardware only during your turn." is a limit the engine does not
    check, and a program's "[trash]" ability (Self-modifying Code) is not a hardware/resource one."""
    nfl = card("no_free_lunch")
    assert nfl["abilities"] == [
        {"kind": "paid", "cost": 0, "trash": True, "effects": [{"effect": "gain_credits", "amount": 3}]},
        {"kind": "paid", "cost": 0, "trash": True, "effects": [{"effect": "remove_tags", "amount": 1}]},
    ]
    assert [u.status for u in card.units("no_free_lunch")] == ["modeled", "modeled"]
    fof = card("friend_of_a_friend")["abilities"][0]
    assert fof["kind"] == "click" and fof["trash"] is True
    assert fof["effects"] == [{"effect": "gain_credits", "amount": 5}, {"effect": "remove_tags", "amount": 1}]
    zenit = card("zenit_chip_jz_2mj")
    assert zenit["triggers"][0] == {"when": "installed", "effects": [{"effect": "core_damage", "amount": 1}]}
    assert [u.status for u in card.units("zenit_chip_jz_2mj")] == ["modeled", "modeled"]
    flip = {u.text: u.status for u in card.units("flip_switch")}
    assert flip["[trash]: Remove 1 tag."] == "by_hand"
    smc = {u.text: u.status for u in card.units("self_modifying_code")}
    assert smc["2[credit], [trash]: Search your stack for 1 program. Install it."] == "by_hand"


# ----- paid abilities with [trash] (9.2.7, 1.16) -----------------------------------------------------


def test_no_free_lunch_trashes_itself_to_gain_3_credits(card, doc):
    """No Free Lunch: "[trash]: Gain 3[credit]." in the Runner's paid ability window: trashed to
    the heap as the cost is paid, then the Runner gains 3; its other ability goes with it."""
    b = board(turn="runner", runner={"credits": 1, "tags": 0, "rig": {"resources": [card("no_free_lunch")]}})
    s = until_offered(engine.start(b, "runner_turn", doc), NFL_CREDITS)
    assert "[trash]: Gain 3[credit]" in next(
        d["label"] for d in engine.legal_decisions(s) if d["id"] == NFL_CREDITS
    )
    s, _ = engine.apply(s, NFL_CREDITS)
    r = s.board["runner"]
    assert r["credits"] == 4
    assert r["rig"]["resources"] == [] and r["discard"][-1]["name"] == "No Free Lunch"
    assert NFL_CREDITS not in decision_ids(s) and NFL_TAG not in decision_ids(s)
    paid = next(e for e in s.trace if "rule_trashing" in e.rules and "pays" in e.text)
    assert paid.changes["runner.rig.resources"] == [1, 0]
    assert cites_known_rules(s, doc)


def test_no_free_lunch_removes_a_tag_and_removes_none_when_untagged(card, doc):
    """ "[trash]: Remove 1 tag.": the Runner with 2 tags has 1 left; untagged, the ability may still
    be used (its cost is paid) and removes nothing (an event walked, not applied)."""
    for tags, left in ((2, 1), (0, 0)):
        b = board(turn="runner", runner={"tags": tags, "rig": {"resources": [card("no_free_lunch")]}})
        s = until_offered(engine.start(b, "runner_turn", doc), NFL_TAG)
        s, _ = engine.apply(s, NFL_TAG)
        assert s.board["runner"]["tags"] == left
        assert s.board["runner"]["discard"][-1]["name"] == "No Free Lunch"
        ev = next(e for e in s.trace if "removed" in e.objects)
        assert ev.objects["removed"] == tags - left and ev.applied == bool(tags)


def test_no_free_lunch_is_usable_during_an_encounter(card, doc):
    """A paid ability is usable in any paid ability window (9.2.7), the encounter's too: the
    Runner trashes No Free Lunch while encountering Ice Wall and gains 3."""
    b = board(
        runner={"credits": 0, "rig": {"resources": [card("no_free_lunch")]}},
        servers={"hq": {"ice": [card("ice_wall")]}},
    )
    s = until_offered(engine.start(b, "run", doc, {"server": "hq"}), NFL_CREDITS)
    assert s.board["runner"]["credits"] == 0
    s, _ = engine.apply(s, NFL_CREDITS)
    assert s.board["runner"]["credits"] == 3 and s.board["runner"]["rig"]["resources"] == []


def test_stoneship_chart_room_trashes_to_draw_two(card, doc):
    """Stoneship Chart Room: "[trash]: Draw 2 cards." (8.4)."""
    b = board(
        turn="runner", runner={"hand": 0, "deck": 5, "rig": {"resources": [card("stoneship_chart_room")]}}
    )
    aid = "use:resources.stoneship-chart-room.0"
    s = until_offered(engine.start(b, "runner_turn", doc), aid)
    s, _ = engine.apply(s, aid)
    for _ in range(10):
        if len(s.board["runner"]["hand"]) == 2:
            break
        s, _ = engine.apply(s, decision_ids(s)[0])
    assert len(s.board["runner"]["hand"]) == 2 and len(s.board["runner"]["deck"]) == 3
    assert s.board["runner"]["rig"]["resources"] == []


def test_friend_of_a_friend_is_an_action_that_trashes_it(card, doc):
    """Friend of a Friend: "[click], [trash]: Gain 5[credit] and remove 1 tag." an action (5.2.1):
    offered in the action window, paid with a click, the resource trashed as part of the cost."""
    b = board(
        turn="runner",
        runner={"credits": 0, "clicks": 1, "tags": 1, "rig": {"resources": [card("friend_of_a_friend")]}},
    )
    aid = "use:resources.friend-of-a-friend.0"
    s = until_offered(engine.start(b, "runner_turn", doc), aid)
    clicks = s.board["runner"]["clicks"]
    s, _ = engine.apply(s, aid)
    r = s.board["runner"]
    assert (r["credits"], r["tags"], r["clicks"]) == (5, 0, clicks - 1)
    assert r["rig"]["resources"] == []


def test_paid_ability_field_checks():
    """A `paid` ability belongs to hardware or a resource; a program's is refused with its path."""
    prog = {"name": "P", "type": "program", "abilities": [{"kind": "paid", "effects": ["gain_credits"]}]}
    b = board(runner={"rig": {"programs": [prog]}})
    problems = engine.validate_board(b)
    assert any("programs" in p and "paid abilities" in p for p in problems), problems
    hw = {
        "name": "H",
        "type": "hardware",
        "abilities": [{"kind": "paid", "trash": True, "effects": [{"effect": "remove_tags", "amount": 1}]}],
    }
    assert engine.validate_board(board(runner={"rig": {"hardware": [hw]}})) == []
    bad = {**hw, "abilities": [{"kind": "paid", "clicks": 1, "effects": []}]}
    assert any("clicks" in p for p in engine.validate_board(board(runner={"rig": {"hardware": [bad]}})))


# ----- damage the Runner's own card does to it (9.9.6b) ----------------------------------------------


def test_zenit_chip_install_costs_a_core_damage(card, doc):
    """Zenit Chip: "When you install this hardware, suffer 1 core damage." The Runner installs it
    from a grip of 3: one other card trashed at random, 1 core damage taken, maximum hand size 4."""
    hand = [card("zenit_chip_jz_2mj"), card("sure_gamble"), card("sure_gamble"), card("sure_gamble")]
    b = board(turn="runner", runner={"credits": 5, "clicks": 1, "hand": hand})
    s = until_offered(engine.start(b, "runner_turn", doc), "install:zenit-chip-jz-2mj")
    s, _ = engine.apply(s, "install:zenit-chip-jz-2mj")
    for _ in range(10):
        if s.board["runner"]["core_damage"]:
            break
        s, _ = engine.apply(s, decision_ids(s)[0])
    r = s.board["runner"]
    assert r["core_damage"] == 1 and len(r["hand"]) == 2 and len(r["discard"]) == 1
    assert engine.machine.max_hand(s.board, "runner") == 4
    assert any("suffers 1 core damage" in e.text for e in s.trace)
    assert cites_known_rules(s, doc)


def test_pan_weave_meat_damage_can_be_prevented(card, doc):
    """PAN-Weave: "When you install this hardware, suffer 1 meat damage." is damage, not a cost:
    an interrupt window opens and a card that prevents meat damage prevents it (9.9.6b)."""
    plating = {
        "name": "Plating",
        "type": "hardware",
        "abilities": [{"kind": "prevent", "damage": "meat", "amount": 1}],
    }
    b = board(
        turn="runner",
        runner={
            "credits": 5,
            "clicks": 1,
            "hand": [card("pan_weave"), card("sure_gamble")],
            "rig": {"hardware": [plating]},
        },
    )
    s = until_offered(engine.start(b, "runner_turn", doc), "install:pan-weave")
    s, _ = engine.apply(s, "install:pan-weave")
    s = until_offered(s, "prevent:hardware.plating.0")
    s, _ = engine.apply(s, "prevent:hardware.plating.0")
    for _ in range(10):
        if any("prevented" in e.text and e.applied is False for e in s.trace) or s.finished:
            break
        s, _ = engine.apply(s, decision_ids(s)[0])
    r = s.board["runner"]
    assert len(r["hand"]) == 1 and r["discard"] == []
    assert any("all 1 meat damage was prevented" in e.text for e in s.trace)


# ----- "You get +N maximum hand size." (1.13.3b) -----------------------------------------------------


def discard_step(s, limit: int = 80):
    """Pass through the Runner's turn until its discard step has spoken (a discard asked, or the
    hand found within the maximum)."""
    for _ in range(limit):
        ids = decision_ids(s)
        if any(i.startswith("discard:") for i in ids) or any(
            "maximum hand size of" in e.text for e in s.trace
        ):
            return s
        assert not s.finished
        s, _ = engine.apply(s, "pass" if "pass" in ids else "continue" if "continue" in ids else ids[0])
    raise AssertionError("the discard step never came")


@pytest.mark.parametrize("rig_card, keeps", [("t400_memory_diamond", 6), ("marrow", 8), (None, 5)])
def test_installed_hand_size_cards_raise_the_maximum(card, doc, rig_card, keeps):
    """T400 Memory Diamond / Supercorridor: "You get +1 maximum hand size."; Marrow +3. At the
    discard step a Runner with 8 cards in the grip keeps as many as its maximum (5 with neither)."""
    hardware = [card(rig_card)] if rig_card else []
    hand = [card("sure_gamble") for _ in range(8)]
    b = board(turn="runner", runner={"clicks": 0, "hand": hand, "rig": {"hardware": hardware}})
    s = discard_step(engine.start(b, "runner_turn", doc))
    assert engine.machine.max_hand(s.board, "runner") == keeps
    asks = [i for i in decision_ids(s) if i.startswith("discard:")]
    assert bool(asks) == (keeps < 8)
    while asks:
        s, _ = engine.apply(s, asks[0])
        asks = [i for i in decision_ids(s) if i.startswith("discard:")]
    assert len(s.board["runner"]["hand"]) == keeps


def test_hand_size_units_are_modeled(card):
    for cid in ("supercorridor", "t400_memory_diamond", "marrow"):
        status = {u.text: u.status for u in card.units(cid)}
        assert all(v == "modeled" for k, v in status.items() if "maximum hand size" in k), cid
    assert card("marrow")["hand_size"] == 3 and card("supercorridor")["hand_size"] == 1


# ----- the Runner's identity (4.6.4a: always active) -------------------------------------------------


def identity(titled, title: str) -> dict:
    return titled.card(title)


def test_runner_identity_units(titled):
    """Deck-building text is not applicable; a trigger the engine has is surfaced by hand at its
    condition when its condition or effects say more than the engine models; the rest is shown."""
    nova = titled.units("Nova Initiumia: Catalyst & Impetus")
    assert [u.status for u in nova] == ["n/a"]
    muslihat = titled.units("MuslihaT: Multifarious Marketeer")
    assert [(u.status, u.at) for u in muslihat] == [("by_hand", "turn_begins")]
    tao = titled.units("Tāo Salonga: Telepresence Magician")
    assert [(u.status, u.at) for u in tao] == [("by_hand", "scored or stolen")]
    zahya = titled.units("Zahya Sadeghi: Versatile Smuggler")
    assert [(u.status, u.at) for u in zahya] == [("by_hand", "run_ends")]
    lat = titled.card("Lat: Ethical Freelancer")
    assert [u.status for u in titled.units("Lat: Ethical Freelancer")] == ["shown"]
    assert lat["unmodeled"] and "triggers" not in lat


def test_muslihat_is_asked_by_hand_when_the_runner_turn_begins(titled, doc):
    """MuslihaT: "When your turn begins, look at the top card of your stack. ..." The identity is
    always active: its ability is pending when the Runner's turn begins and the judge resolves it
    as written before the Runner's first action; not on the Corp's turn ("your turn")."""
    ident = identity(titled, "MuslihaT: Multifarious Marketeer")
    b = board(turn="runner", runner={"clicks": 0, "identity": ident})
    assert engine.validate_board(b) == []
    s = engine.start(b, "runner_turn", doc)
    asked = [d["label"] for d in engine.legal_decisions(s) if d["id"] == "resolved"]
    assert asked and "look at the top card of your stack" in asked[0]
    assert any("MuslihaT" in e.text and "pending" in e.text for e in s.trace)
    assert cites_known_rules(s, doc)
    s = engine.start(board(turn="corp", runner={"identity": ident}), "corp_turn", doc)
    assert not any("MuslihaT" in e.text for e in s.trace)


def test_zahya_is_asked_when_a_run_ends(titled, doc):
    """Zahya Sadeghi: "When a run on HQ or R&D ends, you may gain 1[credit] for each time you
    accessed a card during that run." Surfaced by hand when the run ends (the judge checks the
    server and counts the accesses)."""
    ident = identity(titled, "Zahya Sadeghi: Versatile Smuggler")
    s = engine.start(board(runner={"identity": ident}), "run", doc, {"server": "hq"})
    for _ in range(60):
        if s.finished or any(d["id"] == "resolved" for d in engine.legal_decisions(s)):
            break
        ids = decision_ids(s)
        s, _ = engine.apply(s, "pass" if "pass" in ids else "continue" if "continue" in ids else ids[0])
    asked = [d["label"] for d in engine.legal_decisions(s) if d["id"] == "resolved"]
    assert asked and "When a run on HQ or R&D ends" in asked[0]
    assert any("when the run ends" in e.text and "Zahya" in e.text for e in s.trace)


def test_two_runner_abilities_pending_are_ordered_by_the_runner(titled, card, doc):
    """MuslihaT and a resource with a by-hand turn-begins ability (Smartware Distributor's "take 1
    [credit] from this resource") are pending together: the Runner chooses the order (9.2.8d),
    naming the identity by `trigger:runner_identity.CARD.N`."""
    ident = identity(titled, "MuslihaT: Multifarious Marketeer")
    b = board(
        turn="runner",
        runner={"clicks": 0, "identity": ident, "rig": {"resources": [card("smartware_distributor")]}},
    )
    s = engine.start(b, "runner_turn", doc)
    ids = decision_ids(s)
    mine = [i for i in ids if i.startswith("trigger:runner_identity.")]
    assert mine == ["trigger:runner_identity.muslihat-multifarious-marketeer.0"], ids
    s, _ = engine.apply(s, mine[0])
    asked = [d["label"] for d in engine.legal_decisions(s) if d["id"] == "resolved"]
    assert asked and "look at the top card" in asked[0]


# ----- "Whenever a run begins" (6.9.1c) ---------------------------------------------------------------


def test_prognostic_q_loop_is_asked_when_the_run_begins(card, doc):
    """Prognostic Q-Loop: "The first time each turn a run begins, you may look at the top 2 cards
    of your stack." Surfaced by hand when the run formally begins (6.9.1c), before the Runner
    approaches the first ice."""
    b = board(
        runner={"rig": {"hardware": [card("prognostic_q_loop")]}}, servers={"hq": {"ice": [card("ice_wall")]}}
    )
    s = engine.start(b, "run", doc, {"server": "hq"})
    for _ in range(20):
        if any(d["id"] == "resolved" for d in engine.legal_decisions(s)):
            break
        ids = decision_ids(s)
        s, _ = engine.apply(s, "pass" if "pass" in ids else "continue" if "continue" in ids else ids[0])
    asked = [d["label"] for d in engine.legal_decisions(s) if d["id"] == "resolved"]
    assert asked and "look at the top 2 cards" in asked[0]
    assert not any(e.rules and "step_approach_begins" in e.rules for e in s.trace)
    assert any("when a run begins" in e.text and "Prognostic" in e.text for e in s.trace)
    assert cites_known_rules(s, doc)


def run_twice(b: dict, doc):
    """The Runner runs HQ twice in its turn (no ice: each run is successful and breaches HQ)."""
    s = engine.start(b, "runner_turn", doc)
    runs = 0
    for _ in range(200):
        ids = decision_ids(s)
        if "run:hq" in ids:
            if runs == 2:
                return s
            runs += 1
            s, _ = engine.apply(s, "run:hq")
            continue
        assert not s.finished
        s, _ = engine.apply(s, "pass" if "pass" in ids else "continue" if "continue" in ids else ids[0])
    raise AssertionError("two runs never done")


def test_run_begins_trigger_first_each_turn_and_server_filter(doc):
    """A modeled "The first time each turn a run begins, gain 1[credit]." (`first_each`) pays on
    the turn's first run only; "Whenever a run on R&D begins" (a `server` filter) never on HQ."""
    first = {
        "name": "Meter",
        "type": "resource",
        "triggers": [
            {"when": "run_begins", "first_each": "turn", "effects": [{"effect": "gain_credits", "amount": 1}]}
        ],
    }
    rd = {
        "name": "Gauge",
        "type": "resource",
        "triggers": [
            {
                "when": "run_begins",
                "filter": {"server": "rd"},
                "effects": [{"effect": "gain_credits", "amount": 5}],
            }
        ],
    }
    b = board(
        turn="runner", runner={"credits": 0, "clicks": 0, "rig": {"resources": [first, rd]}}, corp={"hand": 5}
    )
    assert engine.validate_board(b) == []
    s = run_twice(b, doc)
    assert s.board["runner"]["credits"] == 1
    assert any(x.startswith("resources.gauge.") for e in s.trace for x in e.objects.get("not_met", ()))


def test_a_paid_ability_the_runner_cannot_afford_is_refused_not_offered(doc):
    """ "2[credit], [trash]: Gain 3[credit]." with 1 credit: not offered, refused with the reason
    (1.16.10b); with 2 credits offered, and not refused."""
    box = {
        "name": "Box",
        "type": "resource",
        "abilities": [
            {"kind": "paid", "cost": 2, "trash": True, "effects": [{"effect": "gain_credits", "amount": 3}]}
        ],
    }
    aid = "use:resources.box.0"
    for credits, offered in ((1, False), (2, True)):
        b = board(turn="runner", runner={"credits": credits, "rig": {"resources": [box]}})
        s = engine.start(b, "runner_turn", doc)
        s = (
            until_offered(s, aid) if offered else until_offered(s, "credit")
        )  # its paid ability window, or the action
        refused = {r.id: r for r in engine.refused_decisions(s)}
        assert (aid in decision_ids(s)) == offered and (aid in refused) != offered
        if not offered:
            assert "costs 2 credits" in refused[aid].to_dict()["reason"]
            assert refused[aid].to_dict()["rule"] == "rule_cost"


def test_the_board_picture_draws_the_runner_identity_as_a_card(titled):
    """Picked by name, the Runner's identity carries its conditional abilities: the board picture
    (the stepper's and the editor's) draws it as a card with each ability and where the judge
    applies it, as the Corp's identity is drawn, instead of one block of text."""
    from webapp import create_app
    from webapp.board_picture import board_picture

    ident = identity(titled, "MuslihaT: Multifarious Marketeer")
    pic = board_picture(board(runner={"identity": ident}))
    view = pic["runner"]["identity_card"]
    assert view is not None and view["name"] == "MuslihaT: Multifarious Marketeer"
    # a hand-written identity (a name and text only) stays a note
    plain = board_picture(board(runner={"identity": {"name": "Someone", "text": "Do a thing."}}))
    assert plain["runner"]["identity_card"] is None and plain["runner"]["identity_text"] == "Do a thing."
    app = create_app({"TESTING": True, "SECRET_KEY": "runner-identity-key" * 2})
    with app.test_request_context():
        from flask import render_template_string

        html = render_template_string('{% include "_board.html" %}', pic=pic)
    runner = html[html.index('<div class="bp-side bp-runner">') :]
    assert '<div class="bc ident"><b>MuslihaT: Multifarious Marketeer</b>' in runner
    assert "look at the top card of your stack" in runner
