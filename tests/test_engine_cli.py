"""`nrrules structures`, `step` and `engine-coverage`, through click's test runner on a real
build directory of the six CR versions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers import load_doc

import engine
from webapp.cli import main
from webapp.tokens import serializer, spec_from_payload

EXAMPLES = Path(engine.__file__).parent / "examples"


@pytest.fixture
def cli(build_dir):
    runner = CliRunner()
    return lambda *args, **kw: runner.invoke(main, [*args, "--build-dir", str(build_dir)], **kw)


def test_step_auto_runs_to_the_end(cli):
    r = cli("step", str(EXAMPLES / "remote-run.json"), "--server", "remote1")
    assert r.exit_code == 0, r.output
    out = r.output
    assert out.startswith("CR 26.03: run")
    assert "6.9.1a" in out and "6.9.4c" in out and "7.5.4" in out
    assert ">> corp decides: rez" in out  # the first legal decision is taken automatically
    assert "Finished:" in out
    # rule text is printed under each event
    assert "6.1.2a The Runner announces the attacked server" in out


def test_step_with_decisions_stops_and_lists_legal_ones(cli):
    r = cli("step", str(EXAMPLES / "remote-run.json"), "--server", "remote1", "-d", "rez", "--no-rule-text")
    assert r.exit_code == 0, r.output
    assert "Waiting at 6.9.3b [step_encounter_paw]" in r.output
    assert "break:0" in r.output and "break:1" in r.output


def test_step_version_numbers(cli):
    key = {"SECRET_KEY": "cli-key", "NRRULES_SECRET_KEY": None}
    board = str(EXAMPLES / "remote-run.json")
    old = cli("step", board, "--server", "remote1", "-v", "24.03", "--json", env=key)
    new = cli("step", board, "--server", "remote1", "-v", "26.03", "--json", env=key)
    assert old.exit_code == 0 and new.exit_code == 0
    o, n = json.loads(old.stdout), json.loads(new.stdout)
    num = lambda data, step: next(e["step_number"] for e in data["trace"] if e["step"] == step)  # noqa: E731
    assert num(o, "step_initiation_complete") == "6.9.1d" and num(n, "step_initiation_complete") == "6.9.1f"
    assert o["finished"] and o["outcome"]["run"] in ("successful", "unsuccessful")
    # the printed token, signed with SECRET_KEY, holds the session's one serialised form: it
    # resumes the same session
    spec = spec_from_payload(serializer("cli-key").loads(n["token"]))
    s = engine.Session.from_json(spec.to_json(), load_doc("26.03"))
    assert s.finished and s.decisions == n["decisions_taken"] and len(s.trace) == n["trace_length"]


def test_step_json_without_a_key_says_its_token_opens_nowhere(cli):
    r = cli(
        "step",
        str(EXAMPLES / "remote-run.json"),
        "--server",
        "remote1",
        "--json",
        env={"SECRET_KEY": None, "NRRULES_SECRET_KEY": None},
    )
    assert r.exit_code == 0, r.output
    assert "SECRET_KEY is not set" in r.stderr and json.loads(r.stdout)["finished"]


def test_step_other_structures(cli, tmp_path):
    board = tmp_path / "b.json"
    board.write_text(json.dumps({"version": 1, "corp": {"credits": 2}}))
    r = cli(
        "step", str(board), "--structure", "trace", "--params", '{"strength": 1, "on_success": ["give_tags"]}'
    )
    assert r.exit_code == 2 and "params.on_success[0].amount: is required" in r.output
    r = cli(
        "step",
        str(board),
        "--structure",
        "trace",
        "--params",
        '{"strength": 1, "on_success": [{"effect": "give_tags", "amount": 1}]}',
        "-d",
        "spend:2",
        "-d",
        "spend:0",
    )
    assert r.exit_code == 0, r.output
    assert "10.8.6e" in r.output and "successful" in r.output


@pytest.mark.parametrize(
    "args, message",
    [
        (["step", "missing.json"], "error: cannot read board file missing.json"),
        (["step", "{board}", "--server", "remote9"], "params.server: unknown server 'remote9'"),
        (["step", "{board}", "--server", "hq", "-d", "fly"], "decision 'fly' is not legal"),
        (["step", "{board}", "--server", "hq", "-v", "99.99"], "error: CR version '99.99' is not available"),
        (["step", "{bad}", "--server", "hq"], "corp.credits: must be a non-negative integer"),
        (["step", "{notjson}"], "is not valid JSON"),
        (["step", "{board}", "--params", "[1]"], "--params must be a JSON object"),
        (["engine-coverage", "-v", "0.1"], "error: CR version '0.1' is not available"),
    ],
)
def test_errors_are_one_line_and_exit_2(cli, tmp_path, args, message):
    good = tmp_path / "good.json"
    good.write_text(json.dumps({"version": 1}))
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"version": 1, "corp": {"credits": -5}}))
    notjson = tmp_path / "x.json"
    notjson.write_text("{nope")
    args = [a.format(board=good, bad=bad, notjson=notjson) for a in args]
    r = cli(*args)
    assert r.exit_code == 2, r.output
    assert message in r.output
    lines = r.output.strip().splitlines()
    assert lines[0].startswith("error: ") and "Traceback" not in r.output
    # one line, or the board's problems listed under it
    assert all(line.startswith("  ") for line in lines[1:]), r.output
    assert isinstance(r.exception, SystemExit)


def test_engine_coverage_command(cli):
    r = cli("engine-coverage", "-v", "24.03")
    assert r.exit_code == 0, r.output
    assert "Engine coverage of CR 24.03" in r.output
    assert "6.9      A run" in r.output and "27/27" in r.output
    r = cli("engine-coverage", "--json")
    data = json.loads(r.output)
    assert data["version"] == "26.03" and data["all_steps"]["percent"] >= 90
    assert data["sections"]["run"]["steps"] == 29


def test_stdin_board(cli):
    r = cli(
        "step", "-", "--server", "archives", input=json.dumps({"version": 1, "corp": {"discard": ["Old"]}})
    )
    assert r.exit_code == 0, r.output
    assert "Old" in r.output
