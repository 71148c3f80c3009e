"""Issue 32 set A on real cards picked by name (`engine.cardtext.board_card`, what
`/api/cards/<card>/board` answers): counters on cards (CR 1.9.1, 1.9.2a, 1.13.1: placed on the
card, from the bank), hosted counters as a cost (1.16.4, 1.16.10b: every part of a cost paid at
once, or the ability is not offered), the "Once per turn →" flag (9.3.6g) and "the first time
each turn" (9.3.2b). What is offered and what is refused are one evaluation: a decision the
engine does not offer is refused with the reason, and never both or neither."""

from __future__ import annotations

import pytest
from helpers import cites_known_rules, decision_ids, load_doc, until_offered

import engine


@pytest.fixture(params=["24.03", "26.03"])
def doc(request):
    return load_doc(request.param)


def board(**kw) -> dict:
    b = {
        "version": 1,
        "corp": {"credits": 5, "hand": 3, "deck": 10},
        "runner": {"credits": 5, "clicks": 4, "hand": 5},
        "servers": {},
    }
    for side in ("corp", "runner"):
        b[side].update(kw.pop(side, {}))
    b.update(kw)
    return b


def refused(s) -> dict[str, dict]:
    return {r.id: r.to_dict() for r in engine.refused_decisions(s)}


# ----- the translation -----------------------------------------------------------------------------


def test_counter_units_are_modeled_and_partial_ones_stay_by_hand(card):
    """Each unit says what the engine does: the counters placed "on it" when this card is the
    subject are modeled; "on it" about another card (Cookbook), counters placed on a stolen
    agenda (Next Big Thing) and advancement-counter costs stay by hand or shown, never modeled."""
    status = {u.text: u.status for cid in ("hantu", "sandstone", "flower_sermon") for u in card.units(cid)}
    assert status["When you install this program, place 2 virus counters on it."] == "modeled"
    assert status["Hosted virus counter: +2 strength."] == "modeled"
    assert status["When the Runner encounters this ice, place 1 virus counter on it."] == "modeled"
    assert status["This ice gets −1 strength for each hosted virus counter."] == "modeled"
    assert status["When you score this agenda, place 5 agenda counters on it."] == "modeled"
    cookbook = card.units("cookbook")
    assert [u.status for u in cookbook] == ["by_hand"]
    nbt = {u.text: u.status for u in card.units("next_big_thing")}
    assert nbt["When this agenda is scored or stolen, place 1 agenda counter on it."] == "by_hand"
    charlotte = {u.text: u.status for u in card.units("charlotte_cacador")}
    assert charlotte["[trash], hosted advancement counter: Gain 3[credit]."] != "modeled"
    assert card("hantu")["abilities"][1] == {
        "kind": "strength",
        "cost": 0,
        "amount": 2,
        "counter_cost": {"counter": "virus", "amount": 1},
    }


# ----- counters placed on this card (1.9.2a, 1.13.1) -------------------------------------------------


def test_hantu_installed_from_the_grip_hosts_two_virus_counters(card, doc):
    """Hantu: "When you install this program, place 2 virus counters on it." (8.5.15f, 1.13.1)"""
    b = board(turn="runner", runner={"credits": 5, "clicks": 0, "hand": [card("hantu")]})
    s = until_offered(engine.start(b, "runner_turn", doc), "install:hantu")
    s, ev = engine.apply(s, "install:hantu")
    hantu = s.board["runner"]["rig"]["programs"][0]
    assert hantu["name"] == "Hantu" and hantu["counters"] == {"virus": 2}
    placed = [e for e in s.trace if e.objects.get("placed")]
    assert len(placed) == 1 and placed[0].changes == {"runner.rig.programs.hantu.counters.virus": [0, 2]}
    assert "rule_placed_loaded" in placed[0].rules and cites_known_rules(s, doc)


def test_flower_sermon_scored_hosts_five_agenda_counters(card, doc):
    """Flower Sermon: "When you score this agenda, place 5 agenda counters on it." (9.6.14c)"""
    sermon = card("flower_sermon", advancements=4)
    b = board(turn="corp", corp={"credits": 0, "clicks": 0}, servers={"remote1": {"content": sermon}})
    s = until_offered(engine.start(b, "corp_turn", doc), "score:remote1")
    s, _ = engine.apply(s, "score:remote1")
    for _ in range(5):
        if s.board["corp"]["score_area"] and s.board["corp"]["score_area"][0].get("counters"):
            break
        s, _ = engine.apply(s, decision_ids(s)[0])
    assert s.board["corp"]["score_area"][0]["counters"] == {"agenda": 5}


def test_sandstone_gets_weaker_with_each_encounter(card, doc):
    """Sandstone: "When the Runner encounters this ice, place 1 virus counter on it. This ice gets
    −1 strength for each hosted virus counter." A strength-6 barrier hosting 2 counters is
    encountered at strength 5 after the first one and 4 after the next."""
    sandstone = card("sandstone", counters={"virus": 1})
    b = board(servers={"hq": {"ice": [sandstone]}})
    s = until_offered(engine.start(b, "run", doc, {"server": "hq"}), "pass")
    assert s.board["servers"]["hq"]["ice"][0]["counters"] == {"virus": 2}
    assert engine.rig.ice_strength(s.board, "hq", s.board["servers"]["hq"]["ice"][0]) == 4
    placed = [e for e in s.trace if e.objects.get("placed")]
    assert placed[0].changes == {"servers.hq.ice.sandstone.counters.virus": [1, 2]}


def test_cold_site_server_click_places_and_turn_begins_removes_all(card, doc):
    """Cold Site Server: "[click]: Place 1 power counter on this upgrade." and "When your turn
    begins, remove all hosted power counters." (5.2.6a action; 1.13.1)"""
    css = card("cold_site_server", counters={"power": 2})
    b = board(turn="corp", corp={"clicks": 3}, servers={"remote1": {"root": [css], "content": None}})
    b["servers"]["remote1"].pop("content")
    b["servers"]["remote1"]["ice"] = [card("sandstone")]
    s = engine.start(b, "corp_turn", doc)
    # turn begins: both counters removed before the Corp has priority
    s = until_offered(s, "ability:remote1.root.cold-site-server.0")
    assert "counters" not in s.board["servers"]["remote1"]["root"][0] or not s.board["servers"]["remote1"][
        "root"
    ][0]["counters"].get("power")
    clicks = s.board["corp"]["clicks"]
    s, _ = engine.apply(s, "ability:remote1.root.cold-site-server.0")
    s = until_offered(s, "ability:remote1.root.cold-site-server.0")
    assert s.board["servers"]["remote1"]["root"][0]["counters"] == {"power": 1}
    assert s.board["corp"]["clicks"] == clicks - 1


# ----- hosted counters as a cost (1.16.4, 1.16.10b) ---------------------------------------------------


def hantu_vs_katana(card, virus: int, credits: int = 5) -> dict:
    return board(
        runner={"credits": credits, "rig": {"programs": [card("hantu", counters={"virus": virus})]}},
        servers={"hq": {"ice": [card("neural_katana")]}},
    )


def test_hantu_pays_a_virus_counter_to_pump_and_breaks_neural_katana(card, doc):
    """Hantu (strength 2) "Hosted virus counter: +2 strength." against Neural Katana (strength 3):
    the counter is removed as the cost (the credits are not touched), Hantu reaches 4 and breaks
    the sentry subroutine for 1[credit]."""
    s = until_offered(engine.start(hantu_vs_katana(card, 1), "run", doc, {"server": "hq"}), "use:hantu.1")
    assert "use:hantu.0" not in decision_ids(s)  # strength 2 < 3 (3.9.5g)
    s, ev = engine.apply(s, "use:hantu.1")
    hantu = s.board["runner"]["rig"]["programs"][0]
    assert hantu.get("counters", {}).get("virus", 0) == 0 and hantu["boost"] == 2
    assert s.board["runner"]["credits"] == 5
    paid = [e for e in ev if e.step == "step_paid_ability_condition"]
    assert "hosted virus counter" in paid[0].text and "rule_types_of_costs" in paid[0].rules
    # no counter left: the pump is neither offered nor silently missing; refused with the reason
    assert "use:hantu.1" not in decision_ids(s)
    assert "hosts 0" in refused(s)["use:hantu.1"]["reason"]
    s = until_offered(s, "use:hantu.0")
    s, _ = engine.apply(s, "use:hantu.0")
    assert s.board["runner"]["credits"] == 4 and cites_known_rules(s, doc)


def test_offered_and_refused_agree_before_and_after_the_counter_is_spent(card, doc):
    """At every point of the encounter each Hantu ability is either offered or refused with its
    reason, never both, never neither: first the break (strength 2 < 3, 3.9.5g), then the pump
    (no virus counter left)."""
    s = until_offered(engine.start(hantu_vs_katana(card, 1), "run", doc, {"server": "hq"}), "use:hantu.1")
    for step in range(2):
        offered, why = set(decision_ids(s)), refused(s)
        for use in ("use:hantu.0", "use:hantu.1"):
            assert (use in offered) != (use in why), (step, use)
        if step == 0:
            assert "3.9.5g" in why["use:hantu.0"]["reason"]
            s, _ = engine.apply(s, "use:hantu.1")
            s = until_offered(s, "use:hantu.0")
    assert why["use:hantu.1"]["reason"].startswith("Hantu's ability costs 1 hosted virus counter")


def test_audrey_breaks_up_to_two_for_one_virus_counter(card, doc):
    """Audrey v2: "Interface → Hosted virus counter: Break up to 2 subroutines." (strength 0)
    against a strength-0 ice (Sandstone hosting 6 virus counters: 6 − 6 = 0)."""
    audrey = card("audrey_v2", counters={"virus": 1})
    b = board(
        runner={"rig": {"programs": [audrey]}},
        servers={"hq": {"ice": [card("sandstone", counters={"virus": 5})]}},
    )
    s = until_offered(engine.start(b, "run", doc, {"server": "hq"}), "use:audrey-v2.0")
    s, _ = engine.apply(s, "use:audrey-v2.0")
    assert s.board["runner"]["rig"]["programs"][0].get("counters", {}).get("virus", 0) == 0
    assert s.board["runner"]["credits"] == 5
    assert "use:audrey-v2.0" not in decision_ids(s)


def test_working_prototype_click_spends_a_power_counter(card, doc):
    """Working Prototype: "[click], hosted power counter: Gain 3[credit]." Offered while it hosts
    a power counter; with none, refused with the reason (the same test, windows.corp_ability_blocked)."""
    wp = card("working_prototype", counters={"power": 1})
    b = board(turn="corp", corp={"credits": 0, "clicks": 3}, servers={"remote1": {"content": wp}})
    aid = "ability:remote1.content.0"
    s = until_offered(engine.start(b, "corp_turn", doc), aid)
    assert "ability:remote1.content.1" not in decision_ids(s)  # needs 5 counters, has 1
    assert "hosts 1" in refused(s)["ability:remote1.content.1"]["reason"]
    clicks = s.board["corp"]["clicks"]
    s, _ = engine.apply(s, aid)
    for _ in range(10):
        if s.current_step == "step_corp_turn_action":
            break
        s, _ = engine.apply(s, "pass" if "pass" in decision_ids(s) else decision_ids(s)[0])
    assert s.board["corp"]["credits"] == 3 and s.board["corp"]["clicks"] == clicks - 1
    assert s.board["servers"]["remote1"]["content"].get("counters", {}).get("power", 0) == 0
    assert aid not in decision_ids(s)
    assert (
        refused(s)[aid]["reason"] == "Working Prototype's ability costs 1 hosted power counter(s); it hosts 0"
    )
    assert cites_known_rules(s, doc)


def test_unrezzed_card_ability_is_refused_as_inactive(card, doc):
    wp = card("working_prototype", counters={"power": 3}, rezzed=False)
    b = board(turn="corp", corp={"credits": 0, "clicks": 3}, servers={"remote1": {"content": wp}})
    s = until_offered(engine.start(b, "corp_turn", doc), "credit")
    assert refused(s)["ability:remote1.content.0"]["rule"] == "rule_corp_become_active"


# ----- once per turn (9.3.6g) and the first time each turn ---------------------------------------------


def test_the_holo_man_is_used_once_per_turn(card, doc):
    """The Holo Man: "Once per turn → [click], 4[credit]: ..." (its effect resolved by hand; the
    cost and the limit are the engine's): after one use it is refused, citing the flag (9.3.6g,
    from CR 25.04; earlier versions have no flag rule: the card's own text, 1.2.1)."""
    holo = card("the_holo_man")
    b = board(
        turn="corp",
        corp={"credits": 10, "clicks": 3},
        servers={"remote1": {"root": [holo], "ice": [card("sandstone")]}},
    )
    aid = "ability:remote1.root.the-holo-man.0"
    s = until_offered(engine.start(b, "corp_turn", doc), aid)
    clicks = s.board["corp"]["clicks"]
    s, _ = engine.apply(s, aid)
    for _ in range(20):
        if s.current_step == "step_corp_turn_action":
            break
        ids = decision_ids(s)
        s, _ = engine.apply(s, next((x for x in ("resolved", "pass", "continue") if x in ids), ids[0]))
    assert s.current_step == "step_corp_turn_action" and s.board["corp"]["credits"] == 6
    assert s.board["corp"]["clicks"] == clicks - 1 and aid not in decision_ids(s)
    r = refused(s)[aid]
    assert "only once per turn" in r["reason"]
    want = (
        "rule_once_per_turn_flag"
        if doc.node("rule_once_per_turn_flag") is not None
        else "rule_card_precedence"
    )
    assert r["rule"] == want


def test_net_shield_prevents_only_the_first_net_damage_of_the_turn(card, doc):
    """Net Shield: "[interrupt] → The first time each turn you would suffer net damage, you may pay
    1[credit] to prevent 1 net damage." Storgotic Resonator does 1 net damage twice in one Corp
    turn: Net Shield is offered against the first and not the second, even though it was
    declined the first time."""
    storgotic = card("storgotic_resonator", counters={"power": 2})
    b = board(
        turn="corp",
        corp={"clicks": 3},
        runner={"credits": 3, "hand": 5, "rig": {"programs": [card("net_shield")]}},
        servers={"remote1": {"content": storgotic}},
    )
    aid = "ability:remote1.content.0"
    shield = "prevent:programs.net-shield.0"
    s = until_offered(engine.start(b, "corp_turn", doc), aid)
    s, _ = engine.apply(s, aid)
    s = until_offered(s, shield)
    s, _ = engine.apply(s, "pass")  # the Runner declines this first time
    s = until_offered(s, aid)
    assert len(s.board["runner"]["hand"]) == 4
    s, _ = engine.apply(s, aid)
    for _ in range(20):
        if s.current_step == "step_corp_turn_action":
            break
        assert shield not in decision_ids(s)
        ids = decision_ids(s)
        s, _ = engine.apply(s, "pass" if "pass" in ids else ids[0])
    assert len(s.board["runner"]["hand"]) == 3 and s.board["runner"]["credits"] == 3
    assert s.board["servers"]["remote1"]["content"].get("counters", {}).get("power", 0) == 0


def test_net_shield_prevents_the_first(card, doc):
    storgotic = card("storgotic_resonator", counters={"power": 1})
    b = board(
        turn="corp",
        corp={"clicks": 3},
        runner={"credits": 3, "hand": 5, "rig": {"programs": [card("net_shield")]}},
        servers={"remote1": {"content": storgotic}},
    )
    s = until_offered(engine.start(b, "corp_turn", doc), "ability:remote1.content.0")
    s, _ = engine.apply(s, "ability:remote1.content.0")
    s = until_offered(s, "prevent:programs.net-shield.0")
    s, _ = engine.apply(s, "prevent:programs.net-shield.0")
    s = until_offered(s, "credit")
    assert len(s.board["runner"]["hand"]) == 5 and s.board["runner"]["credits"] == 2


def test_new_fields_validate_and_bad_ones_are_refused_with_their_path():
    ok = {
        "name": "X",
        "type": "asset",
        "abilities": [
            {
                "kind": "click",
                "once_per": "turn",
                "counter_cost": {"counter": "power", "amount": 1},
                "effects": [{"effect": "place_counters", "counter": "power", "amount": 1}],
            }
        ],
    }
    assert engine.validate_board(board(servers={"remote1": {"content": ok}})) == []
    bad = {
        "name": "X",
        "type": "asset",
        "abilities": [
            {
                "kind": "click",
                "once_per": "run",
                "counter_cost": {"counter": "advancement", "amount": 0},
                "effects": [{"effect": "place_counters", "amount": 1}],
            }
        ],
    }
    problems = engine.validate_board(board(servers={"remote1": {"content": bad}}))
    base = "servers.remote1.content.abilities[0]"
    assert f"{base}.once_per: must be one of turn" in problems
    assert any(p.startswith(f"{base}.counter_cost.counter") for p in problems)
    assert f"{base}.counter_cost.amount: must be at least 1" in problems
    assert any(p.startswith(f"{base}.effects[0].counter: is required") for p in problems)


def runner_turn(card, doc, hand: list[str], rig: dict | None = None):
    b = board(
        turn="runner",
        runner={"credits": 20, "clicks": 0, "hand": [card(c) for c in hand], "rig": rig or {}, "deck": 10},
    )
    return engine.start(b, "runner_turn", doc)


def install(s, ref: str):
    s = until_offered(s, f"install:{ref}")
    s, _ = engine.apply(s, f"install:{ref}")
    return s


def test_lilypad_draws_on_the_first_program_install_of_the_turn_only(card, doc):
    """LilyPAD: "The first time each turn you install a program, you may draw 1 card." (9.3.2b: an
    ordinal trigger condition): the first install makes it pending, the second does not."""
    s = runner_turn(card, doc, ["hantu", "propeller"], {"hardware": [card("lilypad")]})
    s = install(s, "hantu")
    s = until_offered(s, "trigger:hardware.lilypad.0")
    assert "decline:hardware.lilypad.0" in decision_ids(s)  # "you may" (9.6.9)
    grip = len(s.board["runner"]["hand"])
    s, _ = engine.apply(s, "trigger:hardware.lilypad.0")
    assert len(s.board["runner"]["hand"]) == grip + 1
    s = install(s, "propeller")
    for _ in range(5):
        assert not any(x.startswith("trigger:hardware.lilypad") for x in decision_ids(s))
        if "install:" in " ".join(decision_ids(s)) or s.finished:
            break
        s, _ = engine.apply(s, decision_ids(s)[0])
    not_met = [e for e in s.trace if "hardware.lilypad.0" in e.objects.get("not_met", ())]
    assert len(not_met) == 1 and not not_met[0].applied
    # Propeller's own "when you install this program" did resolve
    assert s.board["runner"]["rig"]["programs"][-1]["counters"] == {"power": 4}


def test_lilypad_installed_after_a_program_this_turn_does_not_draw(card, doc):
    """The first program install of the turn happened before LilyPAD was installed: installing
    another program later that turn is not "the first time each turn"."""
    s = runner_turn(card, doc, ["propeller", "lilypad", "hantu"])
    s = install(s, "propeller")
    s = install(s, "lilypad")
    grip = len(s.board["runner"]["hand"])
    s = install(s, "hantu")
    for _ in range(5):
        assert not any(x.startswith("trigger:hardware.lilypad") for x in decision_ids(s))
        if s.finished or any(x.startswith("install:") for x in decision_ids(s)) or not decision_ids(s):
            break
        s, _ = engine.apply(s, decision_ids(s)[0])
    assert len(s.board["runner"]["hand"]) == grip - 1
    assert s.board["runner"]["rig"]["programs"][-1]["counters"] == {"virus": 2}


# ----- additional costs to play (1.16.10) ---------------------------------------------------------------


def test_lie_low_needs_two_clicks_and_spends_them(card, doc):
    """Lie Low: "As an additional cost to play this event, spend [click]." With 1 [click] left
    it is refused (the whole cost at once, 1.16.10b); with 2 both are spent with the play cost."""
    b = board(
        turn="runner", runner={"credits": 3, "clicks": 0, "allotted_clicks": 1, "hand": [card("lie_low")]}
    )
    s = until_offered(engine.start(b, "runner_turn", doc), "credit")
    assert s.board["runner"]["clicks"] == 1 and "play:lie-low" not in decision_ids(s)
    r = refused(s)["play:lie-low"]
    assert r["rule"] == "rule_additional_cost" and "[click][click]" in r["reason"]
    b["runner"]["allotted_clicks"] = 2
    s = until_offered(engine.start(b, "runner_turn", doc), "play:lie-low")
    s, ev = engine.apply(s, "play:lie-low")
    paid = [e for e in ev if e.step == "step_paid_ability_condition"][0]
    assert paid.changes["runner.clicks"] == [2, 0] and paid.changes["runner.credits"] == [3, 2]
    assert "rule_additional_cost" in paid.rules
    assert cites_known_rules(s, doc)


def test_backroom_machinations_removes_a_tag_as_its_cost(card, doc):
    """Backroom Machinations: "As an additional cost to play this operation, remove 1 tag.": not
    playable while the Runner is untagged (refused, with the reason); with a tag, it is removed."""
    bm = card("backroom_machinations")
    b = board(turn="corp", corp={"credits": 5, "hand": [bm]})
    s = until_offered(engine.start(b, "corp_turn", doc), "credit")
    assert "play:backroom-machinations" not in decision_ids(s)
    assert "removing 1 tag" in refused(s)["play:backroom-machinations"]["reason"]
    b["runner"]["tags"] = 1
    s = until_offered(engine.start(b, "corp_turn", doc), "play:backroom-machinations")
    s, _ = engine.apply(s, "play:backroom-machinations")
    assert s.board["runner"]["tags"] == 0 and s.board["corp"]["credits"] == 3


# ----- [click] abilities on Runner cards: actions (5.2.1), once per turn (9.3.6g) ------------------------


def test_the_artist_gains_two_credits_once_per_turn(card, doc):
    """The Artist: "Once per turn → [click]: Gain 2[credit]." An action in the Runner's action
    phase; after one use it is refused for the rest of the turn, with the flag's rule."""
    b = board(turn="runner", runner={"credits": 0, "clicks": 0, "rig": {"resources": [card("the_artist")]}})
    aid = "use:resources.the-artist.0"
    s = until_offered(engine.start(b, "runner_turn", doc), aid)
    assert "use:resources.the-artist.1" not in decision_ids(s)  # its install ability: by hand, not an action
    clicks = s.board["runner"]["clicks"]
    s, _ = engine.apply(s, aid)
    s = until_offered(s, "credit")
    assert s.board["runner"]["credits"] == 2 and s.board["runner"]["clicks"] == clicks - 1
    assert aid not in decision_ids(s)
    r = refused(s)[aid]
    assert "only once per turn" in r["reason"]
    assert r["rule"] == (
        "rule_once_per_turn_flag" if doc.node("rule_once_per_turn_flag") else "rule_card_precedence"
    )
    assert cites_known_rules(s, doc)


def test_rent_rioters_spends_three_clicks_and_trashes_itself(card, doc):
    """Rent Rioters: "[click][click][click],[trash]: Gain 9[credit]." Refused with 2 [click] left;
    with 3 the card goes to the heap as part of the cost and the Runner gains 9."""
    rig = {"resources": [card("rent_rioters")]}
    b = board(turn="runner", runner={"credits": 0, "clicks": 0, "allotted_clicks": 2, "rig": rig})
    aid = "use:resources.rent-rioters.0"
    s = until_offered(engine.start(b, "runner_turn", doc), "credit")
    assert aid not in decision_ids(s) and "[click][click][click]" in refused(s)[aid]["reason"]
    b["runner"]["allotted_clicks"] = 3
    s = until_offered(engine.start(b, "runner_turn", doc), aid)
    s, _ = engine.apply(s, aid)
    assert s.board["runner"]["rig"]["resources"] == []
    assert s.board["runner"]["discard"][-1]["name"] == "Rent Rioters"
    assert s.board["runner"]["credits"] == 9 and s.board["runner"]["clicks"] == 0


def test_running_hot_costs_a_core_damage_and_gains_three_clicks(card, doc):
    """Running Hot: "As an additional cost to play this event, suffer 1 core damage." "Gain
    [click][click][click]." The damage is part of the cost (no interrupt window to prevent it,
    1.16.10): a random card of the grip is trashed and the maximum hand size drops."""
    hand = [card("running_hot"), card("lie_low"), card("hantu")]
    b = board(turn="runner", runner={"credits": 1, "clicks": 0, "allotted_clicks": 1, "hand": hand})
    s = until_offered(engine.start(b, "runner_turn", doc), "play:running-hot")
    s, ev = engine.apply(s, "play:running-hot")
    paid = [e for e in ev if e.step == "step_paid_ability_condition"]
    assert any("suffers 1 core damage" in e.text for e in paid)
    assert not any(e.step.endswith("interrupt_window") and "prevent" in e.text.lower() for e in ev)
    r = s.board["runner"]
    assert r["core_damage"] == 1 and len(r["hand"]) == 1 and r["credits"] == 0
    assert [c["name"] for c in r["discard"]][-1] == "Running Hot" and len(r["discard"]) == 2
    assert r["clicks"] == 3


def test_dividends_is_asked_when_scored_not_deck_building(card):
    """ "Dividends N" (10.13.1) is a conditional ability in play ("When you score this agenda,
    place N agenda counters on it for each hosted advancement counter past its advancement
    requirement"): surfaced to the judge when the agenda is scored, never passed over as
    deck-building."""
    units = {u.text: (u.status, u.at) for u in card.units("off_the_books")}
    assert units["Dividends 1"] == ("by_hand", "scored")
    (tr,) = [t for t in card("off_the_books")["triggers"] if t["when"] == "scored"]
    assert "10.13.1" in tr["effects"][0]["text"]
