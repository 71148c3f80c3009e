"""The stepper's board picture and grouped trace: pure functions over real engine sessions on
the real CR documents, and the server-rendered stepper page (Flask test client)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import engine
from webapp import create_app
from webapp.board_picture import RunPosition, board_picture, effect_label, run_position, server_order
from webapp.trace_groups import PhaseTable, applied, group_trace, phase_of, ruling_summary

ROOT = Path(__file__).resolve().parent.parent
TWO_ICE = json.loads((ROOT / "engine" / "examples" / "remote-run.json").read_text())


def _event(e) -> dict:
    d = e.to_dict()
    d["rule_links"] = [{"id": r, "number": r, "url": f"/id/{r}"} for r in e.rules]
    return d


def _play(doc, board, server, pick):
    """Step a run to its end with `pick(ids)`; yields (session, events of the decision) at each
    position, the start included."""
    s = engine.start(board, "run", doc, params={"server": server})
    yield s, list(s.trace)
    while not s.finished:
        ids = [d["id"] for d in engine.legal_decisions(s)]
        s, events = engine.apply(s, pick(ids))
        yield s, events


def break_all(ids):
    return next((i for i in ids if i.startswith("break:")), None) or (
        "continue" if "continue" in ids else ids[0]
    )


@pytest.mark.parametrize("version", ["22.12", "26.03"])
def test_phases_come_from_the_document(documents, version):
    doc = documents[version]
    assert phase_of(doc, "step_approach_begins").kind == "approach"
    assert phase_of(doc, "step_encounter_paw").title == "Encounter"
    assert phase_of(doc, "step_pass_ice").kind == "movement"
    assert phase_of(doc, "step_card_accessed").kind == "access"
    assert phase_of(doc, "step_choose_candidate").kind == "breach"
    ck = phase_of(
        doc, next(i for i in ("step_checkpoint_uniqueness", "rule_checkpoint_uniqueness") if doc.node(i))
    )
    assert ck.nested and ck.title == "Checkpoint"
    assert phase_of(doc, "step_paid_ability_announce").nested
    assert phase_of(doc, "no_such_step").kind == "other"


def test_turn_phases_are_named_from_their_rules(doc_latest):
    s = engine.start({"version": 1, "turn": "corp", "corp": {"clicks": 0}}, "corp_turn", doc_latest)
    titles = {PhaseTable(doc_latest)(e.step).title for e in s.trace}
    assert any(t.lower().endswith("draw phase") for t in titles), titles


def test_run_trace_groups_by_phase(doc_latest):
    *_, (s, last) = _play(doc_latest, TWO_ICE, "remote1", break_all)
    trace = [_event(e) for e in s.trace]
    groups = group_trace(
        trace, PhaseTable(doc_latest), len(trace) - len(last), lambda i: ["Enigma", "Ice Wall"][i]
    )
    kinds = [g.kind for g in groups]
    # the run's phases in order: each ice approached and encountered, then success and breach
    assert kinds[:7] == [
        "initiation",
        "approach",
        "encounter",
        "movement",
        "approach",
        "encounter",
        "movement",
    ]
    assert [g.subject for g in groups if g.kind == "approach"] == ["Enigma", "Ice Wall"]
    assert kinds[-1] == "run_ends" and "breach" in kinds
    assert [g.subject for g in groups if g.kind == "access"] == ["Manta Grid", "Hostile Takeover"]
    # every event lands in exactly one group, in order
    assert sum(g.size for g in groups) == len(trace)
    assert [e for g in groups for e in g.shown + g.folded] != [] and groups[0].start == 0
    # checkpoints inside the encounter stay in it, and their "nothing to do" steps are folded
    enc = groups[2]
    assert any(e["step"].startswith("step_checkpoint") for e in enc.folded)
    assert all(not applied(e) for e in enc.folded) and all(applied(e) for e in enc.shown)
    assert any(e["step"] == "step_paid_ability_resolution" for e in enc.shown)
    # the last decision's groups are marked, the earlier ones are not
    assert groups[-1].recent and groups[-1].last and not groups[0].recent


def test_applied_prefers_the_engine_flag():
    assert applied({"text": "No two active unique cards share a name.", "changes": {}}) is False
    assert applied({"text": "The Runner breaks subroutine 1.", "changes": {"x": [0, 1]}}) is True
    assert applied({"text": "No two active unique cards share a name.", "applied": True}) is True
    assert applied({"text": "The run formally begins.", "applied": False}) is False


def test_picture_of_a_board_as_given_and_canonical():
    pic = board_picture(TWO_ICE)
    keys = [s["key"] for s in pic["servers"]]
    assert keys == ["hq", "rd", "archives", "remote1"]
    remote = pic["servers"][-1]
    assert remote["label"] == "Server 1"
    assert [(i["name"], i["label"], i["rezzed"]) for i in remote["ice"]] == [
        ("Enigma", "outermost", False),
        ("Ice Wall", "innermost", True),
    ]
    assert [s["text"] for s in remote["ice"][0]["subs"]] == ["Runner loses 1 click", "End the run"]
    assert remote["content"]["name"] == "Hostile Takeover" and remote["root"][0]["name"] == "Manta Grid"
    assert pic["servers"][0]["cards"] == 3 and pic["servers"][1]["cards"] == 10
    assert pic["runner"]["credits"] == 12 and pic["runner"]["rig"] == []
    assert board_picture("not a board") is None
    assert server_order(["remote10", "remote2", "archives", "hq"]) == [
        "hq",
        "archives",
        "remote2",
        "remote10",
    ]


def test_picture_shows_rig_and_new_card_fields():
    board = {
        "version": 1,
        "runner": {
            "identity": {"name": "Kate", "memory_limit": 4},
            "rig": {
                "programs": [
                    {
                        "name": "Corroder",
                        "type": "program",
                        "strength": 2,
                        "boost": 1,
                        "memory_cost": 1,
                        "subtypes": ["icebreaker", "fracter"],
                        "abilities": [
                            {"kind": "break", "cost": 1, "count": 1, "ice_subtype": "barrier"},
                            {"kind": "strength", "cost": 1, "amount": 1},
                        ],
                    }
                ],
                "hardware": [{"name": "Docklands Pass", "type": "hardware"}],
            },
        },
        "servers": {
            "hq": {
                "ice": [
                    {
                        "name": "Vanilla",
                        "strength": 0,
                        "subtypes": ["barrier"],
                        "subroutines": [
                            {"effect": "unless_pays", "amount": 3, "effects": ["end_the_run"]},
                            {"effect": "if_tagged", "effects": [{"effect": "give_tags", "amount": 2}]},
                            {"effect": "text", "text": "Do something odd."},
                        ],
                    }
                ]
            }
        },
    }
    pic = board_picture(board)
    corroder = pic["runner"]["rig"][0]["cards"][0]
    assert (
        corroder["strength"] == 2
        and corroder["boosted"] == 3
        and corroder["subtypes"] == "Icebreaker · Fracter"
    )
    assert corroder["abilities"] == ["1¢: break 1 barrier subroutine", "1¢: +1 strength"]
    assert pic["runner"]["memory"] == {"used": 1, "limit": 4} and pic["runner"]["identity"] == "Kate"
    assert [z["key"] for z in pic["runner"]["rig"]] == ["programs", "hardware"]
    ice = pic["servers"][0]["ice"][0]
    assert ice["strength"] == 0 and ice["subtypes"] == "Barrier" and ice["label"] == "only ice"
    assert [s["text"] for s in ice["subs"]] == [
        "End the run unless the Runner pays 3¢",
        "If tagged: Give 2 tags",
        "Do something odd.",
    ]
    assert (
        effect_label({"effect": "trace", "strength": 3, "on_success": ["end_the_run"]})
        == "Trace 3: End the run"
    )


def test_runner_position_follows_the_run(doc_latest):
    phases = PhaseTable(doc_latest)
    seen = []
    for s, _ in _play(doc_latest, TWO_ICE, "remote1", break_all):
        run = run_position(s.frames, phases.kind)
        if run is None:
            continue
        pic = board_picture(s.board, run)
        srv = next(x for x in pic["servers"] if x["key"] == "remote1")
        assert srv["attacked"]
        marks = [(i["pos"], i["runner"]) for i in srv["ice"] if i["runner"] not in (None, "passed")]
        seen.append(
            (
                run.phase,
                run.pos,
                marks,
                srv["marker"]["before"],
                tuple(x["broken"] for x in srv["ice"][run.pos]["subs"]) if run.pos is not None else (),
            )
        )
    # the run stops at each approach (rez) and encounter (breaks) of each ice
    assert ("approach", 0, [(0, "approached")], 0, (False, False)) in seen
    assert ("encounter", 0, [(0, "encountered")], 0, (True, False)) in seen
    assert ("encounter", 1, [(1, "encountered")], 1, (False,)) in seen
    # jack-out choice after passing ice 0: the marker sits below it, ice 0 is passed
    assert ("movement", 0, [], 1, (False, False)) in seen or ("movement", 0, [], 1, (True, True)) in seen
    assert any(p == "breach" for p, *_ in seen)
    assert RunPosition("hq", None, "initiation").pos is None


def test_ruling_summary_names_outcome_and_rules():
    state = {
        "version": "26.03",
        "decisions_taken": ["rez", "pass"],
        "finished": True,
        "outcome": {"runs": [{"server": "remote1", "result": "successful"}], "stolen": ["Hostile Takeover"]},
        "trace": [
            {
                "text": "x",
                "changes": {"a": [0, 1]},
                "rule_links": [{"number": "6.9.2c"}, {"number": "6.9.3c"}],
            },
            {
                "text": "No two active unique cards share a name.",
                "changes": {},
                "rule_links": [{"number": "10.3.1d"}],
            },
        ],
        "share_url": "http://h/step?s=T",
    }
    text = ruling_summary(state, "Run on Server 1")
    assert text.startswith(
        "Run on Server 1, CR 26.03, after 2 decisions: run successful; stole Hostile Takeover."
    )
    assert "Rules: 6.9.2c, 6.9.3c." in text and "10.3.1d" not in text and text.endswith("http://h/step?s=T")


# ----- the page --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def client(build_dir):
    app = create_app({"TESTING": True, "BUILD_DIR": str(build_dir), "SECRET_KEY": "stepper-view-key"})
    return app.test_client()


def _run(client, pick=break_all):
    d = client.post(
        "/api/engine/sessions", json={"board": TWO_ICE, "structure": "run", "params": {"server": "remote1"}}
    ).get_json()
    out = [d]
    while not d["finished"]:
        ids = [x["id"] for x in d["decisions"]]
        d = client.post(
            f"/api/engine/sessions/{d['token']}/decisions", json={"decision": pick(ids)}
        ).get_json()
        out.append(d)
    return out


def test_stepper_page_draws_the_board_and_groups_the_trace(client):
    states = _run(client)
    html = client.get(states[0]["url"]).get_data(as_text=True)
    # the picture: the run's server, its ice outermost first, the Runner's marker before the approached ice
    assert '<section class="bp" id="board"' in html
    col = html[html.index('data-server="remote1"') :]
    col = col[: col.index("</div></div>")]
    assert col.index("outermost") < col.index("Enigma") < col.index("innermost") < col.index("Ice Wall")
    assert re.search(
        r'<li class="mk" id="runner-mark">Runner approaches</li>\s*<li class="ic unrz is-approached" data-pos="0">',
        col,
    )
    assert "&#34;R&amp;D card 1&#34;" not in html and "R&amp;D card 1" not in html  # no raw JSON dump
    # a finished run: groups by phase, folded steps, a summary and a printable view
    final = client.get(states[-1]["url"]).get_data(as_text=True)
    assert final.count('<details class="tg') >= 10
    assert "step did not apply</summary>" in final or "steps did not apply</summary>" in final
    assert "Run on Server 1, CR 26.03, after" in final and 'id="share-summary"' in final
    printable = client.get(states[-1]["url"] + "&print=1").get_data(as_text=True)
    assert 'id="decisions"' not in printable and 'id="share"' not in printable


def test_printable_view_opens_every_group(client):
    states = _run(client)
    printable = client.get(states[-1]["url"] + "&print=1").get_data(as_text=True)
    # every folded part of the session (not the site's menu, which print hides)
    details = [d for d in re.findall(r"<details[^>]*>", printable) if "navmenu" not in d]
    assert details and all(" open" in d for d in details)
    normal = client.get(states[-1]["url"]).get_data(as_text=True)
    assert any(" open" not in d for d in re.findall(r"<details[^>]*>", normal))
