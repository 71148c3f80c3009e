"""Game logs linked to the rules: rules_index.gamelog, POST /api/annotate and `nrrules annotate`.

The labelled log (tests/fixtures/gamelog/) is two turn pairs written in an online engine's style
and labelled by hand from CR 26.03; at least 90 % of its rule-relevant lines must link to their
step or one of their rules, and lines that are not about the rules must stay unknown.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import load_doc
from test_openapi_contract import check

from rules_index.gamelog import annotate_lines, normalise, table_ids
from webapp import create_app
from webapp.cli import main
from webapp.payloads import gamelog as payloads

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "gamelog"
LOG = (FIXTURES / "turn-pair.log").read_text(encoding="utf-8")
LABELS = json.loads((FIXTURES / "turn-pair.labels.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def client(cards_built):
    return create_app({"TESTING": True, "BUILD_DIR": str(cards_built)}).test_client()


def _linked(note_step, note_rules, expect) -> bool:
    return (expect["step"] is not None and note_step == expect["step"]) or bool(
        set(expect["rules"]) & set(note_rules)
    )


def test_every_id_of_the_table_is_a_rule_of_the_cr_it_is_written_for():
    doc = load_doc("26.03")
    ids = table_ids()
    assert len(ids) > 60
    missing = sorted(i for i in ids if doc.node(i) is None)
    assert not missing, f"ids not in CR 26.03: {missing}"
    labelled = {
        i
        for row in LABELS["lines"]
        if row["expect"]
        for i in [row["expect"]["step"], *row["expect"]["rules"]]
    }
    assert not sorted(i for i in labelled - {None} if doc.node(i) is None)


def test_every_id_a_line_gets_is_one_the_table_declares():
    """The CR check above covers what the table declares; here, what its readers return."""
    lines = (
        LOG.splitlines()
        + [case[0] for case in KINDS]
        + [
            "Runner makes a run on HQ",
            "Runner approaches Ice Wall protecting HQ",
            "Corp rezzes Ice Wall",
            "Runner encounters Ice Wall",
            "Corp uses Ice Wall to end the run",
            "Corp rezzes PAD Campaign",
        ]
    )
    notes = annotate_lines(lines)
    given = {i for n in notes for i in [n.step, *n.rules] if i}
    assert len(given) > 50
    assert given <= table_ids(), sorted(given - table_ids())


def test_the_labels_are_the_log():
    lines = LOG.splitlines()
    assert [row["text"] for row in LABELS["lines"]] == lines
    assert [row["line"] for row in LABELS["lines"]] == list(range(1, len(lines) + 1))


def test_the_labelled_log_links_at_least_90_percent_of_its_rule_lines():
    notes = {n.line: n for n in annotate_lines(LOG.splitlines())}
    relevant = [row for row in LABELS["lines"] if row["expect"]]
    assert len(relevant) >= 50
    wrong = [
        row["text"]
        for row in relevant
        if not _linked(notes[row["line"]].step, notes[row["line"]].rules, row["expect"])
    ]
    share = 1 - len(wrong) / len(relevant)
    print(f"linked {share:.1%} of {len(relevant)} rule lines; missed: {wrong}")
    assert share >= 0.9, wrong
    # lines that are not about the rules (players talking) are unknown, with nothing linked
    for row in LABELS["lines"]:
        if row["expect"] is None:
            note = notes[row["line"]]
            assert note.event is None and note.step is None and not note.rules, row["text"]


def test_a_step_is_given_only_when_the_log_says_it():
    # the same damage line: a subroutine's effect while the Corp resolves the encountered ice's
    # subroutines, but no step when nothing says where it came from
    during = annotate_lines(
        [
            "Runner encounters Neural Katana protecting HQ at position 0",
            "Corp resolves 1 unbroken subroutine on Neural Katana",
            "Runner is dealt 3 net damage",
        ]
    )
    assert during[-1].step == "step_resolve_subroutine"
    assert "rule_meat_net_damage" in during[-1].rules
    alone = annotate_lines(["Runner is dealt 3 net damage"])
    assert alone[0].step is None and "rule_meat_net_damage" in alone[0].rules
    # rezzing: ice while approached, other cards in the paid ability window of the phase
    ice = annotate_lines(
        ["Runner makes a run on HQ", "Runner approaches Ice Wall protecting HQ", "Corp rezzes Ice Wall"]
    )
    assert ice[-1].step == "step_approach_paw" and "rule_rez_ice_restriction" in ice[-1].rules
    asset = annotate_lines(
        [
            "Corp started their turn 4",
            "Corp makes their mandatory start of turn draw",
            "Corp spends [click] to gain 1 [credit]",
            "Corp rezzes PAD Campaign in Server 2",
        ]
    )
    assert asset[-1].step == "step_corp_turn_action_phase_paw" and "rule_rez_in_paw" in asset[-1].rules
    # without a turn said, a rez has its rules but no step
    bare = annotate_lines(["Corp rezzes PAD Campaign"])
    assert bare[0].step is None and bare[0].rules


KINDS = [
    ("Corp spends [Click][Click][Click] to purge virus counters.", "purge_action", "rule_purge"),
    (
        "Corp spends [click] and pays 1 [credit] to advance Hostile Takeover",
        "advance_action",
        "rule_advance",
    ),
    (
        "12:01 Runner spends [Click] and pays 4 [Credits] to install Corroder.",
        "install_action",
        "runner_basic_action_install",
    ),
    ("Runner takes 1 core damage", "damage", "rule_core_damage"),
    ("Runner suffers 1 brain damage", "damage", "rule_core_damage"),
    (
        "Corp uses Data Raven to initiate a trace with strength 3",
        "trace_initiated",
        "rule_trace_attempt_and_base_trace_strength",
    ),
    ("Runner spends [click] to use Sure Gamble's ability", "click_ability", "rule_action_definition"),
    ("Corp takes 1 bad publicity", "bad_publicity", "rule_bad_publicity"),
    ("Runner is given 2 tags", "tag", "rule_tag"),
    ("The Runner jacks out.", "jack_out", "rule_jacking_out"),
]


@pytest.mark.parametrize(("line", "event", "rule"), KINDS)
def test_lines_of_each_kind(line, event, rule):
    note = annotate_lines([line])[0]
    assert note.event == event and rule in note.rules


@pytest.mark.parametrize(
    "line",
    [
        "Corp uses PAD Campaign to gain 1 [Credits].",  # paid or conditional? the line does not say
        "Runner loses [click]",
        "Corp has 5 cards in HQ",
        "Runner: should I jack out?",  # talking about the rules is not playing them
        "jack out",  # no player
        "asdf qwer zxcv",
        "Corp uses Ice Wall to end the run",  # no encounter said: the rule is linked, not a step
    ],
)
def test_unrecognised_lines_are_unknown_or_give_no_step(line):
    note = annotate_lines([line])[0]
    if note.event is None:
        assert note.step is None and not note.rules
    else:  # the last line: its rule is certain, its step is not
        assert note.event == "end_the_run" and note.step is None and note.rules == ["rule_end_the_run"]


def test_logs_that_name_the_players_are_read_with_their_names():
    lines = ["alice spends [Click] to gain 1 [Credits].", "bob: gl hf", "[Bob] jacks out", "alicia jacks out"]
    named = annotate_lines(lines, corp="alice", runner="bob")
    assert [n.event for n in named] == ["gain_credit_action", None, "jack_out", None]
    assert named[0].rules == ["rule_corp_basic_action_credit"] and named[2].step == "step_jack_out_choice"
    assert [n.event for n in annotate_lines(lines)] == [None, None, None, None]  # without the names


def test_normalise_reads_each_symbol_spelling():
    assert normalise("[19:04] Corp spends [Click] and pays 2 [Credits] to play SEA Source.") == (
        "Corp spends [click] and pays 2 [credit] to play SEA Source"
    )
    assert (
        normalise("Runner spends {click} and pays 2{c} to remove 1 tag")
        == "Runner spends [click] and pays 2[credit] to remove 1 tag"
    )


# ----------------------------------------------------------------------------------------------
# The API and the command line
# ----------------------------------------------------------------------------------------------


def test_the_api_links_the_log_in_the_version_asked_for(client):
    resp = client.post("/api/annotate", data=LOG, content_type="text/plain")
    assert resp.status_code == 200
    data = check(resp, "POST", "/api/annotate")
    assert data["version"] == "26.03" and data["cards_built"] is True
    assert data["counts"] == {
        "lines": 68,
        "linked": data["counts"]["linked"],
        "unknown": 68 - data["counts"]["linked"],
    }
    by_line = {row["line"]: row for row in data["lines"]}
    relevant = [row for row in LABELS["lines"] if row["expect"]]
    good = sum(
        _linked(
            (by_line[r["line"]]["step"] or {}).get("id"),
            [x["id"] for x in by_line[r["line"]]["rules"]],
            r["expect"],
        )
        for r in relevant
    )
    assert good / len(relevant) >= 0.9
    brk = next(row for row in data["lines"] if row["event"] == "break_subroutine")
    assert brk["step"] == {
        "id": "step_encounter_paw",
        "number": "6.9.3b",
        "title": None,
        "url": "/id/step_encounter_paw",
    }
    assert {c["id"] for c in brk["cards"]} == {"corroder", "ice_wall"}
    assert all(c["url"] == f"/c/{c['id']}" for c in brk["cards"])
    unknown = by_line[1]
    assert unknown["status"] == "unknown" and unknown["step"] is None and unknown["rules"] == []

    # JSON body, an older version: the same ids, that version's numbers and links
    old = client.post("/api/annotate", json={"log": LOG, "version": "22.12"})
    assert old.status_code == 200
    old_data = check(old, "POST", "/api/annotate")
    assert old_data["version"] == "22.12"
    doc = load_doc("22.12")
    for row in old_data["lines"]:
        for ref in [row["step"], *row["rules"]]:
            if ref is None:
                continue
            node = doc.node(ref["id"])
            assert ref["number"] == (node.number if node else None)
            assert ref["url"] == (f"/id/{ref['id']}?v=22.12" if node else None)
    assert [r["event"] for r in old_data["lines"]] == [r["event"] for r in data["lines"]]


def test_cards_are_linked_by_their_exact_names_only(client, build_dir):
    resp = client.post(
        "/api/annotate",
        data="Runner accesses Hedge Fnd from HQ\nRunner accesses Hedge Fund from HQ",
        content_type="text/plain",
    )
    data = check(resp, "POST", "/api/annotate")
    assert data["lines"][0]["cards"] == [] and data["lines"][0]["event"] == "access"
    assert [c["id"] for c in data["lines"][1]["cards"]] == ["hedge_fund"]
    # without card data: the rules still, no card links, and the answer says why
    bare = create_app({"TESTING": True, "BUILD_DIR": str(build_dir)}).test_client()
    data = check(
        bare.post("/api/annotate", data="Runner accesses Hedge Fund from HQ", content_type="text/plain"),
        "POST",
        "/api/annotate",
    )
    assert data["cards_built"] is False and data["lines"][0]["cards"] == [] and data["lines"][0]["rules"]


@pytest.mark.parametrize(
    ("body", "content_type", "status", "words"),
    [
        ("Runner jacks out\n" * (payloads.MAX_LINES + 1), "text/plain", 413, "too many lines"),
        ("x" * (payloads.MAX_LOG_BYTES + 10), "text/plain", 413, "too large"),
        ("Runner jacks out\n" + "y" * 1001, "text/plain", 400, "line 2 is too long"),
        (b"Runner jacks out \xff\xfe", "text/plain", 400, "not UTF-8"),
        ("  \n\n", "text/plain", 400, "empty"),
        ('{"log": 5}', "application/json", 400, "must be text"),
        ('{"lines": "x"}', "application/json", 400, '"log"'),
        ('{"log": "Runner jacks out", "extra": 1}', "application/json", 400, "unknown field"),
        ("{not json", "application/json", 400, "not valid JSON"),
        ("Runner jacks out", "application/xml", 415, "text/plain"),
        ('{"log": "Runner jacks out", "version": "9.9"}', "application/json", 404, "not available"),
        ('{"log": "x", "corp": "al", "runner": "AL"}', "application/json", 400, "same name"),
        ('{"log": "x", "corp": 5}', "application/json", 400, "corp must be"),
    ],
)
def test_bad_logs_get_clear_errors(client, body, content_type, status, words):
    resp = client.post("/api/annotate", data=body, content_type=content_type)
    assert resp.status_code == status
    data = check(resp, "POST", "/api/annotate")
    assert words in data["error"] and "Traceback" not in data["error"] and "/tmp" not in data["error"]


def test_the_command_prints_the_api_answer(client, cards_built, tmp_path):
    runner = CliRunner()
    path = FIXTURES / "turn-pair.log"
    result = runner.invoke(
        main, ["annotate", str(path), "--json", "-v", "24.03", "--build-dir", str(cards_built)]
    )
    assert result.exit_code == 0, result.output
    api = client.post("/api/annotate?v=24.03", data=path.read_bytes(), content_type="text/plain").get_json()
    assert json.loads(result.output) == api
    text = runner.invoke(
        main, ["annotate", "-", "--build-dir", str(cards_built)], input="Runner jacks out\nhello\n"
    )
    assert text.exit_code == 0, text.output
    assert "1 of 2 lines linked" in text.output and "step 6.9.4c" in text.output and "unknown" in text.output
    named = "alice spends [Click] to draw a card.\nbob makes a run on HQ\n"
    by_query = client.post("/api/annotate?corp=alice&runner=bob", data=named, content_type="text/plain")
    by_json = client.post("/api/annotate", json={"log": named, "corp": "alice", "runner": "bob"})
    cli = runner.invoke(
        main,
        ["annotate", "-", "--corp", "alice", "--runner", "bob", "--json", "--build-dir", str(cards_built)],
        input=named,
    )
    assert check(by_query, "POST", "/api/annotate") == by_json.get_json() == json.loads(cli.output)
    assert [row["event"] for row in by_json.get_json()["lines"]] == ["draw_action", "run_action"]
    big = tmp_path / "big.log"
    big.write_text("Runner jacks out\n" * 20000, encoding="utf-8")
    for args, words in (([str(big)], "too large"), ([str(tmp_path / "none.log")], "No such file")):
        bad = runner.invoke(main, ["annotate", *args, "--build-dir", str(cards_built)])
        assert bad.exit_code == 2 and bad.output.startswith("error: ") and words in bad.output
