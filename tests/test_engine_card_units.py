"""Real cards by name, right, and nothing silent (issue 33): every paragraph of a card's printed
text is a unit the engine accounts for (`engine.cardtext.card_units`); what it models runs
under the CR; what it does not is surfaced at its trigger point or shown on the card.

Every card here is a REAL NetrunnerDB card, put on the board by `engine.cardtext.board_card`
(the path `/api/cards/{card}/board` and the editor use), stepped on real CR documents."""

from __future__ import annotations

import pytest
from helpers import load_doc

import engine
from engine.cardtext import MODELED, NOT_APPLICABLE, SHOWN, STATUSES, board_card, card_units
from engine.vocabulary import current_schema_text, vocabulary
from scraper.nrdb import load


@pytest.fixture(scope="module")
def data(nrdb_dir):
    return load(str(nrdb_dir))


@pytest.fixture(scope="module")
def card(data):
    names = {k: v.name for k, v in data.card_subtypes.items()}

    def make(card_id: str, **extra) -> dict:
        return {**board_card(data.cards[card_id], names), **extra}

    return make


@pytest.fixture(params=["24.03", "26.03"])
def doc(request):
    return load_doc(request.param)


def walk(s, prefer=()):
    """Step to the end, taking the first preferred decision offered, else pass / continue."""
    for _ in range(200):
        if s.finished:
            return s
        legal = [d["id"] for d in engine.legal_decisions(s)]
        pick = next((p for p in legal for w in prefer if p.startswith(w)), None)
        if pick is None:
            pick = next((p for p in ("pass", "continue", "no_trash", "steal") if p in legal), legal[0])
        s, _ = engine.apply(s, pick)
    raise AssertionError("did not finish")


def until(s, done, limit: int = 40):
    """Pass priority / continue (else the first legal decision) until `done(session)` holds;
    fails when it never does."""
    for _ in range(limit):
        if done(s):
            return s
        assert not s.finished, "finished first"
        legal = [d["id"] for d in engine.legal_decisions(s)]
        s, _ = engine.apply(s, next((x for x in ("pass", "continue") if x in legal), legal[0]))
    raise AssertionError("never reached")


def offered(decision_id: str):
    return lambda s: decision_id in [d["id"] for d in engine.legal_decisions(s)]


def walked(pred):
    return lambda s: any(pred(e) for e in s.trace)


def toll_remote(card, credits: int) -> dict:
    return {
        "version": 1,
        "turn": "runner",
        "corp": {"credits": 10},
        "runner": {"credits": credits, "rig": {"programs": [card("corroder"), card("gordian_blade")]}},
        "servers": {
            "remote1": {
                "ice": [card("tollbooth", rezzed=True), card("ice_wall", rezzed=True)],
                "content": card("hostile_takeover"),
            }
        },
    }


def test_tollbooth_by_name_the_runner_must_pay_and_cannot_break(doc, card):
    """Issue 33's judge scenario: with 6 credits the Runner pays 3 on encountering Tollbooth
    (they cannot decline: "must pay ..., if able", 1.2.3), cannot then pump Gordian Blade from 2
    to 5 and still break, and the run ends on Tollbooth's subroutine. It used to end
    "successful, stolen"."""
    s = walk(engine.start(toll_remote(card, 6), "run", doc, {"server": "remote1"}), ("use:gordian-blade",))
    paid = [e for e in s.trace if e.objects.get("paid") is True and e.objects.get("amount") == 3]
    assert paid and "rule_if_able" in paid[0].rules
    assert s.outcome.run == "unsuccessful"
    assert s.board["corp"]["score_area"] == [] and s.board["runner"]["score_area"] == []
    assert s.board["runner"]["credits"] == 0  # 3 to Tollbooth, 3 pumping
    assert any("Tollbooth" in e.text and "run ends" in e.text.lower() for e in s.trace) or any(
        e.step == "step_subroutine_resolution" and "run ends" in e.text for e in s.trace
    )


def test_tollbooth_a_runner_who_cannot_pay_is_stopped_at_once(doc, card):
    """With 2 credits the Runner cannot pay 3: the payment is ignored entirely (1.2.3) and the run
    ends from Tollbooth's encounter ability, before any subroutine or break."""
    s = walk(engine.start(toll_remote(card, 2), "run", doc, {"server": "remote1"}), ("use:gordian-blade",))
    unpaid = [e for e in s.trace if e.objects.get("paid") is False and e.objects.get("amount") == 3]
    assert unpaid and "cannot" in unpaid[0].text
    assert s.board["runner"]["credits"] == 2  # nothing was paid
    assert s.outcome.run == "unsuccessful"
    assert not any(
        e.step == "step_resolve_subroutine" and e.applied and "Tollbooth" in e.text for e in s.trace
    )


def test_tollbooth_with_enough_credits_the_runner_gets_in(doc, card):
    """With 10 credits: pay 3, pump Gordian Blade to 5 (3), break (1), then Corroder breaks Ice
    Wall (strength 1, 1 credit): the run succeeds and Hostile Takeover is stolen."""
    s = walk(
        engine.start(toll_remote(card, 10), "run", doc, {"server": "remote1"}),
        ("use:gordian-blade.1", "use:gordian-blade.0", "sub:", "use:corroder.0", "steal"),
    )
    assert s.outcome.run == "successful"
    assert [c["name"] for c in s.board["runner"]["score_area"]] == ["Hostile Takeover"]
    assert s.board["runner"]["credits"] == 10 - 3 - 3 - 1 - 1


def test_ice_wall_gets_stronger_with_advancement_counters(doc, card):
    """Ice Wall with 2 advancement counters has strength 3: Corroder at strength 2 cannot break
    it (3.9.5g) until pumped; the refusal says so with the current strength."""
    wall = card("ice_wall", rezzed=True, counters={"advancement": 2})
    assert wall["strength_mods"] == [{"amount": 1, "per": "advancement"}]
    b = {
        "version": 1,
        "runner": {"credits": 5, "rig": {"programs": [card("corroder")]}},
        "servers": {"hq": {"ice": [wall]}},
    }
    s = engine.start(b, "run", doc, {"server": "hq"})
    s = until(s, offered("use:corroder.1"))
    enc = [e for e in s.trace if e.step == "step_encounter_begins" and "strength" in e.objects]
    assert enc and enc[0].objects["strength"] == 3 and enc[0].objects["printed"] == 1
    legal = [d["id"] for d in engine.legal_decisions(s)]
    assert "use:corroder.0" not in legal
    why = [r for r in engine.refused_decisions(s) if r.id == "use:corroder.0"]
    assert why and "strength 3" in why[0].reason
    s, _ = engine.apply(s, "use:corroder.1")  # +1: strength 3
    assert "use:corroder.0" in [d["id"] for d in engine.legal_decisions(s)]


def test_scatter_field_alone_has_strength_4_and_not_with_other_ice(doc, card):
    field = card("scatter_field", rezzed=True)
    for ice, want in (([field], 4), ([field, card("ice_wall", rezzed=True)], 0)):
        b = {"version": 1, "runner": {"credits": 5}, "servers": {"hq": {"ice": ice}}}
        s = engine.start(b, "run", doc, {"server": "hq"})
        s = until(s, walked(lambda e: e.step == "step_encounter_begins" and "strength" in e.objects))
        enc = [e for e in s.trace if e.step == "step_encounter_begins" and "strength" in e.objects]
        assert enc[0].objects["strength"] == want


def test_lilypad_memory_makes_a_legal_rig_legal(card):
    """LilyPAD's +2[mu]: three 2-MU programs fit with it installed (4 + 2) and not without."""
    progs = [
        card("corroder", memory_cost=2),
        card("gordian_blade", memory_cost=2),
        card("corroder", memory_cost=2),
    ]
    with_pad = {"version": 1, "runner": {"rig": {"programs": progs, "hardware": [card("lilypad")]}}}
    without = {"version": 1, "runner": {"rig": {"programs": progs}}}
    assert card("lilypad")["mu"] == 2
    assert engine.validate_board(with_pad) == []
    assert any("memory limit is 4" in p for p in engine.validate_board(without))


def test_hostile_takeover_scored_gains_7_and_takes_bad_publicity(card):
    ht = card("hostile_takeover")
    assert ht["triggers"] == [
        {
            "when": "scored",
            "effects": [
                {"effect": "gain_credits", "amount": 7},
                {"effect": "take_bad_publicity", "amount": 1},
            ],
        }
    ]


def test_unmodeled_encounter_text_is_surfaced_at_its_trigger(doc, card):
    """Anvil's encounter ability is not modeled: at the encounter the Corp is asked to resolve
    it by hand with the card's words, instead of the engine going on without it."""
    b = {"version": 1, "runner": {"credits": 5}, "servers": {"hq": {"ice": [card("anvil", rezzed=True)]}}}
    s = engine.start(b, "run", doc, {"server": "hq"})
    s = until(s, offered("resolved"))
    by_hand = [d for d in engine.legal_decisions(s) if d["id"] == "resolved"]
    assert by_hand and "When the Runner encounters this ice" in by_hand[0]["label"]
    assert by_hand[0]["player"] == "corp"


@pytest.mark.parametrize(
    "card_id,status,kind",
    [
        ("tollbooth", MODELED, "trigger"),
        ("lilypad", NOT_APPLICABLE, "deckbuilding"),
        ("cyberfeeder", MODELED, "constant"),
        ("r_d_interface", MODELED, "constant"),
        ("snare", MODELED, "constant"),  # revealed while accessed in R&D (1.21.3)
        ("front_company", SHOWN, "constant"),  # "Rez only during your turn."
    ],
)
def test_units_account_for_each_paragraph(data, card_id, status, kind):
    units = card_units(data.cards[card_id])
    assert any(u.status == status and u.kind == kind for u in units), [u.to_dict() for u in units]


def test_every_unit_of_every_card_is_accounted_for_and_shown_ones_reach_the_board(data):
    """The sweep: every unit of every card in the data set has a known status, and every unit
    shown on the card is in its board `unmodeled` list (what the board picture shows); every
    card with a [subroutine] line has that many subroutines; every board card validates."""
    names = {k: v.name for k, v in data.card_subtypes.items()}
    for c in data.cards.values():
        try:
            obj = board_card(c, names)
        except ValueError:
            continue
        units = card_units(c, names)
        assert all(u.status in STATUSES for u in units), c.id
        shown = [u.text for u in units if u.status == SHOWN]
        if c.card_type_id.endswith("identity"):
            continue
        assert (
            shown[:10]
            == [t for t in obj.get("unmodeled", []) if t != "You can advance this card."][: len(shown[:10])]
        ), c.id
        text = c.text or ""
        if c.card_type_id == "ice":
            printed = sum(1 for ln in text.split("\n") if ln.lstrip().startswith("[subroutine]"))
            assert len(obj["subroutines"]) == min(20, printed), c.id
        side = "corp" if c.side_id == "corp" else "runner"
        where = {"corp": {"servers": {"hq": {"ice": [obj]}}} if obj["type"] == "ice" else None}
        if where["corp"] is not None and side == "corp":
            assert engine.validate_board({"version": 1, **where["corp"]}) == [], c.id


def test_the_schema_is_generated_from_the_vocabulary():
    from pathlib import Path

    on_disk = (Path(engine.__file__).parent / "board.schema.json").read_text()
    assert on_disk == current_schema_text(), "run: python -m engine.vocabulary --write"
    v = vocabulary()
    names = [e["name"] for e in v["effects"]]
    assert "must_pay" in names and "end_the_run" in names
    must = next(e for e in v["effects"] if e["name"] == "must_pay")
    assert must["fields"]["amount"]["required"] and must["fields"]["effects"]["type"] == "effects"
    assert "encountered" in v["triggers"]["when"]


# ----- the same through the API and the CLI the editor and a judge use -------------------------


@pytest.fixture(scope="module")
def client(cards_built):
    from webapp import create_app

    app = create_app({"TESTING": True, "BUILD_DIR": str(cards_built), "SECRET_KEY": "test-secret"})
    return app.test_client()


def test_the_editor_path_gives_tollbooth_its_toll_and_its_units(client):
    r = client.get("/api/cards/tollbooth/board")
    assert r.status_code == 200
    p = r.get_json()
    assert p["card"]["triggers"][0]["effects"][0]["effect"] == "must_pay"
    assert [u["status"] for u in p["units"]] == ["modeled", "modeled"] and p["by_hand"] == 0
    anvil = client.get("/api/cards/anvil/board").get_json()
    assert anvil["by_hand"] >= 1 and any(u["at"] == "encountered" for u in anvil["units"])


def test_a_run_from_card_names_through_the_api(client, doc):
    """Issue 33's done-when, through the API: boards made of /api/cards/<name>/board answers."""
    get = lambda name: client.get(f"/api/cards/{name}/board").get_json()["card"]  # noqa: E731
    board = {
        "version": 1,
        "turn": "runner",
        "corp": {"credits": 10},
        "runner": {"credits": 6, "rig": {"programs": [get("Corroder"), get("Gordian Blade")]}},
        "servers": {
            "remote1": {
                "ice": [{**get("Tollbooth"), "rezzed": True}, {**get("Ice Wall"), "rezzed": True}],
                "content": get("Hostile Takeover"),
            }
        },
    }
    s = walk(engine.start(board, "run", doc, {"server": "remote1"}), ("use:gordian-blade",))
    assert s.outcome.run == "unsuccessful" and s.board["runner"]["score_area"] == []


def test_coverage_counts_every_unit_of_the_standard_pool(client):
    r = client.get("/api/cards/coverage")
    assert r.status_code == 200
    p = r.get_json()
    t = p["total"]
    assert p["pool"] == "standard" and t["cards"] > 400
    assert t["units"] == t["modeled"] + t["by_hand"] + t["shown"] + t["n/a"] + t["absent"]
    assert 0 < t["modeled_share"] < 1 and t["surfaced_share"] >= t["modeled_share"]
    assert len(p["not_modeled"]) == t["by_hand"] + t["shown"] + t["absent"]
    # every unit has a place on the board now: the Corp's identity too (`corp.identity`)
    assert t["absent"] == 0 and p["by_type"]["corp_identity"]["units"] > 0
    every = client.get("/api/cards/coverage?pool=all").get_json()
    assert every["total"]["cards"] > t["cards"]
    assert client.get("/api/cards/coverage?pool=bogus").status_code == 400


def test_vocabulary_answer(client):
    r = client.get("/api/engine/vocabulary")
    assert r.status_code == 200
    assert r.get_json() == vocabulary()


def _walk_turn(s, limit=300):
    for _ in range(limit):
        if s.finished:
            return s
        legal = [d["id"] for d in engine.legal_decisions(s)]
        pick = next((p for p in ("pass", "continue", "credit", "resolved") if p in legal), legal[0])
        s, _ = engine.apply(s, pick)
    raise AssertionError("turn did not finish")


def test_pad_campaign_gains_when_the_corps_turn_begins_and_not_the_runners(doc, card):
    """ "When your turn begins, gain 1[credit]": a `turn_begins` trigger, met at 5.6.1d for the
    Corp's cards only (the active player's: "your turn"), resolved in its reaction window."""
    pad = card("pad_campaign", rezzed=True)
    assert pad["triggers"] == [{"when": "turn_begins", "effects": [{"effect": "gain_credits", "amount": 1}]}]
    b = {
        "version": 1,
        "turn": "corp",
        "corp": {"credits": 0, "clicks": 0, "hand": 0, "deck": 5},
        "servers": {"remote1": {"content": pad}},
    }
    s = engine.start(b, "corp_turn", doc)
    s = until(s, walked(lambda e: e.objects.get("condition") == "turn_begins"))  # 5.6.1d
    pending = [e for e in s.trace if e.objects.get("condition") == "turn_begins"]
    assert pending and "rule_begin_end_turn_step" in pending[0].rules
    s = _walk_turn(s)
    gained = [
        e for e in s.trace if e.step == "step_conditional_ability_resolution" and "PAD Campaign" in e.text
    ]
    assert gained, [e.text for e in s.trace if "PAD" in e.text]
    rb = {**b, "turn": "runner", "runner": {"clicks": 0}}
    r = _walk_turn(engine.start(rb, "runner_turn", doc))
    assert not any(e.objects.get("condition") == "turn_begins" for e in r.trace)
    assert r.board["corp"]["credits"] == 0


def test_a_successful_run_on_this_server_filter(card):
    """ "Whenever the Runner makes a successful run on this server" is a `successful_run`
    trigger filtered to the card's own server."""
    for cid in ("ash_2x3zb9cy", "adrian_seis", "bernice_mai"):
        up = card(cid)
        assert any(t.get("filter") == {"server": "this"} for t in up.get("triggers", ())), up
        assert engine.validate_board({"version": 1, "servers": {"remote1": {"root": [up]}}}) == []


@pytest.mark.parametrize("server,fires", [("remote1", True), ("hq", False)])
def test_bernice_mai_triggers_on_a_successful_run_on_its_own_server_only(doc, card, server, fires):
    bernice = card("bernice_mai", rezzed=True)
    b = {
        "version": 1,
        "runner": {"credits": 5},
        "servers": {"remote1": {"root": [bernice]}},
    }
    s = engine.start(b, "run", doc, {"server": server})
    asked = False
    for _ in range(60):
        if s.finished:
            break
        legal = engine.legal_decisions(s)
        if any(d["id"] == "resolved" and "Bernice Mai" in d["label"] for d in legal):
            asked = True
        ids = [d["id"] for d in legal]
        pick = next((p for p in ("resolved", "pass", "continue", "no_trash") if p in ids), ids[0])
        s, _ = engine.apply(s, pick)
    assert asked == fires


def test_a_by_hand_resolution_with_the_judges_changes_sticks_and_replays(doc, card):
    """Issue 32: resolving by hand changes the state in the same decision. Anvil's encounter
    ability resolved with the Runner's credits set to 1 and the run ended: the session goes on
    from there, and the session's JSON (what a shared link holds) replays to the same state."""
    b = {"version": 1, "runner": {"credits": 5}, "servers": {"hq": {"ice": [card("anvil", rezzed=True)]}}}
    s = engine.start(b, "run", doc, {"server": "hq"})
    s = until(s, offered("resolved"))
    with pytest.raises(engine.IllegalDecision):
        engine.apply(s, "resolved:runner.credits=1,runner.mu=3")  # not adjustable
    with pytest.raises(engine.IllegalDecision):
        engine.apply(s, "resolved:runner.credits=1,runner.credits=2")  # twice
    s2, ev = engine.apply(s, "resolved:runner.credits=1,runner.tags=1,end_run")
    said = [e for e in ev if e.objects.get("by_hand")]
    assert said and said[0].changes["runner.credits"] == [5, 1] and "Runner credits 5 -> 1" in said[0].text
    assert s2.board["runner"]["credits"] == 1 and s2.board["runner"]["tags"] == 1
    s2 = walk(s2)
    assert s2.outcome.run == "unsuccessful"
    again = engine.Session.from_json(s2.to_json(), doc)
    assert again.board == s2.board and again.decisions == s2.decisions


def test_by_hand_changes_are_only_taken_where_a_by_hand_resolution_is_pending(doc, card):
    b = {"version": 1, "runner": {"credits": 5}, "servers": {"hq": {"ice": [card("ice_wall", rezzed=True)]}}}
    s = engine.start(b, "run", doc, {"server": "hq"})
    with pytest.raises(engine.IllegalDecision):
        engine.apply(s, "resolved:runner.credits=50")


def test_hosted_recurring_credits_pay_a_rez_and_the_refusals_agree(doc):
    """Issue 32: what is offered and what is refused are one evaluation. A Corp with 0 credits
    in its pool and 2 recurring credits hosted on a rezzed asset may rez a 2-cost ice: the rez is
    offered, not refused, and paid from the hosted credits (its pool never goes below 0)."""
    bank = {"name": "Bank", "type": "asset", "rezzed": True, "recurring": 2, "counters": {"credits": 2}}
    wall = {"name": "Wall", "rez_cost": 2, "subroutines": ["end_the_run"]}
    b = {
        "version": 1,
        "corp": {"credits": 0},
        "servers": {"hq": {"ice": [wall]}, "remote1": {"content": bank}},
    }
    s = engine.start(b, "run", doc, {"server": "hq"})
    s = until(s, offered("rez"))
    assert not [r for r in engine.refused_decisions(s) if r.id == "rez"]
    s, _ = engine.apply(s, "rez")
    assert s.board["corp"]["credits"] == 0
    assert s.board["servers"]["hq"]["ice"][0]["rezzed"] is True
    assert s.board["servers"]["remote1"]["content"]["counters"]["credits"] == 0


def test_a_mid_access_ability_is_offered_while_accessing_and_not_in_paid_ability_windows(doc, card):
    """9.2.7b: mid-access abilities ("Access →", Gourmand) are not usable in paid ability windows;
    they are offered while a card is being accessed, resolved by hand."""
    gourmand = card("gourmand")
    assert gourmand["abilities"][0]["kind"] == "text"
    pad = {"name": "PAD Campaign", "type": "asset", "trash_cost": 4}
    b = {
        "version": 1,
        "runner": {"credits": 0, "rig": {"programs": [gourmand]}},
        "servers": {"remote1": {"content": pad}},
    }
    s = engine.start(b, "run", doc, {"server": "remote1"})
    seen_in_window = False
    for _ in range(40):
        ids = [d["id"] for d in engine.legal_decisions(s)]
        if "no_trash" in ids:
            break
        seen_in_window |= "use:gourmand.0" in ids
        s, _ = engine.apply(s, "pass" if "pass" in ids else "continue" if "continue" in ids else ids[0])
    assert not seen_in_window
    assert "use:gourmand.0" in ids and "pay_trash" not in ids  # 0 credits: cannot pay the trash cost
    s, _ = engine.apply(s, "use:gourmand.0")
    ids = [d["id"] for d in engine.legal_decisions(s)]
    assert "resolved" in ids
    s, ev = engine.apply(s, "resolved")
    assert any("Gourmand" in e.text for e in ev)
    assert "no_trash" in [d["id"] for d in engine.legal_decisions(s)]


@pytest.mark.parametrize("card_id", ["echo", "sorocaban_blade", "winchester", "starlit_knight"])
def test_ice_text_that_changes_an_encounter_is_asked_at_the_encounter(card_id, card):
    """Paragraphs the engine does not model but that change an encounter with the ice (it gains
    subroutines, ...) are asked of the judge when the ice is encountered, where `resolved:...`
    can end the run or set the state. (Hammer's and Afshar's "cannot break more than 1" are
    modeled: tests/test_engine_break_limit.py.)"""
    ice = card(card_id)
    hand = [
        t
        for t in ice.get("triggers", ())
        if t["when"] == "encountered" and t["effects"][0]["effect"] == "text"
    ]
    assert hand, ice


def test_a_rez_decision_carries_the_rez_text_the_engine_does_not_model(doc, card):
    bloop = card("bloop")
    b = {"version": 1, "corp": {"credits": 10}, "servers": {"hq": {"ice": [bloop]}}}
    s = engine.start(b, "run", doc, {"server": "hq"})
    s = until(s, offered("rez"))
    rez = [d for d in engine.legal_decisions(s) if d["id"] == "rez"]
    assert rez and "by hand: As an additional cost to rez this ice" in rez[0]["label"]


@pytest.mark.parametrize(
    "card_id,subtype", [("faerie", "sentry"), ("golden", "sentry"), ("peregrine", "code gate")]
)
def test_break_lines_in_a_formatting_variant_are_read(card, card_id, subtype):
    """Faerie, Golden and Peregrine print their break line without <strong> around the cost:
    it used to be lost; Adept's "sentry or barrier" is not one subtype and is by hand."""
    abilities = card(card_id)["abilities"]
    assert any(a["kind"] == "break" and a["ice_subtype"] == subtype for a in abilities)
    assert card("adept")["abilities"][0]["kind"] == "text"
