"""The trace a judge reads in one screen (webapp/trace_groups.py condense / decision_brief): a run
through a rezzed Tollbooth (five pumps and a break with Crypsis) and an Ice Wall (Corroder), the
rig-run example with Tollbooth rezzed. Repeated pumps are one line, checkpoints where nothing
happened are one line, every step is still on the page (inside its line), and "what the last
decision did" leads with what changed."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import lxml.html
import pytest

import engine
from webapp import create_app

PICKS = ["use:crypsis.1"] * 5 + ["use:crypsis.0", "continue", "use:corroder.0", "continue"]
BUDGET = 40  # trace lines visible by default


def tollbooth_board() -> dict:
    board = json.loads((Path(engine.__file__).parent / "examples" / "rig-run.json").read_text())
    board = copy.deepcopy(board)
    board["servers"]["remote1"]["ice"][0]["rezzed"] = True  # Tollbooth, outermost
    # Tollbooth's toll (3 on encounter, "must pay, if able") comes first: 3 more credits keep
    # the five pumps and the break affordable
    board["runner"]["credits"] += 3
    return board


@pytest.fixture(scope="module")
def client(build_dir):
    app = create_app({"TESTING": True, "BUILD_DIR": str(build_dir), "SECRET_KEY": "test-secret"})
    return app.test_client()


@pytest.fixture(scope="module")
def run(client):
    """The tokens after each decision of the run, and the final session state."""
    r = client.post(
        "/api/engine/sessions",
        json={"board": tollbooth_board(), "structure": "run", "params": {"server": "remote1"}},
    )
    assert r.status_code == 201
    st = r.get_json()
    tokens = []
    for pick in PICKS:
        assert pick in [d["id"] for d in st["decisions"]], (pick, st["decisions"])
        st = client.post(f"/api/engine/sessions/{st['token']}/decisions", json={"decision": pick}).get_json()
        tokens.append(st["token"])
    assert st["finished"]
    return tokens, client.get(f"/api/engine/sessions/{st['token']}").get_json()


def visible_lines(root) -> int:
    """Lines a reader sees without tapping: each phase's heading; in an open phase, each of its
    lines (a step, or the heading of a folded line) and the "did not apply" fold's heading."""
    n = 0
    for group in root.xpath("//div[@id='trace']/details"):
        n += 1
        if group.get("open") is not None:
            n += len(group.xpath("./ol[@class='tl']/li"))
            n += len(group.xpath("./details[@class='fold']"))
    return n


def page(client, token: str):
    r = client.get(f"/step?s={token}")
    assert r.status_code == 200
    return lxml.html.fromstring(r.get_data(as_text=True))


def test_every_position_of_the_run_fits_the_line_budget(client, run):
    tokens, final = run
    for i, token in enumerate(tokens):
        root = page(client, token)
        lines = visible_lines(root)
        assert 0 < lines <= BUDGET, (i + 1, lines)
    # and the whole trace, every phase opened, is a fraction of its steps
    root = page(client, tokens[-1])
    every = sum(1 + len(g.xpath("./ol[@class='tl']/li")) for g in root.xpath("//div[@id='trace']/details"))
    assert every < len(final["trace"]) / 2, (every, len(final["trace"]))


def test_every_step_is_still_one_tap_away(client, run):
    tokens, final = run
    root = page(client, tokens[-1])
    steps = root.xpath("//div[@id='trace']//ol[@class='tl']/li[not(contains(@class, 'ln'))]")
    assert len(steps) == len(final["trace"])
    # each step keeps its number's link to the rule
    assert len(root.xpath("//div[@id='trace']//ol[@class='tl']/li/a[@class='rl']")) == len(final["trace"])


def test_repeated_pumps_are_one_line_with_the_sum(client, run):
    tokens, _ = run
    root = page(client, tokens[5])  # after the five pumps and the break
    summaries = [
        " ".join(s.text_content().split())
        for s in root.xpath("//li[contains(@class, 'ln-ability')]/details/summary")
    ]
    pump = [s for s in summaries if "strength" in s and "breaks" not in s]
    assert len(pump) == 1, summaries
    assert pump[0].startswith("Crypsis +5 strength, paid 5") and "(5 uses)" in pump[0], pump
    assert "[credit]" in pump[0]  # the glyph span's text: app.css draws ¢
    assert any("breaks subroutine 1 of Tollbooth" in s for s in summaries), summaries
    # a checkpoint where nothing happened is one line, never its twelve steps
    texts = [
        " ".join(li.text_content().split())
        for li in root.xpath("//div[@id='trace']/details/ol[@class='tl']/li")
    ]
    assert not any("Every remote server still has a card in it" in t and "step" not in t for t in texts)


def test_what_the_last_decision_did_leads_with_what_changed(client, run):
    tokens, _ = run

    def brief(token: str) -> list[str]:
        return [
            " ".join(li.text_content().split()) for li in page(client, token).xpath("//ol[@class='brief']/li")
        ]

    first = brief(tokens[0])
    assert first[0].startswith("Crypsis +1 strength, paid 1"), first
    broke = brief(tokens[5])
    assert "breaks subroutine 1 of Tollbooth" in broke[0], broke
    assert not any(re.search(r"checkpoint|Every remote server|Paid ability window", b) for b in broke), broke
    last = brief(tokens[-1])
    assert any("steals Project Atlas" in b for b in last), last
    assert not any("remote1" in b for b in last)
