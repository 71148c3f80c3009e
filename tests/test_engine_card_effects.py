"""The engine runs the effects real cards' text translates to (engine.cardtext; docs/board-format.md
"Effect vocabulary"): every ice and icebreaker here is a REAL card from the NetrunnerDB snapshot,
put on the board by `engine.cardtext.board_card`, and stepped through the CR's timing structures."""

from __future__ import annotations

import pytest
from helpers import load_doc

import engine
from engine.board import EFFECTS
from engine.effects import RESOLVERS


@pytest.fixture(params=["24.03", "26.03"])
def doc(request):
    return load_doc(request.param)


def board(
    ice: list[dict], programs: list[dict] = (), credits: int = 10, corp: dict | None = None, **runner
) -> dict:
    return {
        "version": 1,
        "corp": {"credits": 5, "hand": 3, "deck": 10, **(corp or {})},
        "runner": {"credits": credits, "clicks": 3, "hand": 5, "rig": {"programs": list(programs)}, **runner},
        "servers": {"hq": {"ice": ice}},
    }


def ids(s) -> list[str]:
    return [d["id"] for d in engine.legal_decisions(s)]


def to(s, *wanted: str):
    """Pass priority / continue until one of `wanted` (ids or id prefixes ending in ':') is legal."""
    for _ in range(40):
        legal = ids(s)
        if any(w in legal or (w.endswith(":") and any(x.startswith(w) for x in legal)) for w in wanted):
            return s
        assert not s.finished, f"finished before {wanted}"
        # a paragraph the engine does not model is asked of the judge where it applies
        # (`resolved`): resolved as written here
        step = next((x for x in ("pass", "continue", "resolved") if x in legal), "continue")
        s, _ = engine.apply(s, step)
    raise AssertionError(f"{wanted} never offered")


def finish(s):
    """Pass priority / do not jack out until the session is finished."""
    for _ in range(40):
        if s.finished:
            return s
        legal = ids(s)
        s, _ = engine.apply(s, "pass" if "pass" in legal else "continue")
    raise AssertionError("did not finish")


def test_every_accepted_effect_has_a_resolver():
    assert set(EFFECTS) == set(RESOLVERS)


def test_ballista_trash_a_program_or_end_the_run(doc, card):
    """Ballista: "Trash 1 installed program or end the run." The Corp chooses (NSG ruling), then
    chooses which of two programs to trash."""
    b = board([card("ballista")], [card("corroder"), card("gordian_blade")])
    s = to(engine.start(b, "run", doc, {"server": "hq"}), "option:0")
    assert ids(s) == ["option:0", "option:1"]
    assert {d["player"] for d in engine.legal_decisions(s)} == {"corp"}
    ended, _ = engine.apply(s, "option:1")
    assert ended.outcome.runs[0].ended_by == "end_the_run"
    s, ev = engine.apply(s, "option:0")
    chose = [i for i, e in enumerate(ev) if "rule_choice_instruction" in e.rules]
    assert chose and ev[chose[0]].objects == {"option": 0, "server": "hq", "ice": 0, "subroutine": 0}
    # the choice ends an instruction: a checkpoint, then the chosen option is imminent (9.11.4g)
    after = [e.rules for e in ev[chose[0] :]]
    assert any("rule_checkpoint_after_instruction_resolution" in r for r in after)
    assert ids(s) == ["trash:corroder", "trash:gordian-blade"]
    s, ev = engine.apply(s, "trash:gordian-blade")
    trashed = next(e for e in ev if e.objects.get("programs") is not None or e.objects.get("cards"))
    assert {k: trashed.objects[k] for k in ("server", "ice", "subroutine")} == {
        "server": "hq",
        "ice": 0,
        "subroutine": 0,
    }
    assert [c["name"] for c in s.board["runner"]["rig"]["programs"]] == ["Corroder"]
    assert s.board["runner"]["discard"][-1]["name"] == "Gordian Blade"


def test_hammer_trashes_by_card_type_and_spares_icebreakers(doc, card):
    """Hammer: "Trash 1 installed resource or piece of hardware." (the Corp picks among both)
    and "Trash 1 installed program that is not a decoder, fracter, or killer." (Corroder, a
    fracter, cannot be chosen: the only other program goes without a choice)."""
    rig = {
        "programs": [card("corroder"), card("datasucker")],
        "hardware": [card("prepaid_voicepad")],
        "resources": [card("daily_casts")],
    }
    b = board([card("hammer")])
    b["runner"]["rig"] = rig
    s = to(engine.start(b, "run", doc, {"server": "hq"}), "trash:")
    assert s.board["runner"]["tags"] == 1  # subroutine 1
    assert sorted(ids(s)) == ["trash:hardware.prepaid-voicepad", "trash:resources.daily-casts"]
    s, ev = engine.apply(s, "trash:resources.daily-casts")
    names = [c["name"] for c in s.board["runner"]["discard"]]
    assert "Daily Casts" in names and s.board["runner"]["rig"]["hardware"]
    third = [e for e in ev if e.objects.get("cards") == ["Datasucker"]]
    assert third and "rule_lack_of_subtype" in third[0].rules
    assert [c["name"] for c in s.board["runner"]["rig"]["programs"]] == ["Corroder"]


def test_anvil_the_runner_chooses_what_to_trash(doc, card):
    b = board([card("anvil")], [card("corroder"), card("gordian_blade")])
    # Anvil's "When the Runner encounters this ice, you may trash 1 of your other installed
    # cards..." is not modeled: it surfaces at the encounter as a by-hand decision (never silent)
    s = to(engine.start(b, "run", doc, {"server": "hq"}), "resolved")
    by_hand = [d for d in engine.legal_decisions(s) if d["id"] == "resolved"]
    assert by_hand and "you may trash 1 of your other installed cards" in by_hand[0]["label"]
    s, _ = engine.apply(s, "resolved")
    s = to(s, "trash:")
    assert {d["player"] for d in engine.legal_decisions(s)} == {"runner"}
    assert ids(s) == ["trash:programs.corroder", "trash:programs.gordian-blade"]
    s, _ = engine.apply(s, "trash:programs.0")  # the positional id of older sessions still works
    assert [c["name"] for c in s.board["runner"]["rig"]["programs"]] == ["Gordian Blade"]
    assert s.decisions[-1] == "trash:programs.corroder"  # recorded under the card-named id


def test_congratulations_the_runner_gains_credits(doc, card):
    s = to(
        engine.start(board([card("congratulations")], credits=4), "run", doc, {"server": "hq"}), "continue"
    )
    # 5 + 2 (the subroutine) + 1 ("When the Runner passes this ice, gain 1[credit]", a `passed`
    # trigger on the ice, 6.9.4a); the Runner 4 + 1
    assert s.board["corp"]["credits"] == 8 and s.board["runner"]["credits"] == 5
    assert any(e.step == "step_pass_ice" or "passed" in e.text for e in s.trace if e.applied)


@pytest.mark.parametrize("tags,applied", [(0, False), (1, True)])
def test_doomscroll_if_the_runner_has_at_least_2_tags(doc, card, tags, applied):
    """Doomscroll gives a tag first, so a Runner with 1 tag has 2 when the third subroutine
    ("Do 2 net damage if the Runner has at least 2 tags.") resolves."""
    s = engine.start(board([card("doomscroll")], tags=tags), "run", doc, {"server": "hq"})
    s = to(s, "continue")
    cond = [e for e in s.trace if e.objects.get("min_tags") == 2]
    assert len(cond) == 1 and cond[0].applied is applied
    assert len(s.board["runner"]["hand"]) == 5 - 1 - (2 if applied else 0)


def test_pulse_end_the_run_unless_the_runner_spends_a_click(doc, card):
    b = board([card("pulse")])
    # the first subroutine: 1 credit for each rezzed harmonic ice, Pulse itself (9.12.2b)
    s = to(engine.start(b, "run", doc, {"server": "hq"}), "pay")
    assert s.board["runner"]["credits"] == 9
    assert ids(s) == ["pay", "dont_pay"]
    assert "[click]" in engine.legal_decisions(s)[0]["label"]
    paid, ev = engine.apply(s, "pay")
    assert paid.board["runner"]["clicks"] == 2 and paid.board["runner"]["credits"] == 9
    assert any(e.objects.get("clicks") == 1 and e.objects.get("paid") for e in ev)
    assert paid.current_step == "step_jack_out_choice"
    tired = finish(engine.start(board([card("pulse")], clicks=0), "run", doc, {"server": "hq"}))
    assert tired.finished and tired.outcome.runs[0].ended_by == "end_the_run"


def test_pressure_spike_once_per_run_and_threat(doc, card):
    """Pressure Spike: "Threat 4 → 2[credit]: +9 strength. Use this ability only once per run."
    Used on the first Ice Wall; on the second, it is refused with the reason."""
    spike = card("pressure_spike")
    assert spike["abilities"][2] == {
        "kind": "strength",
        "cost": 2,
        "amount": 9,
        "once_per": "run",
        "threat": 4,
    }
    walls = [card("ice_wall"), card("ice_wall")]
    agenda = {"name": "Agenda", "type": "agenda", "agenda_points": 4}
    b = board(walls, [spike], credits=20, corp={"score_area": [agenda]})
    s = to(engine.start(b, "run", doc, {"server": "hq"}), "use:pressure-spike.2")
    s, ev = engine.apply(s, "use:pressure-spike.2")
    assert any(e.changes.get("runner.rig.programs[0].strength") == [1, 10] for e in ev)
    s, _ = engine.apply(s, "use:pressure-spike.0")  # break Ice Wall's subroutine
    s = to(s, "continue")
    s, _ = engine.apply(s, "continue")  # do not jack out: on to the second Ice Wall
    s = to(s, "use:pressure-spike.0")
    assert "use:pressure-spike.2" not in ids(s)
    refused = {r.id: r for r in engine.refused_decisions(s)}
    assert "once per run" in refused["use:pressure-spike.2"].reason
    assert refused["use:pressure-spike.2"].rule == "rule_card_precedence"
    # at threat level 3 the ability is not active at all (9.3.6f)
    low = board(
        walls,
        [spike],
        credits=20,
        corp={"score_area": [{"name": "Agenda", "type": "agenda", "agenda_points": 3}]},
    )
    low_s = to(engine.start(low, "run", doc, {"server": "hq"}), "use:pressure-spike.0")
    assert "use:pressure-spike.2" not in ids(low_s)
    assert "threat level" in {r.id: r for r in engine.refused_decisions(low_s)}["use:pressure-spike.2"].reason


def test_euler_offers_its_condition_for_confirmation(doc, card):
    euler = card("euler")
    b = board([card("enigma")], [euler])
    s = to(engine.start(b, "run", doc, {"server": "hq"}), "use:euler.0")
    label = {d["id"]: d["label"] for d in engine.legal_decisions(s)}["use:euler.0"]
    assert "only if this program was installed this turn" in label
    s, _ = engine.apply(s, "use:euler.0")
    assert ids(s) == ["sub:0", "sub:1"]  # Enigma has two subroutines: the Runner picks the target
    s, ev = engine.apply(s, "sub:0")
    confirm = [e for e in ev if e.objects.get("only_if")]
    assert confirm and "installed this turn" in confirm[0].objects["only_if"]
    assert any(e.objects.get("subroutines") == [0] for e in ev)


def test_envelopment_trashes_itself_and_the_run_goes_on(doc, card):
    """8.5.10: the encounter ends, the Runner passes the position the ice occupied, and the run
    continues to the next ice inward (Ice Wall), which is now at that index."""
    b = board([card("envelopment"), card("ice_wall")])
    s = to(engine.start(b, "run", doc, {"server": "hq"}), "continue")
    trashed = [e for e in s.trace if "rule_uninstall_ice_during_run" in e.rules]
    assert trashed[0].objects == {"server": "hq", "ice": 0, "card": "Envelopment"}
    assert [c["name"] for c in s.board["servers"]["hq"]["ice"]] == ["Ice Wall"]
    assert s.board["corp"]["discard"][-1] == {
        **s.board["corp"]["discard"][-1],
        "name": "Envelopment",
        "faceup": True,
    }
    assert any("passes the position" in e.text for e in s.trace)
    s = finish(s)  # Ice Wall is approached and encountered; it ends the run
    assert any(e.text.startswith("The Runner encounters Ice Wall") for e in s.trace)
    assert s.finished and s.outcome.runs[0].ended_by == "end_the_run"


def test_trashed_ice_resolves_no_more_subroutines(doc):
    """No real card prints a subroutine after "Trash this ice." (Envelopment gains its ETRs
    before it), so this ice is written in the vocabulary: its second subroutine must not resolve."""
    ice = {
        "name": "Self-Destructing Wall",
        "rezzed": True,
        "rez_cost": 1,
        "subroutines": ["trash_this_ice", "end_the_run"],
    }
    s = to(engine.start(board([ice]), "run", doc, {"server": "hq"}), "continue")
    assert s.board["servers"]["hq"]["ice"] == []
    s, _ = engine.apply(s, "continue")
    assert s.outcome.run == "successful"
    assert not any(e.text.startswith("The run ends") for e in s.trace)


def test_karuna_the_runner_may_jack_out(doc, card):
    s = to(engine.start(board([card("karuna")]), "run", doc, {"server": "hq"}), "jack_out")
    assert len(s.board["runner"]["hand"]) == 3
    out, _ = engine.apply(s, "jack_out")
    assert out.finished and out.outcome.to_dict()["runs"][0] == {
        "server": "hq",
        "result": "unsuccessful",
        "ended_by": "jack_out",
    }
    stay, _ = engine.apply(s, "continue")
    assert len(stay.board["runner"]["hand"]) == 1  # the second subroutine resolves


def test_vampyronassa_the_corp_may_draw_1_or_2(doc, card):
    s = to(engine.start(board([card("vampyronassa")]), "run", doc, {"server": "hq"}), "draw:")
    assert ids(s) == ["draw:2", "draw:1", "draw:0"]
    s, ev = engine.apply(s, "draw:2")
    assert len(s.board["corp"]["hand"]) == 5 and len(s.board["corp"]["deck"]) == 8
    assert any(e.step == "step_draw_set_aside" for e in ev)
    after = [i for i, e in enumerate(ev) if e.step == "step_draw_add_to_hand"][0]
    assert any("rule_checkpoint_after_instruction_resolution" in e.rules for e in ev[after:])


def test_f2p_adds_an_installed_card_to_the_grip(doc, card):
    s = to(
        engine.start(
            board([card("f2p")], [card("corroder"), card("gordian_blade")]), "run", doc, {"server": "hq"}
        ),
        "grip:",
    )
    assert ids(s) == ["grip:programs.corroder", "grip:programs.gordian-blade"]
    s, _ = engine.apply(s, "grip:programs.gordian-blade")
    assert s.board["runner"]["hand"][-1]["name"] == "Gordian Blade" and len(s.board["runner"]["hand"]) == 6


def test_lycian_multi_munition_checks_this_ice_subtype(doc, card):
    """Lycian Multi-Munition gains a subtype when rezzed; here it is a sentry: only the sentry
    subroutine (trash 1 installed program) resolves."""
    lmm = card("lycian_multi_munition")
    lmm["subtypes"] = [*lmm["subtypes"], "sentry"]
    s = to(engine.start(board([lmm], [card("corroder")]), "run", doc, {"server": "hq"}), "continue")
    conds = [e for e in s.trace if "subtype" in e.objects]
    assert [e.applied for e in conds] == [False, True, False]
    assert conds[1].objects["server"] == "hq" and conds[1].objects["ice"] == 0
    assert s.board["runner"]["rig"]["programs"] == [] and s.board["runner"]["clicks"] == 3


@pytest.mark.parametrize("points,applied", [(1, False), (2, True)])
def test_n_pot_threat_level(doc, card, points, applied):
    sub = card("n_pot")["subroutines"][1]
    agenda = {"name": "Agenda", "type": "agenda", "agenda_points": points}
    b = board([])
    b["runner"]["score_area"] = [agenda]
    s = engine.start(b, "subroutine", doc, {"subroutine": sub})
    cond = [e for e in s.trace if "threat_level" in e.objects]
    assert cond[0].applied is applied and cond[0].objects["threat_level"] == points


@pytest.mark.parametrize("credits,ended", [(9, True), (10, False)])
def test_whitespace_if_the_runner_has_6_or_less(doc, card, credits, ended):
    s = engine.start(board([card("whitespace")], credits=credits), "run", doc, {"server": "hq"})
    s = finish(s)
    assert s.outcome.runs[0].ended_by == ("end_the_run" if ended else None)
    assert s.board["runner"]["credits"] == credits - 3


def test_boto_may_trash_a_card_from_hq_to_end_the_run(doc, card):
    s = to(engine.start(board([card("boto")]), "run", doc, {"server": "hq"}), "dont_trash")
    assert ids(s) == ["hq:hq-card-1", "hq:hq-card-2", "hq:hq-card-3", "dont_trash"]
    kept, _ = engine.apply(s, "dont_trash")
    assert (
        ids(kept)[-1] == "dont_trash" and len(kept.board["corp"]["discard"]) == 0
    )  # the third subroutine asks again
    s, ev = engine.apply(s, "hq:1")
    assert s.finished and s.outcome.runs[0].ended_by == "end_the_run"
    assert len(s.board["corp"]["hand"]) == 2 and s.board["corp"]["discard"][-1]["faceup"] is False


def test_winchester_trace_trashes_hardware(doc, card):
    """Winchester: "Trace[3]. If successful, trash 1 installed piece of hardware." With link 0
    and nobody spending on the traces, both succeed: the program and then the hardware go."""
    b = board([card("winchester")], [card("corroder")])
    b["runner"]["rig"]["hardware"] = [card("prepaid_voicepad")]
    s = engine.start(b, "run", doc, {"server": "hq"})
    for _ in range(30):
        if s.finished or s.current_step == "step_jack_out_choice":
            break
        legal = ids(s)
        s, _ = engine.apply(s, "pass" if "pass" in legal else legal[0])
    assert s.board["runner"]["rig"]["hardware"] == [] and s.board["runner"]["rig"]["programs"] == []
    assert [c["name"] for c in s.board["runner"]["discard"][-2:]] == ["Corroder", "Prepaid VoicePAD"]
    hardware = next(e for e in s.trace if e.objects.get("cards") == ["Prepaid VoicePAD"])
    assert (hardware.objects["ice"], hardware.objects["subroutine"]) == (0, 1)  # through the trace


def test_diesel_the_runner_plays_an_event_that_draws(doc, card):
    """Diesel ("Draw 3 cards."): a real Runner event played from the grip draws through the
    drawing procedure (8.4), then goes to the heap."""
    diesel = card("diesel")
    assert diesel["effects"] == [{"effect": "draw_cards", "amount": 3}]
    b = board([], credits=5)
    b["runner"].update(hand=[diesel], deck=5, clicks=0)
    b["turn"] = "runner"
    s = to(engine.start(b, "runner_turn", doc), "play:")
    s, ev = engine.apply(s, next(x for x in ids(s) if x.startswith("play:")))
    assert len(s.board["runner"]["hand"]) == 3 and len(s.board["runner"]["deck"]) == 2
    assert s.board["runner"]["discard"][-1]["name"] == "Diesel"
    assert any(e.step == "step_draw_set_aside" for e in ev)
