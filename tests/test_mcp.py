"""The MCP server (webapp/mcp_server.py) through the official SDK's own client, over its real
transports: `nrrules mcp` spawned over stdio, `nrrules mcp --http` and the deployers' ASGI
factory under uvicorn, each a real process on a free loopback port. No mocks: the answers come
from a real build of the six CR versions and the NetrunnerDB data (`cards_built`).

Each transport runs the same scenario (`scenario`): list the tools, search a question and find
6.9.4c with its verbatim text, fetch a card with its rulings, step a run from card names, read
resources, and get clear errors for malformed or impossible calls."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path

import anyio
import pytest

mcp = pytest.importorskip("mcp", reason="the MCP SDK is in the dev and mcp extras")

from mcp import ClientSession, StdioServerParameters, stdio_client  # noqa: E402
from mcp.client.streamable_http import streamable_http_client  # noqa: E402
from mcp.shared.exceptions import MCPError  # noqa: E402
from mcp.types import INVALID_PARAMS, ResourceTemplateReference  # noqa: E402

from rules_index.store import Library  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CLI = [sys.executable, "-c", "from webapp.cli import main; main()"]
BASE = "https://rules.example.org"
TOOLS = {
    "search",
    "rule",
    "card",
    "rulings",
    "changes",
    "rule_history",
    "versions",
    "engine_start",
    "engine_decide",
    "engine_trace",
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def process(cmd: list[str], port: int, env: dict[str, str] | None = None) -> Iterator[subprocess.Popen]:
    """A server process, once it accepts connections on `port`; stopped (by its pid) after."""
    log = tempfile.TemporaryFile()  # noqa: SIM115 - closed below
    proc = subprocess.Popen(cmd, stdout=log, stderr=log, env={**os.environ, **(env or {})})
    try:
        deadline = time.monotonic() + 120
        while True:
            if proc.poll() is not None:
                log.seek(0)
                raise AssertionError(f"server exited: {log.read().decode(errors='replace')}")
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise AssertionError("server did not start in 120 s") from None
                time.sleep(0.2)
        yield proc
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()


@asynccontextmanager
async def stdio_session(build: Path, *extra: str):
    params = StdioServerParameters(command=CLI[0], args=[*CLI[1:], "mcp", "--build-dir", str(build), *extra])
    with open(os.devnull, "w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write):
            async with ClientSession(read, write, read_timeout_seconds=120) as session:
                await session.initialize()
                yield session


@asynccontextmanager
async def http_session(url: str):
    async with streamable_http_client(url) as (read, write):
        async with ClientSession(read, write, read_timeout_seconds=120) as session:
            await session.initialize()
            yield session


def text_of(result) -> str:
    assert len(result.content) == 1 and result.content[0].type == "text"
    return result.content[0].text


async def call(session: ClientSession, tool: str, **args):
    """A successful call: its structured answer, checked against the text an assistant reads."""
    result = await session.call_tool(tool, args)
    assert not result.is_error, text_of(result)
    assert json.loads(text_of(result)) == result.structured_content
    return result.structured_content


async def fails(session: ClientSession, tool: str, args: dict) -> str:
    """A call that must fail as a tool error: its message (never a traceback)."""
    result = await session.call_tool(tool, args)
    assert result.is_error, f"{tool}({args}) did not fail: {text_of(result)[:200]}"
    message = text_of(result)
    assert "Traceback" not in message and 'File "' not in message
    return message


async def scenario(session: ClientSession, build: Path, base_url: str | None) -> None:
    lib = Library.open(build)
    doc = lib.document()
    jack_out = doc.node("step_jack_out_choice")
    assert jack_out is not None and jack_out.number == "6.9.4c"

    # --- the tools, each with a description an assistant can choose by ---------------------
    listed = (await session.list_tools()).tools
    assert {t.name for t in listed} == TOOLS
    for tool in listed:
        assert len(tool.description or "") > 120, tool.name
        for name, prop in tool.input_schema.get("properties", {}).items():
            assert prop.get("description"), (tool.name, name)
    by_name = {t.name: t for t in listed}
    assert by_name["search"].input_schema["required"] == ["query"]
    assert by_name["search"].annotations.read_only_hint is True

    # --- search: "when can the runner jack out" finds 6.9.4c, with its verbatim text --------
    found = await call(session, "search", query="when can the runner jack out")
    assert found["version"] == lib.latest
    assert "step_jack_out_choice" in [h["id"] for h in found["results"]]
    cited = {c["id"]: c for c in found["citations"]}
    c = cited["step_jack_out_choice"]
    assert c["number"] == "6.9.4c" and c["text"] == jack_out.text
    assert c["version"] == lib.latest and c["effective_date"] == doc.effective_date
    assert c["url"] == (f"{base_url}/id/step_jack_out_choice" if base_url else None)
    assert all("<mark>" not in h["snippet"] for h in found["results"])  # plain text for an assistant
    only_rules = await call(session, "search", query="jack out", sources=["rules"], version="24.03", limit=3)
    assert only_rules["version"] == "24.03" and len(only_rules["results"]) == 3
    assert {h["source"] for h in only_rules["results"]} == {"rules"}
    old = lib.document("24.03")
    for cit in only_rules["citations"]:
        assert cit["version"] == "24.03" and cit["text"] == old.node(cit["id"]).text

    # --- a rule by number, with sub-rules, and its history ----------------------------------
    movement = await call(session, "rule", ref="6.9.4", subrules=True)
    subs = [n.id for n in doc.children(movement["id"]) if n.kind != "example"]
    assert "step_jack_out_choice" in subs
    assert [c["id"] for c in movement["citations"]][: 1 + len(subs)] == [movement["id"], *subs]
    assert "html" not in movement and all("html" not in d for d in movement["descendants"])
    history = await call(session, "rule_history", ref="step_jack_out_choice")
    assert [v["version"] for v in history["versions"]] == [i.version for i in lib.versions()]
    assert history["citations"][0]["text"] == jack_out.text

    # --- changes between versions, whole and narrowed -------------------------------------------
    full = await call(session, "changes", old="25.08", new=lib.latest)
    part = await call(session, "changes", old="25.08", new=lib.latest, within="6", kinds=["reworded"])

    def in_chapter_6(row: dict) -> bool:
        return any(n and (n == "6" or n.startswith("6.")) for n in (row["number"], row["old_number"]))

    every = [r for sec in full["sections"] for r in sec["rules"]]
    expected = [r["id"] for r in every if "reworded" in r["change"] and in_chapter_6(r)]
    assert expected and len(expected) < len(every)
    assert [r["id"] for sec in part["sections"] for r in sec["rules"]] == expected
    assert part["narrowed"]["rules"] == len(expected) and part["counts"] == full["counts"]
    assert all(c["version"] == lib.latest for c in full["citations"]) and full["citations"]

    # --- a card with its rulings, and the rules that mention it ------------------------------
    # (a card whose rulings are not held out for evaluation: ../shared/heldout/cards.txt)
    store = lib.cards()
    sneakdoor = await call(session, "card", name="sneakdoor beta")
    assert sneakdoor["id"] == "sneakdoor_beta" and sneakdoor["type_id"] == "program"
    rulings = store.rulings("sneakdoor_beta")
    assert len(rulings) >= 2 and len(sneakdoor["rulings"]) == len(rulings)
    assert all(r["answer"] or r["text"] for r in sneakdoor["rulings"])
    assert {r["date"] for r in sneakdoor["rulings"]} == {r.date_update for r in rulings}
    only = await call(session, "rulings", name="Sneakdoor Beta")
    assert [r["answer"] for r in only["rulings"]] == [r["answer"] for r in sneakdoor["rulings"]]

    # --- a run stepped from card names ---------------------------------------------------------
    run = await call(
        session,
        "engine_start",
        server="remote1",
        ice=["Ice Wall"],
        content="Hostile Takeover",
        rig=["Corroder"],
        runner={"credits": 6},
    )
    assert run["structure"] == "run" and not run["finished"]
    assert run["current_step"]["id"] == "step_encounter_paw"  # Ice Wall is rezzed: encountered
    steps = [e["step"] for e in run["events"]]
    assert steps[0] == "step_initiation_announce"
    assert {c["id"] for c in run["citations"]} >= {e["step"] for e in run["events"] if e["step"]}
    breaks = [d["id"] for d in run["decisions"] if "break" in d["label"]]
    assert breaks, run["decisions"]
    state = await call(session, "engine_decide", token=run["token"], decisions=[breaks[0]])
    taken = 1
    while not state["finished"] and taken < 30:
        choice = next((d["id"] for d in state["decisions"] if d["id"] in ("pass", "continue")), None)
        state = await call(
            session, "engine_decide", token=state["token"], decisions=[choice or state["decisions"][0]["id"]]
        )
        taken += 1
    assert state["finished"]
    assert state["outcome"]["run"] == "successful" and state["outcome"]["stolen"] == ["Hostile Takeover"]
    trace = await call(session, "engine_trace", token=state["token"])
    assert len(trace["trace"]) == trace["trace_length"] > 20
    assert trace["decisions_taken"][0] == breaks[0] and len(trace["decisions_taken"]) == taken
    trace_steps = {e["step"] for e in trace["trace"]}
    assert "step_jack_out_choice" in trace_steps  # the Runner chose not to jack out in 6.9.4c
    cited = {c["id"]: c for c in trace["citations"]}
    assert cited["step_jack_out_choice"]["text"] == jack_out.text
    # the old token still names the position before
    again = await call(session, "engine_decide", token=run["token"], decisions=[breaks[0]])
    assert again["token"] != run["token"] and again["decisions_taken"] == [breaks[0]]
    # with content and no server, the cards go in a remote, which is run
    remote = await call(session, "engine_start", ice=["Ice Wall"], content="Hostile Takeover", rezzed=False)
    assert remote["params"] == {"server": "remote1"} and remote["board"]["servers"]["remote1"]["ice"]
    assert remote["current_step"]["id"] != run["current_step"]["id"]  # unrezzed: not encountered yet
    # a board as JSON (an example board of the engine's)
    board = json.loads((ROOT / "engine" / "examples" / "remote-run.json").read_text())
    example = await call(session, "engine_start", board=board, server="remote1", version="25.08")
    assert example["version"] == "25.08" and example["params"] == {"server": "remote1"}
    assert all(c["version"] == "25.08" for c in example["citations"])
    assert example["board"]["servers"]["remote1"]["ice"][0]["name"] == "Enigma"

    # --- resources by URI ------------------------------------------------------------------------
    templates = {t.uri_template for t in (await session.list_resource_templates()).resource_templates}
    assert {"nrrules://rule/{version}/{ref}", "nrrules://rule/{ref}", "nrrules://card/{name}"} <= templates
    res = await session.read_resource(f"nrrules://rule/{lib.latest}/6.9.4c")
    data = json.loads(res.contents[0].text)
    assert data["id"] == "step_jack_out_choice" and data["citations"][0]["text"] == jack_out.text
    data = json.loads(
        (await session.read_resource("nrrules://rule/24.03/step_jack_out_choice")).contents[0].text
    )
    assert data["version"] == "24.03" and data["number"] == old.node("step_jack_out_choice").number
    data = json.loads((await session.read_resource("nrrules://card/Sneakdoor%20Beta")).contents[0].text)
    assert data["id"] == "sneakdoor_beta" and len(data["rulings"]) == len(rulings)
    rule_ref = ResourceTemplateReference(uri="nrrules://rule/{version}/{ref}")
    done = await session.complete(rule_ref, {"name": "ref", "value": "6.9.4"}, {"version": "24.03"})
    assert "6.9.4c" in done.completion.values
    assert all(v.startswith("6.9.4") and v in old.number_index() for v in done.completion.values)
    card_ref = ResourceTemplateReference(uri="nrrules://card/{name}")
    done = await session.complete(card_ref, {"name": "name", "value": "sneakd"})
    assert "Sneakdoor Beta" in done.completion.values
    with pytest.raises(MCPError) as err:
        await session.read_resource("nrrules://rule/99.99")
    assert err.value.code == INVALID_PARAMS and "no rule 99.99" in err.value.message
    with pytest.raises(MCPError) as err:
        await session.read_resource("nrrules://card/zzqqxx")
    assert err.value.code == INVALID_PARAMS and "no card matches 'zzqqxx'" in err.value.message

    # --- errors: the API's messages, as tool errors ----------------------------------------
    missing = await fails(session, "rule", {})
    assert "ref" in missing and "required" in missing.lower()
    wrong_type = await fails(session, "search", {"query": "jack out", "limit": "many"})
    assert "limit" in wrong_type
    assert "Unknown tool" in await fails(session, "rulez", {"ref": "1.1"})
    unknown_rule = await session.call_tool("rule", {"ref": "99.99"})
    assert unknown_rule.is_error and text_of(unknown_rule).startswith(f"no rule 99.99 in CR {lib.latest}")
    assert unknown_rule.structured_content["status"] == 404
    bad_version = await fails(session, "search", {"query": "jack out", "version": "30.01"})
    assert bad_version == (
        "CR version '30.01' is not available; available versions: "
        + ", ".join(i.version for i in lib.versions())
    )
    assert "no card matches 'zzqqxx'" in await fails(session, "card", {"name": "zzqqxx"})
    bad_board = await fails(session, "engine_start", {"board": {"version": 1, "corp": {"credits": -1}}})
    assert bad_board.startswith("the board is invalid: corp.credits:")
    assert "Hedge Fund is an operation, not ice" in await fails(
        session, "engine_start", {"ice": ["Hedge Fund"]}
    )
    illegal = await fails(session, "engine_decide", {"token": run["token"], "decisions": ["jack_out"]})
    assert "not legal" in illegal and breaks[0] in illegal
    assert "session token is invalid" in await fails(
        session, "engine_decide", {"token": "x" * 40, "decisions": ["pass"]}
    )
    assert "two different versions" in await fails(session, "changes", {"old": "25.08", "new": "25.08"})
    assert "unknown kind(s) of change gone" in await fails(
        session, "changes", {"old": "25.08", "new": "26.03", "kinds": ["gone"]}
    )


def test_stdio_client(cards_built):
    """`nrrules mcp` spawned by the SDK's stdio client, with a public base URL for links."""

    async def main():
        async with stdio_session(cards_built, "--base-url", BASE) as session:
            await scenario(session, cards_built, BASE)

    anyio.run(main)


def test_http_client(cards_built):
    """`nrrules mcp --http` on a free loopback port, through the SDK's streamable HTTP client."""
    port = free_port()
    cmd = [*CLI, "mcp", "--http", "--port", str(port), "--build-dir", str(cards_built)]

    async def main():
        async with http_session(f"http://127.0.0.1:{port}/mcp") as session:
            await scenario(session, cards_built, None)

    with process(cmd, port, env={"NRRULES_BASE_URL": ""}):
        anyio.run(main)


def _post(url: str, host: str, body: dict) -> tuple[int, str]:
    req = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        headers={
            "Host": host,
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
        },
    )
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            return resp.status, resp.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


def test_asgi_factory_for_deployers(cards_built):
    """The ASGI factory as docs/mcp.md deploys it (uvicorn --factory, configured by the
    environment): it answers at its path, links the public base URL, and refuses Host names
    it was not given (DNS rebinding)."""
    port = free_port()
    env = {
        "NRRULES_BUILD_DIR": str(cards_built),
        "NRRULES_BASE_URL": BASE,
        "NRRULES_MCP_PATH": "/assist/mcp",
        "NRRULES_MCP_ALLOWED_HOSTS": f"rules.example.org,127.0.0.1:{port}",
    }
    cmd = [
        sys.executable,
        "-m",
        "uvicorn",
        "--factory",
        "webapp.mcp_server:create_http_app",
        "--port",
        str(port),
    ]
    cmd += ["--log-level", "warning"]
    url = f"http://127.0.0.1:{port}/assist/mcp"

    async def main():
        async with http_session(url) as session:
            found = await call(session, "search", query="when can the runner jack out", limit=10)
            cited = {c["id"]: c for c in found["citations"]}
            assert cited["step_jack_out_choice"]["url"] == f"{BASE}/id/step_jack_out_choice"

    init = {
        "jsonrpc": "2.0",
        "id": 0,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "t", "version": "1"},
        },
    }
    with process(cmd, port, env=env):
        anyio.run(main)
        status, body = _post(url, "evil.example", init)
        assert status in (400, 421), (status, body)
        status, body = _post(url, "rules.example.org", init)
        assert status == 200, body
        assert json.loads(body)["result"]["serverInfo"]["name"] == "nrrules"


def test_nothing_built_is_one_error_line(tmp_path):
    """`nrrules mcp` over an empty build directory stops before serving: one `error:` line on
    stderr, exit status 2, and nothing on stdout (where a client would read the protocol)."""
    proc = subprocess.run(
        [*CLI, "mcp", "--build-dir", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    assert proc.returncode == 2 and proc.stdout == ""
    lines = proc.stderr.rstrip("\n").split("\n")
    assert len(lines) == 1 and lines[0].startswith("error: no CR versions are built"), proc.stderr
