"""Load and empty (CR 10.9), taking credits from a card (1.10.4a) and "When you rez this ..."
(8.1.2e) on real cards picked by name (`engine.cardtext.board_card`, what `/api/cards/<card>/board`
answers), for both sides: Nico Campaign, Anthill Excavation Contract, Otto Campaign, Regolith
Mining License and Spin Doctor (the Corp); Telework Contract and Open Market (the Runner).

A card is loaded when counters are placed on it by its load ability (10.9.1); it is empty when
it no longer hosts counters of that type, and only a loaded card meets its "When it is empty"
condition (10.9.2, 10.9.3)."""

from __future__ import annotations

import pytest
from helpers import cites_known_rules, decision_ids, engine_board, load_doc, until_offered

import engine


@pytest.fixture(params=["24.03", "26.03"])
def doc(request):
    return load_doc(request.param)


def board(**kw) -> dict:
    return engine_board(**{"version": 1, **kw})


def texts(s) -> list[str]:
    return [e.text for e in s.trace]


# ----- the translation -----------------------------------------------------------------------------


def test_load_take_and_rez_units_are_modeled(card):
    """The load paragraph with its "When it is empty" sentence is one unit, modeled when the card
    is loaded with credits and one of its modeled abilities takes them; "When you rez this asset"
    is a trigger on rezzing it."""
    for cid in ("nico_campaign", "anthill_excavation_contract", "otto_campaign", "regolith_mining_license"):
        units = card.units(cid)
        assert [u.status for u in units] == ["modeled", "modeled"], cid
        assert units[0].at == "rezzed"
    nico = card("nico_campaign")
    assert nico["triggers"][0] == {
        "when": "rezzed",
        "effects": [{"effect": "load_counters", "counter": "credits", "amount": 9}],
    }
    assert nico["when_empty"] == {
        "counter": "credits",
        "effects": [{"effect": "trash_this_card"}, {"effect": "draw_cards", "amount": 1}],
    }
    assert card("otto_campaign")["when_empty"]["effects"][1] == {"effect": "gain_clicks", "amount": 2}
    assert card("regolith_mining_license")["abilities"][0]["effects"] == [
        {"effect": "take_credits", "amount": 3}
    ]
    spin = {u.text: (u.status, u.at) for u in card.units("spin_doctor")}
    assert spin["When you rez this asset, draw 2 cards."] == ("modeled", "rezzed")
    for cid in ("telework_contract", "open_market"):
        assert card.units(cid)[0].status == "modeled" and card.units(cid)[0].at == "installed"


def test_loads_the_engine_cannot_see_empty_stay_by_hand(card):
    """Never silently wrong: a load whose counters leave the card only through abilities the engine
    leaves by hand (power counters spent as a cost, credits spent "during runs" or taken by a
    by-hand run ability) stays by hand as a whole, so the judge also sees when it is empty; a
    load of bad publicity counters is not a load the engine knows."""
    for cid in ("dr_nuka_vrolyck", "penumbral_toolkit", "red_team", "superdeep_borehole"):
        obj = card(cid)
        load = next(u for u in card.units(cid) if "When it is empty" in u.text)
        assert load.status == "by_hand", cid
        assert "when_empty" not in obj, cid
        assert not any(
            e.get("effect") == "load_counters" for tr in obj.get("triggers", ()) for e in tr["effects"]
        ), cid


# ----- the Corp: rez, load, take, empty -------------------------------------------------------------


def test_nico_campaign_rezzed_is_loaded_with_nine_credits(card, doc):
    """Nico Campaign rezzed in the Corp's paid ability window: its rez cost is paid, then it is
    rezzed and its "When you rez this asset" ability loads 9 credits onto it (8.1.2e, 10.9.1);
    the credits are on the card, not in the Corp's pool (1.10.4)."""
    nico = card("nico_campaign", rezzed=False)
    b = board(turn="corp", corp={"credits": 5, "clicks": 3}, servers={"remote1": {"content": nico}})
    s = until_offered(engine.start(b, "corp_turn", doc), "draw")  # the action phase: its turn has begun
    s = until_offered(s, "rez:remote1.content")
    before = s.board["corp"]["credits"]
    s, ev = engine.apply(s, "rez:remote1.content")
    s = until_offered(s, "draw")
    content = s.board["servers"]["remote1"]["content"]
    assert content["rezzed"] and content["counters"] == {"credits": 9}
    assert s.board["corp"]["credits"] == before - 2
    loaded = [e for e in s.trace if e.objects.get("loaded")]
    assert len(loaded) == 1 and loaded[0].changes == {"servers.remote1.content.counters.credits": [0, 9]}
    assert "rule_load_and_empty" in loaded[0].rules
    pend = [e for e in s.trace if e.objects.get("condition") == "rezzed"]
    assert pend and "rule_rez_procedure" in pend[0].rules
    assert cites_known_rules(s, doc)


def test_nico_campaign_rezzed_in_the_draw_phase_pays_out_when_the_turn_begins(card, doc):
    """Rezzed in the paid ability window before the Corp's turn begins (5.6.1b), Nico Campaign is
    loaded, then its "When your turn begins" ability takes 3 of the 9 credits."""
    nico = card("nico_campaign", rezzed=False)
    b = board(turn="corp", corp={"credits": 5}, servers={"remote1": {"content": nico}})
    s = engine.start(b, "corp_turn", doc)
    assert "rez:remote1.content" in decision_ids(s)
    s, _ = engine.apply(s, "rez:remote1.content")
    s = until_offered(s, "draw")
    assert s.board["servers"]["remote1"]["content"]["counters"] == {"credits": 6}
    assert s.board["corp"]["credits"] == 5 - 2 + 3


def test_nico_campaign_emptied_is_trashed_and_draws(card, doc):
    """Nico Campaign hosting its last 3 credits: "take 3[credit]" leaves it empty (10.9.1), so
    "When it is empty, trash it and draw 1 card" resolves: the Corp gains 3, Nico goes to Archives
    faceup (it was rezzed), the Corp draws 1 besides its mandatory draw, and the remote server
    with no card left ceases to exist at the checkpoint."""
    nico = card("nico_campaign", counters={"credits": 3})
    b = board(turn="corp", corp={"credits": 0, "clicks": 0}, servers={"remote1": {"content": nico}})
    s = engine.start(b, "corp_turn", doc)
    corp = s.board["corp"]
    assert corp["credits"] == 3
    assert [c["name"] for c in corp["discard"]] == ["Nico Campaign"] and corp["discard"][0]["faceup"]
    assert "remote1" not in s.board["servers"]
    assert len(corp["hand"]) == 3 + 1 + 1 and len(corp["deck"]) == 8
    empty = [e for e in s.trace if e.objects.get("empty") == "credits"]
    assert len(empty) == 1 and "rule_meeting_empty_condition" in empty[0].rules
    taken = [e for e in s.trace if e.objects.get("taken")]
    assert taken[0].changes["servers.remote1.content.counters.credits"] == [3, 0]
    assert "rule_take_credits" in taken[0].rules
    assert cites_known_rules(s, doc)


def test_anthill_takes_four_and_draws_and_stays_while_credits_remain(card, doc):
    """Anthill Excavation Contract hosting 8: "take 4[credit] from this asset and draw 1 card"
    leaves 4 on it; not empty, so it stays installed (10.9.1)."""
    anthill = card("anthill_excavation_contract", counters={"credits": 8})
    b = board(turn="corp", corp={"credits": 0}, servers={"remote1": {"content": anthill}})
    s = engine.start(b, "corp_turn", doc)
    assert s.board["servers"]["remote1"]["content"]["counters"] == {"credits": 4}
    assert s.board["corp"]["credits"] == 4 and len(s.board["corp"]["hand"]) == 3 + 1 + 1
    assert not s.board["corp"]["discard"]
    assert not [e for e in s.trace if e.objects.get("empty")]


def test_otto_campaign_emptied_gains_two_clicks(card, doc):
    """Otto Campaign hosting its last 2 credits: taken when the turn begins (after the Corp gains
    its allotted clicks, 5.6.1a), then empty: trashed, and the Corp gains [click][click]."""
    otto = card("otto_campaign", counters={"credits": 2})
    b = board(turn="corp", corp={"credits": 0}, servers={"remote1": {"content": otto}})
    s = until_offered(engine.start(b, "corp_turn", doc), "draw")
    assert s.board["corp"]["clicks"] == 3 + 2 and s.board["corp"]["credits"] == 2
    assert [c["name"] for c in s.board["corp"]["discard"]] == ["Otto Campaign"]


def test_otto_taking_fewer_than_hosted_takes_what_is_there(card, doc):
    """Otto Campaign hosting 1 credit (a judge's board): "take 2[credit]" takes the 1 there (the
    instruction does as much as it can, 1.2.5) and leaves it empty."""
    otto = card("otto_campaign", counters={"credits": 1})
    b = board(turn="corp", corp={"credits": 0}, servers={"remote1": {"content": otto}})
    s = until_offered(engine.start(b, "corp_turn", doc), "draw")
    assert s.board["corp"]["credits"] == 1 and s.board["corp"]["clicks"] == 5


def test_regolith_click_ability_takes_three_until_empty(card, doc):
    """Regolith Mining License "[click]: Take 3[credit] from this asset." (an action, 5.2.6a):
    with 6 hosted, two uses empty it; the second use trashes it (its empty ability follows the
    ability that emptied it) and the action is no longer offered."""
    reg = card("regolith_mining_license", counters={"credits": 6})
    b = board(turn="corp", corp={"credits": 0}, servers={"remote1": {"content": reg}})
    use = "ability:remote1.content.0"
    s = until_offered(engine.start(b, "corp_turn", doc), use)
    s, _ = engine.apply(s, use)
    s = until_offered(s, use)
    assert s.board["corp"]["credits"] == 3 and s.board["corp"]["clicks"] == 2
    assert s.board["servers"]["remote1"]["content"]["counters"] == {"credits": 3}
    s, _ = engine.apply(s, use)
    s = until_offered(s, "draw")
    assert s.board["corp"]["credits"] == 6 and s.board["corp"]["clicks"] == 1
    assert [c["name"] for c in s.board["corp"]["discard"]] == ["Regolith Mining License"]
    assert use not in decision_ids(s) and cites_known_rules(s, doc)


def test_spin_doctor_draws_two_when_rezzed(card, doc):
    """Spin Doctor: "When you rez this asset, draw 2 cards." resolves once it is rezzed."""
    spin = card("spin_doctor", rezzed=False)
    b = board(turn="corp", corp={"credits": 5, "clicks": 3}, servers={"remote1": {"content": spin}})
    s = until_offered(engine.start(b, "corp_turn", doc), "rez:remote1.content")
    hand = len(s.board["corp"]["hand"])
    s, _ = engine.apply(s, "rez:remote1.content")
    s = until_offered(s, "draw")
    # rezzed in the draw phase's window: 2 by Spin Doctor, then the mandatory draw
    assert len(s.board["corp"]["hand"]) == hand + 2 + 1 and s.board["corp"]["credits"] == 5  # rez cost 0
    drew = [e for e in s.trace if "Spin Doctor" in e.text and "draw" in e.text.lower()]
    assert drew


def test_trebuchet_rezzed_on_approach_gives_the_corp_bad_publicity(card, doc):
    """Trebuchet: "When you rez this ice, take 1 bad publicity." rezzed as the Runner approaches
    it (6.9.2b): the Corp takes 1 bad publicity before the encounter."""
    treb = card("trebuchet", rezzed=False)
    b = board(corp={"credits": 10}, servers={"hq": {"ice": [treb]}})
    s = until_offered(engine.start(b, "run", doc, {"server": "hq"}), "rez")
    s, _ = engine.apply(s, "rez")
    s = until_offered(s, "pass")
    assert s.board["corp"]["bad_publicity"] == 1
    assert s.board["servers"]["hq"]["ice"][0]["rezzed"]


def test_a_card_never_loaded_is_not_emptied(card, doc):
    """10.9.3: Smartware Distributor hosts credits placed by its [click] ability, not loaded; taking
    its last credit does not trash it (it has no "When it is empty")."""
    sd = card("smartware_distributor", counters={"credits": 1})
    b = board(turn="runner", runner={"clicks": 0, "credits": 0, "rig": {"resources": [sd]}})
    s = engine.start(b, "runner_turn", doc)
    assert s.board["runner"]["credits"] == 1
    assert [c["name"] for c in s.board["runner"]["rig"]["resources"]] == ["Smartware Distributor"]


# ----- the Runner: the same sentences ------------------------------------------------------------


def test_telework_contract_installed_is_loaded_and_taken_once_per_turn(card, doc):
    """Telework Contract: installed, "load 9[credit] onto it" (8.5.15f, 10.9.1); "Once per turn →
    [click]: Take 3[credit] from this resource." takes 3 and is not offered again this turn."""
    tw = card("telework_contract")
    b = board(turn="runner", runner={"credits": 5, "clicks": 0, "hand": [tw]})
    s = until_offered(engine.start(b, "runner_turn", doc), "install:telework-contract")
    s, _ = engine.apply(s, "install:telework-contract")
    use = "use:resources.telework-contract.0"
    s = until_offered(s, use)
    r = s.board["runner"]
    assert r["rig"]["resources"][0]["counters"] == {"credits": 9}
    credits = r["credits"]
    s, _ = engine.apply(s, use)
    s = until_offered(s, "run:hq")
    assert s.board["runner"]["credits"] == credits + 3
    assert s.board["runner"]["rig"]["resources"][0]["counters"] == {"credits": 6}
    assert use not in decision_ids(s) and cites_known_rules(s, doc)


def test_open_market_emptied_goes_to_the_heap(card, doc):
    """Open Market hosting its last credit: "When your turn begins, take 1[credit] from this
    resource." empties it and "When it is empty, trash it." puts it in the heap."""
    om = card("open_market", counters={"credits": 1})
    b = board(turn="runner", runner={"clicks": 0, "credits": 0, "rig": {"resources": [om]}})
    s = engine.start(b, "runner_turn", doc)
    r = s.board["runner"]
    assert r["credits"] == 1 and not r["rig"]["resources"]
    assert [c["name"] for c in r["discard"]] == ["Open Market"]
    assert cites_known_rules(s, doc)


# ----- the board format ------------------------------------------------------------------------------


def test_a_bad_when_empty_is_refused_with_its_field_path():
    """A malformed `when_empty` gets every problem with its field path; nothing runs."""
    bad = {"name": "Nico", "type": "asset", "rezzed": True, "when_empty": {"counter": "tags", "effects": "x"}}
    with pytest.raises(engine.BoardError) as e:
        engine.start(board(servers={"remote1": {"content": bad}}), "corp_turn", load_doc("26.03"))
    text = " ".join(str(p) for p in e.value.problems)
    assert "when_empty.counter" in text and "when_empty.effects" in text


# ----- "You can advance this asset" (1.18.3) ---------------------------------------------------------


def test_an_advanceable_asset_is_advanced_even_unrezzed(card, doc):
    """Ubiquitous Vig: "You can advance this asset." The advance action (5.2.6f: [click], 1[credit])
    is offered for it even while it is unrezzed (1.18.3), and places an advancement counter on it
    (1.18.1); a plain asset (Nico Campaign) is not offered."""
    assert [u.status for u in card.units("ubiquitous_vig")][0] == "modeled"
    vig = card("ubiquitous_vig", rezzed=False)
    b = board(
        turn="corp",
        corp={"credits": 5},
        servers={"remote1": {"content": vig}, "remote2": {"content": card("nico_campaign", rezzed=False)}},
    )
    s = until_offered(engine.start(b, "corp_turn", doc), "advance:remote1")
    assert "advance:remote2" not in decision_ids(s)
    assert "advance:remote2" not in {r.id for r in engine.refused_decisions(s)}
    credits, clicks = s.board["corp"]["credits"], s.board["corp"]["clicks"]
    s, ev = engine.apply(s, "advance:remote1")
    content = s.board["servers"]["remote1"]["content"]
    assert content["counters"] == {"advancement": 1} and not content.get("rezzed")
    assert s.board["corp"]["credits"] == credits - 1 and s.board["corp"]["clicks"] == clicks - 1
    said = [e for e in ev if "advances" in e.text]
    assert said[0].changes["servers.remote1.content.counters.advancement"] == [0, 1]
    assert "rule_you_can_advance" in said[0].rules and cites_known_rules(s, doc)


def test_advancing_an_asset_without_a_credit_is_refused_with_the_reason(card, doc):
    """With no credit the advance action is not offered for Ubiquitous Vig, and refused saying why."""
    b = board(turn="corp", corp={"credits": 0}, servers={"remote1": {"content": card("ubiquitous_vig")}})
    s = until_offered(engine.start(b, "corp_turn", doc), "draw")
    assert "advance:remote1" not in decision_ids(s)
    why = {r.id: r.to_dict() for r in engine.refused_decisions(s)}
    assert "costs 1 credit" in why["advance:remote1"]["reason"]


# ----- "When the Runner trashes this asset" (9.1.8b) --------------------------------------------------


def trash_on_access(card, doc, asset: dict, **corp):
    b = board(corp={"credits": 5, **corp}, runner={"credits": 10}, servers={"remote1": {"content": asset}})
    s = until_offered(engine.start(b, "run", doc, {"server": "remote1"}), "pay_trash")
    s, _ = engine.apply(s, "pay_trash")
    return s


def test_calvin_trashed_on_access_lets_the_corp_draw_two(card, doc):
    """Calvin B4L3Y: "When the Runner trashes this asset, you may draw 2 cards." The Runner pays its
    trash cost while accessing it (7.2.2); in Archives its ability meets its condition (it can only
    meet it there, 9.1.8b, so it does even unrezzed) and the Corp may draw 2 or decline."""
    assert [u.status for u in card.units("calvin_b4l3y")] == ["modeled", "modeled"]
    s = trash_on_access(card, doc, card("calvin_b4l3y", rezzed=False))
    key = "trigger:accessed.calvin-b4l3y.0"
    assert {key, "decline:accessed.calvin-b4l3y.0"} <= set(decision_ids(s))
    hand = len(s.board["corp"]["hand"])
    s, ev = engine.apply(s, key)
    assert len(s.board["corp"]["hand"]) == hand + 2
    assert [c["name"] for c in s.board["corp"]["discard"]] == ["Calvin B4L3Y"]
    pend = [e for e in s.trace if e.objects.get("condition") == "trashed"]
    assert pend and "rule_ability_active_inactive_source_card" in pend[0].rules
    assert cites_known_rules(s, doc)


def test_calvin_declined_draws_nothing(card, doc):
    s = trash_on_access(card, doc, card("calvin_b4l3y"))
    hand = len(s.board["corp"]["hand"])
    s, _ = engine.apply(s, "decline:accessed.calvin-b4l3y.0")
    assert len(s.board["corp"]["hand"]) == hand
    assert "trigger:accessed.calvin-b4l3y.0" not in decision_ids(s)


def test_public_access_plaza_tags_only_at_threat_two(card, doc):
    """Public Access Plaza: "Threat 2 → When the Runner trashes this asset, give them 1 tag." With
    2 agenda points in a score area (threat level 2, 1.17.1a) the Runner takes 1 tag; with none, no
    tag."""
    for points, tags in ((2, 1), (0, 0)):
        area = [{"name": "Scored", "type": "agenda", "agenda_points": points}] if points else []
        s = trash_on_access(card, doc, card("public_access_plaza"), score_area=area)
        assert s.board["runner"]["tags"] == tags, points


def test_reaper_function_trashes_itself_to_do_two_net_damage(card, doc):
    """Reaper Function: "When your turn begins, you may trash this asset to do 2 net damage." The
    Corp may trigger it (9.6.9a): the asset goes to Archives faceup, then the Runner takes 2 net
    damage (2 cards of a 5-card grip trashed at random); declined, nothing happens."""
    assert [u.status for u in card.units("reaper_function")] == ["modeled"]
    b = board(turn="corp", servers={"remote1": {"content": card("reaper_function")}})
    s = engine.start(b, "corp_turn", doc)
    assert {"trigger:remote1.content.0", "decline:remote1.content.0"} <= set(decision_ids(s))
    declined, _ = engine.apply(s, "decline:remote1.content.0")
    assert declined.board["servers"]["remote1"]["content"]["name"] == "Reaper Function"
    assert len(declined.board["runner"]["hand"]) == 5
    s, _ = engine.apply(s, "trigger:remote1.content.0")
    s = until_offered(s, "draw")
    assert [c["name"] for c in s.board["corp"]["discard"]] == ["Reaper Function"]
    assert s.board["corp"]["discard"][0]["faceup"] and "remote1" not in s.board["servers"]
    assert len(s.board["runner"]["hand"]) == 3 and cites_known_rules(s, doc)


# ----- "While the Runner is accessing this asset in R&D, they must reveal it" (1.21.3) ----------------


def test_byte_is_revealed_when_accessed_in_rd_only(card, doc):
    """Byte!: "While the Runner is accessing this asset in R&D, they must reveal it." Accessed as the
    top card of R&D it is revealed (shown to both players, 1.21.3); accessed from HQ it is not."""
    assert card.units("byte")[0].status == "modeled"
    byte = {k: v for k, v in card("byte").items() if k != "rezzed"}
    for server, zone in (("rd", "deck"), ("hq", "hand")):
        b = board(corp={"credits": 0, zone: [byte]})
        s = engine.start(b, "run", doc, {"server": server})
        for _ in range(20):
            if any(e.objects.get("card") == "Byte!" and "accesses" in e.text for e in s.trace) or s.finished:
                break
            ids = decision_ids(s)
            s, _ = engine.apply(s, next((x for x in ("pass", "continue") if x in ids), ids[0]))
        assert any("accesses Byte!" in e.text for e in s.trace), server
        shown = [e for e in s.trace if e.objects.get("revealed")]
        assert len(shown) == (1 if server == "rd" else 0), server
        if shown:
            assert "rule_reveal" in shown[0].rules and cites_known_rules(s, doc)
