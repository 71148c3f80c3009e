"""Board format: validation lists every problem with its path; schema and examples agree."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

import engine
from engine.board import count_cards, normalise_board

ENGINE_DIR = Path(engine.__file__).resolve().parent
EXAMPLES = sorted((ENGINE_DIR / "examples").glob("*.json"))
SCHEMA = json.loads((ENGINE_DIR / "board.schema.json").read_text())


def minimal(**kw) -> dict:
    b = {"version": 1, "servers": {}}
    b.update(kw)
    return b


def test_examples_exist_and_are_valid():
    assert len(EXAMPLES) >= 4
    for path in EXAMPLES:
        data = json.loads(path.read_text())
        assert engine.validate_board(data) == [], path.name
        jsonschema.validate(data, SCHEMA)


def test_schema_is_a_valid_json_schema():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


def test_minimal_board_defaults():
    b = normalise_board(minimal())
    assert b["turn"] == "runner"
    assert b["corp"]["credits"] == 5 and b["runner"]["credits"] == 5
    assert len(b["corp"]["hand"]) == 5 and b["runner"]["max_hand_size"] == 5
    assert set(b["servers"]) == {"hq", "rd", "archives"}
    # the canonical board is itself a valid board
    assert engine.validate_board(b) == []


def test_counts_expand_to_placeholder_cards():
    b = normalise_board(
        minimal(corp={"hand": 3, "deck": ["Hedge Fund", {"name": "Ice Wall", "type": "ice"}]})
    )
    assert [c["name"] for c in b["corp"]["hand"]] == ["HQ card 1", "HQ card 2", "HQ card 3"]
    assert b["corp"]["deck"][0] == {"name": "Hedge Fund"}
    assert b["corp"]["deck"][1]["type"] == "ice"


def test_archives_cards_default_facedown():
    b = normalise_board(minimal(corp={"discard": ["A", {"name": "B", "faceup": True}]}))
    assert [c["faceup"] for c in b["corp"]["discard"]] == [False, True]


def test_issue_examples_of_bad_input_are_all_reported():
    bad = {
        "version": 1,
        "corp": {"credits": -3},
        "runner": {"tags": "two"},
        "servers": {
            "lab": {},
            "hq": {"ice": "Ice Wall"},
            "rd": {"ice": [{"name": "Ice Wall", "rez_cost": -1, "subroutines": [{"effect": "explode"}]}]},
            "remote1": {"ice": [{"name": f"Wall {i}"} for i in range(3000)]},
        },
    }
    problems = engine.validate_board(bad)
    text = "\n".join(problems)
    assert "corp.credits: must be a non-negative integer" in problems
    assert "runner.tags: must be a non-negative integer" in problems
    assert any(p.startswith("servers.lab: unknown server") for p in problems)
    assert "servers.hq.ice: must be a list of ice, outermost first" in problems
    assert "servers.rd.ice[0].rez_cost: must be a non-negative integer" in problems
    assert any(
        p.startswith("servers.rd.ice[0].subroutines[0].effect: unknown effect 'explode'") for p in problems
    )
    assert any(p.startswith("servers.remote1.ice: at most 30 pieces of ice") for p in problems)
    assert len(problems) == 7, text


def test_start_raises_board_error_with_all_problems(doc_latest):
    with pytest.raises(engine.BoardError) as ei:
        engine.start(
            {"version": 1, "corp": {"credits": -1}, "runner": {"clicks": True}},
            "run",
            doc_latest,
            {"server": "hq"},
        )
    assert ei.value.problems == [
        "corp.credits: must be a non-negative integer",
        "runner.clicks: must be a non-negative integer",
    ]
    assert "corp.credits" in str(ei.value)


@pytest.mark.parametrize(
    "board, fragment",
    [
        ("not a board", "board: must be a JSON object"),
        ({"servers": {}}, "version: is required"),
        ({"version": 3}, "version: unsupported board format version 3"),
        ({"version": 1, "turn": "judge"}, "turn: must be 'corp' or 'runner'"),
        ({"version": 1, "extra": 1}, "extra: unknown field"),
        ({"version": 1, "servers": []}, "servers: must be an object"),
        (
            {"version": 1, "servers": {"remote1": {}}},
            "servers.remote1: a remote server with no cards does not exist",
        ),
        (
            {"version": 1, "servers": {"remote1": {"content": {"name": "X", "type": "ice"}}}},
            "servers.remote1.content.type",
        ),
        (
            {"version": 1, "servers": {"hq": {"root": [{"name": "PAD", "type": "asset"}]}}},
            "servers.hq.root[0].type",
        ),
        (
            {"version": 1, "servers": {"hq": {"content": {"name": "X", "type": "asset"}}}},
            "servers.hq.content: unknown field",
        ),
        ({"version": 1, "corp": {"credits": 10**6}}, "corp.credits: must be at most 999"),
        (
            {"version": 1, "corp": {"hand": -1}},
            "corp.hand: must be a non-negative integer or a list of cards",
        ),
        ({"version": 1, "corp": {"hand": [{"type": "agenda"}]}}, "corp.hand[0].name: is required"),
        (
            {"version": 1, "runner": {"hand": [{"name": "Sure Gamble", "effects": ["end_the_run"]}]}},
            "runner.hand[0].effects[0].effect: 'end_the_run' can only be used on Corp cards",
        ),
        (
            {
                "version": 1,
                "servers": {"hq": {"ice": [{"name": "W", "subroutines": [{"effect": "net_damage"}]}]}},
            },
            "servers.hq.ice[0].subroutines[0].amount: is required",
        ),
        (
            {"version": 1, "servers": {"hq": {"ice": [{"name": "W", "subroutines": "end_the_run"}]}}},
            "servers.hq.ice[0].subroutines: must be a list",
        ),
        (
            {"version": 1, "servers": {"hq": {"ice": [{"name": "W", "rezzed": "yes"}]}}},
            "servers.hq.ice[0].rezzed: must be true or false",
        ),
        (
            {"version": 1, "runner": {"score_area": [{"name": "X", "type": "asset"}]}},
            "runner.score_area[0].type",
        ),
        (
            {
                "version": 1,
                "servers": {
                    "hq": {
                        "ice": [
                            {
                                "name": "W",
                                "subroutines": [
                                    {
                                        "effect": "trace",
                                        "strength": 2,
                                        "on_success": [
                                            {
                                                "effect": "trace",
                                                "strength": 1,
                                                "on_success": [
                                                    {
                                                        "effect": "trace",
                                                        "strength": 1,
                                                        "on_success": [{"effect": "trace", "strength": 1}],
                                                    }
                                                ],
                                            }
                                        ],
                                    }
                                ],
                            }
                        ]
                    }
                },
            },
            "traces nest at most 3 deep",
        ),
    ],
)
def test_validation_messages(board, fragment):
    problems = engine.validate_board(board)
    assert any(fragment in p for p in problems), problems


def test_schema_rejects_what_the_validator_rejects_structurally():
    for bad in (
        {"version": 1, "corp": {"credits": -1}},
        {"version": 1, "servers": {"lab": {}}},
        {"version": 1, "servers": {"hq": {"ice": "x"}}},
        {"version": 1, "servers": {"hq": {"ice": [{"name": "W", "subroutines": [{"effect": "explode"}]}]}}},
    ):
        assert engine.validate_board(bad)
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(bad, SCHEMA)


def test_count_cards_counts_every_zone():
    b = normalise_board(
        minimal(
            corp={
                "hand": 2,
                "deck": 3,
                "discard": 1,
                "score_area": [{"name": "A", "type": "agenda", "agenda_points": 1}],
            },
            runner={"hand": 4, "deck": 5, "discard": 0},
            servers={
                "hq": {"ice": [{"name": "W"}]},
                "remote1": {
                    "root": [{"name": "U", "type": "upgrade"}],
                    "content": {"name": "P", "type": "asset"},
                },
            },
        )
    )
    assert count_cards(b) == 2 + 3 + 1 + 1 + 4 + 5 + 1 + 1 + 1
