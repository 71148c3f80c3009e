"""Property tests of the source readers and the build openers (issue 38's audit): generated card
folders, judges' documents, JSON bytes and damaged builds go to the real readers and stores.
Asserted for each: a clean error (`ScrapeError`, `CardsNotBuilt`, `JudgeDamaged`: one line,
naming the file, no server path beyond it) or a valid result, every record of which passes its
schema (`scraper.schema`); a refused card folder leaves the good build as it was. Routes and CLI
commands are fuzzed in tests/test_fuzz.py, the board and decision parsers in
tests/test_engine_properties.py, tokens in tests/test_fuzz.py and tests/test_hostile_input.py.

Bounded for CI: derandomized, few examples (NRRULES_FUZZ_EXAMPLES digs deeper)."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest
from helpers import cr_path
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_cards import _small_folder

from rules_index.cards import CardsNotBuilt, CardStore, build_cards
from rules_index.integrity import manifest
from rules_index.judge import JudgeDamaged, JudgeStore, build_judge
from rules_index.store import build
from scraper import ScrapeError
from scraper.judge import parse_judge
from scraper.nrdb import load
from scraper.schema import CARD, JUDGE_DOCUMENT, PRINTING, RULING, problem
from scraper.source import parse_json

EXAMPLES = int(os.environ.get("NRRULES_FUZZ_EXAMPLES", "12"))
PROPS = settings(
    max_examples=EXAMPLES * 3,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

HOSTILE_STRINGS = st.sampled_from(
    ["", " ", "../x", "a/b", "\u202e", "<script>x</script>", "[" * 300, "x" * 25_000, "ICE", "é", "0"]
)
INTS = st.one_of(st.integers(-10, 120), st.sampled_from([-(10**12), 10**12, 2**63]))
VALUES = st.one_of(
    st.none(),
    st.booleans(),
    INTS,
    HOSTILE_STRINGS,
    st.text(max_size=30),
    st.lists(st.text(max_size=5), max_size=3),
)
VALID = {
    "id": "fuzzed_card",
    "title": "Fuzzed Card",
    "card_type_id": "ice",
    "side_id": "corp",
    "faction_id": "neutral_corp",
    "text": "[subroutine] End the run.",
    "strength": 1,
    "cost": 1,
    "subtypes": ["barrier"],
}
FIELDS = st.sampled_from(sorted({*CARD, "unknown_key"}))


@pytest.fixture(scope="module")
def good(tmp_path_factory, nrdb_dir) -> tuple[Path, Path]:
    root = tmp_path_factory.mktemp("props")
    bdir = root / "build"
    build(str(cr_path("26.03")), bdir)
    src = _small_folder(nrdb_dir, root / "nrdb")
    build_cards(str(src), bdir)
    from helpers import JUDGE_PATH

    build_judge(str(JUDGE_PATH), bdir)
    return bdir, src


def _one_line(message: str, *names: Path) -> None:
    assert message and "\n" not in message and "Traceback" not in message, message
    assert any(str(n) in message for n in names) if names else True, message


# ----- card folders ---------------------------------------------------------------------------


@PROPS
@given(
    changes=st.dictionaries(FIELDS, VALUES, max_size=4),
    ruling=st.dictionaries(st.sampled_from(sorted(RULING)), VALUES, max_size=3),
)
def test_a_generated_card_folder_loads_valid_records_or_is_one_clean_error(
    good, tmp_path_factory, changes, ruling
):
    _, src = good
    folder = shutil.copytree(src, tmp_path_factory.mktemp("gen") / "src")
    (folder / "cards" / "fuzzed_card.json").write_text(json.dumps({**VALID, **changes}), encoding="utf-8")
    row = {"card_id": "fuzzed_card", "text_ruling": "A ruling.", "date_update": "2024-01-01", **ruling}
    (folder / "rulings" / "fuzzed_card.json").write_text(json.dumps([row]), encoding="utf-8")
    try:
        data = load(str(folder))
    except ScrapeError as exc:
        _one_line(str(exc), folder)
        return
    known = {
        "card_types": set(data.card_types),
        "factions": set(data.factions),
        "card_subtypes": set(data.card_subtypes),
    }
    assert all(problem(c, CARD, known) is None for c in data.cards.values())
    assert all(problem(p, PRINTING) is None for p in data.printings.values())
    assert all(problem(r, RULING) is None for r in data.rulings)


@settings(PROPS, max_examples=max(3, EXAMPLES // 2))
@given(changes=st.dictionaries(FIELDS, VALUES, min_size=1, max_size=3))
def test_a_generated_card_folder_never_replaces_the_good_build_unless_valid(good, tmp_path_factory, changes):
    bdir, src = good
    out = shutil.copytree(bdir, tmp_path_factory.mktemp("b") / "b", symlinks=True)
    before = (out / "cards" / "cards.json").read_bytes()
    folder = shutil.copytree(src, tmp_path_factory.mktemp("gen") / "src")
    (folder / "cards" / "fuzzed_card.json").write_text(json.dumps({**VALID, **changes}), encoding="utf-8")
    try:
        build_cards(str(folder), out)
    except ScrapeError as exc:
        _one_line(str(exc), folder)
        assert (out / "cards" / "cards.json").read_bytes() == before
        return
    store = CardStore.open(out)  # built: it opens, and serves every record the folder had
    assert len(store) == 4 and store.card("fuzzed_card") is not None


# ----- JSON bytes -------------------------------------------------------------------------------

JSON_PIECES = st.sampled_from(
    [
        "[",
        "]",
        "{",
        "}",
        '"a"',
        ":",
        ",",
        "1",
        "9" * 40,
        "-",
        "1e999",
        "NaN",
        '"\\ud800"',
        "null",
        "true",
        " ",
    ]
)


@PROPS
@given(
    data=st.one_of(
        st.binary(max_size=200), st.lists(JSON_PIECES, max_size=80).map(lambda p: "".join(p).encode())
    )
)
def test_parse_json_answers_a_value_or_one_scrape_error(data):
    try:
        parse_json(data, "x.json")
    except ScrapeError as exc:
        assert str(exc).startswith("x.json: ") and "\n" not in str(exc), str(exc)


# ----- judges' documents ------------------------------------------------------------------------

BLOCKS = st.one_of(
    st.builds(lambda n, t: f"<h{n}>{t}</h{n}>", st.integers(1, 6), st.text(max_size=40)),
    st.builds(lambda t: f"<p>{t}</p>", st.one_of(st.text(max_size=80), HOSTILE_STRINGS)),
    st.builds(
        lambda items: "<ol>" + "".join(f"<li>{i}</li>" for i in items) + "</ol>",
        st.lists(st.text(max_size=20), max_size=4),
    ),
    st.sampled_from(
        [
            "<p>Q: Can the Runner jack out?</p><p>A: Yes.</p>",
            "<div>" * 30 + "x" + "</div>" * 30,
            "<br>",
            "&amp;",
        ]
    ),
)


@PROPS
@given(blocks=st.lists(BLOCKS, max_size=12))
def test_a_generated_judges_document_parses_into_valid_records_or_one_clean_error(blocks):
    body = "".join(blocks).encode("utf-8", "replace")
    html = b'<html><head><meta name="generator" content="LibreOffice"><title>J</title></head><body>' + body
    try:
        doc = parse_judge(html + b"</body></html>", "judge.html")
    except ScrapeError as exc:
        _one_line(str(exc), Path("judge.html"))
        return
    assert problem(doc.to_dict(), JUDGE_DOCUMENT) is None


# ----- damaged builds, resealed: only the record checks stand -----------------------------------


def _sealed_copy(bdir: Path, dest: Path, name: str, rel: str, data: bytes) -> Path:
    shutil.copytree(bdir, dest, symlinks=True)
    target = (dest / name).resolve()
    (dest / name).unlink()
    folder = shutil.copytree(target, dest / name)
    (folder / rel).write_bytes(data)
    meta = json.loads((folder / "meta.json").read_text())
    meta["files"] = manifest(folder)
    (folder / "meta.json").write_text(json.dumps(meta))
    return dest


@settings(PROPS, max_examples=EXAMPLES * 2)
@given(
    name=st.sampled_from(["cards", "judge"]),
    cut=st.floats(0, 1),
    flips=st.lists(st.tuples(st.floats(0, 1), st.integers(1, 255)), max_size=3),
)
def test_a_damaged_sealed_build_opens_valid_or_is_refused_cleanly(good, tmp_path_factory, name, cut, flips):
    bdir, _ = good
    rel = "cards.json" if name == "cards" else "documents.json"
    data = bytearray((bdir / name / rel).read_bytes())
    for where, xor in flips:
        data[int(where * (len(data) - 1))] ^= xor
    data = data[: max(1, int(len(data) * cut))] if cut < 0.999 else data
    out = _sealed_copy(bdir, tmp_path_factory.mktemp("sealed") / "b", name, rel, bytes(data))
    try:
        store = CardStore.open(out) if name == "cards" else JudgeStore.open(out)
    except (CardsNotBuilt, JudgeDamaged) as exc:
        _one_line(str(exc))
        assert str(out) not in str(exc)
        return
    if name == "cards":
        assert all(problem(c, CARD) is None for c in store.cards())
    else:
        assert all(problem(d.to_dict(), JUDGE_DOCUMENT) is None for d in store.documents)


# ----- the MCP server's tools -------------------------------------------------------------------

MCP_VALUES = st.one_of(VALUES, st.sampled_from(["6.9.4c", "26.03", "Ice Wall", "run", "\ud800", "x" * 3000]))


@pytest.fixture(scope="module")
def mcp_server(good):
    pytest.importorskip("mcp", reason="the MCP SDK is in the dev and mcp extras")
    from rules_index.store import Library
    from webapp.mcp_server import build_server
    from webapp.payloads.context import Rules

    bdir, _ = good
    return build_server(Rules(Library.open(bdir)), secret_key="p" * 32), bdir


@settings(PROPS, max_examples=EXAMPLES * 4)
@given(data=st.data())
def test_every_mcp_tool_answers_or_refuses_cleanly(mcp_server, data):
    """Each tool of `nrrules mcp`, called in process with generated arguments (its own parameter
    names, hostile values): a result, an isError result with a message, or the SDK's refusal of
    arguments its schema does not take; never another exception, a traceback or a build path."""
    import anyio
    from mcp.server.mcpserver.exceptions import ToolError
    from mcp.shared.exceptions import MCPError

    server, bdir = mcp_server
    tools = anyio.run(server.list_tools)
    tool = data.draw(st.sampled_from(sorted(tools, key=lambda t: t.name)), label="tool")
    names = sorted((tool.input_schema or {}).get("properties", {}))
    args = data.draw(
        st.dictionaries(st.sampled_from(names), MCP_VALUES, max_size=len(names)) if names else st.just({})
    )

    async def call():
        return await server.call_tool(tool.name, args)

    try:
        result = anyio.run(call)
    except (ToolError, MCPError) as exc:  # arguments its schema does not take: an isError answer on the wire
        assert "Traceback" not in str(exc) and str(bdir) not in str(exc)
        return
    text = " ".join(getattr(c, "text", "") for c in getattr(result, "content", []) or [])
    assert "Traceback" not in text and str(bdir) not in text, text[:300]
    if getattr(result, "is_error", False):
        assert text.strip(), tool.name
