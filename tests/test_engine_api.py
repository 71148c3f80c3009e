"""The public API: structures, start/legal_decisions/apply purity, JSON round trip, errors,
describe_event and coverage."""

from __future__ import annotations

import copy
import json

import pytest
from helpers import VERSIONS, load_doc

import engine
from engine.scenarios import SCENARIOS, run_scenario
from engine.structures import structure_steps

BOARD = {
    "version": 1,
    "corp": {"credits": 6, "hand": ["A", "B", "C", "D"], "bad_publicity": 1},
    "runner": {"credits": 4, "hand": 4},
    "servers": {
        "hq": {
            "ice": [
                {
                    "name": "Wall",
                    "rezzed": False,
                    "rez_cost": 2,
                    "subroutines": ["end_the_run", {"effect": "net_damage", "amount": 1}],
                }
            ]
        },
        "remote1": {"content": {"name": "Agenda", "type": "agenda", "agenda_points": 2}},
    },
}


def test_structures_follow_the_document(documents):
    for v, doc in documents.items():
        got = engine.structures(doc)
        ids = [s["id"] for s in got]
        assert ids == [
            "corp_turn",
            "runner_turn",
            "run",
            "breach",
            "access",
            "subroutine",
            "trace",
            "checkpoint",
            "draw",
        ]
        for s in got:
            assert doc.node(s["section_id"]) is not None, (v, s)
            assert set(s) == {"id", "title", "section_id", "params"}
        run = next(s for s in got if s["id"] == "run")
        assert "server" in run["params"] and run["section_id"] == "sec_steps_of_a_run"


def test_apply_is_pure_and_deterministic(doc_latest):
    board = copy.deepcopy(BOARD)
    s0 = engine.start(board, "run", doc_latest, {"server": "hq"})
    assert board == BOARD  # start never touches the caller's board
    snapshot = (json.dumps(s0.board, sort_keys=True), s0.current_step, len(s0.trace), list(s0.decisions))
    s1, ev1 = engine.apply(s0, "rez")
    assert (
        json.dumps(s0.board, sort_keys=True),
        s0.current_step,
        len(s0.trace),
        list(s0.decisions),
    ) == snapshot
    assert s1.board["servers"]["hq"]["ice"][0]["rezzed"] and not s0.board["servers"]["hq"]["ice"][0]["rezzed"]
    s1b, ev1b = engine.apply(s0, "rez")
    assert [e.to_dict() for e in ev1] == [e.to_dict() for e in ev1b]
    assert s1.board == s1b.board
    assert s1.trace[: len(s0.trace)] == s0.trace and s1.trace[len(s0.trace) :] == ev1


def test_session_json_round_trip_at_every_point(documents):
    for version in ("22.12", "26.03"):
        doc = documents[version]
        for sc in SCENARIOS:
            s = engine.start(sc.board, sc.structure, doc, sc.params, sc.seed)
            while True:
                text = s.to_json()
                back = engine.Session.from_json(text, doc)
                assert back.board == s.board and back.current_step == s.current_step
                assert [e.to_dict() for e in back.trace] == [e.to_dict() for e in s.trace]
                assert engine.legal_decisions(back) == engine.legal_decisions(s)
                assert back.outcome == s.outcome and back.finished == s.finished
                assert back.to_json() == text
                if s.finished:
                    break
                s, _ = engine.apply(s, engine.legal_decisions(s)[-1]["id"])


def test_session_json_is_compact(doc_latest):
    s = run_scenario(next(x for x in SCENARIOS if x.name == "remote_full"), doc_latest)
    text = s.to_json()
    assert len(text) < 2000 and "\n" not in text and ": " not in text
    data = json.loads(text)
    assert data["v"] == "26.03" and data["d"] == s.decisions and data["f"] == 1
    # one serialised form: the same payload as the web app's tokens; the older "cr" still loads
    assert engine.SessionSpec.from_json(text).to_payload() == data
    old = {k: v for k, v in data.items() if k not in ("v", "f")} | {"cr": "26.03"}
    assert engine.Session.from_json(json.dumps(old), doc_latest).board == s.board


def test_seeded_randomness_is_replayed(doc_latest):
    board = {"version": 1, "corp": {"hand": [f"Card {i}" for i in range(10)]}, "servers": {}}
    s = engine.start(board, "access", doc_latest, {"server": "hq"}, seed=42)
    back = engine.Session.from_json(s.to_json(), doc_latest)
    assert back.outcome.accessed == s.outcome.accessed
    others = {
        tuple(engine.start(board, "access", doc_latest, {"server": "hq"}, seed=k).outcome.accessed)
        for k in range(10)
    }
    assert len(others) > 1


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("not json", "session: not valid JSON"),
        ("[]", "session: must be a JSON object"),
        ('{"f": 9}', "unsupported session format"),
        (
            '{"f":1,"b":{"version":1},"s":"run","p":{"server":"hq"},"r":0,"d":["explode"]}',
            "decision 'explode' is not legal",
        ),
        (
            '{"f":1,"b":{"version":1},"s":"run","p":{"server":"nowhere"},"r":0,"d":[]}',
            "params.server: unknown server",
        ),
        ('{"f":1,"b":{"version":1},"s":"run","p":{},"r":"x","d":[]}', "session.r: seed must be an integer"),
    ],
)
def test_from_json_errors_are_engine_errors(doc_latest, text, fragment):
    with pytest.raises(engine.EngineError) as ei:
        engine.Session.from_json(text, doc_latest)
    assert fragment in str(ei.value)


def test_illegal_decision_lists_legal_ones(doc_latest):
    s = engine.start(BOARD, "run", doc_latest, {"server": "hq"})
    assert s.current_step == "step_approach_paw"
    with pytest.raises(engine.IllegalDecision) as ei:
        engine.apply(s, "jack_out")
    assert ei.value.legal == ["rez", "pass"] and ei.value.step == "step_approach_paw"
    assert "legal decisions: rez, pass" in str(ei.value)
    with pytest.raises(engine.IllegalDecision):
        engine.apply(s, None)  # type: ignore[arg-type]
    done = run_scenario(next(x for x in SCENARIOS if x.name == "flatline"), doc_latest)
    with pytest.raises(engine.IllegalDecision) as ei:
        engine.apply(done, "pass")
    assert "finished" in str(ei.value) and ei.value.legal == []


@pytest.mark.parametrize(
    "structure, params, fragment",
    [
        ("tea_party", {}, "structure: unknown structure 'tea_party'"),
        ("run", {}, "params.server: required for 'run'"),
        ("run", {"server": "remote7"}, "params.server: unknown server 'remote7'"),
        ("run", {"server": "hq", "speed": 3}, "params.speed: unknown parameter"),
        ("trace", {}, "params.strength: required"),
        (
            "trace",
            {"strength": 2, "on_success": [{"effect": "hug"}]},
            "params.on_success[0].effect: unknown effect",
        ),
        ("access", {"server": "remote1", "card": "root.3"}, "params.card: 'root.3' is not a card in remote1"),
        ("access", {"server": "archives"}, "params.server: 'archives' has no card to access"),
        ("draw", {"player": "judge"}, "params.player: must be 'corp' or 'runner'"),
        ("subroutine", {}, "params.subroutine: required"),
        ("paid_ability", {}, "unknown structure 'paid_ability'"),
    ],
)
def test_bad_params(doc_latest, structure, params, fragment):
    with pytest.raises(engine.BoardError) as ei:
        engine.start(BOARD, structure, doc_latest, params)
    assert any(fragment in p for p in ei.value.problems), ei.value.problems


def test_bad_seed(doc_latest):
    with pytest.raises(engine.BoardError):
        engine.start(BOARD, "run", doc_latest, {"server": "hq"}, seed="x")  # type: ignore[arg-type]


def test_decision_shape_and_url_safety(doc_latest):
    for sc in SCENARIOS:
        s = engine.start(sc.board, sc.structure, doc_latest, sc.params, sc.seed)
        while not s.finished:
            ds = engine.legal_decisions(s)
            assert ds, sc.name
            for d in ds:
                assert set(d) == {"id", "label", "player"} and d["player"] in ("corp", "runner")
                assert d["id"] and all(ch.isalnum() or ch in ":._-" for ch in d["id"]), d["id"]
            assert len({d["id"] for d in ds}) == len(ds)
            s, _ = engine.apply(s, ds[0]["id"])


def test_event_dataclass_and_describe_event(documents):
    for version in ("24.03", "26.03"):
        doc = documents[version]
        s = run_scenario(next(x for x in SCENARIOS if x.name == "etr_hq"), doc)
        etr = next(e for e in s.trace if "rule_end_the_run" in e.rules)
        d = etr.to_dict()
        assert set(d) == {"step", "rules", "text", "changes", "applied", "objects"}
        assert d["applied"] is True
        # a narrated step (nothing on the board makes it apply) is walked but not applied
        narrated = [e for e in s.trace if not e.applied]
        assert narrated and all(e.changes == {} for e in narrated)
        desc = engine.describe_event(etr, doc)
        assert desc["step_number"] == doc.node(etr.step).number
        assert desc["rule_numbers"] == [doc.node(r).number for r in etr.rules]
        assert desc["rule_numbers"][0] == "6.1.4"
    jo = engine.describe_event(
        next(
            e
            for e in run_scenario(
                next(x for x in SCENARIOS if x.name == "jack_out"), documents["22.12"]
            ).trace
            if e.step == "step_jack_out_choice"
        ),
        documents["22.12"],
    )
    assert jo["step_number"] == "6.9.4c"


def test_coverage_report(documents):
    for v in VERSIONS:
        doc = documents[v]
        rep = engine.scenario_coverage(doc)
        assert rep["failed_scenarios"] == {}
        for sid in ("corp_turn", "runner_turn", "run", "access", "breach"):
            assert rep["sections"][sid]["percent"] == 100.0, (v, sid, rep["sections"][sid]["not_walked"])
        assert rep["all_steps"]["percent"] >= 90.0
        assert rep["all_steps"]["steps"] == sum(1 for n in doc.nodes if n.kind == "step")
    # the report really depends on what was walked
    doc = documents["26.03"]
    partial = engine.coverage(doc, structure_steps(doc, "run")[:5])
    assert partial["sections"]["run"]["walked"] == 5
    assert partial["sections"]["run"]["not_walked"] == structure_steps(doc, "run")[5:]
    assert partial["all_steps"]["percent"] < 10
    # a step the engine has no handler for is listed, never counted as covered
    fake = engine.coverage(doc, ["step_not_in_any_table"])
    assert fake["all_steps"]["walked"] == 0


def test_step_missing_from_version_is_not_walked(documents):
    for v in VERSIONS:
        doc = documents[v]
        s = run_scenario(next(x for x in SCENARIOS if x.name == "remote_full"), doc)
        walked = {e.step for e in s.trace}
        assert ("step_initiation_paw" in walked) == (v >= "25.04")
        assert ("step_runner_position" in walked) == (v >= "25.04")
        assert ("step_checkpoint_agenda_points" in walked) == (v >= "24.03")
        assert ("rule_checkpoint_agenda_points" in walked) == (v < "24.03")


def test_all_rule_ids_in_the_engine_exist_in_some_version():
    import re
    from pathlib import Path

    # every module of the step machine (engine.steps imports one per timing structure)
    skip = {"__init__.py", "describe.py", "cardtext.py"}  # field names there, not rule ids
    src = "\n".join(p.read_text() for p in Path(engine.__file__).parent.glob("*.py") if p.name not in skip)
    cited = set(re.findall(r'"((?:rule|runner_basic|corp_basic|sec)_[a-z0-9_]*[a-z0-9])"', src))
    docs = [load_doc(v) for v in VERSIONS]
    missing = sorted(i for i in cited if not any(d.node(i) is not None for d in docs))
    assert missing == []
    assert len(cited) > 60


def test_replay_equals_repeated_apply(doc_latest):
    for sc in SCENARIOS:
        s = run_scenario(sc, doc_latest)
        r = engine.replay(sc.board, sc.structure, doc_latest, sc.params, sc.seed, s.decisions)
        assert r.board == s.board and r.decisions == s.decisions and r.finished
        assert [e.to_dict() for e in r.trace] == [e.to_dict() for e in s.trace]
    with pytest.raises(engine.IllegalDecision):
        engine.replay(BOARD, "run", doc_latest, {"server": "hq"}, 0, ["rez", "rez"])


def test_push_moves_in_place_and_matches_apply(doc_latest):
    for sc in SCENARIOS:
        ref = run_scenario(sc, doc_latest)  # stepped with pure apply()
        s = engine.start(sc.board, sc.structure, doc_latest, sc.params, sc.seed)
        fired = []
        for d in ref.decisions:
            same = s
            events = engine.push(s, d)
            assert same is s  # in place: no new session object
            fired.extend(events)
        assert s.board == ref.board and s.outcome == ref.outcome and s.finished
        assert [e.to_dict() for e in s.trace] == [e.to_dict() for e in ref.trace]
        assert [e.to_dict() for e in fired] == [e.to_dict() for e in ref.trace[len(ref.trace) - len(fired) :]]


def test_illegal_push_leaves_the_session_unchanged(doc_latest):
    s = engine.start(BOARD, "run", doc_latest, {"server": "hq"})
    before = (s.to_json(), json.dumps(s.board, sort_keys=True), len(s.trace))
    with pytest.raises(engine.IllegalDecision):
        engine.push(s, "no-such-decision")
    assert (s.to_json(), json.dumps(s.board, sort_keys=True), len(s.trace)) == before


def test_coverage_separates_applied_from_narrated_steps(doc_latest):
    report = engine.scenario_coverage(doc_latest)
    a = report["all_steps"]
    assert a["applies"] + len(a["narrated"]) == a["steps"] - len(a["not_modeled"])
    # a step the engine only narrates is never seen changing the board; the refill now applies
    assert not set(a["narrated"]) & set(a["changed_board"])
    assert "step_checkpoint_uniqueness" in a["narrated"]
    assert "step_runner_turn_recurring_credits_refill" not in a["narrated"]
    assert "step_breach" not in a["narrated"] and "step_initiation_bad_publicity" in a["changed_board"]
    cp = report["sections"]["checkpoint"]
    assert cp["applies"] == cp["steps"] - len(cp["narrated"]) and cp["applies"] >= 2
