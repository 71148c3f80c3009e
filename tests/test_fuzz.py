"""Fuzzing every route and every CLI command with the hostile input classes of issue 16.

Hypothesis draws requests and command lines from hostile values (deep JSON, wrong types, lone
surrogates, cubic-regex bait, huge and forged tokens, traversal, markup, control characters,
numbers out of range) mixed with valid ones, so that the hostile part sits next to a valid
version, rule or token and reaches deep code. Routes and commands are read from the app's URL
map and the `nrrules` group, so a new one is fuzzed without a change here.

Asserted for every answer: no 5xx (but the documented 503 of a part not built), no traceback or
server path in the body, and an /api/ error
is JSON ``{"error": <non-empty>, "status": <its code>}``; for every command: exit status 0, 1 or
2, no exception other than SystemExit, and a failure is exactly one ``error:`` line on stderr.

Bounded for CI: examples are derandomized (the same every run) and few per route/command; the
whole file takes well under a minute with ``-n 2``. Set NRRULES_FUZZ_EXAMPLES to dig deeper.
"""

from __future__ import annotations

import json
import os
import re
from urllib.parse import quote

import pytest
from click.testing import CliRunner
from helpers import ROOT, VERSIONS
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from itsdangerous import URLSafeSerializer

from webapp import create_app
from webapp.cli import main
from webapp.cli.serve import is_loopback
from webapp.tokens import SALT

KEY = "fuzz-key"
EXAMPLES = int(os.environ.get("NRRULES_FUZZ_EXAMPLES", "12"))
CLI_EXAMPLES = max(3, EXAMPLES // 3)
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
BOARD = json.loads((ROOT / "webapp" / "examples" / "01-hq-ice-wall.json").read_text())

# ----- hostile values ---------------------------------------------------------------------------

SURROGATES = ["\ud800", "\udfff", "a\udc80b", "6.9.4c\ud83d"]
HOSTILE_TEXT = [
    "",
    " ",
    "1" + " " * 298 + "!",  # the rule-number regex was cubic in this (issue 16, item 9)
    "6.9.4c " * 60,
    "6" + ".9" * 200,
    "x" * 5000,
    "../../../../etc/passwd",
    "..%2F..%2Fetc%2Fpasswd",
    "/etc/passwd",
    "<script>alert(1)</script>",
    '"><img src=x onerror=alert(1)>',
    "{{7*7}}{% raw %}",
    "%s%s%n%x",
    "' OR 1=1 --",
    "\x00",
    "\r\nSet-Cookie: a=b",
    "\x1b[31m",
    "a*b*c*d*e*f*g*h*",
    "*" * 40,
    "(((((((((((",
    'jack~9 AND OR NOT "',
    "title:x id:y",
    "😀" * 50,
    "ℌ𝔢𝔩𝔩𝔬 İı ß",
    "-1",
    "0",
    "99999999999999999999999",
    "1e308",
    "NaN",
    "latest",
    "v26.03",
    "0.1",
    "26.03" + "0" * 50,
    "https://evil.example/x",
    "//evil.example",
    "\t/evil.example",  # a browser drops the tab: "//evil.example" (issue 38)
    "/\\evil.example",
    "\n",
    "a\nb",
    "x\r\n/evil.example",
    "javascript:alert(1)",
    "?r=step_jack_out_choice",
    "6.9.4c+",
    "6.9.4+",
    "step_jack_out_choice",
    "rule_card_precedence",
    "6.9.4c",
    "22.12",
    "26.03",
    "22.12..26.03",
    "26.03..22.12",
    "ice_wall",
    "Ice Wall",
    "true",
    "1",
    "50",
    "cites,contains",
    "bogus,,",
]
VALID_REFS = ["6.9.4c", "6.9", "1.2.1", "step_jack_out_choice", "7.2"]
DEEP_JSON = ["[" * 5000 + "]" * 5000, '{"a":' * 3000 + "1" + "}" * 3000, "[" * 70 + "]" * 70]


def text_values() -> st.SearchStrategy[str]:
    return st.one_of(
        st.sampled_from(HOSTILE_TEXT + VALID_REFS + VERSIONS),
        st.sampled_from(SURROGATES),
        st.text(max_size=30),
        st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0x10FFFF), max_size=12),
    )


def json_values() -> st.SearchStrategy:
    leaves = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(min_value=-(2**70), max_value=2**70),
        st.floats(allow_nan=False),
        text_values(),
    )
    return st.recursive(
        leaves,
        lambda kids: st.lists(kids, max_size=4) | st.dictionaries(text_values(), kids, max_size=4),
        max_leaves=12,
    )


def body_texts() -> st.SearchStrategy[str]:
    """Request bodies: raw hostile text, deep JSON, surrogate escapes, and objects whose known
    fields (board, structure, params, seed, v, version, decision) hold anything."""
    fields = st.fixed_dictionaries(
        {},
        optional={
            "board": st.one_of(st.just(BOARD), json_values()),
            "structure": st.one_of(st.sampled_from(["run", "corp_turn", "breach"]), json_values()),
            "params": st.one_of(st.just({"server": "hq"}), json_values()),
            "seed": json_values(),
            "v": json_values(),
            "version": json_values(),
            "decision": st.one_of(st.sampled_from(["pass", "rez", "jack_out"]), json_values()),
        },
    )
    return st.one_of(
        fields.map(lambda d: json.dumps(d)),
        json_values().map(lambda v: json.dumps(v)),
        st.sampled_from(DEEP_JSON + ['{"decision": "\\ud800"}', '{"\\udc80": 1}', "{", "", "null", "\x00"]),
        st.text(max_size=40),
    )


def url_part(value: str) -> str:
    """`value` percent-encoded as bytes (lone surrogates become the invalid UTF-8 a client sends)."""
    return quote(value.encode("utf-8", "surrogatepass"), safe="")


# ----- the app ----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def app(cards_built):
    # the session build with card data, so the card routes answer rather than say "not built"
    # and a Discord key, so the bot's endpoint checks signatures rather than say "not configured"
    return create_app(
        {
            "TESTING": True,
            "BUILD_DIR": str(cards_built),
            "SECRET_KEY": KEY,
            "DISCORD_PUBLIC_KEY": "03a107bff3ce10be1d70dd18e74bc09967e4d6309ba50d5f1ddc8664125531b8",
        }
    )


@pytest.fixture(scope="module")
def tokens(app) -> list[str]:
    """A real session token, tokens mangled from it and tokens forged with the app's key."""
    client = app.test_client()
    real = client.post(
        "/api/engine/sessions", json={"board": BOARD, "structure": "run", "params": {"server": "hq"}}
    ).get_json()["token"]
    forger = URLSafeSerializer(KEY, salt=SALT, serializer=json)
    good = {"v": "26.03", "s": "run", "b": BOARD, "d": [], "p": {"server": "hq"}, "r": 0}
    forged = [
        forger.dumps({**good, "b": {**BOARD, "pad": "0" * 3_000_000}}),  # a zip bomb, signed
        forger.dumps({**good, "d": ["pass"] * 5000}),
        forger.dumps({**good, "d": [5]}),
        forger.dumps({**good, "r": "x"}),
        forger.dumps({**good, "v": 26.03}),
        forger.dumps({**good, "s": "\ud800"}),
        forger.dumps({**good, "b": json.loads("[" * 60 + "]" * 60)}),
        forger.dumps(["not", "a", "session"]),
    ]
    return [real, real[:-3], real[::-1], real + "A" * 12000, "." + real, real.replace(".", "!"), *forged]


def fuzz_routes(app) -> list[tuple[str, str]]:
    out = []
    for rule in app.url_map.iter_rules():
        for method in sorted((rule.methods or set()) - {"HEAD", "OPTIONS"}):
            out.append((method, rule.rule))
    return sorted(out)


ROUTES = fuzz_routes(create_app({"TESTING": True, "BUILD_DIR": str(ROOT / "no-build"), "SECRET_KEY": KEY}))
PARAMS = ["q", "v", "r", "s", "k", "kinds", "limit", "children", "example", "texts", "trace", "print", "h"]
# keys that url_for() takes as its own arguments (a view passing the query to it 500ed: issue 38)
PARAMS += ["ref", "_method", "endpoint", "_external", "_scheme", "_anchor", "values", "node_id", "version"]
HOST = "evil.example"  # every request's Host header: it must never reach a redirect
SERVER_PATHS = (str(ROOT), "/tmp/", "/home/", "site-packages")


IN_SITE = re.compile(r"/(?![/\\])[\x21-\x7e]*")  # one leading slash, then printable ASCII only


def check_answer(resp, path: str, method: str) -> None:
    body = resp.get_data()
    where = f"{method} {path[:200]} -> {resp.status_code}"
    if 300 <= resp.status_code < 400 and resp.status_code != 304:
        location = resp.headers.get("Location", "")
        assert IN_SITE.fullmatch(location), f"{where}: redirects off-site to {location!r}"
        assert "\\" not in location, f"{where}: {location!r}"
    if resp.status_code == 503:  # only the documented "this part is not built (or damaged)" answer
        data = resp.get_json(silent=True) if path.startswith("/api/") else None
        assert data is None or "build" in data.get("error", ""), where + f": {body[:300]!r}"
        assert b"build" in body, where + f": {body[:300]!r}"
    else:
        assert resp.status_code < 500, where + f": {body[:300]!r}"
    assert b"Traceback" not in body, where
    text = body.decode("utf-8")  # every answer is valid UTF-8
    for leak in SERVER_PATHS:
        assert leak not in text, f"{where}: leaks {leak!r}"
    if resp.status_code >= 400 and path.startswith("/api/"):
        data = resp.get_json()
        assert isinstance(data, dict) and data.get("status") == resp.status_code, where
        assert isinstance(data.get("error"), str) and data["error"].strip(), where


def fill(rule: str, values: list[str], tokens: list[str], pick: int) -> str:
    """The rule's path with every <converter> replaced by a drawn value (a token for tokens)."""
    it = iter(values)

    def sub(m: re.Match) -> str:
        name = m.group(1).split(":")[-1]
        if name == "token":
            return url_part(tokens[pick % len(tokens)])
        return url_part(next(it, "6.9.4c"))

    return re.sub(r"<([^>]+)>", sub, rule)


BAIT = "1" + " " * 298 + "!"
WRONG_TYPES = json.dumps({"board": BOARD, "structure": 5, "v": 5, "version": [1], "seed": "x", "decision": 5})
# Every input class of issue 16 reaches every route at least once, whatever Hypothesis draws;
# `pick` chooses the token (see `tokens`: 6 is the signed zip bomb, 7-13 forged fields).
CLASSES = [
    dict(parts=[BAIT, BAIT], query={"q": BAIT, "v": BAIT}, pick=0, body=DEEP_JSON[0], as_form=False),
    dict(
        parts=["\ud800", "6.9.4c\udc80"],
        query={"q": "\ud800", "s": "x"},
        pick=6,
        body=DEEP_JSON[1],
        as_form=True,
    ),
    dict(
        parts=["x" * 5000, "26.03"], query={"v": "\udfff", "k": "-1"}, pick=7, body=WRONG_TYPES, as_form=False
    ),
    dict(
        parts=["6.9.4c", "../../etc/passwd"],
        query={"s": "", "limit": "1e308"},
        pick=8,
        body='{"decision": "\\ud800"}',
        as_form=False,
    ),
    dict(
        parts=["<script>", "{{7*7}}"],
        query={"kinds": "bogus,,", "r": "//evil.example"},
        pick=9,
        body=DEEP_JSON[2],
        as_form=True,
    ),
    dict(
        parts=["step_jack_out_choice", "22.12"],
        query={"children": "1", "texts": "1"},
        pick=10,
        body='{"\\udc80": 1}',
        as_form=False,
    ),
    dict(parts=["6.9.4c", "26.03"], query={"v": "22.12", "trace": "1"}, pick=11, body="null", as_form=False),
    dict(parts=["1.2.1", "25.04"], query={"example": "\x00"}, pick=12, body="[1]", as_form=False),
    dict(parts=["6.9", "23.08"], query={"q": "a*b*c*d*e*f*g*h*"}, pick=13, body="", as_form=True),
    dict(parts=["7.2", "24.03"], query={}, pick=3, body="{", as_form=False),
    # issue 38: line breaks in a path, url_for()'s own keys in a query, off-site redirects
    dict(
        parts=["26.03", "a\nb"],
        query={"ref": "x", "_method": "x", "endpoint": "x"},
        pick=1,
        body="{}",
        as_form=False,
    ),
    dict(parts=["26.03", "\t/evil.example"], query={"v": "\n"}, pick=4, body="[]", as_form=False),
    dict(
        parts=["Ice Wall", "\t/evil.example"],
        query={"ref": "x", "_method": "x", "endpoint": "x"},
        pick=1,
        body="{}",
        as_form=False,
    ),
    dict(
        parts=["Ice Wall", "\r\n"],
        query={"_external": "1", "_scheme": "https", "_anchor": "x", "values": "1"},
        pick=2,
        body="[]",
        as_form=True,
    ),
]


def with_classes(test):
    for case in reversed(CLASSES):
        test = example(**case)(test)
    return test


@pytest.mark.parametrize(("method", "rule"), ROUTES, ids=[f"{m} {r}" for m, r in ROUTES])
def test_fuzz_route(app, tokens, method, rule):
    client = app.test_client()

    @FUZZ
    @with_classes
    @given(
        parts=st.lists(text_values(), min_size=2, max_size=2),
        query=st.dictionaries(st.sampled_from(PARAMS), text_values(), max_size=3),
        pick=st.integers(min_value=0, max_value=100),
        body=body_texts(),
        as_form=st.booleans(),
    )
    def run(parts, query, pick, body, as_form):
        path = fill(rule, parts, tokens, pick)
        if "s" in query and pick % 2:
            query["s"] = tokens[pick % len(tokens)]
        qs = "&".join(f"{url_part(k)}={url_part(v)}" for k, v in query.items())
        url = f"{path}?{qs}" if qs else path
        if method == "GET":
            resp = client.get(url, headers={"Accept-Encoding": "identity", "Host": HOST})
        elif as_form:  # the pages' forms (editor, stepper) and form bodies sent to the API
            form = {
                "board": body,
                "s": tokens[pick % len(tokens)],
                "decision": parts[0],
                "structure": parts[1],
            }
            encoded = "&".join(f"{k}={url_part(v)}" for k, v in form.items())  # as a browser sends it
            resp = client.post(
                url, data=encoded, content_type="application/x-www-form-urlencoded", headers={"Host": HOST}
            )
        else:
            resp = client.post(
                url,
                data=body.encode("utf-8", "surrogatepass"),
                content_type="application/json",
                headers={"Host": HOST},
            )
        check_answer(resp, path, method)

    run()


# ----- the CLI ----------------------------------------------------------------------------------

SLOW_OR_SERVING = {"serve", "build", "export", "mcp"}  # fuzzed below with inputs that cannot start work
COMMANDS = sorted(set(main.commands) - SLOW_OR_SERVING)


def check_command(result, args: list[str]) -> None:
    where = f"nrrules {' '.join(a[:40] for a in args)!r} -> {result.exit_code}"
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"{where}: {result.exception!r}"
    )
    assert result.exit_code in (0, 1, 2), where
    assert "Traceback" not in result.output, where
    if result.exit_code:
        # lines end in "\n" only: str.splitlines would also split at a value's \x1c-\x1e or \x85
        lines = result.stderr.rstrip("\n").split("\n")
        assert len(lines) == 1 and lines[0].startswith("error: "), f"{where}: {result.stderr[:500]!r}"


def option_values(cmd) -> list[tuple[str, object]]:
    """(flag, value kind) for each option of a command; value kind None for a flag."""
    out = []
    for p in cmd.params:
        if p.param_type_name != "option" or p.name == "build_dir" or not p.opts:
            continue
        out.append((p.opts[-1], None if p.is_flag else p))
    return out


@pytest.fixture(scope="module")
def board_files(tmp_path_factory) -> list[str]:
    folder = tmp_path_factory.mktemp("boards")
    files = []
    for i, text in enumerate([json.dumps(BOARD), *DEEP_JSON, '{"x": "\\ud800"}', "not json", "[]", ""]):
        path = folder / f"b{i}.json"
        path.write_text(text)
        files.append(str(path))
    files.append(str(folder / "missing.json"))
    files.append(str(folder))  # a folder, not a file
    return files


@pytest.mark.parametrize("name", COMMANDS)
def test_fuzz_command(cards_built, board_files, name):
    build_dir = cards_built
    cmd = main.commands[name]
    runner = CliRunner()
    arguments = [p for p in cmd.params if p.param_type_name == "argument"]
    options = option_values(cmd)

    @settings(FUZZ, max_examples=CLI_EXAMPLES)
    @example(values=[BAIT, "\udcff\udcfe", "x" * 5000, "6.9.4c\ud800"], chosen=options[:3], pick=1)
    @example(values=["6.9.4c", "../../etc/passwd", "\x00", "-1"], chosen=options[-2:], pick=2)
    @given(
        values=st.lists(text_values(), min_size=4, max_size=4),
        chosen=st.lists(st.sampled_from(options), max_size=3) if options else st.just([]),  # a group has none
        pick=st.integers(min_value=0, max_value=100),
    )
    def run(values, chosen, pick):
        it = iter(values)
        args = [name]
        for p in arguments:
            if p.name == "board_json":
                args.append(board_files[pick % len(board_files)])
            else:
                args.append(next(it, "6.9.4c"))
        for flag, kind in chosen:
            args.append(flag)
            if kind is not None:
                args.append(DEEP_JSON[pick % 3] if flag == "--params" else next(it, "x"))
        args += ["--build-dir", str(build_dir)]
        check_command(runner.invoke(main, args), args)

    run()


@settings(FUZZ, max_examples=CLI_EXAMPLES)
@given(value=text_values(), port=st.one_of(st.integers(), text_values()))
def test_fuzz_serve_export_build_refuse_cleanly(build_dir, tmp_path_factory, value, port):
    """The commands that start long work, given only inputs that must be refused first:
    serve with --debug off loopback or a bad port, mcp --http with a bad port or path, export
    of a version that is not built, build of a source that is not a CR (never a URL: tests
    touch no network)."""
    runner = CliRunner()
    host = "0.0.0.0" if not value or is_loopback(value) else value
    try:
        bad_port = "0" if 1 <= int(str(port)) <= 65535 else str(port)  # never a port it could serve on
    except ValueError:
        bad_port = str(port)
    cases = [
        ["serve", "--host", host, "--debug", "--build-dir", str(build_dir)],
        ["serve", "--port", bad_port, "--build-dir", str(build_dir)],
        ["mcp", "--http", "--port", bad_port, "--build-dir", str(build_dir)],
        ["mcp", "--http", "--path", "x" + value.lstrip("/"), "--build-dir", str(build_dir)],
    ]
    out = tmp_path_factory.mktemp("export")
    bad_version = value if value not in VERSIONS else "0.1"
    cases.append(
        ["export", str(out / "site"), "--version", bad_version or "0.1", "--build-dir", str(build_dir)]
    )
    source = tmp_path_factory.mktemp("src") / "odd.html"
    source.write_bytes(value.encode("utf-8", "surrogatepass")[:2000])
    cases.append(["build", "--source", str(source), "--build-dir", str(out / "b")])
    if "://" not in value:
        cases.append(["build", "--source", value or ".", "--version", value, "--build-dir", str(out / "b")])
    for args in cases:
        result = runner.invoke(main, args)
        check_command(result, args)
        assert result.exit_code == 2, (args, result.output)


def test_the_fuzz_covers_every_route_and_command(app):
    assert len(ROUTES) >= 30 and ("POST", "/api/engine/sessions") in ROUTES
    assert set(COMMANDS) | SLOW_OR_SERVING == set(main.commands)
