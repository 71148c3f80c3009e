"""Issue 10's board and design bullets not pinned elsewhere: hosted counters of every kind are
held (and kept as given through a session), a purge removes only virus counters, and the engine
keeps no state keyed by object identity (`id()`), so it stays pure."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from helpers import decision_ids, engine_board, load_doc

import engine

ENGINE = Path(engine.__file__).resolve().parent


@pytest.fixture(params=["22.12", "24.03", "26.03"])
def doc(request):
    return load_doc(request.param)


def counters_board() -> dict:
    return engine_board(
        corp={"clicks": 0, "score_area": [{"name": "Vault", "type": "agenda", "counters": {"agenda": 2}}]},
        runner={"rig": {"programs": [{"name": "Imp", "memory_cost": 1, "counters": {"virus": 3}}]}},
        servers={
            "remote1": {
                "ice": [{"name": "Wall", "rezzed": True, "advancements": 2, "counters": {"advancement": 2}}],
                "content": {
                    "name": "Clock",
                    "type": "asset",
                    "rezzed": True,
                    "counters": {"power": 3, "credits": 1},
                },
            }
        },
    )


def test_hosted_counters_of_every_kind_are_held():
    b = counters_board()
    assert engine.validate_board(b) == []
    bad = engine_board(
        servers={"remote1": {"content": {"name": "A", "type": "asset", "counters": {"bogus": 1}}}}
    )
    assert any("counters.bogus" in p for p in engine.validate_board(bad))
    neg = engine_board(
        servers={"remote1": {"content": {"name": "A", "type": "asset", "counters": {"power": -1}}}}
    )
    assert any("counters" in p for p in engine.validate_board(neg))


def test_a_purge_removes_only_virus_counters(doc):
    """10.1.2 / 5.2.6h: purging returns virus counters only; agenda, power, advancement and credit
    counters stay where they are."""
    s = engine.start(counters_board(), "corp_turn", doc)
    for _ in range(40):
        if "purge" in decision_ids(s):
            break
        s, _ = engine.apply(s, decision_ids(s)[0])
    else:  # the Corp's turn gives 3 clicks: purge must be offered at the start of its actions
        raise AssertionError("purge never offered")
    s, _ = engine.apply(s, "purge")
    b = s.board
    assert "virus" not in b["runner"]["rig"]["programs"][0].get("counters", {})
    assert b["corp"]["score_area"][0]["counters"] == {"agenda": 2}
    assert b["servers"]["remote1"]["content"]["counters"]["power"] == 3
    assert b["servers"]["remote1"]["ice"][0]["counters"] == {"advancement": 2}


def test_the_engine_keeps_nothing_keyed_by_object_identity():
    """Issue 10's design: no globals keyed by `id()` (caches belong to whoever owns the
    document). No engine module calls the builtin `id`."""
    calls = []
    for path in sorted(ENGINE.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "id":
                calls.append(f"{path.name}:{node.lineno}")
    assert len(list(ENGINE.glob("*.py"))) > 20
    assert calls == []


def test_defaults_that_change_results_are_documented_and_shown_on_the_board():
    """Issue 10's "silent defaults" bug: every default that changes a result is filled in on the
    canonical board (so a reader sees the value used) and listed in docs/board-format.md."""
    b = engine.normalise_board(
        {
            "version": 1,
            "runner": {"rig": {"programs": [{"name": "Tool"}]}},
            "servers": {
                "remote1": {
                    "ice": [{"name": "Wall"}],
                    "content": {"name": "Project", "type": "agenda"},
                }
            },
        }
    )
    ice = b["servers"]["remote1"]["ice"][0]
    agenda = b["servers"]["remote1"]["content"]
    assert (ice["rez_cost"], ice["strength"], ice["subtypes"], ice["rezzed"]) == (0, 0, [], False)
    assert (agenda["advancement_requirement"], agenda["agenda_points"]) == (0, 0)
    assert b["runner"]["clicks"] == 0 and b["corp"]["clicks"] == 0
    assert b["runner"]["rig"]["programs"][0]["memory_cost"] == 0
    assert b["runner"]["memory_limit"] == 4
    kate = engine.normalise_board({"version": 1, "runner": {"identity": {"name": "Kate", "memory_limit": 6}}})
    assert kate["runner"]["memory_limit"] == 6
    doc_text = (ENGINE.parent / "docs" / "board-format.md").read_text()
    table = doc_text[doc_text.index("### Defaults that change results") :].split("\n## ")[0]
    for field in (
        "rez_cost",
        "advancement_requirement",
        "agenda_points",
        "strength",
        "clicks",
        "memory_cost",
        "memory_limit",
    ):
        assert f"`{field}`" in table, field
