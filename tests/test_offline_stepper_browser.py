"""The stepper offline (issue 35), in headless Chromium against a real gunicorn server: the
same engine, run in the browser by Pyodide (webapp/offline_engine.py packs it; `make install`
fetches it), steps the rig-run board's run (Tollbooth on Server 1) once the network is gone, and
its decisions, trace and final state are the server's own, decision by decision. The server's
JSON API stays the reference: it is asked the same positions after the browser is done.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from test_browser import ARTIFACTS as BROWSER_ARTIFACTS
from test_browser import browser, serve, server, sync_api  # noqa: F401  (shared fixtures: one server per module)

from webapp.liveserver import post_json
from webapp.offline_engine import DEST, read_manifest
from webapp.textfmt import say_plain

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = BROWSER_ARTIFACTS.parent / "offline-stepper"
BOARD = json.loads((ROOT / "engine" / "examples" / "rig-run.json").read_text(encoding="utf-8"))
MAX_DECISIONS = 60


def api_positions(base: str, token: str, decisions: list[str]) -> list[dict]:
    """The server's answer at the start and after each decision (whole trace each time)."""
    out = [post_json_get(base, f"/api/engine/sessions/{token}")]
    for d in decisions:
        answer = post_json(base, f"/api/engine/sessions/{token}/decisions?trace=1", {"decision": d})
        token = answer["token"]
        out.append(answer)
    return out


def post_json_get(base: str, path: str) -> dict:
    import urllib.request

    with urllib.request.urlopen(base + path) as resp:
        return json.load(resp)


def trace_lines(state: dict) -> list[str]:
    """The trace as the offline page lists it: the step's number, then the sentence as shown."""
    return [
        (f"{e['step_number']} " if e.get("step_number") else "") + say_plain(e["text"])
        for e in state["trace"]
    ]


def offline_position(page) -> dict:
    """What the offline page shows now, and the worker's state behind it."""
    return page.evaluate(
        """() => ({
            state: window.NROfflineStepper.state(),
            offered: [...document.querySelectorAll('.st[data-offline] #decisions button')].map(b => b.dataset.decision),
            trace: [...document.querySelectorAll('.st[data-offline] #trace li')].map(li => li.textContent),
            finished: !!document.querySelector('.st[data-offline] #finished'),
        })"""
    )


def test_offline_stepper_matches_the_server(browser, server):  # noqa: F811
    assert read_manifest(DEST) is not None, (
        "the in-browser engine is not installed: run `make offline-engine`"
    )
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    start = post_json(
        server, "/api/engine/sessions", {"board": BOARD, "structure": "run", "params": {"server": "remote1"}}
    )
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=1)
    page = context.new_page()
    page.set_default_timeout(60_000)
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto(server + "/step?s=" + start["token"])
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")

    # saved for offline: the button shows the size, then says it is saved
    save = page.locator("#offstep .save-stepper")
    sync_api.expect(save).to_contain_text(re.compile(r"\(\d+\.\d MB\)"))
    save.click()
    page.wait_for_selector("#offstep[data-saved]")
    assert "saved" in page.locator("#offstep").inner_text()

    # one decision online (in place, by the server), then the network goes
    first = page.locator("#decisions button").first.get_attribute("data-decision")
    page.locator("#decisions button").first.click()
    page.wait_for_function(
        "() => /· 1 decision\\b/.test(document.querySelector('.st h1').textContent) && !document.querySelector('.st[aria-busy]')"
    )
    assert page.locator(".st[data-offline]").count() == 0  # stepped by the server
    taken = [first]
    context.set_offline(True)

    seen: list[dict] = []
    while len(taken) < MAX_DECISIONS:
        buttons = page.locator("#decisions button")
        if buttons.count() == 0:
            break
        choice = buttons.first.get_attribute("data-decision")
        buttons.first.click()
        taken.append(choice)
        page.wait_for_function(
            "n => { const s = window.NROfflineStepper && window.NROfflineStepper.state();"
            " return s && s.decisions_taken.length === n && !document.querySelector('.st[aria-busy]'); }",
            arg=len(taken),
        )
        seen.append(offline_position(page))
    page.screenshot(path=str(ARTIFACTS / "offline-finished.png"), full_page=True)
    assert seen, "no decision was stepped offline"
    final = seen[-1]
    assert final["finished"], f"the run did not finish in {MAX_DECISIONS} decisions offline"

    # the server, asked the same positions afterwards
    context.set_offline(False)
    reference = api_positions(server, start["token"], taken)
    for i, shown in enumerate(seen, start=2):  # seen[0] is after the second decision
        ref = reference[i]
        assert shown["state"]["decisions_taken"] == taken[:i]
        assert shown["offered"] == [d["id"] for d in ref["decisions"]], f"decisions after {taken[:i]}"
        assert [d["id"] for d in shown["state"]["decisions"]] == [d["id"] for d in ref["decisions"]]
        assert shown["state"]["finished"] == ref["finished"]
        assert len(shown["trace"]) == ref["trace_length"]
    ref = reference[-1]
    assert final["trace"] == trace_lines(ref)
    assert [e["text"] for e in final["state"]["trace"]] == [e["text"] for e in ref["trace"]]
    assert [e["step"] for e in final["state"]["trace"]] == [e["step"] for e in ref["trace"]]
    assert final["state"]["outcome"] == ref["outcome"]
    assert final["state"]["board"] == ref["board"]
    assert "[credit]" not in page.locator(".st").inner_text()

    # Undo, offline: the position before the last decision, as the server has it
    page.locator(".st[data-offline] #undo").click()
    page.wait_for_function(
        "n => window.NROfflineStepper.state().decisions_taken.length === n", arg=len(taken) - 1
    )
    back = offline_position(page)
    assert back["offered"] == [d["id"] for d in reference[-2]["decisions"]]
    assert len(back["trace"]) == reference[-2]["trace_length"]

    # a stepper link opened with no network: the saved stepper page steps it in the browser
    context.set_offline(True)
    page.goto(server + "/step?s=" + reference[1]["token"])
    page.wait_for_function(
        "() => { const s = window.NROfflineStepper && window.NROfflineStepper.state(); return s && s.decisions_taken.length === 1; }"
    )
    opened = offline_position(page)
    assert opened["offered"] == [d["id"] for d in reference[1]["decisions"]]
    assert opened["trace"] == trace_lines(reference[1])
    page.screenshot(path=str(ARTIFACTS / "offline-link.png"), full_page=True)
    context.close()
    assert not problems, problems
