"""A trace's base strength changed in its windows (9.9.6d, 10.8): constant `trace_bonus` of an
active Corp card as the trace initiates (10.8.6a), `trace` interrupt abilities in the imminent
trace's interrupt window (9.9.4, 9.9.4d), "when a trace is initiated" triggers (10.8.6a)."""

from __future__ import annotations

import json

import jsonschema
import pytest
from helpers import ROOT, decision_ids, engine_board, load_doc

import engine

SCHEMA = json.loads((ROOT / "engine" / "board.schema.json").read_text())
RAVEN = {
    "name": "Data Raven",
    "rezzed": True,
    "subroutines": [{"effect": "trace", "strength": 3, "on_success": [{"effect": "give_tags", "amount": 1}]}],
}
GRID = {
    "name": "Rutherford Grid",
    "type": "upgrade",
    "rezzed": True,
    "trace_bonus": {"amount": 2, "only": "run_on_server"},
}
BOOTH = {
    "name": "Tracer Booth",
    "type": "asset",
    "rezzed": True,
    "abilities": [{"kind": "trace", "cost": 1, "amount": 2}],
}
DISRUPTER = {"name": "Disrupter", "abilities": [{"kind": "trace", "set": 0, "trash": True}]}


@pytest.fixture(params=["22.12", "24.03", "26.03"])
def doc(request):
    return load_doc(request.param)


def walk(s, *wanted: str):
    """Take the first of `wanted` offered at each decision (else `spend:0`, `pass`, `continue`,
    `no_trash`, the first offered) until the run is over; the events."""
    events = list(s.trace)
    for _ in range(200):
        if s.finished:
            return s, events
        ids = decision_ids(s)
        pick = next((w for w in (*wanted, "spend:0", "pass", "continue", "no_trash") if w in ids), ids[0])
        s, ev = engine.apply(s, pick)
        events += ev
    raise AssertionError("did not finish")


def initiated(events):
    return next(e for e in events if e.step == "step_trace_initiated")


def result(events):
    return next(e for e in events if e.step == "step_trace_determine_success")


def test_a_constant_bonus_raises_the_base_during_a_run_on_its_server(doc):
    b = engine_board(runner={"link": 4}, servers={"hq": {"ice": [RAVEN], "root": [GRID]}})
    s, ev = walk(engine.start(b, "run", doc, {"server": "hq"}))
    init = initiated(ev)
    assert init.objects["printed"] == 3 and init.objects["base"] == 5
    assert init.objects["cards"] == ["Rutherford Grid"] and "Rutherford Grid" in init.text
    assert "rule_modifiable_value_base_trace_strength" in init.rules
    # 5 against link 4 (nobody spends): the boosted base strength decides the result (10.8.4)
    assert "successful" in result(ev).text and "unsuccessful" not in result(ev).text
    assert s.board["runner"]["tags"] == 1
    assert all(doc.node(r) is not None for e in ev for r in e.rules)


def test_the_bonus_does_not_apply_elsewhere_or_unrezzed(doc):
    away = engine_board(runner={"link": 4}, servers={"hq": {"ice": [RAVEN]}, "remote1": {"root": [GRID]}})
    s, ev = walk(engine.start(away, "run", doc, {"server": "hq"}))
    assert initiated(ev).objects == {"printed": 3, "base": 3}
    assert "unsuccessful" in result(ev).text and s.board["runner"]["tags"] == 0
    off = engine_board(
        runner={"link": 4}, servers={"hq": {"ice": [RAVEN], "root": [{**GRID, "rezzed": False}]}}
    )
    _, ev = walk(engine.start(off, "run", doc, {"server": "hq"}))
    assert initiated(ev).objects["base"] == 3


def test_a_scored_agenda_raises_subroutine_traces_only(doc):
    tracers = {
        "name": "Improved Tracers",
        "type": "agenda",
        "agenda_points": 1,
        "trace_bonus": {"amount": 1, "only": "subroutine"},
    }
    b = engine_board(corp={"score_area": [tracers]}, servers={"hq": {"ice": [RAVEN]}})
    _, ev = walk(engine.start(b, "run", doc, {"server": "hq"}))
    assert initiated(ev).objects["base"] == 4 and initiated(ev).objects["cards"] == ["Improved Tracers"]
    # a trace that no subroutine initiated (the trace structure itself) is not raised
    s = engine.start(b, "trace", doc, {"strength": 2})
    _, ev = walk(s)
    assert initiated(ev).objects == {"printed": 2, "base": 2}


def test_a_corp_trace_interrupt_is_offered_while_the_trace_is_imminent(doc):
    b = engine_board(
        corp={"credits": 1},
        runner={"link": 4},
        servers={"hq": {"ice": [RAVEN]}, "remote1": {"content": BOOTH}},
    )
    s = engine.start(b, "run", doc, {"server": "hq"})
    offered_at = []
    for _ in range(60):
        ids = decision_ids(s)
        if "interrupt:remote1.content.0" in ids:
            offered_at.append(s.current_step)
            assert {d["player"] for d in engine.legal_decisions(s) if d["id"].startswith("interrupt:")} == {
                "corp"
            }
            s, ev = engine.apply(s, "interrupt:remote1.content.0")
            use = next(e for e in ev if e.objects.get("card") == "Tracer Booth")
            assert use.objects["was"] == 3 and use.objects["base"] == 5 and use.objects["player"] == "corp"
            assert "rule_trigger_paid_ability_interrupt" in use.rules
            assert s.board["corp"]["credits"] == 0
            continue
        if s.current_step == "step_jack_out_choice":
            break
        s, _ = engine.apply(s, next(w for w in ("spend:0", "pass", "continue") if w in ids))
    # offered once: in the interrupt window of the imminent trace (9.8.10d), not in the encounter's
    # paid ability window; then the Corp had no credit left
    assert offered_at == ["step_subroutine_interrupt_subroutine_effect"]
    init = next(e for e in s.trace if e.step == "step_trace_initiated")
    assert init.objects["base"] == 5 and init.objects["cards"] == ["Tracer Booth"]
    assert s.board["runner"]["tags"] == 1


def test_a_trace_interrupt_is_not_offered_for_other_instructions(doc):
    wall = {"name": "Wall", "rezzed": True, "subroutines": [{"effect": "give_tags", "amount": 1}]}
    b = engine_board(corp={"credits": 9}, servers={"hq": {"ice": [wall]}, "remote1": {"content": BOOTH}})
    s = engine.start(b, "run", doc, {"server": "hq"})
    seen = set()
    for _ in range(60):
        if s.finished or s.current_step == "step_jack_out_choice":
            break
        ids = decision_ids(s)
        seen.update(ids)
        s, _ = engine.apply(s, next(w for w in ("pass", "continue") if w in ids))
    assert not any(i.startswith("interrupt:") for i in seen)
    assert s.board["runner"]["tags"] == 1  # the subroutine did resolve


def test_the_runner_resets_the_base_to_zero_and_trashes_the_card(doc):
    b = engine_board(
        runner={"rig": {"programs": [DISRUPTER]}},
        servers={"hq": {"ice": [RAVEN], "root": [GRID]}},
    )
    s, ev = walk(engine.start(b, "run", doc, {"server": "hq"}), "interrupt:programs.disrupter.0")
    use = next(e for e in ev if e.objects.get("card") == "Disrupter")
    assert use.objects["player"] == "runner" and use.objects["was"] == 5 and use.objects["base"] == 2
    assert "rule_trashing" in use.rules
    assert (
        s.board["runner"]["rig"]["programs"] == [] and s.board["runner"]["discard"][-1]["name"] == "Disrupter"
    )
    # the trace re-initiates at 0 (ruling on Disrupter); the grid's constant +2 still applies
    init = initiated(ev)
    assert init.objects["base"] == 2 and init.objects["cards"] == ["Disrupter", "Rutherford Grid"]


def test_setting_to_zero_is_not_offered_when_it_changes_nothing(doc):
    zero = {**RAVEN, "subroutines": [{"effect": "trace", "strength": 0, "on_success": ["end_the_run"]}]}
    b = engine_board(runner={"rig": {"programs": [DISRUPTER]}}, servers={"hq": {"ice": [zero]}})
    s, ev = walk(engine.start(b, "run", doc, {"server": "hq"}))
    assert s.board["runner"]["rig"]["programs"][0]["name"] == "Disrupter"  # never used
    assert initiated(ev).objects["base"] == 0


def test_when_a_trace_is_initiated_triggers_resolve_in_its_reaction_window(doc):
    tap = {
        "name": "Power Tap",
        "triggers": [{"when": "trace_initiated", "effects": [{"effect": "gain_credits", "amount": 1}]}],
    }
    b = engine_board(runner={"credits": 0, "rig": {"resources": [tap]}}, servers={"hq": {"ice": [RAVEN]}})
    s = engine.start(b, "run", doc, {"server": "hq"})
    s, ev = walk(s)
    pend = next(e for e in ev if e.objects.get("condition") == "trace_initiated")
    assert pend.step == "step_trace_initiated" and pend.objects["pending"] == ["resources.power-tap.0"]
    gain = [e for e in ev if "gains 1" in e.text.lower() or "gain 1" in e.text.lower()]
    assert gain, [e.text for e in ev]
    # gained before the Runner spends on link (10.8.6d), and not spent: 1 credit left
    assert s.board["runner"]["credits"] == 1
    steps = [e.step for e in ev]
    assert steps.index(pend.step) < steps.index("step_trace_runner_spend_credits")
    # no trace, no trigger
    quiet = engine_board(
        runner={"credits": 0, "rig": {"resources": [tap]}},
        servers={"hq": {"ice": [{**RAVEN, "subroutines": ["end_the_run"]}]}},
    )
    s, _ = walk(engine.start(quiet, "run", doc, {"server": "hq"}))
    assert s.board["runner"]["credits"] == 0


def test_trace_vocabulary_validates():
    ok = engine_board(
        runner={
            "rig": {
                "hardware": [
                    {"name": "Flip Switch", "abilities": [{"kind": "trace", "set": 0, "trash": True}]}
                ]
            }
        },
        servers={"hq": {"root": [GRID]}, "remote1": {"content": BOOTH}},
    )
    assert engine.validate_board(ok) == []
    jsonschema.validate(ok, SCHEMA)
    both = {**BOOTH, "abilities": [{"kind": "trace", "amount": 1, "set": 0}]}
    neither = {**BOOTH, "abilities": [{"kind": "trace", "cost": 1}]}
    bad_only = {**GRID, "trace_bonus": {"amount": 2, "only": "always"}}
    on_runner = {"name": "X", "trace_bonus": {"amount": 1}}
    for board, word in (
        (engine_board(servers={"remote1": {"content": both}}), "exactly one"),
        (engine_board(servers={"remote1": {"content": neither}}), "exactly one"),
        (engine_board(servers={"hq": {"root": [bad_only]}}), "only"),
        (engine_board(runner={"rig": {"resources": [on_runner]}}), "trace_bonus"),
    ):
        probs = engine.validate_board(board)
        assert any(word in p for p in probs), probs
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(board, SCHEMA)
