"""Scenario tests written from the CR text: every phase transition of a run (6.9), breaches of
HQ, R&D, Archives and a remote with root upgrades, both turns, bad publicity, traces, damage and
flatline, ending the run, jacking out, and the differences between 24.03 and 26.03."""

from __future__ import annotations

import pytest
from helpers import VERSIONS, engine_board, load_doc

import engine
from engine.scenarios import SCENARIOS, run_scenario
from engine.structures import structure_steps

ICE_WALL = {"name": "Ice Wall", "rezzed": True, "rez_cost": 1, "subroutines": ["end_the_run"]}


board = engine_board


def play(b: dict, doc, structure="run", params=None, decisions=(), seed=0) -> engine.Session:
    """Take `decisions` in order (each must be legal), then stop."""
    s = engine.start(b, structure, doc, params, seed)
    for d in decisions:
        s, _ = engine.apply(s, d)
    return s


def run_steps(s: engine.Session, doc) -> list[str]:
    """The run-structure steps walked, in order (nested structures filtered out)."""
    run = set(structure_steps(doc, "run"))
    return [e.step for e in s.trace if e.step in run]


def events_at(s, step):
    return [e for e in s.trace if e.step == step]


def ids(s):
    return [d["id"] for d in engine.legal_decisions(s)]


# ----- 6.9: phase transitions -------------------------------------------------------------------


@pytest.mark.parametrize("version", ["24.03", "26.03"])
def test_unprotected_server_goes_from_initiation_to_movement(version):
    doc = load_doc(version)
    s = play(board(), doc, params={"server": "hq"})
    # stops at the jack-out choice (6.1.5b: no ice, the Runner may jack out before approaching)
    assert s.current_step == "step_jack_out_choice"
    assert ids(s) == ["continue", "jack_out"]
    walked = run_steps(s, doc)
    assert "step_approach_begins" not in walked and "step_encounter_begins" not in walked
    assert walked[-2:] == ["step_pass_ice", "step_before_jack_out_paw"]
    s, _ = engine.apply(s, "continue")
    steps = run_steps(s, doc)
    order = [sid for sid in structure_steps(doc, "run") if sid in steps]
    # every step walked exactly once, in the document's order
    assert steps == order
    expected_missing = {
        "step_approach_begins",
        "step_approach_paw",
        "step_approach_complete",
        "step_encounter_begins",
        "step_encounter_paw",
        "step_resolve_subroutine",
        "step_resolve_subroutine_loop",
        "step_encounter_complete",
    }
    assert set(structure_steps(doc, "run")) - set(steps) == expected_missing
    assert s.finished and s.outcome.run == "successful"
    # one card of the three in HQ, picked by the seed
    assert len(s.outcome.accessed) == 1
    assert s.outcome.accessed[0] in {"HQ card 1", "HQ card 2", "HQ card 3"}


def test_unrezzed_ice_is_approached_but_not_encountered(doc_latest):
    ice = {"name": "Enigma", "rezzed": False, "rez_cost": 9, "subroutines": ["end_the_run"]}
    s = play(board(servers={"rd": {"ice": [ice]}}), doc_latest, params={"server": "rd"})
    steps = run_steps(s, doc_latest)
    assert "step_approach_begins" in steps and "step_approach_complete" in steps
    assert "step_encounter_begins" not in steps
    assert steps[steps.index("step_approach_complete") + 1] == "step_pass_ice"
    assert s.current_step == "step_jack_out_choice"


def test_corp_may_rez_approached_ice_only_if_affordable(doc_latest):
    ice = {"name": "Enigma", "rezzed": False, "rez_cost": 3, "subroutines": ["end_the_run"]}
    s = play(board(servers={"rd": {"ice": [ice]}}), doc_latest, params={"server": "rd"})
    assert s.current_step == "step_approach_paw"
    assert ids(s) == ["rez", "pass"]
    assert {d["player"] for d in engine.legal_decisions(s) if d["id"] == "rez"} == {"corp"}
    s2, ev = engine.apply(s, "rez")
    assert s2.board["corp"]["credits"] == 2
    assert s2.board["servers"]["rd"]["ice"][0]["rezzed"] is True
    assert ev[0].changes["corp.credits"] == [5, 2]
    # the rezzed ice is encountered: the Runner may break or pass
    assert s2.current_step == "step_encounter_paw"
    poor = play(
        board(corp={"credits": 2}, servers={"rd": {"ice": [ice]}}), doc_latest, params={"server": "rd"}
    )
    assert poor.current_step == "step_jack_out_choice"  # nothing to decide in the approach window


def test_end_the_run_skips_to_run_ends_phase(doc_latest):
    s = play(
        board(corp={"bad_publicity": 1}, servers={"hq": {"ice": [ICE_WALL]}}),
        doc_latest,
        params={"server": "hq"},
        decisions=["pass"],
    )
    assert s.finished
    steps = run_steps(s, doc_latest)
    i = steps.index("step_resolve_subroutine")
    assert steps[i + 1 :] == [
        "step_open_priority_windows_closed",
        "step_run_ends_bad_publicity",
        "step_run_declared_unsuccessful",
        "step_run_complete",
    ]
    etr = [e for e in s.trace if "rule_end_the_run" in e.rules]
    assert len(etr) == 1 and etr[0].step == "step_subroutine_resolution"
    assert s.outcome.run == "unsuccessful" and s.outcome.runs[0].ended_by == "end_the_run"
    assert s.outcome.accessed == []
    # the unused bad publicity credit went back to the bank
    assert s.board["runner"]["bad_publicity_fund"] == 0
    assert events_at(s, "step_run_ends_bad_publicity")[0].changes == {"runner.bad_publicity_fund": [1, 0]}


def test_subroutines_resolve_in_order_and_each_walks_9_8_10(doc_latest):
    ice = {
        "name": "Tollbooth-ish",
        "rezzed": True,
        "subroutines": [{"effect": "lose_credits", "amount": 2}, {"effect": "give_tags", "amount": 1}],
    }
    s = play(board(servers={"hq": {"ice": [ice]}}), doc_latest, params={"server": "hq"}, decisions=["pass"])
    assert s.board["runner"]["credits"] == 3 and s.board["runner"]["tags"] == 1
    walked = [e.step for e in s.trace if e.step.startswith("step_subroutine_")]
    # a step can fire several events (the instruction, then the 10.3.5 checkpoint notice)
    res = [x for i, x in enumerate(walked) if i == 0 or walked[i - 1] != x]
    sub_steps = [x for x in structure_steps(doc_latest, "subroutine")]
    assert res[: len(sub_steps)] == sub_steps
    texts = [e.text for e in s.trace if e.step == "step_resolve_subroutine"]
    assert "subroutine 1" in texts[0] and "subroutine 2" in texts[1]


def test_breaking_all_subroutines_cites_fully_broken(doc_latest):
    ice = {
        "name": "Enigma",
        "rezzed": True,
        "break_cost": 2,
        "subroutines": [{"effect": "lose_clicks", "amount": 1}, "end_the_run"],
    }
    s = play(board(servers={"hq": {"ice": [ice]}}), doc_latest, params={"server": "hq"})
    assert ids(s) == ["break:0", "break:1", "pass"]
    s, ev = engine.apply(s, "break:1")
    # breaking uses a paid ability: the steps of 9.5.7 in order, with a checkpoint at (f)
    pa = structure_steps(doc_latest, "paid_ability")
    assert [e.step for e in ev if e.step in pa] == pa
    assert s.board["runner"]["credits"] == 3
    assert "rule_fully_break" not in {r for e in ev for r in e.rules}
    assert ids(s) == ["break:0", "pass"]
    s, ev = engine.apply(s, "break:0")
    assert any("rule_fully_break" in e.rules for e in ev)
    assert s.current_step == "step_jack_out_choice"  # nothing resolves
    assert s.board["runner"]["clicks"] == 4
    assert any(e.step == "step_resolve_subroutine" and "rule_fully_break" in e.rules for e in s.trace)


def test_breaking_refused_when_unaffordable(doc_latest):
    ice = {"name": "Wall", "rezzed": True, "break_cost": 6, "subroutines": ["end_the_run"]}
    s = play(board(servers={"hq": {"ice": [ice]}}), doc_latest, params={"server": "hq"})
    # the encounter window has nothing the Runner can do: the subroutine resolves at once
    assert s.finished and s.outcome.run == "unsuccessful"
    ice["break_cost"] = 5
    s = play(board(servers={"hq": {"ice": [ice]}}), doc_latest, params={"server": "hq"})
    assert "break:0" in ids(s)


def test_jack_out(doc_latest):
    s = play(
        board(servers={"hq": {"ice": [{"name": "Gate", "rezzed": False, "rez_cost": 50}]}}),
        doc_latest,
        params={"server": "hq"},
        decisions=["jack_out"],
    )
    assert s.finished and s.outcome.run == "unsuccessful" and s.outcome.runs[0].ended_by == "jack_out"
    jo = events_at(s, "step_jack_out_choice")[0]
    assert "rule_jacking_out" in jo.rules
    steps = run_steps(s, doc_latest)
    assert steps[steps.index("step_jack_out_choice") + 1] == "step_open_priority_windows_closed"
    assert "step_run_declared_successful" not in steps


def test_movement_through_two_ice_then_success(doc_latest):
    ice = [
        {"name": "Outer", "rezzed": False, "rez_cost": 50},
        {"name": "Inner", "rezzed": False, "rez_cost": 50},
    ]
    s = play(
        board(servers={"hq": {"ice": ice}}),
        doc_latest,
        params={"server": "hq"},
        decisions=["continue", "continue"],
    )
    approached = [e.text for e in events_at(s, "step_approach_begins")]
    assert [("Outer" in t, "Inner" in t) for t in approached] == [(True, False), (False, True)]
    assert len(events_at(s, "step_approach_new_ice")) == 2
    assert "returned" not in events_at(s, "step_approach_new_ice")[1].text
    assert s.finished and s.outcome.run == "successful"


# ----- breaches (7.5) and accesses (7.2) ---------------------------------------------------------


def test_breach_remote_with_root_upgrade_order_trash_and_steal(doc_latest):
    up = {"name": "Manta Grid", "type": "upgrade", "rezzed": True, "trash_cost": 3}
    agenda = {
        "name": "Hostile Takeover",
        "type": "agenda",
        "agenda_points": 2,
        "advancement_requirement": 2,
        "advancements": 1,
    }
    b = board(runner={"credits": 4}, servers={"remote1": {"root": [up], "content": agenda}})
    s = play(b, doc_latest, params={"server": "remote1"}, decisions=["continue"])
    assert s.current_step == "step_choose_candidate"
    assert ids(s) == ["access:root.manta-grid", "access:content"]
    s, ev = engine.apply(s, "access:content")
    # stealing is mandatory: no decision, cites the access and steal rules
    steal = next(e for e in ev if e.step == "step_access_agenda")
    assert {"rule_after_mid_access_agenda", "rule_score_steal"} <= set(steal.rules)
    assert s.board["runner"]["score_area"][0]["name"] == "Hostile Takeover"
    assert "advancements" not in s.board["runner"]["score_area"][0]
    assert s.current_step == "step_mid_access_ability"  # now the upgrade, the only candidate left
    assert ids(s) == ["pay_trash", "no_trash"]
    s, ev = engine.apply(s, "pay_trash")
    assert s.board["runner"]["credits"] == 1
    assert s.outcome.trashed == ["Manta Grid"] and s.outcome.stolen == ["Hostile Takeover"]
    assert s.board["corp"]["discard"][-1]["name"] == "Manta Grid"
    assert "remote1" not in s.board["servers"]  # empty remote ceased to exist at the checkpoint
    assert s.finished and s.outcome.run == "successful"


@pytest.mark.parametrize("version", VERSIONS)
def test_emptied_remote_ceases_to_exist_in_every_version(version):
    """10.3.1h (a checkpoint step from 24.03, a checkpoint rule before): the emptied remote goes."""
    doc = load_doc(version)
    agenda = {"name": "Hostile Takeover", "type": "agenda", "agenda_points": 2, "advancement_requirement": 2}
    b = board(servers={"remote1": {"content": agenda}, "remote2": {"content": dict(agenda)}})
    s = play(b, doc, params={"server": "remote1"})
    while not s.finished:
        s, _ = engine.apply(s, engine.legal_decisions(s)[0]["id"])
    assert s.outcome.stolen == ["Hostile Takeover"] and s.outcome.winner is None
    assert "remote1" not in s.board["servers"] and "remote2" in s.board["servers"]
    gone = [e for e in s.trace if "servers" in e.changes]
    assert len(gone) == 1 and gone[0].changes["servers"] == [["remote1"], []]
    assert gone[0].step in structure_steps(doc, "checkpoint")
    assert doc.node(gone[0].step).number.startswith("10.3.1")
    assert engine.validate_board(s.board) == []


def test_trash_refused_when_unaffordable(doc_latest):
    b = board(
        runner={"credits": 1},
        servers={"remote1": {"content": {"name": "PAD Campaign", "type": "asset", "trash_cost": 4}}},
    )
    s = play(b, doc_latest, params={"server": "remote1"}, decisions=["continue"])
    assert s.current_step == "step_mid_access_ability" and ids(s) == ["no_trash"]
    with pytest.raises(engine.IllegalDecision) as ei:
        engine.apply(s, "pay_trash")
    assert "cannot pay the trash cost of PAD Campaign (4) with 1 credits" in str(ei.value)
    assert ei.value.legal == ["no_trash"]


def test_breach_hq_random_access_is_seeded_and_recorded(doc_latest):
    b = board(corp={"hand": ["A", "B", "C", "D", "E"]})
    picks = set()
    for seed in range(12):
        s = play(b, doc_latest, params={"server": "hq"}, decisions=["continue"], seed=seed)
        again = play(b, doc_latest, params={"server": "hq"}, decisions=["continue"], seed=seed)
        assert s.outcome.accessed == again.outcome.accessed
        assert len(s.outcome.accessed) == 1  # random access limit 1
        picks.add(s.outcome.accessed[0])
        assert any("rule_default_random_access_limit" in e.rules for e in s.trace)
    assert len(picks) >= 3  # the seed really chooses


def test_breach_rd_accesses_top_card_only(doc_latest):
    b = board(corp={"deck": ["Top", "Second", "Third"]})
    s = play(b, doc_latest, params={"server": "rd"}, decisions=["continue"])
    assert s.outcome.accessed == ["Top"]
    assert [c["name"] for c in s.board["corp"]["deck"]] == ["Top", "Second", "Third"]
    assert all("accessed" not in c for c in s.board["corp"]["deck"])


def test_breach_archives_flips_and_accesses_all(doc_latest):
    b = board(
        corp={"discard": [{"name": "Agenda X", "type": "agenda", "agenda_points": 1, "trash_cost": 1}, "Op"]}
    )
    s = play(b, doc_latest, params={"server": "archives"}, decisions=["continue"])
    flip = events_at(s, "step_flip_archives")[0]
    assert flip.changes == {"corp.discard.facedown": [2, 0]}
    assert ids(s) == ["access:archives.agenda-x", "access:archives.op"]
    s, _ = engine.apply(s, "access:archives.op")
    assert s.finished
    assert s.outcome.accessed == ["Op", "Agenda X"] and s.outcome.stolen == ["Agenda X"]
    # a card in Archives cannot be trashed (7.1.5b)
    assert any("rule_trash_in_archives" in e.rules for e in s.trace)


def test_steal_with_additional_cost_can_be_declined(doc_latest):
    agenda = {"name": "Costly", "type": "agenda", "agenda_points": 3, "steal_cost": 2}
    b = board(corp={"deck": [agenda]})
    s = play(b, doc_latest, params={"server": "rd"}, decisions=["continue"])
    assert ids(s) == ["steal", "decline_steal"]
    declined, _ = engine.apply(s, "decline_steal")
    assert declined.outcome.stolen == [] and declined.board["runner"]["credits"] == 5
    stolen, _ = engine.apply(s, "steal")
    assert stolen.outcome.stolen == ["Costly"] and stolen.board["runner"]["credits"] == 3
    poor = play(
        board(runner={"credits": 1}, corp={"deck": [agenda]}),
        doc_latest,
        params={"server": "rd"},
        decisions=["continue"],
    )
    assert ids(poor) == ["decline_steal"]


def test_access_structure_alone(doc_latest):
    b = board(
        servers={
            "remote1": {
                "content": {
                    "name": "Snare!",
                    "type": "asset",
                    "on_access": [{"effect": "net_damage", "amount": 1}],
                }
            }
        }
    )
    s = play(b, doc_latest, structure="access", params={"server": "remote1"})
    assert s.finished
    assert [e.step for e in s.trace if e.step in structure_steps(doc_latest, "access")] == structure_steps(
        doc_latest, "access"
    )
    assert len(s.board["runner"]["hand"]) == 4
    assert any(e.step == "step_conditional_ability_resolution" for e in s.trace)


# ----- bad publicity, traces, damage, winning ----------------------------------------------------


def test_bad_publicity_fund_pays_first_and_rest_returns(documents):
    for version in ("24.03", "26.03"):
        doc = documents[version]
        ice = {"name": "Wall", "rezzed": True, "break_cost": 1, "subroutines": ["end_the_run"]}
        s = play(
            board(corp={"bad_publicity": 3}, runner={"credits": 2}, servers={"hq": {"ice": [ice]}}),
            doc,
            params={"server": "hq"},
            decisions=["break:0"],
        )
        bp = events_at(s, "step_initiation_bad_publicity")[0]
        assert bp.changes == {"runner.bad_publicity_fund": [0, 3]}
        assert s.board["runner"]["credits"] == 2 and s.board["runner"]["bad_publicity_fund"] == 2
        s, _ = engine.apply(s, "continue")
        assert s.board["runner"]["bad_publicity_fund"] == 0 and s.board["runner"]["credits"] == 2
        cited = set(events_at(s, "step_initiation_bad_publicity")[0].rules)
        if version == "26.03":
            assert {"rule_bad_publicity_fund", "rule_bad_publicity_beginning_run"} <= cited
        else:  # 24.03 had no bad publicity fund rule: it is not cited there
            assert "rule_bad_publicity_fund" not in cited and "rule_bad_publicity_beginning_run" in cited
        assert all(doc.node(r) is not None for e in s.trace for r in e.rules)


def test_trace_success_and_failure(doc_latest):
    params = {
        "strength": 2,
        "on_success": [{"effect": "give_tags", "amount": 2}],
        "on_failure": [{"effect": "gain_credits", "amount": 1}],
    }
    b = board(corp={"credits": 3}, runner={"credits": 3, "link": 1})
    s = play(b, doc_latest, structure="trace", params=params)
    assert s.current_step == "step_trace_corp_spend_credits" and ids(s) == [
        "spend:0",
        "spend:1",
        "spend:2",
        "spend:3",
    ]
    s1, _ = engine.apply(s, "spend:1")
    assert s1.current_step == "step_trace_runner_spend_credits" and len(ids(s1)) == 4
    win_corp, _ = engine.apply(s1, "spend:1")  # 3 vs 2: successful
    assert win_corp.board["runner"]["tags"] == 2 and win_corp.board["corp"]["credits"] == 2
    tie, _ = engine.apply(s1, "spend:2")  # 3 vs 3: unsuccessful (10.8.4)
    assert tie.board["runner"]["tags"] == 0 and tie.board["corp"]["credits"] == 3
    assert any("rule_compare_trace_and_link_strength" in e.rules for e in tie.trace)


def test_net_damage_and_flatline(doc_latest):
    katana = {"name": "Katana", "rezzed": True, "subroutines": [{"effect": "net_damage", "amount": 2}]}
    s = play(
        board(runner={"hand": 3}, servers={"hq": {"ice": [katana]}}),
        doc_latest,
        params={"server": "hq"},
        decisions=["pass"],
    )
    assert len(s.board["runner"]["hand"]) == 1 and len(s.board["runner"]["discard"]) == 2
    assert s.outcome.winner is None
    s = play(
        board(runner={"hand": 1}, servers={"hq": {"ice": [katana]}}),
        doc_latest,
        params={"server": "hq"},
        decisions=["pass"],
    )
    assert s.finished and s.outcome.winner == "corp"
    last = s.trace[-1]
    assert "rule_flatline" in last.rules and "rule_game_end" in last.rules
    assert s.current_step is None and engine.legal_decisions(s) == []


def test_core_damage_lowers_hand_size(doc_latest):
    s = play(
        board(),
        doc_latest,
        structure="subroutine",
        params={"subroutine": {"effect": "core_damage", "amount": 2}},
    )
    assert s.board["runner"]["core_damage"] == 2 and len(s.board["runner"]["hand"]) == 3
    assert s.outcome.runner.core_damage == 2


def test_seven_points_wins_at_checkpoint(documents):
    for version in VERSIONS:
        doc = documents[version]
        b = board(
            runner={"score_area": [{"name": "Old", "type": "agenda", "agenda_points": 5}]},
            servers={
                "remote1": {"content": {"name": "Hostile Takeover", "type": "agenda", "agenda_points": 2}}
            },
        )
        s = play(b, doc, params={"server": "remote1"}, decisions=["continue"])
        assert s.finished and s.outcome.winner == "runner", version
        last = s.trace[-1]
        checkpoint_step = (
            "step_checkpoint_agenda_points"
            if doc.node("step_checkpoint_agenda_points")
            else "rule_checkpoint_agenda_points"
        )
        assert last.step == checkpoint_step
        assert "rule_win_agenda_points" in last.rules


def test_corp_cannot_draw_from_empty_rd(doc_latest):
    s = play(board(turn="corp", corp={"deck": 0}), doc_latest, structure="corp_turn")
    assert s.finished and s.outcome.winner == "runner"
    assert "rule_empty_rnd" in s.trace[-1].rules and s.trace[-1].step == "step_draw_set_aside"


# ----- turns -------------------------------------------------------------------------------------


def test_corp_turn_walks_5_6(doc_latest):
    sc = next(x for x in SCENARIOS if x.name == "corp_turn")
    s = run_scenario(sc, doc_latest)
    walked = {e.step for e in s.trace}
    assert set(structure_steps(doc_latest, "corp_turn")) <= walked
    assert s.outcome.scored == ["Hostile Takeover"]
    assert s.board["turn"] == "runner" and s.board["corp"]["clicks"] == 0
    assert len(s.board["corp"]["hand"]) == 5
    assert s.board["corp"]["credits"] == 6 - 1 - 5 + 9 + 1


def test_runner_turn_actions_and_discard(doc_latest):
    b = board(runner={"clicks": 0, "credits": 3, "tags": 1, "hand": 6, "deck": ["New"]})
    s = play(b, doc_latest, structure="runner_turn")
    assert s.current_step == "step_runner_turn_action"
    legal = ids(s)
    assert {"credit", "draw", "run:hq", "run:rd", "run:archives", "remove_tag"} <= set(legal)
    s, _ = engine.apply(s, "remove_tag")
    assert (
        s.board["runner"]["tags"] == 0
        and s.board["runner"]["credits"] == 1
        and s.board["runner"]["clicks"] == 3
    )
    assert "remove_tag" not in ids(s)
    s, _ = engine.apply(s, "draw")
    assert "draw" not in ids(s)  # the stack is empty now
    s, _ = engine.apply(s, "credit")
    s, _ = engine.apply(s, "credit")
    assert s.current_step == "step_runner_turn_discard"
    assert len(ids(s)) == 7 and all(i.startswith("discard:") for i in ids(s))
    s, _ = engine.apply(s, "discard:0")
    s, _ = engine.apply(s, "discard:0")
    assert s.finished and len(s.board["runner"]["hand"]) == 5 and s.board["turn"] == "corp"


def test_runner_turn_run_is_an_action_with_paid_ability_steps(doc_latest):
    s = play(board(runner={"clicks": 0}), doc_latest, structure="runner_turn", decisions=["run:archives"])
    assert s.board["runner"]["clicks"] == 3
    assert s.current_step == "step_jack_out_choice"
    s, _ = engine.apply(s, "continue")
    assert s.outcome.run == "successful"
    assert s.current_step == "step_runner_turn_action"


# ----- versions ----------------------------------------------------------------------------------


def test_2403_and_2603_differ_in_initiation(documents):
    old, new = documents["24.03"], documents["26.03"]
    b = board(
        corp={"credits": 9}, servers={"remote1": {"content": {"name": "PAD", "type": "asset", "rez_cost": 2}}}
    )
    s_old = play(b, old, params={"server": "remote1"})
    s_new = play(b, new, params={"server": "remote1"})
    # 26.03 opens a paid ability window in the Initiation Phase (6.9.1e) where the Corp may rez
    assert s_new.current_step == "step_initiation_paw" and "rez:remote1.content" in ids(s_new)
    # 24.03 has no such window: the first chance comes after the jack-out decision (6.9.4e)
    assert s_old.current_step == "step_jack_out_choice"
    for s, doc in ((s_old, old), (s_new, new)):
        walked = {e.step for e in s.trace}
        assert all(doc.node(x) is not None for x in walked)
    assert "step_runner_position" not in {e.step for e in s_old.trace}
    assert "step_runner_position" in {e.step for e in s_new.trace}
    # numbers shown to users come from the loaded document
    e_old = engine.describe_event(events_at(s_old, "step_initiation_complete")[0], old)
    s_new, _ = engine.apply(s_new, "pass")
    e_new = engine.describe_event(events_at(s_new, "step_initiation_complete")[0], new)
    assert (e_old["step_number"], e_new["step_number"]) == ("6.9.1d", "6.9.1f")


def test_2403_corp_turn_has_no_action_phase_end_step(documents):
    old, new = documents["24.03"], documents["26.03"]
    b = board(turn="corp", corp={"clicks": 0, "allotted_clicks": 1})
    s_old = play(b, old, structure="corp_turn", decisions=["credit"])
    s_new = play(b, new, structure="corp_turn", decisions=["credit"])
    assert "step_corp_turn_action_phase_end" not in {e.step for e in s_old.trace}
    assert "step_corp_turn_action_phase_end" in {e.step for e in s_new.trace}
    assert s_old.finished and s_new.finished and s_old.board == s_new.board


@pytest.mark.parametrize("version", VERSIONS)
def test_every_scenario_runs_and_cites_only_present_ids(version):
    doc = load_doc(version)
    for sc in SCENARIOS:
        s = run_scenario(sc, doc)
        assert s.finished, sc.name
        for e in s.trace:
            assert doc.node(e.step) is not None, (sc.name, e.step)
            assert all(doc.node(r) is not None for r in e.rules), (sc.name, e.rules)
            assert e.text and "\n" not in e.text
