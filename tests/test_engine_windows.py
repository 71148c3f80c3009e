"""Priority, interrupts and the Corp's tag / virus actions, each written from the CR text:
priority passing in paid ability windows (9.2.7a), damage prevention in an instruction's
interrupt window (9.2.9, 9.9), recurring credits (1.10.5), a checkpoint after each instruction
(10.3.5), purging virus counters (5.2.6h, 10.1.2), trashing a resource while the Runner is
tagged (5.2.6g), and refused decisions explained with their rule."""

from __future__ import annotations

import pytest
from helpers import decision_ids, engine_board, load_doc

import engine

ICE = {
    "name": "Enigma",
    "type": "ice",
    "rez_cost": 3,
    "strength": 2,
    "subtypes": ["code gate"],
    "subroutines": ["end_the_run"],
}
SCRIPT = {
    "name": "Bug Report",
    "type": "program",
    "abilities": [{"kind": "text", "text": "2[credit]: Look at the top card of the stack."}],
}


@pytest.fixture(params=["24.03", "26.03"])
def doc(request):
    return load_doc(request.param)


def test_priority_passes_between_players_until_both_pass_in_succession(doc):
    """9.2.7a: the active player (the Runner, in a run) receives priority first; when they pass,
    the Corp receives it; a player who acts keeps priority (9.2.4c); the window closes only when
    a player who received priority from their opponent passes."""
    grid = {"name": "Manta Grid", "type": "upgrade", "rez_cost": 1}
    b = engine_board(
        corp={"credits": 8},
        runner={"rig": {"programs": [SCRIPT]}},
        servers={"hq": {"ice": [ICE], "root": [grid]}},
    )
    s = engine.start(b, "run", doc, {"server": "hq"})
    while s.current_step != "step_approach_paw":
        s, _ = engine.apply(s, "pass" if "pass" in decision_ids(s) else decision_ids(s)[0])
    first = engine.legal_decisions(s)
    assert {d["player"] for d in first} == {"runner"}
    assert "use:bug-report.0" in decision_ids(s) and "rez" not in decision_ids(s)
    s, ev = engine.apply(s, "pass")
    assert any("rule_ability_window_priority" in e.rules and e.objects.get("priority") == "corp" for e in ev)
    assert set(decision_ids(s)) == {"rez", "rez:hq.root.manta-grid", "pass"} and {
        d["player"] for d in engine.legal_decisions(s)
    } == {"corp"}
    s, _ = engine.apply(s, "rez")
    # the Corp keeps priority after rezzing, and the window is still open
    assert s.current_step == "step_approach_paw" and {d["player"] for d in engine.legal_decisions(s)} == {
        "corp"
    }
    assert decision_ids(s) == ["rez:hq.root.manta-grid", "pass"]
    s, _ = engine.apply(s, "pass")
    # the Runner received priority from the Corp: it may still use its ability...
    assert s.current_step == "step_approach_paw" and "use:bug-report.0" in decision_ids(s)
    s, ev = engine.apply(s, "pass")
    # ...and passing now closes the window (two passes in succession)
    assert s.current_step != "step_approach_paw"
    assert any(e.step == "step_approach_paw" and "rule_ability_window_priority" in e.rules for e in ev)


def test_click_abilities_are_not_offered_in_a_paid_ability_window(doc):
    """9.2.7b: actions ([click] abilities) cannot be used in a paid ability window."""
    clicky = {**SCRIPT, "abilities": [{"kind": "text", "text": "[click]: Place 1 virus counter."}]}
    b = engine_board(runner={"rig": {"programs": [clicky]}}, servers={"hq": {"ice": [ICE]}})
    s = engine.start(b, "run", doc, {"server": "hq"})
    while s.current_step != "step_approach_paw":
        s, _ = engine.apply(s, decision_ids(s)[0])
    assert "use:bug-report.0" not in decision_ids(s) and {d["player"] for d in engine.legal_decisions(s)} == {
        "corp"
    }


CARAPACE = {
    "name": "Carapace",
    "type": "hardware",
    "abilities": [{"kind": "prevent", "damage": "net", "amount": 1, "cost": 1}],
}
CONSTRUCT = {
    "name": "Sacrifice",
    "type": "resource",
    "abilities": [{"kind": "prevent", "damage": "any", "amount": 3, "trash": True}],
}


def _to_interrupt(s):
    while s.current_step != "step_subroutine_interrupt_subroutine_effect":
        s, _ = engine.apply(s, decision_ids(s)[0])
    return s


def test_net_damage_is_prevented_in_its_interrupt_window(doc):
    """9.9.4d / 9.9.6b: while 2 net damage is imminent the Runner pays 1 credit to prevent 1 of
    it; 1 net damage is then suffered (1 card of the grip trashed)."""
    b = engine_board(runner={"credits": 3, "hand": 5, "rig": {"hardware": [CARAPACE]}})
    s = engine.start(b, "subroutine", doc, {"subroutine": [{"effect": "net_damage", "amount": 2}]})
    s = _to_interrupt(s)
    assert decision_ids(s) == ["prevent:hardware.carapace.0", "pass"]
    s, ev = engine.apply(s, "prevent:hardware.carapace.0")
    assert ev[-1].objects == {"card": "Carapace", "zone": "hardware", "prevented": 1, "imminent": 1}
    assert s.board["runner"]["credits"] == 2
    s, ev = engine.apply(s, "pass")
    while not s.finished:
        s, more = engine.apply(s, decision_ids(s)[0])
        ev += more
    assert len(s.board["runner"]["hand"]) == 4 and len(s.board["runner"]["discard"]) == 1
    assert any("rule_meat_net_damage" in e.rules and "1 net damage" in e.text for e in s.trace)


def test_all_damage_prevented_means_none_is_suffered(doc):
    """9.9.7b: when all of the imminent damage is prevented, no damage is suffered; trashing the
    card is part of the ability's cost."""
    b = engine_board(runner={"hand": 2, "rig": {"resources": [CONSTRUCT]}})
    s = engine.start(b, "subroutine", doc, {"subroutine": [{"effect": "meat_damage", "amount": 3}]})
    s = _to_interrupt(s)
    s, ev = engine.apply(s, "prevent:resources.sacrifice.0")
    assert (
        s.board["runner"]["rig"]["resources"] == [] and s.board["runner"]["discard"][0]["name"] == "Sacrifice"
    )
    while not s.finished:
        s, _ = engine.apply(s, decision_ids(s)[0])
    assert len(s.board["runner"]["hand"]) == 2 and s.outcome.winner is None
    assert any("rule_prevent_all" in e.rules and not e.applied for e in s.trace)


def test_prevent_ability_of_the_wrong_damage_type_is_not_offered(doc):
    b = engine_board(runner={"rig": {"hardware": [CARAPACE]}})
    s = engine.start(b, "subroutine", doc, {"subroutine": [{"effect": "meat_damage", "amount": 1}]})
    s = _to_interrupt(s) if "prevent:hardware.carapace.0" in decision_ids(s) else s
    assert all(not e.objects.get("prevented") for e in s.trace)
    assert all(not d.startswith("prevent:") for d in decision_ids(s))


def test_checkpoint_after_each_instruction(doc):
    """10.3.5: a checkpoint occurs when each instruction finishes resolving, before the next one
    becomes imminent."""
    sub = [{"effect": "give_tags", "amount": 1}, {"effect": "lose_credits", "amount": 1}]
    s = engine.start(engine_board(), "subroutine", doc, {"subroutine": sub})
    steps = [e.step for e in s.trace]
    marks = [i for i, e in enumerate(s.trace) if "rule_checkpoint_after_instruction_resolution" in e.rules]
    assert len(marks) == 2
    first_cp = next(i for i in range(marks[0], len(steps)) if steps[i].endswith("agenda_points"))
    second_imminent = next(i for i, e in enumerate(s.trace) if "instruction 2 becomes imminent" in e.text)
    assert marks[0] < first_cp < second_imminent


def _corp_action(b, doc):
    s = engine.start(b, "corp_turn", doc)
    while "credit" not in decision_ids(s):
        s, _ = engine.apply(s, "pass" if "pass" in decision_ids(s) else decision_ids(s)[0])
    return s


def test_purge_removes_every_virus_counter(doc):
    """5.2.6h / 10.1.2: [click][click][click]: purge virus counters, all of them, on any card."""
    virus = {"name": "Imp", "type": "program", "counters": {"virus": 2}}
    b = engine_board(corp={"clicks": 0}, runner={"rig": {"programs": [virus, {**virus, "name": "Cache"}]}})
    s = _corp_action(b, doc)
    assert "purge" in decision_ids(s)
    s, ev = engine.apply(s, "purge")
    while s.current_step in ("step_paid_ability_announce", "step_paid_ability_condition"):
        s, more = engine.apply(s, decision_ids(s)[0])
        ev += more
    assert s.board["corp"]["clicks"] == 0
    assert all("virus" not in c.get("counters", {}) for c in s.board["runner"]["rig"]["programs"])
    hit = next(e for e in ev if "rule_purge" in e.rules)
    assert hit.applied and hit.objects["counters"] == 4 and hit.objects["cards"] == ["Imp", "Cache"]


def test_purge_needs_three_clicks_and_says_so(doc):
    b = engine_board(corp={"clicks": 0}, runner={"rig": {"programs": [{"name": "Imp", "type": "program"}]}})
    s = _corp_action(b, doc)
    s, _ = engine.apply(s, "credit")
    while "credit" not in decision_ids(s):
        s, _ = engine.apply(s, "pass" if "pass" in decision_ids(s) else decision_ids(s)[0])
    assert "purge" not in decision_ids(s)
    why = {r.id: r for r in engine.refused_decisions(s)}
    assert (
        why["purge"].rule == "corp_basic_action_purge_virus_counters" and "2 [click]" in why["purge"].reason
    )
    with pytest.raises(engine.IllegalDecision, match="purging virus counters costs"):
        engine.apply(s, "purge")


@pytest.mark.parametrize("tags", [0, 1])
def test_trash_a_resource_only_when_tagged(doc, tags):
    """5.2.6g: [click], 2[credit]: trash 1 resource; only if the Runner is tagged (10.5.2)."""
    res = {"name": "Daily Casts", "type": "resource"}
    b = engine_board(runner={"tags": tags, "rig": {"resources": [res]}})
    s = _corp_action(b, doc)
    if not tags:
        assert "trash_resource:daily-casts" not in decision_ids(s)
        why = {r.id: r for r in engine.refused_decisions(s)}["trash_resource:daily-casts"]
        assert why.rule == "corp_basic_action_trash_resource" and "not tagged" in why.reason
        return
    credits = s.board["corp"]["credits"]
    s, ev = engine.apply(s, "trash_resource:daily-casts")
    while s.board["runner"]["rig"]["resources"]:
        s, more = engine.apply(s, decision_ids(s)[0])
        ev += more
    assert s.board["runner"]["discard"][-1]["name"] == "Daily Casts"
    assert s.board["corp"]["credits"] == credits - 2
    assert any(
        "corp_basic_action_trash_resource" in e.rules and e.objects.get("card") == "Daily Casts" for e in ev
    )


def test_recurring_credits_refill_without_accumulating_and_pay_costs(doc):
    """1.10.5a/c/d: recurring credits refill at the start of the turn up to N, never beyond; the
    Runner spends them (1.10.3c) before the credit pool."""
    feeder = {"name": "Cyberfeeder", "type": "hardware", "recurring": 1, "counters": {"credits": 0}}
    b = engine_board(turn="corp", runner={"credits": 1, "tags": 1, "rig": {"hardware": [feeder]}})
    s = engine.start(b, "runner_turn", doc)
    fill = next(e for e in s.trace if e.step == "step_runner_turn_recurring_credits_refill")
    assert fill.applied and fill.changes == {"runner.rig.hardware[0].counters.credits": [0, 1]}
    while "remove_tag" not in decision_ids(s):
        s, _ = engine.apply(s, "pass" if "pass" in decision_ids(s) else decision_ids(s)[0])
    s, ev = engine.apply(s, "remove_tag")  # 2 credits: 1 hosted + 1 from the pool
    while s.board["runner"]["tags"]:
        s, more = engine.apply(s, decision_ids(s)[0])
        ev += more
    assert s.board["runner"]["credits"] == 0
    assert s.board["runner"]["rig"]["hardware"][0]["counters"]["credits"] == 0
    assert any("rule_recurring_credits" in e.rules for e in ev)
    full = engine.start(
        engine_board(turn="corp", runner={"rig": {"hardware": [{**feeder, "counters": {"credits": 1}}]}}),
        "runner_turn",
        doc,
    )
    again = next(e for e in full.trace if e.step == "step_runner_turn_recurring_credits_refill")
    assert not again.applied and full.board["runner"]["rig"]["hardware"][0]["counters"]["credits"] == 1


def test_refused_icebreaker_abilities_name_their_rule(doc):
    """Why a breaker is not offered: the wrong subtype (3.9.5h), too little strength (3.9.5g);
    and jacking out is not possible during an encounter."""
    corroder = {
        "name": "Corroder",
        "type": "program",
        "strength": 2,
        "abilities": [{"kind": "break", "cost": 1, "count": 1, "ice_subtype": "barrier"}],
    }
    crypsis = {
        "name": "Crypsis",
        "type": "program",
        "strength": 0,
        "abilities": [{"kind": "break", "cost": 1, "count": 1}, {"kind": "strength", "cost": 1, "amount": 1}],
    }
    b = engine_board(
        runner={"rig": {"programs": [corroder, crypsis]}}, servers={"hq": {"ice": [{**ICE, "rezzed": True}]}}
    )
    s = engine.start(b, "run", doc, {"server": "hq"})
    while s.current_step != "step_encounter_paw":
        s, _ = engine.apply(s, decision_ids(s)[0])
    assert decision_ids(s) == ["use:crypsis.1", "pass"]
    why = {r.id: r for r in engine.refused_decisions(s)}
    assert (
        why["use:corroder.0"].rule == "rule_icebreaker_interface_subtype"
        and "not a barrier" in why["use:corroder.0"].reason
    )
    assert (
        why["use:crypsis.0"].rule == "rule_icebreaker_interface_strength"
        and "strength 0" in why["use:crypsis.0"].reason
    )
    assert why["jack_out"].rule == "rule_jacking_out"
    assert all(doc.node(r.rule) is not None for r in why.values())
    with pytest.raises(engine.IllegalDecision, match="not a barrier"):
        engine.apply(s, "use:corroder.0")


@pytest.mark.parametrize(("spend", "success"), [(0, True), (1, False)])
def test_link_from_installed_cards_contests_a_trace(doc, spend, success):
    """10.7.1: link = base link + the link of installed cards; 10.8.3-10.8.4: the trace succeeds
    only if its strength exceeds the link strength (base 1 + 1 from hardware + credits spent)."""
    b = engine_board(
        runner={
            "identity": {"name": "Kate", "base_link": 1},
            "rig": {"hardware": [{"name": "Rabbit Hole", "link": 1}]},
        }
    )
    s = engine.start(b, "trace", doc, {"strength": 3, "on_success": [{"effect": "give_tags", "amount": 1}]})
    s, _ = engine.apply(s, "spend:0")
    s, _ = engine.apply(s, f"spend:{spend}")
    while not s.finished:
        s, _ = engine.apply(s, decision_ids(s)[0])
    result = next(e for e in s.trace if e.step == "step_trace_determine_success")
    assert f"link strength {2 + spend}" in result.text and "rule_link_value" in result.rules
    assert s.board["runner"]["tags"] == (1 if success else 0)


def test_simultaneous_triggers_active_player_first_in_the_order_they_choose(doc):
    """9.2.8b/d, 9.6: abilities that trigger on the same successful run resolve in a reaction
    window: the active player (the Runner) first, in the order the Runner chooses, then the
    Corp's."""
    runner_cards = {
        "hardware": [
            {
                "name": "Desperado",
                "triggers": [
                    {"when": "successful_run", "effects": [{"effect": "gain_credits", "amount": 1}]}
                ],
            }
        ],
        "resources": [
            {
                "name": "Kati",
                "triggers": [
                    {"when": "successful_run", "effects": [{"effect": "gain_credits", "amount": 2}]}
                ],
            }
        ],
    }
    grid = {
        "name": "Trap Grid",
        "type": "upgrade",
        "rezzed": True,
        "triggers": [{"when": "successful_run", "effects": [{"effect": "lose_credits", "amount": 1}]}],
    }
    b = engine_board(runner={"credits": 0, "rig": runner_cards}, servers={"hq": {"root": [grid]}})
    s = engine.start(b, "run", doc, {"server": "hq"})
    while s.current_step != "step_run_declared_successful":
        s, _ = engine.apply(s, "continue" if "continue" in decision_ids(s) else decision_ids(s)[0])
    assert decision_ids(s) == ["trigger:hardware.desperado.0", "trigger:resources.kati.0"]
    assert {d["player"] for d in engine.legal_decisions(s)} == {"runner"}
    s, _ = engine.apply(s, "trigger:resources.kati.0")  # Kati first, by the Runner's choice
    while not s.finished:
        s, _ = engine.apply(s, decision_ids(s)[0])
    fired = [e.objects["card"] for e in s.trace if "trigger" in e.objects]
    assert fired == ["Kati", "Desperado", "Trap Grid"]
    gains = [e for e in s.trace if e.step == "step_conditional_ability_resolution" and "credit" in e.text]
    assert [e.text.split(":")[0] for e in gains] == ["Kati", "Desperado", "Trap Grid"]
    assert s.board["runner"]["credits"] == 2  # +2, +1, then the Corp's -1


def test_a_trigger_whose_condition_is_not_met_does_not_fire(doc):
    card = {
        "name": "Desperado",
        "triggers": [{"when": "successful_run", "effects": [{"effect": "gain_credits", "amount": 1}]}],
    }
    wall = {"name": "Wall", "rezzed": True, "subroutines": ["end_the_run"]}
    b = engine_board(runner={"rig": {"hardware": [card]}}, servers={"hq": {"ice": [wall]}})
    s = engine.start(b, "run", doc, {"server": "hq"})
    while not s.finished:
        s, _ = engine.apply(s, "pass" if "pass" in decision_ids(s) else decision_ids(s)[0])
    assert s.outcome.run == "unsuccessful" and s.board["runner"]["credits"] == 5
    assert not any("trigger" in e.objects for e in s.trace)
    unrezzed = {"name": "Grid", "type": "upgrade", "triggers": card["triggers"]}
    assert engine.validate_board(engine_board(servers={"hq": {"root": [unrezzed]}})) == []
    bad = {**card, "triggers": [{"when": "sometimes", "effects": []}]}
    assert any("when" in p for p in engine.validate_board(engine_board(runner={"rig": {"hardware": [bad]}})))


def test_refused_rezzes_and_installs_cite_their_rule(doc):
    """A non-ice card cannot be rezzed in a window without (R) (9.2.7c) or without the credits
    (rez cost); ice costs 1 credit per ice already protecting the server (8.5.11a)."""
    grid = {"name": "Manta Grid", "type": "upgrade", "rez_cost": 9}
    wall = {"name": "Wall", "rezzed": True, "subroutines": ["end_the_run"]}
    b = engine_board(corp={"credits": 1}, servers={"hq": {"ice": [wall], "root": [grid]}})
    s = engine.start(b, "run", doc, {"server": "hq"})
    while s.current_step != "step_encounter_paw":
        s, _ = engine.apply(s, decision_ids(s)[0])
    why = {r.id: r for r in engine.refused_decisions(s)}
    assert why["rez:hq.root.manta-grid"].rule == "rule_paid_ability_window_corp_rez"
    cheap = {"name": "Cheap Grid", "type": "upgrade", "rez_cost": 1}
    corp = engine_board(
        corp={"credits": 1, "clicks": 0, "hand": [{"name": "Ice Wall", "type": "ice"}]},
        servers={"hq": {"ice": [wall, wall], "root": [grid, cheap]}},
    )
    s = engine.start(corp, "corp_turn", doc)
    assert s.current_step == "step_corp_turn_draw_phase_paw" and "rez:hq.root.cheap-grid" in decision_ids(s)
    refusals = {r.id: r for r in engine.refused_decisions(s)}
    assert (
        refusals["rez:hq.root.manta-grid"].rule == "rule_rez_cost"
        and "costs 9 credits" in refusals["rez:hq.root.manta-grid"].reason
    )
    while "credit" not in decision_ids(s):
        s, _ = engine.apply(s, "pass")
    refusals = {r.id: r for r in engine.refused_decisions(s)}
    assert (
        refusals["install:ice-wall@hq"].rule == "rule_install_cost_ice"
        and "costs 2 credits" in refusals["install:ice-wall@hq"].reason
    )
    assert "install:ice-wall@archives" in decision_ids(s)  # no ice there: free
    assert all(doc.node(r.rule) is not None for r in refusals.values())


def test_text_abilities_on_hardware_and_resources_are_offered_in_paid_ability_windows():
    """A `text` ability on installed hardware or a resource is a paid ability the judge resolves
    by hand: offered to the Runner in paid ability windows (the encounter's too), as
    `use:ZONE.CARD.N`; one whose cost starts with [click] is an action and is not (9.2.7b)."""
    doc = load_doc("26.03")
    box = {"name": "Box", "abilities": [{"kind": "text", "text": "1[credit]: Do something."}]}
    contact = {"name": "Contact", "abilities": [{"kind": "text", "text": "[click]: Gain 2[credit]."}]}
    wall = {"name": "Wall", "rezzed": True, "subroutines": ["end_the_run"]}
    b = engine_board(
        runner={"rig": {"hardware": [box], "resources": [contact]}}, servers={"hq": {"ice": [wall]}}
    )
    s = engine.start(b, "run", doc, {"server": "hq"})
    steps_offered = []
    while not s.finished:
        ids = decision_ids(s)
        assert not any("contact" in i for i in ids)
        if "use:hardware.box.0" in ids:
            steps_offered.append(s.current_step)
            if s.current_step == "step_encounter_paw" and len(steps_offered) == 1:
                s, ev = engine.apply(s, "use:hardware.box.0")
                done = next(e for e in ev if e.objects.get("card") == "Box")
                assert done.applied is False and "resolved as written" in done.text
                continue
        s, _ = engine.apply(s, "pass" if "pass" in ids else "continue" if "continue" in ids else ids[0])
    assert "step_encounter_paw" in steps_offered and len(set(steps_offered)) > 1
