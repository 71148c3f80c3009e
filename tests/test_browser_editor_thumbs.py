"""Issue 33's done-when scenario in the board editor on a 390x844 phone (issue 35, "an editor for
thumbs" and "decisions without a page load"): the Tollbooth + Ice Wall remote with Hostile
Takeover in its root and the Corroder + Gordian Blade rig with 6 credits, built by card names
(one typed with a typo), stepped to its end. Headless Chromium (Debian's `chromium`) against a
real gunicorn serving a build with the NetrunnerDB card data. The flow and its counting are
tests/editor_flow.py's, which bench/editor_thumbs.py prints."""

from __future__ import annotations

import json

from editor_flow import Thumb, build_scenario, step_to_end
from test_browser import browser, serve, server, sync_api  # noqa: F401  (shared fixtures)
from test_browser_stepper import ARTIFACTS, card_server  # noqa: F401

expect = sync_api.expect


def test_tollbooth_run_built_by_names_and_stepped_in_place(browser, card_server):  # noqa: F811
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=1)
    page = context.new_page()
    page.set_default_timeout(20_000)
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    thumb = Thumb(page)

    built = build_scenario(thumb, card_server, expect)
    # the budgets of issue 35: at most 15 taps and 3 screens of scrolling, no page load per edit
    assert built["taps"] <= 15, thumb.log
    assert built["screens"] <= 3, built
    assert built["page_loads"] == 1, built  # the editor itself, nothing more
    # the run follows what was put on the board: the new remote is the server to run
    expect(page.locator("#server")).to_have_value("remote1")
    board = page.evaluate("JSON.parse(document.getElementById('boardjson').value)")
    remote = board["servers"]["remote1"]
    assert [i["card_id"] for i in remote["ice"]] == ["tollbooth", "ice_wall"]
    assert all(i["rezzed"] for i in remote["ice"])
    assert remote["content"]["card_id"] == "hostile_takeover"
    assert [p["card_id"] for p in board["runner"]["rig"]["programs"]] == ["corroder", "gordian_blade"]
    assert board["runner"]["credits"] == 6
    # the Start bar is in reach wherever the judge is on the page
    bar = page.locator("#startpanel")
    for y in (0, 10_000):
        page.evaluate(f"window.scrollTo(0, {y})")
        box = bar.bounding_box()
        assert box is not None and 0 <= box["y"] and box["y"] + box["height"] <= 844 + 1, (y, box)
    page.screenshot(path=str(ARTIFACTS / "thumbs-editor-built.png"))

    loads_before = thumb.loads
    offered = step_to_end(thumb, expect)
    # Start is one page load; every decision after it is drawn in place
    assert thumb.loads - loads_before == 1, thumb.log
    finished = page.locator("#finished")
    expect(finished).to_contain_text("Run on Server 1: unsuccessful")
    expect(finished).to_contain_text("ended by end the run")
    trace = page.locator("#trace").text_content() or ""
    # the toll is paid on encounter (6 -> 3), Gordian Blade is pumped 2 -> 5 with the rest, and
    # the Runner cannot pay for the break: Tollbooth's subroutine ends the run
    assert "Tollbooth: the Runner must pay 3 credits if able, and can: they pay 3." in trace
    assert "(4 -> 5)" in trace and "the Runner cannot break more" in trace
    assert not [o for o in offered if "break" in o.lower() and "gordian" in o.lower()], offered
    expect(page.locator("#board .bp-runner")).to_contain_text("0¢")
    # the address is the position's own link: a reload shows the same finished run
    assert "/step?s=" in page.url
    page.reload()
    expect(page.locator("#finished")).to_contain_text("unsuccessful")
    context.close()
    assert not problems, problems


def test_run_target_follows_applied_boards_and_ice_goes_where_chosen(browser, server):  # noqa: F811
    """Without card data (hand-made cards): Apply JSON, a saved session and an example set the
    server to run; new ice goes inside by default and outside when chosen; -/+ never go below 0."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=1)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(server + "/editor")
    page.wait_for_selector("#formroot .srv[data-server='hq']")
    # an empty board: no ice anywhere, no remote
    expect(page.locator("#formroot .ic")).to_have_count(0)
    expect(page.locator("#formroot .srv[data-server^='remote']")).to_have_count(0)
    expect(page.locator("a.example-link[aria-current='true']")).to_have_text("Empty board")
    page.click(".json-panel > summary")
    ice = {"name": "Wall", "type": "ice", "rez_cost": 1, "subroutines": ["end_the_run"]}
    board = {"format": "nrrules-board", "version": 1, "servers": {"remote2": {"ice": [ice]}}}
    page.fill("#boardjson", json.dumps(board))
    page.click("#applyjson")
    expect(page.locator("#server")).to_have_value("remote2")
    # a saved session names its own server
    board["servers"]["hq"] = {"ice": [ice]}
    page.fill("#boardjson", json.dumps({"board": board, "structure": "run", "params": {"server": "hq"}}))
    page.click("#applyjson")
    expect(page.locator("#server")).to_have_value("hq")
    expect(page.locator("#formroot .srv[data-server='hq'] .ic")).to_have_count(1)
    # an example: its remote is the one to run, and the address says which example
    page.click("a.example-link[data-example='remote-run']")
    expect(page.locator("#server")).to_have_value("remote1")
    assert page.url.endswith("example=remote-run")
    # new ice: inside (innermost) by default, outside when chosen beside the name box
    srv = page.locator("#formroot .srv[data-server='hq']")
    page.click("a.example-link[data-example='']")
    expect(page.locator("#formroot .ic")).to_have_count(0)
    srv.locator(".add-ice").click()
    srv.locator("input[data-path='servers.hq.ice[0].name']").fill("First")
    srv.locator(".add-ice").click()
    expect(srv.locator(".ic .ic-name")).to_have_text(["First", "Ice 2"])
    srv.locator(".ice-at [data-side='outside']").click()
    expect(srv.locator(".ice-at [data-side='outside']")).to_have_attribute("aria-pressed", "true")
    srv.locator(".add-ice").click()
    expect(srv.locator(".ic .ic-name")).to_have_text(["Ice 3", "First", "Ice 2"])
    expect(page.locator("#server")).to_have_value("hq")
    # -/+ on a count: one tap each, never below 0, written to the board
    credits = page.locator("#formroot .stepper[data-box='corp.credits']")
    for _ in range(6):
        credits.locator(".less").click()
    expect(credits.locator("input")).to_have_value("0")
    credits.locator(".more").click()
    expect(credits.locator("input")).to_have_value("1")
    expect(page.locator("#valid-status")).to_have_text("Board is valid.")
    saved = json.loads(page.locator("#boardjson").input_value())
    assert saved["corp"]["credits"] == 1
    assert [i["name"] for i in saved["servers"]["hq"]["ice"]] == ["Ice 3", "First", "Ice 2"]
    context.close()
