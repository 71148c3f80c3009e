"""Issue 33's done-when scenario in the board editor on a 390x844 phone (issue 35, "an editor for
thumbs" and "decisions without a page load"): the Tollbooth + Ice Wall remote with Hostile
Takeover in its root and the Corroder + Gordian Blade rig with 6 credits, built by card names
(one typed with a typo), stepped to its end. Headless Chromium (Debian's `chromium`) against a
real gunicorn serving a build with the NetrunnerDB card data. The flow and its counting are
tests/editor_flow.py's, which bench/editor_thumbs.py prints."""

from __future__ import annotations

from editor_flow import Thumb, build_scenario, step_to_end
from test_browser import browser, serve, sync_api  # noqa: F401  (shared fixtures)
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
