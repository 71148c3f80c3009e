"""The CLI and the API are two faces of one payload: for every command with `--json`, its
output equals the body of the matching API GET, and its errors say what the API's errors say."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from webapp import create_app
from webapp.cli import main

# (command line, the API GET that answers the same question)
TWINS = [
    (["versions"], "/api/versions"),
    (["rule", "6.9.4c"], "/api/rules/6.9.4c"),
    (["rule", "6.9.4+"], "/api/rules/6.9.4+"),
    (["rule", "6.9.4", "--children"], "/api/rules/6.9.4?children=1"),
    (["rule", "step_jack_out_choice", "-v", "22.12"], "/api/rules/step_jack_out_choice?v=22.12"),
    (["rule", "6"], "/api/rules/6"),
    (["refs", "6.9.4c"], "/api/rules/6.9.4c/refs"),
    (["refs", "rule_paid_ability", "-v", "24.03"], "/api/rules/rule_paid_ability/refs?v=24.03"),
    (["graph", "rule_paid_ability", "-k", "2"], "/api/rules/rule_paid_ability/graph?k=2"),
    (["graph", "6.9.4c", "--kinds", "cites,contains"], "/api/rules/6.9.4c/graph?kinds=cites,contains"),
    (["across", "6.9.4c"], "/api/rules/6.9.4c/versions"),
    (["card-coverage"], "/api/cards/coverage"),
    (["card-coverage", "--all"], "/api/cards/coverage?pool=all"),
    (["search", "jack", "out"], "/api/search?q=jack%20out"),
    (["search", "6.9.4c", "-n", "5"], "/api/search?q=6.9.4c&limit=5"),
    (["search", "PAW", "-v", "22.12"], "/api/search?q=PAW&v=22.12"),
    (["search", "jack", "out", "-s", "rules"], "/api/search?q=jack%20out&source=rules"),
    (["search", "mrkt"], "/api/search?q=mrkt"),  # nothing found: spelling, did-you-mean, looser
    (["search", "6.9.4z"], "/api/search?q=6.9.4z"),  # a number naming no rule: the nearest rules
    (["structures"], "/api/engine/structures"),
    (["structures", "-v", "24.03"], "/api/engine/structures?v=24.03"),
    (["history", "6.1.5"], "/api/history/6.1.5"),
    (["history", "step_jack_out_choice", "-v", "22.12"], "/api/history/step_jack_out_choice?v=22.12"),
    (["changes", "25.08", "26.03"], "/api/changes/25.08..26.03"),
    (["card", "Sn@re!"], "/api/cards/Sn@re!"),
    (["card", "the", "cleaners", "-v", "22.12"], "/api/cards/the%20cleaners?v=22.12"),
    (["rulings", "funhouse"], "/api/cards/funhouse/rulings"),
    (
        ["card-search", "end", "the", "run", "--source", "rulings", "-n", "5"],
        "/api/cards?q=end+the+run&source=rulings&limit=5",
    ),
    (["card-search", "snare"], "/api/cards?q=snare"),
    (["term", "paid", "ability"], "/api/terms/paid%20ability"),
    (["term", "R&D", "-v", "22.12"], "/api/terms/R%26D?v=22.12"),
]

# Commands with --json that answer questions the API does not serve (yet): each says why.
NO_API_TWIN = {
    "path": "a citation path between two rules; the API serves the graph neighbourhood instead",
    "most-cited": "a whole-graph statistic for the command line",
    "engine-coverage": "a report on the engine's scenario suite, for developers",
    "judge": "searches judges' documents, which the shared test build does not hold; its twin "
    "/api/judge/search is compared in test_judge_history_web.py",
    "annotate": "its twin is a POST (/api/annotate, the log as the body), compared in test_gamelog.py",
}

# `nrrules step` prints a session's state: the body of GET /api/engine/sessions/<token> for the
# token it prints (signed with the server's SECRET_KEY). (arguments after the board file)
BOARD = Path(__file__).resolve().parent.parent / "webapp" / "examples" / "02-remote-agenda.json"
STEP_TWINS = [
    ["--server", "remote1"],  # every stop takes its first legal decision: a finished session
    ["--server", "remote1", "-d", "rez", "-v", "22.12"],  # waiting, in an older version
    ["--structure", "runner_turn", "--seed", "7", "-d", "pass"],
    ["--server", "hq", "--params", '{"additional_access": 1}'],
]

# (command line, the API GET, the status the API answers)
ERROR_TWINS = [
    (["rule", "6.9.9"], "/api/rules/6.9.9", 404),
    (["rule", "6.9.4c", "-v", "0.1"], "/api/rules/6.9.4c?v=0.1", 404),
    (["refs", "no_such_rule_id"], "/api/rules/no_such_rule_id/refs", 404),
    (["graph", "6.9.4c", "--kinds", "bogus"], "/api/rules/6.9.4c/graph?kinds=bogus", 400),
    (["search", "x", "-v", "99.9"], "/api/search?q=x&v=99.9", 404),
    (["search", "x", "-s", "bogus"], "/api/search?q=x&source=bogus", 400),
    (["structures", "-v", "1.0"], "/api/engine/structures?v=1.0", 404),
    (["card", "zzqqxx", "no", "card"], "/api/cards/zzqqxx%20no%20card", 404),
    (["card-search", "x" * 201], "/api/cards?q=" + "x" * 201, 400),
    (["term", "zzqqxx", "no", "term"], "/api/terms/zzqqxx%20no%20term", 404),
    (["term", "y" * 101], "/api/terms/" + "y" * 101, 400),
]


# The shared build with card data beside the six CR versions (the card commands need it).
@pytest.fixture(scope="module")
def client(cards_built):
    return create_app({"TESTING": True, "BUILD_DIR": str(cards_built), "SECRET_KEY": "twins"}).test_client()


@pytest.fixture(scope="module")
def cli(cards_built):
    build_dir = cards_built
    runner = CliRunner()
    return lambda args: runner.invoke(main, [*args, "--build-dir", str(build_dir)])


def _json_commands() -> set[str]:
    return {
        name
        for name, command in main.commands.items()
        if any("--json" in getattr(p, "opts", ()) for p in command.params)
    }


def test_every_json_command_is_paired_or_says_why():
    paired = {args[0] for args, _ in TWINS} | {"step"}
    assert _json_commands() == paired | set(NO_API_TWIN), "a --json command needs a row in TWINS"
    assert not paired & set(NO_API_TWIN)


@pytest.mark.parametrize(("args", "url"), TWINS, ids=[" ".join(a) for a, _ in TWINS])
def test_cli_json_is_the_api_body(cli, client, args, url):
    result = cli([*args, "--json"])
    assert result.exit_code == 0, result.output
    resp = client.get(url)
    assert resp.status_code == 200, resp.get_data(as_text=True)[:300]
    assert json.loads(result.output) == resp.get_json()


@pytest.mark.parametrize("args", STEP_TWINS, ids=[" ".join(a) for a in STEP_TWINS])
def test_step_json_is_the_api_session_body(cards_built, client, args):
    runner = CliRunner()
    result = runner.invoke(
        main,
        ["step", str(BOARD), *args, "--json", "--build-dir", str(cards_built)],
        env={"SECRET_KEY": "twins", "NRRULES_SECRET_KEY": None},
    )
    assert result.exit_code == 0, result.output
    printed = json.loads(result.stdout)
    resp = client.get(f"/api/engine/sessions/{printed['token']}")
    assert resp.status_code == 200, resp.get_data(as_text=True)[:300]
    assert printed == resp.get_json()
    assert printed["url"] == f"/step?s={printed['token']}"
    # the stepper page shows the same position
    page = client.get(printed["url"]).get_data(as_text=True)
    assert printed["token"] in page and (printed["finished"] or printed["current_step"]["number"] in page)


@pytest.mark.parametrize(("args", "url", "status"), ERROR_TWINS, ids=[" ".join(a) for a, _, _ in ERROR_TWINS])
def test_cli_errors_say_what_the_api_says(cli, client, args, url, status):
    resp = client.get(url)
    assert resp.status_code == status
    body = resp.get_json()
    result = cli([*args, "--json"])
    assert result.exit_code == (1 if status == 404 and "suggestions" in body else 2), result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {body['error']}")
    for near in body.get("suggestions", []):
        assert near in lines[0]
