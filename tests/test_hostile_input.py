"""Issue 16, items 5-7, 10, 11, 13 and 14: hostile input gets a clear 4xx (API, pages) or one
`error:` line and exit status 2 (CLI), never a RecursionError, a UnicodeEncodeError or a 500.
Deeply nested JSON, fields of the wrong type, lone surrogates, forged tokens, a missing
SECRET_KEY, --debug off loopback, usage errors, a build directory that cannot be written."""

from __future__ import annotations

import json
import os
import resource
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from itsdangerous import URLSafeSerializer

from rules_index.store import Library
from webapp import MissingSecretKey, create_app
from webapp.cli import main
from webapp.cli.serve import is_loopback
from webapp.jsonprovider import MAX_DEPTH, dumps_bytes
from webapp.tokens import MAX_PAYLOAD, SALT

EXAMPLES = Path(__file__).resolve().parent.parent / "webapp" / "examples"
KEY = "hostile-test-key"
DEEP_ARRAY = "[" * 5000 + "]" * 5000
DEEP_OBJECT = '{"a":' * 5000 + "1" + "}" * 5000
JUST_TOO_DEEP = "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1)  # orjson parses it; we refuse it


@pytest.fixture(scope="module")
def app(build_dir):
    return create_app({"TESTING": True, "BUILD_DIR": str(build_dir), "SECRET_KEY": KEY})


@pytest.fixture()
def client(app):
    return app.test_client()


@pytest.fixture(scope="module")
def board() -> dict:
    return json.loads((EXAMPLES / "01-hq-ice-wall.json").read_text())


@pytest.fixture(scope="module")
def token(app, board) -> str:
    resp = app.test_client().post(
        "/api/engine/sessions", json={"board": board, "structure": "run", "params": {"server": "hq"}}
    )
    assert resp.status_code == 201
    return resp.get_json()["token"]


def post_raw(client, url: str, body: str):
    return client.post(url, data=body, content_type="application/json")


def error_of(resp) -> str:
    assert 400 <= resp.status_code < 500, (resp.status_code, resp.data[:300])
    body = resp.get_json()
    assert body["status"] == resp.status_code
    return body["error"]


# ----- item 5: deeply nested JSON -------------------------------------------------------------


@pytest.mark.parametrize("body", [DEEP_ARRAY, DEEP_OBJECT, JUST_TOO_DEEP], ids=["array", "object", "65"])
@pytest.mark.parametrize("url", ["/api/engine/validate", "/api/engine/sessions", "DECIDE"])
def test_deep_json_bodies_are_400(client, token, url, body):
    url = f"/api/engine/sessions/{token}/decisions" if url == "DECIDE" else url
    assert "nested too deeply" in error_of(post_raw(client, url, body))


def test_json_as_deep_as_allowed_is_parsed(client):
    ok = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert "must be a JSON object" in error_of(post_raw(client, "/api/engine/validate", ok))


def test_deep_board_in_the_editor_form_is_a_400_page(client):
    resp = client.post("/editor", data={"board": DEEP_ARRAY, "structure": "run", "server": "hq"})
    assert resp.status_code == 400 and b"nested too deeply" in resp.data


# ----- item 6: fields of the wrong type -------------------------------------------------------


@pytest.mark.parametrize(
    ("extra", "field"),
    [
        ({"v": 5}, "v"),
        ({"version": 5}, "version"),
        ({"version": ["26.03"]}, "version"),
        ({"structure": 5}, "structure"),
        ({"seed": "x"}, "seed"),
        ({"seed": 1.5}, "seed"),
        ({"params": 5}, "params"),
        ({"params": []}, "params"),
    ],
)
def test_wrong_types_in_a_session_body_name_the_field(client, board, extra, field):
    body = {"board": board, "structure": "run", "params": {"server": "hq"}, **extra}
    assert field in error_of(client.post("/api/engine/sessions", json=body))


@pytest.mark.parametrize("decision", [5, None, ["pass"], {"id": "pass"}, True, ""])
def test_a_decision_that_is_not_a_string_is_400(client, token, decision):
    resp = client.post(f"/api/engine/sessions/{token}/decisions", json={"decision": decision})
    assert "decision" in error_of(resp)


@pytest.mark.parametrize("body", ["5", '"board"', "[]", "null"])
def test_a_body_that_is_not_an_object_is_400(client, body):
    assert "JSON object" in error_of(post_raw(client, "/api/engine/sessions", body))


# ----- item 7: lone surrogates ----------------------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        '{"decision": "\\ud800"}',
        '{"decision": "\\udfff pass"}',
        '{"\\ud800": 1, "decision": "pass"}',
    ],
)
def test_lone_surrogates_in_a_decision_are_400(client, token, body):
    assert "surrogate" in error_of(post_raw(client, f"/api/engine/sessions/{token}/decisions", body))


def test_lone_surrogates_in_a_card_name_or_key_are_400(client, board):
    text = json.dumps({"board": board, "structure": "run", "params": {"server": "hq"}})
    name = board["servers"]["hq"]["ice"][0]["name"]
    for hostile in (
        text.replace(name, name + "\\ud83d"),
        text.replace('"structure"', '"\\udc80":1,"structure"'),
    ):
        assert "surrogate" in error_of(post_raw(client, "/api/engine/sessions", hostile))
        assert "surrogate" in error_of(post_raw(client, "/api/engine/validate", hostile))
    form = client.post("/editor", data={"board": '{"x": "\\ud800"}', "structure": "run"})
    assert form.status_code == 400 and b"surrogate" in form.data


def test_answers_holding_a_lone_surrogate_are_still_valid_json():
    # Whatever still carries one (a file on disk, a payload built in code) is escaped, not a crash.
    body = dumps_bytes({"name": "\ud800 wall", "\udcff": [1]})
    assert json.loads(body) == {"name": "\ud800 wall", "\udcff": [1]}
    body.decode("ascii")


# ----- item 10: forged tokens -----------------------------------------------------------------


def forge(payload, key: str = KEY) -> str:
    return URLSafeSerializer(key, salt=SALT, serializer=json).dumps(payload)  # ASCII-escaped JSON


def session_error(client, token: str) -> str:
    return error_of(client.get(f"/api/engine/sessions/{token}"))


def test_a_token_unpacking_to_megabytes_is_refused(client, board):
    bomb = {
        "v": "26.03",
        "s": "run",
        "b": {**board, "pad": "0" * (4 * MAX_PAYLOAD)},
        "d": [],
        "p": {},
        "r": 0,
    }
    token = forge(bomb)
    assert len(token) < 12000  # it gets past the length check: only the unpacking cap stops it
    assert "invalid" in session_error(client, token)


def test_a_token_within_the_cap_still_opens(client, board, token):
    assert client.get(f"/api/engine/sessions/{token}").status_code == 200
    ok = forge({"v": "26.03", "s": "run", "b": board, "d": [], "p": {"server": "hq"}, "r": 3})
    assert client.get(f"/api/engine/sessions/{ok}").get_json()["seed"] == 3


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("r", "7"),
        ("r", [1]),
        ("r", True),
        ("r", -1),
        ("r", 2**40),
        ("d", "pass"),
        ("d", [1, 2]),
        ("d", [{"id": "x"}]),
        ("v", 26.03),
        ("v", None),
        ("s", ["run"]),
        ("b", "board"),
        ("p", [1]),
    ],
)
def test_every_token_field_is_type_checked(client, board, field, value):
    payload = {"v": "26.03", "s": "run", "b": board, "d": [], "p": {"server": "hq"}, "r": 0}
    payload[field] = value
    assert f"'{field}'" in session_error(client, forge(payload))


def test_deep_or_surrogate_token_payloads_are_refused(client):
    deep = forge({"v": "26.03", "s": "run", "b": json.loads("[" * 80 + "]" * 80), "d": []})
    assert "invalid" in session_error(client, deep)
    # a token with a lone surrogate can only come from a forger: refused like any damage
    lone = forge({"v": "26.03", "s": "\ud800", "b": {}, "d": []})
    assert "invalid" in session_error(client, lone)


# ----- item 11: SECRET_KEY --------------------------------------------------------------------


@pytest.mark.parametrize("value", [None, ""])
def test_the_app_refuses_to_start_without_a_secret_key(build_dir, monkeypatch, value):
    monkeypatch.delenv("SECRET_KEY", raising=False)
    monkeypatch.delenv("NRRULES_SECRET_KEY", raising=False)
    if value is not None:
        monkeypatch.setenv("SECRET_KEY", value)
    with pytest.raises(MissingSecretKey, match="SECRET_KEY is not set"):
        create_app({"BUILD_DIR": str(build_dir)})
    operator_key = "set-by-the-operator-" + "k" * 12  # 32 bytes
    monkeypatch.setenv("SECRET_KEY", operator_key)
    assert create_app({"BUILD_DIR": str(build_dir)}).config["SECRET_KEY"] == operator_key


@pytest.mark.parametrize("value", ["k", "x" * 31, "é" * 15 + "x", "set-by-the-operator"])
def test_a_secret_key_under_32_bytes_is_refused(build_dir, monkeypatch, value):
    monkeypatch.delenv("NRRULES_SECRET_KEY", raising=False)
    monkeypatch.setenv("SECRET_KEY", value)
    with pytest.raises(MissingSecretKey, match=r"SECRET_KEY is too short \(\d+ bytes, at least 32"):
        create_app({"BUILD_DIR": str(build_dir)})
    # counted in bytes: 16 two-byte characters are enough
    monkeypatch.setenv("SECRET_KEY", "é" * 16)
    assert create_app({"BUILD_DIR": str(build_dir)}).config["SECRET_KEY"] == "é" * 16
    # `nrrules serve` with the short key: one error line, no traceback, nothing served
    monkeypatch.setenv("SECRET_KEY", value)
    monkeypatch.delenv("NRRULES_BUILD_DIR", raising=False)  # serve sets it: restored after the test
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    r = CliRunner().invoke(main, ["serve", "--port", str(port), "--build-dir", str(build_dir)])
    assert r.exit_code == 2 and isinstance(r.exception, SystemExit)
    assert r.stderr.startswith("error: SECRET_KEY is too short") and r.stderr.count("\n") == 1
    # tests (TESTING) keep any key, short ones included
    assert (
        create_app({"BUILD_DIR": str(build_dir), "TESTING": True, "SECRET_KEY": "t"}).config["SECRET_KEY"]
        == "t"
    )


# ----- item 13: --debug off loopback ----------------------------------------------------------


@pytest.mark.parametrize(
    ("host", "local"),
    [("127.0.0.1", True), ("127.1.2.3", True), ("::1", True), ("[::1]", True), ("localhost", True),
     ("0.0.0.0", False), ("::", False), ("192.168.1.10", False), ("example.org", False)],
)  # fmt: skip
def test_loopback_hosts(host, local):
    assert is_loopback(host) is local


def test_debug_is_refused_off_loopback(build_dir):
    r = CliRunner().invoke(main, ["serve", "--host", "0.0.0.0", "--debug", "--build-dir", str(build_dir)])
    assert r.exit_code == 2
    assert r.stderr.startswith("error: --debug is refused on --host 0.0.0.0") and r.stderr.count("\n") == 1


# ----- item 14: the CLI -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def cli(build_dir):
    runner = CliRunner()
    return lambda *args: runner.invoke(main, [*args, "--build-dir", str(build_dir)])


def one_error_line(result, code: int = 2) -> str:
    assert result.exit_code == code, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    return lines[0]


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["rule"], "Missing argument"),
        (["nosuchcommand"], "No such command"),
        (["rule", "6.9.4c", "--bogus"], "No such option"),
        (["search", "-n", "0", "x"], "'--limit'"),
        (["graph", "6.9.4c", "--k", "x"], "--k"),
        (["step", "board.json", "--seed", "x"], "--seed"),
    ],
)
def test_usage_errors_are_one_error_line_with_status_2(cli, args, says):
    line = one_error_line(cli(*args))
    assert says in line and "--help" in line


def test_no_match_is_one_error_line(cli):
    line = one_error_line(cli("search", "zzqqxxyyzz"), code=1)  # nothing found: 1, as grep
    assert "no rules match" in line
    # the exit statuses are documented where a user looks: `nrrules --help`
    assert "1 when nothing matches (as grep), 2 for bad input" in " ".join(
        CliRunner().invoke(main, ["--help"]).output.split()
    )


@pytest.mark.parametrize("arg", ["\udcff\udcfe", "6.9.4c\udc80", "\ud800"])
@pytest.mark.parametrize("command", ["rule", "search", "refs", "card", "term"])
def test_surrogates_in_arguments_never_crash_the_cli(cli, command, arg):
    result = cli(command, arg)
    assert result.exit_code in (0, 1, 2), result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(result.exception)
    if result.exit_code:
        one_error_line(result, result.exit_code)


def test_surrogates_in_option_values_are_one_error_line(cli):
    assert "not available" in one_error_line(cli("rule", "1.1", "--version", "\udcff"))


def test_deep_boards_and_params_are_one_error_line(cli, tmp_path, board):
    deep = tmp_path / "deep.json"
    deep.write_text(DEEP_ARRAY)
    assert "nested too deeply" in one_error_line(cli("step", str(deep), "--server", "hq"))
    good = tmp_path / "good.json"
    good.write_text(json.dumps(board))
    assert "--params is nested too deeply" in one_error_line(cli("step", str(good), "--params", DEEP_OBJECT))
    odd = tmp_path / "surrogate.json"
    odd.write_text(json.dumps(board).replace('"hq"', '"\\ud800"', 1))
    assert "surrogate" in one_error_line(cli("step", str(odd), "--server", "hq"))


def test_an_over_long_build_dir_is_one_error_line(tmp_path):
    long_dir = tmp_path / ("x" * 300)
    for args in (["versions"], ["rule", "1.1"], ["build", "--source", str(tmp_path / "nope.html")]):
        result = CliRunner().invoke(main, [*args, "--build-dir", str(long_dir)])
        one_error_line(result)


def _fsize_limit() -> None:  # a full disk, as a process sees it: writes past the limit fail
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (200_000, 200_000))


def test_a_full_disk_during_a_build_is_one_error_line(tmp_path, cr_dir):
    proc = subprocess.run(
        [sys.executable, "-c", "from webapp.cli import main; main()", "build", "--source",
         str(cr_dir / "cr-26.03.html"), "--build-dir", str(tmp_path / "b")],
        preexec_fn=_fsize_limit, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert proc.returncode == 2, proc.stderr
    assert proc.stdout == "" and proc.stderr.count("\n") == 1 and proc.stderr.startswith("error: ")
    assert "File too large" in proc.stderr


@pytest.mark.parametrize("host", ["x" * 300, "192.0.2.1"])  # too long a name; TEST-NET: no DNS asked
def test_serve_on_a_host_it_cannot_listen_on_is_one_error_line(build_dir, host):
    result = CliRunner().invoke(main, ["serve", "--host", host, "--port", "8", "--build-dir", str(build_dir)])
    assert "cannot listen on" in one_error_line(result)


def test_versions_name_each_source_without_a_server_path(client, cli, build_dir):
    """Issue 16, item 12: /api/versions and `nrrules versions --json` give each source's file
    name (or URL), never the server's path to it, although the build records the path."""
    recorded = [v.source for v in Library.open(build_dir).versions()]
    assert all(s.startswith("/") for s in recorded)  # what must not be disclosed
    for data in (client.get("/api/versions").get_json(), json.loads(cli("versions", "--json").output)):
        sources = [v["source"] for v in data["versions"]]
        assert sources == [Path(s).name for s in recorded]
        assert not any(str(Path(s).parent) in json.dumps(data) for s in recorded)


def test_a_reader_that_stops_reading_is_not_an_error(build_dir):
    """`nrrules rule 6.9.4c | head -0`: when the reader has closed the pipe, the command stops
    quietly with status 0, not "error: Broken pipe" and status 2 (it did, now and then, under
    `| head -1`). Deterministic: the pipe's read end is closed before the command writes."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        proc = subprocess.run(  # noqa: S603
            [sys.executable, "-c", "from webapp.cli import main; main()", "rule", "6.9.4c",
             "--build-dir", str(build_dir)],
            stdout=write_end,
            stderr=subprocess.PIPE,
            timeout=120,
        )  # fmt: skip
    finally:
        os.close(write_end)
    err = proc.stderr.decode()
    assert proc.returncode == 0, err
    assert "error" not in err.lower() and "Traceback" not in err, err


def test_the_mcp_server_refuses_a_short_secret_key(build_dir, monkeypatch):
    """The MCP server signs engine tokens the web app opens: a key it is given must be as long as
    the web app needs (32 bytes), and a short one is one error line, nothing served."""
    monkeypatch.delenv("NRRULES_SECRET_KEY", raising=False)
    monkeypatch.setenv("SECRET_KEY", "short")
    r = CliRunner().invoke(main, ["mcp", "--build-dir", str(build_dir)])
    assert r.exit_code == 2 and r.stderr.startswith("error: SECRET_KEY is too short")
    assert r.stderr.count("\n") == 1 and r.stdout == ""
